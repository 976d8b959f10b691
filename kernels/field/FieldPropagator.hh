// Propagation of a charged track in a magnetic field through the geometry, for one step iteration.
//
// Celeritas' scheme (Tognini et al., EPJ Web Conf. 2023, seed paper section on field propagation):
// error-controlled Dormand-Prince substeps, each also limited by the chord criterion (the sagitta
// of the arc within delta_chord); the straight chord of each substep is checked against the
// geometry, and a substep whose chord crosses a surface is shortened in proportion until its end
// lies within delta_intersection of the crossing point. At most max_substeps substeps are taken per
// call: a track that reaches the cap is paused with all the propagation state kept in `PropState`,
// so that resuming gives exactly the substeps an uncapped call would have taken.
#pragma once

#include "kernels/field/DormandPrince.hh"
#include "kernels/geometry/Navigator.hh"

namespace gt {

struct PropagationParams {
    double epsilon = 1.0e-6;             //!< relative error per substep (position / length, |dp| / p)
    double delta_chord = 0.25e-3;        //!< maximum sagitta of a substep [m]
    double delta_intersection = 1.0e-6;  //!< accuracy of boundary crossing points [m]
    int max_substeps = 10;               //!< per step iteration
    double min_substep = 1.0e-9;         //!< below this a substep is taken as straight [m]
};

//! What a paused propagation needs to resume (per track, in the track state).
struct PropState {
    double remaining;  //!< path left to the physics step limit [m]
    double h_next;     //!< the error control's proposal for the next substep [m]
    double h_limit;    //!< shortening while a crossing is searched; HUGE_VAL when not [m]
};

struct PropagationResult {
    double length = 0;      //!< path travelled in this call [m]
    bool boundary = false;  //!< stopped on a surface (position on it)
    bool done = false;      //!< the step is complete (physics limit or boundary)
    int substeps = 0;
};

template <class Field>
class FieldPropagator {
  public:
    GT_HOST_DEVICE FieldPropagator(Field const& field, PropagationParams const& params, Navigator const& nav)
        : field_(field), params_(params), nav_(nav)
    {
    }

    //! Moves (pos, dir) of a track of charge q [e] and momentum p [MeV/c] in volume `volume`.
    GT_HOST_DEVICE PropagationResult operator()(Vec3& pos, Vec3& dir, double q, double p, std::int32_t volume,
                                                PropState& st) const
    {
        PropagationResult res;
        DormandPrince<Field> const stepper{field_, q, p};
        double const tiny = params_.min_substep;
        Vec3 b_pos = field_(pos);  // the field at pos, kept while pos does not move
        while (res.substeps < params_.max_substeps) {
            if (st.remaining <= tiny) {
                // the leftover is below any meaningful length: the step is complete here
                res.done = true;
                return res;
            }
            ++res.substeps;
            double h = st.remaining;
            if (st.h_limit < h) h = st.h_limit;
            if (st.h_next < h) h = st.h_next;
            double const h_chord = chord_limit(dir, b_pos, q, p);
            if (h_chord < h) h = h_chord;
            if (h < tiny) h = tiny;

            // error-controlled substep: shrink until accepted (bounded number of tries)
            OdeState y{pos, p * dir}, y1, err;
            Vec3 b_end;
            double h_done = h;
            for (int attempt = 0;; ++attempt) {
                y1 = stepper.step(y, h_done, err, b_pos, b_end);
                double const e_pos = norm(err.pos) / (params_.epsilon * h_done);
                double const e_mom = norm(err.mom) / (params_.epsilon * p);
                double const e = e_pos > e_mom ? e_pos : e_mom;
                if (e <= 1.0 || attempt >= 20 || h_done <= tiny) {
                    // grow by at most 5, by 0.9 e^(-1/5) (Hairer, Norsett & Wanner II.4)
                    double grow = e > 1.0e-10 ? 0.9 * pmath::exp(-0.2 * pmath::log(e)) : 5.0;
                    st.h_next = h_done * (grow < 5.0 ? grow : 5.0);
                    break;
                }
                double shrink = 0.9 * pmath::exp(-0.25 * pmath::log(e));
                h_done *= shrink > 0.1 ? shrink : 0.1;
            }
            // |p| is a constant of motion in a magnetic field: keep it exactly
            Vec3 const new_dir = normalized(y1.mom);
            Vec3 const chord = y1.pos - pos;
            double const chord_len = norm(chord);
            if (chord_len <= 0) {
                st.remaining -= h_done;
                res.length += h_done;
                dir = new_dir;
                continue;
            }
            Vec3 const chord_dir = (1.0 / chord_len) * chord;
            NextStep const ns =
                nav_.find_next_step(volume, pos, chord_dir, chord_len + params_.delta_intersection);
            if (!ns.boundary) {
                pos = y1.pos;
                b_pos = b_end;
                dir = new_dir;
                st.remaining -= h_done;
                res.length += h_done;
                st.h_limit = HUGE_VAL;
                continue;
            }
            if (chord_len - ns.distance <= params_.delta_intersection) {
                // the substep ends within delta_intersection of the crossing: stop on the surface
                double const frac = ns.distance < chord_len ? ns.distance / chord_len : 1.0;
                pos = axpy(ns.distance, chord_dir, pos);
                dir = new_dir;
                double const travelled = h_done * frac;
                st.remaining -= travelled;
                res.length += travelled;
                st.h_limit = HUGE_VAL;
                res.boundary = true;
                res.done = true;
                return res;
            }
            // the chord crosses a surface well before its end: retry shorter, in proportion
            st.h_limit = h_done * (ns.distance / chord_len);
            if (st.h_limit < tiny) st.h_limit = tiny;
        }
        return res;  // paused at the cap: resumes from st next iteration
    }

  private:
    //! Longest path whose sagitta stays within delta_chord: s^2 kappa / 8 <= delta_chord.
    //! b: the field at the track's position.
    GT_HOST_DEVICE double chord_limit(Vec3 dir, Vec3 b, double q, double p) const
    {
        Vec3 const f = cross(dir, b);
        double const kappa = field::k_mev_per_tm * fabs(q) * norm(f) / p;  // curvature [1/m]
        if (kappa <= 0) return HUGE_VAL;
        return pmath::sqrt(8.0 * params_.delta_chord / kappa);
    }

    Field const& field_;
    PropagationParams params_;
    Navigator const& nav_;
};

}  // namespace gt
