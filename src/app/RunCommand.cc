// gtrack run DECK: read and check the deck, then run it on the chosen backend.
#include <cstdio>

#include "app/Commands.hh"
#include "deck/DeckReader.hh"
#include "run/BeamRun.hh"

namespace gt {

int run_command(CommandOptions const& options)
{
    DeckConfig const deck = read_deck(options.deck, options.overrides);
    RunOptions run;
    run.backend = options.backend;
    run.output = options.output;
    run.threads = options.threads;
    run.quiet = options.quiet;
    run.timing = options.timing;
    run.command_line = options.command_line;
    return run_beamline(deck, run);
}

}  // namespace gt
