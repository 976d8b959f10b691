// validate's default tolerance after space-charge kicks (compare/RoundOffTolerance.hh), tested without a
// GPU: the "GPU" is the CPU with a space-charge solver that changes every kick at the level at which
// FFTW and cuFFT differ (relative eps log2 M, a different pseudo-random sign and size per particle and
// kick). With the defaults validate must pass that, and still fail a real defect: a kick off by 1e-6,
// or one ulp before the first kick (deterministic stages stay bitwise).
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "FodoSpaceChargeDeck.hh"
#include "Relative.hh"
#include "TextTestSupport.hh"
#include "ValidationFamily.hh"
#include "compare/RoundOffTolerance.hh"
#include "deck/DeckReader.hh"
#include "run/Validation.hh"
#include "run/ValidationSolvers.hh"

using namespace gt;
using gt::test::contains;
using gt::test::fodo_space_charge_beam;
using gt::test::unit_draw;

namespace {

//! The CPU solver, with each particle's momentum change scaled by (1 + relative r), r in [-1, 1]
//! drawn per particle id and kick: a field that differs from the CPU's by `relative`.
class PerturbedSpaceCharge final : public ForwardingSpaceCharge {
  public:
    explicit PerturbedSpaceCharge(double relative)
        : ForwardingSpaceCharge(make_cpu_space_charge()), relative_(relative)
    {
    }
    std::string description() const override { return "cpu solver, kicks perturbed"; }
    SpaceChargeDiagnostics kick(ParticleView p, SpaceChargeSettings const& s, BeamFrame const& f,
                                double ds) override
    {
        before_.record(p, MemSpace::host);  // by id: the kick may reorder the particles
        SpaceChargeDiagnostics const d = inner().kick(p, s, f, ds);
        for (size_type i = 0; i < p.size; ++i) {
            double* now[3] = {&p.px[i], &p.py[i], &p.pt[i]};
            for (std::size_t c = 0; c < 3; ++c) {
                double const b = before_(p.id[i], c);
                *now[c] = b + (*now[c] - b) * (1 + relative_ * unit_draw(p.id[i], kicks_, c));
            }
        }
        ++kicks_;
        return d;
    }

  private:
    double relative_;
    std::uint64_t kicks_ = 0;
    MomentaById before_;
};

//! inputs/fodo_space_charge.toml's beam and channel (10 MeV protons, 50 pC), smaller for the tests.
std::string const k_deck = fodo_space_charge_beam("round_off", 5, "50 pC", 2000) + R"(
[lattice]
cell = ["QF", "D", "QD", "D"]
line = ["cell*6"]
[space_charge]
enabled = true
grid = [16, 16, 32]
kicks_per_meter = 20
deposition = "deterministic"
)";

//! validate_beamline with two CPU backends; the candidate's solver perturbs each kick by `relative`.
ValidationResult validate_with(DeckConfig const& deck, double relative, ValidationOptions options = {})
{
    int solvers = 0;  // validate asks for the reference's solver first, then the candidate's
    options.space_charge_solver = [&solvers,
                                   relative](BeamKernels const&) -> std::unique_ptr<SpaceChargeKernels> {
        if (solvers++ == 0) return make_cpu_space_charge();
        return std::make_unique<PerturbedSpaceCharge>(relative);
    };
    auto a = make_cpu_beam_kernels();
    auto b = make_cpu_beam_kernels();
    return validate_beamline(deck, *a, *b, options);
}

}  // namespace

TEST_CASE("round-off tolerance: eps log2 M per kick, from the deck's FFT grid")
{
    DeckConfig const deck = read_deck_text(k_deck, "round_off.toml");
    RoundOffTolerance const r = space_charge_round_off(deck);
    // Doubled grid 32 x 32 x 64 = 65536 = 2^16 points: 16 eps.
    CHECK(r.fft_points == 65536);
    CHECK(r.per_kick == 16 * std::numeric_limits<double>::epsilon());
    CHECK(r.tau(0) == 0);
    CHECK(r.tau(10) == 10 * r.safety * r.per_kick);
    CHECK(space_charge_round_off(read_deck_text(k_deck, "x.toml", {"space_charge.enabled=false"})).per_kick ==
          0);
    // Atomic deposition adds eps sqrt(N) (2000 particles: 44.7 eps).
    RoundOffTolerance const atomic =
        space_charge_round_off(read_deck_text(k_deck, "x.toml", {"space_charge.deposition=\"atomic\""}));
    CHECK(atomic.per_kick ==
          test::relative((16 + std::sqrt(2000.0)) * std::numeric_limits<double>::epsilon(), 1e-12));
    // Deterministic deposition's weights are rounded to 2^-32 of a macroparticle: W^3 of them (CIC: 8)
    // per particle, with a margin of 4; atomic deposition does not round.
    CHECK(r.per_kick_quantized == 4 * 8 * 0x1p-32);
    CHECK(atomic.per_kick_quantized == 0);
}

TEST_CASE("round-off tolerance: validate passes a round-off difference of the field with its defaults")
{
    DeckConfig const deck = read_deck_text(k_deck, "round_off.toml");
    RoundOffTolerance const model = space_charge_round_off(deck);
    ValidationResult const r = validate_with(deck, model.per_kick);
    INFO(validation_summary(r));
    CHECK(r.ok());
    CHECK(contains(validation_verdict(r), "within tolerance"));
    CHECK(contains(validation_summary(r), "default tolerance: after K space-charge kicks"));
    // The planted difference is there (not a vacuous pass), and the first stages, before any kick, agree
    // bit for bit under a bitwise tolerance.
    std::size_t differing = 0;
    for (auto const& s : r.stages) differing += s.particles_differing;
    CHECK(differing > 0);
    REQUIRE(r.stages.size() > 2);
    CHECK(r.stages[0].kicks == 0);
    CHECK(r.stages[0].round_off == 0);
    CHECK(r.stages.back().kicks > 50);
    // Without the defaults the same difference fails: this is what the default is for.
    ValidationOptions bitwise;
    bitwise.round_off_defaults = false;
    CHECK(!validate_with(deck, model.per_kick, bitwise).ok());
}

TEST_CASE("round-off tolerance: a real defect still fails with the defaults")
{
    DeckConfig const deck = read_deck_text(k_deck, "round_off.toml");
    // Every kick 1e-6 too strong or weak: a wrong constant in the 6th digit (1e6 times the FFT's round-off).
    ValidationResult const r = validate_with(deck, 1e-6);
    CHECK(!r.ok());
    REQUIRE(r.first_failure() != nullptr);
    CHECK(contains(validation_verdict(r), "FAIL"));
}
