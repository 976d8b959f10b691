// The beam particles a joined beamline-detector run hands to its detector (run/BeamDetectorRun.hh): where
// each was lost (or left the line), in the global survey frame, with its direction and kinetic energy.
#pragma once

#include <cstdint>
#include <vector>

#include "beam/Lattice.hh"
#include "beam/Survey.hh"
#include "deck/Config.hh"
#include "io/TableWriter.hh"
#include "kernels/beam/BeamKernels.hh"
#include "kernels/core/ParticleState.hh"
#include "kernels/detector/ParticleGun.hh"

namespace gt {

//! The primaries of a joined run. Under MPI each rank holds its share of them (the detector's events,
//! parallel::even_share), and the counts and sums of all ranks: the global list is the one a single
//! process makes, the lost particles in id order, then the extracted ones in id order.
struct BeamPrimaries {
    std::vector<Primary> primaries;  //!< this rank's events: event first_event + i is primaries[i]
    std::uint64_t first_event = 0;   //!< the global number of primaries[0] (0 on one process)
    std::uint64_t events = 0;        //!< primaries of every rank: the detector's events
    //! /primaries, the link from each primary to its beam particle: this rank's lost particles' rows and
    //! its extracted ones' (the table is every rank's lost rows in rank order, then their extracted rows)
    Table lost_rows, extracted_rows;
    std::uint64_t lost = 0;       //!< the first `lost` primaries were lost (every rank's); the rest extracted
    double weight = 0;            //!< real particles per macroparticle: bunch charge / (|q| e N)
    double lost_energy = 0;       //!< [MeV] sum of the lost ones' kinetic energies, in event order
    double extracted_energy = 0;  //!< [MeV] sum of the extracted ones', in event order
};

//! Where a particle lost in entry `entry` met the material, as (along, coordinates): a collimator's loss is
//! at its entrance face when the particle was outside there, otherwise where its straight path through the
//! collimator left the aperture (inside the jaw); any other entry's, at its exit (thin apertures: at them).
struct LossPoint {
    double along = 0;  //!< [m] into the entry
    Particle p{};      //!< coordinates there
};
LossPoint loss_point(Element const& e, double length, Particle const& stored, ReferenceParticle const& ref);

//! The primaries of this rank's `particles` (the beam after tracking, in the backend's memory; only the
//! lost ones, and with `extracted` the surviving ones, cross to the host). Collective under MPI: ranks
//! hold consecutive ranges of particle ids (parallel/ParticleDecomposition.hh), so every rank's lost
//! particles in id order, in rank order, are the global lost list; the primaries then move to the ranks
//! whose events they are (parallel/Redistribution.hh). `particle` is the detector's index of the beam's
//! species.
BeamPrimaries beam_primaries(DeckConfig const& deck, Lattice const& lattice, Survey const& survey,
                             BeamKernels& kernels, ParticleView particles, std::int32_t particle);

}  // namespace gt
