// [beam]: the species, the reference energy, the bunch and where its particles come from.
#include "deck/DeckSections.hh"

#include <array>
#include <cmath>

#include <fmt/format.h>

#include "deck/Species.hh"
#include "deck/DeckText.hh"
#include "io/BeamPhysicsReader.hh"
#include "io/H5Handle.hh"

namespace gt::deck {

namespace {

void read_species(DeckContext& ctx, toml::table const& t, BeamConfig& beam, bool& species_ok)
{
    std::string const path = "beam";
    species_ok = false;
    std::vector<std::string> names = species_names();
    names.emplace_back("ion");
    auto particle = ctx.choice_at(t, path, "particle", names, true);
    if (!particle) return;
    static constexpr std::array<std::string_view, 4> ion_keys = {"mass_number", "charge_state", "mass",
                                                                 "charge"};
    if (*particle != "ion") {
        for (auto key : ion_keys) {
            if (toml::node const* n = t.get(key))
                ctx.error(ctx.where(*n), join_key(path, key),
                          fmt::format("'{}' is only used with particle = \"ion\" (particle is \"{}\")", key,
                                      *particle));
        }
        beam.species = *find_species(*particle);
        species_ok = true;
        return;
    }
    bool const by_number = t.contains("mass_number") || t.contains("charge_state");
    bool const by_mass = t.contains("mass") || t.contains("charge");
    if (by_number && by_mass) {
        ctx.error(ctx.where(t), "beam.mass",
                  "give either mass_number and charge_state, or mass and charge, for an ion (not both)");
        return;
    }
    if (!by_number && !by_mass) {
        ctx.error(ctx.where(*t.get("particle")), "beam.particle",
                  "particle = \"ion\" needs mass_number and charge_state, or mass and charge");
        return;
    }
    if (by_number) {
        auto a = ctx.integer_at(t, path, "mass_number", Bound::at_least_one, true);
        auto q = ctx.integer_at(t, path, "charge_state", Bound::any, true);
        if (q && *q == 0)
            ctx.error(ctx.where(*t.get("charge_state")), "beam.charge_state",
                      "an ion needs a charge state != 0");
        if (a && q && *q != 0) {
            if (*q > *a) {
                ctx.error(ctx.where(*t.get("charge_state")), "beam.charge_state",
                          fmt::format("charge state {} exceeds the mass number {}", *q, *a));
                return;
            }
            beam.species = make_ion(static_cast<int>(*a), static_cast<int>(*q));
            species_ok = true;
        }
        return;
    }
    auto m = ctx.quantity_at(t, path, "mass", quantity::rest_energy, Bound::positive, true);
    auto q = ctx.quantity_at(t, path, "charge", quantity::dimensionless, Bound::any, true);
    if (q && *q == 0)
        ctx.error(ctx.where(*t.get("charge")), "beam.charge", "an ion needs a charge != 0 (in units of e)");
    if (m && q && *q != 0) {
        beam.species = make_ion(*m, *q);
        species_ok = true;
    }
}

void read_energy(DeckContext& ctx, toml::table const& t, BeamConfig& beam, bool species_ok)
{
    static std::vector<std::string> const keys = {"kinetic_energy", "total_energy", "momentum"};
    std::vector<std::string> given;
    for (auto const& k : keys)
        if (t.contains(k)) given.push_back(k);
    if (beam.distribution == "cathode") {
        // Emitted at rest: the coordinates at the cathode are normalized to p0 = m c (docs/physics.md).
        for (auto const& k : given)
            ctx.error(ctx.where(*t.get(k)), join_key("beam", k),
                      "a beam emitted from a cathode (distribution = \"cathode\") starts at rest: it has no "
                      "reference energy (the momentum unit at the cathode is m c)");
        if (species_ok) beam.kinetic_energy_mev = (std::sqrt(2.0) - 1.0) * beam.species.mass_mev;
        return;
    }
    if (given.empty()) {
        ctx.error(ctx.where(t), "beam.kinetic_energy",
                  "missing the reference energy: give one of kinetic_energy, total_energy or momentum");
        return;
    }
    if (given.size() > 1) {
        for (std::size_t i = 1; i < given.size(); ++i)
            ctx.error(ctx.where(*t.get(given[i])), join_key("beam", given[i]),
                      fmt::format("give only one of kinetic_energy, total_energy, momentum (also given: {})",
                                  given[0]));
        return;
    }
    std::string const& key = given[0];
    QuantityKind const& kind = key == "momentum" ? quantity::momentum : quantity::energy;
    auto v = ctx.quantity_at(t, "beam", key, kind, Bound::positive, true);
    if (!v || !species_ok) return;
    double const m = beam.species.mass_mev;
    if (key == "kinetic_energy") {
        beam.kinetic_energy_mev = *v;
    } else if (key == "total_energy") {
        if (*v <= m) {
            ctx.error(ctx.where(*t.get(key)), "beam.total_energy",
                      fmt::format("the total energy {} MeV must exceed the rest energy {} MeV", *v, m));
            return;
        }
        beam.kinetic_energy_mev = *v - m;
    } else {
        // T = sqrt(p^2 + m^2) - m, written without the cancellation at low momentum.
        beam.kinetic_energy_mev = *v * *v / (std::sqrt(*v * *v + m * m) + m);
    }
}

//! A file beam's particle count, read when the deck is (so a missing or unreadable file is an error
//! naming beam.file): macroparticles when the deck does not give it, else at most that many.
void count_file_particles(DeckContext& ctx, toml::table const& t, toml::node const& file, BeamConfig& beam)
{
    try {
        std::uint64_t const in_file = count_beam_file_particles(beam.file);
        if (in_file == 0) {
            ctx.error(ctx.where(file), "beam.file", fmt::format("'{}' holds no particles", beam.file));
        } else if (toml::node const* n = t.get("macroparticles")) {
            if (beam.macroparticles > in_file)
                ctx.error(ctx.where(*n), "beam.macroparticles",
                          fmt::format("'{}' holds {} particles but beam.macroparticles = {}: remove "
                                      "macroparticles to take all of them, or ask for at most {}",
                                      beam.file, in_file, beam.macroparticles, in_file));
        } else {
            beam.macroparticles = in_file;
        }
    } catch (IoError const& e) {
        ctx.error(
            ctx.where(file), "beam.file",
            fmt::format("cannot read the beam file: {} (a relative path is taken from the directory gtrack "
                        "runs in; write the file with 'gtrack run' and phase_space in [output], or give "
                        "another openPMD file)",
                        e.what()));
    }
}

}  // namespace

void read_beam(DeckContext& ctx, toml::table const& t, BeamConfig& beam)
{
    std::string const path = "beam";
    beam.where = ctx.where(t);
    ctx.check_keys(t, path,
                   {"particle", "mass_number", "charge_state", "mass", "charge", "kinetic_energy",
                    "total_energy", "momentum", "bunch_charge", "macroparticles", "distribution", "truncate",
                    "file", "twiss", "sigma", "cathode"});
    bool species_ok = false;
    read_species(ctx, t, beam, species_ok);
    if (auto d =
            ctx.choice_at(t, path, "distribution",
                          {"gaussian", "kv", "waterbag", "semigaussian", "kurth", "file", "cathode"}, false))
        beam.distribution = *d;
    read_energy(ctx, t, beam, species_ok);
    if (auto q = ctx.quantity_at(t, path, "bunch_charge", quantity::charge, Bound::non_negative, false))
        beam.bunch_charge = *q;
    bool const from_file = beam.distribution == "file";
    // A file beam takes all the file's particles unless macroparticles asks for fewer (the first ones).
    if (auto n = ctx.integer_at(t, path, "macroparticles", Bound::at_least_one, !from_file))
        beam.macroparticles = static_cast<std::uint64_t>(*n);
    if (auto c = ctx.quantity_at(t, path, "truncate", quantity::dimensionless, Bound::non_negative, false))
        beam.truncate = *c;

    if (toml::node const* f = t.get("file")) {
        if (!from_file) {
            ctx.error(ctx.where(*f), "beam.file", "'file' is only used with distribution = \"file\"");
        } else if (auto name = ctx.string_of(*f, "beam.file")) {
            beam.file = *name;
            count_file_particles(ctx, t, *f, beam);
        }
    } else if (from_file) {
        ctx.missing(t, path, "file",
                    "the openPMD HDF5 file to read particles from, for distribution = \"file\"");
    }

    toml::table const* twiss = ctx.table_at(t, path, "twiss", false);
    toml::table const* sigma = ctx.table_at(t, path, "sigma", false);
    toml::table const* cathode = ctx.table_at(t, path, "cathode", false);
    bool const from_cathode = beam.distribution == "cathode";
    if (cathode && !from_cathode) {
        ctx.error(ctx.where(*cathode), "beam.cathode",
                  "[beam.cathode] is only used with distribution = \"cathode\"");
        return;
    }
    // [beam.twiss] and [beam.sigma] shape a sampled beam; other sources get the shape elsewhere.
    auto const refuse_shape_tables = [&](char const* why) {
        for (auto const* sub : {twiss, sigma})
            if (sub) ctx.error(ctx.where(*sub), sub == twiss ? "beam.twiss" : "beam.sigma", why);
    };
    if (from_cathode) {
        refuse_shape_tables(
            "not used with distribution = \"cathode\" (the beam's shape is in [beam.cathode])");
        if (cathode)
            read_cathode(ctx, *cathode, beam);
        else if (!t.contains("cathode"))
            ctx.error(ctx.where(t), "beam.cathode", "distribution = \"cathode\" needs [beam.cathode]");
        return;
    }
    if (from_file) {
        refuse_shape_tables("not used with distribution = \"file\" (the particles come from the file)");
        return;
    }
    if (twiss && sigma) {
        ctx.error(ctx.where(*sigma), "beam.sigma", "give either [beam.twiss] or [beam.sigma], not both");
        return;
    }
    if (twiss)
        read_twiss(ctx, *twiss, beam);
    else if (sigma)
        read_sigma(ctx, *sigma, beam);
    else if (!t.contains("twiss") && !t.contains("sigma"))
        ctx.error(ctx.where(t), "beam.twiss", "missing the beam's shape: add [beam.twiss] (or [beam.sigma])");
}

}  // namespace gt::deck
