// The optics as a terminal summary, HDF5 and CSV (see OpticsOutput.hh).
#include "optics/OpticsOutput.hh"

#include <cmath>
#include <cstdio>
#include <fstream>
#include <functional>
#include <stdexcept>

#include <fmt/format.h>

#include "io/H5Access.hh"
#include "io/OutputFile.hh"
#include "kernels/core/Types.hh"

namespace gt::optics {

namespace {

//! The float columns of /optics and of the CSV, in the schema's order.
struct Column {
    char const* name;
    std::function<double(OpticsRow const&)> get;
};

std::vector<Column> const& columns()
{
    static std::vector<Column> const c{
        {"beta_x", [](OpticsRow const& r) { return r.beta_x; }},
        {"alpha_x", [](OpticsRow const& r) { return r.alpha_x; }},
        {"mu_x", [](OpticsRow const& r) { return r.mu_x; }},
        {"beta_y", [](OpticsRow const& r) { return r.beta_y; }},
        {"alpha_y", [](OpticsRow const& r) { return r.alpha_y; }},
        {"mu_y", [](OpticsRow const& r) { return r.mu_y; }},
        {"D_x", [](OpticsRow const& r) { return r.d_x; }},
        {"Dp_x", [](OpticsRow const& r) { return r.dp_x; }},
        {"D_y", [](OpticsRow const& r) { return r.d_y; }},
        {"Dp_y", [](OpticsRow const& r) { return r.dp_y; }},
        {"x_co", [](OpticsRow const& r) { return r.orbit[0]; }},
        {"px_co", [](OpticsRow const& r) { return r.orbit[1]; }},
        {"y_co", [](OpticsRow const& r) { return r.orbit[2]; }},
        {"py_co", [](OpticsRow const& r) { return r.orbit[3]; }},
        {"pt_co", [](OpticsRow const& r) { return r.orbit[5]; }},
    };
    return c;
}

//! Fixed-length NUL-terminated ASCII strings, as every gtrack file stores them (io/H5Access.hh).
void write_strings(hid_t loc, std::string const& name, std::vector<std::string> const& values)
{
    std::size_t width = 1;
    for (auto const& v : values) width = std::max(width, v.size() + 1);
    std::string buffer(width * values.size(), '\0');
    for (std::size_t i = 0; i < values.size(); ++i)
        values[i].copy(buffer.data() + i * width, values[i].size());
    h5::Datatype type(h5::check(H5Tcopy(H5T_C_S1), "H5Tcopy", loc, name));
    h5::check(H5Tset_size(type, width), "H5Tset_size", loc, name);
    h5::check(H5Tset_strpad(type, H5T_STR_NULLTERM), "H5Tset_strpad", loc, name);
    hsize_t const dims[1] = {values.size()};
    h5::Dataspace space(h5::check(H5Screate_simple(1, dims, nullptr), "H5Screate_simple", loc, name));
    h5::Dataset set(
        h5::check(H5Dcreate2(loc, name.c_str(), type, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT),
                  "H5Dcreate2", loc, name));
    if (!values.empty())
        h5::check(H5Dwrite(set, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, buffer.data()), "H5Dwrite", loc, name);
}

std::string csv_field(std::string const& s)
{
    if (s.find_first_of(",\"\n") == std::string::npos) return s;
    std::string q = "\"";
    for (char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
    return q + "\"";
}

}  // namespace

std::array<double, 6> map_damping(OpticsResult const& r)
{
    // Amplitude damping time tau = T0 / (-ln |lambda|); the partition numbers share Robinson's sum 4
    // (Sands, SLAC-121, eq. 5.34) in proportion to the damping rates.
    std::array<double, 6> d{};
    if (r.damped.size() != 3) return d;
    double const t0 = r.length / (r.beta * constants::c_light);
    double const sum = r.damped[0].damping + r.damped[1].damping + r.damped[2].damping;
    for (std::size_t k = 0; k < 3; ++k) {
        d[k] = r.damped[k].damping > 0.0 ? t0 / r.damped[k].damping : 0.0;
        d[3 + k] = sum > 0.0 ? 4.0 * r.damped[k].damping / sum : 0.0;
    }
    return d;
}

std::string summary(OpticsResult const& r, std::size_t rows)
{
    std::string t;
    t += fmt::format("{} of {:.9g} m, reference beta = {:.9g}, gamma = {:.9g}\n",
                     r.periodic ? "ring (periodic solution)" : "line (from [beam.twiss])", r.length, r.beta,
                     r.gamma);
    if (!r.model_note.empty()) t += fmt::format("model: {}\n", r.model_note);
    t += fmt::format("tunes        Qx = {:.10f}   Qy = {:.10f}{}\n", r.tune_x, r.tune_y,
                     r.coupled ? "   (eigen-tunes: the lattice is coupled)" : "");
    if (r.periodic) {
        t += fmt::format("chromaticity dQx/dd = {:.6f}   dQy/dd = {:.6f}   (d = dp/p)\n", r.chroma_x,
                         r.chroma_y);
        t += fmt::format("momentum compaction alpha_c = {:.9g}   slip factor eta = {:.9g}\n",
                         r.momentum_compaction, r.slip_factor);
        if (r.synchrotron_tune) t += fmt::format("synchrotron tune Qs = {:.9g}\n", *r.synchrotron_tune);
        if (!r.damped.empty()) {
            auto const d = map_damping(r);
            t += fmt::format(
                "one-turn map with radiation: damping times tau_x, tau_y, tau_e = {:.6g}, {:.6g}, {:.6g} ms, "
                "partition Jx, Jy, Je = {:.6g}, {:.6g}, {:.6g}\n",
                d[0] * 1e3, d[1] * 1e3, d[2] * 1e3, d[3], d[4], d[5]);
        }
        if (r.radiation && r.radiation->i2 != 0.0) {
            RadiationIntegrals const& w = *r.radiation;
            t += fmt::format("radiation integrals I1..I5 = {:.6g}, {:.6g}, {:.6g}, {:.6g}, {:.6g}\n", w.i1,
                             w.i2, w.i3, w.i4, w.i5);
            t +=
                fmt::format("energy loss U0 = {:.6g} keV/turn   Jx = {:.6g}   natural emittance = {:.6g} m\n",
                            w.u0_ev * 1e-3, w.j_x, w.emittance);
            t += fmt::format(
                "damping partition Jx, Jy, Je = {:.6g}, {:.6g}, {:.6g}   damping times tau_x, tau_y, "
                "tau_e = {:.6g}, {:.6g}, {:.6g} ms   natural energy spread = {:.6g}\n",
                w.j_x, w.j_y, w.j_e, w.tau_x * 1e3, w.tau_y * 1e3, w.tau_e * 1e3, w.energy_spread);
            if (w.rf_voltage > 0.0)
                t += std::isnan(w.synchronous_phase)
                         ? fmt::format("RF: |q| V = {:.6g} keV is below U0: no synchronous phase\n",
                                       w.rf_voltage * 1e-3)
                         : fmt::format(
                               "synchronous phase acos(U0 / |q| V) = {:.6g} deg (gtrack's phase; V = {:.6g} "
                               "kV in "
                               "all cavities)\n",
                               w.synchronous_phase * 180.0 / constants::pi, w.rf_voltage * 1e-3);
        }
        Vec6 const& z = r.closed_orbit;
        t += fmt::format(
            "closed orbit ({}) at s = 0: x = {:.6g} m, px = {:.6g}, y = {:.6g} m, py = {:.6g}{}\n",
            r.rf_on ? "6D, RF on" : "4D", z[0], z[1], z[2], z[3],
            r.rf_on ? fmt::format(", t = {:.6g} m, pt = {:.6g}", z[4], z[5]) : std::string());
        t += fmt::format(
            "accuracy: one-turn matrix entries to about {:.1g} (Richardson-extrapolated centred differences, "
            "h and 2h); "
            "orbit residual {:.1g} after {} Newton steps\n",
            r.matrix_error, r.orbit_residual, r.orbit_iterations);
    } else {
        t += fmt::format("(phase advances over the line; accuracy of the matrices about {:.1g})\n",
                         r.matrix_error);
    }
    if (r.coupled) t += "note: " + r.mode_note + "\n";
    t += fmt::format("{:>5} {:<16} {:>11} {:>10} {:>8} {:>10} {:>8} {:>10} {:>10} {:>11} {:>11}\n", "row",
                     "name", "s [m]", "beta_x", "alpha_x", "beta_y", "alpha_y", "D_x [m]", "D_y [m]",
                     "x_co [m]", "y_co [m]");
    std::size_t const n = r.rows.size();
    std::size_t const step = n <= rows ? 1 : (n + rows - 1) / rows;
    for (std::size_t i = 0; i < n; i += step) {
        OpticsRow const& w = r.rows[i];
        t += fmt::format(
            "{:>5} {:<16.16} {:>11.6f} {:>10.5f} {:>8.4f} {:>10.5f} {:>8.4f} {:>10.5f} {:>10.5f} {:>11.3e} "
            "{:>11.3e}\n",
            i, w.name, w.s, w.beta_x, w.alpha_x, w.beta_y, w.alpha_y, w.d_x, w.d_y, w.orbit[0], w.orbit[2]);
        if (i + step >= n && i + 1 != n) i = n - 1 - step;  // always show the last row
    }
    double bx = 0, by = 0, dx = 0;
    for (auto const& w : r.rows) {
        bx = std::max(bx, w.beta_x);
        by = std::max(by, w.beta_y);
        dx = std::max(dx, std::abs(w.d_x));
    }
    t += fmt::format("{} rows; max beta_x = {:.6g} m, max beta_y = {:.6g} m, max |D_x| = {:.6g} m\n", n, bx,
                     by, dx);
    return t;
}

void write_hdf5(OpticsResult const& r, std::string const& path, std::string const& deck)
{
    OutputFile out(path);
    h5::Group g = out.create_group("optics");
    h5::write_attribute(g, "periodic", std::int32_t(r.periodic ? 1 : 0));
    h5::write_attribute(g, "length", r.length);
    h5::write_attribute(g, "tune_x", r.tune_x);
    h5::write_attribute(g, "tune_y", r.tune_y);
    h5::write_attribute(g, "chroma_x", r.chroma_x);
    h5::write_attribute(g, "chroma_y", r.chroma_y);
    h5::write_attribute(g, "momentum_compaction", r.momentum_compaction);
    h5::write_attribute(g, "slip_factor", r.slip_factor);
    if (r.synchrotron_tune) h5::write_attribute(g, "synchrotron_tune", *r.synchrotron_tune);
    h5::write_attribute(g, "coupled", std::int32_t(r.coupled ? 1 : 0));
    h5::write_attribute(g, "model", std::string_view(r.model));
    h5::write_attribute(g, "model_note", std::string_view(r.model_note));
    if (!r.damped.empty()) {
        auto const d = map_damping(r);
        char const* plane[3] = {"x", "y", "e"};
        for (std::size_t k = 0; k < 3; ++k) {
            h5::write_attribute(g, std::string("map_damping_time_") + plane[k], d[k]);
            h5::write_attribute(g, std::string("map_damping_partition_") + plane[k], d[3 + k]);
        }
    }
    if (r.radiation) {
        RadiationIntegrals const& w = *r.radiation;
        h5::write_attribute(g, "I1", w.i1);
        h5::write_attribute(g, "I2", w.i2);
        h5::write_attribute(g, "I3", w.i3);
        h5::write_attribute(g, "I4", w.i4);
        h5::write_attribute(g, "I5", w.i5);
        h5::write_attribute(g, "U0", w.u0_ev);
        h5::write_attribute(g, "damping_partition_x", w.j_x);
        h5::write_attribute(g, "natural_emittance_x", w.emittance);
        h5::write_attribute(g, "damping_partition_y", w.j_y);
        h5::write_attribute(g, "damping_partition_e", w.j_e);
        h5::write_attribute(g, "damping_time_x", w.tau_x);
        h5::write_attribute(g, "damping_time_y", w.tau_y);
        h5::write_attribute(g, "damping_time_e", w.tau_e);
        h5::write_attribute(g, "natural_energy_spread", w.energy_spread);
        if (w.rf_voltage > 0.0) h5::write_attribute(g, "synchronous_phase", w.synchronous_phase);
    }
    h5::write_attribute(g, "deck", std::string_view(deck));

    std::vector<double> s;
    std::vector<std::string> names, types;
    for (auto const& w : r.rows) {
        s.push_back(w.s);
        names.push_back(w.name);
        types.push_back(w.type);
    }
    h5::write_dataset(g, "s", s);
    write_strings(g, "name", names);
    write_strings(g, "type", types);
    for (auto const& c : columns()) {
        std::vector<double> v;
        v.reserve(r.rows.size());
        for (auto const& w : r.rows) v.push_back(c.get(w));
        h5::write_dataset(g, c.name, v);
    }
    h5::Group layout = h5::create_groups(g, "layout");
    std::vector<double> s0, len, strength;
    std::vector<std::string> ltype;
    for (auto const& l : r.layout) {
        s0.push_back(l.s_start);
        len.push_back(l.length);
        ltype.push_back(l.type);
        strength.push_back(l.strength);
    }
    h5::write_dataset(layout, "s_start", s0);
    h5::write_dataset(layout, "length", len);
    write_strings(layout, "type", ltype);
    h5::write_dataset(layout, "strength", strength);
    layout = h5::Group();
    g = h5::Group();
    out.commit();
}

void write_csv(OpticsResult const& r, std::string const& path)
{
    std::ofstream f(path);
    if (!f) throw std::runtime_error("cannot write the CSV file '" + path + "'");
    // The model first, as a comment line (readers: comment='#' in pandas, numpy; skip it for csv.DictReader).
    f << "# gtrack optics, model " << r.model << ": " << r.model_note << '\n';
    f << "s,name,type";
    for (auto const& c : columns()) f << ',' << c.name;
    f << '\n';
    for (auto const& w : r.rows) {
        f << fmt::format("{:.17g},{},{}", w.s, csv_field(w.name), csv_field(w.type));
        for (auto const& c : columns()) f << fmt::format(",{:.17g}", c.get(w));
        f << '\n';
    }
    if (!f) throw std::runtime_error("writing the CSV file '" + path + "' failed");
}

}  // namespace gt::optics
