// A detector run of a HepMC3 event file's events (run/EventFileRun.hh).
#include "run/EventFileRun.hh"

#include <cstdio>
#include <cstring>
#include <map>

#include <fmt/format.h>

#include "detector/HepMcEvents.hh"
#include "io/OutputFile.hh"
#include "io/TableWriter.hh"
#include "kernels/detector/ParticleGun.hh"
#include "parallel/Communicator.hh"
#include "parallel/ParticleDecomposition.hh"

namespace gt {

DetectorRunResult run_event_file(DeckConfig const& cfg, DetectorRunOptions const& options)
{
    GunConfig const& g = cfg.detector.gun;
    // every rank reads the file (the same bytes: the same events, or the same error on each)
    auto events =
        std::make_shared<HepMcEvents>(read_hepmc_file(g.file, HepMcSelection{g.skip, g.events, g.offset}));
    DeckConfig run = cfg;
    GunConfig& gun = run.detector.gun;
    gun.events = events->events();
    gun.per_event = 1;
    gun.given_primaries = events->primaries.size();
    parallel::Communicator const& world = parallel::Communicator::world();
    parallel::ParticleShare const share = parallel::even_share(gun.events, world.rank(), world.size());
    std::vector<Primary> const mine(
        events->primaries.begin() + std::ptrdiff_t(events->starts[share.first]),
        events->primaries.begin() + std::ptrdiff_t(events->starts[share.first + share.count]));
    DetectorRunOptions given = options;
    given.primaries = &mine;
    given.event_starts = &events->starts;
    given.primary_species = &events->species;
    given.event_file = events.get();
    DetectorRunResult r = run_detector_deck(run, given);
    r.event_file = events;
    return r;
}

void write_event_file_part(OutputFile& out, HepMcEvents const& events)
{
    std::uint64_t const n = events.events();
    std::vector<std::int64_t> event(n), primaries(n);
    for (std::uint64_t e = 0; e < n; ++e) {
        event[e] = std::int64_t(e);
        primaries[e] = std::int64_t(events.starts[e + 1] - events.starts[e]);
    }
    Table t;
    t.add_column("event", "1", std::move(event));
    t.add_column("number", "1", std::vector<std::int64_t>(events.numbers));
    t.add_column("primaries", "1", std::move(primaries));
    // the first weight is the event's weight (HepMC3: 1 when the file gives none); any others as weight_1,
    // ...
    std::size_t const w = events.weights_per_event;
    for (std::size_t k = 0; k < std::max<std::size_t>(w, 1); ++k) {
        std::vector<double> column(n, 1.0);
        if (w > 0)
            for (std::uint64_t e = 0; e < n; ++e) column[e] = events.weights[e * w + k];
        t.add_column(k == 0 ? "weight" : fmt::format("weight_{}", k), "1", std::move(column));
    }
    write_table(out, "event_file", t);
    out.set_attribute("event_file", "file", std::string_view(events.file));
    if (!events.weight_names.empty())
        out.set_attribute("event_file", "weight_names", std::span<std::string const>(events.weight_names));
    Table lost;
    std::vector<std::int64_t> pdg, count;
    std::vector<double> energy;
    for (auto const& [id, c] : events.not_transported) {
        pdg.push_back(id);
        count.push_back(std::int64_t(c.count));
        energy.push_back(c.energy);
    }
    lost.add_column("pdg", "1", std::move(pdg));
    lost.add_column("count", "1", std::move(count));
    lost.add_column("energy", "MeV", std::move(energy));
    write_table(out, "event_file_not_transported", lost);
}

void print_event_file_summary(HepMcEvents const& events)
{
    std::map<std::string, std::uint64_t> by_species;
    for (Primary const& p : events.primaries) ++by_species[events.species.at(std::size_t(p.particle))];
    std::string species;
    for (auto const& [name, n] : by_species)
        species += fmt::format("{}{} {}", species.empty() ? "" : ", ", n, name);
    std::printf(
        "event file %s: %llu events (numbers %lld to %lld), %zu final-state particles as primaries%s\n",
        events.file.c_str(), static_cast<unsigned long long>(events.events()),
        static_cast<long long>(events.numbers.front()), static_cast<long long>(events.numbers.back()),
        events.primaries.size(), species.empty() ? "" : (" (" + species + ")").c_str());
    if (events.not_transported.empty())
        std::printf("  every final-state particle is one gtrack transports\n");
    else
        std::printf(
            "  not transported (final-state particles gtrack does not track; /event_file_not_transported): "
            "%s\n",
            describe_not_transported(events).c_str());
}

std::string event_file_fingerprint(std::string const& deck_fingerprint, HepMcEvents const& events)
{
    // 64-bit FNV-1a over the deck's fingerprint and each primary's fields and each weight (fields, not the
    // struct's bytes: its padding is not data)
    std::uint64_t h = 0xcbf29ce484222325ull;
    auto const add = [&](void const* data, std::size_t size) {
        auto const* b = static_cast<unsigned char const*>(data);
        for (std::size_t i = 0; i < size; ++i) h = (h ^ b[i]) * 0x100000001b3ull;
    };
    add(deck_fingerprint.data(), deck_fingerprint.size());
    for (Primary const& p : events.primaries) {
        double const v[9] = {p.energy, p.pos.x, p.pos.y, p.pos.z,           p.dir.x,
                             p.dir.y,  p.dir.z, p.time,  double(p.particle)};
        add(&p.event, sizeof p.event);
        add(v, sizeof v);
    }
    for (auto const& name : events.species) add(name.data(), name.size());
    add(events.weights.data(), events.weights.size() * sizeof(double));
    return fmt::format("{:016x}", h);
}

}  // namespace gt
