// Host phases from the trace log, with their share of the wall time.
#include "perf/HostPhases.hh"

#include <algorithm>

#include <fmt/format.h>

namespace gt {

std::vector<HostPhase> host_phases(TraceLog const& log, std::string const& whole)
{
    std::vector<TraceEvent const*> phases;
    TraceEvent const* outer = nullptr;
    for (TraceEvent const& e : log.events()) {
        if (std::string_view(e.category) != "phase") continue;
        if (e.name == whole)
            outer = &e;
        else
            phases.push_back(&e);
    }
    std::vector<HostPhase> out;
    if (outer == nullptr || outer->duration <= 0) return out;
    std::stable_sort(phases.begin(), phases.end(), [](auto a, auto b) { return a->start < b->start; });
    double const begin = outer->start, end = outer->start + outer->duration, wall = outer->duration;
    double covered_until = begin, covered = 0;
    for (TraceEvent const* e : phases) {
        double const e_end = e->start + e->duration;
        if (e->start < begin || e_end > end) continue;  // another run's
        if (e->start < covered_until) continue;         // nested in the previous outer phase
        covered_until = e_end;
        covered += e->duration;
        auto it = std::find_if(out.begin(), out.end(), [&](HostPhase const& p) { return p.name == e->name; });
        if (it == out.end()) it = out.insert(out.end(), HostPhase{e->name, 0, 0});
        it->seconds += e->duration;
    }
    out.push_back(HostPhase{"other", std::max(0.0, wall - covered), 0});
    for (HostPhase& p : out) p.share = p.seconds / wall;
    out.push_back(HostPhase{"wall", wall, 1.0});
    return out;
}

std::string format_host_phases(std::vector<HostPhase> const& phases)
{
    std::string text = "host phases:";
    char const* sep = " ";
    for (HostPhase const& p : phases) {
        if (p.name == "wall") {
            text += fmt::format("; wall {:.3f} s", p.seconds);
            continue;
        }
        text += fmt::format("{}{} {:.3f} s ({:.1f}%)", sep, p.name, p.seconds, 100.0 * p.share);
        sep = ", ";
    }
    return text + "\n";
}

}  // namespace gt
