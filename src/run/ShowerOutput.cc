// Energy balance and secondary counters of a shower run.
#include "run/ShowerOutput.hh"

#include <cstdio>

#include "io/Measurement.hh"
#include "io/TableWriter.hh"
#include "kernels/detector/EventEnergy.hh"

namespace gt {

void write_energy_balance(OutputFile& out, DetectorRunResult const& r)
{
    std::size_t const events = r.event_energy.size() / k_num_energy_categories;
    std::vector<std::uint64_t> event(events);
    std::vector<double> cols[k_num_energy_categories];
    for (auto& c : cols) c.resize(events);
    for (std::size_t e = 0; e < events; ++e) {
        event[e] = e;
        for (int c = 0; c < k_num_energy_categories; ++c)
            cols[c][e] = r.event_energy[e * k_num_energy_categories + c];
    }
    Table t;
    t.add_column("event", "1", std::move(event));
    char const* names[k_num_energy_categories] = {"primary", "deposited", "below_cut", "escaped", "lost"};
    for (int c = 0; c < k_num_energy_categories; ++c) t.add_column(names[c], "MeV", std::move(cols[c]));
    write_table(out, "energy_balance", t);
    out.set_attribute("detector", "secondaries", r.counters[k_secondaries]);
    out.set_attribute("detector", "held_back", r.counters[k_held]);
    out.set_attribute("detector", "secondary_stack_peak", r.secondary_stack_peak);
    // How the secondaries were scheduled onto the slots: differs with the rank count and the slot
    // count (docs/cluster.md), not with the physics.
    out.mark_measured_attribute("detector", "held_back", measurement::schedule);
    out.mark_measured_attribute("detector", "secondary_stack_peak", measurement::schedule);
}

void print_shower_summary(DetectorRunResult const& r)
{
    double sum[k_num_energy_categories] = {};
    for (std::size_t i = 0; i < r.event_energy.size(); ++i)
        sum[i % k_num_energy_categories] += r.event_energy[i];
    std::printf("  secondaries %llu (held back %llu times, at most %llu waiting)\n",
                static_cast<unsigned long long>(r.counters[k_secondaries]),
                static_cast<unsigned long long>(r.counters[k_held]),
                static_cast<unsigned long long>(r.secondary_stack_peak));
    std::printf(
        "  energy: primaries %.6g MeV = deposited %.6g + below cuts %.6g + escaped %.6g + lost %.6g "
        "(difference %.3g MeV)\n",
        sum[k_energy_primary], sum[k_energy_deposited], sum[k_energy_below_cut], sum[k_energy_escaped],
        sum[k_energy_lost],
        sum[k_energy_primary] - sum[k_energy_deposited] - sum[k_energy_below_cut] - sum[k_energy_escaped] -
            sum[k_energy_lost]);
}

}  // namespace gt
