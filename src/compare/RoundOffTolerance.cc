// The round-off model behind validate's default tolerance for space-charge stages.
#include "compare/RoundOffTolerance.hh"

#include <algorithm>
#include <cmath>
#include <limits>

#include <fmt/format.h>

namespace gt {

namespace {
//! Measured growth of a round-off difference along the example decks, times a margin
//! (docs/validation.md, "Default tolerances"; tests/ValidationRoundOffTest.cc).
constexpr double k_safety = 1000;
}  // namespace

std::string RoundOffTolerance::describe() const
{
    return fmt::format(
        "after K space-charge kicks, coordinates without a rule: |diff| <= {:.3g} x {:.3g} (eps log2 M, M = "
        "{:.0f} FFT points) x the sum of the kicks' largest momentum changes, carried to the stage "
        "(x, y: times the distance since the kick; t: also / (beta gamma)^2); statistics: rel 4 tau_k, "
        "tau_k = max({:.3g} x K x {:.3g}, bound_k / rms_k)",
        safety, per_kick, fft_points, safety, per_kick);
}

RoundOffTolerance space_charge_round_off(DeckConfig const& deck)
{
    RoundOffTolerance r;
    SpaceChargeConfig const& sc = deck.space_charge;
    if (!sc.enabled) return r;
    double const eps = std::numeric_limits<double>::epsilon();
    // Hockney's doubled grid: 2n per axis in 3D; the 2.5D model transforms the transverse plane only.
    double const nx = 2.0 * sc.grid[0], ny = 2.0 * sc.grid[1], nz = 2.0 * sc.grid[2];
    r.fft_points = sc.solver == "2.5d" ? nx * ny : nx * ny * nz;
    // An FFT of M points computes each output with log2(M) rounded butterflies: its error is bounded
    // by about eps log2(M) of the largest value (Gentleman and Sande 1966; Higham, Accuracy and
    // Stability of Numerical Algorithms, 2nd ed., section 24.1). FFTW and cuFFT order the butterflies
    // differently, so their results differ by up to that much.
    r.per_kick = eps * std::log2(r.fft_points);
    // Atomic or aggregated deposition adds node charges in a run-dependent order: up to eps per
    // addition, about eps sqrt(N) in all (random walk of the rounding errors).
    if (sc.deposition != "deterministic") r.per_kick += eps * std::sqrt(double(deck.beam.macroparticles));
    r.safety = k_safety;
    if (sc.deposition == "deterministic") {
        double const w = sc.shape == "tsc" ? 3.0 : 2.0;
        r.per_kick_quantized = 4.0 * w * w * w * 0x1p-32;
    }
    return r;
}

void KickRoundOff::add_kick(double s, double const (&max_dp)[3])
{
    s_.push_back(s);
    dp_.insert(dp_.end(), max_dp, max_dp + 3);
}

void KickRoundOff::bounds(double s, RoundOffTolerance const& model, double beta_gamma, double (&out)[6]) const
{
    // Per kick: the FFT term from the first kick on; the fixed-point quantum from the second on (the
    // backends' positions are the same bits until the first kick, so no weight can round otherwise).
    double sum[6] = {};
    double const longitudinal = 1.0 / (beta_gamma * beta_gamma);  // d t / d pt per metre of drift
    for (std::size_t j = 0; j < s_.size(); ++j) {
        double const scale = model.safety * model.per_kick + (j > 0 ? model.per_kick_quantized : 0.0);
        double const px = scale * dp_[3 * j], py = scale * dp_[3 * j + 1], pt = scale * dp_[3 * j + 2];
        double const along = std::max(0.0, s - s_[j]);
        sum[0] += (px + pt) * along;
        sum[1] += px;
        sum[2] += (py + pt) * along;
        sum[3] += py;
        sum[4] += pt * along * longitudinal;
        sum[5] += pt;
    }
    for (int k = 0; k < 6; ++k) out[k] = sum[k];
}

}  // namespace gt
