// What a checkpoint must match to be resumed: the deck (normalized) and the gtrack that wrote it.
#pragma once

#include <string>

#include "deck/Config.hh"

namespace gt {

struct CheckpointIdentity {
    std::string kind;              //!< "beamline" (the run kind that wrote it)
    std::string deck_fingerprint;  //!< 16 hex digits of the normalized deck (deck_fingerprint)
    std::string deck_path;         //!< for messages only
    std::string gtrack_version;    //!< version and git hash: other code may give other bits
    std::string git_hash;
    std::string backend;  //!< "cpu" or "gpu": the backends differ at FFT round-off with space charge
};

//! A hash (64-bit FNV-1a, hex) of the deck as TOML data: comments, spacing and key order do not
//! matter, the values do; then the --set and --unset overrides and the scan point.
//! output.checkpoint_every (in the deck, a --set or an --unset) is left out, so that it may change
//! between a run and its resumption.
std::string deck_fingerprint(DeckConfig const& deck);

//! The identity of a run of `deck` by this gtrack on `backend`.
CheckpointIdentity checkpoint_identity(DeckConfig const& deck, std::string const& backend);

//! Empty when `found` (read from the checkpoint at `path`) may be resumed as `expected`; otherwise
//! the reason, for a message that says what to do.
std::string resume_refusal(std::string const& path, CheckpointIdentity const& found,
                           CheckpointIdentity const& expected);

}  // namespace gt
