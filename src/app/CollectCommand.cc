// gtrack collect FILES... [--deck DECK] [-o SUMMARY.h5] [--csv FILE]: one table of a scan's parameters
// against the final statistics (the last row of /stats) of each point, with every point of the scan
// as a row, so that missing and broken points are listed rather than left out.
//
// Which points should exist comes from the scan deck: given with --deck, or else read back from the
// provenance of the output files (each holds the deck's text and --set overrides). Files of another
// scan, or of no scan, are reported and left out.
#include <glob.h>
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>

#include <fmt/format.h>

#include "app/Commands.hh"
#include "deck/DeckError.hh"
#include "deck/DeckReader.hh"
#include "io/OutputFile.hh"
#include "io/Provenance.hh"
#include "io/TableWriter.hh"
#include "run/RunProvenance.hh"
#include "run/ScanOutputs.hh"
#include "study/StudyCollect.hh"

namespace gt {

namespace {

//! The files named on the command line: each argument a file or a glob pattern (quoted, so that the
//! shell leaves it to us). A pattern that matches nothing is reported.
std::vector<std::string> expand_inputs(std::vector<std::string> const& inputs,
                                       std::vector<std::string>& notes)
{
    std::vector<std::string> files;
    for (auto const& arg : inputs) {
        if (arg.find_first_of("*?[") == std::string::npos) {
            files.push_back(arg);
            continue;
        }
        glob_t g{};
        int const rc = ::glob(arg.c_str(), 0, nullptr, &g);
        if (rc == 0)
            for (std::size_t i = 0; i < g.gl_pathc; ++i) files.emplace_back(g.gl_pathv[i]);
        else
            notes.push_back(fmt::format("'{}' matches no file", arg));
        ::globfree(&g);
    }
    std::sort(files.begin(), files.end());
    files.erase(std::unique(files.begin(), files.end()), files.end());
    return files;
}

//! A CSV field: quoted when it holds a comma, quote or newline.
std::string csv_field(std::string const& text)
{
    if (text.find_first_of(",\"\n") == std::string::npos) return text;
    std::string out = "\"";
    for (char c : text) out += c == '"' ? std::string("\"\"") : std::string(1, c);
    return out + "\"";
}

std::string number_text(double v) { return std::isnan(v) ? std::string() : fmt::format("{}", v); }

struct PointRow {
    std::string file;  //!< the file that holds it (or was expected to)
    OutputState state = OutputState::missing;
    std::string reason;  //!< why it is not complete
    std::vector<FinalStatistic> stats;
    std::optional<study::BorderGrid> border_grid;  //!< a polar dynamic-aperture study's grid
};

}  // namespace

int collect_command(CommandOptions const& options)
{
    if (options.inputs.empty() && options.deck.empty())
        throw std::runtime_error(
            "collect: give the scan's output files (or a quoted pattern such as 'scan_*.h5'), "
            "or the scan deck with --deck DECK");
    if (options.output.empty() && options.csv.empty())
        throw std::runtime_error("collect: give -o SUMMARY.h5 and/or --csv SUMMARY.csv");
    std::vector<std::string> notes;
    std::vector<std::string> files = expand_inputs(options.inputs, notes);

    // Read every file's provenance once: it says which point the file holds.
    std::map<std::string, Provenance> provenance;
    std::map<std::string, std::string> unreadable;
    for (auto const& f : files) {
        try {
            provenance[f] = read_provenance(f);
        } catch (std::exception const& e) {
            unreadable[f] = e.what();
        }
    }

    // The scan: from --deck, or from the deck text stored in the first scan output.
    DeckConfig deck;
    if (!options.deck.empty()) {
        deck = read_deck(options.deck, options.overrides);
        if (deck.scan.empty()) throw std::runtime_error(fmt::format("{} has no [scan] table", options.deck));
    } else {
        auto const it = std::find_if(provenance.begin(), provenance.end(),
                                     [](auto const& e) { return e.second.scan_index >= 0; });
        if (it == provenance.end())
            throw std::runtime_error(
                "collect: none of the files is the output of a scan point (no scan_index in "
                "/provenance); give the scan deck with --deck DECK");
        try {
            deck = read_deck_text(it->second.deck_text, it->second.deck_path, it->second.overrides);
        } catch (DeckError const& e) {
            throw std::runtime_error(
                fmt::format("collect: the deck stored in '{}' cannot be read by this gtrack:\n{}\n"
                            "give the scan deck with --deck DECK",
                            it->first, e.what()));
        }
        notes.push_back(
            fmt::format("the scan is the one in '{}' (deck {})", it->first, it->second.deck_path));
    }
    ScanConfig const& scan = deck.scan;
    std::uint64_t const n = scan.size();
    std::vector<std::string> keys;
    for (auto const& p : scan.parameters) keys.push_back(p.key);

    // With --deck and no files: the files are the deck's output names.
    std::vector<std::string> expected(n);
    for (std::uint64_t p = 0; p < n; ++p) {
        try {
            expected[p] = expand_output_name(deck.output.file_template, deck.run.name, scan, p);
        } catch (ScanError const&) {
        }
    }
    if (files.empty()) {
        for (auto const& f : expected) {
            struct stat st {};
            if (::stat(f.c_str(), &st) != 0) continue;
            files.push_back(f);
            try {
                provenance[f] = read_provenance(f);
            } catch (std::exception const& e) {
                unreadable[f] = e.what();
            }
        }
    }

    // Files found in one directory other than the deck's output directory (a run with -o DIR/...):
    // the missing points' files are expected there too.
    if (!files.empty()) {
        std::filesystem::path const dir = std::filesystem::path(files.front()).parent_path();
        bool const one_dir = std::all_of(files.begin(), files.end(), [&](auto const& f) {
            return std::filesystem::path(f).parent_path() == dir;
        });
        if (one_dir)
            for (auto& e : expected)
                if (!e.empty() && std::filesystem::path(e).parent_path() != dir)
                    e = (dir / std::filesystem::path(e).filename()).string();
    }

    std::vector<PointRow> rows(n);
    for (std::uint64_t p = 0; p < n; ++p) {
        rows[p].file = expected[p];
        rows[p].reason = expected[p].empty() ? "no output file" : fmt::format("no file '{}'", expected[p]);
    }
    std::vector<std::string> ignored;
    for (auto const& f : files) {
        if (auto const u = unreadable.find(f); u != unreadable.end()) {
            // A broken file is a failed point when its name is a point's expected output.
            auto const e = std::find(expected.begin(), expected.end(), f);
            if (e == expected.end()) {
                ignored.push_back(fmt::format("{}: {}", f, u->second));
                continue;
            }
            PointRow& row = rows[std::size_t(e - expected.begin())];
            if (row.state == OutputState::complete) continue;
            row.file = f;
            row.state = OutputState::broken;
            row.reason = fmt::format("not a complete gtrack output: {}", u->second);
            continue;
        }
        Provenance const& prov = provenance.at(f);
        if (prov.scan_index < 0) {
            ignored.push_back(fmt::format("{}: not the output of a scan point", f));
            continue;
        }
        auto const point = static_cast<std::uint64_t>(prov.scan_index);
        if (point >= n || prov.scan_parameters != keys || prov.scan_values != scan.labels_at(point)) {
            ignored.push_back(
                fmt::format("{}: scan point {} of another scan (or of this deck before it was changed)", f,
                            prov.scan_index));
            continue;
        }
        PointRow& row = rows[point];
        if (row.state == OutputState::complete) {
            ignored.push_back(fmt::format("{}: point {} again (already read from {})", f, point, row.file));
            continue;
        }
        row.file = f;
        try {
            if (auto study = study::study_figures(f)) {
                row.stats = std::move(study->stats);
                row.border_grid = std::move(study->grid);
            } else {
                row.stats = final_statistics(f);
            }
            row.state = OutputState::complete;
            row.reason.clear();
        } catch (std::exception const& e) {
            row.state = OutputState::broken;
            row.reason = fmt::format("not a complete gtrack output: {}", e.what());
        }
    }

    // Statistics columns: those of the first complete point (every gtrack file has the same).
    std::vector<std::pair<std::string, std::string>> stat_columns;
    for (auto const& r : rows) {
        if (r.state != OutputState::complete) continue;
        for (auto const& s : r.stats) stat_columns.emplace_back(s.name, s.unit);
        break;
    }
    double const nan = std::numeric_limits<double>::quiet_NaN();
    auto const stat_value = [&](PointRow const& r, std::string const& name) {
        for (auto const& s : r.stats)
            if (s.name == name) return s.value;
        return nan;
    };

    std::vector<std::uint64_t> incomplete;
    for (std::uint64_t p = 0; p < n; ++p)
        if (rows[p].state != OutputState::complete) incomplete.push_back(p);

    // A scan of a dynamic-aperture study (over error seeds, typically): each angle's border over the
    // points, when every complete point has the same polar grid.
    std::optional<study::BorderOverPoints> da;
    {
        std::optional<study::BorderGrid> grid;
        std::vector<std::vector<FinalStatistic> const*> da_stats;
        bool same = true;
        for (auto const& r : rows) {
            if (r.state != OutputState::complete) continue;
            if (!r.border_grid || (grid && *r.border_grid != *grid)) {
                same = false;
                break;
            }
            grid = r.border_grid;
            da_stats.push_back(&r.stats);
        }
        if (same && grid) da = study::border_over_points(*grid, da_stats);
    }

    if (!options.output.empty()) {
        Table t;
        std::vector<std::int64_t> index(n), complete(n);
        for (std::uint64_t p = 0; p < n; ++p) {
            index[p] = static_cast<std::int64_t>(p);
            complete[p] = rows[p].state == OutputState::complete ? 1 : 0;
        }
        t.add_column("index", "1", std::move(index));
        t.add_column("complete", "1", std::move(complete));
        std::vector<std::string> columns;
        for (auto const& param : scan.parameters) {
            std::string const col = column_name(param.key);
            columns.push_back(col);
            auto const numeric = numeric_parameter(param);
            std::vector<double> values;
            std::vector<std::int64_t> value_index;
            for (std::uint64_t p = 0; p < n; ++p) {
                std::size_t const k = std::size_t(&param - scan.parameters.data());
                std::size_t const v = scan.value_indices(p)[k];
                if (numeric)
                    values.push_back(numeric->values[v]);
                else
                    value_index.push_back(static_cast<std::int64_t>(v));
            }
            if (numeric)
                t.add_column(col, numeric->unit, std::move(values));
            else
                t.add_column(col, "index into labels_" + col, std::move(value_index));
        }
        for (auto const& [name, unit] : stat_columns) {
            std::vector<double> values;
            for (auto const& r : rows) values.push_back(stat_value(r, name));
            t.add_column(name, unit, std::move(values));
        }
        OutputFile out(options.output);
        write_table(out, "summary", t);
        if (da) study::write_border_over_points(out, "dynamic_aperture_over_points", *da);
        std::vector<std::string> file_names, states, reasons;
        for (auto const& r : rows) {
            file_names.push_back(r.file);
            states.push_back(state_name(r.state));
            reasons.push_back(r.reason);
        }
        std::vector<std::int64_t> missing(incomplete.begin(), incomplete.end());
        out.set_attribute("summary", "scan_size", n);
        out.set_attribute("summary", "scan_mode", scan.mode_name());
        out.set_attribute("summary", "parameters", std::span<std::string const>(keys));
        out.set_attribute("summary", "parameter_columns", std::span<std::string const>(columns));
        out.set_attribute("summary", "files", std::span<std::string const>(file_names));
        out.set_attribute("summary", "states", std::span<std::string const>(states));
        out.set_attribute("summary", "reasons", std::span<std::string const>(reasons));
        out.set_attribute("summary", "incomplete", std::span<std::int64_t const>(missing));
        for (std::size_t k = 0; k < scan.parameters.size(); ++k)
            out.set_attribute("summary", "labels_" + columns[k],
                              std::span<std::string const>(scan.parameters[k].labels));
        Provenance prov = run_provenance(deck, options.command_line);
        prov.backend = "none (gtrack collect)";
        prov.start_time = prov.end_time = iso8601_utc_now();
        prov.scan_size = n;
        prov.scan_mode = scan.mode_name();
        prov.scan_parameters = keys;
        write_provenance(out, prov);
        out.commit();
    }

    if (!options.csv.empty()) {
        std::string const temp = options.csv + ".tmp";
        {
            std::ofstream csv(temp);
            if (!csv) throw std::runtime_error(fmt::format("cannot write '{}'", options.csv));
            std::vector<std::optional<NumericParameter>> numeric;
            csv << "index,state,file";
            for (auto const& param : scan.parameters) {
                numeric.push_back(numeric_parameter(param));
                std::string const unit = numeric.back() ? numeric.back()->unit : "";
                csv << "," << csv_field(unit.empty() ? param.key : fmt::format("{} [{}]", param.key, unit));
            }
            for (auto const& [name, unit] : stat_columns)
                csv << ","
                    << csv_field(unit.empty() || unit == "1" ? name : fmt::format("{} [{}]", name, unit));
            csv << "\n";
            for (std::uint64_t p = 0; p < n; ++p) {
                PointRow const& r = rows[p];
                csv << p << "," << csv_field(state_name(r.state)) << "," << csv_field(r.file);
                auto const idx = scan.value_indices(p);
                for (std::size_t k = 0; k < scan.parameters.size(); ++k)
                    csv << ","
                        << csv_field(numeric[k] ? number_text(numeric[k]->values[idx[k]])
                                                : scan.parameters[k].labels[idx[k]]);
                for (auto const& col : stat_columns) csv << "," << number_text(stat_value(r, col.first));
                csv << "\n";
            }
            if (!csv.flush()) throw std::runtime_error(fmt::format("cannot write '{}'", options.csv));
        }
        if (std::rename(temp.c_str(), options.csv.c_str()) != 0) {
            std::remove(temp.c_str());
            throw std::runtime_error(fmt::format("cannot write '{}': {}", options.csv, std::strerror(errno)));
        }
    }

    for (auto const& note : notes) std::printf("note: %s\n", note.c_str());
    for (auto const& i : ignored) std::printf("left out: %s\n", i.c_str());
    std::printf("collected %llu of %llu points (%s scan of %s)",
                static_cast<unsigned long long>(n - incomplete.size()), static_cast<unsigned long long>(n),
                std::string(scan.mode_name()).c_str(), deck.path.c_str());
    std::printf("%s%s%s%s\n", options.output.empty() ? "" : " -> ", options.output.c_str(),
                options.csv.empty() ? "" : (options.output.empty() ? " -> " : ", "), options.csv.c_str());
    if (da)
        for (std::size_t i = 0; i < da->grid.deltas.size(); ++i)
            std::printf("dynamic aperture at delta %g over %llu points: least border %.4g %s, mean border %.4g %s\n",
                        da->grid.deltas[i], static_cast<unsigned long long>(n - incomplete.size()), da->min[i],
                        da->grid.size_unit.c_str(), da->mean[i], da->grid.size_unit.c_str());
    if (!incomplete.empty()) {
        std::fprintf(stderr, "gtrack collect: %zu of %llu points missing or broken:\n", incomplete.size(),
                     static_cast<unsigned long long>(n));
        for (auto p : incomplete)
            std::fprintf(stderr, "  point %llu (%s): %s: %s\n", static_cast<unsigned long long>(p),
                         scan.describe_point(p).c_str(), state_name(rows[p].state).c_str(),
                         rows[p].reason.c_str());
        return 3;
    }
    return 0;
}

}  // namespace gt
