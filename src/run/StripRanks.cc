// [strips] over ranks: stations split over the ranks, their steps moved to them, tables joined.
#include "run/StripRanks.hh"

#include <algorithm>
#include <array>
#include <cstring>
#include <numeric>
#include <stdexcept>
#include <type_traits>

#include "detector/StripSetup.hh"
#include "io/OutputFile.hh"
#include "io/TableWriter.hh"
#include "parallel/Communicator.hh"
#include "parallel/OrderedWrites.hh"
#include "parallel/Redistribution.hh"

namespace gt {

namespace {

static_assert(std::is_trivially_copyable_v<Hit> && sizeof(Hit) % sizeof(double) == 0);
//! A step travels as its Hit's bytes and its row of /hits, in doubles.
constexpr std::size_t k_hit_words = sizeof(Hit) / sizeof(double);
constexpr std::size_t k_step_record = k_hit_words + 1;

//! The strip volume of a hit (StripTablesView::volume_of on the host), or -1.
std::int32_t strip_volume_of(StripTables const& t, Hit const& h)
{
    if (h.volume < 0 || std::size_t(h.volume) >= t.logical_first.size()) return -1;
    if (h.replica < 0 || h.replica >= t.logical_count[std::size_t(h.volume)]) return -1;
    return t.logical_first[std::size_t(h.volume)] + h.replica;
}

//! This rank's stations' steps, in row order, with their rows of /hits.
struct StationSteps {
    std::vector<Hit> hits;
    std::vector<std::uint64_t> rows;
};

StationSteps move_steps_to_stations(StripTables const& tables, std::vector<Hit> const& hits)
{
    parallel::Communicator const& w = parallel::Communicator::world();
    auto const ranks = std::size_t(w.size()), me = std::size_t(w.rank());
    std::size_t const nv = tables.volumes.size();
    std::vector<std::int32_t> volume(hits.size());
    std::vector<std::int64_t> steps(nv, 0);
    for (std::size_t i = 0; i < hits.size(); ++i) {
        volume[i] = strip_volume_of(tables, hits[i]);
        if (volume[i] >= 0) ++steps[std::size_t(volume[i])];
    }
    w.sum_in_place(steps);
    std::vector<int> const owner =
        strip_volume_owners(std::vector<std::uint64_t>(steps.begin(), steps.end()), int(ranks));
    // Steps sent from each rank to each rank: the global order of steps is (owner, row), in which each
    // rank's steps for one owner are a contiguous block (its rows are).
    std::vector<std::uint64_t> to(ranks, 0);
    for (std::int32_t v : volume)
        if (v >= 0) ++to[std::size_t(owner[std::size_t(v)])];
    std::vector<std::uint64_t> const matrix = w.all_gather(std::span<std::uint64_t const>(to));  // [from][to]
    std::vector<std::uint64_t> start(ranks + 1, 0);
    for (std::size_t d = 0; d < ranks; ++d) {
        std::uint64_t n = 0;
        for (std::size_t s = 0; s < ranks; ++s) n += matrix[s * ranks + d];
        start[d + 1] = start[d] + n;
    }
    std::vector<parallel::Block> blocks;
    for (std::size_t d = 0; d < ranks; ++d) {
        std::uint64_t before = 0;
        for (std::size_t s = 0; s < me; ++s) before += matrix[s * ranks + d];
        if (to[d] > 0) blocks.push_back(parallel::Block{start[d] + before, to[d]});
    }
    std::uint64_t const first_row = w.exclusive_prefix_sum(hits.size());
    std::vector<double> records;
    records.reserve(std::size_t(std::accumulate(to.begin(), to.end(), std::uint64_t(0))) * k_step_record);
    for (std::size_t d = 0; d < ranks; ++d)
        for (std::size_t i = 0; i < hits.size(); ++i) {
            if (volume[i] < 0 || std::size_t(owner[std::size_t(volume[i])]) != d) continue;
            std::size_t const at = records.size();
            records.resize(at + k_step_record);
            std::memcpy(&records[at], &hits[i], sizeof(Hit));
            std::uint64_t const row = first_row + i;
            std::memcpy(&records[at + k_hit_words], &row, sizeof(row));
        }
    std::vector<double> const mine = parallel::redistribute(
        blocks, records, k_step_record, parallel::ParticleShare{start[me], start[me + 1] - start[me]});
    StationSteps out;
    std::size_t const n = mine.size() / k_step_record;
    out.hits.resize(n);
    out.rows.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
        std::memcpy(static_cast<void*>(&out.hits[i]), &mine[i * k_step_record], sizeof(Hit));
        std::memcpy(&out.rows[i], &mine[i * k_step_record + k_hit_words], sizeof(std::uint64_t));
    }
    return out;
}

//! The quality of every station on every rank: a station's figures are its owner's, the others hold 0
//! (integers summed, non-negative doubles by their maximum: exact).
void join_quality(std::vector<StripStationQuality>& quality)
{
    parallel::Communicator const& w = parallel::Communicator::world();
    std::vector<std::int64_t> counts;
    std::vector<double> figures;
    for (StripStationQuality const& q : quality) {
        counts.insert(counts.end(), {std::int64_t(q.points), std::int64_t(q.found), std::int64_t(q.hits),
                                     std::int64_t(q.ghosts)});
        figures.insert(figures.end(), {q.residual_u, q.residual_v, q.pull_u, q.pull_v});
    }
    w.sum_in_place(counts);
    w.max_in_place(figures);
    for (std::size_t i = 0; i < quality.size(); ++i) {
        StripStationQuality& q = quality[i];
        q.points = std::uint64_t(counts[4 * i]);
        q.found = std::uint64_t(counts[4 * i + 1]);
        q.hits = std::uint64_t(counts[4 * i + 2]);
        q.ghosts = std::uint64_t(counts[4 * i + 3]);
        q.residual_u = figures[4 * i];
        q.residual_v = figures[4 * i + 1];
        q.pull_u = figures[4 * i + 2];
        q.pull_v = figures[4 * i + 3];
    }
}

}  // namespace

std::vector<int> strip_volume_owners(std::vector<std::uint64_t> const& steps, int ranks)
{
    std::uint64_t const total = std::accumulate(steps.begin(), steps.end(), std::uint64_t(0));
    std::vector<int> owner(steps.size(), 0);
    std::uint64_t before = 0;
    for (std::size_t v = 0; v < steps.size(); ++v) {
        if (total > 0) {
            // the volume's middle step in the running count, times the rank count over the total
            auto const r = (2 * before + steps[v]) * std::uint64_t(ranks) / (2 * total);
            owner[v] = int(std::min<std::uint64_t>(r, std::uint64_t(ranks - 1)));
        }
        before += steps[v];
    }
    return owner;
}

std::shared_ptr<StripOutcome> run_strip_stage_over_ranks(DeckConfig const& cfg,
                                                         GeometryTables const& geometry,
                                                         std::vector<Hit> const& hits, bool gpu)
{
    parallel::Communicator const& w = parallel::Communicator::world();
    if (w.size() == 1) return run_strip_stage(cfg, geometry, hits, gpu);
    if (w.sum(hits.size()) >= (std::uint64_t(1) << 32))
        throw std::runtime_error("strips: more than 2^32 hits (steps) to digitize in one run");
    StationSteps const steps = move_steps_to_stations(make_strip_tables(cfg, geometry), hits);
    std::shared_ptr<StripOutcome> o = run_strip_stage(cfg, geometry, steps.hits, gpu);
    // Steps are named by their rows of the whole /hits (the quality above used the local ones).
    for (std::uint32_t& t : o->digitization.truth) t = std::uint32_t(steps.rows[t]);
    for (StripCluster& c : o->reconstruction.clusters) c.truth = std::uint32_t(steps.rows[c.truth]);
    join_quality(o->quality);
    StripTotals& t = o->totals;
    std::array<std::int64_t, 5> sums = {std::int64_t(t.signals), std::int64_t(t.pulses),
                                        std::int64_t(t.digis), std::int64_t(t.clusters),
                                        std::int64_t(t.hits)};
    w.sum_in_place(sums);
    t = StripTotals{std::uint64_t(sums[0]), std::uint64_t(sums[1]), std::uint64_t(sums[2]),
                    std::uint64_t(sums[3]), std::uint64_t(sums[4])};
    return o;
}

void write_strip_tables_over_ranks(OutputFile* out, StripOutcome const& o)
{
    parallel::Communicator const& w = parallel::Communicator::world();
    if (w.size() == 1) {
        if (out) write_strip_tables(*out, o);
        return;
    }
    // /digis in time order: one process's order is a stable sort by time of its pulses in channel
    // order; the ranks' channels follow each other in rank order, so its order is the ranks' digis
    // (each in time order) merged by (time, rank).
    auto const& digis = o.digitization.digis;
    auto const& truth = o.digitization.truth;
    std::vector<std::uint64_t> packed(3 * digis.size());
    for (std::size_t i = 0; i < digis.size(); ++i) {
        packed[3 * i] = digis[i].time;
        packed[3 * i + 1] = std::uint64_t(digis[i].channel) | (std::uint64_t(digis[i].adc) << 32) |
                            (std::uint64_t(digis[i].flags) << 48);
        packed[3 * i + 2] = truth[i];
    }
    if (!w.is_root()) {
        w.send(0, std::span<std::uint64_t const>(packed));
    } else {
        if (out == nullptr) throw std::logic_error("rank 0 writes the output but holds no file");
        for (int r = 1; r < w.size(); ++r) {
            std::vector<std::uint64_t> const more = w.receive_uint64s(r);
            packed.insert(packed.end(), more.begin(), more.end());
        }
        std::vector<std::size_t> order(packed.size() / 3);
        std::iota(order.begin(), order.end(), std::size_t(0));
        std::stable_sort(order.begin(), order.end(),
                         [&](std::size_t a, std::size_t b) { return packed[3 * a] < packed[3 * b]; });
        std::vector<StripDigi> all(order.size());
        std::vector<std::uint32_t> all_truth(order.size());
        for (std::size_t i = 0; i < order.size(); ++i) {
            std::uint64_t const* p = &packed[3 * order[i]];
            all[i].time = p[0];
            all[i].channel = std::uint32_t(p[1]);
            all[i].adc = std::uint16_t(p[1] >> 32);
            all[i].flags = std::uint16_t(p[1] >> 48);
            all_truth[i] = std::uint32_t(p[2]);
        }
        packed = {};
        write_table(*out, "digis", strip_digis_table(o.tables.params, all, all_truth));
    }
    // Clusters are sorted by (side, time) and hits follow their front clusters: each rank's stations'
    // sides follow the previous rank's, so both tables are the ranks' rows in rank order.
    parallel::write_table_in_rank_order(out, "clusters", strip_clusters_table(o));
    std::uint64_t const cluster_offset = w.exclusive_prefix_sum(o.reconstruction.clusters.size());
    parallel::write_table_in_rank_order(out, "reco_hits", strip_reco_hits_table(o, cluster_offset));
    if (!out) return;
    write_table(*out, "strip_quality", strip_quality_table(o));
    std::vector<std::string> names;
    for (StripStationQuality const& q : o.quality) names.push_back(q.name);
    out->set_attribute("strip_quality", "station_names", std::span<std::string const>(names));
    out->set_attribute("digis", "backend", o.backend);
}

}  // namespace gt
