// Species moved to deck/ (the deck reader checks names against it; deck/ sits below beam/ in the layers).
// This forwarding header keeps the includes of other branches working; new code includes deck/Species.hh.
#pragma once

#include "deck/Species.hh"
