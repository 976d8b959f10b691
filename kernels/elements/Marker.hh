// Marker and monitor: no-op entries that name a place in the lattice (monitors are output points).
#pragma once

#include "kernels/core/Macros.hh"
#include "kernels/core/ParticleState.hh"

namespace gt {

struct Marker {
    GT_HOST_DEVICE GT_FORCEINLINE bool operator()(Particle&) const { return true; }
};

}  // namespace gt
