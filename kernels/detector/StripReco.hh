// Strip reconstruction as per-item functors, after the seed's online STS hit finder (thesis in
// shared/seeds, ch. 5.3): digis sorted by (channel, time); each digi links to the first digi of the
// next channel within the cluster time window, and a link counts only when it is mutual (the next
// digi's first match in the previous channel is this one), so that chains never share a digi and no
// atomics decide anything; a digi without a mutual predecessor starts a cluster and walks its chain.
// Clusters sorted by (side, time); one thread per front cluster looks up the back clusters in the
// hit time window (binary search) and writes a hit for every crossing of their strips inside the
// sensor, with the covariance propagated from the two cluster positions.
#pragma once

#include <cstdint>

#include "kernels/detector/StripDigitize.hh"
#include "kernels/detector/StripSensor.hh"

namespace gt {
namespace strip {

//! First index in [0, n) with keys[i] >= value (n when none).
GT_HOST_DEVICE inline std::uint32_t lower_bound(std::uint64_t const* keys, std::uint32_t n,
                                                std::uint64_t value)
{
    std::uint32_t lo = 0, hi = n;
    while (lo < hi) {
        std::uint32_t const mid = lo + (hi - lo) / 2;
        if (keys[mid] < value)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

//! The first digi of `channel` at or after time t0 and no later than t1 (ns), or -1.
GT_HOST_DEVICE inline std::int32_t first_in_window(std::uint64_t const* keys, std::uint32_t n,
                                                   std::uint64_t channel, std::uint64_t t0, std::uint64_t t1)
{
    std::uint32_t const j = lower_bound(keys, n, (channel << k_strip_time_bits) | t0);
    if (j >= n || channel_of(keys[j]) != channel || time_of(keys[j]) > t1) return -1;
    return static_cast<std::int32_t>(j);
}

//! succ[i]: first digi of the next strip within the window; pred[i]: of the previous strip.
struct StripConnect {
    std::uint64_t const* keys;  //!< (channel, time), sorted
    std::uint32_t n;
    std::int32_t strips;
    std::uint64_t window;  //!< [ns]
    std::int32_t* succ;
    std::int32_t* pred;
    GT_HOST_DEVICE void operator()(std::size_t i) const
    {
        std::uint64_t const c = channel_of(keys[i]), t = time_of(keys[i]);
        std::uint64_t const strip = c % std::uint64_t(strips);
        std::uint64_t const t0 = t > window ? t - window : 0, t1 = t + window;
        succ[i] = strip + 1 < std::uint64_t(strips) ? first_in_window(keys, n, c + 1, t0, t1) : -1;
        pred[i] = strip > 0 ? first_in_window(keys, n, c - 1, t0, t1) : -1;
    }
};

GT_HOST_DEVICE inline bool linked(std::int32_t const* succ, std::int32_t const* pred, std::int32_t i,
                                  std::int32_t j)
{
    return i >= 0 && j >= 0 && succ[i] == j && pred[j] == i;
}

struct StripClusterStart {
    std::int32_t const* succ;
    std::int32_t const* pred;
    std::uint32_t* start;
    GT_HOST_DEVICE void operator()(std::size_t i) const
    {
        std::int32_t const p = pred[i];
        start[i] = linked(succ, pred, p, static_cast<std::int32_t>(i)) ? 0u : 1u;
    }
};

//! The cluster of each starting digi: centre of gravity of the ADC charges, mean time, the errors.
struct StripClusterBuild {
    StripParams p;
    StripDigi const* digis;  //!< sorted by (channel, time)
    std::uint32_t const* truth;
    std::int32_t const* succ;
    std::int32_t const* pred;
    std::uint32_t const* start;
    std::uint32_t const* index;
    StripCluster* clusters;
    GT_HOST_DEVICE void operator()(std::size_t i) const
    {
        if (!start[i]) return;
        StripCluster c;
        c.side = digis[i].channel / static_cast<std::uint32_t>(p.strips);
        c.first = digis[i].channel % static_cast<std::uint32_t>(p.strips);
        double q_sum = 0, qx = 0, t_sum = 0, best = -1;
        std::int32_t j = static_cast<std::int32_t>(i);
        for (;;) {
            double const q = p.charge_of_adc(digis[j].adc);
            double const x =
                static_cast<double>(digis[j].channel % static_cast<std::uint32_t>(p.strips)) + 0.5;
            q_sum += q;
            qx += q * x;
            t_sum += static_cast<double>(digis[j].time);
            if (q > best) {
                best = q;
                c.truth = truth[j];
            }
            ++c.size;
            std::int32_t const next = succ[j];
            if (!linked(succ, pred, j, next)) break;
            j = next;
        }
        c.charge = q_sum;
        c.position = qx / q_sum;
        c.time = t_sum / c.size;
        double const st = pmath::sqrt(p.time_resolution * 1e9 * p.time_resolution * 1e9 + 1.0 / 12.0);
        c.time_error = st / pmath::sqrt(static_cast<double>(c.size));
        if (c.size == 1) {
            c.position_error = 0.28867513459481288225;  // 1/sqrt(12)
        } else {
            // propagated charge errors (noise and ADC binning) of every strip
            double const sq2 = p.noise * p.noise + p.adc_step() * p.adc_step() / 12.0;
            double var = 0;
            std::int32_t k = static_cast<std::int32_t>(i);
            for (std::uint32_t m = 0; m < c.size; ++m, k = succ[k]) {
                double const dx =
                    static_cast<double>(digis[k].channel % static_cast<std::uint32_t>(p.strips)) + 0.5 -
                    c.position;
                var += dx * dx * sq2;
            }
            // plus the centre of gravity's own bias (it depends on the unknown spread of the track's
            // charge): 1 / (sqrt(12) size) strips, an empirical allowance (docs/physics.md)
            double const bias = 0.28867513459481288225 / c.size;
            c.position_error = pmath::sqrt(var / (q_sum * q_sum) + bias * bias);
        }
        clusters[index[i]] = c;
    }
};

struct StripClusterKeys {
    StripCluster const* clusters;
    std::uint64_t* keys;
    std::uint32_t* order;
    GT_HOST_DEVICE void operator()(std::size_t i) const
    {
        double const t = pmath::floor(clusters[i].time);
        keys[i] = (std::uint64_t(clusters[i].side) << k_strip_time_bits) |
                  (static_cast<std::uint64_t>(t < 0 ? 0 : t) & k_strip_time_mask);
        order[i] = static_cast<std::uint32_t>(i);
    }
};

struct StripGatherClusters {
    std::uint32_t const* order;
    StripCluster const* in;
    StripCluster* out;
    GT_HOST_DEVICE void operator()(std::size_t i) const { out[i] = in[order[i]]; }
};

//! Hit finding over the clusters sorted by (side, time): count (out == nullptr) or write the hits of
//! front cluster i.
struct StripHitFind {
    StripTablesView t;
    StripCluster const* clusters;
    std::uint64_t const* keys;
    std::uint32_t n;
    double window;  //!< [ns]
    std::uint32_t* counts;
    std::uint32_t const* offsets;
    StripRecoHit* out;

    GT_HOST_DEVICE void operator()(std::size_t i) const
    {
        StripCluster const& f = clusters[i];
        std::uint32_t found = 0;
        if (f.side % 2 == 0) {
            StripParams const& p = t.p;
            std::uint32_t const sensor = f.side / 2;
            StripVolume const& vol = t.volumes[t.sensor_volume[sensor]];
            std::int32_t const tile = static_cast<std::int32_t>(sensor) - vol.first_sensor;
            std::int32_t const ix = tile % vol.tiles_x, iy = tile / vol.tiles_x;
            double const w = p.width(), len = p.length;
            double const tf = p.tan_stereo[0], tb = p.tan_stereo[1], delta = tb - tf;
            double const t0 = pmath::floor(f.time - window);
            std::uint64_t const back = std::uint64_t(f.side) + 1;
            std::uint32_t j =
                lower_bound(keys, n, (back << k_strip_time_bits) | std::uint64_t(t0 < 0 ? 0 : t0));
            // the mean Lorentz shift of each side (charge made uniformly over the thickness drifts
            // half of it on average) is taken off the cluster positions
            double const shift_f = vol.hz * (vol.lorentz[0][0] - vol.lorentz[0][1] * tf);
            double const shift_b = vol.hz * (vol.lorentz[1][0] - vol.lorentz[1][1] * tb);
            double const xf = f.position * p.pitch - shift_f, sf = f.position_error * p.pitch;
            for (; j < n && channel_of(keys[j]) == back; ++j) {
                StripCluster const& b = clusters[j];
                if (b.time > f.time + window) break;
                if (b.time < f.time - window) continue;
                double const xb = b.position * p.pitch - shift_b, sb = b.position_error * p.pitch;
                // v = (xf - xb + k W) / delta inside [0, L)
                double const e1 = -(xf - xb) / w, e2 = (len * delta - (xf - xb)) / w;
                double const klo = e1 < e2 ? e1 : e2, khi = e1 < e2 ? e2 : e1;
                for (double k = pmath::floor(klo); k <= khi + 1; k += 1) {
                    double const v = (xf - xb + k * w) / delta;
                    if (!(v >= 0 && v < len)) continue;
                    double u = xf + v * tf;
                    if (tf != 0) u -= pmath::floor(u / w) * w;
                    if (!(u >= 0 && u < w)) continue;
                    // inside the volume (the last tile of a row may be cut)
                    double const lx = ix * w - vol.hx + u, ly = iy * len - vol.hy + v;
                    if (lx > vol.hx || ly > vol.hy) continue;
                    if (out) {
                        StripRecoHit& h = out[offsets[i] + found];
                        h.u = u;
                        h.v = v;
                        Vec3 const g = vol.placement.to_global(Vec3{lx, ly, 0.0});
                        h.x = g.x;
                        h.y = g.y;
                        h.z = g.z;
                        double const du_f = 1.0 + tf / delta, du_b = -tf / delta;
                        double const dv_f = 1.0 / delta, dv_b = -1.0 / delta;
                        h.cov_uu = du_f * du_f * sf * sf + du_b * du_b * sb * sb;
                        h.cov_uv = du_f * dv_f * sf * sf + du_b * dv_b * sb * sb;
                        h.cov_vv = dv_f * dv_f * sf * sf + dv_b * dv_b * sb * sb;
                        h.time = 0.5 * (f.time + b.time);
                        h.time_error =
                            0.5 * pmath::sqrt(f.time_error * f.time_error + b.time_error * b.time_error);
                        h.sensor = sensor;
                        h.front = static_cast<std::uint32_t>(i);
                        h.back = j;
                    }
                    ++found;
                }
            }
        }
        if (!out) counts[i] = found;
    }
};

}  // namespace strip
}  // namespace gt
