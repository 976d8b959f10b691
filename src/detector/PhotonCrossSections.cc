// Macroscopic photon cross sections of a material.
#include "detector/PhotonCrossSections.hh"

#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>

#include "detector/PhotoelectricFits.hh"
#include "kernels/physics/ComptonScattering.hh"
#include "kernels/physics/PairProduction.hh"

namespace gt {

double compton_macroscopic(std::vector<ElementComponent> const& elements, double E)
{
    double mu = 0;
    for (auto const& e : elements) mu += e.atoms_per_m3 * compton_per_atom(e.z, E);
    return mu;
}

double pair_macroscopic(std::vector<ElementComponent> const& elements, double E)
{
    double mu = 0;
    for (auto const& e : elements) mu += e.atoms_per_m3 * pair_per_atom(e.z, E);
    return mu;
}

std::vector<PhotoelectricInterval> photoelectric_intervals(std::vector<ElementComponent> const& elements,
                                                           std::string const& material)
{
    std::vector<double> starts;
    for (auto const& e : elements) {
        auto const fit = photoelectric_fit(e.z);
        if (fit.empty()) {
            std::string have;
            for (int z : photoelectric_fit_elements()) have += (have.empty() ? "" : ", ") + std::to_string(z);
            throw std::invalid_argument(
                fmt::format("material '{}': element Z = {} has no photoelectric data for the shower physics "
                            "(elements with "
                            "data: Z = {}; see docs/physics.md)",
                            material, e.z, have));
        }
        for (auto const& iv : fit) starts.push_back(iv.e_low);
    }
    std::sort(starts.begin(), starts.end());
    starts.erase(std::unique(starts.begin(), starts.end()), starts.end());
    std::vector<PhotoelectricInterval> out;
    for (double e_low : starts) {
        PhotoelectricInterval m;
        m.e_low = e_low;
        for (auto const& e : elements) {
            auto const fit = photoelectric_fit(e.z);
            PhotoelectricInterval const& iv =
                find_photoelectric_interval(fit.data(), static_cast<int>(fit.size()), e_low);
            for (int k = 0; k < 4; ++k) m.a[k] += e.atoms_per_m3 * iv.a[k] * em::k_barn;
            m.edge = std::max(m.edge, iv.edge);
        }
        out.push_back(m);
    }
    return out;
}

double photoelectric_macroscopic(std::vector<PhotoelectricInterval> const& intervals, double E)
{
    if (intervals.empty()) return 0.0;
    return photoelectric_value(
        find_photoelectric_interval(intervals.data(), static_cast<int>(intervals.size()), E), E);
}

}  // namespace gt
