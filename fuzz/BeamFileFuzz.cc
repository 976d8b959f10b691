// Fuzz target: beam particle files (openPMD HDF5, read by distribution = "file"). The input does not
// go to HDF5 as raw bytes (that would fuzz libhdf5's own parser, not gtrack); it describes a file
// that HDF5 writes: which root attributes, iterations, species and records exist, their types,
// lengths and values. The reader and the run's checks (initial_reference, initial_beam) must turn
// every such file into an IoError or DeckError, or into a beam that a run can track: a finite
// reference and finite coordinates with distinct ids.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "FuzzHdf5.hh"
#include "deck/DeckError.hh"
#include "deck/DeckReader.hh"
#include "io/OpenPmdWriter.hh"
#include "kernels/beam/BeamKernels.hh"
#include "run/BeamRun.hh"

namespace {

using gt::fuzz::pick_double;
using gt::fuzz::pick_length;
using gt::fuzz::write_number_attribute;

//! The regression deck that reads a beam file (a helium ion at 400 MeV); the file name is set per input.
std::string const& base_deck()
{
    static std::string const text = [] {
        std::ifstream in(GTRACK_SOURCE_DIR "/regression/beam_file/deck.toml");
        std::ostringstream s;
        s << in.rdbuf();
        return s.str();
    }();
    return text;
}

//! One record (position/x, id, ...): left out, a constant record (a group with value and shape),
//! a dataset of the wrong type, or of doubles of a plausible or other length; maybe with unitSI.
void write_record(hid_t species, std::string const& name, FuzzedDataProvider& in, std::uint64_t n)
{
    int const mode = in.ConsumeIntegralInRange(0, 7);
    if (mode == 0) return;
    std::string const parent = name.find('/') == std::string::npos ? "" : name.substr(0, name.find('/'));
    std::string const leaf = name.substr(name.find('/') + 1);
    gt::h5::Group group = gt::h5::create_groups(species, parent.empty() ? "." : parent);
    if (mode == 1) {
        gt::h5::Group record = gt::h5::create_groups(group, leaf);
        write_number_attribute(record, "value", in, 1e-3);
        std::vector<std::uint64_t> shape(in.ConsumeIntegralInRange(0, 2));
        for (auto& s : shape) s = pick_length(in, n);
        if (in.ConsumeBool()) gt::h5::write_attribute(record, "shape", std::span<std::uint64_t const>(shape));
    } else if (mode == 2) {
        std::vector<std::int64_t> values(n);
        for (auto& v : values) v = in.ConsumeIntegral<std::int64_t>();
        gt::h5::write_dataset(group, leaf, std::span<std::int64_t const>(values));
    } else {
        // Lengths are capped: the file is written for real, and a long dataset only costs time.
        std::vector<double> values(std::min<std::uint64_t>(pick_length(in, n), 64));
        for (std::size_t i = 0; i < values.size(); ++i) values[i] = pick_double(in, 1e-3 * double(i));
        gt::h5::write_dataset(group, leaf, std::span<double const>(values));
    }
    gt::h5::Object record = gt::h5::open_object(group, leaf);
    if (in.ConsumeBool()) write_number_attribute(record, "unitSI", in, 1.0);
}

void write_ids(hid_t species, FuzzedDataProvider& in, std::uint64_t n)
{
    switch (in.ConsumeIntegralInRange(0, 5)) {
        case 0:
            return;
        case 1: {
            gt::h5::Group record = gt::h5::create_groups(species, "id");
            write_number_attribute(record, "value", in, 1);
            return;
        }
        case 2: {
            std::vector<double> values(n);
            for (auto& v : values) v = pick_double(in, 1);
            gt::h5::write_dataset(species, "id", std::span<double const>(values));
            return;
        }
        default: {
            std::vector<std::uint64_t> ids(std::min<std::uint64_t>(pick_length(in, n), 64));
            for (std::size_t i = 0; i < ids.size(); ++i)
                ids[i] = in.ConsumeBool() ? i + 1 : in.ConsumeIntegralInRange<std::uint64_t>(0, 4);
            gt::h5::write_dataset(species, "id", std::span<std::uint64_t const>(ids));
        }
    }
}

//! A species group holding n particles of the deck's helium ion, as the input varies it.
void write_species(hid_t particles, std::string const& name, FuzzedDataProvider& in, std::uint64_t n)
{
    gt::h5::Group sp = gt::h5::create_groups(particles, name);
    for (char const* c : {"x", "y", "t"}) {
        write_record(sp, fmt::format("position/{}", c), in, n);
        write_record(sp, fmt::format("momentum/{}", c), in, n);
        if (in.ConsumeIntegralInRange(0, 3) == 0) write_record(sp, fmt::format("positionOffset/{}", c), in, n);
    }
    write_ids(sp, in, n);
    write_record(sp, "weighting", in, n);
    // Helium-4 nucleus (the deck's species): rest energy, charge, kinetic energy as in the deck.
    double const mass_mev = 3727.3794118;
    write_number_attribute(sp, "mass_ref_MeV", in, mass_mev);
    write_number_attribute(sp, "mass_ref", in, 6.6446573450e-27);
    write_number_attribute(sp, "charge_number_ref", in, 2.0);
    write_number_attribute(sp, "charge_ref", in, 3.204353268e-19);
    write_number_attribute(sp, "kinetic_energy_ref_MeV", in, 400.0);
    write_number_attribute(sp, "beta_gamma_ref", in, 0.47);
    write_number_attribute(sp, "s_ref", in, 0.0);
    write_number_attribute(sp, "t_ref", in, 0.0);
    if (in.ConsumeBool()) gt::h5::write_attribute(sp, "element", in.ConsumeRandomLengthString(8));
}

void write_beam_file(std::string const& path, FuzzedDataProvider& in)
{
    gt::h5::File file = gt::fuzz::create_file(path);
    static char const* const versions[] = {"1.1.0", "1.0.0", "2.0.0", ""};
    if (in.ConsumeIntegralInRange(0, 7) != 0)
        gt::h5::write_attribute(file, "openPMD", versions[in.ConsumeIntegralInRange(0, 3)]);
    static char const* const paths[] = {"particles/", "particles", "particles//", "", "/", "other/"};
    if (in.ConsumeIntegralInRange(0, 7) != 0)
        gt::h5::write_attribute(file, "particlesPath", paths[in.ConsumeIntegralInRange(0, 5)]);
    if (in.ConsumeBool()) gt::h5::write_attribute(file, "software", in.ConsumeBool() ? "gtrack" : "ImpactX");
    int const iterations = in.ConsumeIntegralInRange(0, 3);
    for (int i = 0; i < iterations; ++i) {
        std::string const it = in.ConsumeBool() ? std::to_string(in.ConsumeIntegral<std::int64_t>())
                                                : std::to_string(i);
        gt::h5::Group data = gt::h5::create_groups(file, "/data/" + it);
        if (in.ConsumeIntegralInRange(0, 7) == 0) continue;
        gt::h5::Group particles = gt::h5::create_groups(data, "particles");
        int const species = in.ConsumeIntegralInRange(0, 3) == 0 ? in.ConsumeIntegralInRange(0, 2) : 1;
        std::uint64_t const n = in.ConsumeIntegralInRange<std::uint64_t>(0, 24);
        for (int s = 0; s < species; ++s) write_species(particles, s == 0 ? "ion" : fmt::format("s{}", s), in, n);
    }
    file.close("H5Fclose", path);
}

//! What a run may start from: a finite reference and finite, distinctly numbered particles.
void check_startable(gt::ReferenceParticle const& ref, gt::ParticleView v)
{
    if (!std::isfinite(ref.gamma) || !(ref.gamma >= 1) || !(ref.beta > 0 && ref.beta <= 1) ||
        !std::isfinite(ref.s) || !std::isfinite(ref.t) || !std::isfinite(ref.rigidity))
        __builtin_trap();
    std::set<std::uint64_t> ids;
    for (gt::size_type i = 0; i < v.size; ++i) {
        for (double const c : {v.x[i], v.px[i], v.y[i], v.py[i], v.t[i], v.pt[i]})
            if (!std::isfinite(c)) __builtin_trap();
        if (!ids.insert(v.id[i]).second) __builtin_trap();
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(std::uint8_t const* data, std::size_t size)
{
    static std::string const path = gt::fuzz::scratch_file("gtrack-fuzz-beam");
    static auto const kernels = gt::make_cpu_beam_kernels();
    FuzzedDataProvider in(data, size);
    try {
        write_beam_file(path, in);
    } catch (gt::IoError const&) {
        return 0;  // a layout HDF5 refuses to write (e.g. an attribute on a name used twice)
    }
    std::uint64_t particles = 1;
    try {
        particles = std::max<std::uint64_t>(1, gt::read_phase_space(path).beam.size());
    } catch (gt::IoError const&) {
        return 0;
    }
    try {
        gt::DeckConfig const deck = gt::read_deck_text(
            base_deck(), "beam_file.toml",
            {fmt::format("beam.file=\"{}\"", path), fmt::format("beam.macroparticles={}", particles)});
        gt::ReferenceParticle const ref = gt::initial_reference(deck);
        gt::ParticleState state = gt::initial_beam(deck, *kernels);
        check_startable(ref, state.view());
    } catch (gt::DeckError const&) {
    } catch (gt::IoError const&) {
    }
    return 0;
}
