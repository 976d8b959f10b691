// Registry entry: rfcavity, a thin buncher or thick cavity (kernels/elements/RfCavity.hh), or a cavity
// given by its on-axis Ez profile (in s or in time).
#include <fmt/format.h>

#include "deck/elements/ElementTypes.hh"

namespace gt::elements {

namespace {

void check(ElementCheck& c)
{
    check_profile_keys(c, "voltage");
    if (c.has("profile")) return;
    if (c.text("tracking") == "t")
        c.fail("tracking", "t-code needs the cavity's field: give its on-axis profile (profile = \"file\")");
    for (char const* key : {"time_step", "time_integrator"})
        if (c.has(key)) c.fail(key, "only used by a cavity with a profile tracked in time");
}

void build(ElementBuild& b)
{
    if (b.has("profile")) {
        b.add_profile_map();
        return;
    }
    double const frequency = b.value("frequency"), phase = b.value("phase");
    int const n = b.slices();
    double const dl = b.value("length") / n;
    double const dv = b.value_or_zero("voltage") / n;
    for (int i = 0; i < n; ++i) {
        ReferenceParticle const before = b.reference();
        // With radiation (a light-source ring) the reference stays at the design energy: the particles gain
        // |q| V cos(phase + k t) here and lose it in the magnets, and the synchronous particle sits where
        // the two balance (phase: the synchronous phase, cos = U0 / (|q| V) on the reference).
        bool const keeps_reference = b.radiation();
        double const gain = keeps_reference ? 0.0 : RfCavity::reference_gain_mev(dv, phase, before);
        double const kinetic = before.kinetic_mev + gain;
        if (!(kinetic > 0.0))
            b.fail("voltage",
                   fmt::format("the cavity would take the reference particle from {:.6g} MeV to {:.6g} "
                               "MeV kinetic energy (|q| V cos(phase) = {:.6g} MeV): it must stay above "
                               "zero",
                               before.kinetic_mev, kinetic, gain));
        ReferenceParticle after = before;
        if (gain != 0.0) after.set_kinetic(kinetic);
        // Half the slice at the old velocity, half at the new one (drift-kick-drift).
        after.s = before.s + dl;
        after.t = before.t + 0.5 * dl / (before.beta * constants::c_light) +
                  0.5 * dl / (after.beta * constants::c_light);
        Element e = b.entry(ElementKind::rf_cavity);
        e.rf_cavity = RfCavity::make(dl, dv, frequency, phase, before, after);
        if (keeps_reference) e.rf_cavity.cos_phase = 0.0;  // the whole gain goes to the particle
        b.add_with_reference(e, i, n, after);
    }
}

std::string describe(Element const& e, ReferenceParticle const& after)
{
    auto const& r = e.rf_cavity;
    return fmt::format("V={:.6g} MV, f={:.6g} MHz, phase={:.6g} deg -> E_kin={:.9g} MeV", r.voltage * 1e-6,
                       r.frequency * 1e-6, r.phase * 180.0 / constants::pi, after.kinetic_mev);
}

}  // namespace

ElementSpec rfcavity_type()
{
    using namespace quantity;
    ElementSpec s;
    s.type = "rfcavity";
    s.doc =
        "RF cavity: a thin buncher (length 0), a thick cavity, or a cavity given by its on-axis Ez profile";
    s.params = {
        optional("length", length, Bound::non_negative, 0.0, "length (0: a thin buncher)"),
        documented(conditional("voltage", voltage, Bound::any, "peak voltage"), "req.¹"),
        required("frequency", frequency, Bound::positive, "RF frequency"),
        documented(optional("phase", quantity::phase, Bound::any, 0.0, "RF phase, 0 on crest; stored in rad"),
                   "`0`", "", "**deg**"),
    };
    for (auto& p :
         profile_keys("on-axis Ez(z) file (see below); replaces `length` and `voltage`", electric_field))
        s.params.push_back(p);
    for (auto& p : time_code_keys(true)) s.params.push_back(p);
    s.madx = {"rfcavity"};
    s.elegant = {"RFCA", "RFCW"};
    s.check = check;
    s.build = build;
    s.describe = describe;
    return s;
}

}  // namespace gt::elements
