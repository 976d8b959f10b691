// The momentum-aperture search (MomentumAperture.hh, docs/studies.md "Momentum aperture").
#include "study/MomentumAperture.hh"

#include <fnmatch.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include <fmt/format.h>

#include "beam/BeamSetup.hh"
#include "deck/DeckError.hh"
#include "kernels/core/Types.hh"
#include "optics/Optics.hh"
#include "optics/OpticsModel.hh"
#include "run/TurnsPerCall.hh"
#include "study/DynamicAperture.hh"

namespace gt::study {

namespace {

constexpr double k_nan = std::numeric_limits<double>::quiet_NaN();

//! The exit entry of each element occurrence (where `optics` has a row), in table order.
std::vector<std::size_t> occurrence_exits(Lattice const& lattice)
{
    std::vector<std::size_t> out;
    for (std::size_t i = 0; i < lattice.info.size(); ++i) {
        ElementInfo const& in = lattice.info[i];
        if (in.deck_index >= 0 && in.slice + 1 == in.slices) out.push_back(i);
    }
    return out;
}

//! delta of gtrack's pt (pt = -dE / (p_ref c)): the inverse of pt_of_delta; exactly 0 at pt = 0.
double delta_of_pt(double pt, ReferenceParticle const& ref)
{
    if (pt == 0.0) return 0.0;
    double const e = 1.0 / ref.beta - pt;  // E / (p_ref c)
    double const g = 1.0 / (ref.beta_gamma * ref.beta_gamma);
    // (1 + delta)^2 = e^2 - g; delta = (e^2 - g - 1) / (sqrt(e^2 - g) + 1), without the cancellation.
    double const a = e * e - g;
    return (a - 1.0) / (std::sqrt(a) + 1.0);
}

//! The lowest RF frequency of the table's cavities that have a voltage (0: none): its half wavelength
//! bounds the phase of any particle inside a bucket.
double lowest_rf_frequency(DeckConfig const& deck, Lattice const& lattice)
{
    double f = 0;
    for (ElementInfo const& in : lattice.info) {
        if (in.deck_index < 0) continue;
        ElementConfig const& e = deck.elements[static_cast<std::size_t>(in.deck_index)];
        if (e.type != "rfcavity") continue;
        bool const on =
            e.strings.count("profile") ? e.get("scale", 1.0) != 0.0 : e.get("voltage", 0.0) != 0.0;
        double const fe = e.get("frequency", 0.0);
        if (on && fe > 0 && (f == 0 || fe < f)) f = fe;
    }
    return f;
}

//! The first lost candidate outward from delta = 0 on one side: its index (candidates: none lost).
struct SideResult {
    double delta = 0;
    std::int64_t lost_element = k_none_lost;
    double lost_s = k_nan;
    std::int64_t lost_turn = 0;
};

}  // namespace

DeckConfig momentum_aperture_deck(DeckConfig const& deck)
{
    DeckConfig d = deck;
    MomentumApertureConfig const& m = deck.momentum_aperture;
    if (m.turns > 0) d.lattice.turns = m.turns;
    // 4D: the ring's cavities give no energy (the deck reader refused those this cannot switch off).
    if (!m.rf)
        for (auto& e : d.elements)
            if (e.type == "rfcavity") e.values["voltage"] = 0.0;
    return d;
}

std::vector<std::size_t> momentum_aperture_locations(DeckConfig const& deck, Lattice const& lattice)
{
    MomentumApertureConfig const& m = deck.momentum_aperture;
    std::vector<std::size_t> const exits = occurrence_exits(lattice);
    double const s_end = lattice.info.empty() ? 0.0 : lattice.info.back().s_end;
    double const s_max = m.s_max < 0 ? s_end : m.s_max;
    std::vector<std::size_t> out;
    auto in_range = [&](double s) { return s >= m.s_min && s <= s_max; };
    for (std::size_t i : exits) {
        ElementInfo const& in = lattice.info[i];
        if (!in_range(in.s_end)) continue;
        bool const by_type = std::find(m.types.begin(), m.types.end(), in.type) != m.types.end();
        bool const by_name = std::any_of(m.names.begin(), m.names.end(), [&](std::string const& g) {
            return fnmatch(g.c_str(), in.name.c_str(), 0) == 0;
        });
        if (by_type || by_name) out.push_back(i);
    }
    if (m.every > 0) {
        // The first exit at or after each multiple of `every` from s_min (1e-9 m: a position written in the
        // deck and the sum of the lengths before it differ by round-off).
        std::size_t next = 0;
        for (std::int64_t k = 0;; ++k) {
            double const s = m.s_min + double(k) * m.every;
            if (s > s_max + 1e-9) break;
            while (next < exits.size() && lattice.info[exits[next]].s_end < s - 1e-9) ++next;
            if (next == exits.size()) break;
            if (in_range(lattice.info[exits[next]].s_end)) out.push_back(exits[next]);
        }
    }
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    if (out.empty())
        throw DeckError(m.where, "momentum_aperture",
                        fmt::format("no location selected between s = {} m and {} m (types, names, every)",
                                    m.s_min, s_max));
    return out;
}

MomentumApertureResult track_momentum_aperture(DeckConfig const& original, BeamKernels& kernels)
{
    DeckConfig const deck = momentum_aperture_deck(original);
    MomentumApertureConfig const& m = deck.momentum_aperture;
    ReferenceParticle const ref = initial_reference(deck);
    Lattice const lattice = build_lattice(deck, ref);
    std::vector<std::size_t> const where = momentum_aperture_locations(deck, lattice);

    // The closed orbit at every occurrence's exit, from `optics` (the deck's model: 6D with RF, with the
    // radiation's energy loss when the deck radiates; else 4D), the same maps as the tracking.
    optics::OpticsModel const model = optics::optics_model(deck, ref, "", true);
    optics::OpticsOptions options;
    model.apply(options);
    optics::OpticsResult const opt = optics::compute_optics(deck, model.lattice, options);
    std::vector<std::size_t> const exits = occurrence_exits(lattice);
    if (opt.rows.size() != exits.size() + 1)
        throw std::logic_error("momentum aperture: the optics' rows do not match the table's occurrences");
    auto row_of = [&](std::size_t entry) -> optics::OpticsRow const& {
        auto const it = std::lower_bound(exits.begin(), exits.end(), entry);
        return opt.rows[static_cast<std::size_t>(it - exits.begin()) + 1];
    };

    MomentumApertureResult r;
    r.turns = deck.lattice.turns;
    r.resolution = m.resolution;
    // 1e-9: delta_max written as a multiple of the resolution is that multiple despite the division's
    // round-off.
    r.candidates = static_cast<std::int64_t>(std::floor(m.delta_max / m.resolution + 1e-9));
    double const f_rf = lowest_rf_frequency(deck, lattice);
    r.rf = f_rf > 0;
    r.bucket_half_length = r.rf ? 0.5 * constants::c_light / f_rf : 0.0;

    // One block of 2K candidates per location: k = 0 ... K-1 is delta = +(k+1) step, K ... 2K-1 is -(k-K+1).
    auto const per = static_cast<std::size_t>(2 * r.candidates);
    std::size_t const n = per * where.size();
    ParticleState host(static_cast<size_type>(n), MemSpace::host);
    {
        ParticleView v = host.view();
        for (std::size_t b = 0; b < where.size(); ++b) {
            optics::Vec6 const& co = row_of(where[b]).orbit;
            double const delta_co = delta_of_pt(co[5], ref);
            for (std::size_t k = 0; k < per; ++k) {
                std::size_t const i = b * per + k;
                auto const K = static_cast<std::size_t>(r.candidates);
                double const delta = k < K ? double(k + 1) * m.resolution : -double(k - K + 1) * m.resolution;
                v.store(static_cast<size_type>(i),
                        Particle{co[0], co[1], co[2], co[3], co[4], pt_of_delta(delta_co + delta, ref)});
                v.id[i] = i;
                v.lost_element[i] = -1;
                v.lost_turn[i] = 0;
            }
        }
    }
    ParticleState state(host, kernels.memory());
    kernels.set_elements(lattice.elements, *lattice.field_data);
    auto const entries = static_cast<size_type>(lattice.elements.size());
    ParticleView const all = state.view();
    auto block = [&](std::size_t b) {
        ParticleView v = all;
        std::size_t const o = b * per;
        v.x += o, v.px += o, v.y += o, v.py += o, v.t += o, v.pt += o;
        v.id += o, v.lost_element += o, v.lost_turn += o;
        v.size = static_cast<size_type>(per);
        return v;
    };
    auto const turns = static_cast<std::int32_t>(r.turns);
    // Turn 0: each block from its location to the ring's end.
    for (std::size_t b = 0; b < where.size(); ++b)
        if (where[b] + 1 < entries) kernels.track(block(b), static_cast<size_type>(where[b] + 1), entries, 0);
    // Turns 1 ... N-1: every block together, whole turns a call of the many-turn executor, as [lattice]
    // turns_per_call says (run/TurnsPerCall.hh).
    // (bounded by the turns before the cast: the key may exceed an int32)
    auto const chunk = static_cast<std::int32_t>(std::min<std::int64_t>(
        turns_per_call(deck.lattice.turns_per_call, double(n) * double(entries),
                       kernels.memory() == MemSpace::device),
        turns));
    for (std::int32_t turn = 1; turn < turns;) {
        std::int32_t const k = std::min(chunk, turns - turn);
        kernels.track_turns(all, entries, turn, k);
        turn += k;
    }
    // Turn N: each block from the ring's start back to its location: N whole revolutions since the kick.
    for (std::size_t b = 0; b < where.size(); ++b)
        kernels.track(block(b), 0, static_cast<size_type>(where[b] + 1), turns);
    r.pushes = static_cast<std::int64_t>(n) * r.turns;

    ParticleState back(state, MemSpace::host);
    ParticleView const v = back.view();
    for (std::size_t b = 0; b < where.size(); ++b) {
        std::size_t const j = where[b];
        optics::Vec6 const& co = row_of(j).orbit;
        // A candidate's outcome: lost at an entry (its revolution since the kick: turn 0 and the entries
        // after the location are the first), outside the RF bucket at the end, or alive.
        auto outcome = [&](std::size_t i, SideResult& side) {
            std::int32_t const e = v.lost_element[i];
            if (e >= 0) {
                side.lost_element = e;
                side.lost_s = lattice.info[static_cast<std::size_t>(e)].s_end;
                side.lost_turn = v.lost_turn[i] + (static_cast<std::size_t>(e) > j ? 1 : 0);
                return true;
            }
            // Inside a bucket a particle's arrival time stays within half an RF wavelength of the synchronous
            // one; outside it slips by more each turn and never comes back (docs/studies.md).
            if (r.rf && std::abs(v.t[i] - co[4]) > r.bucket_half_length) {
                side.lost_element = k_lost_in_bucket;
                side.lost_turn = r.turns;
                return true;
            }
            return false;
        };
        SideResult plus, minus;
        auto const K = static_cast<std::size_t>(r.candidates);
        plus.delta = double(K) * m.resolution;
        minus.delta = -double(K) * m.resolution;
        for (std::size_t k = 0; k < K; ++k)
            if (outcome(b * per + k, plus)) {
                plus.delta = double(k) * m.resolution;
                break;
            }
        for (std::size_t k = 0; k < K; ++k)
            if (outcome(b * per + K + k, minus)) {
                minus.delta = -double(k) * m.resolution;
                break;
            }
        r.element.push_back(static_cast<std::int64_t>(j));
        r.name.push_back(lattice.info[j].name);
        r.s.push_back(lattice.info[j].s_end);
        r.delta_plus.push_back(plus.delta);
        r.delta_minus.push_back(minus.delta + 0.0);  // + 0.0: no negative zero
        r.lost_element_plus.push_back(plus.lost_element);
        r.lost_element_minus.push_back(minus.lost_element);
        r.lost_s_plus.push_back(plus.lost_s);
        r.lost_s_minus.push_back(minus.lost_s);
        r.lost_turn_plus.push_back(plus.lost_turn);
        r.lost_turn_minus.push_back(minus.lost_turn);
    }
    return r;
}

}  // namespace gt::study
