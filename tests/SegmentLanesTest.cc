// The CPU's structure-of-arrays segment kernel (TrackSegmentLanes, kernels/cpu/SegmentLanes.hh) against
// the per-particle kernel (TrackSegment, the GPU's form): the same bits for every coordinate and loss
// record, on tables holding every element kind, with particles lost mid-block (apertures, an overflow,
// one lost before) and a block tail (1003 particles: neither a multiple of 4 nor of 8).
#include <doctest/doctest.h>

#include <limits>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "ElementTestSupport.hh"
#include "ParticleSampleSupport.hh"
#include "beam/BeamSetup.hh"
#include "beam/Lattice.hh"
#include "deck/DeckReader.hh"
#include "kernels/beam/BeamKernels.hh"
#include "kernels/beam/SegmentCases.hh"
#include "kernels/beam/SegmentWork.hh"
#include "kernels/beam/TrackSegment.hh"
#include "kernels/cpu/Executor.hh"
#include "kernels/cpu/SegmentLanes.hh"

using namespace gt;
using namespace gt::test;

namespace {

//! A table with one or more entries of every kind that needs no field data, several misaligned.
std::vector<Element> every_kind()
{
    ReferenceParticle const ref = proton(100.0);
    std::vector<Element> t;
    auto add = [&](ElementKind kind) -> Element& {
        t.push_back(Element::make(kind));
        t.back().index = static_cast<std::int32_t>(t.size() - 1);
        return t.back();
    };
    add(ElementKind::marker);
    add(ElementKind::monitor);
    add(ElementKind::drift).drift = Drift::make(0.7, DriftModel::exact, ref);
    add(ElementKind::drift).drift = Drift::make(0.4, DriftModel::linear, ref);
    add(ElementKind::quadrupole).quadrupole = Quadrupole::make(0.3, 2.1, QuadrupoleModel::exact, 4, ref);
    add(ElementKind::quadrupole).quadrupole = Quadrupole::make(0.3, -2.3, QuadrupoleModel::kick, 3, ref);
    add(ElementKind::quadrupole).quadrupole = Quadrupole::make(0.3, 1.7, QuadrupoleModel::linear, 1, ref);
    add(ElementKind::exact_bend).exact_bend = ExactBend::make(0.8, 0.15, 0.0, 0.0, 0, ref);
    add(ElementKind::exact_bend).exact_bend = ExactBend::make(0.8, 0.12, 0.3, 1.5, 0, ref);  // gradient
    add(ElementKind::exact_bend).exact_bend = ExactBend::make(0.5, 0.0, 0.0, 0.0, 0, ref);   // straight
    add(ElementKind::exact_bend).exact_bend = ExactBend::make(0.3, 2.0, 0.0, 0.0, 0, ref);   // > 90 deg
    add(ElementKind::sector_bend).sector_bend = SectorBend::make(0.8, 0.1, 0.2, ref);
    add(ElementKind::dipole_edge).dipole_edge = DipoleEdge::make(0.125, 0.05, 0.5, 0.02);
    // Second order (a deck's sbend edges), entrance and exit: every coefficient non-zero.
    add(ElementKind::dipole_edge).dipole_edge =
        DipoleEdge::make_second_order(0.125, 0.05, 0.5, 0.02, 0.3, false);
    add(ElementKind::dipole_edge).dipole_edge =
        DipoleEdge::make_second_order(0.125, -0.08, 0.5, 0.02, 0.3, true);
    double const knl[] = {1e-5, 0.02, 0.8, -3.0}, ksl[] = {0.0, 1e-3, 0.1};
    add(ElementKind::multipole).multipole = Multipole::make(knl, 4, ksl, 3);
    add(ElementKind::thick_multipole).thick_multipole = ThickMultipole::make(0.2, 2, 40.0, 5.0, 4, ref);
    add(ElementKind::thick_multipole).thick_multipole = ThickMultipole::make(0.2, 3, -900.0, 0.0, 2, ref);
    add(ElementKind::solenoid).solenoid = Solenoid::make(0.5, 0.9, ref);
    add(ElementKind::solenoid).solenoid = Solenoid::make(0.4, -1.1, ref, true);  // exact model
    // A bend with every kind of body component: dipole, skew quadrupole, skew sextupole, octupole, decapole.
    double const body_kn[] = {2e-4, 0.0, 0.0, 30.0, 400.0}, body_ksn[] = {-1e-4, 0.05, 0.8, 0.0};
    add(ElementKind::exact_bend).exact_bend =
        ExactBend::make(0.8, 0.12, 0.3, 1.5, BodyMultipoleKick::make(body_kn, 5, body_ksn, 4, 0.15), 0, ref);
    add(ElementKind::rf_cavity).rf_cavity = RfCavity::make(0.3, 0.0, 352.2e6, -30.0, ref, ref);
    add(ElementKind::kicker).kicker = Kicker::make(1e-4, -2e-4, 0.1, ref);
    add(ElementKind::collimator).collimator =
        Collimator::make(ApertureShape::rectangle, 2e-2, 1.5e-2, 0.1, ref);
    add(ElementKind::srotation).srotation = SRotation::make(0.3);
    add(ElementKind::thin_solenoid).thin_solenoid = ThinSolenoid::make(0.2, 0.1, ref);
    add(ElementKind::aperture).aperture = Aperture::make(ApertureShape::ellipse, 4e-3, 4e-3);
    add(ElementKind::drift).drift = Drift::make(2.0, DriftModel::exact, ref);
    add(ElementKind::aperture).aperture = Aperture::make(ApertureShape::rectangle, 4.5e-3, 3.5e-3);
    for (std::size_t i : {2u, 4u, 5u, 6u, 7u, 13u, 14u}) {
        t[i].misaligned = true;
        t[i].misalignment = Misalignment::make(2e-4, -1e-4, 0.01);
    }
    return t;
}

//! The lattice of an example deck, with its field data bound (profile, t-code and 3D-map entries).
struct DeckTable {
    std::vector<Element> elements;
    std::shared_ptr<std::vector<double> const> field_data;
};

DeckTable deck_table(std::string const& name)
{
    DeckConfig const deck = read_deck(std::string(GTRACK_SOURCE_DIR) + "/inputs/" + name, {}, std::nullopt);
    Lattice lattice = build_lattice(deck, initial_reference(deck));
    DeckTable d{lattice.elements, lattice.field_data};
    for (Element& e : d.elements) bind_field_data(e, d.field_data->data());
    return d;
}

//! 1003 particles, spread so that the apertures take some of them mid-block; one lost before (left
//! alone), one whose px overflows to infinity (lost by the finite check).
ParticleState beam(double scale)
{
    size_type const n = 1003;
    ParticleState s(n, MemSpace::host);
    ParticleView v = s.view();
    std::mt19937_64 rng(11);
    std::normal_distribution<double> g(0.0, 1.0);
    for (size_type i = 0; i < n; ++i) {
        v.store(i, Particle{scale * 2e-3 * g(rng), scale * 2e-4 * g(rng), scale * 2e-3 * g(rng),
                            scale * 2e-4 * g(rng), 1e-3 * g(rng), scale * 1e-3 * g(rng)});
        v.id[i] = i;
        v.lost_element[i] = -1;
        v.lost_turn[i] = -1;
    }
    v.lost_element[17] = 3;
    v.lost_turn[17] = 0;
    v.px[500] = 1e308;
    return s;
}

//! `turns` turns over the table in two segments, with the per-particle kernel or the lanes of width W.
template <int W, ElementCases Cases>
ParticleState track(std::vector<Element> const& table, double scale, int turns)
{
    ParticleState s = beam(scale);
    ParticleView const v = s.view();
    size_type const half = table.size() / 2;
    for (std::int32_t turn = 0; turn < turns; ++turn)
        for (auto [begin, end] : {std::pair{size_type(0), half}, std::pair{half, size_type(table.size())}}) {
            if constexpr (W == 1) {
                cpu::for_each(v.size, TrackSegment<Cases>{v, table.data(), begin, end, turn});
            } else {
                using Lanes = TrackSegmentLanes<W, Cases>;
                cpu::for_each(Lanes::blocks(v.size), Lanes{v, table.data(), begin, end, turn});
            }
        }
    return s;
}

//! The number of particles whose coordinates or loss record differ in any bit.
int differing(ParticleState& a, ParticleState& b)
{
    REQUIRE(a.size() == b.size());
    return test::differing_particles(a.view(), b.view());
}

//! Lanes of 4 and 8 against one particle at a time, with the switch `Cases`; returns the losses.
template <ElementCases Cases>
int check_lanes(std::vector<Element> const& table, double scale, int turns = 3)
{
    ParticleState one = track<1, Cases>(table, scale, turns);
    ParticleState four = track<4, Cases>(table, scale, turns);
    ParticleState eight = track<8, Cases>(table, scale, turns);
    CHECK(differing(one, four) == 0);
    CHECK(differing(one, eight) == 0);
    ParticleView const v = one.view();
    int lost = 0;
    for (size_type i = 0; i < v.size; ++i) lost += v.lost_element[i] >= 0;
    CHECK(v.lost_element[17] == 3);  // lost before: left alone
    return lost;
}

}  // namespace

TEST_CASE("the structure-of-arrays segment kernel gives the per-particle kernel's bits on every element kind")
{
    std::vector<Element> const table = every_kind();
    std::set<ElementKind> kinds;
    for (Element const& e : table) kinds.insert(e.kind);
    // At this spread, in one turn, the apertures near the end of the table take about two thirds of the
    // 1003 particles (most of them after all other entries), the rest go through: both paths of every map
    // run, and the blocks are mixed.
    int const lost = check_lanes<ElementCases::without_integrators>(table, 0.3, 1);
    CHECK(lost > 200);
    CHECK(lost < 900);
    check_lanes<ElementCases::all>(table, 0.3, 1);
    check_lanes<ElementCases::all>(table, 1.0, 3);  // all lost within three turns

    // The field-data kinds from the example decks: the 3D map, the on-axis profile and the t-code.
    for (char const* deck : {"fieldmap3d_linac.toml", "photoinjector.toml", "photoinjector_cathode.toml",
                             "ion_linac.toml", "fodo_ring.toml", "light_source_ring.toml"}) {
        CAPTURE(deck);
        DeckTable const d = deck_table(deck);
        for (Element const& e : d.elements) kinds.insert(e.kind);
        check_lanes<ElementCases::all>(d.elements, 0.5);
    }
    for (int k = 0; k <= static_cast<int>(ElementKind::thin_solenoid); ++k) {
        std::string const name = kind_name(ElementKind(k));
        CAPTURE(name);
        CHECK(kinds.count(ElementKind(k)) == 1);
    }
}

TEST_CASE("apertures with an open side and a beam shift through the lanes: the same bits")
{
    ReferenceParticle const ref = proton(100.0);
    std::vector<Element> t;
    auto add = [&](ElementKind k) -> Element& {
        t.push_back(Element::make(k));
        t.back().index = static_cast<std::int32_t>(t.size() - 1);  // the loss record
        return t.back();
    };
    add(ElementKind::drift).drift = Drift::make(1.0, DriftModel::exact, ref);
    int side = 1;
    for (ApertureShape shape : {ApertureShape::ellipse, ApertureShape::rectangle}) {
        for (int k = 0; k < 2; ++k, ++side)
            add(ElementKind::aperture).aperture = Aperture::make(shape, 4e-3, 3e-3, ApertureSide(side));
        add(ElementKind::drift).drift = Drift::make(0.5, DriftModel::exact, ref);
    }
    add(ElementKind::beam_shift).beam_shift = BeamShift::make(1e-4, 2e-5, -1e-4, -1e-5, 0.05, 1e-4, ref);
    add(ElementKind::aperture).aperture =
        Aperture::make(ApertureShape::rectangle, 5e-3, HUGE_VAL, ApertureSide::minus_x);  // a lone scraper
    // A beam of 5 mm rms against apertures of 3 to 5 mm: most are lost, the first aperture keeps some on
    // its open side; the beam_shift (per particle in the lanes' kernel) between.
    int const lost = check_lanes<ElementCases::all>(t, 2.5, 1);
    CHECK(lost > 100);
    CHECK(lost < 950);
}

TEST_CASE(
    "thin bends (multipoles with angle) and a beam shift of time and energy through the lanes: the same bits")
{
    ReferenceParticle const ref = proton(100.0);  // beta = 0.43: the 1/beta terms of the bend's t matter
    std::vector<Element> t;
    auto add = [&](ElementKind k) -> Element& {
        t.push_back(Element::make(k));
        t.back().index = static_cast<std::int32_t>(t.size() - 1);
        return t.back();
    };
    double const knl[] = {0.05, 0.3, 4.0};
    for (int k = 0; k < 4; ++k) {
        add(ElementKind::drift).drift = Drift::make(0.5, DriftModel::exact, ref);
        // Slices of a combined bend (the multipole's lanes, its curvature terms), one without lrad.
        add(ElementKind::multipole).multipole =
            Multipole::make(knl, 3, nullptr, 0).bending(0.05, k == 3 ? 0.0 : 0.4, ref);
    }
    add(ElementKind::beam_shift).beam_shift = BeamShift::make(0.0, 0.0, 0.0, 0.0, 0.0, 0.0, ref, 1e-3, -2e-3);
    add(ElementKind::aperture).aperture =
        Aperture::make(ApertureShape::ellipse, 6e-3, 6e-3, ApertureSide::none);
    // Some are lost at the aperture, the rest go through every map; the overflowing particle 500 is lost by
    // the finite check.
    int const lost = check_lanes<ElementCases::all>(t, 1.5, 2);
    CHECK(lost > 50);
    CHECK(lost < 950);
}

TEST_CASE("the smaller switches through the lanes: the same bits")
{
    // optics_maps: every kind the lanes map, a chromatic quadrupole (per particle) among them.
    std::vector<Element> optics;
    for (Element const& e : every_kind())
        if (is_optics_map(e)) optics.push_back(e);
    check_lanes<ElementCases::optics_maps>(optics, 1.0);
    check_lanes<ElementCases::without_integrators>(optics, 1.0);

    std::vector<Element> linear;
    for (Element const& e : every_kind())
        if (is_linear_map(e)) linear.push_back(e);
    REQUIRE(linear.size() >= 4);
    check_lanes<ElementCases::linear_maps>(linear, 1.0);
}

TEST_CASE("the CPU backend tracks with the lanes: the per-particle kernel's bits")
{
    std::vector<Element> const table = every_kind();
    ParticleState one = track<1, ElementCases::without_integrators>(table, 1.0, 3);
    ParticleState backend = beam(1.0);
    std::unique_ptr<BeamKernels> kernels = make_cpu_beam_kernels();
    kernels->set_elements(table, {});
    size_type const half = table.size() / 2;
    for (std::int32_t turn = 0; turn < 3; ++turn) {
        kernels->track(backend.view(), 0, half, turn);
        kernels->track(backend.view(), half, table.size(), turn);
    }
    CHECK(differing(one, backend) == 0);
}

//! The lanes' finiteness check against the CPU's is_finite for one particle, lane by lane, for W lanes.
template <int W>
void check_finite_lanes()
{
    double const inf = std::numeric_limits<double>::infinity();
    double const nan = std::numeric_limits<double>::quiet_NaN();
    double const big = std::numeric_limits<double>::max();
    double const tiny = std::numeric_limits<double>::denorm_min();
    // Finite particles, one with a non-finite value in each coordinate, and finite ones whose sum
    // overflows (the lanes' sum is not finite there, the exponent bits are: finite, as for one particle).
    std::vector<Particle> cases;
    Particle const base{1e-3, -2e-4, 5e-4, 1e-4, -3e-3, 2e-3};
    for (int k = 0; k < 6; ++k)
        for (double value : {inf, -inf, nan, 0.0, tiny, big, -big}) {
            Particle p = base;
            double* c[6] = {&p.x, &p.px, &p.y, &p.py, &p.t, &p.pt};
            *c[k] = value;
            cases.push_back(p);
        }
    cases.push_back(Particle{big, big, big, big, big, big});
    cases.push_back(Particle{inf, -inf, 0.0, 0.0, 0.0, 0.0});
    cases.push_back(base);
    std::mt19937_64 rng(5);
    int blocks_with_fallback = 0;
    for (int round = 0; round < 200; ++round) {
        ParticleLanes<W> p;
        LaneMaskOf<W> of{};
        for (int k = 0; k < W; ++k) {
            p.set_lane(k, cases[rng() % cases.size()]);
            of.set(k, rng() % 4 != 0);
        }
        LaneMaskOf<W> const ok = is_finite(p, of);
        bool any_sum_not_finite = false;
        for (int k = 0; k < W; ++k) {
            Particle const q = p.lane(k);
            double const sum = ((q.x + q.px) + (q.y + q.py)) + (q.t + q.pt);
            any_sum_not_finite = any_sum_not_finite || (of[k] && !(sum - sum == 0.0));
            CAPTURE(round);
            CAPTURE(k);
            CHECK(ok[k] == (of[k] && is_finite(q)));
        }
        blocks_with_fallback += any_sum_not_finite;
    }
    CHECK(blocks_with_fallback > 20);  // the per-lane bit test ran, and not only in a few blocks
}

TEST_CASE("the lanes' finiteness check: per lane the answer of the CPU's is_finite for one particle")
{
    check_finite_lanes<4>();
    check_finite_lanes<8>();
}

TEST_CASE("classical radiation in the lanes: entries with radiation on go per particle, the same bits")
{
    // Every kind's table with radiation on in every map that has it (a strong constant, so that the loss
    // shows in every coordinate's bits): the lanes track those entries one particle at a time
    // (radiates(), per_particle_in_lanes), the others in the vectors.
    std::vector<Element> table = every_kind();
    std::vector<Element> const without = table;
    int radiating = 0;
    for (Element& e : table) {
        double const c_rad = 1e-3;
        switch (e.kind) {
            case ElementKind::quadrupole:
                e.quadrupole.c_rad = c_rad;
                break;
            case ElementKind::sector_bend:
                e.sector_bend.c_rad = c_rad;
                break;
            case ElementKind::exact_bend:
                e.exact_bend.c_rad = c_rad;
                break;
            case ElementKind::dipole_edge:
                e.dipole_edge.c_rad = c_rad;
                break;
            case ElementKind::thick_multipole:
                e.thick_multipole.c_rad = c_rad;
                break;
            default:
                continue;
        }
        ++radiating;
        CHECK(radiates(e));
        CHECK(per_particle_in_lanes(e));
    }
    CHECK(radiating == 14);  // 3 quadrupoles, 5 exact bends, 1 sector bend, 3 edges, 2 thick multipoles
    for (Element const& e : without) CHECK_FALSE(radiates(e));
    check_lanes<ElementCases::all>(table, 0.3, 1);
    check_lanes<ElementCases::all>(table, 1.0, 3);
    // The radiation acted: the table without it gives other bits.
    ParticleState with_radiation = track<4, ElementCases::all>(table, 0.3, 1);
    ParticleState no_radiation = track<4, ElementCases::all>(without, 0.3, 1);
    CHECK(differing(with_radiation, no_radiation) > 100);
}
