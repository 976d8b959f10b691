// Thin multipole of any order up to 20: normal and skew integrated strengths (MAD-X knl, ksl).
#pragma once

#include <cstdint>

#include "kernels/core/FusedMultiplyAdd.hh"
#include "kernels/core/LaneMask.hh"
#include "kernels/core/Macros.hh"
#include "kernels/core/ParticleState.hh"
#include "kernels/core/ReferenceParticle.hh"

namespace gt {

inline constexpr int k_multipole_terms = 21;  //!< orders n = 0 (dipole) ... 20

//! MAD-X MULTIPOLE (MAD-X user guide, "Multipole"; MAD-X physics guide, thin multipole kick):
//!   px -= Re sum_n (knl_n + i ksl_n) (x + i y)^n / n!,   py += Im sum_n (...)
//! so knl_1 = k1 L > 0 gives px -= k1 L x, py += k1 L y (horizontally focusing), knl_2 = k2 L gives
//! px -= k2 L (x^2 - y^2)/2, py += k2 L x y, ksl_1 gives px += ksl_1 y, py += ksl_1 x.
//! The kick on the normalized canonical momenta is the same for every momentum (strengths are
//! normalized to the reference rigidity; the chromatic effect enters through x' = px/(p/p_ref)).
//! Without `angle`, knl_0 is a plain kick px -= knl_0 and the reference orbit goes straight on.
//! With `angle` (a thin bend: MAD-X's MULTIPOLE bends its reference by knl_0, MAD-X user guide,
//! "Multipole"; MAKETHIN's slices of a sector bend of length L are knl_0 = angle = h L, lrad = L), the
//! reference turns by `angle` (towards -x for angle > 0, as a sector bend) and the kick is the thin-lens
//! limit of a sector-bend slice's Hamiltonian in curved coordinates with the square root expanded (the
//! curvature term -h x P and the dipole field's k0 (x + h x^2/2); Wolski, Beam Dynamics in High Energy
//! Particle Accelerators, ch. 3), integrated over lrad:
//!   V(x, pt) = -angle x P + knl_0 x + f x^2 / 2,   P = p/p_ref = sqrt(1 - 2 pt/beta + pt^2),
//!   f = knl_0 angle / lrad (0 when lrad = 0, as MAD-X),
//! px -= dV/dx, t += dV/dpt:
//!   px += angle P - knl_0 - f x,   t += angle x (1/beta - pt) / P   (dP/dpt = -(1/beta - pt)/P),
//! the longer path angle x of a particle outside the reference (x > 0) at its speed. A kick derived from
//! one potential: symplectic in all six coordinates. Its linear map is MAD-X's TWISS of the thin
//! multipole (R21 = -knl_0^2 / lrad, R26 = knl_0/beta, R51 = -knl_0/beta in MAD-X's T = -c t, PT = -pt;
//! read off cpymad's TWISS rmatrix). Evaluated by a complex Horner scheme with the 1/n! folded in on the
//! host.
struct Multipole {
    double normal[k_multipole_terms];  //!< [1/m^n] knl_n / n!
    double skew[k_multipole_terms];    //!< [1/m^n] ksl_n / n!
    std::int32_t terms;                //!< highest order with a non-zero coefficient + 1 (0: none)
    double angle;                      //!< [rad] the reference's bend (0: straight, the plain kick)
    double focusing;                   //!< [1/m] knl_0 angle / lrad (0 without lrad)
    double inv_beta;                   //!< [1] 1/beta of the reference (used with an angle only)

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
        m.angle = 0.0;
        m.focusing = 0.0;
        m.inv_beta = 1.0;
        return m;
    }

    //! This multipole as a thin bend: its reference turns by `angle` [rad], `lrad` [m] (>= 0) the length
    //! of the weak focusing knl_0 angle / lrad (0: none).
    Multipole bending(double bend_angle, double lrad, ReferenceParticle const& ref) const
    {
        Multipole m = *this;
        m.angle = bend_angle;
        m.focusing = lrad > 0.0 ? normal[0] * bend_angle / lrad : 0.0;
        m.inv_beta = 1.0 / ref.beta;
        return m;
    }

    //! One particle or a block of lanes (LaneMask.hh): kicks the particles of `live`; none is lost.
    template <class P, class M = bool>
    GT_HOST_DEVICE auto operator()(P& p, M live = true) const
    {
        using T = coordinate_t<P>;
        if (angle != 0.0) return bend(p, live);
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

  private:
    //! The thin bend (angle != 0): the field's kick and the curvature's terms above. A particle with
    //! P^2 <= 0 or 1/beta - pt <= 0 (no physical momentum, or NaN) is lost.
    template <class P, class M>
    GT_HOST_DEVICE auto bend(P& p, M live) const
    {
        using T = coordinate_t<P>;
        T const p2 = fma_rn(p.pt, p.pt - 2.0 * inv_beta, 1.0);  // 1 - 2 pt/beta + pt^2
        T const energy = inv_beta - p.pt;
        auto const ok = live && p2 > 0.0 && energy > 0.0;  // also false for NaN
        if (none_left(ok)) return ok;
        T re = 0.0, im = 0.0;
        if (terms > 0) {
            re = normal[terms - 1];
            im = skew[terms - 1];
            for (int n = terms - 2; n >= 0; --n) {
                T const r = fma_rn(re, p.x, fma_rn(-im, p.y, normal[n]));
                im = fma_rn(re, p.y, fma_rn(im, p.x, skew[n]));
                re = r;
            }
        }
        T const pn = sqrt_rn(p2);
        T const x = p.x;
        where(ok, p.px, fma_rn(angle, pn, fma_rn(-focusing, x, p.px - re)));
        where(ok, p.py, p.py + im);
        where(ok, p.t, fma_rn(angle * x, energy / pn, p.t));
        return ok;
    }
};

}  // namespace gt
