// Lost and extracted beam particles as detector primaries (run/BeamPrimaries.hh).
#include "run/BeamPrimaries.hh"

#include <algorithm>
#include <cmath>
#include <numeric>

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

BeamPrimaries beam_primaries(DeckConfig const& deck, Lattice const& lattice, Survey const& survey,
                             ParticleState const& particles, std::int32_t particle)
{
    ParticleState host(particles, MemSpace::host);
    ParticleView const v = host.view();
    std::vector<size_type> lost, alive;
    for (size_type i = 0; i < v.size; ++i) (v.alive(i) ? alive : lost).push_back(i);
    auto const by_id = [&](size_type a, size_type b) { return v.id[a] < v.id[b]; };
    std::sort(lost.begin(), lost.end(), by_id);
    std::sort(alive.begin(), alive.end(), by_id);
    if (!deck.detector.extracted) alive.clear();

    BeamPrimaries out;
    out.lost = lost.size();
    double const charge = std::abs(deck.beam.species.charge_e) * constants::e_charge;
    out.weight = deck.beam.macroparticles > 0 && charge > 0
                     ? deck.beam.bunch_charge / (charge * double(deck.beam.macroparticles))
                     : 0.0;
    std::vector<std::uint64_t> primary, beam_id;
    std::vector<std::int64_t> origin, element, turn;
    std::vector<double> s, cols[7];
    std::size_t const n_entries = lattice.elements.size();
    auto const add = [&](size_type i, bool was_lost) {
        Particle const stored = v.load(i);
        GlobalParticle g;
        double at_s = lattice.length;
        std::int64_t entry = -1;
        if (was_lost) {
            entry = v.lost_element[i];
            auto const e = std::size_t(entry);
            ReferenceParticle const& ref = lattice.reference_after[e];
            double const length = lattice.info[e].s_end - lattice.info[e].s_begin;
            LossPoint const lp = loss_point(lattice.elements[e], length, stored, ref);
            g = Survey::place(survey.inside(e, lp.along), lp.p, ref);
            at_s = lattice.info[e].s_begin + lp.along;
        } else {
            g = Survey::place(survey.exit(), stored, lattice.reference_end());
        }
        Primary p;
        p.event = out.primaries.size();
        p.particle = particle;
        p.energy = g.kinetic;
        p.pos = g.position;
        p.dir = g.direction;
        out.primaries.push_back(p);
        out.energy.push_back(g.kinetic);
        (was_lost ? out.lost_energy : out.extracted_energy) += g.kinetic;
        primary.push_back(p.event);
        beam_id.push_back(v.id[i]);
        origin.push_back(was_lost ? 0 : 1);
        element.push_back(was_lost ? entry : std::int64_t(n_entries));
        turn.push_back(was_lost ? v.lost_turn[i] : std::int64_t(deck.lattice.turns) - 1);
        s.push_back(at_s);
        double const values[7] = {g.position.x,  g.position.y,  g.position.z, g.direction.x,
                                  g.direction.y, g.direction.z, g.kinetic};
        for (int k = 0; k < 7; ++k) cols[k].push_back(values[k]);
    };
    for (size_type i : lost) add(i, true);
    for (size_type i : alive) add(i, false);
    out.table.add_column("primary", "1", std::move(primary));
    out.table.add_column("id", "1", std::move(beam_id));
    out.table.add_column("origin", "1", std::move(origin));
    out.table.add_column("element", "1", std::move(element));
    out.table.add_column("turn", "1", std::move(turn));
    out.table.add_column("s", "m", std::move(s));
    char const* names[7] = {"X", "Y", "Z", "dir_x", "dir_y", "dir_z", "kinetic"};
    char const* units[7] = {"m", "m", "m", "1", "1", "1", "MeV"};
    for (int k = 0; k < 7; ++k) out.table.add_column(names[k], units[k], std::move(cols[k]));
    return out;
}

}  // namespace gt
