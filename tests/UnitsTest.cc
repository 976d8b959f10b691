// Unit strings: parsing, prefixes, compound units, dimension checks and exact conversions.
#include <doctest/doctest.h>

#include <string>

#include "Relative.hh"
#include "deck/Units.hh"
#include "kernels/core/Types.hh"

using namespace gt;

namespace {
std::string error_of(std::string const& text, QuantityKind const& kind)
{
    try {
        convert_quantity(text, kind);
    } catch (UnitError const& e) {
        return e.what();
    }
    FAIL("no error for \"" << text << "\"");
    return {};
}
}  // namespace

TEST_CASE("unit strings convert to the stored unit exactly where the units are of one family")
{
    // Exact: powers of ten, c and e are applied last so that they cancel (no last-bit error).
    CHECK(convert_quantity("50 cm", quantity::length) == 0.5);
    CHECK(convert_quantity("1 um", quantity::length) == 1e-6);
    CHECK(convert_quantity("2 GeV", quantity::energy) == 2000.0);
    CHECK(convert_quantity("250 MeV", quantity::energy) == 250.0);
    CHECK(convert_quantity("64.7 eV", quantity::energy) == test::relative(64.7e-6, 1e-15));
    CHECK(convert_quantity("2 GeV/c", quantity::momentum) == 2000.0);
    CHECK(convert_quantity("1.5 T", quantity::magnetic_field) == 1.5);
    CHECK(convert_quantity("2 MV", quantity::voltage) == 2e6);
    CHECK(convert_quantity("352.2 MHz", quantity::frequency) == 3.522e8);
    CHECK(convert_quantity("1 nC", quantity::charge) == 1e-9);
    CHECK(convert_quantity("3 mrad", quantity::angle) == 3e-3);
    CHECK(convert_quantity("1.2 m^-2", quantity::per_length2) == 1.2);
    CHECK(convert_quantity("5 1/m", quantity::per_length) == 5.0);
    CHECK(convert_quantity("1.032 g/cm3", quantity::density) == test::relative(1032.0, 1e-15));
    CHECK(convert_quantity("3 T*m / T", quantity::length) == 3.0);
    CHECK(convert_quantity("2 kg m^-3", quantity::density) == 2.0);
}

TEST_CASE("angles: degrees, the micro sign, and RF phases whose bare numbers are degrees")
{
    CHECK(convert_quantity("10 deg", quantity::angle) == test::relative(10 * constants::pi / 180, 1e-15));
    CHECK(convert_quantity("10 \xC2\xB5rad", quantity::angle) == 1e-5);  // U+00B5 micro sign
    CHECK(convert_quantity("10 \xCE\xBCm", quantity::length) == 1e-5);   // U+03BC Greek mu
    CHECK(convert_bare(-30.0, quantity::phase) == test::relative(-0.5235987755982988, 1e-15));
    CHECK(convert_quantity("0.5 rad", quantity::phase) == 0.5);
    CHECK(convert_bare(0.25, quantity::angle) == 0.25);
}

TEST_CASE("alternative forms: MeV/c^2 and amu for masses, ps for c t, mm mrad for emittances")
{
    CHECK(convert_quantity("938.27 MeV/c^2", quantity::rest_energy) == test::relative(938.27, 1e-15));
    CHECK(convert_quantity("1 amu", quantity::rest_energy) ==
          test::relative(constants::amu_mev, 1e-9));  // CODATA kg and MeV values agree to 1e-10
    CHECK(convert_quantity("1 ps", quantity::path_length) ==
          test::relative(constants::c_light * 1e-12, 1e-15));
    CHECK(convert_quantity("2 mm mrad", quantity::emittance) == test::relative(2e-6, 1e-15));
    CHECK(convert_quantity("2 um", quantity::emittance) == 2e-6);
    CHECK(convert_quantity("1 TeV", quantity::energy) == 1e6);
    CHECK(convert_quantity("0.5", quantity::length) == 0.5);  // a string with no unit is a bare number
}

TEST_CASE("a unit of the wrong dimension names what was expected and what was given")
{
    CHECK(error_of("3 T", quantity::length) ==
          "expected a length (m, cm, mm, um, ...), got \"3 T\" (a magnetic field)");
    CHECK(error_of("5 mm", quantity::angle) ==
          "expected an angle (rad, mrad, urad, deg), got \"5 mm\" (a length)");
    CHECK(error_of("3 mrad", quantity::length).find("(an angle)") != std::string::npos);
    CHECK(error_of("2 GeV/c", quantity::energy).find("(a momentum)") != std::string::npos);
    CHECK(error_of("1 T/m", quantity::per_length2).find("(a field gradient (T/m))") != std::string::npos);
    CHECK(error_of("1 kg s", quantity::length).find("(units of kg s)") != std::string::npos);
}

TEST_CASE("strings that do not parse are errors that say why")
{
    CHECK(error_of("fifty cm", quantity::length).find("not a number followed by a unit") !=
          std::string::npos);
    CHECK(error_of("50 furlongs", quantity::length).find("unknown unit 'furlongs'") != std::string::npos);
    CHECK(error_of("50 cm/", quantity::length).find("nothing after '/'") != std::string::npos);
    CHECK(error_of("5 m^", quantity::length).find("digits after '^'") != std::string::npos);
    CHECK(error_of("5 mdeg", quantity::angle).find("unknown unit 'mdeg'") != std::string::npos);
    CHECK(error_of("", quantity::length).find("not a number") != std::string::npos);
    CHECK(error_of("inf m", quantity::length).find("not a number") != std::string::npos);
}

TEST_CASE("parse_quantity keeps the dimension as an exponent vector")
{
    auto const q = parse_quantity("1.032 g/cm3");
    CHECK(q.number == 1.032);
    CHECK(q.dimension == Dimension::of(-3, 1, 0, 0));
    auto const p = parse_quantity("2 GeV/c");
    CHECK(p.dimension == Dimension::of(1, 1, -1, 0));
    CHECK(parse_unit("mrad").dimension == Dimension::of(0, 0, 0, 0, 1));
    CHECK(describe_dimension(Dimension::of(2, 1, -2, 0)) == "an energy");
}
