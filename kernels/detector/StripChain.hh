// The strip chain (digitize; sort, clusters, hits) written once over an executor. `Ops` supplies
// what differs between backends: for_each, the memory space, an exclusive scan, a stable sort of
// (64-bit key, 32-bit index) pairs by radix or merge sort, copies, a synchronization point. Every
// stage's result is fixed by its input (sorts are stable and their values distinct, links are
// mutual, sums run in a fixed order), so the CPU, at any thread count, and the GPU give the same bits.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "kernels/core/Buffer.hh"
#include "kernels/core/KernelTimer.hh"
#include "kernels/core/NvtxRange.hh"
#include "kernels/detector/Hit.hh"
#include "kernels/detector/StripDigitize.hh"
#include "kernels/detector/StripReco.hh"
#include "kernels/detector/StripSensor.hh"

namespace gt {

enum class StripSort { radix, merge };

//! The strip tables on the host (src/detector/StripSetup.cc builds them).
struct StripTables {
    StripParams params;
    std::vector<StripVolume> volumes;
    std::vector<std::int32_t> logical_first, logical_count;
    std::vector<std::int32_t> sensor_volume;
    std::vector<double> event_time;  //!< [s]
    double cluster_window = 0;       //!< [ns]
    double hit_window = 0;           //!< [ns]
    StripSort sort = StripSort::radix;
};

struct StripDigitization {
    std::vector<StripDigi> digis;      //!< in time order (the read-out's stream)
    std::vector<std::uint32_t> truth;  //!< per digi: the step (row of the sorted hits) of most charge
    std::uint64_t signals = 0;         //!< (step, strip) signals before the read-out
    std::uint64_t pulses = 0;          //!< pulses before the threshold
};

struct StripReconstruction {
    std::vector<StripCluster> clusters;  //!< sorted by (side, time)
    std::vector<StripRecoHit> hits;      //!< by front cluster
};

class StripKernels {
  public:
    virtual ~StripKernels() = default;
    virtual std::string description() const = 0;
    virtual void setup(StripTables const& tables) = 0;
    virtual StripDigitization digitize(std::vector<Hit> const& hits) = 0;
    //! Sort, clusters, hits of `digis` (any order; truth may be empty). The device stages are timed
    //! in timer() (sort_digis, connect, clusters, sort_clusters, hits), without the copies.
    virtual StripReconstruction reconstruct(std::vector<StripDigi> const& digis,
                                            std::vector<std::uint32_t> const& truth) = 0;
    virtual KernelTimer const& timer() const = 0;
    virtual void clear_timer() = 0;
    //! Only the sort (for the benchmark): `digis` sorted by (channel, time) with `method`, `repeat`
    //! times from the same input; returns the seconds of the last.
    virtual double time_sort(std::vector<StripDigi> const& digis, StripSort method, int repeat) = 0;
};

std::unique_ptr<StripKernels> make_cpu_strip_kernels();
//! Throws std::runtime_error without CUDA or without a GPU.
std::unique_ptr<StripKernels> make_cuda_strip_kernels();

template <class Ops>
class StripChain final : public StripKernels {
  public:
    std::string description() const override { return Ops::describe(); }

    void setup(StripTables const& tables) override
    {
        tables_ = tables;
        volumes_ = upload(tables.volumes);
        first_ = upload(tables.logical_first);
        count_ = upload(tables.logical_count);
        sensor_volume_ = upload(tables.sensor_volume);
        event_time_ = upload(tables.event_time);
        view_.p = tables.params;
        view_.volumes = volumes_.data();
        view_.logical_first = first_.data();
        view_.logical_count = count_.data();
        view_.num_logical = static_cast<std::int32_t>(tables.logical_first.size());
        view_.sensor_volume = sensor_volume_.data();
        view_.event_time = event_time_.data();
        view_.num_events = tables.event_time.size();
    }

    StripDigitization digitize(std::vector<Hit> const& host_hits) override
    {
        StripDigitization r;
        std::size_t const n = host_hits.size();
        Buffer<Hit> hits = upload(host_hits);
        Buffer<std::uint32_t> counts(2 * n, Ops::space), offsets(2 * n, Ops::space);
        timed("signal_count", [&] {
            Ops::for_each(2 * n, strip::StripSignalCount{view_, hits.data(), counts.data()});
        });
        std::uint64_t const m = Ops::exclusive_scan(counts.data(), offsets.data(), 2 * n);
        r.signals = m;
        Buffer<std::uint64_t> keys(m, Ops::space);
        Buffer<double> charge(m, Ops::space);
        Buffer<std::uint32_t> step(m, Ops::space), order(m, Ops::space);
        timed("signal_write", [&] {
            Ops::for_each(2 * n, strip::StripSignalWrite{view_, hits.data(), offsets.data(), keys.data(),
                                                         charge.data(), step.data()});
        });
        timed("signal_sort", [&] {
            Ops::iota(order.data(), m);
            Ops::sort_pairs(keys.data(), order.data(), m, StripSort::radix);
        });
        Buffer<std::uint32_t> start(m, Ops::space), index(m, Ops::space);
        auto const dead_ticks = static_cast<std::uint64_t>(tables_.params.dead_time / k_strip_signal_tick);
        timed("pulse_start", [&] {
            Ops::for_each(m, strip::StripPulseStart{keys.data(), dead_ticks, start.data()});
        });
        std::uint64_t const pulses = Ops::exclusive_scan(start.data(), index.data(), m);
        r.pulses = pulses;
        Buffer<strip::StripPulse> pulse(pulses, Ops::space);
        timed("pulse_build", [&] {
            Ops::for_each(m,
                          strip::StripPulseBuild{keys.data(), order.data(), start.data(), index.data(),
                                                 charge.data(), step.data(), hits.data(), m, pulse.data()});
        });
        Buffer<std::uint32_t> kept(pulses, Ops::space), kept_index(pulses, Ops::space),
            truth(pulses, Ops::space);
        Buffer<StripDigi> digis(pulses, Ops::space);
        timed("response", [&] {
            Ops::for_each(
                pulses, strip::StripResponse{view_.p, pulse.data(), kept.data(), digis.data(), truth.data()});
        });
        std::uint64_t const d = Ops::exclusive_scan(kept.data(), kept_index.data(), pulses);
        Buffer<StripDigi> packed(d, Ops::space), sorted(d, Ops::space);
        Buffer<std::uint32_t> packed_truth(d, Ops::space), sorted_truth(d, Ops::space);
        Buffer<std::uint64_t> dkeys(d, Ops::space);
        Buffer<std::uint32_t> dorder(d, Ops::space);
        timed("digi_time_order", [&] {
            Ops::for_each(pulses, strip::StripCompactDigis{kept.data(), kept_index.data(), digis.data(),
                                                           truth.data(), packed.data(), packed_truth.data()});
            Ops::for_each(d, strip::StripDigiKeys{packed.data(), false, dkeys.data(), dorder.data()});
            Ops::sort_pairs(dkeys.data(), dorder.data(), d, StripSort::radix);
            Ops::for_each(d, strip::StripGatherDigis{dorder.data(), packed.data(), packed_truth.data(),
                                                     sorted.data(), sorted_truth.data()});
        });
        r.digis = download(sorted);
        r.truth = download(sorted_truth);
        return r;
    }

    StripReconstruction reconstruct(std::vector<StripDigi> const& host_digis,
                                    std::vector<std::uint32_t> const& host_truth) override
    {
        StripReconstruction r;
        auto const n = static_cast<std::uint32_t>(host_digis.size());
        Buffer<StripDigi> in = upload(host_digis);
        std::vector<std::uint32_t> truth_in = host_truth;
        truth_in.resize(n, 0);
        Buffer<std::uint32_t> in_truth = upload(truth_in);
        Buffer<std::uint64_t> keys(n, Ops::space);
        Buffer<std::uint32_t> order(n, Ops::space);
        Buffer<StripDigi> digis(n, Ops::space);
        Buffer<std::uint32_t> truth(n, Ops::space);
        Ops::synchronize();
        double const bytes = static_cast<double>(n) * sizeof(StripDigi);
        timed(
            "sort_digis",
            [&] {
                Ops::for_each(n, strip::StripDigiKeys{in.data(), true, keys.data(), order.data()});
                Ops::sort_pairs(keys.data(), order.data(), n, tables_.sort);
                Ops::for_each(n, strip::StripGatherDigis{order.data(), in.data(), in_truth.data(),
                                                         digis.data(), truth.data()});
            },
            bytes, n);
        Buffer<std::int32_t> succ(n, Ops::space), pred(n, Ops::space);
        auto const window = static_cast<std::uint64_t>(tables_.cluster_window);
        timed(
            "connect",
            [&] {
                Ops::for_each(n, strip::StripConnect{keys.data(), n, tables_.params.strips, window,
                                                     succ.data(), pred.data()});
            },
            bytes, n);
        Buffer<std::uint32_t> start(n, Ops::space), index(n, Ops::space);
        std::uint64_t c = 0;
        Buffer<StripCluster> clusters;
        timed(
            "clusters",
            [&] {
                Ops::for_each(n, strip::StripClusterStart{succ.data(), pred.data(), start.data()});
                c = Ops::exclusive_scan(start.data(), index.data(), n);
                clusters = Buffer<StripCluster>(c, Ops::space);
                Ops::for_each(
                    n, strip::StripClusterBuild{view_.p, digis.data(), truth.data(), succ.data(), pred.data(),
                                                start.data(), index.data(), clusters.data()});
            },
            bytes, n);
        Buffer<std::uint64_t> ckeys(c, Ops::space);
        Buffer<std::uint32_t> corder(c, Ops::space);
        Buffer<StripCluster> sorted(c, Ops::space);
        timed(
            "sort_clusters",
            [&] {
                Ops::for_each(c, strip::StripClusterKeys{clusters.data(), ckeys.data(), corder.data()});
                Ops::sort_pairs(ckeys.data(), corder.data(), c, tables_.sort);
                Ops::for_each(c, strip::StripGatherClusters{corder.data(), clusters.data(), sorted.data()});
            },
            0, static_cast<double>(c));
        Buffer<std::uint32_t> hit_count(c, Ops::space), hit_offset(c, Ops::space);
        Buffer<StripRecoHit> hits;
        timed(
            "hits",
            [&] {
                auto const cn = static_cast<std::uint32_t>(c);
                Ops::for_each(c, strip::StripHitFind{view_, sorted.data(), ckeys.data(), cn,
                                                     tables_.hit_window, hit_count.data(), nullptr, nullptr});
                std::uint64_t const h = Ops::exclusive_scan(hit_count.data(), hit_offset.data(), c);
                hits = Buffer<StripRecoHit>(h, Ops::space);
                Ops::for_each(c,
                              strip::StripHitFind{view_, sorted.data(), ckeys.data(), cn, tables_.hit_window,
                                                  hit_count.data(), hit_offset.data(), hits.data()});
            },
            0, static_cast<double>(c));
        r.clusters = download(sorted);
        r.hits = download(hits);
        return r;
    }

    double time_sort(std::vector<StripDigi> const& host_digis, StripSort method, int repeat) override
    {
        auto const n = static_cast<std::uint32_t>(host_digis.size());
        Buffer<StripDigi> in = upload(host_digis);
        Buffer<std::uint64_t> keys(n, Ops::space);
        Buffer<std::uint32_t> order(n, Ops::space);
        double seconds = 0;
        for (int i = 0; i < repeat; ++i) {
            Ops::for_each(n, strip::StripDigiKeys{in.data(), true, keys.data(), order.data()});
            Ops::synchronize();
            auto const t0 = std::chrono::steady_clock::now();
            Ops::sort_pairs(keys.data(), order.data(), n, method);
            Ops::synchronize();
            seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        }
        return seconds;
    }

    KernelTimer const& timer() const override { return timer_; }
    void clear_timer() override { timer_.clear(); }

  private:
    template <class T>
    static Buffer<T> upload(std::vector<T> const& v)
    {
        Buffer<T> b(v.size(), Ops::space);
        if (!v.empty()) b.copy_raw(v.data(), MemSpace::host);
        return b;
    }
    template <class T>
    static std::vector<T> download(Buffer<T> const& b)
    {
        std::vector<T> v(b.size());
        Ops::copy_to_host(v.data(), b.data(), b.size() * sizeof(T));
        return v;
    }
    template <class F>
    void timed(char const* name, F const& f, double bytes = 0, double items = 0)
    {
        NvtxRange const range(name);
        auto const t0 = std::chrono::steady_clock::now();
        f();
        Ops::synchronize();
        timer_.add(name, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), bytes,
                   items);
    }

    StripTables tables_;
    StripTablesView view_;
    Buffer<StripVolume> volumes_;
    Buffer<std::int32_t> first_, count_, sensor_volume_;
    Buffer<double> event_time_;
    KernelTimer timer_;
};

}  // namespace gt
