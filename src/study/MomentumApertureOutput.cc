// `gtrack run` of a deck with [momentum_aperture]: the search on the chosen backend, /momentum_aperture and
// /lattice in the output file, and a short summary (docs/output.md, docs/studies.md).
#include <algorithm>
#include <cstdio>
#include <optional>

#include <fmt/format.h>

#include "beam/BeamSetup.hh"
#include "io/OutputFile.hh"
#include "io/TableWriter.hh"
#include "run/BeamRunStages.hh"
#include "study/MomentumAperture.hh"
#include "study/StudyRun.hh"

namespace gt::study {

namespace {

void write_study(OutputFile& out, MomentumApertureResult const& r)
{
    Table t;
    t.add_column("s", "m", r.s);
    t.add_column("element", "1", r.element);
    t.add_column("delta_plus", "1", r.delta_plus);
    t.add_column("delta_minus", "1", r.delta_minus);
    t.add_column("lost_element_plus", "1", r.lost_element_plus);
    t.add_column("lost_element_minus", "1", r.lost_element_minus);
    t.add_column("lost_s_plus", "m", r.lost_s_plus);
    t.add_column("lost_s_minus", "m", r.lost_s_minus);
    t.add_column("lost_turn_plus", "turn", r.lost_turn_plus);
    t.add_column("lost_turn_minus", "turn", r.lost_turn_minus);
    write_table(out, "momentum_aperture", t);
    out.set_attribute("momentum_aperture", "names", std::span<std::string const>(r.name));
    out.set_attribute("momentum_aperture", "turns", r.turns);
    out.set_attribute("momentum_aperture", "resolution", r.resolution);
    out.set_attribute("momentum_aperture", "delta_max", double(r.candidates) * r.resolution);
    out.set_attribute("momentum_aperture", "rf", r.rf ? "on" : "off");
    out.set_attribute("momentum_aperture", "bucket_half_length", r.bucket_half_length);
}

}  // namespace

int run_momentum_aperture(DeckConfig const& deck, RunOptions const& options)
{
    auto const study = [&deck](BeamKernels& kernels, OutputFile* out,
                               StudyControl const& control) -> std::optional<MomentumApertureResult> {
        MomentumApertureResult r = track_momentum_aperture(deck, kernels, &control);
        if (!out) return r;  // not rank 0: its candidates' outcomes went there
        DeckConfig const tracked = momentum_aperture_deck(deck);
        write_lattice(*out, build_lattice(tracked, initial_reference(tracked)));
        write_study(*out, r);
        return r;
    };
    auto const summary = [&deck](MomentumApertureResult const& r, BeamKernels const& kernels, double wall,
                                 std::string const& path) {
        auto const lo = std::min_element(r.delta_plus.begin(), r.delta_plus.end());
        auto const hi = std::max_element(r.delta_minus.begin(), r.delta_minus.end());
        std::printf(
            "gtrack run %s: momentum aperture at %zu locations (%lld candidates each) x %lld turns, RF "
            "%s, on %s\n",
            deck.path.c_str(), r.s.size(), static_cast<long long>(2 * r.candidates),
            static_cast<long long>(r.turns), r.rf ? "on" : "off", kernels.description().c_str());
        std::printf(
            "  delta+ min %.4g%% at %s (s = %.4g m), delta- max %.4g%% at %s (s = %.4g m), resolution "
            "%.3g%%\n",
            *lo * 100, r.name[std::size_t(lo - r.delta_plus.begin())].c_str(),
            r.s[std::size_t(lo - r.delta_plus.begin())], *hi * 100,
            r.name[std::size_t(hi - r.delta_minus.begin())].c_str(),
            r.s[std::size_t(hi - r.delta_minus.begin())], r.resolution * 100);
        std::printf("  %.3g particle-turns/s (wall %.3g s); wrote %s\n", double(r.pushes) / wall, wall,
                    path.c_str());
    };
    return run_study(deck, options, false, study, summary);
}

}  // namespace gt::study
