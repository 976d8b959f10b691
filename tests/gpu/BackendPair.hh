// A beamline deck tracked on the CPU and the GPU backend side by side, with a statistics point at
// every slice: the GPU tests that compare the two point by point advance `cpu_tracker` and
// `gpu_tracker` together.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "beam/Lattice.hh"
#include "deck/DeckReader.hh"
#include "kernels/beam/BeamKernels.hh"
#include "run/BeamRun.hh"
#include "run/BeamTracker.hh"

namespace gt::test {

//! `deck_path` (relative to the source tree) with `overrides`, its statistics at every slice.
inline DeckConfig every_slice_deck(std::string const& deck_path, std::vector<std::string> const& overrides)
{
    DeckConfig deck = read_deck(std::string(GTRACK_SOURCE_DIR) + "/" + deck_path, overrides);
    deck.output.stats = StatsWhere::every_slice;
    return deck;
}

struct BackendPair {
    DeckConfig deck;
    Lattice lattice;
    std::unique_ptr<BeamKernels> cpu, gpu;
    ParticleState cpu_beam, gpu_beam;
    BeamTracker cpu_tracker, gpu_tracker;

    BackendPair(std::string const& deck_path, std::vector<std::string> const& overrides)
        : deck(every_slice_deck(deck_path, overrides)),
          lattice(build_lattice(deck, initial_reference(deck))),
          cpu(make_cpu_beam_kernels()),
          gpu(make_cuda_beam_kernels()),
          cpu_beam(beam_for(deck, lattice, *cpu)),
          gpu_beam(beam_for(deck, lattice, *gpu)),
          cpu_tracker(lattice, deck.output, deck.lattice.turns, *cpu, cpu_beam.view()),
          gpu_tracker(lattice, deck.output, deck.lattice.turns, *gpu, gpu_beam.view())
    {
    }

  private:
    //! The deck's initial beam on `kernels`, then the lattice's table on them (as `gtrack run` does).
    static ParticleState beam_for(DeckConfig const& deck, Lattice const& lattice, BeamKernels& kernels)
    {
        ParticleState beam = initial_beam(deck, kernels);
        kernels.set_elements(lattice.elements, *lattice.field_data);
        return beam;
    }
};

}  // namespace gt::test
