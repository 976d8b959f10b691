// The report of `gtrack validate`: the verdict, the terminal summary and the markdown report.
#include <algorithm>
#include <cmath>
#include <map>

#include <fmt/format.h>

#include "compare/TextTable.hh"
#include "run/Validation.hh"
#include "run/ValidationCompare.hh"

namespace gt {

namespace {

using validation::k_coordinate_units;
using validation::k_coordinates;

std::string num(double v)
{
    if (v == 0) return "0";
    if (std::isinf(v)) return "inf";
    return fmt::format("{:.3g}", v);
}

std::string seconds(double v) { return fmt::format("{:.4g}", v); }

std::string speedup(double reference, double candidate)
{
    if (candidate <= 0 || reference <= 0) return "-";
    return fmt::format("{:.3g}x", reference / candidate);
}

//! The coordinate with the largest relative difference at a stage (-1: none differs).
int worst_coordinate(StageComparison const& s)
{
    int worst = -1;
    for (int k = 0; k < 6; ++k)
        if (s.coordinate[k].differing > 0 &&
            (worst < 0 || s.coordinate[k].max_rel > s.coordinate[worst].max_rel))
            worst = k;
    return worst;
}

//! Short column labels for the two backends: "cpu" and "gpu", or "reference" and "candidate" when the
//! first words are the same.
std::pair<std::string, std::string> backend_labels(ValidationResult const& r)
{
    std::string a = r.reference_name.substr(0, r.reference_name.find(' '));
    std::string b = r.candidate_name.substr(0, r.candidate_name.find(' '));
    if (a == b) return {"reference", "candidate"};
    return {a, b};
}

std::string stage_where(StageComparison const& s)
{
    if (s.entry < 0) return "the initial beam";
    std::string const kicks = s.kicks > 0 ? fmt::format(", after {} space-charge kicks", s.kicks) : "";
    return fmt::format("stage {} (element {}, turn {}, entry {}, s = {:.6g} m{})", s.index, s.name, s.turn,
                       s.entry, s.s, kicks);
}

}  // namespace

std::string validation_verdict(ValidationResult const& r)
{
    std::size_t failed = 0, differing_values = 0;
    for (auto const& s : r.stages) {
        if (!s.ok()) ++failed;
        for (auto const& c : s.coordinate) differing_values += c.differing;
        differing_values += s.stats.differing;
    }
    StageComparison const* first = r.first_failure();
    if (!first) {
        if (differing_values == 0)
            return fmt::format(
                "PASS: {} and {} agree bit for bit at all {} stages (coordinates, loss records and "
                "statistics)",
                r.reference_name, r.candidate_name, r.stages.size());
        return fmt::format(
            "PASS: {} and {} agree within tolerance at all {} stages ({} values differ, all "
            "within tolerance)",
            r.reference_name, r.candidate_name, r.stages.size(), differing_values);
    }
    std::string what;
    if (first->particles_outside > 0) {
        what = fmt::format("{} particle{} outside tolerance", first->particles_outside,
                           first->particles_outside == 1 ? "" : "s");
        if (int const k = worst_coordinate(*first); k >= 0)
            what += fmt::format(" (worst: {}, |diff| {}, rel {})", k_coordinates[k],
                                num(first->coordinate[k].max_abs), num(first->coordinate[k].max_rel));
        if (first->loss_records_differing > 0)
            what += fmt::format(", {} with different loss records", first->loss_records_differing);
    }
    if (first->stats_outside > 0)
        what += fmt::format("{}{} statistics outside tolerance (worst: {}, rel {})", what.empty() ? "" : "; ",
                            first->stats_outside, first->worst_stat, num(first->stats.max_rel));
    return fmt::format("FAIL: {} of {} stages disagree; first at {}: {}", failed, r.stages.size(),
                       stage_where(*first), what);
}

namespace {

//! Per-quantity summary over all stages.
TextTable quantity_table(ValidationResult const& r)
{
    TextTable t({"quantity", "tolerance", "max |diff|", "max rel diff", "values differing",
                 "outside tolerance", "stages outside", "worst stage"});
    for (int k = 0; k < 6; ++k) {
        DifferenceSummary all;
        std::size_t stages_out = 0, worst_stage = 0;
        double worst_rel = -1;
        for (auto const& s : r.stages) {
            auto const& c = s.coordinate[k];
            all.merge(c);
            if (c.outside > 0) ++stages_out;
            if (c.differing > 0 && c.max_rel > worst_rel) {
                worst_rel = c.max_rel;
                worst_stage = s.index;
            }
        }
        t.add_row({fmt::format("{} [{}]", k_coordinates[k], k_coordinate_units[k]), r.coordinate_tolerance[k],
                   num(all.max_abs), num(all.max_rel), std::to_string(all.differing),
                   std::to_string(all.outside), std::to_string(stages_out),
                   all.differing ? std::to_string(worst_stage) : "-"});
    }
    std::size_t records = 0, rec_stages = 0, first_rec = 0;
    DifferenceSummary stats;
    std::size_t stats_out_stages = 0, stats_out = 0, worst_stats_stage = 0;
    double worst_rel = -1;
    for (auto const& s : r.stages) {
        if (s.loss_records_differing > 0 && rec_stages++ == 0) first_rec = s.index;
        records += s.loss_records_differing;
        stats.merge(s.stats);
        stats_out += s.stats_outside;
        if (s.stats_outside > 0) ++stats_out_stages;
        if (s.stats.differing > 0 && s.stats.max_rel > worst_rel) {
            worst_rel = s.stats.max_rel;
            worst_stats_stage = s.index;
        }
    }
    t.add_row({"loss records, ids", "exact", "-", "-", std::to_string(records), std::to_string(records),
               std::to_string(rec_stages), rec_stages ? std::to_string(first_rec) : "-"});
    t.add_row({"statistics (all columns)", r.stats_tolerance, num(stats.max_abs), num(stats.max_rel),
               std::to_string(stats.differing), std::to_string(stats_out), std::to_string(stats_out_stages),
               stats.differing ? std::to_string(worst_stats_stage) : "-"});
    return t;
}

std::vector<std::string> stage_row(StageComparison const& s, bool full)
{
    int const k = worst_coordinate(s);
    // Built in column order (no insert in the middle: GCC 13's -Warray-bounds misreads it at -O3).
    std::vector<std::string> row;
    if (full)
        row = {std::to_string(s.index),   std::to_string(s.turn), std::to_string(s.entry), s.name, s.type,
               fmt::format("{:.6g}", s.s)};
    else
        row = {std::to_string(s.index), std::to_string(s.turn), s.name, fmt::format("{:.6g}", s.s)};
    if (full) {
        row.push_back(fmt::format("{:.0f}", s.alive_reference));
        row.push_back(fmt::format("{:.0f}", s.alive_candidate));
        for (auto const& c : s.coordinate)
            row.push_back(c.differing ? fmt::format("{} / {}", num(c.max_abs), num(c.max_rel)) : "0");
    }
    row.push_back(k < 0 ? "0" : fmt::format("{} ({})", num(s.coordinate[k].max_rel), k_coordinates[k]));
    row.push_back(fmt::format("{} ({})", s.particles_differing, s.particles_outside));
    if (full) row.push_back(std::to_string(s.loss_records_differing));
    row.push_back(s.stats.differing
                      ? fmt::format("{} ({} {})", s.stats_outside, s.worst_stat, num(s.stats.max_rel))
                      : "0");
    row.push_back(seconds(s.reference_seconds));
    row.push_back(seconds(s.candidate_seconds));
    row.push_back(speedup(s.reference_seconds, s.candidate_seconds));
    if (full) row.push_back(fmt::format("{} ({})", num(s.round_off), s.kicks));
    row.push_back(s.ok() ? "ok" : "FAIL");
    return row;
}

std::vector<std::string> stage_header(ValidationResult const& r, bool full)
{
    std::vector<std::string> h = {"stage", "turn", "element", "s [m]"};
    if (full) {
        h.insert(h.begin() + 2, "entry");
        h.insert(h.begin() + 4, "type");
        h.push_back("alive (ref)");
        h.push_back("alive (cand)");
        for (int k = 0; k < 6; ++k) h.push_back(fmt::format("d{} max abs / rel", k_coordinates[k]));
    }
    h.push_back("max rel diff");
    h.push_back("particles differing (outside tol)");
    if (full) h.push_back("loss records differing");
    h.push_back("stats outside (worst)");
    h.push_back(backend_labels(r).first + " [s]");
    h.push_back(backend_labels(r).second + " [s]");
    h.push_back("speedup");
    if (full) h.push_back("default tau (kicks)");
    h.push_back("verdict");
    return h;
}

//! One row per deck element (in order of first appearance), summed over its stages.
TextTable element_table(ValidationResult const& r)
{
    struct Group {
        std::string name, type;
        std::size_t stages = 0, failed = 0, particles_outside = 0, stats_outside = 0;
        DifferenceSummary coord;
        int worst_k = -1;
        double ref_s = 0, cand_s = 0;
    };
    std::vector<Group> groups;
    for (auto const& s : r.stages) {
        auto it =
            std::find_if(groups.begin(), groups.end(), [&](Group const& g) { return g.name == s.name; });
        if (it == groups.end()) {
            groups.emplace_back();
            groups.back().name = s.name;
            groups.back().type = s.type;
            it = groups.end() - 1;
        }
        Group& g = *it;
        ++g.stages;
        if (!s.ok()) ++g.failed;
        g.particles_outside = std::max(g.particles_outside, s.particles_outside);
        g.stats_outside += s.stats_outside;
        if (int const k = worst_coordinate(s);
            k >= 0 && (g.worst_k < 0 || s.coordinate[k].max_rel > g.coord.max_rel)) {
            g.worst_k = k;
            g.coord.max_rel = s.coordinate[k].max_rel;
        }
        g.ref_s += s.reference_seconds;
        g.cand_s += s.candidate_seconds;
    }
    auto const [ref, cand] = backend_labels(r);
    TextTable t({"element", "type", "stages", "stages failed", "max particles outside", "max rel diff",
                 "stats outside", ref + " [s]", cand + " [s]", "speedup"});
    for (auto const& g : groups)
        t.add_row(
            {g.name, g.type.empty() ? "-" : g.type, std::to_string(g.stages), std::to_string(g.failed),
             std::to_string(g.particles_outside),
             g.worst_k < 0 ? "0" : fmt::format("{} ({})", num(g.coord.max_rel), k_coordinates[g.worst_k]),
             std::to_string(g.stats_outside), seconds(g.ref_s), seconds(g.cand_s),
             speedup(g.ref_s, g.cand_s)});
    return t;
}

//! Stages that differ at all, worst first (failed before passed, then by particles and relative size).
std::vector<StageComparison const*> worst_stages(ValidationResult const& r, std::size_t n)
{
    std::vector<StageComparison const*> v;
    for (auto const& s : r.stages) {
        std::size_t differing = s.stats.differing + s.loss_records_differing;
        for (auto const& c : s.coordinate) differing += c.differing;
        if (differing > 0) v.push_back(&s);
    }
    auto const rel = [](StageComparison const* s) {
        int const k = worst_coordinate(*s);
        return std::max(k < 0 ? 0.0 : s->coordinate[k].max_rel, s->stats.max_rel);
    };
    std::stable_sort(v.begin(), v.end(), [&](auto a, auto b) {
        if (a->ok() != b->ok()) return !a->ok();
        if (a->particles_outside != b->particles_outside) return a->particles_outside > b->particles_outside;
        return rel(a) > rel(b);
    });
    if (v.size() > n) v.resize(n);
    return v;
}

//! [s] the first call of every kernel of one backend: the one-time part of its time (loading the GPU
//! module of each kernel on its first launch, first touch of memory, thread start).
double first_calls_seconds(std::map<std::string, KernelRecord> const& kernels)
{
    double sum = 0;
    for (auto const& [name, k] : kernels) sum += k.first_seconds;
    return sum;
}

std::string totals_line(ValidationResult const& r)
{
    return fmt::format(
        "{:.4g} s on {}, {:.4g} s on {}: speedup {} (each backend's kernel timers: generation, "
        "tracking and moments)",
        r.reference_seconds, r.reference_name, r.candidate_seconds, r.candidate_name,
        speedup(r.reference_seconds, r.candidate_seconds));
}

//! The same totals without each kernel's first call: what a longer run of the deck would see per call.
std::string steady_totals_line(ValidationResult const& r)
{
    double const ref_first = first_calls_seconds(r.reference_kernels);
    double const cand_first = first_calls_seconds(r.candidate_kernels);
    double const ref = std::max(0.0, r.reference_seconds - ref_first);
    double const cand = std::max(0.0, r.candidate_seconds - cand_first);
    return fmt::format(
        "{:.4g} s on {}, {:.4g} s on {}: speedup {} (the first calls, {:.4g} s and {:.4g} s, "
        "left out)",
        ref, r.reference_name, cand, r.candidate_name, speedup(ref, cand), ref_first, cand_first);
}

TextTable kernel_table(ValidationResult const& r)
{
    auto const [ref, cand] = backend_labels(r);
    TextTable t({"kernel", "calls", ref + " [s]", cand + " [s]", "speedup", ref + " first call [s]",
                 cand + " first call [s]", cand + " GB/s"});
    for (auto const& [name, a] : r.reference_kernels) {
        auto it = r.candidate_kernels.find(name);
        KernelRecord const b = it == r.candidate_kernels.end() ? KernelRecord{} : it->second;
        t.add_row({name, std::to_string(a.calls), seconds(a.seconds), seconds(b.seconds),
                   speedup(a.seconds, b.seconds), seconds(a.first_seconds), seconds(b.first_seconds),
                   b.seconds > 0 ? fmt::format("{:.3g}", b.bytes / b.seconds / 1e9) : "-"});
    }
    return t;
}

}  // namespace

std::string validation_summary(ValidationResult const& r, std::size_t max_rows)
{
    std::string out = fmt::format(
        "gtrack validate {}: {} macroparticles, {} turn{}, {} stages (the initial beam, "
        "then {})\n",
        r.deck_path, r.macroparticles, r.turns, r.turns == 1 ? "" : "s", r.stages.size(), r.stages_where);
    out += fmt::format("reference: {}\ncandidate: {}\ntolerances: {}; loss records and ids exact\n",
                       r.reference_name, r.candidate_name, r.tolerances);
    if (!r.round_off.empty()) out += fmt::format("default tolerance: {}\n", r.round_off);
    if (!r.perturbation.empty())
        out += fmt::format("TESTING AID (--test-perturb-kick): {}\n", r.perturbation);
    out += "\n";
    out += "per quantity, over all stages:\n" + quantity_table(r).text() + "\n";
    if (r.stages.size() <= max_rows) {
        TextTable t(stage_header(r, false));
        for (auto const& s : r.stages) t.add_row(stage_row(s, false));
        out += "every stage:\n" + t.text();
    } else {
        out += fmt::format("by deck element ({} stages; every stage is in the report):\n", r.stages.size());
        out += element_table(r).text();
        auto const worst = worst_stages(r, 10);
        if (!worst.empty()) {
            TextTable t(stage_header(r, false));
            for (auto const* s : worst) t.add_row(stage_row(*s, false));
            out += fmt::format("\nworst stages ({} shown):\n", worst.size()) + t.text();
        }
    }
    out += "\nper kernel:\n" + kernel_table(r).text();
    out += "totals: " + totals_line(r) + "\n";
    out += "after the first calls: " + steady_totals_line(r) + "\n";
    out += "verdict: " + validation_verdict(r) + "\n";
    return out;
}

std::string validation_report(ValidationResult const& r)
{
    std::string out = fmt::format("# gtrack validate: {}\n\n", r.deck_path);
    out += "**" + validation_verdict(r) + "**\n\n";
    out += "| | |\n|---|---|\n";
    out += fmt::format("| deck | `{}` |\n| reference backend | {} |\n| candidate backend | {} |\n",
                       r.deck_path, r.reference_name, r.candidate_name);
    out +=
        fmt::format("| macroparticles | {} |\n| turns | {} |\n| stages | {} (the initial beam, then {}) |\n",
                    r.macroparticles, r.turns, r.stages.size(), r.stages_where);
    out += fmt::format("| tolerances | {}; loss records and ids exact |\n", r.tolerances);
    if (!r.round_off.empty()) out += fmt::format("| default tolerance | {} |\n", r.round_off);
    if (!r.perturbation.empty())
        out += fmt::format("| TESTING AID (--test-perturb-kick) | {} |\n", r.perturbation);
    out += "\n";
    out += "## Per quantity, over all stages\n\n" + quantity_table(r).markdown() + "\n";
    out += "## By deck element\n\n" + element_table(r).markdown() + "\n";
    out += "## Totals\n\n" + totals_line(r) + "\n\nAfter the first calls: " + steady_totals_line(r) + "\n\n";
    out += "Per kernel:\n\n" + kernel_table(r).markdown() + "\n";
    out += "## Every stage\n\n";
    out +=
        "`d<q> max abs / rel`: the largest |reference - candidate| of coordinate q over all particles "
        "(lost ones included) and the largest relative difference; `max rel diff`: the largest relative "
        "difference over the coordinates, and which; `particles differing (outside tol)`: particles with any "
        "bit different, and those outside tolerance; `stats outside`: statistics columns outside tolerance "
        "(the column with the largest relative difference, and its size); times: each backend's kernels to "
        "reach and measure the stage.\n\n";
    TextTable t(stage_header(r, true));
    for (auto const& s : r.stages) t.add_row(stage_row(s, true));
    out += t.markdown();
    return out;
}

}  // namespace gt
