// Reading openPMD BeamPhysics particle files of other codes: SI records converted to gtrack's coordinates
// against the deck's reference particle, drifts to one plane, and clear errors for files that do not fit.
#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

#include "IoTestSupport.hh"
#include "Relative.hh"
#include "TextTestSupport.hh"
#include "io/BeamPhysicsReader.hh"
#include "io/H5Access.hh"
#include "io/OutputFile.hh"
#include "kernels/core/Types.hh"

using namespace gt;
using gt::test::contains;
using gt::test::io_error_of;
using gt::test::TempDir;

namespace {

constexpr double k_ev_c = constants::e_charge / constants::c_light;  // 1 eV/c in kg m/s

struct Bunch {
    std::vector<double> x, y, z, px, py, pz, t, weight, status;  // SI, momenta in eV/c
};

//! A file as openpmd-beamphysics' ParticleGroup.write lays it out: basePath "/", particlesPath
//! "particles", one species group, momenta in eV/c through unitSI.
void write_beamphysics(std::string const& path, Bunch const& b, std::string const& species,
                       std::vector<double> momentum_dimension = {1, 1, -1, 0, 0, 0, 0},
                       std::uint64_t constant_status_shape = 0)
{
    OutputFile out(path);
    h5::write_attribute(out.id(), "openPMD", "2.0.0");
    h5::write_attribute(out.id(), "openPMDextension", "BeamPhysics;SpeciesType");
    h5::write_attribute(out.id(), "basePath", "/");
    h5::write_attribute(out.id(), "particlesPath", "particles");
    h5::Group sp = h5::create_groups(out.id(), "particles/" + species);
    h5::write_attribute(sp, "speciesType", species);
    h5::write_attribute(sp, "numParticles", static_cast<std::uint64_t>(b.x.size()));
    auto const component = [&](std::string const& name, std::vector<double> const& v, double unit,
                               std::vector<double> const& dims) {
        h5::write_dataset(sp, name, std::span<double const>(v));
        h5::Dataset d = h5::open_dataset(sp, name);
        h5::write_attribute(d, "unitSI", unit);
        h5::write_attribute(d, "unitDimension", std::span<double const>(dims));
    };
    std::vector<double> const length{1, 0, 0, 0, 0, 0, 0};
    h5::create_groups(sp, "position");
    h5::create_groups(sp, "momentum");
    component("position/x", b.x, 1.0, length);
    component("position/y", b.y, 1.0, length);
    component("position/z", b.z, 1.0, length);
    component("momentum/x", b.px, k_ev_c, momentum_dimension);
    component("momentum/y", b.py, k_ev_c, momentum_dimension);
    component("momentum/z", b.pz, k_ev_c, momentum_dimension);
    component("time", b.t, 1.0, {0, 0, 1, 0, 0, 0, 0});
    component("weight", b.weight, 1.0, {0, 0, 1, 1, 0, 0, 0});
    if (constant_status_shape == 0) {
        component("particleStatus", b.status, 1.0, {0, 0, 0, 0, 0, 0, 0});
    } else {  // a constant component (group with value and shape), as openpmd-beamphysics writes it
        h5::Group g = h5::create_groups(sp, "particleStatus");
        h5::write_attribute(g, "value", 1.0);
        std::uint64_t const shape[1] = {constant_status_shape};
        h5::write_attribute(g, "shape", std::span<std::uint64_t const>(shape));
    }
    out.commit();
}

}  // namespace

TEST_CASE("a BeamPhysics bunch at one plane becomes gtrack coordinates of the deck's reference")
{
    TempDir dir;
    auto const ref = ReferenceParticle::from_kinetic(constants::electron_mass_mev, -1.0, 100.0);
    double const pc = ref.pc_mev * 1e6;  // [eV/c]
    // Particle 0 is the reference; 1 has +1% momentum and angles; 2 is lost (status 0) and skipped.
    Bunch b{{1e-3, -2e-3, 5.0}, {0.0, 3e-4, 5.0}, {2.5, 2.5, 2.5},
            {0.0, 1e-3 * pc, 0.0}, {0.0, -2e-3 * pc, 0.0}, {pc, 1.01 * pc, pc},
            {1e-9, 1e-9 + 2e-12, 7.0}, {1e-12, 3e-12, 1e-12}, {1, 1, 0}};
    std::string const path = dir.file("bp.h5");
    write_beamphysics(path, b, "electron");
    CHECK_FALSE(holds_gtrack_coordinates(path));

    PhaseSpaceFile const f = read_beamphysics(path, ref);
    REQUIRE(f.beam.size() == 2);
    CHECK(f.beam.x[0] == 1e-3);
    CHECK(f.beam.y[1] == 3e-4);
    // P / p_ref: the unit conversions eV/c -> kg m/s -> p_ref cost a few ulps (1e-15 relative).
    CHECK(f.beam.px[0] == 0.0);
    CHECK(f.beam.px[1] == test::relative(1e-3, 1e-14));
    CHECK(f.beam.py[1] == test::relative(-2e-3, 1e-14));
    CHECK(std::abs(f.beam.pt[0]) < 1e-15);  // the reference momentum: pt = 0 up to those ulps
    // pt = -(E - E_ref) / (p_ref c) from E^2 = P^2 + m^2, independently of the reader's formula.
    double const p_hat2 = 1.01 * 1.01 + 1e-6 + 4e-6;
    double const e_hat = std::sqrt(p_hat2 + 1.0 / (ref.beta_gamma * ref.beta_gamma));
    CHECK(f.beam.pt[1] == test::relative(-(e_hat - 1.0 / ref.beta), 1e-12));
    // t = c (t_arrival - t0), t0 the weight-mean arrival time (weights 1 and 3 pC).
    double const t0 = (1e-9 * 1e-12 + (1e-9 + 2e-12) * 3e-12) / 4e-12;
    CHECK(f.beam.t[0] == test::relative(constants::c_light * (1e-9 - t0), 1e-9));
    CHECK(f.beam.t[1] - f.beam.t[0] == test::relative(constants::c_light * 2e-12, 1e-6));
    CHECK(f.weighting[1] == test::relative(3e-12 / constants::e_charge, 1e-15));
    CHECK(f.bunch_charge == test::relative(4e-12, 1e-15));
    CHECK(f.beam.id[1] == 1);
}

TEST_CASE("a bunch at one time is drifted to the plane of its mean z")
{
    TempDir dir;
    auto const ref = ReferenceParticle::from_kinetic(constants::proton_mass_mev, 1.0, 250.0);
    double const pc = ref.pc_mev * 1e6;
    // Two particles at t = 0, 1 mm apart in z, the rear one with an angle: after the drift of 0.5 mm
    // to z0 = mean z it has moved by 0.5 mm * P_x / P_z in x and arrives 0.5 mm / v_z later than t = 0.
    Bunch b{{0.0, 0.0}, {0.0, 0.0}, {1.0, 1.001}, {2e-3 * pc, 0.0}, {0.0, 0.0}, {pc, pc},
            {0.0, 0.0}, {1e-12, 1e-12}, {1, 1}};
    std::string const path = dir.file("t.h5");
    write_beamphysics(path, b, "proton");
    PhaseSpaceFile const f = read_beamphysics(path, ref);
    CHECK(f.beam.x[0] == test::relative(0.5e-3 * 2e-3, 1e-9));
    CHECK(f.beam.x[1] == 0.0);
    // v_z = P_z c^2 / E: particle 0 has P_z = p_ref but a larger |P|, so a larger energy.
    double const v0 = constants::c_light / std::sqrt(1.0 + 4e-6 + 1.0 / (ref.beta_gamma * ref.beta_gamma));
    double const v1 = constants::c_light * ref.beta;
    // Arrival at z0: particle 0 is 0.5 mm behind, particle 1 0.5 mm ahead (already past).
    double const a0 = 0.5e-3 / v0, a1 = -0.5e-3 / v1;
    CHECK(f.beam.t[0] - f.beam.t[1] == test::relative(constants::c_light * (a0 - a1), 1e-9));
}

TEST_CASE("BeamPhysics files that do not fit are refused with the file and the reason")
{
    TempDir dir;
    auto const ref = ReferenceParticle::from_kinetic(constants::electron_mass_mev, -1.0, 100.0);
    double const pc = ref.pc_mev * 1e6;
    Bunch const b{{0.0}, {0.0}, {0.0}, {0.0}, {0.0}, {pc}, {0.0}, {1e-12}, {1}};

    std::string const protons = dir.file("protons.h5");
    write_beamphysics(protons, b, "proton");
    std::string m = io_error_of([&] { read_beamphysics(protons, ref); });
    CHECK(contains(m, protons));
    CHECK(contains(m, "the particles are 'proton' but the deck's species is electron"));

    std::string const units = dir.file("units.h5");
    write_beamphysics(units, b, "electron", {1, 0, 0, 0, 0, 0, 0});
    m = io_error_of([&] { read_beamphysics(units, ref); });
    CHECK(contains(m, "record 'momentum/x' has unitDimension [1, 0, 0, 0, 0, 0, 0], expected [1, 1, -1"));

    std::string const dead = dir.file("dead.h5");
    write_beamphysics(dead, Bunch{{0.0}, {0.0}, {0.0}, {0.0}, {0.0}, {pc}, {0.0}, {1e-12}, {0}}, "electron");
    CHECK(contains(io_error_of([&] { read_beamphysics(dead, ref); }), "no particle has particleStatus 1"));

    std::string const backwards = dir.file("back.h5");
    write_beamphysics(backwards, Bunch{{0.0}, {0.0}, {0.0}, {0.0}, {0.0}, {-pc}, {0.0}, {1e-12}, {1}}, "electron");
    CHECK(contains(io_error_of([&] { read_beamphysics(backwards, ref); }), "moves backwards"));

    // A constant component whose shape is not the particle count (here 2^62 values, which must never
    // be allocated) is refused before anything is read.
    std::string const huge = dir.file("huge.h5");
    write_beamphysics(huge, b, "electron", {1, 1, -1, 0, 0, 0, 0}, std::uint64_t{1} << 62);
    m = io_error_of([&] { read_beamphysics(huge, ref); });
    CHECK(contains(m, "constant record 'particleStatus' has 4611686018427387904 values, but numParticles is 1"));

    std::string const short_file = dir.file("short.h5");
    write_beamphysics(short_file, Bunch{{0.0, 1.0}, {0.0}, {0.0}, {0.0}, {0.0}, {pc}, {0.0}, {1e-12}, {1}},
                      "electron");
    CHECK(contains(io_error_of([&] { read_beamphysics(short_file, ref); }), "records differ in length"));
}
