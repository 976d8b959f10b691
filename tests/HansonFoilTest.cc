// Hanson et al.'s 15.7 MeV electrons through gold foils (Phys. Rev. 84 (1951) 634; data in
// HansonFoilSupport.hh), reduced statistics: Molière's model (the default; with showers "moliere_all")
// in both physics modes, the foil in one step and in ten, against Highland's model, 9-13% too wide.
// HansonFoilLongTest.cc holds the full statistics with the 3% bound.
#include <doctest/doctest.h>

#include "HansonFoilSupport.hh"

using namespace gt;
using namespace gt::test;

TEST_CASE("Hanson's gold foils, reduced statistics: theta_1/e within 6%, Highland's model outside")
{
    // 20000 electrons: the fitted width's statistical error is about 1.2%; Molière's theory itself
    // is within -1.4% and +2.3% of the two measurements (MultipleScatteringTest.cc) and the steps
    // move it by up to 1% more (HansonFoilLongTest.cc), so 6% is above 2.5 standard deviations of
    // noise on the worst case, and below Highland's +9-13% by more than two.
    int const n = 20000;
    double const deg = 3.14159265358979323846 / 180.0;
    for (HansonFoil const& f : k_hanson_foils) {
        // with showers, msc_model = "moliere_all" (shower e+- on Molière's model; the default
        // "moliere" keeps them on Highland's, StepActions.hh msc_lambda1), in one step
        for (bool showers : {false, true}) {
            for (int steps : {1, 10}) {
                if (showers && steps > 1) continue;  // (the long test runs several steps)
                CAPTURE(f.mg_cm2);
                CAPTURE(showers);
                CAPTURE(steps);
                double const w = theta_1e(hanson_angles(
                    hanson_deck(f.mg_cm2, n, showers, showers ? "moliere_all" : "moliere", steps), n));
                MESSAGE(f.mg_cm2 << " mg/cm2, showers " << showers << ", " << steps << " steps: theta_1/e = "
                                 << w / deg << " deg (Hanson " << f.theta_1e_deg << ")");
                // relative bound (doctest::Approx adds its scale 1 to the values, which for 2.58 deg
                // would loosen 6% to 8.3%)
                CHECK(std::abs(w / deg / f.theta_1e_deg - 1) < 0.06);
            }
        }
        // the old model fails the same test: Highland's width is 9-13% wider
        double const h = theta_1e(hanson_angles(hanson_deck(f.mg_cm2, n, false, "highland", 1), n));
        MESSAGE(f.mg_cm2 << " mg/cm2, Highland: theta_1/e = " << h / deg << " deg");
        CHECK(h / deg > 1.06 * f.theta_1e_deg);
    }
}
