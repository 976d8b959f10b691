// Output of data spread over ranks: rank 0 writes each rank's share as the next hyperslab.
#include "parallel/OrderedWrites.hh"

#include <stdexcept>
#include <vector>

#include "io/OutputFile.hh"
#include "parallel/Communicator.hh"

namespace gt::parallel {
namespace {

void send_piece(Communicator const& w, PhaseSpacePiece const& p)
{
    for (auto const* v : {&p.x, &p.px, &p.y, &p.py, &p.t, &p.pt}) w.send(0, *v);
    w.send(0, p.id);
}

void receive_piece(Communicator const& w, int from, PhaseSpaceHost& p)
{
    for (auto* v : {&p.x, &p.px, &p.y, &p.py, &p.t, &p.pt}) *v = w.receive_doubles(from);
    p.id = w.receive_uint64s(from);
}

void send_table(Communicator const& w, Table const& t)
{
    for (auto const& c : t.columns()) std::visit([&](auto const& v) { w.send(0, std::span(v)); }, c.values);
}

//! The next rank's piece, with the columns of `schema` (rank 0's: every rank builds the same ones).
Table receive_table(Communicator const& w, int from, Table const& schema)
{
    Table t;
    for (auto const& c : schema.columns()) {
        Table::Values values;
        if (std::holds_alternative<std::vector<double>>(c.values))
            values = w.receive_doubles(from);
        else if (std::holds_alternative<std::vector<std::int64_t>>(c.values))
            values = w.receive_int64s(from);
        else
            values = w.receive_uint64s(from);
        t.add_column(c.name, c.unit, std::move(values));
    }
    return t;
}

}  // namespace

void write_phase_space_in_rank_order(OutputFile* out, std::int64_t iteration, std::string const& species,
                                     PhaseSpaceSource const& mine, ReferenceParticle const& ref,
                                     std::string const& where, double bunch_charge,
                                     std::uint64_t macroparticles)
{
    Communicator const& w = Communicator::world();
    std::vector<std::uint64_t> const counts = w.all_gather(std::span<std::uint64_t const>(&mine.count, 1));
    std::uint64_t total = 0;
    for (auto c : counts) total += c;
    if (!w.is_root()) {
        for (std::uint64_t sent = 0; sent < mine.count;) {
            PhaseSpacePiece const p = mine.next();
            send_piece(w, p);
            sent += p.size();
        }
        return;
    }
    if (out == nullptr) throw std::logic_error("rank 0 writes the output but holds no file");
    // The ranks' pieces in rank order; two receive buffers alternate, as the writer needs.
    std::size_t rank = 0;
    std::uint64_t left = counts[0];
    PhaseSpaceHost received[2];
    int slot = 0;
    auto const next = [&]() -> PhaseSpacePiece {
        while (left == 0) {
            if (++rank >= counts.size())
                throw std::logic_error("the ranks sent fewer particles than announced");
            left = counts[rank];
        }
        PhaseSpacePiece p;
        if (rank == 0) {
            p = mine.next();
        } else {
            receive_piece(w, int(rank), received[slot]);
            p = PhaseSpacePiece::of(received[slot]);
            slot ^= 1;
        }
        if (p.size() == 0 || p.size() > left)
            throw std::logic_error("a rank sent a piece that does not fit its announced share");
        left -= p.size();
        return p;
    };
    write_phase_space_in_pieces(*out, iteration, species, total, next, ref, where, bunch_charge,
                                macroparticles);
}

void write_table_in_rank_order(OutputFile* out, std::string const& group_path, Table const& mine)
{
    Communicator const& w = Communicator::world();
    std::uint64_t const rows = w.sum(mine.rows());
    if (!w.is_root()) {
        send_table(w, mine);
        return;
    }
    if (out == nullptr) throw std::logic_error("rank 0 writes the output but holds no file");
    Table other;
    write_table_in_pieces(*out, group_path, rows, std::size_t(w.size()),
                          [&](std::size_t rank) -> Table const& {
                              if (rank == 0) return mine;
                              other = receive_table(w, int(rank), mine);
                              return other;
                          });
}

void write_table_parts_in_rank_order(OutputFile* out, std::string const& group_path,
                                     std::span<Table const> parts)
{
    Communicator const& w = Communicator::world();
    std::uint64_t mine = 0;
    for (Table const& t : parts) mine += t.rows();
    std::uint64_t const rows = w.sum(mine);
    if (!w.is_root()) {
        // Messages between two ranks arrive in the order sent: rank 0 takes part k of this rank after part
        // k - 1, with the other ranks' parts between.
        for (Table const& t : parts) send_table(w, t);
        return;
    }
    if (out == nullptr) throw std::logic_error("rank 0 writes the output but holds no file");
    std::size_t const ranks = std::size_t(w.size());
    Table other;
    write_table_in_pieces(*out, group_path, rows, parts.size() * ranks,
                          [&](std::size_t piece) -> Table const& {
                              std::size_t const part = piece / ranks, rank = piece % ranks;
                              if (rank == 0) return parts[part];
                              other = receive_table(w, int(rank), parts[part]);
                              return other;
                          });
}

}  // namespace gt::parallel
