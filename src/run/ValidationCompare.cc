// Comparing the two backends' states at one stage of `gtrack validate` (run/ValidationCompare.hh).
#include "run/ValidationCompare.hh"

#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>

#include "beam/BeamStatistics.hh"
#include "run/BeamRun.hh"

namespace gt::validation {

HostView::HostView(ParticleState& s)
{
    if (s.space() == MemSpace::host) {
        view = s.view();
    } else {
        copy = ParticleState(s, MemSpace::host);
        view = copy.view();
    }
}

void HostView::order_by_id()
{
    std::vector<size_type> order(view.size);
    for (size_type i = 0; i < view.size; ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(),
                     [&](size_type a, size_type b) { return view.id[a] < view.id[b]; });
    ParticleState sorted(view.size, MemSpace::host);
    ParticleView out = sorted.view();
    for (size_type i = 0; i < view.size; ++i) {
        size_type const j = order[i];
        out.x[i] = view.x[j];
        out.px[i] = view.px[j];
        out.y[i] = view.y[j];
        out.py[i] = view.py[j];
        out.t[i] = view.t[j];
        out.pt[i] = view.pt[j];
        out.id[i] = view.id[j];
        out.lost_element[i] = view.lost_element[j];
        out.lost_turn[i] = view.lost_turn[j];
    }
    copy = std::move(sorted);
    view = copy.view();
}

StageComparer::StageComparer(ValidationOptions const& options)
{
    for (int k = 0; k < 6; ++k) {
        tolerance_[k] = base_[k] = options.tolerances.for_name(k_coordinates[k]);
        ruled_[k] = options.tolerances.has_rule_for(k_coordinates[k]);
    }
    for (auto const& [name, unit] : statistics_columns()) {
        columns_.push_back(name);
        column_tolerance_.push_back(options.tolerances.for_name("stats/" + name));
        column_ruled_.push_back(options.tolerances.has_rule_for("stats/" + name));
    }
    column_base_ = column_tolerance_;
}

void StageComparer::set_stage(double tau, double const (&bound)[6],
                              std::vector<double> const& reference_stats)
{
    auto const rms = [&](int k) { return reference_stats[column("sigma_" + std::string(k_coordinates[k]))]; };
    bool const after_kicks = tau > 0;
    // Per particle: the kicks' own round-off bound (RoundOffTolerance.hh, KickRoundOff), or tau x rms
    // where that is larger: the kick bound leaves out how focusing turns position differences into
    // momentum ones (and back), which the rms model, measured on focusing channels, covers.
    for (int k = 0; k < 6; ++k)
        tolerance_[k] = ruled_[k] || !after_kicks ? base_[k] : Tolerance{0, std::max(bound[k], tau * rms(k))};
    // The statistics: a moment of the particles moves by at most the particles' bound, so each
    // coordinate's relative tau is the larger of the rms model's and bound / rms.
    double tau_of[6];
    for (int k = 0; k < 6; ++k) {
        double const r = rms(k);
        tau_of[k] = std::max(tau, r > 0 ? bound[k] / r : 0.0);
    }
    for (std::size_t j = 0; j < columns_.size(); ++j) {
        std::string const& c = columns_[j];
        if (column_ruled_[j] || !after_kicks || c == "s" || c == "element" || c == "turn" || c == "alive") {
            column_tolerance_[j] = column_base_[j];
            continue;
        }
        // The plane's tau for emittances, betas and alphas; the coordinate's own for its moments.
        double t_col = tau;
        for (int plane = 0; plane < 3; ++plane) {
            std::string const a = k_coordinates[2 * plane], b = k_coordinates[2 * plane + 1];
            auto const ends_with = [&c](std::string const& suffix) {
                return c.size() > suffix.size() &&
                       c.compare(c.size() - suffix.size(), suffix.size(), suffix) == 0;
            };
            if (ends_with("_" + a) || ends_with("_" + a + "n"))
                t_col = std::max(tau_of[2 * plane], tau_of[2 * plane + 1]);
            if (c == "kinetic_energy" && plane == 2) t_col = tau_of[5];
            (void)b;
        }
        Tolerance t{4 * t_col, 0};
        for (int k = 0; k < 6; ++k)
            if (c == "mean_" + std::string(k_coordinates[k]) ||
                c == "max_abs_" + std::string(k_coordinates[k]) ||
                c == "sigma_" + std::string(k_coordinates[k])) {
                t.rtol = 4 * tau_of[k];
                t.atol = tau_of[k] * rms(k);
            }
        if (c.rfind("alpha_", 0) == 0) t.atol = 4 * t_col;
        column_tolerance_[j] = t;
    }
}

std::string StageComparer::statistics_tolerance() const
{
    for (auto const& t : column_tolerance_)
        if (t.describe() != column_tolerance_.front().describe()) return "per column";
    return column_tolerance_.front().describe();
}

void StageComparer::compare_particles(ParticleView a, ParticleView b, StageComparison& st) const
{
    if (a.size != b.size)
        throw std::logic_error(
            fmt::format("validate: the backends hold {} and {} particles", a.size, b.size));
    for (size_type i = 0; i < a.size; ++i) {
        double const za[6] = {a.x[i], a.px[i], a.y[i], a.py[i], a.t[i], a.pt[i]};
        double const zb[6] = {b.x[i], b.px[i], b.y[i], b.py[i], b.t[i], b.pt[i]};
        bool outside = false;
        std::size_t differing_before = 0, differing_after = 0;
        for (int k = 0; k < 6; ++k) {
            differing_before += st.coordinate[k].differing;
            outside = st.coordinate[k].add(za[k], zb[k], tolerance_[k], i) || outside;
            differing_after += st.coordinate[k].differing;
        }
        bool const records =
            a.id[i] != b.id[i] || a.lost_element[i] != b.lost_element[i] || a.lost_turn[i] != b.lost_turn[i];
        if (records) ++st.loss_records_differing;
        if (outside || records) ++st.particles_outside;
        if (differing_after > differing_before || records) ++st.particles_differing;
    }
}

void StageComparer::compare_statistics(std::vector<double> const& a, std::vector<double> const& b,
                                       StageComparison& st) const
{
    double worst_rel = -1;
    for (std::size_t j = 0; j < columns_.size(); ++j) {
        DifferenceSummary one;
        if (one.add(a[j], b[j], column_tolerance_[j], j)) ++st.stats_outside;
        if (one.differing > 0 && one.max_rel > worst_rel) {
            worst_rel = one.max_rel;
            st.worst_stat = columns_[j];
        }
        st.stats.merge(one);
    }
}

std::size_t StageComparer::column(std::string const& name) const
{
    return std::size_t(std::find(columns_.begin(), columns_.end(), name) - columns_.begin());
}

std::vector<double> statistics_at(BeamKernels& kernels, ParticleView particles, Lattice const& lattice,
                                  OutputPoint const& p, double& alive)
{
    BeamStatistics s = derive_statistics(kernels.moments(particles), reference_at(lattice, p));
    s.element = p.entry;
    s.turn = p.turn;
    alive = s.alive;
    return statistics_row(s);
}

}  // namespace gt::validation
