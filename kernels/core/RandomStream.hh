// Counter-based random numbers (Random123 Philox4x32-10) that are the same on CPU and GPU.
//
// A stream is identified by (run seed, particle or track id) and positioned by (step, draw):
// the Philox key is the 64-bit seed, the 128-bit counter is (draw, step, id_lo, id_hi). Each
// Philox call yields four 32-bit words: two 53-bit uniforms or two normals. Nothing depends on
// the thread that evaluates it, so results are independent of thread count and backend.
#pragma once

#include <cstdint>

#include <Random123/philox.h>

#include "kernels/core/Macros.hh"
#include "kernels/core/PortableMath.hh"

namespace gt {

class RandomStream {
  public:
    GT_HOST_DEVICE RandomStream(std::uint64_t seed, std::uint64_t id, std::uint32_t step = 0)
        : seed_(seed), id_(id), step_(step)
    {
    }

    //! The four raw words of block `draw` (no state change).
    GT_HOST_DEVICE r123::Philox4x32::ctr_type block(std::uint32_t draw) const
    {
        r123::Philox4x32 philox;
        r123::Philox4x32::ctr_type ctr = {{draw, step_, static_cast<std::uint32_t>(id_),
                                           static_cast<std::uint32_t>(id_ >> 32)}};
        r123::Philox4x32::key_type key = {
            {static_cast<std::uint32_t>(seed_), static_cast<std::uint32_t>(seed_ >> 32)}};
        return philox(ctr, key);
    }

    //! Uniform in the open interval (0, 1), 53 random bits.
    GT_HOST_DEVICE double uniform()
    {
        if (!have_cached_) {
            auto const w = block(draw_++);
            cached_ = to_unit(w.v[2], w.v[3]);
            have_cached_ = true;
            return to_unit(w.v[0], w.v[1]);
        }
        have_cached_ = false;
        return cached_;
    }

    //! Standard normal variate (Box-Muller on two uniforms; both outputs are used).
    GT_HOST_DEVICE double normal()
    {
        if (have_normal_) {
            have_normal_ = false;
            return normal_cached_;
        }
        auto const w = block(draw_++);
        double const u1 = to_unit(w.v[0], w.v[1]);
        double const u2 = to_unit(w.v[2], w.v[3]);
        double const r = pmath::sqrt(-2.0 * pmath::log(u1));
        double s = 0.0, c = 0.0;
        pmath::sincos(6.28318530717958647692 * u2, s, c);
        normal_cached_ = r * s;
        have_normal_ = true;
        return r * c;
    }

    //! Number of Philox blocks consumed so far.
    GT_HOST_DEVICE std::uint32_t draws() const { return draw_; }

    //! (hi 32 bits, lo 32 bits) -> a 53-bit grid point in (0, 1); exact in double.
    GT_HOST_DEVICE static double to_unit(std::uint32_t hi, std::uint32_t lo)
    {
        std::uint64_t const bits = (static_cast<std::uint64_t>(hi) << 21) ^ (lo >> 11);
        return (static_cast<double>(bits) + 0.5) * 0x1.0p-53;
    }

  private:
    std::uint64_t seed_;
    std::uint64_t id_;
    std::uint32_t step_;
    std::uint32_t draw_ = 0;
    bool have_cached_ = false;
    bool have_normal_ = false;
    double cached_ = 0.0;
    double normal_cached_ = 0.0;
};

}  // namespace gt
