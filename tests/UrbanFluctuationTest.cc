// Urban's energy-loss fluctuations (kernels/physics/UrbanFluctuation.hh): the model keeps the mean
// loss exactly and has the variance a1 E1^2 + a2 E2^2 + a3 I T_up (analytic, from its collision
// numbers); a thin layer gives no loss with probability exp(-(a1 + a2 + a3)) (Poisson); the most
// probable loss of a minimum-ionizing particle in 300 um of silicon against the
// thick layers approach the restricted Bohr variance.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "Relative.hh"
#include "deck/Materials.hh"
#include "detector/EmTableBuilder.hh"
#include "kernels/physics/MollerBhabha.hh"
#include "kernels/physics/UrbanFluctuation.hh"

using namespace gt;

namespace {

struct Kinematics {
    double bg2, beta2;
};

Kinematics electron(double T)
{
    double const tau = T / constants::electron_mass_mev;
    double const bg2 = tau * (tau + 2.0);
    return {bg2, bg2 / ((1.0 + tau) * (1.0 + tau))};
}

struct Moments {
    double mean = 0, variance = 0, zero = 0;
};

Moments sample(UrbanMaterial const& m, double mean, Kinematics k, double t_up, int n, std::uint64_t id)
{
    double s = 0, s2 = 0;
    int zero = 0;
    for (int i = 0; i < n; ++i) {
        RandomStream rng(11, id, static_cast<std::uint32_t>(i));
        double const x = sample_urban_loss(m, mean, k.bg2, k.beta2, t_up, rng);
        s += x;
        s2 += x * x;
        zero += x == 0;
    }
    Moments r;
    r.mean = s / n;
    r.variance = s2 / n - r.mean * r.mean;
    r.zero = static_cast<double>(zero) / n;
    return r;
}

}  // namespace

TEST_CASE("Urban fluctuations: the collision numbers give the mean loss exactly")
{
    // argon (Z 18, I 188 eV) and lead (Z 82, I 823 eV), electrons of 10 keV to 1 GeV, thin and thick
    for (auto [z, ipot] : {std::pair{18.0, 188.0e-6}, std::pair{82.0, 823.0e-6}}) {
        UrbanMaterial const m = make_urban_material(z, ipot);
        CHECK(std::exp((1 - m.f2) * m.log_e1 + m.f2 * m.log_e2) == test::relative(ipot, 1e-12));
        for (double T : {0.01, 0.1, 1.0, 10.0, 1000.0}) {
            Kinematics const k = electron(T);
            for (double mean : {1.0e-4, 1.0e-2, 1.0}) {
                UrbanCollisions c;
                REQUIRE(urban_collisions(m, mean, k.bg2, k.beta2, 0.3, c));
                double const e_ion = ipot * 0.3 / (0.3 - ipot) * std::log(0.3 / ipot);
                CHECK(c.a1 * m.e1 + c.a2 * m.e2 + c.a3 * e_ion == test::relative(mean, 1e-12));
            }
        }
    }
}

TEST_CASE("Urban fluctuations: sampled mean and variance against the model's analytic moments")
{
    // Three regimes: a thin step (every collision sampled, a3 = 20 < 32), a thick one (the alpha split
    // and Gaussian Poisson numbers), a slow electron (excitation of the lower level only). N samples:
    // the mean is checked within 4 standard errors sqrt(var / N); the variance within 4 of its own
    // standard errors, var sqrt((kurtosis - 1) / N), the kurtosis of the ionization sum being
    // T_up / (3 I a3) for 1/E^2 on [I, T_up] (27 for the thin step: 2.3% at N = 10^5): 10%.
    UrbanMaterial const ar = make_urban_material(18.0, 188.0e-6);
    struct Case {
        double T, mean, t_up;
        int n;
    };
    for (Case c : {Case{1000.0, 0.07, 0.3, 100000}, Case{1000.0, 0.5, 0.3, 100000},
                   Case{0.005, 2.0e-4, 0.0025, 100000}}) {
        Kinematics const k = electron(c.T);
        double const var = urban_variance(ar, c.mean, k.bg2, k.beta2, c.t_up);
        Moments const s = sample(ar, c.mean, k, c.t_up, c.n, 3);
        MESSAGE("T " << c.T << " mean " << c.mean << ": sampled " << s.mean << " var " << s.variance
                     << " (model " << var << ")");
        CHECK(std::fabs(s.mean - c.mean) < 4.0 * std::sqrt(var / c.n));
        CHECK(s.variance == test::relative(var, 0.10));
    }
}

TEST_CASE("Urban fluctuations: a thin step loses nothing with probability exp(-(a1 + a2 + a3))")
{
    // Poisson numbers: P(no collision) = exp(-sum a_i), when each a_i <= 16 (sampled by inversion).
    // A mean loss of 150 eV in argon from a 1 GeV electron: about 2 collisions. Binomial error of
    // the fraction with N = 100000: < 0.0016; checked within 0.005.
    UrbanMaterial const ar = make_urban_material(18.0, 188.0e-6);
    Kinematics const k = electron(1000.0);
    UrbanCollisions c;
    REQUIRE(urban_collisions(ar, 150.0e-6, k.bg2, k.beta2, 0.3, c));
    double const p0 = std::exp(-(c.a1 + c.a2 + c.a3));
    Moments const s = sample(ar, 150.0e-6, k, 0.3, 100000, 5);
    MESSAGE("P(0) sampled " << s.zero << ", exp(-sum a) " << p0);
    CHECK(p0 > 0.05);
    CHECK(std::fabs(s.zero - p0) < 0.005);
}

TEST_CASE("Urban fluctuations: thick layers approach the restricted Bohr variance")
{
    // Many collisions: the variance of the transfers below T_up is (K/2)(Z/A) rho s T_up / beta^2
    // (1 - beta^2 T_up / (2 T_max)) (the integral of E^2 over the spin-1/2 cross section up to T_up,
    // PDG eq. 34.2's T_max term; Bohr's (1 - beta^2/2) is its T_up = T_max case). The model's is
    // a3 I T_up = r D T_up (T_up - I) / (T_up ln(T_up / I)), with D = K (Z/A) rho s L / beta^2 (L the
    // restricted stopping number) a ratio of about 2 r L / ln(T_up / I): for electrons of 10 MeV in
    // 5.7 mm of liquid argon with a 0.3 MeV cut, L = 9.7 and ln(T_up/I) = 7.4 give 1.05 (the two
    // excitation levels add a few per cent). They agree within 15%: Urban's r = 0.4 is fitted to
    // thin-layer data, not to this limit.
    MaterialParams const lar = *builtin_material("liquid_argon");
    UrbanMaterial const m = make_urban_material(18.0, lar.mean_excitation);
    double const T = 10.0, cut = 0.3, s = 5.7e-3;
    double const mean = restricted_electron_dedx(lar, false, T, cut) * s;
    Kinematics const k = electron(T);
    double const t_max = 0.5 * T;  // Moller
    double const bohr = 0.5 * 0.307075 * lar.z_over_a * lar.density * 1e-3 * s * 100 * cut / k.beta2 *
                        (1 - k.beta2 * cut / (2 * t_max));
    double const urban = urban_variance(m, mean, k.bg2, k.beta2, cut);
    MESSAGE("mean loss " << mean << " MeV: Urban variance " << urban << ", restricted Bohr " << bohr);
    CHECK(urban / bohr == test::relative(1.0, 0.15));
}
