// Reading and checking decks: toml++ parses, this file checks every key against the schema and
// collects every problem before throwing one DeckError.
#include "deck/DeckReader.hh"

#include <toml++/toml.h>
#include <algorithm>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <sstream>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "beam/Species.hh"
#include "deck/DeckError.hh"
#include "deck/ElementSchema.hh"
#include "deck/Suggest.hh"
#include "deck/Units.hh"
#include "deck/DeckParser.hh"
#include "deck/DetectorDeckReader.hh"

namespace gt {

namespace {

using namespace deck_detail;

class DeckParser : public deck_detail::DeckParserBase {
  public:
    explicit DeckParser(std::string file) : DeckParserBase(std::move(file)) {}

    DeckConfig parse(std::string const& text, std::vector<std::string> const& overrides)
    {
        DeckConfig cfg;
        cfg.path = file_;
        cfg.text = text;
        cfg.overrides = overrides;
        toml::table root;
        try {
            root = toml::parse(text, file_);
        } catch (toml::parse_error const& e) {
            auto const& b = e.source().begin;
            error({file_, static_cast<int>(b.line), static_cast<int>(b.column)}, "",
                  fmt::format("TOML syntax error: {}{}", e.description(), unquoted_unit_hint(text, b.line)));
            throw DeckError(std::move(diagnostics_));
        }
        for (auto const& o : overrides) apply_override(root, o);
        read_root(root, cfg);
        if (!diagnostics_.empty()) {
            // Deck lines in order, then the command line's overrides.
            std::stable_sort(diagnostics_.begin(), diagnostics_.end(),
                             [](Diagnostic const& a, Diagnostic const& b) {
                                 bool const ao = a.where.file.starts_with(k_set_prefix),
                                            bo = b.where.file.starts_with(k_set_prefix);
                                 if (ao != bo) return !ao;
                                 if (a.where.line != b.where.line) return a.where.line < b.where.line;
                                 return a.where.column < b.where.column;
                             });
            throw DeckError(std::move(diagnostics_));
        }
        return cfg;
    }


  private:
    // ---- sections --------------------------------------------------------------------------------

    void read_root(toml::table const& root, DeckConfig& cfg)
    {
        if (auto const* run = table_at(root, "", "run", false)) read_run(*run, cfg);
        if (cfg.run.name.empty()) cfg.run.name = std::filesystem::path(file_).stem().string();
        if (cfg.run.kind == "detector") {
            read_detector_deck(*this, root, cfg);
            return;
        }

        static std::vector<std::string> const sections = {"run",          "beam",   "elements", "lattice",
                                                          "space_charge", "output", "scan"};
        static std::vector<std::string> const detector_sections = {"materials",   "geometry", "field",
                                                                   "propagation", "gun",      "physics"};
        for (auto&& [k, v] : root) {
            if (std::find(sections.begin(), sections.end(), k.str()) != sections.end()) continue;
            if (std::find(detector_sections.begin(), detector_sections.end(), k.str()) !=
                detector_sections.end()) {
                error(where(k, v), std::string(k.str()),
                      fmt::format(
                          "[{}] belongs to detector decks (kind = \"detector\"); this is a beamline deck",
                          k.str()));
            } else {
                error(where(k, v), std::string(k.str()),
                      fmt::format("unknown section '{}'{}", k.str(), did_you_mean(k.str(), sections)));
            }
        }
        if (toml::node const* scan = root.get("scan")) {
            error(where(*scan), "scan",
                  "parameter scans are not supported by this version yet: run one deck per point with "
                  "--set KEY=VALUE");
        }
        if (auto const* beam = table_at(root, "", "beam", true)) read_beam(*beam, cfg.beam);
        if (auto const* elements = table_at(root, "", "elements", true)) read_elements(*elements, cfg);
        std::set<std::string> tracked;
        if (auto const* lattice = table_at(root, "", "lattice", true)) tracked = read_lattice(*lattice, cfg);
        if (auto const* sc = table_at(root, "", "space_charge", false)) read_space_charge(*sc, cfg);
        read_output(table_at(root, "", "output", false), cfg, tracked);
    }

    void read_run(toml::table const& t, DeckConfig& cfg)
    {
        std::string const path = "run";
        check_keys(t, path, {"kind", "name", "seed", "backend", "track_slots"});
        if (auto kind = choice_at(t, path, "kind", {"beamline", "detector"}, false)) cfg.run.kind = *kind;
        if (toml::node const* n = t.get("track_slots")) {
            if (cfg.run.kind != "detector") {
                error(where(*n), "run.track_slots", "'track_slots' is only used by detector decks (kind = \"detector\")");
            } else if (auto slots = integer_of(*n, "run.track_slots", Bound::at_least_one)) {
                cfg.detector.track_slots = static_cast<std::uint64_t>(*slots);
            }
        }
        if (toml::node const* n = t.get("name")) {
            if (auto name = string_of(*n, "run.name")) cfg.run.name = *name;
        }
        if (auto seed = integer_at(t, path, "seed", Bound::non_negative, false))
            cfg.run.seed = static_cast<std::uint64_t>(*seed);
        if (auto backend = choice_at(t, path, "backend", {"auto", "cpu", "gpu"}, false)) {
            cfg.run.backend = *backend == "cpu"   ? BackendChoice::cpu
                              : *backend == "gpu" ? BackendChoice::gpu
                                                  : BackendChoice::automatic;
        }
    }

    void read_species(toml::table const& t, BeamConfig& beam, bool& species_ok)
    {
        std::string const path = "beam";
        species_ok = false;
        std::vector<std::string> names = species_names();
        names.emplace_back("ion");
        auto particle = choice_at(t, path, "particle", names, true);
        if (!particle) return;
        static constexpr std::array<std::string_view, 4> ion_keys = {"mass_number", "charge_state", "mass",
                                                                     "charge"};
        if (*particle != "ion") {
            for (auto key : ion_keys) {
                if (toml::node const* n = t.get(key))
                    error(where(*n), join_key(path, key),
                          fmt::format("'{}' is only used with particle = \"ion\" (particle is \"{}\")", key,
                                      *particle));
            }
            beam.species = *find_species(*particle);
            species_ok = true;
            return;
        }
        bool const by_number = t.contains("mass_number") || t.contains("charge_state");
        bool const by_mass = t.contains("mass") || t.contains("charge");
        if (by_number && by_mass) {
            error(where(t), "beam.mass",
                  "give either mass_number and charge_state, or mass and charge, for an ion (not both)");
            return;
        }
        if (!by_number && !by_mass) {
            error(where(*t.get("particle")), "beam.particle",
                  "particle = \"ion\" needs mass_number and charge_state, or mass and charge");
            return;
        }
        if (by_number) {
            auto a = integer_at(t, path, "mass_number", Bound::at_least_one, true);
            auto q = integer_at(t, path, "charge_state", Bound::any, true);
            if (q && *q == 0)
                error(where(*t.get("charge_state")), "beam.charge_state", "an ion needs a charge state != 0");
            if (a && q && *q != 0) {
                if (*q > *a) {
                    error(where(*t.get("charge_state")), "beam.charge_state",
                          fmt::format("charge state {} exceeds the mass number {}", *q, *a));
                    return;
                }
                beam.species = make_ion(static_cast<int>(*a), static_cast<int>(*q));
                species_ok = true;
            }
            return;
        }
        auto m = quantity_at(t, path, "mass", quantity::rest_energy, Bound::positive, true);
        auto q = quantity_at(t, path, "charge", quantity::dimensionless, Bound::any, true);
        if (q && *q == 0)
            error(where(*t.get("charge")), "beam.charge", "an ion needs a charge != 0 (in units of e)");
        if (m && q && *q != 0) {
            beam.species = make_ion(*m, *q);
            species_ok = true;
        }
    }

    void read_energy(toml::table const& t, BeamConfig& beam, bool species_ok)
    {
        static std::vector<std::string> const keys = {"kinetic_energy", "total_energy", "momentum"};
        std::vector<std::string> given;
        for (auto const& k : keys)
            if (t.contains(k)) given.push_back(k);
        if (given.empty()) {
            error(where(t), "beam.kinetic_energy",
                  "missing the reference energy: give one of kinetic_energy, total_energy or momentum");
            return;
        }
        if (given.size() > 1) {
            for (std::size_t i = 1; i < given.size(); ++i)
                error(where(*t.get(given[i])), join_key("beam", given[i]),
                      fmt::format("give only one of kinetic_energy, total_energy, momentum (also given: {})",
                                  given[0]));
            return;
        }
        std::string const& key = given[0];
        QuantityKind const& kind = key == "momentum" ? quantity::momentum : quantity::energy;
        auto v = quantity_at(t, "beam", key, kind, Bound::positive, true);
        if (!v || !species_ok) return;
        double const m = beam.species.mass_mev;
        if (key == "kinetic_energy") {
            beam.kinetic_energy_mev = *v;
        } else if (key == "total_energy") {
            if (*v <= m) {
                error(where(*t.get(key)), "beam.total_energy",
                      fmt::format("the total energy {} MeV must exceed the rest energy {} MeV", *v, m));
                return;
            }
            beam.kinetic_energy_mev = *v - m;
        } else {
            // T = sqrt(p^2 + m^2) - m, written without the cancellation at low momentum.
            beam.kinetic_energy_mev = *v * *v / (std::sqrt(*v * *v + m * m) + m);
        }
    }

    void read_beam(toml::table const& t, BeamConfig& beam)
    {
        std::string const path = "beam";
        beam.where = where(t);
        check_keys(t, path,
                   {"particle", "mass_number", "charge_state", "mass", "charge", "kinetic_energy",
                    "total_energy", "momentum", "bunch_charge", "macroparticles", "distribution", "truncate",
                    "file", "twiss", "sigma"});
        bool species_ok = false;
        read_species(t, beam, species_ok);
        read_energy(t, beam, species_ok);
        if (auto q = quantity_at(t, path, "bunch_charge", quantity::charge, Bound::non_negative, false))
            beam.bunch_charge = *q;
        if (auto n = integer_at(t, path, "macroparticles", Bound::at_least_one, true))
            beam.macroparticles = static_cast<std::uint64_t>(*n);
        if (auto d = choice_at(t, path, "distribution",
                               {"gaussian", "kv", "waterbag", "semigaussian", "kurth", "file"}, false))
            beam.distribution = *d;
        if (auto c = quantity_at(t, path, "truncate", quantity::dimensionless, Bound::non_negative, false))
            beam.truncate = *c;

        bool const from_file = beam.distribution == "file";
        if (toml::node const* f = t.get("file")) {
            if (!from_file) {
                error(where(*f), "beam.file", "'file' is only used with distribution = \"file\"");
            } else if (auto name = string_of(*f, "beam.file")) {
                beam.file = *name;
            }
        } else if (from_file) {
            missing(t, path, "file",
                    "the openPMD HDF5 file to read particles from, for distribution = \"file\"");
        }

        toml::table const* twiss = table_at(t, path, "twiss", false);
        toml::table const* sigma = table_at(t, path, "sigma", false);
        if (from_file) {
            for (auto const* sub : {twiss, sigma})
                if (sub)
                    error(where(*sub), sub == twiss ? "beam.twiss" : "beam.sigma",
                          "not used with distribution = \"file\" (the particles come from the file)");
            return;
        }
        if (twiss && sigma) {
            error(where(*sigma), "beam.sigma", "give either [beam.twiss] or [beam.sigma], not both");
            return;
        }
        if (twiss)
            read_twiss(*twiss, beam);
        else if (sigma)
            read_sigma(*sigma, beam);
        else if (!t.contains("twiss") && !t.contains("sigma"))
            error(where(t), "beam.twiss", "missing the beam's shape: add [beam.twiss] (or [beam.sigma])");
    }

    void read_twiss(toml::table const& t, BeamConfig& beam)
    {
        std::string const path = "beam.twiss";
        check_keys(t, path,
                   {"beta_x", "alpha_x", "emittance_x", "beta_y", "alpha_y", "emittance_y", "sigma_t",
                    "sigma_pt", "chirp"});
        auto plane = [&](TwissPlane& p, std::string_view axis) {
            if (auto b = quantity_at(t, path, fmt::format("beta_{}", axis), quantity::length, Bound::positive,
                                     true))
                p.beta = *b;
            if (auto a = quantity_at(t, path, fmt::format("alpha_{}", axis), quantity::dimensionless,
                                     Bound::any, false))
                p.alpha = *a;
            if (auto e = quantity_at(t, path, fmt::format("emittance_{}", axis), quantity::emittance,
                                     Bound::non_negative, true))
                p.emittance = *e;
        };
        plane(beam.x, "x");
        plane(beam.y, "y");
        if (auto v = quantity_at(t, path, "sigma_t", quantity::path_length, Bound::non_negative, false))
            beam.sigma_t = *v;
        if (auto v = quantity_at(t, path, "sigma_pt", quantity::dimensionless, Bound::non_negative, false))
            beam.sigma_pt = *v;
        if (auto v = quantity_at(t, path, "chirp", quantity::per_length, Bound::any, false)) beam.chirp = *v;
    }

    void read_sigma(toml::table const& t, BeamConfig& beam)
    {
        std::string const path = "beam.sigma";
        check_keys(t, path, {"matrix"});
        toml::node const* n = t.get("matrix");
        if (!n) {
            missing(t, path, "matrix", "a 6x6 array of numbers: the second moments of (x, px, y, py, t, pt)");
            return;
        }
        std::string const key = "beam.sigma.matrix";
        auto const* rows = n->as_array();
        if (!rows || rows->size() != 6) {
            error(where(*n), key,
                  fmt::format("expected 6 rows of 6 numbers, got {}",
                              rows ? fmt::format("{} rows", rows->size()) : describe_node(*n)));
            return;
        }
        std::array<double, 36> m{};
        bool ok = true;
        for (std::size_t i = 0; i < 6; ++i) {
            toml::node const& row = *rows->get(i);
            std::string const row_key = fmt::format("{}[{}]", key, i);
            auto const* r = row.as_array();
            if (!r || r->size() != 6) {
                error(where(row), row_key,
                      fmt::format("expected a row of 6 numbers, got {}",
                                  r ? fmt::format("{} entries", r->size()) : describe_node(row)));
                ok = false;
                continue;
            }
            if (auto values = numbers_of(row, row_key)) {
                for (std::size_t j = 0; j < 6; ++j) m[6 * i + j] = (*values)[j];
            } else {
                ok = false;
            }
        }
        if (!ok) return;
        // Symmetry, to rounding: a 6x6 covariance written by hand or by a script.
        int asymmetric = 0;
        std::string first;
        for (std::size_t i = 0; i < 6; ++i) {
            for (std::size_t j = i + 1; j < 6; ++j) {
                double const a = m[6 * i + j], b = m[6 * j + i];
                if (std::abs(a - b) > 1e-12 * std::max(std::abs(a), std::abs(b))) {
                    if (asymmetric++ == 0)
                        first = fmt::format("matrix[{}][{}] = {} but matrix[{}][{}] = {}", i, j, a, j, i, b);
                }
            }
        }
        if (asymmetric > 0) {
            error(where(*n), key,
                  fmt::format("the second-moment matrix must be symmetric: {}{}", first,
                              asymmetric > 1 ? fmt::format(" ({} more pairs differ)", asymmetric - 1) : ""));
            return;
        }
        if (auto why = not_positive_semidefinite(m)) {
            error(where(*n), key,
                  fmt::format("the second-moment matrix is not positive semi-definite: {}", *why));
            return;
        }
        beam.sigma_matrix = m;
    }

    //! Why a symmetric matrix is not a covariance, or nullopt. Works on the correlation matrix, so
    //! that entries of different units (m^2, rad^2) do not upset the tolerance.
    static std::optional<std::string> not_positive_semidefinite(std::array<double, 36> const& m)
    {
        std::array<double, 6> scale{};
        for (std::size_t i = 0; i < 6; ++i) {
            double const d = m[7 * i];
            if (d < 0) return fmt::format("the variance matrix[{}][{}] = {} is negative", i, i, d);
            scale[i] = d > 0 ? 1.0 / std::sqrt(d) : 0.0;
            for (std::size_t j = 0; j < 6; ++j)
                if (d == 0 && m[6 * i + j] != 0)
                    return fmt::format(
                        "matrix[{}][{}] = {} is non-zero although the variance matrix[{}][{}] is 0", i, j,
                        m[6 * i + j], i, i);
        }
        double const tolerance = 1e-10;
        std::array<double, 36> l{};
        for (std::size_t j = 0; j < 6; ++j) {
            double d = m[7 * j] * scale[j] * scale[j];
            for (std::size_t k = 0; k < j; ++k) d -= l[6 * j + k] * l[6 * j + k];
            if (d < -tolerance) return fmt::format("Cholesky pivot {} is {:.3g} < 0", j, d);
            l[7 * j] = d > tolerance ? std::sqrt(d) : 0.0;
            for (std::size_t i = j + 1; i < 6; ++i) {
                double v = m[6 * i + j] * scale[i] * scale[j];
                for (std::size_t k = 0; k < j; ++k) v -= l[6 * i + k] * l[6 * j + k];
                if (l[7 * j] == 0.0) {
                    if (std::abs(v) > 1e-8)
                        return fmt::format("rows {} and {} are inconsistent (correlation > 1)", j, i);
                } else {
                    l[6 * i + j] = v / l[7 * j];
                }
            }
        }
        return std::nullopt;
    }

    void read_elements(toml::table const& t, DeckConfig& cfg)
    {
        for (auto const& [k, v] : in_order(t)) {
            std::string const name(k->str());
            std::string const path = join_key("elements", name);
            auto const* et = v->as_table();
            if (!et) {
                element_names_.insert(name);
                error(where(*k, *v), path,
                      fmt::format(
                          "expected an element table such as {{ type = \"drift\", length = 1.0 }}, got {}",
                          describe_node(*v)));
                continue;
            }
            element_names_.insert(name);
            ElementConfig e;
            e.name = name;
            e.where = where(*k, *v);
            if (read_element(*et, path, e)) cfg.elements.push_back(std::move(e));
        }
    }

    bool read_element(toml::table const& t, std::string const& path, ElementConfig& e)
    {
        auto const type = choice_at(t, path, "type", element_type_names(), true);
        if (!type) return false;
        e.type = *type;
        ElementSpec const& spec = *find_element_spec(*type);
        std::vector<std::string> known;
        for (auto const& p : common_element_params()) known.emplace_back(p.key);
        for (auto const& p : spec.params) known.emplace_back(p.key);
        check_keys(t, path, known);
        bool ok = true;
        for (auto const& p : common_element_params())
            if (p.key != "type") ok = read_param(t, path, p, spec, e) && ok;
        for (auto const& p : spec.params) ok = read_param(t, path, p, spec, e) && ok;
        return ok;
    }

    bool read_param(toml::table const& t, std::string const& path, ParamSpec const& p,
                    ElementSpec const& spec, ElementConfig& e)
    {
        std::string const key(p.key);
        toml::node const* n = t.get(p.key);
        if (!n) {
            if (p.required) {
                std::string const what = p.type == ParamType::choice
                                             ? fmt::format("one of {}", quoted_list(to_strings(p.choices)))
                                             : fmt::format("{}, in {}", p.kind->what, p.kind->unit);
                error(where(t), join_key(path, key),
                      fmt::format("a {} needs '{}' ({})", spec.type, key, what));
                return false;
            }
            return true;
        }
        std::string const full = join_key(path, key);
        switch (p.type) {
            case ParamType::number: {
                auto const v = quantity_of(*n, full, *p.kind, p.bound);
                if (v) e.values[key] = *v;
                return v.has_value();
            }
            case ParamType::integer: {
                auto const v = integer_of(*n, full, p.bound);
                if (v) e.values[key] = static_cast<double>(*v);
                return v.has_value();
            }
            case ParamType::choice: {
                auto const v = choice_of(*n, full, to_strings(p.choices));
                if (v) e.strings[key] = *v;
                return v.has_value();
            }
            case ParamType::number_array: {
                auto const v = numbers_of(*n, full);
                if (v) e.arrays[key] = *v;
                return v.has_value();
            }
        }
        return false;
    }

    //! "name", "name*N" or "N*name" (MAD-X order) -> (name, N); nullopt if malformed.
    static std::optional<std::pair<std::string, std::int64_t>> parse_line_entry(std::string_view text)
    {
        std::string_view name = trim(text);
        std::int64_t count = 1;
        auto const whole = [](std::string_view s, std::int64_t& n) {
            auto const [end, ec] = std::from_chars(s.data(), s.data() + s.size(), n);
            return !s.empty() && ec == std::errc() && end == s.data() + s.size();
        };
        if (auto const star = name.find('*'); star != std::string_view::npos) {
            std::string_view left = trim(name.substr(0, star)), right = trim(name.substr(star + 1));
            std::int64_t n = 0;
            if (whole(left, n) && !whole(right, n)) std::swap(left, right);
            if (!whole(right, count) || count < 1) return std::nullopt;
            name = left;
        }
        if (name.empty() || name.find('*') != std::string_view::npos) return std::nullopt;
        return std::pair(std::string(name), count);
    }

    //! Reads [lattice]; returns the element names the tracked line reaches (for [output] checks).
    std::set<std::string> read_lattice(toml::table const& t, DeckConfig& cfg)
    {
        LatticeConfig& lat = cfg.lattice;
        std::string const path = "lattice";
        std::size_t const errors_before = diagnostics_.size();
        static std::vector<std::string> const settings = {"use", "turns", "aperture"};
        struct Entry {
            std::string name;
            toml::node const* node;
            std::string key;
        };
        std::map<std::string, std::vector<Entry>> entries;
        std::map<std::string, toml::node const*> line_node;
        for (auto const& [k, v] : in_order(t)) {
            std::string const name(k->str());
            if (std::find(settings.begin(), settings.end(), name) != settings.end()) continue;
            std::string const line_key = join_key(path, name);
            auto const* a = v->as_array();
            if (!a) {
                error(where(*k, *v), line_key,
                      fmt::format("unknown key '{}'{}; a line is an array of element and line names", name,
                                  did_you_mean(name, settings)));
                continue;
            }
            if (element_names_.count(name))
                error(where(*k, *v), line_key, fmt::format("'{}' names both an element and a line", name));
            if (a->empty()) error(where(*k, *v), line_key, "a line needs at least one entry");
            std::vector<std::string> items;
            for (std::size_t i = 0; i < a->size(); ++i) {
                toml::node const& item = *a->get(i);
                std::string const item_key = fmt::format("{}[{}]", line_key, i);
                auto const* s = item.as_string();
                auto const parsed = s ? parse_line_entry(s->get()) : std::nullopt;
                if (!parsed) {
                    error(where(item), item_key,
                          fmt::format("expected \"name\" or \"name*N\" (N a whole number >= 1), got {}",
                                      describe_node(item)));
                    continue;
                }
                items.push_back(parsed->second == 1 ? parsed->first
                                                    : fmt::format("{}*{}", parsed->first, parsed->second));
                entries[name].push_back(Entry{parsed->first, &item, item_key});
            }
            entries.try_emplace(name);
            line_node[name] = v;
            lat.lines.emplace_back(name, std::move(items));
            lat.line_where[name] = where(*k, *v);
        }

        // Every entry names an element or a line.
        std::vector<std::string> known;
        known.insert(known.end(), element_names_.begin(), element_names_.end());
        for (auto const& [name, items] : lat.lines) known.push_back(name);
        for (auto const& [line, items] : entries) {
            for (auto const& item : items) {
                if (element_names_.count(item.name) || entries.count(item.name)) continue;
                error(where(*item.node), item.key,
                      fmt::format("'{}' is neither an element nor a line{}", item.name,
                                  did_you_mean(item.name, known)));
            }
        }

        // No line may contain itself: depth-first search, a back edge closes a cycle.
        std::map<std::string, int> state;  // 0 unseen, 1 on the stack, 2 done
        std::vector<std::string> stack;
        bool cyclic = false;
        std::function<void(std::string const&)> visit = [&](std::string const& line) {
            state[line] = 1;
            stack.push_back(line);
            for (auto const& item : entries[line]) {
                if (!entries.count(item.name)) continue;
                if (state[item.name] == 1) {
                    auto const from = std::find(stack.begin(), stack.end(), item.name);
                    std::vector<std::string> cycle(from, stack.end());
                    cycle.push_back(item.name);
                    error(where(*item.node), item.key,
                          fmt::format("line '{}' contains itself: {}", item.name, fmt::join(cycle, " -> ")));
                    cyclic = true;
                } else if (state[item.name] == 0) {
                    visit(item.name);
                }
            }
            stack.pop_back();
            state[line] = 2;
        };
        for (auto const& [name, items] : lat.lines)
            if (state[name] == 0) visit(name);

        if (toml::node const* n = t.get("turns")) {
            if (auto turns = integer_of(*n, "lattice.turns", Bound::at_least_one)) lat.turns = *turns;
        }
        if (auto const* ap = table_at(t, path, "aperture", false)) {
            std::string const ap_path = "lattice.aperture";
            check_keys(*ap, ap_path, {"shape", "half_x", "half_y"});
            if (auto shape = choice_at(*ap, ap_path, "shape", {"rectangle", "ellipse"}, true))
                lat.global_shape = *shape;
            if (auto hx = quantity_at(*ap, ap_path, "half_x", quantity::length, Bound::positive, true))
                lat.global_half_x = *hx;
            if (auto hy = quantity_at(*ap, ap_path, "half_y", quantity::length, Bound::positive, true))
                lat.global_half_y = *hy;
        }

        bool use_ok = false;
        if (toml::node const* n = t.get("use")) {
            if (auto use = string_of(*n, "lattice.use")) {
                lat.use = *use;
                if (entries.count(*use)) {
                    use_ok = true;
                } else {
                    std::vector<std::string> lines;
                    for (auto const& [name, items] : lat.lines) lines.push_back(name);
                    error(where(*n), "lattice.use",
                          element_names_.count(*use)
                              ? fmt::format("'{}' is an element; use names a line of [lattice]", *use)
                              : fmt::format("no line named '{}'{}", *use, did_you_mean(*use, lines)));
                }
            }
        } else if (lat.lines.empty()) {
            error(where(t), "lattice",
                  "no line defined: add one, e.g. line = [\"D1\", \"QF\", \"D1\", \"QD\"]");
        } else {
            lat.use = entries.count("line") ? "line" : lat.lines.back().first;
            use_ok = true;
        }

        // Only a lattice without errors says reliably what is tracked ([output] checks against it).
        std::set<std::string> reached;
        if (use_ok && !cyclic && diagnostics_.size() == errors_before) {
            std::function<void(std::string const&)> collect = [&](std::string const& line) {
                for (auto const& item : entries[line]) {
                    if (entries.count(item.name))
                        collect(item.name);
                    else
                        reached.insert(item.name);
                }
            };
            collect(lat.use);
        }
        return reached;
    }

    void read_space_charge(toml::table const& t, DeckConfig& cfg)
    {
        SpaceChargeConfig& sc = cfg.space_charge;
        std::string const path = "space_charge";
        sc.where = where(t);
        check_keys(t, path, {"enabled", "grid", "kicks_per_meter"});
        if (toml::node const* n = t.get("enabled")) {
            if (auto on = bool_of(*n, "space_charge.enabled")) sc.enabled = *on;
        }
        if (toml::node const* n = t.get("grid")) {
            auto const* a = n->as_array();
            if (!a || a->size() != 3) {
                error(where(*n), "space_charge.grid",
                      fmt::format("expected [nx, ny, nz], three whole numbers >= 1, got {}",
                                  a ? fmt::format("{} entries", a->size()) : describe_node(*n)));
            } else {
                for (std::size_t i = 0; i < 3; ++i) {
                    if (auto g = integer_of(*a->get(i), fmt::format("space_charge.grid[{}]", i),
                                            Bound::at_least_one)) {
                        if (*g > (1 << 20)) {
                            error(where(*a->get(i)), fmt::format("space_charge.grid[{}]", i),
                                  fmt::format("{} grid points is beyond any machine's memory", *g));
                        } else {
                            sc.grid[i] = static_cast<int>(*g);
                        }
                    }
                }
            }
        }
        if (auto k = quantity_at(t, path, "kicks_per_meter", quantity::per_length, Bound::positive, false))
            sc.kicks_per_meter = *k;
        if (sc.enabled && cfg.beam.bunch_charge == 0.0 && t.get("enabled")) {
            error(where(*t.get("enabled")), "space_charge.enabled",
                  "space charge needs a beam.bunch_charge > 0 (the bunch has no charge)");
        }
    }

    void read_output(toml::table const* t, DeckConfig& cfg, std::set<std::string> const& tracked)
    {
        OutputConfig& out = cfg.output;
        std::string const path = "output";
        out.file = cfg.run.name + ".h5";
        out.phase_space = {"end"};
        if (!t) return;
        check_keys(*t, path, {"file", "phase_space", "stats"});
        if (toml::node const* n = t->get("file")) {
            if (auto f = string_of(*n, "output.file")) out.file = *f;
        }
        if (toml::node const* n = t->get("phase_space")) {
            out.phase_space.clear();
            std::vector<toml::node const*> items;
            if (auto const* a = n->as_array()) {
                for (std::size_t i = 0; i < a->size(); ++i) items.push_back(a->get(i));
            } else {
                items.push_back(n);  // a single name is a list of one
            }
            std::vector<std::string> known = {"end"};
            known.insert(known.end(), element_names_.begin(), element_names_.end());
            for (std::size_t i = 0; i < items.size(); ++i) {
                std::string const key =
                    n->is_array() ? fmt::format("output.phase_space[{}]", i) : "output.phase_space";
                auto name = string_of(*items[i], key);
                if (!name) continue;
                bool const is_line = std::any_of(cfg.lattice.lines.begin(), cfg.lattice.lines.end(),
                                                 [&](auto const& l) { return l.first == *name; });
                if (*name != "end" && !element_names_.count(*name)) {
                    error(where(*items[i]), key,
                          is_line
                              ? fmt::format("'{}' is a line; phase space is written at elements (or \"end\")",
                                            *name)
                              : fmt::format("no element named '{}'{}", *name, did_you_mean(*name, known)));
                    continue;
                }
                if (*name != "end" && !tracked.empty() && !tracked.count(*name)) {
                    error(
                        where(*items[i]), key,
                        fmt::format("element '{}' is not in the tracked line '{}'", *name, cfg.lattice.use));
                    continue;
                }
                out.phase_space.push_back(*name);
            }
        }
        if (auto s = choice_at(*t, path, "stats", {"every_element", "every_slice", "end", "turn"}, false)) {
            out.stats = *s == "every_slice" ? StatsWhere::every_slice
                        : *s == "end"       ? StatsWhere::end
                        : *s == "turn"      ? StatsWhere::turn
                                            : StatsWhere::every_element;
        }
    }

    //! Every name defined in [elements], valid or not, so that a broken element is reported once
    //! and not again at each line that uses it.
    std::set<std::string> element_names_;
};

}  // namespace

DeckConfig read_deck_text(std::string const& text, std::string const& name,
                          std::vector<std::string> const& overrides)
{
    return DeckParser(name).parse(text, overrides);
}

DeckConfig read_deck(std::string const& path, std::vector<std::string> const& overrides)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw DeckError(SourceLocation{path, 0, 0}, "",
                        fmt::format("cannot read the deck: {}", std::strerror(errno)));
    std::ostringstream text;
    text << in.rdbuf();
    return read_deck_text(text.str(), path, overrides);
}

}  // namespace gt
