// Electron showers of 100 GeV in lead against the PDG (tests/ShowerProfileSupport.hh): 16 showers in
// chunks of 4 (about 10^6 hits at once), 7.3 s of one core; its own ctest with the label "long"
// (tests/CMakeLists.txt), which the sanitizer build of CI leaves out.
#include "ShowerProfileSupport.hh"

TEST_CASE("electron showers of 100 GeV in lead: PDG longitudinal profile and Moliere radius")
{
    gt::shower_test::check_showers_in_lead(100000.0, 16, 4, 0.10);
}
