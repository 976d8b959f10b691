// The beam particles a joined beamline-detector run hands to its detector (run/BeamDetectorRun.hh): where
// each was lost (or left the line), in the global survey frame, with its direction and kinetic energy.
#pragma once

#include <cstdint>
#include <vector>

#include "beam/Lattice.hh"
#include "beam/Survey.hh"
#include "deck/Config.hh"
#include "io/TableWriter.hh"
#include "kernels/core/ParticleState.hh"
#include "kernels/detector/ParticleGun.hh"

namespace gt {

struct BeamPrimaries {
    std::vector<Primary> primaries;  //!< primary i is event i
    Table table;                     //!< /primaries: the link from each primary to its beam particle
    std::vector<double> energy;      //!< [MeV] kinetic energy of primary i (the beam's, in double)
    std::uint64_t lost = 0;          //!< the first `lost` primaries were lost; the rest were extracted
    double weight = 0;               //!< real particles per macroparticle: bunch charge / (|q| e N)
    double lost_energy = 0;          //!< [MeV] sum of the lost ones' kinetic energies
    double extracted_energy = 0;     //!< [MeV] sum of the extracted ones'
};

//! Where a particle lost in entry `entry` met the material, as (along, coordinates): a collimator's loss is
//! at its entrance face when the particle was outside there, otherwise where its straight path through the
//! collimator left the aperture (inside the jaw); any other entry's, at its exit (thin apertures: at them).
struct LossPoint {
    double along = 0;  //!< [m] into the entry
    Particle p{};      //!< coordinates there
};
LossPoint loss_point(Element const& e, double length, Particle const& stored, ReferenceParticle const& ref);

//! The primaries of `particles` (the beam after tracking, on the host, one rank's: all of them): the lost
//! ones in id order, then, with `extracted`, the surviving ones at the exit of the line in id order.
//! `particle` is the detector's index of the beam's species.
BeamPrimaries beam_primaries(DeckConfig const& deck, Lattice const& lattice, Survey const& survey,
                             ParticleState const& particles, std::int32_t particle);

}  // namespace gt
