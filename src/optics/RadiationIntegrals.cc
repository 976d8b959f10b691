// Synchrotron radiation integrals (Helm, Lee and Morton, IEEE Trans. Nucl. Sci. 20 (1973) 900; the
// MAD-X physics guide, TWISS "synch_1..5"): I1 = int D h, I2 = int h^2, I3 = int |h|^3,
// I4 = int D h (h^2 + 2 k1) - sum over the edges of D h^2 tan(e), I5 = int |h|^3 H with
// H = gamma D^2 + 2 alpha D D' + beta D'^2.
#include "optics/RadiationIntegrals.hh"

#include <cmath>
#include <limits>
#include <stdexcept>

#include "kernels/core/Types.hh"
#include "kernels/elements/SectorBend.hh"

namespace gt::optics {

namespace {

ElementConfig const& config_of(DeckConfig const& deck, std::string const& name)
{
    for (ElementConfig const& e : deck.elements)
        if (e.name == name) return e;
    throw std::runtime_error("radiation integrals: no deck element " + name);
}

}  // namespace

RadiationIntegrals radiation_integrals(DeckConfig const& deck, OpticsResult const& r,
                                       ReferenceParticle const& ref, Lattice const* lattice)
{
    RadiationIntegrals out;
    int const intervals = 64;  // even: Simpson
    for (std::size_t i = 1; i < r.rows.size(); ++i) {
        OpticsRow const& row = r.rows[i];
        if (row.type != "sbend") continue;
        ElementConfig const& cfg = config_of(deck, row.name);
        double const length = cfg.get("length", 0.0), angle = cfg.get("angle", 0.0);
        if (angle == 0.0 || length <= 0.0) continue;
        double const h = angle / length, k1 = cfg.get("k1", 0.0);
        OpticsRow const& in = r.rows[i - 1];
        // The entrance edge: px += h tan(e1) x, so D' += h tan(e1) D and alpha -= h tan(e1) beta.
        double const t1 = std::tan(cfg.get("e1", 0.0)), t2 = std::tan(cfg.get("e2", 0.0));
        double const d0 = in.d_x, dp0 = in.dp_x + h * t1 * in.d_x;
        double const b0 = in.beta_x, a0 = in.alpha_x - h * t1 * in.beta_x, g0 = (1.0 + a0 * a0) / b0;
        out.i4 -= in.d_x * h * h * t1 + row.d_x * h * h * t2;
        double const ds = length / intervals;
        for (int k = 0; k <= intervals; ++k) {
            double const s = k * ds;
            double d = d0, dp = dp0, b = b0, a = a0;
            if (k > 0) {
                // x per pt (R16) times dpt/d delta = -beta gives x per delta.
                SectorBend const m = SectorBend::make(s, h * s, k1, ref);
                d = m.r11 * d0 + m.r12 * dp0 - ref.beta * m.r16;
                dp = m.r21 * d0 + m.r22 * dp0 - ref.beta * m.r26;
                b = m.r11 * m.r11 * b0 - 2.0 * m.r11 * m.r12 * a0 + m.r12 * m.r12 * g0;
                a = -m.r11 * m.r21 * b0 + (m.r11 * m.r22 + m.r12 * m.r21) * a0 - m.r12 * m.r22 * g0;
            }
            double const g = (1.0 + a * a) / b;
            double const curly_h = g * d * d + 2.0 * a * d * dp + b * dp * dp;
            double const w = (k == 0 || k == intervals ? 1.0 : (k % 2 == 1 ? 4.0 : 2.0)) * ds / 3.0;
            double const h3 = std::abs(h) * h * h;
            out.i1 += w * d * h;
            out.i2 += w * h * h;
            out.i3 += w * h3;
            out.i4 += w * d * h * (h * h + 2.0 * k1);
            out.i5 += w * h3 * curly_h;
        }
    }
    // U0 = q^2 beta^3 gamma^4 I2 / (6 pi eps0), in eV: q (in e) times e beta^3 gamma^4 I2 / (6 pi eps0).
    double const q = std::abs(deck.beam.species.charge_e);
    double const g4 = std::pow(ref.gamma, 4.0), b3 = std::pow(ref.beta, 3.0);
    double const epsilon_0 = 8.8541878128e-12;  // [F/m] CODATA 2018
    out.u0_ev = q * q * constants::e_charge * b3 * g4 * out.i2 / (6.0 * constants::pi * epsilon_0);
    out.j_x = out.i2 != 0.0 ? 1.0 - out.i4 / out.i2 : 0.0;
    // Cq = 55 hbar c / (32 sqrt 3 m c^2) [m]: hbar c = 197.3269804e-15 MeV m.
    double const cq = 55.0 * 197.3269804e-15 / (32.0 * std::sqrt(3.0) * deck.beam.species.mass_mev);
    out.emittance =
        out.i2 != 0.0 && out.j_x != 0.0 ? cq * ref.gamma * ref.gamma * out.i5 / (out.j_x * out.i2) : 0.0;
    // Damping (Sands, SLAC-121, eqs. 5.26-5.35; Wolski, Beam Dynamics, sec. 7.2): J_y = 1, J_e = 2 + I4/I2
    // (Robinson: J_x + J_y + J_e = 4), amplitude damping times tau_i = 2 E0 T0 / (J_i U0).
    out.j_y = out.i2 != 0.0 ? 1.0 : 0.0;
    out.j_e = out.i2 != 0.0 ? 2.0 + out.i4 / out.i2 : 0.0;
    double const e0_ev = ref.total_energy_mev() * 1e6;
    double const t0 = r.length / (ref.beta * constants::c_light);
    auto tau = [&](double j) {
        return out.u0_ev > 0.0 && j != 0.0 ? 2.0 * e0_ev * t0 / (j * out.u0_ev) : 0.0;
    };
    out.tau_x = tau(out.j_x);
    out.tau_y = tau(out.j_y);
    out.tau_e = tau(out.j_e);
    // Natural energy spread sigma_E/E = sqrt(Cq gamma^2 I3 / (Je I2)) (Sands eq. 5.43 with Cq as above).
    out.energy_spread = out.i2 != 0.0 && out.j_e > 0.0
                            ? std::sqrt(cq * ref.gamma * ref.gamma * out.i3 / (out.j_e * out.i2))
                            : 0.0;
    if (lattice) {
        for (Element const& e : lattice->elements)
            if (e.kind == ElementKind::rf_cavity) out.rf_voltage += e.rf_cavity.voltage;
        double const gain = q * out.rf_voltage;  // [eV] |q| V
        out.synchronous_phase = gain > 0.0 && out.u0_ev <= gain ? std::acos(out.u0_ev / gain)
                                                                : std::numeric_limits<double>::quiet_NaN();
    }
    return out;
}

}  // namespace gt::optics
