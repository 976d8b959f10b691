// [geometry] of a detector deck: the world and the volumes placed in it, with shapes and replicas.
#include "deck/DetectorSections.hh"

#include <algorithm>
#include <cmath>
#include <filesystem>

#include <fmt/format.h>

#include "deck/DeckText.hh"
#include "deck/Suggest.hh"
#include "deck/gdml/GdmlReader.hh"
#include "deck/gdml/GdmlSource.hh"

namespace gt::deck {

namespace {

void check_material(DeckContext& ctx, KnownMaterials const& materials, toml::table const& t,
                    std::string const& path, VolumeConfig& v)
{
    auto m = ctx.string_at(t, path, "material", true, "a material name (built-in or from [materials])");
    if (!m) return;
    v.material = *m;
    if (std::find(materials.names.begin(), materials.names.end(), *m) == materials.names.end() &&
        !materials.broken.count(*m))
        ctx.error(ctx.where(*t.get("material")), join_key(path, "material"),
                  fmt::format("unknown material '{}'{}", *m, did_you_mean(*m, materials.names)));
}

void read_shape(DeckContext& ctx, toml::table const& t, std::string const& path, VolumeConfig& v)
{
    auto shape = ctx.choice_at(t, path, "shape", {"box", "tube", "sphere"}, true);
    if (!shape) return;
    v.shape = *shape;
    std::vector<std::string> box_keys = {"half_size"};
    std::vector<std::string> tube_keys = {"rmin", "rmax", "half_z", "phi_start", "phi_delta"};
    std::vector<std::string> sphere_keys = {"rmin", "rmax"};
    auto const& mine = *shape == "box" ? box_keys : (*shape == "tube" ? tube_keys : sphere_keys);
    for (auto const* keys : {&box_keys, &tube_keys, &sphere_keys}) {
        for (auto const& k : *keys) {
            if (std::find(mine.begin(), mine.end(), k) != mine.end()) continue;
            if (toml::node const* n = t.get(k))
                ctx.error(ctx.where(*n), join_key(path, k),
                          fmt::format("'{}' is not a parameter of shape \"{}\" (it takes {})", k, *shape,
                                      quoted_list(mine)));
        }
    }
    if (*shape == "box") {
        if (auto h = ctx.vec3_at(t, path, "half_size", quantity::length, Bound::positive, true))
            v.half_size = *h;
        return;
    }
    if (auto r = ctx.quantity_at(t, path, "rmin", quantity::length, Bound::non_negative, false)) v.rmin = *r;
    if (auto r = ctx.quantity_at(t, path, "rmax", quantity::length, Bound::positive, true)) {
        v.rmax = *r;
        if (v.rmin >= v.rmax)
            ctx.error(ctx.where(*t.get("rmax")), join_key(path, "rmax"),
                      fmt::format("rmax ({} m) must exceed rmin ({} m)", v.rmax, v.rmin));
    }
    if (*shape == "sphere") return;
    if (auto h = ctx.quantity_at(t, path, "half_z", quantity::length, Bound::positive, true)) v.half_z = *h;
    if (auto a = ctx.quantity_at(t, path, "phi_start", quantity::angle, Bound::any, false)) v.phi_start = *a;
    if (auto a = ctx.quantity_at(t, path, "phi_delta", quantity::angle, Bound::positive, false)) {
        if (*a > 2.0 * 3.14159265358979323846 + 1e-12)
            ctx.error(ctx.where(*t.get("phi_delta")), join_key(path, "phi_delta"),
                      fmt::format("expected an angle up to 360 deg, got {} rad", *a));
        else
            v.phi_delta = *a >= 2.0 * 3.14159265358979323846 - 1e-12 ? 0.0 : *a;
    }
}

void read_replicas(DeckContext& ctx, toml::table const& r, std::string const& path, VolumeConfig& v)
{
    ctx.check_keys(r, path, {"count", "step_x", "step_y", "step_z", "step_r"});
    if (auto c = ctx.integer_at(r, path, "count", Bound::at_least_one, true))
        v.replicas = static_cast<int>(*c);
    std::vector<std::string> given;
    for (auto const* k : {"step_x", "step_y", "step_z", "step_r"})
        if (r.contains(k)) given.emplace_back(k);
    if (given.size() != 1) {
        ctx.error(ctx.where(r), path,
                  given.empty()
                      ? std::string("give the replicas' spacing: one of step_x, step_y, step_z, step_r")
                      : fmt::format("give only one of step_x, step_y, step_z, step_r (got {})",
                                    quoted_list(given)));
        return;
    }
    auto const& key = given[0];
    if (auto s = ctx.quantity_at(r, path, key, quantity::length, Bound::positive, true)) v.replica_step = *s;
    v.replica_axis = key == "step_x"   ? ReplicaAxis::x
                     : key == "step_y" ? ReplicaAxis::y
                     : key == "step_z" ? ReplicaAxis::z
                                       : ReplicaAxis::r;
    if (v.replica_axis == ReplicaAxis::r && v.shape == "box")
        ctx.error(ctx.where(*r.get(key)), join_key(path, key),
                  "radial replicas need a tube or a sphere, not a box");
}

}  // namespace

//! [geometry] gdml = "file.gdml": the world, volumes and materials from a GDML file
//! (src/deck/gdml/GdmlReader.hh); a problem in the file is reported at the deck's key.
void read_gdml_geometry(DeckContext& ctx, toml::table const& g, KnownMaterials const& materials,
                        DetectorConfig& d)
{
    std::size_t const problems_before = ctx.error_count();
    auto file = ctx.string_at(g, "geometry", "gdml", true, "a GDML file");
    if (!file) return;
    for (auto const* k : {"world", "volume"})
        if (toml::node const* n = g.get(k))
            ctx.error(ctx.where(*n), join_key("geometry", k),
                      "a geometry read from GDML (geometry.gdml) has its world and volumes in the file");
    gdml::GdmlOptions options;
    if (auto const* c = ctx.table_at(g, "geometry", "gdml_constants", false)) {
        for (auto&& [k, v] : *c) {
            std::string const key(k.str());
            auto const x = v.value<double>();
            if (!x || !std::isfinite(*x))
                ctx.error(
                    ctx.where(k, v), join_key("geometry.gdml_constants", key),
                    fmt::format("expected a number (the <constant>'s value, in the file's units), got {}",
                                describe_node(v)));
            else
                options.constants[key] = *x;
        }
    }
    if (auto strip = ctx.bool_at(g, "geometry", "gdml_strip_pointers")) options.strip_pointers = *strip;
    if (toml::node const* n = g.get("gdml_sensitive")) {
        auto const* arr = n->as_array();
        if (!arr) {
            ctx.error(ctx.where(*n), "geometry.gdml_sensitive",
                      fmt::format("expected an array of volume names, got {}", describe_node(*n)));
        } else {
            for (auto const& e : *arr) {
                if (auto name = ctx.string_of(e, "geometry.gdml_sensitive"))
                    options.sensitive.push_back(*name);
            }
        }
    }
    if (ctx.error_count() > problems_before) return;
    std::filesystem::path path(*file);
    std::filesystem::path const dir = std::filesystem::path(ctx.file()).parent_path();
    if (path.is_relative() && !dir.empty() && !from_command_line(ctx.where(*g.get("gdml"))))
        path = dir / path;
    SourceLocation const at = ctx.where(*g.get("gdml"));
    gdml::GdmlGeometry geometry;
    try {
        geometry = gdml::read_gdml_file(path.string(), options);
    } catch (gdml::GdmlError const& e) {
        ctx.error(at, "geometry.gdml", e.what());
        return;
    }
    for (MaterialConfig& m : geometry.materials) {
        if (std::find(materials.names.begin(), materials.names.end(), m.name) != materials.names.end()) {
            ctx.error(at, "geometry.gdml",
                      fmt::format("{}:{}: material '{}' is also defined in [materials]; rename one of them",
                                  path.string(), m.line, m.name));
            return;
        }
        d.materials.push_back(std::move(m));
    }
    d.gdml = path.string();
    d.world = std::move(geometry.world);
    d.world.line = at.line;
    d.world.column = at.column;
    d.volumes = std::move(geometry.volumes);
}

void read_geometry(DeckContext& ctx, toml::table const& g, KnownMaterials const& materials, DetectorConfig& d)
{
    if (g.contains("gdml") || g.contains("gdml_constants") || g.contains("gdml_strip_pointers") ||
        g.contains("gdml_sensitive")) {
        ctx.check_keys(
            g, "geometry",
            {"world", "volume", "gdml", "gdml_constants", "gdml_strip_pointers", "gdml_sensitive"});
        read_gdml_geometry(ctx, g, materials, d);
        return;
    }
    ctx.check_keys(g, "geometry", {"world", "volume", "gdml"});
    if (auto const* w = ctx.table_at(g, "geometry", "world", true)) {
        std::string const path = "geometry.world";
        ctx.check_keys(
            *w, path, {"shape", "half_size", "rmin", "rmax", "half_z", "phi_start", "phi_delta", "material"});
        d.world.name = "world";
        read_shape(ctx, *w, path, d.world);
        check_material(ctx, materials, *w, path, d.world);
        auto const at = ctx.where(*w);
        d.world.line = at.line;
        d.world.column = at.column;
    }
    toml::node const* vn = g.get("volume");
    if (!vn) return;
    auto const* arr = vn->as_array();
    if (!arr) {
        ctx.error(ctx.where(*vn), "geometry.volume",
                  fmt::format("expected [[geometry.volume]] entries (an array of tables), got {}",
                              describe_node(*vn)));
        return;
    }
    std::vector<std::string> names = {"world"};
    for (std::size_t i = 0; i < arr->size(); ++i) {
        toml::node const& n = *arr->get(i);
        std::string const path = fmt::format("geometry.volume[{}]", i);
        auto const* t = n.as_table();
        if (!t) {
            ctx.error(ctx.where(n), path, fmt::format("expected a table, got {}", describe_node(n)));
            continue;
        }
        std::vector<std::string> keys = {"name",     "shape",     "half_size", "rmin",     "rmax",
                                         "half_z",   "phi_start", "phi_delta", "material", "mother",
                                         "position", "rotation",  "sensitive", "replicas"};
        if (d.along_beamline) keys.push_back("s");  // placed along the beamline's orbit
        ctx.check_keys(*t, path, keys);
        VolumeConfig v;
        auto const at = ctx.where(*t);
        v.line = at.line;
        v.column = at.column;
        if (auto name = ctx.string_at(*t, path, "name", true, "a unique volume name")) {
            v.name = *name;
            if (std::find(names.begin(), names.end(), *name) != names.end())
                ctx.error(ctx.where(*t->get("name")), join_key(path, "name"),
                          fmt::format("a volume named '{}' is defined already", *name));
            names.push_back(*name);
        }
        read_shape(ctx, *t, path, v);
        check_material(ctx, materials, *t, path, v);
        if (auto m = ctx.string_at(*t, path, "mother", false, "")) {
            // a mother must be defined before its daughters
            if (std::find(names.begin(), names.end() - 1, *m) == names.end() - 1)
                ctx.error(
                    ctx.where(*t->get("mother")), join_key(path, "mother"),
                    fmt::format("no volume named '{}' before this one{}", *m,
                                did_you_mean(*m, std::vector<std::string>(names.begin(), names.end() - 1))));
            else
                v.mother = *m;
        }
        if (auto pos = ctx.vec3_at(*t, path, "position", quantity::length, Bound::any, false))
            v.position = *pos;
        if (auto rot = ctx.vec3_at(*t, path, "rotation", quantity::angle, Bound::any, false))
            v.rotation = *rot;
        if (auto s = ctx.bool_at(*t, path, "sensitive")) v.sensitive = *s;
        if (d.along_beamline && t->contains("s")) {
            if (v.mother != "world")
                ctx.error(
                    ctx.where(*t->get("s")), join_key(path, "s"),
                    fmt::format("only a volume placed in the world is placed along the beamline (this one "
                                "is in '{}', whose frame places it)",
                                v.mother));
            else if (auto s = ctx.quantity_at(*t, path, "s", quantity::length, Bound::non_negative, false))
                v.s = *s;
        }
        if (auto const* rep = ctx.table_at(*t, path, "replicas", false))
            read_replicas(ctx, *rep, join_key(path, "replicas"), v);
        d.volumes.push_back(std::move(v));
    }
}

}  // namespace gt::deck
