// <define>: named values, in file order, each usable by the expressions after it. A <constant> the
// deck names in [geometry.gdml_constants] takes the deck's value (a thickness scan of a GDML file).
#include <set>
#include <string>

#include <fmt/format.h>

#include "deck/gdml/GdmlModel.hh"

namespace gt::gdml {

namespace {

void define_name(GdmlSource& src, pugi::xml_node n, std::string const& name, double value)
{
    if (!src.symbols().define(name, value))
        src.fail(n, fmt::format("'{}' is a unit or a built-in constant and cannot be redefined", name));
}

}  // namespace

void read_defines(GdmlSource& src, pugi::xml_node define, std::map<std::string, double> const& overrides,
                  GdmlModel& model)
{
    std::set<std::string> defined;
    std::set<std::string> constants;
    for (pugi::xml_node n : define.children()) {
        if (n.type() != pugi::node_element) continue;
        std::string const tag = n.name();
        std::string const name = src.text(n, "name");
        if (!defined.insert(name).second) src.fail(n, fmt::format("'{}' is defined twice in <define>", name));
        if (tag == "constant" || tag == "variable") {
            double value = src.number(n, "value");
            if (tag == "constant") {
                constants.insert(name);
                if (auto it = overrides.find(name); it != overrides.end()) value = it->second;
            }
            define_name(src, n, name, value);
        } else if (tag == "expression") {
            // <expression name="x">text</expression>
            try {
                define_name(src, n, name, evaluate(n.child_value(), src.symbols()));
            } catch (ExpressionError const& e) {
                src.fail(n, e.what());
            }
        } else if (tag == "quantity") {
            // a value with a unit of any kind: the unit is an expression of unit names ("g/cm3")
            double const value = src.number(n, "value");
            double unit = 1.0;
            if (auto u = src.optional_text(n, "unit")) {
                try {
                    unit = evaluate(*u, src.symbols());
                } catch (ExpressionError const& e) {
                    src.fail(n, fmt::format("unit: {}", e.what()));
                }
            }
            define_name(src, n, name, value * unit);
        } else if (tag == "position") {
            double const u = src.unit(n, "unit", UnitKind::length, "mm");
            model.positions[name] = {src.number(n, "x", 0.0) * u, src.number(n, "y", 0.0) * u,
                                     src.number(n, "z", 0.0) * u};
        } else if (tag == "rotation") {
            double const u = src.unit(n, "unit", UnitKind::angle, "rad");
            model.rotations[name] = {src.number(n, "x", 0.0) * u, src.number(n, "y", 0.0) * u,
                                     src.number(n, "z", 0.0) * u};
        } else if (tag == "scale") {
            // only the identity is supported; a reflection is refused where it is used
            double const x = src.number(n, "x", 1.0), y = src.number(n, "y", 1.0),
                         z = src.number(n, "z", 1.0);
            if (x != 1 || y != 1 || z != 1)
                src.fail(n,
                         "a scale other than (1, 1, 1) (a reflection) is not supported by gtrack's geometry");
        } else if (tag == "matrix") {
            // property tables of optical surfaces and materials: gtrack has no optical physics
            continue;
        } else {
            src.fail(n, fmt::format("unknown <define> entry <{}> (expected constant, variable, expression, "
                                    "quantity, position, rotation, scale or matrix)",
                                    tag));
        }
    }
    for (auto const& [name, value] : overrides) {
        (void)value;
        if (!constants.count(name)) {
            std::vector<std::string> known(constants.begin(), constants.end());
            src.fail(define, fmt::format("[geometry.gdml_constants] names '{}', which is not a <constant> of "
                                         "this file (its constants: {})",
                                         name,
                                         known.empty() ? std::string("none")
                                                       : fmt::format("{}", fmt::join(known, ", "))));
        }
    }
}

}  // namespace gt::gdml
