// Hits <-> column tables; the checkpoint's table has one column more than the output's (particle).
#include "detector/HitTable.hh"

#include <array>
#include <stdexcept>
#include <variant>

#include <fmt/format.h>

namespace gt {
namespace {

constexpr int k_real_columns = 11;
constexpr char const* k_real_names[k_real_columns] = {"pre_x", "pre_y", "pre_z", "post_x", "post_y", "post_z",
                                                      "time",  "edep",  "px",    "py",     "pz"};
constexpr char const* k_real_units[k_real_columns] = {"m", "m",   "m",     "m",     "m",    "m",
                                                      "s", "MeV", "MeV/c", "MeV/c", "MeV/c"};

std::array<double*, k_real_columns> reals(Hit& h)
{
    return {&h.pre.x, &h.pre.y, &h.pre.z,      &h.post.x,     &h.post.y,    &h.post.z,
            &h.time,  &h.edep,  &h.momentum.x, &h.momentum.y, &h.momentum.z};
}

template <class T>
std::vector<T> const& column(Table const& table, char const* name)
{
    Table::Column const* c = table.find(name);
    if (c == nullptr) throw std::runtime_error(fmt::format("the hits have no column '{}'", name));
    auto const* values = std::get_if<std::vector<T>>(&c->values);
    if (values == nullptr || values->size() != table.rows())
        throw std::runtime_error(fmt::format("the hits' column '{}' has the wrong type or length", name));
    return *values;
}

}  // namespace

Table hits_table(std::vector<Hit> const& hits, bool with_particle)
{
    std::size_t const n = hits.size();
    std::vector<std::uint64_t> event(n), track(n);
    std::vector<std::int64_t> volume(n), replica(n), step(n), particle(with_particle ? n : 0);
    std::vector<double> cols[k_real_columns];
    for (auto& c : cols) c.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
        Hit h = hits[i];
        event[i] = h.event;
        track[i] = h.track;
        volume[i] = h.volume;
        replica[i] = h.replica;
        step[i] = h.step;
        if (with_particle) particle[i] = h.particle;
        auto const v = reals(h);
        for (int c = 0; c < k_real_columns; ++c) cols[c][i] = *v[std::size_t(c)];
    }
    Table t;
    t.add_column("event", "1", std::move(event));
    t.add_column("track", "1", std::move(track));
    t.add_column("volume", "1", std::move(volume));
    t.add_column("replica", "1", std::move(replica));
    t.add_column("step", "1", std::move(step));
    for (int c = 0; c < k_real_columns; ++c)
        t.add_column(k_real_names[c], k_real_units[c], std::move(cols[c]));
    if (with_particle) t.add_column("particle", "1", std::move(particle));
    return t;
}

std::vector<Hit> hits_from_table(Table const& table)
{
    std::size_t const n = table.rows();
    auto const& event = column<std::uint64_t>(table, "event");
    auto const& track = column<std::uint64_t>(table, "track");
    auto const& volume = column<std::int64_t>(table, "volume");
    auto const& replica = column<std::int64_t>(table, "replica");
    auto const& step = column<std::int64_t>(table, "step");
    auto const& particle = column<std::int64_t>(table, "particle");
    std::vector<Hit> hits(n);
    for (int c = 0; c < k_real_columns; ++c) {
        auto const& values = column<double>(table, k_real_names[c]);
        for (std::size_t i = 0; i < n; ++i) *reals(hits[i])[std::size_t(c)] = values[i];
    }
    for (std::size_t i = 0; i < n; ++i) {
        Hit& h = hits[i];
        h.event = event[i];
        h.track = track[i];
        h.volume = std::int32_t(volume[i]);
        h.replica = std::int32_t(replica[i]);
        h.step = std::uint32_t(step[i]);
        h.particle = std::int32_t(particle[i]);
    }
    return hits;
}

}  // namespace gt
