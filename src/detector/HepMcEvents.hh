// Primaries from a HepMC3 ASCII event file ([gun] file): every final-state particle (status 1) of an event
// becomes a primary of the gtrack event of the same order, at its production vertex (position and time,
// in the event's units), with its direction and kinetic energy. Particles gtrack does not transport are
// counted by PDG id, never dropped silently.
#pragma once

#include <array>
#include <cstdint>
#include <istream>
#include <map>
#include <string>
#include <vector>

#include "kernels/detector/ParticleGun.hh"

namespace gt {

//! Which events of the file, and where.
struct HepMcSelection {
    std::uint64_t skip = 0;          //!< events passed over first (checked all the same)
    std::uint64_t count = 0;         //!< events read after them; 0: every one to the end of the file
    std::array<double, 3> offset{};  //!< added to every vertex position [m]
};

//! Final-state particles of one PDG id that gtrack does not transport.
struct NotTransported {
    std::uint64_t count = 0;
    double energy = 0;  //!< sum of their total energies [MeV]
};

struct HepMcEvents {
    std::string file;
    //! every primary in event order: Primary::event is the gtrack event (0, 1, ...: the file's events
    //! after `skip`), Primary::particle an index into `species`
    std::vector<Primary> primaries;
    std::vector<std::string> species;       //!< gtrack's particle names, by Primary::particle
    std::vector<std::uint64_t> starts;      //!< events + 1 entries: the primaries before each event
    std::vector<std::int64_t> numbers;      //!< the file's event numbers, by gtrack event
    std::vector<std::string> weight_names;  //!< the run information's, if it names them
    std::size_t weights_per_event = 0;      //!< weights an event has (0: none in the file; each counts 1)
    std::vector<double> weights;            //!< [event * weights_per_event + k]
    std::map<int, NotTransported> not_transported;  //!< by PDG id
    std::uint64_t events() const { return numbers.size(); }
};

//! The gtrack particle of a PDG id (e-, e+, mu-, mu+, pi-, pi+, proton, antiproton, gamma), or "" for one it
//! does not transport.
std::string particle_of_pdg(int pdg);

//! Reads the events `selection` asks for from `in` (`name` stands for it in messages). Throws HepMcError
//! naming the file and line of the first problem, and when the file has fewer events than asked for.
HepMcEvents read_hepmc_events(std::istream& in, std::string const& name, HepMcSelection const& selection);

//! The same for a file; a file that cannot be opened is a HepMcError too.
HepMcEvents read_hepmc_file(std::string const& path, HepMcSelection const& selection);

//! "2 x 2112 (neutron), 1 x 130 (K0L)": the not-transported particles for messages, by count.
std::string describe_not_transported(HepMcEvents const& events);

}  // namespace gt
