// Space charge inside a t-code entry (see TimeCodeSpaceCharge.hh).
#include "run/TimeCodeSpaceCharge.hh"

#include <cmath>
#include <stdexcept>

namespace gt {

TimeCodeSpaceCharge::TimeCodeSpaceCharge(Lattice const& lattice, BeamKernels& kernels, SpaceChargeKernels& solver,
                                         SpaceChargeSettings const& settings, BeamFrame const& species,
                                         ParticleView particles)
    : lattice_(lattice),
      kernels_(kernels),
      solver_(solver),
      settings_(settings),
      species_(species),
      particles_(particles),
      positions_(particles.size, kernels.memory())
{
}

void TimeCodeSpaceCharge::track(std::int64_t entry, std::int64_t turn,
                                std::function<void(TimeCodeKick const&)> const& report)
{
    Element const& e = lattice_.elements.at(std::size_t(entry));
    if (e.kind != ElementKind::time_code) throw std::logic_error("space charge in time: not a t-code entry");
    TimeCode const& code = e.time_code;
    auto const index = size_type(entry);
    ParticleView const positions = positions_.view();
    double k = kernels_.time_bunch_begin(particles_, index);
    if (std::isfinite(k)) {
        for (;;) {
            auto const counts = kernels_.time_bunch_step(particles_, index, k);
            k += 1.0;
            if (counts[0] == 0.0) break;  // every particle has left (or was lost)
            if (counts[1] == 0.0) continue;  // nobody inside yet: nothing to kick
            // The boost: the mean Pz / p0 of the particles inside; beta_b gamma_b = <Pz> / (p0 / m c).
            // Near rest (a cathode) it is floored at k_min_frame_beta_gamma, where the transform is
            // the identity to ~1e-12 and the solve the lab's electrostatic one (docs/physics.md).
            double pz_b = counts[2] / counts[1];
            double bg = pz_b / std::sqrt(code.mu2);
            if (!(bg >= k_min_frame_beta_gamma)) {
                bg = k_min_frame_beta_gamma;
                pz_b = bg * std::sqrt(code.mu2);
            }
            double const gamma = std::sqrt(1.0 + bg * bg);
            BeamFrame frame = species_;
            frame.gamma = gamma;
            frame.beta = bg / gamma;
            // The solver's kick over ds is dpx = q E'_x ds / (m c^2 beta^2 gamma^2); over a time step
            // h = c dt it must be q E'_x h / (gamma p0 c) (dPx/dt = q E'_x / gamma): ds = h beta_b <Pz>.
            double const ds = code.step * frame.beta * pz_b;
            double const inv_beta = 1.0 / frame.beta;
            kernels_.time_bunch_positions(particles_, index, k, inv_beta, positions);
            TimeCodeKick kick;
            kick.diagnostics = solver_.kick(positions, settings_, frame, ds);
            kernels_.time_bunch_kick(positions, index, inv_beta);
            kick.sigma = k * code.step;
            kick.ds = code.step * frame.beta;
            report(kick);
        }
    }
    kernels_.time_bunch_finish(particles_, index, std::int32_t(turn));
}

}  // namespace gt
