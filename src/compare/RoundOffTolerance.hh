// validate's default tolerance where bitwise agreement is impossible: after space-charge kicks, whose
// FFT (FFTW on the CPU, cuFFT on the GPU) rounds differently on the two backends. docs/validation.md,
// "Default tolerances", derives it; deterministic stages (before the first kick) stay bitwise.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "deck/Config.hh"

namespace gt {

//! tau(K) = safety * K * per_kick: the largest difference, as a fraction of the beam's rms size in
//! each coordinate, that K kicks of a correct solver can leave between the backends.
struct RoundOffTolerance {
    double per_kick = 0;    //!< relative field difference of one kick: eps log2(M) (+ eps sqrt(N) for
                            //!< non-deterministic deposition)
    double safety = 0;      //!< amplification along the line, with margin (measured: docs/validation.md)
    double fft_points = 0;  //!< M, points of the doubled FFT grid
    //! Deterministic deposition rounds each stencil weight to 2^-32 of a macroparticle, and the gather
    //! uses the same rounded weights: the smallest position difference can move one weight by that
    //! quantum, which changes the particle's field by up to W^3 2^-32 of the largest field (W: the
    //! stencil width), a jump, not a growth. Relative to a kick's largest momentum change, with a
    //! margin of 4 (KickRoundOff adds it per kick; 0 for the other depositions).
    double per_kick_quantized = 0;

    double tau(std::int64_t kicks) const { return safety * double(kicks) * per_kick; }
    //! One line for the report: the formula and its numbers.
    std::string describe() const;
};

//! The model for a deck's [space_charge] and beam size; per_kick == 0 when space charge is off.
RoundOffTolerance space_charge_round_off(DeckConfig const& deck);

//! The space-charge kicks applied so far on the reference backend, and the per-particle round-off
//! bound they imply (docs/validation.md, "Default tolerances"). A kick's FFT rounds its field to
//! about per_kick of the field's largest value, so it changes a momentum by at most per_kick times
//! the largest momentum change of that kick, max_i |dp_i|: the round-off follows the kick, not the
//! beam's spread (a cold beam's rms pt can be far below its kicks). The following maps carry a
//! momentum difference into the positions: in a drift by (s - s_kick) per unit momentum for x, y and
//! (through the dispersion of bends, bounded the same way) the pt kicks into x and y too, and
//! (s - s_kick) / (beta gamma)^2 for t; focusing turns it back, which the bound leaves out (it only
//! loosens it). The differences then change later kicks (the field depends on the positions): the
//! safety factor, measured on the family of decks in tests/ValidationFamilyTest.cc, covers that.
class KickRoundOff {
  public:
    //! A kick applied after the stage at `s` [m] (the kick lies between it and the next stage), whose
    //! largest momentum changes over the particles were `max_dp` = {px, py, pt}.
    void add_kick(double s, double const (&max_dp)[3]);
    std::size_t kicks() const { return s_.size(); }
    //! |diff| bound of each coordinate x, px, y, py, t, pt [m, 1, m, 1, m, 1] at `s`: safety x per_kick
    //! x (sum over the kicks of the kick's size carried to s). All 0 before the first kick.
    void bounds(double s, RoundOffTolerance const& model, double beta_gamma, double (&out)[6]) const;

  private:
    std::vector<double> s_;
    std::vector<double> dp_;  //!< px, py, pt per kick
};

}  // namespace gt
