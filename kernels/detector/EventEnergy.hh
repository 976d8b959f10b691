// The per-event energy balance of a shower run: where each event's energy went, as integers in
// units of k_tally_unit (atomic integer sums do not depend on order, so every backend agrees).
//
// primary = deposited + below_cut + escaped + lost, to rounding (one k_tally_unit/2 per entry):
// a positron counts as its kinetic energy plus 2 m_e (its own rest energy and its partner
// electron's, which annihilation releases), so pair production and annihilation keep the sum.
#pragma once

#include <cstdint>

#include "kernels/detector/Atomic.hh"

namespace gt {

enum EnergyCategory : int {
    k_energy_primary = 0,  //!< the event's primaries
    k_energy_deposited,    //!< continuous losses along steps
    k_energy_below_cut,    //!< deposited on the spot below a cut: tracking cut, sub-cut secondaries, binding
                           //!< energies
    k_energy_escaped,      //!< carried out of the world
    k_energy_lost,         //!< carried by tracks ended after max_steps
    k_num_energy_categories
};

//! Energy tallies are integers in units of k_tally_unit, so that their sums do not depend on order.
inline constexpr double k_tally_unit = 1.0e-9;  //!< [MeV]

GT_HOST_DEVICE inline std::uint64_t tally_units(double energy)
{
    return static_cast<std::uint64_t>(energy / k_tally_unit + 0.5);
}

struct EventEnergyView {
    std::uint64_t* data = nullptr;  //!< [event][category]; null: not recorded
    std::uint64_t events = 0;

    GT_HOST_DEVICE void add(std::uint64_t event, int category, double energy) const
    {
        if (!data || event >= events || energy <= 0) return;
        atomic_add(data + event * k_num_energy_categories + category, tally_units(energy));
    }
};

}  // namespace gt
