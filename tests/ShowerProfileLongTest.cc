// Electron showers against the PDG (tests/ShowerProfileSupport.hh): 100 GeV in lead, 16 showers in
// chunks of 4 (about 10^6 hits at once), 7.3 s of one core; 10 GeV in PbWO4, 30 showers. Its own ctest
// with the label "long" (tests/CMakeLists.txt), which the sanitizer build of CI leaves out.
#include "ShowerProfileSupport.hh"

TEST_CASE("electron showers of 100 GeV in lead: PDG longitudinal profile and Moliere radius")
{
    gt::shower_test::check_showers_in_lead(100000.0, 16, 4, 0.10);
}

TEST_CASE("electron showers of 10 GeV in a lead tungstate crystal: PDG longitudinal profile")
{
    gt::shower_test::check_showers(gt::shower_test::pbwo4_medium(), 10000.0, 30, 15, 0.10);
}
