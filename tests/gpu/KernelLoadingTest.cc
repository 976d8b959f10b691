// The set-up that the GPU's timed stages no longer hold (issue 29's forecast): each kind of beam call is made
// once untimed before its first timed call, so that its kernels load there ("kernel loading" in the trace),
// the gathers' page-locked staging is host time ("host staging"), cuFFT's plans are made outside the timed
// space-charge stage ("cufft plans"). Counted by the trace's events and the timers' calls; results unchanged.
#include <doctest/doctest.h>

#include <algorithm>
#include <string>

#include "../ParticleSampleSupport.hh"
#include "beam/BeamSetup.hh"
#include "beam/Lattice.hh"
#include "deck/DeckReader.hh"
#include "kernels/beam/BeamKernels.hh"
#include "kernels/core/TraceLog.hh"
#include "tests/SpaceChargeTestSupport.hh"

using namespace gt;

namespace {

long events_named(char const* name)
{
    auto const& e = trace_log().events();
    return std::count_if(e.begin(), e.end(), [&](TraceEvent const& t) { return t.name == name; });
}

}  // namespace

TEST_CASE("each kind of beam call loads its kernels once, untimed, before its first timed call")
{
    trace_log().enable();
    DeckConfig const deck = read_deck(std::string(GTRACK_SOURCE_DIR) + "/inputs/solenoid_linac.toml", {});
    Lattice const lattice = build_lattice(deck, initial_reference(deck));
    auto gpu = make_cuda_beam_kernels();
    gpu->set_elements(lattice.elements, *lattice.field_data);
    ParticleState const host = test::sample_state(
        1000, [](size_type i) { return i % 3 == 0; }, 2);
    ParticleState device(host, MemSpace::device);
    long const start = events_named("kernel loading");
    gpu->track(device.view(), 0, 1, 0);
    CHECK(events_named("kernel loading") == start + 1);
    gpu->track(device.view(), 0, 1, 0);  // the same switch: loaded
    CHECK(events_named("kernel loading") == start + 1);
    (void)gpu->moments(device.view());
    (void)gpu->moments(device.view());
    CHECK(events_named("kernel loading") == start + 2);
    long const staged = events_named("host staging");
    (void)gpu->gather_to_host(device.view(), 0, device.size(), true);  // grows the first buffer
    (void)gpu->gather_to_host(device.view(), 0, device.size(), true);  // and the second
    (void)gpu->gather_to_host(device.view(), 0, device.size(), true);  // the first again: no growth
    CHECK(events_named("kernel loading") == start + 3);
    CHECK(events_named("host staging") == staged + 2);
    // The untimed calls are not in the timers: two tracks, two moments, three gathers.
    auto const& r = gpu->timer().records();
    CHECK(r.at("track").calls == 2);
    CHECK(r.at("moments").calls == 2);
    CHECK(r.at("gather").calls == 3);
}

TEST_CASE("cuFFT's plans are made outside the timed space-charge stages, once per grid size")
{
    trace_log().enable();
    auto const points = test::lumpy_bunch(100000, 7);
    BeamFrame const frame = test::proton_frame(50.0, 1e-15);
    ParticleState host = test::beam_at(points, frame);
    auto gpu = make_cuda_space_charge();
    CHECK(events_named("kernel loading") == 1);  // the module, when the solver is made
    ParticleState state(host, MemSpace::device);
    SpaceChargeSettings s;
    s.grid = {32, 32, 32};
    for (int k = 0; k < 3; ++k) (void)gpu->kick(state.view(), s, frame, 0.1);
    CHECK(events_named("cufft plans") == 1);
    s.grid = {16, 16, 16};
    (void)gpu->kick(state.view(), s, frame, 0.1);  // a new size: new plans
    CHECK(events_named("cufft plans") == 2);
}
