# FMA instructions for the CPU backend (GTRACK_FMA; kernels/core/FusedMultiplyAdd.hh says why).
# Sets GTRACK_FMA_FLAGS (compile options of the host targets) and GTRACK_FMA_DEFINITIONS.
#   ON (default): x86-64 builds with -mfma (every x86-64 CPU since Haswell and Piledriver has it; ARMv8,
#      POWER and RISC-V RV64GC have fused multiply-add in the base ISA, no flag). Refused when the
#      compiler lacks the flag or when this machine cannot execute FMA instructions (the executable
#      would stop with SIGILL): a build for another machine passes GTRACK_FMA_CHECK_HOST=OFF.
#   OFF: no FMA instructions; gt::fma_rn becomes the unfused a*b+c (inline, no libm call). Runs
#      anywhere at full speed, but the CPU no longer gives the GPU's bits or the regression
#      references' (round-off differences, 1e-16 relative per map).
include(CheckCXXCompilerFlag)
include(CheckCXXSourceRuns)
option(GTRACK_FMA_CHECK_HOST "With GTRACK_FMA=ON, refuse to configure on a machine without FMA instructions" ON)

set(GTRACK_FMA_FLAGS "")
set(GTRACK_FMA_DEFINITIONS "")
if(GTRACK_FMA)
  if(CMAKE_SYSTEM_PROCESSOR MATCHES "^(x86_64|AMD64|amd64|i[3-6]86)$")
    check_cxx_compiler_flag(-mfma GTRACK_CXX_HAS_MFMA)
    if(NOT GTRACK_CXX_HAS_MFMA)
      message(FATAL_ERROR "gtrack: GTRACK_FMA=ON needs a compiler that accepts -mfma; "
                          "configure with -DGTRACK_FMA=OFF for an unfused build (not bit for bit with the GPU)")
    endif()
    set(GTRACK_FMA_FLAGS -mfma)
    if(GTRACK_FMA_CHECK_HOST AND NOT CMAKE_CROSSCOMPILING)
      set(CMAKE_REQUIRED_FLAGS -mfma)
      check_cxx_source_runs([=[
        int main() { __builtin_cpu_init(); return __builtin_cpu_supports("fma") ? 0 : 1; }
      ]=] GTRACK_HOST_RUNS_FMA)
      unset(CMAKE_REQUIRED_FLAGS)
      if(NOT GTRACK_HOST_RUNS_FMA)
        message(FATAL_ERROR
          "gtrack: this CPU has no FMA instructions, which the CPU backend is built with (GTRACK_FMA=ON): "
          "without them every fused multiply-add of the element maps would be a libm call (std::fma, "
          "software emulation, several times slower). Configure with -DGTRACK_FMA=OFF for an unfused build "
          "(full speed, but not bit for bit with the GPU or the regression references), or with "
          "-DGTRACK_FMA_CHECK_HOST=OFF to build for another machine that has them.")
      endif()
    endif()
  endif()
  message(STATUS "gtrack: FMA instructions on (${GTRACK_FMA_FLAGS})")
else()
  set(GTRACK_FMA_DEFINITIONS GTRACK_FMA_UNFUSED=1)
  message(WARNING "gtrack: GTRACK_FMA=OFF: the element maps' fused multiply-adds are computed unfused; "
                  "CPU results differ from the GPU's and from the regression references by round-off")
endif()
