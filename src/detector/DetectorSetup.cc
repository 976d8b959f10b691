// Materials, geometry, field, particles, gun and physics settings of a detector run.
#include "detector/DetectorSetup.hh"

#include "detector/MaterialComposition.hh"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <stdexcept>

#include <fmt/format.h>

#include "deck/Materials.hh"
#include "deck/Particles.hh"
#include "kernels/physics/MoliereScattering.hh"
#include "kernels/physics/MultipleScattering.hh"
#include "detector/ShowerSetup.hh"
#include "detector/TabulatedField.hh"
#include "io/H5Access.hh"
#include "io/H5Handle.hh"

namespace gt {

void read_field_map(FieldConfig const& cfg, MagneticField& field, std::vector<double>& values)
{
    h5::File file = h5::open_file_readonly(cfg.file);
    if (!h5::exists(file.get(), "B"))
        throw std::invalid_argument(
            fmt::format("field map '{}': no dataset 'B' (see docs/decks.md)", cfg.file));
    values = h5::read_doubles(file.get(), "B");
    h5::Object b = h5::open_object(file.get(), "B");
    auto const shape = h5::read_uint64_array_attribute(b.get(), "shape");
    auto const spacing = h5::read_double_array_attribute(b.get(), "spacing");
    auto const lo = h5::read_double_array_attribute(b.get(), "lower");
    std::size_t const dims = cfg.format == "cartesian" ? 3 : 2;
    if (shape.size() != dims || spacing.size() != dims || lo.size() != dims)
        throw std::invalid_argument(fmt::format(
            "field map '{}': B's attributes shape, spacing and lower must have {} values for format \"{}\"",
            cfg.file, dims, cfg.format));
    std::size_t nodes = 1;
    for (std::size_t a = 0; a < dims; ++a) {
        if (shape[a] < 2 || !(spacing[a] > 0))
            throw std::invalid_argument(
                fmt::format("field map '{}': each axis needs at least 2 nodes and a spacing > 0", cfg.file));
        // Node counts are ints on the device, and their product must not wrap around to B's size.
        if (shape[a] > std::uint64_t(std::numeric_limits<int>::max()) ||
            __builtin_mul_overflow(nodes, shape[a], &nodes))
            throw std::invalid_argument(fmt::format("field map '{}': shape [{}] has more nodes than a map can hold",
                                                    cfg.file, fmt::join(shape, ", ")));
    }
    std::size_t expected = 0;
    if (__builtin_mul_overflow(nodes, dims, &expected) || values.size() != expected)
        throw std::invalid_argument(fmt::format("field map '{}': B holds {} values, the shape asks for {}",
                                                cfg.file, values.size(), nodes * dims));
    if (cfg.format == "cartesian") {
        field.type = FieldType::cartesian_map;
        for (int a = 0; a < 3; ++a) {
            field.cartesian.n[a] = static_cast<int>(shape[a]);
            field.cartesian.lo[a] = lo[a];
            field.cartesian.spacing[a] = spacing[a];
        }
    } else {
        if (lo[0] != 0.0)
            throw std::invalid_argument(
                fmt::format("field map '{}': an (r, z) map starts at r = 0 (lower[0])", cfg.file));
        field.type = FieldType::rz_map;
        field.rz.nr = static_cast<int>(shape[0]);
        field.rz.nz = static_cast<int>(shape[1]);
        field.rz.dr = spacing[0];
        field.rz.dz = spacing[1];
        field.rz.z_lo = lo[1];
        field.rz.center = {cfg.center[0], cfg.center[1], cfg.center[2]};
    }
}

DetectorSetup make_detector_setup(DeckConfig const& cfg)
{
    DetectorConfig const& d = cfg.detector;
    DetectorSetup s;
    DetectorTables& t = s.tables;

    // materials used by some volume, in order of first use
    std::map<std::string, int> index;
    auto add_material = [&](std::string const& name) {
        if (index.count(name)) return;
        MaterialParams m;
        if (auto b = builtin_material(name)) {
            m = *b;
        } else {
            auto it = std::find_if(d.materials.begin(), d.materials.end(),
                                   [&](auto const& mc) { return mc.name == name; });
            if (it == d.materials.end()) throw std::invalid_argument("unknown material '" + name + "'");
            m = make_material(*it);
        }
        set_moliere_constants(m, material_composition(name, m.density, d.materials));
        index[name] = static_cast<int>(t.materials.size());
        t.materials.push_back(m);
        s.material_names.push_back(name);
    };
    add_material(d.world.material);
    for (auto const& v : d.volumes) add_material(v.material);

    s.geometry = build_geometry(d, index);
    t.volumes = s.geometry.volumes;
    t.nodes = s.geometry.nodes;
    t.items = s.geometry.items;
    t.sections = s.geometry.sections;
    t.num_logical = static_cast<std::int32_t>(s.geometry.logical_names.size());

    if (d.gun.file.empty()) {
        auto particle = find_detector_particle(d.gun.particle);
        if (!particle) throw std::invalid_argument("unknown particle '" + d.gun.particle + "'");
        t.particles = {*particle};
    } else {
        // an event file's primaries are of any species gtrack transports: each once (e- and electron are one)
        for (auto const& name : detector_particle_names())
            if (find_particle_index(t, name) < 0) t.particles.push_back(*find_detector_particle(name));
    }

    FieldConfig const& f = d.field;
    if (f.type == "uniform") {
        t.field.type = FieldType::uniform;
        t.field.uniform.b = {f.b[0], f.b[1], f.b[2]};
    } else if (f.type == "solenoid") {
        t.field.type = FieldType::solenoid;
        t.field.solenoid =
            SolenoidField{f.b0, f.radius, f.half_length, {f.center[0], f.center[1], f.center[2]}};
        if (f.tabulate > 0) {
            std::vector<PolyconeSection> world_sections;  // a polycone world's (its extent is in the shape)
            Vec3 const h = make_shape(d.world, 0, &world_sections).half_extent();
            double const half[3] = {h.x, h.y, h.z};
            t.field.type = FieldType::rz_map;
            t.field.rz = tabulate_solenoid(t.field.solenoid, half, f.tabulate, t.field_map);
        }
    } else if (f.type == "map") {
        read_field_map(f, t.field, t.field_map);
    }

    t.propagation.epsilon = d.propagation.epsilon;
    t.propagation.delta_chord = d.propagation.delta_chord;
    t.propagation.delta_intersection = d.propagation.delta_intersection;
    t.propagation.max_substeps = d.propagation.max_substeps;

    DetectorPhysicsConfig const& ph = d.physics;
    t.physics.energy_loss = ph.energy_loss;
    t.physics.fluctuations = ph.fluctuations;
    t.physics.multiple_scattering = ph.multiple_scattering;
    t.physics.energy_cut = ph.energy_cut;
    t.physics.max_step = ph.max_step > 0 ? ph.max_step : HUGE_VAL;
    t.physics.range_fraction = ph.range_fraction;
    t.physics.final_range = ph.final_range;
    t.physics.msc_model = ph.msc_model == "highland"      ? k_msc_highland
                          : ph.msc_model == "moliere_all" ? k_msc_moliere_all
                                                          : k_msc_moliere;
    t.physics.charged_crossing_hits = ph.charged_crossing_hits ? 1 : 0;
    t.physics.max_steps = static_cast<std::uint32_t>(d.propagation.max_steps);

    GunConfig const& g = d.gun;
    GunParams& gun = t.gun;
    gun.particle = 0;
    gun.spectrum = g.spectrum == "uniform"    ? EnergySpectrum::uniform
                   : g.spectrum == "gaussian" ? EnergySpectrum::gaussian
                                              : EnergySpectrum::mono;
    gun.energy = g.energy;
    gun.energy_spread = g.energy2;
    gun.position_shape = g.position_shape == "box"         ? PositionShape::box
                         : g.position_shape == "beam_spot" ? PositionShape::beam_spot
                                                           : PositionShape::point;
    gun.position = {g.position[0], g.position[1], g.position[2]};
    gun.position_spread = {g.position_spread[0], g.position_spread[1], g.position_spread[2]};
    gun.direction_shape = g.direction_shape == "cone"        ? DirectionShape::cone
                          : g.direction_shape == "isotropic" ? DirectionShape::isotropic
                                                             : DirectionShape::fixed;
    gun.direction = {g.direction[0], g.direction[1], g.direction[2]};
    gun.cos_cone = std::cos(g.cone_half_angle);
    gun.per_event = g.per_event;
    gun.primaries = g.total_primaries();
    t.seed = cfg.run.seed;
    t.track_order = cfg.detector.track_order == "charge"    ? TrackOrder::charge
                    : cfg.detector.track_order == "alive"   ? TrackOrder::alive
                    : cfg.detector.track_order == "compact" ? TrackOrder::compact
                                                            : TrackOrder::slots;
    add_shower_tables(cfg, s);
    return s;
}

std::int32_t find_particle_index(DetectorTables const& t, std::string const& name)
{
    auto const type = find_detector_particle(name);
    if (!type) return -1;
    for (std::size_t i = 0; i < t.particles.size(); ++i) {
        ParticleType const& p = t.particles[i];
        if (p.mass == type->mass && p.charge == type->charge && p.is_electron == type->is_electron)
            return static_cast<std::int32_t>(i);
    }
    return -1;
}

}  // namespace gt
