// `gtrack validate` with its backends given: the command uses the CPU and the GPU; tests pass a second,
// perturbed CPU backend so that the comparison and its exit status are tested without a GPU.
#pragma once

#include "app/Commands.hh"
#include "deck/Config.hh"
#include "kernels/beam/BeamKernels.hh"

namespace gt {

//! Validates `deck` with `candidate` against `reference`, prints the summary, writes the report;
//! returns 0 when they agree within tolerance, 1 otherwise. Throws on bad options or decks.
int validate_with_backends(DeckConfig const& deck, ValidateOptions const& options, BeamKernels& reference,
                           BeamKernels& candidate);

}  // namespace gt
