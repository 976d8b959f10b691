// From the deck's [beam] to a device-ready sampler: the 6x6 second-moment matrix and its Cholesky factor.
#pragma once

#include <array>

#include "deck/Config.hh"
#include "kernels/beam/BeamSampler.hh"
#include "kernels/core/ReferenceParticle.hh"

namespace gt {

using Matrix6 = std::array<std::array<double, 6>, 6>;

//! Sigma of (x, px, y, py, t, pt) from Twiss parameters per plane (Sigma_x = eps [[beta, -alpha],
//! [-alpha, gamma]]) and the longitudinal rms values with chirp (<t pt> = chirp sigma_t^2), or the
//! full matrix when the deck gave one.
Matrix6 beam_sigma_matrix(BeamConfig const& beam);

//! Lower-triangular L with L L^T = sigma. Zero-variance directions (a cold plane) give zero columns;
//! a matrix that is not positive semi-definite throws a DeckError located at the beam section.
Matrix6 cholesky_lower(Matrix6 const& sigma, BeamConfig const& beam);

//! The sampler for the deck's distribution (not "file").
BeamSampler make_beam_sampler(BeamConfig const& beam, std::uint64_t seed);

//! The reference particle at the entrance: from the deck, or from the particle file (which must agree
//! with the deck's species and energy).
ReferenceParticle initial_reference(DeckConfig const& deck);

}  // namespace gt
