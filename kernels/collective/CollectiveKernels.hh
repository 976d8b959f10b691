// What the collective effects (wakes, LSC, CSR) ask of a backend: the bunch's extent and sizes, its
// longitudinal histogram, the kick from per-node tables, and optionally its own FFTs. Everything
// between (smoothing, the convolutions of a few thousand nodes) runs on the host:
// src/collective/CollectiveSolver.hh.
// CPU: kernels/cpu/CpuCollective.cc (OpenMP); CUDA: kernels/cuda/CudaCollective.cu.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "kernels/collective/LineGrid.hh"
#include "kernels/collective/LineFft.hh"
#include "kernels/collective/LineHistogram.hh"
#include "kernels/core/Buffer.hh"
#include "kernels/core/CrossRank.hh"
#include "kernels/core/ParticleState.hh"

namespace gt {

//! Live particles' count, extent and transverse sizes (one deterministic reduction each, over all ranks).
struct LineBunchShape {
    double alive = 0;
    double t_min = 0, t_max = 0;  //!< [m]
    double max_abs_x = 0, max_abs_y = 0;  //!< [m]
    double sigma_x = 0, sigma_y = 0;      //!< [m] rms sizes
};

//! The shape from the one reduction of LineShapeTerms (reduce::MaxThenSum<4, 5>).
inline LineBunchShape line_bunch_shape(std::array<double, 9> const& v)
{
    double const* e = v.data();      // max of -t, t, |x|, |y|
    double const* s = v.data() + 4;  // sums of 1, x, x^2, y, y^2
    LineBunchShape b;
    b.alive = s[0];
    if (b.alive <= 0) return b;
    b.t_min = -e[0];
    b.t_max = e[1];
    b.max_abs_x = e[2];
    b.max_abs_y = e[3];
    double const mx = s[1] / s[0], my = s[3] / s[0];
    b.sigma_x = std::sqrt(std::max(0.0, s[2] / s[0] - mx * mx));
    b.sigma_y = std::sqrt(std::max(0.0, s[4] / s[0] - my * my));
    return b;
}

class CollectiveKernels {
  public:
    virtual ~CollectiveKernels() = default;
    //! The other ranks of an MPI run, each holding a chunk-aligned share of the particles: the shape's
    //! reductions join every rank's chunk partials in global order and the deterministic histogram's
    //! fixed-point nodes are summed exactly, so every rank sees the bits of one process. The
    //! per-block histogram (double sums) is for one rank only.
    void set_cross_rank(CrossRank const& ranks) { ranks_ = &ranks; }
    virtual MemSpace memory() const = 0;
    virtual std::string description() const = 0;
    //! transverse = false: only the count and the extent in t (max_abs_*, sigma_* are 0), without
    //! reading x and y (12 bytes a particle instead of 28).
    virtual LineBunchShape shape(ParticleView particles, bool transverse = true) = 0;
    //! The histogram on the host: ch.count channels of g.n nodes (LineHistogram.hh), in macroparticles
    //! (channel 0) and macroparticle metres (x, y sums).
    virtual std::vector<double> histogram(ParticleView particles, LineGrid const& g, LineChannels const& ch,
                                          LineHistogramMethod method) = 0;
    //! The backend's own transforms for the convolutions (cuFFT on the GPU); nullptr: FFTW on the host.
    virtual std::unique_ptr<LineFft> make_fft() const { return nullptr; }
    //! Adds the per-node kicks (host tables of g.n values; empty: none) to every live particle on the grid.
    virtual void kick(ParticleView particles, LineGrid const& g, std::vector<double> const& dpt,
                      std::vector<double> const& dpx, std::vector<double> const& dpy) = 0;

  protected:
    CrossRank const& cross_rank() const { return *ranks_; }

  private:
    CrossRank const* ranks_ = &single_process();
};

std::unique_ptr<CollectiveKernels> make_cpu_collective();
//! Throws when gtrack was built without CUDA.
std::unique_ptr<CollectiveKernels> make_cuda_collective();

}  // namespace gt
