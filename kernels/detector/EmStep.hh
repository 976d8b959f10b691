// What the step actions ask of the shower physics: which particles take part, their total
// macroscopic cross section, and the continuous energy loss of e+- over a step, from the tables.
#pragma once

#include "kernels/detector/DetectorParams.hh"
#include "kernels/physics/Photoelectric.hh"

namespace gt {

//! The random-number streams of a track besides its along-step one, each counted by the step
//! number: the interaction length drawn when a step starts, and the discrete interaction at its end.
//! Their key is the track id with one of these bits flipped (primary numbers stay below 2^61;
//! secondary ids are 63-bit hashes, Secondary.hh).
inline constexpr std::uint64_t k_limit_stream = std::uint64_t(1) << 62;
inline constexpr std::uint64_t k_interaction_stream = std::uint64_t(1) << 61;

//! k_em_electron, k_em_positron, k_em_gamma, or -1 when the particle has no shower physics.
GT_HOST_DEVICE inline int em_species(DetectorParamsView const& p, std::int32_t particle)
{
    return p.physics.showers && particle <= k_em_gamma ? particle : -1;
}

//! Total macroscopic cross section of the discrete processes [1/m].
GT_HOST_DEVICE inline double em_total_xs(EmTablesView const& em, int material, int species, double E)
{
    if (species == k_em_gamma) {
        double const pe = photoelectric_value(em.photoelectric_interval(material, E), E);
        return em.value(material, q_gamma_compton, E) + em.value(material, q_gamma_pair, E) + pe;
    }
    if (species == k_em_electron)
        return em.value(material, q_electron_ioni, E) + em.value(material, q_electron_brems, E);
    return em.value(material, q_positron_ioni, E) + em.value(material, q_positron_brems, E) +
           em.value(material, q_positron_annihilation, E);
}

GT_HOST_DEVICE inline int em_range_quantity(int species)
{
    return species == k_em_electron ? q_electron_range : q_positron_range;
}

//! Mean continuous loss of an e+- of kinetic energy T over a path s [m], from the range table
//! (T - T(R(T) - s)); the whole T when s reaches the range.
GT_HOST_DEVICE inline double em_mean_loss(EmTablesView const& em, int material, int species, double T,
                                          double s)
{
    int const q = em_range_quantity(species);
    double const R = em.value(material, q, T);
    if (s >= R) return T;
    double const loss = T - em.energy_of_range(material, q, R - s);
    return loss > 0 ? loss : 0.0;
}

}  // namespace gt
