// [strips] of a detector deck: double-sided strip sensors on sensitive box volumes (pitch, stereo
// angles, drift), [strips.readout] (noise, threshold, ADC, time), [strips.stream] (free-streaming
// interaction rate) and [strips.reco] (time windows, sort). Defaults: CbmRoot's STS digitizer
// (CbmStsDigitize::SetGlobalDefaults); docs/decks.md.
#include <cmath>

#include <fmt/format.h>

#include "deck/DeckSections.hh"
#include "deck/DetectorSections.hh"

namespace gt::deck {
namespace {

void read_readout(DeckContext& ctx, toml::table const& t, StripsConfig& s)
{
    std::string const path = "strips.readout";
    ctx.check_keys(
        t, path,
        {"noise", "threshold", "dynamic_range", "adc_bits", "time_resolution", "dead_time", "dead_fraction"});
    using quantity::dimensionless;
    if (auto v = ctx.quantity_at(t, path, "noise", dimensionless, Bound::non_negative, false)) s.noise = *v;
    if (auto v = ctx.quantity_at(t, path, "threshold", dimensionless, Bound::positive, false))
        s.threshold = *v;
    if (auto v = ctx.quantity_at(t, path, "dynamic_range", dimensionless, Bound::positive, false))
        s.dynamic_range = *v;
    if (auto v = ctx.integer_at(t, path, "adc_bits", Bound::positive, false)) {
        if (*v > 16)
            ctx.error(ctx.where(*t.get("adc_bits")), path + ".adc_bits",
                      fmt::format("expected at most 16 bits, got {}", *v));
        else
            s.adc_bits = *v;
    }
    if (auto v = ctx.quantity_at(t, path, "time_resolution", quantity::time, Bound::non_negative, false))
        s.time_resolution = *v;
    if (auto v = ctx.quantity_at(t, path, "dead_time", quantity::time, Bound::non_negative, false))
        s.dead_time = *v;
    if (auto v = ctx.quantity_at(t, path, "dead_fraction", dimensionless, Bound::non_negative, false)) {
        if (*v >= 1)
            ctx.error(ctx.where(*t.get("dead_fraction")), path + ".dead_fraction",
                      fmt::format("expected a fraction in [0, 1), got {}", *v));
        else
            s.dead_fraction = *v;
    }
}

void read_reco(DeckContext& ctx, toml::table const& t, StripsConfig& s)
{
    std::string const path = "strips.reco";
    ctx.check_keys(t, path, {"cluster_window", "hit_window", "sort"});
    if (auto v = ctx.quantity_at(t, path, "cluster_window", quantity::time, Bound::positive, false))
        s.cluster_window = *v;
    if (auto v = ctx.quantity_at(t, path, "hit_window", quantity::time, Bound::positive, false))
        s.hit_window = *v;
    if (auto v = ctx.choice_at(t, path, "sort", {"radix", "merge"}, false)) s.sort = *v;
}

}  // namespace

void read_strips(DeckContext& ctx, toml::table const& t, DetectorConfig& d)
{
    std::string const path = "strips";
    StripsConfig& s = d.strips;
    s.enabled = true;
    auto const at = ctx.where(t);
    s.line = at.line;
    s.column = at.column;
    ctx.check_keys(
        t, path,
        {"volumes", "pitch", "strips", "length", "stereo", "depletion_voltage", "bias_voltage", "temperature",
         "diffusion", "lorentz_shift", "cross_talk", "pair_energy", "readout", "stream", "reco"});
    if (auto const* n = t.get("volumes")) {
        auto const* a = n->as_array();
        if (!a || a->empty()) {
            ctx.error(ctx.where(*n), path + ".volumes", "expected a non-empty array of volume names");
        } else {
            for (std::size_t i = 0; i < a->size(); ++i) {
                std::string const key = fmt::format("{}.volumes[{}]", path, i);
                auto name = ctx.string_of((*a)[i], key);
                if (!name) continue;
                bool found = false;
                for (auto const& v : d.volumes) {
                    if (v.name != *name) continue;
                    found = true;
                    if (!v.sensitive)
                        ctx.error(ctx.where((*a)[i]), key,
                                  fmt::format("volume '{}' is not sensitive", *name));
                    else if (v.shape != "box")
                        ctx.error(
                            ctx.where((*a)[i]), key,
                            fmt::format("volume '{}' is a {}: strip sensors need a box", *name, v.shape));
                }
                if (!found)
                    ctx.error(ctx.where((*a)[i]), key,
                              fmt::format("no [[geometry.volume]] is called '{}'", *name));
                s.volumes.push_back(*name);
            }
        }
    } else {
        for (auto const& v : d.volumes)
            if (v.sensitive && v.shape == "box") s.volumes.push_back(v.name);
        if (s.volumes.empty()) ctx.error(at, path, "no sensitive box volume to put strip sensors on");
    }
    if (auto v = ctx.quantity_at(t, path, "pitch", quantity::length, Bound::positive, false)) s.pitch = *v;
    if (auto v = ctx.integer_at(t, path, "strips", Bound::positive, false)) {
        if (*v > 65535)
            ctx.error(ctx.where(*t.get("strips")), path + ".strips",
                      fmt::format("expected at most 65535, got {}", *v));
        else
            s.strips = *v;
    }
    if (auto v = ctx.quantity_at(t, path, "length", quantity::length, Bound::positive, false)) s.length = *v;
    if (auto const* n = t.get("stereo")) {
        auto const* a = n->as_array();
        if (!a || a->size() != 2) {
            ctx.error(ctx.where(*n), path + ".stereo",
                      "expected two angles [front, back], e.g. [0, \"7.5 deg\"]");
        } else {
            std::array<double, 2> st{};
            bool ok = true;
            for (std::size_t i = 0; i < 2; ++i) {
                auto v = ctx.quantity_of((*a)[i], fmt::format("{}.stereo[{}]", path, i), quantity::angle,
                                         Bound::any);
                if (v && std::abs(*v) >= 1.3)
                    ctx.error(ctx.where((*a)[i]), fmt::format("{}.stereo[{}]", path, i),
                              "expected an angle below 75 deg in magnitude");
                else if (v)
                    st[i] = *v;
                else
                    ok = false;
            }
            if (ok && st[0] == st[1])
                ctx.error(ctx.where(*n), path + ".stereo",
                          "the two sides need different angles to make a 2D hit");
            else if (ok)
                s.stereo = st;
        }
    }
    if (auto v = ctx.quantity_at(t, path, "depletion_voltage", quantity::voltage, Bound::non_negative, false))
        s.depletion_voltage = *v;
    if (auto v = ctx.quantity_at(t, path, "bias_voltage", quantity::voltage, Bound::positive, false))
        s.bias_voltage = *v;
    if (s.bias_voltage <= s.depletion_voltage)
        ctx.error(
            t.get("bias_voltage") ? ctx.where(*t.get("bias_voltage")) : at, path + ".bias_voltage",
            fmt::format("expected more than the depletion voltage ({} V): the sensor must be fully depleted",
                        s.depletion_voltage));
    if (auto v = ctx.quantity_at(t, path, "temperature", quantity::dimensionless, Bound::positive, false))
        s.temperature = *v;
    if (auto b = ctx.bool_at(t, path, "diffusion")) s.diffusion = *b;
    if (auto b = ctx.bool_at(t, path, "lorentz_shift")) s.lorentz_shift = *b;
    if (auto v =
            ctx.quantity_at(t, path, "cross_talk", quantity::dimensionless, Bound::non_negative, false)) {
        if (*v >= 0.5)
            ctx.error(ctx.where(*t.get("cross_talk")), path + ".cross_talk",
                      fmt::format("expected a fraction below 0.5, got {}", *v));
        else
            s.cross_talk = *v;
    }
    if (auto v = ctx.quantity_at(t, path, "pair_energy", quantity::energy, Bound::positive, false))
        s.pair_energy = *v;
    if (auto const* r = ctx.table_at(t, path, "readout", false)) read_readout(ctx, *r, s);
    if (auto const* st = ctx.table_at(t, path, "stream", false)) {
        ctx.check_keys(*st, path + ".stream", {"interaction_rate"});
        if (auto v = ctx.quantity_at(*st, path + ".stream", "interaction_rate", quantity::frequency,
                                     Bound::non_negative, false))
            s.interaction_rate = *v;
    }
    if (auto const* r = ctx.table_at(t, path, "reco", false)) read_reco(ctx, *r, s);
}

}  // namespace gt::deck
