// Shower physics tables, by numerical integration of the models at set-up.
#include "detector/EmTableBuilder.hh"

#include <algorithm>
#include <cmath>

#include "detector/PhotonCrossSections.hh"
#include "kernels/physics/Annihilation.hh"
#include "kernels/physics/Bremsstrahlung.hh"
#include "kernels/physics/MollerBhabha.hh"

namespace gt {

namespace {

constexpr double k_lowest_energy = 1.0e-3;  //!< [MeV] below which nothing is tabulated or produced
constexpr int k_simpson_intervals = 256;    //!< even; the integrands are smooth (tested to 1e-4)

//! Simpson's rule for f over [a, b].
template <class F>
double simpson(F const& f, double a, double b, int n = k_simpson_intervals)
{
    double const h = (b - a) / n;
    double s = f(a) + f(b);
    for (int i = 1; i < n; ++i) s += (i % 2 ? 4.0 : 2.0) * f(a + i * h);
    return s * h / 3.0;
}

double electron_density(std::vector<ElementComponent> const& elements)
{
    double n = 0;
    for (auto const& e : elements) n += e.electrons_per_m3;
    return n;
}

//! The effective atomic number of the fluctuation model: Z weighted by mass fraction (as Geant4's
//! G4IonisParamMat does for its fluctuation parameters).
double fluctuation_z(std::vector<ElementComponent> const& elements)
{
    double mass = 0, z = 0;
    for (auto const& e : elements) {
        mass += e.atoms_per_m3 * e.a;
        z += e.atoms_per_m3 * e.a * e.z;
    }
    return mass > 0 ? z / mass : 1.0;
}

//! The element that dominates bremsstrahlung and pair production: largest n Z (Z + xi).
double sampling_z(std::vector<ElementComponent> const& elements)
{
    double best = 0, z = 1;
    for (auto const& e : elements) {
        double const w = e.atoms_per_m3 * e.z * (e.z + electron_field_xi(e.z));
        if (w > best) {
            best = w;
            z = e.z;
        }
    }
    return z;
}

//! Range by integrating 1/dedx in ln T from k_lowest_energy (range there: T/S) [m].
template <class Dedx>
double range_of(Dedx const& dedx, double T)
{
    double const t0 = k_lowest_energy;
    double r = t0 / dedx(t0);
    if (T <= t0) return T / dedx(T);
    r += simpson(
        [&](double u) {
            double const t = std::exp(u);
            return t / dedx(t);
        },
        std::log(t0), std::log(T));
    return r;
}

//! The energy in [lo, hi] where f (increasing) reaches target, by bisection in ln E.
template <class F>
double solve_increasing(F const& f, double target, double lo, double hi)
{
    if (f(lo) >= target) return lo;
    if (f(hi) <= target) return hi;
    for (int it = 0; it < 100; ++it) {
        double const mid = std::sqrt(lo * hi);
        (f(mid) < target ? lo : hi) = mid;
        if (hi / lo - 1.0 < 1e-10) break;
    }
    return std::sqrt(lo * hi);
}

}  // namespace

double radiative_dedx(std::vector<ElementComponent> const& elements, double T, double k_max)
{
    double const kmax = std::min(k_max, T);
    if (kmax <= 0) return 0.0;
    double s = 0;
    for (auto const& e : elements)
        s += e.atoms_per_m3 * simpson([&](double k) { return brems_k_dsigma_dk(e.z, T, k); }, 0.0, kmax);
    return s;
}

double brems_macroscopic(std::vector<ElementComponent> const& elements, double T, double k_cut)
{
    if (k_cut >= T) return 0.0;
    double s = 0;
    for (auto const& e : elements)
        s += e.atoms_per_m3 * simpson([&](double u) { return brems_k_dsigma_dk(e.z, T, std::exp(u)); },
                                      std::log(k_cut), std::log(T));
    return s;
}

double csda_range(EmMaterialInput const& m, bool positron, double T)
{
    ParticleType const lepton{em::k_me, positron ? 1.0 : -1.0, 1};
    auto dedx = [&](double t) { return mean_dedx(m.params, lepton, t) + radiative_dedx(m.elements, t, t); };
    return range_of(dedx, T);
}

double electron_cut_energy(EmMaterialInput const& m, double range_cut)
{
    if (m.elements.empty()) return k_lowest_energy;
    ParticleType const electron{em::k_me, -1.0, 1};
    auto range = [&](double t) {
        return range_of([&](double u) { return mean_dedx(m.params, electron, u); }, t);
    };
    return solve_increasing(range, range_cut, k_lowest_energy, 1.0e4);
}

double photon_cut_energy(EmMaterialInput const& m, double range_cut)
{
    if (m.elements.empty()) return k_lowest_energy;
    auto const pe = photoelectric_intervals(m.elements, m.name);
    // the photon's mean free path grows with energy up to the pair threshold: solve below it
    auto five_mfp = [&](double E) {
        double const mu = compton_macroscopic(m.elements, E) + pair_macroscopic(m.elements, E) +
                          photoelectric_macroscopic(pe, E);
        return 5.0 / mu;
    };
    return solve_increasing(five_mfp, range_cut, k_lowest_energy, 1.0);
}

EmTableData build_em_tables(std::vector<EmMaterialInput> const& materials, EmTableSettings const& settings)
{
    EmTableData t;
    double const decades = std::log10(settings.e_max / settings.e_min);
    t.n_energy = static_cast<std::int32_t>(std::lround(decades * settings.per_decade)) + 1;
    t.e_min = settings.e_min;
    t.e_max = settings.e_max;
    t.log_e_min = std::log(settings.e_min);
    t.inv_dlog = (t.n_energy - 1) / (std::log(settings.e_max) - t.log_e_min);
    std::vector<double> energy(t.n_energy);
    for (int i = 0; i < t.n_energy; ++i) energy[i] = std::exp(t.log_e_min + i / t.inv_dlog);
    energy.back() = settings.e_max;
    t.values.assign(materials.size() * q_num_quantities * t.n_energy, 0.0);
    for (std::size_t mi = 0; mi < materials.size(); ++mi) {
        EmMaterialInput const& m = materials[mi];
        EmMaterial em_mat;
        auto row = [&](int q) { return t.values.data() + (mi * q_num_quantities + q) * t.n_energy; };
        if (!m.elements.empty()) {
            auto const pe = photoelectric_intervals(m.elements, m.name);
            em_mat.pe_offset = static_cast<std::int32_t>(t.photoelectric.size());
            em_mat.pe_count = static_cast<std::int32_t>(pe.size());
            t.photoelectric.insert(t.photoelectric.end(), pe.begin(), pe.end());
            em_mat.cut_gamma = photon_cut_energy(m, settings.range_cut);
            em_mat.cut_electron = electron_cut_energy(m, settings.range_cut);
            em_mat.z_sampling = sampling_z(m.elements);
            em_mat.urban = make_urban_material(fluctuation_z(m.elements), m.params.mean_excitation);
            double const n_el = electron_density(m.elements);
            for (int q = 0; q < 2; ++q) {
                bool const positron = q == 1;
                int const base = positron ? q_positron_dedx : q_electron_dedx;
                auto dedx = [&](double T) {
                    return restricted_electron_dedx(m.params, positron, T, em_mat.cut_electron) +
                           radiative_dedx(m.elements, T, em_mat.cut_gamma);
                };
                for (int i = 0; i < t.n_energy; ++i) {
                    double const T = energy[i];
                    row(base)[i] = dedx(T);
                    row(base + 2)[i] = n_el * delta_ray_per_electron(positron, T, em_mat.cut_electron);
                    row(base + 3)[i] = brems_macroscopic(m.elements, T, em_mat.cut_gamma);
                    if (positron) row(q_positron_annihilation)[i] = n_el * annihilation_per_electron(T);
                }
                // the range: cumulative integral of 1/dedx in ln T between grid points
                double* r = row(base + 1);
                r[0] = energy[0] / dedx(energy[0]);
                for (int i = 1; i < t.n_energy; ++i)
                    r[i] = r[i - 1] + simpson(
                                          [&](double u) {
                                              double const e = std::exp(u);
                                              return e / dedx(e);
                                          },
                                          std::log(energy[i - 1]), std::log(energy[i]), 16);
            }
            for (int i = 0; i < t.n_energy; ++i) {
                row(q_gamma_compton)[i] = compton_macroscopic(m.elements, energy[i]);
                row(q_gamma_pair)[i] = pair_macroscopic(m.elements, energy[i]);
            }
        }
        t.materials.push_back(em_mat);
    }
    return t;
}

}  // namespace gt
