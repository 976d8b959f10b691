// Calibration measurements. The map rate and per-push cost come from two lattices of the same
// length, one of exact quadrupoles and drifts and one of markers: t = F / rate + P t_push for
// both, two equations in the two unknowns; each map family's rate (MapFamily) from a lattice of that
// family's maps alone, with the same t_push. Space-charge rates come from kicks of a Gaussian bunch.
#include "run/CalibrateMeasure.hh"

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <memory>

#include "beam/AxialFieldMapBuilder.hh"
#include "beam/BeamSetup.hh"
#include "beam/FieldMap3DBuilder.hh"
#include "kernels/beam/BeamKernels.hh"
#include "kernels/beam/SegmentWork.hh"
#include "kernels/beam/SelectParticles.hh"
#include "kernels/core/Device.hh"
#include "kernels/core/DeviceCeilings.hh"
#include "kernels/core/PeakFlops.hh"
#include "kernels/cpu/Executor.hh"
#include "kernels/cpu/Stopwatch.hh"
#include "kernels/spacecharge/SpaceChargeKernels.hh"
#include "run/SpaceChargeSchedule.hh"

namespace gt {

namespace {

using Clock = std::chrono::steady_clock;

double since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

ReferenceParticle calibration_reference()
{
    return ReferenceParticle::from_kinetic(constants::proton_mass_mev, 1.0, 250.0);
}

//! A 250 MeV proton bunch of 1 mm, 1 mrad, 1 mm and 1e-3 rms in every plane.
BeamSampler calibration_sampler()
{
    BeamConfig beam;
    beam.species = SpeciesConfig{"proton", constants::proton_mass_mev, 1.0};
    beam.kinetic_energy_mev = 250.0;
    std::array<double, 36> sigma{};
    for (std::size_t i = 0; i < 6; ++i) sigma[i * 7] = 1e-6;  // [m^2] or [1]: the diagonal
    beam.sigma_matrix = sigma;
    return make_beam_sampler(beam, 12345);
}

//! A FODO-like mix of the element maps the example decks use most (exact quadrupole, exact drift,
//! sextupole by split steps, sector bend, elliptical aperture), or as many markers.
std::vector<Element> calibration_lattice(bool maps, int entries)
{
    ReferenceParticle const ref = calibration_reference();
    std::vector<Element> out;
    for (int i = 0; i < entries; ++i) {
        int const slot = i % 5;
        ElementKind const kinds[5] = {ElementKind::quadrupole, ElementKind::drift,
                                      ElementKind::thick_multipole, ElementKind::sector_bend,
                                      ElementKind::aperture};
        Element e = Element::make(maps ? kinds[slot] : ElementKind::marker);
        e.index = i;
        if (maps && slot == 0)
            e.quadrupole = Quadrupole::make(0.5, i % 10 == 0 ? 1.2 : -1.2, QuadrupoleModel::exact, 0, ref);
        else if (maps && slot == 1)
            e.drift = Drift::make(1.0, DriftModel::exact, ref);
        else if (maps && slot == 2)
            e.thick_multipole = ThickMultipole::make(0.2, 2, 5.0, 0.0, 1, ref);
        else if (maps && slot == 3)
            e.sector_bend = SectorBend::make(1.0, 0.05, 0.0, ref);
        else if (maps)
            e.aperture = Aperture::make(ApertureShape::ellipse, 0.05, 0.05);
        out.push_back(e);
    }
    return out;
}

//! The field-map family's lattice: profile elements (AxialFieldMap: RK4 in s through the paraxial field of
//! an on-axis profile), solenoids and cavities in turn, each 0.4 m of 10 spline intervals (one RK4 step
//! each): a finite solenoid's Bz, 0.45 T at its centre (radius 5 cm, 20 cm long, either sign) and a standing
//! wave's Ez = 1 MV/m cos(pi z / 0.4 m) at 352.2 MHz, 30 degrees before the crest, as the example decks'
//! cavities run. Each is built for the reference the one before leaves (the cavities accelerate it), as a
//! deck's are.
std::vector<Element> field_map_lattice(int entries, std::vector<double>& field_data)
{
    ReferenceParticle ref = calibration_reference();
    double const z0 = -0.2, dz = 0.04, a = 0.05, b = 0.1;
    auto g = [a](double u) { return u / std::sqrt(u * u + a * a); };
    std::vector<Element> out;
    for (int i = 0; i < entries; ++i) {
        bool const rf = i % 2 == 1;
        AxialMapRequest r;
        r.profile.quantity = rf ? ProfileQuantity::electric : ProfileQuantity::magnetic;
        r.profile.z_first = z0;
        r.profile.dz = dz;
        for (double z = z0; r.profile.values.size() < 11; z += dz)
            r.profile.values.push_back(rf ? 1e6 * std::cos(constants::pi * z / 0.4)
                                          : 0.25 * (i % 4 == 0 ? 1.0 : -1.0) * (g(z + b) - g(z - b)));
        r.rf = rf;
        r.frequency = rf ? 352.2e6 : 0.0;
        r.phase = rf ? -constants::pi / 6.0 : 0.0;
        AxialMapSlices const m = build_axial_field_map(r, ref, field_data);
        Element e = Element::make(ElementKind::axial_field_map);
        e.axial_field_map = m.slices.front();
        e.index = i;
        out.push_back(e);
        ref = m.reference_after.back();
    }
    return out;
}

//! A grid of dims[0] x dims[1] x dims[2] nodes spaced `spacing` from `origin`, its fields from f(x, y, z,
//! e, b) (either left empty: no such field).
template <class F>
FieldMap3DFile synthetic_map(std::array<std::int32_t, 3> dims, std::array<double, 3> origin,
                             std::array<double, 3> spacing, bool has_e, F const& f)
{
    FieldMap3DFile m;
    m.path = "(calibration)";
    m.dimensions = dims;
    m.origin = origin;
    m.spacing = spacing;
    auto const nodes = static_cast<std::size_t>(m.nodes());
    if (has_e) m.e.resize(3 * nodes);
    m.b.resize(3 * nodes);
    std::size_t node = 0;
    for (std::int32_t i = 0; i < dims[0]; ++i)
        for (std::int32_t j = 0; j < dims[1]; ++j)
            for (std::int32_t k = 0; k < dims[2]; ++k, ++node)  // z fastest, as the files' node order
                f(origin[0] + i * spacing[0], origin[1] + j * spacing[1], origin[2] + k * spacing[2],
                  has_e ? &m.e[3 * node] : nullptr, &m.b[3 * node]);
    return m;
}

//! The 3D field-map family's lattice (field_map_3d: RK4 in s through E and B interpolated trilinearly on a
//! Cartesian grid), the example deck's two kinds of map in turn and at its grids' sizes: a static
//! quadrupole, B = g (y, x, 0) with g = 1 T/m and tanh edges 1 cm wide, on 9 x 9 x 41 nodes over 4 cm x 4 cm
//! x 0.26 m (52 RK4 steps); and a 1.3 GHz pillbox's TM010 mode, Ez = E0 J0(k r), B_theta = -(E0 / c) J1(k r)
//! with E0 = 1 MV/m, on 13 x 13 x 5 nodes over 12.5 cm x 12.5 cm x 0.115 m (40 steps), 10 degrees before the
//! crest. Each is built for the reference the one before leaves, as a deck's are. Unlike the other families,
//! the GPU's rate here is set by the eight nodes' loads of each field evaluation, not by the FLOPs.
std::vector<Element> field_map_3d_lattice(int entries, std::vector<double>& field_data)
{
    double const g = 1.0, edge = 0.01, q_len = 0.26;
    FieldMap3DFile const quad = synthetic_map(
        {9, 9, 41}, {-0.02, -0.02, 0.0}, {0.005, 0.005, 0.0065}, false,
        [&](double x, double y, double z, double*, double* b) {
            double const s = 0.5 * (std::tanh((z - 0.03) / edge) - std::tanh((z - q_len + 0.03) / edge));
            b[0] = g * s * y;
            b[1] = g * s * x;
            b[2] = 0.0;
        });
    double const f_rf = 1.3e9, k = 2.0 * constants::pi * f_rf / constants::c_light, e0 = 1e6;
    double const radius = 2.404825557695773 / k, cav_len = constants::c_light / (2.0 * f_rf);
    double const dx = 2.0 * radius / 12.0 * 0.707;
    FieldMap3DFile const cavity =
        synthetic_map({13, 13, 5}, {-6 * dx, -6 * dx, 0.0}, {dx, dx, cav_len / 4.0}, true,
                      [&](double x, double y, double, double* e, double* b) {
                          double const r = std::hypot(x, y);
                          double const b_theta = -(e0 / constants::c_light) * std::cyl_bessel_j(1.0, k * r);
                          e[0] = 0.0;
                          e[1] = 0.0;
                          e[2] = e0 * std::cyl_bessel_j(0.0, k * r);
                          b[0] = r > 0 ? -b_theta * y / r : 0.0;
                          b[1] = r > 0 ? b_theta * x / r : 0.0;
                          b[2] = 0.0;
                      });
    EmFieldGrid grids[2] = {append_field_grid(quad, 1.0, 1.0, k_default_field_layout, field_data),
                            append_field_grid(cavity, 1.0, 1.0, k_default_field_layout, field_data)};
    for (EmFieldGrid& grid : grids) grid.values = field_data.data() + grid.offset;  // the data grew: rebind
    ReferenceParticle ref = calibration_reference();
    std::vector<Element> out;
    for (int i = 0; i < entries; ++i) {
        bool const rf = i % 2 == 1;
        FieldMap3DRequest r;
        r.dz = rf ? cav_len / 4.0 : 0.0065;
        r.length = rf ? cav_len : q_len;
        r.frequency = rf ? f_rf : 0.0;
        r.phase = rf ? -10.0 * constants::pi / 180.0 : 0.0;
        r.steps_per_slice = rf ? 40 : 52;
        FieldMap3DSlices const m = build_field_map_3d(r, grids[rf ? 1 : 0], ref);
        Element e = Element::make(ElementKind::field_map_3d);
        e.field_map_3d = m.slices.front();
        e.index = i;
        out.push_back(e);
        ref = m.reference_after.back();
    }
    return out;
}

//! A lattice of one map family's entries (the example decks' usual models): exact drifts, chromatic
//! quadrupoles of alternating sign, weak sextupoles by four split steps (at k2 = 5 nearly every particle was
//! lost, and a lost one costs no map: the rate read 31 instead of 8 GFLOP/s), exact sector bends, and for the
//! other kinds three hard-edge solenoids to one RF cavity (tracked per particle on the CPU, as 3D-map and
//! t-code entries are; the cavity's phase, a sine and a cosine a particle, takes the rate from the
//! solenoids' 7.9 down to 4.7 GFLOP/s on the development VM, where the example decks' field-map and t-code
//! entries run at 5.5-5.9: solenoids alone priced them 1.45x low, one in two cavities 1.35x high); profile
//! entries have a family of their own (field_map_lattice).
std::vector<Element> family_lattice(MapFamily family, int entries, std::vector<double>& field_data)
{
    if (family == MapFamily::field_map) return field_map_lattice(entries, field_data);
    if (family == MapFamily::field_map_3d) return field_map_3d_lattice(entries, field_data);
    ReferenceParticle const ref = calibration_reference();
    std::vector<Element> out;
    for (int i = 0; i < entries; ++i) {
        Element e = Element::make(ElementKind::marker);
        switch (family) {
            case MapFamily::drift:
                e = Element::make(ElementKind::drift);
                e.drift = Drift::make(1.0, DriftModel::exact, ref);
                break;
            case MapFamily::quadrupole:
                e = Element::make(ElementKind::quadrupole);
                e.quadrupole = Quadrupole::make(0.5, i % 2 == 0 ? 1.2 : -1.2, QuadrupoleModel::exact, 0, ref);
                break;
            case MapFamily::multipole:
                e = Element::make(ElementKind::thick_multipole);
                e.thick_multipole = ThickMultipole::make(0.2, 2, 0.005, 0.0, 4, ref);
                break;
            case MapFamily::bend:
                e = Element::make(ElementKind::exact_bend);
                e.exact_bend = ExactBend::make(1.0, 0.05, 0.0, 0.0, 0, ref);
                break;
            case MapFamily::field_map:     // field_map_lattice
            case MapFamily::field_map_3d:  // field_map_3d_lattice
                break;
            case MapFamily::other:
                if (i % 4 != 3) {
                    e = Element::make(ElementKind::solenoid);
                    e.solenoid = Solenoid::make(0.5, i % 2 == 0 ? 0.5 : -0.5, ref);
                } else {  // no voltage: the reference is unchanged, each particle's phase and kick computed
                    e = Element::make(ElementKind::rf_cavity);
                    e.rf_cavity = RfCavity::make(0.5, 0.0, 1.3e9, 0.0, ref, ref);
                }
                break;
        }
        e.index = i;
        out.push_back(e);
    }
    return out;
}

//! A lattice that mixes the kinds as the example decks do, in an order the branch predictor cannot learn
//! from a short history: units drawn at random (a fixed LCG) from an exact drift, a chromatic quadrupole of
//! either sign, a sextupole by four split steps, an exact sector bend between two second-order dipole
//! edges (a deck's `sbend`) and a monitor, each followed by an aperture half the time (a deck's global
//! aperture), up to `entries` entries (~200, `fodo_ring`'s table, so that the table's cache footprint is a
//! real lattice's). The maps are weak and the aperture wide so that no particle is lost (a lost particle
//! costs no map, and the time would then fall below the model it is compared with).
std::vector<Element> mix_lattice(int entries)
{
    ReferenceParticle const ref = calibration_reference();
    std::vector<Element> out;
    std::uint64_t state = 0x9e3779b97f4a7c15ULL;
    int quads = 0;  // focusing and defocusing in turn: a random run of one sign would blow the beam up
    auto draw = [&state](int n) {
        state = state * 6364136223846793005ULL + 1442695040888963407ULL;
        return int((state >> 33) % std::uint64_t(n));
    };
    auto push = [&out](Element e) {
        e.index = int(out.size());
        out.push_back(e);
    };
    while (int(out.size()) < entries) {
        int const unit = draw(5);
        if (unit == 0) {
            Element e = Element::make(ElementKind::drift);
            e.drift = Drift::make(0.2, DriftModel::exact, ref);
            push(e);
        } else if (unit == 1) {
            Element e = Element::make(ElementKind::quadrupole);
            e.quadrupole =
                Quadrupole::make(0.25, (quads++ % 2 == 0) ? 0.2 : -0.2, QuadrupoleModel::exact, 0, ref);
            push(e);
        } else if (unit == 2) {
            Element e = Element::make(ElementKind::thick_multipole);
            e.thick_multipole = ThickMultipole::make(0.2, 2, draw(2) == 0 ? 0.05 : -0.05, 0.0, 4, ref);
            push(e);
        } else if (unit == 3) {
            double const length = 1.0, angle = 0.02;
            for (int part = 0; part < 3; ++part) {
                Element e = Element::make(part == 1 ? ElementKind::exact_bend : ElementKind::dipole_edge);
                if (part == 1)
                    e.exact_bend = ExactBend::make(length, angle, 0.0, 0.0, 0, ref);
                else
                    e.dipole_edge =
                        DipoleEdge::make_second_order(angle / length, 0.0, 0.0, 0.0, 0.0, part == 2);
                push(e);
            }
        } else {
            push(Element::make(ElementKind::monitor));
        }
        if (draw(2) == 1) {
            Element a = Element::make(ElementKind::aperture);
            a.aperture = Aperture::make(ApertureShape::ellipse, 1.0, 1.0);
            push(a);
        }
    }
    out.resize(std::size_t(entries));
    return out;
}

}  // namespace

std::vector<Element> switch_entries()
{
    ReferenceParticle const ref = calibration_reference();
    std::vector<Element> out = {Element::make(ElementKind::marker), Element::make(ElementKind::aperture),
                                Element::make(ElementKind::kicker)};
    out[1].aperture = Aperture::make(ApertureShape::ellipse, 1.0, 1.0);
    out[2].kicker = Kicker::make(1e-7, -1e-7, 0.0, ref);
    return out;
}

namespace {

//! Steady-state seconds per call of `kernel` (the first call excluded).
double steady_seconds(KernelTimer const& timer, char const* kernel)
{
    KernelRecord const& r = timer.records().at(kernel);
    return (r.seconds - r.first_seconds) / double(r.calls - 1);
}

//! Steady-state bytes per second of `kernel`.
double steady_bandwidth(KernelTimer const& timer, char const* kernel)
{
    KernelRecord const& r = timer.records().at(kernel);
    return (r.bytes - r.first_bytes) / (r.seconds - r.first_seconds);
}

//! Mean seconds of `calls` calls of `run`, read from `kernel`'s record (calls after warm-up).
template <class F>
double mean_seconds(BeamKernels& kernels, char const* kernel, int calls, F const& run)
{
    double const before = kernels.timer().records().at(kernel).seconds;
    for (int i = 0; i < calls; ++i) run();
    return (kernels.timer().records().at(kernel).seconds - before) / calls;
}

//! [s] the first call of `kernel` beyond a steady one (module loading, first touch); >= 0.
double first_call_excess(KernelTimer const& timer, char const* kernel)
{
    KernelRecord const& r = timer.records().at(kernel);
    return std::max(0.0, r.first_seconds - (r.seconds - r.first_seconds) / double(r.calls - 1));
}

//! [s] `gather`'s time in `kernels`' timer so far (0 before its first call).
double gather_seconds(BeamKernels& kernels)
{
    auto const& records = kernels.timer().records();
    auto const it = records.find("gather");
    return it == records.end() ? 0.0 : it->second.seconds;
}

//! [s] the mean of `calls` gathers of [0, particles.size) selecting `alive` ones, by the gather's timer;
//! `wall`, when given, gets their mean by the host clock (each gather ends with a wait for the device).
double mean_gather(BeamKernels& kernels, ParticleView particles, bool alive, int calls,
                   double* wall = nullptr)
{
    double const before = gather_seconds(kernels);
    auto const t = Clock::now();
    for (int i = 0; i < calls; ++i) kernels.gather_to_host(particles, 0, particles.size, alive);
    if (wall) *wall = since(t) / calls;
    return (gather_seconds(kernels) - before) / calls;
}

//! The output's gathers (loss records, snapshots: BeamKernels::gather_to_host), on a fresh beam of
//! `particles` live ones, by calling the backend's own gather: a call that selects none (the loss
//! records of a beam without losses) prices the selection's counted bytes, a call that selects all (a
//! snapshot) the selected particles' bytes to the host, one particle the fixed cost of a call (launches,
//! the count's copy back and its wait) and the first call's (modules, scratch), the first call over the
//! beam the flags and offsets it allocates, and the first two calls that select all the host staging that
//! the two alternating buffers allocate (GPU: page-locked memory, pinned as it is allocated) and write.
//! The staging by the host clock: the GPU's gather takes it out of its events (host work while the device
//! waits: staging_in_kernels = 0), the CPU's times it with the host clock inside the gather (1).
void measure_download(Ceilings& c, BeamKernels& kernels, BeamSampler const& sampler, double particles)
{
    ParticleState one(1, kernels.memory());
    kernels.generate(one.view(), sampler, 0);
    double const first = mean_gather(kernels, one.view(), false, 1);  // modules, scratch: the first call
    c.download_latency = mean_gather(kernels, one.view(), false, 20);
    c.download_warmup_seconds = std::max(0.0, first - c.download_latency);
    ParticleState state(size_type(particles), kernels.memory());
    kernels.generate(state.view(), sampler, 0);
    ParticleView const beam = state.view();
    double const grown = mean_gather(kernels, beam, false, 1);  // flags and offsets of `particles`
    double const none = mean_gather(kernels, beam, false, 5);
    c.download_grow_bandwidth = particles * k_gather_grow_bytes_per_particle / std::max(grown - none, 1e-12);
    c.download_scan_bandwidth =
        particles * k_gather_bytes_per_particle / std::max(none - c.download_latency, 1e-12);
    double staged_wall = 0, all_wall = 0;
    mean_gather(kernels, beam, true, 2, &staged_wall);  // each buffer's first fill
    double const all = mean_gather(kernels, beam, true, 4, &all_wall);
    c.download_bandwidth = particles * k_gather_bytes_per_selected / std::max(all - none, 1e-12);
    c.staging_bandwidth = particles * k_staging_bytes_per_particle / std::max(staged_wall - all_wall, 1e-12);
    c.staging_in_kernels = kernels.memory() == MemSpace::device ? 0.0 : 1.0;
}

void measure_beam(Ceilings& c, BeamKernels& kernels, CalibrateSize const& size)
{
    ParticleState state(size_type(size.particles), kernels.memory());
    BeamSampler const sampler = calibration_sampler();
    for (int i = 0; i < 3; ++i) kernels.generate(state.view(), sampler, 0);
    c.generate_rate = size.particles / steady_seconds(kernels.timer(), "generate");

    int const entries = 100;
    double time[2], flops[2];
    for (int maps = 0; maps < 2; ++maps) {
        std::vector<Element> const lattice = calibration_lattice(maps == 1, entries);
        kernels.set_elements(lattice, {});                      // no field maps in the calibration lattice
        kernels.track(state.view(), 0, size_type(entries), 0);  // warm-up
        time[maps] =
            mean_seconds(kernels, "track", 3, [&] { kernels.track(state.view(), 0, size_type(entries), 0); });
        flops[maps] = size.particles * SegmentWork(lattice).flops_per_particle(0, size_type(entries));
    }
    double const pushes = size.particles * entries;
    // The marker lattice's whole time is the cost of a push beyond its map (load, store, dispatch, the
    // finiteness check): with maps as vector lanes its few counted FLOPs at a map rate would overstate
    // it (the two-equation solve then gave t_push = 0).
    c.push_seconds = time[0] / pushes;
    c.fp64_map = flops[1] / std::max(time[1] - time[0], 1e-12);
    // Entries the CPU's lanes track one particle at a time: the cost per push beyond push_seconds, from
    // thin kickers (3 FLOPs each, so nearly all of it is the per-particle path; dipole edges, used before,
    // now run in lanes).
    {
        ReferenceParticle const ref = calibration_reference();
        kernels.generate(state.view(), sampler, 0);
        std::vector<Element> lattice;
        for (int i = 0; i < entries; ++i) {
            Element e = Element::make(ElementKind::kicker);
            e.kicker = Kicker::make(1e-7, -1e-7, 0.0, ref);
            e.index = i;
            lattice.push_back(e);
        }
        kernels.set_elements(lattice, {});
        kernels.track(state.view(), 0, size_type(entries), 0);  // warm-up
        double const t =
            mean_seconds(kernels, "track", 3, [&] { kernels.track(state.view(), 0, size_type(entries), 0); });
        c.fallback_push_seconds = std::max(0.0, (t - time[0]) / pushes);
    }
    // Each family's rate from a lattice of its maps alone, on a fresh beam (the mix's apertures have taken
    // some particles, and a lost one costs no map). The field-map families' entries are ~100 times the
    // others' work (10 to 52 RK4 steps of ~400-650 FLOPs): 10 of them, for a call of the same order.
    for (std::size_t f = 0; f < c.fp64_map_family.size(); ++f) {
        kernels.generate(state.view(), sampler, 0);
        bool const heavy = MapFamily(f) == MapFamily::field_map || MapFamily(f) == MapFamily::field_map_3d;
        int const n = heavy ? 10 : entries;
        std::vector<double> field_data;
        std::vector<Element> const lattice = family_lattice(MapFamily(f), n, field_data);
        kernels.set_elements(lattice, field_data);
        kernels.track(state.view(), 0, size_type(n), 0);  // warm-up
        double const t =
            mean_seconds(kernels, "track", 3, [&] { kernels.track(state.view(), 0, size_type(n), 0); });
        double const f_flops = size.particles * SegmentWork(lattice).flops_per_particle(0, size_type(n));
        c.fp64_map_family[f] = f_flops / std::max(t - size.particles * n * c.push_seconds, 1e-12);
    }
    // A lattice that mixes the kinds costs more per push than its maps priced alone (each measured on a
    // lattice of one kind, whose dispatch the branch predictor learns and whose table fits the L1 cache):
    // the kind's switch and the maps' branches mispredicted from entry to entry, the table's lines. Their
    // cost scales with the entries a block of particles passes, not with FLOPs: the mix's time beyond the
    // model above, per push.
    {
        kernels.generate(state.view(), sampler, 0);
        int const mix_entries = 200;
        std::vector<Element> const lattice = mix_lattice(mix_entries);
        kernels.set_elements(lattice, {});
        kernels.track(state.view(), 0, size_type(mix_entries), 0);  // warm-up
        double const t = mean_seconds(kernels, "track", 3,
                                      [&] { kernels.track(state.view(), 0, size_type(mix_entries), 0); });
        SegmentWork const work(lattice);
        FamilyFlops const f_flops = work.family_flops_per_particle(0, size_type(mix_entries));
        double const mix_pushes = size.particles * mix_entries;
        double model =
            mix_pushes * c.push_seconds +
            size.particles * work.per_particle_entries(0, size_type(mix_entries)) * c.fallback_push_seconds;
        for (int f = 0; f < k_map_families; ++f) model += size.particles * f_flops[f] / c.fp64_map_of(f);
        c.mix_push_seconds = std::max(0.0, (t - model) / mix_pushes);
    }

    // A one-entry segment of a marker streams the particles through once (load, store): the
    // bandwidth the per-element kernels reach, a fraction of the copy bandwidth that the forecast
    // must not assume to be 1.
    {
        Element marker = Element::make(ElementKind::marker);
        kernels.set_elements({marker}, {});
        kernels.track(state.view(), 0, 1, 0);
        double const t = mean_seconds(kernels, "track", 5, [&] { kernels.track(state.view(), 0, 1, 0); });
        c.track_bandwidth = size.particles * k_track_bytes_per_particle / t;
        // On the CPU a segment's particles are loaded into vector lanes and stored back once per call,
        // not overlapped with the maps as a GPU overlaps its memory traffic: a cost per particle and call
        // that adds to the maps' time (the marker lattice's push_seconds holds 1/100 of it). The GPU keeps
        // its bound by the bandwidth (0 here).
        if (kernels.memory() == MemSpace::host) c.call_particle_seconds = std::max(0.0, t / size.particles);
    }
    // The GPU compiles each element switch (ElementCases) as a kernel of its own, with its own register
    // budget (BeamDriver.hh), so its own occupancy: a one-entry segment through the larger switches may
    // stream below the marker's bandwidth (H100, 10^6 particles: solenoid_linac's segments, 60 of its 96
    // entries in the switch without integrators, 50 us a call, 2.0 TB/s, where the marker's 2.78 TB/s gave 36
    // us and fodo's optics segments 40 us). Each switch's bandwidth from a one-entry segment of its cheapest
    // entry: a marker, a wide aperture (a few compares), a thin kicker (3 FLOPs). The CPU leaves them 0: its
    // segment's loads and stores are call_particle_seconds, added to the maps.
    if (kernels.memory() == MemSpace::device) {
        std::vector<Element> const singles = switch_entries();
        kernels.generate(state.view(), sampler, 0);
        for (std::size_t i = 0; i < c.track_bandwidth_cases.size(); ++i) {
            kernels.set_elements({singles[i]}, {});
            kernels.track(state.view(), 0, 1, 0);
            double const t = mean_seconds(kernels, "track", 5, [&] { kernels.track(state.view(), 0, 1, 0); });
            c.track_bandwidth_cases[i] = size.particles * k_track_bytes_per_particle / t;
        }
    }

    // Moments: the fixed cost of a pass (launch, copy back, host synchronization) from one particle,
    // then the FP64 rate of the rest.
    for (int i = 0; i < 4; ++i) kernels.moments(state.view());
    double const t_moments = steady_seconds(kernels.timer(), "moments");
    ParticleState one(1, kernels.memory());
    kernels.generate(one.view(), sampler, 0);
    kernels.moments(one.view());
    c.reduce_latency = mean_seconds(kernels, "moments", 20, [&] { kernels.moments(one.view()); });
    c.fp64_reduce =
        size.particles * k_moments_flops_per_particle / std::max(t_moments - c.reduce_latency, 1e-12);
    c.warmup_seconds = first_call_excess(kernels.timer(), "generate") +
                       first_call_excess(kernels.timer(), "track") +
                       first_call_excess(kernels.timer(), "moments");
    measure_download(c, kernels, sampler, size.particles);
}

void measure_space_charge(Ceilings& c, std::unique_ptr<SpaceChargeKernels> (*make)(), MemSpace memory,
                          BeamKernels& beam, CalibrateSize const& size)
{
    ParticleState state(size_type(size.sc_particles), memory);
    BeamFrame const frame = beam_frame(calibration_reference(), 1e-9, std::uint64_t(size.sc_particles));
    double deposit = 0, gather = 0, sort = 0, between = 0;
    for (int g : size.grids) {
        beam.generate(state.view(), calibration_sampler(), 0);
        auto sc = make();
        SpaceChargeSettings s;
        s.grid = {g, g, g};
        s.sort_every = 1;
        SpaceChargeDiagnostics diag;
        for (int k = 0; k < 3; ++k) diag = sc->kick(state.view(), s, frame, 1e-3);
        KernelTimer const& t = sc->timer();
        c.fft_points.push_back(8.0 * g * g * g);
        c.fft_seconds.push_back(steady_seconds(t, "sc.solve"));
        c.field_seconds.push_back(steady_seconds(t, "sc.field"));
        // The Green's function is transformed once per grid spacing: kicks on a fixed grid whose
        // spacing alternates recompute it each time, after the first (which pays the plans).
        double const green_first = t.records().at("sc.green").seconds;
        int const recomputed = 4;
        for (int k = 0; k < recomputed; ++k) {
            GridGeometry grid = diag.grid;
            grid.hx *= 1.0 + 1e-3 * double(k % 2 + 1);
            s.fixed_grid = grid;
            sc->kick(state.view(), s, frame, 1e-3);
        }
        c.green_seconds.push_back((t.records().at("sc.green").seconds - green_first) / recomputed);
        // The first kick pays the FFT plans and module loading: the first grid's excess over steady
        // calls is the run's one-time cost (later grids reuse the loaded modules).
        if (g == size.grids.front()) {
            double excess = 0;
            for (auto const& [name, r] : t.records())
                if (r.calls > 1)
                    excess += r.first_seconds - (r.seconds - r.first_seconds) / double(r.calls - 1);
            c.sc_warmup_seconds = std::max(0.0, excess);
        }
        // The particle stages do not depend on the grid much: keep the largest grid's figures.
        deposit = steady_bandwidth(t, "sc.deposit");
        gather = steady_bandwidth(t, "sc.gather");
        sort = steady_bandwidth(t, "sc.sort");
        // A deck that sorts every few kicks (fodo_space_charge.toml: 4) deposits between two sorts from the
        // positions packed again, in the last sort's order: a fresh solver sorting every 4th kick, the mean
        // deposit of its kicks without a sort (after a first round of 4). The calibration's bunch does not
        // move between kicks, so the order stays the sort's; a run's particles drift out of it a little
        // (not measured).
        if (g == size.grids.back()) {
            auto every4 = make();
            s.sort_every = 4;
            s.fixed_grid.reset();
            double seconds = 0;
            int counted = 0;
            for (int k = 0; k < 12; ++k) {
                SpaceChargeDiagnostics const d = every4->kick(state.view(), s, frame, 1e-3);
                if (k >= 4 && !d.sorted) {
                    seconds += d.t_deposit;
                    ++counted;
                }
            }
            KernelRecord const& r = every4->timer().records().at("sc.deposit");
            between = r.bytes / double(r.calls) / std::max(seconds / std::max(counted, 1), 1e-12);
        }
    }
    c.deposit_between_sorts_bandwidth = between;
    c.deposit_bandwidth = deposit;
    c.gather_bandwidth = gather;
    c.sort_bandwidth = sort;
}

//! The copy-bandwidth workload: one read and one write per item.
struct CopyArray {
    double const* src;
    double* dst;
    GT_HOST_DEVICE void operator()(size_type i) const { dst[i] = src[i]; }
};

}  // namespace

CalibrateSize calibrate_size(bool quick)
{
    if (quick) return CalibrateSize{2e4, 2e4, {8, 16, 32}, 32.0 * (1 << 20)};
    return CalibrateSize{2e5, 2e5, {16, 32, 64}, 256.0 * (1 << 20)};
}

Ceilings measure_cpu_ceilings(CalibrateSize const& size)
{
    Ceilings c;
    c.cores = cpu::thread_count();
    {
        size_type const n = size_type(size.copy_bytes / 8);
        std::vector<double> a(n, 1.0), b(n, 0.0);
        for (int rep = 0; rep < 6; ++rep) {
            cpu::Stopwatch const watch;
            cpu::for_each(n, CopyArray{a.data(), b.data()});
            double const s = watch.seconds();
            if (rep > 0) c.copy_bandwidth = std::max(c.copy_bandwidth, 16.0 * double(n) / s);
        }
    }
    {
        size_type const items = size_type(c.cores) * 64;
        int const rounds = 20000;
        std::vector<double> out(items);
        for (int rep = 0; rep < 4; ++rep) {
            cpu::Stopwatch const watch;
            cpu::for_each(items, PeakFlops{out.data(), rounds});
            double const s = watch.seconds();
            if (rep > 0)
                c.fp64_peak =
                    std::max(c.fp64_peak, double(items) * rounds * PeakFlops::k_flops_per_round / s);
        }
    }
    {
        int const regions = 2000;
        std::vector<double> a(size_type(c.cores), 1.0), b(size_type(c.cores));
        cpu::for_each(a.size(), CopyArray{a.data(), b.data()});
        cpu::Stopwatch const watch;
        for (int i = 0; i < regions; ++i) cpu::for_each(a.size(), CopyArray{a.data(), b.data()});
        c.launch_latency = watch.seconds() / regions;
    }
    auto beam = make_cpu_beam_kernels();
    measure_beam(c, *beam, size);
    measure_space_charge(c, &make_cpu_space_charge, MemSpace::host, *beam, size);
    return c;
}

Ceilings measure_gpu_ceilings(CalibrateSize const& size)
{
    auto beam = make_cuda_beam_kernels();  // throws without a GPU
    Ceilings c;
    c.cores = device::multiprocessors();
    {
        std::size_t const bytes = std::size_t(size.copy_bytes) * 4;  // 1 GiB: well beyond the L2 cache
        Buffer<double> a(bytes / 8, MemSpace::device), b(bytes / 8, MemSpace::device);
        device::fill_zero(a.data(), bytes);
        for (int rep = 0; rep < 6; ++rep) {
            auto const t = Clock::now();
            device::copy_on_device(b.data(), a.data(), bytes);
            device::synchronize();
            double const s = since(t);
            if (rep > 0) c.copy_bandwidth = std::max(c.copy_bandwidth, 2.0 * double(bytes) / s);
        }
    }
    c.fp64_peak = device::measure_fp64_peak();
    c.launch_latency = device::measure_launch_latency();
    CalibrateSize gpu_size = size;
    gpu_size.particles *= 10;  // a GPU needs ~10^6 particles to be busy
    gpu_size.sc_particles *= 10;
    measure_beam(c, *beam, gpu_size);
    measure_space_charge(c, &make_cuda_space_charge, MemSpace::device, *beam, gpu_size);
    return c;
}

}  // namespace gt
