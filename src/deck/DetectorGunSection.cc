// [gun] of a detector deck: the primary particle, its energy spectrum, position and direction.
#include "deck/DetectorSections.hh"

#include <filesystem>

#include <fmt/format.h>

#include "deck/DeckText.hh"
#include "deck/Particles.hh"

namespace gt::deck {

namespace {

void read_energy(DeckContext& ctx, toml::table const& t, std::string const& path, GunConfig& g)
{
    toml::node const* n = t.get("energy");
    if (!n) {
        ctx.missing(t, path, "energy",
                    "the kinetic energy: \"1 GeV\", or a table with type = \"uniform\" / \"gaussian\"");
        return;
    }
    std::string const key = "gun.energy";
    auto const* e = n->as_table();
    if (!e) {
        if (auto v = ctx.quantity_of(*n, key, quantity::energy, Bound::positive)) g.energy = *v;
        return;
    }
    auto type = ctx.choice_at(*e, key, "type", {"mono", "uniform", "gaussian"}, true);
    if (!type) return;
    g.spectrum = *type;
    if (*type == "mono") {
        ctx.check_keys(*e, key, {"type", "value"});
        if (auto v = ctx.quantity_at(*e, key, "value", quantity::energy, Bound::positive, true))
            g.energy = *v;
    } else if (*type == "uniform") {
        ctx.check_keys(*e, key, {"type", "min", "max"});
        auto lo = ctx.quantity_at(*e, key, "min", quantity::energy, Bound::positive, true);
        auto hi = ctx.quantity_at(*e, key, "max", quantity::energy, Bound::positive, true);
        if (lo && hi) {
            if (*hi < *lo)
                ctx.error(ctx.where(*e->get("max")), key + ".max",
                          fmt::format("max ({} MeV) is below min ({} MeV)", *hi, *lo));
            g.energy = *lo;
            g.energy2 = *hi;
        }
    } else {
        ctx.check_keys(*e, key, {"type", "mean", "sigma"});
        if (auto v = ctx.quantity_at(*e, key, "mean", quantity::energy, Bound::positive, true)) g.energy = *v;
        if (auto v = ctx.quantity_at(*e, key, "sigma", quantity::energy, Bound::non_negative, true))
            g.energy2 = *v;
    }
}

void read_position(DeckContext& ctx, toml::table const& t, GunConfig& g)
{
    toml::node const* n = t.get("position");
    if (!n) return;  // the origin
    std::string const key = "gun.position";
    auto const* p = n->as_table();
    if (!p) {
        if (auto v = ctx.vec3_of(*n, key, quantity::length, Bound::any)) g.position = *v;
        return;
    }
    auto type = ctx.choice_at(*p, key, "type", {"point", "box", "beam_spot"}, true);
    if (!type) return;
    g.position_shape = *type;
    if (*type == "point") {
        ctx.check_keys(*p, key, {"type", "center"});
    } else if (*type == "box") {
        ctx.check_keys(*p, key, {"type", "center", "half_size"});
        if (auto h = ctx.vec3_at(*p, key, "half_size", quantity::length, Bound::non_negative, true))
            g.position_spread = *h;
    } else {
        ctx.check_keys(*p, key, {"type", "center", "sigma"});
        if (auto s = ctx.vec3_at(*p, key, "sigma", quantity::length, Bound::non_negative, true))
            g.position_spread = *s;
    }
    if (auto c = ctx.vec3_at(*p, key, "center", quantity::length, Bound::any, false)) g.position = *c;
}

void read_direction(DeckContext& ctx, toml::table const& t, std::string const& path, GunConfig& g)
{
    toml::node const* n = t.get("direction");
    if (!n) return;  // +z
    std::string const key = "gun.direction";
    auto const* d = n->as_table();
    if (!d) {
        if (auto v = ctx.direction_at(t, path, "direction", false)) g.direction = *v;
        return;
    }
    auto type = ctx.choice_at(*d, key, "type", {"fixed", "cone", "isotropic"}, true);
    if (!type) return;
    g.direction_shape = *type;
    if (*type == "fixed") {
        ctx.check_keys(*d, key, {"type", "vector"});
        if (auto v = ctx.direction_at(*d, key, "vector", true)) g.direction = *v;
    } else if (*type == "cone") {
        ctx.check_keys(*d, key, {"type", "axis", "half_angle"});
        if (auto v = ctx.direction_at(*d, key, "axis", false)) g.direction = *v;
        if (auto a = ctx.quantity_at(*d, key, "half_angle", quantity::angle, Bound::non_negative, true)) {
            if (*a > 3.14159265358979323846)
                ctx.error(ctx.where(*d->get("half_angle")), key + ".half_angle",
                          fmt::format("expected a half-angle up to 180 deg, got {} rad", *a));
            g.cone_half_angle = *a;
        }
    } else {
        ctx.check_keys(*d, key, {"type"});
    }
}

//! [gun] file = "events.hepmc3": the primaries come from the file; only the keys that select its events.
void read_event_file(DeckContext& ctx, toml::table const& t, std::string const& path, GunConfig& g)
{
    for (char const* k : {"particle", "energy", "position", "direction", "per_event"})
        if (toml::node const* n = t.get(k))
            ctx.error(ctx.where(*n), join_key(path, k),
                      fmt::format("'{}' does not go with file: the event file gives each primary's particle, "
                                  "energy, vertex and direction (use offset to move the vertices)",
                                  k));
    ctx.check_keys(
        t, path,
        {"file", "events", "skip", "offset", "particle", "energy", "position", "direction", "per_event"});
    if (auto f = ctx.string_at(t, path, "file", true, "a HepMC3 ASCII event file")) {
        std::filesystem::path file(*f);
        std::filesystem::path const dir = std::filesystem::path(ctx.file()).parent_path();
        if (file.is_relative() && !dir.empty()) file = dir / file;
        std::error_code ec;
        if (!std::filesystem::is_regular_file(file, ec))
            ctx.error(ctx.where(*t.get("file")), path + ".file",
                      fmt::format("cannot read the event file '{}': {}", file.string(),
                                  std::filesystem::exists(file, ec) ? "not a regular file" : "no such file"));
        g.file = file.string();
    }
    g.events = 0;  // every event of the file
    if (auto n = ctx.integer_at(t, path, "events", Bound::at_least_one, false)) g.events = std::uint64_t(*n);
    if (auto n = ctx.integer_at(t, path, "skip", Bound::non_negative, false)) g.skip = std::uint64_t(*n);
    if (auto v = ctx.vec3_at(t, path, "offset", quantity::length, Bound::any, false)) g.offset = *v;
}

}  // namespace

void read_gun(DeckContext& ctx, toml::table const& t, DetectorConfig& d)
{
    std::string const path = "gun";
    if (t.contains("file")) {
        read_event_file(ctx, t, path, d.gun);
        return;
    }
    for (char const* k : {"skip", "offset"})
        if (toml::node const* n = t.get(k))
            ctx.error(
                ctx.where(*n), join_key(path, k),
                fmt::format("'{}' goes with file (the events of an event file), and there is no file", k));
    ctx.check_keys(t, path,
                   {"particle", "energy", "position", "direction", "events", "per_event", "skip", "offset"});
    GunConfig& g = d.gun;
    if (auto p = ctx.choice_at(t, path, "particle", detector_particle_names(), true)) g.particle = *p;
    if (auto n = ctx.integer_at(t, path, "events", Bound::at_least_one, true))
        g.events = static_cast<std::uint64_t>(*n);
    if (auto n = ctx.integer_at(t, path, "per_event", Bound::at_least_one, false))
        g.per_event = static_cast<std::uint64_t>(*n);
    read_energy(ctx, t, path, g);
    read_position(ctx, t, g);
    read_direction(ctx, t, path, g);
}

}  // namespace gt::deck
