// [materials] of a detector deck: mixtures by density and mass fractions of elements.
#include "deck/DetectorSections.hh"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "deck/DeckText.hh"
#include "deck/Suggest.hh"
#include "deck/Materials.hh"

namespace gt::deck {

std::set<std::string> read_materials(DeckContext& ctx, toml::table const& t, DetectorConfig& d)
{
    std::set<std::string> broken;
    auto const builtins = builtin_material_names();
    for (auto [k, v] : ctx.in_order(t)) {
        std::string const name(k->str());
        std::string const path = join_key("materials", name);
        if (std::find(builtins.begin(), builtins.end(), name) != builtins.end()) {
            ctx.error(ctx.where(*k, *v), path,
                      fmt::format("'{}' is a built-in material; give yours another name", name));
            continue;
        }
        auto const* m = v->as_table();
        if (!m) {
            ctx.error(ctx.where(*v), path,
                      fmt::format("expected a table [materials.{}] with density and elements, got {}", name,
                                  describe_node(*v)));
            continue;
        }
        ctx.check_keys(*m, path, {"density", "elements", "mean_excitation_energy"});
        MaterialConfig mc;
        mc.name = name;
        auto const at = ctx.where(*m);
        mc.line = at.line;
        mc.column = at.column;
        bool ok = true;
        if (auto density = ctx.quantity_at(*m, path, "density", quantity::density, Bound::positive, true))
            mc.density = *density;
        else
            ok = false;
        if (auto i =
                ctx.quantity_at(*m, path, "mean_excitation_energy", quantity::energy, Bound::positive, false))
            mc.mean_excitation = *i;
        toml::node const* el = m->get("elements");
        if (!el) {
            ctx.missing(*m, path, "elements",
                        "a table of element symbols and mass fractions, e.g. { C = 0.92, H = 0.08 }");
            ok = false;
        } else if (auto const* et = el->as_table()) {
            double sum = 0;
            auto const symbols = element_symbols();
            for (auto [ek, ev] : ctx.in_order(*et)) {
                std::string const sym(ek->str());
                std::string const ekey = join_key(join_key(path, "elements"), sym);
                if (!find_element(sym)) {
                    ctx.error(ctx.where(*ek, *ev), ekey,
                              fmt::format("unknown element '{}'{}", sym, did_you_mean(sym, symbols)));
                    ok = false;
                    continue;
                }
                auto w = ctx.quantity_of(*ev, ekey, quantity::dimensionless, Bound::positive);
                if (!w) {
                    ok = false;
                    continue;
                }
                mc.elements.emplace_back(sym, *w);
                sum += *w;
            }
            if (ok && mc.elements.empty()) {
                ctx.error(ctx.where(*el), join_key(path, "elements"), "expected at least one element");
                ok = false;
            }
            if (ok && std::abs(sum - 1.0) > 0.01) {
                ctx.error(ctx.where(*el), join_key(path, "elements"),
                          fmt::format("mass fractions add up to {}, expected 1", sum));
                ok = false;
            }
            for (auto& e : mc.elements) e.second /= sum;
        } else {
            ctx.error(ctx.where(*el), join_key(path, "elements"),
                      fmt::format("expected a table of mass fractions, e.g. {{ C = 0.92, H = 0.08 }}, got {}",
                                  describe_node(*el)));
            ok = false;
        }
        if (ok)
            d.materials.push_back(std::move(mc));
        else
            broken.insert(name);
    }
    return broken;
}

}  // namespace gt::deck
