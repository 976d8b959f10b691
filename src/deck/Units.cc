// Unit strings of decks: a small parser for "number unit-expression" and the dimension check.
#include "deck/Units.hh"

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <optional>
#include <vector>

#include <fmt/format.h>

#include "kernels/core/Types.hh"

namespace gt {

namespace {

struct UnitDef {
    std::string_view name;
    Scale scale;
    Dimension dimension;
    bool prefixable;
};

constexpr Dimension k_energy = Dimension::of(2, 1, -2, 0);

// SI units and the few others physicists write in decks. 'c' and 'e' stay symbolic (see Scale).
std::vector<UnitDef> const& unit_table()
{
    static std::vector<UnitDef> const table = {
        {"m", {}, Dimension::of(1, 0, 0, 0), true},
        {"g", {1.0, -3}, Dimension::of(0, 1, 0, 0), true},
        {"s", {}, Dimension::of(0, 0, 1, 0), true},
        {"Hz", {}, Dimension::of(0, 0, -1, 0), true},
        {"T", {}, Dimension::of(0, 1, -1, -1), true},
        {"V", {}, Dimension::of(2, 1, -2, -1), true},
        {"C", {}, Dimension::of(0, 0, 0, 1), true},
        {"A", {}, Dimension::of(0, 0, -1, 1), true},
        {"Ohm", {}, Dimension::of(2, 1, -1, -2), true},
        {"S", {}, Dimension::of(-2, -1, 1, 2), true},
        {"J", {}, k_energy, true},
        {"eV", {1.0, 0, 0, 1}, k_energy, true},
        {"rad", {}, Dimension::of(0, 0, 0, 0, 1), true},
        {"deg", {quantity::k_pi / 180.0}, Dimension::of(0, 0, 0, 0, 1), false},
        {"degree", {quantity::k_pi / 180.0}, Dimension::of(0, 0, 0, 0, 1), false},
        {"degrees", {quantity::k_pi / 180.0}, Dimension::of(0, 0, 0, 0, 1), false},
        // The speed of light as a unit, for momenta (MeV/c) and masses (MeV/c^2).
        {"c", {1.0, 0, 1, 0}, Dimension::of(1, 0, -1, 0), false},
        // Unified atomic mass unit, CODATA 2018.
        {"amu", {1.66053906660, -27}, Dimension::of(0, 1, 0, 0), false},
    };
    return table;
}

struct Prefix {
    char symbol;
    int exp10;
};
// The SI prefixes decks need; "u" stands for micro (the parser maps µ and μ to it).
constexpr std::array<Prefix, 10> k_prefixes = {{{'f', -15},
                                                {'p', -12},
                                                {'n', -9},
                                                {'u', -6},
                                                {'m', -3},
                                                {'c', -2},
                                                {'k', 3},
                                                {'M', 6},
                                                {'G', 9},
                                                {'T', 12}}};

std::optional<UnitDef> find_unit(std::string_view name)
{
    for (auto const& u : unit_table())
        if (u.name == name) return u;
    if (name.size() < 2) return std::nullopt;
    for (auto const& p : k_prefixes) {
        if (p.symbol != name[0]) continue;
        for (auto const& u : unit_table()) {
            if (u.prefixable && u.name == name.substr(1)) {
                UnitDef r = u;
                r.scale.exp10 += p.exp10;
                return r;
            }
        }
    }
    return std::nullopt;
}

// Micro signs and the middle dot are multi-byte in UTF-8: map them to ASCII before parsing.
std::string normalize(std::string_view text)
{
    std::string out;
    for (std::size_t i = 0; i < text.size(); ++i) {
        auto const next = i + 1 < text.size() ? static_cast<unsigned char>(text[i + 1]) : 0u;
        auto const c = static_cast<unsigned char>(text[i]);
        if (c == 0xC2 && next == 0xB5) {  // U+00B5 micro sign
            out += 'u';
            ++i;
        } else if (c == 0xCE && next == 0xBC) {  // U+03BC Greek mu
            out += 'u';
            ++i;
        } else if (c == 0xC2 && next == 0xB7) {  // U+00B7 middle dot
            out += '*';
            ++i;
        } else {
            out += text[i];
        }
    }
    return out;
}

bool is_letter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_space(char c) { return c == ' ' || c == '\t'; }

class UnitParser {
  public:
    explicit UnitParser(std::string_view text) : text_(text) {}

    Quantity parse()
    {
        Quantity q = term();
        for (;;) {
            bool const spaced = skip_spaces();
            if (at_end()) break;
            char op = '*';
            if (peek() == '*' || peek() == '/') {
                op = peek();
                ++pos_;
                skip_spaces();
                if (at_end()) throw UnitError(fmt::format("nothing after '{}'", op));
            } else if (!spaced) {
                throw UnitError(fmt::format("unexpected '{}' in unit", text_.substr(pos_)));
            }
            Quantity const t = term();
            if (op == '*') {
                q.scale = q.scale * t.scale;
                q.dimension = q.dimension * t.dimension;
            } else {
                q.scale = q.scale / t.scale;
                q.dimension = q.dimension / t.dimension;
            }
        }
        return q;
    }

  private:
    bool at_end() const { return pos_ >= text_.size(); }
    char peek() const { return text_[pos_]; }
    bool skip_spaces()
    {
        auto const start = pos_;
        while (!at_end() && is_space(peek())) ++pos_;
        return pos_ > start;
    }

    // One factor: a unit name (or "1", as in "1/m") with an optional power: "m^-2", "cm3", "m-1".
    Quantity term()
    {
        Quantity q;
        auto const start = pos_;
        if (!at_end() && peek() == '1' && (pos_ + 1 >= text_.size() || !is_digit(text_[pos_ + 1]))) {
            ++pos_;
            return q;  // the number one: dimensionless, scale 1
        }
        while (!at_end() && is_letter(peek())) ++pos_;
        std::string_view const name = text_.substr(start, pos_ - start);
        if (name.empty()) {
            throw UnitError(at_end() ? std::string("a unit is missing")
                                     : fmt::format("unexpected '{}' in unit", text_.substr(pos_)));
        }
        auto const def = find_unit(name);
        if (!def) throw UnitError(fmt::format("unknown unit '{}'", name));
        int const power = exponent();
        q.scale = def->scale.pow(power);
        q.dimension = def->dimension.pow(power);
        return q;
    }

    int exponent()
    {
        bool const caret = !at_end() && peek() == '^';
        if (caret) ++pos_;
        int sign = 1;
        if (!at_end() && (peek() == '-' || peek() == '+')) {
            sign = peek() == '-' ? -1 : 1;
            ++pos_;
            if (at_end() || !is_digit(peek())) throw UnitError("a power needs digits after its sign");
        }
        auto const start = pos_;
        while (!at_end() && is_digit(peek())) ++pos_;
        if (pos_ == start) {
            if (caret) throw UnitError("a power needs digits after '^'");
            return 1;
        }
        int value = 0;
        std::from_chars(text_.data() + start, text_.data() + pos_, value);
        if (value == 0 || value > 12)
            throw UnitError(fmt::format("a power of {} makes no sense here", sign * value));
        return sign * value;
    }

    std::string_view text_;
    std::size_t pos_ = 0;
};

std::string_view trim(std::string_view s)
{
    while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
    while (!s.empty() && is_space(s.back())) s.remove_suffix(1);
    return s;
}

double power_of_ten(int n)
{
    // Exact in double up to 10^22, which covers every prefix combination a deck produces.
    double r = 1.0;
    for (int i = 0; i < n; ++i) r *= 10.0;
    return r;
}

}  // namespace

Scale Scale::pow(int n) const
{
    Scale r;
    double m = 1.0;
    for (int i = 0; i < std::abs(n); ++i) m *= mantissa;
    r.mantissa = n >= 0 ? m : 1.0 / m;
    r.exp10 = exp10 * n;
    r.c_power = c_power * n;
    r.e_power = e_power * n;
    return r;
}

double Scale::apply(double x) const
{
    double r = x * mantissa;
    for (int i = 0; i < std::abs(c_power); ++i)
        r = c_power > 0 ? r * constants::c_light : r / constants::c_light;
    for (int i = 0; i < std::abs(e_power); ++i)
        r = e_power > 0 ? r * constants::e_charge : r / constants::e_charge;
    // Dividing by 10^n rounds once, where multiplying by 10^-n would round twice ("50 cm" is 0.5).
    return exp10 >= 0 ? r * power_of_ten(exp10) : r / power_of_ten(-exp10);
}

Quantity parse_unit(std::string_view unit)
{
    std::string const normalized = normalize(trim(unit));
    if (normalized.empty()) return Quantity{};
    return UnitParser(normalized).parse();
}

Quantity parse_quantity(std::string_view text)
{
    std::string_view const t = trim(text);
    std::string_view digits = t;
    if (!digits.empty() && digits.front() == '+') digits.remove_prefix(1);
    double number = 0;
    auto const [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), number);
    if (ec != std::errc() || !std::isfinite(number)) throw UnitError("not a number followed by a unit");
    Quantity q =
        parse_unit(std::string_view(end, static_cast<std::size_t>(digits.data() + digits.size() - end)));
    q.number = number;
    return q;
}

double convert_bare(double number, QuantityKind const& kind)
{
    return (kind.bare / kind.stored).apply(number);
}

double convert_quantity(std::string_view text, QuantityKind const& kind)
{
    auto const fail = [&](std::string const& why) {
        return UnitError(
            fmt::format("expected {} ({}), got \"{}\" ({})", kind.what, kind.examples, text, why));
    };
    Quantity q;
    try {
        q = parse_quantity(text);
    } catch (UnitError const& e) {
        throw fail(e.what());
    }
    // A string holding only a number ("0.5") is a bare number in the key's default unit.
    bool const has_unit = trim(text).find_first_not_of("+-0123456789.eE") != std::string_view::npos;
    if (!has_unit) return convert_bare(q.number, kind);

    auto const same = [&](Dimension const& a) {
        return kind.angle_free ? a.without_angle() == kind.dimension.without_angle() : a == kind.dimension;
    };
    Scale scale = q.scale;
    if (!same(q.dimension)) {
        Dimension const velocity = Dimension::of(1, 0, -1, 0);
        if (kind.c_alternative != 0 && same(q.dimension * velocity.pow(kind.c_alternative))) {
            scale.c_power += kind.c_alternative;
        } else {
            throw fail(describe_dimension(q.dimension));
        }
    }
    return (scale / kind.stored).apply(q.number);
}

std::string describe_dimension(Dimension const& d)
{
    struct Named {
        Dimension dimension;
        std::string_view name;
    };
    static std::vector<Named> const names = {
        {Dimension{}, "a plain number"},
        {Dimension::of(1, 0, 0, 0), "a length"},
        {Dimension::of(2, 0, 0, 0), "an area"},
        {Dimension::of(3, 0, 0, 0), "a volume"},
        {Dimension::of(0, 1, 0, 0), "a mass"},
        {Dimension::of(0, 0, 1, 0), "a time"},
        {Dimension::of(0, 0, 0, 1), "a charge"},
        {Dimension::of(0, 0, 0, 0, 1), "an angle"},
        {Dimension::of(1, 0, 0, 0, 1), "an emittance (length x angle)"},
        {k_energy, "an energy"},
        {Dimension::of(1, 1, -1, 0), "a momentum"},
        {Dimension::of(1, 0, -1, 0), "a velocity"},
        {Dimension::of(0, 1, -1, -1), "a magnetic field"},
        {Dimension::of(1, 1, -1, -1), "a field integral (T m)"},
        {Dimension::of(-1, 1, -1, -1), "a field gradient (T/m)"},
        {Dimension::of(2, 1, -2, -1), "a voltage"},
        {Dimension::of(0, 0, -1, 0), "a frequency"},
        {Dimension::of(0, 0, -1, 1), "a current"},
        {Dimension::of(-3, 1, 0, 0), "a density"},
        {Dimension::of(-1, 0, 0, 0), "an inverse length (1/m)"},
        {Dimension::of(-2, 0, 0, 0), "an inverse area (1/m^2)"},
        {Dimension::of(-3, 0, 0, 0), "an inverse volume (1/m^3)"},
        {Dimension::of(-4, 0, 0, 0), "1/m^4"},
    };
    for (auto const& n : names)
        if (n.dimension == d) return std::string(n.name);
    static constexpr std::array<std::string_view, Dimension::count> symbols = {"m", "kg", "s", "C", "rad"};
    std::string text = "units of";
    for (int i = 0; i < Dimension::count; ++i) {
        int const e = d.exponent[i];
        if (e == 0) continue;
        text += fmt::format(" {}", symbols[i]);
        if (e != 1) text += fmt::format("^{}", e);
    }
    return text;
}

}  // namespace gt
