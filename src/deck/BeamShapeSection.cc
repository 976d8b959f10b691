// [beam.twiss] and [beam.sigma]: the shape of a generated bunch.
#include "deck/DeckSections.hh"

#include <algorithm>
#include <array>
#include <cmath>

#include <fmt/format.h>

#include "deck/DeckText.hh"

namespace gt::deck {

namespace {

//! Why a symmetric matrix is not a covariance, or nullopt. Works on the correlation matrix, so
//! that entries of different units (m^2, rad^2) do not upset the tolerance.
std::optional<std::string> not_positive_semidefinite(std::array<double, 36> const& m)
{
    std::array<double, 6> scale{};
    for (std::size_t i = 0; i < 6; ++i) {
        double const d = m[7 * i];
        if (d < 0) return fmt::format("the variance matrix[{}][{}] = {} is negative", i, i, d);
        scale[i] = d > 0 ? 1.0 / std::sqrt(d) : 0.0;
        for (std::size_t j = 0; j < 6; ++j)
            if (d == 0 && m[6 * i + j] != 0)
                return fmt::format(
                    "matrix[{}][{}] = {} is non-zero although the variance matrix[{}][{}] is 0", i, j,
                    m[6 * i + j], i, i);
    }
    double const tolerance = 1e-10;
    std::array<double, 36> l{};
    for (std::size_t j = 0; j < 6; ++j) {
        double d = m[7 * j] * scale[j] * scale[j];
        for (std::size_t k = 0; k < j; ++k) d -= l[6 * j + k] * l[6 * j + k];
        if (d < -tolerance) return fmt::format("Cholesky pivot {} is {:.3g} < 0", j, d);
        l[7 * j] = d > tolerance ? std::sqrt(d) : 0.0;
        for (std::size_t i = j + 1; i < 6; ++i) {
            double v = m[6 * i + j] * scale[i] * scale[j];
            for (std::size_t k = 0; k < j; ++k) v -= l[6 * i + k] * l[6 * j + k];
            if (l[7 * j] == 0.0) {
                if (std::abs(v) > 1e-8)
                    return fmt::format("rows {} and {} are inconsistent (correlation > 1)", j, i);
            } else {
                l[6 * i + j] = v / l[7 * j];
            }
        }
    }
    return std::nullopt;
}

}  // namespace

void read_twiss(DeckContext& ctx, toml::table const& t, BeamConfig& beam)
{
    std::string const path = "beam.twiss";
    ctx.check_keys(t, path,
                   {"beta_x", "alpha_x", "emittance_x", "beta_y", "alpha_y", "emittance_y", "sigma_t",
                    "sigma_pt", "chirp", "periodic"});
    // periodic = true: beta and alpha come from the ring's periodic solution, found where the beam is
    // made (BeamConfig::periodic, optics/PeriodicTwiss.hh): the reader only records that.
    bool periodic = false;
    if (auto v = ctx.bool_at(t, path, "periodic")) periodic = *v;
    auto plane = [&](TwissPlane& p, std::string_view axis) {
        // periodic = true: the ring gives beta and alpha (a value given as well would be ignored: refused).
        for (char const* k : {"beta_", "alpha_"})
            if (periodic && t.contains(fmt::format("{}{}", k, axis)))
                ctx.error(ctx.where(*t.get(fmt::format("{}{}", k, axis))),
                          fmt::format("{}.{}{}", path, k, axis),
                          "periodic = true takes beta and alpha from the ring's periodic solution: remove "
                          "this key");
        if (auto b = ctx.quantity_at(t, path, fmt::format("beta_{}", axis), quantity::length, Bound::positive,
                                     !periodic))
            p.beta = *b;
        if (auto a = ctx.quantity_at(t, path, fmt::format("alpha_{}", axis), quantity::dimensionless,
                                     Bound::any, false))
            p.alpha = *a;
        if (auto e = ctx.quantity_at(t, path, fmt::format("emittance_{}", axis), quantity::emittance,
                                     Bound::non_negative, true))
            p.emittance = *e;
    };
    plane(beam.x, "x");
    plane(beam.y, "y");
    beam.periodic = periodic;
    if (auto v = ctx.quantity_at(t, path, "sigma_t", quantity::path_length, Bound::non_negative, false))
        beam.sigma_t = *v;
    if (auto v = ctx.quantity_at(t, path, "sigma_pt", quantity::dimensionless, Bound::non_negative, false))
        beam.sigma_pt = *v;
    if (auto v = ctx.quantity_at(t, path, "chirp", quantity::per_length, Bound::any, false)) beam.chirp = *v;
}

void read_sigma(DeckContext& ctx, toml::table const& t, BeamConfig& beam)
{
    std::string const path = "beam.sigma";
    ctx.check_keys(t, path, {"matrix"});
    toml::node const* n = t.get("matrix");
    if (!n) {
        ctx.missing(t, path, "matrix", "a 6x6 array of numbers: the second moments of (x, px, y, py, t, pt)");
        return;
    }
    std::string const key = "beam.sigma.matrix";
    auto const* rows = n->as_array();
    if (!rows || rows->size() != 6) {
        ctx.error(ctx.where(*n), key,
                  fmt::format("expected 6 rows of 6 numbers, got {}",
                              rows ? fmt::format("{} rows", rows->size()) : describe_node(*n)));
        return;
    }
    std::array<double, 36> m{};
    bool ok = true;
    for (std::size_t i = 0; i < 6; ++i) {
        toml::node const& row = *rows->get(i);
        std::string const row_key = fmt::format("{}[{}]", key, i);
        auto const* r = row.as_array();
        if (!r || r->size() != 6) {
            ctx.error(ctx.where(row), row_key,
                      fmt::format("expected a row of 6 numbers, got {}",
                                  r ? fmt::format("{} entries", r->size()) : describe_node(row)));
            ok = false;
            continue;
        }
        if (auto values = ctx.numbers_of(row, row_key)) {
            for (std::size_t j = 0; j < 6; ++j) m[6 * i + j] = (*values)[j];
        } else {
            ok = false;
        }
    }
    if (!ok) return;
    // Symmetry, to rounding: a 6x6 covariance written by hand or by a script.
    int asymmetric = 0;
    std::string first;
    for (std::size_t i = 0; i < 6; ++i) {
        for (std::size_t j = i + 1; j < 6; ++j) {
            double const a = m[6 * i + j], b = m[6 * j + i];
            if (std::abs(a - b) > 1e-12 * std::max(std::abs(a), std::abs(b))) {
                if (asymmetric++ == 0)
                    first = fmt::format("matrix[{}][{}] = {} but matrix[{}][{}] = {}", i, j, a, j, i, b);
            }
        }
    }
    if (asymmetric > 0) {
        ctx.error(ctx.where(*n), key,
                  fmt::format("the second-moment matrix must be symmetric: {}{}", first,
                              asymmetric > 1 ? fmt::format(" ({} more pairs differ)", asymmetric - 1) : ""));
        return;
    }
    if (auto why = not_positive_semidefinite(m)) {
        ctx.error(ctx.where(*n), key,
                  fmt::format("the second-moment matrix is not positive semi-definite: {}", *why));
        return;
    }
    beam.sigma_matrix = m;
}

}  // namespace gt::deck
