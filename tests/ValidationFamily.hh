// A family of generated space-charge decks for validate's default tolerance (run/RoundOffTolerance.hh,
// KickRoundOff), and a "GPU" that is the CPU with every kick's momentum change disturbed at the
// level of the FFT's error bound: per_kick (eps log2 M) times the kick's largest momentum change,
// a different sign and size per particle, coordinate and kick. scripts/gpu-check.d/45-validate-family.sh
// writes the same decks for the card.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "kernels/spacecharge/SpaceChargeKernels.hh"

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

//! The CPU solver with each kick disturbed as a GPU's FFT may disturb it (see the file comment), and
//! optionally one particle's kick (id `bad_id`, kick `bad_kick`) off by `bad_relative` of itself.
class RoundOffSpaceCharge final : public SpaceChargeKernels {
  public:
    static constexpr std::uint64_t k_most_kicked = ~std::uint64_t{0};
    RoundOffSpaceCharge(double per_kick, std::uint64_t bad_id = 0, long bad_kick = -1,
                        double bad_relative = 0)
        : inner_(make_cpu_space_charge()),
          per_kick_(per_kick),
          bad_id_(bad_id),
          bad_kick_(bad_kick),
          bad_relative_(bad_relative)
    {
    }
    MemSpace memory() const override { return inner_->memory(); }
    std::string description() const override { return "cpu solver, kicks disturbed at the FFT's round-off"; }
    SpaceChargeDiagnostics kick(ParticleView p, SpaceChargeSettings const& s, BeamFrame const& f,
                                double ds) override
    {
        std::uint64_t max_id = 0;
        for (size_type i = 0; i < p.size; ++i) max_id = std::max(max_id, p.id[i]);
        std::vector<double> before(3 * (max_id + 1));
        for (size_type i = 0; i < p.size; ++i) {
            before[3 * p.id[i]] = p.px[i];
            before[3 * p.id[i] + 1] = p.py[i];
            before[3 * p.id[i] + 2] = p.pt[i];
        }
        SpaceChargeDiagnostics const d = inner_->kick(p, s, f, ds);
        double largest[3] = {0, 0, 0};
        for (size_type i = 0; i < p.size; ++i) {
            double const now[3] = {p.px[i], p.py[i], p.pt[i]};
            for (std::size_t c = 0; c < 3; ++c)
                largest[c] = std::max(largest[c], std::abs(now[c] - before[3 * p.id[i] + c]));
        }
        // The defect's particle: bad_id, or with bad_id = k_most_kicked the one with the largest |dpx|.
        std::uint64_t bad = bad_id_;
        if (bad_id_ == k_most_kicked) {
            double most = -1;
            for (size_type i = 0; i < p.size; ++i)
                if (double const change = std::abs(p.px[i] - before[3 * p.id[i]]); change > most) {
                    most = change;
                    bad = p.id[i];
                }
        }
        for (size_type i = 0; i < p.size; ++i) {
            double* now[3] = {&p.px[i], &p.py[i], &p.pt[i]};
            for (std::size_t c = 0; c < 3; ++c) {
                std::uint64_t h = (p.id[i] * 0x9E3779B97F4A7C15ull) ^
                                  (std::uint64_t(kicks_) * 0xBF58476D1CE4E5B9ull) ^ std::uint64_t(c + 1);
                h ^= h >> 31;
                h *= 0x94D049BB133111EBull;
                h ^= h >> 29;
                double const r = 2.0 * double(h >> 11) * 0x1p-53 - 1.0;
                *now[c] += per_kick_ * largest[c] * r;
                if (kicks_ == bad_kick_ && p.id[i] == bad) {
                    double const b = before[3 * p.id[i] + c];
                    *now[c] = b + (*now[c] - b) * (1 + bad_relative_);
                }
            }
        }
        ++kicks_;
        return d;
    }
    SpaceChargeDiagnostics probe_field(ParticleView p, SpaceChargeSettings const& s, BeamFrame const& f,
                                       std::vector<FieldProbe>& probes) override
    {
        return inner_->probe_field(p, s, f, probes);
    }
    std::vector<double> charge_grid() const override { return inner_->charge_grid(); }
    KernelTimer const& timer() const override { return inner_->timer(); }
    SpaceChargeCache cache() const override { return inner_->cache(); }
    void restore_cache(SpaceChargeCache const& cache) override { inner_->restore_cache(cache); }

  private:
    std::unique_ptr<SpaceChargeKernels> inner_;
    double per_kick_;
    std::uint64_t bad_id_;
    long bad_kick_;
    double bad_relative_;
    long kicks_ = 0;
};

}  // namespace gt::test
