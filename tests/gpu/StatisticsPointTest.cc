// A statistics point on the GPU costs the host one wait (issue 12): the tracking segment before it
// is queued and timed without a wait, and the moments reduction's wait is the point's only one.
// Waits are counted where gtrack's CUDA layer makes them (kernels/cuda/HostWait.cuh: events waited
// on, blocking copies, cudaFree, device synchronizations).
#include <doctest/doctest.h>

#include <algorithm>
#include <cstring>
#include <string>

#include "beam/Lattice.hh"
#include "deck/DeckReader.hh"
#include "kernels/beam/BeamKernels.hh"
#include "kernels/core/Device.hh"
#include "run/BeamRun.hh"
#include "run/BeamTracker.hh"
#include "tests/gpu/BackendPair.hh"

using namespace gt;

namespace {

bool same_bits(BeamMoments const& a, BeamMoments const& b)
{
    return std::memcmp(&a.alive, &b.alive, sizeof a.alive) == 0 &&
           std::memcmp(a.mean, b.mean, sizeof a.mean) == 0 && std::memcmp(a.cov, b.cov, sizeof a.cov) == 0 &&
           std::memcmp(a.max_abs, b.max_abs, sizeof a.max_abs) == 0;
}

}  // namespace

TEST_CASE("a statistics point and the tracking segment before it wait for the GPU once")
{
    // The deck of the issue's `gtrack validate` figure: every slice a point.
    test::BackendPair run("inputs/chicane.toml", {"beam.macroparticles=20000"});
    BeamKernels& cpu = *run.cpu;
    BeamKernels& gpu = *run.gpu;
    ParticleState& cs = run.cpu_beam;
    ParticleState& gs = run.gpu_beam;
    BeamTracker& ct = run.cpu_tracker;
    BeamTracker& gt = run.gpu_tracker;
    // The first point grows the reduction's scratch; counting starts after it.
    REQUIRE(ct.advance());
    REQUIRE(gt.advance());
    CHECK(same_bits(cpu.moments(cs.view()), gpu.moments(gs.view())));
    int points = 0, differing = 0;
    long most = 0, least = 1L << 40;
    while (ct.advance()) {
        long const before = device::host_waits();
        REQUIRE(gt.advance());
        BeamMoments const b = gpu.moments(gs.view());
        long const waits = device::host_waits() - before;
        most = std::max(most, waits);
        least = std::min(least, waits);
        differing += !same_bits(cpu.moments(cs.view()), b);
        ++points;
    }
    MESSAGE(points, " statistics points, host waits per point (segment + moments): ", least, " to ", most);
    CHECK(points >= 10);
    CHECK(most == 1);
    CHECK(least == 1);
    // Not waiting per segment changes no bit: everything runs in order on the default stream.
    CHECK(differing == 0);

    // Right after a point every stage has been read: the times cost no wait. A segment queued
    // since is read with one wait, and counted once.
    long before = device::host_waits();
    KernelRecord const tracked = gpu.timer().records().at("track");
    CHECK(device::host_waits() == before);
    CHECK(tracked.calls >= points);
    CHECK(tracked.seconds > 0);
    CHECK(gpu.timer().records().at("moments").calls == points + 1);
    gpu.track(gs.view(), 0, 1, 0);
    before = device::host_waits();
    KernelRecord const after = gpu.timer().records().at("track");
    CHECK(device::host_waits() == before + 1);
    CHECK(after.calls == tracked.calls + 1);
    CHECK(after.seconds > tracked.seconds);
}

TEST_CASE("stages queued beyond the timer's window are read with one wait per window, none lost")
{
    ParticleState host(1000, MemSpace::host);
    ParticleView v = host.view();
    for (size_type i = 0; i < v.size; ++i) {
        v.x[i] = v.px[i] = v.y[i] = v.py[i] = v.t[i] = v.pt[i] = 1e-3 * double(i % 17);
        v.id[i] = i;
        v.lost_element[i] = v.lost_turn[i] = -1;
    }
    ParticleState device(host, MemSpace::device);
    DeckConfig deck = read_deck(std::string(GTRACK_SOURCE_DIR) + "/inputs/chicane.toml", {});
    Lattice const lattice = build_lattice(deck, initial_reference(deck));
    auto gpu = make_cuda_beam_kernels();
    gpu->set_elements(lattice.elements, *lattice.field_data);
    // 600 segments with no point between them: the host runs at most 256 stages ahead
    // (DeferredTimer::k_max_pending) and then reads the older 128, so 3 waits on the way (at the
    // 257th, 385th and 513th stage) and 1 to read the rest.
    long const before = device::host_waits();
    for (int i = 0; i < 600; ++i) gpu->track(device.view(), 1, 2, 0);
    long const queued = device::host_waits() - before;
    KernelRecord const r = gpu->timer().records().at("track");
    CHECK(queued == 3);
    CHECK(device::host_waits() - before == 4);
    CHECK(r.calls == 600);
}
