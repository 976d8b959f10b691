// Field-map push rate: particle-substeps per second through the on-axis map elements of a deck
// (profile solenoids and cavities, RK4 through the paraxial field), on all CPU cores and on the
// GPU in one run. Usage: gtrack_bench_fieldmap [--deck inputs/ion_linac.toml]
//                        [--particles 1e6,1e7] [--cpu-max-particles 1e6] [--repeat 3] [--no-gpu]
#include <chrono>
#include <cstdio>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "beam/Lattice.hh"
#include "deck/DeckReader.hh"
#include "kernels/beam/BeamKernels.hh"
#include "kernels/core/Device.hh"
#include "kernels/cpu/Executor.hh"
#include "run/BeamRun.hh"

using namespace gt;

namespace {

std::vector<double> list_of(std::string const& text)
{
    std::vector<double> out;
    std::stringstream in(text);
    std::string item;
    while (std::getline(in, item, ',')) out.push_back(std::stod(item));
    return out;
}

//! RK4 substeps one particle takes through the table (the other entries are negligible beside them).
double substeps_of(Lattice const& lattice)
{
    double n = 0.0;
    for (Element const& e : lattice.elements)
        if (e.kind == ElementKind::axial_field_map) n += e.axial_field_map.steps;
    return n;
}

//! Seconds to track `n` particles through the whole table (best of `repeat`, after one warm-up).
double time_track(DeckConfig deck, Lattice const& lattice, BeamKernels& kernels, double n, int repeat)
{
    deck.beam.macroparticles = static_cast<std::uint64_t>(n);
    kernels.set_elements(lattice.elements, *lattice.field_data);
    double best = 1e300;
    for (int r = 0; r <= repeat; ++r) {
        ParticleState state = initial_beam(deck, kernels);
        auto const before =
            kernels.timer().records().count("track") ? kernels.timer().records().at("track").seconds : 0.0;
        kernels.track(state.view(), 0, lattice.elements.size(), 0);
        double const seconds = kernels.timer().records().at("track").seconds - before;
        if (r > 0) best = std::min(best, seconds);  // r = 0 warms up (allocation, first launch)
    }
    return best;
}

}  // namespace

int main(int argc, char** argv)
{
    std::string deck_path = "inputs/ion_linac.toml";
    std::vector<double> particles = {1e6, 1e7};
    double cpu_max = 1e6;
    int repeat = 3;
    bool gpu = true;
    for (int i = 1; i < argc; ++i) {
        std::string const a = argv[i];
        auto value = [&] {
            if (i + 1 >= argc) throw std::runtime_error(a + " needs a value");
            return std::string(argv[++i]);
        };
        if (a == "--deck")
            deck_path = value();
        else if (a == "--particles")
            particles = list_of(value());
        else if (a == "--cpu-max-particles")
            cpu_max = std::stod(value());
        else if (a == "--repeat")
            repeat = std::stoi(value());
        else if (a == "--no-gpu")
            gpu = false;
        else {
            std::fprintf(stderr, "unknown option %s\n", a.c_str());
            return 2;
        }
    }
    if (gpu && device::count() == 0) {
        std::printf("# no GPU (%s): CPU only\n",
                    device::compiled_in() ? "none visible" : "built without CUDA");
        gpu = false;
    }
    DeckConfig const deck = read_deck(deck_path, {"space_charge.enabled=false"});
    Lattice const lattice = build_lattice(deck, initial_reference(deck));
    double const steps = substeps_of(lattice);
    if (steps == 0.0) {
        std::fprintf(stderr, "%s has no on-axis field-map elements\n", deck_path.c_str());
        return 2;
    }
    std::printf("# field-map push rate: %s, %zu entries, %.0f RK4 substeps per particle (best of %d)\n",
                deck_path.c_str(), lattice.elements.size(), steps, repeat);
    std::printf("# CPU: %d OpenMP threads; GPU: %s\n", cpu::thread_count(),
                gpu ? device::name().c_str() : "none");
    std::printf("%-4s %10s %10s %16s %s\n", "dev", "particles", "seconds", "substeps/s", "");
    std::map<double, double> cpu_rate;
    double cpu_per_particle = 0.0;
    for (double n : particles) {
        for (int side = 0; side < 2; ++side) {
            bool const on_gpu = side == 1;
            if ((on_gpu && !gpu) || (!on_gpu && n > cpu_max)) continue;
            auto kernels = on_gpu ? make_cuda_beam_kernels() : make_cpu_beam_kernels();
            double const seconds = time_track(deck, lattice, *kernels, n, repeat);
            double const rate = n * steps / seconds;
            std::string note;
            if (!on_gpu) {
                cpu_rate[n] = rate;
                cpu_per_particle = rate;
            } else if (cpu_per_particle > 0.0) {
                // The CPU rate does not depend on the particle count once every core is busy.
                note = "(" + std::to_string(static_cast<long>(rate / cpu_per_particle + 0.5)) +
                       "x all CPU cores" + (cpu_rate.count(n) ? "" : ", CPU measured at fewer particles") +
                       ")";
            }
            std::printf("%-4s %10.0f %10.4f %16.4g %s\n", on_gpu ? "gpu" : "cpu", n, seconds, rate,
                        note.c_str());
            std::fflush(stdout);
        }
    }
    return 0;
}
