// Published measurements of multiple scattering and backscattering, typed in with their sources, and
// the slab runs that reproduce each (SlabMeasurementSupport.hh). Used by SlabMeasurementsTest.cc (CI,
// reduced statistics) and SlabMeasurementsLongTest.cc (label long).
#pragma once

#include <cmath>
#include <string>

#include <fmt/format.h>

#include "HansonFoilSupport.hh"
#include "SlabMeasurementSupport.hh"
#include "deck/Materials.hh"
#include "detector/MaterialComposition.hh"
#include "kernels/physics/MultipleScattering.hh"

namespace gt::test {

// ---------------------------------------------------------------------------------------------------
// Protons. B. Gottschalk, A. M. Koehler, R. J. Schneider, J. M. Sisterson and M. S. Wagner, "Multiple
// Coulomb scattering of 160 MeV protons", Nucl. Instr. Meth. B74 (1993) 467: 158.6 MeV protons,
// theta_0 of a Gaussian fitted to the projected-angle distribution behind slabs. The one value typed
// in here is the one we could cite in full (thickness, theta_0 and its quoted uncertainty): aluminium,
// 0.2160 g/cm^2, theta_0 = 3.534 +- 0.491 mrad, as transcribed from the paper in Geant4's TestEm5
// example (examples/extended/electromagnetic/TestEm5/gottsch.mac, "B.Gottschalk et al. NIM B74 (1993)
// page 467"). The paper's full table (Be, C, Al, Cu, Pb, ... of several thicknesses) we could not find
// in a public text we could read, and typed in nothing we could not cite.
// What theta_0 is: the width of a Gaussian fitted to the projected-angle distribution (TestEm5's note:
// exp(-0.5 (th/th0)^2)), i.e. to its core, the Gaussian approximation to Molière's theory, theta_0 =
// theta_1/e / sqrt(2) of Hanson et al. (B. Gottschalk, "Radiotherapy proton interactions in matter",
// arXiv:1804.00022, section 4, which calls Molière's theory correct to 1% for protons). By hand for
// this slab (numpy, the formulas of MoliereScattering.hh; chi_c = 1.625 mrad, B = 11.09 at 158.6 MeV):
// Molière's core 3.638 mrad (+2.9%; Hanson's B - 1.2 fit 3.614, +2.3%), Lynch & Dahl (F = 0.98)
// 3.833 (+8.5%), Highland in the PDG form (ln(x z^2 / (X0 beta^2))) 3.818 (+8.0%). Lynch & Dahl's
// Gaussian is fitted to the central 98% of Molière's distribution, which in this thin slab (x/X0 =
// 0.009) takes in the single-scattering tail; the core is narrower. So protons, muons and pions now
// scatter with Molière's core width (MultipleScattering.hh, moliere_scatter). The energy lost in the
// slab (0.9 MeV) widens theta_0 by 0.3%.
// Measured here: 16000 protons (CI) 3.624 mrad (+2.5%); 40000 (SlabMeasurementsLongTest.cc) 3.643
// (+3.1%, statistical error 0.55%), Highland's model 3.824 (+8.2%); before this round (Lynch & Dahl)
// 3.838 (+8.6%).
struct GottschalkSlab {
    char const* material;
    double density;  //!< [g/cm^3], gtrack's built-in value (the slab is given as a mass thickness)
    double g_cm2;
    double theta0_mrad;
    double error_mrad;  //!< the uncertainty quoted with theta0_mrad
};
inline constexpr GottschalkSlab k_gottschalk_slabs[] = {{"aluminium", 2.699, 0.2160, 3.534, 0.491}};
inline constexpr double k_gottschalk_mev = 158.6;

//! theta_0 [rad] of `events` protons behind the slab.
inline double gottschalk_theta0(GottschalkSlab const& s, int events, char const* model)
{
    SlabBeam const b{s.material,
                     s.density,
                     s.g_cm2,
                     "proton",
                     k_gottschalk_mev,
                     events,
                     fmt::format("msc_model = \"{}\"\n", model)};
    return projected_theta0(run_slab(b));
}

//! Molière's theory by itself for the slab: the plane width theta_1/e / sqrt(2) of the central part
//! (moliere_core_sq, the width gtrack's e+- sampler uses), with the energy at the slab's entrance.
inline double gottschalk_moliere_theta0(GottschalkSlab const& s)
{
    MaterialParams m = *builtin_material(s.material);
    set_moliere_constants(m, material_composition(s.material, m.density, {}));
    ParticleType const p{constants::proton_mass_mev, 1.0, 0};
    MoliereAngles const a = moliere_angles(m, p, k_gottschalk_mev);
    double const t = s.g_cm2 / s.density * 1.0e-2;  // [m]
    return std::sqrt(0.5 * moliere_core_sq(a.chic2_per_m * t, a.ln_chia2));
}

//! The statistical standard error (relative) of projected_theta0 for `events` protons: 1.1 / sqrt(n),
//! from 300 repetitions of the fit on n pairs of Gaussian angles (numpy: 1.68%, 0.89%, 0.54% at
//! n = 4000, 16000, 40000; mean bias below 0.15%).
inline double gottschalk_stat_error(int events) { return 1.1 / std::sqrt(static_cast<double>(events)); }

//! Relative tolerance against the measurement: the 3% plus the measurement's quoted uncertainty
//! (0.491 mrad, 14%, as transcribed; we could not check it against the paper) plus three statistical
//! standard errors. Highland's width (+8%) also passes it: the quoted uncertainty is that wide.
inline double gottschalk_tolerance(GottschalkSlab const& s, int events)
{
    return 0.03 + s.error_mrad / s.theta0_mrad + 3.0 * gottschalk_stat_error(events);
}

//! Relative tolerance of the target, 3% of the measured value, plus three statistical standard
//! errors of our width (not the measurement's quoted uncertainty): Molière's core (+2.9%) meets it,
//! Highland's and Lynch & Dahl's widths (+8%) fail it from 16000 protons on (5.6% there).
inline double gottschalk_target_tolerance(int events) { return 0.03 + 3.0 * gottschalk_stat_error(events); }

//! Relative tolerance of the transport against Molière's core computed by hand at the entrance energy
//! (gottschalk_moliere_theta0): three statistical standard errors plus 0.5% for the energy lost in the
//! slab (+0.3%). Highland's width (+5% from the core) fails it from 16000 protons on.
inline double gottschalk_core_tolerance(int events) { return 0.005 + 3.0 * gottschalk_stat_error(events); }

// ---------------------------------------------------------------------------------------------------
// Electrons, a second measurement beside Hanson's: L. A. Kulchitsky and G. D. Latyshev, "The multiple
// scattering of fast electrons", Phys. Rev. 61 (1942) 254 (TestEm5 writes 1941): 2.25 MeV electrons
// through 26.60 mg/cm^2 of aluminium, theta_1/e = 9.50 +- 0.40 degrees of the distribution per solid angle,
// as transcribed in Geant4's TestEm5 example (examples/extended/electromagnetic/TestEm5/kulchi.mac).
struct KulchitskyFoil {
    double g_cm2;
    double mev;
    double theta1e_deg;
    double error_deg;
};
inline constexpr KulchitskyFoil k_kulchitsky{26.60e-3, 2.25, 9.50, 0.40};

//! theta_1/e [rad] of `events` electrons behind the foil, crossed in at most `steps` steps.
inline double kulchitsky_theta1e(int events, char const* model, int steps = 1)
{
    SlabBeam b{"aluminium",
               2.699,
               k_kulchitsky.g_cm2,
               "e-",
               k_kulchitsky.mev,
               events,
               fmt::format("msc_model = \"{}\"\n", model)};
    if (steps > 1) b.physics += fmt::format("max_step = {}\n", slab_thickness_m(b) / steps);
    return theta_1e(polar_angles(run_slab(b)));
}

//! Relative tolerance: the quoted 4.2% plus three statistical standard errors of the fitted width
//! (HansonFoilTest.cc measured 1.2% at 20000 electrons, so 1.2% sqrt(20000 / n)), plus the model's
//! own: Molière's theory was within 2.3% of Hanson's measurement (MultipleScatteringTest.cc).
inline double kulchitsky_tolerance(int events)
{
    return k_kulchitsky.error_deg / k_kulchitsky.theta1e_deg + 3.0 * 0.012 * std::sqrt(20000.0 / events) +
           0.023;
}

// ---------------------------------------------------------------------------------------------------
// Electron backscattering. G. J. Lockwood, L. E. Ruggles, G. H. Miller and J. A. Halbleib, "Electron
// energy and charge albedos - calorimetric measurement vs Monte Carlo theory", Sandia report
// SAND80-1968 (1981): the number of electrons
// reflected per incident electron from thick aluminium at normal incidence, 1.033, 0.521 and 0.314 MeV
// (values as tabulated from Lockwood et al. in the FRENSIE code's validation data,
// github.com/psbritt/FRENSIE-tests, electron/albedo/Al/experimental_results/lockwood.tsv).
struct LockwoodAlbedo {
    double mev;
    double eta;  //!< backscattered electrons per incident electron
};
inline constexpr LockwoodAlbedo k_lockwood_al[] = {{1.033, 0.092}, {0.521, 0.111}, {0.314, 0.122}};

//! What comes back out of a 1 g/cm^2 aluminium slab (more than the CSDA range, 0.55 g/cm^2 at 1 MeV
//! (ESTAR), so nothing is transmitted) per incident electron, with showers (the e+- transport with
//! energy-loss fluctuations, delta rays and bremsstrahlung) down to 10 keV: the primaries, and every
//! electron (delta rays too; a photon leaves no hit in the vacuum plane). Lockwood et al.'s is a charge
//! albedo, the charge leaving the front face, so secondary electrons count; here they add 3-6% to the
//! primaries' fraction.
struct Albedo {
    double primaries, all;
};
inline Albedo lockwood_albedo(LockwoodAlbedo const& a, int events, char const* model)
{
    SlabBeam const b{
        "aluminium",
        2.699,
        1.0,
        "e-",
        a.mev,
        events,
        fmt::format("showers = true\nenergy_cut = \"10 keV\"\nrange_cut = \"10 um\"\nmsc_model = \"{}\"\n",
                    model)};
    auto const o = run_slab(b);
    double const n = static_cast<double>(o.events);
    return {static_cast<double>(o.backscattered) / n, static_cast<double>(o.backscattered_all) / n};
}

//! Why the default model reflects too few: shower e+- (msc_model = "moliere") scatter with Highland's
//! Gaussian width, the width of a layer's core, which in the thin first steps below a surface is far
//! below the mean deflection 1 - <cos theta> = 1 - exp(-s / lambda_1) that transport theory requires
//! (the single-scattering tail carries the rest, and a Gaussian has none); the electrons that would
//! turn back near the surface go on. 10000 electrons (SlabMeasurementsLongTest.cc), every electron
//! counted: 0.0701, 0.0859, 0.0994 primaries at 1.033, 0.521, 0.314 MeV (ratios 0.762, 0.774, 0.815;
//! with the secondaries about 0.79, 0.79, 0.83). Tried (4000 electrons each, primaries / all): the
//! exact mean on Highland's Gaussian, exp(a cos theta) with <cos theta> = exp(-s / lambda_1): 0.079 /
//! 0.083, 0.103 / 0.106, 0.108 / 0.110, but Hanson's foils with showers 42% too wide; Molière's central
//! part and single-scattering tail (the e+- model of the plain transport) with Highland's lambda_1 as
//! its mean (msc_model = "moliere_all"; 10000 electrons): 0.0835 / 0.0893, 0.1043 / 0.1082, 0.1200 /
//! 0.1223 (every electron: -2.9%, -2.5%, +0.2%), and Hanson's foils with showers -2.4% and +3.6%. The step
//! limit is converged (msc_range_factor 0.01: the same as 0.04). "moliere_all" is not the default: lead
//! showers' 90% radius grows by 4% (ShowerProfileTest's r90 / R_M from +13% to +18%, against its 15%), though
//! against Geant4's TestEm2 (5 GeV e- in PbWO4) r90 comes out 2.973 X0 for Geant4's 2.970 (Highland: 2.895).
//! Tolerances: the default model, the documented bias (ratio of primaries 0.78 within the spread over
//! 0.3-1 MeV plus three binomial standard errors), so that a change either way shows; "moliere_all",
//! every electron within the 10% plus three binomial standard errors.
inline constexpr double k_lockwood_bias = 0.78;
inline constexpr double k_lockwood_bias_halfwidth = 0.05;
inline double lockwood_binomial(LockwoodAlbedo const& a, int events)
{
    return std::sqrt(a.eta * (1 - a.eta) / events) / a.eta;
}
inline double lockwood_ratio_tolerance(LockwoodAlbedo const& a, int events)
{
    return k_lockwood_bias_halfwidth + 3.0 * lockwood_binomial(a, events);
}
inline double lockwood_target_tolerance(LockwoodAlbedo const& a, int events)
{
    return 0.10 + 3.0 * lockwood_binomial(a, events);
}

}  // namespace gt::test
