// The GDML reader's driver: the sections in order, then the geometry description (see GdmlReader.hh).
#include "deck/gdml/GdmlReader.hh"

#include <algorithm>
#include <deque>
#include <set>

#include <fmt/format.h>

#include "deck/Materials.hh"
#include "deck/gdml/GdmlModel.hh"

namespace gt::gdml {

namespace {

//! Materials thinner than this [kg/m^3] (1e-13 g/cm3) are vacuum.
constexpr double k_vacuum_density = 1e-10;
//! Most placed volumes a geometry may expand into (a CMS-like detector has ~10^6).
constexpr double k_max_placed = 2e7;

GdmlTransform compose(GdmlTransform const& outer, GdmlTransform const& inner)
{
    GdmlTransform t;
    for (int i = 0; i < 3; ++i) {
        for (int j = 0; j < 3; ++j)
            t.rotation[3 * i + j] = outer.rotation[3 * i] * inner.rotation[j] +
                                    outer.rotation[3 * i + 1] * inner.rotation[3 + j] +
                                    outer.rotation[3 * i + 2] * inner.rotation[6 + j];
        t.position[i] = outer.rotation[3 * i] * inner.position[0] +
                        outer.rotation[3 * i + 1] * inner.position[1] +
                        outer.rotation[3 * i + 2] * inner.position[2] + outer.position[i];
    }
    return t;
}

//! The daughters of a logical volume with assemblies expanded into their own placements.
void flatten(GdmlModel const& model, GdmlLogical const& v, GdmlTransform const& frame, int depth,
             GdmlSource& src, std::vector<GdmlPhysvol>& out)
{
    if (depth > 64) src.fail(v.node, "assemblies nested more than 64 deep (a cycle?)");
    for (GdmlPhysvol const& p : v.daughters) {
        if (static_cast<double>(out.size()) > k_max_placed)
            src.fail(v.node, "assemblies that expand into too many placements");
        GdmlLogical const& d = model.volumes.at(p.volume);
        GdmlTransform const t = depth == 0 ? p.transform : compose(frame, p.transform);
        if (d.assembly) {
            flatten(model, d, t, depth + 1, src, out);
            continue;
        }
        GdmlPhysvol q = p;
        q.transform = t;
        out.push_back(std::move(q));
    }
}

std::string output_name(std::string const& name, GdmlOptions const& options)
{
    return options.strip_pointers ? strip_pointer(name) : name;
}

GdmlGeometry describe(GdmlSource& src, GdmlModel& model, std::string const& world_name,
                      GdmlOptions const& options)
{
    GdmlGeometry out;
    GdmlLogical const& world = model.volumes.at(world_name);
    // every logical volume's placements, in the mothers' order (Kahn's order from the world: each
    // volume comes after every mother of it, siblings in the order of their <physvol>s)
    std::map<std::string, std::vector<std::pair<std::string, GdmlPhysvol>>> placements;
    std::map<std::string, std::vector<GdmlPhysvol>> daughters;
    std::map<std::string, std::set<std::string>> mothers;
    std::deque<std::string> todo = {world_name};
    std::set<std::string> seen = {world_name};
    while (!todo.empty()) {
        std::string const m = todo.front();
        todo.pop_front();
        auto& ds = daughters[m];
        flatten(model, model.volumes.at(m), GdmlTransform{}, 0, src, ds);
        for (GdmlPhysvol const& p : ds) {
            mothers[p.volume].insert(m);
            if (seen.insert(p.volume).second) todo.push_back(p.volume);
        }
    }
    std::vector<std::string> order;
    std::map<std::string, std::size_t> waiting;
    for (auto const& [name, ms] : mothers) waiting[name] = ms.size();
    std::deque<std::string> ready = {world_name};
    while (!ready.empty()) {
        std::string const m = ready.front();
        ready.pop_front();
        order.push_back(m);
        std::set<std::string> released;
        for (GdmlPhysvol const& p : daughters[m]) {
            placements[p.volume].emplace_back(m, p);
            if (released.insert(p.volume).second && --waiting[p.volume] == 0) ready.push_back(p.volume);
        }
    }
    if (order.size() != seen.size()) src.fail(world.node, "the volumes place each other in a cycle");
    // every placement becomes a placed volume of its own: refuse a file that expands past the tables
    std::map<std::string, double> copies = {{world_name, 1.0}};
    double total = 1;
    for (std::size_t i = 1; i < order.size(); ++i) {
        double n = 0;
        for (auto const& [mother, p] : placements[order[i]]) n += copies[mother];
        copies[order[i]] = n;
        total += n;
        if (total > k_max_placed)
            src.fail(
                model.volumes.at(order[i]).node,
                fmt::format("the geometry expands into more than {:g} placed volumes (this volume is placed "
                            "{:g} times)",
                            k_max_placed, n));
    }

    // names as the output shows them
    std::map<std::string, std::string> shown;
    std::map<std::string, std::string> owner;
    for (std::string const& name : order) {
        std::string const s = output_name(name, options);
        if (auto [it, fresh] = owner.emplace(s, name); !fresh)
            src.fail(model.volumes.at(name).node,
                     fmt::format("volumes '{}' and '{}' both become '{}' without their pointer suffixes; set "
                                 "[geometry] gdml_strip_pointers = false",
                                 it->second, name, s));
        shown[name] = s;
    }
    for (std::string const& s : options.sensitive)
        if (!owner.count(s))
            throw GdmlError(src.path(), 0, "<structure>",
                            fmt::format("[geometry] gdml_sensitive names '{}', which is not a volume placed "
                                        "in the world of this file",
                                        s));

    // materials: gtrack's built-in ones by name, the others as user materials
    std::map<std::string, std::string> material_names;
    auto const builtins = builtin_material_names();
    auto material_of = [&](GdmlLogical const& v) {
        if (auto it = material_names.find(v.material); it != material_names.end()) return it->second;
        GdmlMaterial const& m = model.materials.at(v.material);
        std::string name = m.builtin;
        // Geant4's "vacuum" is a gas of 1e-25 g/cm3 (G4_Galactic's density): gtrack's vacuum, whose
        // interaction lengths are infinite instead of 1e20 m
        if (name.empty() && m.density < k_vacuum_density) name = "vacuum";
        if (name.empty()) {
            name = output_name(v.material, options);
            // a file's "water" or "lead" is not gtrack's built-in one: it keeps its own composition
            if (std::find(builtins.begin(), builtins.end(), name) != builtins.end()) name += "_gdml";
            MaterialConfig c;
            c.name = name;
            c.density = m.density;
            c.mean_excitation = m.mean_excitation;
            for (auto const& [z, w] : m.by_mass) {
                for (auto const& sym : element_symbols())
                    if (find_element(sym)->z == z) c.elements.emplace_back(sym, w);
            }
            c.line = src.line_of(m.node);
            out.materials.push_back(std::move(c));
        }
        material_names[v.material] = name;
        return name;
    };
    auto volume_of = [&](std::string const& name) {
        GdmlLogical const& v = model.volumes.at(name);
        if (v.assembly) src.fail(v.node, "the world of <setup> is an assembly, not a volume");
        VolumeConfig c = model.solids.at(v.solid);
        c.name = shown[name];
        c.material = material_of(v);
        c.sensitive = v.sensitive || std::find(options.sensitive.begin(), options.sensitive.end(), c.name) !=
                                         options.sensitive.end();
        c.line = src.line_of(v.node);
        return c;
    };
    out.world = volume_of(world_name);
    for (std::size_t i = 1; i < order.size(); ++i) {
        VolumeConfig c = volume_of(order[i]);
        for (auto const& [mother, p] : placements[order[i]]) {
            VolumePlacement vp;
            vp.mother = shown[mother];
            vp.position = p.transform.position;
            vp.rotation = p.transform.rotation;
            vp.copy = p.copy;
            c.placements.push_back(vp);
        }
        c.mother = c.placements.front().mother;
        out.volumes.push_back(std::move(c));
    }
    return out;
}

GdmlGeometry read(GdmlSource& src, GdmlOptions const& options)
{
    GdmlModel model;
    pugi::xml_node const root = src.root();
    bool defines = false;
    std::string world;
    for (pugi::xml_node n : root.children()) {
        if (n.type() != pugi::node_element) continue;
        std::string const tag = n.name();
        if (tag == "define") {
            read_defines(src, n, options.constants, model);
            defines = true;
        } else if (tag == "materials") {
            read_materials(src, n, model);
        } else if (tag == "solids") {
            read_solids(src, n, model);
        } else if (tag == "structure") {
            read_structure(src, n, model);
        } else if (tag == "setup") {
            if (!world.empty()) continue;  // Geant4 takes the first setup
            pugi::xml_node w = n.child("world");
            if (!w) src.fail(n, "a <world ref=.../> is missing");
            world = src.text(w, "ref");
            if (!model.volumes.count(world))
                src.fail(w, fmt::format("no <volume> named '{}' in <structure>", world));
        } else {
            src.fail(
                n, fmt::format("unknown section <{}> (expected define, materials, solids, structure, setup)",
                               tag));
        }
    }
    if (!defines && !options.constants.empty())
        read_defines(src, pugi::xml_node(), options.constants, model);  // reports the unknown names
    if (world.empty()) src.fail(root, "no <setup> with a <world ref=.../>: which volume is the world?");
    return describe(src, model, world, options);
}

}  // namespace

std::string strip_pointer(std::string const& name)
{
    // Geant4's writer appends the object's address: "name0x" followed by hex digits
    std::size_t const at = name.rfind("0x");
    if (at == std::string::npos || at == 0 || at + 2 == name.size()) return name;
    for (std::size_t i = at + 2; i < name.size(); ++i)
        if (!std::isxdigit(static_cast<unsigned char>(name[i]))) return name;
    return name.substr(0, at);
}

GdmlGeometry read_gdml_file(std::string const& path, GdmlOptions const& options)
{
    GdmlSource src(path);
    return read(src, options);
}

GdmlGeometry read_gdml_text(std::string const& path, std::string const& text, GdmlOptions const& options)
{
    GdmlSource src(path, text);
    return read(src, options);
}

}  // namespace gt::gdml
