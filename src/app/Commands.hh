// The sub-commands of the gtrack executable, each a function of the parsed command line.
#pragma once

#include <string>
#include <vector>

namespace gt {

struct CommandOptions {
    std::string deck;
    std::string backend;  //!< empty: as the deck says
    std::string output;   //!< empty: as the deck says
    std::vector<std::string> overrides;
    int threads = 0;
    bool quiet = false;
    bool timing = false;  //!< print the per-kernel timing table, machine-readable
    std::string command_line;
};

//! gtrack run DECK: returns the exit status.
int run_command(CommandOptions const& options);
//! gtrack check DECK: returns the exit status.
int check_command(CommandOptions const& options);

}  // namespace gt
