// Registry entry: wake, a thin wakefield kick. Collective effects act between entries
// (run/CollectiveSchedule.hh): in the table a wake is a marker.
#include "deck/elements/ElementTypes.hh"

namespace gt::elements {

namespace {

void build(ElementBuild& b) { b.add(b.entry(ElementKind::marker), 0, 1, 0.0); }

}  // namespace

ElementSpec wake_type()
{
    using namespace quantity;
    ElementSpec s;
    s.type = "wake";
    s.doc = "a thin wakefield kick: a built-in model or a table file";
    s.params = {
        choice("model", {"resonator", "resistive_wall", "table"}, "",
               "a thin wakefield kick where it stands (docs/physics.md §9)"),
        choice("plane", {"longitudinal", "transverse"}, "longitudinal",
               "energy wake, or transverse dipole wake (kicks x and y)"),
        documented(optional("r_shunt", resistance, Bound::positive, 0.0, "shunt impedance R_s"),
                   "req. for a longitudinal resonator"),
        documented(optional("r_transverse", resistance_per_length, Bound::positive, 0.0,
                            "transverse shunt impedance R_⊥"),
                   "req. for a transverse resonator"),
        documented(optional("q", dimensionless, Bound::positive, 0.0, "quality factor"),
                   "req. for a resonator", "> 1/2"),
        documented(optional("frequency", quantity::frequency, Bound::positive, 0.0, "resonant frequency f_r"),
                   "req. for a resonator"),
        documented(optional("radius", length, Bound::positive, 0.0, "round pipe radius b"),
                   "req. for a resistive wall"),
        documented(optional("conductivity", quantity::conductivity, Bound::positive, 0.0,
                            "wall conductivity σ_c (copper: 5.8e7 S/m)"),
                   "req. for a resistive wall"),
        documented(
            optional("pipe_length", length, Bound::positive, 0.0, "length of pipe the wake stands for"),
            "req. for a resistive wall"),
        documented(text("file", "two-column wake table, below"), "req. for a table",
                   "file name (relative: to the deck's directory)"),
    };
    s.build = build;
    return s;
}

}  // namespace gt::elements
