// Reading and writing the calibration file, and the FFT-time interpolation.
#include "perf/Calibration.hh"

#include <array>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <stdexcept>

#include <fmt/format.h>
#include <toml++/toml.h>

namespace gt {

namespace {

std::string format_list(std::vector<double> const& v)
{
    std::string s = "[";
    for (std::size_t i = 0; i < v.size(); ++i) s += fmt::format("{}{:.6g}", i ? ", " : "", v[i]);
    return s + "]";
}

//! The scalar fields of a [cpu] or [gpu] section: key, member, comment.
struct Field {
    char const* key;
    double Ceilings::*member;
    char const* comment;
    bool optional = false;  //!< absent from older files: read as 0 (not measured)
};
constexpr Field k_fields[] = {
    {"copy_bandwidth", &Ceilings::copy_bandwidth, "[B/s] read + write, large array copy"},
    {"fp64_peak", &Ceilings::fp64_peak, "[FLOP/s] independent multiplies and adds"},
    {"fp64_map", &Ceilings::fp64_map, "[FLOP/s] gtrack's exact element maps"},
    {"push_seconds", &Ceilings::push_seconds, "[s] per particle and entry beyond the FP64 work"},
    {"fp64_reduce", &Ceilings::fp64_reduce, "[FLOP/s] the beam-moments reductions"},
    {"generate_rate", &Ceilings::generate_rate, "[particles/s] Gaussian beam sampling"},
    {"launch_latency", &Ceilings::launch_latency, "[s] one empty launch"},
    {"sort_bandwidth", &Ceilings::sort_bandwidth, "[B/s] space-charge cell sort"},
    {"deposit_bandwidth", &Ceilings::deposit_bandwidth, "[B/s] space-charge deposit"},
    {"gather_bandwidth", &Ceilings::gather_bandwidth, "[B/s] space-charge gather"},
    {"track_bandwidth", &Ceilings::track_bandwidth, "[B/s] a one-entry segment (streaming)", true},
    {"reduce_latency", &Ceilings::reduce_latency, "[s] a moments pass over one particle", true},
    {"warmup_seconds", &Ceilings::warmup_seconds, "[s] first calls beyond steady ones", true},
    {"sc_warmup_seconds", &Ceilings::sc_warmup_seconds, "[s] first space-charge kick beyond a steady one",
     true},
    {"fallback_push_seconds", &Ceilings::fallback_push_seconds,
     "[s] per push of an entry the CPU tracks particle by particle, beyond push_seconds", true},
    {"mix_push_seconds", &Ceilings::mix_push_seconds,
     "[s] per push in a lattice of mixed kinds, beyond each map's rate alone (dispatch, branches)", true},
    {"call_particle_seconds", &Ceilings::call_particle_seconds,
     "[s] per particle and call of a segment, added to its maps (CPU: the load into lanes and back)", true},
    {"download_latency", &Ceilings::download_latency, "[s] an output gather of one particle, none selected",
     true},
    {"download_scan_bandwidth", &Ceilings::download_scan_bandwidth,
     "[B/s] an output gather's selection (flags, sum, scatter), counted bytes", true},
    {"download_bandwidth", &Ceilings::download_bandwidth,
     "[B/s] an output gather's selected particles to the host, counted bytes", true},
    {"staging_bandwidth", &Ceilings::staging_bandwidth,
     "[B/s] host staging of gathered particles first allocated and written (GPU: pinned)", true},
    {"download_grow_bandwidth", &Ceilings::download_grow_bandwidth,
     "[B/s] an output gather over more particles than before: flags and offsets allocated", true},
    {"download_warmup_seconds", &Ceilings::download_warmup_seconds,
     "[s] the first output gather (one particle) beyond a steady one", true},
    {"deposit_between_sorts_bandwidth", &Ceilings::deposit_between_sorts_bandwidth,
     "[B/s] space-charge deposit at a kick between two sorts (positions packed again)", true},
    {"staging_in_kernels", &Ceilings::staging_in_kernels,
     "1: the gather's time holds its host staging (CPU); 0: host time beside it (GPU, page-locked)", true},
    {"detector_step_seconds", &Ceilings::detector_step_seconds,
     "[s] per detector track-step without showers, straight", true},
    {"detector_shower_step_seconds", &Ceilings::detector_shower_step_seconds,
     "[s] per detector track-step of an EM shower", true},
    {"detector_uniform_substep_seconds", &Ceilings::detector_uniform_substep_seconds,
     "[s] per field substep beyond a step's first, uniform field", true},
    {"detector_solenoid_substep_seconds", &Ceilings::detector_solenoid_substep_seconds,
     "[s] per field substep beyond a step's first, solenoid (and field maps)", true},
    {"detector_hit_seconds", &Ceilings::detector_hit_seconds, "[s] per detector hit (scored, sorted)", true},
    {"detector_slot_seconds", &Ceilings::detector_slot_seconds,
     "[s] per track slot and step iteration of the detector's slot walk", true},
    {"detector_shower_slot_seconds", &Ceilings::detector_shower_slot_seconds,
     "[s] per track slot and step iteration of the slot walk with showers", true},
    {"detector_warmup_seconds", &Ceilings::detector_warmup_seconds,
     "[s] a detector run's first calls beyond steady ones (GPU: module loading)", true},
    {"detector_iteration_seconds", &Ceilings::detector_iteration_seconds,
     "[s] per step iteration of the slot walk beyond its slots (launches)", true},
    {"detector_shower_iteration_seconds", &Ceilings::detector_shower_iteration_seconds,
     "[s] per step iteration of the slot walk with showers beyond its slots", true},
};

//! The streaming bandwidth by element switch (optional: 0 on the CPU and in files written before them).
constexpr char const* k_switch_keys[] = {"track_bandwidth_linear_maps", "track_bandwidth_optics_maps",
                                         "track_bandwidth_without_integrators"};
static_assert(std::size(k_switch_keys) == std::tuple_size_v<decltype(Ceilings::track_bandwidth_cases)>);

//! The map rates by family (optional: files written before them have fp64_map only, which the
//! forecast then uses for every family; `gtrack calibrate` writes them).
constexpr char const* k_family_keys[] = {"fp64_map_drift",       "fp64_map_quadrupole", "fp64_map_multipole",
                                         "fp64_map_bend",        "fp64_map_other",      "fp64_map_field_map",
                                         "fp64_map_field_map_3d"};
static_assert(std::size(k_family_keys) == std::tuple_size_v<decltype(Ceilings::fp64_map_family)>);

void write_ceilings(std::ofstream& f, char const* name, Ceilings const& c)
{
    f << fmt::format("\n[{}]\n", name);
    f << fmt::format("cores = {}\n", c.cores);
    for (Field const& field : k_fields)
        f << fmt::format("{} = {:.6g}  # {}\n", field.key, c.*field.member, field.comment);
    for (std::size_t i = 0; i < c.fp64_map_family.size(); ++i)
        f << fmt::format("{} = {:.6g}  # [FLOP/s] a lattice of these maps only\n", k_family_keys[i],
                         c.fp64_map_family[i]);
    for (std::size_t i = 0; i < c.track_bandwidth_cases.size(); ++i)
        f << fmt::format(
            "{} = {:.6g}  # [B/s] a one-entry segment through this switch (0: track_bandwidth)\n",
            k_switch_keys[i], c.track_bandwidth_cases[i]);
    f << fmt::format("fft_points = {}  # real points of the doubled grid\n", format_list(c.fft_points));
    f << fmt::format("fft_seconds = {}  # [s] one field solve (pad, two FFTs, product) per size\n",
                     format_list(c.fft_seconds));
    f << fmt::format("green_seconds = {}  # [s] the Green's function per size\n",
                     format_list(c.green_seconds));
    f << fmt::format("field_seconds = {}  # [s] the field from the potential per size\n",
                     format_list(c.field_seconds));
}

double number(toml::table const& t, std::string const& path, char const* section, char const* key)
{
    auto const* node = t.get(key);
    if (!node || !(node->is_floating_point() || node->is_integer()))
        throw std::runtime_error(fmt::format(
            "{}: [{}] {} is missing or not a number (run 'gtrack calibrate')", path, section, key));
    return node->value<double>().value();
}

std::vector<double> numbers(toml::table const& t, std::string const& path, char const* section,
                            char const* key)
{
    auto const* arr = t[key].as_array();
    if (!arr)
        throw std::runtime_error(fmt::format("{}: [{}] {} is missing or not an array", path, section, key));
    std::vector<double> out;
    for (auto const& v : *arr) {
        auto const x = v.value<double>();
        if (!x) throw std::runtime_error(fmt::format("{}: [{}] {} holds a non-number", path, section, key));
        out.push_back(*x);
    }
    return out;
}

std::optional<Ceilings> read_ceilings(toml::table const& root, std::string const& path, char const* section)
{
    auto const* t = root[section].as_table();
    if (!t) return std::nullopt;
    Ceilings c;
    c.cores = int(number(*t, path, section, "cores"));
    for (Field const& field : k_fields)
        if (!field.optional || t->contains(field.key)) c.*field.member = number(*t, path, section, field.key);
    for (std::size_t i = 0; i < c.fp64_map_family.size(); ++i)
        if (t->contains(k_family_keys[i])) c.fp64_map_family[i] = number(*t, path, section, k_family_keys[i]);
    for (std::size_t i = 0; i < c.track_bandwidth_cases.size(); ++i)
        if (t->contains(k_switch_keys[i]))
            c.track_bandwidth_cases[i] = number(*t, path, section, k_switch_keys[i]);
    c.fft_points = numbers(*t, path, section, "fft_points");
    c.fft_seconds = numbers(*t, path, section, "fft_seconds");
    c.green_seconds = numbers(*t, path, section, "green_seconds");
    c.field_seconds = numbers(*t, path, section, "field_seconds");
    std::size_t const n = c.fft_points.size();
    if (n == 0 || c.fft_seconds.size() != n || c.green_seconds.size() != n || c.field_seconds.size() != n)
        throw std::runtime_error(fmt::format(
            "{}: [{}] fft_points, fft_seconds, green_seconds and field_seconds must have one entry per size",
            path, section));
    return c;
}
}  // namespace

double Ceilings::fft_time(std::vector<double> const& seconds, double points) const
{
    if (fft_points.empty()) return 0.0;
    auto const cost = [](double n) { return n * std::log2(n); };
    std::size_t hi = 0;
    while (hi + 1 < fft_points.size() && fft_points[hi] < points) ++hi;
    std::size_t const lo = hi == 0 ? 0 : hi - 1;
    if (points <= fft_points[0]) return seconds[0] * cost(points) / cost(fft_points[0]);
    if (points >= fft_points[hi] || lo == hi) return seconds[hi] * cost(points) / cost(fft_points[hi]);
    double const f = (cost(points) - cost(fft_points[lo])) / (cost(fft_points[hi]) - cost(fft_points[lo]));
    return seconds[lo] + f * (seconds[hi] - seconds[lo]);
}

std::string default_calibration_path()
{
    if (char const* env = std::getenv("GTRACK_CALIBRATION"); env && *env) return env;
    if (char const* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg)
        return std::string(xdg) + "/gtrack/calibration.toml";
    char const* home = std::getenv("HOME");
    return std::string(home ? home : ".") + "/.cache/gtrack/calibration.toml";
}

void write_calibration(std::string const& path, Calibration const& c)
{
    std::filesystem::path const p(path);
    if (p.has_parent_path()) std::filesystem::create_directories(p.parent_path());
    std::ofstream f(path);
    if (!f) throw std::runtime_error(fmt::format("cannot write the calibration file '{}'", path));
    f << "# gtrack calibrate: this machine's measured ceilings (see docs/performance.md)\n";
    f << fmt::format("host = \"{}\"\ndate = \"{}\"\n", c.host, c.date);
    if (c.cpu) write_ceilings(f, "cpu", *c.cpu);
    if (c.gpu) write_ceilings(f, "gpu", *c.gpu);
    if (!f) throw std::runtime_error(fmt::format("error writing the calibration file '{}'", path));
}

Calibration read_calibration(std::string const& path)
{
    toml::table root;
    try {
        root = toml::parse_file(path);
    } catch (toml::parse_error const& e) {
        throw std::runtime_error(fmt::format("{}:{}: {}", path, e.source().begin.line, e.description()));
    }
    Calibration c;
    c.host = root["host"].value_or(std::string());
    c.date = root["date"].value_or(std::string());
    c.cpu = read_ceilings(root, path, "cpu");
    c.gpu = read_ceilings(root, path, "gpu");
    if (!c.cpu && !c.gpu)
        throw std::runtime_error(
            fmt::format("{}: neither a [cpu] nor a [gpu] section (run 'gtrack calibrate')", path));
    return c;
}

std::optional<Calibration> find_calibration(std::string const& path)
{
    std::string const p = path.empty() ? default_calibration_path() : path;
    if (!std::filesystem::exists(p)) {
        if (!path.empty()) throw std::runtime_error(fmt::format("calibration file '{}' not found", path));
        return std::nullopt;
    }
    return read_calibration(p);
}

}  // namespace gt
