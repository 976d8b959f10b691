// Registry entry: srotation, a roll of the transverse coordinates about the s axis
// (kernels/elements/SRotation.hh).
#include <fmt/format.h>

#include "deck/elements/ElementTypes.hh"

namespace gt::elements {

namespace {

void build(ElementBuild& b)
{
    Element e = b.entry(ElementKind::srotation);
    e.srotation = SRotation::make(b.value("angle"));
    b.add(e, 0, 1, 0.0);
}

std::string describe(Element const& e, ReferenceParticle const&)
{
    return fmt::format("angle={:.6g} mrad", e.srotation.angle * 1e3);
}

}  // namespace

ElementSpec srotation_type()
{
    ElementSpec s;
    s.type = "srotation";
    s.doc = "thin rotation of the transverse coordinates about the s axis (x' = x cos + y sin, as MAD-X)";
    s.params = {
        required("angle", quantity::angle, Bound::any, "rotation angle (> 0: a particle at +x ends at -y)"),
    };
    s.madx = {"srotation"};
    s.elegant = {"ROTATE"};
    s.build = build;
    s.describe = describe;
    return s;
}

}  // namespace gt::elements
