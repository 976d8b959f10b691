// GPU memory needed by a beamline run, from the deck, and the check against what the GPU has free.
#include "run/DeviceMemory.hh"

#include <algorithm>
#include <complex>
#include <stdexcept>

#include <fmt/format.h>

#include "kernels/core/Device.hh"

namespace gt {

namespace {

//! cuFFT, CUB and the CUDA runtime allocate beside gtrack's buffers (plan work areas, reduction
//! partials, the runtime's own heap): a fixed reserve. On the H100 (gpu-check, 2026-11-24) a 64^3
//! space-charge kick of 4e6 particles took 1292 MiB against 766 MiB of counted buffers, so 768 MiB.
constexpr double k_library_reserve = 768.0 * (1 << 20);

std::string bytes_text(double b)
{
    if (b >= 1024.0 * 1024 * 1024) return fmt::format("{:.2f} GiB", b / (1024.0 * 1024 * 1024));
    if (b >= 1024.0 * 1024) return fmt::format("{:.1f} MiB", b / (1024.0 * 1024));
    return fmt::format("{:.0f} B", b);
}

}  // namespace

double DeviceMemoryEstimate::total() const
{
    double sum = 0;
    for (auto const& p : parts) sum += p.bytes;
    return sum;
}

DeviceMemoryEstimate estimate_beamline_device_memory(DeckConfig const& deck)
{
    DeviceMemoryEstimate e;
    double const n = double(deck.beam.macroparticles);
    e.macroparticles = n;
    // ParticleState: x, px, y, py, t, pt, id, lost_element, lost_turn.
    double const per_particle = 6 * sizeof(double) + sizeof(std::uint64_t) + 2 * sizeof(std::int32_t);
    e.parts.push_back({fmt::format("particles ({:.4g} macroparticles x {:.0f} B)", n, per_particle),
                       n * per_particle, "beam.macroparticles"});
    if (deck.space_charge.enabled) {
        // SpaceChargeSolver: the packed positions the deposition reads (PackedPosition, 32 B); sort keys
        // and permutation; CUB's sorted keys and values, and its work area (about one more key and
        // value per particle).
        double const sc_per_particle =
            32.0 + 2 * sizeof(std::uint32_t) + 2 * sizeof(std::uint32_t) + 2 * sizeof(std::uint32_t);
        e.parts.push_back(
            {fmt::format("space-charge particle buffers ({:.0f} B per macroparticle)", sc_per_particle),
             n * sc_per_particle, "beam.macroparticles"});
        // t-code entries pushed as a bunch (TimeBunch.hh): ten doubles and a flag per particle, and
        // the positions handed to the solver (a particle state).
        bool timed = deck.run.tracking != "z";
        for (auto const& el : deck.elements) {
            auto const t = el.strings.find("tracking");
            if (t != el.strings.end() && t->second != "z") timed = true;
        }
        if (timed) {
            double const bunch = 10 * sizeof(double) + sizeof(std::int32_t) + per_particle;
            e.parts.push_back({fmt::format("t-code bunch state ({:.0f} B per macroparticle)", bunch),
                               n * bunch, "beam.macroparticles"});
        }
        auto const& g = deck.space_charge.grid;
        double const nodes = double(g[0]) * double(g[1]) * double(g[2]);
        // Node arrays: double and fixed-point weights, charge, the fields (NodeField, 32 B). Doubled grid (2n
        // per axis, Hockney): one real array, the charge spectrum and the Green's function spectrum (r2c: n+1
        // complex along x), the Green's function's corner values, and cuFFT's work area for the forward
        // and the inverse plan (each at most one more complex array).
        double const doubled_real = 8.0 * nodes;
        double const doubled_complex = double(g[0] + 1) * double(2 * g[1]) * double(2 * g[2]);
        double const corners = double(g[0] + 2) * double(g[1] + 2) * double(g[2] + 2);
        double const grid_bytes =
            nodes * (2 * sizeof(double) + 32.0 + sizeof(std::int64_t)) + doubled_real * sizeof(double) +
            4 * doubled_complex * sizeof(std::complex<double>) + corners * sizeof(double);
        e.parts.push_back(
            {fmt::format("space-charge grid {}x{}x{} and its doubled FFT grids", g[0], g[1], g[2]),
             grid_bytes, "space_charge.grid"});
    }
    e.parts.push_back({"CUDA runtime, cuFFT and CUB reserve", k_library_reserve, ""});
    return e;
}

std::string device_memory_shortfall(DeviceMemoryEstimate const& needed, std::uint64_t free_bytes,
                                    std::uint64_t total_bytes, std::string const& device_name)
{
    double const total = needed.total();
    if (total <= double(free_bytes)) return "";
    std::string text =
        fmt::format("the run needs about {} of GPU memory, but {} has {} free (of {}):", bytes_text(total),
                    device_name, bytes_text(double(free_bytes)), bytes_text(double(total_bytes)));
    std::vector<std::string> keys;
    for (auto const& p : needed.parts) {
        text += fmt::format("\n  {:>12}  {}", bytes_text(p.bytes), p.what);
        if (!p.change.empty() && std::find(keys.begin(), keys.end(), p.change) == keys.end())
            keys.push_back(p.change);
    }
    // What would fit: the particle count scales every per-particle part; the rest stays.
    double per_particle = 0, fixed = 0;
    for (auto const& p : needed.parts) (p.change == "beam.macroparticles" ? per_particle : fixed) += p.bytes;
    text += fmt::format("\nreduce {}", fmt::join(keys, " or "));
    if (per_particle > 0 && double(free_bytes) > fixed)
        text += fmt::format(" (at most about {:.3g} macroparticles fit)",
                            needed.macroparticles * (double(free_bytes) - fixed) / per_particle);
    text += ", use a GPU with more memory, or run on the CPU (--backend cpu)";
    return text;
}

void check_device_memory(DeviceMemoryEstimate const& needed)
{
    device::MemoryInfo const info = device::memory_info();
    std::string const message =
        device_memory_shortfall(needed, info.free_bytes, info.total_bytes, device::name());
    if (!message.empty()) throw std::runtime_error(message);
}

}  // namespace gt
