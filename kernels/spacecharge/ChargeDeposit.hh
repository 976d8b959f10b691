// Charge deposition: each macroparticle's stencil of grid nodes and weights, its sort key, its
// fixed-point weights, and the plain atomic deposition functor.
//
// The grid accumulates *weights* (macroparticles per node); the solver multiplies by the
// macroparticle charge once. Three variants (SpaceChargeSettings::deposition):
//  - atomic: one atomic double addition per node per particle (order, hence rounding, varies);
//  - aggregated: particles sorted by cell; neighbours that share a cell add their weights first
//    (a warp's segmented reduction on the GPU, a running sum on the CPU), then one atomic per node;
//  - deterministic: each weight is a 64-bit integer, w 2^32 rounded, with the last node of each
//    particle taking the remainder so that every particle deposits exactly 2^32 (charge conserved
//    exactly). Integer sums do not depend on order: CPU and GPU grids are bit-identical.
#pragma once

#include <cstdint>
#include <type_traits>

#include "kernels/core/Macros.hh"
#include "kernels/core/ParticleState.hh"
#include "kernels/spacecharge/AtomicAdd.hh"
#include "kernels/spacecharge/GridGeometry.hh"
#include "kernels/spacecharge/ShapeFunction.hh"

namespace gt {

enum class DepositionMethod : std::int32_t { atomic, aggregated, deterministic };

//! Fixed-point unit of the deterministic deposition: one macroparticle = 2^32. A node can then hold
//! up to 2^31 macroparticles before the int64 overflows; a weight is resolved to 2^-32.
inline constexpr double k_fixed_point_unit = 4294967296.0;

//! Where particles go on the grid: geometry, shape, and the factor that turns t into rest-frame z.
struct DepositGeometry {
    GridGeometry grid;
    ParticleShape shape;
    double rest_z;  //!< z_rest = rest_z * t (BeamFrame::rest_z), or 1 for positions already in z

    //! The key of a particle outside the grid or lost: one past the last node, so that it sorts last.
    GT_HOST_DEVICE std::uint32_t outside_key() const { return static_cast<std::uint32_t>(grid.nodes()); }
};

//! A particle's nodes and weights in three dimensions.
struct ParticleStencil {
    Stencil1D sx, sy, sz;
};

//! The stencil of the particle at lab (x, y) and longitudinal coordinate `t` (z = rest_z t);
//! false when it is not completely inside the grid.
GT_HOST_DEVICE inline bool particle_stencil(DepositGeometry const& g, double x, double y, double t,
                                            ParticleStencil& s)
{
    double const z = g.rest_z * t;
    double const ux = (x - g.grid.x0) / g.grid.hx;
    double const uy = (y - g.grid.y0) / g.grid.hy;
    double const uz = (z - g.grid.z0) / g.grid.hz;
    return stencil_1d(g.shape, ux, g.grid.nx, s.sx) && stencil_1d(g.shape, uy, g.grid.ny, s.sy) &&
           stencil_1d(g.shape, uz, g.grid.nz, s.sz);
}

//! The cell key used to sort: the index of the stencil's first node (equal keys, equal nodes).
GT_HOST_DEVICE GT_FORCEINLINE std::uint32_t stencil_key(GridGeometry const& grid, ParticleStencil const& s)
{
    return static_cast<std::uint32_t>(grid.index(s.sx.first, s.sy.first, s.sz.first));
}

//! Node m of a W^3 stencil (m = (c W + b) W + a): its grid index and weight.
template <int W>
GT_HOST_DEVICE GT_FORCEINLINE void stencil_node(GridGeometry const& grid, ParticleStencil const& s, int m,
                                                size_type& index, double& weight)
{
    int const a = m % W, b = (m / W) % W, c = m / (W * W);
    index = grid.index(s.sx.first + a, s.sy.first + b, s.sz.first + c);
    weight = s.sx.w[a] * s.sy.w[b] * s.sz.w[c];
}

//! The W^3 fixed-point weights of a stencil; they sum to k_fixed_point_unit exactly.
template <int W>
GT_HOST_DEVICE inline void fixed_point_weights(ParticleStencil const& s, std::int64_t* fixed)
{
    std::int64_t total = 0;
    for (int m = 0; m < W * W * W - 1; ++m) {
        int const a = m % W, b = (m / W) % W, c = m / (W * W);
        double const w = s.sx.w[a] * s.sy.w[b] * s.sz.w[c];
        fixed[m] = static_cast<std::int64_t>(w * k_fixed_point_unit + 0.5);  // w >= 0: rounds
        total += fixed[m];
    }
    fixed[W * W * W - 1] = static_cast<std::int64_t>(k_fixed_point_unit) - total;
}

//! What the deposition reads of one particle, packed into one aligned 32-byte sector: read through
//! the scratch order of a sort (at random) it costs one memory sector, where x, y, t and the loss flag
//! in their own arrays cost four.
struct alignas(32) PackedPosition {
    double x, y, t;
    std::int32_t lost_element;  //!< < 0 while alive
    std::int32_t unused;        //!< padding (0)
};
static_assert(sizeof(PackedPosition) == 32, "one particle's position is one 32-byte sector");

//! The particles in the order a deposition reads them: slot i holds particle order[i] (order nullptr:
//! particle i).
struct DepositSource {
    PackedPosition const* packed;  //!< in the particles' own order
    std::uint32_t const* order;
    size_type size;
    GT_HOST_DEVICE GT_FORCEINLINE PackedPosition operator[](size_type i) const
    {
        return packed[order ? size_type(order[i]) : i];
    }
};

//! Packs each particle's position, and with `keys` its sort key: the index of its stencil's first node
//! (outside_key() for lost particles and those outside the grid). One sequential pass.
struct PackPositions {
    ParticleView p;
    DepositGeometry g;
    PackedPosition* packed;
    std::uint32_t* keys;  //!< nullptr: positions only
    GT_HOST_DEVICE void operator()(size_type i) const
    {
        PackedPosition const q{p.x[i], p.y[i], p.t[i], p.lost_element[i], 0};
        packed[i] = q;
        if (!keys) return;
        ParticleStencil s;
        bool const in = q.lost_element < 0 && particle_stencil(g, q.x, q.y, q.t, s);
        keys[i] = in ? stencil_key(g.grid, s) : g.outside_key();
    }
};

//! Plain atomic deposition of one particle: weights (double) or fixed-point weights (int64).
template <int W, class Acc>
struct DepositAtomic {
    ParticleView p;
    DepositGeometry g;
    Acc* grid;
    GT_HOST_DEVICE void operator()(size_type i) const
    {
        ParticleStencil s;
        if (!p.alive(i) || !particle_stencil(g, p.x[i], p.y[i], p.t[i], s)) return;
        if constexpr (std::is_integral_v<Acc>) {
            std::int64_t fixed[W * W * W];
            fixed_point_weights<W>(s, fixed);
            for (int m = 0; m < W * W * W; ++m) {
                size_type index = 0;
                double w = 0;
                stencil_node<W>(g.grid, s, m, index, w);
                atomic_add(grid + index, fixed[m]);
            }
        } else {
            for (int m = 0; m < W * W * W; ++m) {
                size_type index = 0;
                double w = 0;
                stencil_node<W>(g.grid, s, m, index, w);
                atomic_add(grid + index, w);
            }
        }
    }
};

//! Counts live particles inside and outside the grid, and sums the inside ones' rest-frame positions
//! (N = 5: inside, outside, x, y, z of inside particles).
struct InsideTerms {
    ParticleView p;
    DepositGeometry g;
    GT_HOST_DEVICE void operator()(size_type i, double* v) const
    {
        for (int j = 0; j < 5; ++j) v[j] = 0.0;
        if (!p.alive(i)) return;
        ParticleStencil s;
        if (particle_stencil(g, p.x[i], p.y[i], p.t[i], s)) {
            v[0] = 1.0;
            v[2] = p.x[i];
            v[3] = p.y[i];
            v[4] = g.rest_z * p.t[i];
        } else {
            v[1] = 1.0;
        }
    }
};

}  // namespace gt
