// One Dormand-Prince 5(4) Runge-Kutta step of a charged particle's equation of motion in a static
// magnetic field, with the embedded fourth-order solution's difference as the error estimate.
//
// J. R. Dormand and P. J. Prince, J. Comp. Appl. Math. 6 (1980) 19, table 2 (the DOPRI5 tableau).
// The independent variable is the path length s [m]; the state is position [m] and momentum
// [MeV/c]: dx/ds = p / |p|, dp/ds = k q (p / |p|) x B(x), with k = c * 1e-6 = 299.792458
// MeV/c per (e T m), and |p| fixed over the step (a magnetic field does no work).
#pragma once

#include "kernels/geometry/Vec3.hh"

namespace gt {

namespace field {
inline constexpr double k_mev_per_tm = 299.792458;  //!< c [m/s] x 1e-6: MeV/c per (e T m)
}  // namespace field

struct OdeState {
    Vec3 pos;  //!< [m]
    Vec3 mom;  //!< [MeV/c]
};

template <class Field>
struct DormandPrince {
    Field const& field;
    double charge;  //!< [e]
    double p;       //!< |momentum| over the step [MeV/c]

    GT_HOST_DEVICE OdeState derivative(OdeState const& y) const { return derivative(y, field(y.pos)); }

    //! The derivative at y where the field is b = field(y.pos).
    GT_HOST_DEVICE OdeState derivative(OdeState const& y, Vec3 b) const
    {
        double const inv_p = 1.0 / p;
        Vec3 const dir = inv_p * y.mom;
        return OdeState{dir, (field::k_mev_per_tm * charge) * cross(dir, b)};
    }

    //! Advances y by h; returns the fifth-order result and writes the error estimate.
    GT_HOST_DEVICE OdeState step(OdeState const& y, double h, OdeState& err) const
    {
        Vec3 b_end;
        return step(y, h, err, field(y.pos), b_end);
    }

    //! step() with the field at the start given (b0 = field(y.pos)) and the field at the end (at the
    //! returned position, the last stage's) written to b_end: a propagator passes a substep's b_end
    //! on as the next one's b0 and as its chord limit's field, 6 field evaluations per substep
    //! instead of 8. The field is a function of position only: the same bits as evaluating it again.
    GT_HOST_DEVICE OdeState step(OdeState const& y, double h, OdeState& err, Vec3 b0, Vec3& b_end) const
    {
        auto combine = [&](OdeState const* k, double const* a, int n) {
            OdeState r = y;
            for (int i = 0; i < n; ++i) {
                if (a[i] == 0) continue;
                r.pos = axpy(h * a[i], k[i].pos, r.pos);
                r.mom = axpy(h * a[i], k[i].mom, r.mom);
            }
            return r;
        };
        OdeState k[7];
        k[0] = derivative(y, b0);
        double const a2[] = {1.0 / 5.0};
        k[1] = derivative(combine(k, a2, 1));
        double const a3[] = {3.0 / 40.0, 9.0 / 40.0};
        k[2] = derivative(combine(k, a3, 2));
        double const a4[] = {44.0 / 45.0, -56.0 / 15.0, 32.0 / 9.0};
        k[3] = derivative(combine(k, a4, 3));
        double const a5[] = {19372.0 / 6561.0, -25360.0 / 2187.0, 64448.0 / 6561.0, -212.0 / 729.0};
        k[4] = derivative(combine(k, a5, 4));
        double const a6[] = {9017.0 / 3168.0, -355.0 / 33.0, 46732.0 / 5247.0, 49.0 / 176.0,
                             -5103.0 / 18656.0};
        k[5] = derivative(combine(k, a6, 5));
        double const b5[] = {35.0 / 384.0, 0.0, 500.0 / 1113.0, 125.0 / 192.0, -2187.0 / 6784.0, 11.0 / 84.0};
        OdeState const y5 = combine(k, b5, 6);
        b_end = field(y5.pos);
        k[6] = derivative(y5, b_end);
        // b5 - b4 (the fourth-order weights 5179/57600, 0, 7571/16695, 393/640, -92097/339200,
        // 187/2100, 1/40)
        double const e[] = {71.0 / 57600.0,      0.0,          -71.0 / 16695.0, 71.0 / 1920.0,
                            -17253.0 / 339200.0, 22.0 / 525.0, -1.0 / 40.0};
        err = OdeState{};
        for (int i = 0; i < 7; ++i) {
            if (e[i] == 0) continue;
            err.pos = axpy(h * e[i], k[i].pos, err.pos);
            err.mom = axpy(h * e[i], k[i].mom, err.mom);
        }
        return y5;
    }
};

}  // namespace gt
