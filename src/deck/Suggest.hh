// "Did you mean ...?": the closest known name to a misspelt key, element, line or enum value.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gt {

//! Optimal-string-alignment distance (Levenshtein plus adjacent transpositions, so that "lenght"
//! is one edit from "length"), compared case-insensitively.
int edit_distance(std::string_view a, std::string_view b);

//! The candidate closest to word if it is close enough to be a likely typo: at most 2 edits (1 for
//! words of up to 3 characters), or word being a prefix of it ("gauss" -> "gaussian"). Ties go to
//! the earliest candidate.
std::optional<std::string> closest_name(std::string_view word, std::vector<std::string> const& candidates);

//! " (did you mean 'x'?)" or "", for appending to a message.
std::string did_you_mean(std::string_view word, std::vector<std::string> const& candidates);

}  // namespace gt
