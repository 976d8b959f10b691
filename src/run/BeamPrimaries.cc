// Lost and extracted beam particles as detector primaries (run/BeamPrimaries.hh).
#include "run/BeamPrimaries.hh"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <limits>
#include <span>
#include <stdexcept>

#include "parallel/Communicator.hh"
#include "parallel/ParticleDecomposition.hh"
#include "parallel/Redistribution.hh"
#include "run/ParticleDownload.hh"

namespace gt {

namespace {

bool inside(Aperture const& a, double x, double y)
{
    if (a.shape == ApertureShape::rectangle) return std::abs(x) <= a.half_x && std::abs(y) <= a.half_y;
    double const u = x * a.inv_half_x, v = y * a.inv_half_y;
    return u * u + v * v <= 1.0;
}

//! The largest l in [0, length] at which x0 + l sx, y0 + l sy is still inside the aperture (the path
//! starts inside at l = 0 and is outside at l = length).
double exit_distance(Aperture const& a, double x0, double y0, double sx, double sy, double length)
{
    double l = length;
    if (a.shape == ApertureShape::rectangle) {
        if (sx != 0.0) l = std::min(l, ((sx > 0 ? a.half_x : -a.half_x) - x0) / sx);
        if (sy != 0.0) l = std::min(l, ((sy > 0 ? a.half_y : -a.half_y) - y0) / sy);
        return std::max(l, 0.0);
    }
    // (x0 + l sx)^2 / hx^2 + (y0 + l sy)^2 / hy^2 = 1: the larger root (the path leaves the ellipse).
    double const u0 = x0 * a.inv_half_x, v0 = y0 * a.inv_half_y;
    double const us = sx * a.inv_half_x, vs = sy * a.inv_half_y;
    double const qa = us * us + vs * vs, qb = 2.0 * (u0 * us + v0 * vs), qc = u0 * u0 + v0 * v0 - 1.0;
    if (qa <= 0.0) return length;
    double const disc = std::max(qb * qb - 4.0 * qa * qc, 0.0);
    return std::clamp((-qb + std::sqrt(disc)) / (2.0 * qa), 0.0, length);
}

}  // namespace

LossPoint loss_point(Element const& e, double length, Particle const& stored, ReferenceParticle const& ref)
{
    LossPoint lp{length, stored};
    if (e.kind != ElementKind::collimator || e.collimator.length <= 0.0) return lp;
    Collimator const& c = e.collimator;
    // Through a collimator the path is straight (an exact drift): slopes P_x / P_s, P_y / P_s.
    double const p2 = 1.0 - 2.0 * stored.pt / ref.beta + stored.pt * stored.pt;
    double const ps = std::sqrt(std::max(p2 - stored.px * stored.px - stored.py * stored.py, 0.0));
    if (!(ps > 0.0)) return LossPoint{0.0, stored};
    double const sx = stored.px / ps, sy = stored.py / ps;
    // Lost at the exit: the stored coordinates are the exit's, and the entrance's were inside. (A particle
    // lost at the entrance whose line, drawn back one collimator length, was inside reads as lost at the
    // exit: docs/physics.md says when that happens.)
    double const x_in = stored.x - c.length * sx, y_in = stored.y - c.length * sy;
    if (!inside(c.aperture, x_in, y_in)) return LossPoint{0.0, stored};
    double const l = exit_distance(c.aperture, x_in, y_in, sx, sy, c.length);
    lp.along = l;
    lp.p.x = x_in + l * sx;
    lp.p.y = y_in + l * sy;
    return lp;
}

namespace {

//! A beam particle that becomes a primary, on the host.
struct Held {
    Particle p;
    std::uint64_t id = 0;
    std::int32_t element = -1, turn = 0;
};

//! This rank's lost (alive = false) or surviving particles, in id order: only they cross to the host.
std::vector<Held> held_particles(BeamKernels& kernels, ParticleView particles, bool alive)
{
    std::vector<Held> out;
    for_each_gathered(kernels, particles, alive, [&](ParticleView const& v) {
        for (size_type i = 0; i < v.size; ++i)
            out.push_back(Held{v.load(i), v.id[i], v.lost_element[i], v.lost_turn[i]});
    });
    std::sort(out.begin(), out.end(), [](Held const& a, Held const& b) { return a.id < b.id; });
    return out;
}

//! The ranks' particles in id order, rank after rank: what makes the rank-order concatenation of their
//! id-ordered lists the global id order (parallel/ParticleDecomposition.hh). Checked, as it is assumed.
void check_id_ranges(std::vector<Held> const& lost, std::vector<Held> const& extracted)
{
    parallel::Communicator const& w = parallel::Communicator::world();
    if (w.size() == 1) return;
    std::uint64_t const none = std::numeric_limits<std::uint64_t>::max();
    std::uint64_t const mine[4] = {
        lost.empty() ? none : lost.front().id, lost.empty() ? none : lost.back().id,
        extracted.empty() ? none : extracted.front().id, extracted.empty() ? none : extracted.back().id};
    std::vector<std::uint64_t> const all = w.all_gather(std::span<std::uint64_t const>(mine, 4));
    for (std::size_t list = 0; list < 2; ++list) {
        std::uint64_t last = 0;
        bool any = false;
        for (std::size_t r = 0; r < all.size() / 4; ++r) {
            std::uint64_t const first = all[4 * r + 2 * list], end = all[4 * r + 2 * list + 1];
            if (first == none) continue;
            if (any && first <= last)
                throw std::logic_error("beam primaries: the ranks' particle ids are not in rank order");
            last = end;
            any = true;
        }
    }
}

//! The lost and the extracted energies summed in the global event order, the same bits as one process:
//! each rank adds its own to the running sums of the ranks before it (a chain, two doubles per rank).
std::array<double, 2> sums_in_rank_order(std::vector<double> const& lost,
                                         std::vector<double> const& extracted)
{
    parallel::Communicator const& w = parallel::Communicator::world();
    std::array<double, 2> sums{0.0, 0.0};
    if (w.rank() > 0) {
        std::vector<double> const before = w.receive_doubles(w.rank() - 1);
        sums = {before.at(0), before.at(1)};
    }
    for (double e : lost) sums[0] += e;
    for (double e : extracted) sums[1] += e;
    if (w.rank() + 1 < w.size()) w.send(w.rank() + 1, std::span<double const>(sums));
    std::vector<double> const all = w.all_gather(std::span<double const>(sums));
    return {all[all.size() - 2], all[all.size() - 1]};  // the last rank's: every event's
}

//! A primary as doubles (the integers' bits as they are), for the exchange between ranks.
constexpr std::size_t k_primary_width = 9;
void pack(Primary const& p, std::vector<double>& out)
{
    out.insert(out.end(), {std::bit_cast<double>(p.event), std::bit_cast<double>(std::int64_t(p.particle)),
                           p.energy, p.pos.x, p.pos.y, p.pos.z, p.dir.x, p.dir.y, p.dir.z});
}
Primary unpack(double const* v)
{
    Primary p;
    p.event = std::bit_cast<std::uint64_t>(v[0]);
    p.particle = std::int32_t(std::bit_cast<std::int64_t>(v[1]));
    p.energy = v[2];
    p.pos = Vec3{v[3], v[4], v[5]};
    p.dir = Vec3{v[6], v[7], v[8]};
    return p;
}

//! The /primaries rows of a list, without the events' numbers (a column filled by the caller).
struct Rows {
    std::vector<std::uint64_t> primary, beam_id;
    std::vector<std::int64_t> origin, element, turn;
    std::vector<double> s, cols[7];

    Table table()
    {
        Table t;
        t.add_column("primary", "1", std::move(primary));
        t.add_column("id", "1", std::move(beam_id));
        t.add_column("origin", "1", std::move(origin));
        t.add_column("element", "1", std::move(element));
        t.add_column("turn", "1", std::move(turn));
        t.add_column("s", "m", std::move(s));
        char const* names[7] = {"X", "Y", "Z", "dir_x", "dir_y", "dir_z", "kinetic"};
        char const* units[7] = {"m", "m", "m", "1", "1", "1", "MeV"};
        for (int k = 0; k < 7; ++k) t.add_column(names[k], units[k], std::move(cols[k]));
        return t;
    }
};

}  // namespace

BeamPrimaries beam_primaries(DeckConfig const& deck, Lattice const& lattice, Survey const& survey,
                             BeamKernels& kernels, ParticleView particles, std::int32_t particle)
{
    parallel::Communicator const& w = parallel::Communicator::world();
    std::vector<Held> const lost = held_particles(kernels, particles, false);
    std::vector<Held> const alive =
        deck.detector.extracted ? held_particles(kernels, particles, true) : std::vector<Held>{};
    check_id_ranges(lost, alive);

    // Where this rank's lists start in the global one: every rank's lost, then every rank's extracted.
    std::uint64_t const counts[2] = {lost.size(), alive.size()};
    std::vector<std::uint64_t> const all_counts = w.all_gather(std::span<std::uint64_t const>(counts, 2));
    std::uint64_t lost_total = 0, lost_before = 0, extracted_total = 0, extracted_before = 0;
    for (std::size_t r = 0; 2 * r < all_counts.size(); ++r) {
        if (int(r) < w.rank()) {
            lost_before += all_counts[2 * r];
            extracted_before += all_counts[2 * r + 1];
        }
        lost_total += all_counts[2 * r];
        extracted_total += all_counts[2 * r + 1];
    }

    BeamPrimaries out;
    out.lost = lost_total;
    out.events = lost_total + extracted_total;
    double const charge = std::abs(deck.beam.species.charge_e) * constants::e_charge;
    out.weight = deck.beam.macroparticles > 0 && charge > 0
                     ? deck.beam.bunch_charge / (charge * double(deck.beam.macroparticles))
                     : 0.0;
    std::size_t const n_entries = lattice.elements.size();
    std::vector<double> records, energies[2];
    Rows rows[2];
    auto const add = [&](Held const& h, bool was_lost, std::uint64_t event) {
        GlobalParticle g;
        double at_s = lattice.length;
        std::int64_t entry = -1;
        if (was_lost) {
            entry = h.element;
            auto const e = std::size_t(entry);
            ReferenceParticle const& ref = lattice.reference_after[e];
            double const length = lattice.info[e].s_end - lattice.info[e].s_begin;
            LossPoint const lp = loss_point(lattice.elements[e], length, h.p, ref);
            g = Survey::place(survey.inside(e, lp.along), lp.p, ref);
            at_s = lattice.info[e].s_begin + lp.along;
        } else {
            g = Survey::place(survey.exit(), h.p, lattice.reference_end());
        }
        Primary p;
        p.event = event;
        p.particle = particle;
        p.energy = g.kinetic;
        p.pos = g.position;
        p.dir = g.direction;
        pack(p, records);
        energies[was_lost ? 0 : 1].push_back(g.kinetic);
        Rows& r = rows[was_lost ? 0 : 1];
        r.primary.push_back(event);
        r.beam_id.push_back(h.id);
        r.origin.push_back(was_lost ? 0 : 1);
        r.element.push_back(was_lost ? entry : std::int64_t(n_entries));
        r.turn.push_back(was_lost ? h.turn : std::int64_t(deck.lattice.turns) - 1);
        r.s.push_back(at_s);
        double const values[7] = {g.position.x,  g.position.y,  g.position.z, g.direction.x,
                                  g.direction.y, g.direction.z, g.kinetic};
        for (int k = 0; k < 7; ++k) r.cols[k].push_back(values[k]);
    };
    for (std::size_t i = 0; i < lost.size(); ++i) add(lost[i], true, lost_before + i);
    for (std::size_t i = 0; i < alive.size(); ++i) add(alive[i], false, lost_total + extracted_before + i);
    out.lost_rows = rows[0].table();
    out.extracted_rows = rows[1].table();
    std::array<double, 2> const sums = sums_in_rank_order(energies[0], energies[1]);
    out.lost_energy = sums[0];
    out.extracted_energy = sums[1];

    // The detector's events of this rank (its even share, as run/DetectorRun.cc divides them).
    parallel::ParticleShare const share = parallel::even_share(out.events, w.rank(), w.size());
    parallel::Block const blocks[2] = {{lost_before, lost.size()},
                                       {lost_total + extracted_before, alive.size()}};
    std::vector<double> const mine = parallel::redistribute(blocks, records, k_primary_width, share);
    out.first_event = share.first;
    out.primaries.reserve(share.count);
    for (std::size_t i = 0; i < share.count; ++i) out.primaries.push_back(unpack(&mine[i * k_primary_width]));
    return out;
}

}  // namespace gt
