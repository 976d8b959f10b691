// Dormand-Prince field propagation against the exact helix of a uniform field: position after many
// turns, |p| conservation, crossing points with cylinders, and pausing at the substep cap.
#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "Relative.hh"
#include "kernels/core/Types.hh"
#include "kernels/field/FieldPropagator.hh"
#include "kernels/field/SolenoidField.hh"
#include "kernels/field/UniformField.hh"

using namespace gt;

namespace {

//! The exact helix in B = B z-hat for a track of charge q [e], momentum p [MeV/c], from the origin.
struct Helix {
    double q, p, b;
    Vec3 d0;
    double omega() const { return field::k_mev_per_tm * q * b / p; }  // rotation per path length [1/m]
    Vec3 position(double s) const
    {
        double const w = omega();
        double const sn = std::sin(w * s), cs = std::cos(w * s);
        return {(d0.x * sn - d0.y * cs + d0.y) / w, (d0.y * sn + d0.x * cs - d0.x) / w, d0.z * s};
    }
    Vec3 direction(double s) const
    {
        double const w = omega();
        double const sn = std::sin(w * s), cs = std::cos(w * s);
        return {d0.x * cs + d0.y * sn, d0.y * cs - d0.x * sn, d0.z};
    }
};

struct World {
    std::vector<PlacedVolume> volumes;
    std::vector<BvhNode> nodes;
    std::vector<std::int32_t> items;
    GeometryView view() const
    {
        return GeometryView{volumes.data(), static_cast<std::int32_t>(volumes.size()), nodes.data(),
                            items.data()};
    }
};

//! The same bits in every component.
bool same(Vec3 a, Vec3 b) { return a.x == b.x && a.y == b.y && a.z == b.z; }

//! A uniform field that counts its evaluations.
struct CountingField {
    UniformField field;
    int* calls;
    Vec3 operator()(Vec3 pos) const
    {
        ++*calls;
        return field(pos);
    }
};

World big_box()
{
    World w;
    PlacedVolume pv;
    pv.shape.type = ShapeType::box;
    pv.shape.box.half = {1.0e3, 1.0e3, 1.0e3};
    w.volumes.push_back(pv);
    return w;
}

}  // namespace

TEST_CASE("a helix through 20 turns stays on the exact helix within the requested accuracy")
{
    World const w = big_box();
    Navigator const nav(w.view());
    UniformField const field{{0, 0, 1.0}};
    double const alpha = 0.3;
    Helix const h{-1.0, 300.0, 1.0, {std::cos(alpha), 0.0, std::sin(alpha)}};
    double const turn = constants::two_pi / std::fabs(h.omega());
    for (double eps : {1.0e-5, 1.0e-7}) {
        CAPTURE(eps);
        PropagationParams params;
        params.epsilon = eps;
        params.delta_chord = 1.0;  // let the error control alone choose the substeps
        params.max_substeps = 1000000;
        FieldPropagator<UniformField> const prop(field, params, nav);
        double const length = 20 * turn;
        PropState st{length, HUGE_VAL, HUGE_VAL};
        Vec3 pos{0, 0, 0}, dir = h.d0;
        auto const r = prop(pos, dir, h.q, h.p, 0, st);
        CHECK(r.done);
        CHECK(!r.boundary);
        CHECK(r.length == test::relative(length, 1e-12));
        // eps bounds the error per unit length of each substep: the global error stays below eps
        // times the path (errors of successive substeps add at worst linearly)
        double const err = norm(pos - h.position(length));
        CHECK(err < eps * length);
        CHECK(norm(dir - h.direction(length)) < eps * length);
        // |p| = p |dir| is kept to rounding
        CHECK(std::fabs(norm(dir) - 1.0) < 1e-10);
        MESSAGE("eps " << eps << ": " << r.substeps << " substeps, position error " << err << " m over "
                       << length << " m");
    }
}

TEST_CASE("the DP5(4) step alone conserves |p| to 1e-10 per substep within its error tolerance")
{
    UniformField const field{{0.3, -0.2, 1.5}};
    DormandPrince<UniformField> const dp{field, 1.0, 500.0};
    OdeState y{{0, 0, 0}, {300.0, 200.0, 346.41016151377545}};
    double const p0 = norm(y.mom);
    OdeState err;
    for (int i = 0; i < 100; ++i) {
        y = dp.step(y, 0.01, err);
    }
    CHECK(std::fabs(norm(y.mom) / p0 - 1.0) < 1e-10);
}

TEST_CASE("crossing points of a helix with cylinders match the analytic intersections")
{
    // world with thin coaxial shells; the helix starts on the axis, so r(s) = 2 R |sin(w s / 2)|
    World w = big_box();
    std::vector<double> radii = {0.10, 0.25, 0.40, 0.55};
    for (double r : radii) {
        PlacedVolume pv;
        pv.shape = Shape(Tube{r, r + 0.01, 5.0, {}});
        pv.mother = 0;
        pv.logical = 1;
        pv.lo = {-(r + 0.01), -(r + 0.01), -5.0};
        pv.hi = {r + 0.01, r + 0.01, 5.0};
        w.items.push_back(static_cast<std::int32_t>(w.volumes.size()));
        w.volumes.push_back(pv);
    }
    BvhNode leaf;
    leaf.lo = {-1, -1, -5};
    leaf.hi = {1, 1, 5};
    leaf.first = 0;
    leaf.count = static_cast<std::int32_t>(w.items.size());
    w.nodes.push_back(leaf);
    w.volumes[0].bvh_root = 0;
    Navigator const nav(w.view());
    UniformField const field{{0, 0, 2.0}};
    double const alpha = 0.2;
    Helix const h{1.0, 250.0, 2.0, {std::cos(alpha), 0.0, std::sin(alpha)}};
    double const rperp = std::cos(alpha) / std::fabs(h.omega());  // projected circle radius
    PropagationParams params;
    params.delta_intersection = 1.0e-6;
    params.epsilon = 1.0e-8;
    params.max_substeps = 1000;
    FieldPropagator<UniformField> const prop(field, params, nav);
    std::vector<double> surfaces;
    for (double r : radii) {
        surfaces.push_back(r);
        surfaces.push_back(r + 0.01);
    }
    Vec3 pos{0, 0, 0}, dir = h.d0;
    std::int32_t volume = 0;
    double s_total = 0;
    PropState st{HUGE_VAL, HUGE_VAL, HUGE_VAL};
    for (double rho : surfaces) {
        REQUIRE(rho < 2 * rperp);
        st.remaining = 100.0;
        auto const r = prop(pos, dir, h.q, h.p, volume, st);
        REQUIRE(r.boundary);
        s_total += r.length;
        double const s_exact = 2.0 * std::asin(rho / (2.0 * rperp)) / std::fabs(h.omega());
        Vec3 const exact = h.position(s_exact);
        CAPTURE(rho);
        // the crossing point lies on the surface within delta_intersection (plus the chord's sagitta
        // between the point and the true arc, below delta_chord) and on the exact helix
        CHECK(std::fabs(std::hypot(pos.x, pos.y) - rho) < 1.0e-9);
        CHECK(norm(pos - exact) < params.delta_intersection + 1.0e-6);
        CHECK(s_total == test::relative(s_exact, 1.0e-5));
        volume = nav.cross_boundary(volume, pos, dir);
        pos = axpy(nav::k_push, dir, pos);
        s_total += nav::k_push;
    }
}

TEST_CASE("pausing at the substep cap and resuming gives the uncapped substeps bit for bit")
{
    World const w = big_box();
    Navigator const nav(w.view());
    UniformField const field{{0.1, 0.2, 1.0}};
    PropagationParams one_go;
    one_go.max_substeps = 100000;
    PropagationParams capped = one_go;
    capped.max_substeps = 3;
    Vec3 const d0 = normalized(Vec3{0.6, 0.1, 0.5});
    Vec3 pa{0, 0, 0}, da = d0, pb{0, 0, 0}, db = d0;
    PropState sa{5.0, HUGE_VAL, HUGE_VAL}, sb = sa;
    auto const ra = FieldPropagator<UniformField>(field, one_go, nav)(pa, da, -1.0, 200.0, 0, sa);
    int calls = 0, substeps = 0;
    for (;;) {
        ++calls;
        auto const rb = FieldPropagator<UniformField>(field, capped, nav)(pb, db, -1.0, 200.0, 0, sb);
        substeps += rb.substeps;
        if (rb.done) break;
        REQUIRE(rb.substeps == 3);
    }
    CHECK(calls > 5);
    CHECK(substeps == ra.substeps);
    CHECK(pa.x == pb.x);
    CHECK(pa.y == pb.y);
    CHECK(pa.z == pb.z);
    CHECK(da.x == db.x);
    CHECK(da.z == db.z);
}

TEST_CASE("a DP5(4) step reports the field at its end, and the propagator reuses it: 6 evaluations a substep")
{
    // a field that varies along the track: the finite solenoid near its end
    SolenoidField const coil{2.0, 0.5, 1.0, {0, 0, 0}};
    DormandPrince<SolenoidField> const dp{coil, -1.0, 300.0};
    OdeState const y{{0.1, 0.05, 0.8}, {120.0, -90.0, 260.0}};
    OdeState err_a, err_b;
    Vec3 b_end;
    OdeState const a = dp.step(y, 0.03, err_a);
    OdeState const b = dp.step(y, 0.03, err_b, coil(y.pos), b_end);
    // the same bits whether the start's field is given or evaluated, and b_end is the field at the end
    CHECK(same(a.pos, b.pos));
    CHECK(same(a.mom, b.mom));
    CHECK(same(err_a.pos, err_b.pos));
    CHECK(same(err_a.mom, err_b.mom));
    CHECK(same(b_end, coil(b.pos)));

    // in one volume with every substep accepted (1 T, 300 MeV/c: the chord limit of 4.5 cm keeps the
    // error estimate far below epsilon), a call takes 1 evaluation at its start and 6 per substep
    // (7 stages, the first one's field known); evaluating it afresh in the chord limit and the first
    // stage took 8
    World const w = big_box();
    Navigator const nav(w.view());
    int calls = 0;
    CountingField const field{UniformField{{0, 0, 1.0}}, &calls};
    PropagationParams params;
    params.max_substeps = 40;
    FieldPropagator<CountingField> const prop(field, params, nav);
    PropState st{1.0, HUGE_VAL, HUGE_VAL};
    Vec3 pos{0, 0, 0}, dir{0.6, 0.0, 0.8};
    auto const r = prop(pos, dir, -1.0, 300.0, 0, st);
    REQUIRE(r.substeps > 10);
    CHECK(calls == 1 + 6 * r.substeps);
    // the same path as the uniform field itself gives
    FieldPropagator<UniformField> const plain(field.field, params, nav);
    PropState st2{1.0, HUGE_VAL, HUGE_VAL};
    Vec3 pos2{0, 0, 0}, dir2{0.6, 0.0, 0.8};
    auto const r2 = plain(pos2, dir2, -1.0, 300.0, 0, st2);
    CHECK(r2.substeps == r.substeps);
    CHECK(same(pos2, pos));
    CHECK(same(dir2, dir));
}
