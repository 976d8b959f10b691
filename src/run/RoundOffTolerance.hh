// validate's default tolerance where bitwise agreement is impossible: after space-charge kicks, whose
// FFT (FFTW on the CPU, cuFFT on the GPU) rounds differently on the two backends. docs/validation.md,
// "Default tolerances", derives it; deterministic stages (before the first kick) stay bitwise.
#pragma once

#include <cstdint>
#include <string>

#include "deck/Config.hh"

namespace gt {

//! tau(K) = safety * K * per_kick: the largest difference, as a fraction of the beam's rms size in
//! each coordinate, that K kicks of a correct solver can leave between the backends.
struct RoundOffTolerance {
    double per_kick = 0;  //!< relative field difference of one kick: eps log2(M) (+ eps sqrt(N) for non-deterministic deposition)
    double safety = 0;    //!< amplification along the line, with margin (measured: docs/validation.md)
    double fft_points = 0;  //!< M, points of the doubled FFT grid

    double tau(std::int64_t kicks) const { return safety * double(kicks) * per_kick; }
    //! One line for the report: the formula and its numbers.
    std::string describe() const;
};

//! The model for a deck's [space_charge] and beam size; per_kick == 0 when space charge is off.
RoundOffTolerance space_charge_round_off(DeckConfig const& deck);

}  // namespace gt
