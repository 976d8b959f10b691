// One run of a beamline deck with a detector beside its lattice (issue 27): the beam is tracked as in any
// beamline run; then the particles lost on apertures and collimators (and, when asked, the beam at the end
// of the line) become the detector's primaries at their global position, direction and energy (the
// survey, beam/Survey.hh), and the detector runs as in any detector run. One output file holds both parts.
#pragma once

#include <string>

#include "beam/Survey.hh"
#include "deck/Config.hh"
#include "run/BeamPrimaries.hh"
#include "run/BeamRun.hh"
#include "run/DetectorRun.hh"

namespace gt {

//! The detector deck of a joined run: the beamline deck's detector as a detector deck (kind = "detector"),
//! its volumes placed along the beamline (`s`) moved into the global frame, and `events` events of one
//! given primary each, of the beam's species.
DeckConfig detector_part(DeckConfig const& deck, Survey const& survey, std::uint64_t events);

//! Where the beam's energy went, summed over the primaries [MeV] (physics.showers: the detector's balance).
struct BeamEnergyBalance {
    double lost = 0;       //!< the lost particles' kinetic energy (the beam's, in double)
    double extracted = 0;  //!< the extracted particles' (when they are primaries)
    double primary = 0, deposited = 0, below_cut = 0, escaped = 0, step_limit = 0;  //!< the detector's
    double worst_event =
        0;  //!< the largest |beam energy - (deposited + below cut + escaped + step limit)| of one event
    bool recorded = false;  //!< physics.showers: the detector recorded its balance
};
BeamEnergyBalance beam_energy_balance(BeamPrimaries const& primaries, DetectorRunResult const& detector);

//! What a joined run produced (tests look at it).
struct BeamDetectorResult {
    BeamPrimaries primaries;
    DetectorRunResult detector;
    BeamEnergyBalance balance;
};

//! The checkpoint of a joined run's detector part (beside the beam part's <output>.ckpt).
std::string detector_checkpoint_path(std::string const& output_path);

//! `gtrack run` for a beamline deck with a detector: the beam part (run_beamline's stages), the detector
//! part before the file is committed, the summary with the energy balance. Resuming (options.resume) goes
//! on with the beam part from its checkpoint, or (once the beam part is done) with the detector part from
//! its own, the beam part being tracked again (the same bits). Under MPI every rank runs it: the beam part on
//! its particles, the detector part on its events, the file that of one process. Returns the exit status.
int run_beam_detector(DeckConfig const& deck, RunOptions const& options,
                      BeamDetectorResult* result = nullptr);

//! `gtrack validate` for such a deck: the beam part on the CPU, then the detector part on the CPU and
//! on the GPU from those primaries, compared bit for bit (validate_detector).
int validate_beam_detector(DeckConfig const& deck, std::string const& report_path);

}  // namespace gt
