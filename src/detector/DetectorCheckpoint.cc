// Writing and reading the checkpoint of a detector run (layout in docs/checkpoint.md).
#include "detector/DetectorCheckpoint.hh"

#include <stdexcept>

#include <fmt/format.h>

#include "detector/HitTable.hh"
#include "io/H5Access.hh"
#include "io/H5Handle.hh"
#include "io/OutputFile.hh"
#include "io/TableWriter.hh"
#include "run/CheckpointHeader.hh"

namespace gt {

void write_detector_checkpoint(std::string const& path, DetectorCheckpoint const& c)
{
    OutputFile ckpt(path);  // "<path>.tmp-<pid>" until commit(): the previous checkpoint stays whole
    hid_t const root = ckpt.id();
    write_checkpoint_header(root, c.identity);
    h5::write_attribute(root, "start_time", c.start_time);
    h5::write_attribute(root, "events", c.events);
    h5::write_attribute(root, "next_event", c.next_event);
    h5::write_attribute(root, "iterations", c.iterations);
    h5::write_attribute(root, "secondary_stack_peak", c.secondary_stack_peak);
    write_table(ckpt, "hits", hits_table(c.hits, true));
    ckpt.write_dataset("tally_counts", std::span<std::uint64_t const>(c.tally_counts));
    ckpt.write_dataset("counters", std::span<std::uint64_t const>(c.counters));
    ckpt.write_dataset("event_energy", std::span<double const>(c.event_energy));
    ckpt.commit();
}

DetectorCheckpoint read_detector_checkpoint(std::string const& path, CheckpointIdentity const& expected)
{
    DetectorCheckpoint c;
    try {
        {
            h5::File file = h5::open_file_readonly(path);
            c.identity = read_checkpoint_header(file, path, expected);
            c.start_time = h5::read_string_attribute(file, "start_time");
            c.events = h5::read_uint64_attribute(file, "events");
            c.next_event = h5::read_uint64_attribute(file, "next_event");
            c.iterations = h5::read_uint64_attribute(file, "iterations");
            c.secondary_stack_peak = h5::read_uint64_attribute(file, "secondary_stack_peak");
            c.tally_counts = h5::read_uint64s(file, "tally_counts");
            std::vector<std::uint64_t> const counters = h5::read_uint64s(file, "counters");
            if (counters.size() != c.counters.size())
                throw std::runtime_error(fmt::format("'{}': {} counters, this gtrack keeps {}", path,
                                                     counters.size(), c.counters.size()));
            std::copy(counters.begin(), counters.end(), c.counters.begin());
            c.event_energy = h5::read_doubles(file, "event_energy");
        }
        Table const hits = read_table(path, "hits");
        try {
            c.hits = hits_from_table(hits);
        } catch (std::runtime_error const& e) {
            throw std::runtime_error(fmt::format("'{}': {}", path, e.what()));
        }
    } catch (IoError const& e) {
        throw std::runtime_error(fmt::format("cannot resume from '{}': {}", path, e.what()));
    } catch (std::runtime_error const& e) {
        throw std::runtime_error(fmt::format("cannot resume: {}", e.what()));
    }
    if (c.next_event > c.events)
        throw std::runtime_error(
            fmt::format("cannot resume: '{}' says {} of {} events are done", path, c.next_event, c.events));
    return c;
}

}  // namespace gt
