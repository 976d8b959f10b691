// gtrack optics DECK: closed orbit, tunes, chromaticities, Twiss parameters and dispersion from the
// deck's own element maps (src/optics/, docs/optics.md).
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <stdexcept>
#include <string>

#include <unistd.h>

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include "app/Commands.hh"
#include "app/OverrideOptions.hh"
#include "beam/Lattice.hh"
#include "deck/DeckReader.hh"
#include "optics/Optics.hh"
#include "optics/OpticsModel.hh"
#include "optics/OpticsOutput.hh"
#include "optics/PeriodicTwiss.hh"
#include "optics/RadiationIntegrals.hh"
#include "run/BeamRun.hh"

namespace gt {

CLI::App* add_optics_command(CLI::App& app, CommandOptions& o, OpticsCommandOptions& opt)
{
    CLI::App* cmd = app.add_subcommand(
        "optics", "closed orbit, tunes, chromaticities, Twiss and dispersion from the deck's element maps");
    cmd->add_option("deck", o.deck, "the TOML input deck")->required();
    add_override_options(*cmd, o.overrides, o.unset_keys, "override a deck key (repeatable)");
    cmd->add_option("-o,--output", o.output, "write /optics to this HDF5 file");
    cmd->add_option("--csv", opt.csv, "write the table as CSV");
    cmd->add_option("--plot", opt.plot,
                    "draw beta and dispersion along s over the element layout (.png, .pdf or .svg; as gtrack "
                    "plot of the -o file)");
    auto* ring = cmd->add_flag("--ring", opt.ring, "periodic solution (default when lattice.turns > 1)");
    cmd->add_flag("--line", opt.line, "a line from [beam.twiss] (default when lattice.turns = 1)")
        ->excludes(ring);
    cmd->add_option("--model", opt.model,
                    "4d: RF cavities' energy gain left out (MAD-X's TWISS; the default unless [lattice] "
                    "radiation is on); 6d: with RF and the radiation loss (synchronous phase, synchrotron "
                    "tune, damping of the one-turn map)")
        ->check(CLI::IsMember({"4d", "6d"}));
    cmd->add_option("--rows", opt.rows, "rows of the table printed (default 20; the files hold all)")
        ->check(CLI::PositiveNumber);
    return cmd;
}

namespace {

//! --plot FILE: the picture `gtrack plot` draws of /optics (scripts/gtrack_plot.py), from the -o file or a
//! temporary one, moved to FILE.
void plot_optics(optics::OpticsResult const& r, CommandOptions const& options, std::string const& file)
{
    namespace fs = std::filesystem;
    std::string format = fs::path(file).extension().string();
    if (!format.empty()) format.erase(0, 1);
    if (format != "png" && format != "pdf" && format != "svg")
        throw std::runtime_error("gtrack optics --plot: name a .png, .pdf or .svg file (got " + file + ")");
    fs::path const scratch =
        fs::temp_directory_path() / fs::path("gtrack-optics-plot-" + std::to_string(::getpid()));
    fs::create_directories(scratch);
    std::string h5 = options.output;
    if (h5.empty()) {
        h5 = (scratch / "optics.h5").string();
        optics::write_hdf5(r, h5, options.deck);
    }
    PlotOptions p;
    p.file = h5;
    p.output = scratch.string();
    p.format = format;
    int const rc = plot_command(p);
    fs::path const drawn = scratch / ("optics." + format);
    if (rc != 0 || !fs::exists(drawn)) {
        fs::remove_all(scratch);
        throw std::runtime_error("gtrack optics --plot: the plotting program failed (exit " +
                                 std::to_string(rc) + ")");
    }
    fs::copy_file(drawn, file, fs::copy_options::overwrite_existing);
    fs::remove_all(scratch);
    std::printf("wrote %s\n", file.c_str());
}

}  // namespace

int optics_command(CommandOptions const& options, OpticsCommandOptions const& opt)
{
    DeckConfig deck = read_deck(options.deck, options.overrides);
    if (deck.run.kind == "detector")
        throw std::runtime_error("gtrack optics: a detector deck has no lattice");
    ReferenceParticle const ref = initial_reference(deck);
    optics::OpticsOptions o;
    o.periodic = opt.ring || (!opt.line && deck.lattice.turns > 1);
    if (!o.periodic)
        deck.beam = optics::with_periodic_twiss(deck);  // a line from [beam.twiss] periodic = true
    // The tables of the model (4D without the RF's gain, or 6D with RF and radiation): OpticsModel.hh.
    optics::OpticsModel const model = optics::optics_model(deck, ref, opt.model, o.periodic);
    model.apply(o);
    optics::OpticsResult r = optics::compute_optics(deck, model.lattice, o);
    r.model_note = optics::model_note(r, model.rf_gain_left_out);
    // Thin bends (multipoles with angle) radiate nothing in gtrack's model and the integrals see sector bends
    // only: with any, they are not computed (no wrong U0 or emittance), and the note says why.
    std::size_t const thin_bends = static_cast<std::size_t>(std::count_if(
        model.lattice.elements.begin(), model.lattice.elements.end(),
        [](Element const& e) { return e.kind == ElementKind::multipole && e.multipole.angle != 0.0; }));
    if (r.periodic && thin_bends == 0)
        r.radiation = optics::radiation_integrals(deck, r, ref, &model.lattice);
    if (r.periodic && thin_bends > 0)
        r.model_note += fmt::format(
            "; radiation integrals not computed: {} thin bends (multipoles with angle), "
            "which radiate nothing in this model",
            thin_bends);
    std::printf("gtrack optics %s: %s (%s)\n", options.deck.c_str(), o.periodic ? "ring" : "line",
                opt.ring || opt.line ? "as asked" : "lattice.turns; --ring or --line to choose");
    std::fputs(optics::summary(r, static_cast<std::size_t>(opt.rows)).c_str(), stdout);
    if (!options.output.empty()) {
        optics::write_hdf5(r, options.output, options.deck);
        std::printf("wrote /optics to %s\n", options.output.c_str());
    }
    if (!opt.csv.empty()) {
        optics::write_csv(r, opt.csv);
        std::printf("wrote %s\n", opt.csv.c_str());
    }
    if (!opt.plot.empty()) plot_optics(r, options, opt.plot);
    return 0;
}

}  // namespace gt
