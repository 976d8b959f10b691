// Trace-event JSON: complete events ("ph": "X") with "ts" and "dur" in microseconds; process and
// thread names as metadata events. Format: the Trace Event Format document (Google, 2016).
#include "perf/TraceFile.hh"

#include <fstream>
#include <stdexcept>

#include <fmt/format.h>

namespace gt {

namespace {

std::string json_string(std::string const& s)
{
    std::string out = "\"";
    for (char c : s) {
        if (c == '"' || c == '\\')
            out += {'\\', c};
        else if (static_cast<unsigned char>(c) < 0x20)
            out += fmt::format("\\u{:04x}", int(c));
        else
            out += c;
    }
    return out + "\"";
}

}  // namespace

void write_trace(std::string const& path, TraceLog const& log)
{
    std::ofstream f(path);
    if (!f) throw std::runtime_error(fmt::format("--trace: cannot write '{}'", path));
    // Thread 1: host phases; thread 2: kernels (timed with CUDA events on the GPU); thread 3: host work
    // beside the phases (the GPU context created during the start-up, app/StartUp.hh).
    f << "{\"displayTimeUnit\": \"ms\", \"traceEvents\": [\n";
    f << R"({"name": "process_name", "ph": "M", "pid": 1, "tid": 1, "args": {"name": "gtrack"}},)"
      << "\n";
    f << R"({"name": "thread_name", "ph": "M", "pid": 1, "tid": 1, "args": {"name": "host phases"}},)"
      << "\n";
    f << fmt::format(R"({{"name": "thread_name", "ph": "M", "pid": 1, "tid": 2, "args": {{"name": {}}}}})",
                     json_string("kernels: " + log.device()));
    f << ",\n"
      << R"({"name": "thread_name", "ph": "M", "pid": 1, "tid": 3, "args": {"name": "background"}})";
    for (TraceEvent const& e : log.events()) {
        std::string const category = e.category;
        int const track = category == "kernel" ? 2 : category == "background" ? 3 : 1;
        f << fmt::format(
            ",\n{{\"name\": {}, \"cat\": \"{}\", \"ph\": \"X\", \"pid\": 1, \"tid\": {}, "
            "\"ts\": {:.3f}, \"dur\": {:.3f}}}",
            json_string(e.name), e.category, track, e.start * 1e6, e.duration * 1e6);
    }
    f << "\n]}\n";
    if (!f) throw std::runtime_error(fmt::format("--trace: error writing '{}'", path));
}

}  // namespace gt
