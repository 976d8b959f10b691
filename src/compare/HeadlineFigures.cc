// Headline figures of an output file, for the history of a regression suite.
#include "compare/HeadlineFigures.hh"

#include "io/H5Access.hh"
#include "io/H5Handle.hh"

namespace gt {

namespace {

//! The last value of the dataset at `path`, or nothing when it is absent or empty.
void add_last(hid_t file, std::string const& path, std::string const& name, HeadlineFigures& out)
{
    if (!h5::exists(file, path)) return;
    std::vector<double> const v = h5::read_doubles(file, path);
    if (!v.empty()) out.emplace_back(name, v.back());
}

}  // namespace

HeadlineFigures headline_figures(std::string const& path)
{
    h5::silence_hdf5_errors();
    h5::File file = h5::open_file_readonly(path);
    HeadlineFigures out;
    if (h5::is_group(file, "stats")) {
        add_last(file, "stats/emittance_x", "emittance_x [m rad]", out);
        add_last(file, "stats/emittance_y", "emittance_y [m rad]", out);
        add_last(file, "stats/sigma_x", "sigma_x [m]", out);
        add_last(file, "stats/sigma_y", "sigma_y [m]", out);
        if (h5::exists(file, "stats/alive")) {
            std::vector<double> const alive = h5::read_doubles(file, "stats/alive");
            if (!alive.empty()) out.emplace_back("lost [particles]", alive.front() - alive.back());
        }
    }
    if (h5::is_group(file, "tallies") && h5::exists(file, "tallies/edep")) {
        double sum = 0;
        for (double e : h5::read_doubles(file, "tallies/edep")) sum += e;
        out.emplace_back("energy deposited [MeV]", sum);
    }
    if (h5::is_group(file, "detector")) {
        h5::Group detector = h5::open_group(file, "detector");
        if (h5::has_attribute(detector, "hits"))
            out.emplace_back("hits", h5::read_double_attribute(detector, "hits"));
        if (h5::has_attribute(detector, "escaped"))
            out.emplace_back("escaped [particles]", h5::read_double_attribute(detector, "escaped"));
    }
    return out;
}

}  // namespace gt
