# Sanitizer and fuzzing builds (scripts/sanitize.sh, scripts/fuzz.sh): flags for every target of the
# project, so the library that the tests and fuzz targets link is instrumented too.
if(GTRACK_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    message(FATAL_ERROR "GTRACK_FUZZ needs clang (libFuzzer): configure with -DCMAKE_CXX_COMPILER=clang++")
  endif()
  if(GTRACK_USE_CUDA)
    message(FATAL_ERROR "GTRACK_FUZZ builds the CPU code only: configure with -DGTRACK_CUDA=OFF")
  endif()
  set(GTRACK_SANITIZE ON)
  # Coverage feedback for libFuzzer in every object; the fuzz targets add -fsanitize=fuzzer (main).
  add_compile_options($<$<COMPILE_LANGUAGE:CXX>:-fsanitize=fuzzer-no-link>)
endif()
if(GTRACK_SANITIZE)
  # Any report ends the process with a failure (UBSan would otherwise print and go on), and frames
  # stay readable. Floating-point division by zero is not in "undefined": IEEE infinities are
  # handled results in the physics code.
  set(GTRACK_SANITIZER_FLAGS -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer)
  # -O1 and line tables only: what AddressSanitizer's documentation recommends, and 30% less compile
  # time than RelWithDebInfo's -O2 -g (one shower test: 34.7 against 49-52 s of user time, clang 14),
  # with file:line in every report still. Set here so sanitize.sh and fuzz.sh configure alike.
  set(CMAKE_CXX_FLAGS_RELWITHDEBINFO "-O1 -gline-tables-only -DNDEBUG")
  add_compile_options("$<$<COMPILE_LANGUAGE:CXX>:${GTRACK_SANITIZER_FLAGS}>")
  add_link_options(${GTRACK_SANITIZER_FLAGS})
  message(STATUS "gtrack: sanitizers address,undefined; fuzz targets ${GTRACK_FUZZ}")
endif()
