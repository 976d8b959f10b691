// [dynamic_aperture]: a ring study's grid of initial conditions and what is read from its turns
// (docs/studies.md).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "deck/SourceLocation.hh"

namespace gt {

struct DynamicApertureConfig {
    bool enabled = false;        //!< the deck has [dynamic_aperture]: `run` does the study
    std::string grid = "polar";  //!< polar | cartesian
    bool in_sigmas = false;      //!< radii / x / y in beam sigmas sqrt(beta eps) (else lengths [m])
    std::int64_t angles = 7;     //!< polar
    double angle_min = 0, angle_max = 1.5707963267948966;  //!< [rad]
    std::int64_t radii = 20;                               //!< polar
    double radius_min = 0, radius_max = 0;                 //!< [m] or [sigma]; radius_min 0: one step
    std::int64_t nx = 20, ny = 20;                         //!< cartesian
    double x_min = 0, x_max = 0, y_min = 0, y_max = 0;     //!< [m] or [sigma]
    std::vector<double> deltas{0.0};                       //!< momentum offsets dp/p [1]
    bool frequency_map = false;        //!< NAFF tunes of both halves of the turns, diffusion index
    std::int64_t naff_window = 2;      //!< order p of the Hann window
    std::int64_t resonance_order = 5;  //!< resonance lines the tune-diagram plot draws
    SourceLocation where;
};

}  // namespace gt
