// validate's default tolerance after space-charge kicks follows the kicks (KickRoundOff): a small
// family of generated decks (cold and warm, drift and FODO, 3D and 2.5D, z- and t-code) passes with
// kicks disturbed at the FFT's error bound, and a kick off by 1e-6 on one particle fails. The whole
// family, larger: ValidationFamilyLongTest.cc (label long); on the GPU: gpu-check.d/45-validate-family.sh.
#include <doctest/doctest.h>

#include "ValidationFamilyRun.hh"

using namespace gt;
using namespace gt::test;

TEST_CASE("validate's default tolerance follows the kicks: small family members pass, a 1e-6 kick fails")
{
    // The semi-Gaussian FODO member failed before the fixed-point quantum of the deterministic
    // deposition was in the model (a weight moved by 2^-32 by a 1e-19 position difference: |dpx|
    // 1.5e-14 after two kicks, against 2.7e-15 from the FFT term alone).
    std::vector<FamilyMember> family(4);
    family[0] = {"waterbag", 16, 1000, true, false, false, false, "3d"};  // the deck, smaller
    family[1] = {"gaussian", 16, 1000, false, true, true, false, "2.5d"};
    family[2] = {"kv", 16, 500, true, false, false, true, "3d"};  // t-code space charge
    family[3] = {"semigaussian", 16, 1000, false, false, true, false, "3d"};
    // The defect on the first member and the t-code one (each check is two validations): seconds in CI.
    for (std::size_t i = 0; i < family.size(); ++i) check_family_member(family[i], i == 0 || i == 2);
}
