// The typed, validated configuration a deck turns into: SI units everywhere, energies in MeV.
//
// Everything here has been checked by the deck reader (src/deck/DeckReader.cc): required keys are
// present, values are in range and of the right dimension. Source locations are kept so that later
// stages (lattice expansion, table building) can still report errors against the deck's lines.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "deck/CheckpointEvery.hh"
#include "deck/DetectorConfig.hh"
#include "deck/Scan.hh"
#include "deck/SourceLocation.hh"
#include "deck/StudyConfig.hh"

namespace gt {

enum class BackendChoice { automatic, cpu, gpu };

struct RunConfig {
    std::string kind = "beamline";  //!< beamline | detector
    std::string name;               //!< defaults to the deck's file stem
    std::uint64_t seed = 1;
    BackendChoice backend = BackendChoice::automatic;
    std::string tracking = "z";  //!< z | t | auto: the default of the elements' `tracking` key
};

//! Particle species: a named one, or an ion.
struct SpeciesConfig {
    std::string name;     //!< "proton", ..., or "ion"
    double mass_mev = 0;  //!< rest energy [MeV]
    double charge_e = 0;  //!< charge in units of the elementary charge (signed)
};

struct TwissPlane {
    double beta = 1.0;       //!< [m]
    double alpha = 0.0;      //!< [1]
    double emittance = 0.0;  //!< rms geometric [m rad]
};

//! A beam emitted from rest at a cathode at the entrance of the first element (docs/physics.md,
//! "Beams emitted from a cathode"). The reference energy is then the normalization m c (kinetic
//! (sqrt 2 - 1) m c^2), set by the reader.
struct CathodeConfig {
    std::string spot = "uniform";      //!< uniform (a disk) | gaussian
    double spot_rms = 0;               //!< [m] rms of x and of y on the cathode
    std::string emission = "flattop";  //!< flattop | gaussian
    double emission_length = 0;        //!< [s] flattop: full length at half height; gaussian: rms
    double emission_rise = 0;          //!< [s] flattop: the linear rise (and fall) time, <= length
    double mte = 0;                    //!< [MeV] mean transverse energy of the emitted electrons
};

struct BeamConfig {
    SpeciesConfig species;
    //! Reference energy: exactly one of the three was given; the reader fills kinetic_energy_mev.
    double kinetic_energy_mev = 0;  //!< [MeV]
    double bunch_charge = 0;        //!< [C], >= 0 (its sign follows the species)
    std::uint64_t macroparticles = 0;
    std::string distribution =
        "gaussian";  //!< gaussian | kv | waterbag | semigaussian | kurth | file | cathode
    TwissPlane x, y;
    //! [beam.twiss] periodic = true: beta and alpha of x and y (and, where the ring has dispersion at
    //! the start, the 6x6 moments) come from the ring's periodic solution, found where the beam is made
    //! (optics::with_periodic_twiss); x.beta, y.beta, alpha and sigma_matrix are unset until then.
    bool periodic = false;
    double sigma_t = 0;   //!< [m] rms of c (t - t_ref)
    double sigma_pt = 0;  //!< [1] rms of pt
    double chirp = 0;     //!< [1/m] d<pt>/dt correlation: <t pt> = chirp sigma_t^2
    //! Full 6x6 second-moment matrix of (x, px, y, py, t, pt), row-major; replaces twiss when set.
    std::optional<std::array<double, 36>> sigma_matrix;
    double truncate = 0;    //!< cut Gaussian tails at this many sigma (0: no cut)
    std::string file;       //!< openPMD HDF5 file for distribution = "file"
    CathodeConfig cathode;  //!< distribution = "cathode": emission from rest ([beam.cathode])
    SourceLocation where;
};

//! One element as the deck defines it; parameters by name, in SI. Only the keys the deck gave are
//! stored: element_value() (deck/ElementRegistry.hh) supplies the registry's defaults.
struct ElementConfig {
    std::string name;
    std::string type;                            //!< a type of the element registry (deck/ElementRegistry.hh)
    std::map<std::string, double> values;        //!< numeric parameters [SI]
    std::map<std::string, std::string> strings;  //!< e.g. shape, model
    std::map<std::string, std::vector<double>> arrays;  //!< knl, ksl
    SourceLocation where;

    double get(std::string const& key, double fallback) const
    {
        auto it = values.find(key);
        return it == values.end() ? fallback : it->second;
    }
    std::string get_string(std::string const& key, std::string const& fallback) const
    {
        auto it = strings.find(key);
        return it == strings.end() ? fallback : it->second;
    }
};

struct LatticeConfig {
    //! Named lines in deck order: each entry is an element or line name, optionally "name*N".
    std::vector<std::pair<std::string, std::vector<std::string>>> lines;
    std::map<std::string, SourceLocation> line_where;
    std::string use = "line";  //!< the line that is tracked
    std::int64_t turns = 1;
    //! Global aperture applied after every element (0: none).
    double global_half_x = 0;  //!< [m]
    double global_half_y = 0;  //!< [m]
    std::string global_shape = "rectangle";
    //! Synchrotron radiation: "off", "mean" (the magnets radiate, the RF cavities keep the reference energy;
    //! kernels/elements/SynchrotronRadiation.hh) or "quantum" (the mean loss and its quantum excitation).
    std::string radiation = "off";
    //! Merge consecutive drifts and leave out entries that do nothing in the tracked table
    //! (beam/LatticeCompaction.hh).
    bool merge_drifts = false;
    SourceLocation merge_drifts_where;
    //! Whole turns one tracking call may take where nothing is due between turns (the many-turn
    //! executor); 0: "auto" (BeamRun.cc says what it picks on each backend).
    std::int64_t turns_per_call = 0;
};

//! One group of `[errors]`: the elements it matches (by type, by name glob, or both) and the errors drawn
//! for each of them (src/beam/LatticeErrors.hh; docs/decks.md, "[errors]").
struct ErrorGroupConfig {
    std::string name;             //!< the group's table name, errors.<name>
    std::string type;             //!< element type it matches ("" : any)
    std::string match;            //!< glob on element names ("" : any)
    double dx = 0;                //!< [m] rms of the random horizontal offset
    double dy = 0;                //!< [m] rms of the random vertical offset
    double roll = 0;              //!< [rad] rms of the random roll about s
    double gradient = 0;          //!< [1] rms of the random relative error of the main normal strength
    double reference_radius = 0;  //!< [m] r0 of the multipole components (needed with b, a)
    std::vector<double> b, a;     //!< [1] systematic b_n, a_n (index n = order, 0: dipole)
    std::vector<double> b_random, a_random;  //!< [1] rms of the random b_n, a_n
    double truncation = 0;                   //!< [1] in sigmas (0: the section's)
    SourceLocation where;
};

//! `[errors]`: random misalignments and field errors drawn once into the element table.
struct ErrorsConfig {
    std::optional<std::uint64_t> seed;  //!< errors.seed (required with any group)
    double truncation = 3.0;            //!< [1] default truncation of every Gaussian, in sigmas
    std::vector<ErrorGroupConfig> groups;
    SourceLocation where;

    bool empty() const { return groups.empty(); }
};

struct SpaceChargeConfig {
    bool enabled = false;
    std::array<int, 3> grid = {64, 64, 64};
    double kicks_per_meter = 10;         //!< [1/m] kicks per metre of lattice
    std::int64_t kicks_per_element = 0;  //!< > 0: this many kicks in every element with a length instead
    std::string solver = "3d";           //!< 3d | 2.5d (long bunches: transverse field x line density)
    std::string deposition = "deterministic";  //!< deterministic | atomic | aggregated
    std::string shape = "cic";                 //!< cic | tsc
    std::int64_t sort_every = 4;               //!< sort particles by cell every N kicks (0: never)
    double margin = 0.05;                      //!< [1] empty space around the bunch, fraction of its extent
    double truncate_sigma =
        0;  //!< [1] > 0: the grid spans +- this many rms; particles beyond feel a point charge
    SourceLocation where;
};

//! [collective]: the longitudinal grid shared by wakes, LSC and CSR (docs/physics.md §9).
struct CollectiveConfig {
    std::int64_t bins = 1000;                 //!< nodes of the longitudinal histogram
    std::string histogram = "deterministic";  //!< deterministic | per_block
    std::int64_t smoothing = 2;               //!< Savitzky-Golay half-width before LSC and CSR (0: none)
    double lsc_cutoff = 0.5;     //!< LSC low-pass: zero at this fraction of the Nyquist wavenumber
    bool csr_transient = false;  //!< CSR bends: the entrance transient (false: steady state from the edge)
    double csr_drift = 0;        //!< [m] the CSR wake goes on this far after each CSR bend's exit
    SourceLocation where;
};

enum class StatsWhere { every_element, every_slice, end, turn };

//! Where statistics are taken, as a phrase: "after every element", ...
inline char const* describe(StatsWhere w)
{
    switch (w) {
        case StatsWhere::every_element:
            return "after every element";
        case StatsWhere::every_slice:
            return "after every slice";
        case StatsWhere::end:
            return "at the end";
        case StatsWhere::turn:
            return "after every turn";
    }
    return "";
}

struct OutputConfig {
    std::string file;           //!< default "<run.name>.h5" ("<run.name>_{index}.h5" in a scan); expanded
    std::string file_template;  //!< output.file as written, before {index}, {name}... are expanded
    std::vector<std::string> phase_space;  //!< element names or "end"
    StatsWhere stats = StatsWhere::every_element;
    CheckpointEvery checkpoint_every;  //!< none by default (docs/checkpoint.md)
    bool checksums = true;  //!< Fletcher-32 on the output's datasets (checkpoints: always; io/H5Access.hh)
    SourceLocation where;   //!< output.file (else [output], else the deck): for errors about the name
};

struct DeckConfig {
    std::string path;                    //!< the deck file
    std::string text;                    //!< the deck as read (for provenance)
    std::vector<std::string> overrides;  //!< --set KEY=VALUE and --unset KEY (as "--unset KEY"), in order
    RunConfig run;
    BeamConfig beam;
    std::vector<ElementConfig> elements;  //!< in deck order
    LatticeConfig lattice;
    ErrorsConfig errors;  //!< [errors]; empty without one
    SpaceChargeConfig space_charge;
    CollectiveConfig collective;
    OutputConfig output;
    DetectorConfig detector;                   //!< kind = "detector" decks
    ScanConfig scan;                           //!< empty without a [scan] table
    DynamicApertureConfig dynamic_aperture;    //!< a ring study instead of a beam (docs/studies.md)
    MomentumApertureConfig momentum_aperture;  //!< the momentum acceptance along a ring (docs/studies.md)
    std::optional<std::uint64_t> scan_index;   //!< the point read (its values applied); none: point 0's
                                               //!< values were applied for checking only

    ElementConfig const* find_element(std::string const& name) const
    {
        for (auto const& e : elements)
            if (e.name == name) return &e;
        return nullptr;
    }
};

}  // namespace gt
