// openPMD phase-space output: bit-exact round trip, the attributes openPMD readers need (checked with
// the HDF5 C API directly), iteration choice, and clear rejection of files it cannot read.
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <fstream>
#include <limits>
#include <string>
#include <vector>

#include "IoTestSupport.hh"
#include "Relative.hh"
#include "TextTestSupport.hh"
#include "io/H5Access.hh"
#include "io/OpenPmdWriter.hh"
#include "io/OutputFile.hh"

using namespace gt;
using gt::test::TempDir;

namespace {

using gt::test::contains;

using gt::test::io_error_of;

bool same_bits(std::vector<double> const& a, std::vector<double> const& b)
{
    return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0;
}

//! A beam with awkward values: signed zeros, denormals, extremes, and ids beyond 2^63.
PhaseSpaceHost sample_beam(std::size_t n, double scale)
{
    PhaseSpaceHost b;
    for (std::size_t i = 0; i < n; ++i) {
        double const u = static_cast<double>(i) + 0.5;
        b.x.push_back(scale * 1e-3 * std::sin(1.7 * u));
        b.px.push_back(scale * 1e-4 * std::cos(0.3 * u));
        b.y.push_back(scale * 2e-3 * std::sin(0.9 * u + 1));
        b.py.push_back(scale * 3e-4 * std::cos(2.1 * u));
        b.t.push_back(scale * 1e-2 * std::sin(0.11 * u));
        b.pt.push_back(scale * 1e-3 * std::cos(0.07 * u));
        b.id.push_back(static_cast<std::uint64_t>(i) * 3 + 1);
    }
    if (n >= 3) {
        b.x[0] = -0.0;
        b.px[1] = std::numeric_limits<double>::denorm_min();
        b.pt[2] = -std::numeric_limits<double>::max();
        b.id[2] = 18446744073709551615ull;
    }
    return b;
}

//! A string attribute read with the plain C API; openPMD wants fixed-length strings.
std::string c_api_string(hid_t obj, char const* name, bool* fixed_length)
{
    hid_t const attr = H5Aopen(obj, name, H5P_DEFAULT);
    REQUIRE(attr >= 0);
    hid_t const type = H5Aget_type(attr);
    *fixed_length = H5Tget_class(type) == H5T_STRING && H5Tis_variable_str(type) == 0;
    std::vector<char> buf(H5Tget_size(type) + 1, '\0');
    H5Aread(attr, type, buf.data());
    H5Tclose(type);
    H5Aclose(attr);
    return std::string(buf.data());
}

std::vector<double> c_api_doubles(hid_t obj, char const* name)
{
    hid_t const attr = H5Aopen(obj, name, H5P_DEFAULT);
    REQUIRE(attr >= 0);
    hid_t const space = H5Aget_space(attr);
    std::vector<double> v(static_cast<std::size_t>(H5Sget_simple_extent_npoints(space)));
    H5Aread(attr, H5T_NATIVE_DOUBLE, v.data());
    H5Sclose(space);
    H5Aclose(attr);
    return v;
}

bool has(hid_t obj, char const* name) { return H5Aexists(obj, name) > 0; }

}  // namespace

TEST_CASE("openPMD phase space round-trips bit for bit, reference particle included")
{
    TempDir dir;
    std::string const path = dir.file("beam.h5");
    auto const beam = sample_beam(1001, 1.0);
    auto ref = ReferenceParticle::from_kinetic(938.27208816, 1.0, 250.0);
    ref.s = 12.345678901234567;
    ref.t = 4.1e-8;
    double const bunch_charge = 1e-9;
    std::uint64_t const started_with = 1200;  // 199 were lost before this point
    {
        OutputFile out(path);
        write_phase_space(out, 7, "beam", beam, ref, "QF2", bunch_charge, started_with);
        out.commit();
    }
    PhaseSpaceFile const back = read_phase_space(path);
    CHECK(back.iteration == 7);
    CHECK(back.species == "beam");
    CHECK(back.where == "QF2");
    CHECK(same_bits(back.beam.x, beam.x));
    CHECK(same_bits(back.beam.px, beam.px));
    CHECK(same_bits(back.beam.y, beam.y));
    CHECK(same_bits(back.beam.py, beam.py));
    CHECK(same_bits(back.beam.t, beam.t));
    CHECK(same_bits(back.beam.pt, beam.pt));
    CHECK(back.beam.id == beam.id);
    // The reference particle is rebuilt from the exact stored inputs: every derived value is equal.
    CHECK(back.ref.mass_mev == ref.mass_mev);
    CHECK(back.ref.charge_e == ref.charge_e);
    CHECK(back.ref.kinetic_mev == ref.kinetic_mev);
    CHECK(back.ref.gamma == ref.gamma);
    CHECK(back.ref.beta == ref.beta);
    CHECK(back.ref.beta_gamma == ref.beta_gamma);
    CHECK(back.ref.pc_mev == ref.pc_mev);
    CHECK(back.ref.rigidity == ref.rigidity);
    CHECK(back.ref.s == ref.s);
    CHECK(back.ref.t == ref.t);
    // Weight = Q / (e N_start) real protons per macroparticle; the file's particles carry Q * n / N_start.
    double const w = bunch_charge / (constants::e_charge * 1200.0);
    REQUIRE(back.weighting.size() == beam.size());
    CHECK(back.weighting[0] == test::relative(w, 1e-15));
    CHECK(back.bunch_charge == test::relative(bunch_charge * 1001.0 / 1200.0, 1e-12));
}

TEST_CASE("a snapshot stores 72 bytes a particle: weighting reads as an array but holds no data")
{
    TempDir dir;
    std::string const path = dir.file("beam.h5");
    std::size_t const n = 1000;
    auto const beam = sample_beam(n, 1.0);
    auto const ref = ReferenceParticle::from_kinetic(938.27208816, 1.0, 250.0);
    double const bunch_charge = 1e-9;
    {
        OutputFile out(path);
        write_phase_space(out, 0, "beam", beam, ref, "end", bunch_charge, 1200);
        out.commit();
    }
    hid_t const f = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
    REQUIRE(f >= 0);
    hid_t const sp = H5Gopen2(f, "/data/0/particles/beam", H5P_DEFAULT);
    REQUIRE(sp >= 0);
    auto const storage = [&](char const* name) {
        hid_t const d = H5Dopen2(sp, name, H5P_DEFAULT);
        REQUIRE(d >= 0);
        hsize_t const bytes = H5Dget_storage_size(d);
        H5Dclose(d);
        return std::size_t(bytes);
    };
    auto const doubles = [&](char const* name) {
        std::vector<double> v(n, -1.0);
        hid_t const d = H5Dopen2(sp, name, H5P_DEFAULT);
        REQUIRE(d >= 0);
        CHECK(H5Dread(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, v.data()) >= 0);
        H5Dclose(d);
        return v;
    };
    // The per-particle data written: x, y, t, px, py, pt, id, momentum/z and time, 8 bytes each.
    std::size_t total = 0;
    for (char const* name : {"position/x", "position/y", "position/t", "momentum/x", "momentum/y",
                             "momentum/t", "id", "momentum/z", "time"})
        total += storage(name);
    // 72 bytes a particle; a checksum filter, where outputs carry one, adds 4 bytes a chunk.
    CHECK(total >= 72 * n);
    CHECK(total <= 72 * n + 9 * 64);
    // weighting: one value for all (HDF5's fill value), nothing stored; every reader sees the array.
    CHECK(storage("weighting") == 0);
    double const w = bunch_charge / (constants::e_charge * 1200.0);
    CHECK(doubles("weighting") == std::vector<double>(n, w));
    // time: the numbers of position/t, bit for bit.
    CHECK(same_bits(doubles("time"), beam.t));
    H5Gclose(sp);
    H5Fclose(f);
    // gtrack's reader gets the weights back.
    PhaseSpaceFile const back = read_phase_space(path);
    CHECK(back.weighting == std::vector<double>(n, w));
}

TEST_CASE("openPMD attributes are present with the values openPMD readers expect")
{
    TempDir dir;
    std::string const path = dir.file("beam.h5");
    auto const ref = ReferenceParticle::from_kinetic(0.51099895000, -1.0, 100.0);
    std::size_t const n = 10;
    {
        OutputFile out(path);
        write_phase_space(out, 0, "electrons", sample_beam(n, 1.0), ref, "end", 2e-12, n);
        out.commit();
    }
    h5::silence_hdf5_errors();
    hid_t const f = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
    REQUIRE(f >= 0);
    bool fixed = false;
    CHECK(c_api_string(f, "openPMD", &fixed) == "1.1.0");
    CHECK(fixed);
    CHECK(c_api_string(f, "basePath", &fixed) == "/data/%T/");
    CHECK(c_api_string(f, "particlesPath", &fixed) == "particles/");
    CHECK(c_api_string(f, "iterationEncoding", &fixed) == "groupBased");
    CHECK(c_api_string(f, "iterationFormat", &fixed) == "/data/%T/");
    CHECK(c_api_string(f, "software", &fixed) == "gtrack");
    CHECK(fixed);
    CHECK_FALSE(c_api_string(f, "softwareVersion", &fixed).empty());
    std::string const date = c_api_string(f, "date", &fixed);
    CHECK(date.size() == 25);  // "YYYY-MM-DD HH:mm:ss +0000"
    CHECK(date.substr(19) == " +0000");
    {
        hid_t const a = H5Aopen(f, "openPMDextension", H5P_DEFAULT);
        hid_t const t = H5Aget_type(a);
        CHECK(H5Tget_class(t) == H5T_INTEGER);
        CHECK(H5Tget_sign(t) == H5T_SGN_NONE);
        CHECK(H5Tget_size(t) == 4);  // uint32, as the standard says
        std::uint32_t v = 99;
        H5Aread(a, H5T_NATIVE_UINT32, &v);
        CHECK(v == 4);  // SpeciesType's bit (openPMD 1.1.0 extension IDs); no ED-PIC
        H5Tclose(t);
        H5Aclose(a);
    }

    hid_t const it = H5Gopen2(f, "/data/0", H5P_DEFAULT);
    REQUIRE(it >= 0);
    CHECK(has(it, "time"));
    CHECK(has(it, "dt"));
    CHECK(c_api_doubles(it, "timeUnitSI") == std::vector<double>{1.0});
    H5Gclose(it);

    hid_t const sp = H5Gopen2(f, "/data/0/particles/electrons", H5P_DEFAULT);
    REQUIRE(sp >= 0);
    for (char const* a : {"beta_ref", "gamma_ref", "beta_gamma_ref", "mass_ref", "charge_ref", "s_ref",
                          "t_ref", "pc_ref", "element"})
        CHECK_MESSAGE(has(sp, a), a);
    CHECK(c_api_doubles(sp, "gamma_ref")[0] == ref.gamma);
    CHECK(c_api_doubles(sp, "pc_ref")[0] == ref.pc_mev);
    CHECK(c_api_doubles(sp, "charge_ref")[0] == -constants::e_charge);
    CHECK(c_api_doubles(sp, "mass_ref")[0] == test::relative(9.1093837015e-31, 1e-9));  // CODATA 2018
    CHECK(c_api_string(sp, "element", &fixed) == "end");
    // What openpmd-beamphysics reads (BeamPhysics extension): species, count, charge, z, time, weight.
    CHECK(c_api_string(sp, "speciesType", &fixed) == "electron");
    CHECK(c_api_doubles(sp, "totalCharge")[0] == test::relative(2e-12, 1e-15));
    CHECK(c_api_doubles(sp, "chargeUnitSI") == std::vector<double>{1.0});
    for (char const* record :
         {"position/z", "positionOffset/z", "momentum/z", "time", "timeOffset", "weight", "particleStatus"})
        CHECK_MESSAGE(H5Lexists(sp, record, H5P_DEFAULT) > 0, record);

    double const p_ref = ref.pc_mev * 1e6 * constants::e_charge / constants::c_light;  // [kg m/s]
    struct Expect {
        char const* record;
        std::vector<double> unit_dimension;
    };
    for (auto const& e :
         {Expect{"position", {1, 0, 0, 0, 0, 0, 0}}, Expect{"positionOffset", {1, 0, 0, 0, 0, 0, 0}},
          Expect{"momentum", {1, 1, -1, 0, 0, 0, 0}}, Expect{"id", {0, 0, 0, 0, 0, 0, 0}},
          Expect{"weighting", {0, 0, 0, 0, 0, 0, 0}}, Expect{"charge", {0, 0, 1, 1, 0, 0, 0}},
          Expect{"mass", {0, 1, 0, 0, 0, 0, 0}}}) {
        CAPTURE(e.record);
        hid_t const rec = H5Oopen(sp, e.record, H5P_DEFAULT);
        REQUIRE(rec >= 0);
        CHECK(c_api_doubles(rec, "unitDimension") == e.unit_dimension);
        CHECK(has(rec, "timeOffset"));
        CHECK(has(rec, "macroWeighted"));
        CHECK(has(rec, "weightingPower"));
        H5Oclose(rec);
    }
    for (char const* c : {"x", "y", "t"}) {
        CAPTURE(c);
        std::string const pos = std::string("position/") + c;
        std::string const mom = std::string("momentum/") + c;
        hid_t const dp = H5Dopen2(sp, pos.c_str(), H5P_DEFAULT);
        hid_t const dm = H5Dopen2(sp, mom.c_str(), H5P_DEFAULT);
        REQUIRE(dp >= 0);
        REQUIRE(dm >= 0);
        CHECK(c_api_doubles(dp, "unitSI") == std::vector<double>{1.0});
        CHECK(c_api_doubles(dm, "unitSI")[0] == test::relative(p_ref, 1e-15));
        H5Dclose(dp);
        H5Dclose(dm);
        std::string const off = std::string("positionOffset/") + c;
        hid_t const go = H5Gopen2(sp, off.c_str(), H5P_DEFAULT);  // constant component: a group
        REQUIRE(go >= 0);
        CHECK(c_api_doubles(go, "value") == std::vector<double>{0.0});
        CHECK(c_api_doubles(go, "shape") == std::vector<double>{static_cast<double>(n)});
        H5Gclose(go);
    }
    {
        // charge and mass: constant scalar records (group with value and shape), value * unitSI in SI.
        hid_t const q = H5Gopen2(sp, "charge", H5P_DEFAULT);
        REQUIRE(q >= 0);
        CHECK(c_api_doubles(q, "value") == std::vector<double>{-constants::e_charge});
        CHECK(c_api_doubles(q, "shape") == std::vector<double>{static_cast<double>(n)});
        CHECK(c_api_doubles(q, "unitSI") == std::vector<double>{1.0});
        H5Gclose(q);
        hid_t const id = H5Dopen2(sp, "id", H5P_DEFAULT);
        hid_t const t = H5Dget_type(id);
        CHECK(H5Tget_class(t) == H5T_INTEGER);
        CHECK(H5Tget_sign(t) == H5T_SGN_NONE);
        CHECK(H5Tget_size(t) == 8);
        H5Tclose(t);
        H5Dclose(id);
    }
    H5Gclose(sp);
    H5Fclose(f);
}

TEST_CASE("several iterations: the last by default, any by number, a missing one named")
{
    TempDir dir;
    std::string const path = dir.file("monitors.h5");
    auto ref = ReferenceParticle::from_kinetic(938.27208816, 1.0, 10.0);
    {
        OutputFile out(path);
        write_phase_space(out, 0, "beam", sample_beam(5, 1.0), ref, "start", 1e-12, 5);
        ref.s = 3.0;
        write_phase_space(out, 2, "beam", sample_beam(4, 2.0), ref, "BPM1", 1e-12, 5);
        ref.s = 11.0;
        write_phase_space(out, 10, "beam", sample_beam(3, 3.0), ref, "end", 1e-12, 5);
        // An iteration is written once.
        CHECK_THROWS_AS(write_phase_space(out, 2, "beam", sample_beam(4, 2.0), ref, "BPM1", 1e-12, 5),
                        IoError);
        out.commit();
    }
    auto const last = read_phase_space(path);
    CHECK(last.iteration == 10);  // numerically last, though "2" sorts after "10" by name
    CHECK(last.beam.size() == 3);
    CHECK(last.ref.s == 11.0);
    auto const second = read_phase_space(path, 2);
    CHECK(second.where == "BPM1");
    CHECK(same_bits(second.beam.x, sample_beam(4, 2.0).x));
    std::string const m = io_error_of([&] { read_phase_space(path, 5); });
    CHECK(contains(m, path));
    CHECK(contains(m, "iteration 5 is not in the file (it has 0, 2, 10)"));
}

TEST_CASE("an empty beam (all particles lost) is written and read back")
{
    TempDir dir;
    std::string const path = dir.file("empty.h5");
    auto const ref = ReferenceParticle::from_kinetic(938.27208816, 1.0, 10.0);
    {
        OutputFile out(path);
        write_phase_space(out, 3, "beam", PhaseSpaceHost{}, ref, "COLL", 1e-12, 100);
        out.commit();
    }
    auto const back = read_phase_space(path);
    CHECK(back.beam.size() == 0);
    CHECK(back.beam.id.empty());
    CHECK(back.bunch_charge == 0.0);
    CHECK(back.where == "COLL");
}

TEST_CASE("bad arguments to the writer are refused before anything is written")
{
    TempDir dir;
    OutputFile out(dir.file("bad.h5"));
    auto const ref = ReferenceParticle::from_kinetic(938.27208816, 1.0, 10.0);
    auto beam = sample_beam(4, 1.0);
    beam.pt.pop_back();
    CHECK_THROWS_AS(write_phase_space(out, 0, "beam", beam, ref, "end", 0.0, 4), std::invalid_argument);
    CHECK_THROWS_AS(write_phase_space(out, 0, "my beam", sample_beam(4, 1.0), ref, "end", 0.0, 4),
                    std::invalid_argument);
    CHECK_THROWS_AS(write_phase_space(out, -1, "beam", sample_beam(4, 1.0), ref, "end", 0.0, 4),
                    std::invalid_argument);
    CHECK_THROWS_AS(write_phase_space(out, 0, "beam", sample_beam(4, 1.0), ref, "end", 0.0, 3),
                    std::invalid_argument);
    CHECK_FALSE(h5::exists(out.id(), "/data"));
}

TEST_CASE("files that are not openPMD, or lack a record, are rejected with the path and what is missing")
{
    TempDir dir;
    auto const ref = ReferenceParticle::from_kinetic(938.27208816, 1.0, 10.0);

    std::string const plain = dir.file("plain.h5");
    {
        OutputFile out(plain);
        out.write_dataset("x", std::vector<double>{1, 2, 3});
        out.commit();
    }
    std::string m = io_error_of([&] { read_phase_space(plain); });
    CHECK(contains(m, plain));
    CHECK(contains(m, "not an openPMD file"));

    std::ofstream(dir.file("text.h5")) << "x y z\n1 2 3\n";
    CHECK(contains(io_error_of([&] { read_phase_space(dir.file("text.h5")); }), "is not an HDF5 file"));

    std::string const no_pt = dir.file("no_pt.h5");
    {
        OutputFile out(no_pt);
        write_phase_space(out, 1, "beam", sample_beam(3, 1.0), ref, "end", 0.0, 3);
        REQUIRE(H5Ldelete(out.id(), "/data/1/particles/beam/momentum/t", H5P_DEFAULT) >= 0);
        out.commit();
    }
    m = io_error_of([&] { read_phase_space(no_pt); });
    CHECK(contains(m, no_pt));
    CHECK(contains(m, "iteration 1, species 'beam'"));
    CHECK(contains(m, "'momentum/t' is missing"));

    std::string const no_ref = dir.file("no_ref.h5");
    {
        OutputFile out(no_ref);
        write_phase_space(out, 1, "beam", sample_beam(3, 1.0), ref, "end", 0.0, 3);
        hid_t const sp = H5Gopen2(out.id(), "/data/1/particles/beam", H5P_DEFAULT);
        REQUIRE(sp >= 0);
        H5Adelete(sp, "mass_ref_MeV");
        H5Adelete(sp, "mass_ref");
        H5Gclose(sp);
        out.commit();
    }
    CHECK(contains(io_error_of([&] { read_phase_space(no_ref); }), "mass is missing"));

    std::string const two = dir.file("two.h5");
    {
        OutputFile out(two);
        write_phase_space(out, 0, "protons", sample_beam(3, 1.0), ref, "end", 0.0, 3);
        write_openpmd_root(out);  // idempotent
        out.create_group("/data/0/particles/other");
        out.commit();
    }
    m = io_error_of([&] { read_phase_space(two); });
    CHECK(contains(m, "2 species (other, protons)"));
    CHECK(read_phase_space(two, -1, "protons").beam.size() == 3);
    CHECK(contains(io_error_of([&] { read_phase_space(two, -1, "muons"); }), "no species 'muons'"));
    CHECK(contains(io_error_of([&] { read_phase_space(two, -1, "other"); }), "'position/x' is missing"));
}
