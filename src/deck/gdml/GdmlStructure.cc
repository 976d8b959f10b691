// <structure>: logical volumes (a solid, a material and placed daughters) and assemblies, and the
// placement of each <physvol>, read as Geant4's G4GDMLReadStructure reads them.
#include <cmath>

#include <fmt/format.h>

#include "deck/gdml/GdmlModel.hh"
#include "kernels/geometry/RotationMatrix.hh"

namespace gt::gdml {

namespace {

//! <position>/<positionref> [m] or <rotation>/<rotationref> [rad] of a placement: the literal child
//! `tag` in `kind`'s unit (default `unit`), or `tag`ref naming one of `defined`; (0, 0, 0) if neither
std::array<double, 3> read_triplet(GdmlSource& src, pugi::xml_node n, char const* tag, UnitKind kind,
                                   char const* unit, std::map<std::string, std::array<double, 3>> const& defined)
{
    if (pugi::xml_node p = n.child(tag)) {
        double const u = src.unit(p, "unit", kind, unit);
        return {src.number(p, "x", 0.0) * u, src.number(p, "y", 0.0) * u, src.number(p, "z", 0.0) * u};
    }
    if (pugi::xml_node p = n.child((std::string(tag) + "ref").c_str())) {
        std::string const ref = src.text(p, "ref");
        auto it = defined.find(ref);
        if (it == defined.end()) src.fail(p, fmt::format("no <{}> named '{}' in <define>", tag, ref));
        return it->second;
    }
    return {0, 0, 0};
}

void refuse_reflection(GdmlSource& src, pugi::xml_node n)
{
    pugi::xml_node s = n.child("scale");
    if (!s) s = n.child("scaleref");  // a named scale is checked in <define>: only (1, 1, 1) is accepted
    if (!s || std::string(s.name()) == "scaleref") return;
    double const x = src.number(s, "x", 1.0), y = src.number(s, "y", 1.0), z = src.number(s, "z", 1.0);
    if (x != 1 || y != 1 || z != 1)
        src.fail(
            s, "a scale other than (1, 1, 1) (a reflected placement) is not supported by gtrack's geometry");
}

GdmlPhysvol read_physvol(GdmlSource& src, pugi::xml_node n, GdmlModel const& model)
{
    GdmlPhysvol p;
    p.node = n;
    if (n.child("file"))
        src.fail(n, "a <physvol> placing another GDML file (<file>) is not supported; merge the files first");
    pugi::xml_node ref = n.child("volumeref");
    if (!ref) src.fail(n, "a <volumeref ref=.../> naming the placed volume is missing");
    p.volume = src.text(ref, "ref");
    if (!model.volumes.count(p.volume))
        src.fail(ref, fmt::format("no <volume> or <assembly> named '{}' before this placement", p.volume));
    if (n.attribute("copynumber")) {
        double const c = src.number(n, "copynumber");
        if (c < 0 || c != std::floor(c) || c > 2147483647.0)
            src.fail(n, fmt::format("copynumber must be a whole number >= 0, got {}", c));
        p.copy = static_cast<int>(c);
    }
    refuse_reflection(src, n);
    p.transform = read_transform(src, n, model);
    return p;
}

}  // namespace

GdmlTransform read_transform(GdmlSource& src, pugi::xml_node n, GdmlModel const& model)
{
    GdmlTransform t;
    t.position = read_triplet(src, n, "position", UnitKind::length, "mm", model.positions);
    auto const a = read_triplet(src, n, "rotation", UnitKind::angle, "rad", model.rotations);
    // Geant4 builds R = Rz(z) Ry(y) Rx(x) (rotateX, then rotateY, then rotateZ) from the angles and
    // places the volume with its inverse (G4GDMLReadStructure::PhysvolRead: the GDML rotation
    // rotates the frame, not the volume): the active rotation is R^T.
    if (a[0] == 0 && a[1] == 0 && a[2] == 0) return t;  // the identity, without rotation_matrix's -0.0
    double r[9];
    rotation_matrix(a[0], a[1], a[2], r);
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) t.rotation[3 * i + j] = r[3 * j + i];
    return t;
}

void read_structure(GdmlSource& src, pugi::xml_node structure, GdmlModel& model)
{
    for (pugi::xml_node n : structure.children()) {
        if (n.type() != pugi::node_element) continue;
        std::string const tag = n.name();
        if (tag == "bordersurface" || tag == "skinsurface") continue;  // optical: no optical physics
        std::string const name = src.text(n, "name");
        if (tag != "volume" && tag != "assembly")
            src.fail(n, fmt::format("<{}> is not supported (gtrack reads <volume> and <assembly>)", tag));
        if (model.volumes.count(name))
            src.fail(n, fmt::format("a volume or assembly named '{}' is defined already", name));
        GdmlLogical v;
        v.node = n;
        v.assembly = tag == "assembly";
        for (pugi::xml_node c : n.children()) {
            if (c.type() != pugi::node_element) continue;
            std::string const ctag = c.name();
            if (ctag == "physvol") {
                v.daughters.push_back(read_physvol(src, c, model));
            } else if (v.assembly) {
                src.fail(c, fmt::format("an <assembly> holds <physvol>s only, not <{}>", ctag));
            } else if (ctag == "materialref") {
                v.material = src.text(c, "ref");
                if (!find_material(model, v.material))
                    src.fail(c,
                             fmt::format("no material named '{}' (neither in <materials> nor a Geant4 NIST "
                                         "material gtrack knows)",
                                         v.material));
            } else if (ctag == "solidref") {
                v.solid = src.text(c, "ref");
                if (!model.solids.count(v.solid))
                    src.fail(c, fmt::format("no solid named '{}' in <solids>", v.solid));
            } else if (ctag == "auxiliary") {
                // Geant4's convention for sensitive detectors: auxtype="SensDet", auxvalue the detector's
                // name
                if (src.optional_text(c, "auxtype").value_or("") == "SensDet") v.sensitive = true;
            } else if (ctag == "replicavol" || ctag == "divisionvol" || ctag == "paramvol") {
                src.fail(c, fmt::format("<{}> is not supported yet: place the copies with <physvol>s", ctag));
            } else {
                src.fail(c, fmt::format("unknown <volume> entry <{}>", ctag));
            }
        }
        if (!v.assembly && v.material.empty()) src.fail(n, "a <materialref ref=.../> is missing");
        if (!v.assembly && v.solid.empty()) src.fail(n, "a <solidref ref=.../> is missing");
        model.volumes[name] = std::move(v);
        model.volume_order.push_back(name);
    }
}

}  // namespace gt::gdml
