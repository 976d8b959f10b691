// Placing volumes, expanding replicas, building daughter hierarchies, and checking for overlaps.
#include "detector/GeometryBuilder.hh"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <optional>
#include <random>
#include <set>
#include <stdexcept>

#include <fmt/format.h>

#include "detector/ShapeParameters.hh"
#include "kernels/geometry/Navigator.hh"

namespace gt {

Shape make_shape(VolumeConfig const& v, int copy, std::vector<PolyconeSection>* sections)
{
    double const dr = v.replica_axis == ReplicaAxis::r ? copy * v.replica_step : 0.0;
    if (v.shape == "box") return Shape(Box{{v.half_size[0], v.half_size[1], v.half_size[2]}});
    if (v.shape == "tube")
        return Shape(Tube{v.rmin + dr, v.rmax + dr, v.half_z, make_phi_segment(v.phi_start, v.phi_delta)});
    // the solids below come from GDML only, which has no replicas
    if (v.shape == "cone")
        return Shape(make_cons(v.rmin, v.rmax, v.rmin2, v.rmax2, v.half_z, v.phi_start, v.phi_delta));
    if (v.shape == "trd")
        return Shape(
            make_trd(v.half_size[0], v.half_size2[0], v.half_size[1], v.half_size2[1], v.half_size[2]));
    if (v.shape == "eltube")
        return Shape(make_elliptical_tube(v.half_size[0], v.half_size[1], v.half_size[2]));
    if (v.shape == "para")
        return Shape(make_para(v.half_size[0], v.half_size[1], v.half_size[2], v.para_angles[0],
                               v.para_angles[1], v.para_angles[2]));
    if (v.shape == "polycone") {
        if (!sections) throw std::logic_error("make_shape: a polycone needs the sections table");
        return Shape(make_polycone(v.zplanes, v.phi_start, v.phi_delta, *sections));
    }
    if (v.shape == "trap") {
        auto const& a = v.trap;
        return Shape(make_trap({a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10]}));
    }
    return Shape(Sphere{v.rmin + dr, v.rmax + dr});
}

namespace {

void set_bounds(PlacedVolume& pv)
{
    Vec3 const h = pv.shape.half_extent();
    Vec3 lo{HUGE_VAL, HUGE_VAL, HUGE_VAL}, hi{-HUGE_VAL, -HUGE_VAL, -HUGE_VAL};
    for (int c = 0; c < 8; ++c) {
        Vec3 const corner{(c & 1) ? h.x : -h.x, (c & 2) ? h.y : -h.y, (c & 4) ? h.z : -h.z};
        Vec3 const g = pv.placement.to_global(corner);
        for (int a = 0; a < 3; ++a) {
            lo[a] = std::min(lo[a], g[a]);
            hi[a] = std::max(hi[a], g[a]);
        }
    }
    pv.lo = lo;
    pv.hi = hi;
}

//! Median-split hierarchy over items[begin, end); returns the node index.
std::int32_t build_bvh(std::vector<PlacedVolume> const& vols, std::vector<std::int32_t>& items,
                       std::size_t begin, std::size_t end, std::vector<BvhNode>& nodes)
{
    BvhNode node;
    node.lo = {HUGE_VAL, HUGE_VAL, HUGE_VAL};
    node.hi = {-HUGE_VAL, -HUGE_VAL, -HUGE_VAL};
    Vec3 clo = node.lo, chi = node.hi;
    for (std::size_t i = begin; i < end; ++i) {
        PlacedVolume const& v = vols[items[i]];
        for (int a = 0; a < 3; ++a) {
            node.lo[a] = std::min(node.lo[a], v.lo[a]);
            node.hi[a] = std::max(node.hi[a], v.hi[a]);
            double const c = 0.5 * (v.lo[a] + v.hi[a]);
            clo[a] = std::min(clo[a], c);
            chi[a] = std::max(chi[a], c);
        }
    }
    auto const index = static_cast<std::int32_t>(nodes.size());
    nodes.push_back(node);
    if (end - begin <= 4) {
        nodes[index].first = static_cast<std::int32_t>(begin);
        nodes[index].count = static_cast<std::int32_t>(end - begin);
        return index;
    }
    int axis = 0;
    for (int a = 1; a < 3; ++a)
        if (chi[a] - clo[a] > chi[axis] - clo[axis]) axis = a;
    std::size_t const mid = begin + (end - begin) / 2;
    std::nth_element(items.begin() + static_cast<long>(begin), items.begin() + static_cast<long>(mid),
                     items.begin() + static_cast<long>(end), [&](std::int32_t a, std::int32_t b) {
                         double const ca = vols[a].lo[axis] + vols[a].hi[axis];
                         double const cb = vols[b].lo[axis] + vols[b].hi[axis];
                         return ca != cb ? ca < cb : a < b;
                     });
    std::int32_t const left = build_bvh(vols, items, begin, mid, nodes);
    std::int32_t const right = build_bvh(vols, items, mid, end, nodes);
    nodes[index].first = left;
    nodes[index].second = right;
    nodes[index].count = -1;
    return index;
}

//! Every placement of a GDML logical volume in every placement of its mother, in the order given.
std::vector<std::int32_t> place_gdml_volume(GeometryTables& g,
                                            std::map<std::string, std::vector<std::int32_t>> const& placed,
                                            VolumeConfig const& v, std::int32_t material,
                                            std::int32_t logical)
{
    std::vector<std::int32_t> mine;
    std::optional<Shape> shape;
    for (VolumePlacement const& p : v.placements) {
        auto const mothers = placed.find(p.mother);
        if (mothers == placed.end())
            throw std::invalid_argument("volume '" + v.name + "': unknown mother '" + p.mother + "'");
        Transform local;
        std::copy(p.rotation.begin(), p.rotation.end(), local.r);
        if (!shape) shape = make_shape(v, 0, &g.sections);  // once: every placement shares its sections
        local.t = {p.position[0], p.position[1], p.position[2]};
        for (std::int32_t m : mothers->second) {
            PlacedVolume pv;
            pv.shape = *shape;
            pv.placement = g.volumes[m].placement.compose(local);
            pv.mother = m;
            pv.material = material;
            pv.logical = logical;
            pv.replica = p.copy ? *p.copy : g.volumes[m].replica;
            pv.sensitive = v.sensitive ? 1 : 0;
            set_bounds(pv);
            mine.push_back(static_cast<std::int32_t>(g.volumes.size()));
            g.volumes.push_back(pv);
        }
    }
    return mine;
}

}  // namespace

GeometryTables build_geometry(DetectorConfig const& cfg, std::map<std::string, int> const& material_index)
{
    GeometryTables g;
    auto material_of = [&](VolumeConfig const& v) {
        auto it = material_index.find(v.material);
        if (it == material_index.end())
            throw std::invalid_argument("volume '" + v.name + "': unknown material '" + v.material + "'");
        return it->second;
    };
    PlacedVolume world;
    world.shape = make_shape(cfg.world, 0, &g.sections);
    world.material = material_of(cfg.world);
    world.logical = 0;
    set_bounds(world);
    g.volumes.push_back(world);
    g.logical_names.push_back(cfg.world.name.empty() ? std::string("world") : cfg.world.name);
    std::map<std::string, std::vector<std::int32_t>> placed;  // volume name -> its placements
    placed[g.logical_names[0]] = {0};
    for (std::size_t li = 0; li < cfg.volumes.size(); ++li) {
        VolumeConfig const& v = cfg.volumes[li];
        g.logical_names.push_back(v.name);
        if (!v.placements.empty()) {
            placed[v.name] =
                place_gdml_volume(g, placed, v, material_of(v), static_cast<std::int32_t>(li + 1));
            continue;
        }
        auto const mothers = placed.find(v.mother);
        if (mothers == placed.end())
            throw std::invalid_argument("volume '" + v.name + "': unknown mother '" + v.mother + "'");
        Transform local;
        rotation_matrix(v.rotation[0], v.rotation[1], v.rotation[2], local.r);
        std::vector<std::int32_t> mine;
        for (std::int32_t m : mothers->second) {
            for (int k = 0; k < v.replicas; ++k) {
                Transform t = local;
                t.t = {v.position[0], v.position[1], v.position[2]};
                if (v.replica_axis == ReplicaAxis::x) t.t.x += k * v.replica_step;
                if (v.replica_axis == ReplicaAxis::y) t.t.y += k * v.replica_step;
                if (v.replica_axis == ReplicaAxis::z) t.t.z += k * v.replica_step;
                PlacedVolume pv;
                pv.shape = make_shape(v, k, &g.sections);
                pv.placement = g.volumes[m].placement.compose(t);
                pv.mother = m;
                pv.material = material_of(v);
                pv.logical = static_cast<std::int32_t>(li + 1);
                pv.replica = v.replicas > 1 ? k : g.volumes[m].replica;
                pv.sensitive = v.sensitive ? 1 : 0;
                set_bounds(pv);
                mine.push_back(static_cast<std::int32_t>(g.volumes.size()));
                g.volumes.push_back(pv);
            }
        }
        placed[v.name] = std::move(mine);
    }
    // daughters of each mother, then one hierarchy per mother
    std::vector<std::vector<std::int32_t>> daughters(g.volumes.size());
    for (std::size_t i = 1; i < g.volumes.size(); ++i)
        daughters[g.volumes[i].mother].push_back(static_cast<std::int32_t>(i));
    for (std::size_t m = 0; m < g.volumes.size(); ++m) {
        if (daughters[m].empty()) continue;
        std::size_t const begin = g.items.size();
        g.items.insert(g.items.end(), daughters[m].begin(), daughters[m].end());
        g.volumes[m].bvh_root = build_bvh(g.volumes, g.items, begin, g.items.size(), g.nodes);
    }
    return g;
}

std::vector<GeometryProblem> check_geometry(GeometryTables const& g, int samples_per_volume,
                                            std::size_t max_reports)
{
    std::vector<GeometryProblem> problems;
    std::set<std::pair<std::int32_t, std::int32_t>> reported;
    Navigator const nav(g.view());
    std::mt19937_64 gen(12345);
    std::normal_distribution<double> normal;
    std::uniform_real_distribution<double> unit(-1.0, 1.0);
    auto name_of = [&](std::int32_t v) {
        PlacedVolume const& pv = g.volumes[v];
        return fmt::format("'{}' (copy {})", g.logical_names[pv.logical], pv.replica);
    };
    for (std::int32_t v = 1; v < static_cast<std::int32_t>(g.volumes.size()); ++v) {
        PlacedVolume const& pv = g.volumes[v];
        Vec3 const h = pv.shape.half_extent();
        int found = 0;
        for (int tries = 0; found < samples_per_volume && tries < 50 * samples_per_volume; ++tries) {
            // a random point inside the daughter, moved along a random direction to just inside its surface
            Vec3 const local{h.x * unit(gen), h.y * unit(gen), h.z * unit(gen)};
            if (!pv.shape.inside(local, g.sections.data())) continue;
            Vec3 d{normal(gen), normal(gen), normal(gen)};
            d = normalized(d);
            double const t = pv.shape.distance_to_out(local, d, g.sections.data());
            Vec3 const surface_local = axpy(t * (1.0 - 1.0e-9) - 1.0e-12, d, local);
            if (!pv.shape.inside(surface_local, g.sections.data())) continue;
            ++found;
            Vec3 const p = pv.placement.to_global(surface_local);
            std::int32_t const m = pv.mother;
            if (!nav.inside(m, p) && !reported.count({v, m})) {
                reported.insert({v, m});
                problems.push_back(
                    {fmt::format("volume {} sticks out of its mother {} at ({:.6g}, {:.6g}, {:.6g}) m",
                                 name_of(v), name_of(m), p.x, p.y, p.z)});
            }
            // siblings: the other daughters of the mother whose boxes hold p, found through its hierarchy
            std::int32_t stack[64];
            int top = 0;
            if (g.volumes[m].bvh_root >= 0) stack[top++] = g.volumes[m].bvh_root;
            auto in_box = [&](Vec3 lo, Vec3 hi) {
                return p.x >= lo.x && p.x <= hi.x && p.y >= lo.y && p.y <= hi.y && p.z >= lo.z && p.z <= hi.z;
            };
            while (top > 0) {
                BvhNode const& n = g.nodes[stack[--top]];
                if (!in_box(n.lo, n.hi)) continue;
                if (n.count < 0) {
                    if (top + 2 <= 64) {
                        stack[top++] = n.first;
                        stack[top++] = n.second;
                    }
                    continue;
                }
                for (std::int32_t k = 0; k < n.count; ++k) {
                    std::int32_t const s = g.items[n.first + k];
                    if (s == v || !in_box(g.volumes[s].lo, g.volumes[s].hi)) continue;
                    auto const key = std::minmax(v, s);
                    if (!nav.inside(s, p) || reported.count(key)) continue;
                    reported.insert(key);
                    problems.push_back({fmt::format("volumes {} and {} overlap at ({:.6g}, {:.6g}, {:.6g}) m",
                                                    name_of(v), name_of(s), p.x, p.y, p.z)});
                }
            }
            if (problems.size() >= max_reports) return problems;
        }
    }
    return problems;
}

}  // namespace gt
