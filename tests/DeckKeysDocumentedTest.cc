// docs/decks.md against the deck reader: every element type and key of the element schema is
// documented and nothing else is; every key documented for a section is one the reader takes.
#include <doctest/doctest.h>

#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "deck/DeckError.hh"
#include "deck/DeckReader.hh"
#include "deck/ElementRegistry.hh"

using namespace gt;

namespace {

std::string read_text(std::string const& path)
{
    std::ifstream in(path);
    REQUIRE(in.good());
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

std::vector<std::string> lines_of(std::string const& text)
{
    std::vector<std::string> lines;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) lines.push_back(line);
    return lines;
}

//! The cells of a markdown table row "| a | b |" -> {"a", "b"}.
std::vector<std::string> cells_of(std::string const& row)
{
    std::vector<std::string> cells;
    std::size_t start = row.find('|') + 1;
    for (std::size_t bar; (bar = row.find('|', start)) != std::string::npos; start = bar + 1) {
        std::string cell = row.substr(start, bar - start);
        cell.erase(0, cell.find_first_not_of(' '));
        cell.erase(cell.find_last_not_of(' ') + 1);
        cells.push_back(cell);
    }
    return cells;
}

//! The names in backticks: "`dx`, `dy`" -> {"dx", "dy"}.
std::vector<std::string> backticked(std::string const& cell)
{
    std::vector<std::string> names;
    for (std::size_t a = cell.find('`'); a != std::string::npos; a = cell.find('`', a)) {
        std::size_t const b = cell.find('`', a + 1);
        if (b == std::string::npos) break;
        names.push_back(cell.substr(a + 1, b - a - 1));
        a = b + 1;
    }
    return names;
}

//! A documented key table: the heading it is under and the keys of its first column.
struct KeyTable {
    std::string heading;
    std::vector<std::string> keys;
};

//! Every table of docs/decks.md whose first column is "key" (or "type", for the element types).
std::vector<KeyTable> key_tables(std::string const& first_column)
{
    std::vector<KeyTable> tables;
    std::string heading;
    bool in_table = false;
    for (auto const& line : lines_of(read_text(GTRACK_SOURCE_DIR "/docs/decks.md"))) {
        if (line.starts_with("#")) heading = line;
        if (!line.starts_with("|")) {
            in_table = false;
            continue;
        }
        auto const cells = cells_of(line);
        if (!in_table) {
            in_table = true;
            if (!cells.empty() && cells[0] == first_column)
                tables.push_back({heading, {}});
            else
                tables.push_back({"", {}});
            continue;
        }
        if (tables.back().heading.empty() || line.starts_with("|---")) continue;
        for (auto const& k : backticked(cells[0])) tables.back().keys.push_back(k);
    }
    std::erase_if(tables, [](auto const& t) { return t.heading.empty(); });
    return tables;
}

//! The "unknown key" problems of reading deck with overrides.
std::vector<std::string> unknown_keys(std::string const& deck_text, std::vector<std::string> const& overrides)
{
    std::vector<std::string> unknown;
    try {
        read_deck_text(deck_text, "deck.toml", overrides);
    } catch (DeckError const& e) {
        for (auto const& d : e.diagnostics()) {
            INFO(d.format());
            REQUIRE(!d.message.starts_with("TOML syntax error"));  // the key must have been read
            if (d.message.starts_with("unknown key") || d.message.starts_with("unknown section"))
                unknown.push_back(d.format());
        }
    }
    return unknown;
}

//! "type.key" (or "type" for a whole type) of a that b lacks, for the failure message.
std::string only_in(std::map<std::string, std::set<std::string>> const& a,
                    std::map<std::string, std::set<std::string>> const& b)
{
    std::string text;
    for (auto const& [type, keys] : a) {
        auto const other = b.find(type);
        if (other == b.end()) {
            text += " " + type;
            continue;
        }
        for (auto const& k : keys)
            if (!other->second.count(k)) text += fmt::format(" {}.{}", type, k);
    }
    return text;
}

}  // namespace

TEST_CASE("docs/decks.md lists exactly the element types and keys of the element schema")
{
    // The per-type table: a row's type cell is empty for further keys of the type above it.
    std::map<std::string, std::set<std::string>> documented;
    std::string type;
    bool in_types = false;
    for (auto const& line : lines_of(read_text(GTRACK_SOURCE_DIR "/docs/decks.md"))) {
        if (!line.starts_with("|")) {
            in_types = false;
            continue;
        }
        auto const cells = cells_of(line);
        if (cells.size() >= 2 && cells[0] == "type" && cells[1] == "key") {
            in_types = true;
            continue;
        }
        if (!in_types || line.starts_with("|---")) continue;
        if (!cells[0].empty()) type = backticked(cells[0]).at(0);
        auto& keys = documented[type];
        for (auto const& k : backticked(cells[1])) keys.insert(k);
    }
    std::map<std::string, std::set<std::string>> schema;
    for (auto const& spec : element_schema()) {
        auto& keys = schema[std::string(spec.type)];
        for (auto const& p : spec.params) keys.insert(std::string(p.key));
    }
    INFO("in docs/decks.md only: ", only_in(documented, schema),
         "; in the schema only: ", only_in(schema, documented));
    CHECK(documented == schema);

    std::set<std::string> common_documented, common_schema;
    for (auto const& t : key_tables("key"))
        if (t.heading == "## `[elements]`") common_documented.insert(t.keys.begin(), t.keys.end());
    for (auto const& p : common_element_params()) common_schema.insert(std::string(p.key));
    CHECK(common_documented == common_schema);
}

TEST_CASE("every key docs/decks.md documents for a section is one the reader takes")
{
    std::string const beamline = read_text(GTRACK_SOURCE_DIR "/inputs/fodo.toml");
    std::string const detector = read_text(GTRACK_SOURCE_DIR "/inputs/tracker.toml");
    std::string const cathode = read_text(GTRACK_SOURCE_DIR "/inputs/photoinjector_cathode.toml");
    std::string const sts = read_text(GTRACK_SOURCE_DIR "/inputs/sts.toml");
    std::string const beam_detector = read_text(GTRACK_SOURCE_DIR "/inputs/collimator_losses.toml");
    // The section each table documents, from its heading; the deck it is tried in.
    std::map<std::string, std::pair<std::string, std::string const*>> const sections = {
        {"## `[run]`", {"run", &beamline}},
        {"## `[beam]`", {"beam", &beamline}},
        {"### `[beam.twiss]`", {"beam.twiss", &beamline}},
        {"### `[beam.sigma]`", {"beam.sigma", &beamline}},
        {"### `[beam.cathode]`", {"beam.cathode", &cathode}},
        {"## `[lattice]`", {"lattice", &beamline}},
        {"## `[errors]`", {"errors", &beamline}},
        {"### `[errors.NAME]`", {"errors.quads", &beamline}},
        {"## `[space_charge]`", {"space_charge", &beamline}},
        {"## `[output]`", {"output", &beamline}},
        {"## `[collective]`", {"collective", &beamline}},
        {"## `[dynamic_aperture]`", {"dynamic_aperture", &beamline}},
        {"## `[momentum_aperture]`", {"momentum_aperture", &beamline}},
        {"### `[materials.NAME]`", {"materials.scint", &detector}},
        {"### `[geometry]` from a GDML file", {"geometry", &detector}},
        {"### `[propagation]`", {"propagation", &detector}},
        {"### `[gun]`", {"gun", &detector}},
        {"### `[physics]`", {"physics", &detector}},
        {"### `[output]` (detector decks)", {"output", &detector}},
        {"### `[strips]`", {"strips", &sts}},
        {"### `[strips.readout]`", {"strips.readout", &sts}},
        {"### `[strips.stream]`", {"strips.stream", &sts}},
        {"### `[strips.reco]`", {"strips.reco", &sts}},
        {"### `[detector]` (beamline decks)", {"detector", &beam_detector}},
    };
    // Tables documented elsewhere: the element keys (above), [scan] (key paths, ScanTest), and
    // the volumes, tried below in a [[geometry.volume]] of their own.
    // The key of volumes along a beamline: BeamDetectorRunTest and the example decks.
    std::set<std::string> const elsewhere = {"## `[elements]`", "## `[scan]`",
                                             "### `[geometry.world]` and `[[geometry.volume]]`",
                                             "### `[[geometry.volume]]` along a beamline"};
    int tried = 0;
    for (auto const& table : key_tables("key")) {
        if (elsewhere.count(table.heading)) continue;
        auto const it = sections.find(table.heading);
        INFO(table.heading);
        REQUIRE(it != sections.end());  // a new table: add its section above
        // Plain names, not a structured binding: doctest's INFO captures them in a lambda (clang 14).
        auto const& path = it->second.first;
        auto const& deck = it->second.second;
        for (auto const& key : table.keys) {
            // Any value: a wrong one is another problem, never an unknown key.
            auto const unknown = unknown_keys(*deck, {fmt::format("{}.{}=0", path, key)});
            std::string const full_key = fmt::format("{}.{}", path, key);
            INFO(full_key);
            CHECK(unknown.empty());
            ++tried;
        }
    }
    for (auto const& table : key_tables("key")) {
        if (table.heading != "### `[geometry.world]` and `[[geometry.volume]]`") continue;
        for (auto const& key : table.keys) {
            // A valid box volume without the key, then the key.
            std::vector<std::pair<std::string, std::string>> const box = {
                {"name", "\"probe\""},
                {"shape", "\"box\""},
                {"half_size", "[\"1 mm\", \"1 mm\", \"1 mm\"]"},
                {"material", "\"air\""}};
            std::string volume = "\n[[geometry.volume]]\n";
            for (auto const& [k, v] : box)
                if (k != key) volume += fmt::format("{} = {}\n", k, v);
            volume += fmt::format("{} = 0\n", key);
            INFO(key);
            CHECK(unknown_keys(detector + volume, {}).empty());
            ++tried;
        }
    }
    CHECK(tried > 60);  // the tables were found (a change of the docs' layout must not pass quietly)
}

// The element tables of docs/decks.md and the importers' list are written from the element registry
// (deck/ElementRegistry.hh); after changing an entry, run scripts/update-element-docs.sh BUILD_DIR.
TEST_CASE("docs/decks.md's element tables are what the registry generates")
{
    std::string const docs = read_text(GTRACK_SOURCE_DIR "/docs/decks.md");
    std::string const begin =
        "<!-- generated by `gtrack elements --markdown` (scripts/update-element-docs.sh) -->\n";
    std::string const end = "<!-- end of the generated tables -->\n";
    std::size_t const a = docs.find(begin);
    REQUIRE(a != std::string::npos);
    std::size_t const b = docs.find(end, a);
    REQUIRE(b != std::string::npos);
    std::string const committed = docs.substr(a + begin.size(), b - a - begin.size());
    INFO("docs/decks.md differs from `gtrack elements --markdown`: run scripts/update-element-docs.sh");
    CHECK(committed == "\n" + element_tables_markdown() + "\n");
}

TEST_CASE("scripts/gtrack_elements.json, which the importers read, is what the registry generates")
{
    INFO(
        "scripts/gtrack_elements.json differs from `gtrack elements --json`: run "
        "scripts/update-element-docs.sh");
    CHECK(read_text(GTRACK_SOURCE_DIR "/scripts/gtrack_elements.json") == element_registry_json());
}
