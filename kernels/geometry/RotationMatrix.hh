// The rotation matrix of a placement from its three angles (host side: the TOML and GDML geometry readers
// and the table builder share it, so that both readers place volumes with one convention).
#pragma once

#include <algorithm>
#include <cmath>

namespace gt {

//! The rotation R = Rz(rz) Ry(ry) Rx(rx), row-major (rotate about x, then y, then z).
inline void rotation_matrix(double rx, double ry, double rz, double* r)
{
    double const cx = std::cos(rx), sx = std::sin(rx), cy = std::cos(ry), sy = std::sin(ry);
    double const cz = std::cos(rz), sz = std::sin(rz);
    double const m[9] = {cz * cy,
                         cz * sy * sx - sz * cx,
                         cz * sy * cx + sz * sx,
                         sz * cy,
                         sz * sy * sx + cz * cx,
                         sz * sy * cx - cz * sx,
                         -sy,
                         cy * sx,
                         cy * cx};
    std::copy(m, m + 9, r);
}

}  // namespace gt
