// One space-charge kick written once over a backend (CPU: OpenMP + FFTW; CUDA: cuFFT + CUB).
//
// A kick: size the grid to the bunch (GridSizing.hh); every `sort_every` kicks find the order of the
// particles by cell (a scratch order: the deposition reads the positions, packed 32 bytes a particle,
// in it, so equal cells meet; the particles keep their order, which alone decides sums and outputs,
// so a beam split over MPI ranks gives one process's bits); deposit (ChargeDeposit.hh); transform the
// integrated Green's function when the grid spacing changed (IntegratedGreenFunction.hh); convolve
// (HockneyConvolution.hh); E = -grad phi (FieldFromPotential.hh); gather and kick in one pass in the
// particles' order (FieldGather.hh, SpaceChargeKick.hh).
//
// Memory traffic of a kick with a sort, per particle (10^7 on 128^3, the GPU's case): the particles
// stay in their own order (random with respect to cells), so every pass between that order and the
// cell order is random access. The deposition reads the packed positions through the order: one
// random 32-byte sector a particle (four when x, y, t and the loss flag were read from their arrays),
// after one sequential pass that packs them (28 B read, 32 B written). The gather reads the node
// fields at random in the particles' order (a CIC stencil: 8 nodes of 32 bytes, 8 sectors, mostly
// from L2), and kicks in the same pass (28 B read, 48 B read and written): no field array per
// particle is written and read back, and nothing goes back through the order. Keeping a cell-ordered
// copy of the particles between sorts cannot save the random pass: tracking moves them in their own
// order between kicks, so the copy would be stale at the next kick.
//
// A Backend provides:
//   static constexpr MemSpace memory;
//   for_each(n, f), reduce<N, Op>(n, f)                        the executor;
//   sort_by_key(keys, perm, n, key_bound)                      a stable sort: perm[i] = source of slot i;
//   deposit_aggregated<W, Acc>(DepositSource, geometry, grid)   deposition with aggregation of runs of
//                                                              equal cells (particles in cell order);
//   fft_forward(DoubledGrid, double*, Complex*), fft_inverse(DoubledGrid, Complex*, double*)
//                                                              unnormalized r2c / c2r (plans cached);
//   timer_start(), timer_stop() -> seconds                     wall time of the work in between.
#pragma once

#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <span>
#include <stdexcept>
#include <type_traits>
#include <vector>

#include "kernels/core/Buffer.hh"
#include "kernels/core/CrossRank.hh"
#include "kernels/core/Device.hh"
#include "kernels/core/KernelTimer.hh"
#include "kernels/core/ParticleState.hh"
#include "kernels/core/PinnedHostArray.hh"
#include "kernels/core/Reduction.hh"
#include "kernels/spacecharge/BeamFrame.hh"
#include "kernels/spacecharge/ChargeDeposit.hh"
#include "kernels/spacecharge/FieldFromPotential.hh"
#include "kernels/spacecharge/FieldGather.hh"
#include "kernels/spacecharge/GridSizing.hh"
#include "kernels/spacecharge/HockneyConvolution.hh"
#include "kernels/spacecharge/IntegratedGreenFunction.hh"
#include "kernels/spacecharge/IntegratedGreenFunction2D.hh"
#include "kernels/spacecharge/SliceProjection.hh"
#include "kernels/spacecharge/SpaceChargeKernels.hh"
#include "kernels/spacecharge/SpaceChargeKick.hh"
#include "kernels/spacecharge/SpaceChargeWork.hh"

namespace gt {

namespace sc_detail {
template <class T>
struct FillValue {
    T* target;
    T value;
    GT_HOST_DEVICE void operator()(size_type i) const { target[i] = value; }
};
}  // namespace sc_detail

template <class Backend>
class SpaceChargeSolver {
  public:
    static constexpr MemSpace memory = Backend::memory;

    Backend& backend() { return backend_; }
    KernelTimer const& timer() const { return timer_; }

    //! Under MPI `p` is this rank's share of the beam and `ranks` the others (CrossRank.hh): the
    //! grid is sized to the whole beam, the fixed-point charges of all ranks are summed exactly and
    //! the Poisson solve is repeated on every rank, so every rank kicks with the same field.
    SpaceChargeDiagnostics kick(ParticleView p, SpaceChargeSettings const& settings, BeamFrame const& frame,
                                double ds, CrossRank const& ranks = single_process())
    {
        SpaceChargeDiagnostics diag = prepare_field(p, settings, frame, true, ranks);
        if (diag.inside + diag.outside == 0.0) return diag;
        size_type const n = p.size;
        int const w = shape_width(settings.shape);
        if (settings.gather_in_cell_order && settings.sort_every > 0) {
            // prepare_field packed this kick's positions for the deposition, in the order of a sort.
            ensure(particle_field_, n);
            FieldAt const at = field_at(settings);
            DepositSource const source{packed_.data(), perm_.data(), n};
            backend_.timer_start();
            with_stencil(at.kind(), [&](auto k) {
                backend_.for_each(n,
                                  FieldToParticles<decltype(k)::value>{at, source, particle_field_.data()});
            });
            diag.t_gather = backend_.timer_stop();
            timer_.add("sc.gather", diag.t_gather, double(n) * (36.0 + 32.0 * w * w * w + 32.0), double(n),
                       sc_work::gather_kick_flops(double(n), w) - 6.0 * double(n));
            backend_.timer_start();
            backend_.for_each(n, KickFromFields{p, particle_field_.data(), frame.transverse_kick(ds),
                                                frame.longitudinal_kick(ds)});
            diag.t_kick = backend_.timer_stop();
            timer_.add("sc.kick", diag.t_kick, double(n) * (4.0 + 32.0 + 48.0), double(n), 6.0 * double(n));
            ++kicks_;
            return diag;
        }
        // Gather and kick in one pass (t_gather; t_kick stays 0).
        backend_.timer_start();
        FieldAt const at = field_at(settings);
        with_stencil(at.kind(), [&](auto k) {
            backend_.for_each(n, FieldKick<decltype(k)::value>{at, p, frame.transverse_kick(ds),
                                                               frame.longitudinal_kick(ds)});
        });
        diag.t_gather = backend_.timer_stop();
        timer_.add("sc.gather", diag.t_gather, sc_work::gather_kick_bytes(double(n), w), double(n),
                   sc_work::gather_kick_flops(double(n), w));
        ++kicks_;
        return diag;
    }

    //! What the next kicks depend on besides the particles (a checkpoint holds it).
    SpaceChargeCache cache() const
    {
        return SpaceChargeCache{kicks_, green_valid_, green_sliced_, green_grid_};
    }
    //! Continues from `c`: the kick count and the cached Green's function, transformed again here (the
    //! same grid gives the same bits), so the next kicks are those an uninterrupted solver would do.
    void restore_cache(SpaceChargeCache const& c)
    {
        kicks_ = c.kicks;
        green_valid_ = false;
        if (!c.green_valid) return;
        SpaceChargeDiagnostics ignored;
        if (c.green_sliced)
            green_2d(c.green_grid, ignored);
        else
            green_3d(c.green_grid, ignored);
    }

    SpaceChargeDiagnostics probe_field(ParticleView p, SpaceChargeSettings const& settings,
                                       BeamFrame const& frame, std::vector<FieldProbe>& probes,
                                       CrossRank const& ranks = single_process())
    {
        SpaceChargeDiagnostics diag = prepare_field(p, settings, frame, false, ranks);
        size_type const m = probes.size();
        if (m == 0) return diag;
        Buffer<double> host(3 * m, MemSpace::host);
        for (size_type i = 0; i < m; ++i) {
            host[i] = probes[i].x;
            host[m + i] = probes[i].y;
            host[2 * m + i] = probes[i].z;
        }
        Buffer<double> pos(3 * m, memory), field(3 * m, memory);
        pos.copy_from(host);
        DepositGeometry g = geometry_;
        g.rest_z = 1.0;  // probe positions are rest-frame z already
        if (diag.inside + diag.outside > 0.0) {
            FieldAt at = field_at(settings);
            at.g = g;
            backend_.for_each(m, FieldGather{at, pos.data(), pos.data() + m, pos.data() + 2 * m, nullptr,
                                             field.data(), field.data() + m, field.data() + 2 * m});
        }
        host.copy_from(field);
        for (size_type i = 0; i < m; ++i) {
            probes[i].ex = host[i];
            probes[i].ey = host[m + i];
            probes[i].ez = host[2 * m + i];
        }
        return diag;
    }

    std::vector<double> charge_grid() const
    {
        size_type const n = geometry_.grid.nodes();
        std::vector<double> out(n);
        if (n == 0) return out;
        Buffer<double> host(n, MemSpace::host);
        host.copy_raw(charge_.data(), memory);
        for (size_type i = 0; i < n; ++i) out[i] = host[i];
        return out;
    }

  private:
    template <class T>
    static void ensure(Buffer<T>& b, size_type n)
    {
        if (b.size() < n) b = Buffer<T>(n, memory);
    }

    //! Calls f(std::integral_constant<int, K>) for the stencil K of FieldAt::kind().
    template <class F>
    static void with_stencil(int kind, F const& f)
    {
        if (kind == 0)
            f(std::integral_constant<int, 0>{});
        else if (kind == 2)
            f(std::integral_constant<int, 2>{});
        else
            f(std::integral_constant<int, 3>{});
    }

    //! The field of the last solve at any point.
    FieldAt field_at(SpaceChargeSettings const& s) const
    {
        return FieldAt{geometry_, field_.data(), point_, s.deposition == DepositionMethod::deterministic,
                       sliced_ ? line_.data() : nullptr};
    }

    //! The grid of this kick: fixed, or sized to the live particles (false: no live particle).
    bool choose_grid(ParticleView p, SpaceChargeSettings const& s, double rest_z, GridGeometry& grid,
                     CrossRank const& ranks)
    {
        if (s.fixed_grid) {
            grid = *s.fixed_grid;
            return true;
        }
        auto const ext = reduce_all<6, reduce::Max>(p.size, ExtentTerms{p, rest_z}, ranks);
        if (!(ext[0] > -HUGE_VAL)) return false;
        BunchBox box{};
        for (int d = 0; d < 3; ++d) {
            box.hi[d] = ext[d];
            box.lo[d] = -ext[d + 3];
        }
        if (s.truncate_sigma > 0.0) {
            auto const c = reduce_all<4, reduce::Sum>(p.size, CentroidTerms3{p, rest_z}, ranks);
            SpreadTerms3 spread{p, rest_z, {c[1] / c[0], c[2] / c[0], c[3] / c[0]}};
            auto const v = reduce_all<3, reduce::Sum>(p.size, spread, ranks);
            for (int d = 0; d < 3; ++d) {
                double const half = s.truncate_sigma * std::sqrt(v[d] / c[0]);
                box.lo[d] = std::max(box.lo[d], spread.mean[d] - half);
                box.hi[d] = std::min(box.hi[d], spread.mean[d] + half);
            }
        }
        int const n[3] = {s.grid[0], s.grid[1], s.grid[2]};
        grid = size_grid(box, n, s.margin, s.shape, green_valid_ ? &green_grid_ : nullptr);
        return true;
    }

    //! The particles' order by cell (perm_), for the deposition: the particles are not moved, their
    //! positions are packed (packed_) on the way. Only a scheduled sort shows in the diagnostics (one
    //! made because there was no order yet, after a resume, changes no result: the deposition is the
    //! same in any order it is exact in).
    void sort(ParticleView p, SpaceChargeDiagnostics& diag, bool scheduled)
    {
        size_type const n = p.size;
        if (n >= size_type(std::numeric_limits<std::uint32_t>::max()))
            throw std::runtime_error("space charge: sorting supports fewer than 2^32 particles");
        ensure(keys_, n);
        ensure(perm_, n);
        ensure(packed_, n);
        backend_.timer_start();
        backend_.for_each(n, PackPositions{p, geometry_, packed_.data(), keys_.data()});
        backend_.sort_by_key(keys_.data(), perm_.data(), n, geometry_.outside_key() + 1u);
        double const t = backend_.timer_stop();
        if (scheduled) {
            diag.t_sort = t;
            diag.sorted = true;
        }
        order_size_ = n;
        timer_.add("sc.sort", t, sc_work::sort_bytes(double(n)), double(n));
    }

    //! The packed positions in the order of the last sort (use_order), or in the particles' own order.
    //! A sort made at this kick has packed them already.
    DepositSource deposit_source(ParticleView p, bool use_order, bool sorted_now)
    {
        size_type const n = p.size;
        ensure(packed_, n);
        if (!sorted_now) backend_.for_each(n, PackPositions{p, geometry_, packed_.data(), nullptr});
        return DepositSource{packed_.data(), use_order ? perm_.data() : nullptr, n};
    }

    //! Deposits. Aggregated (runs of equal cells summed first) from the packed positions, in the order
    //! of the last sort when there is one (use_order), else in the particles' own: the aggregated
    //! deposition always, the deterministic one when sorting (sort_every > 0, as between two sorts and
    //! in probes). Otherwise one atomic addition per node from the particles themselves.
    template <int W>
    void deposit(ParticleView p, SpaceChargeSettings const& s, bool use_order, bool sorted_now)
    {
        size_type const nodes = geometry_.grid.nodes();
        bool const aggregate =
            s.deposition == DepositionMethod::aggregated ||
            (s.deposition == DepositionMethod::deterministic && (s.sort_every > 0 || sorted_now));
        if (s.deposition == DepositionMethod::deterministic) {
            backend_.for_each(nodes, sc_detail::FillValue<std::int64_t>{fixed_.data(), 0});
            if (aggregate)
                backend_.template deposit_aggregated<W, std::int64_t>(
                    deposit_source(p, use_order, sorted_now), geometry_, fixed_.data());
            else
                backend_.for_each(p.size, DepositAtomic<W, std::int64_t>{p, geometry_, fixed_.data()});
            return;
        }
        backend_.for_each(nodes, sc_detail::FillValue<double>{weights_.data(), 0.0});
        if (aggregate)
            backend_.template deposit_aggregated<W, double>(deposit_source(p, use_order, sorted_now),
                                                            geometry_, weights_.data());
        else
            backend_.for_each(p.size, DepositAtomic<W, double>{p, geometry_, weights_.data()});
    }

    //! A reduction over the particles of every rank: the chunk partials of all ranks folded in rank
    //! order, as one process would (the same bits while no rank reorders its particles).
    template <int N, class Op, class F>
    std::array<double, N> reduce_all(size_type n, F const& f, CrossRank const& ranks)
    {
        if (ranks.count() == 1) return backend_.template reduce<N, Op>(n, f);
        using R = reduce::Each<N, Op>;
        std::vector<double> const partials = backend_.template reduce_chunks<N, Op>(n, f);
        std::array<double, N> out{};
        R::identity(out.data());
        ranks.fold_in_rank_order(out, [&](std::span<double> running) {
            reduce::fold_chunks_of<R>(partials.data(), partials.size() / N, running.data());
        });
        return out;
    }

    //! Sums the fixed-point node charges of every rank, in place: integer sums are exact, so the
    //! grid (and every field after it) is the same for any rank count.
    void sum_charges_over_ranks(size_type nodes, CrossRank const& ranks, SpaceChargeDiagnostics& diag)
    {
        if (ranks.count() == 1) return;
        backend_.timer_start();
        if constexpr (Backend::memory == MemSpace::host) {
            ranks.sum(std::span<std::int64_t>(fixed_.data(), nodes));
        } else {
            std::span<std::int64_t> const host = staging_.first(nodes);
            device::copy_to_host(host.data(), fixed_.data(), nodes * sizeof(std::int64_t));
            ranks.sum(host);
            device::copy_to_device(fixed_.data(), host.data(), nodes * sizeof(std::int64_t));
        }
        diag.t_reduce = backend_.timer_stop();
        timer_.add("sc.reduce", diag.t_reduce, 8.0 * double(nodes), double(nodes));
    }

    SpaceChargeDiagnostics prepare_field(ParticleView p, SpaceChargeSettings const& s, BeamFrame const& frame,
                                         bool may_sort, CrossRank const& ranks)
    {
        if (ranks.count() > 1 && s.deposition != DepositionMethod::deterministic)
            throw std::invalid_argument(
                "space charge over several ranks needs the exact fixed-point deposition "
                "(space_charge.deposition = \"deterministic\")");
        SpaceChargeDiagnostics diag;
        GridGeometry grid;
        if (!choose_grid(p, s, frame.rest_z(), grid, ranks)) return diag;  // no live particle: nothing to do
        geometry_ = DepositGeometry{grid, s.shape, frame.rest_z()};
        diag.grid = grid;
        size_type const nodes = grid.nodes();
        DoubledGrid const dg = DoubledGrid::of(grid);
        ensure(weights_, nodes);
        ensure(fixed_, nodes);
        ensure(charge_, nodes);
        ensure(field_, nodes);
        ensure(real_, dg.real_size());
        ensure(spectrum_, dg.complex_size());

        // The order by cell every sort_every kicks (and when there is none for these particles yet,
        // as after a resume); between sorts the particles drift out of it a little.
        bool const use_order = may_sort && s.sort_every > 0;
        bool const scheduled = use_order && kicks_ % s.sort_every == 0;
        bool const sort_now = scheduled || (use_order && order_size_ != p.size);
        if (sort_now) sort(p, diag, scheduled);

        // Deposit (from the positions in cell order when sorting), then node charges [C].
        int const w = shape_width(s.shape);
        backend_.timer_start();
        if (w == 2)
            deposit<2>(p, s, use_order, sort_now);
        else
            deposit<3>(p, s, use_order, sort_now);
        // The cross-rank sum has its own timer: stop this one around it, so no stage is counted twice.
        double const t_scatter = backend_.timer_stop();
        if (s.deposition == DepositionMethod::deterministic) sum_charges_over_ranks(nodes, ranks, diag);
        backend_.timer_start();
        if (s.deposition == DepositionMethod::deterministic)
            backend_.for_each(nodes,
                              NodeCharge<std::int64_t>{fixed_.data(), frame.macro_charge / k_fixed_point_unit,
                                                       charge_.data()});
        else
            backend_.for_each(nodes, NodeCharge<double>{weights_.data(), frame.macro_charge, charge_.data()});
        diag.t_deposit = t_scatter + backend_.timer_stop();
        timer_.add("sc.deposit", diag.t_deposit, sc_work::deposit_bytes(double(p.size), w, double(nodes)),
                   double(p.size), sc_work::deposit_flops(double(p.size), w, double(nodes)));

        auto const in = reduce_all<5, reduce::Sum>(p.size, InsideTerms{p, geometry_}, ranks);
        diag.inside = in[0];
        diag.outside = in[1];
        diag.inside_charge = in[0] * frame.macro_charge;
        diag.deposited_charge =
            backend_.template reduce<1, reduce::Sum>(nodes, NodeSumTerms{charge_.data()})[0];
        point_ = PointCharge{};
        if (in[0] > 0.0)
            point_ = PointCharge{diag.inside_charge, in[2] / in[0], in[3] / in[0], in[4] / in[0]};
        sliced_ = s.model == SpaceChargeModel::two_and_half_d;
        if (sliced_) {
            solve_sliced(grid, diag);
            return diag;
        }

        // The transformed Green's function, while the spacing and node counts stay the same.
        if (!green_valid_ || green_sliced_ || !grid.same_green_function(green_grid_)) green_3d(grid, diag);

        // phi = G * Q on the doubled grid.
        backend_.timer_start();
        backend_.for_each(dg.real_size(), PadCharge{grid, charge_.data(), real_.data()});
        backend_.fft_forward(dg, real_.data(), spectrum_.data());
        backend_.for_each(dg.complex_size(), SpectralProduct{spectrum_.data(), green_.data()});
        backend_.fft_inverse(dg, spectrum_.data(), real_.data());
        diag.t_solve = backend_.timer_stop();
        timer_.add("sc.solve", diag.t_solve,
                   sc_work::solve_bytes(double(nodes), double(dg.real_size()), double(dg.complex_size())),
                   double(dg.real_size()),
                   sc_work::solve_flops(double(dg.real_size()), double(dg.complex_size())));

        // E = -grad phi, and the field energy.
        double const scale = potential_scale(grid);
        backend_.timer_start();
        backend_.for_each(nodes, FieldFromPotential{grid, real_.data(), scale, field_.data()});
        diag.t_field = backend_.timer_stop();
        timer_.add("sc.field", diag.t_field, sc_work::field_bytes(double(nodes)), double(nodes),
                   sc_work::field_flops(double(nodes)));
        diag.field_energy = backend_.template reduce<1, reduce::Sum>(
            nodes, FieldEnergyTerms{grid, charge_.data(), real_.data(), 0.5 * scale})[0];
        return diag;
    }

    //! 2.5D: the 2D field of the transverse distribution (unit line charge) and the line density.
    void solve_sliced(GridGeometry const& grid, SpaceChargeDiagnostics& diag)
    {
        DoubledGrid const d2{2 * grid.nx, 2 * grid.ny, 1};
        size_type const plane = size_type(grid.nx) * size_type(grid.ny);
        ensure(line_, size_type(grid.nz));
        ensure(padded2_, d2.real_size());
        bool const same = green_valid_ && green_sliced_ && grid.nx == green_grid_.nx &&
                          grid.ny == green_grid_.ny && grid.hx == green_grid_.hx && grid.hy == green_grid_.hy;
        if (!same) green_2d(grid, diag);
        backend_.timer_start();
        double const inv_total = diag.deposited_charge != 0.0 ? 1.0 / diag.deposited_charge : 0.0;
        backend_.for_each(d2.real_size(), PadTransverse{grid, charge_.data(), inv_total, padded2_.data()});
        backend_.for_each(size_type(grid.nz), LineDensity{grid, charge_.data(), line_.data()});
        backend_.fft_forward(d2, padded2_.data(), spectrum_.data());
        backend_.for_each(d2.complex_size(), SpectralProduct{spectrum_.data(), green_.data()});
        backend_.fft_inverse(d2, spectrum_.data(), real_.data());
        diag.t_solve = backend_.timer_stop();
        timer_.add(
            "sc.solve", diag.t_solve,
            8.0 * double(grid.nodes()) +
                sc_work::solve_bytes(double(grid.nodes()), double(d2.real_size()), double(d2.complex_size())),
            double(d2.real_size()), sc_work::solve_flops(double(d2.real_size()), double(d2.complex_size())));
        backend_.timer_start();
        double const scale = -1.0 / (2.0 * constants::pi * constants::eps0 * double(d2.real_size()));
        backend_.for_each(plane, TransverseField{grid, real_.data(), scale, field_.data()});
        diag.t_field = backend_.timer_stop();
        timer_.add("sc.field", diag.t_field, 32.0 * double(plane), double(plane));
        // The 2D potential of a line charge has no zero: the model's energy is not defined.
        diag.field_energy = std::numeric_limits<double>::quiet_NaN();
    }

    //! Transforms the 3D integrated Green's function of `grid` into green_ (and caches it).
    void green_3d(GridGeometry const& grid, SpaceChargeDiagnostics& diag)
    {
        DoubledGrid const dg = DoubledGrid::of(grid);
        backend_.timer_start();
        size_type const corners = size_type(grid.nx + 2) * size_type(grid.ny + 2) * size_type(grid.nz + 2);
        ensure(corners_, corners);
        ensure(real_, dg.real_size());
        ensure(green_, dg.complex_size());
        backend_.for_each(corners, IgfCorners{grid, corners_.data()});
        backend_.for_each(dg.real_size(), IgfDoubledGrid{grid, corners_.data(), real_.data()});
        backend_.fft_forward(dg, real_.data(), green_.data());
        diag.t_green = backend_.timer_stop();
        diag.green_recomputed = true;
        green_grid_ = grid;
        green_valid_ = true;
        green_sliced_ = false;
        timer_.add("sc.green", diag.t_green,
                   sc_work::green_bytes(double(corners), double(dg.real_size()), double(dg.complex_size())),
                   double(dg.real_size()), sc_work::green_flops(double(dg.real_size())));
    }

    //! The 2D one (2.5D model), likewise.
    void green_2d(GridGeometry const& grid, SpaceChargeDiagnostics& diag)
    {
        DoubledGrid const d2{2 * grid.nx, 2 * grid.ny, 1};
        backend_.timer_start();
        size_type const corners = size_type(grid.nx + 2) * size_type(grid.ny + 2);
        ensure(corners_, corners);
        ensure(real_, d2.real_size());
        ensure(green_, d2.complex_size());
        backend_.for_each(corners, IgfCorners2D{grid, corners_.data()});
        backend_.for_each(d2.real_size(), IgfDoubledGrid2D{grid, corners_.data(), real_.data()});
        backend_.fft_forward(d2, real_.data(), green_.data());
        diag.t_green = backend_.timer_stop();
        diag.green_recomputed = true;
        green_grid_ = grid;
        green_valid_ = true;
        green_sliced_ = true;
        timer_.add("sc.green", diag.t_green,
                   sc_work::green_bytes(double(corners), double(d2.real_size()), double(d2.complex_size())),
                   double(d2.real_size()), sc_work::green_flops(double(d2.real_size())));
    }

    Backend backend_;
    KernelTimer timer_;
    DepositGeometry geometry_{};
    PointCharge point_{};
    GridGeometry green_grid_{};
    bool green_valid_ = false;
    bool green_sliced_ = false;  //!< the cached Green's function is the 2D one
    bool sliced_ = false;        //!< the last field is the 2.5D one
    long kicks_ = 0;
    size_type order_size_ = 0;  //!< the particle count perm_ orders (0: none yet)
    Buffer<double> line_, padded2_;
    Buffer<double> weights_, charge_, real_, corners_;
    Buffer<NodeField> field_;
    Buffer<PackedPosition> packed_;     //!< the positions the deposition reads (DepositSource)
    Buffer<NodeField> particle_field_;  //!< per particle (gather_in_cell_order only)
    Buffer<std::int64_t> fixed_;
    PinnedHostArray<std::int64_t> staging_;  //!< the grid on its way through the cross-rank sum (GPU)
    Buffer<Complex> spectrum_, green_;
    Buffer<std::uint32_t> keys_, perm_;
};

//! The SpaceChargeKernels of a backend: each kernel set (CPU, CUDA) adds its description.
template <class Backend>
class SolverSpaceChargeKernels : public SpaceChargeKernels {
  public:
    MemSpace memory() const override { return Backend::memory; }
    SpaceChargeDiagnostics kick(ParticleView particles, SpaceChargeSettings const& settings,
                                BeamFrame const& frame, double ds) override
    {
        return solver_.kick(particles, settings, frame, ds, cross_rank());
    }
    SpaceChargeDiagnostics probe_field(ParticleView particles, SpaceChargeSettings const& settings,
                                       BeamFrame const& frame, std::vector<FieldProbe>& probes) override
    {
        return solver_.probe_field(particles, settings, frame, probes, cross_rank());
    }
    std::vector<double> charge_grid() const override { return solver_.charge_grid(); }
    SpaceChargeCache cache() const override { return solver_.cache(); }
    void restore_cache(SpaceChargeCache const& c) override { solver_.restore_cache(c); }
    KernelTimer const& timer() const override { return solver_.timer(); }

  private:
    SpaceChargeSolver<Backend> solver_;
};

}  // namespace gt
