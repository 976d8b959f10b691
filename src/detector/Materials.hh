// Materials moved to deck/ (the deck reader checks names against it; deck/ sits below detector/ in the layers).
// This forwarding header keeps the includes of other branches working; new code includes deck/Materials.hh.
#pragma once

#include "deck/Materials.hh"
