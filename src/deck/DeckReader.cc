// Reading and checking decks: toml++ parses, --set and [scan] values are applied, then one reader
// per section (deck/DeckSections.hh, deck/DetectorSections.hh) checks every key; every problem is
// collected before one DeckError is thrown.
#include "deck/DeckReader.hh"

#include <toml++/toml.h>
#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <set>
#include <sstream>

#include <fmt/format.h>

#include "deck/DeckContext.hh"
#include "deck/DeckError.hh"
#include "deck/DeckSections.hh"
#include "deck/DeckText.hh"
#include "deck/DetectorSections.hh"
#include "deck/Scan.hh"
#include "deck/UnsetOverride.hh"

namespace gt {

namespace {

using namespace deck;

//! The most common syntax error in a deck is a quantity without quotes (length = 50 cm): say so.
std::string unquoted_unit_hint(std::string_view text, std::size_t line)
{
    std::size_t start = 0;
    for (std::size_t i = 1; i < line && start != std::string_view::npos; ++i) {
        start = text.find('\n', start);
        if (start != std::string_view::npos) ++start;
    }
    if (start == std::string_view::npos) return {};
    std::string_view l = text.substr(start, text.find('\n', start) - start);
    auto const eq = l.find('=');
    if (eq == std::string_view::npos) return {};
    std::string_view v = trim(l.substr(eq + 1));
    std::size_t i = 0;
    while (i < v.size() && (std::isdigit(static_cast<unsigned char>(v[i])) || std::strchr("+-.eE_", v[i])))
        ++i;
    if (i == 0 || i == v.size() || v[i] != ' ') return {};
    std::string_view const rest = trim(v.substr(i));
    if (rest.empty() || !std::isalpha(static_cast<unsigned char>(rest[0]))) return {};
    return fmt::format(" (a value with a unit is a string: write \"{}\")", trim(v.substr(0, v.find('#'))));
}

class DeckParser {
  public:
    DeckParser(std::string file) : ctx_(std::move(file)) {}

    struct Read {
        DeckConfig cfg;
        std::vector<Diagnostic> diagnostics;
    };

    static std::set<std::string> formatted(std::vector<Diagnostic> const& ds)
    {
        std::set<std::string> texts;
        for (auto const& d : ds) texts.insert(d.format());
        return texts;
    }

    //! One reading of the deck: TOML, then --set and --unset in order, then ([scan] into scan_out, or) the
    //! values of one scan point, then every check. A TOML syntax error throws at once.
    Read read_once(std::string const& text, std::vector<std::string> const& overrides,
                   std::vector<std::size_t> const* point, ScanConfig* scan_out,
                   ScanConfig const* scan = nullptr)
    {
        ctx_.begin_reading();
        Read r;
        toml::table root;
        try {
            root = toml::parse(text, ctx_.file());
        } catch (toml::parse_error const& e) {
            auto const& b = e.source().begin;
            ctx_.error(
                {ctx_.file(), static_cast<int>(b.line), static_cast<int>(b.column)}, "",
                fmt::format("TOML syntax error: {}{}", e.description(), unquoted_unit_hint(text, b.line)));
            throw DeckError(ctx_.take_diagnostics());
        }
        for (auto const& o : overrides) {
            if (auto key = unset_key_of(o))
                apply_unset(ctx_, root, *key);
            else
                apply_override(ctx_, root, o);
        }
        if (scan_out) {
            std::size_t const before = ctx_.error_count();
            if (toml::node const* n = root.get("scan")) read_scan(ctx_, *n, root, *scan_out);
            scan_errors_ = ctx_.error_count() != before;
        }
        if (point && scan) {
            for (std::size_t k = 0; k < scan->parameters.size(); ++k) {
                ScanParameter const& p = scan->parameters[k];
                std::size_t const v = (*point)[k];
                apply_value(ctx_, root, split_key(p.key), p.toml[v], scan_origin(p.key, v));
            }
        }
        read_root(root, r.cfg);
        r.diagnostics = ctx_.take_diagnostics();
        return r;
    }

    DeckConfig parse(std::string const& text, std::vector<std::string> const& overrides,
                     std::optional<std::uint64_t> scan_index)
    {
        ScanConfig scan;
        // The deck as written (with --set): its own problems, and the [scan] table.
        Read base = read_once(text, overrides, nullptr, &scan);
        std::set<std::string> const base_problems = formatted(base.diagnostics);
        std::vector<Diagnostic> problems;
        std::set<std::string> seen;
        auto const add = [&](Diagnostic d) {
            if (seen.insert(d.format()).second) problems.push_back(std::move(d));
        };
        auto const add_new = [&](SourceLocation const& at, std::string message) {
            Diagnostic d;
            d.where = at;
            d.key = "scan";
            d.message = std::move(message);
            add(std::move(d));
        };
        DeckConfig cfg;
        if (scan.empty() || scan_errors_) {
            for (auto& d : base.diagnostics) add(std::move(d));
            if (scan.empty() && scan_index && !scan_errors_)
                add_new(SourceLocation{ctx_.file(), 0, 0},
                        fmt::format("--scan-index {}: the deck has no [scan] table", *scan_index));
            cfg = std::move(base.cfg);
        } else {
            // The scan's values are applied like overrides and read with every check of the file.
            // Without an index, every value of every parameter is read once, in the context of
            // point 0 (a zipped scan: every point). Problems that only a scan value causes, and that
            // are not located at that value, say which point showed them.
            std::vector<std::uint64_t> points;
            std::uint64_t const n = scan.size();
            if (scan_index) {
                if (*scan_index >= n)
                    add_new(scan.where, fmt::format("--scan-index {}: the scan has {} point{} (0 to {})",
                                                    *scan_index, n, n == 1 ? "" : "s", n - 1));
                else
                    points.push_back(*scan_index);
            } else if (scan.mode == ScanMode::zip) {
                for (std::uint64_t p = 0; p < n; ++p) points.push_back(p);
            } else {
                points.push_back(0);
                for (std::size_t k = 0; k < scan.parameters.size(); ++k) {
                    for (std::size_t v = 1; v < scan.parameters[k].labels.size(); ++v) {
                        std::vector<std::size_t> idx(scan.parameters.size(), 0);
                        idx[k] = v;
                        points.push_back(scan.point_of(idx));
                    }
                }
            }
            for (std::size_t i = 0; i < points.size(); ++i) {
                auto const values = scan.value_indices(points[i]);
                Read r = read_once(text, overrides, &values, nullptr, &scan);
                for (auto& d : r.diagnostics) {
                    // The same problem at each value of one parameter (an unknown key): say it once.
                    if (ctx_.is_scan_location(d.where) && !seen.insert(d.key + ": " + d.message).second)
                        continue;
                    if (!ctx_.is_scan_location(d.where) && !base_problems.count(d.format())) {
                        if (!seen.insert(d.format()).second) continue;
                        d.message +=
                            fmt::format(" (at scan point {}: {})", points[i], scan.describe_point(points[i]));
                    }
                    add(std::move(d));
                }
                if (i == 0) cfg = std::move(r.cfg);
            }
            if (points.empty()) cfg = std::move(base.cfg);
        }
        cfg.path = ctx_.file();
        cfg.text = text;
        cfg.overrides = overrides;
        cfg.scan = scan;
        if (problems.empty()) {
            cfg.scan_index = scan_index;
            expand_output_file(ctx_, cfg, problems);
        }
        if (!problems.empty()) {
            // Deck lines in order, then the command line's overrides.
            std::stable_sort(problems.begin(), problems.end(), [](Diagnostic const& a, Diagnostic const& b) {
                bool const ao = from_command_line(a.where), bo = from_command_line(b.where);
                if (ao != bo) return !ao;
                if (a.where.line != b.where.line) return a.where.line < b.where.line;
                return a.where.column < b.where.column;
            });
            throw DeckError(std::move(problems));
        }
        return cfg;
    }

  private:
    void read_root(toml::table const& root, DeckConfig& cfg)
    {
        if (auto const* run = ctx_.table_at(root, "", "run", false)) read_run(ctx_, *run, cfg);
        if (cfg.run.name.empty()) cfg.run.name = std::filesystem::path(ctx_.file()).stem().string();
        // A mistyped kind (its own error said so) would have every section of the deck reported as
        // belonging to the other kind: read no further.
        if (toml::node const* kind = root.at_path("run.kind").node(); kind != nullptr) {
            std::optional<std::string> const k = kind->value<std::string>();
            if (!k || (*k != "beamline" && *k != "detector")) return;
        }
        if (cfg.run.kind == "detector")
            read_detector_sections(ctx_, root, cfg);
        else
            read_beamline_sections(ctx_, root, cfg);
    }

    DeckContext ctx_;
    bool scan_errors_ = false;  //!< reading [scan] found problems
};

}  // namespace

DeckConfig read_deck_text(std::string const& text, std::string const& name,
                          std::vector<std::string> const& overrides, std::optional<std::uint64_t> scan_index)
{
    return DeckParser(name).parse(text, overrides, scan_index);
}

DeckConfig read_deck(std::string const& path, std::vector<std::string> const& overrides,
                     std::optional<std::uint64_t> scan_index)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw DeckError(SourceLocation{path, 0, 0}, "",
                        fmt::format("cannot read the deck: {}", std::strerror(errno)));
    std::ostringstream text;
    text << in.rdbuf();
    return read_deck_text(text.str(), path, overrides, scan_index);
}

}  // namespace gt
