// Every cuFFT call's status is checked, as Check.cuh does for the CUDA runtime: a failure throws
// with the call, file and line.
#pragma once

#include <stdexcept>
#include <string>

#include <cufft.h>

#define GT_CUFFT_CHECK(call)                                                                            \
    do {                                                                                                \
        cufftResult const gt_cufft_res_ = (call);                                                       \
        if (gt_cufft_res_ != CUFFT_SUCCESS)                                                             \
            throw std::runtime_error(std::string("cuFFT error ") + std::to_string(int(gt_cufft_res_)) + \
                                     " in " #call " at " __FILE__ ":" + std::to_string(__LINE__));      \
    } while (0)
