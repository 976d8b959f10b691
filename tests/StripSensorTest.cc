// Strip sensors (kernels/detector/Strip*.hh on the CPU backend): cluster resolution against the
// analytic results, efficiency for MIPs at the default read-out, ghosts against the combinatorial
// expectation, the same bits for 1 and 2 threads. Tracks are synthetic steps through one sensor.
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <vector>

#include "Relative.hh"
#include "kernels/core/RandomStream.hh"
#include "kernels/cpu/Executor.hh"
#include "kernels/detector/StripChain.hh"

namespace {

using namespace gt;

// A MIP in 300 um of silicon: most probable deposit ~84 keV (PDG, Fig. 34.8: 0.28 MeV cm2/g at
// 300 um, x 0.0699 g/cm2), 23 000 e-h pairs.
constexpr double k_mip_edep = 0.084;

//! CBM STS defaults (CbmStsDigitize::SetGlobalDefaults) as the deck gives them.
StripParams cbm_params()
{
    StripParams p;
    p.tan_stereo[1] = std::tan(7.5 * M_PI / 180.0);
    double const t = 268.0, r = t / 300.0;
    p.mobility[0] = 470.5e-4 * std::pow(r, -2.2);
    p.mobility[1] = 1417e-4 * std::pow(r, -2.5);
    for (int k = 0; k < 2; ++k) p.diffusion[k] = p.mobility[k] * 8.617333262e-5 * t;
    p.cross_talk = 1.0 / 18.5;
    p.seed = 7;
    return p;
}

//! The response switched to an ideal one: no diffusion, cross-talk or noise, a fine ADC.
StripParams ideal_params()
{
    StripParams p = cbm_params();
    p.diffusion[0] = p.diffusion[1] = 0;
    p.cross_talk = 0;
    p.noise = 0;
    p.threshold = 100;
    p.dynamic_range = 1.0e6;
    p.adc_levels = 65536;
    p.time_resolution = 0;
    return p;
}

//! One 300 um volume holding exactly one sensor, centred at the origin; events 10 us apart.
StripTables one_sensor(StripParams const& p, std::uint64_t events)
{
    StripTables t;
    t.params = p;
    StripVolume v;
    v.hx = 0.5 * p.width();
    v.hy = 0.5 * p.length;
    v.hz = 150e-6;
    v.tiles_x = v.tiles_y = 1;
    v.logical = 1;
    t.volumes = {v};
    t.logical_first = {0, 0};
    t.logical_count = {0, 1};
    t.sensor_volume = {0};
    for (std::uint64_t e = 0; e < events; ++e) t.event_time.push_back(10e-6 * double(e));
    t.cluster_window = t.hit_window = 3.0 * std::sqrt(2.0) * p.time_resolution * 1e9;
    return t;
}

//! A straight step through the whole thickness at sensor coordinates (u, v), spreading `w` in u.
Hit track(std::uint64_t event, std::uint64_t id, StripParams const& p, double u, double v, double w,
          double edep)
{
    Hit h;
    h.event = event;
    h.track = id;
    h.volume = 1;
    h.pre = Vec3{u - 0.5 * w - 0.5 * p.width(), v - 0.5 * p.length, -150e-6};
    h.post = Vec3{u + 0.5 * w - 0.5 * p.width(), v - 0.5 * p.length, 150e-6};
    h.edep = edep;
    return h;
}

double uniform(std::uint64_t id, std::uint32_t k)
{
    RandomStream const r(99, id);
    auto const b = r.block(k);
    return RandomStream::to_unit(b.v[0], b.v[1]);
}

struct Chain {
    StripDigitization digi;
    StripReconstruction reco;
};

Chain run_chain(StripTables const& t, std::vector<Hit> const& hits)
{
    auto k = make_cpu_strip_kernels();
    k->setup(t);
    Chain c;
    c.digi = k->digitize(hits);
    c.reco = k->reconstruct(c.digi.digis, c.digi.truth);
    return c;
}

//! Front-side cluster residuals (u) of one track per event, tracks at uniform u in the middle strips.
struct Residuals {
    double rms = 0;
    double two_strip_fraction = 0;
    std::size_t clusters = 0;
};

Residuals front_residuals(StripParams const& p, double w, int n)
{
    StripTables const t = one_sensor(p, std::uint64_t(n));
    std::vector<Hit> hits;
    std::vector<double> u(std::size_t(n), 0.0);
    for (int i = 0; i < n; ++i) {
        u[std::size_t(i)] = p.pitch * (400.0 + 200.0 * uniform(std::uint64_t(i), 0));
        hits.push_back(
            track(std::uint64_t(i), std::uint64_t(i), p, u[std::size_t(i)], 0.5 * p.length, w, k_mip_edep));
    }
    Chain const c = run_chain(t, hits);
    Residuals r;
    double s2 = 0;
    std::size_t two = 0;
    for (StripCluster const& cl : c.reco.clusters) {
        if (cl.side != 0) continue;
        double const d = cl.position * p.pitch - u[cl.truth];
        s2 += d * d;
        two += cl.size == 2 ? 1 : 0;
        ++r.clusters;
    }
    r.rms = std::sqrt(s2 / double(r.clusters));
    r.two_strip_fraction = double(two) / double(r.clusters);
    return r;
}

}  // namespace

TEST_CASE("strip erfc and the smeared segment's charge")
{
    // erfc(x) against the C library: the fit's fractional error is below 1.2e-7
    for (double x = -3; x <= 3; x += 0.25) CHECK(strip::erfc(x) == test::relative(std::erfc(x), 2e-7));
    // a unit segment [0, 1] without smearing: the charge below 0.25 is 0.25
    CHECK(strip::fraction_below(0.25, 0.0, 1.0, 0.0) == test::relative(1.0 * 0.25, 1e-12));
    // a point charge smeared by s: Phi
    CHECK(strip::fraction_below(1.0, 0.0, 0.0, 1.0) == test::relative(0.8413447460685429, 1e-6));
    // a long smeared segment: the middle is uniform
    CHECK(strip::fraction_below(50.0, 0.0, 100.0, 1.0) == test::relative(0.5, 1e-9));
}

TEST_CASE("strip drift: hole drift time in the linear field of a fully depleted diode")
{
    StripParams const p = cbm_params();
    strip::DriftField const f(p, 300e-6);
    // t = ln(E(0)/E(d)) / (mu a), E(0) = (Vb + Vd)/d, E(d) = (Vb - Vd)/d, a = 2 Vd / d^2
    double const a = 2 * 70.0 / (300e-6 * 300e-6);
    double const expected = std::log(210.0 / 70.0) / (p.mobility[0] * a);
    CHECK(f.time(p, 0, 300e-6) == test::relative(expected, 1e-12));
    CHECK(f.time(p, 1, 0.0) == test::relative(std::log(210.0 / 70.0) / (p.mobility[1] * a), 1e-12));
    CHECK(f.time(p, 0, 0.0) == 0.0);
    // sigma = sqrt(2 D t): ~6 um for holes across 300 um at 268 K (the order CBM's digitizer uses)
    double const s = f.sigma(p, 0, 300e-6);
    CHECK(s == test::relative(std::sqrt(2 * p.diffusion[0] * expected), 1e-12));
    CHECK(s > 4e-6);
    CHECK(s < 8e-6);
}

TEST_CASE("strip clusters: single strips resolve pitch / sqrt(12)")
{
    // perpendicular tracks without diffusion: every cluster is one strip, the residual uniform over
    // the pitch. 2000 tracks: the rms is known to 1% (var of x^2 for a uniform x: 0.8 / N relative);
    // 4% is 4 sigma.
    StripParams const p = ideal_params();
    Residuals const r = front_residuals(p, 0.0, 2000);
    CHECK(r.clusters == 2000);
    CHECK(r.two_strip_fraction == 0.0);
    CHECK(r.rms == test::relative(p.pitch / std::sqrt(12.0), 0.04));
}

TEST_CASE("strip clusters: charge sharing over w improves the resolution to (pitch - w) / sqrt(12)")
{
    // A track spreading its charge uniformly over w < pitch: it is a one-strip cluster in a band of
    // pitch - w (residual uniform over it) and a two-strip one otherwise, where the centre of gravity
    // is b + (p/w)(c - b) for a track centred at c near the boundary b, a residual (p/w - 1)(c - b)
    // with c - b uniform over w: both have rms (pitch - w) / sqrt(12); two-strip fraction w / pitch.
    StripParams const p = ideal_params();
    for (double const f : {0.25, 0.5, 0.75}) {
        CAPTURE(f);
        double const w = f * p.pitch;
        Residuals const r = front_residuals(p, w, 2000);
        CHECK(r.clusters == 2000);
        // binomial: sigma of the fraction <= 0.011 at 2000; 0.04 is > 3.5 sigma
        CHECK(std::abs(r.two_strip_fraction - f) < 0.04);
        // threshold (100 e of 23 000) and ADC steps (15 e) shift the centre of gravity by < 0.5%
        CHECK(r.rms == test::relative((p.pitch - w) / std::sqrt(12.0), 0.05));
        CHECK(r.rms < p.pitch / std::sqrt(12.0));
    }
}

TEST_CASE("strip hits: MIP efficiency at the CBM noise and threshold")
{
    // Default read-out (ENC 1000 e, threshold 3000 e, 5-bit ADC over 75 000 e, diffusion, cross-talk),
    // MIP deposits (most probable, 23 000 e) at up to 25 deg: a hit for >= 99% of the tracks.
    StripParams const p = cbm_params();
    int const n = 2000;
    StripTables const t = one_sensor(p, n);
    std::vector<Hit> hits;
    for (int i = 0; i < n; ++i) {
        double const u = p.width() * (0.02 + 0.96 * uniform(std::uint64_t(i), 0));
        double const v = p.length * (0.02 + 0.96 * uniform(std::uint64_t(i), 1));
        double const w = 300e-6 * std::tan(25.0 * M_PI / 180.0) * (2 * uniform(std::uint64_t(i), 2) - 1);
        hits.push_back(track(std::uint64_t(i), std::uint64_t(i), p, u, v, w, k_mip_edep));
    }
    Chain const c = run_chain(t, hits);
    std::vector<int> found(std::size_t(n), 0);
    for (StripRecoHit const& h : c.reco.hits) {
        std::uint32_t const tf = c.reco.clusters[h.front].truth, tb = c.reco.clusters[h.back].truth;
        if (tf != tb) continue;
        // within 5 sigma of the true point
        Hit const& s = hits[tf];
        double const du = h.u - (0.5 * (s.pre.x + s.post.x) + 0.5 * p.width());
        double const dv = h.v - (0.5 * (s.pre.y + s.post.y) + 0.5 * p.length);
        if (std::abs(du) < 5 * std::sqrt(h.cov_uu) + 2e-6 && std::abs(dv) < 5 * std::sqrt(h.cov_vv) + 20e-6)
            found[tf] = 1;
    }
    int total = 0;
    for (int f : found) total += f;
    double const eff = double(total) / n;
    CAPTURE(eff);
    CHECK(eff >= 0.99);
}

TEST_CASE("strip hits: ghosts follow the combinatorial expectation N (N - 1) L tan(a) / W")
{
    // N simultaneous tracks at random places in one sensor: every front cluster crosses every back
    // cluster of another track inside the sensor with probability L tan(7.5 deg) / W (the stereo strip
    // through a point spans L tan(a) in u; cyclic strips make it exact): N (N - 1) of those per event.
    // Tolerance: Poisson sigma of the count (~3-5%) plus clusters merging when two tracks fall within
    // two strips (~N 4/1024): 15%.
    StripParams p = cbm_params();
    p.noise = 0;
    double const per_pair = p.length * p.tan_stereo[1] / p.width();
    for (int const n_tracks : {2, 4, 8}) {
        CAPTURE(n_tracks);
        int const events = 1600 / (n_tracks * (n_tracks - 1));
        StripTables const t = one_sensor(p, std::uint64_t(events));
        std::vector<Hit> hits;
        for (int e = 0; e < events; ++e)
            for (int k = 0; k < n_tracks; ++k) {
                std::uint64_t const id = std::uint64_t(e * 100 + k);
                double const u = p.width() * (0.01 + 0.98 * uniform(id, 0));
                double const v = p.length * (0.01 + 0.98 * uniform(id, 1));
                hits.push_back(track(std::uint64_t(e), id, p, u, v, 0.0, k_mip_edep));
            }
        Chain const c = run_chain(t, hits);
        std::size_t ghosts = 0, real = 0;
        for (StripRecoHit const& h : c.reco.hits) {
            bool const same = c.reco.clusters[h.front].truth == c.reco.clusters[h.back].truth;
            (same ? real : ghosts) += 1;
        }
        double const expected = events * n_tracks * (n_tracks - 1) * per_pair;
        CAPTURE(ghosts);
        CAPTURE(expected);
        CHECK(double(ghosts) == test::relative(expected, 0.15));
        // a track loses its hit when another one's cluster on either side lies within ~2 strips
        // (2 x (N - 1) x 5 / 1024: 7% at N = 8)
        CHECK(double(real) >= 0.9 * events * n_tracks);
    }
}

TEST_CASE("strip chain: the same bits on 1 and 2 threads, radix or merge sort, free streaming")
{
    StripParams p = cbm_params();
    p.dead_fraction = 0.01;
    int const events = 300;
    StripTables t = one_sensor(p, events);
    // 10 MHz: events overlap in time
    t.event_time.clear();
    double now = 0;
    for (int e = 0; e < events; ++e) {
        t.event_time.push_back(now);
        now += -std::log(uniform(std::uint64_t(e), 3)) / 1e7;
    }
    std::vector<Hit> hits;
    for (int e = 0; e < events; ++e)
        for (int k = 0; k < 6; ++k) {
            std::uint64_t const id = std::uint64_t(e * 10 + k);
            hits.push_back(track(std::uint64_t(e), id, p, p.width() * uniform(id, 0),
                                 p.length * uniform(id, 1), 200e-6 * (uniform(id, 2) - 0.5),
                                 k_mip_edep * (0.7 + uniform(id, 4))));
        }
    auto bits = [](Chain const& c) {
        std::vector<unsigned char> b;
        auto add = [&](void const* d, std::size_t n) {
            auto const* s = static_cast<unsigned char const*>(d);
            b.insert(b.end(), s, s + n);
        };
        add(c.digi.digis.data(), c.digi.digis.size() * sizeof(StripDigi));
        add(c.digi.truth.data(), c.digi.truth.size() * sizeof(std::uint32_t));
        add(c.reco.clusters.data(), c.reco.clusters.size() * sizeof(StripCluster));
        add(c.reco.hits.data(), c.reco.hits.size() * sizeof(StripRecoHit));
        return b;
    };
    int const before = cpu::thread_count();
    cpu::set_thread_count(1);
    Chain const one = run_chain(t, hits);
    cpu::set_thread_count(2);
    Chain const two = run_chain(t, hits);
    t.sort = StripSort::merge;
    Chain const merged = run_chain(t, hits);
    cpu::set_thread_count(before);
    CHECK(one.digi.digis.size() > 3000);
    CHECK(!one.reco.hits.empty());
    CHECK(bits(one) == bits(two));
    CHECK(bits(one) == bits(merged));
    // digis come out in time order
    for (std::size_t i = 1; i < one.digi.digis.size(); ++i)
        REQUIRE(one.digi.digis[i - 1].time <= one.digi.digis[i].time);
}
