// `gtrack run` of a deck with [dynamic_aperture]: the study on the chosen backend, /dynamic_aperture and
// /frequency_map in the output file, and a short summary (docs/output.md, docs/studies.md).
#include <cstdio>
#include <optional>

#include <fmt/format.h>

#include "io/OutputFile.hh"
#include "io/TableWriter.hh"
#include "study/DynamicAperture.hh"
#include "study/StudyRun.hh"

namespace gt::study {

namespace {

void write_study(OutputFile& out, DeckConfig const& deck, DynamicApertureResult const& r)
{
    DynamicApertureConfig const& da = deck.dynamic_aperture;
    bool const polar = r.grid.polar != 0;
    std::string const size_unit = da.in_sigmas ? "sigma" : "m";
    Table p;
    p.add_column("delta", "1", r.delta);
    p.add_column(polar ? "angle" : "x_grid", polar ? "rad" : size_unit, r.a);
    p.add_column(polar ? "radius" : "y_grid", size_unit, r.b);
    p.add_column("x0", "m", r.x0);
    p.add_column("y0", "m", r.y0);
    p.add_column("survived_turns", "turn", r.survived);
    p.add_column("lost_element", "1", r.lost_element);
    p.add_column("lost_s", "m", r.lost_s);
    write_table(out, "dynamic_aperture/particles", p);
    out.set_attribute("dynamic_aperture", "grid", da.grid);
    out.set_attribute("dynamic_aperture", "turns", r.turns);
    out.set_attribute("dynamic_aperture", "size_unit", size_unit);
    out.set_attribute("dynamic_aperture", "angles", std::int64_t{r.grid.n_a});
    out.set_attribute("dynamic_aperture", "radii", std::int64_t{r.grid.n_b});
    out.set_attribute("dynamic_aperture", "radius_step", r.grid.b_step);
    out.set_attribute("dynamic_aperture", "sigma_x", r.grid.scale_x);
    out.set_attribute("dynamic_aperture", "sigma_y", r.grid.scale_y);
    if (polar) {
        Table b;
        b.add_column("delta", "1", r.border_delta);
        b.add_column("angle", "rad", r.border_angle);
        b.add_column("border", size_unit, r.border);
        b.add_column("first_loss", size_unit, r.first_loss);
        write_table(out, "dynamic_aperture/border", b);
        Table s;
        s.add_column("delta", "1", da.deltas);
        s.add_column("min", size_unit, r.da_min);
        s.add_column("mean", size_unit, r.da_mean);
        write_table(out, "dynamic_aperture/summary", s);
    }
    if (r.frequency_map) {
        Table f;
        f.add_column("delta", "1", r.delta);
        f.add_column("x0", "m", r.x0);
        f.add_column("y0", "m", r.y0);
        f.add_column("qx1", "1", r.qx1);
        f.add_column("qy1", "1", r.qy1);
        f.add_column("qx2", "1", r.qx2);
        f.add_column("qy2", "1", r.qy2);
        f.add_column("diffusion", "1", r.diffusion);
        write_table(out, "frequency_map", f);
        out.set_attribute("frequency_map", "resonance_order", da.resonance_order);
        out.set_attribute("frequency_map", "naff_window", da.naff_window);
        out.set_attribute("frequency_map", "half_turns", r.turns / 2);
    }
}

}  // namespace

int run_dynamic_aperture(DeckConfig const& deck, RunOptions const& options)
{
    auto const study = [&deck](BeamKernels& kernels, OutputFile* out,
                               StudyControl const& control) -> std::optional<DynamicApertureResult> {
        DynamicApertureResult r = track_dynamic_aperture(deck, kernels, &control);
        if (r.stopped) return std::nullopt;
        if (out) write_study(*out, deck, r);  // rank 0, which holds every particle's row
        return r;
    };
    auto const summary = [&deck](DynamicApertureResult const& r, BeamKernels const& kernels, double wall,
                                 std::string const& path) {
        std::size_t alive = 0;
        for (auto s : r.survived) alive += s == r.turns ? 1 : 0;
        std::printf("gtrack run %s: dynamic aperture of %zu particles x %lld turns on %s: %zu survived\n",
                    deck.path.c_str(), r.survived.size(), static_cast<long long>(r.turns),
                    kernels.description().c_str(), alive);
        std::string const unit = deck.dynamic_aperture.in_sigmas ? "sigma" : "mm";
        double const scale = deck.dynamic_aperture.in_sigmas ? 1.0 : 1e3;
        for (std::size_t k = 0; k < r.da_min.size(); ++k)
            std::printf("  delta %+.4g: DA min %.4g %s, mean %.4g %s\n", deck.dynamic_aperture.deltas[k],
                        r.da_min[k] * scale, unit.c_str(), r.da_mean[k] * scale, unit.c_str());
        std::printf("  %.3g particle-turns/s (wall %.3g s); wrote %s\n",
                    double(r.survived.size()) * double(r.turns) / wall, wall, path.c_str());
    };
    // Checkpoints between whole turns without a frequency map (StudyCheckpoint.hh).
    return run_study(deck, options, !deck.dynamic_aperture.frequency_map, study, summary);
}

}  // namespace gt::study
