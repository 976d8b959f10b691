// gtrack run --profile and --trace as a user runs them: the /profile table against the counted
// work of the deck, the ceilings note with and without a calibration, and the trace file (valid
// JSON holding every kernel of the run, as many times as it was called).
#include <doctest/doctest.h>

#include <string>

#include "CommandTestSupport.hh"
#include "IoTestSupport.hh"
#include "Relative.hh"
#include "TextTestSupport.hh"
#include "beam/Lattice.hh"
#include "deck/DeckReader.hh"
#include "io/H5Access.hh"
#include "io/H5Handle.hh"
#include "io/TableWriter.hh"
#include "kernels/beam/BeamKernels.hh"
#include "kernels/beam/SegmentWork.hh"
#include "run/BeamRun.hh"

using namespace gt;
using namespace gt::test;

namespace {

std::string input(std::string const& name) { return std::string(GTRACK_SOURCE_DIR) + "/inputs/" + name; }

//! python3 checks that `trace` is trace-event JSON and that each kernel of `/profile` in `h5`
//! appears as often as its `calls` column says; prints "ok" or what is wrong.
std::string check_trace(std::string const& trace, std::vector<std::string> const& kernels,
                        std::vector<std::int64_t> const& calls)
{
    std::string expected = "{";
    for (std::size_t i = 0; i < kernels.size(); ++i)
        expected += (i ? ", '" : "'") + kernels[i] + "': " + std::to_string(calls[i]);
    expected += "}";
    std::string const script =
        "import json, collections, sys\n"
        "d = json.load(open('" +
        trace +
        "'))\n"
        "ev = [e for e in d['traceEvents'] if e['ph'] == 'X']\n"
        "assert all(e['dur'] >= 0 and e['ts'] >= 0 for e in ev), 'negative time'\n"
        "n = collections.Counter(e['name'] for e in ev if e['cat'] == 'kernel')\n"
        "want = " +
        expected +
        "\n"
        "assert dict(n) == want, (dict(n), want)\n"
        "phases = {e['name'] for e in ev if e['cat'] == 'phase'}\n"
        "assert {'gtrack run', 'read deck'} <= phases, phases\n"
        "print('ok')\n";
    return run_shell("python3 -c \"" + script + "\"").output;
}

}  // namespace

TEST_CASE("--profile: /profile holds every kernel with the deck's counted bytes and FP64 operations")
{
    TempDir dir;
    std::string const cal = dir.file("cal.toml");
    REQUIRE(run_gtrack("calibrate --quick --cpu-only --threads 1 --out " + cal).status == 0);
    std::string const out = dir.file("fodo.h5");
    std::string const trace = dir.file("fodo.json");
    size_type const n = 3000;
    CommandResult const r = run_gtrack(
        "run " + input("fodo.toml") + " --set beam.macroparticles=" + std::to_string(n) +
        " --backend cpu --threads 1 --profile --calibration " + cal + " --trace " + trace + " -o " + out);
    INFO(r.output);
    REQUIRE(r.status == 0);
    CHECK(contains(r.output, "profile (ceilings: cpu of " + cal));
    CHECK(contains(r.output, "measured / forecast ="));

    Table const t = read_table(out, "profile");
    h5::File f = h5::open_file_readonly(out);
    h5::Object g = h5::open_object(f, "profile");
    std::vector<std::string> const kernels = h5::read_string_array_attribute(g, "kernels");
    CHECK(kernels == std::vector<std::string>{"gather", "generate", "moments", "track"});
    auto const& calls = std::get<std::vector<std::int64_t>>(t.find("calls")->values);

    // fodo.toml writes statistics after every slice: one segment per entry, a moments pass per point.
    DeckConfig const deck = read_deck(input("fodo.toml"), {}, std::nullopt);
    Lattice const lattice = build_lattice(deck, initial_reference(deck));
    auto const entries = lattice.elements.size();
    CHECK(calls[3] == std::int64_t(entries));
    CHECK(calls[2] == std::int64_t(entries) + 1);
    CHECK(calls[0] == 2);  // the live particles for the snapshot at the end, the lost ones for /lost
    double const flops_per_pass = SegmentWork(lattice.elements).flops_per_particle(0, entries);
    CHECK(t.doubles("fp64_ops")[3] == test::relative(double(n) * flops_per_pass, 1e-12));
    CHECK(t.doubles("bytes")[3] == double(n) * k_track_bytes_per_particle * double(entries));
    CHECK(t.doubles("fp64_ops")[2] == double(n) * k_moments_flops_per_particle * double(entries + 1));
    for (double x : t.doubles("bandwidth_fraction")) CHECK(x > 0);  // calibrated: known fractions
    CHECK(t.doubles("forecast_seconds")[3] > 0);

    std::vector<std::int64_t> const calls_v(calls.begin(), calls.end());
    CHECK(check_trace(trace, kernels, calls_v) == "ok\n");
}

TEST_CASE("--profile without a calibration states the ceilings as unknown; --trace covers detector kernels")
{
    // the slot walk (each step action its own kernel, as on the GPU) and one track at a time
    for (std::string loop : {"slots", "tracks"}) {
        CAPTURE(loop);
        TempDir dir;
        std::string const out = dir.file("cal.h5");
        std::string const trace = dir.file("cal.json");
        CommandResult const r = run_shell(
            "GTRACK_CALIBRATION=" + dir.file("none.toml") + " " + std::string(GTRACK_BINARY) + " run " +
            input("calorimeter.toml") + " --set gun.events=20 --set run.cpu_loop=" + loop +
            " --backend cpu --threads 1 --profile --trace " + trace + " -o " + out);
        INFO(r.output);
        REQUIRE(r.status == 0);
        CHECK(contains(r.output, "ceilings: unknown: no calibration file at " + dir.file("none.toml")));
        Table const t = read_table(out, "profile");
        for (double x : t.doubles("bandwidth_fraction")) CHECK(std::isnan(x));
        h5::File f = h5::open_file_readonly(out);
        std::vector<std::string> const kernels =
            h5::read_string_array_attribute(h5::open_object(f, "profile"), "kernels");
        // the step actions, or the track loop's step_tracks and sort_hits
        CHECK(kernels.size() >= (loop == "slots" ? 5u : 2u));
        // The run's own step count, the same as /detector's, with its rate over the timed kernels.
        double const steps = h5::read_double_attribute(h5::open_object(f, "profile"), "track_steps");
        CHECK(steps == double(h5::read_uint64_attribute(h5::open_object(f, "detector"), "steps")));
        CHECK(steps > 0);
        CHECK(contains(r.output, "counted track_steps "));
        auto const& calls = std::get<std::vector<std::int64_t>>(t.find("calls")->values);
        CHECK(check_trace(trace, kernels, std::vector<std::int64_t>(calls.begin(), calls.end())) == "ok\n");
    }
}
