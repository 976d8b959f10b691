// TestEm2 (PbWO4, 5 GeV e-) against Geant4 11.4's reference output (tests/TestEm2Support.hh): 20 events,
// about 5 s of one core, within the model tolerances widened by 3 statistical errors of the difference.
// The 100-event check is tests/TestEm2LongTest.cc (label "long").
#include "Relative.hh"
#include "TestEm2Support.hh"
#include "deck/DeckReader.hh"

TEST_CASE("TestEm2, 5 GeV e- in PbWO4, 20 events: deposit, track lengths, profiles and r90 against Geant4")
{
    using namespace gt::testem2;
    TestEm2Numbers const g = geant4_reference();
    // the reference as TestEm2 printed it (the parser read what the file says)
    CHECK(g.events == 100);
    CHECK(g.x0 == gt::test::relative(8.92455e-3, 1e-6));
    CHECK(g.edep == 94.81);
    CHECK(g.r90 == 2.97);
    // TestEm2's own r90 from its own printed cumulative profile (our reimplementation of its estimator)
    CHECK(containment_radius(g.radial_cumul, 0.1) == gt::test::relative(2.971, 1e-3));
    check_against_geant4(run_testem2(20, 10, g.x0), Tolerances{}, 3.0);
}

namespace {

//! A 1 mm silicon slab (sensitive) in vacuum, a shower deck with the given gun and physics lines.
gt::DetectorRunResult slab_run(std::string const& gun, std::string const& physics)
{
    std::string const text = R"([run]
kind = "detector"
seed = 3
[geometry.world]
shape = "box"
half_size = ["10 cm", "10 cm", "10 cm"]
material = "vacuum"
[[geometry.volume]]
name = "slab"
shape = "box"
half_size = ["5 cm", "5 cm", "0.5 mm"]
material = "silicon"
sensitive = true
[gun]
)" + gun + R"(
position = [0, 0, "-5 cm"]
direction = [0, 0, 1]
[physics]
showers = true
)" + physics + "\n";
    gt::DeckConfig const cfg = gt::read_deck_text(text, "slab.toml", {"run.backend=cpu"});
    gt::DetectorRunOptions opt;
    opt.write_output = false;
    opt.quiet = true;
    opt.track_lengths = true;
    return gt::run_detector_deck(cfg, opt);
}

}  // namespace

TEST_CASE("per-event track lengths: charged equal to the hits' chords without scattering, neutral the slab")
{
    using gt::k_num_length_categories;
    // Electrons without multiple scattering go straight: every charged step deposits (the mean continuous
    // loss: no fluctuations, which could leave a thin step without a deposit, hence without a hit), so
    // the hits' chords are every charged step in the slab, and their sum is the charged track length to
    // rounding (0.5 nm per step).
    {
        gt::DetectorRunResult const r = slab_run("particle = \"e-\"\nenergy = \"20 MeV\"\nevents = 20",
                                                 "multiple_scattering = false\nfluctuations = false");
        std::vector<double> chords(20, 0.0);
        std::vector<int> steps(20, 0);
        for (gt::Hit const& h : r.hits) {
            if (h.particle == gt::k_em_gamma) continue;
            chords.at(h.event) += norm(h.post - h.pre);
            steps.at(h.event) += 1;
        }
        REQUIRE(r.event_track_length.size() == 20 * k_num_length_categories);
        for (int e = 0; e < 20; ++e) {
            CAPTURE(e);
            CHECK(chords[e] >
                  1.0e-3 - 1.0e-8);  // the primary crosses the whole slab at least (less the 1 nm entry push)
            CHECK(std::fabs(r.event_track_length[e * k_num_length_categories + gt::k_length_charged] -
                            chords[e]) <= 1.0e-9 * (steps[e] + 1));
        }
    }
    // 1 MeV photons: one that leaves no deposit crossed the 1 mm slab without interacting (silicon's
    // attenuation length at 1 MeV is 15 cm, so most do): its neutral track length is the slab, 1 mm.
    {
        int const n = 200;
        gt::DetectorRunResult const r =
            slab_run("particle = \"gamma\"\nenergy = \"1 MeV\"\nevents = " + std::to_string(n), "");
        std::vector<int> deposits(n, 0);
        for (gt::Hit const& h : r.hits) deposits.at(h.event) += 1;
        int clean = 0;
        for (int e = 0; e < n; ++e) {
            if (deposits[e] > 0) continue;
            ++clean;
            // the entry push of 1 nm and the rounding of 0.5 nm per step
            CHECK(std::fabs(r.event_track_length[e * k_num_length_categories + gt::k_length_neutral] -
                            1.0e-3) < 1.0e-8);
            CHECK(r.event_track_length[e * k_num_length_categories + gt::k_length_charged] == 0.0);
        }
        CHECK(clean > n / 2);
    }
}
