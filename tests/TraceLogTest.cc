// The trace log places a kernel that was read after it ended (a GPU stage timed with events and read
// at a later wait, kernels/cuda/DeferredTimer.cuh) where it ran, not where it was read.
#include <doctest/doctest.h>

#include "kernels/core/TraceLog.hh"

using namespace gt;

TEST_CASE("a kernel event told it ended some time ago starts that much earlier")
{
    TraceLog log;
    log.enable();
    double const duration = 2e-3, ago = 5e-3;
    double const t0 = log.now();
    log.ended_now("track", "kernel", duration, ago);
    double const t1 = log.now();
    REQUIRE(log.events().size() == 1);
    TraceEvent const& e = log.events()[0];
    CHECK(e.duration == duration);
    // The call read the clock somewhere in [t0, t1].
    CHECK(e.start >= t0 - ago - duration);
    CHECK(e.start <= t1 - ago - duration);
    log.ended_now("moments", "kernel", duration);
    CHECK(log.events()[1].start >= t0 - duration);
}
