// A register-allocation hint for the GPU kernels: a value the compiler may not see through.
#pragma once

#include "kernels/core/Macros.hh"

namespace gt {

//! Leaves x unchanged, but on the device the compiler must treat it as a new value (an empty inline asm
//! with x as its input and output; no instruction is emitted). Nothing is computed, so no bit changes;
//! on the host it does nothing. TrackSegment applies it to pt at the top of each element: in the
//! optics switch no case changes pt, so without it the compiler hoists pt-only products (pt^2 of the
//! exact bend's momentum) out of the element loop and then spills them at 64 registers.
GT_HOST_DEVICE GT_FORCEINLINE void opaque_in_place(double& x)
{
#if defined(__CUDA_ARCH__)
    asm("" : "+d"(x));
#else
    (void)x;
#endif
}

}  // namespace gt
