// Registry entry: kicker, a corrector (kernels/elements/Kicker.hh).
#include <fmt/format.h>

#include "deck/elements/ElementTypes.hh"

namespace gt::elements {

namespace {

void build(ElementBuild& b)
{
    double const length = b.value("length");
    Element e = b.entry(ElementKind::kicker);
    e.kicker = Kicker::make(b.value("hkick"), b.value("vkick"), length, b.reference());
    b.add(e, 0, 1, length);
}

std::string describe(Element const& e, ReferenceParticle const&)
{
    return fmt::format("hkick={:.6g} mrad, vkick={:.6g} mrad", e.kicker.hkick * 1e3, e.kicker.vkick * 1e3);
}

}  // namespace

ElementSpec kicker_type()
{
    ElementSpec s;
    s.type = "kicker";
    s.doc = "corrector: a thin kick (length 0), or a kick in the middle of a drift";
    s.params = {
        optional("length", quantity::length, Bound::non_negative, 0.0, "length (0: a thin kick)"),
        optional("hkick", quantity::angle, Bound::any, 0.0, "horizontal kick"),
        optional("vkick", quantity::angle, Bound::any, 0.0, "vertical kick"),
    };
    s.madx = {"hkicker", "vkicker", "kicker", "tkicker"};
    s.elegant = {"HKICK", "VKICK", "KICKER", "EHKICK", "EVKICK", "EKICKER", "HKICKER", "VKICKER"};
    s.build = build;
    s.describe = describe;
    return s;
}

}  // namespace gt::elements
