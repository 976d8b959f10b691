// A tube of elliptical cross-section along z (Geant4's G4EllipticalTube, GDML <eltube>):
// (x / dx)^2 + (y / dy)^2 <= 1, |z| <= hz.
//
// Scaling x by 1 / dx and y by 1 / dy makes the ellipse the unit circle and leaves the ray's
// parameter t unchanged, so distances are the unit cylinder's quadratic (exact). Safeties use the
// ellipse's gauge rho = sqrt((x / dx)^2 + (y / dy)^2), a norm with rho(v) <= |v| / min(dx, dy): by
// the triangle inequality every point within (1 - rho) min(dx, dy) of an inside point is inside, and
// none within (rho - 1) min(dx, dy) of an outside one is.
#pragma once

#include "kernels/geometry/Tube.hh"

namespace gt {

struct EllipticalTube {
    double dx = 0, dy = 0;  //!< semi-axes [m]
    double hz = 0;          //!< half-length [m]
    double ix = 0, iy = 0;  //!< 1 / dx, 1 / dy (host)
    double rmin = 0;        //!< min(dx, dy) [m]

    GT_HOST_DEVICE double gauge2(double x, double y) const
    {
        double const u = x * ix, v = y * iy;
        return u * u + v * v;
    }

    GT_HOST_DEVICE bool inside(Vec3 p) const { return fabs(p.z) <= hz && gauge2(p.x, p.y) <= 1.0; }

    //! The scaled quadratic a t^2 + 2 b t + c = 0 of the elliptical surface.
    GT_HOST_DEVICE void quadratic(Vec3 p, Vec3 d, double& a, double& b, double& c) const
    {
        double const u = p.x * ix, v = p.y * iy, du = d.x * ix, dv = d.y * iy;
        a = du * du + dv * dv;
        b = u * du + v * dv;
        c = u * u + v * v - 1.0;
    }

    GT_HOST_DEVICE double distance_to_out(Vec3 p, Vec3 d) const
    {
        double t = k_no_hit;
        if (d.z > 0) t = (hz - p.z) / d.z;
        if (d.z < 0) t = (-hz - p.z) / d.z;
        double a, b, c, t1, t2;
        quadratic(p, d, a, b, c);
        if (a > 0 && Tube::roots(a, b, c, t1, t2) && t2 < t) t = t2;
        return t > 0 ? t : 0.0;
    }

    GT_HOST_DEVICE double distance_to_in(Vec3 p, Vec3 d) const
    {
        double best = k_no_hit;
        if (p.z >= hz && d.z < 0) {
            double const t = (hz - p.z) / d.z;
            if (gauge2(p.x + t * d.x, p.y + t * d.y) <= 1.0) best = t;
        } else if (p.z <= -hz && d.z > 0) {
            double const t = (-hz - p.z) / d.z;
            if (gauge2(p.x + t * d.x, p.y + t * d.y) <= 1.0) best = t;
        }
        double a, b, c, t1, t2;
        quadratic(p, d, a, b, c);
        if (a > 0 && b < 0 && Tube::roots(a, b, c, t1, t2) && t1 >= 0 && t1 < best &&
            fabs(p.z + t1 * d.z) <= hz)
            best = t1;
        return best;
    }

    GT_HOST_DEVICE double safety_to_out(Vec3 p) const
    {
        double s = hz - fabs(p.z);
        double const se = (1.0 - pmath::sqrt(gauge2(p.x, p.y))) * rmin;
        s = se < s ? se : s;
        return s > 0 ? s : 0.0;
    }
    GT_HOST_DEVICE double safety_to_in(Vec3 p) const
    {
        double s = fabs(p.z) - hz;
        double const se = (pmath::sqrt(gauge2(p.x, p.y)) - 1.0) * rmin;
        s = se > s ? se : s;
        return s > 0 ? s : 0.0;
    }
};

}  // namespace gt
