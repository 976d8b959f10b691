// Longitudinal histograms: per node, the macroparticle count and the sums of x and y (dipole
// moments, for transverse wakes), deposited with cloud-in-cell weights on a LineGrid.
//
// Two variants (LineHistogramMethod):
//  - deterministic: every weight, and every weight times x / x_scale, as a 64-bit integer in units of
//    2^-32 (the space-charge deposit's fixed point, ChargeDeposit.hh), the second node of a particle
//    taking the remainder so that each particle deposits exactly 2^32. Integer sums do not depend on
//    the order of the additions: CPU and GPU histograms are bit-identical, for any thread count. Both
//    backends sum private sub-histograms (per CPU thread; per GPU block in shared memory, as two
//    32-bit words a node: add_split) and add them at the end, free of contention.
//    x_scale is a power of two >= max |x|, so that w x / x_scale is in [-1, 1].
//  - per_block: doubles, each block of threads (a GPU block, a CPU thread) fills its own private
//    sub-histogram without contention; the sub-histograms are then summed (ELEGANT-GPU's scheme).
//    Rounding depends on the blocking.
#pragma once

#include <cstdint>

#include "kernels/collective/LineGrid.hh"
#include "kernels/core/Macros.hh"
#include "kernels/core/ParticleState.hh"
#include "kernels/spacecharge/AtomicAdd.hh"
#include "kernels/spacecharge/ChargeDeposit.hh"

namespace gt {

enum class LineHistogramMethod : std::int32_t { deterministic, per_block };

//! What is deposited: the count only, or the count and the x and y sums.
struct LineChannels {
    int count = 1;         //!< 1 (line density) or 3 (with x and y sums)
    double x_scale = 1.0;  //!< [m] power of two >= max |x| (deterministic variant)
    double y_scale = 1.0;  //!< [m]
};

//! Node i of channel c is at [c * n + i]: channel 0 the weights, 1 the x sums, 2 the y sums.
struct LineDeposit {
    ParticleView p;
    LineGrid g;
    LineChannels ch;

    //! The fixed-point values of particle i on its two nodes: fixed[c][k] for channel c, node k.
    //! False when the particle is lost or off the grid.
    GT_HOST_DEVICE GT_FORCEINLINE bool fixed(size_type i, int& first, std::int64_t (&v)[3][2]) const
    {
        if (!p.alive(i)) return false;
        return ch.count == 3 ? fixed_of(p.t[i], p.x[i], p.y[i], first, v) : fixed_of(p.t[i], 0.0, 0.0, first, v);
    }

    //! The same from a live particle's coordinates already loaded (the GPU kernel loads a batch of
    //! particles before it deposits any; x and y are read for 3 channels only).
    GT_HOST_DEVICE GT_FORCEINLINE bool fixed_of(double t, double x, double y, int& first,
                                                std::int64_t (&v)[3][2]) const
    {
        Stencil1D s;
        if (!line_stencil(g, t, s)) return false;
        first = s.first;
        v[0][0] = static_cast<std::int64_t>(s.w[0] * k_fixed_point_unit + 0.5);  // w >= 0: rounds
        v[0][1] = static_cast<std::int64_t>(k_fixed_point_unit) - v[0][0];
        if (ch.count == 3) {
            double const fx = x / ch.x_scale, fy = y / ch.y_scale;
            v[1][0] = rounded(s.w[0] * fx * k_fixed_point_unit);
            v[1][1] = rounded(fx * k_fixed_point_unit) - v[1][0];
            v[2][0] = rounded(s.w[0] * fy * k_fixed_point_unit);
            v[2][1] = rounded(fy * k_fixed_point_unit) - v[2][0];
        }
        return true;
    }

    //! The double weights of particle i on its two nodes (per_block variant).
    GT_HOST_DEVICE GT_FORCEINLINE bool weights(size_type i, int& first, double (&v)[3][2]) const
    {
        if (!p.alive(i)) return false;
        return ch.count == 3 ? weights_of(p.t[i], p.x[i], p.y[i], first, v) : weights_of(p.t[i], 0.0, 0.0, first, v);
    }

    GT_HOST_DEVICE GT_FORCEINLINE bool weights_of(double t, double x, double y, int& first, double (&v)[3][2]) const
    {
        Stencil1D s;
        if (!line_stencil(g, t, s)) return false;
        first = s.first;
        v[0][0] = s.w[0];
        v[0][1] = s.w[1];
        v[1][0] = s.w[0] * x;
        v[1][1] = s.w[1] * x;
        v[2][0] = s.w[0] * y;
        v[2][1] = s.w[1] * y;
        return true;
    }

    GT_HOST_DEVICE static GT_FORCEINLINE std::int64_t rounded(double v)
    {
        return static_cast<std::int64_t>(v < 0.0 ? v - 0.5 : v + 0.5);
    }
};

//! Deterministic variant: each particle's fixed-point weights added atomically (order-free).
struct DepositLineFixed {
    LineDeposit d;
    std::int64_t* hist;  //!< ch.count * n
    GT_HOST_DEVICE void operator()(size_type i) const
    {
        int first = 0;
        std::int64_t v[3][2];
        if (!d.fixed(i, first, v)) return;
        for (int c = 0; c < d.ch.count; ++c) {
            atomic_add(hist + c * d.g.n + first, v[c][0]);
            atomic_add(hist + c * d.g.n + first + 1, v[c][1]);
        }
    }
};

//! A 64-bit fixed-point node kept as two 32-bit words (GPU shared-memory sub-histograms, where 32-bit
//! atomic adds are single instructions): v's low word goes to `lo`, its high word and the carry out of
//! `lo` to `hi`. `add` is a 32-bit fetch-and-add returning the old word. The number of carries is
//! (sum of the low words - final lo) / 2^32 whatever the order, so joined(lo, hi) is the exact sum
//! modulo 2^64: the node is order-free like a 64-bit integer add.
template <class Add>
GT_HOST_DEVICE GT_FORCEINLINE void add_split(std::uint32_t* lo, std::uint32_t* hi, std::int64_t v, Add const& add)
{
    auto const u = static_cast<std::uint64_t>(v);
    auto const low = static_cast<std::uint32_t>(u);
    std::uint32_t carry = 0;
    if (low != 0) {
        std::uint32_t const old = add(lo, low);
        carry = static_cast<std::uint32_t>(old + low) < old ? 1u : 0u;
    }
    std::uint32_t const high = static_cast<std::uint32_t>(u >> 32) + carry;
    if (high != 0) add(hi, high);
}

//! The node of add_split's two words.
GT_HOST_DEVICE GT_FORCEINLINE std::int64_t joined(std::uint32_t lo, std::uint32_t hi)
{
    return static_cast<std::int64_t>((static_cast<std::uint64_t>(hi) << 32) | lo);
}

//! Fixed-point histogram to macroparticles (channel 0) and macroparticle metres (x, y sums).
struct LineFromFixed {
    std::int64_t const* hist;
    LineChannels ch;
    int n;
    double* out;
    GT_HOST_DEVICE void operator()(size_type k) const
    {
        int const c = static_cast<int>(k / size_type(n));
        double const scale = c == 0 ? 1.0 : c == 1 ? ch.x_scale : ch.y_scale;
        out[k] = static_cast<double>(hist[k]) / k_fixed_point_unit * scale;
    }
};

//! One pass over the particles for the grid and the LSC radius (reduce::MaxThenSum<4, 5>): the
//! extent the grid must cover and the transverse scales as Max of (-t, t, |x|, |y|) of the live
//! particles, then the sums over them of 1, x, x^2, y, y^2 (the rms sizes). Without `transverse`,
//! x and y are not read (taken as 0).
struct LineShapeTerms {
    ParticleView p;
    bool transverse = true;
    GT_HOST_DEVICE void operator()(size_type i, double* v) const
    {
        bool const live = p.alive(i);
        bool const xy = live && transverse;
        double const t = p.t[i], x = xy ? p.x[i] : 0.0, y = xy ? p.y[i] : 0.0;
        if (live) {
            v[0] = -t;
            v[1] = t;
            v[2] = x < 0 ? -x : x;
            v[3] = y < 0 ? -y : y;
        } else {
            v[0] = v[1] = v[2] = v[3] = -1e308;  // below any coordinate: ignored by Max
        }
        v[4] = live ? 1.0 : 0.0;
        v[5] = x;
        v[6] = x * x;
        v[7] = y;
        v[8] = y * y;
    }
};

}  // namespace gt
