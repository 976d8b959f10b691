// Space-charge kicks in the lattice: slicing, placement, settings and the per-kick table.
#include "run/SpaceChargeSchedule.hh"

#include <cmath>
#include <stdexcept>

#include <fmt/format.h>

#include "beam/OnAxisProfile.hh"
#include "deck/DeckError.hh"
#include "io/Measurement.hh"

namespace gt {

namespace {

bool sliceable(std::string const& type)
{
    return type == "drift" || type == "quadrupole" || type == "sbend" || type == "sextupole" ||
           type == "octupole" || type == "solenoid" || type == "rfcavity" || type == "collimator" ||
           type == "field_map";
}

}  // namespace

std::int64_t space_charge_kicks_in(SpaceChargeConfig const& sc, double length)
{
    if (sc.kicks_per_element > 0) return sc.kicks_per_element;
    // The 1e-9 keeps 2.0 kicks (1 m at 2/m, rounded a hair up) at 2.
    auto const n = static_cast<std::int64_t>(std::ceil(length * sc.kicks_per_meter * (1.0 - 1e-9)));
    return n < 1 ? 1 : n;
}

DeckConfig with_space_charge_slices(DeckConfig const& deck)
{
    DeckConfig out = deck;
    if (!deck.space_charge.enabled) return out;
    for (ElementConfig& e : out.elements) {
        double const length =
            e.strings.count("profile") ? profile_element_length(deck, e) : e.get("length", 0.0);
        if (!(length > 0.0) || !sliceable(e.type)) continue;
        std::int64_t const group = 2 * space_charge_kicks_in(deck.space_charge, length);
        auto const asked = static_cast<std::int64_t>(e.get("slices", 1.0));
        std::int64_t const per_group = (asked + group - 1) / group;
        e.values["slices"] = double(group * per_group);
    }
    return out;
}

std::vector<SpaceChargeKickPoint> space_charge_schedule(Lattice const& lattice, DeckConfig const& deck)
{
    std::vector<SpaceChargeKickPoint> kicks;
    if (!deck.space_charge.enabled) return kicks;
    for (std::size_t i = 0; i < lattice.info.size(); ++i) {
        ElementInfo const& info = lattice.info[i];
        double const l = info.s_end - info.s_begin;
        if (!(l > 0.0)) continue;  // thin entries, bend edges
        auto const entry = static_cast<std::int64_t>(i);
        // A t-code entry gets its kicks inside, at its time steps (time_code_space_charge_entries).
        if (lattice.elements[i].kind == ElementKind::time_code) continue;
        // A thick kicker cannot be sliced: one kick after it.
        if (!sliceable(info.type)) {
            kicks.push_back({entry, l});
            continue;
        }
        bool const bend = info.type == "sbend";
        std::int64_t const body = bend ? info.slice - 1 : info.slice;
        std::int64_t const bodies = bend ? info.slices - 2 : info.slices;
        ElementConfig const& element = deck.elements.at(std::size_t(info.deck_index));
        // A profile element's length is its file's span: the sum of its equal slices.
        double const length =
            element.strings.count("profile") ? l * double(info.slices) : element.get("length", 0.0);
        std::int64_t const n = space_charge_kicks_in(deck.space_charge, length);
        std::int64_t const group = bodies / n;
        if (group * n != bodies || group % 2 != 0)
            throw std::logic_error("space charge: element '" + info.name + "' was not sliced for its kicks");
        if ((body + 1) % group == group / 2) kicks.push_back({entry, length / double(n)});
    }
    return kicks;
}

std::vector<std::int64_t> time_code_space_charge_entries(Lattice const& lattice, DeckConfig const& deck)
{
    std::vector<std::int64_t> out;
    if (!deck.space_charge.enabled) return out;
    for (std::size_t i = 0; i < lattice.elements.size(); ++i)
        if (lattice.elements[i].kind == ElementKind::time_code) out.push_back(static_cast<std::int64_t>(i));
    return out;
}

void check_space_charge_over_ranks(SpaceChargeConfig const& sc)
{
    if (sc.deposition != "deterministic")
        throw DeckError(
            sc.where, "space_charge.deposition",
            fmt::format("'{}' sums charges in floating point, in an order that depends on the rank "
                        "count: runs over several MPI ranks need \"deterministic\"",
                        sc.deposition));
}

SpaceChargeSettings space_charge_settings(SpaceChargeConfig const& sc)
{
    SpaceChargeSettings s;
    s.model = sc.solver == "2.5d" ? SpaceChargeModel::two_and_half_d : SpaceChargeModel::three_d;
    s.grid = sc.grid;
    s.margin = sc.margin;
    s.shape = sc.shape == "tsc" ? ParticleShape::tsc : ParticleShape::cic;
    s.deposition = sc.deposition == "atomic"       ? DepositionMethod::atomic
                   : sc.deposition == "aggregated" ? DepositionMethod::aggregated
                                                   : DepositionMethod::deterministic;
    s.sort_every = static_cast<int>(sc.sort_every);
    s.truncate_sigma = sc.truncate_sigma;
    return s;
}

BeamFrame beam_frame(ReferenceParticle const& ref, double bunch_charge, std::uint64_t macroparticles)
{
    BeamFrame f;
    f.gamma = ref.gamma;
    f.beta = ref.beta;
    f.charge = ref.charge_e * constants::e_charge;
    f.mass = ref.mass_mev * 1e6 * constants::e_charge / (constants::c_light * constants::c_light);
    double const sign = ref.charge_e < 0 ? -1.0 : 1.0;
    f.macro_charge = macroparticles > 0 ? sign * bunch_charge / double(macroparticles) : 0.0;
    return f;
}

std::vector<std::pair<std::string, std::string>> space_charge_columns()
{
    return {{"s", "m"},
            {"turn", "1"},
            {"element", "1"},
            {"ds", "m"},
            {"inside", "1"},
            {"outside", "1"},
            {"inside_charge", "C"},
            {"deposited_charge", "C"},
            {"field_energy", "J"},
            {"hx", "m"},
            {"hy", "m"},
            {"hz", "m"},
            {"sorted", "1"},
            {"green_recomputed", "1"},
            {"t_sort", "s"},
            {"t_deposit", "s"},
            {"t_green", "s"},
            {"t_solve", "s"},
            {"t_field", "s"},
            {"t_gather", "s"},
            {"t_kick", "s"}};
}

void mark_space_charge_timings(Table& table)
{
    for (char const* c : {"t_sort", "t_deposit", "t_green", "t_solve", "t_field", "t_gather", "t_kick"})
        table.mark_measurement(c, measurement::timing);
}

std::vector<double> space_charge_row(SpaceChargeDiagnostics const& d, double s, std::int64_t turn,
                                     std::int64_t entry, double ds)
{
    return {s,
            double(turn),
            double(entry),
            ds,
            d.inside,
            d.outside,
            d.inside_charge,
            d.deposited_charge,
            d.field_energy,
            d.grid.hx,
            d.grid.hy,
            d.grid.hz,
            d.sorted ? 1.0 : 0.0,
            d.green_recomputed ? 1.0 : 0.0,
            d.t_sort,
            d.t_deposit,
            d.t_green,
            d.t_solve,
            d.t_field,
            d.t_gather,
            d.t_kick};
}

}  // namespace gt
