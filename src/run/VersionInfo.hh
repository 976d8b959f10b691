// What --version prints and what provenance records about this build and machine.
#pragma once

#include <string>

namespace gt {

//! "gtrack 0.1.0 (git 1a2b3c4d5e6f)"
std::string version_line();
//! "Release, GNU 12.2.0, CUDA ON (sm_90), OpenMP ON"
std::string build_options();
//! The whole --version text: version, build options, CUDA runtime and the GPU found (or "no GPU").
std::string version_report();

}  // namespace gt
