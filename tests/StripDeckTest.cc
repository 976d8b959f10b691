// [strips] in detector decks: defaults (CBM STS), values in SI, errors with line and key; and the
// stage in a run of inputs/sts.toml: digis, clusters, hits, quality written to the output file.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <string>
#include <tuple>
#include <variant>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "Relative.hh"
#include "deck/DeckError.hh"
#include "deck/DeckReader.hh"
#include "detector/StripRun.hh"
#include "io/TableWriter.hh"
#include "run/DetectorRun.hh"

using namespace gt;

namespace {

std::string const k_deck = R"([run]
kind = "detector"
name = "s"
[geometry.world]
shape = "box"
half_size = ["1 m", "1 m", "1 m"]
material = "air"
[[geometry.volume]]
name = "station"
shape = "box"
half_size = ["10 cm", "10 cm", "150 um"]
position = [0, 0, "30 cm"]
material = "silicon"
sensitive = true
replicas = { count = 2, step_z = "10 cm" }
[[geometry.volume]]
name = "absorber"
shape = "box"
half_size = ["10 cm", "10 cm", "1 mm"]
position = [0, 0, "60 cm"]
material = "silicon"
[gun]
particle = "proton"
energy = "2 GeV"
events = 3
[strips]
stereo = [0, "7.5 deg"]
[strips.readout]
noise = 1000
)";

std::string with(std::string text, std::string const& from, std::string const& to)
{
    auto const at = text.find(from);
    REQUIRE(at != std::string::npos);
    return text.replace(at, from.size(), to);
}

Diagnostic one_error(std::string const& text, int line, std::string const& key)
{
    std::vector<Diagnostic> ds;
    try {
        read_deck_text(text, "d.toml", {});
    } catch (DeckError const& e) {
        ds = e.diagnostics();
    }
    std::string all;
    for (auto const& d : ds) all += d.format() + "\n";
    INFO(all);
    REQUIRE(ds.size() == 1);
    CHECK(ds[0].where.file == "d.toml");
    CHECK(ds[0].where.line == line);
    CHECK(ds[0].key == key);
    return ds[0];
}

}  // namespace

TEST_CASE("[strips]: CBM STS defaults, SI values")
{
    DeckConfig const cfg = read_deck_text(k_deck, "d.toml", {});
    StripsConfig const& s = cfg.detector.strips;
    CHECK(s.enabled);
    REQUIRE(s.volumes.size() == 1);  // the sensitive boxes
    CHECK(s.volumes[0] == "station");
    CHECK(s.pitch == test::relative(58e-6, 1e-12));
    CHECK(s.strips == 1024);
    CHECK(s.stereo[1] == test::relative(7.5 * M_PI / 180, 1e-12));
    CHECK(s.threshold == 3000);
    CHECK(s.adc_bits == 5);
    CHECK(s.dynamic_range == 75000);
    CHECK(s.time_resolution == test::relative(5e-9, 1e-12));
    CHECK(s.dead_time == test::relative(800e-9, 1e-12));
    CHECK(s.cross_talk == test::relative(1.0 / 18.5, 1e-12));
    DeckConfig const plain = read_deck_text(k_deck.substr(0, k_deck.find("[strips]")), "d.toml", {});
    CHECK(!plain.detector.strips.enabled);
}

TEST_CASE("[strips] errors name the line and key")
{
    auto d = one_error(with(k_deck, "stereo = [0, \"7.5 deg\"]", "stereo = [0, 0]"), 27, "strips.stereo");
    CHECK(d.message.find("different angles") != std::string::npos);
    d = one_error(with(k_deck, "stereo = [0, \"7.5 deg\"]", "volumes = [\"absorber\"]"), 27,
                  "strips.volumes[0]");
    CHECK(d.message.find("not sensitive") != std::string::npos);
    d = one_error(with(k_deck, "stereo = [0, \"7.5 deg\"]", "volumes = [\"statoin\"]"), 27,
                  "strips.volumes[0]");
    d = one_error(with(k_deck, "stereo = [0, \"7.5 deg\"]", "bias_voltage = \"50 V\""), 27,
                  "strips.bias_voltage");
    CHECK(d.message.find("fully depleted") != std::string::npos);
    d = one_error(with(k_deck, "noise = 1000", "nosie = 1000"), 29, "strips.readout.nosie");
    d = one_error(with(k_deck, "noise = 1000", "adc_bits = 20"), 29, "strips.readout.adc_bits");
    d = one_error(with(k_deck, "noise = 1000", "time_resolution = \"5 m\""), 29,
                  "strips.readout.time_resolution");
}

TEST_CASE("inputs/sts.toml digitizes and reconstructs its stations: efficiency, ghosts, output tables")
{
    DeckConfig const cfg = read_deck(std::string(GTRACK_SOURCE_DIR) + "/inputs/sts.toml",
                                     {"gun.events=20", "run.track_slots=4096"});
    std::string const path = (std::filesystem::temp_directory_path() / "gtrack_strip_deck_test.h5").string();
    DetectorRunOptions opt;
    opt.backend = "cpu";
    opt.output = path;
    opt.quiet = true;
    DetectorRunResult const r = run_detector_deck(cfg, opt);
    REQUIRE(r.strips);
    StripOutcome const& o = *r.strips;
    CHECK(o.quality.size() == 8);
    std::uint64_t points = 0, found = 0, hits = 0, ghosts = 0;
    for (StripStationQuality const& q : o.quality) {
        points += q.points;
        found += q.found;
        hits += q.hits;
        ghosts += q.ghosts;
        // a true hit lies near its track: tens of um across the strips, < 1 mm along them
        if (q.found > 0) {
            CHECK(q.residual_u < 50e-6);
            CHECK(q.residual_v < 1e-3);
        }
    }
    MESSAGE(format_strip_summary(o));
    // 1000 protons, 1-10 GeV, 50 an event at 10 MHz: the inner stations lose tracks to pile-up (two
    // tracks on one strip within the 800 ns dead time make one pulse, close tracks one cluster)
    CHECK(points > 6000);
    CHECK(found + ghosts <= hits);  // a reconstructed hit is a true one, a ghost, or a duplicate
    CHECK(double(found) / double(points) >= 0.85);
    CHECK(double(found) / double(points) < 0.99);
    // Ghosts: every pair of true points in one sensor closer in time than the hit window (their
    // events' start times: 10 MHz puts some events within it) makes 2 L tan(a) / W ghosts on average.
    // Tolerance 25%: the time jitter blurs the window's edge, clusters of close tracks merge.
    StripTables const& t = o.tables;
    std::map<std::tuple<std::uint64_t, std::uint64_t, std::int32_t>, bool> seen;
    std::map<std::int32_t, std::vector<double>> times;  // per sensor: the points' event times [ns]
    for (Hit const& h : r.hits) {
        if (h.volume != t.volumes[0].logical) continue;
        StripVolume const& v = t.volumes[std::size_t(h.replica)];
        Vec3 const a = v.placement.to_local(h.pre), b = v.placement.to_local(h.post);
        if ((a.z > 0) == (b.z > 0)) continue;
        if (seen[{h.event, h.track, h.replica}]) continue;
        seen[{h.event, h.track, h.replica}] = true;
        double const f = -a.z / (b.z - a.z);
        double const x = a.x + f * (b.x - a.x) + v.hx, y = a.y + f * (b.y - a.y) + v.hy;
        auto const ix = std::int32_t(std::floor(x / t.params.width()));
        auto const iy = std::int32_t(std::floor(y / t.params.length));
        times[v.first_sensor + iy * v.tiles_x + ix].push_back(t.event_time[h.event] * 1e9);
    }
    double pairs = 0;
    for (auto& [sensor, ts] : times) {
        std::sort(ts.begin(), ts.end());
        for (std::size_t i = 0; i < ts.size(); ++i)
            for (std::size_t j = i + 1; j < ts.size() && ts[j] - ts[i] < t.hit_window; ++j) pairs += 1;
    }
    double const expected = 2 * pairs * t.params.length * t.params.tan_stereo[1] / t.params.width();
    CAPTURE(expected);
    CAPTURE(ghosts);
    CHECK(double(ghosts) == test::relative(expected, 0.25));
    Table const digis = read_table(path, "digis");
    CHECK(digis.rows() == o.digitization.digis.size());
    Table const reco = read_table(path, "reco_hits");
    CHECK(reco.rows() == o.reconstruction.hits.size());
    CHECK(read_table(path, "clusters").rows() == o.reconstruction.clusters.size());
    CHECK(read_table(path, "strip_quality").rows() == 8);
    std::filesystem::remove(path);
}

TEST_CASE("[strips] digitizes the steps when /hits is not written (output.hits = false)")
{
    std::string const dir = std::filesystem::temp_directory_path().string();
    std::vector<std::string> tables[2];
    for (int written = 0; written < 2; ++written) {
        DeckConfig const cfg = read_deck(
            std::string(GTRACK_SOURCE_DIR) + "/inputs/sts.toml",
            {"gun.events=4", "run.track_slots=4096", written ? "output.hits=true" : "output.hits=false"});
        std::string const path = dir + "/gtrack_strip_hits_" + std::to_string(written) + ".h5";
        DetectorRunOptions opt;
        opt.backend = "cpu";
        opt.output = path;
        opt.quiet = true;
        DetectorRunResult const r = run_detector_deck(cfg, opt);
        REQUIRE(r.strips);
        CHECK(r.strips->digitization.digis.size() > 100);
        Table const digis = read_table(path, "digis");
        CHECK(digis.rows() == r.strips->digitization.digis.size());
        for (auto const& c : digis.columns())
            std::visit(
                [&](auto const& v) { tables[written].push_back(fmt::format("{}", fmt::join(v, ","))); },
                c.values);
        std::filesystem::remove(path);
    }
    CHECK(tables[0] == tables[1]);  // the same digis, their steps the rows of the (unwritten) /hits
}

TEST_CASE("inputs/sts.toml at low occupancy: every station finds >= 99% of the MIPs, pulls near 1")
{
    // 5 protons an event, events apart in time: no pile-up; CBM's noise, threshold and 5-bit ADC.
    DeckConfig const cfg = read_deck(
        std::string(GTRACK_SOURCE_DIR) + "/inputs/sts.toml",
        {"gun.events=100", "gun.per_event=5", "strips.stream.interaction_rate=0", "run.track_slots=1024"});
    DetectorRunOptions opt;
    opt.backend = "cpu";
    opt.write_output = false;
    opt.quiet = true;
    DetectorRunResult const r = run_detector_deck(cfg, opt);
    REQUIRE(r.strips);
    MESSAGE(format_strip_summary(*r.strips));
    for (StripStationQuality const& q : r.strips->quality) {
        CAPTURE(q.name);
        CHECK(q.points >= 490);
        CHECK(q.efficiency() >= 0.99);
        // the error model (docs/physics.md 10.5) within 50%: a pull rms of 0.5 to 1.5
        CHECK(q.pull_u > 0.5);
        CHECK(q.pull_u < 1.5);
        CHECK(q.pull_v > 0.5);
        CHECK(q.pull_v < 1.5);
    }
}
