// The units a field-map or on-axis profile file may state for lengths and fields, with their
// factors to SI: one list, so both file kinds accept the same names.
#pragma once

#include <optional>
#include <span>
#include <string>

namespace gt {

struct UnitFactor {
    char const* name;
    double factor;  //!< to SI
};

inline constexpr UnitFactor k_length_units[] = {{"m", 1.0}, {"cm", 1e-2}, {"mm", 1e-3}};
inline constexpr UnitFactor k_electric_units[] = {{"V/m", 1.0}, {"kV/m", 1e3}, {"MV/m", 1e6}};
inline constexpr UnitFactor k_magnetic_units[] = {{"T", 1.0}, {"mT", 1e-3}, {"G", 1e-4}};

//! The factor to SI of the unit called `name`; nullopt when `units` has none of that name.
std::optional<double> unit_factor(std::span<UnitFactor const> units, std::string const& name);

//! The names of `units` for an error message: "m, cm, mm".
std::string unit_list(std::span<UnitFactor const> units);

}  // namespace gt
