// gtrack regress SUITE: a nightly regression over a folder of cases (docs/regression.md).
//
// A suite is a folder; each sub-folder holding a `deck.toml` is a case: the deck, its reference
// output `reference.h5`, and optionally `tolerances.toml` (compare's rules for it) and
// `validate.toml` (validate's rules, with --validate). The project's own regression/ is one.
// Every case is run (`gtrack run`, one child process each, several at once with `jobs`), its output
// compared with the reference (compare/FileComparison.hh: measurements of the run never fail it),
// and its headline figures (compare/HeadlineFigures.hh) kept for the suite's history.
// As a job array, each task runs one case (`task`) and leaves its result in the output folder; a
// last step (`collect`) gathers them into the report and the history.
#pragma once

#include <string>
#include <vector>

#include "compare/HeadlineFigures.hh"

namespace gt {

struct RegressOptions {
    std::string suite;                         //!< the folder of cases
    std::vector<std::string> names;            //!< the cases to run (empty: every case, by name)
    std::string gtrack;                        //!< the executable that runs the cases ("": this one)
    std::vector<std::string> backends{"cpu"};  //!< cpu, gpu, auto; two for both
    std::string out;                           //!< outputs, compare tables, the report
    int threads = 0;                           //!< --threads of each run (0: all cores)
    int jobs = 1;                              //!< runs at once
    bool validate = false;                     //!< also `gtrack validate` each deck
    bool update = false;                       //!< replace the references (printing what changed)
    long task = -1;                            //!< job array: run only the case of this index (0-based)
    bool quiet = false;                        //!< print only the summary (no compare tables)
};

//! One run of a case on one backend, compared with its reference.
struct CaseRun {
    std::string backend;
    std::string verdict;             //!< PASS, FAIL, RUN FAILED, NO REFERENCE, UPDATED
    double seconds = 0;              //!< wall time of the run
    std::vector<std::string> moved;  //!< datasets outside tolerance (or why nothing was compared)
    HeadlineFigures figures;         //!< of the new output (empty when the run failed)
    bool ok() const { return verdict == "PASS" || verdict == "UPDATED"; }
};

struct CaseResult {
    std::string name;
    std::vector<CaseRun> runs;
    std::string validate;  //!< "" (not asked), PASS, FAIL, skipped (no GPU)
    bool ok() const;
};

//! The names of the cases of `suite` (its sub-folders with a deck.toml), sorted. Throws
//! std::runtime_error when the folder does not exist or holds no case.
std::vector<std::string> suite_cases(std::string const& suite);

//! Runs the cases `options` selects (one with `task`), compares them, prints what moved, writes
//! OUT/NAME.result for each (read_case_result) and returns the results. Throws std::runtime_error
//! on a problem with the options or the suite (an unknown case, a task index out of range).
std::vector<CaseResult> run_suite(RegressOptions const& options);

//! The result a task left in `out` for case `name`; throws std::runtime_error when it is missing.
CaseResult read_case_result(std::string const& out, std::string const& name);

}  // namespace gt
