// Writing and reading the checkpoint of a beamline run (layout in docs/checkpoint.md).
#include "run/BeamCheckpoint.hh"

#include <array>
#include <filesystem>
#include <memory>
#include <stdexcept>

#include <fmt/format.h>

#include "io/H5Access.hh"
#include "io/H5Handle.hh"
#include "parallel/Agreement.hh"
#include "parallel/Communicator.hh"
#include "parallel/OrderedWrites.hh"
#include "run/CheckpointHeader.hh"

namespace gt {
namespace {

constexpr char const* k_coordinates[6] = {"x", "px", "y", "py", "t", "pt"};

std::array<double*, 6> coordinates(ParticleView v) { return {v.x, v.px, v.y, v.py, v.t, v.pt}; }

//! /data/<i> of `from` into `to`, i < snapshots (groups, datasets and attributes as they are).
void copy_snapshots(hid_t from, hid_t to, std::int64_t snapshots, std::string const& where)
{
    h5::PropertyList lcpl(h5::check_path(H5Pcreate(H5P_LINK_CREATE), "H5Pcreate", where));
    h5::check_path(H5Pset_create_intermediate_group(lcpl, 1), "H5Pset_create_intermediate_group", where);
    for (std::int64_t i = 0; i < snapshots; ++i) {
        std::string const name = fmt::format("data/{}", i);
        h5::check_path(H5Ocopy(from, name.c_str(), to, name.c_str(), H5P_DEFAULT, lcpl), "H5Ocopy",
                       fmt::format("{} ({})", where, name));
    }
}

//! This rank's particles as the checkpoint's /particles table (lost ones with their loss records).
Table particle_table(ParticleView const& v)
{
    auto const n = std::size_t(v.size);
    Table t;
    auto const z = coordinates(v);
    for (int k = 0; k < 6; ++k)
        t.add_column(k_coordinates[k], "1", std::vector<double>(z[std::size_t(k)], z[std::size_t(k)] + n));
    t.add_column("id", "1", std::vector<std::uint64_t>(v.id, v.id + n));
    t.add_column("lost_element", "1", std::vector<std::int64_t>(v.lost_element, v.lost_element + n));
    t.add_column("lost_turn", "1", std::vector<std::int64_t>(v.lost_turn, v.lost_turn + n));
    return t;
}

}  // namespace

void write_beam_checkpoint(std::string const& path, BeamCheckpoint& c, OutputFile* out)
{
    parallel::Communicator const& world = parallel::Communicator::world();
    h5::ChecksummedDatasets const checksummed;  // verified when read back, whatever output.checksums says
    // Rank 0's "<path>.tmp-<pid>" until commit(): the previous checkpoint stays whole. A failure to
    // create it is every rank's (they all go on without this checkpoint, or all stop).
    std::unique_ptr<OutputFile> file = parallel::all_or_none(
        [&] { return world.is_root() ? std::make_unique<OutputFile>(path) : std::unique_ptr<OutputFile>(); });
    // Each rank's particles, in rank order: the counts say where each rank's share lies.
    ParticleView const v = c.particles.view();
    auto const n = std::size_t(v.size);
    std::uint64_t const mine = n;
    std::vector<std::uint64_t> const shares = world.all_gather(std::span<std::uint64_t const>(&mine, 1));
    parallel::write_table_in_rank_order(file.get(), "particles", particle_table(v));
    if (!file) {
        world.barrier();  // rank 0 renames the checkpoint into place once every share is in it
        return;
    }
    OutputFile& ckpt = *file;
    hid_t const root = ckpt.id();
    write_checkpoint_header(root, c.identity);
    h5::write_attribute(root, "start_time", c.start_time);
    h5::write_attribute(root, "turn", c.position.turn);
    h5::write_attribute(root, "entry", c.position.entry);
    h5::write_attribute(root, "turns", c.turns);
    h5::write_attribute(root, "snapshots", c.snapshots);
    h5::write_attribute(root, "ranks", std::int64_t(world.size()));
    h5::write_attribute(root, "rank_particles", std::span<std::uint64_t const>(shares));

    write_table(ckpt, "stats", c.stats);
    if (c.solver) {
        write_table(ckpt, "space_charge", c.space_charge);
        SpaceChargeCache const& s = *c.solver;
        ckpt.create_group("space_charge_solver");
        ckpt.set_attribute("space_charge_solver", "kicks", std::int64_t(s.kicks));
        ckpt.set_attribute("space_charge_solver", "green_valid", std::int32_t(s.green_valid));
        ckpt.set_attribute("space_charge_solver", "green_sliced", std::int32_t(s.green_sliced));
        GridGeometry const& g = s.green_grid;
        std::uint64_t const nodes[3] = {std::uint64_t(g.nx), std::uint64_t(g.ny), std::uint64_t(g.nz)};
        double const geometry[6] = {g.x0, g.y0, g.z0, g.hx, g.hy, g.hz};
        ckpt.set_attribute("space_charge_solver", "green_nodes", std::span<std::uint64_t const>(nodes));
        ckpt.set_attribute("space_charge_solver", "green_origin_spacing", std::span<double const>(geometry));
    }
    if (c.collective) write_table(ckpt, "collective", *c.collective);
    if (out == nullptr) throw std::logic_error("rank 0 writes the checkpoint but holds no output");
    copy_snapshots(out->id(), root, c.snapshots, fmt::format("checkpoint '{}'", ckpt.temp_path()));
    world.barrier();
    ckpt.commit();
}

BeamCheckpoint read_beam_checkpoint(std::string const& path, CheckpointIdentity const& expected)
{
    BeamCheckpoint c;
    bool has_collective = false;
    if (!std::filesystem::exists(path))
        throw std::runtime_error(fmt::format(
            "cannot resume: there is no checkpoint '{}' (a stopped run says where it wrote its checkpoint, "
            "<output>.ckpt; --resume auto starts afresh when there is none)",
            path));
    try {
        h5::File file = h5::open_file_readonly(path);
        c.identity = read_checkpoint_header(file, path, expected);
        c.start_time = h5::read_string_attribute(file, "start_time");
        c.position.turn = h5::read_int64_attribute(file, "turn");
        c.position.entry = h5::read_int64_attribute(file, "entry");
        c.turns = h5::read_int64_attribute(file, "turns");
        c.snapshots = h5::read_int64_attribute(file, "snapshots");

        // This rank's share: the same rank count as the run that wrote it (shares are not re-cut).
        parallel::Communicator const& world = parallel::Communicator::world();
        std::int64_t const ranks =
            h5::has_attribute(file, "ranks") ? h5::read_int64_attribute(file, "ranks") : 1;
        if (ranks != world.size())
            throw std::runtime_error(fmt::format(
                "'{}' was written by {} MPI rank(s), this run has {}: resume with the same rank count ({})",
                path, ranks, world.size(),
                ranks == 1 ? "without mpirun" : fmt::format("mpirun -np {}", ranks)));
        std::size_t offset = 0,
                    count = std::size_t(h5::read_uint64_attribute(h5::open_group(file, "particles"), "rows"));
        if (ranks > 1) {
            std::vector<std::uint64_t> const shares = h5::read_uint64_array_attribute(file, "rank_particles");
            if (shares.size() != std::size_t(ranks))
                throw std::runtime_error(fmt::format("'{}': rank_particles does not match ranks", path));
            for (int r = 0; r < world.rank(); ++r) offset += std::size_t(shares[std::size_t(r)]);
            count = std::size_t(shares[std::size_t(world.rank())]);
        }
        std::vector<std::uint64_t> const ids = h5::read_uint64s(file, "particles/id", offset, count);
        std::vector<std::int64_t> const lost_element =
            h5::read_int64s(file, "particles/lost_element", offset, count);
        std::vector<std::int64_t> const lost_turn =
            h5::read_int64s(file, "particles/lost_turn", offset, count);
        c.particles = ParticleState(ids.size(), MemSpace::host);
        ParticleView const v = c.particles.view();
        auto const z = coordinates(v);
        for (int k = 0; k < 6; ++k) {
            std::vector<double> const values =
                h5::read_doubles(file, fmt::format("particles/{}", k_coordinates[k]), offset, count);
            if (values.size() != ids.size())
                throw std::runtime_error(fmt::format("'{}': particles/{} has {} values, particles/id {}",
                                                     path, k_coordinates[k], values.size(), ids.size()));
            std::copy(values.begin(), values.end(), z[k]);
        }
        if (lost_element.size() != ids.size() || lost_turn.size() != ids.size())
            throw std::runtime_error(fmt::format("'{}': the loss records do not match the particles", path));
        for (std::size_t i = 0; i < ids.size(); ++i) {
            v.id[i] = ids[i];
            v.lost_element[i] = std::int32_t(lost_element[i]);
            v.lost_turn[i] = std::int32_t(lost_turn[i]);
        }
        has_collective = h5::is_group(file, "collective");
        if (h5::is_group(file, "space_charge_solver")) {
            h5::Group g = h5::open_group(file, "space_charge_solver");
            SpaceChargeCache s;
            s.kicks = long(h5::read_int64_attribute(g, "kicks"));
            s.green_valid = h5::read_int64_attribute(g, "green_valid") != 0;
            s.green_sliced = h5::read_int64_attribute(g, "green_sliced") != 0;
            std::vector<double> const geometry = h5::read_double_array_attribute(g, "green_origin_spacing");
            std::vector<std::uint64_t> const nodes = h5::read_uint64_array_attribute(g, "green_nodes");
            if (geometry.size() != 6 || nodes.size() != 3)
                throw std::runtime_error(fmt::format("'{}': space_charge_solver's grid is malformed", path));
            s.green_grid = GridGeometry{int(nodes[0]), int(nodes[1]), int(nodes[2]), geometry[0], geometry[1],
                                        geometry[2],   geometry[3],   geometry[4],   geometry[5]};
            c.solver = s;
        }
        c.stats = read_table(path, "stats");
        if (c.solver) c.space_charge = read_table(path, "space_charge");
        if (has_collective) c.collective = read_table(path, "collective");
    } catch (ChecksumError const& e) {
        throw std::runtime_error(
            fmt::format("cannot resume from '{}': {}; resume from an intact copy of the "
                        "checkpoint, or run again without --resume",
                        path, e.what()));
    } catch (IoError const& e) {
        throw std::runtime_error(fmt::format("cannot resume from '{}': {}", path, e.what()));
    } catch (std::runtime_error const& e) {
        throw std::runtime_error(fmt::format("cannot resume: {}", e.what()));
    }
    return c;
}

void copy_checkpoint_snapshots(std::string const& path, std::int64_t snapshots, OutputFile& out)
{
    h5::File file = h5::open_file_readonly(path);
    copy_snapshots(file, out.id(), snapshots, fmt::format("'{}'", out.temp_path()));
}

}  // namespace gt
