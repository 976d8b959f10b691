// Statistics from moments: emittance, Twiss and normalized emittance from a known covariance.
#include <doctest/doctest.h>

#include <cmath>

#include "Relative.hh"
#include "beam/BeamStatistics.hh"

using namespace gt;

TEST_CASE("emittance and Twiss parameters from a Twiss-built covariance")
{
    // Sigma = eps [[beta, -alpha], [-alpha, gamma]] must give back eps, beta, alpha exactly
    // (up to the rounding of a 2x2 determinant and a square root: 1e-14 relative).
    double const eps = 3e-6, beta = 7.5, alpha = -1.25, gamma = (1 + alpha * alpha) / beta;
    BeamMoments m;
    m.alive = 1000;
    m.cov[0][0] = eps * beta;
    m.cov[0][1] = m.cov[1][0] = -eps * alpha;
    m.cov[1][1] = eps * gamma;
    m.cov[2][2] = 4e-6;
    m.cov[3][3] = 1e-6;
    m.mean[0] = 1e-3;
    auto const ref = ReferenceParticle::from_kinetic(938.27208816, 1.0, 250.0);
    auto const s = derive_statistics(m, ref);
    CHECK(s.emittance[0] == test::relative(eps, 1e-14));
    CHECK(s.beta[0] == test::relative(beta, 1e-14));
    CHECK(s.alpha[0] == test::relative(alpha, 1e-14));
    CHECK(s.emittance[1] == test::relative(2e-6, 1e-14));
    CHECK(s.normalized_emittance[0] == test::relative(eps * ref.beta_gamma, 1e-14));
    CHECK(s.sigma[0] == test::relative(std::sqrt(eps * beta), 1e-14));
    CHECK(s.mean[0] == 1e-3);
    CHECK(statistics_row(s).size() == statistics_columns().size());
}

TEST_CASE("an empty beam has zero statistics, not NaN")
{
    BeamMoments m;
    auto const s = derive_statistics(m, ReferenceParticle::from_kinetic(0.51099895, -1.0, 10.0));
    CHECK(s.alive == 0);
    for (double v : statistics_row(s)) CHECK(!std::isnan(v));
}

TEST_CASE("reference particle: relativistic quantities of a 250 MeV proton")
{
    // gamma = 1 + T/mc^2; p c = sqrt(T (T + 2 mc^2)) = 729.133 MeV; B rho = p / e = 2.43212 T m.
    auto const r = ReferenceParticle::from_kinetic(938.27208816, 1.0, 250.0);
    CHECK(r.gamma == test::relative(1.0 + 250.0 / 938.27208816, 1e-15));
    CHECK(r.pc_mev == test::relative(std::sqrt(250.0 * (250.0 + 2 * 938.27208816)), 1e-14));
    CHECK(r.beta == test::relative(r.pc_mev / (r.gamma * 938.27208816), 1e-14));
    CHECK(r.rigidity == test::relative(r.pc_mev * 1e6 / 299792458.0, 1e-14));
}
