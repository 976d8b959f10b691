#include "study/StudyCollect.hh"

#include <algorithm>
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "io/H5Access.hh"
#include "io/H5Handle.hh"
#include "io/OutputFile.hh"
#include "io/TableWriter.hh"

namespace gt::study {

namespace {

//! Rows of /dynamic_aperture/border as (delta index, angle index), checked against the summary's deltas:
//! the study writes them delta by delta, each with the grid's angles in order (src/study/StudyOutput.cc).
BorderGrid read_border_grid(std::string const& path, Table const& border, Table const& summary,
                            std::string size_unit)
{
    BorderGrid g;
    g.deltas = summary.doubles("delta");
    g.size_unit = std::move(size_unit);
    auto const& delta = border.doubles("delta");
    auto const& angle = border.doubles("angle");
    std::size_t const nd = g.deltas.size();
    if (nd == 0 || delta.size() % nd != 0)
        throw IoError(fmt::format("'{}': /dynamic_aperture/border has {} rows for {} momentum offsets", path,
                                  delta.size(), nd));
    std::size_t const na = delta.size() / nd;
    g.angles.assign(angle.begin(), angle.begin() + static_cast<std::ptrdiff_t>(na));
    for (std::size_t i = 0; i < nd; ++i)
        for (std::size_t j = 0; j < na; ++j)
            if (delta[i * na + j] != g.deltas[i] || angle[i * na + j] != g.angles[j])
                throw IoError(fmt::format("'{}': /dynamic_aperture/border row {} is not (delta {}, angle {})",
                                          path, i * na + j, g.deltas[i], g.angles[j]));
    return g;
}

std::string border_name(std::size_t i, std::size_t j) { return fmt::format("da_border_{}_{}", i, j); }

void dynamic_aperture_figures(std::string const& path, hid_t file, StudyFigures& out)
{
    Table const particles = read_table(path, "dynamic_aperture/particles");
    h5::Object group = h5::open_object(file, "dynamic_aperture");
    double const turns = static_cast<double>(h5::read_int64_attribute(group.get(), "turns"));
    std::vector<double> deltas;
    if (h5::exists(file, "dynamic_aperture/border")) {  // a polar grid
        Table const summary = read_table(path, "dynamic_aperture/summary");
        Table const border = read_table(path, "dynamic_aperture/border");
        BorderGrid const g =
            read_border_grid(path, border, summary, h5::read_string_attribute(group.get(), "size_unit"));
        deltas = g.deltas;
        auto const& min = summary.doubles("min");
        auto const& mean = summary.doubles("mean");
        for (std::size_t i = 0; i < deltas.size(); ++i) {
            out.stats.push_back({fmt::format("da_min_{}", i), g.size_unit, min[i]});
            out.stats.push_back({fmt::format("da_mean_{}", i), g.size_unit, mean[i]});
        }
        auto const& b = border.doubles("border");
        std::size_t const na = g.angles.size();
        for (std::size_t i = 0; i < deltas.size(); ++i)
            for (std::size_t j = 0; j < na; ++j)
                out.stats.push_back({border_name(i, j), g.size_unit, b[i * na + j]});
        out.grid = g;
    } else {  // a cartesian grid: the deltas in the order they first appear among the particles
        for (double d : particles.doubles("delta"))
            if (std::find(deltas.begin(), deltas.end(), d) == deltas.end()) deltas.push_back(d);
    }
    // The fraction of each delta's grid that survived every turn (a cartesian grid's only figure).
    auto const& delta = particles.doubles("delta");
    auto const* survived = particles.find("survived_turns");
    if (survived == nullptr)
        throw IoError(fmt::format("'{}': /dynamic_aperture/particles has no survived_turns", path));
    for (std::size_t i = 0; i < deltas.size(); ++i) {
        double n = 0, kept = 0;
        std::visit(
            [&](auto const& v) {
                for (std::size_t k = 0; k < v.size(); ++k)
                    if (delta[k] == deltas[i]) {
                        n += 1;
                        kept += static_cast<double>(v[k]) >= turns ? 1 : 0;
                    }
            },
            survived->values);
        out.stats.push_back({fmt::format("da_survivors_{}", i), "1", n > 0 ? kept / n : 0.0});
    }
}

void momentum_aperture_figures(std::string const& path, StudyFigures& out)
{
    Table const t = read_table(path, "momentum_aperture");
    auto const& plus = t.doubles("delta_plus");
    auto const& minus = t.doubles("delta_minus");
    if (plus.empty()) throw IoError(fmt::format("'{}': /momentum_aperture has no locations", path));
    auto const mean = [](std::vector<double> const& v) {
        double s = 0;
        for (double x : v) s += x;
        return s / static_cast<double>(v.size());
    };
    out.stats.push_back({"delta_plus_min", "1", *std::min_element(plus.begin(), plus.end())});
    out.stats.push_back({"delta_plus_mean", "1", mean(plus)});
    out.stats.push_back({"delta_minus_max", "1", *std::max_element(minus.begin(), minus.end())});
    out.stats.push_back({"delta_minus_mean", "1", mean(minus)});
}

}  // namespace

std::optional<StudyFigures> study_figures(std::string const& path)
{
    h5::File file = h5::open_file_readonly(path);
    bool const da = h5::exists(file.get(), "dynamic_aperture");
    bool const ma = h5::exists(file.get(), "momentum_aperture");
    if (!da && !ma) return std::nullopt;
    StudyFigures out;
    if (da) dynamic_aperture_figures(path, file.get(), out);
    if (ma) momentum_aperture_figures(path, out);
    return out;
}

BorderOverPoints border_over_points(BorderGrid const& grid,
                                    std::vector<std::vector<FinalStatistic> const*> const& stats)
{
    double const nan = std::numeric_limits<double>::quiet_NaN();
    BorderOverPoints r;
    r.grid = grid;
    for (std::size_t i = 0; i < grid.deltas.size(); ++i) {
        double worst = nan, mean_sum = 0;
        for (std::size_t j = 0; j < grid.angles.size(); ++j) {
            std::string const name = border_name(i, j);
            double lo = nan, hi = nan, sum = 0;
            std::int64_t n = 0;
            for (auto const* s : stats)
                for (auto const& f : *s)
                    if (f.name == name) {
                        lo = n == 0 ? f.value : std::min(lo, f.value);
                        hi = n == 0 ? f.value : std::max(hi, f.value);
                        sum += f.value;
                        ++n;
                    }
            double const m = n > 0 ? sum / static_cast<double>(n) : nan;
            r.delta.push_back(grid.deltas[i]);
            r.angle.push_back(grid.angles[j]);
            r.border_min.push_back(lo);
            r.border_mean.push_back(m);
            r.border_max.push_back(hi);
            r.points.push_back(n);
            worst = j == 0 ? lo : std::min(worst, lo);
            mean_sum += m;
        }
        r.min.push_back(worst);
        r.mean.push_back(grid.angles.empty() ? nan : mean_sum / static_cast<double>(grid.angles.size()));
    }
    return r;
}

void write_border_over_points(OutputFile& out, std::string const& group, BorderOverPoints const& r)
{
    Table t;
    t.add_column("delta", "1", r.delta);
    t.add_column("angle", "rad", r.angle);
    t.add_column("border_min", r.grid.size_unit, r.border_min);
    t.add_column("border_mean", r.grid.size_unit, r.border_mean);
    t.add_column("border_max", r.grid.size_unit, r.border_max);
    t.add_column("points", "1", r.points);
    write_table(out, group + "/border", t);
    Table s;
    s.add_column("delta", "1", r.grid.deltas);
    s.add_column("min", r.grid.size_unit, r.min);
    s.add_column("mean", r.grid.size_unit, r.mean);
    write_table(out, group + "/summary", s);
    out.set_attribute(group, "size_unit", r.grid.size_unit);
}

}  // namespace gt::study
