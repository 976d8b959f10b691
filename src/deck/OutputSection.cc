// [output] of a beamline deck: the file (expanded for scans), phase-space points and statistics.
#include "deck/DeckSections.hh"

#include <algorithm>
#include <map>

#include <fmt/format.h>

#include "deck/DeckText.hh"
#include "deck/Suggest.hh"

namespace gt::deck {

void read_output(DeckContext& ctx, toml::table const* t, DeckConfig& cfg,
                 std::set<std::string> const& tracked)
{
    OutputConfig& out = cfg.output;
    std::string const path = "output";
    out.file = cfg.run.name + ".h5";
    out.phase_space = {"end"};
    out.where = t ? ctx.where(*t) : SourceLocation{ctx.file(), 0, 0};
    ctx.set_output_file_given(false);
    if (!t) return;
    ctx.check_keys(*t, path, {"file", "phase_space", "stats", "checkpoint_every", "checksums"});
    if (auto b = ctx.bool_at(*t, path, "checksums")) out.checksums = *b;
    read_checkpoint_every(ctx, *t, out);
    if (toml::node const* n = t->get("file")) {
        out.where = ctx.where(*n);
        if (auto f = ctx.string_of(*n, "output.file")) {
            out.file = *f;
            ctx.set_output_file_given(true);
        }
    }
    if (toml::node const* n = t->get("phase_space")) {
        out.phase_space.clear();
        std::vector<toml::node const*> items;
        if (auto const* a = n->as_array()) {
            for (std::size_t i = 0; i < a->size(); ++i) items.push_back(a->get(i));
        } else {
            items.push_back(n);  // a single name is a list of one
        }
        std::vector<std::string> known = {"end"};
        known.insert(known.end(), ctx.element_names().begin(), ctx.element_names().end());
        for (std::size_t i = 0; i < items.size(); ++i) {
            std::string const key =
                n->is_array() ? fmt::format("output.phase_space[{}]", i) : "output.phase_space";
            auto name = ctx.string_of(*items[i], key);
            if (!name) continue;
            bool const is_line = std::any_of(cfg.lattice.lines.begin(), cfg.lattice.lines.end(),
                                             [&](auto const& l) { return l.first == *name; });
            if (*name != "end" && !ctx.element_names().count(*name)) {
                ctx.error(ctx.where(*items[i]), key,
                          is_line
                              ? fmt::format("'{}' is a line; phase space is written at elements (or \"end\")",
                                            *name)
                              : fmt::format("no element named '{}'{}", *name, did_you_mean(*name, known)));
                continue;
            }
            if (*name != "end" && !tracked.empty() && !tracked.count(*name)) {
                ctx.error(
                    ctx.where(*items[i]), key,
                    fmt::format("element '{}' is not in the tracked line '{}'", *name, cfg.lattice.use));
                continue;
            }
            out.phase_space.push_back(*name);
        }
    }
    if (auto s = ctx.choice_at(*t, path, "stats", {"every_element", "every_slice", "end", "turn"}, false)) {
        out.stats = *s == "every_slice" ? StatsWhere::every_slice
                    : *s == "end"       ? StatsWhere::end
                    : *s == "turn"      ? StatsWhere::turn
                                        : StatsWhere::every_element;
    }
}

//! Expands output.file ({index}, {name}, scanned keys); checks that scan points write distinct files.
void expand_output_file(DeckContext const& ctx, DeckConfig& cfg, std::vector<Diagnostic>& problems)
{
    OutputConfig& out = cfg.output;
    if (!cfg.scan.empty() && !ctx.output_file_given()) out.file = cfg.run.name + "_{index}.h5";
    out.file_template = out.file;
    std::string const key = "output.file";
    try {
        if (cfg.scan.empty()) {
            out.file = expand_output_name(out.file_template, cfg.run.name, cfg.scan, std::nullopt);
            return;
        }
        std::uint64_t const n = cfg.scan.size();
        out.file = expand_output_name(out.file_template, cfg.run.name, cfg.scan, cfg.scan_index.value_or(0));
        if (!cfg.scan_index) out.file = out.file_template;
        if (!output_name_uses_scan(out.file_template)) {
            problems.push_back({out.where, key,
                                fmt::format("every point of the scan would write '{}': put {{index}} (or the "
                                            "scanned keys) in output.file, e.g. \"{}_{{index}}.h5\"",
                                            out.file_template, cfg.run.name)});
            return;
        }
        if (n > 100000) return;  // too many to compare one by one: {index} is the usual case
        std::map<std::string, std::uint64_t> names;
        for (std::uint64_t p = 0; p < n; ++p) {
            std::string name = expand_output_name(out.file_template, cfg.run.name, cfg.scan, p);
            auto const [it, fresh] = names.emplace(std::move(name), p);
            if (!fresh) {
                problems.push_back({out.where, key,
                                    fmt::format("scan points {} and {} would both write '{}': add {{index}} "
                                                "to output.file",
                                                it->second, p, it->first)});
                return;
            }
        }
    } catch (ScanError const& e) {
        problems.push_back({out.where, key, e.what()});
    }
}

}  // namespace gt::deck
