// Tolerances for comparing two results (validate: CPU against GPU; compare: two output files).
//
// A tolerance of zero (the default everywhere) means *bitwise*: two doubles agree only when their
// bit patterns are identical, so +0 and -0, or two NaNs with different payloads, differ. A non-zero
// tolerance accepts |a - b| <= atol + rtol * max(|a|, |b|); a NaN then agrees only with a NaN.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace gt {

struct Tolerance {
    double rtol = 0;  //!< relative, to the larger magnitude of the two values
    double atol = 0;  //!< absolute, in the unit of the quantity

    bool bitwise() const { return rtol == 0 && atol == 0; }
    //! Whether a and b agree within this tolerance (see the file comment).
    bool accepts(double a, double b) const;
    //! "bitwise", "rtol 1e-12", "rtol 1e-12, atol 1e-15".
    std::string describe() const;
};

//! |a - b| / max(|a|, |b|): 0 when both are 0 or bitwise equal, infinity where one is NaN.
double relative_difference(double a, double b);
//! |a - b|: 0 when bitwise equal, infinity where exactly one is NaN or the infinities differ.
double absolute_difference(double a, double b);

//! Largest differences over many pairs of values, and how many pairs differ at all or beyond tolerance.
struct DifferenceSummary {
    std::size_t compared = 0;
    std::size_t differing = 0;  //!< pairs whose bits differ
    std::size_t outside = 0;    //!< pairs outside the tolerance
    double max_abs = 0;         //!< largest |a - b|
    double max_rel = 0;         //!< largest relative difference
    std::size_t worst = 0;      //!< index of the pair with the largest relative difference

    //! Adds one pair; returns true when it is outside the tolerance.
    bool add(double a, double b, Tolerance const& tolerance, std::size_t index);
    //! Folds another summary into this one (worst kept from whichever has the larger relative difference).
    void merge(DifferenceSummary const& other);
};

//! Tolerances by name: an ordered list of rules, each a glob pattern (fnmatch: '*' also matches '/')
//! with an rtol and/or an atol. A name starts bitwise; every matching rule, in order, replaces the
//! fields it sets, so later rules refine earlier ones.
class ToleranceRules {
  public:
    struct Rule {
        std::string pattern;
        std::optional<double> rtol, atol;
        std::string origin;  //!< where the rule came from ("--rtol", "tol.toml:3"), for messages
    };

    void add(Rule rule);
    //! Parses a command-line value "VALUE" (pattern "*") or "PATTERN=VALUE" for --rtol / --atol.
    //! Throws std::invalid_argument naming the option when the value is not a number >= 0.
    void add_option(std::string const& option, std::string const& value);
    //! Reads rules from a TOML file: an array of tables [[tolerance]] with keys match, rtol, atol.
    //! Throws std::runtime_error naming the file, line and key on any problem.
    void read_file(std::string const& path);
    //! The same for the file's text held in memory; path names it in messages.
    void read_text(std::string const& text, std::string const& path);

    Tolerance for_name(std::string const& name) const;
    //! Whether any rule matches `name` (then the rules alone decide its tolerance).
    bool has_rule_for(std::string const& name) const;
    std::vector<Rule> const& rules() const { return rules_; }
    //! One line: "bitwise" or the rules in order ("* rtol 1e-12; stats/* rtol 1e-10").
    std::string describe() const;

  private:
    std::vector<Rule> rules_;
};

//! Whether `name` matches the glob `pattern` (fnmatch without FNM_PATHNAME).
bool glob_match(std::string const& pattern, std::string const& name);

}  // namespace gt
