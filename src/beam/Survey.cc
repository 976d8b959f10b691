// The survey of a lattice (beam/Survey.hh): frames of the reference orbit, and particles placed in them.
#include "beam/Survey.hh"

#include <algorithm>
#include <cmath>

namespace gt {

namespace {

//! The frame's axes rolled by `a` about e_s: e_x' = cos a e_x + sin a e_y, e_y' = -sin a e_x + cos a e_y
//! (SRotation.hh: a particle at (x, y) is at x' = x cos a + y sin a in the rolled axes).
void roll_axes(SurveyFrame& f, double a)
{
    if (a == 0.0) return;
    double const c = std::cos(a), s = std::sin(a);
    Vec3 const ex = f.axes[0], ey = f.axes[1];
    f.axes[0] = c * ex + s * ey;
    f.axes[1] = -s * ex + c * ey;
}

}  // namespace

Vec3 SurveyFrame::to_global(Vec3 local) const
{
    return local.x * axes[0] + local.y * axes[1] + local.z * axes[2];
}

SurveyFrame advance_frame(SurveyFrame const& f, double length, double angle, double tilt, double roll)
{
    SurveyFrame n = f;
    n.s = f.s + length;
    if (angle == 0.0) {
        n.position = f.position + length * f.axes[2];
    } else {
        // In the bending plane (the frame rolled by the tilt): an arc of radius rho = length / angle
        // towards -x. rho (cos phi - 1) = -2 rho sin^2(phi / 2), without cancellation for small phi.
        // length = 0 (a thin bend): the frame turns by phi where it is (dx = ds = 0).
        roll_axes(n, tilt);
        double const phi = angle;
        double const half = std::sin(0.5 * phi);
        double const dx = -2.0 * length * half * half / phi;
        double const ds = length * std::sin(phi) / phi;
        Vec3 const ex = n.axes[0], es = n.axes[2];
        n.position = f.position + (dx * ex + ds * es);
        n.axes[0] = std::cos(phi) * ex + std::sin(phi) * es;
        n.axes[2] = -std::sin(phi) * ex + std::cos(phi) * es;
        roll_axes(n, -tilt);
    }
    roll_axes(n, roll);
    return n;
}

Survey::Survey(Lattice const& lattice)
{
    pieces_.reserve(lattice.elements.size());
    frames_.reserve(lattice.elements.size() + 1);
    SurveyFrame f;
    frames_.push_back(f);
    for (std::size_t i = 0; i < lattice.elements.size(); ++i) {
        Element const& e = lattice.elements[i];
        ElementInfo const& info = lattice.info[i];
        Piece p;
        p.length = info.s_end - info.s_begin;
        if (e.kind == ElementKind::sector_bend || e.kind == ElementKind::exact_bend) {
            p.angle = e.kind == ElementKind::sector_bend ? e.sector_bend.angle : e.exact_bend.angle;
            p.tilt = e.misaligned ? e.misalignment.tilt : 0.0;
        } else if (e.kind == ElementKind::multipole && e.multipole.angle != 0.0) {
            // A thin bend (MAD-X's MULTIPOLE with knl[0]: "the same effect on the reference orbit as a
            // dipole with zero length and deflection angle K0L", MAD-X user guide, "Multipole").
            p.angle = e.multipole.angle;
            p.tilt = e.misaligned ? e.misalignment.tilt : 0.0;
        } else if (e.kind == ElementKind::srotation) {
            p.roll = e.srotation.angle;
        }
        pieces_.push_back(p);
        f = advance_frame(f, p.length, p.angle, p.tilt, p.roll);
        f.s = info.s_end;  // the table's own positions, not a sum rounded differently
        frames_.push_back(f);
    }
}

SurveyFrame Survey::inside(std::size_t entry, double along) const
{
    SurveyFrame const& f = frames_[entry];
    Piece const& p = pieces_[entry];
    if (along <= 0.0) return f;
    if (along >= p.length) return frames_[entry + 1];
    // A part of the arc: the same angle per metre; a roll only at the entry's end.
    return advance_frame(f, along, p.length > 0 ? p.angle * (along / p.length) : 0.0, p.tilt, 0.0);
}

SurveyFrame Survey::at(double s) const
{
    // The last entry beginning at or before s (after the zero-length ones there).
    std::size_t entry = 0;
    for (std::size_t i = 0; i < pieces_.size(); ++i) {
        if (frames_[i].s > s) break;
        entry = i;
        if (frames_[i + 1].s > s) break;
    }
    if (pieces_.empty()) {
        SurveyFrame f = frames_[0];
        f.position = f.position + s * f.axes[2];
        f.s = s;
        return f;
    }
    if (s >= frames_.back().s) {  // beyond the exit: straight on
        SurveyFrame f = frames_.back();
        f.position = f.position + (s - f.s) * f.axes[2];
        f.s = s;
        return f;
    }
    if (pieces_[entry].length == 0.0) return frames_[entry + 1];
    SurveyFrame f = inside(entry, s - frames_[entry].s);
    f.s = s;
    return f;
}

GlobalParticle Survey::place(SurveyFrame const& frame, Particle const& p, ReferenceParticle const& ref)
{
    GlobalParticle g;
    g.position = frame.point(Vec3{p.x, p.y, 0.0});
    double const p2 = 1.0 - 2.0 * p.pt / ref.beta + p.pt * p.pt;  // (P / p0)^2
    double const ps2 = p2 - p.px * p.px - p.py * p.py;
    double const ps = ps2 > 0.0 ? std::sqrt(ps2) : 0.0;
    double const total = std::sqrt(p.px * p.px + p.py * p.py + ps * ps);
    g.direction = total > 0.0 ? frame.to_global(Vec3{p.px / total, p.py / total, ps / total}) : frame.axes[2];
    g.kinetic = ref.kinetic_mev - p.pt * ref.pc_mev;
    return g;
}

}  // namespace gt
