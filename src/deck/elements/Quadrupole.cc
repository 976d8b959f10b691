// Registry entry: quadrupole (kernels/elements/Quadrupole.hh), linear, exact or kick-drift; in s or in time.
#include <fmt/format.h>

#include "deck/elements/ElementTypes.hh"

namespace gt::elements {

namespace {

void build(ElementBuild& b)
{
    double const length = b.value("length"), k1 = b.value("k1");
    if (b.add_if_tracked_in_time(TimeField::quadrupole, length, k1, 0.0)) return;
    std::string const m = b.text("model");
    QuadrupoleModel const model = m == "linear" ? QuadrupoleModel::linear
                                  : m == "kick" ? QuadrupoleModel::kick
                                                : QuadrupoleModel::exact;
    auto const steps = static_cast<std::int32_t>(b.value("kicks"));
    int const n = b.slices();
    double const dl = length / n;
    for (int i = 0; i < n; ++i) {
        Element e = b.entry(ElementKind::quadrupole);
        e.quadrupole = Quadrupole::make(dl, k1, model, steps, b.reference());
        if (k1 != 0.0) e.quadrupole.c_rad = b.radiation_constant_here();
        b.add(e, i, n, dl);
    }
}

std::string describe(Element const& e, ReferenceParticle const&)
{
    auto const& q = e.quadrupole;
    std::string m = q.model == QuadrupoleModel::linear  ? "linear"
                    : q.model == QuadrupoleModel::exact ? "exact (chromatic)"
                                                        : fmt::format("kick, {} steps", q.split.steps);
    return fmt::format("k1={:.6g} 1/m^2, {}", q.k1, m);
}

}  // namespace

ElementSpec quadrupole_type()
{
    ElementSpec s;
    s.type = "quadrupole";
    s.doc = "thick quadrupole, with chromatic effects";
    s.params = {
        required("length", quantity::length, Bound::positive, "length"),
        required("k1", quantity::per_length2, Bound::any, "normalized gradient (> 0 focuses horizontally)"),
        choice("model", {"linear", "exact", "kick"}, "exact",
               "linear map, exact thick map, or symplectic kick-drift integration"),
        integer("kicks", 4.0, "kicks per slice for `model = \"kick\"`"),
    };
    for (auto& p : time_code_keys(true)) s.params.push_back(p);
    s.madx = {"quadrupole"};
    s.elegant = {"QUAD", "QUADRUPOLE", "KQUAD"};
    s.build = build;
    s.describe = describe;
    return s;
}

}  // namespace gt::elements
