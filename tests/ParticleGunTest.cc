// The particle gun: spectra, position shapes and direction shapes have the moments they should, and a
// primary depends only on (seed, number).
#include <doctest/doctest.h>

#include <cmath>

#include "Relative.hh"
#include "kernels/detector/ParticleGun.hh"

using namespace gt;

TEST_CASE("isotropic and cone directions are uniform in solid angle")
{
    GunParams gun;
    gun.per_event = 1;
    gun.direction_shape = DirectionShape::isotropic;
    int const n = 40000;
    double mx = 0, my = 0, mz = 0, mz2 = 0;
    for (int i = 0; i < n; ++i) {
        Primary const p = make_primary(gun, 5, static_cast<std::uint64_t>(i));
        REQUIRE(std::fabs(norm(p.dir) - 1.0) < 1e-14);
        mx += p.dir.x;
        my += p.dir.y;
        mz += p.dir.z;
        mz2 += p.dir.z * p.dir.z;
    }
    // uniform on the sphere: <d> = 0 (sigma 1/sqrt(3n) = 0.003), <dz^2> = 1/3 (sigma 0.0015)
    CHECK(std::fabs(mx / n) < 0.012);
    CHECK(std::fabs(my / n) < 0.012);
    CHECK(std::fabs(mz / n) < 0.012);
    CHECK(mz2 / n == test::relative(1.0 / 3.0, 0.02));

    gun.direction_shape = DirectionShape::cone;
    gun.direction = normalized(Vec3{1, 1, 0});
    double const half = 0.2;
    gun.cos_cone = std::cos(half);
    double mean_cos = 0;
    for (int i = 0; i < n; ++i) {
        Primary const p = make_primary(gun, 6, static_cast<std::uint64_t>(i));
        double const c = dot(p.dir, gun.direction);
        REQUIRE(c >= gun.cos_cone - 1e-15);
        mean_cos += c;
    }
    // uniform in cos(theta) on [cos(half), 1]: mean (1 + cos(half)) / 2
    CHECK(mean_cos / n == test::relative(0.5 * (1 + gun.cos_cone), 1e-4));
}

TEST_CASE("energy spectra, position shapes and events")
{
    GunParams gun;
    gun.per_event = 7;
    gun.spectrum = EnergySpectrum::uniform;
    gun.energy = 100;
    gun.energy_spread = 300;
    gun.position_shape = PositionShape::box;
    gun.position = {1, 2, 3};
    gun.position_spread = {0.1, 0.2, 0.3};
    int const n = 20000;
    double me = 0;
    for (int i = 0; i < n; ++i) {
        Primary const p = make_primary(gun, 8, static_cast<std::uint64_t>(i));
        REQUIRE(p.event == static_cast<std::uint64_t>(i) / 7);
        REQUIRE(p.energy >= 100);
        REQUIRE(p.energy <= 300);
        REQUIRE(std::fabs(p.pos.y - 2) <= 0.2);
        me += p.energy;
    }
    CHECK(me / n == test::relative(200, 0.01));
    gun.spectrum = EnergySpectrum::gaussian;
    gun.energy = 1000;
    gun.energy_spread = 10;
    gun.position_shape = PositionShape::beam_spot;
    double s2 = 0, x2 = 0;
    for (int i = 0; i < n; ++i) {
        Primary const p = make_primary(gun, 9, static_cast<std::uint64_t>(i));
        s2 += (p.energy - 1000) * (p.energy - 1000);
        x2 += (p.pos.x - 1) * (p.pos.x - 1);
    }
    CHECK(std::sqrt(s2 / n) == test::relative(10, 0.03));
    CHECK(std::sqrt(x2 / n) == test::relative(0.1, 0.03));
    // a primary is a function of (seed, number) only
    Primary const a = make_primary(gun, 9, 1234), b = make_primary(gun, 9, 1234);
    CHECK(a.energy == b.energy);
    CHECK(a.pos.x == b.pos.x);
    CHECK(make_primary(gun, 10, 1234).energy != a.energy);
}
