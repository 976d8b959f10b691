// One step of the classical fourth-order Runge-Kutta method (Hairer, Norsett and Wanner, Solving
// Ordinary Differential Equations I, eq. II.1.9) for a state of six doubles: its stages and weights
// written once, in the operation order the field-map elements (RungeKuttaInS.hh) and the t-code
// (TimeCode.hh) keep so that the CPU and the GPU give the same bits.
#pragma once

#include "kernels/core/Macros.hh"

namespace gt {

//! y + a k, component by component; `State` is an aggregate of six doubles.
template <class State>
GT_HOST_DEVICE GT_FORCEINLINE State rk4_axpy(State const& y, double a, State const& k)
{
    auto const& [y0, y1, y2, y3, y4, y5] = y;
    auto const& [k0, k1, k2, k3, k4, k5] = k;
    return State{y0 + a * k0, y1 + a * k1, y2 + a * k2, y3 + a * k3, y4 + a * k4, y5 + a * k5};
}

//! v + h6 (a + 2 (b + c) + d): one component of the RK4 update, h6 = h / 6.
GT_HOST_DEVICE GT_FORCEINLINE void rk4_add(double& v, double h6, double a, double b, double c, double d)
{
    v += h6 * (a + 2.0 * (b + c) + d);
}

//! Advances y of y' = f(y, t) from t by h. `State` is an aggregate of six doubles and `f(y, t)`
//! returns dy/dt as one; the four stages are evaluated in order.
template <class State, class Derivative>
GT_HOST_DEVICE GT_FORCEINLINE void runge_kutta4_step(State& y, double t, double h, Derivative const& f)
{
    double const half = 0.5 * h;
    State const k1 = f(y, t);
    State const k2 = f(rk4_axpy(y, half, k1), t + half);
    State const k3 = f(rk4_axpy(y, half, k2), t + half);
    State const k4 = f(rk4_axpy(y, h, k3), t + h);
    double const h6 = h / 6.0;
    auto& [y0, y1, y2, y3, y4, y5] = y;
    auto const& [a0, a1, a2, a3, a4, a5] = k1;
    auto const& [b0, b1, b2, b3, b4, b5] = k2;
    auto const& [c0, c1, c2, c3, c4, c5] = k3;
    auto const& [d0, d1, d2, d3, d4, d5] = k4;
    rk4_add(y0, h6, a0, b0, c0, d0);
    rk4_add(y1, h6, a1, b1, c1, d1);
    rk4_add(y2, h6, a2, b2, c2, d2);
    rk4_add(y3, h6, a3, b3, c3, d3);
    rk4_add(y4, h6, a4, b4, c4, d4);
    rk4_add(y5, h6, a5, b5, c5, d5);
}

}  // namespace gt
