// Registry entry: field_map, static or RF E and B on a 3D grid (kernels/elements/FieldMap3D.hh), in s or in
// time.
#include "deck/elements/ElementTypes.hh"
#include "kernels/field/EmFieldGrid.hh"

namespace gt::elements {

namespace {

void check(ElementCheck& c)
{
    if (c.text("file").empty())
        c.fail("file", "missing: a field_map needs its map, file = \"map.h5\" (docs/decks.md)");
}

void build(ElementBuild& b) { b.add_field_map(); }

}  // namespace

ElementSpec field_map_type()
{
    using namespace quantity;
    ElementSpec s;
    s.type = "field_map";
    s.doc =
        "static or RF E and B on a 3D Cartesian grid (HDF5 file), trilinear interpolation, RK4 in s or in "
        "time";
    s.params = {
        documented(text("file", "3D map of E and/or B (HDF5, below)"), "req.",
                   "file name (relative: to the deck's directory)"),
        required("length", length, Bound::positive,
                 "length: the element spans the map's z from 0 to `length`"),
        optional("e_scale", dimensionless, Bound::any, 1.0, "multiplies the map's E"),
        optional("b_scale", dimensionless, Bound::any, 1.0, "multiplies the map's B"),
        documented(conditional("frequency", frequency, Bound::positive,
                               "RF frequency; neither this nor the file's: static fields"),
                   "the file's `frequency`"),
        documented(optional("phase", quantity::phase, Bound::any, 0.0,
                            "RF phase, 0 on crest (as for a cavity profile); stored in rad"),
                   "`0`", "", "**deg**"),
        documented(conditional_integer("substeps", "RK4 steps per slice"), "one per map interval along z"),
        choice(
            "layout", {"interleaved", "planar"}, field_layout_name(k_default_field_layout),
            "device layout of the grid (docs/performance.md): a node's components together, or one array per "
            "component"),
    };
    for (auto& p :
         time_code_keys(true,
                        "independent variable: s (z-code), time (t-code), or `auto` (t-code where the "
                        "map's length, or for RF a cell beta lambda/2, is less than 4 rms bunch lengths)²",
                        "Boris; RK4 with E", "t-code integrator (Boris only for maps of B alone)"))
        s.params.push_back(p);
    s.check = check;
    s.build = build;
    return s;
}

}  // namespace gt::elements
