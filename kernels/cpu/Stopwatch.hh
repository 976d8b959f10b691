// The clock of the CPU backend's kernel timers: wall time (the default), or the process's CPU time
// divided by the thread count (--clock cpu), which on a machine shared with other jobs measures
// the work done rather than the neighbours' share of the cores.
#pragma once

#include <chrono>
#include <ctime>

#include "kernels/cpu/Executor.hh"

namespace gt::cpu {

enum class TimerClock { wall, process_cpu };

inline TimerClock& timer_clock()
{
    static TimerClock clock = TimerClock::wall;
    return clock;
}

//! [s] on the selected clock, from an arbitrary origin.
inline double timer_now()
{
    if (timer_clock() == TimerClock::wall)
        return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
    timespec ts{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double(ts.tv_sec) + 1e-9 * double(ts.tv_nsec)) / double(thread_count());
}

struct Stopwatch {
    double start = timer_now();
    double seconds() const { return timer_now() - start; }
};

}  // namespace gt::cpu
