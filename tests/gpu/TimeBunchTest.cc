// t-code entries pushed as a bunch (space charge at fixed time) on the GPU against the CPU: the bunch
// steps bit for bit, and a deck with space charge in time through validate's round-off tolerance.
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "beam/Lattice.hh"
#include "deck/DeckReader.hh"
#include "kernels/beam/BeamKernels.hh"
#include "run/BeamRun.hh"
#include "run/Validation.hh"

using namespace gt;

TEST_CASE("the t-code bunch steps on the GPU give the CPU's bits")
{
    // Every t-code element kind of tests/data/tcode.toml, each entry stepped as a bunch (no kicks):
    // the same functors on both sides (no FMA, portable math, one reduction tree for the counts).
    DeckConfig const deck =
        read_deck(std::string(GTRACK_SOURCE_DIR) + "/tests/data/tcode.toml", {"beam.macroparticles=20000"});
    Lattice const lattice = build_lattice(deck, initial_reference(deck));
    auto cpu = make_cpu_beam_kernels();
    auto gpu = make_cuda_beam_kernels();
    cpu->set_elements(lattice.elements, *lattice.field_data);
    gpu->set_elements(lattice.elements, *lattice.field_data);
    ParticleState cs = initial_beam(deck, *cpu), gs = initial_beam(deck, *gpu);
    int timed = 0;
    for (size_type e = 0; e < lattice.elements.size(); ++e) {
        if (lattice.elements[e].kind != ElementKind::time_code) {
            cpu->track(cs.view(), e, e + 1, 0);
            gpu->track(gs.view(), e, e + 1, 0);
            continue;
        }
        ++timed;
        for (auto* k : {cpu.get(), gpu.get()}) {
            ParticleView const v = k == cpu.get() ? cs.view() : gs.view();
            double step = k->time_bunch_begin(v, e);
            while (k->time_bunch_step(v, e, step)[0] > 0.0) step += 1.0;
            k->time_bunch_finish(v, e, 0);
        }
    }
    CHECK(timed > 5);
    ParticleState back(gs, MemSpace::host);
    ParticleView const c = cs.view(), g = back.view();
    std::size_t differing = 0;
    for (double* const* p : {&c.x, &c.px, &c.y, &c.py, &c.t, &c.pt}) {
        std::size_t const k = std::size_t(p - &c.x);
        for (size_type i = 0; i < c.size; ++i) differing += std::memcmp(&(*p)[i], &(*(&g.x + k))[i], sizeof(double)) != 0;
    }
    for (size_type i = 0; i < c.size; ++i) differing += c.lost_element[i] != g.lost_element[i];
    CHECK(differing == 0);
}

TEST_CASE("space charge at fixed time in t-code elements: validate passes GPU against CPU")
{
    // The photoinjector (gun and solenoid maps, 3D space charge) with both maps tracked in time: the
    // kicks' FFTs round differently on the two sides, so validate's round-off tolerance applies
    // after each kick (docs/validation.md); every stage must pass.
    // Coarser time steps than the accuracy rule's (2513 in the gun at 50 keV) keep the CPU side short.
    DeckConfig const deck = read_deck(std::string(GTRACK_SOURCE_DIR) + "/inputs/photoinjector.toml",
                                      {"beam.macroparticles=10000", "run.tracking=t", "elements.GUN.time_step=2e-12",
                                       "elements.SOL.time_step=2e-11"});
    auto cpu = make_cpu_beam_kernels();
    auto gpu = make_cuda_beam_kernels();
    ValidationResult const r = validate_beamline(deck, *cpu, *gpu, ValidationOptions{});
    REQUIRE(!r.stages.empty());
    MESSAGE("photoinjector in time: ", r.stages.size(), " stages, ", r.stages.back().kicks, " kicks");
    CHECK(r.stages.back().kicks > 50);
    CHECK(r.ok());
}
