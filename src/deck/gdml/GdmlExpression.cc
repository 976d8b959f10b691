// A recursive-descent evaluator of GDML expressions (precedence as in CLHEP's Evaluator: unary
// sign, then ^ (right-associative), then * and /, then + and -).
#include "deck/gdml/GdmlExpression.hh"

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <string>
#include <vector>

#include "deck/gdml/GdmlUnits.hh"

namespace gt::gdml {

Symbols::Symbols()
{
    for (auto const& [name, value] : all_units()) builtins_.emplace(name, value);
    values_ = builtins_;
}

bool Symbols::define(std::string const& name, double value)
{
    if (builtins_.count(name)) return false;
    values_[name] = value;
    return true;
}

namespace {

class Parser {
  public:
    Parser(std::string_view text, Symbols const& s) : text_(text), symbols_(s) {}

    double parse()
    {
        double const v = sum();
        skip_space();
        if (pos_ < text_.size()) fail("unexpected '" + std::string(1, text_[pos_]) + "'");
        if (!std::isfinite(v)) fail("the value is not a finite number");
        return v;
    }

  private:
    [[noreturn]] void fail(std::string const& what) const
    {
        throw ExpressionError("expression \"" + std::string(text_) + "\": " + what);
    }
    void skip_space()
    {
        while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
    }
    bool take(char c)
    {
        skip_space();
        if (pos_ < text_.size() && text_[pos_] == c) {
            ++pos_;
            return true;
        }
        return false;
    }
    double sum()
    {
        double v = product();
        for (;;) {
            if (take('+'))
                v += product();
            else if (take('-'))
                v -= product();
            else
                return v;
        }
    }
    double product()
    {
        double v = unary();
        for (;;) {
            skip_space();
            if (pos_ + 1 < text_.size() && text_[pos_] == '*' && text_[pos_ + 1] == '*') return v;
            if (take('*')) {
                v *= unary();
            } else if (take('/')) {
                double const d = unary();
                if (d == 0) fail("division by zero");
                v /= d;
            } else {
                return v;
            }
        }
    }
    double unary()
    {
        if (++depth_ > 200) fail("nested too deeply");
        double v;
        if (take('-'))
            v = -unary();
        else if (take('+'))
            v = unary();
        else
            v = power();
        --depth_;
        return v;
    }
    double power()
    {
        double const base = primary();
        skip_space();
        bool pow = false;
        if (pos_ < text_.size() && text_[pos_] == '^') {
            ++pos_;
            pow = true;
        } else if (pos_ + 1 < text_.size() && text_[pos_] == '*' && text_[pos_ + 1] == '*') {
            pos_ += 2;
            pow = true;
        }
        if (!pow) return base;
        return std::pow(base, unary());
    }
    double primary()
    {
        skip_space();
        if (pos_ >= text_.size()) fail("ends where a value is expected");
        char const c = text_[pos_];
        if (c == '(') {
            ++pos_;
            double const v = sum();
            if (!take(')')) fail("a ')' is missing");
            return v;
        }
        if (std::isdigit(static_cast<unsigned char>(c)) || c == '.') return number();
        if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
            std::size_t const start = pos_;
            while (pos_ < text_.size() &&
                   (std::isalnum(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '_'))
                ++pos_;
            std::string const name(text_.substr(start, pos_ - start));
            if (take('(')) return call(name);
            double const* v = symbols_.find(name);
            if (!v)
                fail("unknown name '" + name +
                     "' (not a constant, variable, quantity or unit defined before)");
            return *v;
        }
        fail("unexpected '" + std::string(1, c) + "'");
    }
    double number()
    {
        std::size_t const start = pos_;
        while (pos_ < text_.size() &&
               (std::isdigit(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '.'))
            ++pos_;
        if (pos_ < text_.size() && (text_[pos_] == 'e' || text_[pos_] == 'E')) {
            std::size_t p = pos_ + 1;
            if (p < text_.size() && (text_[p] == '+' || text_[p] == '-')) ++p;
            if (p < text_.size() && std::isdigit(static_cast<unsigned char>(text_[p]))) {
                pos_ = p;
                while (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_]))) ++pos_;
            }
        }
        std::string const s(text_.substr(start, pos_ - start));
        char* end = nullptr;
        double const v = std::strtod(s.c_str(), &end);
        if (end != s.c_str() + s.size()) fail("'" + s + "' is not a number");
        return v;
    }
    double call(std::string const& f)
    {
        std::vector<double> args;
        if (!take(')')) {
            for (;;) {
                args.push_back(sum());
                if (take(')')) break;
                if (!take(',')) fail("a ',' or ')' is missing in the arguments of " + f);
            }
        }
        auto need = [&](std::size_t n) {
            if (args.size() != n)
                fail(f + "() takes " + std::to_string(n) + " argument" + (n == 1 ? "" : "s") + ", got " +
                     std::to_string(args.size()));
        };
        if (f == "pow" || f == "atan2" || f == "min" || f == "max") {
            need(2);
            if (f == "pow") return std::pow(args[0], args[1]);
            if (f == "atan2") return std::atan2(args[0], args[1]);
            if (f == "min") return std::fmin(args[0], args[1]);
            return std::fmax(args[0], args[1]);
        }
        need(1);
        double const x = args[0];
        if (f == "sin") return std::sin(x);
        if (f == "cos") return std::cos(x);
        if (f == "tan") return std::tan(x);
        if (f == "asin") return std::asin(x);
        if (f == "acos") return std::acos(x);
        if (f == "atan") return std::atan(x);
        if (f == "sqrt") return std::sqrt(x);
        if (f == "exp") return std::exp(x);
        if (f == "log") return std::log(x);
        if (f == "log10") return std::log10(x);
        if (f == "abs" || f == "fabs") return std::fabs(x);
        fail("unknown function '" + f + "'");
    }

    std::string_view text_;
    Symbols const& symbols_;
    std::size_t pos_ = 0;
    int depth_ = 0;
};

}  // namespace

double evaluate(std::string_view text, Symbols const& symbols) { return Parser(text, symbols).parse(); }

}  // namespace gt::gdml
