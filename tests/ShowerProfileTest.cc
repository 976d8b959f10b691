// Electron showers of 1 and 10 GeV in lead against the PDG: longitudinal maximum, 95% containment
// depth, 90% containment radius against the Moliere radius (tests/ShowerProfileSupport.hh says how,
// with what tolerances and why these event counts). 100 GeV: tests/ShowerProfileLongTest.cc.
#include "ShowerProfileSupport.hh"

TEST_CASE("electron showers of 1 and 10 GeV in lead: PDG longitudinal profile and Moliere radius")
{
    // 100 showers of 1 GeV, 30 of 10 GeV (in two runs of 15, to bound the hits held at once)
    // (the 1 GeV 95% depth is 10.2% beyond the PDG gamma profile's: checked within 15%, see the header)
    gt::shower_test::check_showers_in_lead(1000.0, 100, 100, 0.15);
    gt::shower_test::check_showers_in_lead(10000.0, 30, 15, 0.10);
}

TEST_CASE("electron showers of 1 GeV in a lead tungstate crystal a user defines: PDG longitudinal profile")
{
    // The same measurement in PbWO4 (tests/data/shower_pbwo4_profile.toml, tests/ShowerProfileSupport.hh):
    // 100 showers of 1 GeV, the 95% depth held to 15% as in lead (the PDG gamma profile is a fit to EGS4
    // showers, less exact at low E/Ec); 10 GeV in ShowerProfileLongTest. r90 is printed, not asserted (see
    // pbwo4_medium).
    gt::shower_test::check_showers(gt::shower_test::pbwo4_medium(), 1000.0, 100, 100, 0.15);
}
