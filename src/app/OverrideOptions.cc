// --set and --unset, in command-line order (CLI11 keeps each option's values apart; its parse
// order says how they interleave).
#include "app/OverrideOptions.hh"

#include "deck/UnsetOverride.hh"

namespace gt {

void add_override_options(CLI::App& cmd, std::vector<std::string>& sets, std::vector<std::string>& unsets,
                          std::string const& set_help)
{
    cmd.add_option("--set", sets, set_help)->allow_extra_args(false);
    cmd.add_option("--unset", unsets,
                   "remove a deck key or table, in order with --set: --unset beam.twiss --set "
                   "beam.sigma.matrix=[...] (repeatable)")
        ->allow_extra_args(false);
}

std::vector<std::string> overrides_in_order(CLI::App const& cmd)
{
    CLI::Option const* set = cmd.get_option("--set");
    CLI::Option const* unset = cmd.get_option("--unset");
    std::vector<std::string> const& sets = set->results();
    std::vector<std::string> const& unsets = unset->results();
    std::vector<std::string> overrides;
    std::size_t s = 0, u = 0;
    for (CLI::Option const* o : cmd.parse_order()) {
        if (o == set && s < sets.size()) overrides.push_back(sets[s++]);
        if (o == unset && u < unsets.size()) overrides.push_back(unset_override(unsets[u++]));
    }
    return overrides;
}

}  // namespace gt
