// gtrack check DECK: read and check the deck, build its tables and print them; track nothing.
#include <cstdio>

#include <fmt/format.h>

#include "app/Commands.hh"
#include "beam/BeamSetup.hh"
#include "beam/Lattice.hh"
#include "beam/LatticeCompaction.hh"
#include "deck/DeckReader.hh"
#include "optics/PeriodicTwiss.hh"
#include "run/BeamDetectorRun.hh"
#include "run/BeamRun.hh"
#include "run/CollectiveSchedule.hh"
#include "run/DetectorRun.hh"
#include "run/SpaceChargeSchedule.hh"

namespace gt {

int check_command(CommandOptions const& options)
{
    DeckConfig const deck = read_deck(options.deck, options.overrides);
    if (deck.run.kind == "detector") {
        std::size_t problems = 0;
        std::fputs(describe_geometry(deck, &problems).c_str(), stdout);
        if (problems > 0) {
            std::printf("deck has geometry problems\n");
            return 1;
        }
        std::printf("deck OK\n");
        return 0;
    }
    BeamConfig const beam = optics::with_periodic_twiss(deck);  // [beam.twiss] periodic = true
    ReferenceParticle const ref = initial_reference(deck);
    Lattice const lattice = build_tracking_lattice(deck, ref);
    std::string text = fmt::format("deck {}: run '{}', seed {}\n", deck.path, deck.run.name, deck.run.seed);
    if (beam.distribution == "cathode")
        text += fmt::format(
            "beam: {} (m c^2 = {:.9g} MeV, q = {:g} e), at rest on the cathode; the coordinates there "
            "are normalized to p0 c = m c^2 (a reference of {:.9g} MeV kinetic)\n",
            beam.species.name, ref.mass_mev, ref.charge_e, ref.kinetic_mev);
    else
        text += fmt::format(
            "beam: {} (m c^2 = {:.9g} MeV, q = {:g} e), {:.9g} MeV kinetic, p c = {:.9g} MeV, "
            "gamma = {:.9g}, beta = {:.9g}\n",
            beam.species.name, ref.mass_mev, ref.charge_e, ref.kinetic_mev, ref.pc_mev, ref.gamma, ref.beta);
    text += fmt::format("      {} macroparticles, distribution {}{}, bunch charge {:g} C\n",
                        beam.macroparticles, beam.distribution,
                        beam.distribution == "file" ? " (" + beam.file + ")" : "", beam.bunch_charge);
    if (beam.distribution == "cathode") {
        CathodeConfig const& c = beam.cathode;
        text += fmt::format(
            "      emitted: {} spot, rms {:g} m; "
            "{} emission, {} {:g} s{}; MTE {:g} eV (thermal emittance {:.4g} m rad per m of rms spot)\n",
            c.spot, c.spot_rms, c.emission, c.emission == "flattop" ? "length" : "rms", c.emission_length,
            c.emission == "flattop" ? fmt::format(", rise {:g} s", c.emission_rise) : std::string(),
            c.mte * 1e6, std::sqrt(c.mte / ref.mass_mev));
    } else if (beam.distribution != "file") {
        Matrix6 const sigma = beam_sigma_matrix(beam);
        cholesky_lower(sigma, beam);  // throws where the matrix is not positive semi-definite
        text += "      rms x, px, y, py, t, pt:";
        for (int i = 0; i < 6; ++i) text += fmt::format(" {:.4g}", std::sqrt(sigma[i][i]));
        text += "\n";
    }
    text += describe(lattice);
    text += fmt::format(
        "turns: {}; output: {} (statistics {}, phase space at {})\n", deck.lattice.turns,
        options.output.empty() ? deck.output.file : options.output, describe(deck.output.stats),
        deck.output.phase_space.empty() ? std::string("nowhere")
                                        : fmt::format("{}", fmt::join(deck.output.phase_space, ", ")));
    if (!deck.scan.empty()) {
        text +=
            fmt::format("scan: {} points ({}; values checked, tables above for point 0):", deck.scan.size(),
                        deck.scan.mode_name());
        for (auto const& p : deck.scan.parameters)
            text += fmt::format(" {} = [{}]", p.key, fmt::join(p.labels, ", "));
        text += fmt::format("\n      list them with 'gtrack scan {} --list'\n", options.deck);
    }
    if (deck.space_charge.enabled) {
        SpaceChargeConfig const& sc = deck.space_charge;
        DeckConfig const sliced = with_space_charge_slices(deck);
        auto const kicks = space_charge_schedule(build_lattice(sliced, ref), sliced);
        text += fmt::format(
            "space charge: {}, grid {}x{}x{}, {} kicks per pass ({}), {} deposition, {} shape, sorted every "
            "{} "
            "kicks, margin {:g}{}\n",
            sc.solver == "2.5d" ? "2.5D" : "3D", sc.grid[0], sc.grid[1], sc.grid[2], kicks.size(),
            sc.kicks_per_element > 0 ? fmt::format("{} per element", sc.kicks_per_element)
                                     : fmt::format("{:g} per metre", sc.kicks_per_meter),
            sc.deposition, sc.shape, sc.sort_every, sc.margin,
            sc.truncate_sigma > 0 ? fmt::format(", grid over +-{:g} rms", sc.truncate_sigma) : std::string());
    }
    text += describe_collective(deck, ref);
    std::size_t problems = 0;
    if (deck.detector.along_beamline) {
        // The detector beside the lattice, its volumes placed by the survey (docs/physics.md, "Survey").
        Survey const survey(lattice);
        SurveyFrame const& end = survey.exit();
        text += fmt::format(
            "survey: the line ends at X = {:.6g} m, Y = {:.6g} m, Z = {:.6g} m heading ({:.6g}, "
            "{:.6g}, {:.6g})\n",
            end.position.x, end.position.y, end.position.z, end.axes[2].x, end.axes[2].y, end.axes[2].z);
        text += describe_geometry(detector_part(deck, survey, 1), &problems);
    }
    std::fputs(text.c_str(), stdout);
    if (problems > 0) {
        std::printf("deck has geometry problems\n");
        return 1;
    }
    std::printf("deck OK\n");
    return 0;
}

}  // namespace gt
