// Registry entry: multipole, a thin kick of any order, and with `angle` a thin bend of the reference
// (kernels/elements/Multipole.hh).
#include <fmt/format.h>

#include "deck/elements/ElementTypes.hh"

namespace gt::elements {

namespace {

void check(ElementCheck& c)
{
    for (char const* key : {"knl", "ksl"}) {
        std::size_t const n = c.numbers(key).size();
        if (n > static_cast<std::size_t>(k_multipole_terms))
            c.fail(key, fmt::format("at most {} coefficients (orders 0 to {}); got {}", k_multipole_terms,
                                    k_multipole_terms - 1, n));
    }
    // lrad sets the weak focusing of a thin bend only: alone it would do nothing, say so.
    if (c.value("lrad") != 0.0 && c.value("angle") == 0.0)
        c.fail("lrad",
               "lrad acts with a bend angle only (the weak focusing knl[0] angle / lrad): give angle");
}

void build(ElementBuild& b)
{
    std::vector<double> const& knl = b.numbers("knl");
    std::vector<double> const& ksl = b.numbers("ksl");
    Element e = b.entry(ElementKind::multipole);
    e.multipole =
        Multipole::make(knl.data(), static_cast<int>(knl.size()), ksl.data(), static_cast<int>(ksl.size()));
    if (double const angle = b.value("angle"); angle != 0.0)
        e.multipole = e.multipole.bending(angle, b.value("lrad"), b.reference());
    b.add(e, 0, 1, 0.0);
}

std::string describe(Element const& e, ReferenceParticle const&)
{
    auto const& m = e.multipole;
    std::string kn, ks;
    double factorial = 1.0;
    for (int n = 0; n < m.terms; ++n) {
        if (n > 0) factorial *= n;
        kn += fmt::format("{}{:.6g}", n ? ", " : "", m.normal[n] * factorial);
        ks += fmt::format("{}{:.6g}", n ? ", " : "", m.skew[n] * factorial);
    }
    std::string const bend =
        m.angle != 0.0 ? fmt::format(", angle={:.6g} rad, weak focusing {:.6g} /m", m.angle, m.focusing) : "";
    return "knl=[" + kn + "], ksl=[" + ks + "]" + bend;
}

}  // namespace

ElementSpec multipole_type()
{
    ElementSpec s;
    s.type = "multipole";
    s.doc = "thin multipole kick of any order; with angle, a thin bend";
    s.params = {
        documented(array("knl", "integrated normal strengths, knl[n] of order n"), "`[]`",
                   "array of bare numbers", "1/mⁿ"),
        documented(array("ksl", "integrated skew strengths"), "`[]`", "array of bare numbers", "1/mⁿ"),
        optional(
            "angle", quantity::angle, Bound::any, 0.0,
            "bend of the reference orbit: a thin bend (MAD-X's knl[0] of a thin dipole, MAKETHIN's slices)"),
        optional("lrad", quantity::length, Bound::non_negative, 0.0,
                 "length of a thin bend's weak focusing knl[0] angle / lrad (0: none, as MAD-X)"),
    };
    s.madx = {"multipole"};
    s.elegant = {"MULT"};
    s.check = check;
    s.build = build;
    s.describe = describe;
    return s;
}

}  // namespace gt::elements
