// --unset KEY: removes a key (a value or a whole table) from the deck's TOML before it is read.
#include "deck/DeckSections.hh"

#include <algorithm>

#include <fmt/format.h>

#include "deck/DeckText.hh"
#include "deck/NamedEntries.hh"
#include "deck/Suggest.hh"
#include "deck/UnsetOverride.hh"

namespace gt::deck {

void apply_unset(DeckContext& ctx, toml::table& root, std::string const& key_text)
{
    SourceLocation const at{unset_override(key_text), 0, 0};
    std::string_view const key = trim(key_text);
    if (auto const eq = key.find('='); eq != std::string_view::npos) {
        ctx.error(at, std::string(trim(key.substr(0, eq))),
                  fmt::format("--unset takes a key without a value (to set one: --set {})", key));
        return;
    }
    std::vector<std::string> const segments = split_key(key);
    if (std::any_of(segments.begin(), segments.end(), [](auto const& s) { return s.empty(); })) {
        ctx.error(at, std::string(key), "expected a key path such as space_charge.grid after --unset");
        return;
    }
    toml::table* t = &root;
    std::string path;
    for (std::size_t i = 0; i < segments.size(); ++i) {
        std::string const parent = path;
        path = join_key(path, segments[i]);
        toml::node* n = t->get(segments[i]);
        if (!n) {
            std::vector<std::string> present;
            for (auto&& [k, v] : *t) present.emplace_back(k.str());
            ctx.error(at, std::string(key),
                      fmt::format("cannot unset '{}': {} has no '{}'{}", key,
                                  parent.empty() ? std::string("the deck") : fmt::format("[{}]", parent),
                                  segments[i], did_you_mean(segments[i], present)));
            return;
        }
        if (i + 1 == segments.size()) break;
        if (is_named_array(*n)) {  // [[geometry.volume]]: the next segment names an entry
            auto& entries = *n->as_array();
            std::string why;
            auto const* entry = named_entry(entries, path, segments[i + 1], why);
            if (!entry) {
                ctx.error(at, std::string(key), fmt::format("cannot unset '{}': {}", key, why));
                return;
            }
            if (i + 2 == segments.size()) {  // the whole entry: the volume is taken out of the deck
                entries.erase(std::find_if(entries.begin(), entries.end(),
                                           [&](toml::node const& e) { return e.as_table() == entry; }));
                return;
            }
            t = const_cast<toml::table*>(entry);
            path = join_key(path, segments[++i]);
            continue;
        }
        if (!n->is_table()) {
            ctx.error(
                at, std::string(key),
                fmt::format("cannot unset '{}': '{}' is {}, not a table", key, path, describe_node(*n)));
            return;
        }
        t = n->as_table();
    }
    t->erase(segments.back());
}

}  // namespace gt::deck
