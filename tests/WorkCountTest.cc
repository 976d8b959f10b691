// Counted work of the beam kernels: the FP64 operations and bytes the profile reports for a
// drift-only and a quadrupole-only lattice, against counts made by hand from the maps' code.
#include <doctest/doctest.h>

#include <vector>

#include "ElementTestSupport.hh"
#include "kernels/beam/BeamKernels.hh"
#include "kernels/elements/ElementWork.hh"

using namespace gt;
using namespace gt::test;

namespace {

constexpr size_type k_particles = 1000;

//! Tracks a cold, centred beam (nobody is lost) through `elements` in two segments, [0, 3) and
//! [3, n), and returns the `track` record: the count must not depend on where segments end.
KernelRecord track_record(std::vector<Element> const& elements)
{
    auto kernels = make_cpu_beam_kernels();
    ParticleState state(k_particles, MemSpace::host);
    ParticleView v = state.view();
    for (size_type i = 0; i < k_particles; ++i) {
        v.x[i] = v.y[i] = 1e-4;
        v.px[i] = v.py[i] = v.t[i] = v.pt[i] = 0.0;
        v.id[i] = i;
        v.lost_element[i] = v.lost_turn[i] = -1;
    }
    kernels->set_elements(elements, {});
    kernels->track(v, 0, 3, 0);
    kernels->track(v, 3, elements.size(), 0);
    return kernels->timer().records().at("track");
}

std::vector<Element> drifts(DriftModel model, int n)
{
    std::vector<Element> out;
    for (int i = 0; i < n; ++i) {
        Element e = Element::make(ElementKind::drift);
        e.index = i;
        e.drift = Drift::make(0.5, model, proton(250.0));
        out.push_back(e);
    }
    return out;
}

std::vector<Element> quadrupoles(QuadrupoleModel model, int n)
{
    std::vector<Element> out;
    for (int i = 0; i < n; ++i) {
        Element e = Element::make(ElementKind::quadrupole);
        e.index = i;
        // Alternating focusing and defocusing, sqrt(1.2) * 0.5 = 0.55 < 1: the series sinhcosh.
        e.quadrupole = Quadrupole::make(0.5, i % 2 == 0 ? 1.2 : -1.2, model, 0, proton(250.0));
        out.push_back(e);
    }
    return out;
}

}  // namespace

// Every entry ends with is_finite: ((x + px) + (y + py)) + (t + pt) is 5 adds, sum - sum 1: 6.
// Bytes: each of the two segment calls loads and stores x, px, y, py, t, pt (2 x 6 x 8 = 96 B) and
// reads the 4-byte loss flag: 100 B per particle per call, independent of the entries in it.
TEST_CASE("work counts: drift-only lattice, against a hand count")
{
    // An fma_rn counts two. drift_linear: x = fma(L, px, x) 2, y 2, t = fma(L inv_bg2, pt, t) 2 (the
    // coefficient from the table) = 6; + 6.
    KernelRecord const linear = track_record(drifts(DriftModel::linear, 10));
    CHECK(linear.flops == double(k_particles) * 10 * (6 + 6));
    CHECK(linear.bytes == double(k_particles) * 2 * 100);
    CHECK(linear.items == double(k_particles) * 10);
    CHECK(linear.calls == 2);

    // The exact drift (ExactDriftStep::at, then the step), line by line:
    //   a = 2/beta - pt; energy = 1/beta - pt                      1 + 1
    //   p2 = fma(-pt, a, 1); num_pt = (pt a) inv_bg2              2 + 2
    //   transverse2 = fma(px, px, py py)                           3
    //   pz2 = p2 - transverse2; pz = sqrt(pz2); L/pz               1 + 1 + 1
    //   x = fma(L/pz, px, x); y likewise                           2 + 2
    //   num = fma(transverse2, 1/beta^2, num_pt)                   2
    //   t = fma(L, num / (pz fma(pz, 1/beta, energy)), t)          3 + 1 + 2
    // = 24 per particle and entry; + 6 for is_finite = 30.
    KernelRecord const exact = track_record(drifts(DriftModel::exact, 10));
    CHECK(exact.flops == double(k_particles) * 10 * 30);
    CHECK(exact.bytes == double(k_particles) * 2 * 100);
}

TEST_CASE("work counts: quadrupole-only lattice, against a hand count")
{
    // track_linear: four transfer rows fma(c, x, s px) 3 each 12, t = fma(L inv_bg2, pt, t) 2 = 14; + 6.
    KernelRecord const linear = track_record(quadrupoles(QuadrupoleModel::linear, 8));
    CHECK(linear.flops == double(k_particles) * 8 * (14 + 6));
    CHECK(linear.bytes == double(k_particles) * 2 * 100);

    // track_chromatic without its focusing: energy 1, a = 2/beta - pt 1, P^2 = fma(-pt, a, 1) 2,
    // sqrt 1, 1/P 1, kx = k1/P 1, x'0 and y'0 1 + 1, x1, x'1, y1, y'1 (mul, fma) 12, 2 ix and 2 iy
    // fma(fma(kx x0, x0, x'0 x'0), L, fma(x1, x'1, -x0 x'0)) 9 each, dt/ds 6 ((pt a) inv_bg2 2,
    // P fma(P, 1/beta, energy) 3, divide 1), px, py = P u' 2, t += fma(L, dt/ds, (energy/P)
    // (0.25 (2 ix + 2 iy))) 6: 53.
    // Focusing, both planes from one w: w = sqrt(|k1| / P) 2, 1/w = (w P) / |k1| 2, w L 1,
    // sincos 51 (NaN test 1; reduction: x 2/pi, rint, 3 fma = 8; sin: r^2, 8 Horner fma,
    // fma(r, r^2 p, r) = 20; cos: r^2, 8 fma, r^4, 1 - 0.5 r^2, fma = 22), S/w and -w S 2, and for
    // |w L| < 1 the series sinhcosh 43 (x^2 1; sinh: 9 Horner fma 18, fma(x, x^2 s, x) 3; cosh: 8 fma
    // 16, x^4, 1 + 0.5 x^2, fma 5), S/w and w S 2: 103.
    // 53 + 103 = 156; + 6 = 162.
    KernelRecord const exact = track_record(quadrupoles(QuadrupoleModel::exact, 8));
    CHECK(exact.flops == double(k_particles) * 8 * 162);
    CHECK(exact.bytes == double(k_particles) * 2 * 100);
}

TEST_CASE("work counts: misalignment and the hyperbolic branch change the count")
{
    std::vector<Element> q = quadrupoles(QuadrupoleModel::exact, 1);
    // enter: x - dx, y - dy 2, four rotated rows (2 mul, add) 12; leave: x, y (2 mul, add, + d) 8,
    // px, py 6: 28.
    q[0].misaligned = true;
    q[0].misalignment = Misalignment::make(1e-4, 0.0, 0.01);
    CHECK(work::element_flops(q[0]) == 162 + 28);
    // sqrt(16) * 0.5 = 2 >= 1: the exp branch of sinhcosh, exp 41 (x/ln2 and rint 2, reduction 4,
    // 17 Horner steps 34, ldexp 1) + 1/e, (e - 1/e)/2, (e + 1/e)/2 5 = 46 instead of 43.
    Element strong = Element::make(ElementKind::quadrupole);
    strong.quadrupole = Quadrupole::make(0.5, 16.0, QuadrupoleModel::exact, 0, proton(250.0));
    CHECK(work::element_flops(strong) == 162 + 3);
}
