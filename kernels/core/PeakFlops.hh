// The FP64 ceiling's workload: per item, eight independent multiply-add chains (no dependency
// between them, so the pipelines stay full), kept in registers. 16 FP64 operations per round.
#pragma once

#include "kernels/core/Macros.hh"
#include "kernels/core/Types.hh"

namespace gt {

struct PeakFlops {
    double* out;  //!< one value per item, so that the chains are not optimized away
    int rounds;

    static constexpr double k_flops_per_round = 16;

    GT_HOST_DEVICE void operator()(size_type i) const
    {
        double a[8];
        for (int k = 0; k < 8; ++k) a[k] = 1.0 + 1e-3 * double(k) + 1e-9 * double(i);
        double const m = 0.999999, c = 1e-6;  // a -> a m + c converges to c / (1 - m): no overflow
        for (int r = 0; r < rounds; ++r)
            for (int k = 0; k < 8; ++k) a[k] = a[k] * m + c;
        double s = 0;
        for (int k = 0; k < 8; ++k) s += a[k];
        out[i] = s;
    }
};

}  // namespace gt
