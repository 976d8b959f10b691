// Reading openPMD BeamPhysics particle files written by other codes (layout in BeamPhysicsReader.hh).
#include "io/BeamPhysicsReader.hh"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <numeric>

#include <fmt/format.h>

#include "io/BeamPhysicsSpecies.hh"
#include "io/H5Access.hh"
#include "io/OpenPmdConstantRecord.hh"
#include "io/OutputFile.hh"
#include "kernels/core/Types.hh"

namespace gt {
namespace {

using UnitDimension = std::array<double, 7>;  // powers of L, M, T, I, theta, N, J
constexpr UnitDimension k_length{1, 0, 0, 0, 0, 0, 0};
constexpr UnitDimension k_momentum{1, 1, -1, 0, 0, 0, 0};
constexpr UnitDimension k_time{0, 0, 1, 0, 0, 0, 0};
constexpr UnitDimension k_charge{0, 0, 1, 1, 0, 0, 0};

struct Reader {
    std::string path;
    std::string where;

    [[noreturn]] void fail(std::string const& what) const
    {
        throw IoError(fmt::format("'{}': {}: {}", path, where, what));
    }

    //! value * unitSI of one component (a dataset or a constant component), with the record's
    //! unitDimension checked when it has one.
    std::vector<double> si(hid_t species, std::string const& name, UnitDimension const& dims) const
    {
        if (!h5::exists(species, name)) fail(fmt::format("record '{}' is missing", name));
        std::string const record = name.substr(0, name.find('/'));
        for (std::string const& holder : {record, name}) {
            h5::Object obj = h5::open_object(species, holder);
            if (!h5::has_attribute(obj, "unitDimension")) continue;
            auto const got = h5::read_double_array_attribute(obj, "unitDimension");
            if (!std::equal(got.begin(), got.end(), dims.begin(), dims.end()))
                fail(fmt::format("record '{}' has unitDimension [{}], expected [{}]", holder,
                                 fmt::join(got, ", "), fmt::join(dims, ", ")));
        }
        std::vector<double> values;
        double unit = 1.0;
        {
            h5::Object obj = h5::open_object(species, name);
            if (h5::has_attribute(obj, "unitSI")) unit = h5::read_double_attribute(obj, "unitSI");
        }
        if (h5::is_group(species, name)) {
            // A constant record: its shape must be the species' particle count.
            if (!h5::has_attribute(species, "numParticles"))
                fail(fmt::format("constant record '{}' needs the attribute 'numParticles' to check its shape",
                                 name));
            double const particles = h5::read_double_attribute(species, "numParticles");
            if (!(particles >= 0 && particles < 0x1p64 && particles == std::floor(particles)))
                fail(fmt::format("numParticles is {}, not a number of particles", particles));
            try {
                values = read_constant_record(species, name, std::uint64_t(particles), "numParticles");
            } catch (ConstantRecordError const& e) {
                fail(e.what());
            }
        } else {
            values = h5::read_doubles(species, name);
        }
        if (unit != 1.0)
            for (double& v : values) v *= unit;
        for (double v : values)
            if (!std::isfinite(v)) fail(fmt::format("record '{}' holds a value that is not finite", name));
        return values;
    }

    //! The record plus its offset record (positionOffset/x for position/x), when there is one.
    std::vector<double> with_offset(hid_t species, std::string const& name, UnitDimension const& dims) const
    {
        std::vector<double> v = si(species, name, dims);
        auto const slash = name.find('/');
        std::string const offset = slash == std::string::npos
                                       ? name + "Offset"
                                       : name.substr(0, slash) + "Offset" + name.substr(slash);
        if (!h5::exists(species, offset)) return v;
        std::vector<double> const o = si(species, offset, dims);
        if (o.size() != v.size()) fail(fmt::format("'{}' and '{}' differ in length", name, offset));
        for (std::size_t i = 0; i < v.size(); ++i) v[i] += o[i];
        return v;
    }
};

//! The particle groups of the file: basePath (with %T for each iteration) + particlesPath.
std::vector<std::string> particle_groups(Reader const& r, hid_t file)
{
    if (!h5::has_attribute(file, "openPMD"))
        r.fail("not an openPMD file (the root attribute 'openPMD' is missing)");
    if (!h5::has_attribute(file, "basePath") || !h5::has_attribute(file, "particlesPath"))
        r.fail("the root attributes 'basePath' and 'particlesPath' are needed to find the particles");
    std::string const base = h5::read_string_attribute(file, "basePath");
    std::string const particles = h5::read_string_attribute(file, "particlesPath");
    auto const join = [](std::string a, std::string b) {
        while (b.rfind("./", 0) == 0) b.erase(0, 2);
        if (b == ".") b.clear();
        if (!a.empty() && a.back() != '/') a += '/';
        std::string p = a + b;
        while (p.size() > 1 && p.back() == '/') p.pop_back();
        return p.empty() ? std::string("/") : p;
    };
    auto const marker = base.find("%T");
    if (marker == std::string::npos) return {join(base, particles)};
    std::string const parent = base.substr(0, marker);
    std::string const rest = base.substr(marker + 2);
    if (!h5::is_group(file, parent)) r.fail(fmt::format("no iterations: '{}' is missing", parent));
    std::vector<std::pair<long long, std::string>> numbered;
    h5::Group g = h5::open_group(file, parent);
    for (auto const& name : h5::list_children(g)) {
        char* end = nullptr;
        long long const n = std::strtoll(name.c_str(), &end, 10);
        if (!name.empty() && end != nullptr && *end == '\0') numbered.emplace_back(n, name);
    }
    if (numbered.empty()) r.fail(fmt::format("no iterations under '{}'", parent));
    std::sort(numbered.begin(), numbered.end());
    std::vector<std::string> groups;
    for (auto const& [n, name] : numbered) groups.push_back(join(join(parent, name) + rest, particles));
    return groups;
}

//! The one species group under a particle group.
std::string only_species(Reader const& r, hid_t file, std::string const& particles)
{
    if (!h5::is_group(file, particles)) r.fail(fmt::format("'{}' is missing: no particles", particles));
    h5::Group g = h5::open_group(file, particles);
    std::vector<std::string> species;
    for (auto const& name : h5::list_children(g))
        if (h5::is_group(g, name)) species.push_back(name);
    if (species.size() != 1)
        r.fail(fmt::format("{} species under '{}' ({}): gtrack reads a file with one", species.size(),
                           particles, fmt::join(species, ", ")));
    return particles == "/" ? "/" + species[0] : particles + "/" + species[0];
}

}  // namespace

bool holds_gtrack_coordinates(std::string const& path)
{
    h5::File file = h5::open_file_readonly(path);
    Reader r{path, "root"};
    std::vector<std::string> const groups = particle_groups(r, file);
    std::string const species = only_species(r, file, groups.back());
    h5::Group sp = h5::open_group(file, species);
    return h5::exists(sp, "momentum/t");
}

std::uint64_t count_beam_file_particles(std::string const& path)
{
    h5::File file = h5::open_file_readonly(path);
    Reader r{path, "root"};
    std::vector<std::string> const groups = particle_groups(r, file);
    std::string const species = only_species(r, file, groups.back());
    r.where = species;
    h5::Group sp = h5::open_group(file, species);
    std::string const record = h5::exists(sp, "momentum/t") ? "momentum/t" : "position/x";
    if (!h5::exists(sp, record)) r.fail(fmt::format("record '{}' is missing", record));
    if (h5::is_group(sp, record)) {  // a constant record: the species says how many
        if (!h5::has_attribute(sp, "numParticles"))
            r.fail(fmt::format("constant record '{}' needs the attribute 'numParticles'", record));
        return static_cast<std::uint64_t>(h5::read_double_attribute(sp, "numParticles"));
    }
    if (record == "position/x" && h5::exists(sp, "particleStatus") && !h5::is_group(sp, "particleStatus")) {
        std::vector<double> const status = h5::read_doubles(sp, "particleStatus");
        return static_cast<std::uint64_t>(std::count(status.begin(), status.end(), 1.0));
    }
    return h5::length_1d(sp, record);
}

PhaseSpaceFile read_beamphysics(std::string const& path, ReferenceParticle const& ref)
{
    h5::File file = h5::open_file_readonly(path);
    Reader r{path, "root"};
    std::vector<std::string> const groups = particle_groups(r, file);
    std::string const species_path = only_species(r, file, groups.back());
    r.where = species_path;
    h5::Group sp = h5::open_group(file, species_path);

    if (!h5::has_attribute(sp, "speciesType"))
        r.fail("the attribute 'speciesType' is missing (the BeamPhysics extension requires it)");
    std::string const type = h5::read_string_attribute(sp, "speciesType");
    auto const named = beamphysics_species(type);
    auto const deck = beamphysics_species(ref.mass_mev, ref.charge_e);
    if (named ? !(deck && deck->name == named->name) : deck.has_value())
        r.fail(fmt::format("the particles are '{}' but the deck's species is {} ({:.9g} MeV, charge {:g} e)",
                           type, deck ? std::string(deck->name) : std::string("an ion"), ref.mass_mev,
                           ref.charge_e));

    std::vector<double> const x = r.with_offset(sp, "position/x", k_length);
    std::vector<double> const y = r.with_offset(sp, "position/y", k_length);
    std::vector<double> const z = r.with_offset(sp, "position/z", k_length);
    std::vector<double> const px = r.with_offset(sp, "momentum/x", k_momentum);
    std::vector<double> const py = r.with_offset(sp, "momentum/y", k_momentum);
    std::vector<double> const pz = r.with_offset(sp, "momentum/z", k_momentum);
    std::vector<double> const t = r.with_offset(sp, "time", k_time);
    std::size_t const n = x.size();
    std::vector<double> weight;
    if (h5::exists(sp, "weight")) {
        weight = r.si(sp, "weight", k_charge);
    } else {  // the extension's default: the total charge shared equally
        if (!h5::has_attribute(sp, "totalCharge"))
            r.fail("neither the record 'weight' nor 'totalCharge' is there");
        double const unit =
            h5::has_attribute(sp, "chargeUnitSI") ? h5::read_double_attribute(sp, "chargeUnitSI") : 1.0;
        weight.assign(n,
                      std::abs(h5::read_double_attribute(sp, "totalCharge") * unit) / static_cast<double>(n));
    }
    for (std::vector<double> const* v :
         {&y, &z, &px, &py, &pz, &t, static_cast<std::vector<double> const*>(&weight)})
        if (v->size() != n) r.fail(fmt::format("records differ in length ({} and {} values)", n, v->size()));
    std::vector<double> status(n, 1.0);
    if (h5::exists(sp, "particleStatus")) status = r.si(sp, "particleStatus", UnitDimension{});
    if (status.size() != n) r.fail("record 'particleStatus' differs in length from position");
    std::vector<std::uint64_t> ids(n);
    std::iota(ids.begin(), ids.end(), std::uint64_t{0});
    if (h5::exists(sp, "id") && !h5::is_group(sp, "id")) {
        ids = h5::read_uint64s(sp, "id");
        if (ids.size() != n) r.fail("record 'id' differs in length from position");
    }

    std::vector<std::size_t> alive;
    for (std::size_t i = 0; i < n; ++i)
        if (status[i] == 1.0) alive.push_back(i);
    if (alive.empty()) r.fail("no particle has particleStatus 1 (alive)");
    double const q = std::abs(ref.charge_e * constants::e_charge);
    double sum_w = 0, sum_wz = 0;
    for (std::size_t i : alive) {
        if (!(pz[i] > 0))
            r.fail(fmt::format("particle {} moves backwards (momentum/z = {} kg m/s)", i, pz[i]));
        sum_w += weight[i];
        sum_wz += weight[i] * z[i];
    }
    if (!(sum_w > 0)) r.fail("the weights of the alive particles do not add up to a positive charge");
    bool const one_plane =
        std::all_of(alive.begin(), alive.end(), [&](std::size_t i) { return z[i] == z[alive[0]]; });
    double const z0 = one_plane ? z[alive[0]] : sum_wz / sum_w;

    // Dimensionless momenta P / p_ref; energies E / (p_ref c) = sqrt(P^2 + 1/(beta gamma)^2).
    double const p_ref = ref.pc_mev * 1e6 * constants::e_charge / constants::c_light;  // [kg m/s]
    double const inv_bg2 = 1.0 / (ref.beta_gamma * ref.beta_gamma);
    PhaseSpaceFile result;
    PhaseSpaceHost& b = result.beam;
    std::vector<double> arrival;  // [s] at z0
    for (std::size_t i : alive) {
        double const ux = px[i] / p_ref, uy = py[i] / p_ref, uz = pz[i] / p_ref;
        double const p2 = ux * ux + uy * uy + uz * uz;
        double const energy = std::sqrt(p2 + inv_bg2);
        double const dz = z0 - z[i];  // free drift to the plane z0: dx = dz P_x / P_z, dt = dz / v_z
        b.x.push_back(x[i] + dz * ux / uz);
        b.y.push_back(y[i] + dz * uy / uz);
        b.px.push_back(ux);
        b.py.push_back(uy);
        // pt = -(E - E_ref) / (p_ref c) with E_ref / (p_ref c) = 1/beta; (E^2 - E_ref^2) = P^2 - 1 so
        // nothing cancels near the reference energy.
        b.pt.push_back(-(p2 - 1.0) / (energy + 1.0 / ref.beta));
        arrival.push_back(t[i] + dz * energy / (uz * constants::c_light));
        b.id.push_back(ids[i]);
        result.weighting.push_back(weight[i] / q);
    }
    double sum_wt = 0;
    for (std::size_t k = 0; k < alive.size(); ++k) sum_wt += weight[alive[k]] * arrival[k];
    double const t0 = sum_wt / sum_w;
    for (double a : arrival) b.t.push_back(constants::c_light * (a - t0));

    result.ref = ref;
    result.bunch_charge = sum_w;
    result.species = species_path.substr(species_path.rfind('/') + 1);
    result.iteration = static_cast<std::int64_t>(groups.size()) - 1;
    result.where = fmt::format("BeamPhysics file, z0 = {:.9g} m", z0);
    return result;
}

}  // namespace gt
