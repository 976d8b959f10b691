// Writing and reading the checkpoint of a detector run (layout in docs/checkpoint.md).
#include "run/DetectorCheckpoint.hh"

#include <memory>
#include <stdexcept>

#include <fmt/format.h>

#include "io/H5Access.hh"
#include "io/H5Handle.hh"
#include "io/OutputFile.hh"
#include "parallel/Agreement.hh"
#include "parallel/Communicator.hh"
#include "run/CheckpointHeader.hh"

namespace gt {
namespace {

//! A loop state as one message: the scalars, the array count and sizes, then every array's words.
std::vector<std::uint64_t> packed(DetectorLoopState const& s)
{
    std::vector<std::uint64_t> m = {s.next_primary, s.secondaries_waiting, s.secondary_stack_peak,
                                    s.arrays.size()};
    for (LoopStateArray const& a : s.arrays) m.push_back(a.bytes);
    for (LoopStateArray const& a : s.arrays) m.insert(m.end(), a.words.begin(), a.words.end());
    return m;
}

//! The inverse of packed(); the array names are this rank's (every rank saves the same arrays).
DetectorLoopState unpacked(std::vector<std::uint64_t> const& m, DetectorLoopState const& names)
{
    if (m.size() < 4 || m[3] != names.arrays.size() || m.size() < 4 + m[3])
        throw std::runtime_error("a rank's loop state does not have the arrays of rank 0's");
    DetectorLoopState s{m[0], m[1], m[2], {}};
    std::size_t at = 4 + names.arrays.size();
    for (std::size_t i = 0; i < names.arrays.size(); ++i) {
        LoopStateArray a{names.arrays[i].name, m[4 + i], {}};
        std::size_t const words = (a.bytes + 7) / 8;
        if (m.size() - at < words) throw std::runtime_error("a rank's loop state is cut short");
        a.words.assign(m.begin() + std::ptrdiff_t(at), m.begin() + std::ptrdiff_t(at + words));
        at += words;
        s.arrays.push_back(std::move(a));
    }
    return s;
}

void write_loop_state(hid_t root, int rank, DetectorLoopState const& s)
{
    h5::Group const g = h5::create_groups(root, fmt::format("rank{}", rank));
    h5::write_attribute(g, "next_primary", s.next_primary);
    h5::write_attribute(g, "secondaries_waiting", s.secondaries_waiting);
    h5::write_attribute(g, "secondary_stack_peak", s.secondary_stack_peak);
    std::vector<std::string> names;
    std::vector<std::uint64_t> bytes;
    for (LoopStateArray const& a : s.arrays) {
        names.push_back(a.name);
        bytes.push_back(a.bytes);
        h5::write_dataset(g, a.name, std::span<std::uint64_t const>(a.words));
    }
    h5::write_attribute(g, "arrays", std::span<std::string const>(names));
    h5::write_attribute(g, "array_bytes", std::span<std::uint64_t const>(bytes));
}

DetectorLoopState read_loop_state(hid_t file, std::string const& path, int rank)
{
    std::string const group = fmt::format("rank{}", rank);
    h5::Group const g = h5::open_group(file, group);
    DetectorLoopState s;
    s.next_primary = h5::read_uint64_attribute(g, "next_primary");
    s.secondaries_waiting = h5::read_uint64_attribute(g, "secondaries_waiting");
    s.secondary_stack_peak = h5::read_uint64_attribute(g, "secondary_stack_peak");
    std::vector<std::string> const names = h5::read_string_array_attribute(g, "arrays");
    std::vector<std::uint64_t> const bytes = h5::read_uint64_array_attribute(g, "array_bytes");
    if (bytes.size() != names.size())
        throw std::runtime_error(
            fmt::format("'{}': /{} has {} arrays and {} sizes", path, group, names.size(), bytes.size()));
    for (std::size_t i = 0; i < names.size(); ++i) {
        LoopStateArray a{names[i], bytes[i], h5::read_uint64s(g, names[i])};
        if (a.words.size() != (a.bytes + 7) / 8)
            throw std::runtime_error(fmt::format("'{}': /{}/{} holds {} words, not {} bytes", path, group,
                                                 names[i], a.words.size(), a.bytes));
        s.arrays.push_back(std::move(a));
    }
    return s;
}

}  // namespace

void write_detector_checkpoint(std::string const& path, DetectorCheckpoint const& c)
{
    parallel::Communicator const& world = parallel::Communicator::world();
    h5::ChecksummedDatasets const checksummed;  // verified when read back, whatever output.checksums says
    // Rank 0's "<path>.tmp-<pid>" until commit(): the previous checkpoint stays whole. A failure to
    // create it is every rank's (they all go on without this checkpoint, or all stop).
    std::unique_ptr<OutputFile> file = parallel::all_or_none(
        [&] { return world.is_root() ? std::make_unique<OutputFile>(path) : std::unique_ptr<OutputFile>(); });
    if (!file) {
        world.send(0, std::span<std::uint64_t const>(packed(c.loop)));
        world.barrier();  // rank 0 renames the checkpoint into place once every rank's state is in it
        return;
    }
    hid_t const root = file->id();
    write_checkpoint_header(root, c.identity);
    h5::write_attribute(root, "start_time", c.start_time);
    h5::write_attribute(root, "events", c.events);
    h5::write_attribute(root, "iterations", c.iterations);
    h5::write_attribute(root, "ranks", std::int64_t(world.size()));
    write_loop_state(root, 0, c.loop);
    for (int r = 1; r < world.size(); ++r)
        write_loop_state(root, r, unpacked(world.receive_uint64s(r), c.loop));
    world.barrier();
    file->commit();
}

DetectorCheckpoint read_detector_checkpoint(std::string const& path, CheckpointIdentity const& expected)
{
    DetectorCheckpoint c;
    try {
        h5::File file = h5::open_file_readonly(path);
        c.identity = read_checkpoint_header(file, path, expected);
        c.start_time = h5::read_string_attribute(file, "start_time");
        c.events = h5::read_uint64_attribute(file, "events");
        c.iterations = h5::read_uint64_attribute(file, "iterations");
        // Each rank goes on with its own share of the events: the same rank count as the run that wrote it.
        parallel::Communicator const& world = parallel::Communicator::world();
        std::int64_t const ranks = h5::read_int64_attribute(file, "ranks");
        if (ranks != world.size())
            throw std::runtime_error(fmt::format(
                "'{}' was written by {} MPI rank(s), this run has {}: resume with the same rank count ({})",
                path, ranks, world.size(),
                ranks == 1 ? "without mpirun" : fmt::format("mpirun -np {}", ranks)));
        c.loop = read_loop_state(file, path, world.rank());
    } catch (IoError const& e) {
        throw std::runtime_error(fmt::format("cannot resume from '{}': {}", path, e.what()));
    } catch (std::runtime_error const& e) {
        throw std::runtime_error(fmt::format("cannot resume: {}", e.what()));
    }
    return c;
}

}  // namespace gt
