#include "detector/TabulatedField.hh"

#include <cmath>
#include <stdexcept>

#include <fmt/format.h>

#include "kernels/cpu/Executor.hh"

namespace gt {

RzFieldMap tabulate_solenoid(SolenoidField const& s, double const half[3], double spacing,
                             std::vector<double>& values)
{
    if (!(spacing > 0)) throw std::invalid_argument("field.tabulate: the grid spacing must be > 0");
    double const dr = s.radius / std::ceil(s.radius / spacing);
    double const dz = s.half_length / std::ceil(s.half_length / spacing);
    // the farthest the world reaches from the axis, and its z range about the coil's centre
    double const rx = half[0] + std::fabs(s.center.x), ry = half[1] + std::fabs(s.center.y);
    double const r_max = std::sqrt(rx * rx + ry * ry);
    double const z_lo = -half[2] - s.center.z, z_hi = half[2] - s.center.z;
    // nodes at r = i dr and z = (k + 1/2) dz: z = +-half_length (integer multiples of dz) fall
    // halfway between rows
    double const nr_d = std::ceil(r_max / dr) + 2;
    double const k_lo = std::floor(z_lo / dz - 0.5) - 1, k_hi = std::ceil(z_hi / dz - 0.5) + 1;
    double const nz_d = k_hi - k_lo + 1;
    if (nr_d * nz_d > k_max_tabulated_nodes)
        throw std::invalid_argument(
            fmt::format("field.tabulate: a spacing of {} m over this world needs {:.3g} x {:.3g} nodes, more "
                        "than {:.3g}: "
                        "use a coarser spacing",
                        spacing, nr_d, nz_d, k_max_tabulated_nodes));
    RzFieldMap map;
    map.nr = static_cast<int>(nr_d);
    map.nz = static_cast<int>(nz_d);
    map.dr = dr;
    map.dz = dz;
    map.z_lo = (k_lo + 0.5) * dz;
    map.center = s.center;
    values.assign(std::size_t(map.nr) * std::size_t(map.nz) * 2, 0.0);
    int const nz = map.nz;
    double const z0 = map.z_lo;
    // each node on its own: the values do not depend on the thread count
    cpu::for_each(std::size_t(map.nr) * std::size_t(nz), [&](std::size_t node) {
        double const r = double(node / std::size_t(nz)) * dr;
        double const z = z0 + double(node % std::size_t(nz)) * dz;
        Vec3 const b = s(Vec3{s.center.x + r, s.center.y, s.center.z + z});
        values[2 * node] = b.x;  // on the +x side of the axis, Bx is Br
        values[2 * node + 1] = b.z;
    });
    return map;
}

}  // namespace gt
