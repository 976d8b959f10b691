// An NVTX range for the lifetime of a scope, so that Nsight Systems shows gtrack's phases and
// kernels under the names of --trace and --profile. Without CUDA it compiles to nothing.
#pragma once

#if defined(GTRACK_HAVE_CUDA)
#include <nvtx3/nvToolsExt.h>
#endif

namespace gt {

class NvtxRange {
  public:
    explicit NvtxRange([[maybe_unused]] char const* name)
    {
#if defined(GTRACK_HAVE_CUDA)
        nvtxRangePushA(name);
#endif
    }
    ~NvtxRange()
    {
#if defined(GTRACK_HAVE_CUDA)
        nvtxRangePop();
#endif
    }
    NvtxRange(NvtxRange const&) = delete;
    NvtxRange& operator=(NvtxRange const&) = delete;
};

}  // namespace gt
