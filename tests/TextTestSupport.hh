// Shared helpers for tests that check the text of messages, reports and files.
#pragma once

#include <fstream>
#include <sstream>
#include <string>

namespace gt::test {

//! True when `part` occurs in `text`.
inline bool contains(std::string const& text, std::string const& part)
{
    return text.find(part) != std::string::npos;
}

//! The whole text of the file at `path` ("" when it cannot be read).
inline std::string file_text(std::string const& path)
{
    std::ifstream in(path);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

}  // namespace gt::test
