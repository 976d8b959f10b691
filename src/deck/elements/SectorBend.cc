// Registry entry: sbend, a sector bend (kernels/elements/SectorBend.hh: first order;
// kernels/elements/ExactBend.hh: exact) between two edges (kernels/elements/DipoleEdge.hh).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "deck/elements/ElementTypes.hh"

namespace gt::elements {

namespace {

void check(ElementCheck& c)
{
    for (char const* key : {"e1", "e2"}) {
        double const e = c.value(key);
        if (!(std::abs(e) < 1.5))
            c.fail(key, fmt::format("pole-face angle must be below 1.5 rad in magnitude (got {})", e));
    }
    for (char const* key : {"knl", "ksl"}) {
        std::size_t const n = c.numbers(key).size();
        if (n > static_cast<std::size_t>(k_multipole_terms))
            c.fail(key, fmt::format("at most {} coefficients (orders 0 to {}); got {}", k_multipole_terms,
                                    k_multipole_terms - 1, n));
    }
}

//! The body's multipole components besides k1 and k2, per unit length (kn[n] of order n): k1s, k2s, k3, k3s
//! and knl, ksl spread over the length (MAD-X-PTC's sum of KNL / L and the K's). knl[1] and knl[2] go into
//! k1 and k2 instead (the curved body field and the edges' k1), as PTC sums them.
struct BodyStrengths {
    double k1 = 0.0, k2 = 0.0;
    std::vector<double> kn, ksn;
    std::string first;  //!< the first key that gives a component the linear model lacks ("" if none)
};

BodyStrengths body_strengths(ElementBuild& b, double length)
{
    BodyStrengths s;
    s.k1 = b.value("k1");
    s.k2 = b.value("k2");
    std::vector<double> const& knl = b.numbers("knl");
    std::vector<double> const& ksl = b.numbers("ksl");
    std::size_t const n = std::max<std::size_t>({knl.size(), ksl.size(), 4});
    s.kn.assign(n, 0.0);
    s.ksn.assign(n, 0.0);
    for (std::size_t i = 0; i < knl.size(); ++i) {
        if (i == 1)
            s.k1 += knl[i] / length;
        else if (i == 2)
            s.k2 += knl[i] / length;
        else
            s.kn[i] = knl[i] / length;
        if (i != 1 && knl[i] != 0.0 && s.first.empty()) s.first = "knl";
    }
    for (std::size_t i = 0; i < ksl.size(); ++i) {
        s.ksn[i] = ksl[i] / length;
        if (ksl[i] != 0.0 && s.first.empty()) s.first = "ksl";
    }
    s.ksn[1] += b.value("k1s");
    s.ksn[2] += b.value("k2s");
    s.kn[3] += b.value("k3");
    s.ksn[3] += b.value("k3s");
    for (char const* key : {"k2", "k1s", "k2s", "k3", "k3s"})
        if (b.value(key) != 0.0 && s.first.empty()) s.first = key;
    return s;
}

void build(ElementBuild& b)
{
    double const length = b.value("length"), angle = b.value("angle");
    BodyStrengths const strengths = body_strengths(b, length);
    double const k1 = strengths.k1, k2 = strengths.k2;
    BodyMultipoleKick const body =
        BodyMultipoleKick::make(strengths.kn.data(), static_cast<int>(strengths.kn.size()),
                                strengths.ksn.data(), static_cast<int>(strengths.ksn.size()), angle / length);
    double const hgap = b.value("hgap");
    bool const exact = b.text("model") == "exact";
    if (!exact && !strengths.first.empty())
        b.fail(strengths.first,
               "a multipole component of the body other than k1 needs model = \"exact\" (the linear map has "
               "none)");
    auto const steps = b.has("kicks") ? static_cast<std::int32_t>(b.value("kicks")) : 0;
    int const n = b.slices();
    double const dl = length / n;
    double const h = angle / length;
    Element in = b.entry(ElementKind::dipole_edge);
    in.dipole_edge = exact ? DipoleEdge::make_second_order(h, b.value("e1"), b.value("fint"), hgap, k1, false)
                           : DipoleEdge::make(h, b.value("e1"), b.value("fint"), hgap);
    in.dipole_edge.c_rad = b.radiation_constant_here();
    in.dipole_edge.inv_beta = 1.0 / b.reference().beta;
    b.add(in, 0, n + 2, 0.0);
    for (int i = 0; i < n; ++i) {
        if (exact) {
            Element e = b.entry(ElementKind::exact_bend);
            e.exact_bend = ExactBend::make(dl, angle / n, k1, k2, body, steps, b.reference());
            e.exact_bend.c_rad = b.radiation_constant_here();
            b.add(e, i + 1, n + 2, dl);
        } else {
            Element e = b.entry(ElementKind::sector_bend);
            e.sector_bend = SectorBend::make(dl, angle / n, k1, b.reference());
            e.sector_bend.c_rad = b.radiation_constant_here();
            b.add(e, i + 1, n + 2, dl);
        }
    }
    Element out = b.entry(ElementKind::dipole_edge);
    out.dipole_edge = exact
                          ? DipoleEdge::make_second_order(h, b.value("e2"), b.value("fintx"), hgap, k1, true)
                          : DipoleEdge::make(h, b.value("e2"), b.value("fintx"), hgap);
    out.dipole_edge.c_rad = b.radiation_constant_here();
    out.dipole_edge.inv_beta = 1.0 / b.reference().beta;
    b.add(out, n + 1, n + 2, 0.0);
}

std::string describe(Element const& e, ReferenceParticle const&)
{
    if (e.kind == ElementKind::dipole_edge) {
        auto const& d = e.dipole_edge;
        return fmt::format("e={:.6g} mrad, h={:.6g} 1/m, psi={:.6g} mrad{}", d.e * 1e3, d.h, d.psi * 1e3,
                           d.second_order ? ", second order" : "");
    }
    if (e.kind == ElementKind::exact_bend) {
        auto const& b = e.exact_bend;
        std::string body;
        double factorial = 1.0;
        for (int n = 0; n < b.body.terms; ++n) {
            if (n > 0) factorial *= n;
            if (b.body.normal[n] != 0.0) body += fmt::format(", k{}={:.6g}", n, b.body.normal[n] * factorial);
            if (b.body.skew[n] != 0.0) body += fmt::format(", k{}s={:.6g}", n, b.body.skew[n] * factorial);
        }
        return fmt::format("angle={:.6g} mrad, rho={:.6g} m{}{}{}, exact{}", b.angle * 1e3,
                           b.length / b.angle,
                           b.k1 != 0.0 ? fmt::format(", k1={:.6g} 1/m^2", b.k1) : std::string{},
                           b.k2 != 0.0 ? fmt::format(", k2={:.6g} 1/m^3", b.k2) : std::string{}, body,
                           b.kicked ? fmt::format(", {} steps", b.steps) : std::string{});
    }
    auto const& b = e.sector_bend;
    return fmt::format("angle={:.6g} mrad, rho={:.6g} m{}", b.angle * 1e3, b.length / b.angle,
                       b.k1 != 0.0 ? fmt::format(", k1={:.6g} 1/m^2", b.k1) : std::string{});
}

}  // namespace

ElementSpec sbend_type()
{
    using namespace quantity;
    ElementSpec s;
    s.type = "sbend";
    s.doc = "sector bend with pole-face angles and edge focusing";
    s.params = {
        required("length", length, Bound::positive, "arc length"),
        required("angle", angle, Bound::any, "bending angle"),
        optional("e1", angle, Bound::any, 0.0, "entrance pole-face angle"),
        optional("e2", angle, Bound::any, 0.0, "exit pole-face angle"),
        optional("fint", dimensionless, Bound::non_negative, 0.0, "entrance fringe-field integral"),
        documented(optional("fintx", dimensionless, Bound::non_negative, 0.0, "exit fringe-field integral"),
                   "`fint`"),
        optional("hgap", length, Bound::non_negative, 0.0, "half gap of the magnet (fringe field)"),
        optional("k1", per_length2, Bound::any, 0.0, "normalized gradient (combined-function bend)"),
        optional("k2", per_length3, Bound::any, 0.0,
                 "normalized sextupole component of the body (`model = \"exact\"`; ELEGANT CSBEND K2)"),
        optional("k1s", per_length2, Bound::any, 0.0,
                 "normalized skew-quadrupole component of the body (`model = \"exact\"`: a kick in the split "
                 "steps)"),
        optional("k2s", per_length3, Bound::any, 0.0, "normalized skew-sextupole component (as `k1s`)"),
        optional("k3", per_length4, Bound::any, 0.0,
                 "normalized octupole component (as `k1s`; ELEGANT CSBEND K3)"),
        optional("k3s", per_length4, Bound::any, 0.0, "normalized skew-octupole component (as `k1s`)"),
        documented(
            array("knl",
                  "integrated normal components of the body, knl[n] of order n as a MAD-X multipole's, "
                  "spread over the length: knl[1]/length adds to k1, knl[2]/length to k2, the others "
                  "are kicks in the split steps (`model = \"exact\"` but for knl[1])"),
            "`[]`", "array of bare numbers", "1/mⁿ"),
        documented(array("ksl", "integrated skew components of the body (as `knl`; `model = \"exact\"`)"),
                   "`[]`", "array of bare numbers", "1/mⁿ"),
        choice("model", {"linear", "exact"}, "exact",
               "body and edges: first-order maps at the design momentum, or the exact body (closed form for "
               "a pure dipole, split steps with k1, k2 and the other components) with second-order edges "
               "(MAD-X's chromaticity)"),
        documented(conditional_integer("kicks",
                                       "steps per slice for k1, k2 and the other components with "
                                       "`model = \"exact\"`"),
                   "one per 0.25 of sqrt(\\|k1\\|) L, cbrt(\\|k2\\|) L, \\|kn\\|^(1/(n+1)) L, \\|angle\\|"),
        flag("csr",
             "coherent synchrotron radiation after every body slice (R = length / \\|angle\\|): steady "
             "state, or with the entrance transient and the drift wake after the bend (`[collective]` "
             "`csr_transient`, `csr_drift`)"),
    };
    s.madx = {"sbend", "rbend"};
    s.elegant = {"SBEN", "SBEND", "CSBEND", "CSBEN", "NIBEND", "RBEN", "RBEND"};
    s.check = check;
    s.build = build;
    s.describe = describe;
    return s;
}

}  // namespace gt::elements
