// A one-line progress display for long runs: on a terminal only, never under --quiet or in batch jobs.
#include "run/Progress.hh"

#include <unistd.h>

#include <fmt/format.h>

namespace gt {

Progress::Progress(bool enabled)
    : enabled_(enabled && isatty(STDERR_FILENO) == 1), start_(std::chrono::steady_clock::now()), last_(start_)
{
}

Progress::~Progress() { finish(); }

void Progress::update(double done, double total, std::string const& detail)
{
    if (!enabled_) return;
    auto const now = std::chrono::steady_clock::now();
    if (drawn_ && now - last_ < std::chrono::milliseconds(250)) return;
    last_ = now;
    double const elapsed = std::chrono::duration<double>(now - start_).count();
    double const fraction = total > 0 ? done / total : 0.0;
    std::string eta = "--";
    if (fraction > 0 && fraction < 1) eta = fmt::format("{:.0f} s", elapsed * (1 - fraction) / fraction);
    std::fprintf(stderr, "\r\033[K%s", fmt::format("{:5.1f}%  {}  elapsed {:.1f} s, eta {}", 100 * fraction,
                                                      detail, elapsed, eta).c_str());
    std::fflush(stderr);
    drawn_ = true;
}

void Progress::finish()
{
    if (!drawn_) return;
    std::fprintf(stderr, "\r\033[K");
    std::fflush(stderr);
    drawn_ = false;
}

}  // namespace gt
