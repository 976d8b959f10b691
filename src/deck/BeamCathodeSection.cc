// [beam.cathode]: a beam emitted from rest at a cathode (distribution = "cathode").
#include "deck/DeckSections.hh"

#include <cmath>

#include <fmt/format.h>

#include "deck/DeckText.hh"

namespace gt::deck {

void read_cathode(DeckContext& ctx, toml::table const& t, BeamConfig& beam)
{
    std::string const path = "beam.cathode";
    CathodeConfig& c = beam.cathode;
    ctx.check_keys(t, path, {"spot", "spot_rms", "emission", "emission_length", "emission_rise", "mte",
                             "thermal_emittance"});
    if (auto s = ctx.choice_at(t, path, "spot", {"uniform", "gaussian"}, false)) c.spot = *s;
    if (auto r = ctx.quantity_at(t, path, "spot_rms", quantity::length, Bound::non_negative, true)) c.spot_rms = *r;
    if (auto e = ctx.choice_at(t, path, "emission", {"flattop", "gaussian"}, false)) c.emission = *e;
    if (auto l = ctx.quantity_at(t, path, "emission_length", quantity::time, Bound::non_negative, true))
        c.emission_length = *l;
    if (auto r = ctx.quantity_at(t, path, "emission_rise", quantity::time, Bound::non_negative, false)) {
        if (c.emission != "flattop")
            ctx.error(ctx.where(*t.get("emission_rise")), path + ".emission_rise",
                      "emission_rise is only used with emission = \"flattop\"");
        else if (*r > c.emission_length)
            ctx.error(ctx.where(*t.get("emission_rise")), path + ".emission_rise",
                      fmt::format("the rise time {:.6g} s exceeds the flat-top length {:.6g} s (the full "
                                  "length at half height)",
                                  *r, c.emission_length));
        else
            c.emission_rise = *r;
    }
    // The thermal momenta: a mean transverse energy, or the thermal emittance per rms spot size,
    // eps_n / sigma_x = sqrt(MTE / m c^2) (docs/physics.md).
    bool const by_mte = t.contains("mte");
    bool const by_emittance = t.contains("thermal_emittance");
    if (by_mte && by_emittance) {
        ctx.error(ctx.where(*t.get("thermal_emittance")), path + ".thermal_emittance",
                  "give either mte or thermal_emittance, not both");
        return;
    }
    if (by_mte) {
        if (auto m = ctx.quantity_at(t, path, "mte", quantity::energy, Bound::non_negative, true)) c.mte = *m;
    } else if (by_emittance) {
        auto e = ctx.quantity_at(t, path, "thermal_emittance", quantity::dimensionless, Bound::non_negative, true);
        if (e) c.mte = beam.species.mass_mev * *e * *e;  // the species is read before
    } else {
        ctx.missing(t, path, "mte",
                    "the mean transverse energy of the emitted particles (\"0.5 eV\"), or thermal_emittance "
                    "(the normalized thermal emittance per rms spot size, \"0.9 um/mm\")");
    }
}

}  // namespace gt::deck
