// Primaries from a HepMC3 ASCII event file (detector/HepMcEvents.hh).
#include "detector/HepMcEvents.hh"

#include <HepMC3/GenEvent.h>
#include <HepMC3/GenParticle.h>
#include <HepMC3/GenVertex.h>
#include <HepMC3/Units.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>

#include <fmt/format.h>

#include "deck/Particles.hh"
#include "detector/HepMcListing.hh"
#include "kernels/core/Types.hh"

namespace gt {

std::string particle_of_pdg(int pdg)
{
    // PDG Monte Carlo particle numbering (RPP 2024, "Monte Carlo particle numbering scheme")
    switch (pdg) {
        case 11:
            return "e-";
        case -11:
            return "e+";
        case 13:
            return "mu-";
        case -13:
            return "mu+";
        case 211:
            return "pi+";
        case -211:
            return "pi-";
        case 2212:
            return "proton";
        case -2212:
            return "antiproton";
        case 22:
            return "gamma";
        default:
            return "";
    }
}

namespace {

//! A name for messages of the particles most often left out (PDG numbering scheme).
std::string pdg_name(int pdg)
{
    static std::map<int, char const*> const names = {{12, "nu_e"},           {-12, "anti-nu_e"},
                                                     {14, "nu_mu"},          {-14, "anti-nu_mu"},
                                                     {16, "nu_tau"},         {-16, "anti-nu_tau"},
                                                     {2112, "neutron"},      {-2112, "antineutron"},
                                                     {111, "pi0"},           {130, "K0L"},
                                                     {310, "K0S"},           {321, "K+"},
                                                     {-321, "K-"},           {3122, "Lambda"},
                                                     {-3122, "anti-Lambda"}, {15, "tau-"},
                                                     {-15, "tau+"},          {3112, "Sigma-"},
                                                     {3222, "Sigma+"},       {3312, "Xi-"},
                                                     {3334, "Omega-"},       {1000010020, "deuteron"},
                                                     {1000020040, "alpha"}};
    auto const it = names.find(pdg);
    return it == names.end() ? "" : it->second;
}

//! Appends the final-state particles of `event` (read, in its own units) as primaries of gtrack event `e`.
void add_event(HepMC3::GenEvent& event, std::uint64_t e, HepMcSelection const& selection, HepMcEvents& out,
               std::string const& file, std::size_t line)
{
    // libhepmc3 converts every momentum and position of the event: MeV and mm from here on
    event.set_units(HepMC3::Units::MEV, HepMC3::Units::MM);
    for (auto const& p : event.particles()) {
        if (p->status() != 1) continue;  // final state only (HepMC3's status convention)
        HepMC3::FourVector const& m = p->momentum();
        std::string const name = particle_of_pdg(p->pid());
        if (name.empty()) {
            NotTransported& n = out.not_transported[p->pid()];
            ++n.count;
            n.energy += m.e();
            continue;
        }
        auto const it = std::find(out.species.begin(), out.species.end(), name);
        Primary q;
        q.event = e;
        q.particle = static_cast<std::int32_t>(it - out.species.begin());
        if (it == out.species.end()) out.species.push_back(name);
        // the kinetic energy from |p| and gtrack's rest energy of the species (not the file's E, whose
        // generated mass may differ): T = p^2 / (sqrt(p^2 + m^2) + m), without cancellation
        double const pm = std::hypot(std::hypot(m.px(), m.py()), m.pz());
        double const mass = find_detector_particle(name)->mass;
        // 1e30 MeV is far beyond any generator's momenta; beyond it p^2 loses range
        if (!(pm < 1e30))
            throw HepMcError(fmt::format("{}:{}: event {}: particle {} has a momentum of {} MeV", file, line,
                                         event.event_number(), p->id(), pm));
        q.energy = pm * pm / (std::sqrt(pm * pm + mass * mass) + mass);
        q.dir = pm > 0 ? Vec3{m.px() / pm, m.py() / pm, m.pz() / pm} : Vec3{0, 0, 1};
        // the production vertex (its position, or one inherited along the decay chain, libhepmc3's
        // GenVertex::position), else the event's; HepMC3's time is c t in the length unit
        HepMC3::ConstGenVertexPtr const v = p->production_vertex();
        HepMC3::FourVector const x = v ? v->position() : event.event_pos();
        q.pos = Vec3{x.x() * 1e-3 + selection.offset[0], x.y() * 1e-3 + selection.offset[1],
                     x.z() * 1e-3 + selection.offset[2]};
        q.time = x.t() * 1e-3 / constants::c_light;
        if (!std::isfinite(q.pos.x) || !std::isfinite(q.pos.y) || !std::isfinite(q.pos.z) ||
            !std::isfinite(q.time))
            throw HepMcError(
                fmt::format("{}:{}: event {}: particle {}'s vertex is beyond the range of numbers", file,
                            line, event.event_number(), p->id()));
        out.primaries.push_back(q);
    }
}

}  // namespace

HepMcEvents read_hepmc_events(std::istream& in, std::string const& name, HepMcSelection const& selection)
{
    HepMcEvents out;
    out.file = name;
    out.starts.push_back(0);
    HepMcListing listing(in, name);
    HepMC3::GenEvent event;
    std::size_t line = 0;
    std::uint64_t seen = 0;
    for (;;) {
        if (selection.count > 0 && out.events() == selection.count) break;
        if (!listing.next(event, line)) break;
        ++seen;
        if (seen <= selection.skip) continue;
        std::uint64_t const e = out.events();
        add_event(event, e, selection, out, name, line);
        out.numbers.push_back(event.event_number());
        out.starts.push_back(out.primaries.size());
        if (e == 0) {
            out.weight_names = listing.weight_names();
            out.weights_per_event = event.weights().size();
        }
        // the listing checked that every event has as many weights as the first (or as the names)
        std::vector<double> w = event.weights();
        w.resize(out.weights_per_event, 1.0);
        out.weights.insert(out.weights.end(), w.begin(), w.end());
    }
    if (out.events() == 0 || (selection.count > 0 && out.events() < selection.count))
        throw HepMcError(fmt::format(
            "{}: the file has {} event{}{}; {} asked for", name, seen, seen == 1 ? "" : "s",
            selection.skip > 0 ? fmt::format(", {} of them skipped", selection.skip) : "",
            selection.count > 0 ? fmt::format("{} were", selection.count) : std::string("at least one was")));
    return out;
}

HepMcEvents read_hepmc_file(std::string const& path, HepMcSelection const& selection)
{
    std::ifstream in(path, std::ios::binary);
    if (!in) throw HepMcError(fmt::format("{}: cannot open the event file: {}", path, std::strerror(errno)));
    return read_hepmc_events(in, path, selection);
}

std::string describe_not_transported(HepMcEvents const& events)
{
    std::vector<std::pair<int, NotTransported>> v(events.not_transported.begin(),
                                                  events.not_transported.end());
    std::stable_sort(v.begin(), v.end(),
                     [](auto const& a, auto const& b) { return a.second.count > b.second.count; });
    std::string text;
    for (auto const& [pdg, n] : v) {
        std::string const nm = pdg_name(pdg);
        text += fmt::format("{}{} x {}{}", text.empty() ? "" : ", ", n.count, pdg,
                            nm.empty() ? "" : " (" + nm + ")");
    }
    return text;
}

}  // namespace gt
