// Builds the flat element table from the deck: line expansion, parameter checks, slicing, the
// reference particle through the lattice, global apertures; and the description for `gtrack check`.
#include "beam/Lattice.hh"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <functional>
#include <limits>
#include <map>
#include <set>
#include <tuple>

#include <fmt/format.h>

#include "beam/AxialFieldMapBuilder.hh"
#include "beam/FieldMap3DBuilder.hh"
#include "beam/FieldMap3DFile.hh"
#include "beam/OnAxisProfile.hh"
#include "beam/TimeCodeBuilder.hh"
#include "deck/DeckError.hh"

namespace gt {

namespace {

constexpr std::size_t k_max_entries = 50'000'000;  //!< a table larger than this is surely a deck typo
constexpr double k_max_count = 1e6;                //!< slices, kicks

// ---- small helpers ----------------------------------------------------------------------------

std::string trim(std::string const& s)
{
    auto const b = s.find_first_not_of(" \t");
    if (b == std::string::npos) return {};
    auto const e = s.find_last_not_of(" \t");
    return s.substr(b, e - b + 1);
}

std::size_t edit_distance(std::string const& a, std::string const& b)
{
    std::vector<std::size_t> row(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        std::size_t diag = row[0];
        row[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j) {
            std::size_t const up = row[j];
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] == b[j - 1] ? 0u : 1u)});
            diag = up;
        }
    }
    return row[b.size()];
}

//! " (did you mean 'QF'?)" when a known name is close.
std::string did_you_mean(std::string const& name, std::vector<std::string> const& known)
{
    std::string best;
    std::size_t best_d = 3;
    for (auto const& k : known) {
        std::size_t const d = edit_distance(name, k);
        if (d < best_d) {
            best_d = d;
            best = k;
        }
    }
    return best.empty() ? std::string{} : " (did you mean '" + best + "'?)";
}

// ---- the parameters of one deck element, checked -----------------------------------------------

struct Params {
    // common
    double length = 0, dx = 0, dy = 0, tilt = 0;
    int slices = 1, kicks = 4;
    // strengths
    double k1 = 0, k2 = 0, k2s = 0, k3 = 0, k3s = 0, ks = 0;
    double angle = 0, e1 = 0, e2 = 0, fint = 0, fintx = 0, hgap = 0;
    double voltage = 0, frequency = 0, phase = 0;
    double hkick = 0, vkick = 0;
    double half_x = 0, half_y = 0;
    ApertureShape shape = ApertureShape::rectangle;
    DriftModel drift_model = DriftModel::exact;
    QuadrupoleModel quad_model = QuadrupoleModel::exact;
    std::vector<double> knl, ksl;
    // profile elements (solenoid, rfcavity with `profile`)
    std::string profile;  //!< path as the deck gives it; empty: none
    double scale = 1.0, amplitude = 0.0;
    int substeps = 0;
    // t-code (drift, quadrupole, solenoid, rfcavity with a profile, field_map)
    std::string tracking;  //!< z, t, auto; empty: [run] tracking
    double time_step = 0;  //!< [s] 0: the accuracy rule
    std::string time_integrator;
    // 3D field maps
    double e_scale = 1.0, b_scale = 1.0;
    FieldLayout layout = k_default_field_layout;
};

struct TypeKeys {
    std::vector<std::string> values, strings, arrays;
};

std::map<std::string, TypeKeys> const& keys_by_type()
{
    static std::map<std::string, TypeKeys> const keys = {
        {"marker", {{}, {}, {}}},
        {"monitor", {{}, {}, {}}},
        {"drift", {{"length", "time_step"}, {"model", "tracking"}, {}}},
        {"quadrupole", {{"length", "k1", "kicks", "time_step"}, {"model", "tracking", "time_integrator"}, {}}},
        {"sbend", {{"length", "angle", "k1", "e1", "e2", "fint", "fintx", "hgap", "csr"}, {}, {}}},
        {"multipole", {{}, {}, {"knl", "ksl"}}},
        {"sextupole", {{"length", "k2", "k2s", "kicks"}, {}, {}}},
        {"octupole", {{"length", "k3", "k3s", "kicks"}, {}, {}}},
        {"solenoid",
         {{"length", "ks", "scale", "amplitude", "substeps", "time_step"},
          {"profile", "tracking", "time_integrator"},
          {}}},
        {"rfcavity",
         {{"length", "voltage", "frequency", "phase", "scale", "amplitude", "substeps", "time_step"},
          {"profile", "tracking", "time_integrator"},
          {}}},
        {"field_map",
         {{"length", "e_scale", "b_scale", "frequency", "phase", "substeps", "time_step"},
          {"file", "layout", "tracking", "time_integrator"},
          {}}},
        {"kicker", {{"length", "hkick", "vkick"}, {}, {}}},
        {"aperture", {{"half_x", "half_y"}, {"shape"}, {}}},
        {"collimator", {{"length", "half_x", "half_y"}, {"shape"}, {}}},
        // Collective effects act between entries (run/CollectiveSchedule.hh): a wake is a marker here.
        {"wake", {{"r_shunt", "r_transverse", "q", "frequency", "radius", "conductivity", "pipe_length"},
                  {"model", "plane", "file"},
                  {}}},
    };
    return keys;
}

std::string join(std::vector<std::string> const& v)
{
    std::string out;
    for (auto const& s : v) out += (out.empty() ? "" : ", ") + s;
    return out;
}

class ParamReader {
  public:
    ParamReader(ElementConfig const& cfg, std::vector<Diagnostic>& out) : cfg_(cfg), out_(out) {}

    void fail(std::string const& key, std::string const& message)
    {
        out_.push_back(
            Diagnostic{cfg_.where, "elements." + cfg_.name + (key.empty() ? "" : "." + key), message});
    }

    //! A finite number (fallback when absent).
    double number(std::string const& key, double fallback)
    {
        double const v = cfg_.get(key, fallback);
        if (!std::isfinite(v)) {
            fail(key, "expected a finite number");
            return fallback;
        }
        return v;
    }
    double at_least(std::string const& key, double fallback, double lo, bool strict, std::string const& what)
    {
        double const v = number(key, fallback);
        if (strict ? !(v > lo) : !(v >= lo)) {
            fail(key, fmt::format("expected {} (got {})", what, v));
            return fallback;
        }
        return v;
    }
    double required_positive(std::string const& key, std::string const& what)
    {
        if (!cfg_.values.count(key)) {
            fail(key, "missing: a " + cfg_.type + " needs " + what);
            return 1.0;
        }
        return at_least(key, 1.0, 0.0, true, what);
    }
    int count(std::string const& key, int fallback)
    {
        double const v = number(key, fallback);
        if (!(v >= 1.0) || v > k_max_count || v != std::floor(v)) {
            fail(key, fmt::format("expected a whole number from 1 to {:.0f} (got {})", k_max_count, v));
            return fallback;
        }
        return static_cast<int>(v);
    }
    std::string choice(std::string const& key, std::string const& fallback,
                       std::vector<std::string> const& allowed)
    {
        std::string const v = cfg_.get_string(key, fallback);
        if (std::find(allowed.begin(), allowed.end(), v) == allowed.end()) {
            fail(key, "expected one of " + join(allowed) + " (got '" + v + "')" + did_you_mean(v, allowed));
            return fallback;
        }
        return v;
    }

  private:
    ElementConfig const& cfg_;
    std::vector<Diagnostic>& out_;
};

//! The keys of a solenoid or cavity given by an on-axis profile, and which keys exclude which.
void read_profile_keys(ElementConfig const& cfg, ParamReader& r, Params& p)
{
    bool const has_profile = !p.profile.empty();
    char const* const strength = cfg.type == "solenoid" ? "ks" : "voltage";
    if (has_profile) {
        for (char const* key : {"length", strength})
            if (cfg.values.count(key))
                r.fail(key, fmt::format("not used with a profile: the {} comes from the profile file", key));
        if (cfg.values.count("scale") && cfg.values.count("amplitude"))
            r.fail("amplitude", "give either scale or amplitude, not both");
        p.scale = r.number("scale", 1.0);
        if (cfg.values.count("amplitude"))
            p.amplitude = r.at_least("amplitude", 1.0, 0.0, true, "a peak on-axis field > 0");
        if (cfg.values.count("substeps")) p.substeps = r.count("substeps", 1);
        return;
    }
    for (char const* key : {"scale", "amplitude", "substeps"})
        if (cfg.values.count(key)) r.fail(key, "only used with profile = \"file\"");
    if (!cfg.values.count(strength))
        r.fail(strength, fmt::format("missing: a {} needs {} (or profile = \"file\")", cfg.type, strength));
}

Params read_params(ElementConfig const& cfg, std::vector<Diagnostic>& out)
{
    Params p;
    ParamReader r(cfg, out);
    auto const& all = keys_by_type();
    auto const it = all.find(cfg.type);
    if (it == all.end()) {
        std::vector<std::string> types;
        for (auto const& [t, _] : all) types.push_back(t);
        r.fail("type", "unknown element type '" + cfg.type + "'; expected one of " + join(types) +
                           did_you_mean(cfg.type, types));
        return p;
    }
    TypeKeys const& keys = it->second;
    std::vector<std::string> known = keys.values;
    for (char const* k : {"dx", "dy", "tilt", "slices", "lsc"}) known.push_back(k);
    std::vector<std::string> known_strings = keys.strings;
    known_strings.push_back("type");
    known_strings.push_back("wake");
    auto check_unknown = [&](auto const& map, std::vector<std::string> const& allowed) {
        for (auto const& [key, _] : map) {
            if (std::find(allowed.begin(), allowed.end(), key) == allowed.end()) {
                std::vector<std::string> every = known;
                every.insert(every.end(), keys.strings.begin(), keys.strings.end());
                every.insert(every.end(), keys.arrays.begin(), keys.arrays.end());
                r.fail(key, "not a parameter of a " + cfg.type + "; it takes " +
                                (every.empty() ? std::string("none") : join(every)) +
                                did_you_mean(key, every));
            }
        }
    };
    check_unknown(cfg.values, known);
    check_unknown(cfg.strings, known_strings);
    check_unknown(cfg.arrays, keys.arrays);

    std::string const& t = cfg.type;
    p.tracking = cfg.get_string("tracking", "");
    p.time_step = cfg.get("time_step", 0.0);
    p.time_integrator = cfg.get_string("time_integrator", "");
    if (t == "rfcavity" && cfg.get_string("profile", "").empty()) {
        if (p.tracking == "t")
            r.fail("tracking", "t-code needs the cavity's field: give its on-axis profile (profile = \"file\")");
        for (char const* key : {"time_step", "time_integrator"})
            if (cfg.values.count(key) || cfg.strings.count(key))
                r.fail(key, "only used by a cavity with a profile tracked in time");
    }
    p.dx = r.number("dx", 0.0);
    p.dy = r.number("dy", 0.0);
    p.tilt = r.number("tilt", 0.0);
    if (cfg.values.count("slices")) p.slices = r.count("slices", 1);
    if (cfg.values.count("kicks")) p.kicks = r.count("kicks", 4);

    p.profile = cfg.get_string("profile", "");
    bool const needs_length =
        t == "quadrupole" || t == "sbend" || t == "sextupole" || t == "octupole" || t == "solenoid" ||
        t == "field_map";
    if (t == "solenoid" || t == "rfcavity") read_profile_keys(cfg, r, p);
    if (!p.profile.empty())
        ;  // the length is the profile's span
    else if (needs_length)
        p.length = r.required_positive("length", "a length > 0 [m]");
    else
        p.length = r.at_least("length", 0.0, 0.0, false, "a length >= 0 [m]");

    if (t == "drift") {
        p.drift_model = r.choice("model", "exact", {"linear", "exact"}) == "linear" ? DriftModel::linear
                                                                                    : DriftModel::exact;
    } else if (t == "quadrupole") {
        p.k1 = r.number("k1", 0.0);
        std::string const m = r.choice("model", "exact", {"linear", "exact", "kick"});
        p.quad_model = m == "linear" ? QuadrupoleModel::linear
                       : m == "kick" ? QuadrupoleModel::kick
                                     : QuadrupoleModel::exact;
    } else if (t == "sbend") {
        p.angle = r.number("angle", 0.0);
        p.k1 = r.number("k1", 0.0);
        p.e1 = r.number("e1", 0.0);
        p.e2 = r.number("e2", 0.0);
        for (auto const& [key, e] : {std::pair<char const*, double>{"e1", p.e1}, {"e2", p.e2}})
            if (!(std::abs(e) < 1.5))
                r.fail(key, fmt::format("pole-face angle must be below 1.5 rad in magnitude (got {})", e));
        p.fint = r.at_least("fint", 0.0, 0.0, false, "a fringe-field integral >= 0");
        p.fintx = r.at_least("fintx", p.fint, 0.0, false, "a fringe-field integral >= 0");
        p.hgap = r.at_least("hgap", 0.0, 0.0, false, "a half gap >= 0 [m]");
    } else if (t == "multipole") {
        auto get = [&](char const* key) {
            auto const a = cfg.arrays.find(key);
            std::vector<double> v = a == cfg.arrays.end() ? std::vector<double>{} : a->second;
            if (v.size() > static_cast<std::size_t>(k_multipole_terms))
                r.fail(key, fmt::format("at most {} coefficients (orders 0 to {}); got {}", k_multipole_terms,
                                        k_multipole_terms - 1, v.size()));
            for (double x : v)
                if (!std::isfinite(x)) r.fail(key, "expected finite numbers");
            if (v.size() > static_cast<std::size_t>(k_multipole_terms)) v.resize(k_multipole_terms);
            return v;
        };
        p.knl = get("knl");
        p.ksl = get("ksl");
    } else if (t == "sextupole") {
        p.k2 = r.number("k2", 0.0);
        p.k2s = r.number("k2s", 0.0);
    } else if (t == "octupole") {
        p.k3 = r.number("k3", 0.0);
        p.k3s = r.number("k3s", 0.0);
    } else if (t == "solenoid") {
        p.ks = r.number("ks", 0.0);
    } else if (t == "rfcavity") {
        p.voltage = r.number("voltage", 0.0);
        if (!p.profile.empty() && !cfg.values.count("frequency"))
            r.fail("frequency", "missing: an rfcavity with a profile needs its frequency [Hz]");
        p.frequency = r.at_least("frequency", 0.0, 0.0, false, "a frequency >= 0 [Hz]");
        p.phase = r.number("phase", 0.0);
    } else if (t == "field_map") {
        if (cfg.get_string("file", "").empty())
            r.fail("file", "missing: a field_map needs its map, file = \"map.h5\" (docs/decks.md)");
        p.e_scale = r.number("e_scale", 1.0);
        p.b_scale = r.number("b_scale", 1.0);
        if (cfg.values.count("frequency"))
            p.frequency = r.at_least("frequency", 0.0, 0.0, true, "a frequency > 0 [Hz]");
        p.phase = r.number("phase", 0.0);
        if (cfg.values.count("substeps")) p.substeps = r.count("substeps", 1);
        p.layout = r.choice("layout", field_layout_name(k_default_field_layout), {"interleaved", "planar"}) ==
                           "planar"
                       ? FieldLayout::planar
                       : FieldLayout::interleaved;
    } else if (t == "kicker") {
        p.hkick = r.number("hkick", 0.0);
        p.vkick = r.number("vkick", 0.0);
    } else if (t == "aperture" || t == "collimator") {
        p.half_x = r.required_positive("half_x", "a half width > 0 [m]");
        p.half_y = r.required_positive("half_y", "a half height > 0 [m]");
        p.shape = r.choice("shape", "rectangle", {"rectangle", "ellipse"}) == "ellipse"
                      ? ApertureShape::ellipse
                      : ApertureShape::rectangle;
    }
    return p;
}

// ---- line expansion --------------------------------------------------------------------------

struct LineExpander {
    DeckConfig const& deck;
    std::map<std::string, std::vector<std::string> const*> lines;
    std::vector<std::string> known;  // element and line names, for suggestions
    std::vector<std::string> stack;
    std::vector<std::string> out;

    explicit LineExpander(DeckConfig const& d) : deck(d)
    {
        for (auto const& [name, items] : deck.lattice.lines) {
            lines[name] = &items;
            known.push_back(name);
        }
        for (auto const& e : deck.elements) known.push_back(e.name);
    }

    SourceLocation where(std::string const& line) const
    {
        auto const it = deck.lattice.line_where.find(line);
        return it != deck.lattice.line_where.end() ? it->second : SourceLocation{deck.path, 0, 0};
    }

    [[noreturn]] void fail(std::string const& line, std::string const& message) const
    {
        throw DeckError(where(line), "lattice." + line, message);
    }

    //! "name*N" or "N*name" -> (name, N).
    std::pair<std::string, long long> parse_item(std::string const& line, std::string const& item) const
    {
        auto const star = item.find('*');
        if (star == std::string::npos) return {trim(item), 1};
        std::string a = trim(item.substr(0, star)), b = trim(item.substr(star + 1));
        auto is_count = [](std::string const& s) {
            return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
        };
        if (is_count(a) && !is_count(b)) std::swap(a, b);
        long long n = 0;
        auto const [ptr, ec] = std::from_chars(b.data(), b.data() + b.size(), n);
        if (a.empty() || !is_count(b) || ec != std::errc{} || ptr != b.data() + b.size() || n < 1)
            fail(line, "'" + item + "': expected NAME*N with N a whole number >= 1");
        return {a, n};
    }

    void expand(std::string const& line)
    {
        if (std::find(stack.begin(), stack.end(), line) != stack.end()) {
            std::string cycle;
            for (auto const& s : stack) cycle += s + " -> ";
            fail(line, "line '" + line + "' contains itself (" + cycle + line + ")");
        }
        stack.push_back(line);
        for (auto const& item : *lines.at(line)) {
            auto const [name, count] = parse_item(line, item);
            bool const is_line = lines.count(name) > 0;
            if (!is_line && deck.find_element(name) == nullptr)
                fail(line, "'" + name + "' is neither an element nor a line" + did_you_mean(name, known));
            for (long long i = 0; i < count; ++i) {
                if (is_line)
                    expand(name);
                else
                    out.push_back(name);
                if (out.size() > k_max_entries)
                    fail(line, fmt::format("the expanded lattice has more than {} elements", k_max_entries));
            }
        }
        stack.pop_back();
    }
};

// ---- the table ---------------------------------------------------------------------------------

class TableBuilder {
  public:
    TableBuilder(ReferenceParticle const& begin)
    {
        lattice_.reference_begin = begin;
        ref_ = begin;
    }

    //! Appends one entry that advances the reference by `length` at constant energy.
    void add(Element e, ElementInfo info, double length)
    {
        info.s_begin = ref_.s;
        ref_.s += length;
        ref_.t += length / (ref_.beta * constants::c_light);
        info.s_end = ref_.s;
        push(e, std::move(info));
    }

    //! Appends an entry that has already advanced the reference itself (an RF cavity).
    void add_with_reference(Element e, ElementInfo info, ReferenceParticle const& after)
    {
        info.s_begin = ref_.s;
        ref_ = after;
        info.s_end = ref_.s;
        push(e, std::move(info));
    }

    ReferenceParticle const& reference() const { return ref_; }
    //! Spline coefficients of the profile elements and grids of the 3D maps, filled while the table
    //! is built.
    std::vector<double>& field_data() { return field_data_; }

    //! The frequency the file of a 3D map states [Hz] (0: none); the file must have been read.
    double field_map_frequency(std::string const& path) const { return files_.at(path).frequency; }

    //! The grid of the 3D map at `path` with these scales and layout, read and appended to the field
    //! data on first use and shared by later occurrences; its values point into the field data now.
    EmFieldGrid field_grid(std::string const& path, double e_scale, double b_scale, FieldLayout layout,
                           double& dz)
    {
        auto file = files_.find(path);
        if (file == files_.end()) file = files_.emplace(path, read_field_map_3d(path)).first;
        dz = file->second.spacing[2];
        auto const key = std::make_tuple(path, e_scale, b_scale, static_cast<int>(layout));
        auto grid = grids_.find(key);
        if (grid == grids_.end())
            grid = grids_.emplace(key, append_field_grid(file->second, e_scale, b_scale, layout, field_data_)).first;
        EmFieldGrid g = grid->second;
        g.values = field_data_.data() + g.offset;
        return g;
    }
    Lattice finish()
    {
        lattice_.length = ref_.s - lattice_.reference_begin.s;
        auto data = std::make_shared<std::vector<double> const>(std::move(field_data_));
        for (Element& e : lattice_.elements) bind_field_data(e, data->data());
        lattice_.field_data = std::move(data);
        return std::move(lattice_);
    }

  private:
    void push(Element e, ElementInfo info)
    {
        e.index = static_cast<std::int32_t>(lattice_.elements.size());
        lattice_.elements.push_back(e);
        lattice_.info.push_back(std::move(info));
        lattice_.reference_after.push_back(ref_);
    }

    Lattice lattice_;
    ReferenceParticle ref_;
    std::vector<double> field_data_;
    std::map<std::string, FieldMap3DFile> files_;
    std::map<std::tuple<std::string, double, double, int>, EmFieldGrid> grids_;
};

//! What the lattice needs to resolve `tracking`: the [run] default and the bunch length.
struct TrackingContext {
    std::string mode = "z";  //!< [run] tracking
    double sigma_t = 0;      //!< [m] rms of c (t - t_ref) of the beam at the start (0: unknown)
};

//! The note `gtrack check` prints for a choice: why, for `auto` (the kind column says which).
std::string tracking_note(std::string const& mode, TrackingChoice const& c)
{
    return mode == "auto" ? c.why : std::string{};
}

//! Appends one t-code entry (the whole element: its space-charge kicks are at time steps).
void add_time_code(TableBuilder& table, ElementConfig const& cfg, Params const& p, Element prototype,
                   ElementInfo info, TimeCodeRequest request, ReferenceParticle const* after)
{
    request.time_step = p.time_step;
    request.integrator = p.time_integrator;
    try {
        prototype.kind = ElementKind::time_code;
        prototype.time_code = make_time_code(request, table.reference());
    } catch (std::invalid_argument const& e) {
        throw DeckError(cfg.where, "elements." + cfg.name + (p.time_step > 0.0 ? ".time_step" : ".time_integrator"),
                        e.what());
    }
    if (after)
        table.add_with_reference(prototype, std::move(info), *after);
    else
        table.add(prototype, std::move(info), request.length);
}

//! How a field map or on-axis profile is tracked: the mode (the element's, else [run] tracking) and
//! what it resolves to.
struct MapTracking {
    std::string mode;
    TrackingChoice choice;
};

//! The auto rule's field scale is the map's length [m], and for RF of `frequency` [Hz] > 0 at most a
//! cell: half the distance the reference travels in one RF period (beta lambda / 2).
MapTracking map_tracking(ReferenceParticle const& entry, Params const& p, TrackingContext const& tracking,
                         double length, double frequency)
{
    MapTracking how;
    how.mode = p.tracking.empty() ? tracking.mode : p.tracking;
    double field_scale = length;
    if (frequency > 0.0)
        field_scale = std::min(field_scale, 0.5 * entry.beta * constants::c_light / frequency);
    how.choice = choose_tracking(how.mode, field_scale, entry.beta * tracking.sigma_t);
    return how;
}

//! A built map's entries, each ending with the reference its build tracked: one t-code entry of
//! `time_request()`, or one per slice, the prototype with `set_slice(element, slice)`.
template <class TimeRequest, class SetSlice>
void add_map_entries(TableBuilder& table, ElementConfig const& cfg, Params const& p, Element const& prototype,
                     std::function<ElementInfo(int, int)> const& info, MapTracking const& how,
                     std::vector<ReferenceParticle> const& reference_after, TimeRequest const& time_request,
                     SetSlice const& set_slice)
{
    if (how.choice.time) {
        ElementInfo i = info(0, 1);
        i.tracking = tracking_note(how.mode, how.choice);
        add_time_code(table, cfg, p, prototype, std::move(i), time_request(), &reference_after[0]);
        return;
    }
    for (int i = 0; i < p.slices; ++i) {
        Element e = prototype;
        set_slice(e, static_cast<std::size_t>(i));
        ElementInfo in = info(i, p.slices);
        in.tracking = tracking_note(how.mode, how.choice);
        table.add_with_reference(e, std::move(in), reference_after[static_cast<std::size_t>(i)]);
    }
}

//! A 3D field map: the file read and checked (once per file), the slices built by tracking the
//! reference through them (one entry, when it is tracked in time).
void add_field_map_occurrence(TableBuilder& table, ElementConfig const& cfg, Params const& p,
                              std::string const& path, Element const& prototype,
                              std::function<ElementInfo(int, int)> const& info, TrackingContext const& tracking)
{
    FieldMap3DRequest request;
    request.length = p.length;
    request.phase = p.phase;
    request.steps_per_slice = p.substeps;
    EmFieldGrid grid;
    try {
        grid = table.field_grid(path, p.e_scale, p.b_scale, p.layout, request.dz);
    } catch (FieldMapFileError const& e) {
        throw DeckError(cfg.where, "elements." + cfg.name + ".file", e.what());
    }
    request.frequency = p.frequency > 0.0 ? p.frequency : 0.0;
    if (request.frequency == 0.0) request.frequency = table.field_map_frequency(path);
    ReferenceParticle const& entry = table.reference();
    MapTracking const how = map_tracking(entry, p, tracking, p.length, request.frequency);
    request.slices = how.choice.time ? 1 : p.slices;
    FieldMap3DSlices built;
    try {
        built = build_field_map_3d(request, grid, entry);
    } catch (FieldMap3DError const& e) {
        throw DeckError(cfg.where, "elements." + cfg.name,
                        fmt::format("{} ('{}', e_scale {:.6g}, b_scale {:.6g})", e.what(), path, p.e_scale,
                                    p.b_scale));
    }
    auto const in_time = [&] {
        GridPeaks const peaks = grid_peaks(grid);
        TimeCodeRequest t;
        t.field = TimeField::grid_map;
        t.length = p.length;
        t.grid_map = built.slices[0];
        t.peak_e = peaks.e;
        t.peak_b = peaks.b;
        t.profile_dz = request.dz;
        return t;
    };
    add_map_entries(table, cfg, p, prototype, info, how, built.reference_after, in_time,
                    [&](Element& e, std::size_t i) { e.field_map_3d = built.slices[i]; });
}

//! The on-axis profile of a solenoid or (`rf`) cavity read from `path` and checked, with its scale:
//! the element's amplitude over the profile's peak when given, else its scale.
AxialMapRequest profile_request(ElementConfig const& cfg, Params const& p, std::string const& path, bool rf)
{
    AxialMapRequest request;
    request.profile = read_on_axis_profile(path, rf ? ProfileQuantity::electric : ProfileQuantity::magnetic,
                                           "elements." + cfg.name + ".profile", cfg.where);
    double const peak = request.profile.peak();
    if (p.amplitude > 0.0) {
        if (!(peak > 0.0))
            throw DeckError(cfg.where, "elements." + cfg.name + ".amplitude",
                            "the profile is zero everywhere: it cannot be scaled to an amplitude");
        request.scale = p.amplitude / peak;
    } else {
        request.scale = p.scale;
    }
    return request;
}

//! A solenoid or cavity given by its on-axis profile: the file read and checked, the slices built
//! by tracking the reference through them (one entry, when it is tracked in time).
void add_profile_occurrence(TableBuilder& table, ElementConfig const& cfg, Params const& p,
                            std::string const& path, Element const& prototype,
                            std::function<ElementInfo(int, int)> const& info, TrackingContext const& tracking)
{
    bool const rf = cfg.type == "rfcavity";
    std::string const key = "elements." + cfg.name + ".profile";
    AxialMapRequest request = profile_request(cfg, p, path, rf);
    double const peak = request.profile.peak();
    request.rf = rf;
    request.frequency = p.frequency;
    request.phase = p.phase;
    MapTracking const how =
        map_tracking(table.reference(), p, tracking, request.profile.length(), rf ? p.frequency : 0.0);
    request.slices = how.choice.time ? 1 : p.slices;
    request.steps_per_slice = p.substeps;
    AxialMapSlices built;
    try {
        built = build_axial_field_map(request, table.reference(), table.field_data());
    } catch (AxialMapError const& e) {
        throw DeckError(cfg.where, key,
                        fmt::format("{} ('{}', scale {:.6g})", e.what(), path, request.scale));
    }
    auto const in_time = [&] {
        TimeCodeRequest t;
        t.field = TimeField::axial_map;
        t.length = built.slices[0].length;
        t.map = built.slices[0];
        t.peak_field = peak * std::abs(request.scale);
        t.profile_dz = request.profile.dz;
        return t;
    };
    add_map_entries(table, cfg, p, prototype, info, how, built.reference_after, in_time,
                    [&](Element& e, std::size_t i) { e.axial_field_map = built.slices[i]; });
}

//! The first element of a beam emitted from a cathode (docs/physics.md, "Beams emitted from a
//! cathode"): a cavity or solenoid given by its on-axis profile, or a 3D field map, tracked in time, with the reference
//! emitted at rest at its entrance plane. Anything else is refused: the z-code divides by the
//! reference momentum, which is zero at the cathode.
void add_cathode_occurrence(TableBuilder& table, ElementConfig const& cfg, Params const& p, int deck_index,
                            std::string const& path, TrackingContext const& tracking)
{
    std::string const key = "elements." + cfg.name;
    bool const grid = cfg.type == "field_map";
    if (p.profile.empty() && !grid)
        throw DeckError(cfg.where, key + ".type",
                        fmt::format("the beam is emitted from a cathode (beam.distribution = \"cathode\") at the "
                                    "entrance of the first element, '{}' ({}): it must be an rfcavity (a gun) or "
                                    "solenoid given by its on-axis profile, or a field_map, tracked in time "
                                    "(tracking = \"t\")",
                                    cfg.name, cfg.type));
    std::string const mode = p.tracking.empty() ? tracking.mode : p.tracking;
    if (mode == "z")
        throw DeckError(cfg.where, key + ".tracking",
                        fmt::format("the beam is emitted from a cathode at rest (p = 0) at the entrance of '{}', "
                                    "where the z-code (which divides by the reference momentum) cannot start: "
                                    "track it in time (tracking = \"t\" or \"auto\"; [run] tracking is \"{}\")",
                                    cfg.name, tracking.mode));
    ReferenceParticle const& normalization = table.reference();
    double const kappa = normalization.charge_e / (normalization.mass_mev * 1e6);  // q / (m c^2) [1/V]
    TimeCodeRequest t;
    t.time_step = p.time_step;
    t.integrator = p.time_integrator;
    bool rf = false;
    if (grid) {
        FieldMap3D m{};
        double dz = 0.0;
        try {
            m.grid = table.field_grid(path, p.e_scale, p.b_scale, p.layout, dz);
        } catch (FieldMapFileError const& e) {
            throw DeckError(cfg.where, key + ".file", e.what());
        }
        double const frequency = p.frequency > 0.0 ? p.frequency : table.field_map_frequency(path);
        rf = frequency > 0.0;
        m.rf = rf;
        m.z_begin = 0.0;
        m.length = p.length;
        m.steps = 1;
        m.k_rf = constants::two_pi * frequency / constants::c_light;
        m.kappa = kappa;
        m.inv_beta0 = std::sqrt(2.0);
        GridPeaks const peaks = grid_peaks(m.grid);
        t.field = TimeField::grid_map;
        t.length = p.length;
        t.grid_map = m;
        t.peak_e = peaks.e;
        t.peak_b = peaks.b;
        t.profile_dz = dz;
    } else {
        rf = cfg.type == "rfcavity";
        AxialMapRequest const request = profile_request(cfg, p, path, rf);
        double const peak = request.profile.peak();
        AxialFieldMap m{};
        m.profile = append_axial_profile(request, table.field_data());
        m.rf = rf;
        m.z_begin = request.profile.z_first;
        m.length = request.profile.length();
        m.steps = 1;
        m.k_rf = constants::two_pi * p.frequency / constants::c_light;
        m.kappa = kappa;
        m.inv_beta0 = std::sqrt(2.0);
        t.field = TimeField::axial_map;
        t.length = m.length;
        t.map = m;
        t.peak_field = peak * std::abs(request.scale);
        t.profile_dz = request.profile.dz;
    }
    CathodeTimeCode built;
    try {
        built = make_cathode_time_code(t, normalization, p.phase);
    } catch (std::invalid_argument const& e) {
        throw DeckError(cfg.where, key + (p.time_step > 0.0 ? ".time_step" : rf ? ".phase" : grid ? ".file" : ".profile"),
                        e.what());
    }
    Element e = Element::make(ElementKind::time_code);
    e.misaligned = p.dx != 0.0 || p.dy != 0.0 || p.tilt != 0.0;
    e.misalignment = Misalignment::make(p.dx, p.dy, p.tilt);
    e.time_code = built.code;
    ElementInfo i;
    i.name = cfg.name;
    i.type = cfg.type;
    i.deck_index = deck_index;
    i.tracking = "t-code (emission from the cathode)";
    table.add_with_reference(e, std::move(i), built.after);
}

void add_occurrence(TableBuilder& table, ElementConfig const& cfg, Params const& p, int deck_index,
                    std::string const& profile, TrackingContext const& tracking)
{
    Misalignment const mis = Misalignment::make(p.dx, p.dy, p.tilt);
    bool const misaligned = p.dx != 0.0 || p.dy != 0.0 || p.tilt != 0.0;
    std::string const& t = cfg.type;
    auto entry = [&](ElementKind kind) {
        Element e = Element::make(kind);
        e.misaligned = misaligned;
        e.misalignment = mis;
        return e;
    };
    auto info = [&](int slice, int slices) {
        ElementInfo i;
        i.name = cfg.name;
        i.type = t;
        i.slice = slice;
        i.slices = slices;
        i.is_monitor = t == "monitor";
        i.deck_index = deck_index;
        return i;
    };
    // Thin elements (marker, monitor, multipole, kicker, aperture) make one entry whatever `slices` says.
    int const n = p.slices;
    double const dl = p.length / n;
    auto const steps = static_cast<std::int32_t>(p.kicks);  // integration steps per slice

    if (!p.profile.empty()) {
        add_profile_occurrence(table, cfg, p, profile, entry(ElementKind::axial_field_map), info, tracking);
        return;
    }
    if ((t == "drift" || t == "quadrupole" || t == "solenoid") && p.length > 0.0) {
        std::string const mode = p.tracking.empty() ? tracking.mode : p.tracking;
        bool const has_field = (t == "quadrupole" && p.k1 != 0.0) || (t == "solenoid" && p.ks != 0.0);
        TrackingChoice const choice =
            choose_tracking(mode, has_field ? p.length : 0.0, table.reference().beta * tracking.sigma_t);
        if (choice.time) {
            TimeCodeRequest r;
            r.field = t == "drift" ? TimeField::none : t == "quadrupole" ? TimeField::quadrupole : TimeField::solenoid;
            r.length = p.length;
            r.k1 = p.k1;
            r.ks = p.ks;
            ElementInfo i = info(0, 1);
            i.tracking = tracking_note(mode, choice);
            add_time_code(table, cfg, p, entry(ElementKind::time_code), std::move(i), r, nullptr);
            return;
        }
    }
    if (t == "field_map") {
        add_field_map_occurrence(table, cfg, p, profile, entry(ElementKind::field_map_3d), info, tracking);
    } else if (t == "marker" || t == "monitor" || t == "wake") {
        table.add(entry(t == "monitor" ? ElementKind::monitor : ElementKind::marker), info(0, 1), 0.0);
    } else if (t == "drift") {
        for (int i = 0; i < n; ++i) {
            Element e = entry(ElementKind::drift);
            e.drift = Drift::make(dl, p.drift_model, table.reference());
            table.add(e, info(i, n), dl);
        }
    } else if (t == "quadrupole") {
        for (int i = 0; i < n; ++i) {
            Element e = entry(ElementKind::quadrupole);
            e.quadrupole = Quadrupole::make(dl, p.k1, p.quad_model, steps, table.reference());
            table.add(e, info(i, n), dl);
        }
    } else if (t == "sbend") {
        double const h = p.angle / p.length;
        Element in = entry(ElementKind::dipole_edge);
        in.dipole_edge = DipoleEdge::make(h, p.e1, p.fint, p.hgap);
        table.add(in, info(0, n + 2), 0.0);
        for (int i = 0; i < n; ++i) {
            Element e = entry(ElementKind::sector_bend);
            e.sector_bend = SectorBend::make(dl, p.angle / n, p.k1, table.reference());
            table.add(e, info(i + 1, n + 2), dl);
        }
        Element out = entry(ElementKind::dipole_edge);
        out.dipole_edge = DipoleEdge::make(h, p.e2, p.fintx, p.hgap);
        table.add(out, info(n + 1, n + 2), 0.0);
    } else if (t == "multipole") {
        Element e = entry(ElementKind::multipole);
        e.multipole = Multipole::make(p.knl.data(), static_cast<int>(p.knl.size()), p.ksl.data(),
                                      static_cast<int>(p.ksl.size()));
        table.add(e, info(0, 1), 0.0);
    } else if (t == "sextupole" || t == "octupole") {
        bool const sext = t == "sextupole";
        for (int i = 0; i < n; ++i) {
            Element e = entry(ElementKind::thick_multipole);
            e.thick_multipole = ThickMultipole::make(dl, sext ? 2 : 3, sext ? p.k2 : p.k3,
                                                     sext ? p.k2s : p.k3s, steps, table.reference());
            table.add(e, info(i, n), dl);
        }
    } else if (t == "solenoid") {
        for (int i = 0; i < n; ++i) {
            Element e = entry(ElementKind::solenoid);
            e.solenoid = Solenoid::make(dl, p.ks, table.reference());
            table.add(e, info(i, n), dl);
        }
    } else if (t == "rfcavity") {
        double const dv = p.voltage / n;
        for (int i = 0; i < n; ++i) {
            ReferenceParticle const before = table.reference();
            double const gain = RfCavity::reference_gain_mev(dv, p.phase, before);
            double const kinetic = before.kinetic_mev + gain;
            if (!(kinetic > 0.0))
                throw DeckError(
                    cfg.where, "elements." + cfg.name + ".voltage",
                    fmt::format("the cavity would take the reference particle from {:.6g} MeV to {:.6g} MeV "
                                "kinetic energy (|q| V cos(phase) = {:.6g} MeV): it must stay above zero",
                                before.kinetic_mev, kinetic, gain));
            ReferenceParticle after = before;
            if (gain != 0.0) after.set_kinetic(kinetic);
            // Half the slice at the old velocity, half at the new one (drift-kick-drift).
            after.s = before.s + dl;
            after.t = before.t + 0.5 * dl / (before.beta * constants::c_light) +
                      0.5 * dl / (after.beta * constants::c_light);
            Element e = entry(ElementKind::rf_cavity);
            e.rf_cavity = RfCavity::make(dl, dv, p.frequency, p.phase, before, after);
            table.add_with_reference(e, info(i, n), after);
        }
    } else if (t == "kicker") {
        Element e = entry(ElementKind::kicker);
        e.kicker = Kicker::make(p.hkick, p.vkick, p.length, table.reference());
        table.add(e, info(0, 1), p.length);
    } else if (t == "aperture") {
        Element e = entry(ElementKind::aperture);
        e.aperture = Aperture::make(p.shape, p.half_x, p.half_y);
        table.add(e, info(0, 1), 0.0);
    } else if (t == "collimator") {
        for (int i = 0; i < n; ++i) {
            Element e = entry(ElementKind::collimator);
            e.collimator = Collimator::make(p.shape, p.half_x, p.half_y, dl, table.reference());
            table.add(e, info(i, n), dl);
        }
    }
}

}  // namespace

bool Lattice::changes_reference_energy() const
{
    ReferenceParticle const* prev = &reference_begin;
    for (auto const& r : reference_after) {
        if (r.kinetic_mev != prev->kinetic_mev) return true;
        prev = &r;
    }
    return false;
}

std::vector<std::string> expand_use_line(DeckConfig const& deck)
{
    LineExpander ex(deck);
    std::string const& use = deck.lattice.use;
    if (!ex.lines.count(use)) {
        std::vector<std::string> names;
        for (auto const& [name, _] : deck.lattice.lines) names.push_back(name);
        throw DeckError(
            SourceLocation{deck.path, 0, 0}, "lattice.use",
            "no line named '" + use + "'" +
                (names.empty() ? std::string("; [lattice] defines no lines") : "; lines: " + join(names)) +
                did_you_mean(use, names));
    }
    ex.expand(use);
    if (ex.out.empty()) ex.fail(use, "the line '" + use + "' is empty");
    return ex.out;
}

Lattice build_lattice(DeckConfig const& deck, ReferenceParticle const& begin)
{
    // Every element definition, checked at once.
    std::vector<Diagnostic> problems;
    std::vector<Params> params;
    params.reserve(deck.elements.size());
    for (auto const& cfg : deck.elements) params.push_back(read_params(cfg, problems));
    LatticeConfig const& lc = deck.lattice;
    bool const global = lc.global_half_x > 0.0 || lc.global_half_y > 0.0;
    ApertureShape global_shape = ApertureShape::rectangle;
    if (lc.global_shape == "ellipse")
        global_shape = ApertureShape::ellipse;
    else if (lc.global_shape != "rectangle")
        problems.push_back(Diagnostic{SourceLocation{deck.path, 0, 0}, "lattice.global_shape",
                                      "expected rectangle or ellipse (got '" + lc.global_shape + "')"});
    if (!(lc.global_half_x >= 0.0) || !(lc.global_half_y >= 0.0))
        problems.push_back(Diagnostic{SourceLocation{deck.path, 0, 0}, "lattice.global_half_x",
                                      "global aperture half sizes must be >= 0 (0: open)"});
    if (!problems.empty()) throw DeckError(problems);

    std::map<std::string, int> index_of;
    for (std::size_t i = 0; i < deck.elements.size(); ++i)
        index_of.emplace(deck.elements[i].name, static_cast<int>(i));

    std::vector<std::string> const names = expand_use_line(deck);
    TableBuilder table(begin);
    TrackingContext tracking;
    tracking.mode = deck.run.tracking;
    tracking.sigma_t = deck.beam.sigma_matrix ? std::sqrt((*deck.beam.sigma_matrix)[4 * 6 + 4]) : deck.beam.sigma_t;
    if (deck.beam.distribution == "cathode") {  // the rms emission time, for the `auto` rule after the gun
        CathodeConfig const& c = deck.beam.cathode;
        double const rms = c.emission == "flattop"
                               ? std::sqrt((c.emission_length * c.emission_length + c.emission_rise * c.emission_rise) / 12.0)
                               : c.emission_length;
        tracking.sigma_t = rms * constants::c_light;
    }
    double const inf = std::numeric_limits<double>::infinity();
    Aperture const global_aperture =
        Aperture::make(global_shape, lc.global_half_x > 0.0 ? lc.global_half_x : inf,
                       lc.global_half_y > 0.0 ? lc.global_half_y : inf);
    // A beam emitted from a cathode starts at the first element that is not a marker or monitor.
    bool at_cathode = deck.beam.distribution == "cathode";
    for (auto const& name : names) {
        int const di = index_of.at(name);
        ElementConfig const& cfg = deck.elements[static_cast<std::size_t>(di)];
        if (at_cathode && cfg.type != "marker" && cfg.type != "monitor") {
            add_cathode_occurrence(table, cfg, params[static_cast<std::size_t>(di)], di,
                                   element_file_path(deck, cfg), tracking);
            at_cathode = false;
        } else {
            add_occurrence(table, cfg, params[static_cast<std::size_t>(di)], di, element_file_path(deck, cfg),
                           tracking);
        }
        if (global && cfg.type != "marker" && cfg.type != "monitor") {
            Element e = Element::make(ElementKind::aperture);
            e.aperture = global_aperture;
            ElementInfo info;
            info.name = "global_aperture";
            info.type = "aperture";
            table.add(e, info, 0.0);
        }
    }
    if (at_cathode)
        throw DeckError(deck.beam.where, "beam.distribution",
                        "the beam is emitted from a cathode, but the line has no element to emit it into (a gun "
                        "given by its on-axis profile, tracked in time)");
    Lattice lattice = table.finish();

    if (lc.turns > 1 && lattice.changes_reference_energy()) {
        auto const it = lc.line_where.find("turns");
        throw DeckError(
            it != lc.line_where.end() ? it->second : SourceLocation{deck.path, 0, 0}, "lattice.turns",
            fmt::format("turns = {} but the lattice changes the reference energy ({:.9g} MeV -> {:.9g} MeV "
                        "kinetic, RF cavities off the zero crossing): the element table is built for one "
                        "pass at the design energies, so a second turn would track with the wrong "
                        "reference. Use turns = 1, or RF phases of +-90 deg in a ring",
                        lc.turns, lattice.reference_begin.kinetic_mev, lattice.reference_end().kinetic_mev));
    }
    return lattice;
}

// ---- description ---------------------------------------------------------------------------------

namespace {

std::string parameters(Element const& e, ReferenceParticle const& after)
{
    switch (e.kind) {
        case ElementKind::marker:
        case ElementKind::monitor:
            return "";
        case ElementKind::drift:
            return e.drift.model == DriftModel::exact ? "exact" : "linear";
        case ElementKind::quadrupole: {
            auto const& q = e.quadrupole;
            std::string m = q.model == QuadrupoleModel::linear ? "linear"
                            : q.model == QuadrupoleModel::exact
                                ? "exact (chromatic)"
                                : fmt::format("kick, {} steps", q.split.steps);
            return fmt::format("k1={:.6g} 1/m^2, {}", q.k1, m);
        }
        case ElementKind::sector_bend: {
            auto const& b = e.sector_bend;
            return fmt::format("angle={:.6g} mrad, rho={:.6g} m{}", b.angle * 1e3, b.length / b.angle,
                               b.k1 != 0.0 ? fmt::format(", k1={:.6g} 1/m^2", b.k1) : std::string{});
        }
        case ElementKind::dipole_edge: {
            auto const& d = e.dipole_edge;
            return fmt::format("e={:.6g} mrad, h={:.6g} 1/m, psi={:.6g} mrad", d.e * 1e3, d.h, d.psi * 1e3);
        }
        case ElementKind::multipole: {
            auto const& m = e.multipole;
            std::string kn, ks;
            double factorial = 1.0;
            for (int n = 0; n < m.terms; ++n) {
                if (n > 0) factorial *= n;
                kn += fmt::format("{}{:.6g}", n ? ", " : "", m.normal[n] * factorial);
                ks += fmt::format("{}{:.6g}", n ? ", " : "", m.skew[n] * factorial);
            }
            return "knl=[" + kn + "], ksl=[" + ks + "]";
        }
        case ElementKind::thick_multipole: {
            auto const& m = e.thick_multipole;
            int const n = m.kick.order;
            return fmt::format("k{}={:.6g} 1/m^{}{}, {} steps", n, m.kn, n + 1,
                               m.ksn != 0.0 ? fmt::format(", k{}s={:.6g}", n, m.ksn) : std::string{},
                               m.split.steps);
        }
        case ElementKind::solenoid:
            return fmt::format("ks={:.6g} 1/m", e.solenoid.ks);
        case ElementKind::time_code: {
            auto const& c = e.time_code;
            char const* const field[] = {"no field", "quadrupole", "solenoid", "profile", "3D map"};
            std::string what = field[static_cast<int>(c.field)];
            char const* const integrator =
                c.field == TimeField::none ? "free flight" : c.integrator == TimeIntegrator::rk4 ? "RK4" : "Boris";
            if (c.field == TimeField::quadrupole) what += fmt::format(" k1={:.6g} 1/m^2", c.k1);
            if (c.field == TimeField::solenoid) what += fmt::format(" ks={:.6g} 1/m", c.ks);
            if (c.field == TimeField::axial_map) what += c.map.rf ? " Ez" : " Bz";
            if (c.field == TimeField::grid_map)
                what += fmt::format(" {}{} {}x{}x{}{}", c.grid_map.grid.has_e ? "E" : "", c.grid_map.grid.has_b ? "B" : "",
                                    c.grid_map.grid.n[0], c.grid_map.grid.n[1], c.grid_map.grid.n[2],
                                    c.grid_map.rf ? " RF" : "");
            bool const rf = (c.field == TimeField::axial_map && c.map.rf) || (c.field == TimeField::grid_map && c.grid_map.rf);
            return fmt::format("{}, {}, dt={:.6g} s (reference: {:.0f} steps){}", what,
                               integrator, c.step / constants::c_light,
                               std::ceil(c.tau_ref_end / c.step),
                               rf
                                   ? fmt::format(" -> E_kin={:.9g} MeV", after.kinetic_mev)
                                   : std::string{});
        }
        case ElementKind::axial_field_map: {
            auto const& m = e.axial_field_map;
            return fmt::format("{} profile z={:.6g}..{:.6g} m, {} RK4 steps{}", m.rf ? "Ez" : "Bz", m.z_begin,
                               m.z_begin + m.length, m.steps,
                               m.rf ? fmt::format(" -> E_kin={:.9g} MeV", after.kinetic_mev) : std::string{});
        }
        case ElementKind::field_map_3d: {
            auto const& m = e.field_map_3d;
            return fmt::format("{}{} {}x{}x{} z={:.6g}..{:.6g} m, {} RK4 steps{}", m.grid.has_e ? "E" : "",
                               m.grid.has_b ? "B" : "", m.grid.n[0], m.grid.n[1], m.grid.n[2], m.z_begin,
                               m.z_begin + m.length, m.steps,
                               m.rf ? fmt::format(" -> E_kin={:.9g} MeV", after.kinetic_mev) : std::string{});
        }
        case ElementKind::rf_cavity: {
            auto const& r = e.rf_cavity;
            return fmt::format("V={:.6g} MV, f={:.6g} MHz, phase={:.6g} deg -> E_kin={:.9g} MeV",
                               r.voltage * 1e-6, r.frequency * 1e-6, r.phase * 180.0 / constants::pi,
                               after.kinetic_mev);
        }
        case ElementKind::kicker:
            return fmt::format("hkick={:.6g} mrad, vkick={:.6g} mrad", e.kicker.hkick * 1e3,
                               e.kicker.vkick * 1e3);
        case ElementKind::aperture:
        case ElementKind::collimator: {
            Aperture const& a = e.kind == ElementKind::aperture ? e.aperture : e.collimator.aperture;
            return fmt::format("{} {:.6g} x {:.6g} mm",
                               a.shape == ApertureShape::ellipse ? "ellipse" : "rectangle", a.half_x * 1e3,
                               a.half_y * 1e3);
        }
    }
    return "";
}

}  // namespace

std::string describe(Lattice const& lattice)
{
    ReferenceParticle const& r0 = lattice.reference_begin;
    ReferenceParticle const& r1 = lattice.reference_end();
    std::string out = fmt::format(
        "lattice: {} entries, {:.9g} m; reference {:.9g} MeV kinetic (beta={:.9g}, "
        "B rho={:.9g} T m)",
        lattice.elements.size(), lattice.length, r0.kinetic_mev, r0.beta, r0.rigidity);
    if (r1.kinetic_mev != r0.kinetic_mev) out += fmt::format(" -> {:.9g} MeV at the end", r1.kinetic_mev);
    out += "\n";
    out += fmt::format("{:>6}  {:<16} {:<15} {:>12} {:>10}  {}\n", "#", "name", "kind", "s [m]", "L [m]",
                       "parameters");
    for (std::size_t i = 0; i < lattice.elements.size(); ++i) {
        Element const& e = lattice.elements[i];
        ElementInfo const& info = lattice.info[i];
        std::string name = info.name;
        if (info.slices > 1) name += fmt::format(" [{}/{}]", info.slice + 1, info.slices);
        std::string params = parameters(e, lattice.reference_after[i]);
        if (e.misaligned)
            params +=
                fmt::format("{}dx={:.6g} mm, dy={:.6g} mm, tilt={:.6g} mrad", params.empty() ? "" : "; ",
                            e.misalignment.dx * 1e3, e.misalignment.dy * 1e3, e.misalignment.tilt * 1e3);
        if (!info.tracking.empty()) params += (params.empty() ? "" : "; ") + info.tracking;
        out += fmt::format("{:>6}  {:<16} {:<15} {:>12.6f} {:>10.6f}  {}\n", i, name, kind_name(e.kind),
                           info.s_begin, info.s_end - info.s_begin, params);
    }
    return out;
}

}  // namespace gt
