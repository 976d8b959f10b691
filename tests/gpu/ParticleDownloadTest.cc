// The GPU's compaction (flags, CUB's exclusive sum, scatter, copy to page-locked memory) gives the
// CPU's selection bit for bit: the same particles, in the same order, for live and lost, any chunk
// (the loss table and the snapshots are made from these selections: run/ParticleDownload.cc).
#include <doctest/doctest.h>

#include <algorithm>
#include <vector>

#include "../ParticleSampleSupport.hh"
#include "kernels/beam/BeamKernels.hh"

using namespace gt;

namespace {

ParticleState sample_state(size_type n)
{
    return test::sample_state(
        n, [](size_type i) { return (i * 7919) % 5 == 1; }, 3);
}

//! The selected particles of view `v`, field by field, as bytes.
std::vector<unsigned char> bytes_of(ParticleView const& v)
{
    std::vector<unsigned char> out;
    auto const add = [&](void const* p, std::size_t b) {
        auto const* c = static_cast<unsigned char const*>(p);
        out.insert(out.end(), c, c + b);
    };
    for (double const* a : {v.x, v.px, v.y, v.py, v.t, v.pt}) add(a, v.size * sizeof(double));
    add(v.id, v.size * sizeof(std::uint64_t));
    add(v.lost_element, v.size * sizeof(std::int32_t));
    add(v.lost_turn, v.size * sizeof(std::int32_t));
    return out;
}

}  // namespace

TEST_CASE("gather_to_host: the GPU's compaction is the CPU's, bit for bit, for any chunk")
{
    size_type const n = 1000003;
    ParticleState host = sample_state(n);
    ParticleState device(host, MemSpace::device);
    auto cpu = make_cpu_beam_kernels();
    auto gpu = make_cuda_beam_kernels();
    CHECK(gpu->count(device.view(), true) == cpu->count(host.view(), true));
    CHECK(gpu->count(device.view(), false) == cpu->count(host.view(), false));
    for (bool alive : {true, false}) {
        for (size_type chunk : {size_type(1000), size_type(262144), n}) {
            CAPTURE(alive);
            CAPTURE(chunk);
            std::vector<unsigned char> a, b;
            for (size_type begin = 0; begin < n; begin += chunk) {
                size_type const end = std::min(n, begin + chunk);
                auto const x = bytes_of(cpu->gather_to_host(host.view(), begin, end, alive));
                auto const y = bytes_of(gpu->gather_to_host(device.view(), begin, end, alive));
                a.insert(a.end(), x.begin(), x.end());
                b.insert(b.end(), y.begin(), y.end());
            }
            CHECK(a == b);
        }
    }
}
