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
    // Scans (src/app/ScanCommand.cc, CollectCommand.cc).
    std::string scan_index;           //!< run --scan-index: "" (none), a whole number, or "env"
    bool list = false;                //!< scan --list: the points and their outputs
    bool local = false;               //!< scan --local: run every point on this machine
    bool count = false;               //!< scan --count: print the number of points
    int jobs = 1;                     //!< scan --local -j: points at a time on the CPU
    std::vector<std::string> inputs;  //!< collect: output files or glob patterns
    std::string csv;                  //!< collect --csv FILE
};

//! gtrack run DECK: returns the exit status.
int run_command(CommandOptions const& options);
//! gtrack check DECK: returns the exit status.
int check_command(CommandOptions const& options);
//! gtrack scan DECK --list | --local [-j K]: returns the exit status (1 if a point failed).
int scan_command(CommandOptions const& options);
//! gtrack collect FILES... [--deck DECK] [-o SUMMARY.h5] [--csv FILE]: returns the exit status
//! (3 when points are missing or broken; the summary is written all the same).
int collect_command(CommandOptions const& options);

}  // namespace gt
