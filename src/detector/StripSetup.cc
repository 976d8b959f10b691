// [strips] -> StripTables: one sensor type, the strip volumes tiled with sensors, event times.
#include "detector/StripSetup.hh"

#include <cmath>
#include <stdexcept>

#include <fmt/format.h>

#include "kernels/core/RandomStream.hh"

namespace gt {

double strip_mobility(int side, double temperature)
{
    double const r = temperature / 300.0;
    return side == 1 ? 1417e-4 * std::pow(r, -2.5) : 470.5e-4 * std::pow(r, -2.2);
}

StripParams strip_params(StripsConfig const& s, std::uint64_t seed)
{
    StripParams p;
    p.pitch = s.pitch;
    p.strips = static_cast<std::int32_t>(s.strips);
    p.length = s.length;
    for (int k = 0; k < 2; ++k) {
        p.tan_stereo[k] = std::tan(s.stereo[std::size_t(k)]);
        p.mobility[k] = strip_mobility(k, s.temperature);
        // Einstein relation D = mu k T / e
        p.diffusion[k] = s.diffusion ? p.mobility[k] * 8.617333262e-5 * s.temperature : 0.0;
    }
    p.v_dep = s.depletion_voltage;
    p.v_bias = s.bias_voltage;
    p.cross_talk = s.cross_talk;
    p.pair_energy = s.pair_energy;
    p.noise = s.noise;
    p.threshold = s.threshold;
    p.dynamic_range = s.dynamic_range;
    p.adc_levels = std::int32_t(1) << s.adc_bits;
    p.time_resolution = s.time_resolution;
    p.dead_time = s.dead_time;
    p.dead_fraction = s.dead_fraction;
    p.seed = seed;
    return p;
}

std::vector<double> strip_event_times(std::uint64_t events, double rate, std::uint64_t seed)
{
    std::vector<double> t(events);
    double now = 0;
    for (std::uint64_t e = 0; e < events; ++e) {
        t[e] = now;
        if (rate > 0) {
            RandomStream const rng(seed ^ k_strip_event_salt, e);
            auto const w = rng.block(0);
            now += -std::log(RandomStream::to_unit(w.v[0], w.v[1])) / rate;
        } else {
            now += 10e-6;
        }
    }
    return t;
}

StripTables make_strip_tables(DeckConfig const& cfg, GeometryTables const& geometry)
{
    StripsConfig const& s = cfg.detector.strips;
    // problems found here name the deck's [strips] table
    std::string const where = fmt::format("{}:{}: [strips]", cfg.path, s.line);
    StripTables t;
    t.params = strip_params(s, cfg.run.seed);
    StripParams const& p = t.params;
    double const sigma_t = s.time_resolution * 1e9;
    t.cluster_window = s.cluster_window > 0 ? s.cluster_window * 1e9 : 3.0 * std::sqrt(2.0) * sigma_t;
    t.hit_window = s.hit_window > 0 ? s.hit_window * 1e9 : 3.0 * std::sqrt(2.0) * sigma_t;
    t.sort = s.sort == "merge" ? StripSort::merge : StripSort::radix;
    // the field for the Lorentz shift: a uniform one only
    Vec3 b{};
    if (s.lorentz_shift && cfg.detector.field.type == "uniform")
        b = Vec3{cfg.detector.field.b[0], cfg.detector.field.b[1], cfg.detector.field.b[2]};
    double const hall[2] = {0.7, 1.15};  // Hall factors of holes and electrons
    std::size_t const logical = geometry.logical_names.size();
    t.logical_first.assign(logical, 0);
    t.logical_count.assign(logical, 0);
    std::int32_t sensors = 0;
    for (std::string const& name : s.volumes) {
        std::size_t l = 0;
        while (l < logical && geometry.logical_names[l] != name) ++l;
        if (l == logical) throw std::invalid_argument(fmt::format("{}: no volume '{}'", where, name));
        std::vector<PlacedVolume const*> placed;
        for (PlacedVolume const& pv : geometry.volumes)
            if (pv.logical == static_cast<std::int32_t>(l)) placed.push_back(&pv);
        t.logical_first[l] = static_cast<std::int32_t>(t.volumes.size());
        t.logical_count[l] = static_cast<std::int32_t>(placed.size());
        for (std::size_t r = 0; r < placed.size(); ++r) {
            PlacedVolume const* pv = nullptr;
            for (PlacedVolume const* q : placed)
                if (q->replica == static_cast<std::int32_t>(r)) {
                    if (pv)
                        throw std::invalid_argument(
                            fmt::format("{}: volume '{}' has two placements with replica {} (a "
                                        "replicated mother): its hits cannot tell them apart",
                                        where, name, r));
                    pv = q;
                }
            if (!pv)
                throw std::invalid_argument(fmt::format("{}: volume '{}' lacks replica {}", where, name, r));
            StripVolume v;
            v.placement = pv->placement;
            v.hx = pv->shape.box.half.x;
            v.hy = pv->shape.box.half.y;
            v.hz = pv->shape.box.half.z;
            v.tiles_x = static_cast<std::int32_t>(std::ceil(2 * v.hx / p.width() - 1e-9));
            v.tiles_y = static_cast<std::int32_t>(std::ceil(2 * v.hy / p.length - 1e-9));
            v.first_sensor = sensors;
            v.logical = static_cast<std::int32_t>(l);
            v.replica = static_cast<std::int32_t>(r);
            Vec3 const bl = v.placement.rotate_back(b);
            for (int k = 0; k < 2; ++k) {
                double const m = hall[k] * p.mobility[k];
                v.lorentz[k][0] = m * bl.y;
                v.lorentz[k][1] = -m * bl.x;
            }
            sensors += v.tiles_x * v.tiles_y;
            t.volumes.push_back(v);
            for (std::int32_t i = 0; i < v.tiles_x * v.tiles_y; ++i)
                t.sensor_volume.push_back(static_cast<std::int32_t>(t.volumes.size() - 1));
        }
    }
    if (2 * std::uint64_t(sensors) * std::uint64_t(p.strips) >= k_strip_max_channels)
        throw std::invalid_argument(
            fmt::format("{}: {} sensors of 2 x {} strips exceed the {} channels a digi can address", where,
                        sensors, p.strips, k_strip_max_channels));
    std::uint64_t const events = cfg.detector.gun.events;
    t.event_time = strip_event_times(events, s.interaction_rate, cfg.run.seed);
    if (!t.event_time.empty() && t.event_time.back() + 1e-3 > double(k_strip_time_mask) * k_strip_signal_tick)
        throw std::invalid_argument(
            fmt::format("{}: the {} events span {:.3g} s, more than the {:.3g} s a signal time can hold",
                        where, events, t.event_time.back(), double(k_strip_time_mask) * k_strip_signal_tick));
    return t;
}

}  // namespace gt
