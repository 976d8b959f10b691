// What a registry entry's check and builder see: the element's keys, and the table being built.
//
// The lattice builder (beam/TableBuilder.hh) implements ElementBuild; the entries (deck/elements/)
// only call it, so the registry sits below beam/ in the layers and needs nothing from it.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "deck/Config.hh"
#include "deck/DeckError.hh"
#include "deck/ElementRegistry.hh"
#include "kernels/core/ReferenceParticle.hh"
#include "kernels/elements/Element.hh"
#include "kernels/elements/SynchrotronRadiation.hh"

namespace gt {

//! A checked element's keys: given or not, with the registry's defaults.
class ElementKeys {
  public:
    explicit ElementKeys(ElementConfig const& cfg) : cfg_(cfg) {}

    ElementConfig const& config() const { return cfg_; }
    //! Whether the deck gave the key (any kind of value).
    bool has(std::string const& key) const
    {
        return cfg_.values.count(key) || cfg_.strings.count(key) || cfg_.arrays.count(key);
    }
    //! A number: the deck's, else the registry's default (element_value).
    double value(std::string_view key) const { return element_value(cfg_, key); }
    //! A number the registry gives no default (0 when absent: "not given").
    double value_or_zero(std::string const& key) const { return cfg_.get(key, 0.0); }
    //! A string: the deck's, else the registry's default choice, else "".
    std::string text(std::string const& key) const;
    //! An array of numbers (empty when absent).
    std::vector<double> const& numbers(std::string const& key) const;
    //! An entry of `kind` with the element's misalignment (dx, dy, tilt); the caller fills its member.
    Element entry(ElementKind kind) const;

  private:
    ElementConfig const& cfg_;
};

//! The check of one element: its keys, and where to report what is wrong with them.
class ElementCheck : public ElementKeys {
  public:
    ElementCheck(ElementConfig const& cfg, std::vector<Diagnostic>& out) : ElementKeys(cfg), out_(out) {}

    //! Records a problem of `key` ("" for the element itself).
    void fail(std::string const& key, std::string const& message)
    {
        out_.push_back(Diagnostic{config().where,
                                  "elements." + config().name + (key.empty() ? "" : "." + key), message});
    }

  private:
    std::vector<Diagnostic>& out_;
};

//! The element table as an entry's builder appends to it.
class ElementBuild : public ElementKeys {
  public:
    using ElementKeys::ElementKeys;
    virtual ~ElementBuild() = default;

    //! The reference particle at the entrance of the next entry.
    virtual ReferenceParticle const& reference() const = 0;
    //! The element's slices (thin elements make one entry whatever it says).
    int slices() const { return static_cast<int>(value("slices")); }

    //! Appends slice `slice` of `slices` that advances the reference by `length` at constant energy.
    virtual void add(Element const& e, int slice, int slices, double length) = 0;
    //! Appends an entry that has already advanced the reference itself (an RF cavity).
    virtual void add_with_reference(Element const& e, int slice, int slices,
                                    ReferenceParticle const& after) = 0;

    //! For a drift, quadrupole or solenoid of `length` with a field (`field` none: a drift): when
    //! `tracking` (the element's, else [run] tracking) chooses time, appends the one t-code entry and
    //! returns true; else returns false and the caller builds its z-code slices.
    virtual bool add_if_tracked_in_time(TimeField field, double length, double k1, double ks) = 0;
    //! A solenoid or cavity given by its on-axis profile (`profile = "file"`): reads and checks it,
    //! appends its slices, or one t-code entry.
    virtual void add_profile_map() = 0;
    //! A 3D field map (`file`): reads and checks it, appends its slices, or one t-code entry.
    virtual void add_field_map() = 0;

    //! `[lattice] radiation = "mean"`: the magnets radiate (their maps get radiation_constant() of the
    //! reference, kernels/elements/SynchrotronRadiation.hh) and the RF cavities keep the reference energy
    //! (the design energy of a light-source ring, whose RF replaces the loss).
    virtual bool radiation() const { return false; }
    //! Whether the magnets' maps radiate: radiation(), unless the table is built for the optics (whose maps
    //! are those of the ring without radiation, as MAD-X's TWISS).
    virtual bool radiation_in_magnets() const { return radiation(); }
    //! The radiation constant for the next entry: radiation_constant(reference()) when the magnets radiate,
    //! else 0.
    double radiation_constant_here() const
    {
        return radiation_in_magnets() ? radiation_constant(reference()) : 0.0;
    }

    //! A problem found while building (the reference decelerated below rest, ...): throws DeckError.
    [[noreturn]] void fail(std::string const& key, std::string const& message) const
    {
        throw DeckError(config().where, "elements." + config().name + (key.empty() ? "" : "." + key),
                        message);
    }
};

}  // namespace gt
