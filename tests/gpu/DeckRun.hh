// The GPU tests' way to run an example deck (inputs/) on one backend, without output files.
#pragma once

#include <string>
#include <vector>

#include "deck/DeckReader.hh"
#include "run/DetectorRun.hh"

namespace gt::test {

inline DetectorRunResult run_deck_on(std::string const& backend, std::string const& deck,
                                     std::vector<std::string> const& overrides)
{
    DeckConfig const cfg = read_deck(std::string(GTRACK_SOURCE_DIR) + "/inputs/" + deck, overrides);
    DetectorRunOptions opt;
    opt.backend = backend;
    opt.write_output = false;
    opt.quiet = true;
    return run_detector_deck(cfg, opt);
}

}  // namespace gt::test
