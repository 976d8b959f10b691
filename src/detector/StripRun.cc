// The strip stage: backend, truth matching, quality, tables, summary, CPU/GPU comparison.
#include "detector/StripRun.hh"

#include <cmath>
#include <cstring>
#include <map>
#include <stdexcept>
#include <tuple>

#include <fmt/format.h>

#include "detector/StripSetup.hh"
#include "io/OutputFile.hh"

namespace gt {

std::shared_ptr<StripOutcome> run_strip_stage(DeckConfig const& cfg, GeometryTables const& geometry,
                                              std::vector<Hit> const& hits, bool gpu)
{
    if (hits.size() >= (std::size_t(1) << 32))
        throw std::runtime_error("strips: more than 2^32 hits (steps) to digitize in one run");
    auto o = std::make_shared<StripOutcome>();
    o->tables = make_strip_tables(cfg, geometry);
    std::unique_ptr<StripKernels> k = gpu ? make_cuda_strip_kernels() : make_cpu_strip_kernels();
    o->backend = k->description();
    k->setup(o->tables);
    o->digitization = k->digitize(hits);
    o->reconstruction = k->reconstruct(o->digitization.digis, o->digitization.truth);
    o->timer = k->timer();
    strip_quality(*o, geometry, hits);
    o->totals = StripTotals{o->digitization.signals, o->digitization.pulses, o->digitization.digis.size(),
                            o->reconstruction.clusters.size(), o->reconstruction.hits.size()};
    return o;
}

void strip_quality(StripOutcome& o, GeometryTables const& geometry, std::vector<Hit> const& hits)
{
    StripTables const& t = o.tables;
    auto volume_of = [&](std::int32_t logical, std::int32_t replica) -> std::int32_t {
        if (logical < 0 || std::size_t(logical) >= t.logical_first.size()) return -1;
        if (replica < 0 || replica >= t.logical_count[std::size_t(logical)]) return -1;
        return t.logical_first[std::size_t(logical)] + replica;
    };
    o.quality.assign(t.volumes.size(), {});
    for (std::size_t i = 0; i < t.volumes.size(); ++i) {
        StripStationQuality& q = o.quality[i];
        q.logical = t.volumes[i].logical;
        q.replica = t.volumes[i].replica;
        q.name = fmt::format("{}[{}]", geometry.logical_names[std::size_t(q.logical)], q.replica);
    }
    // true points: each track's first crossing of a strip volume's middle plane (volume frame)
    using Key = std::tuple<std::uint64_t, std::uint64_t, std::int32_t>;  // event, track, strip volume
    struct Point {
        double x = 0, y = 0;
        bool found = false;
    };
    std::map<Key, Point> points;
    for (Hit const& h : hits) {
        std::int32_t const v = volume_of(h.volume, h.replica);
        if (v < 0) continue;
        StripVolume const& vol = t.volumes[std::size_t(v)];
        Vec3 const a = vol.placement.to_local(h.pre), b = vol.placement.to_local(h.post);
        if ((a.z > 0) == (b.z > 0) || a.z == b.z) continue;
        double const f = -a.z / (b.z - a.z);
        Key const key{h.event, h.track, v};
        if (points.count(key)) continue;
        points[key] = Point{a.x + f * (b.x - a.x), a.y + f * (b.y - a.y), false};
    }
    for (auto const& [key, p] : points) ++o.quality[std::size_t(std::get<2>(key))].points;
    std::vector<StripCluster> const& cl = o.reconstruction.clusters;
    std::vector<double> su(t.volumes.size()), sv(t.volumes.size()), pu(t.volumes.size()),
        pv(t.volumes.size());
    std::vector<std::uint64_t> n_true(t.volumes.size());
    o.hit_true.assign(o.reconstruction.hits.size(), 0);
    for (std::size_t i = 0; i < o.reconstruction.hits.size(); ++i) {
        StripRecoHit const& r = o.reconstruction.hits[i];
        auto const v = std::size_t(t.sensor_volume[r.sensor]);
        StripStationQuality& q = o.quality[v];
        ++q.hits;
        Hit const& hf = hits[cl[r.front].truth];
        Hit const& hb = hits[cl[r.back].truth];
        bool const same = hf.event == hb.event && hf.track == hb.track;
        auto const it = points.find(Key{hf.event, hf.track, static_cast<std::int32_t>(v)});
        if (!same || it == points.end()) {
            ++q.ghosts;
            continue;
        }
        o.hit_true[i] = 1;
        it->second.found = true;
        Vec3 const l = t.volumes[v].placement.to_local(Vec3{r.x, r.y, r.z});
        double const du = l.x - it->second.x, dv = l.y - it->second.y;
        su[v] += du * du;
        sv[v] += dv * dv;
        pu[v] += du * du / r.cov_uu;
        pv[v] += dv * dv / r.cov_vv;
        ++n_true[v];
    }
    for (auto const& [key, p] : points)
        if (p.found) ++o.quality[std::size_t(std::get<2>(key))].found;
    for (std::size_t v = 0; v < t.volumes.size(); ++v) {
        if (n_true[v] == 0) continue;
        double const n = double(n_true[v]);
        o.quality[v].residual_u = std::sqrt(su[v] / n);
        o.quality[v].residual_v = std::sqrt(sv[v] / n);
        o.quality[v].pull_u = std::sqrt(pu[v] / n);
        o.quality[v].pull_v = std::sqrt(pv[v] / n);
    }
}

Table strip_digis_table(StripOutcome const& o)
{
    return strip_digis_table(o.tables.params, o.digitization.digis, o.digitization.truth);
}

Table strip_digis_table(StripParams const& p, std::vector<StripDigi> const& d,
                        std::vector<std::uint32_t> const& truth)
{
    std::vector<std::uint64_t> time(d.size());
    std::vector<std::int64_t> sensor(d.size()), side(d.size()), strip(d.size()), adc(d.size()), hit(d.size());
    std::vector<double> charge(d.size());
    for (std::size_t i = 0; i < d.size(); ++i) {
        std::uint32_t const s = d[i].channel / std::uint32_t(p.strips);
        time[i] = d[i].time;
        sensor[i] = s / 2;
        side[i] = s % 2;
        strip[i] = d[i].channel % std::uint32_t(p.strips);
        adc[i] = d[i].adc;
        charge[i] = p.charge_of_adc(d[i].adc);
        hit[i] = truth[i];
    }
    Table t;
    t.add_column("time", "ns", std::move(time));
    t.add_column("sensor", "1", std::move(sensor));
    t.add_column("side", "1", std::move(side));
    t.add_column("strip", "1", std::move(strip));
    t.add_column("adc", "1", std::move(adc));
    t.add_column("charge", "e", std::move(charge));
    t.add_column("hit", "1", std::move(hit));
    return t;
}

Table strip_clusters_table(StripOutcome const& o)
{
    auto const& c = o.reconstruction.clusters;
    std::size_t const n = c.size();
    std::vector<std::int64_t> sensor(n), side(n), first(n), size(n), hit(n);
    std::vector<double> pos(n), pos_err(n), time(n), time_err(n), charge(n);
    for (std::size_t i = 0; i < n; ++i) {
        sensor[i] = c[i].side / 2;
        side[i] = c[i].side % 2;
        first[i] = c[i].first;
        size[i] = c[i].size;
        hit[i] = c[i].truth;
        pos[i] = c[i].position;
        pos_err[i] = c[i].position_error;
        time[i] = c[i].time;
        time_err[i] = c[i].time_error;
        charge[i] = c[i].charge;
    }
    Table t;
    t.add_column("sensor", "1", std::move(sensor));
    t.add_column("side", "1", std::move(side));
    t.add_column("first_strip", "1", std::move(first));
    t.add_column("size", "1", std::move(size));
    t.add_column("position", "strip", std::move(pos));
    t.add_column("position_error", "strip", std::move(pos_err));
    t.add_column("time", "ns", std::move(time));
    t.add_column("time_error", "ns", std::move(time_err));
    t.add_column("charge", "e", std::move(charge));
    t.add_column("hit", "1", std::move(hit));
    return t;
}

Table strip_reco_hits_table(StripOutcome const& o, std::uint64_t cluster_offset)
{
    auto const& h = o.reconstruction.hits;
    std::size_t const n = h.size();
    std::vector<std::int64_t> sensor(n), volume(n), replica(n), front(n), back(n), hit(n), is_true(n);
    std::vector<double> cols[10];
    for (auto& c : cols) c.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
        StripVolume const& v = o.tables.volumes[std::size_t(o.tables.sensor_volume[h[i].sensor])];
        sensor[i] = h[i].sensor;
        volume[i] = v.logical;
        replica[i] = v.replica;
        front[i] = std::int64_t(cluster_offset + h[i].front);
        back[i] = std::int64_t(cluster_offset + h[i].back);
        hit[i] = o.reconstruction.clusters[h[i].front].truth;
        is_true[i] = i < o.hit_true.size() ? o.hit_true[i] : 0;
        double const values[10] = {h[i].x,      h[i].y,      h[i].z,      h[i].u,    h[i].v,
                                   h[i].cov_uu, h[i].cov_uv, h[i].cov_vv, h[i].time, h[i].time_error};
        for (int c = 0; c < 10; ++c) cols[c][i] = values[c];
    }
    static char const* const names[10] = {"x",      "y",      "z",      "u",    "v",
                                          "cov_uu", "cov_uv", "cov_vv", "time", "time_error"};
    static char const* const units[10] = {"m", "m", "m", "m", "m", "m^2", "m^2", "m^2", "ns", "ns"};
    Table t;
    t.add_column("sensor", "1", std::move(sensor));
    t.add_column("volume", "1", std::move(volume));
    t.add_column("replica", "1", std::move(replica));
    for (int c = 0; c < 10; ++c) t.add_column(names[c], units[c], std::move(cols[c]));
    t.add_column("front", "1", std::move(front));
    t.add_column("back", "1", std::move(back));
    t.add_column("hit", "1", std::move(hit));
    t.add_column("true", "1", std::move(is_true));
    return t;
}

Table strip_quality_table(StripOutcome const& o)
{
    std::size_t const n = o.quality.size();
    std::vector<std::int64_t> volume(n), replica(n);
    std::vector<std::uint64_t> points(n), found(n), hits(n), ghosts(n);
    std::vector<double> eff(n), ghost(n), ru(n), rv(n), pu(n), pv(n);
    for (std::size_t i = 0; i < n; ++i) {
        StripStationQuality const& q = o.quality[i];
        volume[i] = q.logical;
        replica[i] = q.replica;
        points[i] = q.points;
        found[i] = q.found;
        hits[i] = q.hits;
        ghosts[i] = q.ghosts;
        eff[i] = q.efficiency();
        ghost[i] = q.ghost_rate();
        ru[i] = q.residual_u;
        rv[i] = q.residual_v;
        pu[i] = q.pull_u;
        pv[i] = q.pull_v;
    }
    Table t;
    t.add_column("volume", "1", std::move(volume));
    t.add_column("replica", "1", std::move(replica));
    t.add_column("points", "1", std::move(points));
    t.add_column("found", "1", std::move(found));
    t.add_column("reco_hits", "1", std::move(hits));
    t.add_column("ghosts", "1", std::move(ghosts));
    t.add_column("efficiency", "1", std::move(eff));
    t.add_column("ghost_rate", "1", std::move(ghost));
    t.add_column("residual_u", "m", std::move(ru));
    t.add_column("residual_v", "m", std::move(rv));
    t.add_column("pull_u", "1", std::move(pu));
    t.add_column("pull_v", "1", std::move(pv));
    return t;
}

void write_strip_tables(OutputFile& out, StripOutcome const& o)
{
    write_table(out, "digis", strip_digis_table(o));
    write_table(out, "clusters", strip_clusters_table(o));
    write_table(out, "reco_hits", strip_reco_hits_table(o));
    write_table(out, "strip_quality", strip_quality_table(o));
    std::vector<std::string> names;
    for (StripStationQuality const& q : o.quality) names.push_back(q.name);
    out.set_attribute("strip_quality", "station_names", std::span<std::string const>(names));
    out.set_attribute("digis", "backend", o.backend);
}

std::string format_strip_summary(StripOutcome const& o)
{
    std::string s = fmt::format(
        "  strips on {}: {} signals, {} pulses, {} digis, {} clusters, {} reconstructed hits\n", o.backend,
        o.totals.signals, o.totals.pulses, o.totals.digis, o.totals.clusters, o.totals.hits);
    s += "    station        points  efficiency  reco hits  ghost rate  res u [um]  res v [um]  pull u  pull "
         "v\n";
    for (StripStationQuality const& q : o.quality)
        s += fmt::format(
            "    {:<14} {:>6}  {:>10.4f}  {:>9}  {:>10.4f}  {:>10.2f}  {:>10.1f}  {:>6.2f}  {:>6.2f}\n",
            q.name, q.points, q.efficiency(), q.hits, q.ghost_rate(), q.residual_u * 1e6, q.residual_v * 1e6,
            q.pull_u, q.pull_v);
    return s;
}

namespace {
template <class T>
std::size_t differing(std::vector<T> const& a, std::vector<T> const& b)
{
    std::size_t const common = std::min(a.size(), b.size());
    std::size_t d = std::max(a.size(), b.size()) - common;
    for (std::size_t i = 0; i < common; ++i)
        if (std::memcmp(&a[i], &b[i], sizeof(T)) != 0) ++d;
    return d;
}
}  // namespace

bool identical_strip_outcomes(StripOutcome const& a, StripOutcome const& b, std::string& text)
{
    std::size_t const digis = differing(a.digitization.digis, b.digitization.digis) +
                              differing(a.digitization.truth, b.digitization.truth);
    std::size_t const clusters = differing(a.reconstruction.clusters, b.reconstruction.clusters);
    std::size_t const hits = differing(a.reconstruction.hits, b.reconstruction.hits);
    text += fmt::format(
        "strip digis: {} / {}, {} differing; clusters: {} / {}, {} differing; reconstructed hits: "
        "{} / {}, {} differing\n",
        a.digitization.digis.size(), b.digitization.digis.size(), digis, a.reconstruction.clusters.size(),
        b.reconstruction.clusters.size(), clusters, a.reconstruction.hits.size(),
        b.reconstruction.hits.size(), hits);
    return digis == 0 && clusters == 0 && hits == 0;
}

}  // namespace gt
