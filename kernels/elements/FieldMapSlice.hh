// What every slice of a field-map element (AxialFieldMap, FieldMap3D) holds besides its field: where
// it lies, its RK4 steps, the RF phase, and the reference at its exit, which the host sets by
// tracking the reference through the same code (src/beam/RfCrest.hh).
#pragma once

#include <cstdint>

#include "kernels/core/Macros.hh"
#include "kernels/core/ParticleState.hh"

namespace gt {

struct FieldMapSlice {
    bool rf;                //!< the field oscillates at k_rf c
    double z_begin;         //!< [m] map coordinate of the slice entrance
    double length;          //!< [m]
    std::int32_t steps;     //!< RK4 steps over the slice
    double k_rf;            //!< [1/m] omega / c
    double phase;           //!< [rad] RF phase when the reference enters the element (crest offset included)
    double tau_begin;       //!< [m] c x (time of the reference at this slice - at the element entrance)
    double kappa;           //!< [1/V] q / (p0 c)
    double inv_beta0;       //!< [1] 1/beta of the entry reference
    double pt_ref_end;      //!< [1] the reference's pt at the exit, entry normalization
    double tau_ref_end;     //!< [m] the reference's tau at the exit
    double momentum_ratio;  //!< [1] p0 / p1

    //! Re-expresses p, pushed through the slice in entry-normalized absolute variables, relative to
    //! the reference after the slice (momentum p1).
    GT_HOST_DEVICE void relative_to_exit_reference(Particle& p) const
    {
        p.px *= momentum_ratio;
        p.py *= momentum_ratio;
        p.t -= tau_ref_end;
        p.pt = (p.pt - pt_ref_end) * momentum_ratio;
    }
};

}  // namespace gt
