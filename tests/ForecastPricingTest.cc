// How forecast prices counted work: each kernel class against the calibrated ceiling that bounds it,
// checked with made-up ceilings whose contributions can be told apart.
#include <doctest/doctest.h>

#include <cmath>
#include <fstream>
#include <set>
#include <string>

#include "IoTestSupport.hh"
#include "beam/BeamSetup.hh"
#include "beam/Lattice.hh"
#include "deck/DeckReader.hh"
#include "kernels/beam/BeamKernels.hh"
#include "kernels/beam/SegmentCases.hh"
#include "kernels/beam/SegmentWork.hh"
#include "kernels/beam/SelectParticles.hh"
#include "run/CalibrateMeasure.hh"
#include "run/Forecast.hh"
#include "run/ParticleDownload.hh"

using namespace gt;

namespace {

std::string input(std::string const& name) { return std::string(GTRACK_SOURCE_DIR) + "/inputs/" + name; }

//! Ceilings in which each term is a different power of ten.
Ceilings made_up()
{
    Ceilings c;
    c.cores = 1;
    c.copy_bandwidth = 1e12;
    c.fp64_peak = 1e12;
    c.fp64_map = 1e15;  // maps cost nothing beyond their bytes
    c.push_seconds = 0;
    c.fp64_reduce = 1e9;
    c.generate_rate = 1e9;
    c.launch_latency = 1e-6;
    c.track_bandwidth = 1e11;  // a tenth of the copy bandwidth
    c.reduce_latency = 1e-4;
    c.warmup_seconds = 0.25;
    c.sc_warmup_seconds = 0.5;
    c.sort_bandwidth = c.deposit_bandwidth = c.gather_bandwidth = 1e11;
    c.fft_points = {1e5, 1e7};
    c.fft_seconds = {1e-3, 1e-1};
    c.green_seconds = {3e-3, 3e-1};  // distinct from the solve: the Green's function has its own time
    c.field_seconds = {1e-4, 1e-2};
    return c;
}

bool near(double a, double b) { return std::fabs(a - b) <= 1e-12 * std::fabs(b); }

}  // namespace

TEST_CASE("forecast: streaming at the one-entry bandwidth, a moments pass at its fixed cost, warm-up once")
{
    double const n = 1000;
    DeckConfig const deck = read_deck(input("fodo.toml"), {"beam.macroparticles=1000"});
    Ceilings const c = made_up();
    RunForecast const f = forecast_run(deck, c);
    // fodo.toml writes statistics at every entry: one one-entry segment per entry and a moments pass
    // per point; every call of a kind costs the same.
    KernelForecast const& track = f.kernels.at("track");
    CHECK(near(track.seconds, double(track.calls) *
                                  (c.launch_latency + n * k_track_bytes_per_particle / c.track_bandwidth)));
    KernelForecast const& moments = f.kernels.at("moments");
    CHECK(moments.calls == track.calls + 1);  // the point before the first entry too
    CHECK(near(moments.seconds, double(moments.calls) *
                                    (c.reduce_latency + n * k_moments_flops_per_particle / c.fp64_reduce)));
    CHECK(f.kernels.at("warm-up").seconds == c.warmup_seconds);
    CHECK(f.kernels.at("warm-up").best == c.warmup_seconds);  // a one-time cost, not scaled
    CHECK(f.kernels.count("sc.solve") == 0);
}

TEST_CASE("forecast: the CPU's costs per push of a mixed lattice and per particle and call add to the maps")
{
    double const n = 1000;
    DeckConfig const deck =
        read_deck(input("fodo_ring.toml"), {"beam.macroparticles=1000", "lattice.turns=3"});
    Ceilings c = made_up();
    c.track_bandwidth = c.copy_bandwidth = 1e30;  // no bound by the bytes
    c.fp64_map = 1e300;                           // the maps' FLOPs cost nothing (no family rates: this one)
    c.mix_push_seconds = 1e-9;
    c.call_particle_seconds = 1e-6;
    RunForecast const f = forecast_run(deck, c);
    KernelForecast const& track = f.kernels.at("track");
    double const entries = 208, pushes = n * entries * 3;  // fodo_ring: 208 entries, stats every turn
    CHECK(track.calls == 3);
    CHECK(near(track.seconds,
               3 * c.launch_latency + pushes * c.mix_push_seconds + 3 * n * c.call_particle_seconds));
    c.mix_push_seconds = -1;  // not measured (an older file): no cost
    c.call_particle_seconds = 0;
    CHECK(near(forecast_run(deck, c).kernels.at("track").seconds, 3 * c.launch_latency));
}

TEST_CASE("forecast: the Green's function at its own calibrated time per size, the FFT plans in the warm-up")
{
    DeckConfig const deck = read_deck(input("fodo_space_charge.toml"), {"beam.macroparticles=1000"});
    Ceilings const c = made_up();
    RunForecast const f = forecast_run(deck, c);
    double const doubled = 8.0 * 32 * 32 * 64;  // grid = [32, 32, 64]
    KernelForecast const& green = f.kernels.at("sc.green");
    KernelForecast const& solve = f.kernels.at("sc.solve");
    CHECK(near(green.seconds,
               double(green.calls) * (3 * c.launch_latency + c.fft_time(c.green_seconds, doubled))));
    CHECK(near(solve.seconds,
               double(solve.calls) * (4 * c.launch_latency + c.fft_time(c.fft_seconds, doubled))));
    CHECK(green.flops > 0);  // 2.5 M log2 M per transform
    CHECK(near(solve.flops / double(solve.calls),
               2.0 * 2.5 * doubled * std::log2(doubled) + 6.0 * 4.0 * 64 * 32 * (32 + 1)));
    CHECK(f.kernels.at("warm-up").seconds == c.warmup_seconds + c.sc_warmup_seconds);
}

// The output stage's gathers to the host (ParticleDownload.cc): the loss records look at every particle
// (the forecast's beam loses none, so none is selected), each snapshot looks at and selects every one,
// a chunk of k_download_chunk particles per call. The fixed cost per call, the selection's and the
// selected particles' bytes, the flags grown once, each of the two alternating staging buffers filled
// once, the first call's excess once; all exact sums of the made-up rates.
TEST_CASE("forecast: the output's gathers, one per snapshot and one for the loss records, a call per chunk")
{
    Ceilings c = made_up();
    c.download_latency = 1e-5;
    c.download_scan_bandwidth = 1e10;
    c.download_bandwidth = 1e9;
    c.staging_bandwidth = 1e8;
    c.download_grow_bandwidth = 1e7;
    c.download_warmup_seconds = 0.125;
    auto const expected = [&](double calls, double looked, double selected, double staged, double grown) {
        return calls * c.download_latency + looked * k_gather_bytes_per_particle / c.download_scan_bandwidth +
               selected * k_gather_bytes_per_selected / c.download_bandwidth +
               staged * k_staging_bytes_per_particle / c.staging_bandwidth +
               grown * k_gather_grow_bytes_per_particle / c.download_grow_bandwidth +
               c.download_warmup_seconds;
    };
    SUBCASE("fodo.toml: one snapshot at the end and the loss records")
    {
        double const n = 1000;
        RunForecast const f = forecast_run(read_deck(input("fodo.toml"), {"beam.macroparticles=1000"}), c);
        KernelForecast const& g = f.kernels.at("gather");
        CHECK(g.calls == 2);
        CHECK(near(g.bytes, 2 * n * k_gather_bytes_per_particle + n * k_gather_bytes_per_selected));
        CHECK(near(g.seconds, expected(2, 2 * n, n, n, n)));
        CHECK(g.best < g.seconds);
    }
    SUBCASE("solenoid_linac.toml with a snapshot at each of its 12 apertures (where it loses particles)")
    {
        double const n = 2000;
        RunForecast const f =
            forecast_run(read_deck(input("solenoid_linac.toml"),
                                   {"beam.macroparticles=2000", "output.phase_space=[\"COL\"]"}),
                         c);
        KernelForecast const& g = f.kernels.at("gather");
        CHECK(g.calls == 13);
        CHECK(near(g.bytes, 13 * n * k_gather_bytes_per_particle + 12 * n * k_gather_bytes_per_selected));
        CHECK(near(g.seconds, expected(13, 13 * n, 12 * n, 2 * n, n)));  // each staging buffer filled once
    }
    SUBCASE("3e6 particles: two chunks per gather, the second smaller")
    {
        double const n = 3e6, chunk = double(k_download_chunk);
        RunForecast const f = forecast_run(read_deck(input("fodo.toml"), {"beam.macroparticles=3000000"}), c);
        KernelForecast const& g = f.kernels.at("gather");
        CHECK(g.calls == 4);
        CHECK(near(g.bytes, 2 * n * k_gather_bytes_per_particle + n * k_gather_bytes_per_selected));
        // The first chunk fills one staging buffer, the second the other; the flags grow to one chunk.
        CHECK(near(g.seconds, expected(4, 2 * n, n, n, chunk)));
    }
    SUBCASE("the GPU: the staging is host work beside the gathers' time (staging_in_kernels = 0)")
    {
        c.staging_in_kernels = 0;
        double const n = 1000;
        RunForecast const f = forecast_run(read_deck(input("fodo.toml"), {"beam.macroparticles=1000"}), c);
        KernelForecast const& g = f.kernels.at("gather");
        double const staging = n * k_staging_bytes_per_particle / c.staging_bandwidth;
        CHECK(near(g.seconds, expected(2, 2 * n, n, n, n) - staging));
        CHECK(near(f.host_staging_seconds, staging));
        double kernels = 0;
        for (auto const& [name, k] : f.kernels) kernels += k.seconds;
        CHECK(near(f.seconds, kernels));  // the staging is not in the kernels' total
        c.staging_in_kernels = 1;         // the CPU: in the gather's time, none beside it
        CHECK(forecast_run(read_deck(input("fodo.toml"), {"beam.macroparticles=1000"}), c)
                  .host_staging_seconds == 0);
    }
    SUBCASE("a calibration from before the gathers were measured: not priced")
    {
        c.download_latency = 0;
        RunForecast const f = forecast_run(read_deck(input("fodo.toml"), {"beam.macroparticles=1000"}), c);
        CHECK(f.kernels.count("gather") == 0);
    }
}

// The GPU compiles each element switch as a kernel of its own, with its own occupancy: a segment streams at
// the one-entry bandwidth calibrated for its switch (Ceilings::track_bandwidth_cases), the `all` switch at
// the one without integrators'; a switch not calibrated (the CPU, older files) at track_bandwidth.
TEST_CASE("forecast: a segment streams at its element switch's calibrated bandwidth")
{
    double const n = 1000;
    DeckConfig const deck = read_deck(input("fodo.toml"), {"beam.macroparticles=1000"});
    Lattice const lattice = build_lattice(deck, initial_reference(deck));
    SegmentCaseTable const table(lattice.elements);
    Ceilings c = made_up();
    c.track_bandwidth_cases = {4e10, 2e10, 1e10};  // each distinct from track_bandwidth (1e11)
    CHECK(c.track_bandwidth_of(int(ElementCases::linear_maps)) == 4e10);
    CHECK(c.track_bandwidth_of(int(ElementCases::all)) == 1e10);  // the one without integrators'
    // fodo.toml: one one-entry segment per entry (statistics at every entry), each at its own switch's rate.
    double expected = 0;
    std::set<int> switches;
    for (size_type i = 0; i < size_type(lattice.elements.size()); ++i) {
        int const s = int(table.cases(i, i + 1));
        switches.insert(s);
        expected +=
            c.launch_latency + n * k_track_bytes_per_particle / c.track_bandwidth_cases[std::size_t(s)];
    }
    KernelForecast const track = forecast_run(deck, c).kernels.at("track");
    CHECK(track.calls == long(lattice.elements.size()));
    CHECK(near(track.seconds, expected));
    CHECK(!switches.empty());
    // Not calibrated (0): track_bandwidth stands in, as in the first case above.
    c.track_bandwidth_cases = {0, 0, 0};
    CHECK(c.track_bandwidth_of(int(ElementCases::optics_maps)) == c.track_bandwidth);
    CHECK(
        near(forecast_run(deck, c).kernels.at("track").seconds,
             double(track.calls) * (c.launch_latency + n * k_track_bytes_per_particle / c.track_bandwidth)));
}

TEST_CASE("calibrate: the one-entry segments that calibrate each switch take that switch")
{
    std::vector<Element> const entries = switch_entries();
    REQUIRE(entries.size() == std::tuple_size_v<decltype(Ceilings::track_bandwidth_cases)>);
    SegmentCaseTable const table(entries);
    for (size_type i = 0; i < size_type(entries.size()); ++i) {
        INFO("entry ", i);
        CHECK(int(table.cases(i, i + 1)) == int(i));
        CHECK(!table.emits_photons(i, i + 1));
    }
}

// The calibration file keeps the new terms; a file written before them reads with them unmeasured.
// ion_linac's profile solenoids and cavities (axial_field_map) are priced at the field-map family's own rate;
// a file written before it (no fp64_map_field_map) prices them at the `other` family's rate, as before.
namespace {

//! Family `f`'s rate in a calibration file: written and read back (`stale` false), and in a file written
//! before the family (its lines starting `key` dropped) read as 0, `stale` true, the `other` family's rate of
//! `c` (4e9) standing in. Returns that old file's calibration.
Calibration check_family_key(Ceilings c, int f, std::string const& key, bool (Ceilings::*stale)() const)
{
    auto const at = std::size_t(f);
    test::TempDir dir;
    Calibration cal;
    cal.host = "test";
    cal.date = "2026-11-28T00:00:00Z";
    c.fp64_map_family[at] = 5.5e9;
    cal.cpu = c;
    write_calibration(dir.file("c.toml"), cal);
    Calibration const back = read_calibration(dir.file("c.toml"));
    CHECK(back.cpu->fp64_map_family[at] == doctest::Approx(5.5e9));
    CHECK(!((*back.cpu).*stale)());
    {
        std::ifstream in(dir.file("c.toml"));
        std::ofstream out(dir.file("old.toml"));
        for (std::string line; std::getline(in, line);)
            if (line.rfind(key, 0) != 0) out << line << "\n";
    }
    Calibration const old = read_calibration(dir.file("old.toml"));
    CHECK(old.cpu->fp64_map_family[at] == 0);
    CHECK(((*old.cpu).*stale)());
    CHECK(old.cpu->fp64_map_of(f) == doctest::Approx(4e9));
    return old;
}

}  // namespace

TEST_CASE(
    "forecast: profile elements at the field-map family's calibrated rate, the other family's without it")
{
    double const n = 1000;
    DeckConfig const deck =
        read_deck(input("ion_linac.toml"), {"beam.macroparticles=1000", "space_charge.enabled=false"});
    Lattice const lattice = build_lattice(deck, initial_reference(deck));
    size_type const entries = size_type(lattice.elements.size());
    FamilyFlops const flops = SegmentWork(lattice.elements).family_flops_per_particle(0, entries);
    int const fm = int(MapFamily::field_map);
    REQUIRE(flops[fm] > 0);  // 6 periods of a solenoid and two cavities, 4 slices each
    CHECK(map_family(ElementKind::axial_field_map) == MapFamily::field_map);
    CHECK(k_map_family_names[fm] == std::string("field_map"));

    Ceilings c = made_up();
    c.track_bandwidth = c.copy_bandwidth = 1e30;  // no bound by the bytes
    c.fp64_map = 1e300;
    c.fp64_map_family.fill(1e300);  // every other family's FLOPs cost nothing
    c.mix_push_seconds = 0;
    c.fp64_map_family[fm] = 1e9;
    KernelForecast const track = forecast_run(deck, c).kernels.at("track");
    double const launches = double(track.calls) * c.launch_latency;
    CHECK(near(track.seconds, launches + n * flops[fm] / 1e9));
    CHECK(!c.stale_field_map_rate());

    // Not measured (a file written before the family): the other family's rate, which priced them before.
    c.fp64_map_family[fm] = 0;
    c.fp64_map_family[int(MapFamily::other)] = 4e9;
    CHECK(c.stale_field_map_rate());
    CHECK(c.fp64_map_of(fm) == 4e9);
    // The other family's FLOPs (apertures: ion_linac's COL) at 4e9 too now.
    double const other = n * flops[int(MapFamily::other)] / 4e9;
    CHECK(near(forecast_run(deck, c).kernels.at("track").seconds, launches + n * flops[fm] / 4e9 + other));

    // The file: the key written and read back; a file without it reads, and stale_field_map_rate says so.
    check_family_key(c, fm, "fp64_map_field_map", &Ceilings::stale_field_map_rate);
}

// 3D field maps (field_map_3d) have a family of their own: on the GPU the grid's loads, not the FLOPs, set
// their rate (the `other` family's rate priced fieldmap3d_linac at half its time on the H100); a file without
// fp64_map_field_map_3d prices them at the `other` family's rate, as before.
TEST_CASE("forecast: 3D field maps at their family's calibrated rate, the other family's without it")
{
    double const n = 1000;
    DeckConfig const deck = read_deck(input("fieldmap3d_linac.toml"), {"beam.macroparticles=1000"});
    Lattice const lattice = build_lattice(deck, initial_reference(deck));
    size_type const entries = size_type(lattice.elements.size());
    FamilyFlops const flops = SegmentWork(lattice.elements).family_flops_per_particle(0, entries);
    int const f3 = int(MapFamily::field_map_3d);
    REQUIRE(flops[f3] > 0);  // the quadrupoles' and cavities' maps
    CHECK(map_family(ElementKind::field_map_3d) == MapFamily::field_map_3d);
    CHECK(k_map_family_names[f3] == std::string("field_map_3d"));

    Ceilings c = made_up();
    c.track_bandwidth = c.copy_bandwidth = 1e30;
    c.fp64_map = 1e300;
    c.fp64_map_family.fill(1e300);
    c.mix_push_seconds = 0;
    c.fp64_map_family[f3] = 2e9;
    KernelForecast const track = forecast_run(deck, c).kernels.at("track");
    double const launches = double(track.calls) * c.launch_latency;
    CHECK(near(track.seconds, launches + n * flops[f3] / 2e9));
    CHECK(!c.stale_field_map_3d_rate());

    c.fp64_map_family[f3] = 0;
    c.fp64_map_family[int(MapFamily::other)] = 4e9;
    CHECK(c.stale_field_map_3d_rate());
    CHECK(c.fp64_map_of(f3) == 4e9);

    Calibration const old =
        check_family_key(c, f3, "fp64_map_field_map_3d", &Ceilings::stale_field_map_3d_rate);
    CHECK(!old.cpu->stale_field_map_rate());
}

TEST_CASE("calibration file: the switches' bandwidths and where the gathers' staging is timed")
{
    test::TempDir dir;
    Calibration cal;
    cal.host = "test";
    cal.date = "2026-11-27T00:00:00Z";
    Ceilings g = made_up();
    g.track_bandwidth_cases = {2.5e12, 2.0e12, 1.9e12};
    g.staging_in_kernels = 0;
    cal.gpu = g;
    Ceilings cpu = made_up();
    cpu.staging_in_kernels = 1;
    cal.cpu = cpu;
    write_calibration(dir.file("c.toml"), cal);
    Calibration const back = read_calibration(dir.file("c.toml"));
    REQUIRE(back.gpu.has_value());
    CHECK(back.gpu->track_bandwidth_cases[1] == doctest::Approx(2.0e12));
    CHECK(back.gpu->staging_in_kernels == 0);
    CHECK(!back.gpu->stale_loading_model());
    CHECK(back.cpu->track_bandwidth_cases[0] == 0);  // the CPU: not measured, track_bandwidth stands in
    CHECK(back.cpu->staging_in_kernels == 1);
    // Without the keys (an older file): not measured, and stale.
    {
        std::ifstream in(dir.file("c.toml"));
        std::ofstream out(dir.file("old.toml"));
        for (std::string line; std::getline(in, line);)
            if (line.rfind("track_bandwidth_", 0) != 0 && line.rfind("staging_in_kernels", 0) != 0)
                out << line << "\n";
    }
    Calibration const old = read_calibration(dir.file("old.toml"));
    CHECK(old.gpu->track_bandwidth_cases[0] == 0);
    CHECK(old.gpu->track_bandwidth_of(0) == old.gpu->track_bandwidth);
    CHECK(old.gpu->staging_in_kernels < 0);
    CHECK(old.gpu->stale_loading_model());
}

// fodo_space_charge.toml sorts every 4th kick: the kicks between two sorts deposit from positions packed
// again at their own calibrated bandwidth, the kicks with a sort at deposit_bandwidth.
TEST_CASE("forecast: the space-charge deposit between two sorts at its own calibrated bandwidth")
{
    DeckConfig const deck = read_deck(input("fodo_space_charge.toml"), {"beam.macroparticles=1000"});
    REQUIRE(deck.space_charge.sort_every == 4);
    Ceilings c = made_up();
    c.deposit_between_sorts_bandwidth = 1e10;  // a tenth of deposit_bandwidth
    RunForecast const f = forecast_run(deck, c);
    KernelForecast const& deposit = f.kernels.at("sc.deposit");
    double const sorts = double(f.kernels.at("sc.sort").calls), kicks = double(deposit.calls);
    CHECK(sorts == std::ceil(kicks / 4));  // kicks 0, 4, 8, ...
    double const per_call = deposit.bytes / kicks;
    CHECK(near(deposit.seconds, kicks * 3 * c.launch_latency + sorts * per_call / c.deposit_bandwidth +
                                    (kicks - sorts) * per_call / c.deposit_between_sorts_bandwidth));
    c.deposit_between_sorts_bandwidth = 0;  // not measured (an older file): every kick at deposit_bandwidth
    CHECK(near(forecast_run(deck, c).kernels.at("sc.deposit").seconds,
               kicks * (3 * c.launch_latency + per_call / c.deposit_bandwidth)));
}
