// A cold uniform sphere (in the rest frame) expanding in a drift under its own space charge: rms
// sizes from split-operator tracking (half drift, kick, half drift) against the envelope solution.
#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "Relative.hh"
#include "kernels/cpu/Executor.hh"
#include "kernels/elements/Drift.hh"
#include "tests/SpaceChargeTestSupport.hh"

using namespace gt;
using namespace gt::test;

namespace {

struct LinearDrift {
    ParticleView p;
    double length, inv_beta_gamma2;
    void operator()(size_type i) const
    {
        Particle q = p.load(i);
        drift_linear(q, length, inv_beta_gamma2);
        p.store(i, q);
    }
};

std::array<double, 3> rms_xyz(ParticleView v, double rest_z)
{
    auto const m = cpu::reduce<7, reduce::Sum>(v.size, [&](size_type i, double* o) {
        double const z = rest_z * v.t[i];
        o[0] = 1.0;
        o[1] = v.x[i];
        o[2] = v.y[i];
        o[3] = z;
        o[4] = v.x[i] * v.x[i];
        o[5] = v.y[i] * v.y[i];
        o[6] = z * z;
    });
    std::array<double, 3> out{};
    for (int d = 0; d < 3; ++d) out[d] = std::sqrt(m[4 + d] / m[0] - (m[1 + d] / m[0]) * (m[1 + d] / m[0]));
    return out;
}

}  // namespace

TEST_CASE("a cold uniform sphere expands as the envelope equation says, at low and high energy")
{
    // 100k macroparticles uniformly in a sphere of radius 1 mm (rest frame), at rest relative to the
    // reference. Over 1 m the radius grows by ~2x. Tolerance 1 % (the issue's): the split-step
    // error is O(ds^2) ~ 1e-4 with 40 kicks, the sphere's rms from sampling ~0.2 %, and the grid
    // smooths the sphere's edge over a cell (~1/30 of the radius), which lags the edge particles by a
    // fraction of a per cent of the rms. Measured: 0.5 % low at 32^3 and 40 kicks, 0.14 % low at
    // 64^3 and 80 kicks (the grid term converging).
    for (double kinetic_mev : {2.0, 2000.0}) {
        CAPTURE(kinetic_mev);
        size_type const n = 100000;
        Lcg rng{2024};
        std::vector<Point3> points;
        double const R = 1e-3;
        while (points.size() < n) {
            double const x = 2 * rng.next() - 1, y = 2 * rng.next() - 1, z = 2 * rng.next() - 1;
            if (x * x + y * y + z * z <= 1.0) points.push_back({R * x, R * y, R * z});
        }
        BeamFrame frame = proton_frame(kinetic_mev, 1.0);
        double const bg = frame.beta * frame.gamma;
        double const mc2 = frame.mass * constants::c_light * constants::c_light;
        // The charge that gives K = 2.6e-9 m: u(1 m) ~ 2.
        double const K = 2.6e-9;
        double const Q = K * 4 * constants::pi * constants::eps0 * mc2 * bg * bg / frame.charge;
        frame.macro_charge = Q / double(n);
        ParticleState state = beam_at(points, frame);
        ParticleView v = state.view();
        auto const sigma0 = rms_xyz(v, frame.rest_z());
        double const R0 = std::sqrt(5.0) * (sigma0[0] + sigma0[1] + sigma0[2]) / 3.0;

        auto sc = make_cpu_space_charge();
        SpaceChargeSettings s;
        s.grid = {32, 32, 32};
        s.margin = 0.05;
        int const kicks = 40;
        double const L = 1.0, ds = L / kicks, ibg2 = 1.0 / (bg * bg);
        for (int k = 0; k < kicks; ++k) {
            cpu::for_each(n, LinearDrift{v, ds / 2, ibg2});
            auto const d = sc->kick(v, s, frame, ds);
            REQUIRE(d.outside == 0.0);
            cpu::for_each(n, LinearDrift{v, ds / 2, ibg2});
        }
        auto const sigma = rms_xyz(v, frame.rest_z());
        double const u = envelope_ratio(L, R0, K);
        MESSAGE("expansion " << u << ": rms/analytic x " << sigma[0] / (sigma0[0] * u) << ", y "
                             << sigma[1] / (sigma0[1] * u) << ", z " << sigma[2] / (sigma0[2] * u));
        CHECK(u > 1.9);
        for (int d = 0; d < 3; ++d) CHECK(sigma[d] == test::relative(sigma0[d] * u, 0.01));
    }
}
