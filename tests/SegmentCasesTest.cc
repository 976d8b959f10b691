// The element switch per segment: the linear-map switch for a segment of markers, monitors and linear
// drifts and quadrupoles only; the full switch for a segment holding a t-code or 3D-map entry (the
// smaller ones mark a particle reaching an entry they lack lost); the switch without integrators for
// the rest. Each switch pushes an entry with the same code, so the same bits.
#include <doctest/doctest.h>

#include <limits>
#include <random>
#include <string>
#include <vector>

#include "ElementTestSupport.hh"
#include "ParticleSampleSupport.hh"
#include "beam/Lattice.hh"
#include "deck/DeckReader.hh"
#include "kernels/beam/BeamKernels.hh"
#include "kernels/beam/SegmentCases.hh"
#include "kernels/beam/TrackSegment.hh"
#include "kernels/cpu/Executor.hh"
#include "kernels/cpu/SegmentLanes.hh"
#include "kernels/elements/Element.hh"
#include "run/BeamRun.hh"

using namespace gt;
using namespace gt::test;

namespace {

Element drift_entry(DriftModel model)
{
    Element e = Element::make(ElementKind::drift);
    e.drift = Drift::make(1.3, model, proton(100.0));
    return e;
}

Element quadrupole_entry(QuadrupoleModel model)
{
    Element e = Element::make(ElementKind::quadrupole);
    e.quadrupole = Quadrupole::make(0.4, 1.1, model, 4, proton(100.0));
    return e;
}

//! An exact sector-bend body (the default bend model) with a gradient and a sextupole component.
//! An exact sector-bend body: a combined-function one (gradient and sextupole: the split steps) by
//! default, a pure dipole (one arc) with k1 = k2 = 0.
Element exact_bend_entry(double k1 = 0.3, double k2 = 1.5)
{
    Element e = Element::make(ElementKind::exact_bend);
    e.exact_bend = ExactBend::make(0.8, 0.12, k1, k2, 0, proton(100.0));
    return e;
}

//! The FODO of inputs/fodo.toml with every drift and quadrupole on the linear model, one QD entry
//! misaligned (the enter/leave path runs in every switch).
std::vector<Element> linear_fodo()
{
    std::vector<std::string> const linear = {"elements.QFH.model=\"linear\"", "elements.QD.model=\"linear\"",
                                             "elements.D.model=\"linear\""};
    DeckConfig const deck =
        read_deck(std::string(GTRACK_SOURCE_DIR) + "/inputs/fodo.toml", linear, std::nullopt);
    std::vector<Element> table = build_lattice(deck, initial_reference(deck)).elements;
    for (Element& e : table)
        if (e.kind == ElementKind::quadrupole && e.quadrupole.k1 < 0) {
            e.misaligned = true;
            e.misalignment = Misalignment::make(2e-4, -1e-4, 0.01);
            break;
        }
    return table;
}

//! 1003 particles (not a multiple of the CPU's block of 4): a spread beam, one already lost (left
//! alone), one whose px overflows to infinity within a few entries (lost there by the finite check).
ParticleState beam()
{
    size_type const n = 1003;
    ParticleState s(n, MemSpace::host);
    ParticleView v = s.view();
    std::mt19937_64 rng(7);
    std::normal_distribution<double> g(0.0, 1.0);
    for (size_type i = 0; i < n; ++i) {
        v.store(i, Particle{1e-3 * g(rng), 1e-4 * g(rng), 1e-3 * g(rng), 1e-4 * g(rng), 1e-3 * g(rng),
                            1e-3 * g(rng)});
        v.id[i] = i;
        v.lost_element[i] = -1;
        v.lost_turn[i] = -1;
    }
    v.lost_element[17] = 3;
    v.lost_turn[17] = 0;
    v.px[500] = 1e308;
    return s;
}

//! Three turns over the table in two segments, each particle pushed by `F` (TrackSegment or
//! the CPU's lanes, TrackSegmentLanes) with the switch `Cases`.
template <template <ElementCases> class F, ElementCases Cases>
ParticleState track_forced(std::vector<Element> const& table)
{
    ParticleState s = beam();
    ParticleView const v = s.view();
    size_type const half = table.size() / 2;
    for (std::int32_t turn = 0; turn < 3; ++turn)
        for (auto [begin, end] : {std::pair{size_type(0), half}, std::pair{half, size_type(table.size())}}) {
            F<Cases> const f{v, table.data(), begin, end, turn};
            if constexpr (requires { F<Cases>::blocks(v.size); })
                cpu::for_each(F<Cases>::blocks(v.size), f);
            else
                cpu::for_each(v.size, f);
        }
    return s;
}

template <ElementCases Cases>
using Block = TrackSegmentLanes<4, Cases>;
// TrackSegment without photons, as a template of one parameter (clang does not match a template with a
// defaulted second parameter to `template <ElementCases> class`).
template <ElementCases Cases>
using OneByOne = TrackSegment<Cases>;
// The kernels for segments without a misaligned entry (TrackSegment's `Misalignments` false).
template <ElementCases Cases>
using Aligned = TrackSegment<Cases, false, false>;

void check_same_bits(ParticleState& a, ParticleState& b)
{
    REQUIRE(a.size() == b.size());
    CHECK(test::differing_particles(a.view(), b.view()) == 0);
}

}  // namespace

TEST_CASE("the linear-map switch only for segments of markers, monitors and linear drifts and quadrupoles")
{
    std::vector<Element> table = {
        drift_entry(DriftModel::linear),              // 0
        quadrupole_entry(QuadrupoleModel::linear),    // 1
        Element::make(ElementKind::marker),           // 2
        Element::make(ElementKind::monitor),          // 3
        drift_entry(DriftModel::exact),               // 4
        quadrupole_entry(QuadrupoleModel::exact),     // 5: chromatic
        quadrupole_entry(QuadrupoleModel::kick),      // 6
        Element::make(ElementKind::sector_bend),      // 7
        Element::make(ElementKind::time_code),        // 8
        drift_entry(DriftModel::linear),              // 9
        Element::make(ElementKind::axial_field_map),  // 10
        Element::make(ElementKind::field_map_3d),     // 11
        Element::make(ElementKind::marker),           // 12
        Element::make(ElementKind::multipole),        // 13
    };
    table[1].misaligned = true;  // a misalignment is handled outside the switch: it still qualifies
    table[1].misalignment = Misalignment::make(1e-4, 0.0, 0.0);
    SegmentCaseTable const cases(table);
    CHECK(cases.cases(0, 4) == ElementCases::linear_maps);
    CHECK(cases.cases(1, 2) == ElementCases::linear_maps);
    CHECK(cases.cases(0, 5) == ElementCases::optics_maps);  // an exact drift
    CHECK(cases.cases(4, 5) == ElementCases::optics_maps);
    CHECK(cases.cases(5, 6) == ElementCases::optics_maps);  // a chromatic quadrupole
    CHECK(cases.cases(6, 7) == ElementCases::optics_maps);  // a kick quadrupole
    CHECK(cases.cases(7, 8) == ElementCases::optics_maps);  // a bend
    CHECK(cases.cases(0, 8) == ElementCases::optics_maps);
    CHECK(cases.cases(7, 9) == ElementCases::all);
    CHECK(cases.cases(8, 9) == ElementCases::all);
    CHECK(cases.cases(9, 10) == ElementCases::linear_maps);
    CHECK(cases.cases(9, 11) == ElementCases::without_integrators);  // the on-axis map is not linear
    CHECK(cases.cases(10, 12) == ElementCases::all);
    CHECK(cases.cases(12, 13) == ElementCases::linear_maps);
    CHECK(cases.cases(12, 14) == ElementCases::optics_maps);  // a thin multipole
    CHECK(cases.cases(0, 14) == ElementCases::all);
    CHECK(cases.cases(3, 3) == ElementCases::linear_maps);  // an empty segment
}

TEST_CASE("the optics-map switch: the magnetic optics, not RF, solenoids, kickers, collimators or profiles")
{
    std::vector<Element> table = {
        drift_entry(DriftModel::exact),               // 0
        Element::make(ElementKind::thick_multipole),  // 1
        Element::make(ElementKind::dipole_edge),      // 2
        Element::make(ElementKind::aperture),         // 3
        Element::make(ElementKind::srotation),        // 4
        Element::make(ElementKind::rf_cavity),        // 5
        Element::make(ElementKind::solenoid),         // 6
        Element::make(ElementKind::kicker),           // 7
        Element::make(ElementKind::collimator),       // 8
        Element::make(ElementKind::axial_field_map),  // 9
        drift_entry(DriftModel::linear),              // 10
    };
    SegmentCaseTable const cases(table);
    CHECK(cases.cases(0, 5) == ElementCases::optics_maps);
    for (size_type i = 5; i < 10; ++i) {
        CHECK(cases.cases(i, i + 1) == ElementCases::without_integrators);
        CHECK(cases.cases(0, i + 1) == ElementCases::without_integrators);
    }
    CHECK(cases.cases(10, 11) == ElementCases::linear_maps);
    // The exact bend: a pure dipole in the optics switch, a combined-function one (split steps) not.
    CHECK(SegmentCaseTable(std::vector<Element>{exact_bend_entry(0.0, 0.0)}).cases(0, 1) ==
          ElementCases::optics_maps);
    CHECK(SegmentCaseTable(std::vector<Element>{exact_bend_entry()}).cases(0, 1) ==
          ElementCases::without_integrators);
    CHECK(
        SegmentCaseTable(std::vector<Element>{exact_bend_entry(0.0, 0.0), exact_bend_entry()}).cases(0, 2) ==
        ElementCases::without_integrators);
    // A dipole with only a body multipole (a skew quadrupole) has the split steps too, and a particle sees
    // the same bits in the two switches that hold it.
    double const kn[] = {0.0}, ksn[] = {0.0, 0.2};
    Element body = Element::make(ElementKind::exact_bend);
    body.exact_bend =
        ExactBend::make(0.8, 0.12, 0.0, 0.0, BodyMultipoleKick::make(kn, 1, ksn, 2), 0, proton(100.0));
    CHECK(body.exact_bend.kicked);
    CHECK(!is_optics_map(body));
    CHECK(SegmentCaseTable(std::vector<Element>{body}).cases(0, 1) == ElementCases::without_integrators);
    Particle p{1e-3, 2e-4, -5e-4, 1e-4, 3e-4, 1e-3}, q = p;
    CHECK(track_element<ElementCases::all>(body, p));
    CHECK(track_element<ElementCases::without_integrators>(body, q));
    CHECK(to_vec(p) == to_vec(q));
    CHECK(p.py != q.py * 0.0 + 1e-4);  // the skew gradient kicked y
}

TEST_CASE("the smaller switches push their entries to the same bits, and refuse the others")
{
    Particle const p0{1e-3, 2e-4, -5e-4, 1e-4, 3e-4, 1e-3};
    for (Element const& e : {drift_entry(DriftModel::linear), quadrupole_entry(QuadrupoleModel::linear)}) {
        Particle p = p0, q = p0, r = p0;
        CHECK(track_element<ElementCases::all>(e, p));
        CHECK(track_element<ElementCases::without_integrators>(e, q));
        CHECK(track_element<ElementCases::linear_maps>(e, r));
        CHECK(to_vec(p) == to_vec(q));
        CHECK(to_vec(p) == to_vec(r));
        CHECK(p.x != p0.x);  // it moved
    }
    Element const exact = drift_entry(DriftModel::exact);
    for (Element const& e :
         {exact, quadrupole_entry(QuadrupoleModel::exact), quadrupole_entry(QuadrupoleModel::kick),
          drift_entry(DriftModel::linear), exact_bend_entry(0.0, 0.0)}) {
        Particle p = p0, q = p0, o = p0;
        CHECK(track_element<ElementCases::all>(e, p));
        CHECK(track_element<ElementCases::without_integrators>(e, q));
        CHECK(track_element<ElementCases::optics_maps>(e, o));
        CHECK(to_vec(p) == to_vec(q));
        CHECK(to_vec(p) == to_vec(o));
        CHECK(p.x != p0.x);
    }

    Particle r{};
    CHECK_FALSE(track_element<ElementCases::without_integrators>(Element::make(ElementKind::time_code), r));
    CHECK_FALSE(
        track_element<ElementCases::without_integrators>(Element::make(ElementKind::field_map_3d), r));
    for (ElementKind kind : {ElementKind::rf_cavity, ElementKind::solenoid, ElementKind::kicker,
                             ElementKind::collimator, ElementKind::axial_field_map, ElementKind::time_code}) {
        Particle s = p0;
        CHECK_FALSE(track_element<ElementCases::optics_maps>(Element::make(kind), s));
    }
    {
        // The combined-function exact bend: pushed by the switch without integrators; the host never gives
        // it to optics' (is_optics_map), which no longer re-checks it per particle (issue 29).
        Element const gradient_bend = exact_bend_entry();
        Particle q = p0;
        CHECK(track_element<ElementCases::without_integrators>(gradient_bend, q));
        CHECK(q.x != p0.x);
        CHECK_FALSE(is_optics_map(gradient_bend));
        std::vector<Element> const table = {drift_entry(DriftModel::linear), gradient_bend};
        CHECK(SegmentCaseTable(table).cases(0, 2) == ElementCases::without_integrators);
    }
    // Kinds the linear-map switch lacks: refused (the CPU marks the particle lost; the GPU traps).
    for (Element const& e :
         {Element::make(ElementKind::sector_bend), Element::make(ElementKind::time_code)}) {
        Particle s = p0;
        CHECK_FALSE(track_element<ElementCases::linear_maps>(e, s));
    }
    // Drifts and quadrupoles of the other models: refused by the host, which never gives them to the
    // linear-map switch (is_linear_map; that switch no longer re-checks the model per particle, issue 29).
    for (Element const& e :
         {exact, quadrupole_entry(QuadrupoleModel::exact), quadrupole_entry(QuadrupoleModel::kick)}) {
        CHECK_FALSE(is_linear_map(e));
        std::vector<Element> const table = {drift_entry(DriftModel::linear), e};
        CHECK(SegmentCaseTable(table).cases(0, 2) == ElementCases::optics_maps);
    }
}

TEST_CASE("the linear FODO through the linear-map switch: the bits of the switch without integrators")
{
    std::vector<Element> const table = linear_fodo();
    REQUIRE(SegmentCaseTable(table).cases(0, table.size()) == ElementCases::linear_maps);

    ParticleState reference = track_forced<Block, ElementCases::without_integrators>(table);
    ParticleView const r = reference.view();
    CHECK(r.lost_element[17] == 3);       // left alone
    CHECK(r.lost_element[500] >= 0);      // overflowed: lost at an entry
    CHECK(r.x[0] != beam().view().x[0]);  // tracked
    CHECK(r.lost_element[0] == -1);

    ParticleState linear = track_forced<Block, ElementCases::linear_maps>(table);
    check_same_bits(reference, linear);
    ParticleState one_by_one = track_forced<OneByOne, ElementCases::linear_maps>(table);  // the GPU's form
    check_same_bits(reference, one_by_one);
    ParticleState optics = track_forced<Block, ElementCases::optics_maps>(table);
    check_same_bits(reference, optics);

    // The CPU backend picks the linear-map switch itself.
    ParticleState picked = beam();
    std::unique_ptr<BeamKernels> kernels = make_cpu_beam_kernels();
    kernels->set_elements(table, {});
    size_type const half = table.size() / 2;
    for (std::int32_t turn = 0; turn < 3; ++turn) {
        kernels->track(picked.view(), 0, half, turn);
        kernels->track(picked.view(), half, table.size(), turn);
    }
    check_same_bits(reference, picked);
}

TEST_CASE("segments without a misaligned entry run the kernels without misalignments, to the same bits")
{
    std::vector<Element> table = linear_fodo();  // its one misaligned quadrupole made aligned
    REQUIRE(table.size() >= 3);
    for (Element& e : table) e.misaligned = false;
    CHECK_FALSE(SegmentCaseTable(table).misaligned(0, table.size()));
    ParticleState with = track_forced<OneByOne, ElementCases::linear_maps>(table);
    ParticleState linear = track_forced<Aligned, ElementCases::linear_maps>(table);
    check_same_bits(with, linear);
    ParticleState optics = track_forced<Aligned, ElementCases::optics_maps>(table);
    check_same_bits(with, optics);
    {
        // A particle not finite at the segment's start (pt infinite): the kernel without misalignments
        // takes the full check for it, so it is lost at the first entry, after that entry's map, as before.
        ParticleState a = beam(), b = beam();
        a.view().pt[3] = b.view().pt[3] = std::numeric_limits<double>::infinity();
        cpu::for_each(a.size(),
                      OneByOne<ElementCases::linear_maps>{a.view(), table.data(), 2, table.size(), 0});
        cpu::for_each(b.size(),
                      Aligned<ElementCases::linear_maps>{b.view(), table.data(), 2, table.size(), 0});
        CHECK(a.view().lost_element[3] == table[2].index);
        check_same_bits(a, b);
    }

    // One misaligned entry: only the segments that hold it are misaligned; its shift moves the beam.
    table[1].misaligned = true;
    table[1].misalignment = Misalignment::make(1e-4, -2e-4, 0.01);
    SegmentCaseTable const shifted(table);
    CHECK(shifted.misaligned(0, table.size()));
    CHECK(shifted.misaligned(1, 2));
    CHECK_FALSE(shifted.misaligned(0, 1));
    CHECK_FALSE(shifted.misaligned(2, table.size()));
    ParticleState moved = track_forced<OneByOne, ElementCases::linear_maps>(table);
    CHECK(test::differing_particles(with.view(), moved.view()) > 0);
}

TEST_CASE("with radiation, every switch that takes an entry pushes it to the bits of the switch of all kinds")
{
    // tests/data/every_element.toml with 5 GeV electrons radiating (lattice.radiation = "mean"): the
    // smaller switches call the element maps through their own dispatch (track_optics_map,
    // track_linear_map), which must keep each map's radiation. The GPU uses them, the CPU's loop not.
    std::vector<std::string> const radiating = {"beam.particle=\"electron\"", "beam.kinetic_energy=\"5 GeV\"",
                                                "lattice.radiation=\"mean\""};
    DeckConfig const deck =
        read_deck(std::string(GTRACK_SOURCE_DIR) + "/tests/data/every_element.toml", radiating, std::nullopt);
    std::vector<Element> const table = build_lattice(deck, initial_reference(deck)).elements;
    Particle const p0{1e-3, 2e-4, -5e-4, 1e-4, 3e-4, 1e-3};
    int optics = 0, linear = 0;
    for (std::size_t i = 0; i < table.size(); ++i) {
        Element const& e = table[i];
        CAPTURE(i);
        Particle a = p0;
        bool const kept = track_element<ElementCases::all>(e, a);
        if (is_optics_map(e)) {
            Particle o = p0;
            CHECK(track_element<ElementCases::optics_maps>(e, o) == kept);
            CHECK(to_vec(o) == to_vec(a));
            ++optics;
        }
        if (is_linear_map(e)) {
            Particle l = p0;
            CHECK(track_element<ElementCases::linear_maps>(e, l) == kept);
            CHECK(to_vec(l) == to_vec(a));
            ++linear;
        }
    }
    CHECK(optics > 10);  // the deck's bends, edges, quadrupoles and multipoles went through the optics switch
}
