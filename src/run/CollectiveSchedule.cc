// Collective kicks in the lattice: the plan, the wake models of the deck, the per-kick table.
#include "run/CollectiveSchedule.hh"

#include <cmath>
#include <filesystem>

#include <fmt/format.h>

#include "deck/DeckError.hh"
#include "io/Measurement.hh"
#include "run/SpaceChargeSchedule.hh"

namespace gt {

namespace {

std::string key_of(ElementConfig const& e, std::string const& key) { return "elements." + e.name + "." + key; }

//! A key the wake model needs: its value, or a DeckError saying which model needs it.
double needed(ElementConfig const& e, std::string const& key, std::string const& model)
{
    auto const it = e.values.find(key);
    if (it == e.values.end())
        throw DeckError(e.where, key_of(e, key), fmt::format("a {} wake needs '{}'", model, key));
    return it->second;
}

}  // namespace

WakeFunction wake_of(ElementConfig const& e, std::string const& deck_path)
{
    std::string const model = e.get_string("model", "");
    WakePlane const plane =
        e.get_string("plane", "longitudinal") == "transverse" ? WakePlane::transverse : WakePlane::longitudinal;
    bool const transverse = plane == WakePlane::transverse;
    if (model == "resonator") {
        double const q = needed(e, "q", model);
        if (!(q > 0.5))
            throw DeckError(e.where, key_of(e, "q"),
                            fmt::format("a resonator wake needs q > 1/2 (an underdamped resonator), got {}", q));
        double const r = needed(e, transverse ? "r_transverse" : "r_shunt", model);
        return resonator_wake(plane, r, q, needed(e, "frequency", model));
    }
    if (model == "resistive_wall")
        return resistive_wall_wake(plane, needed(e, "radius", model), needed(e, "conductivity", model),
                                   needed(e, "pipe_length", model));
    if (model == "table") {
        auto const it = e.strings.find("file");
        if (it == e.strings.end())
            throw DeckError(e.where, key_of(e, "file"), "a table wake needs 'file' (a two-column wake table)");
        // A relative path is relative to the deck's directory.
        std::filesystem::path file = it->second;
        if (file.is_relative()) file = std::filesystem::path(deck_path).parent_path() / file;
        try {
            return read_wake_table(file.string(), plane);
        } catch (std::runtime_error const& err) {
            throw DeckError(e.where, key_of(e, "file"), err.what());
        }
    }
    throw DeckError(e.where, key_of(e, "model"), "expected one of \"resonator\", \"resistive_wall\", \"table\"");
}

CollectivePlan::CollectivePlan(Lattice const& lattice, DeckConfig const& deck)
{
    CollectiveConfig const& c = deck.collective;
    settings_.bins = static_cast<int>(c.bins);
    settings_.method = c.histogram == "per_block" ? LineHistogramMethod::per_block : LineHistogramMethod::deterministic;
    settings_.smoothing = static_cast<int>(c.smoothing);
    settings_.lsc_cutoff = c.lsc_cutoff;

    for (ElementConfig const& e : deck.elements) {
        if (e.type == "wake") wakes_.emplace(e.name, wake_of(e, deck.path));
        double const length = e.get("length", 0.0);
        bool const lsc = e.get("lsc", 0.0) != 0.0;
        auto const w = e.strings.find("wake");
        for (auto const& [key, used] : {std::pair<char const*, bool>{"lsc", lsc}, {"wake", w != e.strings.end()}})
            if (used && !(length > 0.0))
                throw DeckError(e.where, key_of(e, key),
                                fmt::format("'{}' acts on elements with a length; '{}' ({}) has none", key, e.name, e.type));
        if (lsc && deck.space_charge.enabled)
            throw DeckError(e.where, key_of(e, "lsc"),
                            "[space_charge] is enabled: its field already holds the longitudinal space charge "
                            "(lsc would count it twice)");
        if (w != e.strings.end()) {
            ElementConfig const* target = deck.find_element(w->second);
            if (!target || target->type != "wake")
                throw DeckError(e.where, key_of(e, "wake"),
                                fmt::format("'{}' is not {}: name an element of type \"wake\"", w->second,
                                            target ? "a wake element" : "an element of this deck"));
        }
        if (e.type == "sbend" && e.get("csr", 0.0) != 0.0 && e.get("angle", 0.0) == 0.0)
            throw DeckError(e.where, key_of(e, "csr"), "CSR needs a bend: this sbend has angle 0");
    }

    // The CSR drift wake: the last CSR bend's radius and angle, and the s of its exit (radius 0: none).
    double drift_radius = 0, drift_angle = 0, drift_from = 0;
    for (std::size_t i = 0; i < lattice.info.size(); ++i) {
        ElementInfo const& info = lattice.info[i];
        if (info.deck_index < 0) continue;  // the global aperture
        ElementConfig const& e = deck.elements[std::size_t(info.deck_index)];
        auto const entry = static_cast<std::int64_t>(i);
        double const dl = info.s_end - info.s_begin;
        if (e.type == "wake") kicks_[entry].wakes.push_back(&wakes_.at(e.name));
        if (!(dl > 0.0)) continue;
        bool const last = info.slice + (e.type == "sbend" ? 2 : 1) == info.slices;  // a bend ends with its edge
        if (auto const w = e.strings.find("wake"); w != e.strings.end() && last)
            kicks_[entry].wakes.push_back(&wakes_.at(w->second));
        bool const lsc = e.get("lsc", 0.0) != 0.0;
        bool const bend = e.type == "sbend" && e.get("angle", 0.0) != 0.0;
        bool const csr = bend && e.get("csr", 0.0) != 0.0;
        if (bend) drift_radius = 0;  // any bend ends the drift wake of the one before
        if (lsc || csr) {
            CollectiveKickSpec& k = kicks_[entry];
            k.ds = dl;
            k.lsc = lsc;
            if (csr) {
                double const angle = std::abs(e.get("angle", 0.0));
                k.csr_radius = e.get("length", 0.0) / angle;
                // Entrance transient: the angle at the middle of this body slice (slice 0 is the edge).
                if (c.csr_transient) k.csr_angle = (double(info.slice) - 0.5) * dl / k.csr_radius;
                if (last && c.csr_drift > 0) {
                    drift_radius = k.csr_radius;
                    drift_angle = angle;
                    drift_from = info.s_end;
                }
            }
        }
        if (!bend && drift_radius > 0) {
            // Slices whose middle lies within csr_drift of the exit feel the drift wake there.
            double const x = 0.5 * (info.s_begin + info.s_end) - drift_from;
            if (x < c.csr_drift) {
                CollectiveKickSpec& k = kicks_[entry];
                k.ds = dl;
                k.csr_radius = drift_radius;
                k.csr_angle = drift_angle;
                k.csr_exit_distance = x;
            } else {
                drift_radius = 0;
            }
        }
    }
}

void add_collective_kicks(BeamTracker& tracker, CollectivePlan const& plan, CollectiveSolver& solver,
                          ParticleView particles, Lattice const& lattice, DeckConfig const& deck, Table* table)
{
    std::vector<std::int64_t> entries;
    for (auto const& [entry, _] : plan.kicks()) entries.push_back(entry);
    tracker.add_kicks(entries, [&plan, &solver, &lattice, &deck, particles, table](std::int64_t entry, std::int64_t turn) {
        CollectiveKickSpec const& spec = plan.kicks().at(entry);
        // The whole beam's macroparticles (under MPI this rank holds a share).
        BeamFrame const frame = beam_frame(lattice.reference_after[std::size_t(entry)], deck.beam.bunch_charge,
                                           static_cast<std::uint64_t>(deck.beam.macroparticles));
        CollectiveDiagnostics const d = solver.kick(particles, plan.settings(), frame, spec);
        if (!table) return;
        double const s =
            lattice.reference_begin.s + double(turn) * lattice.length + lattice.info[std::size_t(entry)].s_end;
        std::vector<double> const row = {s,
                                         double(turn),
                                         double(entry),
                                         spec.ds,
                                         double(spec.wakes.size()),
                                         spec.lsc ? 1.0 : 0.0,
                                         spec.csr_radius,
                                         spec.csr_angle,
                                         spec.csr_exit_distance,
                                         double(d.bins),
                                         d.h,
                                         d.charge_on_grid,
                                         d.energy_change,
                                         d.t_histogram,
                                         d.t_convolve,
                                         d.t_kick};
        table->append_row(row);
    });
}

std::string describe_collective(DeckConfig const& deck, ReferenceParticle const& ref)
{
    DeckConfig const sliced = with_space_charge_slices(deck);
    CollectivePlan const plan(build_lattice(sliced, ref), sliced);
    if (plan.empty()) return "";
    std::size_t wakes = 0, lsc = 0, csr = 0, csr_drift = 0;
    for (auto const& [entry, k] : plan.kicks()) {
        wakes += k.wakes.size();
        lsc += k.lsc ? 1 : 0;
        bool const drift = k.csr_exit_distance >= 0;
        csr += k.csr_radius > 0 && !drift ? 1 : 0;
        csr_drift += k.csr_radius > 0 && drift ? 1 : 0;
    }
    std::string text = fmt::format(
        "collective: {} kick points per pass ({} wake kicks, {} LSC, {} CSR in bends ({}), {} CSR drift), {} bins, "
        "{} histogram, smoothing {}, LSC cutoff {:g} of Nyquist\n",
        plan.kicks().size(), wakes, lsc, csr, deck.collective.csr_transient ? "entrance transient" : "steady state",
        csr_drift, deck.collective.bins, deck.collective.histogram, deck.collective.smoothing,
        deck.collective.lsc_cutoff);
    for (ElementConfig const& e : deck.elements)
        if (e.type == "wake") text += fmt::format("      wake {}: {}\n", e.name, wake_of(e, deck.path).description);
    return text;
}

void mark_collective_timings(Table& table)
{
    for (char const* c : {"t_histogram", "t_convolve", "t_kick"}) table.mark_measurement(c, measurement::timing);
}

std::vector<std::pair<std::string, std::string>> collective_columns()
{
    return {{"s", "m"},           {"turn", "1"},          {"element", "1"},      {"ds", "m"},
            {"wakes", "1"},       {"lsc", "1"},           {"csr_radius", "m"},   {"csr_angle", "rad"},
            {"csr_exit_distance", "m"},                   {"bins", "1"},
            {"bin_width", "m"},   {"charge_on_grid", "C"}, {"energy_change", "J"}, {"t_histogram", "s"},
            {"t_convolve", "s"},  {"t_kick", "s"}};
}

std::string collective_summary(Table const& table)
{
    double de = 0, th = 0, tc = 0, tk = 0;
    for (double v : table.doubles("energy_change")) de += v;
    for (double v : table.doubles("t_histogram")) th += v;
    for (double v : table.doubles("t_convolve")) tc += v;
    for (double v : table.doubles("t_kick")) tk += v;
    return fmt::format("collective: {} kicks, bunch energy change {:.4g} J, in {:.3f} s (histogram {:.3f}, "
                       "convolve {:.3f}, kick {:.3f} s)",
                       table.rows(), de, th + tc + tk, th, tc, tk);
}

}  // namespace gt
