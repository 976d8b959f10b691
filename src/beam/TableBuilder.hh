// The element table while it is built: entries appended with the reference particle after each, the
// field data of the maps, and the occurrence of one deck element as its registry entry sees it.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "beam/FieldMap3DFile.hh"
#include "beam/Lattice.hh"
#include "deck/ElementBuild.hh"
#include "kernels/field/EmFieldGrid.hh"

namespace gt {

//! What the lattice needs to resolve `tracking`: the [run] default and the bunch length.
struct TrackingContext {
    std::string mode = "z";  //!< [run] tracking
    double sigma_t = 0;      //!< [m] rms of c (t - t_ref) of the beam at the start (0: unknown)
    bool radiation = false;  //!< [lattice] radiation = "mean" or "quantum" (ElementBuild::radiation)
    bool radiation_in_magnets = true;  //!< false: the optics' table (ElementBuild::radiation_in_magnets)
    bool quantum = false;              //!< [lattice] radiation = "quantum": the radiating maps emit photons
    std::uint64_t photon_key = 0;      //!< [run] seed ^ k_photon_salt (QuantumExcitation::key)
};

class TableBuilder {
  public:
    explicit TableBuilder(ReferenceParticle const& begin);

    //! Appends one entry that advances the reference by `length` at constant energy.
    void add(Element e, ElementInfo info, double length);
    //! Appends an entry that has already advanced the reference itself (an RF cavity).
    void add_with_reference(Element e, ElementInfo info, ReferenceParticle const& after);

    ReferenceParticle const& reference() const { return ref_; }
    //! Entries appended so far.
    std::size_t size() const { return lattice_.elements.size(); }
    //! Spline coefficients of the profile elements and grids of the 3D maps, filled while the table
    //! is built.
    std::vector<double>& field_data() { return field_data_; }

    //! The frequency the file of a 3D map states [Hz] (0: none); the file must have been read.
    double field_map_frequency(std::string const& path) const { return files_.at(path).frequency; }

    //! The grid of the 3D map at `path` with these scales and layout, read and appended to the field
    //! data on first use and shared by later occurrences; its values point into the field data now.
    EmFieldGrid field_grid(std::string const& path, double e_scale, double b_scale, FieldLayout layout,
                           double& dz);

    Lattice finish();

  private:
    void push(Element e, ElementInfo info);

    Lattice lattice_;
    ReferenceParticle ref_;
    std::vector<double> field_data_;
    std::map<std::string, FieldMap3DFile> files_;
    std::map<std::tuple<std::string, double, double, int>, EmFieldGrid> grids_;
};

//! One occurrence of a deck element in the line: what its registry entry's builder appends to.
class OccurrenceBuilder final : public ElementBuild {
  public:
    //! `path`: the element's file (profile or map) resolved against the deck's directory.
    OccurrenceBuilder(TableBuilder& table, ElementConfig const& cfg, int deck_index, std::string path,
                      TrackingContext const& tracking);

    ReferenceParticle const& reference() const override { return table_.reference(); }
    bool radiation() const override { return tracking_.radiation; }
    bool radiation_in_magnets() const override
    {
        return tracking_.radiation && tracking_.radiation_in_magnets;
    }
    void add(Element const& e, int slice, int slices, double length) override;
    void add_with_reference(Element const& e, int slice, int slices, ReferenceParticle const& after) override;
    bool add_if_tracked_in_time(TimeField field, double length, double k1, double ks) override;
    void add_profile_map() override;
    void add_field_map() override;

    //! The table's description of slice `slice` of `slices`.
    ElementInfo info(int slice, int slices) const;

  private:
    //! `e` with its quantum excitation switched on when the deck asks for it and its map radiates
    //! (set_quantum_excitation, at the reference of its entrance): every radiating entry of every registry
    //! entry, without each builder saying so.
    Element with_photons(Element e) const;

    TableBuilder& table_;
    int deck_index_;
    std::string path_;
    TrackingContext const& tracking_;
};

}  // namespace gt
