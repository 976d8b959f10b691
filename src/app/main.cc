// gtrack's entry point: the command line, and the one place where errors are printed.
#include <cstdio>
#include <exception>
#include <string>

#include <CLI/CLI.hpp>

#include "app/Commands.hh"
#include "app/VersionInfo.hh"
#include "deck/DeckError.hh"

namespace {

//! Options every deck-reading sub-command takes.
void add_deck_options(CLI::App& cmd, gt::CommandOptions& o)
{
    cmd.add_option("deck", o.deck, "the TOML input deck")->required();
    cmd.add_option("--set", o.overrides, "override a deck key: --set beam.kinetic_energy=\"300 MeV\" (repeatable)")
        ->allow_extra_args(false);
    cmd.add_option("-o,--output", o.output, "output HDF5 file (default: the deck's output.file)");
}

}  // namespace

int main(int argc, char** argv)
{
    gt::CommandOptions options;
    for (int i = 0; i < argc; ++i) options.command_line += (i ? " " : "") + std::string(argv[i]);

    CLI::App app{"gtrack: particle beams in lattices and particles in detectors, on GPUs and CPUs"};
    app.require_subcommand(0, 1);
    bool version = false;
    app.add_flag("--version", version, "print the version, build options, CUDA runtime and GPU, and exit");

    CLI::App* run = app.add_subcommand("run", "track the deck and write its output file");
    add_deck_options(*run, options);
    run->add_option("--backend", options.backend, "where to track: auto (GPU if present), cpu or gpu")
        ->check(CLI::IsMember({"auto", "cpu", "gpu"}));
    run->add_option("--threads", options.threads, "CPU threads (default: all cores)")->check(CLI::NonNegativeNumber);
    run->add_flag("-q,--quiet", options.quiet, "no progress line and no summary; errors only");
    run->add_flag("--timing", options.timing, "print per-kernel times, bytes and work items at the end");

    CLI::App* check = app.add_subcommand("check", "read and check the deck, print the tables it builds");
    add_deck_options(*check, options);

    try {
        app.parse(argc, argv);
    } catch (CLI::ParseError const& e) {
        return app.exit(e);
    }
    if (version) {
        std::fputs(gt::version_report().c_str(), stdout);
        return 0;
    }
    try {
        if (*run) return gt::run_command(options);
        if (*check) return gt::check_command(options);
    } catch (gt::DeckError const& e) {
        for (auto const& d : e.diagnostics()) std::fprintf(stderr, "%s\n", d.format().c_str());
        std::fprintf(stderr, "gtrack: %zu problem%s in the deck; nothing was run\n", e.diagnostics().size(),
                     e.diagnostics().size() == 1 ? "" : "s");
        return 2;
    } catch (std::exception const& e) {
        std::fprintf(stderr, "gtrack: error: %s\n", e.what());
        return 1;
    }
    std::fputs(app.help().c_str(), stdout);
    return 0;
}
