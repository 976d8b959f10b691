// The normalized-deck fingerprint and the checks made before resuming a checkpoint.
#include "run/CheckpointIdentity.hh"

#include <toml++/toml.h>

#include <cstdint>
#include <sstream>

#include <fmt/format.h>

#include "BuildInfo.hh"

namespace gt {
namespace {

constexpr char const* k_checkpoint_key = "output.checkpoint_every";

std::uint64_t fnv1a(std::string const& text, std::uint64_t h = 14695981039346656037ull)
{
    for (unsigned char c : text) {
        h ^= c;
        h *= 1099511628211ull;
    }
    return h;
}

}  // namespace

std::string deck_fingerprint(DeckConfig const& deck)
{
    std::string normalized;
    try {
        toml::table table = toml::parse(deck.text, deck.path);
        if (auto* output = table["output"].as_table()) output->erase("checkpoint_every");
        std::ostringstream s;
        s << toml::toml_formatter(table);  // keys sorted, one canonical spelling of each value
        normalized = s.str();
    } catch (toml::parse_error const&) {
        normalized = deck.text;  // read_deck accepted it, so this does not happen; the text still identifies it
    }
    for (auto const& o : deck.overrides) {
        bool const checkpoint_key =
            o.rfind(k_checkpoint_key, 0) == 0 || o.rfind(std::string("--unset ") + k_checkpoint_key, 0) == 0;
        if (!checkpoint_key) normalized += "\n" + o;
    }
    if (deck.scan_index) normalized += fmt::format("\n--scan-index {}", *deck.scan_index);
    return fmt::format("{:016x}", fnv1a(normalized));
}

CheckpointIdentity checkpoint_identity(DeckConfig const& deck, std::string const& backend)
{
    CheckpointIdentity id;
    id.kind = deck.run.kind;
    id.deck_fingerprint = deck_fingerprint(deck);
    id.deck_path = deck.path;
    id.gtrack_version = build::version;
    id.git_hash = build::git_hash;
    id.backend = backend;
    return id;
}

std::string resume_refusal(std::string const& path, CheckpointIdentity const& found,
                           CheckpointIdentity const& expected)
{
    if (found.kind != expected.kind)
        return fmt::format("'{}' is the checkpoint of a {} run, this deck is a {} run", path, found.kind,
                           expected.kind);
    if (found.deck_fingerprint != expected.deck_fingerprint)
        return fmt::format(
            "'{}' was written by another deck (fingerprint {}, deck '{}'; this deck '{}' has {}): a "
            "checkpoint resumes only the deck, --set overrides and scan point that wrote it "
            "(output.checkpoint_every may differ); run this deck without --resume to start it afresh",
            path, found.deck_fingerprint, found.deck_path, expected.deck_path, expected.deck_fingerprint);
    if (found.gtrack_version != expected.gtrack_version || found.git_hash != expected.git_hash)
        return fmt::format(
            "'{}' was written by gtrack {} ({}), this is gtrack {} ({}): other code may give other bits, so "
            "a checkpoint resumes only with the gtrack that wrote it; run that one, or start afresh",
            path, found.gtrack_version, found.git_hash, expected.gtrack_version, expected.git_hash);
    if (found.backend != expected.backend)
        return fmt::format(
            "'{}' was written on the {} backend, this run is on the {}: resume with --backend {} (the "
            "backends may differ at round-off, so the result would match neither uninterrupted run)",
            path, found.backend, expected.backend, found.backend);
    return {};
}

}  // namespace gt
