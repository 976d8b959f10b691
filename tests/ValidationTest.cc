// gtrack validate's comparison, tested without a GPU: the "GPU" is a second CPU backend, optionally
// wrapped to perturb its results after a chosen element (the test-only injection point is the
// backend argument of validate_beamline / validate_with_backends).
#include <doctest/doctest.h>

#include <cmath>
#include <cstdio>
#include <string>

#include "CommandTestSupport.hh"
#include "IoTestSupport.hh"
#include "TextTestSupport.hh"
#include "app/ValidateCommand.hh"
#include "deck/DeckReader.hh"
#include "kernels/core/Device.hh"
#include "run/Validation.hh"

using namespace gt;

namespace {

//! A CPU backend whose results are perturbed after table entry `entry`: one coordinate of one particle
//! is moved by `relative` (or by one ulp when relative == 0), or the particle is marked lost there.
class PerturbedBeamKernels final : public BeamKernels {
  public:
    enum class What { nothing, coordinate_x, coordinate_pt, loss };

    PerturbedBeamKernels(What what, size_type entry, size_type particle, double relative = 0)
        : inner_(make_cpu_beam_kernels()),
          what_(what),
          entry_(entry),
          particle_(particle),
          relative_(relative)
    {
    }
    MemSpace memory() const override { return inner_->memory(); }
    std::string description() const override { return "fake-gpu (cpu with a planted perturbation)"; }
    void generate(ParticleView p, BeamSampler const& s, std::uint64_t first_id) override
    {
        inner_->generate(p, s, first_id);
    }
    void set_elements(std::vector<Element> const& e, std::vector<double> const& f) override
    {
        inner_->set_elements(e, f);
    }
    void track(ParticleView p, size_type begin, size_type end, std::int32_t turn) override
    {
        inner_->track(p, begin, end, turn);
        if (what_ == What::nothing || turn != 0 || entry_ < begin || entry_ >= end) return;
        auto const bump = [&](double& v) {
            v = relative_ == 0 ? std::nextafter(v, HUGE_VAL) : v * (1 + relative_);
        };
        if (what_ == What::coordinate_x) bump(p.x[particle_]);
        if (what_ == What::coordinate_pt) bump(p.pt[particle_]);
        if (what_ == What::loss) {
            p.lost_element[particle_] = std::int32_t(entry_);
            p.lost_turn[particle_] = turn;
        }
    }
    double time_bunch_begin(ParticleView p, size_type entry) override
    {
        return inner_->time_bunch_begin(p, entry);
    }
    std::array<double, 3> time_bunch_step(ParticleView p, size_type entry, double k) override
    {
        return inner_->time_bunch_step(p, entry, k);
    }
    void time_bunch_positions(ParticleView p, size_type entry, double k, double inv_beta_b,
                              ParticleView out) override
    {
        inner_->time_bunch_positions(p, entry, k, inv_beta_b, out);
    }
    void time_bunch_kick(ParticleView kicks, size_type entry, double inv_beta_b) override
    {
        inner_->time_bunch_kick(kicks, entry, inv_beta_b);
    }
    void time_bunch_finish(ParticleView p, size_type entry, std::int32_t turn) override
    {
        inner_->time_bunch_finish(p, entry, turn);
    }
    BeamMoments moments(ParticleView p) override { return inner_->moments(p); }
    size_type count(ParticleView p, bool alive) override { return inner_->count(p, alive); }
    ParticleView gather_to_host(ParticleView p, size_type begin, size_type end, bool alive) override
    {
        return inner_->gather_to_host(p, begin, end, alive);
    }
    KernelTimer const& timer() const override { return inner_->timer(); }

  private:
    std::unique_ptr<BeamKernels> inner_;
    What what_;
    size_type entry_, particle_;
    double relative_;
};

std::string const k_deck = R"(
[run]
name = "validate_test"
seed = 77
[beam]
particle = "proton"
kinetic_energy = "250 MeV"
macroparticles = 400
[beam.twiss]
beta_x = 8.0
emittance_x = "1 um"
beta_y = 2.0
emittance_y = "1 um"
sigma_t = "1 mm"
sigma_pt = 1e-3
[elements]
QF = { type = "quadrupole", length = 0.5, k1 = 1.2, slices = 2 }
D = { type = "drift", length = 1.0 }
QD = { type = "quadrupole", length = 0.5, k1 = -1.2 }
B = { type = "sbend", length = 1.0, angle = 0.05, e1 = 0.02, fint = 0.5, hgap = 0.02 }
AP = { type = "aperture", shape = "ellipse", half_x = "3 mm", half_y = "3 mm" }
[lattice]
line = ["QF", "D", "QD", "D", "B", "AP"]
)";

DeckConfig test_deck() { return read_deck_text(k_deck, "validate_test.toml"); }

using gt::test::contains;

}  // namespace

TEST_CASE("validate: two identical backends agree bit for bit at every slice")
{
    DeckConfig const deck = test_deck();
    auto a = make_cpu_beam_kernels();
    PerturbedBeamKernels b(PerturbedBeamKernels::What::nothing, 0, 0);
    ValidationResult const r = validate_beamline(deck, *a, b, ValidationOptions{});
    // Stage 0 (initial beam) + one stage per table entry: QF x2, D, QD, D, B (entry edge, body, exit
    // edge), AP.
    CHECK(r.stages.size() == 1 + 9);
    CHECK(r.ok());
    CHECK(r.macroparticles == 400);
    for (auto const& s : r.stages) {
        CHECK(s.particles_outside == 0);
        CHECK(s.stats.differing == 0);
        for (auto const& c : s.coordinate) CHECK(c.differing == 0);
        CHECK(s.alive_reference == s.alive_candidate);
    }
    CHECK(r.stages.back().alive_reference < 400);  // the aperture removed some: loss records were compared
    CHECK(contains(validation_verdict(r), "PASS"));
    CHECK(contains(validation_verdict(r), "bit for bit"));
}

TEST_CASE("validate: the totals also without each kernel's first call")
{
    DeckConfig const deck = test_deck();
    auto a = make_cpu_beam_kernels();
    PerturbedBeamKernels b(PerturbedBeamKernels::What::nothing, 0, 0);
    ValidationResult r = validate_beamline(deck, *a, b, ValidationOptions{});
    // Planted times: 0.5 s in 5 calls of which the first took 0.3 s, against 0.4 s with a 0.1 s first
    // call: 0.2 s and 0.3 s after the first calls.
    r.reference_kernels = {{"track", KernelRecord{.seconds = 0.5, .calls = 5, .first_seconds = 0.3}}};
    r.candidate_kernels = {{"track", KernelRecord{.seconds = 0.4, .calls = 5, .first_seconds = 0.1}}};
    r.reference_seconds = 0.5;
    r.candidate_seconds = 0.4;
    std::string const summary = validation_summary(r);
    INFO(summary);
    CHECK(contains(summary, "totals: 0.5 s on"));
    CHECK(contains(summary, "after the first calls: 0.2 s on"));
    CHECK(contains(summary, ", 0.3 s on"));
    CHECK(contains(summary, "(the first calls, 0.3 s and 0.1 s, left out)"));
}

TEST_CASE("validate: one ulp on one particle after one element fails, at that stage")
{
    DeckConfig const deck = test_deck();
    auto a = make_cpu_beam_kernels();
    PerturbedBeamKernels b(PerturbedBeamKernels::What::coordinate_x, 3, 17);
    ValidationResult const r = validate_beamline(deck, *a, b, ValidationOptions{});
    REQUIRE(!r.ok());
    StageComparison const* first = r.first_failure();
    REQUIRE(first != nullptr);
    CHECK(first->entry == 3);  // QD
    CHECK(first->name == "QD");
    CHECK(first->particles_outside == 1);
    CHECK(first->particles_differing == 1);
    CHECK(first->coordinate[0].outside == 1);
    CHECK(first->coordinate[0].worst == 17);
    CHECK(first->coordinate[1].differing == 0);  // px untouched at that stage
    // Earlier stages agree.
    for (auto const& s : r.stages)
        if (s.index < first->index) CHECK(s.ok());
    CHECK(contains(validation_verdict(r), "FAIL"));
    CHECK(contains(validation_verdict(r), "element QD"));
}

TEST_CASE("validate: tolerances accept a planted difference just inside and reject it just outside")
{
    DeckConfig const deck = test_deck();
    // pt of particle 5 multiplied by (1 + 1e-10) after the last entry (AP), so that the only differences
    // are that pt (relative 1e-10) and the statistics of pt it changes (relative < 1e-10).
    auto run = [&](std::vector<std::pair<std::string, std::string>> const& options) {
        auto a = make_cpu_beam_kernels();
        PerturbedBeamKernels b(PerturbedBeamKernels::What::coordinate_pt, 8, 5, 1e-10);
        ValidationOptions o;
        for (auto const& [opt, value] : options) o.tolerances.add_option(opt, value);
        return validate_beamline(deck, *a, b, o);
    };
    ValidationResult const inside = run({{"--rtol", "2e-10"}});
    INFO(validation_summary(inside));
    CHECK(inside.ok());
    CHECK(contains(validation_verdict(inside), "within tolerance"));
    CHECK(inside.stages.back().particles_differing == 1);  // differs in its last bits, within tolerance
    CHECK(inside.stages.back().particles_outside == 0);
    ValidationResult const outside = run({{"--rtol", "0.5e-10"}});
    CHECK(!outside.ok());
    REQUIRE(outside.first_failure() != nullptr);
    CHECK(outside.first_failure()->index == 9);
    CHECK(outside.first_failure()->coordinate[5].outside == 1);
    // Per quantity: pt is allowed, the statistics stay bitwise, and the changed moments of pt fail.
    ValidationResult const pt_only = run({{"--rtol", "pt=2e-10"}});
    REQUIRE(!pt_only.ok());
    CHECK(pt_only.first_failure()->coordinate[5].outside == 0);
    CHECK(pt_only.first_failure()->coordinate[5].differing == 1);
    CHECK(pt_only.first_failure()->stats_outside > 0);
    CHECK(run({{"--rtol", "pt=2e-10"}, {"--rtol", "stats/*=2e-10"}}).ok());
}

TEST_CASE("validate: a particle lost on one backend only is a failure of the loss records")
{
    DeckConfig const deck = test_deck();
    auto a = make_cpu_beam_kernels();
    PerturbedBeamKernels b(PerturbedBeamKernels::What::loss, 1, 3);
    ValidationOptions o;
    o.tolerances.add_option("--rtol", "1");  // even a huge tolerance on values does not excuse loss records
    ValidationResult const r = validate_beamline(deck, *a, b, o);
    REQUIRE(!r.ok());
    CHECK(r.first_failure()->entry == 1);
    CHECK(r.first_failure()->loss_records_differing == 1);
    CHECK(r.first_failure()->alive_candidate == r.first_failure()->alive_reference - 1);
}

TEST_CASE("validate_with_backends: exit status, condensed summary and the report file")
{
    gt::test::TempDir dir;
    DeckConfig deck = test_deck();
    ValidateOptions vo;
    vo.report = dir.file("report.md");
    vo.rows = 4;  // fewer than the 10 stages: the terminal table is condensed by deck element
    {
        auto a = make_cpu_beam_kernels();
        PerturbedBeamKernels b(PerturbedBeamKernels::What::nothing, 0, 0);
        CHECK(validate_with_backends(deck, vo, *a, b) == 0);
        std::string const report = gt::test::file_text(vo.report);
        CHECK(contains(report, "**PASS"));
        CHECK(contains(report, "## Every stage"));
        CHECK(contains(report, "| 9 | 0 | 8 | AP |"));  // the last stage's row
    }
    {
        auto a = make_cpu_beam_kernels();
        PerturbedBeamKernels b(PerturbedBeamKernels::What::coordinate_x, 4, 0);
        CHECK(validate_with_backends(deck, vo, *a, b) == 1);
        CHECK(contains(gt::test::file_text(vo.report), "**FAIL"));
    }
    vo.rtol = {"x=not-a-number"};
    auto a = make_cpu_beam_kernels();
    auto b = make_cpu_beam_kernels();
    CHECK_THROWS_WITH_AS(validate_with_backends(deck, vo, *a, *b),
                         doctest::Contains("expected a number >= 0"), std::runtime_error);
}

TEST_CASE("gtrack validate without a GPU says so and exits non-zero; with one, the backends agree")
{
    gt::test::TempDir dir;
    std::string const report = dir.file("fodo-validate.md");
    gt::test::CommandResult const r =
        gt::test::run_gtrack(std::string("validate ") + GTRACK_SOURCE_DIR +
                             "/inputs/fodo.toml --set beam.macroparticles=500 --report " + report);
    std::string const& output = r.output;
    REQUIRE(r.status >= 0);
    if (device::count() == 0) {
        CHECK(r.status == 77);
        CHECK(contains(output, "no GPU to validate against"));
        CHECK(!gt::test::file_exists(report));
    } else {
        INFO(output);
        CHECK(r.status == 0);
        CHECK(contains(output, "verdict: PASS"));
        CHECK(gt::test::file_exists(report));
    }
}
