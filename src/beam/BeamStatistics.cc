// Beam statistics derived from moments: rms sizes, emittances, Twiss parameters, as a table row.
#include "beam/BeamStatistics.hh"

#include <cmath>

namespace gt {

BeamStatistics derive_statistics(BeamMoments const& m, ReferenceParticle const& ref)
{
    BeamStatistics s;
    s.alive = m.alive;
    s.kinetic_mev = ref.kinetic_mev;
    s.s = ref.s;
    for (int j = 0; j < 4; ++j) s.max_abs[j] = m.alive > 0 ? m.max_abs[j] : 0.0;
    if (m.alive == 0) return s;
    for (int a = 0; a < 6; ++a) {
        s.mean[a] = m.mean[a];
        s.sigma[a] = std::sqrt(m.cov[a][a]);
    }
    for (int p = 0; p < 3; ++p) {
        int const k = 2 * p;
        // rms emittance: the area of the 2x2 covariance, sqrt(<u^2><u'^2> - <u u'>^2).
        double const det = m.cov[k][k] * m.cov[k + 1][k + 1] - m.cov[k][k + 1] * m.cov[k][k + 1];
        double const eps = det > 0 ? std::sqrt(det) : 0.0;
        s.emittance[p] = eps;
        s.normalized_emittance[p] = p < 2 ? eps * ref.beta_gamma : eps;
        s.beta[p] = eps > 0 ? m.cov[k][k] / eps : 0.0;
        s.alpha[p] = eps > 0 ? -m.cov[k][k + 1] / eps : 0.0;
    }
    return s;
}

std::vector<std::pair<std::string, std::string>> statistics_columns()
{
    return {{"s", "m"},          {"element", "1"},      {"turn", "1"},          {"alive", "1"},
            {"mean_x", "m"},     {"mean_px", "1"},      {"mean_y", "m"},        {"mean_py", "1"},
            {"mean_t", "m"},     {"mean_pt", "1"},      {"sigma_x", "m"},       {"sigma_px", "1"},
            {"sigma_y", "m"},    {"sigma_py", "1"},     {"sigma_t", "m"},       {"sigma_pt", "1"},
            {"emittance_x", "m rad"}, {"emittance_y", "m rad"}, {"emittance_t", "m"},
            {"emittance_xn", "m rad"}, {"emittance_yn", "m rad"},
            {"beta_x", "m"},     {"beta_y", "m"},       {"beta_t", "m"},
            {"alpha_x", "1"},    {"alpha_y", "1"},      {"alpha_t", "1"},
            {"max_abs_x", "m"},  {"max_abs_y", "m"},    {"max_abs_t", "m"},     {"max_abs_pt", "1"},
            {"kinetic_energy", "MeV"}};
}

std::vector<double> statistics_row(BeamStatistics const& s)
{
    std::vector<double> r = {s.s, static_cast<double>(s.element), static_cast<double>(s.turn), s.alive};
    for (double v : s.mean) r.push_back(v);
    for (double v : s.sigma) r.push_back(v);
    for (double v : s.emittance) r.push_back(v);
    r.push_back(s.normalized_emittance[0]);
    r.push_back(s.normalized_emittance[1]);
    for (double v : s.beta) r.push_back(v);
    for (double v : s.alpha) r.push_back(v);
    for (double v : s.max_abs) r.push_back(v);
    r.push_back(s.kinetic_mev);
    return r;
}

}  // namespace gt
