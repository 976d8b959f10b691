// Electron and positron physics (kernels/physics/MollerBhabha.hh, Bremsstrahlung.hh,
// Annihilation.hh, and their integration in src/detector/EmTableBuilder.cc): CSDA ranges in water,
// silicon and lead against NIST ESTAR, the restricted stopping power's unrestricted limit, the
// radiative stopping power's high-energy limit E/X0, and the sampled final states.
#include <doctest/doctest.h>

#include <cmath>

#include "Relative.hh"
#include "deck/Materials.hh"
#include "detector/EmTableBuilder.hh"
#include "kernels/physics/Annihilation.hh"
#include "kernels/physics/Bremsstrahlung.hh"
#include "kernels/physics/MollerBhabha.hh"

using namespace gt;

namespace {

EmMaterialInput material(std::string const& name)
{
    MaterialParams const p = *builtin_material(name);
    return {name, p, material_composition(name, p.density, {})};
}

//! [g/cm^2]
double csda_g_cm2(EmMaterialInput const& m, double T)
{
    return csda_range(m, false, T) * m.params.density * 0.1;
}

}  // namespace

TEST_CASE("electron CSDA range in water within 5% of NIST ESTAR")
{
    // NIST ESTAR (Berger, Coursey, Zucker & Chang, NIST Standard Reference Database 124), liquid
    // water, CSDA range [g/cm^2]: 0.1 MeV 1.431E-02, 1 MeV 4.367E-01, 10 MeV 4.975E+00. The collision
    // part is ESTAR's own formula (ICRU 37; same I = 75 eV and density-effect parameters), so the
    // difference measures the radiative part (Bethe-Heitler against Seltzer-Berger, 2-4% of the total
    // stopping power at 10 MeV in water) and the integration: 5% covers both.
    EmMaterialInput const water = material("water");
    struct Ref {
        double T, range;
    };
    for (Ref const r : {Ref{0.1, 1.431e-2}, Ref{1.0, 4.367e-1}, Ref{10.0, 4.975}}) {
        CAPTURE(r.T);
        double const ours = csda_g_cm2(water, r.T);
        CAPTURE(ours);
        CHECK(std::fabs(ours / r.range - 1) < 0.05);
    }
}

TEST_CASE("electron CSDA range in silicon and lead within 5% of NIST ESTAR, 0.1 MeV to 1 GeV")
{
    // NIST ESTAR (M.J. Berger, J.S. Coursey, M.A. Zucker, J. Chang, NIST Standard Reference Database
    // 124, methods of ICRU Report 37), CSDA range [g/cm^2] on ESTAR's standard energy grid, for its
    // elemental media: silicon (I = 173.0 eV, 2.33 g/cm^3) and lead (I = 823.0 eV, 11.35 g/cm^3), the
    // same I and densities as Materials.cc. Transcribed from ESTAR's text output (copies of the
    // tables in the public repository jacyap/RangeCalc_ProtonsElectrons, Electrons_Silicon_NIST.txt and
    // Electrons_Lead_NIST.txt; silicon cross-checked against a second, independent ESTAR output).
    // The collision part is ESTAR's own formula (Bethe with Sternheimer's density effect), so
    // what is tested is the radiative part (screened Bethe-Heitler here against ESTAR's Seltzer-Berger
    // cross sections), which dominates above E_c (10 MeV in Pb, 45 MeV in Si), and the integration.
    // ESTAR states 1-2% for the collision and 2-5% for the radiative stopping power: 5% as asked.
    struct Ref {
        double T, si, pb;
    };
    EmMaterialInput const si = material("silicon"), pb = material("lead");
    for (Ref const r : {Ref{0.1, 1.822e-2, 3.113e-2}, Ref{1.0, 5.386e-1, 7.843e-1}, Ref{10.0, 5.642, 6.133},
                        Ref{100.0, 30.19, 18.94}, Ref{1000.0, 75.67, 33.73}}) {
        CAPTURE(r.T);
        double const ours_si = csda_g_cm2(si, r.T), ours_pb = csda_g_cm2(pb, r.T);
        CAPTURE(ours_si);
        CAPTURE(ours_pb);
        CHECK(std::fabs(ours_si / r.si - 1) < 0.05);
        CHECK(std::fabs(ours_pb / r.pb - 1) < 0.05);
    }
}

TEST_CASE("radiative stopping power tends to E/X0 at high energy")
{
    // In complete screening the Bethe-Heitler spectrum integrates to E/X0 times 1 + 1/(18 ln(184 Z^-1/3))
    // (Tsai, Rev. Mod. Phys. 46 (1974) 815, eq. 3.83: the (1-y)/9 term), i.e. 1.2-1.5%; X0 from the PDG
    // tables (Materials.cc). 3% allows for the Butcher-Messel constants against Tsai's.
    for (char const* name : {"lead", "silicon", "water", "iron"}) {
        CAPTURE(name);
        EmMaterialInput const m = material(name);
        double const E = 1.0e5;  // 100 GeV: complete screening for all but the hardest photons
        double const s = radiative_dedx(m.elements, E, E);
        CHECK(std::fabs(s * m.params.radiation_length / E / 1.013 - 1) < 0.03);
    }
}

TEST_CASE("restricted stopping power: the unrestricted limit is Berger-Seltzer, and it falls with the cut")
{
    MaterialParams const si = *builtin_material("silicon");
    ParticleType const e{em::k_me, -1, 1}, p{em::k_me, 1, 1};
    for (double T : {0.05, 1.0, 100.0}) {
        CAPTURE(T);
        // the identity of the two formulas at the kinematic limit: to rounding
        CHECK(restricted_electron_dedx(si, false, T, T) == test::relative(mean_dedx(si, e, T), 1e-12));
        CHECK(restricted_electron_dedx(si, true, T, 2 * T) == test::relative(mean_dedx(si, p, T), 1e-12));
        CHECK(restricted_electron_dedx(si, false, T, 0.01 * T) < mean_dedx(si, e, T));
    }
}

TEST_CASE("delta rays: Rutherford limit of Moller and Bhabha, sampled spectrum against the cross section")
{
    // for a small cut both tend to 2 pi r_e^2 m c^2 / (beta^2 T x_min) (free Coulomb scattering)
    double const T = 100.0, x = 1e-6;
    double const gamma = T / em::k_me + 1, beta2 = 1 - 1 / (gamma * gamma);
    double const rutherford = em::k_two_pi * em::k_re * em::k_re * em::k_me / (beta2 * T * x);
    CHECK(delta_ray_per_electron(false, T, x * T) == doctest::Approx(rutherford).epsilon(1e-4).scale(0));
    CHECK(delta_ray_per_electron(true, T, x * T) == doctest::Approx(rutherford).epsilon(1e-4).scale(0));
    // the fraction of delta rays above 10 x the cut equals the cross-section ratio
    for (bool positron : {false, true}) {
        CAPTURE(positron);
        double const cut = 0.1;
        double const expected =
            delta_ray_per_electron(positron, 10.0, 1.0) / delta_ray_per_electron(positron, 10.0, cut);
        RandomStream rng(5, positron ? 2 : 1);
        int const n = 100000;
        int above = 0;
        double worst = 0;
        for (int i = 0; i < n; ++i) {
            DeltaRayResult const d = sample_delta_ray(positron, 10.0, cut, {0, 0, 1}, rng);
            if (d.delta_energy > 1.0) ++above;
            worst = std::fmax(worst, std::fabs(d.delta_energy + d.primary_energy - 10.0));
        }
        double const sigma = std::sqrt(expected * (1 - expected) / n);
        CHECK(std::fabs(static_cast<double>(above) / n - expected) < 4 * sigma);  // statistical, 4 sigma
        CHECK(worst < 1e-12);
    }
}

TEST_CASE("bremsstrahlung sampling follows the differential cross section")
{
    // fraction of photons above T/2 among those above the cut, against the integrated cross section
    EmMaterialInput const pb = material("lead");
    double const T = 1000.0, cut = 1.0;
    double const expected = brems_macroscopic(pb.elements, T, T / 2) / brems_macroscopic(pb.elements, T, cut);
    RandomStream rng(9, 9);
    int const n = 100000;
    int above = 0;
    for (int i = 0; i < n; ++i)
        if (sample_bremsstrahlung(82, T, cut, {0, 0, 1}, rng).photon_energy > T / 2) ++above;
    double const sigma = std::sqrt(expected * (1 - expected) / n);
    CHECK(std::fabs(static_cast<double>(above) / n - expected) < 4 * sigma);
}

TEST_CASE("annihilation conserves energy and momentum; Heitler's cross section falls as ln(2 gamma)/gamma")
{
    RandomStream rng(4, 4);
    double const T = 5.0;
    double const p = std::sqrt(T * (T + 2 * em::k_me));
    for (int i = 0; i < 1000; ++i) {
        AnnihilationResult const a = sample_annihilation_in_flight(T, {0, 0, 1}, rng);
        CHECK(a.energy[0] + a.energy[1] == test::relative(T + 2 * em::k_me, 1e-14));
        Vec3 const ptot = axpy(a.energy[1], a.dir[1], a.energy[0] * a.dir[0]);
        CHECK(norm(ptot - Vec3{0, 0, p}) < 1e-9);
    }
    AnnihilationResult const r = sample_annihilation_at_rest(rng);
    CHECK(norm(r.dir[0] + r.dir[1]) < 1e-15);
    // high-energy limit pi r_e^2 (ln(2 gamma) - 1) / gamma
    double const gamma = 1.0e4;
    double const limit = em::k_pi * em::k_re * em::k_re * (std::log(2 * gamma) - 1) / gamma;
    CHECK(annihilation_per_electron((gamma - 1) * em::k_me) == doctest::Approx(limit).epsilon(1e-3).scale(0));
}
