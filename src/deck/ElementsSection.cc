// [elements]: each element's type and parameters, checked against the element registry (deck/ElementRegistry.hh).
#include "deck/DeckSections.hh"

#include <fmt/format.h>

#include "deck/DeckText.hh"
#include "deck/ElementRegistry.hh"

namespace gt::deck {

namespace {

bool read_param(DeckContext& ctx, toml::table const& t, std::string const& path, ParamSpec const& p,
                ElementSpec const& spec, ElementConfig& e)
{
    std::string const key(p.key);
    toml::node const* n = t.get(p.key);
    if (!n) {
        if (p.required) {
            std::string const what = p.type == ParamType::choice
                                         ? fmt::format("one of {}", quoted_list(to_strings(p.choices)))
                                         : fmt::format("{}, in {}", p.kind->what, p.kind->unit);
            ctx.error(ctx.where(t), join_key(path, key),
                      fmt::format("a {} needs '{}' ({})", spec.type, key, what));
            return false;
        }
        return true;
    }
    std::string const full = join_key(path, key);
    switch (p.type) {
        case ParamType::number: {
            auto const v = ctx.quantity_of(*n, full, *p.kind, p.bound);
            if (v) e.values[key] = *v;
            return v.has_value();
        }
        case ParamType::integer: {
            auto const v = ctx.integer_of(*n, full, p.bound);
            if (v) e.values[key] = static_cast<double>(*v);
            return v.has_value();
        }
        case ParamType::choice: {
            auto const v = ctx.choice_of(*n, full, to_strings(p.choices));
            if (v) e.strings[key] = *v;
            return v.has_value();
        }
        case ParamType::number_array: {
            auto const v = ctx.numbers_of(*n, full);
            if (v) e.arrays[key] = *v;
            return v.has_value();
        }
        case ParamType::flag: {
            auto const v = ctx.bool_of(*n, full);
            if (v) e.values[key] = *v ? 1.0 : 0.0;
            return v.has_value();
        }
        case ParamType::text: {
            auto const v = ctx.string_of(*n, full);
            if (v) e.strings[key] = *v;
            return v.has_value();
        }
    }
    return false;
}

bool read_element(DeckContext& ctx, toml::table const& t, std::string const& path, ElementConfig& e)
{
    auto const type = ctx.choice_at(t, path, "type", element_type_names(), true);
    if (!type) return false;
    e.type = *type;
    ElementSpec const& spec = *find_element_spec(*type);
    std::vector<std::string> known;
    for (auto const& p : common_element_params()) known.emplace_back(p.key);
    for (auto const& p : spec.params) known.emplace_back(p.key);
    ctx.check_keys(t, path, known);
    bool ok = true;
    for (auto const& p : common_element_params())
        if (p.key != "type") ok = read_param(ctx, t, path, p, spec, e) && ok;
    for (auto const& p : spec.params) ok = read_param(ctx, t, path, p, spec, e) && ok;
    return ok;
}

}  // namespace

void read_elements(DeckContext& ctx, toml::table const& t, DeckConfig& cfg)
{
    for (auto const& [k, v] : ctx.in_order(t)) {
        std::string const name(k->str());
        std::string const path = join_key("elements", name);
        auto const* et = v->as_table();
        if (!et) {
            ctx.element_names().insert(name);
            ctx.error(
                ctx.where(*k, *v), path,
                fmt::format("expected an element table such as {{ type = \"drift\", length = 1.0 }}, got {}",
                            describe_node(*v)));
            continue;
        }
        ctx.element_names().insert(name);
        ElementConfig e;
        e.name = name;
        e.where = ctx.where(*k, *v);
        if (read_element(ctx, *et, path, e)) cfg.elements.push_back(std::move(e));
    }
}

}  // namespace gt::deck
