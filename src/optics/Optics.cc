// Linear optics from tracked probe particles (see Optics.hh and docs/optics.md).
#include "optics/Optics.hh"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include <fmt/format.h>

#include "kernels/elements/Element.hh"
#include "optics/ModeAnalysis.hh"

namespace gt::optics {

namespace {

using Table = std::vector<Element>;
using constants::two_pi;

Particle particle(Vec6 const& z) { return Particle{z[0], z[1], z[2], z[3], z[4], z[5]}; }
Vec6 vec(Particle const& p) { return Vec6{p.x, p.px, p.y, p.py, p.t, p.pt}; }

//! What tracks the probes: the lattice's table and its names for messages.
struct Tracker {
    Table const& table;
    Lattice const& lattice;

    [[noreturn]] void lost(std::size_t i, char const* what) const
    {
        ElementInfo const& in = lattice.info[i];
        throw std::runtime_error(fmt::format(
            "{} was lost at entry {} ('{}', {}, s = {:.6g} m): an aperture, or an orbit or amplitude the "
            "element cannot carry",
            what, i, in.name, in.type, in.s_end));
    }

    //! One pass of one particle; `seen(i, z)` after each entry.
    template <class F>
    Vec6 pass(Vec6 const& z, char const* what, F&& seen) const
    {
        Particle p = particle(z);
        for (std::size_t i = 0; i < table.size(); ++i) {
            if (!track_element<ElementCases::all>(table[i], p)) lost(i, what);
            seen(i, p);
        }
        return vec(p);
    }
    Vec6 pass(Vec6 const& z, char const* what) const
    {
        return pass(z, what, [](std::size_t, Particle const&) {});
    }

    //! The 6x6 matrix of one pass about z: centred differences with steps h and 2h, Richardson-extrapolated,
    //! (4 D(h) - D(2h)) / 3, which removes the h^2 term of the centred difference (the map's third
    //! derivative: strong sextupoles and octupoles make it large) and leaves O(h^4).
    Mat6 matrix(Vec6 const& z, double h) const
    {
        Mat6 m{};
        for (int k = 0; k < 6; ++k) {
            Vec6 a = z, b = z, a2 = z, b2 = z;
            a[k] += h;
            b[k] -= h;
            a2[k] += 2.0 * h;
            b2[k] -= 2.0 * h;
            Vec6 const fa = pass(a, "a probe particle"), fb = pass(b, "a probe particle");
            Vec6 const fa2 = pass(a2, "a probe particle"), fb2 = pass(b2, "a probe particle");
            for (int i = 0; i < 6; ++i) m[i][k] = richardson(fa[i], fb[i], fa2[i], fb2[i], h);
        }
        return m;
    }

    static double richardson(double a, double b, double a2, double b2, double h)
    {
        double const d1 = (a - b) / (2.0 * h), d2 = (a2 - b2) / (4.0 * h);
        return (4.0 * d1 - d2) / 3.0;
    }
};

//! Solves a (n x n leading block) x = b by Gaussian elimination with partial pivoting; false if singular.
bool solve(Mat6 a, std::array<double, 6>& b, int n)
{
    for (int c = 0; c < n; ++c) {
        int piv = c;
        for (int r = c + 1; r < n; ++r)
            if (std::abs(a[r][c]) > std::abs(a[piv][c])) piv = r;
        if (a[piv][c] == 0.0) return false;
        std::swap(a[c], a[piv]);
        std::swap(b[c], b[piv]);
        for (int r = c + 1; r < n; ++r) {
            double const f = a[r][c] / a[c][c];
            for (int k = c; k < n; ++k) a[r][k] -= f * a[c][k];
            b[r] -= f * b[c];
        }
    }
    for (int r = n - 1; r >= 0; --r) {
        for (int k = r + 1; k < n; ++k) b[r] -= a[r][k] * b[k];
        b[r] /= a[r][r];
    }
    return true;
}

struct Orbit {
    Vec6 z{};
    int iterations = 0;
    double residual = 0;
};

//! Closed orbit by Newton's iteration on the one-turn map F: z <- z - (M - 1)^-1 (F(z) - z) over the
//! first n coordinates (4: x, px, y, py at the fixed t, pt of `guess`; 6: all, with RF). It converges
//! quadratically; it stops when the residual no longer falls (the round-off floor).
Orbit closed_orbit(Tracker const& tr, Vec6 guess, int n, double h)
{
    Orbit o;
    o.z = guess;
    double best = INFINITY;
    Vec6 best_z = guess;
    for (int it = 0; it < 40; ++it) {
        Vec6 const f = tr.pass(o.z, "the closed-orbit particle");
        std::array<double, 6> r{};
        double res = 0;
        int worst = 0;
        for (int i = 0; i < n; ++i) {
            r[i] = f[i] - o.z[i];
            if (std::abs(r[i]) > res) {
                res = std::abs(r[i]);
                worst = i;
            }
        }
        if (!std::isfinite(res)) break;
        if (res < best) {
            best = res;
            best_z = o.z;
            o.iterations = it;
        } else if (best < 1e-12) {
            break;  // the round-off floor: the previous iterate is the orbit
        }
        if (res == 0.0) break;
        Mat6 m = tr.matrix(o.z, h);
        for (int i = 0; i < n; ++i) m[i][i] -= 1.0;
        if (!solve(m, r, n)) {
            int const plane = worst / 2;
            throw std::runtime_error(fmt::format(
                "no closed orbit in the {} plane: M - 1 of the one-turn map is singular (an integer tune)",
                plane_name(plane)));
        }
        for (int i = 0; i < n; ++i) o.z[i] -= r[i];
        (void)worst;
    }
    o.z = best_z;
    o.residual = best;
    if (!(best < 1e-10)) {
        throw std::runtime_error(fmt::format(
            "no closed orbit: Newton's iteration on the one-turn map did not converge (best residual "
            "{:.3g} m or rad): the distortion is too large for the lattice, or a tune is near an integer",
            best));
    }
    return o;
}

//! The table with every RF cavity's kick removed (4D optics at fixed energy): only for cavities that
//! leave the reference energy alone.
Table without_rf(Table table)
{
    for (Element& e : table)
        if (e.kind == ElementKind::rf_cavity) e.rf_cavity.kick = 0.0;
    return table;
}

bool has_rf(Table const& table)
{
    for (Element const& e : table)
        if (e.kind == ElementKind::rf_cavity && e.rf_cavity.voltage != 0.0) return true;
    return false;
}

//! pt (gtrack's sign: pt = -dE / (p_ref c)) of a particle of relative momentum deviation delta.
double pt_of_delta(double delta, double beta, double beta_gamma)
{
    double const g = 1.0 / (beta_gamma * beta_gamma);
    // 1/beta - sqrt((1+delta)^2 + 1/(beta gamma)^2), without cancellation for small delta.
    double const a = (1.0 + delta) * (1.0 + delta) + g;
    double const e0 = 1.0 / beta;
    return -(a - e0 * e0) / (std::sqrt(a) + e0);
}

//! The fractional tunes [0, 1) of the 4x4 block of m: plane by plane when uncoupled, else normal modes.
std::array<double, 2> fractional_tunes(Mat6 const& m, bool coupled)
{
    if (!coupled) return {plane_mode(m, 0).mu / two_pi, plane_mode(m, 1).mu / two_pi};
    auto const modes = normal_modes(m, 4);
    return {modes[0].mu / two_pi, modes[1].mu / two_pi};
}

double wrap_half(double d) { return d - std::round(d); }

//! The layout row of each occurrence and the strength the plot draws.
std::vector<LayoutRow> layout_of(DeckConfig const& deck, Lattice const& lattice)
{
    std::vector<LayoutRow> rows;
    for (std::size_t i = 0; i < lattice.info.size(); ++i) {
        ElementInfo const& in = lattice.info[i];
        if (in.deck_index < 0 || in.slice != 0) continue;
        std::size_t last = i;
        while (last + 1 < lattice.info.size() && lattice.info[last].slice + 1 < lattice.info[last].slices)
            ++last;
        ElementConfig const& cfg = deck.elements[static_cast<std::size_t>(in.deck_index)];
        LayoutRow r;
        r.s_start = in.s_begin;
        r.length = lattice.info[last].s_end - in.s_begin;
        r.type = in.type;
        if (in.type == "quadrupole") r.strength = cfg.get("k1", 0.0);
        if (in.type == "sbend") r.strength = cfg.get("angle", 0.0);
        if (in.type == "sextupole") r.strength = cfg.get("k2", 0.0);
        rows.push_back(r);
    }
    return rows;
}

}  // namespace

OpticsResult compute_optics(DeckConfig const& deck, Lattice const& lattice, OpticsOptions const& options)
{
    OpticsResult res;
    res.periodic = options.periodic;
    res.length = lattice.length;
    ReferenceParticle const& ref = lattice.reference_begin;
    res.gamma = ref.gamma;
    res.beta = ref.beta;
    res.layout = layout_of(deck, lattice);
    if (options.radiating && options.radiating->elements.size() != lattice.elements.size())
        throw std::logic_error(
            "compute_optics: the radiating table has other entries than the optics' table");
    if (lattice.changes_reference_energy())
        throw std::runtime_error(
            "the lattice changes the reference energy (an RF cavity off the zero crossing): its optics is "
            "not computed (the transverse maps are not symplectic and a ring has no fixed reference)");

    Table const full = lattice.elements;
    Table const fixed_energy = without_rf(full);
    Tracker const tr4{fixed_energy, lattice};
    // The 6D orbit's table: with RF, and with the magnets' radiation in the 6D model.
    Lattice const& six = options.radiating ? *options.radiating : lattice;
    Table const& full6 = six.elements;
    Tracker const tr6{full6, six};
    res.rf_on = has_rf(full) && !options.rf_gain_left_out;
    res.model = options.radiating && res.rf_on ? "6d" : "4d";
    double const h = options.step;

    // Closed orbit (rings) or the reference trajectory (lines).
    Vec6 start{};
    if (res.periodic) {
        if (res.rf_on) {
            Orbit const o6 = closed_orbit(tr6, Vec6{}, 6, h);
            res.closed_orbit = o6.z;
            // The transverse optics at the energy of the 6D orbit, with the cavities' kicks removed; with
            // radiation at the design energy (the 6D orbit's energy varies along the ring: MAD-X's TWISS
            // and the 4D model's optics).
            Vec6 g{};
            g[5] = options.radiating ? 0.0 : o6.z[5];
            Orbit const o4 = closed_orbit(tr4, g, 4, h);
            start = o4.z;
            res.orbit_iterations = o6.iterations;
            res.orbit_residual = std::max(o6.residual, o4.residual);
        } else {
            Orbit const o4 = closed_orbit(tr4, Vec6{}, 4, h);
            start = res.closed_orbit = o4.z;
            res.orbit_iterations = o4.iterations;
            res.orbit_residual = o4.residual;
        }
    }

    // One-turn matrix about the orbit. The extrapolated matrix's error is c4 h^4 plus rounding; the one at
    // 2h differs from it by ~15 c4 h^4 plus rounding, so |M(h) - M(2h)| / 15 estimates what is left (an
    // upper bound where rounding dominates).
    Mat6 const m = tr4.matrix(start, h);
    Mat6 const m2 = tr4.matrix(start, 2.0 * h);
    for (int i = 0; i < 6; ++i)
        for (int j = 0; j < 6; ++j)
            res.matrix_error = std::max(res.matrix_error, std::abs(m[i][j] - m2[i][j]) / 15.0);
    res.one_turn = m;

    double offdiag = 0;
    for (int i = 0; i < 2; ++i)
        for (int j = 2; j < 4; ++j) offdiag = std::max({offdiag, std::abs(m[i][j]), std::abs(m[j][i])});
    // Coupled when the x-y blocks stand out of the difference noise.
    res.coupled = offdiag > std::max(1e-9, 100.0 * res.matrix_error);

    // Initial eigenvectors (x mode, y mode) and dispersion [d/d pt].
    CVec6 v1{}, v2{};
    std::array<double, 6> d_pt{};  // (x, px, y, py) per unit pt at the start
    if (res.periodic) {
        if (!res.coupled) {  // x-y terms zero, or within the differences' noise: plane by plane
            v1 = plane_mode(m, 0).v;
            v2 = plane_mode(m, 1).v;
        } else {
            auto const modes = normal_modes(m, 4);
            v1 = modes[0].v;
            v2 = modes[1].v;
        }
        Mat6 a{};
        for (int i = 0; i < 4; ++i) {
            for (int j = 0; j < 4; ++j) a[i][j] = (i == j ? 1.0 : 0.0) - m[i][j];
            d_pt[i] = m[i][5];
        }
        if (!solve(a, d_pt, 4))
            throw std::runtime_error(
                "no periodic dispersion: 1 - M of the one-turn matrix is singular (an integer tune)");
    } else {
        v1 = twiss_vector(deck.beam.x.beta, deck.beam.x.alpha, 0);
        v2 = twiss_vector(deck.beam.y.beta, deck.beam.y.alpha, 1);
    }
    res.mode_note =
        res.coupled ? "coupled: beta, alpha and mu are Mais-Ripken's of the mode mostly in each plane "
                      "(beta_x = beta_1x, beta_y = beta_2y); the cross-plane betas (beta_1y, beta_2x) and "
                      "Edwards-Teng parameters are not computed; tunes are the eigen-tunes"
                    : "uncoupled";

    // One pass of the probes (the orbit and +-h in each coordinate) through the fixed-energy table:
    // the matrix from the start to every entry's exit, the propagated eigenvectors and dispersion.
    std::array<Particle, 25> probes;
    probes[0] = particle(start);
    for (int k = 0; k < 6; ++k) {
        for (int n = 1; n <= 2; ++n) {
            Vec6 a = start, b = start;
            a[k] += n * h;
            b[k] -= n * h;
            probes[static_cast<std::size_t>(4 * k + 2 * n - 1)] = particle(a);
            probes[static_cast<std::size_t>(4 * k + 2 * n)] = particle(b);
        }
    }
    double const dpt_ddelta = -ref.beta;  // pt = -beta delta to first order
    auto row_at = [&](double s, std::string name, std::string type, Mat6 const& r, double phase1,
                      double phase2, Vec6 const& orbit) {
        OpticsRow row;
        row.s = s;
        row.name = std::move(name);
        row.type = std::move(type);
        CVec6 w1{}, w2{};
        for (int i = 0; i < 4; ++i)
            for (int j = 0; j < 4; ++j) {
                w1[i] += r[i][j] * v1[j];
                w2[i] += r[i][j] * v2[j];
            }
        row.beta_x = 2.0 * std::norm(w1[0]);
        row.alpha_x = -2.0 * std::real(std::conj(w1[0]) * w1[1]);
        row.beta_y = 2.0 * std::norm(w2[2]);
        row.alpha_y = -2.0 * std::real(std::conj(w2[2]) * w2[3]);
        row.mu_x = phase1 / two_pi;
        row.mu_y = phase2 / two_pi;
        std::array<double, 4> d{};
        for (int i = 0; i < 4; ++i) {
            d[i] = r[i][5];
            for (int j = 0; j < 4; ++j) d[i] += r[i][j] * d_pt[j];
            d[i] = d[i] * dpt_ddelta + 0.0;  // + 0.0: no negative zero where there is no dispersion
        }
        row.d_x = d[0];
        row.dp_x = d[1];
        row.d_y = d[2];
        row.dp_y = d[3];
        row.orbit = orbit;
        return row;
    };
    Mat6 ident{};
    for (int i = 0; i < 6; ++i) ident[i][i] = 1.0;
    res.rows.push_back(
        row_at(0.0, "start", "marker", ident, 0.0, 0.0, res.periodic ? res.closed_orbit : start));

    // The orbit column: the 6D orbit through the table with RF where RF is on, else the centre probe.
    Particle orbit = particle(res.periodic ? res.closed_orbit : start);
    double phase1 = 0, phase2 = 0, arg1 = std::arg(v1[0]), arg2 = std::arg(v2[2]);
    for (std::size_t i = 0; i < fixed_energy.size(); ++i) {
        for (std::size_t k = 0; k < probes.size(); ++k)
            if (!track_element<ElementCases::all>(fixed_energy[i], probes[k]))
                tr4.lost(i, k == 0 ? "the orbit particle" : "a probe particle");
        if (res.rf_on && !track_element<ElementCases::all>(full6[i], orbit))
            tr6.lost(i, "the 6D closed orbit");
        Mat6 r{};
        for (int k = 0; k < 6; ++k) {
            auto const at = [&](int n) { return vec(probes[static_cast<std::size_t>(n)]); };
            for (int j = 0; j < 6; ++j)
                r[j][k] = Tracker::richardson(at(4 * k + 1)[j], at(4 * k + 2)[j], at(4 * k + 3)[j],
                                              at(4 * k + 4)[j], h);
        }
        // Phase advance: the argument of the propagated eigenvector, unwrapped entry by entry (an entry
        // advances it by less than pi; a thin entry by zero, so rounding below zero is not a turn).
        Complex w1 = 0.0, w2 = 0.0;
        for (int j = 0; j < 4; ++j) {
            w1 += r[0][j] * v1[j];
            w2 += r[2][j] * v2[j];
        }
        auto advance = [](double& phase, double& last, double now) {
            double d = now - last;
            while (d < -0.5 * constants::pi) d += two_pi;
            while (d >= 1.5 * constants::pi) d -= two_pi;
            phase += d;
            last = now;
        };
        advance(phase1, arg1, std::arg(w1));
        advance(phase2, arg2, std::arg(w2));
        ElementInfo const& in = lattice.info[i];
        bool const exit = in.deck_index >= 0 && in.slice + 1 == in.slices;
        if (exit)
            res.rows.push_back(row_at(in.s_end, in.name, in.type, r, phase1, phase2,
                                      res.rf_on ? vec(orbit) : vec(probes[0])));
    }
    res.tune_x = phase1 / two_pi;
    res.tune_y = phase2 / two_pi;
    if (!res.periodic) {
        res.chroma_x = res.chroma_y = res.momentum_compaction = res.slip_factor = NAN;
        return res;
    }

    // Chromaticity dQ/d delta: the 4D closed orbit and tunes at delta = +-dd, +-2 dd (five-point
    // stencil, error dd^4 Q^(5) / 30).
    double const dd = options.delta_step;
    auto const q0 = fractional_tunes(m, res.coupled);
    std::array<std::array<double, 2>, 4> dq{};
    std::array<double, 4> const deltas{-2.0 * dd, -dd, dd, 2.0 * dd};
    for (int k = 0; k < 4; ++k) {
        double const pt = pt_of_delta(deltas[k], ref.beta, ref.beta_gamma);
        Vec6 g = start;
        for (int i = 0; i < 4; ++i) g[i] += d_pt[i] * (pt - start[5]);
        g[5] = pt;
        Orbit const o = closed_orbit(tr4, g, 4, h);
        auto const q = fractional_tunes(tr4.matrix(o.z, h), res.coupled);
        for (int p = 0; p < 2; ++p) dq[k][p] = wrap_half(q[p] - q0[p]);
    }
    double chroma[2];
    for (int p = 0; p < 2; ++p)
        chroma[p] = (8.0 * (dq[2][p] - dq[1][p]) - (dq[3][p] - dq[0][p])) / (12.0 * dd);
    res.chroma_x = chroma[0];
    res.chroma_y = chroma[1];

    // Slip factor from the path length of the dispersive orbit: dt/dpt = M5j D_j + M56, and
    // dT/T = beta t / L with pt = -beta delta: eta = -beta^2 (dt/dpt) / L; alpha_c = eta + 1/gamma^2.
    double dt_dpt = m[4][5];
    for (int j = 0; j < 4; ++j) dt_dpt += m[4][j] * d_pt[j];
    res.slip_factor = -ref.beta * ref.beta * dt_dpt / lattice.length;
    res.momentum_compaction = res.slip_factor + 1.0 / (ref.gamma * ref.gamma);

    if (res.rf_on && options.radiating) {
        // The map with radiation damps: its eigenvalues are off the unit circle (DampedModes.hh).
        res.damped = damped_modes(tr6.matrix(res.closed_orbit, h));
        if (res.damped.back().plane != 2)
            throw std::runtime_error(
                "the 6D one-turn matrix has no mode mostly in (t, pt): no synchrotron tune");
        res.synchrotron_tune = res.damped.back().tune;
    } else if (res.rf_on) {
        Mat6 const m6 = tr6.matrix(res.closed_orbit, h);
        // The longitudinal mode: the one carrying most of its action in (t, pt). The transverse modes may
        // be degenerate here (equal tunes), which does not matter for it.
        auto const modes = normal_modes(m6, 6, false);
        if (modes.back().plane != 2)
            throw std::runtime_error(
                "the 6D one-turn matrix has no mode mostly in (t, pt): no synchrotron tune");
        double const mu = modes.back().mu;
        res.synchrotron_tune = std::min(mu, two_pi - mu) / two_pi;
    }
    return res;
}

}  // namespace gt::optics
