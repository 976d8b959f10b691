// The GDML part of `gtrack check` (see GdmlSummary.hh).
#include "detector/gdml/GdmlSummary.hh"

#include <algorithm>
#include <cmath>
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

//! The solid's closed-form volume [m^3] (GDML volumes have no replicas).
double solid_volume(VolumeConfig const& v)
{
    constexpr double pi = 3.14159265358979323846;
    double const turn = v.phi_delta > 0 ? v.phi_delta / (2 * pi) : 1.0;  // a phi segment's share
    double const h = 2 * v.half_z;
    if (v.shape == "box") return 8 * v.half_size[0] * v.half_size[1] * v.half_size[2];
    if (v.shape == "tube") return turn * pi * (v.rmax * v.rmax - v.rmin * v.rmin) * h;
    if (v.shape == "sphere") return 4.0 / 3.0 * pi * (std::pow(v.rmax, 3) - std::pow(v.rmin, 3));
    if (v.shape == "cone") {
        // frustum: pi h / 3 (R1^2 + R1 R2 + R2^2), outer less inner
        auto frustum = [&](double r1, double r2) { return pi * h / 3 * (r1 * r1 + r1 * r2 + r2 * r2); };
        return turn * (frustum(v.rmax, v.rmax2) - frustum(v.rmin, v.rmin2));
    }
    if (v.shape == "trd") {
        // prismatoid: H / 6 (A1 + A2 + 4 A_mid), exact for a cross-section quadratic in z
        double const x1 = v.half_size[0], y1 = v.half_size[1], x2 = v.half_size2[0], y2 = v.half_size2[1];
        return 2 * v.half_size[2] / 6 * (4 * x1 * y1 + 4 * x2 * y2 + 4 * (x1 + x2) * (y1 + y2));
    }
    if (v.shape == "eltube") return pi * v.half_size[0] * v.half_size[1] * 2 * v.half_size[2];
    if (v.shape == "para") return 8 * v.half_size[0] * v.half_size[1] * v.half_size[2];  // a shear keeps it
    if (v.shape == "polycone") {
        // its sections' frusta, outer less inner, times the segment's share
        auto frustum = [&](double r1, double r2, double hz) {
            return pi * hz / 3 * (r1 * r1 + r1 * r2 + r2 * r2);
        };
        double sum = 0;
        for (std::size_t i = 0; i + 1 < v.zplanes.size(); ++i) {
            auto const& a = v.zplanes[i];
            auto const& b = v.zplanes[i + 1];
            sum += frustum(a[2], b[2], b[0] - a[0]) - frustum(a[1], b[1], b[0] - a[0]);
        }
        return turn * sum;
    }
    if (v.shape == "trap") {
        // planar faces: the section at z is a trapezoid of half-height h and half-lengths bl, tl, all
        // linear in z, of area 2 h (bl + tl), quadratic in z: the prismatoid rule is exact
        auto const& a = v.trap;
        auto area = [](double hy, double bl, double tl) { return 2 * hy * (bl + tl); };
        double const mid = area(0.5 * (a[3] + a[7]), 0.5 * (a[4] + a[8]), 0.5 * (a[5] + a[9]));
        return 2 * a[0] / 6 * (area(a[3], a[4], a[5]) + area(a[7], a[8], a[9]) + 4 * mid);
    }
    return 0;
}

//! Density [kg/m^3] of a material by name: gtrack's built-in, else the deck's.
double density_of(DetectorConfig const& d, std::string const& name)
{
    if (std::optional<MaterialParams> m = builtin_material(name)) return m->density;
    for (MaterialConfig const& c : d.materials)
        if (c.name == name) return c.density;
    return 0;
}

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
    // each volume's own material: its solid less its daughters' (placed in it), times the density
    std::map<std::string, double> daughters;  // logical name -> volume of the solids placed in it
    for (VolumeConfig const& v : d.volumes)
        for (VolumePlacement const& p : v.placements) daughters[p.mother] += solid_volume(v);
    std::vector<std::size_t> placed(d.volumes.size() + 1, 0);
    for (PlacedVolume const& pv : g.volumes) ++placed[static_cast<std::size_t>(pv.logical)];
    text += "  masses (density x closed-form volume less daughters'):\n";
    for (std::size_t l = 1; l <= d.volumes.size(); ++l) {
        VolumeConfig const& v = d.volumes[l - 1];
        double const full = solid_volume(v);
        double own = full - daughters[v.name];
        // daughters that fill their mother leave round-off (a negative value beyond it would mean
        // overlapping daughters, which the overlap check reports)
        if (std::fabs(own) < 1e-9 * full) own = 0;
        text += fmt::format("    {:<24} {:>12.6g} cm3 {:>12.6g} kg{}\n", v.name, own * 1e6,
                            own * density_of(d, v.material),
                            placed[l] > 1 ? fmt::format(" each, {} placed", placed[l]) : "");
    }
    return text;
}

}  // namespace gt::gdml
