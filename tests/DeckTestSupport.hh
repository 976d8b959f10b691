// Shared helpers for tests of element keys in decks: a small proton deck around the elements under
// test, the error its lattice gives, its beam's coordinates after the lattice on a given number of
// CPU threads, and the check `gtrack validate` makes, on two CPU backends.
#pragma once

#include <doctest/doctest.h>

#include <string>
#include <vector>

#include <fmt/format.h>

#include "beam/Lattice.hh"
#include "deck/DeckError.hh"
#include "deck/DeckReader.hh"
#include "kernels/beam/BeamKernels.hh"
#include "kernels/cpu/Executor.hh"
#include "run/BeamRun.hh"
#include "run/Validation.hh"

namespace gt::test {

//! What varies between the test decks (the values as a deck writes them).
struct TestDeck {
    std::string run{};                       //!< lines of [run] after its name
    std::string kinetic_energy = "2.5 MeV";  //!< of the proton beam
    int macroparticles = 100;
    std::string sigma_t = "1e-3";  //!< [s]
    std::string sigma_pt{};        //!< [1]; empty: not given
    std::string elements{};        //!< the lines of [elements]
    std::string line{};            //!< the lattice's line, e.g. `["E", "E"]`
};

//! A deck of a proton beam (unit beta functions, 1 um emittances) through `d.line`.
inline std::string deck_text(TestDeck const& d)
{
    return fmt::format(R"([run]
name = "t"
{}
[beam]
particle = "proton"
kinetic_energy = "{}"
macroparticles = {}
[beam.twiss]
beta_x = 1.0
beta_y = 1.0
emittance_x = 1e-6
emittance_y = 1e-6
sigma_t = {}
{}
[elements]
{}
[lattice]
line = {}
)",
                       d.run, d.kinetic_energy, d.macroparticles, d.sigma_t,
                       d.sigma_pt.empty() ? "" : "sigma_pt = " + d.sigma_pt, d.elements, d.line);
}

//! The error (a DeckError's text) of building the lattice of deck `text` read as `deck_path`: ""
//! when it builds, and then `*lattice` holds it.
inline std::string lattice_error(std::string const& text, std::string const& deck_path,
                                 Lattice* lattice = nullptr)
{
    try {
        DeckConfig const deck = read_deck_text(text, deck_path);
        Lattice built = build_lattice(deck, initial_reference(deck));
        if (lattice) *lattice = std::move(built);
    } catch (DeckError const& e) {
        return e.what();
    }
    return "";
}

//! The beam of `deck` tracked through all of `lattice` on the CPU backend with `threads` threads
//! (left set): x, px, y, py, t, pt of each particle in turn, for bit comparisons.
inline std::vector<double> tracked_coordinates(DeckConfig const& deck, Lattice const& lattice, int threads)
{
    cpu::set_thread_count(threads);
    auto kernels = make_cpu_beam_kernels();
    ParticleState state = initial_beam(deck, *kernels);
    kernels->set_elements(lattice.elements, *lattice.field_data);
    kernels->track(state.view(), 0, lattice.elements.size(), 0);
    std::vector<double> out;
    ParticleView const v = state.view();
    for (size_type i = 0; i < v.size; ++i)
        for (double const* c : {v.x, v.px, v.y, v.py, v.t, v.pt}) out.push_back(c[i]);
    return out;
}

//! What `gtrack validate` does with a GPU, with a second CPU backend as the candidate (no GPU
//! here): every stage, every coordinate must agree bit for bit. Returns the result for more checks.
inline ValidationResult check_cpu_backends_agree(DeckConfig const& deck)
{
    auto a = make_cpu_beam_kernels();
    auto b = make_cpu_beam_kernels();
    ValidationResult r = validate_beamline(deck, *a, *b, ValidationOptions{});
    CHECK(r.ok());
    for (auto const& stage : r.stages)
        for (auto const& c : stage.coordinate) CHECK(c.differing == 0);
    return r;
}

}  // namespace gt::test
