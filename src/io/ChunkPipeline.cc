// Chunks passed in order between the calling thread and a few workers: the threads, buffers and hand-overs.
#include "io/ChunkPipeline.hh"

#include <algorithm>
#include <utility>

namespace gt::h5 {
namespace {

//! Worker threads at the most: enough to outrun a disk several times over in checksums (one does
//! ~8 GB/s, the disks measured so far take 1.2-1.6 GB/s), leaving cores to the thread that fetches the
//! next piece and the one that enters HDF5.
constexpr unsigned k_max_workers = 4;

unsigned workers_for(std::size_t chunks)
{
    unsigned const cores = std::max(1u, std::thread::hardware_concurrency());
    return unsigned(std::min<std::size_t>(
        {std::size_t(k_max_workers), std::size_t(cores > 2 ? cores - 2 : 1), chunks - 1}));
}

}  // namespace

ChunkPipeline::ChunkPipeline(std::size_t chunks, std::size_t buffer_bytes, Filler filler, Work work)
    : chunks_(chunks),
      workers_(chunks == 0 ? 0 : workers_for(chunks)),
      filler_(filler),
      work_(std::move(work)),
      buffers_(workers_ == 0 ? 1 : 2 * std::size_t(workers_)),
      failed_(chunks)
{
    for (auto& b : buffers_) {
        b.bytes = std::make_unique_for_overwrite<std::byte[]>(buffer_bytes);
        b.with_caller = filler_ == Filler::caller;
    }
    try {
        for (unsigned w = 0; w < workers_; ++w) threads_.emplace_back([this, w] { run_worker(w); });
    } catch (...) {
        finish();
        throw;
    }
}

void ChunkPipeline::run_worker(unsigned w)
{
    for (std::size_t i = w; i < chunks_; i += workers_) {
        Buffer& b = buffer_of(i);
        {
            std::unique_lock lock(mutex_);
            changed_.wait(lock, [&] { return stop_ || !b.with_caller; });
            if (stop_) return;
        }
        hand_back(i, work_(i, b.bytes.get()));
    }
}

void ChunkPipeline::hand_back(std::size_t i, bool done)
{
    {
        std::lock_guard const lock(mutex_);
        buffer_of(i).with_caller = true;
        if (!done) failed_ = std::min(failed_, i);
    }
    changed_.notify_all();
}

std::byte* ChunkPipeline::acquire(std::size_t i)
{
    Buffer& b = buffer_of(i);
    if (workers_ == 0 && filler_ == Filler::workers) hand_back(i, work_(i, b.bytes.get()));
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [&] { return b.with_caller; });
    return failed_ < chunks_ ? nullptr : b.bytes.get();
}

void ChunkPipeline::release(std::size_t i)
{
    Buffer& b = buffer_of(i);
    {
        std::lock_guard const lock(mutex_);
        b.with_caller = false;
    }
    changed_.notify_all();
    if (workers_ == 0 && filler_ == Filler::caller) hand_back(i, work_(i, b.bytes.get()));
}

void ChunkPipeline::wait_returned()
{
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [&] {
        return failed_ < chunks_ ||
               std::all_of(buffers_.begin(), buffers_.end(), [](Buffer const& b) { return b.with_caller; });
    });
}

void ChunkPipeline::finish()
{
    {
        std::lock_guard const lock(mutex_);
        stop_ = true;
    }
    changed_.notify_all();
    for (auto& t : threads_) t.join();
    threads_.clear();
}

std::optional<std::size_t> ChunkPipeline::failed()
{
    std::lock_guard const lock(mutex_);
    if (failed_ < chunks_) return failed_;
    return std::nullopt;
}

}  // namespace gt::h5
