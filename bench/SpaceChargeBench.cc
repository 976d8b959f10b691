// Space-charge benchmark: time per kick by stage, for each deposition variant, on the CPU and the GPU
// in one run. Usage: gtrack_bench_spacecharge [--particles 1e6,1e7] [--grids 64,128] [--kicks 3]
//                                             [--cpu-max-particles 1e7] [--no-cpu] [--no-gpu]
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "kernels/core/Device.hh"
#include "kernels/cpu/Executor.hh"
#include "kernels/spacecharge/SpaceChargeKernels.hh"

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

//! A Gaussian bunch (sigma 1 mm x 0.8 mm x 3 mm in the rest frame, at 100 MeV protons), host memory.
ParticleState gaussian_bunch(size_type n, BeamFrame const& frame)
{
    ParticleState s(n, MemSpace::host);
    ParticleView v = s.view();
    std::uint64_t state = 12345;
    auto uniform = [&] {
        state = state * 6364136223846793005ull + 1442695040888963407ull;
        return (double(state >> 11) + 0.5) * 0x1.0p-53;
    };
    auto normal = [&] {
        return std::sqrt(-2.0 * std::log(uniform())) * std::cos(constants::two_pi * uniform());
    };
    for (size_type i = 0; i < n; ++i) {
        v.x[i] = 1e-3 * normal();
        v.y[i] = 0.8e-3 * normal();
        v.t[i] = 3e-3 * normal() / frame.rest_z();
        v.px[i] = v.py[i] = v.pt[i] = 0.0;
        v.id[i] = i;
        v.lost_element[i] = -1;
        v.lost_turn[i] = 0;
    }
    return s;
}

struct Variant {
    char const* name;
    DepositionMethod method;
    int sort_every;
    bool cell_order_gather = false;  //!< SpaceChargeSettings::gather_in_cell_order
};

}  // namespace

int main(int argc, char** argv)
{
    std::vector<double> particles = {1e6, 1e7}, grids = {64, 128};
    int kicks = 3;
    double cpu_max = 1e7;
    bool cpu = true, gpu = true;
    for (int i = 1; i < argc; ++i) {
        std::string const a = argv[i];
        auto value = [&] {
            if (i + 1 >= argc) throw std::runtime_error(a + " needs a value");
            return std::string(argv[++i]);
        };
        if (a == "--particles")
            particles = list_of(value());
        else if (a == "--grids")
            grids = list_of(value());
        else if (a == "--kicks")
            kicks = std::stoi(value());
        else if (a == "--cpu-max-particles")
            cpu_max = std::stod(value());
        else if (a == "--no-cpu")
            cpu = false;
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
    std::printf(
        "# space-charge kick, time per kick [ms] by stage (mean of %d kicks after one warm-up kick)\n",
        kicks);
    std::printf("# CPU: %d OpenMP threads; GPU: %s\n", cpu::thread_count(),
                gpu ? device::name().c_str() : "none");
    std::printf(
        "# +sort variants sort every kick, +sort/4 every 4th (the deck default; the sort column is its mean\n"
        "# per kick: use --kicks 4k); green is 0 once the grid is fixed; gather+kick is one pass (kick 0)\n"
        "# but for ,cg: gather in the sort's order into per-particle fields, then kick from them\n");
    std::printf("%-4s %9s %5s %-18s %8s %8s %8s %8s %8s %8s %8s %9s\n", "dev", "particles", "grid",
                "deposition", "sort", "deposit", "green", "solve", "field", "gath+kck", "kick", "total");
    Variant const variants[] = {{"atomic", DepositionMethod::atomic, 0},
                                {"aggregated+sort", DepositionMethod::aggregated, 1},
                                {"deterministic", DepositionMethod::deterministic, 0},
                                {"determ.+sort", DepositionMethod::deterministic, 1},
                                {"determ.+sort/4", DepositionMethod::deterministic, 4},
                                {"determ.+sort,cg", DepositionMethod::deterministic, 1, true},
                                {"determ.+sort/4,cg", DepositionMethod::deterministic, 4, true}};
    BeamFrame frame;
    frame.gamma = 1.0 + 100.0 / constants::proton_mass_mev;
    frame.beta = std::sqrt(1.0 - 1.0 / (frame.gamma * frame.gamma));
    frame.charge = constants::e_charge;
    frame.mass =
        constants::proton_mass_mev * 1e6 * constants::e_charge / (constants::c_light * constants::c_light);
    std::map<std::string, double> cpu_total;
    for (double np : particles) {
        auto const n = static_cast<size_type>(np);
        frame.macro_charge = 1e-9 / np;
        ParticleState const host = gaussian_bunch(n, frame);
        for (double ng : grids) {
            int const g = static_cast<int>(ng);
            for (int side = 0; side < 2; ++side) {
                bool const on_gpu = side == 1;
                if ((on_gpu && !gpu) || (!on_gpu && (!cpu || np > cpu_max))) continue;
                for (Variant const& v : variants) {
                    auto sc = on_gpu ? make_cuda_space_charge() : make_cpu_space_charge();
                    ParticleState state(host, sc->memory());
                    SpaceChargeSettings s;
                    s.grid = {g, g, g};
                    s.deposition = v.method;
                    s.sort_every = v.sort_every;
                    s.gather_in_cell_order = v.cell_order_gather;
                    sc->kick(state.view(), s, frame, 0.0);  // warm-up: plans, Green's function, allocation
                    SpaceChargeDiagnostics sum;
                    for (int k = 0; k < kicks; ++k) {
                        auto const d =
                            sc->kick(state.view(), s, frame, 0.0);  // ds = 0: full work, beam unchanged
                        sum.t_sort += d.t_sort;
                        sum.t_deposit += d.t_deposit;
                        sum.t_green += d.t_green;
                        sum.t_solve += d.t_solve;
                        sum.t_field += d.t_field;
                        sum.t_gather += d.t_gather;
                        sum.t_kick += d.t_kick;
                    }
                    double const ms = 1e3 / kicks;
                    std::string const key = std::to_string(n) + "/" + std::to_string(g) + "/" + v.name;
                    double const total = sum.total_time() * ms;
                    std::string speedup;
                    if (on_gpu && cpu_total.count(key)) {
                        char buf[32];
                        std::snprintf(buf, sizeof buf, "  (%.0fx CPU)", cpu_total[key] / total);
                        speedup = buf;
                    } else if (!on_gpu) {
                        cpu_total[key] = total;
                    }
                    std::printf("%-4s %9zu %4d^3 %-18s %8.3f %8.3f %8.3f %8.3f %8.3f %8.3f %8.3f %9.3f%s\n",
                                on_gpu ? "gpu" : "cpu", n, g, v.name, sum.t_sort * ms, sum.t_deposit * ms,
                                sum.t_green * ms, sum.t_solve * ms, sum.t_field * ms, sum.t_gather * ms,
                                sum.t_kick * ms, total, speedup.c_str());
                    std::fflush(stdout);
                }
            }
        }
    }
    return 0;
}
