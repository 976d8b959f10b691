// The expanding uniform sphere run through a deck: a cold sphere of protons written as a particle
// file, and the deck that drifts it 1 m with space charge (SpaceChargeRunTest, TimeCodeSpaceChargeTest).
#pragma once

#include <cstdio>
#include <string>

#include "io/OpenPmdWriter.hh"
#include "io/OutputFile.hh"
#include "kernels/core/ReferenceParticle.hh"
#include "tests/SpaceChargeTestSupport.hh"

namespace gt::test {

//! A cold uniform sphere of `n` protons of radius R [m] in the rest frame at `kinetic` [MeV], written
//! as a particle file at `path`; returns the bunch charge [C] that gives the envelope constant K [m].
inline double write_sphere(std::string const& path, std::size_t n, double R, double kinetic, double K)
{
    BeamFrame const frame = proton_frame(kinetic, 1.0);
    double const bg = frame.beta * frame.gamma;
    double const mc2 = frame.mass * constants::c_light * constants::c_light;
    double const Q = K * 4 * constants::pi * constants::eps0 * mc2 * bg * bg / frame.charge;
    Lcg rng{77};
    PhaseSpaceHost beam;
    while (beam.size() < n) {
        double const x = 2 * rng.next() - 1, y = 2 * rng.next() - 1, z = 2 * rng.next() - 1;
        if (x * x + y * y + z * z > 1.0) continue;
        beam.x.push_back(R * x);
        beam.y.push_back(R * y);
        beam.t.push_back(R * z / frame.rest_z());
        beam.px.push_back(0.0);
        beam.py.push_back(0.0);
        beam.pt.push_back(0.0);
        beam.id.push_back(beam.id.size());
    }
    ReferenceParticle const ref = ReferenceParticle::from_kinetic(constants::proton_mass_mev, 1.0, kinetic);
    OutputFile out(path);
    write_phase_space(out, 0, "beam", beam, ref, "start", Q, n);
    out.commit();
    return Q;
}

//! The deck of write_sphere's file (2 MeV protons, bunch charge Q, n macroparticles): a 1 m linear
//! drift tracked as `tracking` says, 40 space-charge kicks on a 32^3 grid, statistics at each slice.
inline std::string sphere_deck(std::string const& file, double Q, std::size_t n, std::string const& tracking)
{
    char charge[64];
    std::snprintf(charge, sizeof charge, "%.17g", Q);
    return "[run]\nname = \"sphere\"\ntracking = \"" + tracking +
           "\"\n[beam]\nparticle = \"proton\"\nkinetic_energy = 2\nbunch_charge = " + std::string(charge) +
           "\nmacroparticles = " + std::to_string(n) + "\ndistribution = \"file\"\nfile = \"" + file +
           "\"\n[elements]\nD = { type = \"drift\", length = 1.0, model = \"linear\" }\n"
           "[lattice]\nline = [\"D\"]\n[space_charge]\nenabled = true\ngrid = [32, 32, 32]\n"
           "kicks_per_meter = 40\n[output]\nstats = \"every_slice\"\nphase_space = []\n";
}

}  // namespace gt::test
