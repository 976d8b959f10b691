// A beam emitted from a cathode (inputs/photoinjector_cathode.toml) on the GPU against the CPU: the
// emission's sampling, the gun in time (per particle and as a bunch) and the rest of the line bit for
// bit without space charge; with space charge in time, validate's round-off tolerance.
#include <doctest/doctest.h>

#include <cstring>
#include <string>
#include <vector>

#include "beam/Lattice.hh"
#include "deck/DeckReader.hh"
#include "kernels/beam/BeamKernels.hh"
#include "run/BeamRun.hh"
#include "run/Validation.hh"

using namespace gt;

namespace {

//! Coordinates and loss records that differ bit for bit between a CPU state and a GPU state.
std::size_t differing(ParticleState& cpu, ParticleState& gpu)
{
    ParticleState back(gpu, MemSpace::host);
    ParticleView const c = cpu.view(), g = back.view();
    std::size_t n = 0;
    double const* const a[6] = {c.x, c.px, c.y, c.py, c.t, c.pt};
    double const* const b[6] = {g.x, g.px, g.y, g.py, g.t, g.pt};
    for (int k = 0; k < 6; ++k)
        for (size_type i = 0; i < c.size; ++i) n += std::memcmp(&a[k][i], &b[k][i], sizeof(double)) != 0;
    for (size_type i = 0; i < c.size; ++i) n += c.lost_element[i] != g.lost_element[i];
    return n;
}

DeckConfig cathode_deck(std::vector<std::string> sets)
{
    return read_deck(std::string(GTRACK_SOURCE_DIR) + "/inputs/photoinjector_cathode.toml", sets);
}

}  // namespace

TEST_CASE("emission from a cathode on the GPU gives the CPU's bits: sampling, the gun in time, the line")
{
    DeckConfig const deck = cathode_deck({"beam.macroparticles=20000", "space_charge.enabled=false"});
    Lattice const lattice = build_lattice(deck, initial_reference(deck));
    REQUIRE(lattice.elements[0].kind == ElementKind::time_code);
    REQUIRE(lattice.elements[0].time_code.cathode == 1);
    auto cpu = make_cpu_beam_kernels();
    auto gpu = make_cuda_beam_kernels();
    cpu->set_elements(lattice.elements, *lattice.field_data);
    gpu->set_elements(lattice.elements, *lattice.field_data);
    // The emitted beam: positions, emission times and thermal momenta (portable log, sqrt, sincos).
    ParticleState cs = initial_beam(deck, *cpu), gs = initial_beam(deck, *gpu);
    CHECK(differing(cs, gs) == 0);
    // The gun per particle (emission at each particle's own time, then the grid), then the line.
    ParticleState cb = initial_beam(deck, *cpu), gb = initial_beam(deck, *gpu);
    cpu->track(cs.view(), 0, lattice.elements.size(), 0);
    gpu->track(gs.view(), 0, lattice.elements.size(), 0);
    CHECK(differing(cs, gs) == 0);
    // The gun as a bunch (the space-charge path's steps, without kicks), then the line.
    for (auto* k : {cpu.get(), gpu.get()}) {
        ParticleView const v = k == cpu.get() ? cb.view() : gb.view();
        double step = k->time_bunch_begin(v, 0);
        while (k->time_bunch_step(v, 0, step)[0] > 0.0) step += 1.0;
        k->time_bunch_finish(v, 0, 0);
        k->track(v, 1, lattice.elements.size(), 0);
    }
    CHECK(differing(cb, gb) == 0);
    // Without kicks the bunch path is the per-particle path.
    CHECK(differing(cs, cb) == 0);
}

TEST_CASE("emission from a cathode with space charge in time: validate passes GPU against CPU")
{
    // The kicks' FFTs round differently on the two sides: validate's round-off tolerance applies after
    // each kick (docs/validation.md). A coarser gun step than the accuracy rule's (5.7e-13 s, 1146
    // steps) keeps the CPU side short.
    DeckConfig const deck =
        cathode_deck({"beam.macroparticles=10000", "elements.GUN.time_step=2e-12"});
    auto cpu = make_cpu_beam_kernels();
    auto gpu = make_cuda_beam_kernels();
    ValidationResult const r = validate_beamline(deck, *cpu, *gpu, ValidationOptions{});
    REQUIRE(!r.stages.empty());
    MESSAGE("photoinjector from the cathode: ", r.stages.size(), " stages, ", r.stages.back().kicks, " kicks");
    CHECK(r.stages.back().kicks > 50);
    CHECK(r.ok());
}
