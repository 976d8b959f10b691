// Everything the step actions read and never write: geometry, materials, particles, field,
// propagation and physics settings, the particle gun. A trivially copyable view.
#pragma once

#include <cstdint>

#include "kernels/field/FieldPropagator.hh"
#include "kernels/field/MagneticField.hh"
#include "kernels/geometry/GeometryView.hh"
#include "kernels/physics/EmTables.hh"
#include "kernels/physics/MaterialParams.hh"
#include "kernels/physics/ParticleType.hh"

namespace gt {

struct PhysicsParams {
    std::int32_t energy_loss = 1;
    std::int32_t fluctuations = 1;
    std::int32_t multiple_scattering = 1;
    double energy_cut = 0.1;      //!< kinetic energy below which a track stops and deposits the rest [MeV]
    double max_step = HUGE_VAL;   //!< longest step of a charged particle in matter [m]
    double range_fraction = 0.2;  //!< a step loses at most this fraction of the residual range
    double final_range = 1.0e-3;  //!< below this range the rest is taken in one step [m]
    std::uint32_t max_steps = 100000;  //!< a track taking more is ended and counted as looping
    //! Electromagnetic showers (docs/physics.md): e-, e+ and photons interact and make secondaries.
    //! Their particle indices are then fixed: k_em_electron, k_em_positron, k_em_gamma.
    std::int32_t showers = 0;
    double photon_cut = 1.0e-3;  //!< photons below this energy are absorbed on the spot [MeV]
    //! Shower e+-: multiple scattering's step limit near boundaries (0: none) and its path-length
    //! correction (kernels/physics/MultipleScattering.hh).
    double msc_range_factor = 0.04;
    std::int32_t msc_path_correction = 1;
    //! Shower e+-: the polar angle with <cos theta> = exp(-theta0^2) (1), or Gaussian projected angles.
    std::int32_t msc_exact_mean = 1;
    //! Shower e+-: energy-loss fluctuations of Urban's model (1) or Gaussian (Bohr) straggling (0).
    std::int32_t urban_fluctuations = 1;
    //! Multiple scattering's model (MscModel, kernels/physics/MoliereScattering.hh): Molière's (1), or
    //! Highland's formula (0).
    std::int32_t msc_model = 1;
    //! Shower physics: a charged particle's step through a sensitive volume is a hit even when it
    //! deposits nothing (1); 0: only steps with a deposit are hits (photons never are without one).
    std::int32_t charged_crossing_hits = 1;
};

inline constexpr std::int32_t k_em_electron = 0, k_em_positron = 1, k_em_gamma = 2;

enum class EnergySpectrum : std::int32_t { mono = 0, uniform = 1, gaussian = 2 };
enum class PositionShape : std::int32_t { point = 0, box = 1, beam_spot = 2 };
enum class DirectionShape : std::int32_t { fixed = 0, cone = 1, isotropic = 2 };

struct Primary;  // ParticleGun.hh

struct GunParams {
    std::int32_t particle = 0;  //!< index into the particle table
    EnergySpectrum spectrum = EnergySpectrum::mono;
    double energy = 0;         //!< kinetic energy (mono, Gaussian mean, uniform lower end) [MeV]
    double energy_spread = 0;  //!< uniform upper end, or Gaussian sigma [MeV]
    PositionShape position_shape = PositionShape::point;
    Vec3 position;         //!< [m]
    Vec3 position_spread;  //!< box half-sizes, or beam-spot sigmas (x, y, z) [m]
    DirectionShape direction_shape = DirectionShape::fixed;
    Vec3 direction{0, 0, 1};  //!< unit vector (fixed direction or cone axis)
    double cos_cone = 1;      //!< cosine of the cone's half-angle
    std::uint64_t per_event = 1;
    std::uint64_t primaries = 0;      //!< events x per_event: primaries [first_primary, primaries) run here
    std::uint64_t first_primary = 0;  //!< > 0 under MPI: the first primary of this rank's events
    //! Given primaries (a beamline's losses, run/BeamDetectorRun.hh): primary first_primary + i is list[i]
    //! as it stands, nothing drawn (under MPI each rank holds its own); null: the gun draws them. Set by
    //! the backend (DetectorTables::primary_list).
    Primary const* list = nullptr;
};

struct DetectorParamsView {
    GeometryView geometry;
    MaterialParams const* materials = nullptr;
    ParticleType const* particles = nullptr;
    MagneticField field;
    PropagationParams propagation;
    PhysicsParams physics;
    GunParams gun;
    std::uint64_t seed = 0;
    EmTablesView em;  //!< the shower tables (empty unless physics.showers)
};

}  // namespace gt
