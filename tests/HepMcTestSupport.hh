// HepMC3 event files for the tests, written by libhepmc3's own writer (WriterAscii): toy events with
// beam particles, a displaced decay, final-state particles gtrack transports and some it does not.
#pragma once

#include <HepMC3/GenEvent.h>
#include <HepMC3/GenParticle.h>
#include <HepMC3/GenRunInfo.h>
#include <HepMC3/GenVertex.h>
#include <HepMC3/WriterAscii.h>

#include <cmath>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace gt::test {

//! The toy events' final-state particles as written (before any unit conversion).
struct WrittenParticle {
    int event = 0;  //!< the event's number in the file
    int pdg = 0;
    double px = 0, py = 0, pz = 0, e = 0;  //!< in the file's momentum unit
    double x = 0, y = 0, z = 0, t = 0;     //!< its production vertex, in the file's length unit (t: c t)
};

//! Writes `events` toy events to `path` with WriterAscii, in GEV and MM (or MEV and CM, the same physics:
//! every value scaled), with two named weights; returns the final-state particles written, in order.
inline std::vector<WrittenParticle> write_toy_events(std::string const& path, int events, bool mev_cm = false)
{
    using namespace HepMC3;
    auto run = std::make_shared<GenRunInfo>();
    run->set_weight_names({"nominal", "scale_up"});
    WriterAscii writer(path, run);
    double const p_unit = mev_cm ? 1000.0 : 1.0;  // GeV -> MeV
    double const l_unit = mev_cm ? 0.1 : 1.0;     // mm -> cm
    std::vector<WrittenParticle> finals;
    std::uint64_t state = 12345;
    auto uniform = [&] {  // a fixed LCG (Knuth's MMIX constants): the same toy events everywhere
        state = state * 6364136223846793005ull + 1442695040888963407ull;
        return double(state >> 11) * (1.0 / 9007199254740992.0);
    };
    for (int n = 0; n < events; ++n) {
        GenEvent evt(mev_cm ? Units::MEV : Units::GEV, mev_cm ? Units::CM : Units::MM);
        evt.set_run_info(run);
        evt.set_event_number(100 + n);
        auto b1 = std::make_shared<GenParticle>(FourVector(0, 0, 45 * p_unit, 45 * p_unit), 11, 4);
        auto b2 = std::make_shared<GenParticle>(FourVector(0, 0, -45 * p_unit, 45 * p_unit), -11, 4);
        // the collision: a few mm off the origin, at c t = 0.3 mm
        double const vx = (uniform() - 0.5) * l_unit, vy = (uniform() - 0.5) * l_unit;
        double const vz = (2 * uniform() - 1) * 10 * l_unit, vt = 0.3 * l_unit;
        auto v1 = std::make_shared<GenVertex>(FourVector(vx, vy, vz, vt));
        v1->add_particle_in(b1);
        v1->add_particle_in(b2);
        evt.add_vertex(v1);
        auto add_final = [&](std::shared_ptr<GenVertex> const& v, int pdg, double p, double mass) {
            double const ct = 2 * uniform() - 1, phi = 6.283185307179586 * uniform();
            double const st = std::sqrt(1 - ct * ct);
            FourVector const m(p * st * std::cos(phi) * p_unit, p * st * std::sin(phi) * p_unit,
                               p * ct * p_unit, std::sqrt(p * p + mass * mass) * p_unit);
            auto q = std::make_shared<GenParticle>(m, pdg, 1);
            v->add_particle_out(q);
            return q;
        };
        std::vector<GenParticlePtr> out;
        out.push_back(add_final(v1, n % 2 ? 13 : -13, 2 + 3 * uniform(), 0.10566));
        out.push_back(add_final(v1, 22, 0.5 + uniform(), 0));
        out.push_back(add_final(v1, 2112, 1 + uniform(), 0.93957));          // not transported
        if (n % 3 == 0) out.push_back(add_final(v1, 14, 1 + uniform(), 0));  // not transported
        // a decay 2 cm downstream: its own vertex, and a decay without a position (it inherits the
        // collision's)
        auto kaon = std::make_shared<GenParticle>(FourVector(0, 0, 3 * p_unit, 3.04 * p_unit), 310, 2);
        v1->add_particle_out(kaon);
        auto v2 = std::make_shared<GenVertex>(FourVector(vx, vy, vz + 20 * l_unit, vt + 20.5 * l_unit));
        v2->add_particle_in(kaon);
        evt.add_vertex(v2);
        out.push_back(add_final(v2, 211, 1.5, 0.13957));
        out.push_back(add_final(v2, -211, 1.4, 0.13957));
        auto pi0 =
            std::make_shared<GenParticle>(FourVector(0, 0.1 * p_unit, 1 * p_unit, 1.0 * p_unit), 111, 2);
        v1->add_particle_out(pi0);
        auto v3 = std::make_shared<GenVertex>();  // no position: the pi0 decays where it is made
        v3->add_particle_in(pi0);
        evt.add_vertex(v3);
        out.push_back(add_final(v3, 22, 0.6, 0));
        out.push_back(add_final(v3, 22, 0.4, 0));
        evt.weights() = {0.5 + n, 2.0 * (0.5 + n)};
        writer.write_event(evt);
        // the final-state particles in the order the file lists them (particle ids)
        for (auto const& p : evt.particles()) {
            if (p->status() != 1) continue;
            auto const v = p->production_vertex();
            FourVector const x = v->has_set_position() ? v->position() : v1->position();
            finals.push_back({100 + n, p->pid(), p->momentum().px(), p->momentum().py(), p->momentum().pz(),
                              p->momentum().e(), x.x(), x.y(), x.z(), x.t()});
        }
    }
    writer.close();
    return finals;
}

}  // namespace gt::test
