// Registry entry: drift, field-free space (kernels/elements/Drift.hh), in s or in time.
#include <fmt/format.h>

#include "deck/elements/ElementTypes.hh"

namespace gt::elements {

namespace {

void build(ElementBuild& b)
{
    double const length = b.value("length");
    if (length > 0.0 && b.add_if_tracked_in_time(TimeField::none, length, 0.0, 0.0)) return;
    DriftModel const model = b.text("model") == "linear" ? DriftModel::linear : DriftModel::exact;
    int const n = b.slices();
    double const dl = length / n;
    for (int i = 0; i < n; ++i) {
        Element e = b.entry(ElementKind::drift);
        e.drift = Drift::make(dl, model, b.reference());
        b.add(e, i, n, dl);
    }
}

std::string describe(Element const& e, ReferenceParticle const&)
{
    return e.drift.model == DriftModel::exact ? "exact" : "linear";
}

}  // namespace

ElementSpec drift_type()
{
    ElementSpec s;
    s.type = "drift";
    s.doc = "field-free space";
    s.params = {
        required("length", quantity::length, Bound::non_negative, "length"),
        choice("model", {"linear", "exact"}, "exact", "paraxial or exact drift map"),
    };
    for (auto& p : time_code_keys(false)) s.params.push_back(p);
    s.madx = {"drift"};
    s.elegant = {"DRIF", "DRIFT", "EDRIFT"};
    s.build = build;
    s.describe = describe;
    return s;
}

}  // namespace gt::elements
