// What a checksum costs a written GB: one dataset of doubles written in pieces (as a snapshot is), with
// checksums through HDF5's filter, with the direct checksummed chunks (io/ChecksummedChunks.hh), and
// without checksums, alternated. Reports per mode the wall and CPU seconds (all threads) of the writes
// and the file's close (medians), not the fsync a run adds at the end (the same bytes in every mode).
//
// gtrack_bench_checksums [--megabytes 300] [--rounds 3] [--file /tmp/gtrack-checksum-bench.h5]
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <map>
#include <span>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include "io/ChecksummedChunks.hh"
#include "io/H5Access.hh"
#include "io/H5Handle.hh"

namespace {

double cpu_seconds()
{
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    auto const s = [](timeval t) { return double(t.tv_sec) + 1e-6 * double(t.tv_usec); };
    return s(u.ru_utime) + s(u.ru_stime);
}

struct Sample {
    double wall = 0, cpu = 0;
};

Sample write_file(std::string const& path, std::vector<double> const& values, std::size_t piece)
{
    auto const t0 = std::chrono::steady_clock::now();
    double const c0 = cpu_seconds();
    {
        gt::h5::File f(H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT));
        if (!f.valid()) throw gt::IoError("cannot create " + path);
        gt::h5::Dataset ds = gt::h5::create_dataset_1d(f, "x", values.size(), 0.0);
        for (std::size_t at = 0; at < values.size(); at += piece)
            gt::h5::write_slab(
                ds, at, std::span<double const>(values.data() + at, std::min(piece, values.size() - at)));
    }
    return {std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), cpu_seconds() - c0};
}

}  // namespace

int main(int argc, char** argv)
{
    CLI::App app{"gtrack_bench_checksums: the cost of Fletcher-32 checksums per GB written"};
    double megabytes = 300;
    int rounds = 3;
    std::string path = "/tmp/gtrack-checksum-bench.h5";
    app.add_option("--megabytes", megabytes, "bytes of doubles to write [MB]")->check(CLI::PositiveNumber);
    app.add_option("--rounds", rounds, "rounds of the three modes, alternated")->check(CLI::PositiveNumber);
    app.add_option("--file", path, "the file to write (removed at the end)");
    CLI11_PARSE(app, argc, argv);
    gt::h5::silence_hdf5_errors();

    std::size_t const n = std::size_t(megabytes * 1e6 / 8);
    std::size_t const piece = std::size_t(1) << 21;  // the snapshot's pieces (run/ParticleDownload)
    std::vector<double> values(n);
    for (std::size_t i = 0; i < n; ++i) values[i] = std::sin(double(i)) * 1e-3;
    double const gb = double(n) * 8 / 1e9;
    char const* modes[] = {"filter", "direct", "none"};
    std::map<std::string, std::vector<Sample>> samples;
    for (int r = 0; r < rounds; ++r)
        for (char const* mode : modes) {
            bool const filter = std::strcmp(mode, "filter") == 0, none = std::strcmp(mode, "none") == 0;
            if (filter)
                setenv(gt::h5::k_filter_checksums_variable, "1", 1);
            else
                unsetenv(gt::h5::k_filter_checksums_variable);
            gt::h5::set_output_checksums(!none);
            Sample const s = write_file(path, values, piece);
            samples[mode].push_back(s);
            std::printf("round %d %-6s %.3f GB: wall %.3f s, cpu %.3f s\n", r + 1, mode, gb, s.wall, s.cpu);
            std::filesystem::remove(path);
        }
    // Medians: the first round pays for page faults and a shared machine's neighbours come and go.
    auto const median = [&](char const* mode, double Sample::*field) {
        std::vector<double> v;
        for (Sample const& s : samples[mode]) v.push_back(s.*field);
        std::sort(v.begin(), v.end());
        return v.size() % 2 ? v[v.size() / 2] : 0.5 * (v[v.size() / 2 - 1] + v[v.size() / 2]);
    };
    for (char const* mode : modes)
        std::printf(
            "%-6s median wall %.3f s, cpu %.3f s; over no checksums: %+.3f s wall, %+.3f s cpu a GB\n", mode,
            median(mode, &Sample::wall), median(mode, &Sample::cpu),
            (median(mode, &Sample::wall) - median("none", &Sample::wall)) / gb,
            (median(mode, &Sample::cpu) - median("none", &Sample::cpu)) / gb);
    return 0;
}
