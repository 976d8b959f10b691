// Collective-effects benchmark: the longitudinal histogram's achieved bandwidth (deterministic and
// per-block variants, 1 and 3 channels), the host convolution, and one CSR bend slice end to end, on
// the CPU and the GPU in one run (on the GPU with the host's FFTW and with cuFFT). Usage: gtrack_bench_collective [--particles 1e7] [--bins 1000,4000]
//                                        [--repeat 5] [--no-cpu] [--no-gpu]
// Bandwidth counts the bytes a histogram must read: t and the loss flag (12 B per particle), plus x
// and y for 3 channels (28 B); the fraction is of GTRACK_COPY_BW (B/s) when set (gpu-check.sh).
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "collective/CollectiveSolver.hh"
#include "kernels/core/Device.hh"
#include "kernels/cpu/Executor.hh"

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

//! A Gaussian bunch (sigma_t 1 mm, sigma_x 0.5 mm, sigma_y 0.3 mm), host memory.
ParticleState gaussian_bunch(size_type n)
{
    ParticleState s(n, MemSpace::host);
    ParticleView v = s.view();
    std::uint64_t state = 987654321;
    auto uniform = [&] {
        state = state * 6364136223846793005ull + 1442695040888963407ull;
        return (double(state >> 11) + 0.5) * 0x1.0p-53;
    };
    auto normal = [&] { return std::sqrt(-2.0 * std::log(uniform())) * std::cos(constants::two_pi * uniform()); };
    for (size_type i = 0; i < n; ++i) {
        v.x[i] = 5e-4 * normal();
        v.y[i] = 3e-4 * normal();
        v.t[i] = 1e-3 * normal();
        v.px[i] = v.py[i] = v.pt[i] = 0.0;
        v.id[i] = i;
        v.lost_element[i] = -1;
        v.lost_turn[i] = 0;
    }
    return s;
}

double seconds(std::chrono::steady_clock::time_point t)
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

}  // namespace

int main(int argc, char** argv)
{
    double particles = 1e7;
    std::vector<double> bins = {1000, 4000};
    int repeat = 5;
    bool cpu_on = true, gpu_on = true;
    for (int i = 1; i < argc; ++i) {
        std::string const a = argv[i];
        auto next = [&] { return i + 1 < argc ? std::string(argv[++i]) : std::string(); };
        if (a == "--particles") particles = std::stod(next());
        else if (a == "--bins") bins = list_of(next());
        else if (a == "--repeat") repeat = std::stoi(next());
        else if (a == "--no-cpu") cpu_on = false;
        else if (a == "--no-gpu") gpu_on = false;
        else {
            std::fprintf(stderr, "unknown option %s\n", a.c_str());
            return 2;
        }
    }
    if (gpu_on && device::count() == 0) {
        std::printf("# no GPU: CPU only\n");
        gpu_on = false;
    }
    char const* bw_env = std::getenv("GTRACK_COPY_BW");
    double const copy_bw = bw_env ? std::atof(bw_env) : 0.0;
    auto const n = static_cast<size_type>(particles);
    ParticleState host = gaussian_bunch(n);
    std::printf("# collective benchmark: %zu particles, best of %d; CPU %d OpenMP threads%s%s\n", std::size_t(n),
                repeat, cpu::thread_count(), gpu_on ? ", GPU " : "", gpu_on ? device::name().c_str() : "");
    std::printf("%-4s %-34s %6s %3s %11s %9s %9s\n", "dev", "stage", "bins", "ch", "seconds", "GB/s", "of_copy");
    for (int g = 0; g < 2; ++g) {
        bool const on_gpu = g == 1;
        if ((on_gpu && !gpu_on) || (!on_gpu && !cpu_on)) continue;
        std::unique_ptr<CollectiveKernels> k = on_gpu ? make_cuda_collective() : make_cpu_collective();
        ParticleState state(host, k->memory());
        ParticleView const v = state.view();
        LineBunchShape const b = k->shape(v);
        char const* dev = on_gpu ? "gpu" : "cpu";
        for (double nb : bins) {
            LineGrid grid;
            grid.n = int(nb);
            grid.h = (b.t_max - b.t_min) / (nb - 3.0);
            grid.t0 = b.t_min - grid.h;
            for (int channels : {1, 3})
                for (auto method : {LineHistogramMethod::deterministic, LineHistogramMethod::per_block}) {
                    LineChannels ch;
                    ch.count = channels;
                    ch.x_scale = std::exp2(std::ceil(std::log2(b.max_abs_x)));
                    ch.y_scale = std::exp2(std::ceil(std::log2(b.max_abs_y)));
                    double best = 1e300;
                    for (int r = 0; r < repeat + 1; ++r) {  // the first call warms up
                        auto const t = std::chrono::steady_clock::now();
                        k->histogram(v, grid, ch, method);
                        if (r > 0) best = std::min(best, seconds(t));
                    }
                    double const bytes = double(n) * (channels == 1 ? 12.0 : 28.0);
                    std::string const name = std::string("histogram ") +
                                             (method == LineHistogramMethod::deterministic ? "deterministic" : "per_block");
                    std::printf("%-4s %-34s %6d %3d %11.6f %9.2f %9s\n", dev, name.c_str(), grid.n, channels, best,
                                bytes / best / 1e9,
                                copy_bw > 0 ? std::to_string(bytes / best / copy_bw).substr(0, 5).c_str() : "-");
                }
            // One CSR bend slice (histogram, smoothing, convolution, kick) and one LSC kick, end to end;
            // on the GPU with the host's FFTW (the default) and with cuFFT.
            for (int backend_fft = 0; backend_fft < (on_gpu ? 2 : 1); ++backend_fft) {
                CollectiveSolver solver(*k, backend_fft == 1);
                CollectiveSettings settings;
                settings.bins = grid.n;
                BeamFrame frame;
                frame.gamma = 300;
                frame.beta = std::sqrt(1.0 - 1.0 / (frame.gamma * frame.gamma));
                frame.charge = -constants::e_charge;
                frame.mass = 9.1093837015e-31;
                frame.macro_charge = -1e-9 / double(n);
                for (int kind = 0; kind < 2; ++kind) {
                    CollectiveKickSpec spec;
                    spec.ds = 1e-6;  // tiny: the bunch barely changes between repeats
                    if (kind == 0) spec.csr_radius = 10.0;
                    else spec.lsc = true;
                    double best = 1e300;
                    CollectiveDiagnostics best_d;
                    for (int r = 0; r < repeat + 1; ++r) {
                        auto const t = std::chrono::steady_clock::now();
                        CollectiveDiagnostics const d = solver.kick(v, settings, frame, spec);
                        double const s = seconds(t);
                        if (r > 0 && s < best) best = s, best_d = d;
                    }
                    std::string const name = std::string(kind == 0 ? "CSR bend slice" : "LSC kick") + ", " +
                                             solver.fft_name() + ", end to end";
                    std::printf("%-4s %-34s %6d %3d %11.6f %9s %9s   (histogram %.6f, convolve %.6f, kick %.6f)\n", dev,
                                name.c_str(), grid.n, 1, best, "-", "-", best_d.t_histogram, best_d.t_convolve,
                                best_d.t_kick);
                }
            }
        }
    }
    return 0;
}
