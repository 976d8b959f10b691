// The initial conditions of a ring study (dynamic aperture, frequency map): a polar or cartesian grid in
// (x, y) about the closed orbit of each momentum offset, made by the beam's generation like any beam
// (BeamSampler with DistributionKind::grid), so that both backends start from the same bits.
#pragma once

#include <cstdint>

#include "kernels/core/Macros.hh"
#include "kernels/core/ParticleState.hh"
#include "kernels/core/PortableMath.hh"

namespace gt {

//! The most momentum offsets one study grid holds (the sampler travels by value to the device).
inline constexpr int k_study_max_deltas = 16;

//! Particle id = (delta index * n_a + a index) * n_b + b index: the radius (or y) runs fastest, so that
//! one angle's radii are neighbours in the output.
struct StudyGrid {
    std::int32_t polar;    //!< 1: a = angle [rad], b = radius; 0: a = x, b = y
    std::int32_t n_a;      //!< angles (polar) or x values
    std::int32_t n_b;      //!< radii (polar) or y values
    std::int32_t n_delta;  //!< momentum offsets
    double a_min, a_step;  //!< [rad] (polar) or [unit of scale]
    double b_min, b_step;  //!< [unit of scale]
    double scale_x;        //!< [m] per grid unit in x: 1, or the beam's sigma_x (radii in sigmas)
    double scale_y;        //!< [m] per grid unit in y
    double orbit[k_study_max_deltas][4];  //!< closed orbit (x, px, y, py) of each offset [m, 1, m, 1]
    double pt[k_study_max_deltas];        //!< pt of each offset [1]

    GT_HOST_DEVICE std::uint64_t size() const
    {
        return static_cast<std::uint64_t>(n_delta) * static_cast<std::uint64_t>(n_a) *
               static_cast<std::uint64_t>(n_b);
    }
    GT_HOST_DEVICE double a_at(std::int64_t i) const { return a_min + static_cast<double>(i) * a_step; }
    GT_HOST_DEVICE double b_at(std::int64_t i) const { return b_min + static_cast<double>(i) * b_step; }

    //! Particle number `id` of the grid.
    GT_HOST_DEVICE Particle particle(std::uint64_t id) const
    {
        auto const nb = static_cast<std::uint64_t>(n_b), na = static_cast<std::uint64_t>(n_a);
        auto const ib = static_cast<std::int64_t>(id % nb);
        auto const ia = static_cast<std::int64_t>((id / nb) % na);
        auto const d = static_cast<int>(id / (nb * na));
        double u = 0, v = 0;
        if (polar) {
            double s = 0, c = 0;
            pmath::sincos(a_at(ia), s, c);
            double const r = b_at(ib);
            u = r * c;
            v = r * s;
        } else {
            u = a_at(ia);
            v = b_at(ib);
        }
        double const* o = orbit[d];
        return Particle{o[0] + scale_x * u, o[1], o[2] + scale_y * v, o[3], 0.0, pt[d]};
    }
};

}  // namespace gt
