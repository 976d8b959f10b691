// Registry entry: solenoid, hard edge (kernels/elements/Solenoid.hh) or by its on-axis profile; in s or in
// time.
#include <fmt/format.h>

#include "deck/elements/ElementTypes.hh"

namespace gt::elements {

namespace {

void check(ElementCheck& c)
{
    check_profile_keys(c, "ks");
    if (c.has("profile") && c.has("model"))
        c.fail("model", "only used for a hard-edge solenoid (length, ks)");
    if (!c.has("profile") && !c.has("length"))
        c.fail("length", "missing: a solenoid needs a length > 0 [m] (or profile = \"file\")");
}

void build(ElementBuild& b)
{
    if (b.has("profile")) {
        b.add_profile_map();
        return;
    }
    double const length = b.value_or_zero("length"), ks = b.value_or_zero("ks");
    if (b.add_if_tracked_in_time(TimeField::solenoid, length, 0.0, ks)) return;
    bool const exact = b.text("model") == "exact";
    int const n = b.slices();
    double const dl = length / n;
    for (int i = 0; i < n; ++i) {
        Element e = b.entry(ElementKind::solenoid);
        e.solenoid = Solenoid::make(dl, ks, b.reference(), exact);
        b.add(e, i, n, dl);
    }
}

std::string describe(Element const& e, ReferenceParticle const&)
{
    return fmt::format("ks={:.6g} 1/m{}", e.solenoid.ks, e.solenoid.exact ? ", exact" : "");
}

}  // namespace

ElementSpec solenoid_type()
{
    using namespace quantity;
    ElementSpec s;
    s.type = "solenoid";
    s.doc = "thick hard-edge solenoid, or a solenoid given by its on-axis field profile";
    s.params = {
        documented(conditional("length", length, Bound::positive, "length (hard edge)"), "req.¹"),
        documented(conditional("ks", per_length, Bound::any, "strength B_s / (B rho)"), "req.¹"),
        choice("model", {"linear", "exact"}, "linear",
               "hard edge: the linear map at the design momentum, or the exact map (each particle's helix: "
               "chromatic, MAD-X's chromaticity)"),
    };
    for (auto& p : profile_keys("on-axis Bz(z) file (see below); replaces `length` and `ks`", magnetic_field))
        s.params.push_back(p);
    for (auto& p : time_code_keys(true)) s.params.push_back(p);
    s.madx = {"solenoid"};
    s.elegant = {"SOLE", "SOLENOID"};
    s.check = check;
    s.build = build;
    s.describe = describe;
    return s;
}

}  // namespace gt::elements
