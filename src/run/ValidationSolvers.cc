// The solvers that wrap another for `gtrack validate` (ValidationSolvers.hh).
#include "run/ValidationSolvers.hh"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include <fmt/format.h>

#include "kernels/core/Device.hh"

namespace gt {

namespace {

template <class T>
std::vector<T> to_host(T const* data, size_type n, MemSpace space)
{
    std::vector<T> v(n);
    if (n == 0) return v;
    if (space == MemSpace::device)
        device::copy_to_host(v.data(), data, n * sizeof(T));
    else
        std::copy_n(data, n, v.data());
    return v;
}

//! Writes one value where the particles live.
void write_one(double* at, double value, MemSpace space)
{
    if (space == MemSpace::device)
        device::copy_to_device(at, &value, sizeof value);
    else
        *at = value;
}

}  // namespace

HostMomenta::HostMomenta(ParticleView p, MemSpace space)
    : px(to_host(p.px, p.size, space)),
      py(to_host(p.py, p.size, space)),
      pt(to_host(p.pt, p.size, space)),
      id(to_host(p.id, p.size, space)),
      lost_element(to_host(p.lost_element, p.size, space))
{
}

void MomentaById::record(ParticleView p, MemSpace space)
{
    HostMomenta const h(p, space);
    std::uint64_t max_id = 0;
    for (auto const id : h.id) max_id = std::max(max_id, id);
    momenta_.assign(3 * (max_id + 1), 0.0);
    for (std::size_t i = 0; i < h.id.size(); ++i) {
        momenta_[3 * h.id[i]] = h.px[i];
        momenta_[3 * h.id[i] + 1] = h.py[i];
        momenta_[3 * h.id[i] + 2] = h.pt[i];
    }
}

SpaceChargeDiagnostics KickMeter::kick(ParticleView p, SpaceChargeSettings const& settings,
                                       BeamFrame const& frame, double ds)
{
    if (memory() != MemSpace::host) return inner().kick(p, settings, frame, ds);
    before_.record(p, MemSpace::host);
    SpaceChargeDiagnostics const d = inner().kick(p, settings, frame, ds);
    double largest[3] = {0, 0, 0};
    for (size_type i = 0; i < p.size; ++i) {
        if (p.lost_element[i] >= 0) continue;
        double const now[3] = {p.px[i], p.py[i], p.pt[i]};
        for (std::size_t c = 0; c < 3; ++c)
            largest[c] = std::max(largest[c], std::abs(now[c] - before_(p.id[i], c)));
    }
    record_.add_kick(s_, largest);
    return d;
}

KickPerturbation KickPerturbation::parse(std::string const& text)
{
    KickPerturbation k;
    std::size_t const at = text.find('@');
    std::string const rel = text.substr(0, at);
    std::size_t used = 0;
    try {
        k.relative = std::stod(rel, &used);
        if (used != rel.size()) throw std::invalid_argument(rel);
        if (at != std::string::npos) {
            std::string const kick = text.substr(at + 1);
            k.kick = std::stol(kick, &used);
            if (used != kick.size()) throw std::invalid_argument(kick);
        }
    } catch (std::logic_error const&) {
        throw std::invalid_argument(fmt::format(
            "--test-perturb-kick: expected REL or REL@KICK (e.g. 1e-6 or 1e-6@5), got '{}'", text));
    }
    if (!std::isfinite(k.relative) || k.kick < 0)
        throw std::invalid_argument(fmt::format(
            "--test-perturb-kick: REL must be finite and KICK a kick number >= 0, got '{}'", text));
    return k;
}

std::string PerturbedKicks::description() const
{
    return ForwardingSpaceCharge::description() +
           fmt::format(" (TESTING AID: kick {} of one particle perturbed by {:g})", perturbation_.kick,
                       perturbation_.relative);
}

SpaceChargeDiagnostics PerturbedKicks::kick(ParticleView p, SpaceChargeSettings const& settings,
                                            BeamFrame const& frame, double ds)
{
    if (kicks_++ != perturbation_.kick) return inner().kick(p, settings, frame, ds);
    MemSpace const space = memory();
    before_.record(p, space);
    SpaceChargeDiagnostics const d = inner().kick(p, settings, frame, ds);
    HostMomenta const now(p, space);
    // The live particle whose px changed most: a particle kicked 1e-3 as hard as the largest could not
    // be told from the FFT's round-off at 1e-6 of its own kick (the tolerance scales with the largest).
    std::size_t most = now.id.size();
    double most_change = -1;
    for (std::size_t i = 0; i < now.id.size(); ++i) {
        if (now.lost_element[i] >= 0) continue;
        if (double const change = std::abs(now.px[i] - before_(now.id[i], 0)); change > most_change) {
            most_change = change;
            most = i;
        }
    }
    if (most == now.id.size()) {
        applied_ =
            fmt::format("nothing perturbed: no live particle in the candidate's kick {}", perturbation_.kick);
        return d;
    }
    double* const at[3] = {p.px + most, p.py + most, p.pt + most};
    double const after[3] = {now.px[most], now.py[most], now.pt[most]};
    for (std::size_t c = 0; c < 3; ++c) {
        double const b = before_(now.id[most], c);
        write_one(at[c], b + (after[c] - b) * (1 + perturbation_.relative), space);
    }
    applied_ = fmt::format(
        "the candidate's kick {} (from 0) of particle id {} (|dpx| {:.3g}, the largest) scaled by 1 + {:g}",
        perturbation_.kick, now.id[most], most_change, perturbation_.relative);
    return d;
}

}  // namespace gt
