// Chunks passed in order between the calling thread and a few worker threads, two buffers a worker.
//
// ChecksummedChunks.cc uses it both ways: to write, the workers fill and checksum chunk buffers and the
// calling thread hands them, in order, to H5Dwrite_chunk; to read, the calling thread fills the buffers
// with H5Dread_chunk and the workers verify them. Either way the calling thread is the only one that
// enters HDF5, and a worker works on its next chunk while the calling thread has its last one.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

namespace gt::h5 {

//! Chunks 0 .. n-1 through 2W buffers: worker w works on chunks w, w + W, w + 2W, ... and chunk i
//! uses buffer (i % W, (i / W) % 2). Each buffer goes back and forth between the calling thread and
//! its worker: acquire(i) waits until chunk i's buffer is the caller's, release(i) hands it to the
//! worker, which does its work on it and hands it back. With one chunk no thread is started and the
//! calling thread does the worker's work itself, where the worker would have (acquire or release).
//! Only the calling thread calls the members.
class ChunkPipeline {
  public:
    //! The side that fills the buffers, so holds them first.
    enum class Filler { workers, caller };
    //! A worker's work on chunk `index` in `buffer`; false marks the chunk failed.
    using Work = std::function<bool(std::size_t index, std::byte* buffer)>;

    //! Starts the workers for `chunks` chunks (none for one chunk), with buffers of `buffer_bytes`.
    ChunkPipeline(std::size_t chunks, std::size_t buffer_bytes, Filler filler, Work work);
    ChunkPipeline(ChunkPipeline const&) = delete;
    ChunkPipeline& operator=(ChunkPipeline const&) = delete;
    ~ChunkPipeline() { finish(); }

    //! The worker threads: at most 4, leaving two cores, one fewer than the chunks.
    unsigned workers() const { return workers_; }

    //! Waits until chunk i's buffer is the caller's and returns it; nullptr once a chunk has failed.
    std::byte* acquire(std::size_t i);
    //! Hands chunk i's buffer to its worker.
    void release(std::size_t i);
    //! Waits until every buffer is the caller's again, or a chunk has failed.
    void wait_returned();
    //! Stops the workers (each at its next wait) and joins them; acquire and release no longer apply.
    void finish();
    //! The first chunk whose work failed, of those done.
    std::optional<std::size_t> failed();

  private:
    struct Buffer {
        std::unique_ptr<std::byte[]> bytes;
        bool with_caller = false;  //!< the caller's, not the worker's (guarded by mutex_)
    };

    Buffer& buffer_of(std::size_t i)
    {
        return buffers_[workers_ == 0 ? 0 : 2 * (i % workers_) + (i / workers_) % 2];
    }
    void run_worker(unsigned w);
    //! Gives chunk i's buffer back to the caller after the worker's work, `done` false when it failed.
    void hand_back(std::size_t i, bool done);

    std::size_t chunks_;
    unsigned workers_;
    Filler filler_;
    Work work_;
    std::vector<Buffer> buffers_;
    std::mutex mutex_;
    std::condition_variable changed_;
    bool stop_ = false;
    std::size_t failed_;  //!< the first failed chunk (chunks_: none)
    std::vector<std::thread> threads_;
};

}  // namespace gt::h5
