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

//! [momentum_aperture]: where along the ring the momentum acceptance is searched, how far and how finely
//! (docs/studies.md, "Momentum aperture").
struct MomentumApertureConfig {
    bool enabled = false;            //!< the deck has [momentum_aperture]: `run` does the study
    std::vector<std::string> types;  //!< every occurrence of an element of these types is a location
    std::vector<std::string> names;  //!< ... and of these element names or globs
    double every = 0;          //!< [m] > 0: also the entry ending first at or after every this many metres
    double s_min = 0;          //!< [m] locations whose end lies in [s_min, s_max]
    double s_max = -1;         //!< [m] < 0: the ring's end
    double delta_max = 0.05;   //!< [1] the largest |delta| searched
    double resolution = 1e-3;  //!< [1] the search's step in delta
    std::int64_t turns = 0;    //!< turns a candidate must survive (0: lattice.turns)
    bool rf = true;            //!< the ring's cavities on (false: their voltage set to 0, 4D)
    SourceLocation where;
};

}  // namespace gt
