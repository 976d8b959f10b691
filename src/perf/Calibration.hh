// The measured ceilings of one machine (`gtrack calibrate`): what the profile compares kernels
// against and what the forecast divides counted work by. Stored as a small TOML file.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <vector>

namespace gt {

//! One processor's ceilings, each measured by gtrack itself (src/perf/CalibrateMeasure.cc).
struct Ceilings {
    int cores = 0;              //!< CPU threads used (CPU), streaming multiprocessors (GPU)
    double copy_bandwidth = 0;  //!< [B/s] bytes read + written by a large array copy
    double fp64_peak = 0;       //!< [FLOP/s] independent multiplies and adds, every core busy
    double fp64_map = 0;        //!< [FLOP/s] gtrack's exact element maps (counted work / time)
    double push_seconds = 0;    //!< [s] per particle and table entry beyond its FP64 work
    double fp64_reduce = 0;     //!< [FLOP/s] the beam-moments reductions (counted work / time)
    double generate_rate = 0;   //!< [particles/s] sampling a Gaussian beam
    double launch_latency = 0;  //!< [s] one empty kernel launch (GPU) or parallel region (CPU)
    // Measured since the GPU forecast was compared with runs (0 in older files: not measured).
    double track_bandwidth = 0;    //!< [B/s] counted bytes / time of a one-entry segment (one drift)
    double reduce_latency = 0;     //!< [s] a moments pass over one particle: launch, copy back, wait
    double warmup_seconds = 0;     //!< [s] first calls of generate, track, moments beyond steady ones
    double sc_warmup_seconds = 0;  //!< [s] the first space-charge kick beyond a steady one (FFT plans)
    double sort_bandwidth = 0;     //!< [B/s] counted bytes / time of the space-charge cell sort
    double deposit_bandwidth = 0;  //!< [B/s] counted bytes / time of the space-charge deposit
    double gather_bandwidth = 0;   //!< [B/s] counted bytes / time of the space-charge gather
    //! [B/s] counted bytes / time of the space-charge deposit at a kick between two sorts (sort_every > 1):
    //! the positions packed again and read in the last sort's order, where deposit_bandwidth is a kick's
    //! right after its sort (which packed them). 0: not measured (files written before it): that one.
    double deposit_between_sorts_bandwidth = 0;
    //! Space-charge field solve (pad, forward FFT, product, inverse FFT) by size of the doubled
    //! grid, ascending: the FFT time per size.
    std::vector<double> fft_points;     //!< real points of the doubled grid
    std::vector<double> fft_seconds;    //!< [s] one solve
    std::vector<double> green_seconds;  //!< [s] the Green's function at the same sizes
    std::vector<double> field_seconds;  //!< [s] E = -grad phi on the grid of the same sizes
    //! [FLOP/s] the maps of one family each (MapFamily, kernels/beam/SegmentWork.hh: drift, quadrupole,
    //! multipole, bend, other, field_map, field_map_3d). 0: not measured (files written before them):
    //! fp64_map stands in, and for field_map and field_map_3d (files written before them) the `other`
    //! family's rate, which priced them until then.
    std::array<double, 7> fp64_map_family{};
    //! [s] per particle and entry that the CPU's lanes track one particle at a time, beyond push_seconds
    //! (per_particle_in_lanes, SegmentWork.hh; measured on thin kickers). 0: not measured.
    double fallback_push_seconds = 0;
    //! [s] per particle and entry of a lattice that mixes kinds, beyond its maps priced alone (the above):
    //! the kind's dispatch and its branches, mispredicted where the kinds change from entry to entry,
    //! and the element table's cache lines (measured on a shuffled mix of ~200 entries; >= 0). Negative:
    //! not measured (files written before it; the forecast then runs low on mixed lattices).
    double mix_push_seconds = -1;
    //! [s] per particle and call of a segment beyond its pushes, added to the maps' time (the CPU's load into
    //! vector lanes and store back; a one-entry marker segment). 0 on the GPU, where the bandwidth bounds a
    //! segment instead, and in files written before it.
    double call_particle_seconds = 0;

    //! The output's gathers (BeamKernels::gather_to_host: loss records, snapshots), measured by calling it.
    //! 0 in files written before them: the gathers are not priced (`download_measured()`).
    double download_latency = 0;         //!< [s] a gather of one particle selecting none (launches, waits)
    double download_scan_bandwidth = 0;  //!< [B/s] counted bytes / time of the flags, sum and scatter
    double download_bandwidth = 0;       //!< [B/s] counted bytes of selected particles / their extra time
    double staging_bandwidth = 0;        //!< [B/s] host staging first allocated (GPU: pinned) and written
    //! [B/s] a gather over more particles than before: its flags and offsets allocated (counted bytes;
    //! the CPU's zero-filled staging of that size goes with them, the GPU allocates outside its timer)
    double download_grow_bandwidth = 0;
    double download_warmup_seconds = 0;  //!< [s] the first gather (of one particle) beyond a steady one
    //! Whether the backend's gather time holds the host staging it allocates: 1 on the CPU (zero-filled
    //! vectors, timed by the host clock), 0 on the GPU (the page-locked allocation is made while the
    //! device waits idle for the count, and is taken out of the gather's events: host work, shown in
    //! --trace as "host staging"; the forecast gives it as host time beside the kernels). Negative:
    //! files written before it, whose gathers counted it on both.
    double staging_in_kernels = -1;

    //! [B/s] counted bytes / time of a one-entry segment through each element switch the GPU compiles as
    //! a kernel of its own (ElementCases: linear maps, optics maps, without integrators), each with its
    //! own register budget and so its own occupancy and streaming bandwidth: measured on the GPU on a
    //! marker, a wide aperture and a thin kicker. 0: not measured (the CPU, whose segments' loads and stores
    //! call_particle_seconds prices, and files written before them): track_bandwidth stands in.
    std::array<double, 3> track_bandwidth_cases{};

    //! The detector loop's costs (`gtrack forecast` of a detector deck prices a pilot run's counts with them,
    //! src/run/DetectorForecast.hh), measured on built-in decks with this backend's detector loop
    //! (src/run/CalibrateDetector.cc). 0 (-1 for the iteration's): not measured (files written before them):
    //! detector decks are not priced (missing_detector_key()).
    double detector_step_seconds = 0;  //!< [s] per track-step without showers, straight (no field)
    double detector_shower_step_seconds =
        0;  //!< [s] per track-step of an EM shower (interactions, secondaries)
    double detector_uniform_substep_seconds =
        0;  //!< [s] per field substep beyond a step's first, uniform field
    double detector_solenoid_substep_seconds =
        0;                                    //!< [s] the same in a solenoid's field (and the field maps')
    double detector_hit_seconds = 0;          //!< [s] per hit (scored in a sensitive volume, then sorted)
    double detector_slot_seconds = 0;         //!< [s] per track slot and step iteration of the slot walk
    double detector_shower_slot_seconds = 0;  //!< [s] the same with showers (more actions an iteration)
    //! [s] per step iteration of the slot walk beyond its slots (launches); -1: not measured
    double detector_iteration_seconds = -1;
    //! [s] the same with showers: more actions an iteration, each as long as its slowest track's work
    //! where few slots are live (on the H100 ~3x the walk's without showers); -1: not measured
    double detector_shower_iteration_seconds = -1;
    //! [s] a GPU run's first calls beyond steady ones (module loading): once a run (0 on the CPU, and where
    //! not measured)
    double detector_warmup_seconds = 0;

    //! The first detector key this file lacks ("" when it has them all).
    std::string missing_detector_key() const
    {
        if (detector_step_seconds <= 0) return "detector_step_seconds";
        if (detector_shower_step_seconds <= 0) return "detector_shower_step_seconds";
        if (detector_uniform_substep_seconds <= 0) return "detector_uniform_substep_seconds";
        if (detector_solenoid_substep_seconds <= 0) return "detector_solenoid_substep_seconds";
        if (detector_hit_seconds <= 0) return "detector_hit_seconds";
        if (detector_slot_seconds <= 0) return "detector_slot_seconds";
        if (detector_shower_slot_seconds <= 0) return "detector_shower_slot_seconds";
        if (detector_iteration_seconds < 0) return "detector_iteration_seconds";
        if (detector_shower_iteration_seconds < 0) return "detector_shower_iteration_seconds";
        return "";
    }

    //! [B/s] the streaming bandwidth of a segment tracked by switch `cases` (ElementCases' order; the `all`
    //! switch, whose kinds need field data, at the switch without integrators'): its own where measured,
    //! else track_bandwidth.
    double track_bandwidth_of(int cases) const
    {
        int const i =
            cases < int(track_bandwidth_cases.size()) ? cases : int(track_bandwidth_cases.size()) - 1;
        return track_bandwidth_cases[std::size_t(i)] > 0 ? track_bandwidth_cases[std::size_t(i)]
                                                         : track_bandwidth;
    }
    //! True when the file predates the kernels' loading before their first timed call (staging_in_kernels
    //! and, on the GPU, track_bandwidth_cases absent): its warm-up holds the module loading that runs no
    //! longer time as kernel work, its GPU gathers the host staging, and segments of the larger switches are
    //! priced at the marker's bandwidth. The forecast still works, off by those; `gtrack calibrate` again.
    bool stale_loading_model() const { return staging_in_kernels < 0; }

    bool download_measured() const
    {
        return download_latency > 0 && download_scan_bandwidth > 0 && download_bandwidth > 0 &&
               staging_bandwidth > 0;
    }

    //! [s] a solve (or Green's function) of `points` doubled-grid points, interpolated in N log N
    //! between the measured sizes (extrapolated from the nearest one beyond them).
    double fft_time(std::vector<double> const& seconds, double points) const;

    //! [FLOP/s] the rate of map family `family` (MapFamily's order): its own where measured, else fp64_map.
    //! True when the file predates the map model of the CPU's lanes (family rates and the mix's cost per
    //! push): the forecast still works, from fp64_map alone, but runs low; `gtrack calibrate` again.
    bool stale_map_model() const { return mix_push_seconds < 0 || fp64_map_family[0] <= 0; }

    //! True when the file has the other families' rates but predates the field-map family's (profile
    //! elements, fp64_map_field_map): those entries are priced at the `other` family's rate, as before.
    bool stale_field_map_rate() const { return !stale_map_model() && fp64_map_family[k_field_map] <= 0; }
    //! The same for the 3D field maps' family (fp64_map_field_map_3d).
    bool stale_field_map_3d_rate() const
    {
        return !stale_map_model() && fp64_map_family[k_field_map_3d] <= 0;
    }

    double fp64_map_of(int family) const
    {
        bool const own = family < int(fp64_map_family.size()) && fp64_map_family[family] > 0;
        if (own) return fp64_map_family[family];
        if ((family == k_field_map || family == k_field_map_3d) && fp64_map_family[k_other] > 0)
            return fp64_map_family[k_other];
        return fp64_map;
    }
    //! MapFamily::other, field_map and field_map_3d (kernels/beam/SegmentWork.hh; not included here).
    static constexpr int k_other = 4, k_field_map = 5, k_field_map_3d = 6;
};

struct Calibration {
    std::string host;  //!< where it was measured
    std::string date;  //!< when (UTC, ISO 8601)
    std::optional<Ceilings> cpu;
    std::optional<Ceilings> gpu;
};

//! ~/.cache/gtrack/calibration.toml ($XDG_CACHE_HOME/gtrack/calibration.toml when set), or
//! $GTRACK_CALIBRATION when set.
std::string default_calibration_path();

void write_calibration(std::string const& path, Calibration const& c);
//! Reads a calibration file; std::runtime_error naming the file and key when it is not one.
Calibration read_calibration(std::string const& path);
//! The calibration at `path` ("" : the default path) if that file exists, else nothing.
std::optional<Calibration> find_calibration(std::string const& path);

}  // namespace gt
