// Quantities in decks: unit strings ("50 cm", "2 GeV/c", "1.032 g/cm3") parsed, dimension-checked and
// converted to the unit each deck key is stored in.
//
// A unit expression is reduced to a dimension (an exponent vector over length, mass, time, charge and
// an 'angle' pseudo-dimension) and a scale. The scale keeps powers of ten, of c and of e apart from
// the rest, so that conversions between units of one family ("2 GeV" -> MeV, "50 cm" -> m,
// "2 GeV/c" -> p c in MeV) are exact in floating point rather than off in the last bit.
#pragma once

#include <array>
#include <stdexcept>
#include <string>
#include <string_view>

namespace gt {

//! Exponents of length, mass, time, charge and angle. Angle is kept apart from 1 so that "5 mm" for
//! an angle (or "3 mrad" for a length) is caught, while bare numbers for angles stay plain radians.
struct Dimension {
    enum Base { length, mass, time, charge, angle, count };
    std::array<int, count> exponent{};

    constexpr bool operator==(Dimension const&) const = default;
    constexpr Dimension operator*(Dimension const& o) const
    {
        Dimension r;
        for (int i = 0; i < count; ++i) r.exponent[i] = exponent[i] + o.exponent[i];
        return r;
    }
    constexpr Dimension operator/(Dimension const& o) const
    {
        Dimension r;
        for (int i = 0; i < count; ++i) r.exponent[i] = exponent[i] - o.exponent[i];
        return r;
    }
    constexpr Dimension pow(int n) const
    {
        Dimension r;
        for (int i = 0; i < count; ++i) r.exponent[i] = exponent[i] * n;
        return r;
    }
    constexpr Dimension without_angle() const
    {
        Dimension r = *this;
        r.exponent[angle] = 0;
        return r;
    }
    static constexpr Dimension of(int l, int m, int t, int q, int a = 0)
    {
        return Dimension{{l, m, t, q, a}};
    }
};

//! A unit's size in SI base units: mantissa * 10^exp10 * c^c_power * e^e_power.
struct Scale {
    double mantissa = 1.0;
    int exp10 = 0;
    int c_power = 0;  //!< powers of the speed of light [m/s]
    int e_power = 0;  //!< powers of the elementary charge [C]

    constexpr Scale operator*(Scale const& o) const
    {
        return {mantissa * o.mantissa, exp10 + o.exp10, c_power + o.c_power, e_power + o.e_power};
    }
    constexpr Scale operator/(Scale const& o) const
    {
        return {mantissa / o.mantissa, exp10 - o.exp10, c_power - o.c_power, e_power - o.e_power};
    }
    Scale pow(int n) const;
    //! x times this scale, with the exact factors applied last so that they cancel exactly.
    double apply(double x) const;
};

//! What a deck key holds: its dimension, the unit of a bare number, and the unit it is stored in.
struct QuantityKind {
    std::string_view what;      //!< "a length"
    std::string_view unit;      //!< the unit of a bare number: "m", "MeV", "deg"
    std::string_view examples;  //!< "m, cm, mm, ..."
    Dimension dimension;
    Scale bare;    //!< the unit a bare number is in (MeV for energies, deg for RF phases)
    Scale stored;  //!< the unit the configuration holds (SI, except energies in MeV)
    //! Also accept dimension * (velocity)^c_alternative, converted with c: p in MeV/c for p c,
    //! a mass in amu for a rest energy, a duration in ps for c t.
    int c_alternative = 0;
    //! Accept the dimension with any power of angle too (an emittance in "m rad" or in "um").
    bool angle_free = false;
};

//! Thrown by the parsing functions; the message says what was expected and what was found, the
//! deck reader adds the location and key.
class UnitError : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

//! A parsed quantity: number times unit.
struct Quantity {
    double number = 0;
    Scale scale;
    Dimension dimension;
};

//! "352.2 MHz" -> {352.2, 10^6 s^-1, 1/time}; a plain "0.5" is dimensionless. Throws UnitError.
Quantity parse_quantity(std::string_view text);
//! "g/cm3" -> its scale and dimension. Throws UnitError.
Quantity parse_unit(std::string_view unit);

//! The deck's value given as a string, in kind's stored unit. A string without a unit is a bare
//! number. Throws UnitError: `expected a length (m, cm, mm, ...), got "3 T" (a magnetic field)`.
double convert_quantity(std::string_view text, QuantityKind const& kind);
//! A bare number, in kind's stored unit.
double convert_bare(double number, QuantityKind const& kind);

//! "a magnetic field", "an energy", or the SI base units ("kg m^2 s^-1") when it has no name.
std::string describe_dimension(Dimension const& d);

//! The kinds of quantity deck keys hold.
namespace quantity {
inline constexpr double k_pi = 3.14159265358979323846;
inline constexpr Scale k_si{};
inline constexpr Scale k_mev{1.0, 6, 0, 1};  // 10^6 e J
inline constexpr Scale k_degree{k_pi / 180.0};

inline constexpr QuantityKind dimensionless{"a plain number", "1", "no unit", Dimension{}, k_si, k_si};
inline constexpr QuantityKind length{"a length", "m", "m, cm, mm, um, ...", Dimension::of(1, 0, 0, 0),
                                     k_si,       k_si};
//! c (t - t_ref): a length, or a duration converted with c.
inline constexpr QuantityKind path_length{
    "a length (c t)", "m", "m, mm, ... or s, ps, ...", Dimension::of(1, 0, 0, 0), k_si, k_si, 1};
inline constexpr QuantityKind angle{"an angle", "rad", "rad, mrad, urad, deg", Dimension::of(0, 0, 0, 0, 1),
                                    k_si,       k_si};
//! RF phases: a bare number is in degrees, stored in radians.
inline constexpr QuantityKind phase{"an angle", "deg", "deg, rad, mrad", Dimension::of(0, 0, 0, 0, 1),
                                    k_degree,   k_si};
inline constexpr QuantityKind emittance{
    "an emittance", "m rad", "m rad, mm mrad, um, nm, ...", Dimension::of(1, 0, 0, 0), k_si, k_si, 0, true};
inline constexpr QuantityKind energy{"an energy", "MeV", "eV, keV, MeV, GeV, TeV", Dimension::of(2, 1, -2, 0),
                                     k_mev,       k_mev};
//! A rest energy m c^2 in MeV; also a mass ("MeV/c^2", "amu").
inline constexpr QuantityKind rest_energy{
    "a rest energy", "MeV", "MeV, GeV, MeV/c^2, amu", Dimension::of(2, 1, -2, 0), k_mev, k_mev, 2};
//! A momentum as p c in MeV; also a momentum ("MeV/c", "GeV/c").
inline constexpr QuantityKind momentum{
    "a momentum", "MeV/c", "MeV/c, GeV/c, or p c in MeV", Dimension::of(2, 1, -2, 0), k_mev, k_mev, 1};
inline constexpr QuantityKind charge{"a charge", "C", "C, nC, pC, ...", Dimension::of(0, 0, 0, 1),
                                     k_si,       k_si};
inline constexpr QuantityKind time{"a time", "s", "s, ms, us, ns, ps", Dimension::of(0, 0, 1, 0), k_si, k_si};
inline constexpr QuantityKind voltage{"a voltage", "V", "V, kV, MV, GV", Dimension::of(2, 1, -2, -1),
                                      k_si,        k_si};
inline constexpr QuantityKind frequency{"a frequency", "Hz", "Hz, kHz, MHz, GHz", Dimension::of(0, 0, -1, 0),
                                        k_si,          k_si};
inline constexpr QuantityKind magnetic_field{"a magnetic field",          "T",  "T, mT, ...",
                                             Dimension::of(0, 1, -1, -1), k_si, k_si};
inline constexpr QuantityKind electric_field{"an electric field",          "V/m", "V/m, kV/m, MV/m",
                                             Dimension::of(1, 1, -2, -1), k_si,  k_si};
inline constexpr QuantityKind density{"a density", "kg/m^3", "g/cm3, kg/m3", Dimension::of(-3, 1, 0, 0),
                                      k_si,        k_si};
inline constexpr QuantityKind per_length{"an inverse length",        "1/m", "1/m, m^-1",
                                         Dimension::of(-1, 0, 0, 0), k_si,  k_si};
inline constexpr QuantityKind per_length2{"a focusing strength",      "1/m^2", "1/m^2, m^-2",
                                          Dimension::of(-2, 0, 0, 0), k_si,    k_si};
inline constexpr QuantityKind per_length3{"a sextupole strength",     "1/m^3", "1/m^3, m^-3",
                                          Dimension::of(-3, 0, 0, 0), k_si,    k_si};
inline constexpr QuantityKind per_length4{"an octupole strength",     "1/m^4", "1/m^4, m^-4",
                                          Dimension::of(-4, 0, 0, 0), k_si,    k_si};
//! Wakefield models: shunt impedances and a wall's conductivity.
inline constexpr QuantityKind resistance{"a resistance", "Ohm", "Ohm, kOhm, MOhm", Dimension::of(2, 1, -1, -2),
                                         k_si,           k_si};
inline constexpr QuantityKind resistance_per_length{
    "a resistance per length", "Ohm/m", "Ohm/m, MOhm/m", Dimension::of(1, 1, -1, -2), k_si, k_si};
inline constexpr QuantityKind conductivity{"a conductivity", "S/m", "S/m, MS/m", Dimension::of(-3, -1, 1, 2),
                                           k_si,             k_si};
}  // namespace quantity

}  // namespace gt
