// One collective kick (wakes, longitudinal space charge, CSR) on a bunch: histogram on
// the backend, smoothing and FFT convolutions on the host (a few thousand nodes), kick on the
// backend. docs/physics.md, "Collective effects", has the formulas and their sources.
#pragma once

#include <string>
#include <vector>

#include "collective/LineConvolver.hh"
#include "collective/WakeFunction.hh"
#include "kernels/collective/CollectiveKernels.hh"
#include "kernels/core/KernelTimer.hh"
#include "kernels/spacecharge/BeamFrame.hh"

namespace gt {

struct CollectiveSettings {
    int bins = 1000;  //!< nodes of the longitudinal grid
    LineHistogramMethod method = LineHistogramMethod::deterministic;
    int smoothing = 2;        //!< Savitzky-Golay half-width for LSC and CSR (0: none)
    double lsc_cutoff = 0.5;  //!< LSC low-pass: reaches 0 at this fraction of the grid's Nyquist wavenumber
};

//! What acts at one kick point.
struct CollectiveKickSpec {
    std::vector<WakeFunction const*> wakes;  //!< applied in full at this point
    double ds = 0;                           //!< [m] length of lattice the LSC and CSR kicks stand for
    bool lsc = false;
    double csr_radius = 0;  //!< [m] > 0: CSR of a bend of this radius
    //! [rad] 0: the steady state. Inside the bend (csr_exit_distance < 0): the angle from its
    //! entrance, the entrance transient. After it: the bend's whole angle, the drift wake.
    double csr_angle = 0;
    double csr_exit_distance = -1;  //!< [m] >= 0: in the straight this far after the bend's exit
};

struct CollectiveDiagnostics {
    int bins = 0;
    double h = 0;               //!< [m] node spacing in t
    double charge_on_grid = 0;  //!< [C] histogram sum times the macro charge
    double energy_change = 0;   //!< [J] of the whole bunch from this kick (longitudinal kicks)
    double t_histogram = 0, t_convolve = 0, t_kick = 0;  //!< [s]
};

class CollectiveSolver {
  public:
    //! backend_fft: the convolutions' transforms by the backend's own FFT (cuFFT on the GPU, within
    //! round-off of FFTW: tests/gpu/CollectiveTest.cc); off, FFTW on the host for every backend, which
    //! keeps the GPU's kicks bit-identical to the CPU's (what `gtrack run` and validate use).
    explicit CollectiveSolver(CollectiveKernels& kernels, bool backend_fft = false)
        : kernels_(kernels), convolver_(backend_fft ? kernels.make_fft() : nullptr)
    {
    }

    CollectiveDiagnostics kick(ParticleView particles, CollectiveSettings const& settings, BeamFrame const& frame,
                               CollectiveKickSpec const& spec);

    //! The per-node kicks of the last kick() (empty when that part was absent), for tests.
    std::vector<double> const& last_dpt() const { return dpt_; }
    std::vector<double> const& last_dpx() const { return dpx_; }
    LineGrid const& last_grid() const { return grid_; }
    //! "FFTW" or "cuFFT": the transforms of the convolutions.
    std::string fft_name() const { return convolver_.fft().name(); }

    //! Per stage, summed over kicks (--timing, --profile): coll.histogram (extent and deposit on the
    //! backend, the copy to the host), coll.wake, coll.smooth, coll.lsc, coll.csr (host), coll.kick.
    KernelTimer const& timer() const { return timer_; }

  private:
    KernelTimer timer_;
    CollectiveKernels& kernels_;
    LineConvolver convolver_;
    LineGrid grid_;
    std::vector<double> dpt_, dpx_, dpy_;
    //! The steady-state CSR kernel of u^-1/3 for a node spacing of 1 (it scales as h^-1/3): its
    //! quadrature once per bin count instead of at every kick.
    std::vector<double> csr_unit_kernel_;
};

//! The LSC response on the padded grid: the harmonic m of E_z [V/m] per harmonic m of lambda_z
//! [C/m], for n nodes of spacing h [m] in t, radius r_b [m] of the equivalent uniform beam,
//! cutoff as CollectiveSettings::lsc_cutoff.
std::complex<double> lsc_response(int m, int n, double h, double r_b, double beta, double gamma, double cutoff);

//! The rms of a Gaussian transverse distribution matched to a uniform disc for LSC:
//! r_b = 1.747 (sigma_x + sigma_y) / 2.
double lsc_equivalent_radius(double sigma_x, double sigma_y);

}  // namespace gt
