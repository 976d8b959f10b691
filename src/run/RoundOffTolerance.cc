// The round-off model behind validate's default tolerance for space-charge stages.
#include "run/RoundOffTolerance.hh"

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
        "after K space-charge kicks, quantities without a rule: |diff| <= tau(K) x rms of the coordinate "
        "(statistics: rel 4 tau(K)), tau(K) = {:.3g} x K x {:.3g} (eps log2 M, M = {:.0f} FFT points)",
        safety, per_kick, fft_points);
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
    return r;
}

}  // namespace gt
