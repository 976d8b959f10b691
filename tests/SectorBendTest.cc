// Sector bend with edges against the textbook matrices; combined-function body against its equations.
#include <doctest/doctest.h>

#include <cmath>

#include "ElementTestSupport.hh"
#include "kernels/elements/DipoleEdge.hh"
#include "kernels/elements/SectorBend.hh"

using namespace gt;
using namespace gt::test;

namespace {

//! Sector-bend body in the rho-theta form of the MAD-X physics guide / ImpactX Sbend (k1 = 0), with
//! ImpactX's (t, pt): R16 = -rho (1 - cos)/beta, R26 = -sin/beta, R51 = sin/beta,
//! R52 = rho (1 - cos)/beta, R56 = L/(beta gamma)^2 - rho (theta - sin theta)/beta^2.
Mat6 body_matrix(double length, double angle, ReferenceParticle const& ref)
{
    double const rho = length / angle, c = std::cos(angle), s = std::sin(angle), b = ref.beta;
    Mat6 m = identity6();
    m[0][0] = c;
    m[0][1] = rho * s;
    m[0][5] = -rho * (1.0 - c) / b;
    m[1][0] = -s / rho;
    m[1][1] = c;
    m[1][5] = -s / b;
    m[2][3] = length;
    m[4][0] = s / b;
    m[4][1] = rho * (1.0 - c) / b;
    m[4][5] = length / (ref.beta_gamma * ref.beta_gamma) - rho * (angle - s) / (b * b);
    return m;
}

//! Edge matrix, K. L. Brown SLAC-75: R21 = tan(e)/rho, R43 = -tan(e - psi)/rho,
//! psi = K1 g (1 + sin^2 e) / (rho cos e) with g the full gap (= 2 hgap).
Mat6 edge_matrix(double rho, double e, double fint, double hgap)
{
    double const g = 2.0 * hgap;
    double const psi = fint * g / rho * (1.0 + std::sin(e) * std::sin(e)) / std::cos(e);
    Mat6 m = identity6();
    m[1][0] = std::tan(e) / rho;
    m[3][2] = -std::tan(e - psi) / rho;
    return m;
}

}  // namespace

TEST_CASE("sector bend with pole-face angles and fringe correction against the textbook product")
{
    ReferenceParticle const ref = proton(250.0);
    double const length = 1.2, angle = 10.0 * constants::pi / 180.0, e1 = 0.035, e2 = 0.05, fint = 0.5,
                 hgap = 0.02;
    double const h = angle / length;
    DipoleEdge const in = DipoleEdge::make(h, e1, fint, hgap);
    DipoleEdge const out = DipoleEdge::make(h, e2, fint, hgap);
    SectorBend const body = SectorBend::make(length, angle, 0.0, ref);
    Mat6 const m = matrix_of_linear_map([&](Particle& p) { return in(p) && body(p) && out(p); });
    Mat6 const expected =
        multiply(edge_matrix(1.0 / h, e2, fint, hgap),
                 multiply(body_matrix(length, angle, ref), edge_matrix(1.0 / h, e1, fint, hgap)));
    CHECK(max_relative_difference(m, expected) < 1e-12);
    // The fringe correction is not negligible here (psi ~ 1.5 mrad): a test that ignores it fails.
    CHECK(max_relative_difference(m, multiply(edge_matrix(1.0 / h, e2, 0.0, 0.0),
                                              multiply(body_matrix(length, angle, ref),
                                                       edge_matrix(1.0 / h, e1, 0.0, 0.0)))) > 1e-5);
    // Thin edge alone: R21 = h tan(e) exactly.
    Particle p{1.0, 0, 1.0, 0, 0, 0};
    in(p);
    CHECK(rel_diff(p.px, h * std::tan(e1)) <= 1e-15);
}

TEST_CASE("sliced sector-bend body composes to the whole body")
{
    ReferenceParticle const ref = proton(2.0);  // beta ~ 0.065: the t terms are large
    double const length = 2.0, angle = 0.6;
    int const n = 7;
    SectorBend const slice = SectorBend::make(length / n, angle / n, 0.0, ref);
    Mat6 const m = matrix_of_linear_map([&](Particle& p) {
        for (int i = 0; i < n; ++i) slice(p);
        return true;
    });
    CHECK(max_relative_difference(m, body_matrix(length, angle, ref)) < 1e-12);
}

TEST_CASE("combined-function sector bend solves its linear equations of motion")
{
    ReferenceParticle const ref = proton(100.0);
    double const ib = 1.0 / ref.beta, ibg2 = 1.0 / (ref.beta_gamma * ref.beta_gamma);
    for (double k1 : {0.8, -0.8, -0.3 * 0.3}) {  // the last makes Kx = h^2 + k1 = 0
        double const length = 1.0, angle = 0.3, h = angle / length;
        SectorBend const b = SectorBend::make(length, angle, k1, ref);
        // Hamilton's equations of H2 = (px^2+py^2)/2 + (h^2+k1) x^2/2 - k1 y^2/2 + h x pt/beta + pt^2/(2
        // (beta gamma)^2)
        auto rhs = [&](Vec6 const& z) -> Vec6 {
            return {z[1],      -(h * h + k1) * z[0] - h * ib * z[5], z[3],
                    k1 * z[2], h * ib * z[0] + ibg2 * z[5],          0.0};
        };
        for (int j = 0; j < 6; ++j) {
            Vec6 e{};
            e[j] = 1.0;
            Particle p = to_particle(e);
            b(p);
            // RK4, 2000 steps of 5e-4 m: error ~ (h_s^4 |K|^2 ...) L < 1e-14
            CHECK(max_abs_difference(to_vec(p), rk4(rhs, e, length, 2000)) < 1e-12);
        }
    }
}
