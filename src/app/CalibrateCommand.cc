// gtrack calibrate: measure this machine's ceilings (CPU, and the GPU when there is one) into the
// calibration file that --profile and forecast read.
#include <unistd.h>
#include <algorithm>
#include <cstdio>

#include <fmt/format.h>

#include "app/Commands.hh"
#include "io/Provenance.hh"
#include "kernels/core/Device.hh"
#include "kernels/cpu/Executor.hh"
#include "kernels/cpu/Stopwatch.hh"
#include "run/CalibrateDetector.hh"
#include "run/CalibrateMeasure.hh"

namespace gt {

namespace {

void print_ceilings(char const* side, Ceilings const& c)
{
    std::printf(
        "%s: %d %s; copy %.3g GB/s; FP64 peak %.3g GFLOP/s, maps %.3g GFLOP/s + %.3g ns per push; "
        "moments %.3g GFLOP/s; sampling %.3g particles/s; launch %.3g us\n",
        side, c.cores, std::string(side) == "gpu" ? "SMs" : "threads", c.copy_bandwidth * 1e-9,
        c.fp64_peak * 1e-9, c.fp64_map * 1e-9, c.push_seconds * 1e9, c.fp64_reduce * 1e-9, c.generate_rate,
        c.launch_latency * 1e6);
    std::printf(
        "%s maps by family: drift %.3g, quadrupole %.3g, multipole %.3g, bend %.3g, other %.3g, field map "
        "%.3g, 3D field map %.3g GFLOP/s\n",
        side, c.fp64_map_family[0] * 1e-9, c.fp64_map_family[1] * 1e-9, c.fp64_map_family[2] * 1e-9,
        c.fp64_map_family[3] * 1e-9, c.fp64_map_family[4] * 1e-9, c.fp64_map_family[5] * 1e-9,
        c.fp64_map_family[6] * 1e-9);
    std::printf(
        "%s a mixed lattice: %.3g ns per push beyond the family rates; %.3g ns per particle and call\n", side,
        std::max(0.0, c.mix_push_seconds) * 1e9, c.call_particle_seconds * 1e9);
    std::printf(
        "%s output gathers: %.3g us a call, selection %.3g GB/s, to the host %.3g GB/s, new staging "
        "%.3g GB/s, first call +%.3g ms\n",
        side, c.download_latency * 1e6, c.download_scan_bandwidth * 1e-9, c.download_bandwidth * 1e-9,
        c.staging_bandwidth * 1e-9, c.download_warmup_seconds * 1e3);
    if (c.track_bandwidth_cases[0] > 0)
        std::printf(
            "%s one-entry segments by switch: linear maps %.3g, optics maps %.3g, without integrators %.3g "
            "GB/s\n",
            side, c.track_bandwidth_cases[0] * 1e-9, c.track_bandwidth_cases[1] * 1e-9,
            c.track_bandwidth_cases[2] * 1e-9);
    std::printf(
        "%s space charge: sort %.3g GB/s, deposit %.3g GB/s (between sorts %.3g), gather %.3g GB/s; solve",
        side, c.sort_bandwidth * 1e-9, c.deposit_bandwidth * 1e-9, c.deposit_between_sorts_bandwidth * 1e-9,
        c.gather_bandwidth * 1e-9);
    for (std::size_t i = 0; i < c.fft_points.size(); ++i)
        std::printf("%s %.3g ms at %.0f points", i ? "," : "", c.fft_seconds[i] * 1e3, c.fft_points[i]);
    std::printf("\n");
    std::printf(
        "%s detector loop: %.3g us a track-step (%.3g with showers); field substeps %.3g us (uniform), "
        "%.3g us (solenoid); an iteration %.3g us + %.3g ns a slot (with showers %.3g us + %.3g ns); a hit "
        "%.3g us\n",
        side, c.detector_step_seconds * 1e6, c.detector_shower_step_seconds * 1e6,
        c.detector_uniform_substep_seconds * 1e6, c.detector_solenoid_substep_seconds * 1e6,
        c.detector_iteration_seconds * 1e6, c.detector_slot_seconds * 1e9,
        c.detector_shower_iteration_seconds * 1e6, c.detector_shower_slot_seconds * 1e9,
        c.detector_hit_seconds * 1e6);
}

}  // namespace

Calibration measure_calibration(bool quick, bool cpu_only)
{
    CalibrateSize const size = calibrate_size(quick);
    Calibration c;
    char host[256] = "unknown";
    (void)gethostname(host, sizeof host - 1);
    c.host = host;
    c.date = iso8601_utc_now();
    std::printf("gtrack calibrate: measuring the CPU (%d threads)%s\n", cpu::thread_count(),
                quick ? ", quick sizes" : "");
    Ceilings detector;
    measure_detector_costs(detector, false);
    c.cpu = measure_cpu_ceilings(size);
    copy_detector_costs(*c.cpu, detector);
    print_ceilings("cpu", *c.cpu);
    if (!cpu_only && device::count() > 0) {
        std::printf("measuring the GPU (%s)\n", device::name().c_str());
        c.gpu = measure_gpu_ceilings(size);
        measure_detector_costs(*c.gpu, true);
        print_ceilings("gpu", *c.gpu);
    }
    return c;
}

int calibrate_command(CalibrateOptions const& options)
{
    cpu::set_thread_count(options.threads);
    cpu::timer_clock() = options.clock == "cpu" ? cpu::TimerClock::process_cpu : cpu::TimerClock::wall;
    Calibration const c = measure_calibration(options.quick, options.cpu_only);
    std::string const path = options.out.empty() ? default_calibration_path() : options.out;
    write_calibration(path, c);
    std::printf("wrote %s\n", path.c_str());
    return 0;
}

}  // namespace gt
