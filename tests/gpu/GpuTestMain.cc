// doctest's main for the GPU tests: exits 77 (ctest "skipped") where no GPU is present.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <cstdio>

#include "kernels/core/Device.hh"

int main(int argc, char** argv)
{
    if (gt::device::count() == 0) {
        std::puts("no GPU found: GPU tests skipped");
        return 77;
    }
    std::printf("GPU: %s\n", gt::device::name().c_str());
    doctest::Context context(argc, argv);
    return context.run();
}
