// The particle species a detector gun can shoot.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "kernels/physics/ParticleType.hh"

namespace gt {

//! e-, e+, mu-, mu+, pi-, pi+, proton, antiproton, gamma (and electron, positron as aliases).
std::vector<std::string> detector_particle_names();
std::optional<ParticleType> find_detector_particle(std::string const& name);

}  // namespace gt
