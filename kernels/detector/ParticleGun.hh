// The particle gun: primary number -> (event, particle, energy, position, direction), drawn from
// the primary's own random stream, so that a primary is the same whichever slot or thread makes it.
#pragma once

#include "kernels/core/RandomStream.hh"
#include "kernels/detector/DetectorParams.hh"

namespace gt {

struct Primary {
    std::uint64_t event = 0;
    std::int32_t particle = 0;
    double energy = 0;  //!< kinetic [MeV]
    Vec3 pos;
    Vec3 dir;
    double time = 0;  //!< [s] at pos (an event file's vertex time; the gun's draws start at 0)
};

//! The counter value of a primary's gun draws: apart from every step number.
inline constexpr std::uint32_t k_gun_step = 0xFFFFFFFFu;

GT_HOST_DEVICE inline Vec3 rotate_to_axis(Vec3 local, Vec3 axis)
{
    // the frame (e1, e2, axis) with local z along axis
    Vec3 const helper = fabs(axis.z) < 0.9 ? Vec3{0, 0, 1} : Vec3{1, 0, 0};
    Vec3 const e1 = normalized(cross(helper, axis));
    Vec3 const e2 = cross(axis, e1);
    return axpy(local.z, axis, axpy(local.y, e2, local.x * e1));
}

GT_HOST_DEVICE inline Primary make_primary(GunParams const& gun, std::uint64_t seed, std::uint64_t id)
{
    if (gun.list) return gun.list[id - gun.first_primary];  // given primaries (DetectorTables::primary_list)
    RandomStream rng(seed, id, k_gun_step);
    Primary p;
    p.event = id / gun.per_event;
    p.particle = gun.particle;
    switch (gun.spectrum) {
        case EnergySpectrum::uniform:
            p.energy = gun.energy + (gun.energy_spread - gun.energy) * rng.uniform();
            break;
        case EnergySpectrum::gaussian: {
            double e = gun.energy + gun.energy_spread * rng.normal();
            p.energy = e > 0 ? e : 0.0;
            break;
        }
        default:
            p.energy = gun.energy;
    }
    p.pos = gun.position;
    if (gun.position_shape == PositionShape::box) {
        for (int a = 0; a < 3; ++a) p.pos[a] += gun.position_spread[a] * (2.0 * rng.uniform() - 1.0);
    } else if (gun.position_shape == PositionShape::beam_spot) {
        for (int a = 0; a < 3; ++a) p.pos[a] += gun.position_spread[a] * rng.normal();
    }
    if (gun.direction_shape == DirectionShape::fixed) {
        p.dir = gun.direction;
    } else {
        // uniform in solid angle within the cone (the whole sphere for isotropic)
        double const cmin = gun.direction_shape == DirectionShape::isotropic ? -1.0 : gun.cos_cone;
        double const ct = 1.0 - (1.0 - cmin) * rng.uniform();
        double const st = pmath::sqrt((1.0 - ct) * (1.0 + ct));
        double sp, cp;
        pmath::sincos(constants::two_pi * rng.uniform(), sp, cp);
        Vec3 const local{st * cp, st * sp, ct};
        p.dir =
            gun.direction_shape == DirectionShape::isotropic ? local : rotate_to_axis(local, gun.direction);
    }
    return p;
}

}  // namespace gt
