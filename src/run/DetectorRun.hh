// The entry points of detector decks for the command line: run and check.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "deck/Config.hh"
#include "kernels/core/KernelTimer.hh"
#include "kernels/detector/Hit.hh"
#include "kernels/detector/StepActions.hh"
#include "perf/Profile.hh"

namespace gt {

struct StripOutcome;  // detector/StripRun.hh
struct Primary;       // kernels/detector/ParticleGun.hh
struct HepMcEvents;   // detector/HepMcEvents.hh
class OutputFile;

struct DetectorRunOptions {
    std::string backend;  //!< "cpu", "gpu", or empty: as the deck says (auto: the GPU when there is one)
    std::string output;   //!< empty: as the deck says
    bool write_output = true;
    bool quiet = false;
    bool timing = false;      //!< print the per-kernel times, machine-readable
    bool profile = false;     //!< print the profile table and write /profile (src/perf/Profile.hh)
    std::string calibration;  //!< the calibration file for the profile ("": the default location)
    int threads = 0;
    std::string command_line;
    std::string resume;  //!< a checkpoint to go on from, "auto" (<output>.ckpt if there is one), or empty
    //! Given primaries instead of the gun's draws: a beamline's losses (run/BeamDetectorRun.hh). Those of
    //! this rank's events only (all of the deck's gun.events x gun.per_event on one process): primary
    //! first + i is (*primaries)[i], first the first primary of the rank's share (parallel::even_share)
    std::vector<Primary> const* primaries = nullptr;
    //! Given primaries whose number varies from event to event (an event file's, run/EventFileRun.hh): the
    //! primaries before each event of the whole run (gun.events + 1 entries); null: gun.per_event an event
    std::vector<std::uint64_t> const* event_starts = nullptr;
    //! The names of the given primaries' particle indices (an event file's species); null: the indices are
    //! those of the particle table as built
    std::vector<std::string> const* primary_species = nullptr;
    //! The event file the primaries came from: its events' numbers and weights and the particles not
    //! transported go into the output file (/event_file)
    HepMcEvents const* event_file = nullptr;
    //! The detector part of a joined run (run/BeamDetectorRun.hh): its tables go into `into`, the joined
    //! run's open file (rank 0's; null on the other ranks), without provenance and without committing it
    bool joined = false;
    OutputFile* into = nullptr;
    std::string checkpoint;  //!< where checkpoints go ("": <output>.ckpt)
    //! Record per event the true path length of charged and neutral shower particles in sensitive
    //! volumes (DetectorRunResult::event_track_length; physics.showers only; not written to the file)
    bool track_lengths = false;
};

//! What a run produced, for callers that look at it (tests, the benchmark).
struct DetectorRunResult {
    std::vector<Hit> hits;                  //!< sorted by HitOrder (under MPI: this rank's events')
    std::uint64_t total_hits = 0;           //!< hits of every rank
    std::vector<double> tallies;            //!< [MeV] per logical volume
    std::vector<std::string> volume_names;  //!< by logical volume
    std::array<std::uint64_t, k_num_counters> counters{};
    std::uint64_t iterations = 0;
    int hit_buffer_growths = 0;  //!< times the hit buffer was doubled (hits are never dropped)
    double seconds = 0;          //!< wall time of the stepping loop [s]
    //! physics.showers: per event, the k_num_energy_categories EnergyCategory sums [MeV] (every rank's
    //! events)
    std::vector<double> event_energy;
    //! with options.track_lengths: per event, charged and neutral true path lengths in sensitive
    //! volumes [m] (k_num_length_categories per event, kernels/detector/EventTrackLength.hh)
    std::vector<double> event_track_length;
    std::uint64_t secondary_stack_peak = 0;  //!< most secondaries waiting for a slot at once (of any rank)
    std::string backend;
    KernelTimer timer;
    std::string stopped_by;            //!< the signal that stopped the run early ("": it ran to the end)
    std::uint64_t events_started = 0;  //!< stopped: events whose primaries had all started (all ranks)
    std::uint64_t next_iteration_tracks = 0;   //!< stopped inside a step iteration: its tracks (else 0)
    std::uint64_t next_iteration_tracked = 0;  //!< and those of them run to their end
    std::string checkpoint;                    //!< stopped: the checkpoint written
    std::optional<Profile> profile;            //!< with options.profile
    std::shared_ptr<StripOutcome> strips;      //!< [strips]: digis, clusters, reconstructed hits, quality
    std::shared_ptr<HepMcEvents const> event_file;  //!< [gun] file: the events read (run/EventFileRun.hh)
};

//! Runs a detector deck to completion and (unless options say not) writes its output file. A run
//! that writes its output checkpoints between step iterations (output.checkpoint_every, a stop
//! signal) and goes on from a checkpoint (options.resume), on one process or under MPI;
//! docs/checkpoint.md.
DetectorRunResult run_detector_deck(DeckConfig const& cfg, DetectorRunOptions const& options);

//! `gtrack run` for a detector deck: runs, writes, prints a summary; returns the exit status.
int run_detector(DeckConfig const& cfg, DetectorRunOptions const& options);

//! The detector part of an output file: hits, tallies, /detector's counters, the energy balance, strips and
//! profile (not provenance, not committed). Rank 0's file (null elsewhere); collective under MPI (hits).
void write_detector_part(OutputFile* file, DeckConfig const& cfg, DetectorRunResult const& r);

//! The summary `gtrack run` prints for a detector run (steps, ends, energy balance, tallies).
void print_detector_summary(DeckConfig const& cfg, DetectorRunResult const& r);

//! Rows of two sorted hit tables that are not identical_hits, plus the difference of their lengths;
//! `first` (when given) receives the first differing row.
std::size_t differing_hits(std::vector<Hit> const& a, std::vector<Hit> const& b,
                           std::size_t* first = nullptr);

//! `gtrack validate` for a detector deck: runs it on the CPU and on the GPU (no output files) and
//! compares hits bit for bit, tallies and counters; prints the per-kernel times of both and a
//! verdict (also written to report_path when given). Returns 0 when identical, 1 otherwise.
int validate_detector(DeckConfig const& cfg, std::string const& report_path,
                      std::vector<Primary> const* primaries = nullptr);

//! `gtrack check` for a detector deck: the geometry summary and any overlaps or protrusions found.
//! `problems` receives their number.
std::string describe_geometry(DeckConfig const& cfg, std::size_t* problems = nullptr);

}  // namespace gt
