// `gtrack run` for a beamline deck: the beam, the lattice, the backend, the output file, the summary.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "beam/BeamSetup.hh"
#include "beam/Lattice.hh"
#include "deck/Config.hh"
#include "kernels/beam/BeamKernels.hh"
#include "kernels/core/ParticleState.hh"
#include "parallel/ParticleDecomposition.hh"
#include "run/BeamTracker.hh"

namespace gt {

class OutputFile;

//! What a beamline run hands to a stage after its own output is written and before the file is committed
//! (the joined beamline-detector run, run/BeamDetectorRun.hh).
struct BeamRunEnd {
    DeckConfig const& deck;
    Lattice const& lattice;
    BeamKernels& kernels;
    ParticleView
        particles;    //!< this rank's beam after the last entry (in kernels' memory), lost ones included
    OutputFile* out;  //!< rank 0's file, open
    std::string const& path;  //!< its final name
};

struct RunOptions {
    std::string backend;      //!< "", "auto", "cpu" or "gpu" ("": as the deck says)
    std::string output;       //!< "": as the deck says
    int threads = 0;          //!< CPU threads (0: OpenMP's default)
    bool quiet = false;       //!< no progress line, no notes, only errors
    bool timing = false;      //!< print the per-kernel timing table (machine-readable)
    std::string resume;       //!< a checkpoint to go on from; "auto": the run's own if it exists; "": none
    bool profile = false;     //!< print the profile table and write /profile (src/perf/Profile.hh)
    std::string calibration;  //!< the calibration file for the profile ("": the default location)
    std::string command_line;
    //! A stage run after the beam's output is written, before the file is committed: 0 to commit, otherwise
    //! the run's exit status (k_exit_stopped: it stopped at a signal; the file is not committed).
    std::function<int(BeamRunEnd const&)> before_commit;
};

//! The backend the options and deck ask for: "auto" picks the GPU when one is present and otherwise
//! the CPU (saying so unless quiet); "gpu" without a GPU throws.
std::unique_ptr<BeamKernels> select_beam_backend(DeckConfig const& deck, RunOptions const& options);

//! The initial beam in `kernels`' memory: sampled there, or read from the deck's openPMD file.
ParticleState initial_beam(DeckConfig const& deck, BeamKernels& kernels);
//! The particles of `share` of it (ids share.first ...): the same particles whatever the rank count.
ParticleState initial_beam(DeckConfig const& deck, BeamKernels& kernels, parallel::ParticleShare share);

//! The reference particle at output point `p` (after its table entry, in its turn; entry -1: the entrance).
ReferenceParticle reference_at(Lattice const& lattice, OutputPoint const& p);

//! Runs a beamline deck and writes its output file; returns the exit status.
int run_beamline(DeckConfig const& deck, RunOptions const& options);

}  // namespace gt
