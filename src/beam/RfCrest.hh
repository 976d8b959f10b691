// The RF phase of maximum energy gain of the reference particle through a field-map element.
#pragma once

#include <functional>
#include <optional>

namespace gt {

//! The phase in [0, 2 pi) (up to one scan step around it) where `gain(phase)` is largest: a coarse
//! scan of 36 phases, then golden-section search. `gain` returns nullopt where the reference does
//! not pass; the result is nullopt when it passes at no scanned phase.
std::optional<double> find_rf_crest(std::function<std::optional<double>(double)> const& gain);

}  // namespace gt
