// Multiple scattering and backscattering against published measurements (data and sources in
// SlabMeasurementsData.hh), with the statistics of the measurements (label long; SlabMeasurementsTest.cc
// runs reduced cases in CI).
#include <doctest/doctest.h>

#include <cmath>

#include "Relative.hh"
#include "SlabMeasurementsData.hh"

using namespace gt;
using namespace gt::test;

TEST_CASE("Gottschalk et al.'s 158.6 MeV protons through aluminium: projected theta_0")
{
    int const n = 40000;
    for (GottschalkSlab const& s : k_gottschalk_slabs) {
        double const core = gottschalk_moliere_theta0(s);
        // the default model (Molière's core width) meets the 3%; Highland's (PDG form,
        // ln(x z^2 / (X0 beta^2))) is 8% above the measurement and 5% above Molière's core
        for (char const* model : {"moliere", "highland"}) {
            double const w = gottschalk_theta0(s, n, model);
            MESSAGE(std::string(model)
                    << ": " << std::string(s.material) << " " << s.g_cm2 << " g/cm2: theta_0 = " << w * 1e3
                    << " mrad (measured " << s.theta0_mrad << " +- " << s.error_mrad << ", Molière's core "
                    << core * 1e3 << ")");
            double const rel = w * 1e3 / s.theta0_mrad - 1;
            CHECK(std::abs(rel) < gottschalk_tolerance(s, n));
            bool const moliere = std::string(model) == "moliere";
            CHECK((std::abs(rel) < gottschalk_target_tolerance(n)) == moliere);
            CHECK((w == test::relative(core, gottschalk_core_tolerance(n))) == moliere);
        }
    }
}

TEST_CASE("Kulchitsky & Latyshev's 2.25 MeV electrons through aluminium: theta_1/e")
{
    int const n = 40000;
    double const deg = 3.14159265358979323846 / 180.0;
    for (int steps : {1, 10}) {
        double const w = kulchitsky_theta1e(n, "moliere", steps);
        MESSAGE(steps << " steps: theta_1/e = " << w / deg << " deg (measured " << k_kulchitsky.theta1e_deg
                      << " +- " << k_kulchitsky.error_deg << ")");
        CHECK(std::abs(w / deg / k_kulchitsky.theta1e_deg - 1) < kulchitsky_tolerance(n));
    }
}

TEST_CASE("Lockwood et al.'s electron backscattering from thick aluminium, 0.3 to 1 MeV")
{
    int const n = 10000;
    for (LockwoodAlbedo const& a : k_lockwood_al) {
        for (char const* model : {"moliere", "moliere_all"}) {
            Albedo const r = lockwood_albedo(a, n, model);
            MESSAGE(a.mev << " MeV, " << std::string(model) << ": backscattered primaries " << r.primaries
                          << ", every electron " << r.all << " (measured " << a.eta << ")");
            if (std::string(model) == "moliere") {
                // the default: the documented bias (Data.hh), the target a WARN
                CHECK(std::abs(r.primaries / a.eta - k_lockwood_bias) < lockwood_ratio_tolerance(a, n));
                WARN(std::abs(r.all / a.eta - 1) < 0.10);
            } else {
                CHECK(std::abs(r.all / a.eta - 1) < lockwood_target_tolerance(a, n));
            }
        }
    }
}
