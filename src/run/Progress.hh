// A one-line progress display for long runs: on a terminal only, never under --quiet or in batch jobs.
#pragma once

#include <chrono>
#include <cstdio>
#include <string>

namespace gt {

class Progress {
  public:
    //! Shows progress only when `enabled` and standard error is a terminal.
    explicit Progress(bool enabled);
    ~Progress();
    Progress(Progress const&) = delete;
    Progress& operator=(Progress const&) = delete;

    //! Redraws the line, at most a few times per second; `done` of `total` work units.
    void update(double done, double total, std::string const& detail);
    //! Clears the line (before other output, and at the end).
    void finish();

  private:
    bool enabled_;
    bool drawn_ = false;
    std::chrono::steady_clock::time_point start_;
    std::chrono::steady_clock::time_point last_;
};

}  // namespace gt
