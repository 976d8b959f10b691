// The typed, validated configuration of a detector deck (kind = "detector"): SI units, MeV.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace gt {

struct SourceLocation;

//! A user material: density and composition by mass fraction.
struct MaterialConfig {
    std::string name;
    double density = 0;                                    //!< [kg/m^3]
    std::vector<std::pair<std::string, double>> elements;  //!< element symbol, mass fraction (normalized)
    std::optional<double> mean_excitation;                 //!< I [MeV]; else Bragg additivity
    int line = 0, column = 0;
};

enum class ReplicaAxis { none, x, y, z, r };

//! One placement of a volume read from GDML (a <physvol>): in every placement of its mother.
struct VolumePlacement {
    std::string mother;
    std::array<double, 3> position{};                           //!< in the mother's frame [m]
    std::array<double, 9> rotation{1, 0, 0, 0, 1, 0, 0, 0, 1};  //!< local -> mother, row-major
    std::optional<int> copy;                                    //!< copynumber; none: the mother's
};

struct VolumeConfig {
    std::string name;
    std::string shape;                   //!< box | tube | sphere; GDML: cone | polycone | trd | trap | eltube | para
    std::array<double, 3> half_size{};   //!< box; trd (x1, y1 at -z, hz); eltube, para (dx, dy, hz) [m]
    double rmin = 0, rmax = 0;           //!< tube, sphere; cone at -z [m]
    double rmin2 = 0, rmax2 = 0;         //!< cone at +z [m]
    std::array<double, 2> half_size2{};  //!< trd (x2, y2 at +z) [m]
    std::array<double, 3> para_angles{};  //!< para (alpha, theta, phi) [rad]
    //! trap: G4Trap's (dz, theta, phi, dy1, dx1, dx2, alpha1, dy2, dx3, dx4, alpha2) [m, rad]
    std::array<double, 11> trap{};
    std::vector<std::array<double, 3>> zplanes;  //!< polycone: (z, rmin, rmax) of each plane, z rising [m]
    double half_z = 0;                   //!< tube, cone [m]
    double phi_start = 0;                //!< tube, cone, polycone [rad]
    double phi_delta = 0;                //!< tube, cone, polycone [rad]; 0 for the full circle
    std::string material;
    std::string mother = "world";
    std::array<double, 3> position{};  //!< in the mother's frame [m]
    std::array<double, 3> rotation{};  //!< about x, then y, then z (active) [rad]
    bool sensitive = false;
    int replicas = 1;
    ReplicaAxis replica_axis = ReplicaAxis::none;
    double replica_step = 0;  //!< [m]
    //! A beamline deck's volume placed along the reference orbit: `position` and `rotation` are then in the
    //! survey frame at this s (x, y, along the orbit), not global (beam/Survey.hh); none: global
    std::optional<double> s;  //!< [m]
    //! A GDML logical volume: every placement of it (mother, position, rotation above are then unused)
    std::vector<VolumePlacement> placements;
    int line = 0, column = 0;
};

struct FieldConfig {
    std::string type = "none";       //!< none | uniform | solenoid | map
    std::array<double, 3> b{};       //!< uniform [T]
    double b0 = 0;                   //!< solenoid: the field of the infinitely long solenoid [T]
    double radius = 0;               //!< solenoid [m]
    double half_length = 0;          //!< solenoid [m]
    std::array<double, 3> center{};  //!< solenoid and rz map axis [m]
    double tabulate = 0;             //!< solenoid: (r, z) grid spacing to tabulate it on [m]; 0: analytic
    std::string file;                //!< map: HDF5 file
    std::string format;              //!< map: cartesian | rz
};

struct PropagationConfig {
    int max_substeps = 10;
    double delta_chord = 0.25e-3;        //!< [m]
    double delta_intersection = 1.0e-6;  //!< [m]
    double epsilon = 1.0e-6;             //!< [1]
    std::uint64_t max_steps = 100000;    //!< per track
};

struct GunConfig {
    std::string particle;
    std::string spectrum = "mono";            //!< mono | uniform | gaussian
    double energy = 0;                        //!< kinetic: mono, uniform min, Gaussian mean [MeV]
    double energy2 = 0;                       //!< uniform max, Gaussian sigma [MeV]
    std::string position_shape = "point";     //!< point | box | beam_spot
    std::array<double, 3> position{};         //!< [m]
    std::array<double, 3> position_spread{};  //!< box half-size or beam-spot sigma [m]
    std::string direction_shape = "fixed";    //!< fixed | cone | isotropic
    std::array<double, 3> direction{0, 0, 1};
    double cone_half_angle = 0;  //!< [rad]
    std::uint64_t events = 1;    //!< with `file`: the events to read, 0 for every one after `skip`
    std::uint64_t per_event = 1;
    //! Primaries from a HepMC3 ASCII event file (detector/HepMcEvents.hh): its final-state particles, one
    //! gtrack event per file event; the keys above other than `events` do not apply
    std::string file;                //!< the path (relative ones resolved against the deck's directory)
    std::uint64_t skip = 0;          //!< events of the file passed over before the first one read
    std::array<double, 3> offset{};  //!< added to every vertex position [m]
    //! The primaries of the whole run when they vary per event (a file's, set when it is read); none: events
    //! x per_event
    std::optional<std::uint64_t> given_primaries;
    std::uint64_t total_primaries() const { return given_primaries ? *given_primaries : events * per_event; }
};

struct DetectorPhysicsConfig {
    bool energy_loss = true;
    bool fluctuations = true;
    bool multiple_scattering = true;
    double energy_cut = 0.1;      //!< [MeV]
    double max_step = 0;          //!< [m]; 0: none
    double range_fraction = 0.2;  //!< [1]
    double final_range = 1.0e-3;  //!< [m]
    std::string msc_model = "moliere";  //!< moliere, highland, moliere_all (MoliereScattering.hh)
    bool charged_crossing_hits = true;  //!< showers: a charged crossing of a sensitive volume is a hit
    // electromagnetic showers (src/deck/ShowerKeys.hh, docs/decks.md)
    bool showers = false;
    double range_cut = 0.7e-3;           //!< production cut as a range [m]
    double photon_cut = 1.0e-3;          //!< photon tracking cut [MeV]
    double msc_range_factor = 0.04;      //!< shower e+-: msc step limit near boundaries (0: none)
    bool msc_path_correction = true;     //!< shower e+-: msc true/geometric path-length conversion
    bool msc_exact_mean = true;          //!< shower e+-: polar angle with <cos> = exp(-theta0^2)
    bool urban_fluctuations = true;      //!< shower e+-: Urban's fluctuations (false: Gaussian)
    std::uint64_t secondary_buffer = 0;  //!< secondaries one iteration may create; 0: twice the slots
};

//! [strips]: double-sided strip sensors on sensitive box volumes, their read-out, the free-streaming
//! time line and the reconstruction (docs/decks.md; defaults from CbmRoot's STS digitizer).
struct StripsConfig {
    bool enabled = false;
    std::vector<std::string> volumes;  //!< empty: every sensitive volume
    double pitch = 58e-6;              //!< [m]
    std::int64_t strips = 1024;        //!< per side
    double length = 6.2e-2;            //!< sensor extent along the strips [m]
    std::array<double, 2> stereo{0.0, 7.5 * 3.14159265358979323846 / 180.0};  //!< [rad]
    double depletion_voltage = 70, bias_voltage = 140;                        //!< [V]
    double temperature = 268;                                                 //!< [K]
    bool diffusion = true, lorentz_shift = true;
    double cross_talk = 1.0 / 18.5;  //!< C_interstrip / (C_interstrip + C_coupling), 1 pF and 17.5 pF
    double pair_energy = 3.6e-6;     //!< [MeV]
    double noise = 1000, threshold = 3000, dynamic_range = 75000;  //!< [e]
    std::int64_t adc_bits = 5;
    double time_resolution = 5e-9, dead_time = 800e-9;  //!< [s]
    double dead_fraction = 0;
    double interaction_rate = 0;                //!< [Hz]; 0: events one after the other, never overlapping
    double cluster_window = 0, hit_window = 0;  //!< [s]; 0: 3 sqrt(2) time_resolution
    std::string sort = "radix";                 //!< radix | merge
    int line = 0, column = 0;
};

struct DetectorConfig {
    std::vector<MaterialConfig> materials;
    std::string world_shape = "box";
    VolumeConfig world;  //!< name "world", shape box/tube/sphere
    std::vector<VolumeConfig> volumes;
    std::string gdml;  //!< [geometry] gdml: the GDML file the world, volumes and their materials came from
    FieldConfig field;
    PropagationConfig propagation;
    GunConfig gun;
    DetectorPhysicsConfig physics;
    std::uint64_t track_slots = 65536;
    std::string track_order = "slots";  //!< "slots", "alive", "charge", "compact" (DetectorTables.hh)
    std::string cpu_loop = "tracks";    //!< "tracks" (kernels/cpu/CpuTrackLoop.cc) or "slots" (the GPU's)
    bool write_hits = true;
    StripsConfig strips;
    //! A beamline deck with a detector ([geometry] beside [lattice]; run/BeamDetectorRun.hh): which beam
    //! particles become the detector's primaries, "lost" (always) and "extracted" (the beam at the end)
    bool along_beamline = false;
    bool extracted = false;
};

}  // namespace gt
