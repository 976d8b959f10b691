// validate's testing aid `--test-perturb-kick REL[@KICK]` (run/ValidationSolvers.hh), on the CPU: the
// command's own path (validate_with_backends) with a second CPU backend as the candidate. Unperturbed
// the two agree bit for bit (exit 0); one particle's kick off by 1e-6 of itself fails (exit 1) and the
// summary says what was planted. scripts/gpu-check.d/46-validate-perturbed.sh runs the same on the GPU,
// where the candidate's kicks also carry cuFFT's round-off; the CPU stand-in of that round-off with the
// same defect is ValidationFamilyTest.
#include <doctest/doctest.h>

#include <stdexcept>
#include <string>

#include "IoTestSupport.hh"
#include "TextTestSupport.hh"
#include "ValidationFamily.hh"
#include "app/ValidateCommand.hh"
#include "deck/DeckReader.hh"
#include "run/ValidationSolvers.hh"

using namespace gt;
using gt::test::contains;

TEST_CASE("--test-perturb-kick: REL or REL@KICK")
{
    KickPerturbation const a = KickPerturbation::parse("1e-6");
    CHECK(a.relative == 1e-6);
    CHECK(a.kick == 5);
    CHECK(a.active());
    KickPerturbation const b = KickPerturbation::parse("-2e-3@0");
    CHECK(b.relative == -2e-3);
    CHECK(b.kick == 0);
    CHECK(!KickPerturbation{}.active());
    for (char const* bad : {"", "x", "1e-6@", "1e-6@-1", "1e-6@2x", "1e-6x", "inf", "nan@3"})
        CHECK_THROWS_WITH_AS(KickPerturbation::parse(bad), doctest::Contains("--test-perturb-kick"),
                             std::invalid_argument);
}

TEST_CASE("validate --test-perturb-kick: the unperturbed deck passes, one kick off by 1e-6 fails")
{
    gt::test::TempDir dir;
    // The issue's cold waterbag in a drift, small: 2000 particles, 16^3, 6 drifts of 20 cm, 24 kicks.
    gt::test::FamilyMember m;
    m.cold = true;
    DeckConfig const deck = read_deck_text(m.deck(), m.name() + ".toml");
    ValidateOptions vo;
    vo.report = dir.file("report.md");
    vo.stages = "element";
    auto a = make_cpu_beam_kernels();
    auto b = make_cpu_beam_kernels();
    CHECK(validate_with_backends(deck, vo, *a, *b) == 0);
    CHECK(!contains(gt::test::file_text(vo.report), "TESTING AID"));

    vo.test_perturb_kick = "1e-6";
    CHECK(validate_with_backends(deck, vo, *a, *b) == 1);
    std::string const report = gt::test::file_text(vo.report);
    CHECK(contains(report, "**FAIL"));
    CHECK(contains(report,
                   "TESTING AID (--test-perturb-kick) | the candidate's kick 5 (from 0) of particle id"));
    CHECK(contains(report, "scaled by 1 + 1e-06"));

    // A kick the deck never reaches: nothing is perturbed, the run passes and says so.
    vo.test_perturb_kick = "1e-6@1000";
    CHECK(validate_with_backends(deck, vo, *a, *b) == 0);
    CHECK(contains(gt::test::file_text(vo.report),
                   "nothing perturbed: the candidate made fewer than 1001 kicks"));

    vo.test_perturb_kick = "one";
    CHECK_THROWS_WITH_AS(validate_with_backends(deck, vo, *a, *b),
                         doctest::Contains("expected REL or REL@KICK"), std::runtime_error);
}
