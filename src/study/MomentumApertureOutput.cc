// `gtrack run` of a deck with [momentum_aperture]: the search on the chosen backend, /momentum_aperture and
// /lattice in the output file, and a short summary (docs/output.md, docs/studies.md).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <stdexcept>

#include <fmt/format.h>

#include "beam/BeamSetup.hh"
#include "io/H5Access.hh"
#include "io/OutputFile.hh"
#include "io/Provenance.hh"
#include "io/TableWriter.hh"
#include "kernels/cpu/Executor.hh"
#include "parallel/Communicator.hh"
#include "run/RunProvenance.hh"
#include "study/MomentumAperture.hh"

namespace gt::study {

namespace {

//! /lattice as a beamline run writes it (index, s_begin, s_end, deck_index; names and kinds as attributes),
//! so that lost_element and the layout under the plot can be read without the deck.
void write_lattice_table(OutputFile& out, Lattice const& lattice)
{
    std::vector<std::int64_t> index, deck_index;
    std::vector<double> s_begin, s_end;
    std::vector<std::string> names, kinds;
    for (std::size_t i = 0; i < lattice.info.size(); ++i) {
        index.push_back(std::int64_t(i));
        deck_index.push_back(lattice.info[i].deck_index);
        s_begin.push_back(lattice.info[i].s_begin);
        s_end.push_back(lattice.info[i].s_end);
        names.push_back(lattice.info[i].name);
        kinds.push_back(kind_name(lattice.elements[i].kind));
    }
    Table t;
    t.add_column("index", "1", std::move(index));
    t.add_column("s_begin", "m", std::move(s_begin));
    t.add_column("s_end", "m", std::move(s_end));
    t.add_column("deck_index", "1", std::move(deck_index));
    write_table(out, "lattice", t);
    out.set_attribute("lattice", "names", std::span<std::string const>(names));
    out.set_attribute("lattice", "kinds", std::span<std::string const>(kinds));
    out.set_attribute("lattice", "length", lattice.length);
}

void write_study(OutputFile& out, MomentumApertureResult const& r)
{
    Table t;
    t.add_column("s", "m", r.s);
    t.add_column("element", "1", r.element);
    t.add_column("delta_plus", "1", r.delta_plus);
    t.add_column("delta_minus", "1", r.delta_minus);
    t.add_column("lost_element_plus", "1", r.lost_element_plus);
    t.add_column("lost_element_minus", "1", r.lost_element_minus);
    t.add_column("lost_s_plus", "m", r.lost_s_plus);
    t.add_column("lost_s_minus", "m", r.lost_s_minus);
    t.add_column("lost_turn_plus", "turn", r.lost_turn_plus);
    t.add_column("lost_turn_minus", "turn", r.lost_turn_minus);
    write_table(out, "momentum_aperture", t);
    out.set_attribute("momentum_aperture", "names", std::span<std::string const>(r.name));
    out.set_attribute("momentum_aperture", "turns", r.turns);
    out.set_attribute("momentum_aperture", "resolution", r.resolution);
    out.set_attribute("momentum_aperture", "delta_max", double(r.candidates) * r.resolution);
    out.set_attribute("momentum_aperture", "rf", r.rf ? "on" : "off");
    out.set_attribute("momentum_aperture", "bucket_half_length", r.bucket_half_length);
}

}  // namespace

int run_momentum_aperture(DeckConfig const& deck, RunOptions const& options)
{
    if (parallel::Communicator::world().size() > 1)
        throw std::runtime_error(
            "[momentum_aperture] runs on one rank (MPI for studies is not built yet, docs/studies.md)");
    auto const wall_start = std::chrono::steady_clock::now();
    h5::set_output_checksums(deck.output.checksums);
    cpu::set_thread_count(options.threads);
    std::string const path = options.output.empty() ? deck.output.file : options.output;
    std::unique_ptr<BeamKernels> kernels = select_beam_backend(deck, options);
    OutputFile out(path);  // before tracking: a bad path fails early
    Provenance prov = run_provenance(deck, options.command_line);
    prov.start_time = iso8601_utc_now();
    MomentumApertureResult const r = track_momentum_aperture(deck, *kernels);
    DeckConfig const tracked = momentum_aperture_deck(deck);
    write_lattice_table(out, build_lattice(tracked, initial_reference(tracked)));
    write_study(out, r);
    prov.end_time = iso8601_utc_now();
    write_provenance(out, prov);
    out.commit();
    double const wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
    if (!options.quiet) {
        auto const lo = std::min_element(r.delta_plus.begin(), r.delta_plus.end());
        auto const hi = std::max_element(r.delta_minus.begin(), r.delta_minus.end());
        std::printf(
            "gtrack run %s: momentum aperture at %zu locations (%lld candidates each) x %lld turns, RF "
            "%s, on %s\n",
            deck.path.c_str(), r.s.size(), static_cast<long long>(2 * r.candidates),
            static_cast<long long>(r.turns), r.rf ? "on" : "off", kernels->description().c_str());
        std::printf(
            "  delta+ min %.4g%% at %s (s = %.4g m), delta- max %.4g%% at %s (s = %.4g m), resolution "
            "%.3g%%\n",
            *lo * 100, r.name[std::size_t(lo - r.delta_plus.begin())].c_str(),
            r.s[std::size_t(lo - r.delta_plus.begin())], *hi * 100,
            r.name[std::size_t(hi - r.delta_minus.begin())].c_str(),
            r.s[std::size_t(hi - r.delta_minus.begin())], r.resolution * 100);
        std::printf("  %.3g particle-turns/s (wall %.3g s); wrote %s\n", double(r.pushes) / wall, wall,
                    path.c_str());
    }
    return 0;
}

}  // namespace gt::study
