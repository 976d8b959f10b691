// Loss records and snapshots come back a chunk at a time, compacted where the particles live: the
// same records, in the same order, as a copy of the whole state gave, for any chunk size.
#include <doctest/doctest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "IoTestSupport.hh"
#include "ParticleSampleSupport.hh"
#include "io/H5Access.hh"
#include "io/H5Handle.hh"
#include "io/OpenPmdWriter.hh"
#include "io/OutputFile.hh"
#include "kernels/beam/BeamKernels.hh"
#include "run/ParticleDownload.hh"

using namespace gt;
using gt::test::TempDir;

namespace {

//! n particles with distinct coordinates; every third lost (at entry i % 4, turn i % 2).
ParticleState sample_state(size_type n)
{
    return test::sample_state(
        n, [](size_type i) { return i % 3 == 1; }, 2);
}

Lattice four_entries()
{
    Lattice l;
    for (int i = 0; i < 4; ++i) {
        ElementInfo e;
        e.name = "E" + std::to_string(i);
        e.s_begin = 0.5 * i;
        e.s_end = 0.5 * (i + 1);
        l.info.push_back(e);
    }
    l.length = 2.0;
    l.reference_begin = ReferenceParticle::from_kinetic(938.27208816, 1.0, 100.0);
    l.reference_begin.s = 10.0;
    return l;
}

}  // namespace

TEST_CASE("gather_to_host on the CPU: the selected particles of a range, in index order")
{
    auto kernels = make_cpu_beam_kernels();
    ParticleState state = sample_state(100);
    ParticleView const all = state.view();
    CHECK(kernels->count(all, true) == 67);
    CHECK(kernels->count(all, false) == 33);
    ParticleView const a = kernels->gather_to_host(all, 10, 20, true);
    ParticleView const b = kernels->gather_to_host(all, 20, 30, false);
    // Two stagings alternate: the first view is still whole after the second call (and after an
    // empty one).
    CHECK(kernels->gather_to_host(all, 1, 2, true).size == 0);
    std::vector<std::uint64_t> expect_a, expect_b;
    for (size_type i = 10; i < 20; ++i)
        if (i % 3 != 1) expect_a.push_back(1000 + 3 * i);
    for (size_type i = 20; i < 30; ++i)
        if (i % 3 == 1) expect_b.push_back(1000 + 3 * i);
    REQUIRE(a.size == expect_a.size());
    REQUIRE(b.size == expect_b.size());
    for (size_type k = 0; k < a.size; ++k) {
        CHECK(a.id[k] == expect_a[k]);
        size_type const i = (a.id[k] - 1000) / 3;
        CHECK(a.x[k] == all.x[i]);
        CHECK(a.pt[k] == all.pt[i]);
        CHECK(a.lost_element[k] == -1);
    }
    for (size_type k = 0; k < b.size; ++k) {
        CHECK(b.id[k] == expect_b[k]);
        size_type const i = (b.id[k] - 1000) / 3;
        CHECK(b.py[k] == all.py[i]);
        CHECK(b.lost_element[k] == std::int32_t(i % 4));
        CHECK(b.lost_turn[k] == std::int32_t(i % 2));
    }
    CHECK(kernels->gather_to_host(all, 40, 40, true).size == 0);
}

TEST_CASE("the loss table is the same for any chunk size, and holds only the lost particles")
{
    auto kernels = make_cpu_beam_kernels();
    ParticleState state = sample_state(1000);
    Lattice const lattice = four_entries();
    Table const whole = loss_table(*kernels, state.view(), lattice, 1000);
    REQUIRE(whole.rows() == 333);
    auto const& id = std::get<std::vector<std::uint64_t>>(whole.find("id")->values);
    auto const& s = std::get<std::vector<double>>(whole.find("s")->values);
    auto const& x = std::get<std::vector<double>>(whole.find("x")->values);
    for (std::size_t k = 0; k < id.size(); ++k) {
        size_type const i = 3 * k + 1;  // the k-th lost particle
        CHECK(id[k] == 1000 + 3 * i);
        CHECK(s[k] == 10.0 + double(i % 2) * 2.0 + 0.5 * double(i % 4 + 1));
        CHECK(x[k] == state.view().x[i]);
    }
    for (size_type chunk : {size_type(1), size_type(7), size_type(64), size_type(999)}) {
        CAPTURE(chunk);
        Table const t = loss_table(*kernels, state.view(), lattice, chunk);
        REQUIRE(t.rows() == whole.rows());
        for (auto const& c : whole.columns()) CHECK(t.find(c.name)->values == c.values);
    }
}

TEST_CASE("a snapshot written in chunks is the file written from the whole beam at once")
{
    TempDir dir;
    auto kernels = make_cpu_beam_kernels();
    ParticleState state = sample_state(1000);
    ParticleView const all = state.view();
    PhaseSpaceHost whole;
    for (size_type i = 0; i < all.size; ++i) {
        if (!all.alive(i)) continue;
        whole.x.push_back(all.x[i]);
        whole.px.push_back(all.px[i]);
        whole.y.push_back(all.y[i]);
        whole.py.push_back(all.py[i]);
        whole.t.push_back(all.t[i]);
        whole.pt.push_back(all.pt[i]);
        whole.id.push_back(all.id[i]);
    }
    auto const ref = ReferenceParticle::from_kinetic(938.27208816, 1.0, 100.0);
    std::string const one = dir.file("one.h5");
    {
        OutputFile out(one);
        write_phase_space(out, 0, "beam", whole, ref, "end", 1e-9, 1000);
        out.commit();
    }
    std::vector<std::string> const records = {"position/x", "position/y", "position/t",
                                              "momentum/x", "momentum/y", "momentum/t",
                                              "weighting",  "momentum/z", "time"};
    h5::File a = h5::open_file_readonly(one);
    for (size_type chunk : {size_type(1), size_type(13), size_type(500), size_type(4096)}) {
        CAPTURE(chunk);
        std::string const chunked = dir.file("chunked" + std::to_string(chunk) + ".h5");
        {
            OutputFile out(chunked);
            parallel::write_phase_space_in_rank_order(&out, 0, "beam", live_particles(*kernels, all, chunk),
                                                      ref, "end", 1e-9, 1000);
            out.commit();
        }
        PhaseSpaceFile const back = read_phase_space(chunked);
        CHECK(back.beam.id == whole.id);
        h5::File b = h5::open_file_readonly(chunked);
        for (auto const& r : records) {
            CAPTURE(r);
            std::string const p = "/data/0/particles/beam/" + r;
            CHECK(h5::read_doubles(b, p) == h5::read_doubles(a, p));
        }
    }
}
