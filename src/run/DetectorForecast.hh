// `gtrack forecast` of a detector deck: its step count is known only by tracking, so a pilot run tracks
// the deck's first events on the host, its counts are scaled to all events (events are independent and
// drawn per primary id, ParticleGun.hh) and priced with the detector loop's calibrated costs.
#pragma once

#include <cstdint>
#include <map>
#include <string>

#include "deck/Config.hh"
#include "kernels/core/KernelTimer.hh"
#include "perf/Calibration.hh"
#include "perf/Forecast.hh"

namespace gt {

struct DetectorRunResult;

//! What drives a detector run's time: counted by a run, or scaled from a pilot's counts.
struct DetectorWork {
    double steps = 0;       //!< track-steps
    double substeps = 0;    //!< field substeps (one per step where there is no field)
    double iterations = 0;  //!< step iterations of the slot walk (the GPU's loop, and the CPU's for showers)
    double secondaries = 0;
    double hits = 0;
};

//! What a detector run counted: its steps, substeps, iterations, secondaries and hits.
DetectorWork work_of(DetectorRunResult const& r);

//! The pilot: the first `events` of the deck's `of_events`, tracked on the host's CPU with the deck's loop
//! and slot count (the track loop counts the iterations as the slot walk, the GPU's loop, runs them).
struct DetectorPilot {
    std::uint64_t events = 0, of_events = 0;
    double seconds = 0;  //!< [s] wall time of the pilot (its set-up included)
    std::uint64_t slots = 0;
    DetectorWork counted;  //!< the pilot's own counts
};

//! The pilot's size: k = min(N, max(8, ceil(N / 20))) of N events, 5% of the run with a floor of 8 events,
//! so that the mean over events of a spread spectrum (em_calorimeter's 1-10 GeV) is known to ~15%.
std::uint64_t pilot_events(std::uint64_t events);

//! Tracks the pilot of a detector deck (run.kind = "detector").
DetectorPilot run_detector_pilot(DeckConfig const& deck);

//! Tracks the pilot of a beamline deck with a detector beside its lattice (detector.along_beamline): the
//! beam's first k = pilot_events(N) of its N macroparticles on the host (macroparticle i is drawn from its
//! own stream whatever N is), then the detector part on the particles they lose; k doubles until they lose
//! at least 32 or k is N. `events` and `of_events` count macroparticles: the losses, and so the detector's
//! work, scale with them. The counts are the detector part's (the beam part is forecast as any beamline
//! deck's).
DetectorPilot run_beam_detector_pilot(DeckConfig const& deck);

//! The pilot's counts scaled to all events. Steps, substeps, secondaries and hits scale with the events;
//! the iterations are the pilot's where the events' tracks side by side (its steps / iterations scaled)
//! fit in the slots, else steps / slots with the slots full plus the pilot's own (filling and draining).
DetectorWork extrapolate(DetectorPilot const& pilot);

//! Whether `deck` runs the slot walk on this side (the GPU always; the CPU for showers or cpu_loop = slots).
bool walks_slots(DeckConfig const& deck, bool gpu);

//! Prices `work` of `deck` on one side with its detector costs (missing_detector_key() must be "").
RunForecast price_detector_work(DeckConfig const& deck, DetectorWork const& work, Ceilings const& c,
                                bool gpu);

//! [s] the kernels of a detector run that its profile measures (all its timed stages but coll.*).
double timed_seconds(std::map<std::string, KernelRecord> const& records);

}  // namespace gt
