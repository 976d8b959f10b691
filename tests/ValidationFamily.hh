// A family of generated space-charge decks for validate's default tolerance (compare/RoundOffTolerance.hh,
// KickRoundOff), and a "GPU" that is the CPU with every kick's momentum change disturbed at the
// level of the FFT's error bound: per_kick (eps log2 M) times the kick's largest momentum change,
// a different sign and size per particle, coordinate and kick. scripts/gpu-check.d/45-validate-family.sh
// writes the same decks for the card. unit_draw is also the draw of ValidationRoundOffTest.cc's solver.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "kernels/spacecharge/SpaceChargeKernels.hh"
#include "run/ValidationSolvers.hh"

namespace gt::test {

struct FamilyMember {
    std::string distribution = "waterbag";  //!< gaussian, waterbag, kv, semigaussian
    int grid = 16;                          //!< nodes per axis (2.5d: grid x grid x 16 planes)
    long particles = 2000;
    bool cold = false;        //!< emittance 1e-3 um and sigma_pt 1e-7 (else 1 um, 1e-4)
    bool long_bunch = false;  //!< sigma_t 50 mm (else 1 mm)
    bool fodo = false;        //!< FODO cells (else a drift)
    bool time_code = false;   //!< drifts tracked in time, with t-code space charge
    std::string solver = "3d";

    std::string name() const
    {
        return distribution + "_g" + std::to_string(grid) + "_n" + std::to_string(particles) +
               (cold ? "_cold" : "_warm") + (long_bunch ? "_long" : "_short") + (fodo ? "_fodo" : "_drift") +
               (time_code ? "_t" : "_z") + "_" + solver;
    }

    //! The deck: 10 MeV protons, 50 pC, 1.2 m of drift or FODO, 20 kicks per metre, deterministic
    //! deposition (the run-dependent sums of atomic deposition are another term of the model).
    std::string deck() const
    {
        std::string const emittance = cold ? "\"0.001 um\"" : "\"1 um\"";
        std::string const planes = solver == "2.5d" ? "16" : std::to_string(grid);
        std::string text = "[run]\nname = \"" + name() + "\"\nseed = 3\n";
        if (time_code) text += "tracking = \"t\"\n";
        text += R"([beam]
particle = "proton"
kinetic_energy = "10 MeV"
bunch_charge = "50 pC"
macroparticles = )" +
                std::to_string(particles) + "\ndistribution = \"" + distribution + "\"\n" +
                (distribution == "gaussian" ? "truncate = 4\n" : "") +
                "[beam.twiss]\nbeta_x = 1.0\nalpha_x = -0.5\nemittance_x = " + emittance +
                "\nbeta_y = 0.7\nalpha_y = 0.3\nemittance_y = " + emittance + "\nsigma_t = \"" +
                (long_bunch ? "50 mm" : "1 mm") + "\"\nsigma_pt = " + (cold ? "1e-7" : "1e-4") + R"(
[elements]
QF = { type = "quadrupole", length = "10 cm", k1 = 20.0, tracking = "z" }
QD = { type = "quadrupole", length = "10 cm", k1 = -20.0, tracking = "z" }
D  = { type = "drift", length = "20 cm" }
[lattice]
)" + (fodo ? "cell = [\"QF\", \"D\", \"QD\", \"D\"]\nline = [\"cell*2\"]\n" : "line = [\"D*6\"]\n") +
                "[space_charge]\nenabled = true\ngrid = [" + std::to_string(grid) + ", " +
                std::to_string(grid) + ", " + planes +
                "]\nkicks_per_meter = 20\ndeposition = \"deterministic\"\nsolver = \"" + solver + "\"\n";
        return text;
    }
};

//! A hash of (particle id, kick, coordinate) to [-1, 1]: independent draws, the same on every run.
inline double unit_draw(std::uint64_t id, std::uint64_t kick, std::size_t c)
{
    std::uint64_t h = (id * 0x9E3779B97F4A7C15ull) ^ (kick * 0xBF58476D1CE4E5B9ull) ^ std::uint64_t(c + 1);
    h ^= h >> 31;
    h *= 0x94D049BB133111EBull;
    h ^= h >> 29;
    return 2.0 * double(h >> 11) * 0x1p-53 - 1.0;
}

//! The CPU solver with each kick disturbed as a GPU's FFT may disturb it (see the file comment). A
//! defect on top of it is validate's own testing aid (ValidationOptions::perturb_candidate).
class RoundOffSpaceCharge final : public ForwardingSpaceCharge {
  public:
    explicit RoundOffSpaceCharge(double per_kick)
        : ForwardingSpaceCharge(make_cpu_space_charge()), per_kick_(per_kick)
    {
    }
    std::string description() const override { return "cpu solver, kicks disturbed at the FFT's round-off"; }
    SpaceChargeDiagnostics kick(ParticleView p, SpaceChargeSettings const& s, BeamFrame const& f,
                                double ds) override
    {
        before_.record(p, MemSpace::host);
        SpaceChargeDiagnostics const d = inner().kick(p, s, f, ds);
        double largest[3] = {0, 0, 0};
        for (size_type i = 0; i < p.size; ++i) {
            double const now[3] = {p.px[i], p.py[i], p.pt[i]};
            for (std::size_t c = 0; c < 3; ++c)
                largest[c] = std::max(largest[c], std::abs(now[c] - before_(p.id[i], c)));
        }
        for (size_type i = 0; i < p.size; ++i) {
            double* now[3] = {&p.px[i], &p.py[i], &p.pt[i]};
            for (std::size_t c = 0; c < 3; ++c)
                *now[c] += per_kick_ * largest[c] * unit_draw(p.id[i], kicks_, c);
        }
        ++kicks_;
        return d;
    }

  private:
    double per_kick_;
    std::uint64_t kicks_ = 0;
    MomentaById before_;
};

}  // namespace gt::test
