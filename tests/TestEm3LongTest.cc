// TestEm3 at 1 GeV against Geant4 (tests/TestEm3Support.hh), 1000 events: about 20 s of one core, so
// its own ctest with the label "long" (tests/CMakeLists.txt). With 1000 events our statistical
// errors are 0.6 MeV (lead), 0.5 MeV (argon) and 0.1% (resolution); Geant4's reference, 100 events,
// dominates the tolerance's statistical part.
#include "TestEm3Support.hh"

TEST_CASE("TestEm3, 1 GeV e-, 1000 events: energy in lead and argon and the resolution against Geant4")
{
    gt::testem3::check_against_geant4(gt::testem3::run_testem3(1000), 2.0);
}
