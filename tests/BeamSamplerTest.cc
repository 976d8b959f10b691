// Initial beams: every distribution reproduces the requested second moments and its defining shape.
#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "Relative.hh"
#include "beam/BeamSetup.hh"
#include "kernels/beam/BeamSampler.hh"

using namespace gt;

namespace {

BeamConfig twiss_beam(std::string const& distribution)
{
    BeamConfig b;
    b.distribution = distribution;
    b.x = TwissPlane{8.0, 1.5, 2e-6};
    b.y = TwissPlane{2.0, -0.7, 1e-6};
    b.sigma_t = 1e-3;
    b.sigma_pt = 2e-4;
    b.chirp = 0.3;
    return b;
}

std::vector<Particle> draw(BeamSampler const& s, std::size_t n)
{
    std::vector<Particle> out(n);
    for (std::size_t i = 0; i < n; ++i) out[i] = s.sample(i);
    return out;
}

Matrix6 covariance(std::vector<Particle> const& ps)
{
    double mean[6] = {};
    auto z = [](Particle const& p, int k) {
        double const v[6] = {p.x, p.px, p.y, p.py, p.t, p.pt};
        return v[k];
    };
    for (auto const& p : ps)
        for (int k = 0; k < 6; ++k) mean[k] += z(p, k);
    for (double& m : mean) m /= static_cast<double>(ps.size());
    Matrix6 c{};
    for (auto const& p : ps)
        for (int a = 0; a < 6; ++a)
            for (int b = 0; b < 6; ++b) c[a][b] += (z(p, a) - mean[a]) * (z(p, b) - mean[b]);
    for (auto& row : c)
        for (double& v : row) v /= static_cast<double>(ps.size());
    return c;
}

}  // namespace

TEST_CASE("Cholesky factor of a Twiss plane is the textbook normalization")
{
    auto const b = twiss_beam("gaussian");
    auto const l = cholesky_lower(beam_sigma_matrix(b), b);
    // x = sqrt(eps beta) u, px = sqrt(eps / beta) (v - alpha u)
    CHECK(l[0][0] == test::relative(std::sqrt(2e-6 * 8.0), 1e-14));
    CHECK(l[1][0] == test::relative(-1.5 * std::sqrt(2e-6 / 8.0), 1e-14));
    CHECK(l[1][1] == test::relative(std::sqrt(2e-6 / 8.0), 1e-14));
    CHECK(l[2][0] == 0.0);
}

TEST_CASE("a matrix that is not positive semi-definite is a deck error")
{
    BeamConfig b;
    std::array<double, 36> m{};
    m[0] = 1e-6;
    m[1] = m[6] = 2e-6;  // |<x px>| > sqrt(<x^2><px^2>)
    m[7] = 1e-6;
    b.sigma_matrix = m;
    CHECK_THROWS_WITH(cholesky_lower(beam_sigma_matrix(b), b),
                      doctest::Contains("not positive semi-definite"));
}

TEST_CASE("every distribution has the requested second moments")
{
    // 2e5 particles: the relative standard error of a variance is sqrt((kurtosis - 1) / N) <= 0.4%
    // for these distributions, that of a correlation coefficient 1/sqrt(N) = 0.22%: 5 sigma margins.
    std::size_t const n = 200000;
    for (std::string dist : {"gaussian", "kv", "waterbag", "semigaussian", "kurth"}) {
        CAPTURE(dist);
        auto const beam = twiss_beam(dist);
        auto const want = beam_sigma_matrix(beam);
        auto const got = covariance(draw(make_beam_sampler(beam, 42), n));
        for (int a = 0; a < 6; ++a) {
            CHECK(got[a][a] == test::relative(want[a][a], 0.02));
            for (int b = a + 1; b < 6; ++b) {
                double const scale = std::sqrt(want[a][a] * want[b][b]);
                CHECK(std::abs(got[a][b] - want[a][b]) <= 0.012 * scale);
            }
        }
    }
}

TEST_CASE("distribution shapes in normalized coordinates")
{
    BeamConfig unit;
    unit.x = unit.y = TwissPlane{1.0, 0.0, 1.0};
    unit.sigma_t = unit.sigma_pt = 1.0;
    auto radius2 = [](Particle const& p, bool transverse_only) {
        double r2 = p.x * p.x + p.px * p.px + p.y * p.y + p.py * p.py;
        if (!transverse_only) r2 += p.t * p.t + p.pt * p.pt;
        return r2;
    };
    SUBCASE("KV: the transverse 4D radius is exactly 2")
    {
        unit.distribution = "kv";
        for (auto const& p : draw(make_beam_sampler(unit, 1), 20000))
            REQUIRE(std::sqrt(radius2(p, true)) == test::relative(2.0, 1e-12));
    }
    SUBCASE("waterbag: inside the 6D ball of radius sqrt(8), filling it")
    {
        unit.distribution = "waterbag";
        double rmax = 0;
        for (auto const& p : draw(make_beam_sampler(unit, 1), 20000)) rmax = std::max(rmax, radius2(p, false));
        CHECK(rmax <= 8.0 * (1 + 1e-12));
        CHECK(rmax > 8.0 * 0.99);
    }
    SUBCASE("Kurth and semi-Gaussian: positions inside the 3D ball of radius sqrt(5)")
    {
        for (std::string d : {"kurth", "semigaussian"}) {
            unit.distribution = d;
            for (auto const& p : draw(make_beam_sampler(unit, 3), 20000))
                REQUIRE(p.x * p.x + p.y * p.y + p.t * p.t <= 5.0 * (1 + 1e-12));
        }
    }
    SUBCASE("Gaussian truncation cuts every normalized coordinate")
    {
        unit.distribution = "gaussian";
        unit.truncate = 2.0;
        for (auto const& p : draw(make_beam_sampler(unit, 5), 20000)) {
            REQUIRE(std::abs(p.x) <= 2.0);
            REQUIRE(std::abs(p.pt) <= 2.0);
        }
    }
}

TEST_CASE("the same seed gives the same beam, another seed another")
{
    auto const beam = twiss_beam("gaussian");
    auto const a = make_beam_sampler(beam, 9).sample(17);
    auto const b = make_beam_sampler(beam, 9).sample(17);
    auto const c = make_beam_sampler(beam, 10).sample(17);
    CHECK(a.x == b.x);
    CHECK(a.pt == b.pt);
    CHECK(a.x != c.x);
}
