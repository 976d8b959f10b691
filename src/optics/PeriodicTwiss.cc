// [beam.twiss] periodic = true (see PeriodicTwiss.hh).
#include "optics/PeriodicTwiss.hh"

#include <stdexcept>
#include <string>

#include "beam/BeamSetup.hh"
#include "beam/Lattice.hh"
#include "deck/DeckError.hh"
#include "optics/Optics.hh"

namespace gt::optics {

BeamConfig with_periodic_twiss(DeckConfig const& deck)
{
    BeamConfig beam = deck.beam;
    if (!beam.periodic || deck.run.kind == "detector") return beam;
    OpticsResult r;
    try {
        Lattice const lattice = build_lattice(deck, initial_reference(deck), false);
        OpticsOptions o;
        o.periodic = true;
        r = compute_optics(deck, lattice, o);
    } catch (DeckError const&) {
        throw;
    } catch (std::runtime_error const& e) {
        throw DeckError(
            beam.where, "beam.twiss.periodic",
            std::string("periodic = true: the ring's periodic solution could not be found: ") + e.what());
    }
    beam.periodic = false;  // resolved
    OpticsRow const& start = r.rows.front();
    beam.x.beta = start.beta_x;
    beam.x.alpha = start.alpha_x;
    beam.y.beta = start.beta_y;
    beam.y.alpha = start.alpha_y;
    // Dispersion: a particle of energy deviation pt sits at x_beta + d pt (d = dx/dpt = D / (-beta)).
    Matrix6 s = beam_sigma_matrix(beam);
    double const per_pt = -1.0 / r.beta;
    double const d[4] = {start.d_x * per_pt, start.dp_x * per_pt, start.d_y * per_pt, start.dp_y * per_pt};
    if (s[5][5] == 0.0 || (d[0] == 0.0 && d[1] == 0.0 && d[2] == 0.0 && d[3] == 0.0)) return beam;
    Matrix6 c = s;
    for (int i = 0; i < 4; ++i) {
        for (int j = 0; j < 4; ++j) c[i][j] += d[i] * d[j] * s[5][5];
        c[i][5] = c[5][i] = d[i] * s[5][5];
        c[i][4] = c[4][i] = d[i] * s[4][5];
    }
    std::array<double, 36> m{};
    for (int i = 0; i < 6; ++i)
        for (int j = 0; j < 6; ++j) m[static_cast<std::size_t>(6 * i + j)] = c[i][j];
    beam.sigma_matrix = m;
    return beam;
}

}  // namespace gt::optics
