// Unit values from CLHEP's SystemOfUnits.h (the definitions Geant4 evaluates GDML with), here in SI
// except energies, in MeV (gtrack's energy unit, so that "188*eV" is exactly 188e-6 as in a deck).
#include "deck/gdml/GdmlUnits.hh"

namespace gt::gdml {

namespace {

constexpr double k_pi = 3.14159265358979323846;
constexpr double k_joule = 1.0 / 1.602176634e-13;  // MeV (CODATA 2018 e, exact), CLHEP's joule

struct Unit {
    char const* name;
    UnitKind kind;
    double value;
};

// G4UnitDefinition's table (G4UnitsTable.cc), the categories a GDML attribute "unit"/"lunit"/"aunit"
// is checked against, with the symbols and the long names Geant4 accepts.
Unit const k_units[] = {
    {"m", UnitKind::length, 1.0},
    {"meter", UnitKind::length, 1.0},
    {"km", UnitKind::length, 1e3},
    {"kilometer", UnitKind::length, 1e3},
    {"cm", UnitKind::length, 1e-2},
    {"centimeter", UnitKind::length, 1e-2},
    {"mm", UnitKind::length, 1e-3},
    {"millimeter", UnitKind::length, 1e-3},
    {"um", UnitKind::length, 1e-6},
    {"micrometer", UnitKind::length, 1e-6},
    {"nm", UnitKind::length, 1e-9},
    {"nanometer", UnitKind::length, 1e-9},
    {"angstrom", UnitKind::length, 1e-10},
    {"fermi", UnitKind::length, 1e-15},
    {"rad", UnitKind::angle, 1.0},
    {"radian", UnitKind::angle, 1.0},
    {"mrad", UnitKind::angle, 1e-3},
    {"milliradian", UnitKind::angle, 1e-3},
    {"deg", UnitKind::angle, k_pi / 180.0},
    {"degree", UnitKind::angle, k_pi / 180.0},
    {"g/cm3", UnitKind::density, 1e3},
    {"mg/cm3", UnitKind::density, 1.0},
    {"kg/m3", UnitKind::density, 1.0},
    {"g/mole", UnitKind::molar_mass, 1e-3},
    {"g/mol", UnitKind::molar_mass, 1e-3},
    {"eV", UnitKind::energy, 1e-6},
    {"electronvolt", UnitKind::energy, 1e-6},
    {"keV", UnitKind::energy, 1e-3},
    {"MeV", UnitKind::energy, 1.0},
    {"GeV", UnitKind::energy, 1e3},
    {"TeV", UnitKind::energy, 1e6},
    {"PeV", UnitKind::energy, 1e9},
    {"J", UnitKind::energy, k_joule},
    {"joule", UnitKind::energy, k_joule},
    {"K", UnitKind::temperature, 1.0},
    {"kelvin", UnitKind::temperature, 1.0},
    {"pascal", UnitKind::pressure, 1.0},
    {"Pa", UnitKind::pressure, 1.0},
    {"bar", UnitKind::pressure, 1e5},
    {"atmosphere", UnitKind::pressure, 101325.0},
    {"atm", UnitKind::pressure, 101325.0},
};

}  // namespace

char const* unit_kind_name(UnitKind k)
{
    switch (k) {
        case UnitKind::length:
            return "length";
        case UnitKind::angle:
            return "angle";
        case UnitKind::density:
            return "density";
        case UnitKind::molar_mass:
            return "molar mass";
        case UnitKind::energy:
            return "energy";
        case UnitKind::temperature:
            return "temperature";
        default:
            return "pressure";
    }
}

std::vector<std::pair<char const*, double>> const& all_units()
{
    // CLHEP's internal units (mm, ns, MeV, e+, kelvin, mole, rad = 1), in which Geant4 evaluates
    // expressions: a <quantity value="1" unit="cm"/> is 10, and a box's x="len" lunit="mm" is then
    // 10 mm, as in Geant4. An attribute's own unit is applied in SI (GdmlSource::unit).
    static std::vector<std::pair<char const*, double>> const out = [] {
        double const joule = 1.0 / 1.602176634e-13;  // MeV
        double const kg = joule * 1e18 / 1e6;        // J s^2 / m^2 with s = 1e9 ns, m = 1e3 mm
        double const pascal = joule / 1e9;           // J / m^3
        return std::vector<std::pair<char const*, double>>{{"m", 1e3},
                                                           {"meter", 1e3},
                                                           {"km", 1e6},
                                                           {"kilometer", 1e6},
                                                           {"cm", 10.0},
                                                           {"centimeter", 10.0},
                                                           {"mm", 1.0},
                                                           {"millimeter", 1.0},
                                                           {"um", 1e-3},
                                                           {"micrometer", 1e-3},
                                                           {"nm", 1e-6},
                                                           {"nanometer", 1e-6},
                                                           {"angstrom", 1e-7},
                                                           {"fermi", 1e-12},
                                                           {"mm2", 1.0},
                                                           {"mm3", 1.0},
                                                           {"cm2", 1e2},
                                                           {"cm3", 1e3},
                                                           {"m2", 1e6},
                                                           {"m3", 1e9},
                                                           {"km2", 1e12},
                                                           {"km3", 1e18},
                                                           {"rad", 1.0},
                                                           {"radian", 1.0},
                                                           {"mrad", 1e-3},
                                                           {"milliradian", 1e-3},
                                                           {"deg", k_pi / 180.0},
                                                           {"degree", k_pi / 180.0},
                                                           {"sr", 1.0},
                                                           {"steradian", 1.0},
                                                           {"s", 1e9},
                                                           {"second", 1e9},
                                                           {"ms", 1e6},
                                                           {"us", 1e3},
                                                           {"ns", 1.0},
                                                           {"ps", 1e-3},
                                                           {"eV", 1e-6},
                                                           {"electronvolt", 1e-6},
                                                           {"keV", 1e-3},
                                                           {"MeV", 1.0},
                                                           {"GeV", 1e3},
                                                           {"TeV", 1e6},
                                                           {"PeV", 1e9},
                                                           {"J", joule},
                                                           {"joule", joule},
                                                           {"kg", kg},
                                                           {"kilogram", kg},
                                                           {"g", 1e-3 * kg},
                                                           {"gram", 1e-3 * kg},
                                                           {"mg", 1e-6 * kg},
                                                           {"milligram", 1e-6 * kg},
                                                           {"mole", 1.0},
                                                           {"mol", 1.0},
                                                           {"kelvin", 1.0},
                                                           {"K", 1.0},
                                                           {"pascal", pascal},
                                                           {"Pa", pascal},
                                                           {"bar", 1e5 * pascal},
                                                           {"atmosphere", 101325.0 * pascal},
                                                           {"tesla", 1e-3},
                                                           {"T", 1e-3},
                                                           {"gauss", 1e-7},
                                                           {"kilogauss", 1e-4},
                                                           {"perCent", 0.01},
                                                           {"perThousand", 1e-3},
                                                           {"pi", k_pi},
                                                           {"twopi", 2 * k_pi},
                                                           {"halfpi", k_pi / 2}};
    }();
    return out;
}

std::optional<double> unit_value(std::string const& name, UnitKind k)
{
    for (Unit const& u : k_units)
        if (u.kind == k && name == u.name) return u.value;
    return std::nullopt;
}

std::vector<std::string> unit_names(UnitKind k)
{
    std::vector<std::string> out;
    for (Unit const& u : k_units)
        if (u.kind == k) out.emplace_back(u.name);
    return out;
}

}  // namespace gt::gdml
