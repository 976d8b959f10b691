// The ranks of one simulation: MPI's world communicator, or a single rank in a build without MPI.
//
// The rest of gtrack calls these operations unconditionally; with one rank each is the identity (a
// sum of one value, a gather of one share), so no code outside src/parallel/ needs an #ifdef. Every
// reduction offered here is exact (integers, minimum, maximum, logical and) or a concatenation in
// rank order: nothing here can make a result depend on the rank count (DESIGN.md section 5).
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

namespace gt::parallel {

class Communicator {
  public:
    //! The world of this process: set up by Session (a single rank when none was made).
    static Communicator& world();

    int rank() const { return rank_; }
    int size() const { return size_; }
    bool is_root() const { return rank_ == 0; }
    //! This rank's index among the ranks on its node (MPI_COMM_TYPE_SHARED), for choosing a GPU.
    int node_rank() const { return node_rank_; }
    int node_size() const { return node_size_; }
    //! Number of nodes the ranks run on.
    int node_count() const { return node_count_; }

    // ---- exact reductions, the result on every rank ----------------------------------------------
    //! Element-wise sum over ranks, in place (integers: exact, so independent of the rank count).
    void sum_in_place(std::span<std::int64_t> values) const;
    std::uint64_t sum(std::uint64_t value) const;
    //! Element-wise minimum / maximum over ranks, in place.
    void min_in_place(std::span<double> values) const;
    void max_in_place(std::span<double> values) const;
    //! True on every rank when `ok` is true on every rank.
    bool all(bool ok) const;
    //! The smallest `value` over ranks.
    int min(int value) const;
    //! Sum of `value` over the ranks below this one (0 on rank 0).
    std::uint64_t exclusive_prefix_sum(std::uint64_t value) const;

    // ---- a fold in rank order (CrossRank::fold_in_rank_order) -----------------------------------------
    //! Rank r waits for rank r-1's `running` (rank 0 keeps its own), applies `fold_mine`, passes it to
    //! rank r+1; then every rank gets the last rank's. Messages are `running.size()` values.
    void fold_in_rank_order(std::span<double> running, std::function<void(std::span<double>)> const& fold_mine) const;

    // ---- ordered gathers ---------------------------------------------------------------------------
    //! The concatenation of every rank's `local` in rank order, on every rank.
    std::vector<double> all_gather(std::span<double const> local) const;
    std::vector<std::uint64_t> all_gather(std::span<std::uint64_t const> local) const;
    //! Every rank's string in rank order, on rank 0 only (empty elsewhere).
    std::vector<std::string> gather_to_root(std::string const& local) const;

    // ---- point to point, for writes relayed through rank 0 in rank order ----------------------------
    void send(int to, std::span<double const> values) const;
    void send(int to, std::span<std::uint64_t const> values) const;
    void send(int to, std::span<std::int64_t const> values) const;
    std::vector<double> receive_doubles(int from) const;
    std::vector<std::uint64_t> receive_uint64s(int from) const;
    std::vector<std::int64_t> receive_int64s(int from) const;

    void barrier() const;
    //! Ends every rank of the job with `code` (MPI_Abort); with one rank, std::exit.
    [[noreturn]] void abort(int code) const;

  private:
    friend class Session;
    int rank_ = 0;
    int size_ = 1;
    int node_rank_ = 0;
    int node_size_ = 1;
    int node_count_ = 1;
};

//! MPI for the life of main(): initialized when the process was started by a launcher (mpirun, srun,
//! mpiexec), finalized on destruction. Without a launcher, or without MPI, the world is one rank.
class Session {
  public:
    Session(int& argc, char**& argv);
    ~Session();
    Session(Session const&) = delete;
    Session& operator=(Session const&) = delete;

  private:
    [[maybe_unused]] bool initialized_ = false;  // set and read by the MPI build only
};

//! "MPI ON (Open MPI 4.1.4)" / "MPI OFF": the library this build uses, for --version.
std::string library_description();

//! "3 ranks on 2 nodes" style summary of the world, for --version, provenance and the run line.
std::string describe_world();

}  // namespace gt::parallel
