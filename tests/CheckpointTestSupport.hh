// Shared helpers for the stop and checkpoint tests: small decks with space charge and losses, files,
// child processes, and comparing two outputs bit for bit.
#pragma once

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <doctest/doctest.h>

#include "FodoSpaceChargeDeck.hh"
#include "io/H5Access.hh"
#include "compare/FileComparison.hh"

namespace gt::test {

//! A ring of `turns` turns (a single pass for 1) of FODO cells with space charge and an aperture that
//! loses most of the beam over the turns, so that losses, sorting and the Green's function cache all
//! matter; snapshots at MON and the end, statistics every element (or as `stats` says).
inline std::string ring_deck(long turns, bool space_charge = true, std::string const& stats = "every_element")
{
    return fodo_space_charge_beam("ring", 7, "20 pC", 400) + R"(
MON = { type = "monitor" }
COL = { type = "aperture", shape = "rectangle", half_x = "1 mm", half_y = "1 mm" }
[lattice]
cell = ["QF", "D", "QD", "D"]
line = ["cell*2", "MON", "COL"]
turns = )" +
           std::to_string(turns) +
           R"(
[space_charge]
enabled = )" +
           (space_charge ? "true" : "false") +
           R"(
grid = [16, 16, 16]
kicks_per_meter = 10
deposition = "deterministic"
sort_every = 3
[output]
phase_space = ["MON", "end"]
stats = ")" +
           stats + R"("
)";
}

inline void write_text(std::string const& path, std::string const& text) { std::ofstream(path) << text; }

inline std::string read_text(std::string const& path)
{
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

//! Every dataset and numeric attribute of `b` equals `a`'s bit for bit, except what the files mark as
//! measurements of the run (stage times, schedule figures, provenance: io/Measurement.hh), which
//! differ between any two runs; a message for each that differs.
inline void check_identical(std::string const& a, std::string const& b)
{
    FileComparison const c = compare_files(a, b, CompareOptions{});
    CHECK(c.items.size() > 20);
    std::size_t differing = 0;
    for (auto const& item : c.items) {
        if (!c.counts(item) || item.diff.differing == 0) continue;
        ++differing;
        INFO(item.path, " differs in ", item.diff.differing, " values");
        CHECK(item.diff.differing == 0);
    }
    CHECK(differing == 0);
}

//! The string attributes of every group and dataset of an HDF5 file, by "path@name" (root: "@name").
inline void collect_string_attributes(hid_t file, std::string const& path,
                                      std::map<std::string, std::vector<std::string>>& out)
{
    h5::Object const obj = h5::open_object(file, path);
    std::vector<std::string> names;
    hsize_t idx = 0;
    auto const visit = [](hid_t, char const* name, H5A_info_t const*, void* data) -> herr_t {
        static_cast<std::vector<std::string>*>(data)->emplace_back(name);
        return 0;
    };
    REQUIRE(H5Aiterate2(obj, H5_INDEX_NAME, H5_ITER_INC, &idx, visit, &names) >= 0);
    for (std::string const& name : names) {
        h5::Attribute const attr(H5Aopen(obj, name.c_str(), H5P_DEFAULT));
        h5::Datatype const type(H5Aget_type(attr));
        if (H5Tget_class(type) != H5T_STRING) continue;
        h5::Dataspace const space(H5Aget_space(attr));
        out[path + "@" + name] = H5Sget_simple_extent_type(space) == H5S_SCALAR
                                     ? std::vector<std::string>{h5::read_string_attribute(obj, name)}
                                     : h5::read_string_array_attribute(obj, name);
    }
    if (!path.empty() && !h5::is_group(file, path)) return;
    h5::Group const group = h5::open_group(file, path.empty() ? "/" : path);
    for (std::string const& child : h5::list_children(group))
        collect_string_attributes(file, path.empty() ? child : path + "/" + child, out);
}

//! Everything in `b` is `a`'s: the same groups, datasets and attributes, every number bit for bit
//! (no tolerance, schedule figures included) and every string attribute, except the attributes
//! `wall_clock` names ("provenance@end_time"): times of day, which differ between any two runs.
inline void check_every_bit(std::string const& a, std::string const& b,
                            std::vector<std::string> const& wall_clock)
{
    FileComparison const c = compare_files(a, b, CompareOptions{});
    CHECK(c.items.size() > 20);
    CHECK(c.not_compared == 0);  // no string dataset was left out
    for (auto const& item : c.items) {
        INFO(item.path, " differs in ", item.diff.differing, " values");
        CHECK(item.diff.differing == 0);
    }
    std::map<std::string, std::vector<std::string>> strings_a, strings_b;
    {
        h5::File const fa = h5::open_file_readonly(a), fb = h5::open_file_readonly(b);
        collect_string_attributes(fa, "", strings_a);
        collect_string_attributes(fb, "", strings_b);
    }
    CHECK(strings_a.size() > 5);
    CHECK(strings_a.size() == strings_b.size());
    for (auto const& entry : strings_a) {  // no structured binding: INFO captures in a lambda
        std::string const& key = entry.first;
        std::vector<std::string> const& value = entry.second;
        INFO(key);
        REQUIRE(strings_b.count(key) == 1);
        bool const clock = std::find(wall_clock.begin(), wall_clock.end(), key) != wall_clock.end();
        if (!clock) CHECK(strings_b.at(key) == value);
    }
    for (std::string const& key : wall_clock) {
        INFO(key);
        CHECK(strings_a.count(key) == 1);  // the exception names something real
    }
}

#ifdef GTRACK_BINARY
//! A child process running the gtrack binary, stdout and stderr into `log`, with `env` (NAME=VALUE)
//! added; `prepare` runs in the child just before exec (it knows the child's pid, as the run will).
template <class Prepare>
pid_t start_gtrack(std::vector<std::string> args, std::string const& log, std::vector<std::string> env,
                   Prepare prepare)
{
    pid_t const pid = ::fork();
    REQUIRE(pid >= 0);
    if (pid == 0) {
        int const fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        ::dup2(fd, 1);
        ::dup2(fd, 2);
        for (auto& e : env) ::putenv(e.data());
        prepare();
        std::vector<char*> argv;
        std::string binary = GTRACK_BINARY;
        argv.push_back(binary.data());
        for (auto& a : args) argv.push_back(a.data());
        argv.push_back(nullptr);
        ::execv(binary.c_str(), argv.data());
        ::_exit(127);
    }
    return pid;
}

inline pid_t start_gtrack(std::vector<std::string> args, std::string const& log)
{
    return start_gtrack(std::move(args), log, {}, [] {});
}
#endif

//! Waits for the child up to `seconds`; kills it (and fails) when it does not end. The wait status.
inline int wait_for(pid_t pid, double seconds)
{
    auto const deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
    int status = 0;
    while (::waitpid(pid, &status, WNOHANG) == 0) {
        if (std::chrono::steady_clock::now() > deadline) {
            ::kill(pid, SIGKILL);
            ::waitpid(pid, &status, 0);
            FAIL("gtrack did not end within ", seconds, " s");
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return status;
}

}  // namespace gt::test
