// The provenance every output of a deck carries.
#include "run/RunProvenance.hh"

#include "BuildInfo.hh"
#include "run/VersionInfo.hh"

namespace gt {

Provenance run_provenance(DeckConfig const& deck, std::string const& command_line)
{
    Provenance p;
    p.gtrack_version = build::version;
    p.git_hash = build::git_hash;
    p.build_options = build_options();
    p.deck_path = deck.path;
    p.deck_text = deck.text;
    p.command_line = command_line;
    p.seed = deck.run.seed;
    p.overrides = deck.overrides;
    if (deck.scan_index) {
        p.scan_index = static_cast<std::int64_t>(*deck.scan_index);
        p.scan_size = deck.scan.size();
        p.scan_mode = deck.scan.mode_name();
        for (auto const& sp : deck.scan.parameters) p.scan_parameters.push_back(sp.key);
        p.scan_values = deck.scan.labels_at(*deck.scan_index);
    }
    return p;
}

}  // namespace gt
