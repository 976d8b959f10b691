// The last stages of a beamline run: output (losses, tables, lattice, provenance, commit), report.
#include "run/BeamRunStages.hh"

#include <algorithm>
#include <cstdio>
#include <filesystem>

#include <fmt/format.h>

#include "io/OutputFile.hh"
#include "parallel/Communicator.hh"
#include "parallel/DeviceBinding.hh"
#include "parallel/OrderedWrites.hh"
#include "run/CollectiveSchedule.hh"
#include "run/ParticleDownload.hh"
#include "run/RunProfile.hh"

namespace gt {
namespace {

//! /errors: the drawn [errors], one row per occurrence of an element they touch (LatticeErrors.hh), so a
//! user sees which errors each magnet got and their values; the element names as an attribute.
void write_errors(OutputFile& out, LatticeErrors const& errors)
{
    std::vector<std::int64_t> occurrence, entry;
    std::vector<double> s, dx, dy, roll, gradient;
    std::vector<std::string> names, types;
    std::size_t orders = 0;
    for (auto const& r : errors.rows) orders = std::max({orders, r.knl.size(), r.ksl.size()});
    std::vector<std::vector<double>> knl(orders), ksl(orders);
    for (auto const& r : errors.rows) {
        occurrence.push_back(r.occurrence);
        entry.push_back(r.first_entry);
        s.push_back(r.s_begin);
        dx.push_back(r.dx);
        dy.push_back(r.dy);
        roll.push_back(r.roll);
        gradient.push_back(r.gradient);
        names.push_back(r.name);
        types.push_back(r.type);
        for (std::size_t n = 0; n < orders; ++n) {
            knl[n].push_back(n < r.knl.size() ? r.knl[n] : 0.0);
            ksl[n].push_back(n < r.ksl.size() ? r.ksl[n] : 0.0);
        }
    }
    Table t;
    t.add_column("occurrence", "1", std::move(occurrence));
    t.add_column("entry", "1", std::move(entry));
    t.add_column("s", "m", std::move(s));
    t.add_column("dx", "m", std::move(dx));
    t.add_column("dy", "m", std::move(dy));
    t.add_column("roll", "rad", std::move(roll));
    t.add_column("gradient", "1", std::move(gradient));
    for (std::size_t n = 0; n < orders; ++n) {
        std::string const unit = n == 0 ? "1" : n == 1 ? "1/m" : fmt::format("1/m^{}", n);
        t.add_column(fmt::format("knl_{}", n), unit, std::move(knl[n]));
        t.add_column(fmt::format("ksl_{}", n), unit, std::move(ksl[n]));
    }
    write_table(out, "errors", t);
    out.set_attribute("errors", "names", std::span<std::string const>(names));
    out.set_attribute("errors", "types", std::span<std::string const>(types));
    out.set_attribute("errors", "seed", errors.seed);
}

std::string format_si(double v, char const* unit) { return fmt::format("{:.4g} {}", v, unit); }

}  // namespace

void write_lattice(OutputFile& out, Lattice const& lattice)
{
    std::vector<std::int64_t> index, deck_index;
    std::vector<double> s_begin, s_end;
    std::vector<std::string> names, types;
    for (std::size_t i = 0; i < lattice.info.size(); ++i) {
        ElementInfo const& info = lattice.info[i];
        index.push_back(std::int64_t(i));
        deck_index.push_back(info.deck_index);
        s_begin.push_back(info.s_begin);
        s_end.push_back(info.s_end);
        names.push_back(info.name);
        types.push_back(kind_name(lattice.elements[i].kind));
    }
    Table t;
    t.add_column("index", "1", std::move(index));
    t.add_column("s_begin", "m", std::move(s_begin));
    t.add_column("s_end", "m", std::move(s_end));
    t.add_column("deck_index", "1", std::move(deck_index));
    write_table(out, "lattice", t);
    out.set_attribute("lattice", "names", std::span<std::string const>(names));
    out.set_attribute("lattice", "kinds", std::span<std::string const>(types));
    out.set_attribute("lattice", "length", lattice.length);
    if (lattice.compacted_from > 0)  // `[lattice] merge_drifts`: the full table's length
        out.set_attribute("lattice", "compacted_from", std::int64_t(lattice.compacted_from));
}

BeamRunTotals write_beamline_output(DeckConfig const& deck, RunOptions const& options, BeamKernels& kernels,
                                    ParticleView particles, Lattice const& lattice,
                                    BeamRunTables const& tables,
                                    std::vector<KernelTimer const*> const& timers, Provenance prov,
                                    OutputFile* out)
{
    parallel::Communicator const& world = parallel::Communicator::world();
    bool const on_gpu = kernels.memory() == MemSpace::device;
    // Loss records: only the lost particles come to the host.
    Table const lost = loss_table(kernels, particles, lattice);
    // Losses per table entry over all ranks (exact integer sums), for the summary.
    BeamRunTotals totals;
    std::vector<std::int64_t>& lost_at = totals.lost_at;
    lost_at.assign(lattice.elements.size(), 0);
    for (auto e : std::get<std::vector<std::int64_t>>(lost.find("element")->values))
        ++lost_at[std::size_t(e)];
    world.sum_in_place(lost_at);
    for (auto c : lost_at) totals.lost += std::uint64_t(c);

    parallel::write_table_in_rank_order(out, "lost", lost);
    prov.backend = on_gpu ? "gpu" : "cpu";
    prov.device_name = kernels.description();
    prov.ranks = world.size();
    prov.rank_devices = world.gather_to_root(parallel::describe_rank_device(on_gpu, kernels.description()));
    totals.records = kernels.timer().records();
    for (KernelTimer const* t : timers)
        for (auto const& [name, r] : t->records()) totals.records[name] = r;
    if (options.profile) totals.profile = profile_of_run(deck, totals.records, on_gpu, options.calibration);
    // Every rank has written its share; one that failed has ended the job (main), so the file is
    // renamed into place only when all of them succeeded.
    world.barrier();
    if (out) {
        // Statistics, space-charge diagnostics and the lattice are the same on every rank: rank 0's.
        write_table(*out, "stats", tables.stats);
        if (tables.space_charge) write_table(*out, "space_charge", *tables.space_charge);
        if (tables.collective) write_table(*out, "collective", *tables.collective);
        write_lattice(*out, lattice);
        if (!lattice.errors.rows.empty()) write_errors(*out, lattice.errors);
        prov.end_time = iso8601_utc_now();
        write_provenance(*out, prov);
        if (totals.profile) write_profile(*out, *totals.profile);  // rank 0's times
    }
    return totals;
}

void commit_beamline_output(OutputFile* out, std::string const& checkpoint_path)
{
    if (!out) return;
    out->commit();
    // The output is complete: the run's checkpoint would only resume what is done.
    std::error_code ignored;
    std::filesystem::remove(checkpoint_path, ignored);
}

void report_beamline(RunOptions const& options, Lattice const& lattice, std::uint64_t macroparticles,
                     BeamRunTables const& tables, BeamRunTotals const& totals, BeamStatistics const& last,
                     std::string const& path, std::int64_t snapshots, double wall)
{
    parallel::Communicator const& world = parallel::Communicator::world();
    if (!options.quiet) {
        double track_s = 0, pushes = 0;
        if (auto it = totals.records.find("track"); it != totals.records.end()) {
            track_s = it->second.seconds;
            pushes = it->second.items;
        }
        std::printf("tracked in %.3f s (%.3g particle-element pushes/s); whole run %.3f s\n", track_s,
                    track_s > 0 ? pushes / track_s : 0.0, wall);
        std::string where_lost;
        if (totals.lost > 0) {
            std::map<std::string, std::uint64_t> by_name;
            for (std::size_t e = 0; e < totals.lost_at.size(); ++e)
                if (totals.lost_at[e] > 0) by_name[lattice.info[e].name] += std::uint64_t(totals.lost_at[e]);
            for (auto const& [name, count] : by_name)
                where_lost += fmt::format("{}{} at {}", where_lost.empty() ? ": " : ", ", count, name);
        }
        if (tables.space_charge) {
            double total = 0;
            std::string stages;
            for (char const* stage :
                 {"sort", "deposit", "reduce", "green", "solve", "field", "gather", "kick"}) {
                auto const it = totals.records.find(std::string("sc.") + stage);
                double const t = it == totals.records.end() ? 0.0 : it->second.seconds;
                total += t;
                stages += fmt::format("{}{} {:.3f}", stages.empty() ? "" : ", ", stage, t);
            }
            std::printf("space charge: %zu kicks in %.3f s (%s s)\n", tables.space_charge->rows(), total,
                        stages.c_str());
        }
        if (tables.collective) std::printf("%s\n", collective_summary(*tables.collective).c_str());
        std::printf("alive %llu of %llu (%llu lost%s)\n",
                    static_cast<unsigned long long>(macroparticles - totals.lost),
                    static_cast<unsigned long long>(macroparticles),
                    static_cast<unsigned long long>(totals.lost), where_lost.c_str());
        if (last.alive > 0)
            std::printf(
                "last statistics (s = %.6g m): sigma_x %s, sigma_y %s, emittance_xn %s, emittance_yn %s, "
                "sigma_t %s, sigma_pt %.4g\n",
                last.s, format_si(last.sigma[0], "m").c_str(), format_si(last.sigma[2], "m").c_str(),
                format_si(last.normalized_emittance[0], "m rad").c_str(),
                format_si(last.normalized_emittance[1], "m rad").c_str(),
                format_si(last.sigma[4], "m").c_str(), last.sigma[5]);
        std::printf("wrote %s (%zu statistics rows, %lld phase-space snapshots, %zu lost particles)\n",
                    path.c_str(), tables.stats.rows(), static_cast<long long>(snapshots),
                    static_cast<std::size_t>(totals.lost));
    }
    if (options.timing && world.is_root()) {
        std::printf("# kernel calls seconds bytes items\n");
        for (auto const& [name, r] : totals.records)
            std::printf("%s %ld %.9g %.9g %.9g\n", name.c_str(), r.calls, r.seconds, r.bytes, r.items);
    }
    if (totals.profile && world.is_root()) std::printf("%s", format_profile(*totals.profile).c_str());
}

}  // namespace gt
