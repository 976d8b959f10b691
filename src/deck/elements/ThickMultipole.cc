// Registry entries: sextupole and octupole, thick multipoles by symplectic kick-drift integration
// (kernels/elements/ThickMultipole.hh).
#include <fmt/format.h>

#include "deck/elements/ElementTypes.hh"

namespace gt::elements {

namespace {

void build(ElementBuild& b)
{
    bool const sext = b.config().type == "sextupole";
    double const length = b.value("length");
    double const k = b.value(sext ? "k2" : "k3"), ks = b.value(sext ? "k2s" : "k3s");
    auto const steps = static_cast<std::int32_t>(b.value("kicks"));
    int const n = b.slices();
    double const dl = length / n;
    for (int i = 0; i < n; ++i) {
        Element e = b.entry(ElementKind::thick_multipole);
        e.thick_multipole = ThickMultipole::make(dl, sext ? 2 : 3, k, ks, steps, b.reference());
        if (k != 0.0 || ks != 0.0) e.thick_multipole.c_rad = b.radiation_constant_here();
        b.add(e, i, n, dl);
    }
}

std::string describe(Element const& e, ReferenceParticle const&)
{
    auto const& m = e.thick_multipole;
    int const n = m.kick.order;
    return fmt::format("k{}={:.6g} 1/m^{}{}, {} steps", n, m.kn, n + 1,
                       m.ksn != 0.0 ? fmt::format(", k{}s={:.6g}", n, m.ksn) : std::string{}, m.split.steps);
}

ElementSpec thick_multipole(std::string_view type, std::string_view doc, std::string_view k,
                            std::string_view ks, QuantityKind const& kind, std::string_view kicks_doc)
{
    ElementSpec s;
    s.type = type;
    s.doc = doc;
    s.params = {
        required("length", quantity::length, Bound::positive, "length"),
        required(k, kind, Bound::any, "normalized strength"),
        optional(ks, kind, Bound::any, 0.0, "normalized skew strength"),
        integer("kicks", 4.0, kicks_doc),
    };
    s.build = build;
    s.describe = describe;
    return s;
}

}  // namespace

ElementSpec sextupole_type()
{
    ElementSpec s =
        thick_multipole("sextupole", "thick sextupole, symplectic kick-drift integration", "k2", "k2s",
                        quantity::per_length3, "kicks per slice (symplectic kick-drift integration)");
    s.madx = {"sextupole"};
    s.elegant = {"SEXT", "SEXTUPOLE", "KSEXT"};
    return s;
}

ElementSpec octupole_type()
{
    ElementSpec s = thick_multipole("octupole", "thick octupole, symplectic kick-drift integration", "k3",
                                    "k3s", quantity::per_length4, "kicks per slice");
    s.madx = {"octupole"};
    s.elegant = {"OCTU", "OCTUPOLE", "KOCT"};
    return s;
}

}  // namespace gt::elements
