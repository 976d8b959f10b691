// Space-charge solvers that wrap another for `gtrack validate`: a forwarding base, the reference's
// kick meter (the sizes of the kicks, for the default tolerance) and the test-only perturbation of one
// particle's kick on the candidate (`gtrack validate --test-perturb-kick`), which shows that validate
// fails a real defect on the GPU as it does on the CPU stand-in of the tests.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "kernels/spacecharge/SpaceChargeKernels.hh"
#include "compare/RoundOffTolerance.hh"

namespace gt {

//! A solver that forwards every call to `inner`: derived classes override what they change (kick()).
class ForwardingSpaceCharge : public SpaceChargeKernels {
  public:
    explicit ForwardingSpaceCharge(std::unique_ptr<SpaceChargeKernels> inner) : inner_(std::move(inner)) {}
    MemSpace memory() const override { return inner_->memory(); }
    std::string description() const override { return inner_->description(); }
    SpaceChargeDiagnostics kick(ParticleView p, SpaceChargeSettings const& settings, BeamFrame const& frame,
                                double ds) override
    {
        return inner_->kick(p, settings, frame, ds);
    }
    SpaceChargeDiagnostics probe_field(ParticleView p, SpaceChargeSettings const& settings,
                                       BeamFrame const& frame, std::vector<FieldProbe>& probes) override
    {
        return inner_->probe_field(p, settings, frame, probes);
    }
    std::vector<double> charge_grid() const override { return inner_->charge_grid(); }
    KernelTimer const& timer() const override { return inner_->timer(); }
    SpaceChargeCache cache() const override { return inner_->cache(); }
    void restore_cache(SpaceChargeCache const& cache) override { inner_->restore_cache(cache); }

  protected:
    SpaceChargeKernels& inner() { return *inner_; }

  private:
    std::unique_ptr<SpaceChargeKernels> inner_;
};

//! px, py, pt of every particle before a kick, by id (a kick may sort the particles by cell), copied to
//! the host when the particles live on the device.
class MomentaById {
  public:
    void record(ParticleView p, MemSpace space);
    //! Coordinate c (0: px, 1: py, 2: pt) of particle `id` when recorded.
    double operator()(std::uint64_t id, std::size_t c) const { return momenta_[3 * id + c]; }

  private:
    std::vector<double> momenta_;
};

//! A host copy of a view's momenta, ids and loss flags (the view itself when it is on the host).
struct HostMomenta {
    std::vector<double> px, py, pt;
    std::vector<std::uint64_t> id;
    std::vector<std::int32_t> lost_element;
    HostMomenta(ParticleView p, MemSpace space);
};

//! The reference's solver, measuring the largest momentum change of each kick per coordinate (px, py,
//! pt) into `record`, placed at `s` (the last compared stage's). Host particles only: the kicks of a
//! solver in device memory pass unmeasured.
class KickMeter final : public ForwardingSpaceCharge {
  public:
    KickMeter(std::unique_ptr<SpaceChargeKernels> inner, KickRoundOff& record, double const& s)
        : ForwardingSpaceCharge(std::move(inner)), record_(record), s_(s)
    {
    }
    SpaceChargeDiagnostics kick(ParticleView p, SpaceChargeSettings const& settings, BeamFrame const& frame,
                                double ds) override;

  private:
    KickRoundOff& record_;
    double const& s_;
    MomentaById before_;
};

//! A defect planted on purpose, a testing aid: in kick number `kick` (counted from 0) of the solver,
//! the live particle whose px changed most gets its momentum change (px, py, pt) scaled by
//! (1 + relative). relative = 0: none.
struct KickPerturbation {
    double relative = 0;
    long kick = 5;
    bool active() const { return relative != 0; }
    //! Parses "REL" or "REL@KICK" (--test-perturb-kick); throws std::invalid_argument.
    static KickPerturbation parse(std::string const& text);
};

//! `inner` with the perturbation applied, on host or device particles (the one changed value is
//! written back where the particles live). `applied` receives what was done once it is done.
class PerturbedKicks final : public ForwardingSpaceCharge {
  public:
    PerturbedKicks(std::unique_ptr<SpaceChargeKernels> inner, KickPerturbation const& perturbation,
                   std::string& applied)
        : ForwardingSpaceCharge(std::move(inner)), perturbation_(perturbation), applied_(applied)
    {
    }
    std::string description() const override;
    SpaceChargeDiagnostics kick(ParticleView p, SpaceChargeSettings const& settings, BeamFrame const& frame,
                                double ds) override;

  private:
    KickPerturbation perturbation_;
    std::string& applied_;
    long kicks_ = 0;
    MomentaById before_;
};

}  // namespace gt
