// The GPU memory estimate of a beamline run and the message when it does not fit (checked here on the
// CPU with given free/total numbers; tests/gpu/DeviceMemoryTest.cc checks it against the real GPU).
#include <doctest/doctest.h>

#include <string>

#include "TextTestSupport.hh"
#include "deck/DeckReader.hh"
#include "run/DeviceMemory.hh"

using namespace gt;
using gt::test::contains;

namespace {

std::string const k_deck = R"(
[beam]
particle = "proton"
kinetic_energy = "10 MeV"
bunch_charge = "50 pC"
macroparticles = 1_000_000
[beam.twiss]
beta_x = 1.5
emittance_x = "1 um"
beta_y = 0.5
emittance_y = "1 um"
sigma_t = "30 mm"
sigma_pt = 1.0e-4
[elements]
D = { type = "drift", length = 1.0 }
[lattice]
line = ["D"]
[space_charge]
enabled = false
grid = [32, 32, 64]
)";

constexpr double k_mib = 1024.0 * 1024.0;

}  // namespace

TEST_CASE("device memory: the particle state is 64 bytes per macroparticle, plus the library reserve")
{
    DeckConfig const deck = read_deck_text(k_deck, "mem.toml");
    DeviceMemoryEstimate const e = estimate_beamline_device_memory(deck);
    REQUIRE(e.parts.size() == 2);
    // x, px, y, py, t, pt (8 B each), id (8 B), lost_element and lost_turn (4 B each).
    CHECK(e.parts[0].bytes == 1e6 * 64);
    CHECK(e.parts[0].change == "beam.macroparticles");
    CHECK(e.total() == 1e6 * 64 + 768 * k_mib);
    CHECK(e.macroparticles == 1e6);
}

TEST_CASE("device memory: space charge adds per-particle buffers and the grids, counted by hand here")
{
    DeckConfig const deck = read_deck_text(k_deck, "mem.toml", {"space_charge.enabled=true"});
    DeviceMemoryEstimate const e = estimate_beamline_device_memory(deck);
    REQUIRE(e.parts.size() == 4);
    // Per particle: packed positions x, y, t and the loss record (32) + keys, permutation (8) + CUB's
    // sorted keys and values (8) and work area (8) = 56 B.
    CHECK(e.parts[1].bytes == 1e6 * 56);
    // 32 x 32 x 64 = 65536 nodes x 56 B (weights, charge, fixed-point weights 8 B each; fields 32 B);
    // doubled grid 64 x 64 x 128 reals (8 B); 4 complex arrays of
    // 33 x 64 x 128 (16 B); corners 34 x 34 x 66 (8 B).
    double const grid = 65536.0 * 56 + 64.0 * 64 * 128 * 8 + 4.0 * 33 * 64 * 128 * 16 + 34.0 * 34 * 66 * 8;
    CHECK(e.parts[2].bytes == grid);
    CHECK(e.parts[2].change == "space_charge.grid");
    CHECK(e.total() == 1e6 * (64 + 56) + grid + 768 * k_mib);
}

TEST_CASE("device memory: what fits is silent; what does not names bytes, free memory and what to change")
{
    DeckConfig const deck = read_deck_text(
        k_deck, "mem.toml", {"space_charge.enabled=true", "beam.macroparticles=1_000_000_000"});
    DeviceMemoryEstimate const e = estimate_beamline_device_memory(deck);
    std::uint64_t const gib = 1ull << 30;
    CHECK(device_memory_shortfall(e, 400 * gib, 400 * gib, "big GPU") == "");
    std::string const m = device_memory_shortfall(e, 80 * gib, 94 * gib, "test GPU");
    INFO(m);
    CHECK(contains(m, "needs about 112.53 GiB"));  // 1e9 x 120 B + grid 24.6 MiB + 768 MiB
    CHECK(contains(m, "test GPU has 80.00 GiB free (of 94.00 GiB)"));
    CHECK(contains(m, "particles (1e+09 macroparticles x 64 B)"));
    CHECK(contains(m, "reduce beam.macroparticles or space_charge.grid"));
    // (80 GiB - 768 MiB - 24.6 MiB) / 120 B = 7.09e8 macroparticles.
    CHECK(contains(m, "at most about 7.09e+08 macroparticles fit"));
    CHECK(contains(m, "--backend cpu"));
}
