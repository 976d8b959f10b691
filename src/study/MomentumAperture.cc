// The momentum-aperture search (MomentumAperture.hh, docs/studies.md "Momentum aperture").
#include "study/MomentumAperture.hh"

#include <fnmatch.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <stdexcept>

#include <fmt/format.h>

#include "beam/BeamSetup.hh"
#include "deck/DeckError.hh"
#include "kernels/core/Types.hh"
#include "optics/Optics.hh"
#include "optics/OpticsModel.hh"
#include "parallel/Agreement.hh"
#include "parallel/Communicator.hh"
#include "parallel/GatherToRoot.hh"
#include "parallel/ParticleDecomposition.hh"
#include "run/TurnsPerCall.hh"
#include "study/DynamicAperture.hh"
#include "study/StudyCheckpoint.hh"

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

void track_candidates(BeamKernels& kernels, ParticleView all,
                      std::function<ParticleView(std::size_t)> const& block,
                      std::vector<std::size_t> const& where, size_type entries, std::int32_t turns,
                      std::int32_t chunk)
{
    // Turn 0: each block from its location to the ring's end.
    for (std::size_t b = 0; b < where.size(); ++b)
        if (ParticleView const v = block(b); v.size > 0 && where[b] + 1 < entries)
            kernels.track(v, static_cast<size_type>(where[b] + 1), entries, 0);
    // Turns 1 ... N-1: every block together, whole turns a call of the many-turn executor.
    for (std::int32_t turn = 1; turn < turns;) {
        std::int32_t const k = std::min(chunk, turns - turn);
        kernels.track_turns(all, entries, turn, k);
        turn += k;
    }
    // Turn N: each block from the ring's start back through its location: N whole revolutions since the kick.
    for (std::size_t b = 0; b < where.size(); ++b)
        if (ParticleView const v = block(b); v.size > 0)
            kernels.track(v, 0, static_cast<size_type>(where[b] + 1), turns);
}

MomentumApertureResult track_momentum_aperture(DeckConfig const& original, BeamKernels& kernels,
                                               StudyControl const* control)
{
    // Its blocks start and end at their locations, inside a turn: no checkpoint between whole turns is built.
    refuse_checkpoints(original, control, "the momentum aperture");
    DeckConfig const deck = momentum_aperture_deck(original);
    MomentumApertureConfig const& m = deck.momentum_aperture;
    ReferenceParticle const ref = initial_reference(deck);
    // The set-up's failures (no location, no closed orbit) are agreed by all ranks.
    struct SetUp {
        Lattice lattice;
        std::vector<std::size_t> where;
        optics::OpticsResult opt;
    };
    SetUp const set_up = parallel::all_or_none([&] {
        SetUp u;
        u.lattice = build_lattice(deck, ref);
        u.where = momentum_aperture_locations(deck, u.lattice);
        // The closed orbit at every occurrence's exit, from `optics` (the deck's model: 6D with RF, with the
        // radiation's energy loss when the deck radiates; else 4D), the same maps as the tracking.
        optics::OpticsModel const model = optics::optics_model(deck, ref, "", true);
        optics::OpticsOptions options;
        model.apply(options);
        u.opt = optics::compute_optics(deck, model.lattice, options);
        return u;
    });
    Lattice const& lattice = set_up.lattice;
    std::vector<std::size_t> const& where = set_up.where;
    optics::OpticsResult const& opt = set_up.opt;
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
    // Under MPI each rank holds a share of the candidates' ids (as a beam run its beam's), which may cut
    // blocks: a rank tracks the part of each block it holds.
    auto const per = static_cast<std::size_t>(2 * r.candidates);
    std::size_t const n = per * where.size();
    parallel::ParticleShare const share = parallel::my_particle_share(static_cast<std::uint64_t>(n));
    auto const first = static_cast<std::size_t>(share.first), local = static_cast<std::size_t>(share.count);
    ParticleState host(static_cast<size_type>(local), MemSpace::host);
    {
        ParticleView v = host.view();
        for (std::size_t j = 0; j < local; ++j) {
            std::size_t const i = first + j, b = i / per, k = i % per;
            optics::Vec6 const& co = row_of(where[b]).orbit;
            double const delta_co = delta_of_pt(co[5], ref);
            auto const K = static_cast<std::size_t>(r.candidates);
            double const delta = k < K ? double(k + 1) * m.resolution : -double(k - K + 1) * m.resolution;
            v.store(static_cast<size_type>(j),
                    Particle{co[0], co[1], co[2], co[3], co[4], pt_of_delta(delta_co + delta, ref)});
            v.id[j] = i;
            v.lost_element[j] = -1;
            v.lost_turn[j] = 0;
        }
    }
    ParticleState state(host, kernels.memory());
    kernels.set_elements(lattice.elements, *lattice.field_data);
    auto const entries = static_cast<size_type>(lattice.elements.size());
    ParticleView const all = state.view();
    // This rank's part of block b (empty: none of it).
    auto block = [&](std::size_t b) {
        std::size_t const lo = std::max(b * per, first), hi = std::min((b + 1) * per, first + local);
        ParticleView v = all;
        if (hi <= lo) {
            v.size = 0;
            return v;
        }
        std::size_t const o = lo - first;
        v.x += o, v.px += o, v.y += o, v.py += o, v.t += o, v.pt += o;
        v.id += o, v.lost_element += o, v.lost_turn += o;
        v.size = static_cast<size_type>(hi - lo);
        return v;
    };
    // The many-turn executor's chunk from the count of every rank's candidates (every rank makes the same
    // calls; bounded by the turns before the cast: the key may exceed an int32).
    auto const chunk = static_cast<std::int32_t>(
        std::min<std::int64_t>(turns_per_call(deck.lattice.turns_per_call, double(n) * double(entries),
                                              kernels.memory() == MemSpace::device),
                               r.turns));
    if (local > 0)
        track_candidates(kernels, all, block, where, entries, static_cast<std::int32_t>(r.turns), chunk);
    r.pushes = static_cast<std::int64_t>(n) * r.turns;

    // Every rank's candidates, joined on rank 0 in id order: their loss records and arrival times.
    ParticleState back(state, MemSpace::host);
    std::vector<std::int64_t> lost_element_mine(local), lost_turn_mine(local);
    std::vector<double> t_mine(local);
    for (std::size_t j = 0; j < local; ++j) {
        lost_element_mine[j] = back.view().lost_element[j];
        lost_turn_mine[j] = back.view().lost_turn[j];
        t_mine[j] = back.view().t[j];
    }
    std::vector<std::int64_t> const lost_element_all = parallel::gather_to_root(lost_element_mine);
    std::vector<std::int64_t> const lost_turn_all = parallel::gather_to_root(lost_turn_mine);
    std::vector<double> const t_all = parallel::gather_to_root(t_mine);
    if (!parallel::Communicator::world().is_root()) return r;
    struct Outcomes {
        std::int64_t const* lost_element;
        std::int64_t const* lost_turn;
        double const* t;
    } const v{lost_element_all.data(), lost_turn_all.data(), t_all.data()};
    for (std::size_t b = 0; b < where.size(); ++b) {
        std::size_t const j = where[b];
        optics::Vec6 const& co = row_of(j).orbit;
        // A candidate's outcome: lost at an entry (its revolution since the kick: turn 0 and the entries
        // after the location are the first), outside the RF bucket at the end, or alive.
        auto outcome = [&](std::size_t i, SideResult& side) {
            std::int64_t const e = v.lost_element[i];
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
