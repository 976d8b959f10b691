// Arithmetic expressions of GDML attribute values ("2*cm + gap/2", "sin(30*deg)"), evaluated the
// way Geant4's GDML reader evaluates them (CLHEP's Evaluator): + - * / and ^ (or **) for powers,
// parentheses, the usual functions, and names of constants, variables and units.
#pragma once

#include <map>
#include <stdexcept>
#include <string>
#include <string_view>

namespace gt::gdml {

//! A malformed expression or an unknown name; the reader adds the file, line and element.
struct ExpressionError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

//! Names an expression may use: the units of GdmlUnits.hh and pi, then the file's constants.
class Symbols {
  public:
    Symbols();
    //! Defines (or redefines) a name; false if it is a unit or a built-in constant (not redefinable).
    bool define(std::string const& name, double value);
    bool has(std::string const& name) const { return values_.count(name) > 0; }
    double const* find(std::string const& name) const
    {
        auto it = values_.find(name);
        return it == values_.end() ? nullptr : &it->second;
    }

  private:
    std::map<std::string, double, std::less<>> values_;
    std::map<std::string, double, std::less<>> builtins_;
};

//! The value of expression text with the names of symbols; throws ExpressionError.
double evaluate(std::string_view text, Symbols const& symbols);

}  // namespace gt::gdml
