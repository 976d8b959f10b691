// TestEm3 at 1 GeV against Geant4 (tests/TestEm3Support.hh), 100 events: about 2 s of one core. The
// 1000-event check is tests/TestEm3LongTest.cc (label "long").
#include "TestEm3Support.hh"

TEST_CASE("TestEm3, 1 GeV e-, 100 events: energy in lead and argon and the resolution against Geant4")
{
    gt::testem3::check_against_geant4(gt::testem3::run_testem3(100), 3.0);
}
