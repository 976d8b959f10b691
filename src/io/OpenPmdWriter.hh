// Beam phase space in openPMD 1.1.0 layout (groupBased, /data/<iteration>/particles/<species>/).
//
// Records follow ImpactX's output, so openPMD-viewer, openpmd-beamphysics and ImpactX analysis
// scripts read gtrack files: position/{x,y,t} [m] and momentum/{x,y,t} holding the dimensionless
// coordinates px = P_x / p_ref, py = P_y / p_ref, pt = -(E - E_ref) / (p_ref c) exactly as tracked
// (momentum unitSI = p_ref [kg m/s], so value * unitSI is SI momentum for x and y; momentum/t is pt);
// id, weighting (real particles per macroparticle), and constant charge and mass. The reference
// particle is stored as attributes of the species group. Full layout: docs/output.md.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "kernels/core/ReferenceParticle.hh"

namespace gt {

class OutputFile;

//! The alive particles of a beam on the host, one vector per coordinate (ParticleState.hh units).
struct PhaseSpaceHost {
    std::vector<double> x, px, y, py, t, pt;  //!< [m], [1], [m], [1], [m] (c (t - t_ref)), [1]
    std::vector<std::uint64_t> id;

    std::size_t size() const { return x.size(); }
};

//! A piece of a beam in host memory: the same particles' coordinates and ids (a chunk of one rank's
//! particles, or a whole PhaseSpaceHost).
struct PhaseSpacePiece {
    std::span<double const> x, px, y, py, t, pt;
    std::span<std::uint64_t const> id;

    std::size_t size() const { return x.size(); }
    static PhaseSpacePiece of(PhaseSpaceHost const& beam);
};

//! Writes the openPMD root attributes (openPMD, basePath, software, date...) once; later calls keep
//! them. write_phase_space calls it; a run may call it first to mark the file as openPMD.
void write_openpmd_root(OutputFile& out);

//! Writes /data/<iteration>/particles/<species>/. `where` names the element (or "end") after which
//! the beam was taken. Each macroparticle carries bunch_charge / (|q| macroparticles) real
//! particles, where `macroparticles` is the count the beam started with (lost ones included), so
//! the weight stays constant as particles are lost. Throws if the coordinate vectors differ in length
//! or the iteration exists already.
void write_phase_space(OutputFile& out, std::int64_t iteration, std::string const& species,
                       PhaseSpaceHost const& beam, ReferenceParticle const& ref, std::string const& where,
                       double bunch_charge, std::uint64_t macroparticles);

//! write_phase_space for a beam that comes in pieces (chunks from the GPU, ranks' shares): `total`
//! particles in all; `next()` gives the next piece (not empty), and is called until `total` have come.
//! A piece is written while the next one is fetched (on another thread), so a piece must stay valid
//! through the following call of next(). The file is the same as for one piece holding them all.
void write_phase_space_in_pieces(OutputFile& out, std::int64_t iteration, std::string const& species,
                                 std::uint64_t total, std::function<PhaseSpacePiece()> const& next,
                                 ReferenceParticle const& ref, std::string const& where, double bunch_charge,
                                 std::uint64_t macroparticles);

//! What read_phase_space found.
struct PhaseSpaceFile {
    PhaseSpaceHost beam;
    ReferenceParticle ref;          //!< as stored with the species
    std::vector<double> weighting;  //!< real particles per macroparticle, per particle
    double bunch_charge = 0;        //!< |q| * sum(weighting) [C]: the charge the particles in the file carry
    std::int64_t iteration = 0;
    std::string species;
    std::string where;  //!< element name stored with it ("" if the file has none)
};

//! Reads one species of one iteration (-1: the highest-numbered) of an openPMD file written by
//! gtrack (or ImpactX). `species` may be empty when the iteration holds exactly one. Throws IoError
//! naming the file and what is missing when the file is not openPMD or lacks a needed record.
PhaseSpaceFile read_phase_space(std::string const& path, std::int64_t iteration = -1,
                                std::string const& species = "");

}  // namespace gt
