// The field of a finite ideal solenoid (a cylindrical current sheet), exact everywhere off the sheet.
//
// Derby & Olbert, "Cylindrical magnets and ideal solenoids", Am. J. Phys. 78 (2010) 229, eqs. 5-6:
// with z+- = z -+ ... (see below), the radial and axial components are combinations of Bulirsch's
// general complete elliptic integral cel(kc, p, c, s) (R. Bulirsch, Numer. Math. 13 (1969) 305),
// evaluated here by its quadratically converging iteration (+ - * / and sqrt only).
#pragma once

#include "kernels/core/Types.hh"
#include "kernels/geometry/Vec3.hh"

namespace gt {

//! Bulirsch's cel(kc, p, c, s) = int_0^{pi/2} (c cos^2 + s sin^2) / ((cos^2 + p sin^2)
//! sqrt(cos^2 + kc^2 sin^2)) dphi, for kc != 0.
GT_HOST_DEVICE inline double bulirsch_cel(double kc, double p, double c, double s)
{
    double k = fabs(kc);
    double pp = p, cc = c, ss = s, em = 1.0;
    if (p > 0) {
        pp = pmath::sqrt(p);
        ss = s / pp;
    } else {
        double f = kc * kc;
        double q = 1.0 - f;
        double const g = 1.0 - pp;
        f = f - pp;
        q = q * (ss - c * pp);
        pp = pmath::sqrt(f / g);
        cc = (c - ss) / g;
        ss = -q / (g * g * pp) + cc * pp;
    }
    double f = cc;
    cc = cc + ss / pp;
    double g = k / pp;
    ss = 2.0 * (ss + f * g);
    pp = g + pp;
    g = em;
    em = k + em;
    double kk = k;
    for (int it = 0; it < 40 && fabs(g - k) > g * 1.0e-12; ++it) {
        k = 2.0 * pmath::sqrt(kk);
        kk = k * em;
        f = cc;
        cc = cc + ss / pp;
        g = kk / pp;
        ss = 2.0 * (ss + f * g);
        pp = g + pp;
        g = em;
        em = k + em;
    }
    return 0.5 * constants::pi * (ss + cc * em) / (em * (em + pp));
}

struct SolenoidField {
    double b0 = 0;           //!< field of the infinitely long solenoid, mu0 n I [T]
    double radius = 0;       //!< [m]
    double half_length = 0;  //!< [m]
    Vec3 center;             //!< the axis is parallel to z through center [m]

    GT_HOST_DEVICE Vec3 operator()(Vec3 pos) const
    {
        double const x = pos.x - center.x, y = pos.y - center.y, z = pos.z - center.z;
        double const rho = pmath::sqrt(x * x + y * y);
        double const a = radius, b = half_length;
        double const bdo = b0 / constants::pi;  // Derby & Olbert's B0 = mu0 n I / pi
        double const zp = z + b, zm = z - b;
        double const dp = pmath::sqrt(zp * zp + (rho + a) * (rho + a));
        double const dm = pmath::sqrt(zm * zm + (rho + a) * (rho + a));
        double const kp = pmath::sqrt(zp * zp + (a - rho) * (a - rho)) / dp;
        double const km = pmath::sqrt(zm * zm + (a - rho) * (a - rho)) / dm;
        if (kp == 0 || km == 0) return {0, 0, 0};  // on the edge of the current sheet
        double const gamma = (a - rho) / (a + rho);
        double const bz = bdo * a / (a + rho) *
                          (zp / dp * bulirsch_cel(kp, gamma * gamma, 1.0, gamma) -
                           zm / dm * bulirsch_cel(km, gamma * gamma, 1.0, gamma));
        if (rho == 0) return {0, 0, bz};
        double const br =
            bdo * (a / dp * bulirsch_cel(kp, 1.0, 1.0, -1.0) - a / dm * bulirsch_cel(km, 1.0, 1.0, -1.0));
        return {br * x / rho, br * y / rho, bz};
    }
};

}  // namespace gt
