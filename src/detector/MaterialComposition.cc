// Element compositions of the built-in and user materials.
#include "detector/MaterialComposition.hh"

#include <algorithm>
#include <cmath>
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

//! Molière's element averages of a material (kernels/physics/MaterialParams.hh): each element weighs
//! by its share of chi_c^2, n_i Z_i (Z_i + 1) (Lynch & Dahl, NIM B58 (1991) 6, eq. 7).
void set_moliere_constants(MaterialParams& m, std::vector<ElementComponent> const& elements)
{
    double zz1 = 0, mass = 0, ln_z23 = 0, z2 = 0;
    for (ElementComponent const& e : elements) {
        double const z = e.z;
        double const q = e.atoms_per_m3 * z * (z + 1.0);
        zz1 += q;
        mass += e.atoms_per_m3 * e.a;
        ln_z23 += q * std::log(z) * (2.0 / 3.0);
        z2 += q * z * z;
    }
    if (zz1 <= 0 || mass <= 0) return;
    m.msc_zz1_over_a = zz1 / mass;
    m.msc_ln_z23 = ln_z23 / zz1;
    m.msc_z2 = z2 / zz1;
}

}  // namespace gt
