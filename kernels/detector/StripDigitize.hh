// Strip digitization as per-item functors (one thread per step side, per signal, per pulse), written
// once for the CPU and the GPU. The stages (StripChain.hh runs them):
//   StripSignalCount/Write  each step's charge (edep / pair energy), uniform along the step, drifted
//                           to each side with diffusion and the Lorentz shift, integrated over the
//                           strips, with cross-talk: one signal (channel, time, charge) per strip
//   sort                    signals by (channel, time)
//   StripPulseStart/Build   signals of one channel closer than the dead time make one pulse
//   StripResponse           noise, threshold, ADC, time jitter, dead channels -> digis
// Every random number comes from a Philox stream keyed by (run seed, channel) and counted by
// (event, pulse of that event on the channel): the same bits for any thread count and backend.
#pragma once

#include <cstdint>

#include "kernels/core/RandomStream.hh"
#include "kernels/detector/Hit.hh"
#include "kernels/detector/StripSensor.hh"

namespace gt {
namespace strip {

GT_HOST_DEVICE inline std::uint64_t channel_of(std::uint64_t key) { return key >> k_strip_time_bits; }
GT_HOST_DEVICE inline std::uint64_t time_of(std::uint64_t key) { return key & k_strip_time_mask; }

//! Whether a global channel is dead (a fixed draw per channel).
GT_HOST_DEVICE inline bool is_dead(StripParams const& p, std::uint64_t channel)
{
    if (p.dead_fraction <= 0) return false;
    RandomStream const rng(p.seed ^ k_strip_dead_salt, channel);
    auto const w = rng.block(0);
    return RandomStream::to_unit(w.v[0], w.v[1]) < p.dead_fraction;
}

//! One step seen from one side of its sensor: the sensor, the step's ends in sensor coordinates and
//! the range of strips (unwrapped numbers) that can receive charge.
struct StepSide {
    bool valid = false;
    std::int32_t sensor = 0;
    Vec3 a, b;              //!< (u, v, z) [m]
    double lu = 0, lv = 0;  //!< Lorentz shift per drift length
    std::int64_t kmin = 0, kmax = -1;

    GT_HOST_DEVICE StepSide(StripTablesView const& t, Hit const& h, int s)
    {
        if (!(h.edep > 0)) return;
        std::int32_t const iv = t.volume_of(h.volume, h.replica);
        if (iv < 0) return;
        StripVolume const& vol = t.volumes[iv];
        StripParams const& p = t.p;
        Vec3 const la = vol.placement.to_local(h.pre), lb = vol.placement.to_local(h.post);
        Vec3 const mid = (la + lb) * 0.5;
        double const w = p.width();
        // the sensor of the step's midpoint takes all of its charge
        std::int32_t ix = static_cast<std::int32_t>(pmath::floor((mid.x + vol.hx) / w));
        std::int32_t iy = static_cast<std::int32_t>(pmath::floor((mid.y + vol.hy) / p.length));
        ix = ix < 0 ? 0 : (ix >= vol.tiles_x ? vol.tiles_x - 1 : ix);
        iy = iy < 0 ? 0 : (iy >= vol.tiles_y ? vol.tiles_y - 1 : iy);
        sensor = vol.first_sensor + iy * vol.tiles_x + ix;
        double const u0 = ix * w - vol.hx, v0 = iy * p.length - vol.hy;
        a = Vec3{la.x - u0, la.y - v0, la.z};
        b = Vec3{lb.x - u0, lb.y - v0, lb.z};
        lu = vol.lorentz[s][0];
        lv = vol.lorentz[s][1];
        // the widest diffusion: carriers made at the far side
        DriftField const field(p, 2.0 * vol.hz);
        double const smax = field.sigma(p, s, s == 0 ? 2.0 * vol.hz : 0.0) / p.pitch;
        double const wa = measured(p, s, a, vol.hz), wb = measured(p, s, b, vol.hz);
        double const lo = (wa < wb ? wa : wb) - 3.0 * smax - 1.0;
        double const hi = (wa < wb ? wb : wa) + 3.0 * smax + 1.0;
        kmin = static_cast<std::int64_t>(pmath::floor(lo));
        kmax = static_cast<std::int64_t>(pmath::floor(hi));
        if (kmax - kmin + 1 > p.strips) kmax = kmin + p.strips - 1;  // a step never spans a whole side
        valid = true;
    }

    //! Distance the carriers of side s drift from depth z [m].
    GT_HOST_DEVICE static double drift_length(int s, double z, double hz)
    {
        double const d = s == 0 ? z + hz : hz - z;
        return d < 0 ? 0 : (d > 2 * hz ? 2 * hz : d);
    }
    //! The measured coordinate of side s [strips] of charge made at point q, after the Lorentz shift.
    GT_HOST_DEVICE double measured(StripParams const& p, int s, Vec3 const& q, double hz) const
    {
        double const d = drift_length(s, q.z, hz);
        return ((q.x + d * lu) - (q.y + d * lv) * p.tan_stereo[s]) / p.pitch;
    }
    GT_HOST_DEVICE std::uint32_t count() const
    {
        return valid ? static_cast<std::uint32_t>(kmax - kmin + 1) : 0u;
    }
};

//! Signals per (step, side): item j is step j / 2, side j % 2.
struct StripSignalCount {
    StripTablesView t;
    Hit const* hits;
    std::uint32_t* counts;
    GT_HOST_DEVICE void operator()(std::size_t j) const
    {
        counts[j] = StepSide(t, hits[j / 2], static_cast<int>(j % 2)).count();
    }
};

//! Writes the signals of (step, side) j from offsets[j]: key (channel, time) or k_strip_invalid
//! (outside the sensor, dead, or no charge), charge [e], the step.
struct StripSignalWrite {
    StripTablesView t;
    Hit const* hits;
    std::uint32_t const* offsets;
    std::uint64_t* keys;
    double* charge;
    std::uint32_t* step;

    GT_HOST_DEVICE void operator()(std::size_t j) const
    {
        int const s = static_cast<int>(j % 2);
        Hit const& h = hits[j / 2];
        StepSide const ss(t, h, s);
        if (!ss.valid) return;
        StripParams const& p = t.p;
        StripVolume const& vol = t.volumes[t.volume_of(h.volume, h.replica)];
        double const hz = vol.hz;
        DriftField const field(p, 2.0 * hz);
        double const electrons = h.edep / p.pair_energy;
        // sub-segments: fine enough in depth (diffusion and Lorentz shift vary with it) and along w
        double const dz = ss.b.z - ss.a.z;
        int n = 1 + static_cast<int>(8.0 * (dz < 0 ? -dz : dz) / (2.0 * hz));
        n = n > 16 ? 16 : n;  // k_max_sub
        // arrival time: event start + step time + drift time from the step's middle
        double const zm = 0.5 * (ss.a.z + ss.b.z);
        double const event_t = h.event < t.num_events ? t.event_time[h.event] : 0.0;
        double const time = event_t + h.time + field.time(p, s, zm + hz);
        double ticks = pmath::floor(time / k_strip_signal_tick + 0.5);
        if (ticks < 0) ticks = 0;
        std::uint64_t tk = static_cast<std::uint64_t>(ticks);
        if (tk > k_strip_time_mask) tk = k_strip_time_mask;
        // C(k): charge below strip boundary k; Q(k) = C(k + 1) - C(k)
        // the sub-segments' ends in the measured coordinate and their diffusion widths [strips]
        constexpr int k_max_sub = 16;
        double w1[k_max_sub], w2[k_max_sub], sig[k_max_sub];
        for (int i = 0; i < n; ++i) {
            Vec3 const q1 = ss.a + (ss.b - ss.a) * (double(i) / n);
            Vec3 const q2 = ss.a + (ss.b - ss.a) * (double(i + 1) / n);
            w1[i] = ss.measured(p, s, q1, hz);
            w2[i] = ss.measured(p, s, q2, hz);
            sig[i] = field.sigma(p, s, 0.5 * (q1.z + q2.z) + hz) / p.pitch;
        }
        auto below = [&](double w) {
            double c = 0;
            for (int i = 0; i < n; ++i) c += fraction_below(w, w1[i], w2[i], sig[i]);
            return c * (electrons / n);
        };
        double c_lo = below(double(ss.kmin - 1)), c_mid = below(double(ss.kmin));
        double c_hi = below(double(ss.kmin + 1));
        double q_prev = c_mid - c_lo, q_here = c_hi - c_mid;
        std::uint32_t out = offsets[j];
        std::uint64_t const side = 2 * std::uint64_t(ss.sensor) + std::uint64_t(s);
        bool const cyclic = p.tan_stereo[s] != 0.0;
        for (std::int64_t k = ss.kmin; k <= ss.kmax; ++k, ++out) {
            double const c_next = below(double(k + 2));
            double const q_next = c_next - c_hi;
            c_hi = c_next;
            double const q = (1.0 - 2.0 * p.cross_talk) * q_here + p.cross_talk * (q_prev + q_next);
            q_prev = q_here;
            q_here = q_next;
            std::int64_t strip = k;
            if (cyclic) {
                strip %= p.strips;
                if (strip < 0) strip += p.strips;
            }
            std::uint64_t key = k_strip_invalid;
            if (strip >= 0 && strip < p.strips && q >= 1.0) {
                std::uint64_t const channel = side * std::uint64_t(p.strips) + std::uint64_t(strip);
                if (!is_dead(p, channel)) key = (channel << k_strip_time_bits) | tk;
            }
            keys[out] = key;
            charge[out] = key == k_strip_invalid ? 0.0 : q;
            step[out] = static_cast<std::uint32_t>(j / 2);
        }
    }
};

//! start[r] = 1 where sorted signal r begins a pulse: a new channel, or more than the dead time after
//! the channel's previous signal.
struct StripPulseStart {
    std::uint64_t const* keys;  //!< sorted
    std::uint64_t dead_ticks;
    std::uint32_t* start;
    GT_HOST_DEVICE void operator()(std::size_t r) const
    {
        std::uint64_t const k = keys[r];
        bool s = k != k_strip_invalid;
        if (s && r > 0) {
            std::uint64_t const q = keys[r - 1];
            s = channel_of(q) != channel_of(k) || time_of(k) - time_of(q) > dead_ticks;
        }
        start[r] = s ? 1u : 0u;
    }
};

//! A pulse: the summed charge of its signals, the first signal's (channel, time), the step that gave
//! the most charge, and that step's event.
struct StripPulse {
    std::uint64_t key = 0;
    double charge = 0;
    std::uint64_t event = 0;
    std::uint32_t step = 0;
    std::uint32_t pad = 0;
};

struct StripPulseBuild {
    std::uint64_t const* keys;   //!< sorted
    std::uint32_t const* order;  //!< sorted position -> signal
    std::uint32_t const* start;
    std::uint32_t const* index;  //!< exclusive scan of start
    double const* charge;
    std::uint32_t const* step;
    Hit const* hits;
    std::size_t n;
    StripPulse* pulses;
    GT_HOST_DEVICE void operator()(std::size_t r) const
    {
        if (!start[r]) return;
        StripPulse out;
        out.key = keys[r];
        double best = -1;
        for (std::size_t i = r; i < n; ++i) {
            if (i > r && (start[i] || keys[i] == k_strip_invalid)) break;
            std::uint32_t const sig = order[i];
            out.charge += charge[sig];
            if (charge[sig] > best) {
                best = charge[sig];
                out.step = step[sig];
            }
        }
        out.event = hits[out.step].event;
        pulses[index[r]] = out;
    }
};

//! The read-out of pulse i: kept[i] = 1 and digi[i] when it passes the threshold on a live channel.
struct StripResponse {
    StripParams p;
    StripPulse const* pulses;
    std::uint32_t* kept;
    StripDigi* digis;
    std::uint32_t* truth;
    GT_HOST_DEVICE void operator()(std::size_t i) const
    {
        StripPulse const& pu = pulses[i];
        std::uint64_t const channel = channel_of(pu.key);
        // this pulse's number among the earlier pulses of its channel from the same event
        std::uint32_t rank = 0;
        for (std::size_t j = i; j > 0; --j) {
            StripPulse const& q = pulses[j - 1];
            if (channel_of(q.key) != channel) break;
            if (q.event == pu.event) ++rank;
        }
        RandomStream const rng(p.seed ^ k_strip_noise_salt, channel, static_cast<std::uint32_t>(pu.event));
        double noise = 0, jitter = 0;
        normal_pair(rng, rank, noise, jitter);
        double const q = pu.charge + p.noise * noise;
        kept[i] = 0;
        if (q < p.threshold || is_dead(p, channel)) return;
        double level = pmath::floor((q - p.threshold) / p.adc_step());
        if (level > p.adc_levels - 1) level = p.adc_levels - 1;
        double t_ns = static_cast<double>(time_of(pu.key)) * (k_strip_signal_tick * 1e9) +
                      p.time_resolution * 1e9 * jitter;
        t_ns = t_ns < 0 ? 0 : pmath::floor(t_ns);
        StripDigi d;
        d.time = static_cast<std::uint64_t>(t_ns);
        d.channel = static_cast<std::uint32_t>(channel);
        d.adc = static_cast<std::uint16_t>(level);
        digis[i] = d;
        truth[i] = pu.step;
        kept[i] = 1;
    }
};

//! out[index[i]] = in[i] where flag[i] (stream compaction after a scan), with the truth links.
struct StripCompactDigis {
    std::uint32_t const* flag;
    std::uint32_t const* index;
    StripDigi const* in;
    std::uint32_t const* in_truth;
    StripDigi* out;
    std::uint32_t* out_truth;
    GT_HOST_DEVICE void operator()(std::size_t i) const
    {
        if (!flag[i]) return;
        out[index[i]] = in[i];
        out_truth[index[i]] = in_truth[i];
    }
};

//! Digi sort keys: by time (readout order) or by (channel, time) (cluster finding).
struct StripDigiKeys {
    StripDigi const* digis;
    bool by_channel;
    std::uint64_t* keys;
    std::uint32_t* order;
    GT_HOST_DEVICE void operator()(std::size_t i) const
    {
        StripDigi const& d = digis[i];
        std::uint64_t const t = d.time & k_strip_time_mask;
        keys[i] = by_channel ? (std::uint64_t(d.channel) << k_strip_time_bits) | t : d.time;
        order[i] = static_cast<std::uint32_t>(i);
    }
};

//! out[i] = in[order[i]] for digis and their truth.
struct StripGatherDigis {
    std::uint32_t const* order;
    StripDigi const* in;
    std::uint32_t const* in_truth;
    StripDigi* out;
    std::uint32_t* out_truth;
    GT_HOST_DEVICE void operator()(std::size_t i) const
    {
        out[i] = in[order[i]];
        out_truth[i] = in_truth[order[i]];
    }
};

}  // namespace strip
}  // namespace gt
