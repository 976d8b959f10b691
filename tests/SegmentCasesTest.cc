// The element switch per segment: a segment holding a t-code or 3D-map entry must get the full
// switch (the smaller one marks a particle reaching such an entry lost); any other segment the
// smaller one, which pushes each entry with the same code, so the same bits.
#include <doctest/doctest.h>

#include <vector>

#include "ElementTestSupport.hh"
#include "kernels/beam/SegmentCases.hh"
#include "kernels/elements/Element.hh"

using namespace gt;
using namespace gt::test;

TEST_CASE("the full switch only for segments holding a t-code or 3D field-map entry")
{
    std::vector<Element> table;
    for (ElementKind kind : {ElementKind::drift, ElementKind::quadrupole, ElementKind::time_code, ElementKind::drift,
                             ElementKind::axial_field_map, ElementKind::field_map_3d, ElementKind::marker})
        table.push_back(Element::make(kind));
    SegmentCaseTable const cases(table);
    CHECK(cases.cases(0, 2) == ElementCases::without_integrators);
    CHECK(cases.cases(0, 3) == ElementCases::all);
    CHECK(cases.cases(2, 3) == ElementCases::all);
    CHECK(cases.cases(3, 5) == ElementCases::without_integrators);  // the on-axis map is in both
    CHECK(cases.cases(4, 6) == ElementCases::all);
    CHECK(cases.cases(6, 7) == ElementCases::without_integrators);
    CHECK(cases.cases(0, 7) == ElementCases::all);
    CHECK(cases.cases(3, 3) == ElementCases::without_integrators);  // an empty segment
}

TEST_CASE("the smaller switch pushes every other entry to the same bits, and refuses the integrators")
{
    Element drift = Element::make(ElementKind::drift);
    drift.drift = Drift::make(1.3, DriftModel::exact, proton(100.0));
    Particle p{1e-3, 2e-4, -5e-4, 1e-4, 3e-4, 1e-3};
    Particle q = p;
    CHECK(track_element<ElementCases::all>(drift, p));
    CHECK(track_element<ElementCases::without_integrators>(drift, q));
    CHECK(p.x == q.x);
    CHECK(p.px == q.px);
    CHECK(p.y == q.y);
    CHECK(p.py == q.py);
    CHECK(p.t == q.t);
    CHECK(p.pt == q.pt);
    CHECK(p.x != 1e-3);  // it moved

    Particle r{};
    CHECK_FALSE(track_element<ElementCases::without_integrators>(Element::make(ElementKind::time_code), r));
    CHECK_FALSE(track_element<ElementCases::without_integrators>(Element::make(ElementKind::field_map_3d), r));
}
