// <materials>: isotopes, elements and materials, read as Geant4's G4GDMLReadMaterials reads them.
//
// A <fraction ref> names an element first and a material only when no element has that name, as
// Geant4 does (exported files often call an element and a material both "Lead"); a volume's
// <materialref> names a material only. Names not defined in the file may be Geant4 NIST materials.
#include <cmath>

#include <fmt/format.h>

#include "deck/Materials.hh"
#include "deck/gdml/GdmlModel.hh"
#include "deck/gdml/NistMaterials.hh"

namespace gt::gdml {

namespace {

struct Isotope {
    int z = 0;
    double molar_mass = 0;  // [g/mol]
};

ElementData const* element_by_z(int z)
{
    for (auto const& s : element_symbols()) {
        ElementData const* e = find_element(s);
        if (e && e->z == z) return e;
    }
    return nullptr;
}

int read_z(GdmlSource& src, pugi::xml_node n)
{
    double const z = src.number(n, "Z");
    if (z < 1 || z != std::floor(z) || !element_by_z(static_cast<int>(z)))
        src.fail(n, fmt::format("Z = {} is not the atomic number of an element gtrack knows (1 to 98)", z));
    return static_cast<int>(z);
}

//! <atom value unit="g/mole"/>: the molar mass [g/mol].
double read_atom(GdmlSource& src, pugi::xml_node owner)
{
    pugi::xml_node a = owner.child("atom");
    if (!a) src.fail(owner, "an <atom value=... unit=\"g/mole\"/> (the molar mass) is missing");
    double const m = src.quantity(a, "value", "unit", UnitKind::molar_mass, "g/mole") * 1e3;
    if (!(m > 0)) src.fail(a, fmt::format("the molar mass must be positive, got {} g/mole", m));
    return m;
}

void add_fraction(std::vector<std::pair<int, double>>& by_mass, int z, double w)
{
    for (auto& [zz, ww] : by_mass)
        if (zz == z) {
            ww += w;
            return;
        }
    by_mass.emplace_back(z, w);
}

GdmlMaterial read_material(GdmlSource& src, pugi::xml_node n, GdmlModel& model)
{
    GdmlMaterial m;
    m.node = n;
    if (auto state = src.optional_text(n, "state"))
        if (*state != "solid" && *state != "liquid" && *state != "gas" && *state != "undefined")
            src.fail(n, fmt::format("state=\"{}\" is not one of solid, liquid, gas, undefined", *state));
    pugi::xml_node d = n.child("D");
    if (!d) src.fail(n, "the density <D value=... unit=\"g/cm3\"/> is missing");
    m.density = src.quantity(d, "value", "unit", UnitKind::density, "g/cm3");
    if (!(m.density > 0)) src.fail(d, fmt::format("the density must be positive, got {} kg/m3", m.density));
    if (pugi::xml_node t = n.child("T")) {
        double const temperature = src.quantity(t, "value", "unit", UnitKind::temperature, "K");
        if (!(temperature > 0)) src.fail(t, "the temperature must be positive");
    }
    if (pugi::xml_node p = n.child("P")) {
        double const pressure = src.quantity(p, "value", "unit", UnitKind::pressure, "pascal");
        if (!(pressure > 0)) src.fail(p, "the pressure must be positive");
    }
    if (pugi::xml_node i = n.child("MEE")) {
        double const mee = src.quantity(i, "value", "unit", UnitKind::energy, "eV");
        if (!(mee > 0)) src.fail(i, "the mean excitation energy must be positive");
        m.mean_excitation = mee;
    }
    if (n.attribute("Z")) {
        // a material of one element, given by Z and its molar mass
        int const z = read_z(src, n);
        read_atom(src, n);
        m.by_mass = {{z, 1.0}};
        return m;
    }
    bool fractions = false, composites = false;
    double total = 0;
    std::vector<std::pair<int, double>> by_mass;
    for (pugi::xml_node c : n.children()) {
        std::string const tag = c.name();
        if (tag != "fraction" && tag != "composite") continue;
        (tag == "fraction" ? fractions : composites) = true;
        std::string const ref = src.text(c, "ref");
        double const amount = src.number(c, "n");
        if (!(amount > 0)) src.fail(c, fmt::format("n must be positive, got {}", amount));
        auto const e = model.elements.find(ref);
        if (tag == "composite") {
            if (e == model.elements.end())
                src.fail(c, fmt::format("'{}' is not an element defined before this material (a <composite> "
                                        "counts the atoms of elements)",
                                        ref));
            double const w = amount * e->second.molar_mass;
            add_fraction(by_mass, e->second.z, w);
            total += w;
            continue;
        }
        total += amount;
        if (e != model.elements.end()) {
            add_fraction(by_mass, e->second.z, amount);
            continue;
        }
        GdmlMaterial const* sub = find_material(model, ref);
        if (!sub)
            src.fail(c,
                     fmt::format("'{}' is neither an element nor a material defined before this one, nor a "
                                 "Geant4 NIST material gtrack knows",
                                 ref));
        for (auto const& [z, w] : sub->by_mass) add_fraction(by_mass, z, amount * w);
    }
    if (fractions && composites)
        src.fail(n, "a material is made of <fraction>s or of <composite>s, not both");
    if (!fractions && !composites)
        src.fail(n, "no composition: give Z and <atom>, <fraction>s or <composite>s");
    if (fractions && std::fabs(total - 1.0) > 1e-3)
        src.fail(n, fmt::format("the mass fractions add up to {}, not 1", total));
    for (auto& [z, w] : by_mass) w /= total;
    m.by_mass = std::move(by_mass);
    return m;
}

}  // namespace

GdmlMaterial const* find_material(GdmlModel& model, std::string const& name)
{
    if (auto it = model.materials.find(name); it != model.materials.end()) return &it->second;
    NistMaterial const* nist = find_nist_material(name);
    if (!nist) return nullptr;
    GdmlMaterial m;
    m.builtin = nist->builtin ? nist->builtin : "";
    m.density = nist->density * 1e3;
    if (nist->i_ev > 0) m.mean_excitation = nist->i_ev * 1e-6;
    double total = 0;
    for (auto const& [z, amount] : nist->components) {
        double const w = nist->by_atoms ? amount * element_by_z(z)->a : amount;
        m.by_mass.emplace_back(z, w);
        total += w;
    }
    for (auto& [z, w] : m.by_mass) w /= total;
    return &model.materials.emplace(name, std::move(m)).first->second;
}

void read_materials(GdmlSource& src, pugi::xml_node materials, GdmlModel& model)
{
    std::map<std::string, Isotope> isotopes;
    for (pugi::xml_node n : materials.children()) {
        if (n.type() != pugi::node_element) continue;
        std::string const tag = n.name();
        std::string const name = src.text(n, "name");
        if (tag == "isotope") {
            if (isotopes.count(name))
                src.fail(n, fmt::format("an isotope named '{}' is defined already", name));
            isotopes[name] = {read_z(src, n), read_atom(src, n)};
        } else if (tag == "element") {
            if (model.elements.count(name))
                src.fail(n, fmt::format("an element named '{}' is defined already", name));
            GdmlElement e;
            if (n.attribute("Z")) {
                e.z = read_z(src, n);
                e.molar_mass = read_atom(src, n);
            } else {
                // by isotopes: n is each isotope's abundance by number
                double total = 0, mass = 0;
                for (pugi::xml_node f : n.children("fraction")) {
                    std::string const ref = src.text(f, "ref");
                    auto it = isotopes.find(ref);
                    if (it == isotopes.end())
                        src.fail(f, fmt::format("'{}' is not an isotope defined before this element", ref));
                    double const a = src.number(f, "n");
                    if (!(a > 0)) src.fail(f, fmt::format("n must be positive, got {}", a));
                    if (e.z != 0 && e.z != it->second.z)
                        src.fail(f, fmt::format("isotope '{}' has Z = {}, the element's others Z = {}", ref,
                                                it->second.z, e.z));
                    e.z = it->second.z;
                    total += a;
                    mass += a * it->second.molar_mass;
                }
                if (total <= 0) src.fail(n, "an element needs Z and <atom>, or <fraction>s of isotopes");
                if (std::fabs(total - 1.0) > 1e-3)
                    src.fail(n, fmt::format("the isotope abundances add up to {}, not 1", total));
                e.molar_mass = mass / total;
            }
            model.elements[name] = e;
        } else if (tag == "material") {
            if (model.materials.count(name))
                src.fail(n, fmt::format("a material named '{}' is defined already", name));
            GdmlMaterial m = read_material(src, n, model);
            model.materials[name] = std::move(m);
        } else {
            src.fail(n, fmt::format("unknown <materials> entry <{}> (expected isotope, element or material)",
                                    tag));
        }
    }
}

}  // namespace gt::gdml
