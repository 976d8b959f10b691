// HepMC3 event files as primaries: files written by libhepmc3's own writer (WriterAscii) read back with
// every final-state particle, vertex, time and weight; the same events in other units; the selection
// (skip, count, offset); corrupted and truncated files refused naming the file and line.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "HepMcTestSupport.hh"
#include "IoTestSupport.hh"
#include "Relative.hh"
#include "TextTestSupport.hh"
#include "deck/Particles.hh"
#include "detector/HepMcEvents.hh"
#include "detector/HepMcListing.hh"
#include "kernels/core/Types.hh"

using namespace gt;
using gt::test::contains;

namespace {

std::string read_all(std::string const& path)
{
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

//! The message of the HepMcError reading `text` throws ("" if it reads).
std::string refusal(std::string const& text, HepMcSelection const& selection = {})
{
    std::istringstream in(text);
    try {
        read_hepmc_events(in, "bad.hepmc3", selection);
    } catch (HepMcError const& e) {
        return e.what();
    }
    return "";
}

}  // namespace

TEST_CASE("a file of HepMC3's own writer is read back with every final-state particle, vertex and weight")
{
    test::TempDir dir;
    std::string const path = dir.file("toy.hepmc3");
    std::vector<test::WrittenParticle> const written = test::write_toy_events(path, 6);
    HepMcEvents const ev = read_hepmc_file(path, {});
    REQUIRE(ev.events() == 6);
    std::size_t k = 0;
    std::uint64_t neutrons = 0, neutrinos = 0;
    for (auto const& w : written) {
        std::string const name = particle_of_pdg(w.pdg);
        if (name.empty()) {
            neutrons += w.pdg == 2112;
            neutrinos += w.pdg == 14;
            continue;
        }
        CAPTURE(k);
        REQUIRE(k < ev.primaries.size());
        Primary const& p = ev.primaries[k++];
        CHECK(p.event == std::uint64_t(w.event - 100));
        CHECK(ev.numbers.at(p.event) == w.event);
        CHECK(ev.species.at(std::size_t(p.particle)) == name);
        // GeV -> MeV, mm -> m, c t [mm] -> s; the kinetic energy from |p| and gtrack's rest energy. The
        // writer prints 17 significant digits (every double exactly), so what differs is the one unit
        // conversion's rounding: 1e-15 relative
        double const p2 = (w.px * w.px + w.py * w.py + w.pz * w.pz) * 1e6;
        double const mass = find_detector_particle(name)->mass;
        CHECK(p.energy == test::relative(std::sqrt(p2 + mass * mass) - mass, 1e-12));
        double const pm = std::sqrt(p2);
        CHECK(p.dir.x == test::relative(w.px * 1e3 / pm, 1e-15));
        CHECK(p.dir.y == test::relative(w.py * 1e3 / pm, 1e-15));
        CHECK(p.dir.z == test::relative(w.pz * 1e3 / pm, 1e-15));
        CHECK(p.pos.x == test::relative(w.x * 1e-3, 1e-15));
        CHECK(p.pos.y == test::relative(w.y * 1e-3, 1e-15));
        CHECK(p.pos.z == test::relative(w.z * 1e-3, 1e-15));
        CHECK(p.time == test::relative(w.t * 1e-3 / constants::c_light, 1e-15));
    }
    CHECK(k == ev.primaries.size());
    // 6 events x (mu, gamma, pi+, pi-, 2 gamma), every one in its event; starts count them
    CHECK(ev.primaries.size() == 36);
    for (std::uint64_t e = 0; e <= 6; ++e) CHECK(ev.starts[e] == 6 * e);
    // not transported: a neutron an event, a muon neutrino in events 0 and 3, counted by PDG id
    REQUIRE(ev.not_transported.size() == 2);
    CHECK(ev.not_transported.at(2112).count == neutrons);
    CHECK(ev.not_transported.at(14).count == neutrinos);
    CHECK(neutrons == 6);
    CHECK(neutrinos == 2);
    CHECK(describe_not_transported(ev) == "6 x 2112 (neutron), 2 x 14 (nu_mu)");
    // weights: both, per event, named
    CHECK(ev.weight_names == std::vector<std::string>{"nominal", "scale_up"});
    REQUIRE(ev.weights_per_event == 2);
    for (std::uint64_t e = 0; e < 6; ++e) {
        CHECK(ev.weights[2 * e] == 0.5 + double(e));
        CHECK(ev.weights[2 * e + 1] == 2 * (0.5 + double(e)));
    }
    // The decays: the pions start 20 mm downstream of the collision, 20.5 mm of c t later; the pi0's photons
    // where the pi0 was made (its vertex has no position: HepMC3 gives the collision's)
    Primary const& mu = ev.primaries[0];
    Primary const& pion = ev.primaries[2];
    Primary const& photon = ev.primaries[5];
    CHECK(pion.pos.z - mu.pos.z == test::relative(0.020, 1e-12));
    CHECK(pion.time - mu.time == test::relative(20.5e-3 / constants::c_light, 1e-12));
    CHECK(photon.pos.z == mu.pos.z);
    CHECK(photon.time == mu.time);
    CHECK(mu.time == test::relative(0.3e-3 / constants::c_light, 1e-15));
}

TEST_CASE("the events in MeV and cm are the same primaries; skip, events and offset select and move them")
{
    test::TempDir dir;
    test::write_toy_events(dir.file("gev_mm.hepmc3"), 6);
    test::write_toy_events(dir.file("mev_cm.hepmc3"), 6, true);
    HepMcEvents const a = read_hepmc_file(dir.file("gev_mm.hepmc3"), {});
    HepMcEvents const b = read_hepmc_file(dir.file("mev_cm.hepmc3"), {});
    REQUIRE(a.primaries.size() == b.primaries.size());
    for (std::size_t i = 0; i < a.primaries.size(); ++i) {
        // the same values written scaled by 1000 and 0.1, converted back by libhepmc3: a few roundings
        CHECK(b.primaries[i].energy == test::relative(a.primaries[i].energy, 1e-13));
        CHECK(b.primaries[i].pos.z == test::relative(a.primaries[i].pos.z, 1e-13));
        CHECK(b.primaries[i].time == test::relative(a.primaries[i].time, 1e-13));
        CHECK(b.primaries[i].dir.x == test::relative(a.primaries[i].dir.x, 1e-13));
    }
    HepMcEvents const c = read_hepmc_file(dir.file("gev_mm.hepmc3"), HepMcSelection{2, 3, {0.1, -0.2, 1.5}});
    REQUIRE(c.events() == 3);
    CHECK(c.numbers == std::vector<std::int64_t>{102, 103, 104});
    REQUIRE(c.primaries.size() == 18);
    for (std::size_t i = 0; i < c.primaries.size(); ++i) {
        Primary const& p = c.primaries[i];
        Primary const& q = a.primaries[12 + i];  // event 2 of the whole file is event 0 here
        CHECK(p.event + 2 == q.event);
        CHECK(p.pos.x == q.pos.x + 0.1);
        CHECK(p.pos.y == q.pos.y - 0.2);
        CHECK(p.pos.z == q.pos.z + 1.5);
        CHECK(p.energy == q.energy);
    }
    CHECK(c.weights.front() == 2.5);
    CHECK(contains(refusal(read_all(dir.file("gev_mm.hepmc3")), {4, 3, {}}),
                   "bad.hepmc3: the file has 6 events, 4 of them skipped; 3 were asked for"));
}

TEST_CASE("the example deck's event file holds the events the toy writer makes")
{
    test::TempDir dir;
    test::write_toy_events(dir.file("toy.hepmc3"), 20);
    HepMcEvents const a = read_hepmc_file(dir.file("toy.hepmc3"), {});
    HepMcEvents const b = read_hepmc_file(GTRACK_SOURCE_DIR "/inputs/events/toy_events.hepmc3", {});
    REQUIRE(a.primaries.size() == b.primaries.size());
    for (std::size_t i = 0; i < a.primaries.size(); ++i) {
        CHECK(a.primaries[i].energy == b.primaries[i].energy);
        CHECK(a.primaries[i].pos.z == b.primaries[i].pos.z);
    }
    CHECK(a.weights == b.weights);
}

TEST_CASE("corrupted and truncated event files are refused naming the file, the line and what is wrong")
{
    test::TempDir dir;
    std::string const path = dir.file("toy.hepmc3");
    test::write_toy_events(path, 3);
    std::string const good = read_all(path);
    CHECK(refusal(good).empty());
    auto line_of = [&](std::string const& text, std::string const& start) {
        std::size_t const at = text.find(start);
        return std::count(text.begin(), text.begin() + std::ptrdiff_t(at), '\n') + 1;
    };

    // truncated: in the middle of an event (its particle count), and only the end line missing
    std::string const cut = good.substr(0, good.find("P 7 ", good.find("E 101")));
    std::string msg = refusal(cut);
    CHECK(contains(msg, "bad.hepmc3:"));
    CHECK(contains(msg, "truncated"));
    msg = refusal(good.substr(0, good.find("HepMC::Asciiv3-END")));
    CHECK(contains(msg, "the file ends without the listing's end line"));
    // an event cut short before the next event starts: its E line's counts say so, at its line
    std::string missing = good;
    std::size_t const p11 = missing.find("P 11 ", missing.find("E 101"));
    missing.erase(p11, missing.find("E 102") - p11);
    msg = refusal(missing);
    CHECK(contains(
        msg, fmt::format("bad.hepmc3:{}: event 101 declares 3 vertices and 11 particles, and has 3 and 10",
                         line_of(missing, "E 101"))));

    // a damaged number, a reference to a particle not listed, a bad unit, a wrong field count
    std::string bad = good;
    std::size_t const at = bad.find("P 4 ");
    bad.replace(bad.find(' ', at + 8), 1, " 1.2.3");
    msg = refusal(bad);
    CHECK(contains(msg, fmt::format("bad.hepmc3:{}: ", line_of(good, "P 4 "))));
    CHECK(contains(msg, "is not a finite number"));
    bad = good;
    bad.replace(bad.find("[1,2]"), 5, "[1,9]");
    CHECK(contains(refusal(bad), "incoming particle '9' is not one of the 2 particles listed before it"));
    bad = good;
    bad.replace(bad.find("U GEV MM"), 8, "U GEV KM");
    CHECK(contains(refusal(bad), "a units line is 'U GEV|MEV MM|CM'"));
    bad = good;
    bad.replace(bad.find("P 3 -1"), 6, "P 3 -7");
    CHECK(contains(refusal(bad), "the mother '-7' is neither a particle listed before"));
    bad = good;
    bad.replace(bad.find("W 5.0"), 1, "W 1.0 2.0 3.0 X");
    CHECK(contains(refusal(bad), "weight"));
    // not a listing at all, a HepMC2 file, an empty file, text after the end
    CHECK(contains(refusal("hello\n"), "bad.hepmc3:1: 'hello': not a HepMC3 ASCII listing"));
    CHECK(contains(refusal("HepMC::Version 2.06.09\nHepMC::IO_GenEvent-START_EVENT_LISTING\n"),
                   "a HepMC2 listing"));
    CHECK(contains(refusal(""), "an empty file"));
    CHECK(contains(refusal(good + "E 5 0 0\n"), "text after the listing's end line"));
    // binary garbage with no line end is refused after the longest line, not read whole
    CHECK(contains(refusal(good.substr(0, 60) + std::string(2 << 20, 'x')), "a line of more than"));
    // a file that is not there
    try {
        read_hepmc_file(dir.file("missing.hepmc3"), {});
        FAIL("read a missing file");
    } catch (HepMcError const& e) {
        CHECK(contains(e.what(), "missing.hepmc3: cannot open the event file"));
    }
}
