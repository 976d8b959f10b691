// Units of field files (see FieldUnits.hh).
#include "beam/FieldUnits.hh"

namespace gt {

std::optional<double> unit_factor(std::span<UnitFactor const> units, std::string const& name)
{
    for (auto const& u : units)
        if (name == u.name) return u.factor;
    return std::nullopt;
}

std::string unit_list(std::span<UnitFactor const> units)
{
    std::string out;
    for (auto const& u : units) out += (out.empty() ? "" : ", ") + std::string(u.name);
    return out;
}

}  // namespace gt
