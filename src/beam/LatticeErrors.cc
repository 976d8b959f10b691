// Random lattice errors drawn per occurrence (see LatticeErrors.hh).
#include "beam/LatticeErrors.hh"

#include <fnmatch.h>

#include <algorithm>
#include <cmath>
#include <map>

#include <fmt/format.h>

#include "deck/ElementRegistry.hh"
#include "kernels/core/RandomStream.hh"
#include "kernels/elements/Multipole.hh"

namespace gt {

namespace {

//! Salt of the errors' Philox key, so that errors.seed equal to [run] seed draws streams unrelated to
//! the beam's (whose ids are particle ids).
constexpr std::uint64_t k_errors_salt = 0x6572726f72730000ull;  // "errors\0\0"

//! Error kinds within a group: the stream id is (occurrence << 24) | (group << 6) | kind.
enum ErrorKind : std::uint64_t { k_dx = 0, k_dy = 1, k_roll = 2, k_gradient = 3, k_b = 8, k_a = 32 };

std::uint64_t stream_id(std::int64_t occurrence, std::size_t group, std::uint64_t kind)
{
    return (static_cast<std::uint64_t>(occurrence) << 24) | (static_cast<std::uint64_t>(group) << 6) | kind;
}

bool matches(ErrorGroupConfig const& g, ElementConfig const& cfg)
{
    if (!g.type.empty() && g.type != cfg.type) return false;
    return g.match.empty() || fnmatch(g.match.c_str(), cfg.name.c_str(), 0) == 0;
}

bool any_nonzero(std::vector<double> const& v)
{
    return std::any_of(v.begin(), v.end(), [](double x) { return x != 0.0; });
}

//! The first field-error key a group gives (for the message), or "".
std::string field_error_key(ErrorGroupConfig const& g)
{
    if (g.gradient != 0.0) return "gradient";
    if (any_nonzero(g.b)) return "b";
    if (any_nonzero(g.a)) return "a";
    if (any_nonzero(g.b_random)) return "b_random";
    if (any_nonzero(g.a_random)) return "a_random";
    return "";
}

double factorial(int n)
{
    double f = 1.0;
    for (int i = 2; i <= n; ++i) f *= static_cast<double>(i);
    return f;
}

}  // namespace

bool OccurrenceErrors::has_multipoles() const { return any_nonzero(knl) || any_nonzero(ksl); }

MainField main_field_of(std::string const& type)
{
    if (type == "quadrupole") return MainField{1, "k1"};
    if (type == "sbend") return MainField{0, "k1"};
    if (type == "sextupole") return MainField{2, "k2"};
    if (type == "octupole") return MainField{3, "k3"};
    return MainField{};
}

double main_integrated_strength(ElementConfig const& cfg)
{
    MainField const m = main_field_of(cfg.type);
    if (m.order == 0) return element_value(cfg, "angle");
    if (m.order < 0) return 0.0;
    return element_value(cfg, m.key) * element_value(cfg, "length");
}

double truncated_normal(std::uint64_t seed, std::uint64_t id, double cut)
{
    // Rejection keeps the Gaussian's shape inside the cut; the reader bounds cut >= 0.5, where at least 38%
    // of the draws are kept, so the loop ends quickly; its draws follow one another in the one stream, so the
    // result depends on (seed, id) only.
    RandomStream rng(seed ^ k_errors_salt, id);
    for (;;) {
        double const z = rng.normal();
        if (std::abs(z) <= cut) return z;
    }
}

LatticeErrors draw_lattice_errors(DeckConfig const& deck, std::vector<std::string> const& names)
{
    LatticeErrors out;
    ErrorsConfig const& ec = deck.errors;
    if (ec.empty()) return out;
    out.seed = ec.seed.value_or(0);
    std::map<std::string, ElementConfig const*> by_name;
    for (auto const& e : deck.elements) by_name.emplace(e.name, &e);
    std::vector<std::size_t> matched(ec.groups.size(), 0);
    std::vector<bool> refused(ec.groups.size(), false);
    std::vector<Diagnostic> problems;
    for (std::size_t o = 0; o < names.size(); ++o) {
        ElementConfig const& cfg = *by_name.at(names[o]);
        OccurrenceErrors row;
        row.occurrence = static_cast<std::int64_t>(o);
        row.name = cfg.name;
        row.type = cfg.type;
        bool any = false;
        for (std::size_t gi = 0; gi < ec.groups.size(); ++gi) {
            ErrorGroupConfig const& g = ec.groups[gi];
            if (!matches(g, cfg)) continue;
            any = true;
            ++matched[gi];
            MainField const main = main_field_of(cfg.type);
            std::string const field_key = field_error_key(g);
            if (!field_key.empty() && main.order < 0) {
                if (!refused[gi])
                    problems.push_back(Diagnostic{
                        g.where, "errors." + g.name + "." + field_key,
                        fmt::format(
                            "matches element '{}' of type {}, which cannot carry a field error: a "
                            "relative gradient or multipole components need a main field (quadrupole, "
                            "sbend, sextupole or octupole); narrow the group with `type` or `match`",
                            cfg.name, cfg.type)});
                refused[gi] = true;
                continue;
            }
            double const cut = g.truncation > 0.0 ? g.truncation : ec.truncation;
            auto const draw = [&](std::uint64_t kind, double sigma) {
                return sigma > 0.0
                           ? sigma * truncated_normal(out.seed, stream_id(row.occurrence, gi, kind), cut)
                           : 0.0;
            };
            row.dx += draw(k_dx, g.dx);
            row.dy += draw(k_dy, g.dy);
            row.roll += draw(k_roll, g.roll);
            row.gradient += draw(k_gradient, g.gradient);
            std::size_t const orders =
                std::max({g.b.size(), g.a.size(), g.b_random.size(), g.a_random.size()});
            if (orders == 0) continue;
            // MAD-X EFCOMP's relative components (MAD-X user guide, "EFCOMP"): b_n is the normal field of
            // order n at the reference radius r0 relative to the main field of order m there, so
            //   knl_n = b_n K_m L n! / m! r0^(m - n)   (and ksl_n from a_n alike),
            // from B_y(x) = B rho knl_n x^n / (n! L) for each order.
            double const kml = main_integrated_strength(cfg);
            if (row.knl.size() < orders) row.knl.resize(orders, 0.0);
            if (row.ksl.size() < orders) row.ksl.resize(orders, 0.0);
            for (std::size_t n = 0; n < orders; ++n) {
                auto const at = [n](std::vector<double> const& v) { return n < v.size() ? v[n] : 0.0; };
                double const scale = kml * factorial(static_cast<int>(n)) / factorial(main.order) *
                                     std::pow(g.reference_radius, main.order - static_cast<int>(n));
                double const bn = at(g.b) + draw(k_b + n, at(g.b_random));
                double const an = at(g.a) + draw(k_a + n, at(g.a_random));
                row.knl[n] += bn * scale;
                row.ksl[n] += an * scale;
            }
        }
        if (any) out.rows.push_back(std::move(row));
    }
    for (std::size_t gi = 0; gi < ec.groups.size(); ++gi)
        if (matched[gi] == 0) {
            ErrorGroupConfig const& g = ec.groups[gi];
            problems.push_back(Diagnostic{g.where, "errors." + g.name,
                                          fmt::format("matches no element of the tracked line ({}{}{})",
                                                      g.type.empty() ? "" : "type = \"" + g.type + "\"",
                                                      !g.type.empty() && !g.match.empty() ? ", " : "",
                                                      g.match.empty() ? "" : "match = \"" + g.match + "\"")});
        }
    if (!problems.empty()) throw DeckError(problems);
    static_assert(k_a + k_multipole_terms <= 64, "the error kinds of a group fit in 6 bits");
    return out;
}

ElementConfig with_errors(ElementConfig const& cfg, OccurrenceErrors const& e)
{
    ElementConfig c = cfg;
    if (e.dx != 0.0) c.values["dx"] = element_value(cfg, "dx") + e.dx;
    if (e.dy != 0.0) c.values["dy"] = element_value(cfg, "dy") + e.dy;
    if (e.roll != 0.0) c.values["tilt"] = element_value(cfg, "tilt") + e.roll;
    if (MainField const m = main_field_of(cfg.type); e.gradient != 0.0 && element_value(cfg, m.key) != 0.0)
        c.values[m.key] = element_value(cfg, m.key) * (1.0 + e.gradient);
    return c;
}

}  // namespace gt
