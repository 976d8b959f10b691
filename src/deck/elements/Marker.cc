// Registry entries: marker and monitor, named points with no effect on the beam.
#include "deck/elements/ElementTypes.hh"

namespace gt::elements {

namespace {

void build_point(ElementBuild& b)
{
    b.add(b.entry(b.config().type == "monitor" ? ElementKind::monitor : ElementKind::marker), 0, 1, 0.0);
}

}  // namespace

ElementSpec marker_type()
{
    ElementSpec s;
    s.type = "marker";
    s.doc = "a named point, no effect on the beam";
    s.madx = {"marker", "placeholder"};
    s.elegant = {"MARK", "MARKER"};
    s.build = build_point;
    return s;
}

ElementSpec monitor_type()
{
    ElementSpec s;
    s.type = "monitor";
    s.doc = "a named point where statistics or phase space can be written";
    s.madx = {"monitor", "hmonitor", "vmonitor", "instrument"};
    s.elegant = {"MONI", "HMON", "VMON", "WATCH"};
    s.build = build_point;
    return s;
}

}  // namespace gt::elements
