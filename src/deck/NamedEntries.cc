// Key paths into arrays of named tables (deck/NamedEntries.hh).
#include "deck/NamedEntries.hh"

#include <algorithm>

#include <fmt/format.h>

#include "deck/Suggest.hh"

namespace gt::deck {

namespace {

std::string const* name_of(toml::node const& n)
{
    auto const* t = n.as_table();
    if (!t) return nullptr;
    auto const* name = t->get("name");
    return name && name->is_string() ? &name->as_string()->get() : nullptr;
}

}  // namespace

bool is_named_array(toml::node const& n)
{
    auto const* a = n.as_array();
    if (!a || a->empty()) return false;
    return std::all_of(a->begin(), a->end(), [](toml::node const& e) { return name_of(e) != nullptr; });
}

std::vector<std::string> entry_names(toml::array const& a)
{
    std::vector<std::string> names;
    for (auto const& e : a)
        if (auto const* n = name_of(e)) names.push_back(*n);
    return names;
}

toml::table const* named_entry(toml::array const& a, std::string const& path, std::string const& name,
                               std::string& why)
{
    toml::table const* found = nullptr;
    for (auto const& e : a) {
        std::string const* n = name_of(e);
        if (!n || *n != name) continue;
        if (found) {
            why = fmt::format("[[{}]] has more than one entry named '{}'", path, name);
            return nullptr;
        }
        found = e.as_table();
    }
    if (!found)
        why = fmt::format("[[{}]] has no entry named '{}'{}", path, name, did_you_mean(name, entry_names(a)));
    return found;
}

}  // namespace gt::deck
