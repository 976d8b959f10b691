// What gtrack regress leaves behind: the suite's history (one row per night, case, backend and
// headline figure, appended) and the night's report, in Markdown and in HTML (the drift plots,
// drawn from the history by scripts/plot_regress_history.py, shown where they were made).
#pragma once

#include <string>
#include <vector>

#include "compare/RegressionSuite.hh"

namespace gt {

//! The history file of a suite: SUITE/history.tsv.
std::string history_path(std::string const& suite);

//! One row of the history.
struct HistoryRow {
    std::string night, commit, name, backend, verdict, figure;
    double value = 0;
};

//! The rows of a history file (none when it does not exist yet). Throws std::runtime_error naming the
//! file and line of a row it cannot read.
std::vector<HistoryRow> read_history(std::string const& path);

//! Appends this night's results (their headline figures; a row "-" for a run without any).
void append_history(std::string const& path, std::string const& night, std::string const& commit,
                    std::vector<CaseResult> const& results);

//! Everything the report shows.
struct RegressReportInput {
    std::string suite, night, commit, backends, history;
    std::vector<CaseResult> results;
    std::vector<HistoryRow> previous;  //!< the history before this night (for the drift columns)
    std::string plots;                 //!< folder of the drift plots, relative to the report ("": none)
    std::string plots_note;            //!< why there are none, when there are none
};

std::string regress_markdown(RegressReportInput const& in);
std::string regress_html(RegressReportInput const& in);

}  // namespace gt
