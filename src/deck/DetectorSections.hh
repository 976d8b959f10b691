// Reading the sections of a detector deck (kind = "detector"): [materials], [geometry], [field],
// [propagation], [gun], [physics], [output] into DeckConfig::detector (documented in docs/decks.md).
//
// Written over the deck reader's parser type (src/deck/DeckReader.cc instantiates it with its
// DeckParser), so that detector keys get the very same diagnostics as beamline ones: file:line:column,
// the key path, what was expected, did-you-mean, every problem at once.
#pragma once

#include <toml++/toml.h>
#include <algorithm>
#include <array>
#include <cmath>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "deck/Config.hh"
#include "deck/ElementSchema.hh"
#include "deck/Suggest.hh"
#include "deck/ShowerKeys.hh"
#include "deck/Units.hh"
#include "detector/Materials.hh"
#include "detector/Particles.hh"

namespace gt::detector_deck {

inline std::string joined(std::string_view prefix, std::string_view key)
{
    return prefix.empty() ? std::string(key) : fmt::format("{}.{}", prefix, key);
}

inline std::string quoted(std::vector<std::string> const& names)
{
    std::string text;
    for (auto const& n : names) text += (text.empty() ? "" : ", ") + fmt::format("\"{}\"", n);
    return text;
}

//! What a node is, for "got ..." in messages.
inline std::string node_text(toml::node const& n)
{
    if (auto const* s = n.as_string()) return fmt::format("a string (\"{}\")", s->get());
    if (auto const* i = n.as_integer()) return fmt::format("an integer ({})", i->get());
    if (auto const* f = n.as_floating_point()) return fmt::format("a number ({})", f->get());
    if (auto const* b = n.as_boolean()) return fmt::format("a boolean ({})", b->get());
    if (n.is_array()) return "an array";
    if (n.is_table()) return "a table";
    return "a date/time";
}

template <class Parser>
class DetectorSections {
  public:
    DetectorSections(Parser& p, DeckConfig& cfg) : p_(p), cfg_(cfg), d_(cfg.detector) {}

    void read(toml::table const& root)
    {
        // [scan] is read by the deck parser for either kind of deck
        static std::vector<std::string> const sections = {
            "run", "materials", "geometry", "field", "propagation", "gun", "physics", "output", "scan"};
        static std::vector<std::string> const beamline = {"beam", "elements", "lattice", "space_charge"};
        for (auto&& [k, v] : root) {
            std::string const key(k.str());
            if (std::find(sections.begin(), sections.end(), key) != sections.end()) continue;
            if (std::find(beamline.begin(), beamline.end(), key) != beamline.end()) {
                p_.error(p_.where(k, v), key,
                         fmt::format(
                             "[{}] belongs to beamline decks (kind = \"beamline\"); this is a detector deck",
                             key));
            } else {
                p_.error(p_.where(k, v), key,
                         fmt::format("unknown section '{}'{}", key, did_you_mean(key, sections)));
            }
        }
        if (auto const* m = p_.table_at(root, "", "materials", false)) read_materials(*m);
        material_names_ = builtin_material_names();
        for (auto const& m : d_.materials) material_names_.push_back(m.name);
        if (auto const* g = p_.table_at(root, "", "geometry", true)) read_geometry(*g);
        if (auto const* f = p_.table_at(root, "", "field", false)) read_field(*f);
        if (auto const* pr = p_.table_at(root, "", "propagation", false)) read_propagation(*pr);
        if (auto const* g = p_.table_at(root, "", "gun", true)) read_gun(*g);
        if (auto const* ph = p_.table_at(root, "", "physics", false)) read_physics(*ph);
        read_output(p_.table_at(root, "", "output", false));
    }

  private:
    // ---- helpers ---------------------------------------------------------------------------------

    //! Three quantities of one kind: [x, y, z], each a number or a string with a unit.
    std::optional<std::array<double, 3>> vec3_of(toml::node const& n, std::string const& key,
                                                 QuantityKind const& kind, Bound bound)
    {
        auto const* a = n.as_array();
        if (!a || a->size() != 3) {
            p_.error(
                p_.where(n), key,
                fmt::format("expected an array of three values ({} in {}, or strings with units), got {}",
                            kind.what, kind.unit, a ? fmt::format("{} values", a->size()) : node_text(n)));
            return std::nullopt;
        }
        std::array<double, 3> out{};
        bool ok = true;
        for (std::size_t i = 0; i < 3; ++i) {
            auto v = p_.quantity_of(*a->get(i), fmt::format("{}[{}]", key, i), kind, bound);
            if (v)
                out[i] = *v;
            else
                ok = false;
        }
        return ok ? std::optional(out) : std::nullopt;
    }

    std::optional<std::array<double, 3>> vec3_at(toml::table const& t, std::string const& path,
                                                 std::string_view key, QuantityKind const& kind, Bound bound,
                                                 bool required)
    {
        if (toml::node const* n = t.get(key)) return vec3_of(*n, joined(path, key), kind, bound);
        if (required) p_.missing(t, path, key, fmt::format("three values: {} in {}", kind.what, kind.unit));
        return std::nullopt;
    }

    std::optional<bool> bool_at(toml::table const& t, std::string const& path, std::string_view key)
    {
        if (toml::node const* n = t.get(key)) return p_.bool_of(*n, joined(path, key));
        return std::nullopt;
    }

    std::optional<std::string> string_at(toml::table const& t, std::string const& path, std::string_view key,
                                         bool required, std::string_view what)
    {
        if (toml::node const* n = t.get(key)) return p_.string_of(*n, joined(path, key));
        if (required) p_.missing(t, path, key, what);
        return std::nullopt;
    }

    //! A direction: three plain numbers, normalized; not all zero.
    std::optional<std::array<double, 3>> direction_at(toml::table const& t, std::string const& path,
                                                      std::string_view key, bool required)
    {
        auto v = vec3_at(t, path, key, quantity::dimensionless, Bound::any, required);
        if (!v) return v;
        double const n = std::sqrt((*v)[0] * (*v)[0] + (*v)[1] * (*v)[1] + (*v)[2] * (*v)[2]);
        if (!(n > 0)) {
            p_.error(p_.where(*t.get(key)), joined(path, key), "expected a direction, got the zero vector");
            return std::nullopt;
        }
        for (auto& c : *v) c /= n;
        return v;
    }

    // ---- [materials] ----------------------------------------------------------------------------

    void read_materials(toml::table const& t)
    {
        auto const builtins = builtin_material_names();
        for (auto [k, v] : p_.in_order(t)) {
            std::string const name(k->str());
            std::string const path = joined("materials", name);
            if (std::find(builtins.begin(), builtins.end(), name) != builtins.end()) {
                p_.error(p_.where(*k, *v), path,
                         fmt::format("'{}' is a built-in material; give yours another name", name));
                continue;
            }
            auto const* m = v->as_table();
            if (!m) {
                p_.error(p_.where(*v), path,
                         fmt::format("expected a table [materials.{}] with density and elements, got {}",
                                     name, node_text(*v)));
                continue;
            }
            p_.check_keys(*m, path, {"density", "elements", "mean_excitation_energy"});
            MaterialConfig mc;
            mc.name = name;
            auto const at = p_.where(*m);
            mc.line = at.line;
            mc.column = at.column;
            bool ok = true;
            if (auto d = p_.quantity_at(*m, path, "density", quantity::density, Bound::positive, true))
                mc.density = *d;
            else
                ok = false;
            if (auto i = p_.quantity_at(*m, path, "mean_excitation_energy", quantity::energy, Bound::positive,
                                        false))
                mc.mean_excitation = *i;
            toml::node const* el = m->get("elements");
            if (!el) {
                p_.missing(*m, path, "elements",
                           "a table of element symbols and mass fractions, e.g. { C = 0.92, H = 0.08 }");
                ok = false;
            } else if (auto const* et = el->as_table()) {
                double sum = 0;
                auto const symbols = element_symbols();
                for (auto [ek, ev] : p_.in_order(*et)) {
                    std::string const sym(ek->str());
                    std::string const ekey = joined(joined(path, "elements"), sym);
                    if (!find_element(sym)) {
                        p_.error(p_.where(*ek, *ev), ekey,
                                 fmt::format("unknown element '{}'{}", sym, did_you_mean(sym, symbols)));
                        ok = false;
                        continue;
                    }
                    auto w = p_.quantity_of(*ev, ekey, quantity::dimensionless, Bound::positive);
                    if (!w) {
                        ok = false;
                        continue;
                    }
                    mc.elements.emplace_back(sym, *w);
                    sum += *w;
                }
                if (ok && mc.elements.empty()) {
                    p_.error(p_.where(*el), joined(path, "elements"), "expected at least one element");
                    ok = false;
                }
                if (ok && std::abs(sum - 1.0) > 0.01) {
                    p_.error(p_.where(*el), joined(path, "elements"),
                             fmt::format("mass fractions add up to {}, expected 1", sum));
                    ok = false;
                }
                for (auto& e : mc.elements) e.second /= sum;
            } else {
                p_.error(
                    p_.where(*el), joined(path, "elements"),
                    fmt::format("expected a table of mass fractions, e.g. {{ C = 0.92, H = 0.08 }}, got {}",
                                node_text(*el)));
                ok = false;
            }
            if (ok)
                d_.materials.push_back(std::move(mc));
            else
                material_broken_.insert(name);
        }
    }

    // ---- [geometry] -----------------------------------------------------------------------------

    void check_material(toml::table const& t, std::string const& path, VolumeConfig& v)
    {
        auto m = string_at(t, path, "material", true, "a material name (built-in or from [materials])");
        if (!m) return;
        v.material = *m;
        if (std::find(material_names_.begin(), material_names_.end(), *m) == material_names_.end() &&
            !material_broken_.count(*m))
            p_.error(p_.where(*t.get("material")), joined(path, "material"),
                     fmt::format("unknown material '{}'{}", *m, did_you_mean(*m, material_names_)));
    }

    void read_shape(toml::table const& t, std::string const& path, VolumeConfig& v)
    {
        auto shape = p_.choice_at(t, path, "shape", {"box", "tube", "sphere"}, true);
        if (!shape) return;
        v.shape = *shape;
        std::vector<std::string> box_keys = {"half_size"};
        std::vector<std::string> tube_keys = {"rmin", "rmax", "half_z", "phi_start", "phi_delta"};
        std::vector<std::string> sphere_keys = {"rmin", "rmax"};
        auto const& mine = *shape == "box" ? box_keys : (*shape == "tube" ? tube_keys : sphere_keys);
        for (auto const* keys : {&box_keys, &tube_keys, &sphere_keys}) {
            for (auto const& k : *keys) {
                if (std::find(mine.begin(), mine.end(), k) != mine.end()) continue;
                if (toml::node const* n = t.get(k))
                    p_.error(p_.where(*n), joined(path, k),
                             fmt::format("'{}' is not a parameter of shape \"{}\" (it takes {})", k, *shape,
                                         quoted(mine)));
            }
        }
        if (*shape == "box") {
            if (auto h = vec3_at(t, path, "half_size", quantity::length, Bound::positive, true))
                v.half_size = *h;
            return;
        }
        if (auto r = p_.quantity_at(t, path, "rmin", quantity::length, Bound::non_negative, false))
            v.rmin = *r;
        if (auto r = p_.quantity_at(t, path, "rmax", quantity::length, Bound::positive, true)) {
            v.rmax = *r;
            if (v.rmin >= v.rmax)
                p_.error(p_.where(*t.get("rmax")), joined(path, "rmax"),
                         fmt::format("rmax ({} m) must exceed rmin ({} m)", v.rmax, v.rmin));
        }
        if (*shape == "sphere") return;
        if (auto h = p_.quantity_at(t, path, "half_z", quantity::length, Bound::positive, true))
            v.half_z = *h;
        if (auto a = p_.quantity_at(t, path, "phi_start", quantity::angle, Bound::any, false))
            v.phi_start = *a;
        if (auto a = p_.quantity_at(t, path, "phi_delta", quantity::angle, Bound::positive, false)) {
            if (*a > 2.0 * 3.14159265358979323846 + 1e-12)
                p_.error(p_.where(*t.get("phi_delta")), joined(path, "phi_delta"),
                         fmt::format("expected an angle up to 360 deg, got {} rad", *a));
            else
                v.phi_delta = *a >= 2.0 * 3.14159265358979323846 - 1e-12 ? 0.0 : *a;
        }
    }

    void read_geometry(toml::table const& g)
    {
        p_.check_keys(g, "geometry", {"world", "volume"});
        if (auto const* w = p_.table_at(g, "geometry", "world", true)) {
            std::string const path = "geometry.world";
            p_.check_keys(
                *w, path,
                {"shape", "half_size", "rmin", "rmax", "half_z", "phi_start", "phi_delta", "material"});
            d_.world.name = "world";
            read_shape(*w, path, d_.world);
            check_material(*w, path, d_.world);
            auto const at = p_.where(*w);
            d_.world.line = at.line;
            d_.world.column = at.column;
        }
        toml::node const* vn = g.get("volume");
        if (!vn) return;
        auto const* arr = vn->as_array();
        if (!arr) {
            p_.error(p_.where(*vn), "geometry.volume",
                     fmt::format("expected [[geometry.volume]] entries (an array of tables), got {}",
                                 node_text(*vn)));
            return;
        }
        std::vector<std::string> names = {"world"};
        for (std::size_t i = 0; i < arr->size(); ++i) {
            toml::node const& n = *arr->get(i);
            std::string const path = fmt::format("geometry.volume[{}]", i);
            auto const* t = n.as_table();
            if (!t) {
                p_.error(p_.where(n), path, fmt::format("expected a table, got {}", node_text(n)));
                continue;
            }
            p_.check_keys(*t, path,
                          {"name", "shape", "half_size", "rmin", "rmax", "half_z", "phi_start", "phi_delta",
                           "material", "mother", "position", "rotation", "sensitive", "replicas"});
            VolumeConfig v;
            auto const at = p_.where(*t);
            v.line = at.line;
            v.column = at.column;
            if (auto name = string_at(*t, path, "name", true, "a unique volume name")) {
                v.name = *name;
                if (std::find(names.begin(), names.end(), *name) != names.end())
                    p_.error(p_.where(*t->get("name")), joined(path, "name"),
                             fmt::format("a volume named '{}' is defined already", *name));
                names.push_back(*name);
            }
            read_shape(*t, path, v);
            check_material(*t, path, v);
            if (auto m = string_at(*t, path, "mother", false, "")) {
                // a mother must be defined before its daughters
                if (std::find(names.begin(), names.end() - 1, *m) == names.end() - 1)
                    p_.error(p_.where(*t->get("mother")), joined(path, "mother"),
                             fmt::format(
                                 "no volume named '{}' before this one{}", *m,
                                 did_you_mean(*m, std::vector<std::string>(names.begin(), names.end() - 1))));
                else
                    v.mother = *m;
            }
            if (auto pos = vec3_at(*t, path, "position", quantity::length, Bound::any, false))
                v.position = *pos;
            if (auto rot = vec3_at(*t, path, "rotation", quantity::angle, Bound::any, false))
                v.rotation = *rot;
            if (auto s = bool_at(*t, path, "sensitive")) v.sensitive = *s;
            if (auto const* rep = p_.table_at(*t, path, "replicas", false))
                read_replicas(*rep, joined(path, "replicas"), v);
            d_.volumes.push_back(std::move(v));
        }
    }

    void read_replicas(toml::table const& r, std::string const& path, VolumeConfig& v)
    {
        p_.check_keys(r, path, {"count", "step_x", "step_y", "step_z", "step_r"});
        if (auto c = p_.integer_at(r, path, "count", Bound::at_least_one, true))
            v.replicas = static_cast<int>(*c);
        std::vector<std::string> given;
        for (auto const* k : {"step_x", "step_y", "step_z", "step_r"})
            if (r.contains(k)) given.emplace_back(k);
        if (given.size() != 1) {
            p_.error(
                p_.where(r), path,
                given.empty()
                    ? std::string("give the replicas' spacing: one of step_x, step_y, step_z, step_r")
                    : fmt::format("give only one of step_x, step_y, step_z, step_r (got {})", quoted(given)));
            return;
        }
        auto const& key = given[0];
        if (auto s = p_.quantity_at(r, path, key, quantity::length, Bound::positive, true))
            v.replica_step = *s;
        v.replica_axis = key == "step_x"   ? ReplicaAxis::x
                         : key == "step_y" ? ReplicaAxis::y
                         : key == "step_z" ? ReplicaAxis::z
                                           : ReplicaAxis::r;
        if (v.replica_axis == ReplicaAxis::r && v.shape == "box")
            p_.error(p_.where(*r.get(key)), joined(path, key),
                     "radial replicas need a tube or a sphere, not a box");
    }

    // ---- [field], [propagation] -----------------------------------------------------------------

    void read_field(toml::table const& t)
    {
        std::string const path = "field";
        auto type = p_.choice_at(t, path, "type", {"none", "uniform", "solenoid", "map"}, true);
        if (!type) return;
        FieldConfig& f = d_.field;
        f.type = *type;
        if (*type == "none") {
            p_.check_keys(t, path, {"type"});
        } else if (*type == "uniform") {
            p_.check_keys(t, path, {"type", "B"});
            if (auto b = vec3_at(t, path, "B", quantity::magnetic_field, Bound::any, true)) f.b = *b;
        } else if (*type == "solenoid") {
            p_.check_keys(t, path, {"type", "B", "radius", "half_length", "center"});
            if (auto b = p_.quantity_at(t, path, "B", quantity::magnetic_field, Bound::any, true)) f.b0 = *b;
            if (auto r = p_.quantity_at(t, path, "radius", quantity::length, Bound::positive, true))
                f.radius = *r;
            if (auto h = p_.quantity_at(t, path, "half_length", quantity::length, Bound::positive, true))
                f.half_length = *h;
            if (auto c = vec3_at(t, path, "center", quantity::length, Bound::any, false)) f.center = *c;
        } else {
            p_.check_keys(t, path, {"type", "file", "format", "center"});
            if (auto file = string_at(t, path, "file", true, "the HDF5 field-map file")) f.file = *file;
            if (auto fmt_ = p_.choice_at(t, path, "format", {"cartesian", "rz"}, true)) f.format = *fmt_;
            if (auto c = vec3_at(t, path, "center", quantity::length, Bound::any, false)) f.center = *c;
        }
    }

    void read_propagation(toml::table const& t)
    {
        std::string const path = "propagation";
        p_.check_keys(t, path, {"max_substeps", "delta_chord", "delta_intersection", "epsilon", "max_steps"});
        PropagationConfig& pr = d_.propagation;
        if (auto n = p_.integer_at(t, path, "max_substeps", Bound::at_least_one, false))
            pr.max_substeps = static_cast<int>(std::min<std::int64_t>(*n, 1 << 30));
        if (auto v = p_.quantity_at(t, path, "delta_chord", quantity::length, Bound::positive, false))
            pr.delta_chord = *v;
        if (auto v = p_.quantity_at(t, path, "delta_intersection", quantity::length, Bound::positive, false))
            pr.delta_intersection = *v;
        if (auto v = p_.quantity_at(t, path, "epsilon", quantity::dimensionless, Bound::positive, false)) {
            if (*v >= 0.1)
                p_.error(p_.where(*t.get("epsilon")), "propagation.epsilon",
                         fmt::format("expected a relative accuracy well below 1 (e.g. 1e-6), got {}", *v));
            else
                pr.epsilon = *v;
        }
        if (auto n = p_.integer_at(t, path, "max_steps", Bound::at_least_one, false))
            pr.max_steps = static_cast<std::uint64_t>(std::min<std::int64_t>(*n, 4000000000LL));
    }

    // ---- [gun] ----------------------------------------------------------------------------------

    void read_gun(toml::table const& t)
    {
        std::string const path = "gun";
        p_.check_keys(t, path, {"particle", "energy", "position", "direction", "events", "per_event"});
        GunConfig& g = d_.gun;
        if (auto p = p_.choice_at(t, path, "particle", detector_particle_names(), true)) g.particle = *p;
        if (auto n = p_.integer_at(t, path, "events", Bound::at_least_one, true))
            g.events = static_cast<std::uint64_t>(*n);
        if (auto n = p_.integer_at(t, path, "per_event", Bound::at_least_one, false))
            g.per_event = static_cast<std::uint64_t>(*n);
        read_energy(t, path, g);
        read_position(t, g);
        read_direction(t, path, g);
    }

    void read_energy(toml::table const& t, std::string const& path, GunConfig& g)
    {
        toml::node const* n = t.get("energy");
        if (!n) {
            p_.missing(t, path, "energy",
                       "the kinetic energy: \"1 GeV\", or a table with type = \"uniform\" / \"gaussian\"");
            return;
        }
        std::string const key = "gun.energy";
        auto const* e = n->as_table();
        if (!e) {
            if (auto v = p_.quantity_of(*n, key, quantity::energy, Bound::positive)) g.energy = *v;
            return;
        }
        auto type = p_.choice_at(*e, key, "type", {"mono", "uniform", "gaussian"}, true);
        if (!type) return;
        g.spectrum = *type;
        if (*type == "mono") {
            p_.check_keys(*e, key, {"type", "value"});
            if (auto v = p_.quantity_at(*e, key, "value", quantity::energy, Bound::positive, true))
                g.energy = *v;
        } else if (*type == "uniform") {
            p_.check_keys(*e, key, {"type", "min", "max"});
            auto lo = p_.quantity_at(*e, key, "min", quantity::energy, Bound::positive, true);
            auto hi = p_.quantity_at(*e, key, "max", quantity::energy, Bound::positive, true);
            if (lo && hi) {
                if (*hi < *lo)
                    p_.error(p_.where(*e->get("max")), key + ".max",
                             fmt::format("max ({} MeV) is below min ({} MeV)", *hi, *lo));
                g.energy = *lo;
                g.energy2 = *hi;
            }
        } else {
            p_.check_keys(*e, key, {"type", "mean", "sigma"});
            if (auto v = p_.quantity_at(*e, key, "mean", quantity::energy, Bound::positive, true))
                g.energy = *v;
            if (auto v = p_.quantity_at(*e, key, "sigma", quantity::energy, Bound::non_negative, true))
                g.energy2 = *v;
        }
    }

    void read_position(toml::table const& t, GunConfig& g)
    {
        toml::node const* n = t.get("position");
        if (!n) return;  // the origin
        std::string const key = "gun.position";
        auto const* p = n->as_table();
        if (!p) {
            if (auto v = vec3_of(*n, key, quantity::length, Bound::any)) g.position = *v;
            return;
        }
        auto type = p_.choice_at(*p, key, "type", {"point", "box", "beam_spot"}, true);
        if (!type) return;
        g.position_shape = *type;
        if (*type == "point") {
            p_.check_keys(*p, key, {"type", "center"});
        } else if (*type == "box") {
            p_.check_keys(*p, key, {"type", "center", "half_size"});
            if (auto h = vec3_at(*p, key, "half_size", quantity::length, Bound::non_negative, true))
                g.position_spread = *h;
        } else {
            p_.check_keys(*p, key, {"type", "center", "sigma"});
            if (auto s = vec3_at(*p, key, "sigma", quantity::length, Bound::non_negative, true))
                g.position_spread = *s;
        }
        if (auto c = vec3_at(*p, key, "center", quantity::length, Bound::any, false)) g.position = *c;
    }

    void read_direction(toml::table const& t, std::string const& path, GunConfig& g)
    {
        toml::node const* n = t.get("direction");
        if (!n) return;  // +z
        std::string const key = "gun.direction";
        auto const* d = n->as_table();
        if (!d) {
            if (auto v = direction_at(t, path, "direction", false)) g.direction = *v;
            return;
        }
        auto type = p_.choice_at(*d, key, "type", {"fixed", "cone", "isotropic"}, true);
        if (!type) return;
        g.direction_shape = *type;
        if (*type == "fixed") {
            p_.check_keys(*d, key, {"type", "vector"});
            if (auto v = direction_at(*d, key, "vector", true)) g.direction = *v;
        } else if (*type == "cone") {
            p_.check_keys(*d, key, {"type", "axis", "half_angle"});
            if (auto v = direction_at(*d, key, "axis", false)) g.direction = *v;
            if (auto a = p_.quantity_at(*d, key, "half_angle", quantity::angle, Bound::non_negative, true)) {
                if (*a > 3.14159265358979323846)
                    p_.error(p_.where(*d->get("half_angle")), key + ".half_angle",
                             fmt::format("expected a half-angle up to 180 deg, got {} rad", *a));
                g.cone_half_angle = *a;
            }
        } else {
            p_.check_keys(*d, key, {"type"});
        }
    }

    // ---- [physics], [output] --------------------------------------------------------------------

    void read_physics(toml::table const& t)
    {
        std::string const path = "physics";
        p_.check_keys(t, path,
                      {"energy_loss", "fluctuations", "multiple_scattering", "energy_cut", "max_step",
                       "range_fraction", "final_range", "showers", "range_cut", "photon_cut", "secondary_buffer"});
        DetectorPhysicsConfig& ph = d_.physics;
        if (auto b = bool_at(t, path, "energy_loss")) ph.energy_loss = *b;
        if (auto b = bool_at(t, path, "fluctuations")) ph.fluctuations = *b;
        if (auto b = bool_at(t, path, "multiple_scattering")) ph.multiple_scattering = *b;
        if (auto v = p_.quantity_at(t, path, "energy_cut", quantity::energy, Bound::non_negative, false))
            ph.energy_cut = *v;
        if (auto v = p_.quantity_at(t, path, "max_step", quantity::length, Bound::positive, false))
            ph.max_step = *v;
        if (auto v =
                p_.quantity_at(t, path, "range_fraction", quantity::dimensionless, Bound::positive, false)) {
            if (*v > 1)
                p_.error(p_.where(*t.get("range_fraction")), "physics.range_fraction",
                         fmt::format("expected a fraction in (0, 1], got {}", *v));
            else
                ph.range_fraction = *v;
        }
        if (auto v = p_.quantity_at(t, path, "final_range", quantity::length, Bound::positive, false))
            ph.final_range = *v;
        read_shower_keys(p_, t, path, ph);
    }

    void read_output(toml::table const* t)
    {
        cfg_.output.file = cfg_.run.name + ".h5";
        if (!t) return;
        p_.check_keys(*t, "output", {"file", "hits"});
        if (auto f = string_at(*t, "output", "file", false, "")) cfg_.output.file = *f;
        if (auto b = bool_at(*t, "output", "hits")) d_.write_hits = *b;
    }

    Parser& p_;
    DeckConfig& cfg_;
    DetectorConfig& d_;
    std::vector<std::string> material_names_;
    std::set<std::string> material_broken_;
};

//! Reads every detector section of `root` (not [run], read already) with parser p's diagnostics.
template <class Parser>
void read_detector_sections(Parser& p, toml::table const& root, DeckConfig& cfg)
{
    DetectorSections<Parser>(p, cfg).read(root);
}

}  // namespace gt::detector_deck
