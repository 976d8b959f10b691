// One member of the validation family run through validate_beamline: with the round-off "GPU" it must
// pass, with one particle's kick off by 1e-6 of itself it must fail (ValidationFamily.hh).
#pragma once

#include <doctest/doctest.h>

#include <cmath>
#include <string>

#include "TextTestSupport.hh"
#include "ValidationFamily.hh"
#include "deck/DeckReader.hh"
#include "compare/RoundOffTolerance.hh"
#include "run/Validation.hh"

namespace gt::test {

//! validate_beamline with two CPU backends, the candidate's kicks disturbed at the FFT's round-off,
//! and `defect` (validate's testing aid, as `gtrack validate --test-perturb-kick` plants it on the GPU).
inline ValidationResult validate_family(DeckConfig const& deck, double per_kick, KickPerturbation defect = {})
{
    ValidationOptions options;
    int solvers = 0;  // validate asks for the reference's solver first, then the candidate's
    options.space_charge_solver = [&](BeamKernels const&) -> std::unique_ptr<SpaceChargeKernels> {
        if (solvers++ == 0) return make_cpu_space_charge();
        return std::make_unique<RoundOffSpaceCharge>(per_kick);
    };
    options.perturb_candidate = defect;
    auto a = make_cpu_beam_kernels();
    auto b = make_cpu_beam_kernels();
    return validate_beamline(deck, *a, *b, options);
}

inline void check_family_member(FamilyMember const& m, bool with_defect)
{
    CAPTURE(m.name());
    DeckConfig const deck = read_deck_text(m.deck(), m.name() + ".toml");
    RoundOffTolerance const model = space_charge_round_off(deck);
    ValidationResult const r = validate_family(deck, model.per_kick);
    INFO(validation_verdict(r));
    CHECK(r.ok());
    std::size_t differing = 0;
    for (auto const& s : r.stages) differing += s.particles_differing;
    CHECK(differing > 0);  // the disturbance is there: not a vacuous pass
    REQUIRE(r.stages.back().kicks >= 10);
    if (!with_defect) return;
    // Kick number 5 of one particle, the one it kicks hardest, off by 1e-6 of itself: 10^9 times the
    // FFT's round-off and 500 times the fixed-point quantum. (A particle whose kick is 10^-3 of the
    // largest cannot be told from round-off at 1e-6 of its kick: the bound scales with the largest.)
    ValidationResult const bad = validate_family(deck, model.per_kick, KickPerturbation{1e-6, 5});
    INFO(validation_verdict(bad));
    CHECK_FALSE(bad.ok());
    CHECK(gt::test::contains(bad.perturbation, "kick 5 (from 0) of particle id"));
    // The stages before the defect's kick pass: the failure is the defect's, not something else's.
    REQUIRE(bad.first_failure() != nullptr);
    CHECK(bad.first_failure()->kicks > 5);
}

}  // namespace gt::test
