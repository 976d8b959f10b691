// The validation family at larger sizes (label long, minutes of one core): the deck (an
// expanding cold waterbag bunch of 5x10^4 particles in a drift, 32^3 grid) and members with grids up
// to 64^3, every one with kicks disturbed at the FFT's error bound must pass (ValidationFamily.hh); the
// three that scripts/gpu-check.d/46-validate-perturbed.sh also runs perturbed must fail with a 1e-6 defect.
#include <doctest/doctest.h>

#include "ValidationFamilyRun.hh"

using namespace gt;
using namespace gt::test;

TEST_CASE("validate's default tolerance follows the kicks: the larger family members pass")
{
    SUBCASE("issue 32's deck")
    {
        check_family_member({"waterbag", 32, 50000, true, false, false, false, "3d"}, true);
    }
    SUBCASE("gaussian 32^3 2.5D, long bunch, FODO")
    {
        check_family_member({"gaussian", 32, 20000, false, true, true, false, "2.5d"}, true);
    }
    SUBCASE("kv 32^3, cold, t-code")
    {
        check_family_member({"kv", 32, 10000, true, false, false, true, "3d"}, true);
    }
    SUBCASE("gaussian 64^3, cold, long bunch, drift")
    {
        check_family_member({"gaussian", 64, 50000, true, true, false, false, "3d"}, false);
    }
}
