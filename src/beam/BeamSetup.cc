// From the deck's [beam] to a device-ready sampler: the 6x6 second-moment matrix and its Cholesky factor.
#include "beam/BeamSetup.hh"

#include <cmath>
#include <stdexcept>

#include <fmt/format.h>

#include "deck/DeckError.hh"
#include "io/BeamPhysicsReader.hh"
#include "io/OpenPmdWriter.hh"
#include "kernels/core/Types.hh"

namespace gt {

Matrix6 beam_sigma_matrix(BeamConfig const& beam)
{
    if (beam.periodic)  // a programming error: the beam is made from optics::with_periodic_twiss(deck)
        throw std::logic_error("beam_sigma_matrix: [beam.twiss] periodic = true was not resolved");
    Matrix6 s{};
    if (beam.sigma_matrix) {
        for (int i = 0; i < 6; ++i)
            for (int j = 0; j < 6; ++j) s[i][j] = (*beam.sigma_matrix)[static_cast<std::size_t>(6 * i + j)];
        return s;
    }
    auto plane = [&s](TwissPlane const& p, int k) {
        double const gamma = (1.0 + p.alpha * p.alpha) / p.beta;
        s[k][k] = p.emittance * p.beta;
        s[k][k + 1] = s[k + 1][k] = -p.emittance * p.alpha;
        s[k + 1][k + 1] = p.emittance * gamma;
    };
    plane(beam.x, 0);
    plane(beam.y, 2);
    // pt = chirp t + (uncorrelated part of rms sigma_pt).
    double const st2 = beam.sigma_t * beam.sigma_t;
    s[4][4] = st2;
    s[4][5] = s[5][4] = beam.chirp * st2;
    s[5][5] = beam.sigma_pt * beam.sigma_pt + beam.chirp * beam.chirp * st2;
    return s;
}

Matrix6 cholesky_lower(Matrix6 const& sigma, BeamConfig const& beam)
{
    Matrix6 l{};
    for (int j = 0; j < 6; ++j) {
        double d = sigma[j][j];
        for (int k = 0; k < j; ++k) d -= l[j][k] * l[j][k];
        // Round-off on a semi-definite matrix leaves tiny negative pivots: treat those as zero.
        double const scale = std::abs(sigma[j][j]);
        if (d < -1e-12 * scale || (scale == 0.0 && d < 0.0)) {
            throw DeckError(beam.where, "beam",
                            fmt::format("the beam's second-moment matrix is not positive semi-definite "
                                        "(pivot {} of the Cholesky factorization is {:.3g})",
                                        j + 1, d));
        }
        l[j][j] = d > 0.0 ? std::sqrt(d) : 0.0;
        for (int i = j + 1; i < 6; ++i) {
            double v = sigma[i][j];
            for (int k = 0; k < j; ++k) v -= l[i][k] * l[j][k];
            l[i][j] = l[j][j] > 0.0 ? v / l[j][j] : 0.0;
        }
    }
    return l;
}

BeamSampler make_beam_sampler(BeamConfig const& beam, std::uint64_t seed)
{
    BeamSampler sampler{};
    if (beam.distribution == "cathode") {
        CathodeConfig const& c = beam.cathode;
        sampler.kind = DistributionKind::cathode;
        sampler.seed = seed;
        sampler.truncate = beam.truncate;
        sampler.cathode.uniform_spot = c.spot == "uniform" ? 1 : 0;
        sampler.cathode.flattop = c.emission == "flattop" ? 1 : 0;
        sampler.cathode.spot_rms = c.spot_rms;
        sampler.cathode.length = c.emission_length * constants::c_light;
        sampler.cathode.rise = c.emission_rise * constants::c_light;
        sampler.cathode.thermal = std::sqrt(c.mte / beam.species.mass_mev);
        return sampler;
    }
    if (beam.distribution == "gaussian") {
        sampler.kind = DistributionKind::gaussian;
    } else if (beam.distribution == "kv") {
        sampler.kind = DistributionKind::kv;
    } else if (beam.distribution == "waterbag") {
        sampler.kind = DistributionKind::waterbag;
    } else if (beam.distribution == "semigaussian") {
        sampler.kind = DistributionKind::semigaussian;
    } else if (beam.distribution == "kurth") {
        sampler.kind = DistributionKind::kurth;
    } else {
        throw DeckError(beam.where, "beam.distribution",
                        fmt::format("no sampler for distribution '{}'", beam.distribution));
    }
    sampler.seed = seed;
    sampler.truncate = beam.truncate;
    auto const l = cholesky_lower(beam_sigma_matrix(beam), beam);
    for (int i = 0; i < 6; ++i)
        for (int j = 0; j < 6; ++j) sampler.cholesky[i][j] = l[i][j];
    return sampler;
}

ReferenceParticle initial_reference(DeckConfig const& deck)
{
    BeamConfig const& beam = deck.beam;
    ReferenceParticle ref = ReferenceParticle::from_kinetic(beam.species.mass_mev, beam.species.charge_e,
                                                            beam.kinetic_energy_mev);
    if (beam.distribution != "file") return ref;
    // Another code's BeamPhysics file has no reference particle: the deck's is used (read_beamphysics
    // checks the species).
    if (!holds_gtrack_coordinates(beam.file)) return ref;
    PhaseSpaceFile const file = read_phase_space(beam.file);
    auto const differs = [](double a, double b) { return std::abs(a - b) > 1e-9 * std::abs(b); };
    if (differs(file.ref.mass_mev, ref.mass_mev) || differs(file.ref.charge_e, ref.charge_e))
        throw DeckError(
            beam.where, "beam.particle",
            fmt::format("the particles in '{}' have rest energy {:.9g} MeV and charge {:g} e, the "
                        "deck's species {:.9g} MeV and {:g} e",
                        beam.file, file.ref.mass_mev, file.ref.charge_e, ref.mass_mev, ref.charge_e));
    if (differs(file.ref.kinetic_mev, ref.kinetic_mev))
        throw DeckError(
            beam.where, "beam.kinetic_energy",
            fmt::format("the reference in '{}' has {:.12g} MeV kinetic energy, the deck {:.12g} MeV: "
                        "set the deck's energy to the file's",
                        beam.file, file.ref.kinetic_mev, ref.kinetic_mev));
    return file.ref;
}

}  // namespace gt
