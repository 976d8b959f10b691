// The space-charge field against analytic fields: no self-force, action and reaction, a uniform
// sphere, a uniform ellipsoid and a Gaussian bunch, inside and outside, and particles off the grid.
#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "Relative.hh"
#include "tests/SpaceChargeTestSupport.hh"

using namespace gt;
using namespace gt::test;

namespace {

//! Rest-frame field probes spread over the ellipsoid (a, b, c) scaled by [r_lo, r_hi].
std::vector<FieldProbe> probes_in_shell(double a, double b, double c, double r_lo, double r_hi, int n,
                                        std::uint64_t seed)
{
    Lcg rng{seed};
    std::vector<FieldProbe> out;
    while (static_cast<int>(out.size()) < n) {
        double const x = 2.0 * rng.next() - 1.0, y = 2.0 * rng.next() - 1.0, z = 2.0 * rng.next() - 1.0;
        double const r = std::sqrt(x * x + y * y + z * z);
        if (r > 1.0 || r < 1e-3) continue;
        double const scale =
            (r_lo + (r_hi - r_lo) * rng.next()) / r;  // direction uniform-ish, radius uniform
        out.push_back({a * x * scale, b * y * scale, c * z * scale, 0.0, 0.0, 0.0});
    }
    return out;
}

double ellipsoid_error(double a, double b, double c, int n, double r_lo, double r_hi, ParticleShape shape)
{
    // The lattice spacing is 0.4 of the cell along the shortest axis at this resolution, so every
    // cell holds many points and CIC/TSC see a smooth uniform density (no sampling noise).
    double const margin = 0.3;
    double const cell = 2.0 * std::min({a, b, c}) * (1.0 + 2.0 * margin) / (n - 1);
    auto const points = lattice_ellipsoid(a, b, c, 0.4 * cell);
    double const Q = 1e-12;
    BeamFrame const frame = proton_frame(20.0, Q / double(points.size()));
    ParticleState state = beam_at(points, frame);
    auto sc = make_cpu_space_charge();
    SpaceChargeSettings s;
    s.grid = {n, n, n};
    s.margin = margin;
    s.shape = shape;
    auto probes = probes_in_shell(a, b, c, r_lo, r_hi, 400, 99);
    auto const d = sc->probe_field(state.view(), s, frame, probes);
    CHECK(d.outside == 0.0);
    std::vector<Point3> exact;
    for (auto const& p : probes) exact.push_back(ellipsoid_field(Q, a, b, c, {p.x, p.y, p.z}));
    return relative_rms_error(probes, exact);
}

}  // namespace

TEST_CASE("the analytic references of these tests reduce to the closed forms of a sphere")
{
    // The 1D integrals of ellipsoid_field and gaussian_field against the closed forms for a = b = c:
    // uniform sphere (Gauss's law) and round Gaussian, E = Q/(4 pi eps0 r^2) [erf(r/(sqrt2 s)) -
    // sqrt(2/pi) (r/s) exp(-r^2/(2 s^2))]. Simpson with 4000 intervals: better than 1e-6.
    double const Q = 1e-12, R = 1e-3, k = Q / (4 * constants::pi * constants::eps0);
    for (double r : {0.3e-3, 0.99e-3, 1.5e-3, 7e-3}) {
        CAPTURE(r);
        Point3 const e = ellipsoid_field(Q, R, R, R, {r * 0.6, r * 0.8, 0.0});
        double const exact = r < R ? k * r / (R * R * R) : k / (r * r);
        CHECK(std::hypot(e.x, e.y) == test::relative(exact, 1e-6));
        Point3 const g = gaussian_field(Q, R, R, R, {0.0, r * 0.6, r * 0.8});
        double const a = r / R;
        double const gexact =
            k / (r * r) *
            (std::erf(a / std::sqrt(2.0)) - std::sqrt(2.0 / constants::pi) * a * std::exp(-a * a / 2));
        CHECK(std::hypot(g.y, g.z) == test::relative(gexact, 1e-6));
    }
}

TEST_CASE("a single particle feels no force from itself")
{
    BeamFrame const frame = proton_frame(1.0, 1e-12);
    SpaceChargeSettings s;
    s.grid = {16, 16, 16};
    s.fixed_grid = GridGeometry{16, 16, 16, -8e-3, -8e-3, -8e-3, 1e-3, 1e-3, 1e-3};
    for (auto shape : {ParticleShape::cic, ParticleShape::tsc})
        for (auto method :
             {DepositionMethod::atomic, DepositionMethod::aggregated, DepositionMethod::deterministic}) {
            CAPTURE(int(shape));
            CAPTURE(int(method));
            s.shape = shape;
            s.deposition = method;
            // Off-centre in every cell coordinate, where a scheme without momentum conservation would push.
            ParticleState state = beam_at({{0.3e-3, -2.71e-3, 1.17e-3}}, frame);
            auto sc = make_cpu_space_charge();
            sc->kick(state.view(), s, frame, 1.0);
            ParticleView v = state.view();
            // Scale: the kick from a like particle one cell away, q Q/(4 pi eps0 (1 mm)^2) through
            // transverse_kick. The self-force cancels exactly in exact arithmetic (odd kernel, same
            // shape for deposit and gather); what remains is rounding, ~1e-13 of that scale.
            double const scale = frame.transverse_kick(1.0) * frame.macro_charge /
                                 (4 * constants::pi * constants::eps0 * 1e-6);
            CHECK(std::abs(v.px[0]) < 1e-12 * scale);
            CHECK(std::abs(v.py[0]) < 1e-12 * scale);
            CHECK(std::abs(v.pt[0]) <
                  1e-12 * std::abs(frame.longitudinal_kick(1.0) / frame.transverse_kick(1.0)) * scale);
        }
}

TEST_CASE("two equal particles feel equal and opposite forces, close to Coulomb's")
{
    BeamFrame const frame = proton_frame(1.0, 1e-12);
    SpaceChargeSettings s;
    s.fixed_grid = GridGeometry{32, 32, 32, -16e-3, -16e-3, -16e-3, 1e-3, 1e-3, 1e-3};
    for (auto shape : {ParticleShape::cic, ParticleShape::tsc})
        for (auto method : {DepositionMethod::atomic, DepositionMethod::deterministic}) {
            CAPTURE(int(shape));
            CAPTURE(int(method));
            s.shape = shape;
            s.deposition = method;
            Point3 const a{-3.3e-3, 1.2e-3, 0.4e-3}, b{4.1e-3, -2.2e-3, 3.9e-3};
            ParticleState state = beam_at({a, b}, frame);
            auto sc = make_cpu_space_charge();
            sc->kick(state.view(), s, frame, 1.0);
            ParticleView v = state.view();
            // Equal and opposite: the forces are the same sums with an odd kernel, so they cancel to
            // rounding.
            double const scale = std::abs(v.px[0]) + std::abs(v.py[0]);
            CHECK(std::abs(v.px[0] + v.px[1]) < 1e-12 * scale);
            CHECK(std::abs(v.py[0] + v.py[1]) < 1e-12 * scale);
            CHECK(std::abs(v.pt[0] + v.pt[1]) < 1e-12 * std::abs(v.pt[0]));
            // Coulomb: at 9.3 cells' separation the grid force is within a few per cent of q Q / (4 pi eps0
            // r^2) (the cell-averaged Green's function and the shapes smooth at the scale of one cell).
            double const dx = a.x - b.x, dy = a.y - b.y, dz = a.z - b.z,
                         r = std::sqrt(dx * dx + dy * dy + dz * dz);
            double const e = frame.macro_charge / (4 * constants::pi * constants::eps0 * r * r);
            CHECK(v.px[0] == test::relative(frame.transverse_kick(1.0) * e * dx / r, 0.03));
            CHECK(v.py[0] == test::relative(frame.transverse_kick(1.0) * e * dy / r, 0.03));
            CHECK(v.pt[0] == test::relative(frame.longitudinal_kick(1.0) * e * dz / r, 0.03));
        }
}

TEST_CASE("uniform sphere: the field inside and outside against Gauss's law, converging with the grid")
{
    // Reference: E = Q r/(4 pi eps0 R^3) inside, Q/(4 pi eps0 r^2) outside (ellipsoid_field with
    // a = b = c). Probes avoid the shell 0.9R..1.1R, where any grid field is smoothed over a cell.
    // Tolerance: the 1 % at 64^3; the error falls with the grid (second-order differences
    // and shapes), which the 32^3 run must show.
    double const R = 1e-3;
    double const inside32 = ellipsoid_error(R, R, R, 32, 0.05, 0.9, ParticleShape::cic);
    double const inside64 = ellipsoid_error(R, R, R, 64, 0.05, 0.9, ParticleShape::cic);
    double const outside64 = ellipsoid_error(R, R, R, 64, 1.1, 1.55, ParticleShape::cic);
    MESSAGE("sphere relative rms error: inside 32^3 " << inside32 << ", 64^3 " << inside64
                                                      << "; outside 64^3 " << outside64);
    CHECK(inside64 <= 0.01);
    CHECK(outside64 <= 0.01);
    CHECK(inside64 < inside32);
}

TEST_CASE("uniform ellipsoid: the field inside and outside against the analytic one")
{
    // Reference: the homogeneous-ellipsoid field (ellipsoid_field, a 1D integral), semi-axes 1:0.6:2.5,
    // cells of different aspect ratios per axis: the integrated Green's function handles them.
    double const a = 1e-3, b = 0.6e-3, c = 2.5e-3;
    double const inside32 = ellipsoid_error(a, b, c, 32, 0.05, 0.9, ParticleShape::cic);
    double const inside64 = ellipsoid_error(a, b, c, 64, 0.05, 0.9, ParticleShape::cic);
    double const outside64 = ellipsoid_error(a, b, c, 64, 1.1, 1.4, ParticleShape::cic);
    double const tsc64 = ellipsoid_error(a, b, c, 64, 0.05, 0.9, ParticleShape::tsc);
    MESSAGE("ellipsoid relative rms error: inside 32^3 " << inside32 << ", 64^3 " << inside64 << " (TSC "
                                                         << tsc64 << "); outside 64^3 " << outside64);
    CHECK(inside64 <= 0.01);
    CHECK(tsc64 <= 0.01);
    CHECK(outside64 <= 0.01);
    CHECK(inside64 < inside32);
}

TEST_CASE("Gaussian bunch: the field against the analytic 1D integral")
{
    // Reference: gaussian_field, the 1D integral of the Gaussian's potential. The bunch is a quiet
    // product lattice of 96^3 normal quantiles (no sampling noise; its tails end at 2.7 sigma, which
    // moves < 0.5 % of the charge inwards). Probes within 2.5 sigma. Tolerance 1.5 %: the quantile
    // lattice's truncation plus the 64^3 grid's second-order error.
    double const sx = 1e-3, sy = 0.7e-3, sz = 2e-3;
    auto const points = quiet_gaussian(sx, sy, sz, 96);
    double const Q = 1e-12;
    BeamFrame const frame = proton_frame(100.0, Q / double(points.size()));
    ParticleState state = beam_at(points, frame);
    auto sc = make_cpu_space_charge();
    SpaceChargeSettings s;
    s.grid = {64, 64, 64};
    s.margin = 0.1;
    auto probes = probes_in_shell(2.5 * sx, 2.5 * sy, 2.5 * sz, 0.05, 1.0, 300, 5);
    sc->probe_field(state.view(), s, frame, probes);
    std::vector<Point3> exact;
    for (auto const& p : probes) exact.push_back(gaussian_field(Q, sx, sy, sz, {p.x, p.y, p.z}));
    double const err = relative_rms_error(probes, exact);
    MESSAGE("Gaussian relative rms error at 64^3: " << err);
    CHECK(err <= 0.015);
}

TEST_CASE("particles outside a fixed grid feel the grid's charge as a point charge")
{
    // A lattice sphere inside a fixed grid, one probe far outside the grid: Coulomb's field of the
    // sphere's charge from its centre, exactly what a uniform sphere gives outside (to 1e-12).
    double const R = 1e-3;
    auto const points = lattice_ellipsoid(R, R, R, 0.1e-3);
    double const Q = 1e-12;
    BeamFrame const frame = proton_frame(20.0, Q / double(points.size()));
    ParticleState state = beam_at(points, frame);
    auto sc = make_cpu_space_charge();
    SpaceChargeSettings s;
    s.fixed_grid = GridGeometry{24, 24, 24, -1.2e-3, -1.2e-3, -1.2e-3, 2.4e-3 / 23, 2.4e-3 / 23, 2.4e-3 / 23};
    std::vector<FieldProbe> probes = {{5e-3, 1e-3, -2e-3, 0, 0, 0}};
    auto const d = sc->probe_field(state.view(), s, frame, probes);
    CHECK(d.outside == 0.0);
    Point3 const e = ellipsoid_field(Q, R, R, R, {5e-3, 1e-3, -2e-3});
    // The lattice's centroid is at the origin to rounding, its charge exactly Q.
    CHECK(probes[0].ex == test::relative(e.x, 1e-6));
    CHECK(probes[0].ey == test::relative(e.y, 1e-6));
    CHECK(probes[0].ez == test::relative(e.z, 1e-6));
}

TEST_CASE("truncate_sigma: the grid covers the core, a far halo particle feels the core as a point charge")
{
    // A lattice sphere plus one particle 50 radii away: sized to the whole bunch, the grid would
    // spend its cells on empty space; with truncate_sigma = 5 it covers the sphere (rms R/sqrt(5)),
    // the halo particle is counted outside and kicked by Coulomb's field of the charge inside.
    double const R = 1e-3;
    auto points = lattice_ellipsoid(R, R, R, 0.1e-3);
    size_type const core = points.size();
    points.push_back({50 * R, 0.0, 0.0});
    double const Q = 1e-12;
    BeamFrame const frame = proton_frame(20.0, Q / double(core));
    ParticleState state = beam_at(points, frame);
    auto sc = make_cpu_space_charge();
    SpaceChargeSettings s;
    s.grid = {32, 32, 32};
    s.truncate_sigma = 5;
    auto const d = sc->kick(state.view(), s, frame, 1.0);
    CHECK(d.outside == 1.0);
    CHECK(d.inside == double(core));
    // The rms includes the halo (sigma_x ~ 0.9 R): the grid spans about -R..4.5 R in x instead of the
    // -R..50 R a whole-bunch grid would, so its spacing is ~9 times finer.
    CHECK(d.grid.hx < 0.2 * (51 * R * 1.1 / 31));
    ParticleView v = state.view();
    size_type halo = 0;
    while (v.id[halo] != core) ++halo;  // sorting may have moved it
    // The inside charge is Q x (the core's share), its centroid at the origin to rounding.
    double const e = d.inside_charge / (4 * constants::pi * constants::eps0 * (50 * R) * (50 * R));
    CHECK(v.px[halo] == test::relative(frame.transverse_kick(1.0) * e, 1e-9));
}

TEST_CASE(
    "the transformed Green's function is reused while the grid spacing stays, recomputed when it changes")
{
    double const R = 1e-3;
    auto points = lattice_ellipsoid(R, R, R, 0.2e-3);
    BeamFrame const frame = proton_frame(20.0, 1e-15);
    ParticleState state = beam_at(points, frame);
    auto sc = make_cpu_space_charge();
    SpaceChargeSettings s;
    s.grid = {16, 16, 16};
    auto const first = sc->kick(state.view(), s, frame, 0.0);
    auto const same = sc->kick(state.view(), s, frame, 0.0);
    CHECK(first.green_recomputed);
    CHECK_FALSE(same.green_recomputed);
    CHECK(same.t_green == 0.0);
    // 8 % larger: still fits the kept spacing (chosen with 10 % headroom, GridSizing.hh).
    ParticleView v = state.view();
    for (size_type i = 0; i < v.size; ++i) {
        v.x[i] *= 1.08;
        v.y[i] *= 1.08;
        v.t[i] *= 1.08;
    }
    auto const grown = sc->kick(v, s, frame, 0.0);
    CHECK_FALSE(grown.green_recomputed);
    CHECK(grown.grid.hx == first.grid.hx);
    // Twice the size no longer fits: a new spacing, a new Green's function.
    for (size_type i = 0; i < v.size; ++i) {
        v.x[i] *= 2.0;
        v.y[i] *= 2.0;
        v.t[i] *= 2.0;
    }
    auto const doubled = sc->kick(v, s, frame, 0.0);
    CHECK(doubled.green_recomputed);
    CHECK(doubled.grid.hx > first.grid.hx);
    // Shrinking by half: the old spacing would waste resolution (> 30 % coarser): recomputed.
    for (size_type i = 0; i < v.size; ++i) {
        v.x[i] *= 0.5;
        v.y[i] *= 0.5;
        v.t[i] *= 0.5;
    }
    CHECK(sc->kick(v, s, frame, 0.0).green_recomputed);
}
