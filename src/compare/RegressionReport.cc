// The history and the night's report of gtrack regress.
#include "compare/RegressionReport.hh"

#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>

#include <fmt/format.h>

#include "compare/TextTable.hh"

namespace gt {

namespace {

namespace fs = std::filesystem;

constexpr char const* k_header = "night\tcommit\tcase\tbackend\tverdict\tfigure\tvalue";

std::string html_escape(std::string const& s)
{
    std::string out;
    for (char c : s) {
        switch (c) {
            case '&':
                out += "&amp;";
                break;
            case '<':
                out += "&lt;";
                break;
            case '>':
                out += "&gt;";
                break;
            case '"':
                out += "&quot;";
                break;
            default:
                out += c;
        }
    }
    return out;
}

std::string moved_text(CaseRun const& run)
{
    std::string s;
    std::size_t const shown = std::min<std::size_t>(run.moved.size(), 6);
    for (std::size_t i = 0; i < shown; ++i) s += (i ? ", " : "") + run.moved[i];
    if (shown < run.moved.size()) s += fmt::format(" and {} more", run.moved.size() - shown);
    return s.empty() ? "-" : s;
}

//! The value of (case, backend, figure) on the last night of `rows` that has it.
bool previous_value(std::vector<HistoryRow> const& rows, std::string const& name, std::string const& backend,
                    std::string const& figure, double& value, std::string& night)
{
    for (auto it = rows.rbegin(); it != rows.rend(); ++it)
        if (it->name == name && it->backend == backend && it->figure == figure) {
            value = it->value;
            night = it->night;
            return true;
        }
    return false;
}

std::string change(double now, double before)
{
    if (now == before) return "0";
    double const scale = std::max(std::fabs(now), std::fabs(before));
    return fmt::format("{:+.3g} ({:+.2g} relative)", now - before, scale > 0 ? (now - before) / scale : 0.0);
}

TextTable cases_table(RegressReportInput const& in)
{
    TextTable t({"case", "backend", "verdict", "time [s]", "what moved", "validate"});
    for (auto const& r : in.results)
        for (auto const& run : r.runs)
            t.add_row({r.name, run.backend, run.verdict, fmt::format("{:.1f}", run.seconds), moved_text(run),
                       r.validate.empty() ? "-" : r.validate});
    return t;
}

TextTable figures_table(RegressReportInput const& in)
{
    TextTable t({"case", "backend", "figure", "tonight", "last night", "change"});
    for (auto const& r : in.results)
        for (auto const& run : r.runs)
            for (auto const& [figure, value] : run.figures) {
                double before = 0;
                std::string night;
                bool const had = previous_value(in.previous, r.name, run.backend, figure, before, night);
                t.add_row({r.name, run.backend, figure, fmt::format("{:.10g}", value),
                           had ? fmt::format("{:.10g}", before) : "-",
                           had ? change(value, before) : "(first night)"});
            }
    return t;
}

std::size_t failures(RegressReportInput const& in)
{
    std::size_t n = 0;
    for (auto const& r : in.results) n += r.ok() ? 0 : 1;
    return n;
}

std::string headline(RegressReportInput const& in)
{
    std::size_t const bad = failures(in);
    return bad == 0 ? fmt::format("PASS: {} cases, nothing moved", in.results.size())
                    : fmt::format("FAIL: {} of {} cases moved or failed", bad, in.results.size());
}

}  // namespace

std::string history_path(std::string const& suite) { return (fs::path(suite) / "history.tsv").string(); }

std::vector<HistoryRow> read_history(std::string const& path)
{
    std::vector<HistoryRow> rows;
    std::ifstream in(path);
    if (!in) return rows;
    std::size_t number = 0;
    for (std::string line; std::getline(in, line);) {
        ++number;
        if (line.empty() || line == k_header) continue;
        std::vector<std::string> f;
        std::stringstream ss(line);
        for (std::string x; std::getline(ss, x, '\t');) f.push_back(x);
        HistoryRow r;
        try {
            if (f.size() != 7) throw std::invalid_argument("7 tab-separated fields expected");
            r = HistoryRow{f[0], f[1], f[2], f[3], f[4], f[5], f[6] == "-" ? 0.0 : std::stod(f[6])};
        } catch (std::exception const& e) {
            throw std::runtime_error(
                fmt::format("{}:{}: not a history row ({}): '{}'", path, number, e.what(), line));
        }
        rows.push_back(std::move(r));
    }
    return rows;
}

void append_history(std::string const& path, std::string const& night, std::string const& commit,
                    std::vector<CaseResult> const& results)
{
    bool const fresh = !fs::exists(path);
    std::ofstream f(path, std::ios::app);
    if (fresh) f << k_header << "\n";
    for (auto const& r : results)
        for (auto const& run : r.runs) {
            if (run.figures.empty())
                f << fmt::format("{}\t{}\t{}\t{}\t{}\t-\t-\n", night, commit, r.name, run.backend,
                                 run.verdict);
            for (auto const& [figure, value] : run.figures)
                f << fmt::format("{}\t{}\t{}\t{}\t{}\t{}\t{:.17g}\n", night, commit, r.name, run.backend,
                                 run.verdict, figure, value);
        }
    if (!f) throw std::runtime_error(fmt::format("cannot append to the history '{}'", path));
}

std::string regress_markdown(RegressReportInput const& in)
{
    std::string md = fmt::format("# Regression of {} — {}\n\n**{}**\n\n", in.suite, in.night, headline(in));
    md += fmt::format(
        "{}; backends: {}. A case fails when a physics dataset moved beyond its tolerances "
        "(measurements of the run, such as timings, never fail it); compare tables are beside "
        "this report (NAME.compare.txt).\n\n",
        in.commit, in.backends);
    md += "## Cases\n\n" + cases_table(in).markdown();
    for (auto const& r : in.results)
        for (auto const& run : r.runs)
            if (!run.moved.empty()) {
                md += fmt::format("\n### {} ({}): {}\n\n", r.name, run.backend, run.verdict);
                for (auto const& m : run.moved) md += "- `" + m + "`\n";
            }
    md +=
        "\n## Headline figures, night over night\n\nA drift within tolerance is no failure, but it shows "
        "here "
        "and in the history (" +
        in.history + ").\n\n" + figures_table(in).markdown();
    if (!in.plots.empty()) {
        md += "\n## Drift plots\n\n";
        for (auto const& r : in.results) md += fmt::format("![{0}]({1}/{0}.png)\n", r.name, in.plots);
    } else if (!in.plots_note.empty()) {
        md += "\n" + in.plots_note + "\n";
    }
    return md;
}

std::string regress_html(RegressReportInput const& in)
{
    auto const table = [](TextTable const& t) {
        std::string h = "<table>\n<tr>";
        for (auto const& c : t.header()) h += "<th>" + html_escape(c) + "</th>";
        h += "</tr>\n";
        for (auto const& row : t.row_cells()) {
            h += "<tr>";
            for (auto const& c : row) h += "<td>" + html_escape(c) + "</td>";
            h += "</tr>\n";
        }
        return h + "</table>\n";
    };
    bool const ok = failures(in) == 0;
    std::string h = "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>Regression of " +
                    html_escape(in.suite) +
                    "</title>\n<style>body{font-family:sans-serif;margin:2em}"
                    "table{border-collapse:collapse}td,th{border:1px solid #aaa;padding:2px 8px}"
                    ".pass{color:#070}.fail{color:#b00}</style></head><body>\n";
    h += fmt::format("<h1>Regression of {} &mdash; {}</h1>\n<p class=\"{}\"><b>{}</b></p>\n",
                     html_escape(in.suite), html_escape(in.night), ok ? "pass" : "fail",
                     html_escape(headline(in)));
    h += fmt::format("<p>{}; backends: {}.</p>\n", html_escape(in.commit), html_escape(in.backends));
    h += "<h2>Cases</h2>\n" + table(cases_table(in));
    for (auto const& r : in.results)
        for (auto const& run : r.runs)
            if (!run.moved.empty()) {
                h += fmt::format("<h3>{} ({}): {}</h3>\n<ul>\n", html_escape(r.name),
                                 html_escape(run.backend), html_escape(run.verdict));
                for (auto const& m : run.moved) h += "<li><code>" + html_escape(m) + "</code></li>\n";
                h += "</ul>\n";
            }
    h += "<h2>Headline figures, night over night</h2>\n" + table(figures_table(in));
    if (!in.plots.empty()) {
        h += "<h2>Drift plots</h2>\n";
        for (auto const& r : in.results)
            h += fmt::format("<p><img src=\"{}/{}.png\" alt=\"{}\"></p>\n", html_escape(in.plots),
                             html_escape(r.name), html_escape(r.name));
    } else if (!in.plots_note.empty()) {
        h += "<p>" + html_escape(in.plots_note) + "</p>\n";
    }
    return h + "</body></html>\n";
}

}  // namespace gt
