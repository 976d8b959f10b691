// Mean energy loss against published values: muon minimum ionization in the PDG's atomic and nuclear
// properties tables, the Fermi-plateau limit of PDG eq. 34.6, and ESTAR's electron collision
// stopping power in water.
#include <doctest/doctest.h>

#include <cmath>

#include "Relative.hh"
#include "deck/Materials.hh"
#include "deck/Particles.hh"
#include "kernels/physics/BetheBloch.hh"
#include "kernels/physics/EnergyLossFluctuation.hh"

using namespace gt;

namespace {

//! dE/dx [MeV cm^2/g] of a particle of momentum p [MeV/c].
double mass_stopping_power(MaterialParams const& m, ParticleType const& pt, double p)
{
    double const T = std::sqrt(p * p + pt.mass * pt.mass) - pt.mass;
    return mean_dedx(m, pt, T) / (100.0 * m.density * 1.0e-3);
}

}  // namespace

TEST_CASE("muon minimum ionization within 2% of the PDG tables")
{
    // PDG atomic and nuclear properties (pdg.lbl.gov/AtomicNuclearProperties), "minimum ionization"
    // for muons [MeV cm^2/g]. The PDG values include small corrections (shell, Bloch, ...) that
    // eq. 34.5 omits; they change the minimum by well under 1%.
    struct Ref {
        char const* material;
        double dedx_min;
    };
    Ref const refs[] = {{"silicon", 1.664},   {"copper", 1.403}, {"lead", 1.122},         {"iron", 1.451},
                        {"aluminium", 1.615}, {"water", 1.992},  {"liquid_argon", 1.508}, {"air", 1.815}};
    ParticleType const mu = *find_detector_particle("mu-");
    for (auto const& r : refs) {
        CAPTURE(r.material);
        MaterialParams const m = *builtin_material(r.material);
        // scan p over 100 MeV/c .. 10 GeV/c for the minimum (it lies near beta gamma = 3 to 3.5)
        double best = HUGE_VAL, p_best = 0;
        for (double lp = std::log(100.0); lp < std::log(1.0e4); lp += 0.002) {
            double const v = mass_stopping_power(m, mu, std::exp(lp));
            if (v < best) {
                best = v;
                p_best = std::exp(lp);
            }
        }
        CHECK(best == test::relative(r.dedx_min, 0.02));
        CHECK(p_best / mu.mass > 2.5);
        CHECK(p_best / mu.mass < 4.5);
    }
}

TEST_CASE("mean dE/dx of muons in Si, Cu, Pb at several momenta: the minimum and the Fermi plateau")
{
    // At high energy PDG eq. 34.6 gives the limit of eq. 34.5 with the density effect:
    // dE/dx -> K Z/A [ln(sqrt(2 m_e c^2 T_max) / (hbar omega_p)) - beta^2 + 1/2] ... written here as
    // K Z/A [1/2 ln(2 m_e c^2 T_max / (hbar omega_p)^2) - 1/2]; hbar omega_p = 28.816 sqrt(rho Z/A) eV.
    // It checks the tabulated C-bar, x1 against the plasma energy: they are independent published numbers.
    ParticleType const mu = *find_detector_particle("mu-");
    for (char const* name : {"silicon", "copper", "lead"}) {
        CAPTURE(name);
        MaterialParams const m = *builtin_material(name);
        double const plasma = 28.816e-6 * std::sqrt(m.density * 1e-3 * m.z_over_a);  // [MeV]
        for (double p : {3.0e4, 1.0e5, 3.0e5}) {
            CAPTURE(p);
            double const gamma = std::sqrt(p * p + mu.mass * mu.mass) / mu.mass;
            double const tmax = max_energy_transfer(mu.mass, gamma * gamma - 1.0, gamma);
            double const limit = eloss::k_K * m.z_over_a *
                                 (0.5 * std::log(2.0 * eloss::k_me * tmax / (plasma * plasma)) - 0.5);
            CHECK(mass_stopping_power(m, mu, p) == test::relative(limit, 0.01));
        }
        // between the minimum and the plateau dE/dx rises; below the minimum it rises like 1/beta^2
        double const at_min = mass_stopping_power(m, mu, 350.0);
        CHECK(mass_stopping_power(m, mu, 1.0e4) > at_min);
        CHECK(mass_stopping_power(m, mu, 100.0) > at_min);
    }
}

TEST_CASE("electron collision stopping power in water within 2% of ESTAR")
{
    // NIST ESTAR, liquid water, collision stopping power [MeV cm^2/g]: 1 MeV 1.849, 10 MeV 1.968.
    MaterialParams const water = *builtin_material("water");
    ParticleType const e = *find_detector_particle("e-");
    auto s = [&](double T) { return mean_dedx(water, e, T) / (100.0 * water.density * 1e-3); };
    CHECK(s(1.0) == test::relative(1.849, 0.02));
    CHECK(s(10.0) == test::relative(1.968, 0.02));
    // positrons lose a little less than electrons at 1 MeV (Bhabha vs Moller), by a few percent
    ParticleType const ep = *find_detector_particle("e+");
    double const ratio = mean_dedx(water, ep, 1.0) / mean_dedx(water, e, 1.0);
    CHECK(ratio > 0.9);
    CHECK(ratio < 1.0);
}

TEST_CASE("Bohr straggling: variance grows linearly with the path, sampled losses stay in [0, 2 mean]")
{
    MaterialParams const si = *builtin_material("silicon");
    ParticleType const mu = *find_detector_particle("mu-");
    double const v1 = bohr_variance(si, mu, 1000.0, 0.01), v2 = bohr_variance(si, mu, 1000.0, 0.02);
    CHECK(v2 == test::relative(2 * v1, 1e-14));
    RandomStream rng(1, 2, 3);
    double sum = 0, sum2 = 0;
    int const n = 20000;
    double const mean = 1.0, var = 0.01;
    for (int i = 0; i < n; ++i) {
        double const x = sample_energy_loss(mean, var, rng);
        REQUIRE(x >= 0);
        REQUIRE(x <= 2 * mean);
        sum += x;
        sum2 += x * x;
    }
    // sigma = 0.1 mean: the truncation at 0 and 2 mean is 10 sigma away and changes nothing
    CHECK(sum / n == test::relative(mean, 0.005));
    CHECK(std::sqrt(sum2 / n - (sum / n) * (sum / n)) == test::relative(0.1, 0.03));
}

TEST_CASE("proton electronic stopping power in water within 2% of PSTAR at 100 and 200 MeV")
{
    // NIST PSTAR (ICRU 49, I = 75 eV like the built-in water), electronic stopping power [MeV cm^2/g]:
    // 100 MeV 7.289, 200 MeV 4.492. Shell corrections, omitted here, are below 1% at these energies.
    MaterialParams const water = *builtin_material("water");
    ParticleType const p = *find_detector_particle("proton");
    auto s = [&](double T) { return mean_dedx(water, p, T) / (100.0 * water.density * 1e-3); };
    CHECK(s(100.0) == test::relative(7.289, 0.02));
    CHECK(s(200.0) == test::relative(4.492, 0.02));
}
