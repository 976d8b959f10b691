// Registry entries: dipedge, a dipole edge on its own (kernels/elements/DipoleEdge.hh, MAD-X DIPEDGE), and
// thinsolenoid (kernels/elements/ThinSolenoid.hh, MAD-X SOLENOID with L = 0).
#include <fmt/format.h>

#include "deck/elements/ElementTypes.hh"

namespace gt::elements {

namespace {

void check_dipedge(ElementCheck& c)
{
    double const e = c.value("e1");
    if (!(std::abs(e) < 1.5))
        c.fail("e1", fmt::format("pole-face angle must be below 1.5 rad in magnitude (got {})", e));
}

void build_dipedge(ElementBuild& b)
{
    Element e = b.entry(ElementKind::dipole_edge);
    e.dipole_edge = DipoleEdge::make(b.value("h"), b.value("e1"), b.value("fint"), b.value("hgap"));
    b.add(e, 0, 1, 0.0);
}

std::string describe_dipedge(Element const& e, ReferenceParticle const&)
{
    auto const& d = e.dipole_edge;
    return fmt::format("e={:.6g} mrad, h={:.6g} 1/m, psi={:.6g} mrad", d.e * 1e3, d.h, d.psi * 1e3);
}

void build_thin_solenoid(ElementBuild& b)
{
    Element e = b.entry(ElementKind::thin_solenoid);
    e.thin_solenoid = ThinSolenoid::make(b.value("ksi"), b.value("lrad"), b.reference());
    b.add(e, 0, 1, 0.0);
}

std::string describe_thin_solenoid(Element const& e, ReferenceParticle const&)
{
    auto const& s = e.thin_solenoid;
    return fmt::format("ksi={:.6g} rad, focusing={:.6g} 1/m", 2.0 * s.half_ksi, s.focus);
}

}  // namespace

ElementSpec dipedge_type()
{
    using namespace quantity;
    ElementSpec s;
    s.type = "dipedge";
    s.doc =
        "thin dipole edge on its own: pole-face rotation and fringe-field correction, first order (MAD-X "
        "DIPEDGE)";
    s.params = {
        required("h", per_length, Bound::any, "curvature 1/rho of the bend it belongs to"),
        optional("e1", angle, Bound::any, 0.0, "pole-face angle"),
        optional("fint", dimensionless, Bound::non_negative, 0.0, "fringe-field integral"),
        optional("hgap", length, Bound::non_negative, 0.0, "half gap of the magnet"),
    };
    s.madx = {"dipedge"};
    s.check = check_dipedge;
    s.build = build_dipedge;
    s.describe = describe_dipedge;
    return s;
}

ElementSpec thin_solenoid_type()
{
    using namespace quantity;
    ElementSpec s;
    s.type = "thinsolenoid";
    s.doc = "thin solenoid: rotation by ksi/(2 p/p_ref) and focusing (MAD-X SOLENOID with L = 0)";
    s.params = {
        required("ksi", angle, Bound::any, "integrated strength ks L (the rotation is ksi/2)"),
        optional("lrad", length, Bound::non_negative, 0.0,
                 "length for the focusing (ksi/2)^2 / lrad; 0: rotation only (as MAD-X)"),
    };
    s.build = build_thin_solenoid;
    s.describe = describe_thin_solenoid;
    return s;
}

}  // namespace gt::elements
