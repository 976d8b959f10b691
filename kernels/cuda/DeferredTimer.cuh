// Times stages of work queued on the default stream without waiting for each: a stage's start and
// stop are CUDA events recorded as it is queued, and its time is read once the host waits anyway,
// for a reduction's partials (stop_waited) or when the times are read (settle). A tracking segment
// and the statistics point after it then cost the host one wait, where a wait per stage cost three
// (issue 12). Stage times are the device's time from start to stop event, as before; in the trace a
// stage ends where its stop event lies before the wait that read it.
#pragma once

#include <algorithm>
#include <cstddef>
#include <string>
#include <vector>

#include <cuda_runtime.h>

#include "kernels/core/KernelTimer.hh"
#include "kernels/cuda/Check.cuh"
#include "kernels/cuda/HostWait.cuh"

namespace gt::cuda {

class DeferredTimer {
  public:
    using Stage = TimedStage;

    explicit DeferredTimer(KernelTimer& out) : out_(out) {}
    ~DeferredTimer()
    {
        // Unchecked: at exit the runtime may already be gone. Stages still pending are dropped.
        for (Pair const& p : pairs_) {
            (void)cudaEventDestroy(p.start);
            (void)cudaEventDestroy(p.stop);
        }
    }
    DeferredTimer(DeferredTimer const&) = delete;
    DeferredTimer& operator=(DeferredTimer const&) = delete;

    //! Marks the start of a stage. With k_max_pending stages unread it waits for the older half of
    //! them and reads those first: the newer half stays queued, so that the device is not left idle
    //! while the host queues more.
    void start()
    {
        if (pending_.size() == k_max_pending) settle_oldest(k_max_pending / 2);
        if (pairs_.size() == pending_.size()) {
            Pair p{};
            GT_CUDA_CHECK(cudaEventCreate(&p.start));
            GT_CUDA_CHECK(cudaEventCreate(&p.stop));
            pairs_.push_back(p);
        }
        GT_CUDA_CHECK(cudaEventRecord(pairs_[pending_.size()].start));
        excluded_ = 0;
    }

    //! Takes `seconds` of host work out of the stage begun by start(): work during which the device sat
    //! idle because the host had waited for the stream before it (a gather's page-locked staging,
    //! allocated after the wait for the count), so that the events' span holds it whole. Not for work
    //! that may overlap queued device work.
    void exclude(double seconds) { excluded_ += seconds; }

    //! Ends the stage after the work queued since start(), without waiting for it.
    void stop(Stage stage)
    {
        cudaEvent_t const stop = pairs_[pending_.size()].stop;
        GT_CUDA_CHECK(cudaEventRecord(stop));
        pending_.push_back(Pending{std::move(stage), stop, excluded_});
        excluded_ = 0;
    }

    //! Ends the stage at `done`, an event recorded after its work that the host has just waited for
    //! (a reduction's, ReduceScratch::done): this stage and every pending one are read, no new wait.
    void stop_waited(Stage stage, cudaEvent_t done)
    {
        pending_.push_back(Pending{std::move(stage), done, excluded_});
        excluded_ = 0;
        read(done);
    }

    //! Waits for the last pending stage and reads them all (nothing to do when none is pending).
    void settle()
    {
        if (pending_.empty()) return;
        cudaEvent_t const last = pending_.back().stop;
        wait(last, "the timed GPU stages");
        read(last);
    }

  private:
    //! Unread stages at most: the host runs at most this many stages ahead of a wait (the detector
    //! loop queues about 17 stages an iteration, 16 iterations between its own reads).
    static constexpr std::size_t k_max_pending = 256;

    //! Waits for the oldest `count` pending stages and reads them.
    void settle_oldest(std::size_t count)
    {
        cudaEvent_t const last = pending_[count - 1].stop;
        wait(last, "the timed GPU stages");
        read(last, count);
    }

    struct Pair {
        cudaEvent_t start;
        cudaEvent_t stop;
    };
    struct Pending {
        Stage stage;
        cudaEvent_t stop;  //!< pairs_[i].stop, or the done event of stop_waited
        double excluded;   //!< [s] host work taken out of the stage (exclude())
    };

    //! The oldest `count` pending stages (all by default), whose stop events precede `last` on the
    //! stream, which has completed: none waits. Their event pairs go to the back for reuse.
    void read(cudaEvent_t last, std::size_t count = std::size_t(-1))
    {
        if (count > pending_.size()) count = pending_.size();
        for (std::size_t i = 0; i < count; ++i) {
            Pending const& p = pending_[i];
            float ms = 0, ago_ms = 0;
            GT_CUDA_CHECK(cudaEventElapsedTime(&ms, pairs_[i].start, p.stop));
            GT_CUDA_CHECK(cudaEventElapsedTime(&ago_ms, p.stop, last));
            double const seconds = std::max(0.0, 1e-3 * double(ms) - p.excluded);
            out_.add(p.stage.kernel, seconds, p.stage.bytes, p.stage.items, p.stage.flops,
                     1e-3 * double(ago_ms));
        }
        pending_.erase(pending_.begin(), pending_.begin() + static_cast<std::ptrdiff_t>(count));
        std::rotate(pairs_.begin(), pairs_.begin() + static_cast<std::ptrdiff_t>(count), pairs_.end());
    }

    KernelTimer& out_;
    std::vector<Pair> pairs_;  //!< pending stage i started at pairs_[i].start; reused once read
    std::vector<Pending> pending_;
    double excluded_ = 0;  //!< [s] taken out of the stage begun by the last start()
};

}  // namespace gt::cuda
