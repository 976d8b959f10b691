// Writing 3D field-map files (docs/decks.md, "3D field-map files") for the tests: every attribute and
// dataset optional and free, so that the reader's checks can be reached one by one.
#pragma once

#include <array>
#include <cmath>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <hdf5.h>

#include "io/H5Access.hh"
#include "io/H5Handle.hh"
#include "kernels/core/Types.hh"

namespace gt::test {

struct MapDataset {
    std::string name;                 //!< E, B, Ex, ...
    std::vector<double> values;
    std::optional<std::string> unit;  //!< the `unit` attribute; none: left out
};

struct MapFileSpec {
    std::optional<std::vector<std::uint64_t>> dimensions;
    std::optional<std::vector<double>> origin, spacing;
    std::optional<std::string> length_unit;
    std::optional<double> frequency;
    std::vector<MapDataset> datasets;
};

inline void write_map_file(std::string const& path, MapFileSpec const& s)
{
    h5::File file(h5::check_path(H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT), "H5Fcreate",
                                 path));
    if (s.dimensions) h5::write_attribute(file, "dimensions", std::span<std::uint64_t const>(*s.dimensions));
    if (s.origin) h5::write_attribute(file, "origin", std::span<double const>(*s.origin));
    if (s.spacing) h5::write_attribute(file, "spacing", std::span<double const>(*s.spacing));
    if (s.length_unit) h5::write_attribute(file, "length_unit", *s.length_unit);
    if (s.frequency) h5::write_attribute(file, "frequency", *s.frequency);
    for (auto const& d : s.datasets) {
        h5::write_dataset(file, d.name, std::span<double const>(d.values));
        if (d.unit) {
            h5::Object obj = h5::open_object(file, d.name);
            h5::write_attribute(obj, "unit", *d.unit);
        }
    }
    file.close("H5Fclose", path);
}

//! A field sampled at the nodes: f(x, y, z) -> (Fx, Fy, Fz).
using SampledField = std::function<std::array<double, 3>(double, double, double)>;

//! A valid map in metres of E [V/m] and/or B [T] sampled from e and b (empty: absent).
inline MapFileSpec sampled_map(std::array<std::uint64_t, 3> n, std::array<double, 3> origin,
                               std::array<double, 3> spacing, SampledField const& e, SampledField const& b)
{
    MapFileSpec s;
    s.dimensions = std::vector<std::uint64_t>(n.begin(), n.end());
    s.origin = std::vector<double>(origin.begin(), origin.end());
    s.spacing = std::vector<double>(spacing.begin(), spacing.end());
    s.length_unit = "m";
    for (auto const& [name, f, unit] :
         {std::make_tuple("E", &e, "V/m"), std::make_tuple("B", &b, "T")}) {
        if (!*f) continue;
        MapDataset d{name, {}, unit};
        for (std::uint64_t i = 0; i < n[0]; ++i)
            for (std::uint64_t j = 0; j < n[1]; ++j)
                for (std::uint64_t k = 0; k < n[2]; ++k) {
                    auto const v = (*f)(origin[0] + double(i) * spacing[0], origin[1] + double(j) * spacing[1],
                                        origin[2] + double(k) * spacing[2]);
                    d.values.insert(d.values.end(), v.begin(), v.end());
                }
        s.datasets.push_back(std::move(d));
    }
    return s;
}

//! A TM010 pillbox cell written as a 3D map: Ez = E0 J0(k r), B_theta = -(E0/c) J1(k r) with
//! k = 2.405/R (the element's phase makes them E0 J0 cos(psi) and -(E0/c) J1 sin(psi)), half a
//! wavelength long (the pi-mode cell), on 13 x 13 x 3 nodes over |x|, |y| <= 6 cm.
struct PillboxMap {
    double k;          //!< [1/m]
    double frequency;  //!< [Hz] omega = k c
    double length;     //!< [m] pi / k
};

//! Writes the pillbox of on-axis field `e0` [V/m] and radius `radius` [m] at `path`.
inline PillboxMap write_pillbox_map(std::string const& path, double e0, double radius)
{
    double const j0_zero = 2.404825557695773;
    PillboxMap p;
    p.k = j0_zero / radius;
    p.frequency = p.k * constants::c_light / constants::two_pi;
    p.length = constants::pi / p.k;
    double const half = 0.06, k = p.k;
    MapFileSpec spec = sampled_map(
        {13, 13, 3}, {-half, -half, 0.0}, {half / 6, half / 6, p.length / 2},
        [&](double x, double y, double) {
            return std::array<double, 3>{0.0, 0.0, e0 * std::cyl_bessel_j(0.0, k * std::hypot(x, y))};
        },
        [&](double x, double y, double) {
            double const r = std::hypot(x, y);
            double const bt = -(e0 / constants::c_light) * std::cyl_bessel_j(1.0, k * r);
            return r == 0.0 ? std::array<double, 3>{0.0, 0.0, 0.0}
                            : std::array<double, 3>{-bt * y / r, bt * x / r, 0.0};
        });
    spec.frequency = p.frequency;
    write_map_file(path, spec);
    return p;
}

}  // namespace gt::test
