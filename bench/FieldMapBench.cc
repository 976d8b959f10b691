// Field-map push rate: particle-substeps per second through the field-map elements of a deck
// (profile solenoids and cavities, RK4 through the paraxial field; 3D maps, RK4 through the
// trilinear interpolation), on all CPU cores and on the GPU in one run. Usage:
//   gtrack_bench_fieldmap [--deck inputs/ion_linac.toml] [--particles 1e6,1e7]
//                         [--cpu-max-particles 1e6] [--repeat 3] [--no-gpu]
//   gtrack_bench_fieldmap --layouts [--map-nodes 17,65,129] ...
// --layouts measures the device layouts of the 3D map (kernels/field/EmFieldGrid.hh) on a TM010
// pillbox map of n^3 nodes (E and B, 6 components) written to a scratch file, the beam filling the
// grid: each layout, each map size, CPU and GPU; k_default_field_layout is chosen from its output.
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "beam/Lattice.hh"
#include "deck/DeckReader.hh"
#include "kernels/beam/BeamKernels.hh"
#include "kernels/core/Device.hh"
#include "kernels/cpu/Executor.hh"
#include "io/H5Access.hh"
#include "io/H5Handle.hh"
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
        if (e.kind == ElementKind::axial_field_map)
            n += e.axial_field_map.steps;
        else if (e.kind == ElementKind::field_map_3d)
            n += e.field_map_3d.steps;
    return n;
}

//! A 1.3 GHz TM010 pillbox (radius R = 8.83 cm, E0 = 20 MV/m) on n^3 nodes over |x|, |y| < R/sqrt(2)
//! and half a wavelength in z: Ez = E0 J0(kr), B_theta = -(E0/c) J1(kr) (docs/decks.md).
void write_pillbox_map(std::string const& path, int n)
{
    double const radius = 0.0883, e0 = 20e6, k = 2.404825557695773 / radius;
    double const half = radius / std::sqrt(2.0), length = constants::pi / k;
    std::vector<double> e, b;
    double const d[3] = {2.0 * half / (n - 1), 2.0 * half / (n - 1), length / (n - 1)};
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j)
            for (int l = 0; l < n; ++l) {
                double const x = -half + i * d[0], y = -half + j * d[1], r = std::hypot(x, y);
                double const bt = -(e0 / constants::c_light) * std::cyl_bessel_j(1.0, k * r);
                e.insert(e.end(), {0.0, 0.0, e0 * std::cyl_bessel_j(0.0, k * r)});
                b.insert(b.end(), {r > 0 ? -bt * y / r : 0.0, r > 0 ? bt * x / r : 0.0, 0.0});
            }
    h5::File file(h5::check_path(H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT), "H5Fcreate",
                                 path));
    std::vector<std::uint64_t> const dims(3, std::uint64_t(n));
    std::vector<double> const origin = {-half, -half, 0.0}, spacing = {d[0], d[1], d[2]};
    h5::write_attribute(file, "dimensions", std::span<std::uint64_t const>(dims));
    h5::write_attribute(file, "origin", std::span<double const>(origin));
    h5::write_attribute(file, "spacing", std::span<double const>(spacing));
    h5::write_attribute(file, "length_unit", "m");
    h5::write_attribute(file, "frequency", k * constants::c_light / constants::two_pi);
    for (auto const& [name, values, unit] : {std::make_tuple("E", &e, "V/m"), std::make_tuple("B", &b, "T")}) {
        h5::write_dataset(file, name, std::span<double const>(*values));
        h5::Object obj = h5::open_object(file, name);
        h5::write_attribute(obj, "unit", unit);
    }
    file.close("H5Fclose", path);
}

//! A deck of one pillbox map cell (100 RK4 substeps) and a 20 MeV electron beam whose 1-sigma
//! ellipse fills a third of the grid, so that particles read nodes all over the map.
std::string pillbox_deck(std::string const& map, std::string const& layout)
{
    return fmt::format(R"(
[run]
name = "bench_layouts"
[beam]
particle = "electron"
kinetic_energy = "20 MeV"
macroparticles = 1000
distribution = "gaussian"
truncate = 3
[beam.twiss]
beta_x = 20.0
beta_y = 20.0
emittance_x = "20 um"
emittance_y = "20 um"
sigma_t = "1 mm"
[elements]
CAV = {{ type = "field_map", file = "{}", length = "0.1153 m", phase = -10, substeps = 100, layout = "{}" }}
[lattice]
line = ["CAV"]
)",
                       map, layout);
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
    bool layouts = false;
    std::vector<double> map_nodes = {17, 65, 129};
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
        else if (a == "--layouts")
            layouts = true;
        else if (a == "--map-nodes")
            map_nodes = list_of(value());
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
    if (layouts) {
        std::string const dir = (std::filesystem::temp_directory_path() /
                                 ("gtrack-bench-layouts-" + std::to_string(::getpid())))
                                    .string();
        std::filesystem::create_directories(dir);
        std::printf("# 3D field-map layouts: TM010 pillbox map, E and B (6 components), 100 RK4 substeps "
                    "(best of %d)\n# CPU: %d OpenMP threads; GPU: %s\n",
                    repeat, cpu::thread_count(), gpu ? device::name().c_str() : "none");
        std::printf("%-4s %-12s %8s %10s %10s %16s\n", "dev", "layout", "nodes", "particles", "seconds",
                    "substeps/s");
        for (double nodes : map_nodes) {
            std::string const map = dir + "/pillbox_" + std::to_string(int(nodes)) + ".h5";
            write_pillbox_map(map, static_cast<int>(nodes));
            for (char const* layout : {"interleaved", "planar"}) {
                DeckConfig const deck = read_deck_text(pillbox_deck(map, layout), dir + "/bench.toml");
                Lattice const lattice = build_lattice(deck, initial_reference(deck));
                double const steps = substeps_of(lattice);
                for (double n : particles)
                    for (int side = 0; side < 2; ++side) {
                        bool const on_gpu = side == 1;
                        if ((on_gpu && !gpu) || (!on_gpu && n > cpu_max)) continue;
                        auto kernels = on_gpu ? make_cuda_beam_kernels() : make_cpu_beam_kernels();
                        double const seconds = time_track(deck, lattice, *kernels, n, repeat);
                        std::printf("%-4s %-12s %8.0f %10.0f %10.4f %16.4g\n", on_gpu ? "gpu" : "cpu", layout,
                                    nodes, n, seconds, n * steps / seconds);
                        std::fflush(stdout);
                    }
            }
        }
        std::filesystem::remove_all(dir);
        std::printf("# default layout (k_default_field_layout): %s\n", field_layout_name(k_default_field_layout));
        return 0;
    }
    DeckConfig const deck = read_deck(deck_path, {"space_charge.enabled=false"});
    Lattice const lattice = build_lattice(deck, initial_reference(deck));
    double const steps = substeps_of(lattice);
    if (steps == 0.0) {
        std::fprintf(stderr, "%s has no field-map elements\n", deck_path.c_str());
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
