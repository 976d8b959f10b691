// The ring studies' work counted with their own calls (StudyForecast.hh).
#include "study/StudyForecast.hh"

#include <cmath>
#include <cstdint>
#include <stdexcept>

#include "beam/BeamSetup.hh"
#include "beam/Lattice.hh"
#include "run/Forecast.hh"
#include "run/TurnsPerCall.hh"
#include "study/DynamicAperture.hh"
#include "study/MomentumAperture.hh"

namespace gt::study {

namespace {

//! A view of `n` particles without storage: the counting backend reads its size only.
ParticleView sized(std::uint64_t n)
{
    ParticleView v;
    v.size = static_cast<size_type>(n);
    return v;
}

//! Dynamic aperture: the grid's generation, then its turns as track_dynamic_aperture makes them (the
//! frequency map's per-turn samples and NAFF run on the host, beside the kernels: not priced).
RunForecast forecast_dynamic_aperture(DeckConfig const& deck, Ceilings const& ceilings)
{
    DynamicApertureConfig const& da = deck.dynamic_aperture;
    std::uint64_t const per_delta = da.grid == "polar" ? std::uint64_t(da.angles) * std::uint64_t(da.radii)
                                                       : std::uint64_t(da.nx) * std::uint64_t(da.ny);
    std::uint64_t const n = per_delta * da.deltas.size();
    Lattice const lattice = build_lattice(deck, initial_reference(deck));
    auto const entries = static_cast<size_type>(lattice.elements.size());
    return forecast_calls(ceilings, [&](BeamKernels& kernels) {
        kernels.set_elements(lattice.elements, *lattice.field_data);
        kernels.generate(sized(n), BeamSampler{}, 0);
        // The counting backend prices a many-turn call as its turns' calls (BeamKernels::track_turns), as it
        // does a beam run's: the chunk changes no price.
        std::int64_t const chunk =
            turns_per_call(deck.lattice.turns_per_call, double(n) * double(entries), false);
        std::function<void(std::int64_t)> const per_turn =
            da.frequency_map ? [](std::int64_t) {} : std::function<void(std::int64_t)>{};
        track_grid(kernels, sized(n), entries, deck.lattice.turns, chunk, per_turn);
    });
}

//! Momentum aperture: every location's block of candidates, as track_momentum_aperture tracks them (the
//! candidates are made on the host: not priced).
RunForecast forecast_momentum_aperture(DeckConfig const& original, Ceilings const& ceilings)
{
    DeckConfig const deck = momentum_aperture_deck(original);
    MomentumApertureConfig const& m = deck.momentum_aperture;
    Lattice const lattice = build_lattice(deck, initial_reference(deck));
    std::vector<std::size_t> const where = momentum_aperture_locations(deck, lattice);
    auto const candidates = static_cast<std::uint64_t>(std::floor(m.delta_max / m.resolution + 1e-9));
    std::uint64_t const per = 2 * candidates;
    auto const entries = static_cast<size_type>(lattice.elements.size());
    auto const turns = static_cast<std::int32_t>(deck.lattice.turns);
    double const n = double(per) * double(where.size());
    auto const chunk = static_cast<std::int32_t>(std::min<std::int64_t>(
        turns_per_call(deck.lattice.turns_per_call, n * double(entries), false), turns));
    return forecast_calls(ceilings, [&](BeamKernels& kernels) {
        kernels.set_elements(lattice.elements, *lattice.field_data);
        track_candidates(
            kernels, sized(per * where.size()), [&](std::size_t) { return sized(per); }, where, entries,
            turns, chunk);
    });
}

}  // namespace

bool is_study(DeckConfig const& deck)
{
    return deck.dynamic_aperture.enabled || deck.momentum_aperture.enabled;
}

RunForecast forecast_study(DeckConfig const& deck, Ceilings const& ceilings)
{
    if (deck.dynamic_aperture.enabled) return forecast_dynamic_aperture(deck, ceilings);
    if (deck.momentum_aperture.enabled) return forecast_momentum_aperture(deck, ceilings);
    throw std::logic_error("forecast_study: the deck has no study section");
}

}  // namespace gt::study
