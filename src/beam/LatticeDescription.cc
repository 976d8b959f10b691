// The lattice as `gtrack check` prints it: one line per entry, its parameters from the element registry.
#include <fmt/format.h>

#include "beam/Lattice.hh"
#include "deck/ElementRegistry.hh"

namespace gt {

std::string describe(Lattice const& lattice)
{
    ReferenceParticle const& r0 = lattice.reference_begin;
    ReferenceParticle const& r1 = lattice.reference_end();
    std::string out = fmt::format(
        "lattice: {} entries, {:.9g} m; reference {:.9g} MeV kinetic (beta={:.9g}, "
        "B rho={:.9g} T m)",
        lattice.elements.size(), lattice.length, r0.kinetic_mev, r0.beta, r0.rigidity);
    if (r1.kinetic_mev != r0.kinetic_mev) out += fmt::format(" -> {:.9g} MeV at the end", r1.kinetic_mev);
    out += "\n";
    out += fmt::format("{:>6}  {:<16} {:<18} {:>12} {:>10}  {}\n", "#", "name", "kind", "s [m]", "L [m]",
                       "parameters");
    for (std::size_t i = 0; i < lattice.elements.size(); ++i) {
        Element const& e = lattice.elements[i];
        ElementInfo const& info = lattice.info[i];
        std::string name = info.name;
        if (info.slices > 1) name += fmt::format(" [{}/{}]", info.slice + 1, info.slices);
        std::string params = describe_entry(info.type, e, lattice.reference_after[i]);
        if (e.misaligned)
            params +=
                fmt::format("{}dx={:.6g} mm, dy={:.6g} mm, tilt={:.6g} mrad", params.empty() ? "" : "; ",
                            e.misalignment.dx * 1e3, e.misalignment.dy * 1e3, e.misalignment.tilt * 1e3);
        if (!info.tracking.empty()) params += (params.empty() ? "" : "; ") + info.tracking;
        out += fmt::format("{:>6}  {:<16} {:<18} {:>12.6f} {:>10.6f}  {}\n", i, name, kind_name(e.kind),
                           info.s_begin, info.s_end - info.s_begin, params);
    }
    return out;
}

}  // namespace gt
