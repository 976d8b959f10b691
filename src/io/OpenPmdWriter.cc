// openPMD 1.1.0 phase-space output and input (layout and units in OpenPmdWriter.hh, docs/output.md).
#include "io/OpenPmdWriter.hh"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <ctime>
#include <future>
#include <limits>
#include <numeric>
#include <stdexcept>

#include <fmt/format.h>
#ifdef __linux__
#include <fcntl.h>
#endif

#include "BuildInfo.hh"
#include "io/BeamPhysicsSpecies.hh"
#include "io/H5Access.hh"
#include "io/H5SharedValues.hh"
#include "io/OpenPmdConstantRecord.hh"
#include "io/OutputFile.hh"

namespace gt {
namespace {

using UnitDimension = std::array<double, 7>;  // powers of L, M, T, I, theta, N, J (openPMD 1.1.0)
constexpr UnitDimension k_dimensionless{0, 0, 0, 0, 0, 0, 0};
constexpr UnitDimension k_length{1, 0, 0, 0, 0, 0, 0};
constexpr UnitDimension k_momentum{1, 1, -1, 0, 0, 0, 0};  // kg m / s
constexpr UnitDimension k_charge{0, 0, 1, 1, 0, 0, 0};     // A s
constexpr UnitDimension k_mass{0, 1, 0, 0, 0, 0, 0};
constexpr UnitDimension k_time{0, 0, 1, 0, 0, 0, 0};

//! openPMD 1.1.0 numbers extensions by bit: SpeciesType is 4 (its document, "openPMD extension ID").
//! BeamPhysics 2.0 asks for the string "BeamPhysics;SpeciesType" with base standard 2.0, but
//! openPMD-viewer refuses any base standard but 1.x and ANDs the attribute as a bitmask, so gtrack
//! keeps the 1.1.0 form and writes the BeamPhysics records (create_beamphysics_records) besides.
constexpr std::uint32_t k_extension_species_type = 4;

constexpr char const* k_components[3] = {"x", "y", "t"};
constexpr double k_mev = 1e6 * constants::e_charge;  // [J]

//! Attributes every openPMD record carries; macroWeighted / weightingPower say how a quantity scales
//! from one real particle to a macroparticle (value * weighting^power), as openPMD-api writes them.
void record_attributes(hid_t record, UnitDimension const& dims, std::uint32_t macro_weighted,
                       double weighting_power)
{
    h5::write_attribute(record, "unitDimension", std::span<double const>(dims));
    h5::write_attribute(record, "timeOffset", 0.0);
    h5::write_attribute(record, "macroWeighted", macro_weighted);
    h5::write_attribute(record, "weightingPower", weighting_power);
}

//! A record component of `n` values of T's type, to be filled with h5::write_slab.
template <class T>
h5::Dataset create_component(hid_t parent, std::string const& name, std::size_t n, T type_tag, double unit_si)
{
    h5::Dataset ds = h5::create_dataset_1d(parent, name, n, type_tag);
    h5::write_attribute(ds, "unitSI", unit_si);
    return ds;
}

//! An openPMD constant record component: a group with 'value' and 'shape' instead of a dataset.
h5::Group write_constant(hid_t parent, std::string const& name, double value, std::uint64_t n, double unit_si)
{
    h5::Group g = h5::create_groups(parent, name);
    h5::write_attribute(g, "value", value);
    std::uint64_t const shape[1] = {n};
    h5::write_attribute(g, "shape", std::span<std::uint64_t const>(shape));
    h5::write_attribute(g, "unitSI", unit_si);
    return g;
}

bool is_record_name(std::string const& s)
{
    if (s.empty()) return false;
    for (char c : s)
        if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) return false;
    return true;
}

//! openPMD's date format, "YYYY-MM-DD HH:mm:ss tz", in UTC.
std::string openpmd_date()
{
    std::time_t const now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
    std::tm utc{};
    gmtime_r(&now, &utc);
    char text[40];
    std::strftime(text, sizeof text, "%Y-%m-%d %H:%M:%S +0000", &utc);
    return text;
}

// ---- reading ---------------------------------------------------------------------------------

struct ReadContext {
    std::string path;
    std::string where;  //!< "iteration 3, species 'beam'"
    [[noreturn]] void fail(std::string const& what) const
    {
        throw IoError(fmt::format("'{}': {}: {}", path, where, what));
    }
};

constexpr char const* k_needed = "gtrack reads position/{x,y,t}, momentum/{x,y,t}, id and weighting";

//! A record component as stored: a dataset, or a constant component (group with value and shape).
constexpr std::size_t k_no_ids = std::numeric_limits<std::size_t>::max();

//! A constant component (a group with value and shape) is expanded to `particles` values: its shape
//! must say that many (a shape from the file is never trusted as an allocation size).
std::vector<double> read_component(ReadContext const& ctx, hid_t species, std::string const& name,
                                   std::size_t particles)
{
    if (!h5::exists(species, name)) ctx.fail(fmt::format("record '{}' is missing ({})", name, k_needed));
    if (!h5::is_group(species, name)) return h5::read_doubles(species, name);
    if (particles == k_no_ids)
        ctx.fail(fmt::format("constant record '{}': no 'id' dataset to give the particle count ({})", name,
                             k_needed));
    try {
        return read_constant_record(species, name, particles, "the particle count of 'id'");
    } catch (ConstantRecordError const& e) {
        ctx.fail(e.what());
    }
}

double unit_si(hid_t species, std::string const& name)
{
    h5::Object obj = h5::open_object(species, name);
    return h5::has_attribute(obj, "unitSI") ? h5::read_double_attribute(obj, "unitSI") : 1.0;
}

ReferenceParticle read_reference(ReadContext const& ctx, hid_t species, bool written_by_gtrack)
{
    auto const number = [&](char const* name) { return h5::read_double_attribute(species, name); };
    auto const has = [&](char const* name) { return h5::has_attribute(species, name); };
    double mass_mev = 0;
    if (has("mass_ref_MeV"))
        mass_mev = number("mass_ref_MeV");
    else if (has("mass_ref"))  // ImpactX: [kg]
        mass_mev = number("mass_ref") * constants::c_light * constants::c_light / k_mev;
    else
        ctx.fail("the reference particle's mass is missing (attribute mass_ref_MeV or mass_ref)");
    if (!(mass_mev > 0)) ctx.fail(fmt::format("the reference particle's mass is {} MeV", mass_mev));

    double charge_e = 0;
    if (has("charge_number_ref"))
        charge_e = number("charge_number_ref");
    else if (has("charge_ref"))  // [C]
        charge_e = number("charge_ref") / constants::e_charge;
    else
        ctx.fail("the reference particle's charge is missing (attribute charge_number_ref or charge_ref)");

    double kinetic = 0;
    if (has("kinetic_energy_ref_MeV")) {
        kinetic = number("kinetic_energy_ref_MeV");
    } else if (has("beta_gamma_ref")) {
        // T = (pc)^2 / (E + m c^2): no cancellation at low energy, unlike E - m c^2.
        double const pc = number("beta_gamma_ref") * mass_mev;
        kinetic = pc * pc / (std::sqrt(pc * pc + mass_mev * mass_mev) + mass_mev);
    } else {
        ctx.fail(
            "the reference particle's energy is missing (attribute kinetic_energy_ref_MeV or "
            "beta_gamma_ref)");
    }
    auto ref = ReferenceParticle::from_kinetic(mass_mev, charge_e, kinetic);
    if (has("s_ref")) ref.s = number("s_ref");
    // gtrack stores t_ref in seconds; other codes (ImpactX: c t in metres) differ, so only ours is used.
    if (written_by_gtrack && has("t_ref")) ref.t = number("t_ref");
    return ref;
}

//! The records and attributes openpmd-beamphysics reads (BeamPhysics extension, load_species_data):
//! speciesType, numParticles, totalCharge; position/z (a snapshot sits at one s: z = s_ref through
//! positionOffset/z); momentum/z = P_z / p_ref with unitSI p_ref, so x, y and z all give SI momentum;
//! time = t / c relative to timeOffset = t_ref; weight (macro-charge [C]); particleStatus (1: alive,
//! the only particles a snapshot holds). gtrack's own (x, px, y, py, t, pt) records stay as they are.
//! The BeamPhysics records that hold a value per particle, created at full length.
struct BeamPhysicsRecords {
    h5::Dataset pz, time;
};

BeamPhysicsRecords create_beamphysics_records(hid_t sp, std::size_t n, ReferenceParticle const& ref,
                                              double macro_charge)
{
    auto const count = static_cast<std::uint64_t>(n);
    auto const species = beamphysics_species(ref.mass_mev, ref.charge_e);
    h5::write_attribute(sp, "speciesType", species ? species->name : std::string_view("ion"));
    h5::write_attribute(sp, "numParticles", count);
    h5::write_attribute(sp, "totalCharge", macro_charge * static_cast<double>(n));
    h5::write_attribute(sp, "chargeLive", macro_charge * static_cast<double>(n));
    h5::write_attribute(sp, "chargeUnitSI", 1.0);

    {
        h5::Group pos = h5::open_group(sp, "position");
        write_constant(pos, "z", 0.0, count, 1.0);
        h5::Group off = h5::open_group(sp, "positionOffset");
        write_constant(off, "z", ref.s, count, 1.0);
    }
    BeamPhysicsRecords r;
    {
        double const p_ref = ref.pc_mev * k_mev / constants::c_light;
        h5::Group mom = h5::open_group(sp, "momentum");
        r.pz = create_component(mom, "z", n, 0.0, p_ref);
    }
    {
        // Stored as gtrack's t = c (t - t_ref) [m] with unitSI 1/c, so value * unitSI is seconds and
        // the numbers are the tracked ones, bit for bit. (An HDF5 virtual dataset over position/t would
        // store them once, but needs the 1.10 file format; gtrack's outputs and the checkpoints that
        // copy their snapshots keep 1.8, OutputFile.cc.)
        r.time = create_component(sp, "time", n, 0.0, 1.0 / constants::c_light);
        record_attributes(r.time, k_time, 0, 0.0);
        h5::Group offset = write_constant(sp, "timeOffset", ref.t, count, 1.0);
        record_attributes(offset, k_time, 0, 0.0);
    }
    {
        h5::Group w = write_constant(sp, "weight", macro_charge, count, 1.0);
        record_attributes(w, k_charge, 1, 1.0);
    }
    {
        h5::Group status = write_constant(sp, "particleStatus", 1.0, count, 1.0);
        record_attributes(status, k_dimensionless, 0, 0.0);
    }
    return r;
}

//! The BeamPhysics values of `piece`, at [offset, offset + piece.size()).
void write_beamphysics_piece(BeamPhysicsRecords const& r, std::size_t offset, PhaseSpacePiece const& piece,
                             ReferenceParticle const& ref)
{
    // |P| / p_ref from pt: (E / p_ref c)^2 - (m c / p_ref)^2 = (1/beta - pt)^2 - 1/(beta gamma)^2
    // = 1 - 2 pt / beta + pt^2, written so that nothing cancels at pt = 0.
    std::size_t const n = piece.size();
    std::vector<double> pz(n);
    double const inv_beta = 1.0 / ref.beta;
    for (std::size_t i = 0; i < n; ++i) {
        double const pt = piece.pt[i];
        double const p2 = 1.0 - 2.0 * pt * inv_beta + pt * pt;
        pz[i] = std::sqrt(p2 - piece.px[i] * piece.px[i] - piece.py[i] * piece.py[i]);
    }
    h5::write_slab(r.pz, offset, std::span<double const>(pz));
    h5::write_slab(r.time, offset, piece.t);
}

//! The per-particle records of one snapshot, created at full length.
struct ParticleRecords {
    h5::Dataset x, y, t, px, py, pt, id, weighting;
    BeamPhysicsRecords beamphysics;
};

//! Piece `p` at [offset, offset + p.size()): 72 bytes a particle (x, y, t, px, py, pt, id and the
//! BeamPhysics momentum/z and time; weighting holds no data of its own).
void write_piece(ParticleRecords const& r, std::size_t offset, PhaseSpacePiece const& p,
                 ReferenceParticle const& ref)
{
    h5::write_slab(r.x, offset, p.x);
    h5::write_slab(r.y, offset, p.y);
    h5::write_slab(r.t, offset, p.t);
    h5::write_slab(r.px, offset, p.px);
    h5::write_slab(r.py, offset, p.py);
    h5::write_slab(r.pt, offset, p.pt);
    h5::write_slab(r.id, offset, p.id);
    write_beamphysics_piece(r.beamphysics, offset, p, ref);
}

//! Has the kernel start writing the file's dirty pages to disk now (Linux: sync_file_range, which
//! queues the write-out and returns), so that the disk works while the next piece is fetched. Else a
//! snapshot larger than the kernel's dirty-page threshold waits in the page cache and the fsync
//! before the rename (OutputFile::commit) writes most of it at the end, with nothing to overlap.
void start_writeback(hid_t file)
{
#ifdef __linux__
    void* handle = nullptr;
    if (H5Fget_vfd_handle(file, H5P_DEFAULT, &handle) < 0 || handle == nullptr) {
        H5Eclear2(H5E_DEFAULT);  // not the POSIX driver: nothing to start
        return;
    }
    ::sync_file_range(*static_cast<int*>(handle), 0, 0, SYNC_FILE_RANGE_WRITE);  // best effort
#else
    (void)file;
#endif
}

}  // namespace

void write_openpmd_root(OutputFile& out)
{
    hid_t const root = out.id();
    if (h5::has_attribute(root, "openPMD")) return;
    h5::write_attribute(root, "openPMD", "1.1.0");
    h5::write_attribute(root, "openPMDextension", k_extension_species_type);
    h5::write_attribute(root, "basePath", "/data/%T/");
    h5::write_attribute(root, "particlesPath", "particles/");
    h5::write_attribute(root, "iterationEncoding", "groupBased");
    h5::write_attribute(root, "iterationFormat", "/data/%T/");
    h5::write_attribute(root, "software", "gtrack");
    char const* user = std::getenv("USER");  // openPMD recommends an author; the login is what we know
    h5::write_attribute(root, "author", user != nullptr && *user != '\0' ? user : "unknown");
    h5::write_attribute(root, "softwareVersion", fmt::format("{} (git {})", build::version, build::git_hash));
    h5::write_attribute(root, "date", openpmd_date());
}

PhaseSpacePiece PhaseSpacePiece::of(PhaseSpaceHost const& b)
{
    return PhaseSpacePiece{b.x, b.px, b.y, b.py, b.t, b.pt, b.id};
}

void write_phase_space(OutputFile& out, std::int64_t iteration, std::string const& species,
                       PhaseSpaceHost const& beam, ReferenceParticle const& ref, std::string const& where,
                       double bunch_charge, std::uint64_t macroparticles)
{
    std::size_t const n = beam.size();
    if (beam.px.size() != n || beam.y.size() != n || beam.py.size() != n || beam.t.size() != n ||
        beam.pt.size() != n || beam.id.size() != n)
        throw std::invalid_argument("write_phase_space: coordinate vectors differ in length");
    write_phase_space_in_pieces(
        out, iteration, species, n, [&] { return PhaseSpacePiece::of(beam); }, ref, where, bunch_charge,
        macroparticles);
}

void write_phase_space_in_pieces(OutputFile& out, std::int64_t iteration, std::string const& species,
                                 std::uint64_t total, std::function<PhaseSpacePiece()> const& next,
                                 ReferenceParticle const& ref, std::string const& where, double bunch_charge,
                                 std::uint64_t macroparticles)
{
    std::size_t const n = total;
    if (iteration < 0)
        throw std::invalid_argument(fmt::format("write_phase_space: iteration {} < 0", iteration));
    if (!is_record_name(species))
        throw std::invalid_argument(fmt::format(
            "write_phase_space: species name '{}' is not letters, digits and '_' (openPMD)", species));
    if (macroparticles < n)
        throw std::invalid_argument(fmt::format(
            "write_phase_space: {} particles given but the beam started with {}", n, macroparticles));

    write_openpmd_root(out);
    std::string const base = fmt::format("/data/{}", iteration);
    if (h5::exists(out.id(), base))
        throw IoError(fmt::format("'{}': iteration {} was written already", out.temp_path(), iteration));
    {
        // openPMD wants the iteration's time; an s-based code has the reference particle's time of
        // flight. There is no time step: dt = 0.
        h5::Group it = out.create_group(base);
        h5::write_attribute(it, "time", ref.t);
        h5::write_attribute(it, "dt", 0.0);
        h5::write_attribute(it, "timeUnitSI", 1.0);
    }
    h5::Group sp = out.create_group(base + "/particles/" + species);
    auto const count = static_cast<std::uint64_t>(n);

    double const q = ref.charge_e * constants::e_charge;  // [C] one real particle
    double const mass_kg = ref.mass_mev * k_mev / (constants::c_light * constants::c_light);
    double const p_ref = ref.pc_mev * k_mev / constants::c_light;  // [kg m/s]
    // Neutral beams carry no charge to distribute: their macroparticles get weight 0.
    double const weight = ref.charge_e != 0 && macroparticles > 0
                              ? bunch_charge / (std::abs(q) * static_cast<double>(macroparticles))
                              : 0.0;

    // The per-particle records are created at their full length, then filled piece after piece.
    h5::Group position = h5::create_groups(sp, "position");
    record_attributes(position, k_length, 0, 0.0);
    h5::write_attribute(position, "comment", "x, y [m]; t = c (t - t_ref) [m]");
    ParticleRecords r;
    r.x = create_component(position, "x", n, 0.0, 1.0);
    r.y = create_component(position, "y", n, 0.0, 1.0);
    r.t = create_component(position, "t", n, 0.0, 1.0);
    {
        h5::Group rec = h5::create_groups(sp, "positionOffset");
        record_attributes(rec, k_length, 0, 0.0);
        for (char const* c : k_components) write_constant(rec, c, 0.0, count, 1.0);
    }
    h5::Group momentum = h5::create_groups(sp, "momentum");
    record_attributes(momentum, k_momentum, 0, 1.0);
    h5::write_attribute(momentum, "comment",
                        "x = px = P_x / p_ref, y = py = P_y / p_ref, t = pt = -(E - E_ref) / (p_ref c); "
                        "unitSI = p_ref [kg m/s]");
    r.px = create_component(momentum, "x", n, 0.0, p_ref);
    r.py = create_component(momentum, "y", n, 0.0, p_ref);
    r.pt = create_component(momentum, "t", n, 0.0, p_ref);
    r.id = create_component(sp, "id", n, std::uint64_t{0}, 1.0);
    record_attributes(r.id, k_dimensionless, 0, 0.0);
    // The same weight for every macroparticle: a uniform dataset (H5SharedValues.hh), no data written.
    r.weighting = h5::create_uniform_dataset_1d(sp, "weighting", n, weight);
    h5::write_attribute(r.weighting, "unitSI", 1.0);
    record_attributes(r.weighting, k_dimensionless, 1, 1.0);
    r.beamphysics = create_beamphysics_records(sp, n, ref, std::abs(q) * weight);
    // Each piece is written on a second thread while the main one fetches the next (from the GPU or
    // another rank); only that thread calls HDF5 meanwhile, so the library is never entered twice.
    std::size_t offset = 0;
    PhaseSpacePiece p;
    if (n > 0) p = next();
    while (offset < n) {
        std::size_t const m = p.size();
        if (m == 0 || p.px.size() != m || p.y.size() != m || p.py.size() != m || p.t.size() != m ||
            p.pt.size() != m || p.id.size() != m || offset + m > n)
            throw std::invalid_argument(fmt::format(
                "write_phase_space: a piece of {} particles at {} does not fit {} in all", m, offset, n));
        auto writing = std::async(std::launch::async, [&r, p, offset, &ref, file = out.id()] {
            write_piece(r, offset, p, ref);
            start_writeback(file);
        });
        offset += m;
        PhaseSpacePiece following;
        try {
            if (offset < n) following = next();
        } catch (...) {
            writing.wait();
            throw;
        }
        writing.get();
        p = following;
    }
    {
        h5::Group rec = write_constant(sp, "charge", q, count, 1.0);
        record_attributes(rec, k_charge, 0, 1.0);
    }
    {
        h5::Group rec = write_constant(sp, "mass", mass_kg, count, 1.0);
        record_attributes(rec, k_mass, 0, 1.0);
    }

    // The reference particle, with ImpactX's attribute names and units (mass_ref [kg], charge_ref [C],
    // s_ref [m]) plus gtrack's exact inputs (MeV, charge number) so a reader rebuilds it bit for bit.
    h5::write_attribute(sp, "beta_ref", ref.beta);
    h5::write_attribute(sp, "gamma_ref", ref.gamma);
    h5::write_attribute(sp, "beta_gamma_ref", ref.beta_gamma);
    h5::write_attribute(sp, "mass_ref", mass_kg);
    h5::write_attribute(sp, "charge_ref", q);
    h5::write_attribute(sp, "s_ref", ref.s);
    h5::write_attribute(sp, "t_ref", ref.t);
    h5::write_attribute(sp, "pc_ref", ref.pc_mev);
    h5::write_attribute(sp, "mass_ref_MeV", ref.mass_mev);
    h5::write_attribute(sp, "charge_number_ref", ref.charge_e);
    h5::write_attribute(sp, "kinetic_energy_ref_MeV", ref.kinetic_mev);
    h5::write_attribute(sp, "element", where);
    h5::write_attribute(sp, "charge_C", std::abs(q) * weight * static_cast<double>(n));
}

PhaseSpaceFile read_phase_space(std::string const& path, std::int64_t iteration, std::string const& species)
{
    h5::File file = h5::open_file_readonly(path);
    ReadContext ctx{path, "root"};
    if (!h5::has_attribute(file, "openPMD"))
        ctx.fail("not an openPMD file (the root attribute 'openPMD' is missing)");
    std::string const version = h5::read_string_attribute(file, "openPMD");
    if (version.rfind("1.", 0) != 0)
        ctx.fail(fmt::format("openPMD version {} is not supported (1.x is)", version));
    if (!h5::has_attribute(file, "particlesPath"))
        ctx.fail("the file holds no particles (the root attribute 'particlesPath' is missing)");
    std::string particles_path = h5::read_string_attribute(file, "particlesPath");
    while (!particles_path.empty() && particles_path.back() == '/') particles_path.pop_back();

    // openPMD 1.x fixes basePath to /data/%T/: iterations are the numeric groups under /data.
    std::vector<std::int64_t> iterations;
    if (h5::is_group(file, "/data")) {
        h5::Group data = h5::open_group(file, "/data");
        for (auto const& name : h5::list_children(data)) {
            std::int64_t value = 0;
            auto const [end, ec] = std::from_chars(name.data(), name.data() + name.size(), value);
            if (ec == std::errc() && end == name.data() + name.size()) iterations.push_back(value);
        }
    }
    if (iterations.empty()) ctx.fail("no iterations under /data");
    std::sort(iterations.begin(), iterations.end());
    std::int64_t const it = iteration < 0 ? iterations.back() : iteration;
    if (!std::binary_search(iterations.begin(), iterations.end(), it))
        ctx.fail(fmt::format("iteration {} is not in the file (it has {})", it, fmt::join(iterations, ", ")));

    std::string const particles = fmt::format("/data/{}/{}", it, particles_path);
    ctx.where = fmt::format("iteration {}", it);
    if (!h5::is_group(file, particles)) ctx.fail(fmt::format("{} is missing: no particles", particles));
    std::vector<std::string> names;
    {
        h5::Group group = h5::open_group(file, particles);
        for (auto const& name : h5::list_children(group))
            if (h5::is_group(group, name)) names.push_back(name);
    }
    std::string chosen = species;
    if (chosen.empty()) {
        if (names.size() != 1)
            ctx.fail(fmt::format("{} species ({}): say which one", names.size(), fmt::join(names, ", ")));
        chosen = names[0];
    } else if (std::find(names.begin(), names.end(), chosen) == names.end()) {
        ctx.fail(fmt::format("no species '{}' (there is: {})", chosen, fmt::join(names, ", ")));
    }
    ctx.where = fmt::format("iteration {}, species '{}'", it, chosen);
    h5::Group sp = h5::open_group(file, particles + "/" + chosen);

    PhaseSpaceFile result;
    result.iteration = it;
    result.species = chosen;
    // The ids' count is what a constant record expands to (the id record itself is checked below).
    std::size_t count = k_no_ids;
    if (h5::exists(sp, "id") && !h5::is_group(sp, "id")) {
        result.beam.id = h5::read_uint64s(sp, "id");
        count = result.beam.id.size();
    }
    std::vector<double>* position[3] = {&result.beam.x, &result.beam.y, &result.beam.t};
    std::vector<double>* momentum[3] = {&result.beam.px, &result.beam.py, &result.beam.pt};
    for (int c = 0; c < 3; ++c) {
        std::string const pos = std::string("position/") + k_components[c];
        *position[c] = read_component(ctx, sp, pos, count);
        // The standard's position is relative to positionOffset and in units of unitSI; gtrack's
        // offsets are 0 and units 1, where nothing is touched (so values round-trip bit for bit).
        double const scale = unit_si(sp, pos);
        std::string const off = std::string("positionOffset/") + k_components[c];
        std::vector<double> offset;
        double offset_scale = 1.0;
        if (h5::exists(sp, off)) {
            offset = read_component(ctx, sp, off, count);
            offset_scale = unit_si(sp, off);
            if (offset.size() != position[c]->size())
                ctx.fail(fmt::format("{} and {} differ in length", pos, off));
        }
        for (std::size_t i = 0; i < position[c]->size(); ++i) {
            double& v = (*position[c])[i];
            if (scale != 1.0) v *= scale;
            if (!offset.empty() && offset[i] != 0.0) v += offset[i] * offset_scale;
        }
        // Momenta are ImpactX's dimensionless coordinates, read as stored.
        *momentum[c] = read_component(ctx, sp, std::string("momentum/") + k_components[c], count);
    }
    if (!h5::exists(sp, "id")) ctx.fail(fmt::format("record 'id' is missing ({})", k_needed));
    if (h5::is_group(sp, "id")) ctx.fail("record 'id' is constant: particles need distinct ids");
    result.weighting = read_component(ctx, sp, "weighting", count);

    std::size_t const n = result.beam.x.size();
    for (auto const* v : {&result.beam.px, &result.beam.y, &result.beam.py, &result.beam.t, &result.beam.pt,
                          &result.weighting})
        if (v->size() != n) ctx.fail("records differ in length");
    if (result.beam.id.size() != n) ctx.fail("record 'id' differs in length from position");

    bool const by_gtrack =
        h5::has_attribute(file, "software") && h5::read_string_attribute(file, "software") == "gtrack";
    result.ref = read_reference(ctx, sp, by_gtrack);
    if (h5::has_attribute(sp, "element")) result.where = h5::read_string_attribute(sp, "element");
    double const sum_w = std::accumulate(result.weighting.begin(), result.weighting.end(), 0.0);
    result.bunch_charge = std::abs(result.ref.charge_e * constants::e_charge) * sum_w;
    return result;
}

}  // namespace gt
