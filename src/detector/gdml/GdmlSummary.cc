// The GDML part of `gtrack check` (see GdmlSummary.hh).
#include "detector/gdml/GdmlSummary.hh"

#include <algorithm>
#include <map>
#include <set>

#include <fmt/format.h>

#include "deck/Materials.hh"

namespace gt::gdml {

namespace {

struct Tree {
    DetectorConfig const& d;
    GeometryTables const& g;
    std::vector<std::vector<std::int32_t>> daughters;
    int max_depth;
    std::string text;

    VolumeConfig const& logical(std::int32_t v) const
    {
        std::int32_t const l = g.volumes[v].logical;
        return l == 0 ? d.world : d.volumes[static_cast<std::size_t>(l - 1)];
    }

    void print(std::int32_t v, int depth, std::size_t copies)
    {
        VolumeConfig const& l = logical(v);
        text += fmt::format("    {:{}}{} ({}, {}){}{}\n", "", 2 * depth, l.name, l.shape, l.material,
                            copies > 1 ? fmt::format(" x{}", copies) : "", l.sensitive ? ", sensitive" : "");
        auto const& ds = daughters[static_cast<std::size_t>(v)];
        if (ds.empty()) return;
        if (depth + 1 >= max_depth) {
            text += fmt::format("    {:{}}... {} daughters below (depth limit {})\n", "", 2 * depth + 2,
                                ds.size(), max_depth);
            return;
        }
        // consecutive placements of one logical volume on one line; the first stands for them all
        for (std::size_t i = 0; i < ds.size();) {
            std::size_t j = i + 1;
            while (j < ds.size() && g.volumes[ds[j]].logical == g.volumes[ds[i]].logical) ++j;
            print(ds[i], depth + 1, j - i);
            i = j;
        }
    }
};

}  // namespace

std::string describe_gdml_geometry(DetectorConfig const& d, GeometryTables const& g, int max_depth)
{
    Tree t{d, g, std::vector<std::vector<std::int32_t>>(g.volumes.size()), max_depth, {}};
    for (std::size_t i = 1; i < g.volumes.size(); ++i)
        t.daughters[static_cast<std::size_t>(g.volumes[i].mother)].push_back(static_cast<std::int32_t>(i));
    std::string text = fmt::format("  GDML file: {}\n  volume tree (to depth {}):\n", d.gdml, max_depth);
    t.print(0, 0, 1);
    text += t.text;
    // materials the volumes use, with density and radiation length
    std::set<std::string> used = {d.world.material};
    for (VolumeConfig const& v : d.volumes) used.insert(v.material);
    text += "  materials:\n";
    for (std::string const& name : used) {
        std::optional<MaterialParams> m = builtin_material(name);
        if (!m)
            for (MaterialConfig const& c : d.materials)
                if (c.name == name) m = make_material(c);
        if (!m) continue;
        if (name == "vacuum") {
            text += "    vacuum\n";
            continue;
        }
        text += fmt::format("    {:<24} {:>10.4g} g/cm3  X0 = {:.4g} cm{}\n", name, m->density * 1e-3,
                            m->radiation_length * 1e2, builtin_material(name) ? " (built-in)" : "");
    }
    // solids by type (one per logical volume)
    std::map<std::string, int> shapes;
    ++shapes[d.world.shape];
    for (VolumeConfig const& v : d.volumes) ++shapes[v.shape];
    std::vector<std::string> parts;
    for (auto const& [shape, n] : shapes) parts.push_back(fmt::format("{} {}", shape, n));
    text += fmt::format("  solids by type: {}\n", fmt::join(parts, ", "));
    return text;
}

}  // namespace gt::gdml
