// Thin multipole of any order up to 20: normal and skew integrated strengths (MAD-X knl, ksl).
#pragma once

#include <cstdint>

#include "kernels/core/FusedMultiplyAdd.hh"
#include "kernels/core/LaneMask.hh"
#include "kernels/core/Macros.hh"
#include "kernels/core/ParticleState.hh"

namespace gt {

inline constexpr int k_multipole_terms = 21;  //!< orders n = 0 (dipole) ... 20

//! MAD-X MULTIPOLE (MAD-X user guide, "Multipole"; MAD-X physics guide, thin multipole kick):
//!   px -= Re sum_n (knl_n + i ksl_n) (x + i y)^n / n!,   py += Im sum_n (...)
//! so knl_1 = k1 L > 0 gives px -= k1 L x, py += k1 L y (horizontally focusing), knl_2 = k2 L gives
//! px -= k2 L (x^2 - y^2)/2, py += k2 L x y, ksl_1 gives px += ksl_1 y, py += ksl_1 x.
//! The kick on the normalized canonical momenta is the same for every momentum (strengths are
//! normalized to the reference rigidity; the chromatic effect enters through x' = px/(p/p_ref)).
//! knl_0 is a plain kick px -= knl_0: the reference orbit is not bent (unlike MAD-X, which bends
//! its reference by knl_0). Evaluated by a complex Horner scheme with the 1/n! folded in on the host.
struct Multipole {
    double normal[k_multipole_terms];  //!< [1/m^n] knl_n / n!
    double skew[k_multipole_terms];    //!< [1/m^n] ksl_n / n!
    std::int32_t terms;                //!< highest order with a non-zero coefficient + 1 (0: none)

    static Multipole make(double const* knl, int n_knl, double const* ksl, int n_ksl)
    {
        Multipole m;
        m.terms = 0;
        double factorial = 1.0;
        for (int n = 0; n < k_multipole_terms; ++n) {
            if (n > 0) factorial *= static_cast<double>(n);
            m.normal[n] = n < n_knl ? knl[n] / factorial : 0.0;
            m.skew[n] = n < n_ksl ? ksl[n] / factorial : 0.0;
            if (m.normal[n] != 0.0 || m.skew[n] != 0.0) m.terms = n + 1;
        }
        return m;
    }

    //! One particle or a block of lanes (LaneMask.hh): kicks the particles of `live`; none is lost.
    template <class P, class M = bool>
    GT_HOST_DEVICE auto operator()(P& p, M live = true) const
    {
        using T = coordinate_t<P>;
        if (terms == 0) return live && true;
        T re = normal[terms - 1];
        T im = skew[terms - 1];
        for (int n = terms - 2; n >= 0; --n) {
            T const r = fma_rn(re, p.x, fma_rn(-im, p.y, normal[n]));
            im = fma_rn(re, p.y, fma_rn(im, p.x, skew[n]));
            re = r;
        }
        where(live, p.px, p.px - re);
        where(live, p.py, p.py + im);
        return live && true;
    }
};

}  // namespace gt
