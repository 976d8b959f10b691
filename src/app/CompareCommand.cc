// gtrack compare A.h5 B.h5: every numeric dataset and attribute of two outputs, within tolerances.
#include <cstdio>
#include <stdexcept>

#include "app/Commands.hh"
#include "compare/FileComparison.hh"

namespace gt {

int compare_command(CompareCommandOptions const& options)
{
    CompareOptions co;
    co.only = options.only;
    co.strict = options.strict;
    try {
        if (!options.tolerance_file.empty()) co.tolerances.read_file(options.tolerance_file);
        for (auto const& v : options.rtol) co.tolerances.add_option("--rtol", v);
        for (auto const& v : options.atol) co.tolerances.add_option("--atol", v);
    } catch (std::invalid_argument const& e) {
        throw std::runtime_error(e.what());
    }
    try {
        FileComparison const c = compare_files(options.a, options.b, co);
        std::fputs(comparison_report(c, options.all).c_str(), stdout);
        return c.ok() ? 0 : 1;
    } catch (ComparisonRefused const& e) {
        std::fprintf(stderr, "gtrack compare: %s\n", e.what());
        return 2;
    }
}

}  // namespace gt
