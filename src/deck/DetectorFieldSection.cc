// [field] of a detector deck: none, uniform, a solenoid or a field map.
#include "deck/DetectorSections.hh"

#include <algorithm>
#include <cstdint>

#include <fmt/format.h>

#include "deck/DeckText.hh"

namespace gt::deck {

void read_field(DeckContext& ctx, toml::table const& t, DetectorConfig& d)
{
    std::string const path = "field";
    auto type = ctx.choice_at(t, path, "type", {"none", "uniform", "solenoid", "map"}, true);
    if (!type) return;
    FieldConfig& f = d.field;
    f.type = *type;
    if (*type == "none") {
        ctx.check_keys(t, path, {"type"});
    } else if (*type == "uniform") {
        ctx.check_keys(t, path, {"type", "B"});
        if (auto b = ctx.vec3_at(t, path, "B", quantity::magnetic_field, Bound::any, true)) f.b = *b;
    } else if (*type == "solenoid") {
        ctx.check_keys(t, path, {"type", "B", "radius", "half_length", "center", "tabulate"});
        if (auto b = ctx.quantity_at(t, path, "B", quantity::magnetic_field, Bound::any, true)) f.b0 = *b;
        if (auto r = ctx.quantity_at(t, path, "radius", quantity::length, Bound::positive, true))
            f.radius = *r;
        if (auto h = ctx.quantity_at(t, path, "half_length", quantity::length, Bound::positive, true))
            f.half_length = *h;
        if (auto c = ctx.vec3_at(t, path, "center", quantity::length, Bound::any, false)) f.center = *c;
        if (auto h = ctx.quantity_at(t, path, "tabulate", quantity::length, Bound::positive, false))
            f.tabulate = *h;
    } else {
        ctx.check_keys(t, path, {"type", "file", "format", "center"});
        if (auto file = ctx.string_at(t, path, "file", true, "the HDF5 field-map file")) f.file = *file;
        if (auto fmt_ = ctx.choice_at(t, path, "format", {"cartesian", "rz"}, true)) f.format = *fmt_;
        if (auto c = ctx.vec3_at(t, path, "center", quantity::length, Bound::any, false)) f.center = *c;
    }
}

}  // namespace gt::deck
