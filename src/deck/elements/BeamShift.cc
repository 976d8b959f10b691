// Registry entry: beam_shift, a thin shift of the beam's coordinates (kernels/elements/BeamShift.hh), what
// ELEGANT's MALIGN does to the beam every pass.
#include <fmt/format.h>

#include "deck/elements/ElementTypes.hh"

namespace gt::elements {

namespace {

void check(ElementCheck& c)
{
    // p = 1 + delta must stay positive for a particle of the reference's momentum.
    if (!(c.value("shift_delta") > -1.0))
        c.fail("shift_delta", "must be above -1 (the momentum stays positive)");
    if (!(c.value("shift_energy") > -1.0))
        c.fail("shift_energy", "must be above -1 (the energy stays positive)");
    // ELEGANT's MALIGN computes DE from the energy before DP (offset_beam): the two together mean that, not
    // their sum; one at a time is unambiguous.
    if (c.value("shift_energy") != 0.0 && c.value("shift_delta") != 0.0)
        c.fail("shift_energy", "give shift_energy or shift_delta, not both");
}

void build(ElementBuild& b)
{
    Element e = b.entry(ElementKind::beam_shift);
    e.beam_shift =
        BeamShift::make(b.value("shift_x"), b.value("shift_xp"), b.value("shift_y"), b.value("shift_yp"),
                        b.value("shift_z"), b.value("shift_delta"), b.reference(),
                        constants::c_light * b.value("shift_t"), b.value("shift_energy"));
    b.add(e, 0, 1, 0.0);
}

std::string describe(Element const& e, ReferenceParticle const&)
{
    auto const& s = e.beam_shift;
    return fmt::format(
        "x {:.6g} mm, x' {:.6g} mrad, y {:.6g} mm, y' {:.6g} mrad, z {:.6g} mm, delta {:.6g}, c t {:.6g} mm, "
        "E x {:.6g}",
        s.dx * 1e3, s.dxp * 1e3, s.dy * 1e3, s.dyp * 1e3, s.dz * 1e3, s.dp, s.ct * 1e3, 1.0 + s.de);
}

}  // namespace

ElementSpec beam_shift_type()
{
    using namespace quantity;
    ElementSpec s;
    s.type = "beam_shift";
    s.doc =
        "thin shift of every particle's coordinates, as ELEGANT's MALIGN (slopes x' = dx/ds; at fixed time)";
    s.params = {
        optional("shift_x", length, Bound::any, 0.0, "added to x (and shift_z x')"),
        optional("shift_xp", angle, Bound::any, 0.0, "added to the slope x' = dx/ds (momentum kept)"),
        optional("shift_y", length, Bound::any, 0.0, "added to y (and shift_z y')"),
        optional("shift_yp", angle, Bound::any, 0.0, "added to the slope y' = dy/ds (momentum kept)"),
        optional(
            "shift_z", length, Bound::any, 0.0,
            "a straight path of this length along s, the reference held (x += shift_z x', the delay grows)"),
        optional("shift_delta", dimensionless, Bound::any, 0.0,
                 "added to delta = p/p_ref - 1 at fixed arrival time and slopes"),
        optional("shift_t", time, Bound::any, 0.0, "added to the arrival time (ELEGANT's DT)"),
        optional("shift_energy", dimensionless, Bound::any, 0.0,
                 "relative change of the total energy, E *= 1 + shift_energy, at fixed time and slopes "
                 "(ELEGANT's DE)"),
    };
    s.elegant = {"MALIGN"};
    s.check = check;
    s.build = build;
    s.describe = describe;
    return s;
}

}  // namespace gt::elements
