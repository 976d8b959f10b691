// Particle species a detector run tracks: rest energy and charge.
#pragma once

#include <cstdint>

namespace gt {

struct ParticleType {
    double mass = 0;               //!< rest energy [MeV]
    double charge = 0;             //!< [e]
    std::int32_t is_electron = 0;  //!< e- or e+: Berger-Seltzer energy loss
};

}  // namespace gt
