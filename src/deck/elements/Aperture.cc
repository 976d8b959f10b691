// Registry entries: aperture (kernels/elements/Aperture.hh) and collimator, a drift with an aperture
// (kernels/elements/Collimator.hh).
#include <limits>

#include "deck/elements/ElementTypes.hh"

namespace gt::elements {

namespace {

//! A half size left out: that plane is open (kernels/elements/Aperture.hh: an infinite half size), as
//! ELEGANT's zero X_MAX or Y_MAX and its scrapers, which limit one plane.
constexpr double k_open = std::numeric_limits<double>::infinity();

ApertureShape shape_of(ElementKeys const& k)
{
    return k.text("shape") == "ellipse" ? ApertureShape::ellipse : ApertureShape::rectangle;
}

ApertureSide open_side_of(ElementKeys const& k)
{
    std::string const side = k.text("open_side");
    if (side == "+x") return ApertureSide::plus_x;
    if (side == "-x") return ApertureSide::minus_x;
    if (side == "+y") return ApertureSide::plus_y;
    if (side == "-y") return ApertureSide::minus_y;
    return ApertureSide::none;
}

void check(ElementCheck& c)
{
    if (!c.has("half_x") && !c.has("half_y"))
        c.fail("half_x",
               "missing: give half_x, half_y or both (a half size left out leaves that plane open)");
}

void build_aperture(ElementBuild& b)
{
    Element e = b.entry(ElementKind::aperture);
    e.aperture = Aperture::make(shape_of(b), b.value("half_x"), b.value("half_y"), open_side_of(b));
    b.add(e, 0, 1, 0.0);
}

void build_collimator(ElementBuild& b)
{
    int const n = b.slices();
    double const dl = b.value("length") / n;
    for (int i = 0; i < n; ++i) {
        Element e = b.entry(ElementKind::collimator);
        e.collimator = Collimator::make(shape_of(b), b.value("half_x"), b.value("half_y"), dl, b.reference());
        b.add(e, i, n, dl);
    }
}

std::string describe(Element const& e, ReferenceParticle const&)
{
    return describe_aperture(e.kind == ElementKind::aperture ? e.aperture : e.collimator.aperture);
}

std::vector<ParamSpec> aperture_keys()
{
    return {
        choice("shape", {"rectangle", "ellipse"}, "", "aperture shape"),
        optional("half_x", quantity::length, Bound::positive, k_open,
                 "half width; particles outside are lost (left out: open in x; one of half_x, half_y is "
                 "required)"),
        optional("half_y", quantity::length, Bound::positive, k_open,
                 "half height; particles outside are lost (left out: open in y)"),
    };
}

}  // namespace

ElementSpec aperture_type()
{
    ElementSpec s;
    s.type = "aperture";
    s.doc = "thin aperture: particles outside are lost";
    s.params = aperture_keys();
    // Only the thin aperture: the collimator's loss point (run/BeamPrimaries.cc) assumes a closed shape.
    s.params.push_back(
        choice("open_side", {"none", "+x", "-x", "+y", "-y"}, "none",
               "a side left open, as ELEGANT's OPEN_SIDE: a particle outside the shape on that "
               "side of the axis (x > 0 for +x) is kept while strictly within the other "
               "plane's half size"));
    s.check = check;
    s.build = build_aperture;
    s.describe = describe;
    return s;
}

ElementSpec collimator_type()
{
    ElementSpec s;
    s.type = "collimator";
    s.doc = "a drift with an aperture";
    s.params = aperture_keys();
    s.params.push_back(required("length", quantity::length, Bound::non_negative, "length"));
    s.check = check;
    s.madx = {"rcollimator", "ecollimator", "collimator"};
    s.elegant = {"RCOL", "ECOL"};
    s.build = build_collimator;
    s.describe = describe;
    return s;
}

}  // namespace gt::elements
