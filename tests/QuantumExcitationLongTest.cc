// Quantum excitation to equilibrium (label `long`): a cold beam in inputs/light_source_ring.toml with
// radiation = "quantum" tracked for about 2.5 horizontal damping times reaches the natural energy spread and
// emittance of the radiation integrals (Sands, SLAC-121, eq. 5.43; C_q gamma^2 I5 / (J_x I2)).
#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "QuantumExcitationSupport.hh"
#include "kernels/cpu/Executor.hh"

namespace gt {
namespace {

TEST_CASE("quantum excitation: a cold beam reaches the natural energy spread and emittance")
{
    // 1000 particles, 8000 turns (2.3 tau_x, 5.2 tau_E; the emittance's time constant is tau_x / 2, so the
    // beam is within e^-4.6 = 1% of its equilibrium), then the moments of every 100th turn of the last 2000
    // averaged against the same average of sigma_eq^2 (1 - exp(-2 t / tau)). One sample's relative standard
    // error is sqrt(2/N) = 4.5%; the 20 samples are correlated over tau_E / 2 = 765 and tau_x / 2 = 1745
    // turns, so their mean has about 4.5% / sqrt(2000 / 765) = 2.8% (energy) and 4.5% / sqrt(2000 / 1745) =
    // 4.2% (emittance). Tolerances 10% and 15%: 3.5 of them, plus for the emittance the map's damping
    // partition, J_x = 0.9348 tracked against 1 - I4/I2 = 0.9158 of the integrals on this ring of gradient
    // bends (docs/physics.md, "Synchrotron radiation": the emittance comes out 2% smaller).
    test::QuantumRing const r = test::light_source_ring({"beam.macroparticles=1000"});
    optics::RadiationIntegrals const& w = r.integrals;
    double const t0 = r.lattice.length / (r.lattice.reference_begin.beta * constants::c_light);
    double const tau_e = w.tau_e / t0, tau_x = w.tau_x / t0;
    test::Vec6 const z = test::closed_orbit(r.mean, 6000);
    cpu::set_thread_count(2);
    auto kernels = make_cpu_beam_kernels();
    ParticleState state = test::cold_beam(r.deck, *kernels, z);
    kernels->set_elements(r.lattice.elements, *r.lattice.field_data);
    int const turns = 8000, from = 6000, every = 100;
    double var = 0, var_expected = 0, eps = 0, eps_expected = 0;
    int samples = 0;
    for (int turn = 0; turn < turns; ++turn) {
        kernels->track(state.view(), 0, r.lattice.elements.size(), turn);
        if (turn + 1 > from && (turn + 1) % every == 0) {
            test::Spreads const s = test::spreads(kernels->moments(state.view()));
            double const t = turn + 1;
            var += s.var_pt;
            eps += s.eps_x;
            var_expected += w.energy_spread * w.energy_spread * (1.0 - std::exp(-2.0 * t / tau_e));
            eps_expected += w.emittance * (1.0 - std::exp(-2.0 * t / tau_x));
            ++samples;
        }
    }
    REQUIRE(kernels->count(state.view(), true) == 1000);
    var /= samples;
    var_expected /= samples;
    eps /= samples;
    eps_expected /= samples;
    MESSAGE("sigma_pt " << std::sqrt(var) << " (natural " << w.energy_spread << "), eps_x " << eps
                        << " m (natural " << w.emittance << " m)");
    CHECK(std::abs(var / var_expected - 1.0) < 0.10);
    CHECK(std::abs(eps / eps_expected - 1.0) < 0.15);
}

}  // namespace
}  // namespace gt
