// A uniform magnetic field.
#pragma once

#include "kernels/geometry/Vec3.hh"

namespace gt {

struct UniformField {
    Vec3 b;  //!< [T]
    GT_HOST_DEVICE Vec3 operator()(Vec3) const { return b; }
};

}  // namespace gt
