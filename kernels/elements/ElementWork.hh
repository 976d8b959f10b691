// The FP64 operations one particle costs in each element map, counted from the map's code as data:
// the work side of the profile's roofline and of the run-time forecast.
//
// Convention (the roofline's, as in xpu and Barbone et al.): every FP64 add, subtract, multiply,
// divide, square root and rint is one operation, a fused multiply-add (fma_rn) two; comparisons,
// sign flips and constants folded at compile time are none (implicit contraction is off, so a*b+c
// written out is two as well). A count follows the code of the map it names line by line; change one
// with the other.
#pragma once

#include <cmath>

#include "kernels/elements/Element.hh"

namespace gt::work {

// Shared pieces (PortableMath.hh, MapSupport.hh).
inline constexpr double k_momentum_squared = 5;  //!< 1 - 2 pt/beta + pt^2
//! The finiteness check: five adds and the sum - sum test, as the CPU computes it (MapSupport.hh); the
//! GPU tests the exponent bits with integer operations instead (issue 29), so the profile's FP64 rate of
//! a GPU run is overstated by these 6 a push (of 12-20 on a linear lattice). Kept so the forecast's
//! calibrated FP64 rate per counted operation and the work-count tests stay as they were.
inline constexpr double k_is_finite = 6;
//! sincos (either form): the inf/NaN test 1, reduce_half_pi 8 (x c, rint, three k pio2_i products and
//! subtractions), sin_kernel 20 (r^2, 8 Horner steps, r + r (r^2 p)), cos_kernel 22 (r^2, 8 Horner
//! steps, 1 - r^2/2 + r^4 p).
inline constexpr double k_sincos = 1 + 8 + 20 + 22;
//! sinhcosh for |x| < 1: x^2, 9 Horner steps and x + x (x^2 s) for sinh, 8 steps and
//! 1 + x^2/2 + x^4 c for cosh.
inline constexpr double k_sinhcosh_series = 1 + 18 + 3 + 16 + 5;
//! exp: rint(x / ln 2) 2, the two-part reduction 4, 17 Horner steps, ldexp 1.
inline constexpr double k_exp = 2 + 4 + 34 + 1;
//! sinhcosh for |x| >= 1: exp, 1/e, (e - 1/e)/2, (e + 1/e)/2.
inline constexpr double k_sinhcosh_exp = k_exp + 1 + 2 + 2;
//! focusing_pair without its sinhcosh: w L, sincos, S/w and -w S, S/w and w S (the hyperbolic plane).
inline constexpr double k_focusing_pair_base = 1 + k_sincos + 2 + 2;
inline constexpr double k_misalignment = 14 + 14;  //!< enter and leave: shift 2 + rotation 12, 14

// Element maps (Drift.hh, Quadrupole.hh, ...), per particle, without the per-entry checks.
//! drift_linear_table: x, y and t one fma each (L/(beta gamma)^2 from the table).
inline constexpr double k_drift_linear = 2 + 2 + 2;
//! ExactDriftStep::at: 2/beta - pt 1, energy 1, P^2 (fma) 2, the t numerator's pt part 2.
inline constexpr double k_drift_exact_at = 1 + 1 + 2 + 2;
//! ExactDriftStep: px^2 + py^2 3, pz^2 1, sqrt 1, L/pz 1, x and y 2 each, the t numerator 2, its
//! denominator pz (energy + pz/beta) 3, the division 1 and the t update 2.
inline constexpr double k_drift_exact_step = 3 + 1 + 1 + 1 + 2 + 2 + 2 + 3 + 1 + 2;
//! The exact drift of the table (coefficients from the element): at + step.
inline constexpr double k_drift_exact = k_drift_exact_at + k_drift_exact_step;
//! drift_exact(p, L, 1/beta, 1/(beta gamma)^2) of the kicker, cavity and collimator: 2/beta and 1/beta^2 too.
inline constexpr double k_drift_exact_unprepared = 2 + k_drift_exact;
inline constexpr double k_quadrupole_linear = 4 * 3 + 2;
inline constexpr double k_quadrupole_kick = 1 + 2 + 2;  //!< QuadrupoleKick: k1 l, px and py
inline constexpr double k_sector_bend = 5 + 5 + 3 + 3 + 6;
inline constexpr double k_dipole_edge = 2 + 2;
//! DipoleEdge::track_second_order: x 6, px 13, y 3, py 11.
inline constexpr double k_dipole_edge_second_order = 6 + 13 + 3 + 11;
//! bend_arc (ExactBend.hh): energy 1, P^2 5, pxy^2 and pz^2 4, sqrt 1, A and B 5, px' 1, pz'^2 2, sqrt 1,
//! x' 13, the angle's numerator and denominator 6, the quotient 1, bend_atan 45 (three half-angle steps 5
//! each, u^2 1, nine Horner steps 3 each, 8 v s 2), dphi/h 1, y 3, t 4.
inline constexpr double k_bend_arc = 1 + 5 + 4 + 1 + 5 + 1 + 2 + 1 + 13 + 6 + 1 + 45 + 1 + 3 + 4;
inline constexpr double k_curved_kick = 7 + 5;  //!< CurvedMultipoleKick: px and py
//! bend_linear_flow without its two focusing() calls: energy 1, P^2 5, sqrt 1, 1/P 1, K_x and K_y 4, f 7,
//! K l^2 2, the D and F series 26, x'0 y'0 2, the four rows 16, int x 5, e_x 6, e_y 4, the two path
//! integrals 12, dt/ds 9, px py 2, the t update 8.
inline constexpr double k_bend_linear_flow_base =
    1 + 5 + 1 + 1 + 4 + 7 + 2 + 26 + 2 + 16 + 5 + 6 + 4 + 12 + 9 + 2 + 8;
inline constexpr double k_solenoid = 4 * 7 + 3;
inline constexpr double k_aperture_ellipse = 2 + 3;  //!< (x/a)^2 + (y/b)^2
//! radiate() (SynchrotronRadiation.hh): energy 1, P^2 5, pz^2 4, two sqrt 2, b.v 4, b^2 4, dl 5, pt 5, the
//! new P^2 5, sqrt and ratio 2, px py 2.
inline constexpr double k_radiate = 1 + 5 + 4 + 2 + 4 + 4 + 5 + 5 + 5 + 2 + 2;

//! The chromatic quadrupole without its focusing: energy 1, 2/beta - pt 1, P^2 2, sqrt 1, 1/P 1,
//! k/P 1, x'0 and y'0 2, the four transfer rows 12, the two path integrals 9 each, dt/ds 6,
//! px and py 2, the t update 6.
inline constexpr double k_quadrupole_chromatic_base = 1 + 1 + 2 + 1 + 1 + 1 + 2 + 12 + 18 + 6 + 2 + 6;
//! Its focusing for k1 != 0: w = sqrt(|k1|/P) 2, 1/w = w P/|k1| 2, focusing_pair's base.
inline constexpr double k_quadrupole_chromatic_focusing = 2 + 2 + k_focusing_pair_base;

//! The chromatic quadrupole's focusing (focusing_pair in MapSupport.hh): the sinhcosh branch the
//! particle near the design momentum takes; none for k1 = 0.
inline double chromatic_focusing(double k1, double length)
{
    if (k1 == 0.0) return 0.0;
    return k_quadrupole_chromatic_focusing +
           (std::sqrt(std::abs(k1)) * std::abs(length) < 1.0 ? k_sinhcosh_series : k_sinhcosh_exp);
}

//! focusing(k, L) (MapSupport.hh) as bend_linear_flow calls it: sqrt, w L, sincos (or sinhcosh), S/w, w S;
//! the branch the particle near the design momentum takes; none for k = 0.
inline double bend_focusing(double k, double length)
{
    if (k > 0.0) return 4.0 + k_sincos;
    if (k < 0.0) return 4.0 + (std::sqrt(-k) * std::abs(length) < 1.0 ? k_sinhcosh_series : k_sinhcosh_exp);
    return 0.0;
}

//! A split-step integration (SplitSteps::integrate): one ExactDriftStep::at, 1 + 3 steps drift steps,
//! 3 steps kicks.
inline double split_steps(SplitSteps const& s, double kick)
{
    return k_drift_exact_at + (1.0 + 3.0 * s.steps) * k_drift_exact_step + 3.0 * s.steps * kick;
}

//! MultipoleKick of order n: the complex power 6 per order above the first, a l and b l 2, the two
//! kick rows 4 each.
inline double multipole_kick(std::int32_t order) { return 6.0 * (order > 1 ? order - 1 : 0) + 10.0; }

//! Thin multipole: Horner over the complex polynomial, 8 per term below the highest, px and py 1 each.
inline double thin_multipole(std::int32_t terms) { return terms == 0 ? 0.0 : 8.0 * (terms - 1) + 2.0; }

//! AxialFieldMap: per RK4 step four field derivatives, three intermediate states (12 each), the
//! update (7 per coordinate) and the stage positions 6; the derivative is the spline 22, the
//! equations of motion 39 and the paraxial field (solenoid 12; cavity 31 + sincos). A solenoid
//! adds the canonical/kinetic conversion at both ends (31 + 4 each); 2 for h and the exit z, 5 for
//! the re-expression in the new reference.
inline double axial_field_map(AxialFieldMap const& m)
{
    double const field = m.rf ? 31.0 + k_sincos : 12.0;
    double const step = 4.0 * (22.0 + 39.0 + field) + 3.0 * 12.0 + 6.0 * 7.0 + 6.0;
    double const ends = m.rf ? 0.0 : 2.0 * (31.0 + 4.0);
    return double(m.steps) * step + ends + 2.0 + 5.0;
}

//! One field evaluation of a 3D map: 3 axes x 5 for the cell and fraction, 8 corners x (4 weight
//! + 2 per component) and, for RF, 6 time factors + sincos.
inline double grid_field(FieldMap3D const& m)
{
    return 15.0 + 8.0 * (4.0 + 2.0 * m.grid.components) + (m.rf ? 6.0 + k_sincos : 0.0);
}

//! TimeCode: the steps the reference takes through the element (one more for the grid offset), each
//! RK4 step four derivatives (energy 8, equations 21, field) and the update 36, a Boris step the
//! energy 8, the field, the rotation 33 and the drifts 12; the field is the quadrupole's 2, the
//! solenoid's 0 or the profile's (spline 22 and paraxial expansion 12, or 31 + sincos + 12 for a
//! cavity) or a 3D map's (grid_field, scaled to e and b: 6); the exit crossing 4 more steps, the conversions
//! at both planes 40.
inline double time_code(TimeCode const& t)
{
    double field = 0.0;
    if (t.field == TimeField::quadrupole) field = 2.0;
    if (t.field == TimeField::axial_map) field = 22.0 + (t.map.rf ? 31.0 + k_sincos : 12.0) + 12.0;
    if (t.field == TimeField::grid_map) field = grid_field(t.grid_map) + 6.0;
    double const step =
        t.integrator == TimeIntegrator::rk4 ? 4.0 * (8.0 + 21.0 + field) + 36.0 : 8.0 + field + 33.0 + 12.0;
    double const steps = std::ceil(t.tau_ref_end / t.step) + 1.0;
    return (steps + 4.0) * step + 40.0;
}

//! FieldMap3D: per RK4 step four field evaluations, the equations of motion (39 each), three
//! intermediate states (12 each), the update (7 per coordinate) and the stage positions 6 (the field
//! evaluation: grid_field).
inline double field_map_3d(FieldMap3D const& m)
{
    double const field = grid_field(m);
    double const step = 4.0 * (39.0 + field) + 3.0 * 12.0 + 6.0 * 7.0 + 6.0;
    return double(m.steps) * step + 2.0 + 5.0;
}

//! The map of one entry, as track_element runs it for a particle that survives it.
inline double element_map_flops(Element const& e)
{
    switch (e.kind) {
        case ElementKind::marker:
        case ElementKind::monitor:
            return 0.0;
        case ElementKind::drift:
            return e.drift.model == DriftModel::exact ? k_drift_exact : k_drift_linear;
        case ElementKind::quadrupole: {
            Quadrupole const& q = e.quadrupole;
            switch (q.model) {
                case QuadrupoleModel::linear:
                    return k_quadrupole_linear + (q.c_rad != 0.0 ? 2.0 * (k_radiate + 2.0) : 0.0);
                case QuadrupoleModel::exact:
                    return k_quadrupole_chromatic_base + chromatic_focusing(q.k1, q.length) +
                           (q.c_rad != 0.0 ? 2.0 * (k_radiate + 2.0) : 0.0);
                default:
                    // With radiation every kick radiates (its field 2) and every drift takes its own pt.
                    return q.c_rad != 0.0 ? split_steps(q.split, k_quadrupole_kick + k_radiate + 2.0) +
                                                3.0 * q.split.steps * k_drift_exact_at
                                          : split_steps(q.split, k_quadrupole_kick);
            }
        }
        case ElementKind::sector_bend:
            return k_sector_bend + (e.sector_bend.c_rad != 0.0 ? 2.0 * (k_radiate + 5.0) : 0.0);
        case ElementKind::dipole_edge:
            return (e.dipole_edge.second_order ? k_dipole_edge_second_order : k_dipole_edge) +
                   (e.dipole_edge.c_rad != 0.0 ? k_radiate + 2.0 : 0.0);
        case ElementKind::multipole:
            // A thin bend adds P^2 3, energy 1, sqrt 1, px 2, t 3 (Multipole::bend).
            return thin_multipole(e.multipole.terms) + (e.multipole.angle != 0.0 ? 10.0 : 0.0);
        case ElementKind::thick_multipole: {
            ThickMultipole const& m = e.thick_multipole;
            double const kick = multipole_kick(m.kick.order);
            if (m.c_rad == 0.0) return split_steps(m.split, kick);
            // The field's power again (6 per order above the first) and its two components 6.
            double const field = 6.0 * (m.kick.order > 1 ? m.kick.order - 1 : 0) + 6.0;
            return split_steps(m.split, kick + field + k_radiate) + 3.0 * m.split.steps * k_drift_exact_at;
        }
        case ElementKind::solenoid:
            // The exact model: ExactDriftStep::at, pi_x pi_y 4, pi^2 3, pz^2 1, sqrt 1, 1/pz 1, k 1, k L 1,
            // sincos, S/k 1, the products 5, px/pz py/pz 2, the four rows 4 x 7 + 2 x 2 (k S C, k S^2),
            // px py 2, the t update 2 + 1 + 1 + 2 + 2.
            return e.solenoid.exact
                       ? k_drift_exact_at + 4 + 3 + 1 + 1 + 1 + 1 + 1 + k_sincos + 1 + 5 + 2 + 32 + 2 + 8
                       : k_solenoid;
        case ElementKind::rf_cavity: {
            // half length 1; the pt kick 6 + cos; px, py 2; the momentum check 6; two half drifts.
            double const drifts = e.rf_cavity.length > 0.0 ? 2.0 * k_drift_exact_unprepared : 0.0;
            return 1.0 + (6.0 + k_sincos) + 2.0 + (k_momentum_squared + 1.0) + drifts;
        }
        case ElementKind::kicker:
            return 1.0 + 2.0 + (e.kicker.length > 0.0 ? 2.0 * k_drift_exact_unprepared : 0.0);
        case ElementKind::aperture:
            return e.aperture.shape == ApertureShape::rectangle ? 0.0 : k_aperture_ellipse;
        case ElementKind::collimator: {
            double const check =
                e.collimator.aperture.shape == ApertureShape::rectangle ? 0.0 : k_aperture_ellipse;
            return 2.0 * check + (e.collimator.length > 0.0 ? k_drift_exact_unprepared : 0.0);
        }
        case ElementKind::axial_field_map:
            return axial_field_map(e.axial_field_map);
        case ElementKind::time_code:
            return time_code(e.time_code);
        case ElementKind::field_map_3d:
            return field_map_3d(e.field_map_3d);
        case ElementKind::beam_shift:
            // energy 1, p^2 4, pz^2 4, sqrt 1, slopes 2, x y 6, t 3 (c DT 1 more); with slopes, delta or
            // energy: 15 more (the energy 4 more).
            return 21.0 + (e.beam_shift.ct != 0.0 ? 1.0 : 0.0) +
                   (e.beam_shift.dxp != 0.0 || e.beam_shift.dyp != 0.0 || e.beam_shift.dp != 0.0 ||
                            e.beam_shift.de != 0.0
                        ? 15.0
                        : 0.0) +
                   (e.beam_shift.de != 0.0 ? 4.0 : 0.0);
        case ElementKind::srotation:
            return 4.0 * 3.0;  // SRotation.hh: four rows of two products and a sum
        case ElementKind::thin_solenoid:
            // energy 1, P^2 5, sqrt 1, 1/P 1, d(1/P) 3, theta 1, sincos, lz 3, x y 6, f 1, px py 10, t 9.
            return 1.0 + 5.0 + 1.0 + 1.0 + 3.0 + 1.0 + k_sincos + 3.0 + 6.0 + 1.0 + 10.0 + 9.0;
        case ElementKind::exact_bend: {
            // ExactBend: one arc, or per step three substeps of four linear flows (two with k1, two
            // with 0), one arc and two kicks.
            ExactBend const& b = e.exact_bend;
            double const arc = b.inv_h == 0.0 ? k_drift_exact : k_bend_arc;
            // With radiation a curved one is two half arcs and three radiation points (Simpson).
            if (!b.kicked) return b.c_rad != 0.0 && b.inv_h != 0.0 ? 2.0 * arc + 3.0 * k_radiate + 2.0 : arc;
            double const h2 = b.h * b.h;
            double const with_k1 =
                k_bend_linear_flow_base + bend_focusing(h2 + b.k1, b.length) + bend_focusing(-b.k1, b.length);
            double const without = k_bend_linear_flow_base + bend_focusing(h2, b.length);
            // The body's other components: Horner 8 per term below the highest, px 4 (the dipole's curvature
            // term), py 2; with
            // radiation their field again (the Horner) and its two sums.
            double const horner = b.body.terms > 0 ? 8.0 * (b.body.terms - 1) : 0.0;
            double const body = b.body.terms > 0 ? horner + 6.0 : 0.0;
            // With radiation each kick radiates its field (by 9, bx 3) too.
            double const radiation =
                b.c_rad != 0.0 ? 2.0 * (12.0 + k_radiate + (b.body.terms > 0 ? horner + 2.0 : 0.0)) : 0.0;
            return 3.0 * b.steps *
                   (2.0 * with_k1 + 2.0 * without + arc + 2.0 * (k_curved_kick + body) + radiation);
        }
    }
    return 0.0;
}

//! One entry as track_element runs it: the misalignment, the map and the finiteness check.
inline double element_flops(Element const& e)
{
    return (e.misaligned ? k_misalignment : 0.0) + element_map_flops(e) + k_is_finite;
}

}  // namespace gt::work
