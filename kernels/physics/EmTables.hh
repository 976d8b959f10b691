// The shower physics tables of a detector run: per material, macroscopic cross sections, restricted
// stopping powers and ranges of e-, e+ and photons on one logarithmic energy grid, built once on the
// host at set-up (src/detector/EmTableBuilder.cc) and read by the step actions on either backend
// (the same bits on CPU and GPU), plus the production thresholds and the photoelectric intervals.
#pragma once

#include <cstdint>

#include "kernels/core/PortableMath.hh"
#include "kernels/physics/Photoelectric.hh"
#include "kernels/physics/UrbanFluctuation.hh"

namespace gt {

//! What the tables hold for each material, in this order.
enum EmQuantity : int {
    q_gamma_compton = 0,  //!< [1/m]
    q_gamma_pair,         //!< [1/m]
    q_electron_dedx,   //!< restricted stopping power: ionization below the e- cut + bremsstrahlung below the
                       //!< gamma cut [MeV/m]
    q_electron_range,  //!< range from that stopping power [m]
    q_electron_ioni,   //!< delta rays above the cut [1/m]
    q_electron_brems,  //!< photons above the gamma cut [1/m]
    q_positron_dedx,
    q_positron_range,
    q_positron_ioni,
    q_positron_brems,
    q_positron_annihilation,  //!< [1/m]
    q_num_quantities
};

//! Per material: production thresholds and what the interactions need besides the tables.
struct EmMaterial {
    double cut_gamma = 0;     //!< photon production threshold [MeV]
    double cut_electron = 0;  //!< delta-ray production threshold [MeV]
    double z_sampling = 1;    //!< atomic number used to sample bremsstrahlung and pair final states
    std::int32_t pe_offset = 0, pe_count = 0;  //!< its photoelectric intervals
    UrbanMaterial urban;                       //!< energy-loss fluctuations (UrbanFluctuation.hh)
};

struct EmTablesView {
    std::int32_t n_energy = 0;
    double log_e_min = 0;            //!< ln of the grid's first energy [MeV]
    double inv_dlog = 0;             //!< 1 / (ln spacing)
    double e_min = 0, e_max = 0;     //!< [MeV]
    double const* values = nullptr;  //!< [material][quantity][energy]
    EmMaterial const* materials = nullptr;
    PhotoelectricInterval const* photoelectric = nullptr;

    GT_HOST_DEVICE double const* row(int material, int q) const
    {
        return values + (static_cast<std::int64_t>(material) * q_num_quantities + q) * n_energy;
    }

    //! The grid position of E: bin index and the fraction in ln E (clamped to the grid).
    GT_HOST_DEVICE void locate(double E, int& i, double& w) const
    {
        double x = (pmath::log(E) - log_e_min) * inv_dlog;
        if (x < 0) x = 0;
        if (x > n_energy - 1.000001) x = n_energy - 1.000001;
        i = static_cast<int>(x);
        w = x - i;
    }

    //! Linear interpolation in ln E.
    GT_HOST_DEVICE double value(int material, int q, double E) const
    {
        int i = 0;
        double w = 0;
        locate(E, i, w);
        double const* r = row(material, q);
        return r[i] + w * (r[i + 1] - r[i]);
    }

    //! The energy whose range (quantity q_range) is R [m]: the exact inverse of value() in ln E.
    GT_HOST_DEVICE double energy_of_range(int material, int q_range, double R) const
    {
        double const* r = row(material, q_range);
        if (R <= r[0]) return e_min * (R > 0 ? R / r[0] : 0.0);  // below the grid: range ~ E
        int lo = 0, hi = n_energy - 1;
        if (R >= r[hi]) return e_max;
        while (hi - lo > 1) {
            int const mid = (lo + hi) / 2;
            if (r[mid] <= R)
                lo = mid;
            else
                hi = mid;
        }
        double const w = (R - r[lo]) / (r[lo + 1] - r[lo]);
        return pmath::exp(log_e_min + (lo + w) / inv_dlog);
    }

    //! Photoelectric macroscopic cross section [1/m] and the interval (for the binding energy).
    GT_HOST_DEVICE PhotoelectricInterval const& photoelectric_interval(int material, double E) const
    {
        EmMaterial const& m = materials[material];
        return find_photoelectric_interval(photoelectric + m.pe_offset, m.pe_count, E);
    }
};

}  // namespace gt
