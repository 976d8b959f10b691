// Tolerances and difference summaries shared by `gtrack validate` and `gtrack compare`.
#include "compare/Tolerance.hh"

#include <fnmatch.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include <fmt/format.h>
#include <toml++/toml.h>

namespace gt {

namespace {

bool same_bits(double a, double b)
{
    return std::bit_cast<std::uint64_t>(a) == std::bit_cast<std::uint64_t>(b);
}

}  // namespace

bool Tolerance::accepts(double a, double b) const
{
    if (same_bits(a, b)) return true;
    if (bitwise()) return false;
    if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
    if (std::isinf(a) || std::isinf(b)) return a == b;
    return std::abs(a - b) <= atol + rtol * std::max(std::abs(a), std::abs(b));
}

std::string Tolerance::describe() const
{
    if (bitwise()) return "bitwise";
    if (atol == 0) return fmt::format("rtol {:g}", rtol);
    if (rtol == 0) return fmt::format("atol {:g}", atol);
    return fmt::format("rtol {:g}, atol {:g}", rtol, atol);
}

double absolute_difference(double a, double b)
{
    if (same_bits(a, b)) return 0.0;
    if (std::isnan(a) || std::isnan(b)) return (std::isnan(a) && std::isnan(b)) ? 0.0 : HUGE_VAL;
    if (std::isinf(a) || std::isinf(b)) return a == b ? 0.0 : HUGE_VAL;
    return std::abs(a - b);
}

double relative_difference(double a, double b)
{
    double const d = absolute_difference(a, b);
    if (d == 0.0 || std::isinf(d)) return d;
    return d / std::max(std::abs(a), std::abs(b));
}

bool DifferenceSummary::add(double a, double b, Tolerance const& tolerance, std::size_t index)
{
    ++compared;
    if (same_bits(a, b)) return false;
    ++differing;
    double const abs_diff = absolute_difference(a, b);
    double const rel_diff = relative_difference(a, b);
    if (abs_diff > max_abs) max_abs = abs_diff;
    if (rel_diff > max_rel || differing == 1) {
        max_rel = std::max(max_rel, rel_diff);
        worst = index;
    }
    bool const out = !tolerance.accepts(a, b);
    if (out) ++outside;
    return out;
}

void DifferenceSummary::merge(DifferenceSummary const& o)
{
    if (o.differing > 0 && (differing == 0 || o.max_rel > max_rel)) worst = o.worst;
    compared += o.compared;
    differing += o.differing;
    outside += o.outside;
    max_abs = std::max(max_abs, o.max_abs);
    max_rel = std::max(max_rel, o.max_rel);
}

bool glob_match(std::string const& pattern, std::string const& name)
{
    return ::fnmatch(pattern.c_str(), name.c_str(), 0) == 0;
}

void ToleranceRules::add(Rule rule) { rules_.push_back(std::move(rule)); }

void ToleranceRules::add_option(std::string const& option, std::string const& value)
{
    bool const is_rtol = option == "--rtol";
    if (!is_rtol && option != "--atol")
        throw std::invalid_argument(fmt::format("unknown tolerance option '{}'", option));
    Rule rule;
    rule.origin = option + " " + value;
    std::string number = value;
    rule.pattern = "*";
    if (auto eq = value.rfind('='); eq != std::string::npos) {
        rule.pattern = value.substr(0, eq);
        number = value.substr(eq + 1);
        if (rule.pattern.empty())
            throw std::invalid_argument(fmt::format("{} {}: the pattern before '=' is empty", option, value));
    }
    if (!rule.pattern.empty() && rule.pattern.front() == '/') rule.pattern.erase(0, 1);
    double v = 0;
    std::size_t used = 0;
    try {
        v = std::stod(number, &used);
    } catch (std::exception const&) {
        used = 0;
    }
    if (used == 0 || used != number.size() || !(v >= 0) || std::isinf(v))
        throw std::invalid_argument(fmt::format("{} {}: expected a number >= 0 (or PATTERN=NUMBER), got '{}'",
                                                option, value, number));
    (is_rtol ? rule.rtol : rule.atol) = v;
    add(std::move(rule));
}

void ToleranceRules::read_file(std::string const& path)
{
    std::ifstream in(path);
    if (!in) throw std::runtime_error(fmt::format("{}: cannot read the tolerance file", path));
    std::stringstream text;
    text << in.rdbuf();
    read_text(text.str(), path);
}

void ToleranceRules::read_text(std::string const& text, std::string const& path)
{
    toml::table root;
    try {
        root = toml::parse(text, path);
    } catch (toml::parse_error const& e) {
        throw std::runtime_error(fmt::format("{}:{}:{}: TOML syntax error: {}", path, e.source().begin.line,
                                             e.source().begin.column, e.description()));
    }
    auto const at = [&](toml::node const& n) {
        return fmt::format("{}:{}:{}", path, n.source().begin.line, n.source().begin.column);
    };
    for (auto const& [key, node] : root)
        if (key.str() != "tolerance")
            throw std::runtime_error(
                fmt::format("{}: {}: unknown key (expected [[tolerance]] tables)", at(node), key.str()));
    toml::array const* list = root["tolerance"].as_array();
    if (!list) {
        if (root.contains("tolerance"))
            throw std::runtime_error(fmt::format("{}: tolerance: expected an array of tables [[tolerance]]",
                                                 at(*root.get("tolerance"))));
        return;
    }
    for (std::size_t i = 0; i < list->size(); ++i) {
        toml::table const* t = (*list)[i].as_table();
        std::string const key = fmt::format("tolerance[{}]", i);
        if (!t) throw std::runtime_error(fmt::format("{}: {}: expected a table", at((*list)[i]), key));
        Rule rule;
        rule.origin = at(*t);
        for (auto const& [k, node] : *t) {
            std::string const name = k.str() == "match" ? "" : std::string(k.str());
            if (k.str() == "match") {
                auto s = node.value<std::string>();
                if (!s || s->empty())
                    throw std::runtime_error(
                        fmt::format("{}: {}.match: expected a non-empty pattern string", at(node), key));
                rule.pattern = *s;
                if (rule.pattern.front() == '/') rule.pattern.erase(0, 1);
            } else if (k.str() == "rtol" || k.str() == "atol") {
                auto v = node.value<double>();
                if (!v || !(*v >= 0) || std::isinf(*v))
                    throw std::runtime_error(
                        fmt::format("{}: {}.{}: expected a number >= 0", at(node), key, name));
                (k.str() == "rtol" ? rule.rtol : rule.atol) = *v;
            } else {
                throw std::runtime_error(
                    fmt::format("{}: {}.{}: unknown key (expected match, rtol, atol)", at(node), key, name));
            }
        }
        if (rule.pattern.empty())
            throw std::runtime_error(
                fmt::format("{}: {}: 'match' is required (a glob, \"*\" for all)", at(*t), key));
        if (!rule.rtol && !rule.atol)
            throw std::runtime_error(fmt::format("{}: {}: give rtol, atol or both", at(*t), key));
        add(std::move(rule));
    }
}

Tolerance ToleranceRules::for_name(std::string const& name) const
{
    Tolerance t;
    for (Rule const& r : rules_) {
        if (!glob_match(r.pattern, name)) continue;
        if (r.rtol) t.rtol = *r.rtol;
        if (r.atol) t.atol = *r.atol;
    }
    return t;
}

bool ToleranceRules::has_rule_for(std::string const& name) const
{
    for (Rule const& r : rules_)
        if (glob_match(r.pattern, name)) return true;
    return false;
}

std::string ToleranceRules::describe() const
{
    if (rules_.empty()) return "bitwise (all quantities)";
    std::string out = "bitwise, then";
    for (Rule const& r : rules_) {
        out += fmt::format(" {}:", r.pattern);
        if (r.rtol) out += fmt::format(" rtol {:g}", *r.rtol);
        if (r.atol) out += fmt::format(" atol {:g}", *r.atol);
        out += ";";
    }
    out.pop_back();
    return out;
}

}  // namespace gt
