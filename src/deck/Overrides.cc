// --set KEY=VALUE: a value from the command line, put into the deck's TOML before it is read.
#include "deck/DeckSections.hh"

#include <algorithm>
#include <memory>

#include <fmt/format.h>

#include "deck/DeckText.hh"
#include "deck/NamedEntries.hh"
#include "deck/Utf8.hh"

namespace gt::deck {

namespace {

//! The value as TOML, or as a plain string when it is not TOML ("300 MeV", "fodo2").
toml::table parse_override_value(std::string_view value, std::string const& origin)
{
    try {
        toml::table t = toml::parse(fmt::format("v = {}", value), origin);
        if (t.size() == 1 && t.contains("v")) return t;
    } catch (toml::parse_error const&) {
    }
    return toml::parse(fmt::format("v = \"{}\"", escape_basic_string(value)), origin);
}

}  // namespace

void apply_override(DeckContext& ctx, toml::table& root, std::string const& text)
{
    std::string const origin = fmt::format("{}{}", k_set_prefix, text);
    SourceLocation const at{origin, 0, 0};
    auto const eq = text.find('=');
    if (eq == std::string::npos) {
        ctx.error(at, "", "expected KEY=VALUE, e.g. --set beam.kinetic_energy=\"300 MeV\"");
        return;
    }
    std::string_view const key = trim(std::string_view(text).substr(0, eq));
    std::string_view const value = trim(std::string_view(text).substr(eq + 1));
    std::vector<std::string> const segments = split_key(key);
    if (std::any_of(segments.begin(), segments.end(), [](auto const& s) { return s.empty(); })) {
        ctx.error(at, std::string(key), "expected a key path such as elements.QF.k1 before '='");
        return;
    }
    if (value.empty()) {
        ctx.error(at, std::string(key), "no value after '='");
        return;
    }
    if (!is_valid_utf8(text)) {
        ctx.error(at, "", "not valid UTF-8 text (decks and overrides are UTF-8, as TOML requires)");
        return;
    }
    apply_value(ctx, root, segments, value, origin);
}

//! Sets root.<segments> to the TOML value `value` (a plain string when it is not TOML), creating
//! missing tables; `origin` is the source path of every node made (for ctx.where()).
void apply_value(DeckContext& ctx, toml::table& root, std::vector<std::string> const& segments,
                 std::string_view value, std::string const& origin)
{
    SourceLocation const at =
        ctx.where(toml::source_region{{1, 1}, {1, 1}, std::make_shared<std::string const>(origin)});
    std::string key;
    for (auto const& s : segments) key = join_key(key, s);
    auto const region = toml::source_region{{1, 1}, {1, 1}, std::make_shared<std::string const>(origin)};
    toml::table* t = &root;
    std::string path;
    for (std::size_t i = 0; i + 1 < segments.size(); ++i) {
        path = join_key(path, segments[i]);
        toml::node* n = t->get(segments[i]);
        if (!n) {
            t->insert(toml::key(segments[i], region), toml::table{});
            n = t->get(segments[i]);
            ctx.note_created(n, origin);
        }
        if (is_named_array(*n)) {  // [[geometry.volume]]: the next segment names an entry
            if (i + 2 >= segments.size()) {
                ctx.error(at, key,
                          fmt::format("cannot set '{}': name a key of the entry, e.g. {}.{}.KEY", key, path,
                                      i + 1 < segments.size() ? segments[i + 1] : "NAME"));
                return;
            }
            std::string why;
            auto const* entry = named_entry(*n->as_array(), path, segments[i + 1], why);
            if (!entry) {
                ctx.error(at, key, fmt::format("cannot set '{}': {}", key, why));
                return;
            }
            t = const_cast<toml::table*>(entry);
            path = join_key(path, segments[++i]);
            continue;
        }
        if (!n->is_table()) {
            ctx.error(at, key,
                      fmt::format("cannot set '{}': '{}' is {}, not a table", key, path, describe_node(*n)));
            return;
        }
        t = n->as_table();
    }
    toml::table parsed = parse_override_value(value, origin);
    parsed.get("v")->visit(
        [&](auto& v) { t->insert_or_assign(toml::key(segments.back(), region), std::move(v)); });
}

}  // namespace gt::deck
