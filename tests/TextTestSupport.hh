// Shared helper for tests that check the text of messages and reports.
#pragma once

#include <string>

namespace gt::test {

//! True when `part` occurs in `text`.
inline bool contains(std::string const& text, std::string const& part)
{
    return text.find(part) != std::string::npos;
}

}  // namespace gt::test
