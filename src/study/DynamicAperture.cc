// The dynamic-aperture study and its frequency map (DynamicAperture.hh, docs/studies.md).
#include "study/DynamicAperture.hh"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <optional>
#include <stdexcept>

#include <fmt/format.h>

#include "beam/BeamSetup.hh"
#include "deck/DeckError.hh"
#include "kernels/cpu/Executor.hh"
#include "kernels/study/Naff.hh"
#include "optics/Optics.hh"
#include "parallel/Agreement.hh"
#include "parallel/Communicator.hh"
#include "parallel/GatherToRoot.hh"
#include "parallel/ParticleDecomposition.hh"
#include "run/TurnsPerCall.hh"
#include "study/StudyCheckpoint.hh"

namespace gt::study {

namespace {
constexpr double k_nan = std::numeric_limits<double>::quiet_NaN();
}  // namespace

StudyOptics study_optics(DeckConfig const& deck)
{
    // The optics' maps: a radiating ring's magnets without their mean loss (as `gtrack optics`).
    Lattice const lattice = build_lattice(deck, initial_reference(deck), false);
    optics::OpticsResult const o = optics::compute_optics(deck, lattice, optics::OpticsOptions{});
    optics::OpticsRow const& r = o.rows.front();
    StudyOptics s;
    s.beta_x = r.beta_x;
    s.alpha_x = r.alpha_x;
    s.beta_y = r.beta_y;
    s.alpha_y = r.alpha_y;
    s.d_x = r.d_x;
    s.dp_x = r.dp_x;
    s.d_y = r.d_y;
    s.dp_y = r.dp_y;
    for (int i = 0; i < 4; ++i) s.orbit[i] = r.orbit[static_cast<std::size_t>(i)];
    s.tune_x = o.tune_x;
    s.tune_y = o.tune_y;
    s.sigma_x = std::sqrt(r.beta_x * deck.beam.x.emittance);
    s.sigma_y = std::sqrt(r.beta_y * deck.beam.y.emittance);
    return s;
}

double pt_of_delta(double delta, ReferenceParticle const& ref)
{
    // pt = (E_ref - E) / (p_ref c) = 1/beta - sqrt((1 + delta)^2 + 1/(beta gamma)^2), written without the
    // cancellation of the two terms for small delta.
    double const g = 1.0 / (ref.beta_gamma * ref.beta_gamma);
    double const a = (1.0 + delta) * (1.0 + delta) + g;
    double const e0 = 1.0 / ref.beta;
    return -(a - e0 * e0) / (std::sqrt(a) + e0);
}

StudyGrid make_study_grid(DynamicApertureConfig const& da, StudyOptics const& optics,
                          ReferenceParticle const& ref)
{
    StudyGrid g{};
    g.polar = da.grid == "polar" ? 1 : 0;
    if (g.polar) {
        g.n_a = static_cast<std::int32_t>(da.angles);
        g.n_b = static_cast<std::int32_t>(da.radii);
        g.a_min = da.angles > 1 ? da.angle_min : 0.5 * (da.angle_min + da.angle_max);
        g.a_step = da.angles > 1 ? (da.angle_max - da.angle_min) / double(da.angles - 1) : 0.0;
        double const r0 = da.radius_min > 0 ? da.radius_min : da.radius_max / double(da.radii);
        g.b_min = r0;
        g.b_step = da.radii > 1 ? (da.radius_max - r0) / double(da.radii - 1) : 0.0;
    } else {
        g.n_a = static_cast<std::int32_t>(da.nx);
        g.n_b = static_cast<std::int32_t>(da.ny);
        g.a_min = da.x_min;
        g.a_step = da.nx > 1 ? (da.x_max - da.x_min) / double(da.nx - 1) : 0.0;
        g.b_min = da.y_min;
        g.b_step = da.ny > 1 ? (da.y_max - da.y_min) / double(da.ny - 1) : 0.0;
    }
    g.n_delta = static_cast<std::int32_t>(da.deltas.size());
    g.scale_x = da.in_sigmas ? optics.sigma_x : 1.0;
    g.scale_y = da.in_sigmas ? optics.sigma_y : 1.0;
    for (std::size_t k = 0; k < da.deltas.size(); ++k) {
        double const d = da.deltas[k];
        g.orbit[k][0] = optics.orbit[0] + optics.d_x * d;
        g.orbit[k][1] = optics.orbit[1] + optics.dp_x * d;
        g.orbit[k][2] = optics.orbit[2] + optics.d_y * d;
        g.orbit[k][3] = optics.orbit[3] + optics.dp_y * d;
        g.pt[k] = pt_of_delta(d, ref);
    }
    return g;
}

namespace {

//! Turn-by-turn normalized coordinates of every particle, [turn][particle] (what NAFF reads).
struct TurnSamples {
    std::size_t n = 0;
    std::vector<double> xn, pxn, yn, pyn;
};

//! Normalized (Courant-Snyder) coordinates about the particle's orbit: a betatron rotation becomes a
//! circle, so x - i px is one tone at +Q (and the mirror at -Q of a mismatched ellipse is small).
void sample_turn(TurnSamples& s, std::size_t turn, ParticleView const& p, StudyGrid const& g,
                 StudyOptics const& o)
{
    double const sbx = std::sqrt(o.beta_x), sby = std::sqrt(o.beta_y);
    std::size_t const per_delta = static_cast<std::size_t>(g.n_a) * static_cast<std::size_t>(g.n_b);
    for (std::size_t i = 0; i < s.n; ++i) {
        double const* co = g.orbit[p.id[i] / per_delta];
        double const x = p.x[i] - co[0], px = p.px[i] - co[1];
        double const y = p.y[i] - co[2], py = p.py[i] - co[3];
        std::size_t const k = turn * s.n + i;
        s.xn[k] = x / sbx;
        s.pxn[k] = (o.alpha_x * x + o.beta_x * px) / sbx;
        s.yn[k] = y / sby;
        s.pyn[k] = (o.alpha_y * y + o.beta_y * py) / sby;
    }
}

//! The tunes of both halves by NAFF, and the diffusion index (Laskar; Xsuite's and ELEGANT's definition:
//! log10 of the tune change between the halves).
void frequency_map(DynamicApertureResult& r, TurnSamples const& s, int window)
{
    std::size_t const n = s.n;
    auto const half = static_cast<std::int64_t>(r.turns / 2);
    r.qx1.assign(n, k_nan);
    r.qy1.assign(n, k_nan);
    r.qx2.assign(n, k_nan);
    r.qy2.assign(n, k_nan);
    r.diffusion.assign(n, k_nan);
    cpu::for_each(static_cast<size_type>(n), [&](size_type i) {
        if (r.survived[i] < r.turns) return;
        std::vector<double> scratch(static_cast<std::size_t>(naff::scratch_size(half)));
        std::vector<double> u(static_cast<std::size_t>(half)), v(static_cast<std::size_t>(half));
        // One plane's tune over one half, about the signal's mean: an orbit the linear dispersion misses
        // (the second-order dispersion at delta != 0) is a constant, a tone at 0 that would otherwise win
        // over a small betatron amplitude. The mean's own error leaks into Q as any tone 0 away does.
        auto plane = [&](std::vector<double> const& a, std::vector<double> const& b, std::size_t first,
                         double& amplitude) {
            double ma = 0, mb = 0;
            for (std::size_t k = 0; k < u.size(); ++k) {
                u[k] = a[(first + k) * n + i];
                v[k] = b[(first + k) * n + i];
                ma += u[k];
                mb += v[k];
            }
            ma /= double(u.size());
            mb /= double(u.size());
            for (std::size_t k = 0; k < u.size(); ++k) {
                u[k] -= ma;
                v[k] -= mb;
            }
            return naff::tune(u.data(), v.data(), 1, half, window, scratch.data(), &amplitude);
        };
        auto const h = static_cast<std::size_t>(half);
        double ax = 0, ay = 0, unused = 0;
        r.qx1[i] = plane(s.xn, s.pxn, 0, ax);
        r.qy1[i] = plane(s.yn, s.pyn, 0, ay);
        r.qx2[i] = plane(s.xn, s.pxn, h, unused);
        r.qy2[i] = plane(s.yn, s.pyn, h, unused);
        // A plane whose motion is round-off beside the other's (a grid point on an axis: 1e-17 of the radius)
        // has no tune worth the name: NaN, not the frequency of that round-off.
        double const floor = 1e-10 * std::max(ax, ay);
        if (!(ax > floor)) r.qx1[i] = r.qx2[i] = k_nan;
        if (!(ay > floor)) r.qy1[i] = r.qy2[i] = k_nan;
        // Tunes near 0 and 1 are the same tune: the change is taken across the wrap. A plane without motion
        // has no tune and adds nothing to the index.
        double dx = r.qx2[i] - r.qx1[i], dy = r.qy2[i] - r.qy1[i];
        if (!std::isfinite(dx) && !std::isfinite(dy)) return;
        dx = std::isfinite(dx) ? dx - std::round(dx) : 0.0;
        dy = std::isfinite(dy) ? dy - std::round(dy) : 0.0;
        r.diffusion[i] = 0.5 * std::log10(dx * dx + dy * dy);
    });
}

//! Per (delta, angle) of a polar grid: the border and the first loss; per delta: min and mean.
void borders(DynamicApertureResult& r)
{
    StudyGrid const& g = r.grid;
    if (!g.polar) return;
    for (std::int32_t d = 0; d < g.n_delta; ++d) {
        double lo = INFINITY, sum = 0;
        for (std::int32_t a = 0; a < g.n_a; ++a) {
            std::size_t const first = (static_cast<std::size_t>(d) * g.n_a + a) * g.n_b;
            double border = g.b_at(g.n_b - 1), loss = k_nan;
            for (std::int32_t b = 0; b < g.n_b; ++b) {
                if (r.survived[first + b] < r.turns) {
                    loss = g.b_at(b);
                    border = b > 0 ? g.b_at(b - 1) : 0.0;
                    break;
                }
            }
            r.border_delta.push_back(r.delta[first]);
            r.border_angle.push_back(g.a_at(a));
            r.border.push_back(border);
            r.first_loss.push_back(loss);
            lo = std::min(lo, border);
            sum += border;
        }
        r.da_min.push_back(lo);
        r.da_mean.push_back(sum / g.n_a);
    }
}

}  // namespace

std::int64_t track_grid(BeamKernels& kernels, ParticleView particles, size_type entries, std::int64_t turns,
                        std::int64_t chunk, std::function<void(std::int64_t)> const& after_turn,
                        GridStops const& stops)
{
    if (!after_turn) {
        // Nothing is read between turns: whole turns in the many-turn executor (the particles kept in
        // registers for many turns per launch; the same bits as one track() per turn, ManyTurnTest). A rank
        // without particles makes no call but takes part in the agreements between them.
        for (std::int64_t turn = stops.first_turn; turn < turns;) {
            std::int64_t k = std::min(chunk, turns - turn);
            if (stops.at_once) k = std::min(k, stops.at_once(turn, k));
            if (particles.size > 0)
                kernels.track_turns(particles, entries, static_cast<std::int32_t>(turn),
                                    static_cast<std::int32_t>(k));
            turn += k;
            if (turn < turns && stops.between && !stops.between(turn)) return turn;
        }
        return turns;
    }
    for (std::int64_t turn = 0; turn < turns; ++turn) {
        if (particles.size > 0) kernels.track(particles, 0, entries, static_cast<std::int32_t>(turn));
        after_turn(turn);
    }
    return turns;
}

DynamicApertureResult track_dynamic_aperture(DeckConfig const& deck, BeamKernels& kernels,
                                             StudyControl const* control)
{
    DynamicApertureConfig const& da = deck.dynamic_aperture;
    // Checkpoints: the grid's particles between two calls; a frequency map's samples of every turn would be
    // the bulk of one (docs/checkpoint.md): not built.
    if (da.frequency_map) refuse_checkpoints(deck, control, "a dynamic aperture with frequency_map = true");
    std::optional<StudyTurns> stops;
    if (control && !da.frequency_map)
        stops.emplace(deck, *control, kernels.memory() == MemSpace::device ? "gpu" : "cpu");
    // The set-up's failures (a deck error, an optics that finds no closed orbit) are agreed by all ranks.
    struct SetUp {
        ReferenceParticle ref;
        StudyOptics optics;
        Lattice lattice;
    };
    SetUp const set_up = parallel::all_or_none([&] {
        SetUp u{initial_reference(deck), study_optics(deck), {}};
        if (da.in_sigmas && (!(u.optics.sigma_x > 0) || !(u.optics.sigma_y > 0)))
            throw DeckError(da.where, "dynamic_aperture.in_sigmas",
                            "radii in beam sigmas need [beam.twiss] emittance_x and emittance_y > 0");
        u.lattice = build_lattice(deck, u.ref);
        return u;
    });
    StudyOptics const& optics = set_up.optics;
    Lattice const& lattice = set_up.lattice;
    kernels.set_elements(lattice.elements, *lattice.field_data);

    DynamicApertureResult r;
    r.grid = make_study_grid(da, optics, set_up.ref);
    r.turns = deck.lattice.turns;
    r.frequency_map = da.frequency_map;
    std::size_t const n = r.grid.size();
    // Under MPI each rank tracks its share of the grid's ids, as a beam run its beam's (the particles are
    // independent: each one's bits do not depend on the share it is in).
    parallel::ParticleShare const share = parallel::my_particle_share(static_cast<std::uint64_t>(n));
    auto const local = static_cast<std::size_t>(share.count);
    // The grid goes through the beam's generation like any beam (BeamSampler, kind grid).
    BeamSampler sampler{};
    sampler.kind = DistributionKind::grid;
    sampler.grid = r.grid;
    // A resumed study's particles are the checkpoint's (this rank's share, lost ones too).
    ParticleState state = stops && stops->resumed()
                              ? ParticleState(stops->resumed()->particles, kernels.memory())
                              : ParticleState(static_cast<size_type>(local), kernels.memory());
    if (!(stops && stops->resumed()) && local > 0) kernels.generate(state.view(), sampler, share.first);

    TurnSamples samples;
    if (da.frequency_map) {
        parallel::all_or_none([&] {
            double const bytes = 4.0 * 8.0 * double(local) * double(r.turns);
            if (bytes > 16e9)
                throw DeckError(da.where, "dynamic_aperture.frequency_map",
                                fmt::format("the frequency map keeps {} particles x {} turns x 4 coordinates "
                                            "({:.3g} GB) on the host of a rank: fewer particles or turns, or "
                                            "more ranks",
                                            local, r.turns, bytes / 1e9));
        });
        samples.n = local;
        std::size_t const all = local * static_cast<std::size_t>(r.turns);
        samples.xn.resize(all);
        samples.pxn.resize(all);
        samples.yn.resize(all);
        samples.pyn.resize(all);
    }
    auto const entries = static_cast<size_type>(lattice.elements.size());
    // The many-turn executor's chunk from the whole grid's count (every rank makes the same calls).
    std::int64_t const chunk = turns_per_call(deck.lattice.turns_per_call, double(n) * double(entries),
                                              kernels.memory() == MemSpace::device);
    std::function<void(std::int64_t)> sample;
    if (da.frequency_map)
        sample = [&](std::int64_t turn) {
            if (kernels.memory() == MemSpace::host) {
                sample_turn(samples, static_cast<std::size_t>(turn), state.view(), r.grid, optics);
            } else {
                ParticleState copy(state, MemSpace::host);
                sample_turn(samples, static_cast<std::size_t>(turn), copy.view(), r.grid, optics);
            }
        };
    GridStops grid_stops;
    if (stops) {
        grid_stops.first_turn = stops->first_turn();
        grid_stops.at_once = [&](std::int64_t turn, std::int64_t k) { return stops->turns_at_once(turn, k); };
        grid_stops.between = [&](std::int64_t turn) { return stops->between(turn, state); };
    }
    if (track_grid(kernels, state.view(), entries, r.turns, chunk, sample, grid_stops) < r.turns) {
        r.stopped = true;  // the checkpoint is written and said
        return r;
    }

    // This rank's particles: survival, loss, and with a frequency map their tunes.
    DynamicApertureResult mine;
    mine.turns = r.turns;
    ParticleState host(state, MemSpace::host);
    ParticleView const v = host.view();
    std::vector<std::int64_t> ids(local);
    mine.survived.resize(local);
    mine.lost_element.resize(local);
    mine.lost_s.resize(local);
    for (std::size_t i = 0; i < local; ++i) {
        ids[i] = static_cast<std::int64_t>(v.id[i]);
        bool const lost = v.lost_element[i] >= 0;
        mine.survived[i] = lost ? v.lost_turn[i] : r.turns;
        mine.lost_element[i] = lost ? v.lost_element[i] : -1;
        mine.lost_s[i] = lost ? lattice.info[static_cast<std::size_t>(v.lost_element[i])].s_end : k_nan;
    }
    if (da.frequency_map) frequency_map(mine, samples, static_cast<int>(da.naff_window));

    // Joined on rank 0 in rank order: the rows of a run without MPI.
    std::vector<std::int64_t> const id = parallel::gather_to_root(ids);
    r.survived = parallel::gather_to_root(mine.survived);
    r.lost_element = parallel::gather_to_root(mine.lost_element);
    r.lost_s = parallel::gather_to_root(mine.lost_s);
    if (da.frequency_map) {
        r.qx1 = parallel::gather_to_root(mine.qx1);
        r.qy1 = parallel::gather_to_root(mine.qy1);
        r.qx2 = parallel::gather_to_root(mine.qx2);
        r.qy2 = parallel::gather_to_root(mine.qy2);
        r.diffusion = parallel::gather_to_root(mine.diffusion);
    }
    if (!parallel::Communicator::world().is_root()) return r;

    std::size_t const per_delta = static_cast<std::size_t>(r.grid.n_a) * static_cast<std::size_t>(r.grid.n_b);
    r.delta.resize(n);
    r.a.resize(n);
    r.b.resize(n);
    r.x0.resize(n);
    r.y0.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
        auto const k = static_cast<std::uint64_t>(id[i]);
        std::size_t const d = k / per_delta;
        r.delta[i] = da.deltas[d];
        r.a[i] = r.grid.a_at(static_cast<std::int64_t>((k / r.grid.n_b) % r.grid.n_a));
        r.b[i] = r.grid.b_at(static_cast<std::int64_t>(k % r.grid.n_b));
        Particle const p0 = r.grid.particle(k);
        r.x0[i] = p0.x;
        r.y0[i] = p0.y;
    }
    borders(r);
    return r;
}

}  // namespace gt::study
