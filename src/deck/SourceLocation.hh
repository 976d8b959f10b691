// Where a deck value came from, for diagnostics: a file position, or the command-line option.
#pragma once

#include <string>

namespace gt {

//! Where a value came from: "deck.toml:12:5" or "--set beam.x=1".
struct SourceLocation {
    std::string file;
    int line = 0;
    int column = 0;
};

}  // namespace gt
