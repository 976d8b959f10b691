// Element compositions of the built-in and user materials.
#include "detector/MaterialComposition.hh"

#include <algorithm>
#include <stdexcept>

#include "deck/Materials.hh"
#include "kernels/physics/EmConstants.hh"

namespace gt {

namespace {

struct BuiltinComposition {
    char const* name;
    std::vector<std::pair<std::string, double>> by_mass;
};

// Mass fractions of the NIST material composition data (as in the PDG atomic and nuclear properties
// tables and the ESTAR/XCOM material lists).
BuiltinComposition const k_compositions[] = {
    {"air", {{"C", 0.000124}, {"N", 0.755268}, {"O", 0.231781}, {"Ar", 0.012827}}},
    {"silicon", {{"Si", 1.0}}},
    {"aluminium", {{"Al", 1.0}}},
    {"iron", {{"Fe", 1.0}}},
    {"copper", {{"Cu", 1.0}}},
    {"tungsten", {{"W", 1.0}}},
    {"lead", {{"Pb", 1.0}}},
    {"liquid_argon", {{"Ar", 1.0}}},
    {"polystyrene", {{"C", 0.922582}, {"H", 0.077418}}},
    {"water", {{"H", 0.111894}, {"O", 0.888106}}},
    {"csi", {{"Cs", 0.511549}, {"I", 0.488451}}},
};

}  // namespace

std::vector<ElementComponent> composition_by_mass(
    std::vector<std::pair<std::string, double>> const& fractions, double density)
{
    std::vector<ElementComponent> out;
    for (auto const& [symbol, w] : fractions) {
        ElementData const* e = find_element(symbol);
        if (!e) throw std::invalid_argument("unknown element " + symbol);
        ElementComponent c;
        c.z = e->z;
        c.a = e->a;
        c.atoms_per_m3 = density * 1.0e3 * w / e->a * em::k_avogadro;  // kg/m^3 -> g/m^3
        c.electrons_per_m3 = c.atoms_per_m3 * e->z;
        out.push_back(c);
    }
    return out;
}

std::vector<ElementComponent> material_composition(std::string const& name, double density,
                                                   std::vector<MaterialConfig> const& user_materials)
{
    if (name == "vacuum") return {};
    for (auto const& b : k_compositions)
        if (name == b.name) return composition_by_mass(b.by_mass, density);
    auto it = std::find_if(user_materials.begin(), user_materials.end(),
                           [&](MaterialConfig const& m) { return m.name == name; });
    if (it == user_materials.end()) throw std::invalid_argument("unknown material '" + name + "'");
    return composition_by_mass(it->elements, density);
}

}  // namespace gt
