// Failures agreed between ranks: a step that may fail on some ranks (reading the deck, creating the
// output file) ends on every rank the same way, reported once, so that no rank waits for a peer that
// has given up (a hang) and no error is printed N times.
#pragma once

#include <exception>
#include <optional>
#include <stdexcept>
#include <type_traits>
#include <utility>

namespace gt::parallel {

//! Thrown on the ranks where the step succeeded (or failed too, but a lower rank reports): they end
//! quietly with `exit_code`, the one the reporting rank ends with.
class FailedElsewhere : public std::runtime_error {
  public:
    explicit FailedElsewhere(int exit_code)
        : std::runtime_error("another rank failed and reported why"), exit_code_(exit_code)
    {
    }
    int exit_code() const { return exit_code_; }

  private:
    int exit_code_;
};

//! Thrown on the rank that reports an agreed failure other than a deck error (which is rethrown as
//! it is): main prints it and returns, as every other rank does, without ending the job by force.
class AgreedFailure : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

//! The exit status main() gives an exception (a deck error 2, anything else 1).
int exit_code_of(std::exception_ptr const& error);

//! Collective: when no rank has an error, returns. Otherwise the lowest failing rank throws its own
//! error (a DeckError as it is, anything else as AgreedFailure; main prints it) and every other rank
//! throws FailedElsewhere.
void agree(std::exception_ptr error);

//! Runs `step` on every rank and agrees on its outcome (see agree); returns its result.
template <class F>
auto all_or_none(F&& step)
{
    using Result = decltype(step());
    std::exception_ptr error;
    if constexpr (std::is_void_v<Result>) {
        try {
            step();
        } catch (...) {
            error = std::current_exception();
        }
        agree(error);
    } else {
        std::optional<Result> result;
        try {
            result.emplace(step());
        } catch (...) {
            error = std::current_exception();
        }
        agree(error);
        return std::move(*result);
    }
}

}  // namespace gt::parallel
