// The communicator of a build without MPI: one rank, every collective the identity.
#include <cstdio>
#include <cstdlib>
#include <stdexcept>

#include "parallel/Communicator.hh"

namespace gt::parallel {
namespace {
Communicator g_world;
[[noreturn]] void no_peer() { throw std::logic_error("point-to-point message in a single-rank build"); }
}  // namespace

Communicator& Communicator::world() { return g_world; }

Session::Session(int&, char**&) {}
Session::~Session() = default;

void Communicator::sum_in_place(std::span<std::int64_t>) const {}
std::uint64_t Communicator::sum(std::uint64_t value) const { return value; }
void Communicator::min_in_place(std::span<double>) const {}
void Communicator::max_in_place(std::span<double>) const {}
bool Communicator::all(bool ok) const { return ok; }
int Communicator::min(int value) const { return value; }
std::uint64_t Communicator::exclusive_prefix_sum(std::uint64_t) const { return 0; }
std::vector<double> Communicator::all_gather(std::span<double const> local) const
{
    return {local.begin(), local.end()};
}
std::vector<std::uint64_t> Communicator::all_gather(std::span<std::uint64_t const> local) const
{
    return {local.begin(), local.end()};
}
void Communicator::fold_in_rank_order(std::span<double> running,
                                      std::function<void(std::span<double>)> const& fold_mine) const
{
    fold_mine(running);
}
std::vector<std::string> Communicator::gather_to_root(std::string const& local) const { return {local}; }
void Communicator::send(int, std::span<double const>) const { no_peer(); }
void Communicator::send(int, std::span<std::uint64_t const>) const { no_peer(); }
void Communicator::send(int, std::span<std::int64_t const>) const { no_peer(); }
std::vector<double> Communicator::receive_doubles(int) const { no_peer(); }
std::vector<std::uint64_t> Communicator::receive_uint64s(int) const { no_peer(); }
std::vector<std::int64_t> Communicator::receive_int64s(int) const { no_peer(); }
void Communicator::barrier() const {}

void Communicator::abort(int code) const
{
    std::fflush(stdout);
    std::fflush(stderr);
    std::exit(code);
}

std::string library_description() { return "MPI OFF"; }

}  // namespace gt::parallel
