// Fuzz target: tolerance rules, as a --tolerances file (TOML) or as --rtol / --atol values. The
// first byte picks which; a file or option problem must come back as the documented exception
// (std::runtime_error / std::invalid_argument), and the rules read must then answer for any name.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <stdexcept>
#include <string>

#include "compare/Tolerance.hh"

extern "C" int LLVMFuzzerTestOneInput(std::uint8_t const* data, std::size_t size)
{
    if (size < 1) return 0;
    std::string const text(reinterpret_cast<char const*>(data) + 1, size - 1);
    gt::ToleranceRules rules;
    try {
        if (data[0] & 1) {
            rules.read_text(text, "fuzz-tolerances.toml");
        } else {
            std::istringstream lines(text);
            for (std::string line; std::getline(lines, line);)
                rules.add_option(line.size() % 2 ? "--rtol" : "--atol", line);
        }
    } catch (std::invalid_argument const&) {
        return 0;
    } catch (std::runtime_error const&) {
        return 0;
    }
    for (char const* name : {"position/x", "stats/mean_x", "lost/element", "", "*"}) {
        gt::Tolerance const t = rules.for_name(name);
        // Every rule admitted is a number >= 0 and finite (Tolerance.hh): check what came through.
        if (!(t.rtol >= 0) || !(t.atol >= 0) || std::isinf(t.rtol) || std::isinf(t.atol)) __builtin_trap();
        (void)t.accepts(1.0, 1.0 + 1e-12);
        (void)t.describe();
    }
    (void)rules.describe();
    return 0;
}
