// Building, printing and writing the run profile.
#include "perf/Profile.hh"

#include <cmath>

#include <fmt/format.h>

#include "io/Measurement.hh"
#include "io/OutputFile.hh"
#include "io/TableWriter.hh"

namespace gt {

Profile make_profile(std::map<std::string, KernelRecord> const& records, Ceilings const* ceilings,
                     std::string ceilings_note, std::optional<RunForecast> forecast)
{
    Profile p;
    p.ceilings = std::move(ceilings_note);
    for (auto const& [name, r] : records) {
        ProfileRow row;
        row.kernel = name;
        row.calls = r.calls;
        row.seconds = r.seconds;
        row.bytes = r.bytes;
        row.flops = r.flops;
        bool const warm = r.calls > 1 && r.seconds > r.first_seconds;
        double const t = warm ? r.seconds - r.first_seconds : r.seconds;
        double const b = warm ? r.bytes - r.first_bytes : r.bytes;
        double const f = warm ? r.flops - r.first_flops : r.flops;
        row.bytes_per_second = t > 0 ? b / t : 0.0;
        row.flops_per_second = t > 0 ? f / t : 0.0;
        if (ceilings) {
            row.bandwidth_fraction = row.bytes_per_second / ceilings->copy_bandwidth;
            if (r.flops > 0) row.fp64_fraction = row.flops_per_second / ceilings->fp64_peak;
        }
        if (forecast)
            if (auto it = forecast->kernels.find(name); it != forecast->kernels.end())
                row.forecast = it->second.seconds;
        (name.starts_with("coll.") ? p.collective : p.measured) += r.seconds;
        p.rows.push_back(row);
    }
    p.forecast = std::move(forecast);
    return p;
}

std::string format_profile(Profile const& p)
{
    auto const pct = [](double f) {
        return std::isnan(f) ? std::string("unknown") : fmt::format("{:.1f}%", 100 * f);
    };
    std::string s = fmt::format("profile (ceilings: {}); rates after the first call\n", p.ceilings);
    s += fmt::format("{:<12} {:>7} {:>10} {:>10} {:>10} {:>9} {:>9} {:>8} {:>8} {:>10}\n", "kernel", "calls",
                     "time [s]", "GB", "GFLOP", "GB/s", "GFLOP/s", "of BW", "of FP64", "forecast");
    for (ProfileRow const& r : p.rows)
        s += fmt::format("{:<12} {:>7} {:>10.4g} {:>10.4g} {:>10} {:>9.4g} {:>9} {:>8} {:>8} {:>10}\n",
                         r.kernel, r.calls, r.seconds, r.bytes * 1e-9,
                         r.flops > 0 ? fmt::format("{:.4g}", r.flops * 1e-9) : "-", r.bytes_per_second * 1e-9,
                         r.flops > 0 ? fmt::format("{:.4g}", r.flops_per_second * 1e-9) : "-",
                         pct(r.bandwidth_fraction), r.flops > 0 ? pct(r.fp64_fraction) : "-",
                         std::isnan(r.forecast) ? "-" : fmt::format("{:.4g}", r.forecast));
    if (p.forecast)
        s += fmt::format(
            "measured {:.4g} s in timed kernels; forecast {:.4g} s (best {:.4g}, worst {:.4g}): "
            "measured / forecast = {:.2f}\n",
            p.measured, p.forecast->seconds, p.forecast->best, p.forecast->worst,
            p.forecast->seconds > 0 ? p.measured / p.forecast->seconds : 0.0);
    else
        s += fmt::format("measured {:.4g} s in timed kernels; no forecast\n", p.measured);
    if (p.collective > 0)
        s +=
            fmt::format("and {:.4g} s in the collective stages (coll.*), which the forecast does not price\n",
                        p.collective);
    for (auto const& [name, count] : p.counts)
        s += fmt::format("counted {} {:.6g}: {:.4g} per second of timed kernels\n", name, count,
                         p.measured > 0 ? count / p.measured : 0.0);
    return s;
}

void write_profile(OutputFile& out, Profile const& p)
{
    std::vector<std::int64_t> calls;
    std::vector<double> seconds, bytes, flops, gbs, gflops, bw, fp, forecast;
    std::vector<std::string> names;
    for (ProfileRow const& r : p.rows) {
        names.push_back(r.kernel);
        calls.push_back(r.calls);
        seconds.push_back(r.seconds);
        bytes.push_back(r.bytes);
        flops.push_back(r.flops);
        gbs.push_back(r.bytes_per_second * 1e-9);
        gflops.push_back(r.flops_per_second * 1e-9);
        bw.push_back(r.bandwidth_fraction);
        fp.push_back(r.fp64_fraction);
        forecast.push_back(r.forecast);
    }
    Table t;
    t.add_column("calls", "1", std::move(calls));
    t.add_column("seconds", "s", std::move(seconds));
    t.add_column("bytes", "B", std::move(bytes));
    t.add_column("fp64_ops", "1", std::move(flops));
    t.add_column("gb_per_s", "GB/s", std::move(gbs));
    t.add_column("gflop_per_s", "GFLOP/s", std::move(gflops));
    t.add_column("bandwidth_fraction", "1", std::move(bw));
    t.add_column("fp64_fraction", "1", std::move(fp));
    t.add_column("forecast_seconds", "s", std::move(forecast));
    write_table(out, "profile", t);
    out.mark_measurement("profile", measurement::timing);  // kernel times and rates: a measurement of the run
    out.set_attribute("profile", "kernels", std::span<std::string const>(names));
    out.set_attribute("profile", "ceilings", p.ceilings);
    out.set_attribute("profile", "measured_seconds", p.measured);
    out.set_attribute("profile", "collective_seconds", p.collective);
    for (auto const& [name, count] : p.counts) out.set_attribute("profile", name, count);
    if (p.forecast) {
        out.set_attribute("profile", "forecast_seconds", p.forecast->seconds);
        out.set_attribute("profile", "forecast_best_seconds", p.forecast->best);
        out.set_attribute("profile", "forecast_worst_seconds", p.forecast->worst);
    }
}

std::string format_forecast(RunForecast const& f)
{
    std::string s = fmt::format("{:<12} {:>8} {:>10} {:>10} {:>11} {:>11} {:>11}\n", "kernel", "calls", "GB",
                                "GFLOP", "best [s]", "forecast", "worst [s]");
    for (auto const& [name, k] : f.kernels)
        s += fmt::format("{:<12} {:>8} {:>10.4g} {:>10.4g} {:>11.4g} {:>11.4g} {:>11.4g}\n", name, k.calls,
                         k.bytes * 1e-9, k.flops * 1e-9, k.best, k.seconds, k.worst);
    s += fmt::format("{:<12} {:>8} {:>10} {:>10} {:>11.4g} {:>11.4g} {:>11.4g}\n", "total", "", "", "",
                     f.best, f.seconds, f.worst);
    if (f.host_staging_seconds > 0)
        s += fmt::format("host staging of the output's gathers (page-locked, not kernel time): {:.4g} s\n",
                         f.host_staging_seconds);
    return s;
}

}  // namespace gt
