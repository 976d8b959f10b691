// Loss records and snapshots from the backend's particles, a chunk at a time.
#include "run/ParticleDownload.hh"

#include <algorithm>
#include <memory>
#include <stdexcept>

namespace gt {

Table loss_table(BeamKernels& kernels, ParticleView particles, Lattice const& lattice, size_type chunk)
{
    std::vector<std::uint64_t> id;
    std::vector<std::int64_t> element, turn;
    std::vector<double> s, z[6];
    for_each_gathered(
        kernels, particles, false,
        [&](ParticleView const& v) {
            for (size_type i = 0; i < v.size; ++i) {
                id.push_back(v.id[i]);
                element.push_back(v.lost_element[i]);
                turn.push_back(v.lost_turn[i]);
                ElementInfo const& info = lattice.info[std::size_t(v.lost_element[i])];
                s.push_back(lattice.reference_begin.s + double(v.lost_turn[i]) * lattice.length + info.s_end);
                double const c[6] = {v.x[i], v.px[i], v.y[i], v.py[i], v.t[i], v.pt[i]};
                for (int k = 0; k < 6; ++k) z[k].push_back(c[k]);
            }
        },
        chunk);
    Table t;
    t.add_column("id", "1", std::move(id));
    t.add_column("element", "1", std::move(element));
    t.add_column("turn", "1", std::move(turn));
    t.add_column("s", "m", std::move(s));
    char const* names[6] = {"x", "px", "y", "py", "t", "pt"};
    char const* units[6] = {"m", "1", "m", "1", "m", "1"};
    for (int k = 0; k < 6; ++k) t.add_column(names[k], units[k], std::move(z[k]));
    return t;
}

parallel::PhaseSpaceSource live_particles(BeamKernels& kernels, ParticleView particles, size_type chunk)
{
    parallel::PhaseSpaceSource source;
    source.count = kernels.count(particles, true);
    auto next_begin = std::make_shared<size_type>(0);
    source.next = [&kernels, particles, chunk, next_begin]() -> PhaseSpacePiece {
        // Chunks without a live particle are skipped: the writer asks only while some are left.
        while (*next_begin < particles.size) {
            size_type const begin = *next_begin;
            size_type const end = std::min(particles.size, begin + chunk);
            *next_begin = end;
            ParticleView const v = kernels.gather_to_host(particles, begin, end, true);
            if (v.size == 0) continue;
            return PhaseSpacePiece{{v.x, v.size}, {v.px, v.size}, {v.y, v.size}, {v.py, v.size},
                                   {v.t, v.size}, {v.pt, v.size}, {v.id, v.size}};
        }
        throw std::logic_error("live_particles: asked for more particles than are alive");
    };
    return source;
}

}  // namespace gt
