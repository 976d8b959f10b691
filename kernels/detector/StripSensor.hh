// Double-sided silicon strip sensors (CBM STS-like): the flat tables the digitization and the
// reconstruction read, the records they produce, and the sensor physics they share (drift time,
// diffusion, the charge of a smeared line segment on a strip). docs/physics.md, "Strip sensors".
//
// Frames. A sensitive box volume is tiled into sensors of `strips * pitch` (u) by `length` (v),
// starting at its (-x, -y) corner. Sensor coordinates: u in [0, W), v in [0, L), z the volume's
// local z. Side 0 (front, p side, holes) is at z = -h, side 1 (back, n side, electrons) at z = +h.
// A strip of side s with stereo angle a_s through (u, v) crosses v = 0 at u - v tan(a_s): its strip
// number is floor of that over the pitch; on a stereo side (tan != 0) strips that leave the sensor
// at an edge continue at the other (cyclic numbering, as CBM's interconnected stereo strips).
#pragma once

#include <cstdint>

#include "kernels/core/Macros.hh"
#include "kernels/core/PortableMath.hh"
#include "kernels/geometry/Transform.hh"

namespace gt {

//! Signal keys and digi keys pack a global channel above a 40-bit time.
inline constexpr int k_strip_time_bits = 40;
inline constexpr std::uint64_t k_strip_time_mask = (std::uint64_t(1) << k_strip_time_bits) - 1;
inline constexpr std::uint64_t k_strip_max_channels = std::uint64_t(1) << (64 - k_strip_time_bits);
inline constexpr std::uint64_t k_strip_invalid = ~std::uint64_t(0);
//! Signal times are counted in ticks of 0.1 ns (2^40 of them: 110 s of free streaming).
inline constexpr double k_strip_signal_tick = 1.0e-10;
//! Salts that keep the strip random streams apart from the tracking ones (same run seed).
inline constexpr std::uint64_t k_strip_noise_salt = 0x5354532d6e6f6973ull;  // "STS-nois"
inline constexpr std::uint64_t k_strip_dead_salt = 0x5354532d64656164ull;   // "STS-dead"
inline constexpr std::uint64_t k_strip_event_salt = 0x5354532d65767473ull;  // "STS-evts"

//! One sensor type (every strip volume of a deck shares it), in SI units and electrons.
struct StripParams {
    double pitch = 58e-6;        //!< [m]
    std::int32_t strips = 1024;  //!< per side
    double length = 6.2e-2;      //!< sensor extent along v [m]
    double tan_stereo[2] = {0.0, 0.0};
    double mobility[2] = {0.0, 0.0};      //!< holes (side 0), electrons (side 1) [m^2/(V s)]
    double diffusion[2] = {0.0, 0.0};     //!< D = mu kT/e [m^2/s]; 0: no diffusion
    double v_dep = 70.0, v_bias = 140.0;  //!< [V]
    double cross_talk = 0.0;              //!< fraction of a strip's charge seen by each neighbour
    double pair_energy = 3.6e-6;          //!< [MeV] per electron-hole pair
    double noise = 1000.0;                //!< ENC [e]
    double threshold = 3000.0;            //!< [e]
    double dynamic_range = 75000.0;       //!< [e] above threshold
    std::int32_t adc_levels = 32;
    double time_resolution = 5e-9;  //!< [s]
    double dead_time = 800e-9;      //!< [s]: signals of one channel closer than this are one pulse
    double dead_fraction = 0.0;     //!< of the channels
    std::uint64_t seed = 0;

    GT_HOST_DEVICE double width() const { return pitch * strips; }
    GT_HOST_DEVICE double adc_step() const { return dynamic_range / adc_levels; }
    //! The charge a digi's ADC value stands for (the middle of its bin) [e].
    GT_HOST_DEVICE double charge_of_adc(std::uint32_t adc) const
    {
        return threshold + (static_cast<double>(adc) + 0.5) * adc_step();
    }
};

//! A sensitive box volume tiled into sensors.
struct StripVolume {
    Transform placement;  //!< volume local -> global
    double hx = 0, hy = 0, hz = 0;
    std::int32_t tiles_x = 0, tiles_y = 0;
    std::int32_t first_sensor = 0;
    std::int32_t logical = 0, replica = 0;
    //! Lorentz shift per unit drift length (u, v) of side s: r_H mu (B_y, -B_x) in the local frame.
    double lorentz[2][2] = {{0, 0}, {0, 0}};
};

//! What the strip kernels read; pointers in the backend's memory.
struct StripTablesView {
    StripParams p;
    StripVolume const* volumes = nullptr;
    //! strip volume of (logical l, replica r): logical_first[l] + r when 0 <= r < logical_count[l]
    std::int32_t const* logical_first = nullptr;
    std::int32_t const* logical_count = nullptr;
    std::int32_t num_logical = 0;
    std::int32_t const* sensor_volume = nullptr;  //!< strip volume of each sensor
    double const* event_time = nullptr;           //!< start of each event [s] (free streaming)
    std::uint64_t num_events = 0;

    GT_HOST_DEVICE std::int32_t volume_of(std::int32_t logical, std::int32_t replica) const
    {
        if (logical < 0 || logical >= num_logical) return -1;
        if (replica < 0 || replica >= logical_count[logical]) return -1;
        return logical_first[logical] + replica;
    }
};

//! A time-stamped charge on one strip: what the read-out sends (16 bytes, as the packed CBM digi's
//! two words: 8 of them are the time here).
struct StripDigi {
    std::uint64_t time = 0;     //!< [ns] since the start of the run
    std::uint32_t channel = 0;  //!< global: (2 sensor + side) strips + strip
    std::uint16_t adc = 0;
    std::uint16_t flags = 0;
};

//! Adjacent strips of one side that fired within the cluster time window.
struct StripCluster {
    double position = 0;        //!< centre of gravity along the side's measured coordinate [strips]
    double position_error = 0;  //!< [strips]
    double time = 0;            //!< mean of the digi times [ns]
    double time_error = 0;      //!< [ns]
    double charge = 0;          //!< [e]
    std::uint32_t side = 0;     //!< 2 sensor + side
    std::uint32_t first = 0;    //!< first strip
    std::uint32_t size = 0;     //!< strips
    std::uint32_t truth = 0;    //!< the simulated step of the cluster's largest digi (row of /hits)
};

//! A front and a back cluster whose strips cross inside the sensor, in time.
struct StripRecoHit {
    double x = 0, y = 0, z = 0;                 //!< global [m]
    double u = 0, v = 0;                        //!< sensor frame [m]
    double cov_uu = 0, cov_uv = 0, cov_vv = 0;  //!< [m^2]
    double time = 0, time_error = 0;            //!< [ns]
    std::uint32_t sensor = 0;
    std::uint32_t front = 0, back = 0;  //!< cluster rows (clusters in output order)
    std::uint32_t pad = 0;
};

namespace strip {

//! Field of the fully depleted diode at distance x from the front (p+) side: E0 - a x [V/m].
struct DriftField {
    double e0 = 0, a = 0, d = 0;
    GT_HOST_DEVICE DriftField(StripParams const& p, double thickness)
        : e0((p.v_bias + p.v_dep) / thickness), a(2.0 * p.v_dep / (thickness * thickness)), d(thickness)
    {
    }
    //! Time for the carriers of side s to drift from x to their side [s] (constant mobility).
    GT_HOST_DEVICE double time(StripParams const& p, int s, double x) const
    {
        x = x < 0 ? 0 : (x > d ? d : x);
        double const mu = p.mobility[s];
        if (a <= 0) return (s == 0 ? x : d - x) / (mu * e0);
        // holes to x = 0: ln(E(0)/E(x)) / (mu a); electrons to x = d: ln(E(x)/E(d)) / (mu a)
        return s == 0 ? pmath::log(e0 / (e0 - a * x)) / (mu * a)
                      : pmath::log((e0 - a * x) / (e0 - a * d)) / (mu * a);
    }
    //! Diffusion width after drifting from x to side s [m].
    GT_HOST_DEVICE double sigma(StripParams const& p, int s, double x) const
    {
        if (p.diffusion[s] <= 0) return 0.0;
        return pmath::sqrt(2.0 * p.diffusion[s] * time(p, s, x));
    }
};

//! erfc from + - * / and pmath::exp (Chebyshev fit, fractional error < 1.2e-7 everywhere; Press et
//! al., Numerical Recipes, 2nd ed., sec. 6.2): the same bits on CPU and GPU.
GT_HOST_DEVICE inline double erfc(double x)
{
    double const z = x < 0 ? -x : x;
    double const t = 1.0 / (1.0 + 0.5 * z);
    double const poly =
        -z * z - 1.26551223 +
        t * (1.00002368 +
             t * (0.37409196 +
                  t * (0.09678418 + t * (-0.18628806 +
                                         t * (0.27886807 + t * (-1.13520398 +
                                                                t * (1.48851587 + t * (-0.82215223 +
                                                                                       t * 0.17087277))))))));
    double const r = t * pmath::exp(poly);
    return x >= 0 ? r : 2.0 - r;
}

//! Standard normal cumulative Phi(x).
GT_HOST_DEVICE inline double phi_cdf(double x) { return 0.5 * erfc(-x * 0.70710678118654752440); }

//! Integral of Phi(x / s) dx: x Phi(x/s) + s phi(x/s); for s = 0, max(x, 0).
GT_HOST_DEVICE inline double phi_integral(double x, double s)
{
    if (s <= 0) return x > 0 ? x : 0.0;
    double const t = x / s;
    return x * phi_cdf(t) + s * 0.39894228040143267794 * pmath::exp(-0.5 * t * t);
}

//! Fraction of a unit charge spread uniformly on [w1, w2] (any order) and smeared by a Gaussian of
//! width s that lies below w (all in strips).
GT_HOST_DEVICE inline double fraction_below(double w, double w1, double w2, double s)
{
    double const lo = w1 < w2 ? w1 : w2, hi = w1 < w2 ? w2 : w1;
    // beyond 8.5 sigma the remainder is below 1e-17: exact 0 or 1 (and no exp to evaluate)
    if (w >= hi + 8.5 * s) return 1.0;
    if (w <= lo - 8.5 * s) return 0.0;
    double const len = hi - lo;
    if (len < 1e-9) {
        if (s <= 0) return w > lo ? 1.0 : 0.0;
        return phi_cdf((w - lo) / s);
    }
    return (phi_integral(w - lo, s) - phi_integral(w - hi, s)) / len;
}

//! Two standard normals from block `draw` of a Philox stream (Box-Muller; pmath functions).
template <class Stream>
GT_HOST_DEVICE inline void normal_pair(Stream const& rng, std::uint32_t draw, double& n1, double& n2)
{
    auto const w = rng.block(draw);
    double const u1 = Stream::to_unit(w.v[0], w.v[1]);
    double const u2 = Stream::to_unit(w.v[2], w.v[3]);
    double const r = pmath::sqrt(-2.0 * pmath::log(u1));
    double s = 0, c = 0;
    pmath::sincos(6.28318530717958647692 * u2, s, c);
    n1 = r * c;
    n2 = r * s;
}

}  // namespace strip
}  // namespace gt
