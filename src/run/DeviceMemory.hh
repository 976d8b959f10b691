// How much GPU memory a beamline run needs, estimated from the deck before anything is allocated, and
// the check that turns "more than the GPU holds" into one clear error instead of a failed cudaMalloc
// part way through a run.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "deck/Config.hh"

namespace gt {

struct DeviceMemoryEstimate {
    struct Part {
        std::string what;    //!< "particles (1e+09 macroparticles)"
        double bytes = 0;    //!< [B]
        std::string change;  //!< the deck key that scales it ("beam.macroparticles")
    };
    std::vector<Part> parts;
    double macroparticles = 0;  //!< the count the per-particle parts are for
    double total() const;
};

//! The device memory of a beamline run of `deck` on the GPU: the particle state, and with space
//! charge its per-particle buffers (sort, gathered fields), the grids (charge, fields, the doubled
//! FFT grids and the transformed Green's function) and the FFT and sort work areas. An upper bound
//! for the buffers the CUDA backends allocate (kernels/cuda, kernels/spacecharge/SpaceChargeSolver.hh),
//! plus a fixed reserve for the CUDA libraries' own allocations.
DeviceMemoryEstimate estimate_beamline_device_memory(DeckConfig const& deck);

//! "" when `needed` fits in `free_bytes`, else the message: bytes needed (by part), free and total,
//! and what to change in the deck.
std::string device_memory_shortfall(DeviceMemoryEstimate const& needed, std::uint64_t free_bytes,
                                    std::uint64_t total_bytes, std::string const& device_name);

//! Throws std::runtime_error with device_memory_shortfall's message when the GPU (device 0) has too
//! little free memory for the estimate.
void check_device_memory(DeviceMemoryEstimate const& needed);

}  // namespace gt
