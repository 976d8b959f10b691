// Beam statistics derived from moments: rms sizes, emittances, Twiss parameters, as a table row.
#pragma once

#include <string>
#include <vector>

#include "kernels/beam/Moments.hh"
#include "kernels/core/ReferenceParticle.hh"

namespace gt {

struct BeamStatistics {
    double s = 0;  //!< [m]
    std::int64_t element = -1;  //!< table index after which they were taken (-1: initial beam)
    std::int64_t turn = 0;
    double alive = 0;
    double mean[6] = {};
    double sigma[6] = {};                 //!< rms of x, px, y, py, t, pt
    double emittance[3] = {};             //!< rms geometric, x, y, t [m rad], [m rad], [m]
    double normalized_emittance[3] = {};  //!< beta gamma times the geometric one (x, y); t as is
    double beta[3] = {};                  //!< Twiss beta from moments [m] (x, y, t)
    double alpha[3] = {};                 //!< Twiss alpha from moments
    double max_abs[4] = {};               //!< max |x|, |y|, |t|, |pt|
    double kinetic_mev = 0;               //!< reference kinetic energy [MeV]
};

BeamStatistics derive_statistics(BeamMoments const& m, ReferenceParticle const& ref);

//! Column names and units in the order of statistics_row(), for the HDF5 table.
std::vector<std::pair<std::string, std::string>> statistics_columns();
std::vector<double> statistics_row(BeamStatistics const& s);

}  // namespace gt
