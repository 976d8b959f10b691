// The joined beamline-detector run (run/BeamDetectorRun.hh).
#include "run/BeamDetectorRun.hh"

#include <array>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <stdexcept>

#include <unistd.h>

#include <fmt/format.h>

#include "detector/GeometryBuilder.hh"
#include "io/OutputFile.hh"
#include "kernels/cpu/Executor.hh"
#include "kernels/detector/EventEnergy.hh"
#include "parallel/Communicator.hh"
#include "parallel/OrderedWrites.hh"
#include "run/CheckpointHeader.hh"
#include "run/StopRequest.hh"

namespace gt {

namespace {

//! The rotation angles (about x, then y, then z, active: R = Rz Ry Rx, GeometryBuilder's rotation_matrix)
//! of the row-major matrix r.
std::array<double, 3> rotation_angles(double const* r)
{
    double const cy = std::sqrt(r[0] * r[0] + r[3] * r[3]);
    if (cy < 1e-12)  // y = +-90 deg: only x - z (or x + z) is defined; put it all in x
        return {std::atan2(-r[5], r[4]), std::atan2(-r[6], cy), 0.0};
    return {std::atan2(r[7], r[8]), std::atan2(-r[6], cy), std::atan2(r[3], r[0])};
}

//! A volume placed at s along the beamline, moved into the global frame: position = the frame's point at
//! (x, y, dz), rotation = the frame's axes times the volume's own rotation.
void place_along(VolumeConfig& v, Survey const& survey)
{
    SurveyFrame const f = survey.at(*v.s);
    Vec3 const p = f.point(Vec3{v.position[0], v.position[1], v.position[2]});
    v.position = {p.x, p.y, p.z};
    double local[9];
    rotation_matrix(v.rotation[0], v.rotation[1], v.rotation[2], local);
    bool const identity = f.axes[0].x == 1.0 && f.axes[1].y == 1.0 && f.axes[2].z == 1.0;
    if (!identity) {
        double global[9];
        for (int i = 0; i < 3; ++i)
            for (int j = 0; j < 3; ++j)
                global[3 * i + j] =
                    f.axes[0][i] * local[j] + f.axes[1][i] * local[3 + j] + f.axes[2][i] * local[6 + j];
        std::array<double, 3> const a = rotation_angles(global);
        v.rotation = a;
    }
    v.s.reset();
}

}  // namespace

DeckConfig detector_part(DeckConfig const& deck, Survey const& survey, std::uint64_t events)
{
    DeckConfig d = deck;
    d.run.kind = "detector";
    GunConfig& gun = d.detector.gun;
    gun.particle = deck.beam.species.name;
    gun.energy = deck.beam.kinetic_energy_mev;  // each primary's own energy is given
    gun.events = events;
    gun.per_event = 1;
    for (VolumeConfig& v : d.detector.volumes)
        if (v.s) place_along(v, survey);
    return d;
}

std::string detector_checkpoint_path(std::string const& output_path)
{
    return checkpoint_path_for(output_path + ".detector");
}

BeamEnergyBalance beam_energy_balance(BeamPrimaries const& primaries, DetectorRunResult const& detector)
{
    BeamEnergyBalance b;
    b.lost = primaries.lost_energy;
    b.extracted = primaries.extracted_energy;
    // Every event's balance is on every rank (run/DetectorRun.cc), the beam's energies of this rank's
    // events only: the sums run over every event in order, the worst event is the largest over ranks.
    std::size_t const events = detector.event_energy.size() / k_num_energy_categories;
    b.recorded = events == primaries.events && events > 0;
    if (!b.recorded) return b;
    for (std::size_t e = 0; e < events; ++e) {
        double const* c = &detector.event_energy[e * k_num_energy_categories];
        b.primary += c[k_energy_primary];
        b.deposited += c[k_energy_deposited];
        b.below_cut += c[k_energy_below_cut];
        b.escaped += c[k_energy_escaped];
        b.step_limit += c[k_energy_lost];
    }
    for (std::size_t i = 0; i < primaries.primaries.size(); ++i) {
        double const* c = &detector.event_energy[(primaries.first_event + i) * k_num_energy_categories];
        double const out =
            c[k_energy_deposited] + c[k_energy_below_cut] + c[k_energy_escaped] + c[k_energy_lost];
        b.worst_event = std::max(b.worst_event, std::abs(primaries.primaries[i].energy - out));
    }
    parallel::Communicator::world().max_in_place(std::span<double>(&b.worst_event, 1));
    return b;
}

namespace {

//! /primaries (collective: every rank's rows, rank 0 writes them in the global order) and /beam_detector.
//! `file` is rank 0's, null elsewhere.
void write_joined_part(OutputFile* file, DeckConfig const& deck, BeamDetectorResult const& r)
{
    Table const parts[2] = {r.primaries.lost_rows, r.primaries.extracted_rows};
    parallel::write_table_parts_in_rank_order(file, "primaries", parts);
    if (!file) return;
    OutputFile& out = *file;
    out.create_group("beam_detector");
    out.set_attribute("beam_detector", "lost", r.primaries.lost);
    out.set_attribute("beam_detector", "extracted", r.primaries.events - r.primaries.lost);
    out.set_attribute("beam_detector", "weight", r.primaries.weight);
    out.set_attribute("beam_detector", "lost_energy", r.primaries.lost_energy);
    out.set_attribute("beam_detector", "extracted_energy", r.primaries.extracted_energy);
    out.set_attribute("beam_detector", "particle", deck.beam.species.name);
}

void print_balance(BeamDetectorResult const& r)
{
    BeamPrimaries const& p = r.primaries;
    std::printf(
        "beam into detector: %llu lost (%.6g MeV) and %llu extracted (%.6g MeV) macroparticles as "
        "primaries, %.6g particles each\n",
        static_cast<unsigned long long>(p.lost), p.lost_energy,
        static_cast<unsigned long long>(p.events - p.lost), p.extracted_energy, p.weight);
    BeamEnergyBalance const& b = r.balance;
    if (!b.recorded) {
        if (p.events > 0) std::printf("  energy balance: recorded with [physics] showers = true only\n");
        return;
    }
    double const beam = b.lost + b.extracted;
    double const out = b.deposited + b.below_cut + b.escaped + b.step_limit;
    std::printf(
        "  energy: beam %.9g MeV = deposited %.9g + below cuts %.9g + escaped %.9g + step limit %.9g "
        "(difference %.3g MeV; worst event %.3g MeV)\n",
        beam, b.deposited, b.below_cut, b.escaped, b.step_limit, beam - out, b.worst_event);
    std::printf("  per bunch: beam %.6g J, deposited %.6g J\n", beam * p.weight * 1e6 * constants::e_charge,
                b.deposited * p.weight * 1e6 * constants::e_charge);
}

}  // namespace

int run_beam_detector(DeckConfig const& deck, RunOptions const& options, BeamDetectorResult* result)
{
    // Under MPI every rank runs both parts: the beam part on its share of the particles (as any beamline
    // run), the detector part on its share of the events (as any detector run), the primaries handed from
    // one to the other by beam_primaries. Rank 0 alone prints and holds the file.
    parallel::Communicator const& world = parallel::Communicator::world();
    bool const quiet = options.quiet || !world.is_root();
    std::string const path = options.output.empty() ? deck.output.file : options.output;
    BeamDetectorResult joined;
    bool ran = false;
    RunOptions beam = options;
    beam.before_commit = [&](BeamRunEnd const& end) -> int {
        Survey const survey(end.lattice);
        joined.primaries = beam_primaries(deck, end.lattice, survey, end.kernels, end.particles, 0);
        DeckConfig const cfg = detector_part(deck, survey, joined.primaries.events);
        DetectorRunOptions det;
        det.backend = end.kernels.memory() == MemSpace::device ? "gpu" : "cpu";
        det.output = end.path;
        det.quiet = quiet;
        det.threads = options.threads;
        det.profile = false;  // --profile: the beam part's /profile (one group of that name per file)
        det.command_line = options.command_line;
        det.resume = options.resume.empty() ? "" : "auto";
        det.primaries = &joined.primaries.primaries;
        det.joined = true;
        det.into = end.out;
        det.checkpoint = detector_checkpoint_path(path);
        joined.detector = run_detector_deck(cfg, det);
        if (!joined.detector.stopped_by.empty()) {
            if (world.is_root())
                std::fprintf(stderr,
                             "gtrack: stopped by %s in the detector part after %llu step iterations; %s was "
                             "not written. Checkpoint: %s. Resume with the same command and --resume auto "
                             "(exit status %d)\n",
                             joined.detector.stopped_by.c_str(),
                             static_cast<unsigned long long>(joined.detector.iterations), path.c_str(),
                             joined.detector.checkpoint.c_str(), k_exit_stopped);
            return k_exit_stopped;
        }
        joined.balance = beam_energy_balance(joined.primaries, joined.detector);
        write_joined_part(end.out, deck, joined);
        ran = true;
        if (!quiet) {
            print_detector_summary(cfg, joined.detector);
            print_balance(joined);
        }
        return 0;
    };
    // The beam part goes on from its checkpoint when asked to; a detector checkpoint alone means the beam
    // part was done: it is tracked again from the start (the same bits).
    if (!options.resume.empty() && options.resume != "auto") beam.resume = "auto";
    int const status = run_beamline(deck, beam);
    if (status != 0 || !ran) return status;
    std::error_code ignored;
    if (world.is_root()) std::filesystem::remove(detector_checkpoint_path(path), ignored);
    if (result) *result = std::move(joined);
    return 0;
}

int validate_beam_detector(DeckConfig const& deck, std::string const& report_path)
{
    // The beam part on the CPU (gtrack validate compares beam parts on their own), its primaries then.
    RunOptions beam;
    beam.backend = "cpu";
    beam.quiet = true;
    BeamPrimaries primaries;
    DeckConfig cfg;
    beam.before_commit = [&](BeamRunEnd const& end) -> int {
        Survey const survey(end.lattice);
        primaries = beam_primaries(deck, end.lattice, survey, end.kernels, end.particles, 0);
        cfg = detector_part(deck, survey, primaries.events);
        return 1;  // nothing is written
    };
    std::string const scratch = (std::filesystem::temp_directory_path() /
                                 fmt::format("gtrack-validate-{}.h5", static_cast<long long>(::getpid())))
                                    .string();
    beam.output = scratch;
    run_beamline(deck, beam);
    return validate_detector(cfg, report_path, &primaries.primaries);
}

}  // namespace gt
