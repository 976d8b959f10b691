// The reference particle now lives in kernels/core (kernels need it; no include climbs up the layers).
// This forwarding header keeps the includes of other branches working; new code includes the kernel one.
#pragma once

#include "kernels/core/ReferenceParticle.hh"
