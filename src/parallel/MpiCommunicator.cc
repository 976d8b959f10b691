// The communicator over MPI (a build with GTRACK_MPI): MPI_COMM_WORLD and its node-local split.
#include <cstdio>
#include <cstdlib>
#include <stdexcept>

#include <mpi.h>

#include <fmt/format.h>

#include "parallel/Communicator.hh"

namespace gt::parallel {
namespace {

Communicator g_world;

void check(int status, char const* what)
{
    if (status == MPI_SUCCESS) return;
    char text[MPI_MAX_ERROR_STRING];
    int length = 0;
    MPI_Error_string(status, text, &length);
    throw std::runtime_error(fmt::format("{} failed: {}", what, std::string(text, std::size_t(length))));
}

//! True when a launcher started this process: then MPI_Init joins its job. Without one, gtrack
//! runs as one rank without touching MPI (no singleton start-up, which needs a working runtime).
bool started_by_launcher()
{
    for (char const* v : {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_RANK", "PMI_SIZE", "MPI_LOCALNRANKS"})
        if (std::getenv(v)) return true;
    return false;
}

template <class T>
MPI_Datatype datatype();
template <>
MPI_Datatype datatype<double>()
{
    return MPI_DOUBLE;
}
template <>
MPI_Datatype datatype<std::uint64_t>()
{
    return MPI_UINT64_T;
}
template <>
MPI_Datatype datatype<std::int64_t>()
{
    return MPI_INT64_T;
}

template <class T>
std::vector<T> gather_all(std::span<T const> local, int size)
{
    if (size == 1) return {local.begin(), local.end()};
    auto const mine = static_cast<long long>(local.size());
    std::vector<long long> counts(std::size_t(size), 0);
    check(MPI_Allgather(&mine, 1, MPI_LONG_LONG, counts.data(), 1, MPI_LONG_LONG, MPI_COMM_WORLD),
          "MPI_Allgather");
    std::vector<MPI_Count> c(counts.begin(), counts.end()), displ(counts.size(), 0);
    long long total = 0;
    for (std::size_t r = 0; r < counts.size(); ++r) {
        displ[r] = total;
        total += counts[r];
    }
    std::vector<T> all(static_cast<std::size_t>(total));
    // Counts beyond int are rare here (chunk partials); the int interface keeps MPI 3 compatibility.
    std::vector<int> ci(counts.size()), di(counts.size());
    for (std::size_t r = 0; r < counts.size(); ++r) {
        if (c[r] > INT32_MAX || displ[r] > INT32_MAX)
            throw std::runtime_error("an ordered gather of more than 2^31 values: not supported");
        ci[r] = int(c[r]);
        di[r] = int(displ[r]);
    }
    check(MPI_Allgatherv(local.data(), int(local.size()), datatype<T>(), all.data(), ci.data(), di.data(),
                         datatype<T>(), MPI_COMM_WORLD),
          "MPI_Allgatherv");
    return all;
}

template <class T>
void send_vector(int to, std::span<T const> values)
{
    auto const n = static_cast<std::uint64_t>(values.size());
    check(MPI_Send(&n, 1, MPI_UINT64_T, to, 0, MPI_COMM_WORLD), "MPI_Send");
    // In pieces below 2^31 elements: MPI's counts are int.
    std::size_t const piece = std::size_t(1) << 30;
    for (std::size_t i = 0; i < values.size(); i += piece) {
        int const count = int(std::min(piece, values.size() - i));
        check(MPI_Send(values.data() + i, count, datatype<T>(), to, 1, MPI_COMM_WORLD), "MPI_Send");
    }
}

template <class T>
std::vector<T> receive_vector(int from)
{
    std::uint64_t n = 0;
    check(MPI_Recv(&n, 1, MPI_UINT64_T, from, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE), "MPI_Recv");
    std::vector<T> values(n);
    std::size_t const piece = std::size_t(1) << 30;
    for (std::size_t i = 0; i < values.size(); i += piece) {
        int const count = int(std::min(piece, values.size() - i));
        check(MPI_Recv(values.data() + i, count, datatype<T>(), from, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE),
              "MPI_Recv");
    }
    return values;
}

}  // namespace

Communicator& Communicator::world() { return g_world; }

Session::Session(int& argc, char**& argv)
{
    if (!started_by_launcher()) return;
    int provided = 0;
    // Only the main thread calls MPI (OpenMP threads never do).
    check(MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided), "MPI_Init_thread");
    initialized_ = true;
    // Errors come back as codes (checked above) instead of ending the job without a message.
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    Communicator& w = g_world;
    MPI_Comm_rank(MPI_COMM_WORLD, &w.rank_);
    MPI_Comm_size(MPI_COMM_WORLD, &w.size_);
    MPI_Comm node;
    check(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, w.rank_, MPI_INFO_NULL, &node),
          "MPI_Comm_split_type");
    MPI_Comm_rank(node, &w.node_rank_);
    MPI_Comm_size(node, &w.node_size_);
    MPI_Comm_free(&node);
    int const first_on_node = w.node_rank_ == 0 ? 1 : 0;
    check(MPI_Allreduce(&first_on_node, &w.node_count_, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD),
          "MPI_Allreduce");
}

Session::~Session()
{
    if (initialized_) MPI_Finalize();
}

void Communicator::sum_in_place(std::span<std::int64_t> values) const
{
    if (size_ == 1 || values.empty()) return;
    std::size_t const piece = std::size_t(1) << 30;
    for (std::size_t i = 0; i < values.size(); i += piece) {
        int const count = int(std::min(piece, values.size() - i));
        check(MPI_Allreduce(MPI_IN_PLACE, values.data() + i, count, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD),
              "MPI_Allreduce");
    }
}

std::uint64_t Communicator::sum(std::uint64_t value) const
{
    if (size_ == 1) return value;
    std::uint64_t out = 0;
    check(MPI_Allreduce(&value, &out, 1, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD), "MPI_Allreduce");
    return out;
}

void Communicator::min_in_place(std::span<double> values) const
{
    if (size_ == 1 || values.empty()) return;
    check(MPI_Allreduce(MPI_IN_PLACE, values.data(), int(values.size()), MPI_DOUBLE, MPI_MIN, MPI_COMM_WORLD),
          "MPI_Allreduce");
}

void Communicator::max_in_place(std::span<double> values) const
{
    if (size_ == 1 || values.empty()) return;
    check(MPI_Allreduce(MPI_IN_PLACE, values.data(), int(values.size()), MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD),
          "MPI_Allreduce");
}

bool Communicator::all(bool ok) const
{
    if (size_ == 1) return ok;
    int mine = ok ? 1 : 0, every = 0;
    check(MPI_Allreduce(&mine, &every, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD), "MPI_Allreduce");
    return every != 0;
}

int Communicator::min(int value) const
{
    if (size_ == 1) return value;
    int out = 0;
    check(MPI_Allreduce(&value, &out, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD), "MPI_Allreduce");
    return out;
}

std::uint64_t Communicator::exclusive_prefix_sum(std::uint64_t value) const
{
    if (size_ == 1) return 0;
    std::uint64_t out = 0;
    check(MPI_Exscan(&value, &out, 1, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD), "MPI_Exscan");
    return rank_ == 0 ? 0 : out;  // MPI_Exscan leaves rank 0's result undefined
}

std::vector<double> Communicator::all_gather(std::span<double const> local) const
{
    return gather_all(local, size_);
}

std::vector<std::uint64_t> Communicator::all_gather(std::span<std::uint64_t const> local) const
{
    return gather_all(local, size_);
}

std::vector<std::string> Communicator::gather_to_root(std::string const& local) const
{
    if (size_ == 1) return {local};
    std::vector<std::string> out;
    if (rank_ != 0) {
        std::vector<std::uint64_t> bytes(local.begin(), local.end());
        send(0, std::span<std::uint64_t const>(bytes));
        return out;
    }
    out.push_back(local);
    for (int r = 1; r < size_; ++r) {
        auto const bytes = receive_uint64s(r);
        out.emplace_back(bytes.begin(), bytes.end());
    }
    return out;
}

void Communicator::send(int to, std::span<double const> values) const { send_vector(to, values); }
void Communicator::send(int to, std::span<std::uint64_t const> values) const { send_vector(to, values); }
void Communicator::send(int to, std::span<std::int64_t const> values) const { send_vector(to, values); }
std::vector<double> Communicator::receive_doubles(int from) const { return receive_vector<double>(from); }
std::vector<std::uint64_t> Communicator::receive_uint64s(int from) const
{
    return receive_vector<std::uint64_t>(from);
}
std::vector<std::int64_t> Communicator::receive_int64s(int from) const
{
    return receive_vector<std::int64_t>(from);
}

void Communicator::fold_in_rank_order(std::span<double> running,
                                      std::function<void(std::span<double>)> const& fold_mine) const
{
    if (size_ == 1) {
        fold_mine(running);
        return;
    }
    // Tag 2: apart from the relayed writes' count (0) and pieces (1), which never interleave with this.
    int const n = static_cast<int>(running.size());
    if (rank_ > 0)
        check(MPI_Recv(running.data(), n, MPI_DOUBLE, rank_ - 1, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE), "MPI_Recv");
    fold_mine(running);
    if (rank_ + 1 < size_) check(MPI_Send(running.data(), n, MPI_DOUBLE, rank_ + 1, 2, MPI_COMM_WORLD), "MPI_Send");
    check(MPI_Bcast(running.data(), n, MPI_DOUBLE, size_ - 1, MPI_COMM_WORLD), "MPI_Bcast");
}

void Communicator::barrier() const
{
    if (size_ > 1) check(MPI_Barrier(MPI_COMM_WORLD), "MPI_Barrier");
}

void Communicator::abort(int code) const
{
    std::fflush(stdout);
    std::fflush(stderr);
    int initialized = 0;
    MPI_Initialized(&initialized);
    if (initialized) MPI_Abort(MPI_COMM_WORLD, code);
    std::exit(code);
}

std::string library_description()
{
    char text[MPI_MAX_LIBRARY_VERSION_STRING];
    int length = 0;
    MPI_Get_library_version(text, &length);
    std::string v(text, std::size_t(length));
    if (auto const cut = v.find_first_of(",\n"); cut != std::string::npos) v.resize(cut);
    return "MPI ON (" + v + ")";
}

}  // namespace gt::parallel
