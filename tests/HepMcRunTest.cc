// A detector run of a HepMC3 event file through the gtrack binary: events one to one, every final-state
// particle gtrack transports started and the others reported by PDG id (terminal and file), the events'
// numbers and weights in the output; stopped and resumed it gives every bit of the uninterrupted run; a
// corrupted file stops it before anything is written; keys that do not go with a file are deck errors.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "CheckpointTestSupport.hh"
#include "CommandTestSupport.hh"
#include "IoTestSupport.hh"
#include "TextTestSupport.hh"
#include "io/H5Access.hh"
#include "io/H5Handle.hh"
#include "io/TableWriter.hh"
#include "run/StopRequest.hh"

using namespace gt;
using namespace gt::test;

namespace {

std::string const k_deck = GTRACK_SOURCE_DIR "/inputs/hepmc_events.toml";

CommandResult gtrack(std::string const& env, std::string const& args)
{
    return run_shell(env + " " + GTRACK_BINARY + " " + args);
}

}  // namespace

TEST_CASE("an event file's events run one to one; what is not transported is reported; weights are kept")
{
    TempDir dir;
    std::string const out = dir.file("ev.h5");
    CommandResult const r =
        gtrack("", "run " + k_deck + " --set gun.events=6 --backend cpu --threads 1 -o " + out);
    INFO(r.output);
    REQUIRE(r.status == 0);
    // the file's first 6 events: 6 final-state particles each that gtrack transports (a muon, a photon, two
    // pions, two photons), a neutron each and a muon neutrino in events 100 and 103 that it does not
    CHECK(contains(r.output,
                   "events (numbers 100 to 105), 36 final-state particles as primaries (18 gamma, 3 mu+, 3 "
                   "mu-, 6 pi+, 6 pi-)"));
    CHECK(contains(r.output,
                   "not transported (final-state particles gtrack does not track; "
                   "/event_file_not_transported): 6 x 2112 (neutron), 2 x 14 (nu_mu)"));
    Table const events = read_table(out, "event_file");
    REQUIRE(events.rows() == 6);
    auto const& number = std::get<std::vector<std::int64_t>>(events.find("number")->values);
    auto const& primaries = std::get<std::vector<std::int64_t>>(events.find("primaries")->values);
    for (std::size_t e = 0; e < 6; ++e) {
        CHECK(number[e] == std::int64_t(100 + e));
        CHECK(primaries[e] == 6);
        CHECK(events.doubles("weight")[e] == 0.5 + double(e));  // the toy writer's weights
        CHECK(events.doubles("weight_1")[e] == 2 * (0.5 + double(e)));
    }
    Table const lost = read_table(out, "event_file_not_transported");
    REQUIRE(lost.rows() == 2);
    auto const& pdg = std::get<std::vector<std::int64_t>>(lost.find("pdg")->values);
    auto const& count = std::get<std::vector<std::int64_t>>(lost.find("count")->values);
    CHECK(pdg == std::vector<std::int64_t>{14, 2112});
    CHECK(count == std::vector<std::int64_t>{2, 6});
    h5::File f = h5::open_file_readonly(out);
    h5::Object det = h5::open_object(f, "detector");
    CHECK(h5::read_uint64_attribute(det, "primaries") == 36);
    CHECK(h5::read_uint64_attribute(det, "events") == 6);
    CHECK(h5::read_string_array_attribute(h5::open_object(f, "event_file"), "weight_names") ==
          std::vector<std::string>{"nominal", "scale_up"});
    // hits carry the run's events, each of the six with hits in the pixels or the calorimeter
    Table const hits = read_table(out, "hits");
    REQUIRE(hits.rows() > 0);
    auto const& ev = std::get<std::vector<std::uint64_t>>(hits.find("event")->values);
    CHECK(*std::max_element(ev.begin(), ev.end()) == 5);
    for (std::uint64_t e = 0; e < 6; ++e) CHECK(std::count(ev.begin(), ev.end(), e) > 0);
}

TEST_CASE("an event-file run stopped by a signal resumes to every bit")
{
    TempDir dir;
    std::string const out = dir.file("ev.h5"), reference = dir.file("ref.h5");
    // 8 slots: the 60 primaries of 10 events start in batches over many iterations
    std::string const args = "run " + k_deck +
                             " --set gun.events=10 --set run.track_slots=8 --backend cpu "
                             "--threads 1 -q --resume auto -o " +
                             out;
    CommandResult r = gtrack("", args);
    INFO(r.output);
    REQUIRE(r.status == 0);
    std::filesystem::rename(out, reference);
    r = gtrack(std::string(k_test_stop_variable) + "=5", args);
    INFO(r.output);
    REQUIRE(r.status == k_exit_stopped);
    CHECK(contains(r.output, "of 10 events started"));
    REQUIRE(std::filesystem::exists(out + ".ckpt"));
    r = gtrack("", args);
    INFO(r.output);
    REQUIRE(r.status == 0);
    check_every_bit(reference, out, {"provenance@start_time", "provenance@end_time"});
}

TEST_CASE("a corrupted event file stops the run before anything is written; keys that do not go with a file")
{
    TempDir dir;
    std::ifstream in(GTRACK_SOURCE_DIR "/inputs/events/toy_events.hepmc3");
    std::stringstream text;
    text << in.rdbuf();
    std::string bad = text.str();
    bad.replace(bad.find("U GEV MM"), 8, "U GEV XX");
    std::ofstream(dir.file("bad.hepmc3")) << bad;
    std::string const out = dir.file("ev.h5");
    CommandResult r = gtrack(
        "", "run " + k_deck + " --set 'gun.file=\"" + dir.file("bad.hepmc3") + "\"' --backend cpu -o " + out);
    CHECK(r.status != 0);
    CHECK(contains(r.output, dir.file("bad.hepmc3") + ":5: 'U GEV XX': a units line is 'U GEV|MEV MM|CM'"));
    CHECK_FALSE(std::filesystem::exists(out));

    r = gtrack("", "check " + k_deck +
                       " --set gun.particle=mu- --set gun.skip=-1 --set 'gun.file=\"nothere.hepmc3\"'");
    CHECK(r.status != 0);
    CHECK(contains(r.output, "gun.particle: 'particle' does not go with file"));
    CHECK(contains(r.output, "gun.skip"));
    CHECK(contains(r.output, "nothere.hepmc3': no such file"));
}
