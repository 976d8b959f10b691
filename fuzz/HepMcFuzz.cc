// Fuzz target: HepMC3 event files ([gun] file, detector/HepMcEvents.hh). The input is the file's text, read
// as gtrack reads an event file (every line checked, then libhepmc3's event record). The reader must
// refuse a bad file with HepMcError; the primaries of a file it accepts are finite, each in an event of
// the file, of a species gtrack transports, with a unit direction.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <sstream>
#include <string>

#include "detector/HepMcEvents.hh"
#include "detector/HepMcListing.hh"

extern "C" int LLVMFuzzerTestOneInput(std::uint8_t const* data, std::size_t size)
{
    std::string text(reinterpret_cast<char const*>(data), size);
    // The first byte picks the selection sometimes: every event, or some skipped and a few read.
    gt::HepMcSelection selection;
    if (size > 0 && (data[0] & 0x80) && !text.empty()) {
        selection.skip = data[0] & 0x3;
        selection.count = (data[0] >> 2) & 0x3;
        text.erase(0, 1);
    }
    std::istringstream in(text);
    try {
        gt::HepMcEvents const ev = gt::read_hepmc_events(in, "fuzz.hepmc3", selection);
        if (ev.starts.size() != ev.events() + 1 || ev.starts.back() != ev.primaries.size()) std::abort();
        if (ev.weights.size() != ev.events() * ev.weights_per_event) std::abort();
        for (gt::Primary const& p : ev.primaries) {
            if (p.event >= ev.events() || std::size_t(p.particle) >= ev.species.size()) std::abort();
            if (!std::isfinite(p.energy) || p.energy < 0 || !std::isfinite(p.time)) std::abort();
            for (double v : {p.pos.x, p.pos.y, p.pos.z})
                if (!std::isfinite(v)) std::abort();
            double const n = p.dir.x * p.dir.x + p.dir.y * p.dir.y + p.dir.z * p.dir.z;
            if (!(std::abs(n - 1) < 1e-12)) std::abort();
        }
    } catch (gt::HepMcError const&) {
        // the documented refusal
    }
    return 0;
}
