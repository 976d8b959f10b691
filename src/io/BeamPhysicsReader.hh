// Particles written by other codes in the openPMD BeamPhysics layout (openpmd-beamphysics, Bmad, Impact-T,
// GPT, ...): absolute SI positions, momenta and times, converted to gtrack's coordinates relative to a
// reference particle the deck gives. gtrack's own files (with momentum/t) are read by read_phase_space.
#pragma once

#include <cstdint>
#include <string>

#include "io/OpenPmdWriter.hh"

namespace gt {

//! True when the file's particles carry gtrack's (ImpactX's) coordinates, i.e. the species group has
//! momentum/t: then read_phase_space reads it bit for bit. False for a BeamPhysics file of another
//! code. Throws IoError when the file is not openPMD or holds no particles.
bool holds_gtrack_coordinates(std::string const& path);

//! Reads the alive particles (particleStatus 1) of one BeamPhysics file (the last iteration when it has
//! several, its only species) into gtrack coordinates relative to `ref`: px = P_x / p_ref,
//! pt = -(E - E_ref) / (p_ref c), and every particle drifted in free space to one plane, z0 = the
//! weight-mean z (no drift when all z are equal, as in a fixed-s snapshot); t = c (t_arrival - t0) with
//! t0 the weight-mean arrival time at that plane, so the reference particle is at the bunch centroid.
//! Throws IoError naming the file when the species is not `ref`'s, a record is missing, a unit
//! dimension is not the one BeamPhysics prescribes, or records differ in length.
PhaseSpaceFile read_beamphysics(std::string const& path, ReferenceParticle const& ref);

//! How many particles a beam file gives (distribution = "file"), without reading the coordinates: the
//! length of momentum/t in gtrack's own files (the last iteration), the alive particles (particleStatus
//! 1, or all of position/x without it) in a BeamPhysics file. Throws IoError naming the file when it
//! cannot be read or holds no particles.
std::uint64_t count_beam_file_particles(std::string const& path);

}  // namespace gt
