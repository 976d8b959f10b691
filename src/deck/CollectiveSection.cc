// [collective]: the longitudinal grid shared by wakes, LSC and CSR (the effects themselves are
// element keys: a `wake` element, `wake`, `lsc` and `csr` on elements).
#include "deck/DeckSections.hh"

#include <fmt/format.h>

namespace gt::deck {

void read_collective(DeckContext& ctx, toml::table const& t, DeckConfig& cfg)
{
    CollectiveConfig& c = cfg.collective;
    std::string const path = "collective";
    c.where = ctx.where(t);
    ctx.check_keys(t, path, {"bins", "histogram", "smoothing", "lsc_cutoff", "csr_transient", "csr_drift"});
    if (auto b = ctx.integer_at(t, path, "bins", Bound::at_least_one, false)) {
        // The grid keeps a margin of smoothing + 1 nodes on each side of the bunch.
        if (*b < 16 || *b > (1 << 22))
            ctx.error(ctx.where(*t.get("bins")), "collective.bins",
                      fmt::format("expected 16 to {} nodes, got {}", 1 << 22, *b));
        else
            c.bins = *b;
    }
    if (auto h = ctx.choice_at(t, path, "histogram", {"deterministic", "per_block"}, false)) c.histogram = *h;
    if (auto s = ctx.integer_at(t, path, "smoothing", Bound::any, false)) {
        if (*s < 0 || *s > 50)
            ctx.error(ctx.where(*t.get("smoothing")), "collective.smoothing",
                      fmt::format("expected a Savitzky-Golay half-width of 0 (none) to 50 nodes, got {}", *s));
        else
            c.smoothing = *s;
    }
    if (auto f = ctx.quantity_at(t, path, "lsc_cutoff", quantity::dimensionless, Bound::positive, false)) {
        if (*f > 1.0)
            ctx.error(ctx.where(*t.get("lsc_cutoff")), "collective.lsc_cutoff",
                      fmt::format("expected a fraction of the Nyquist wavenumber in (0, 1], got {}", *f));
        else
            c.lsc_cutoff = *f;
    }
    if (auto b = ctx.bool_at(t, path, "csr_transient")) c.csr_transient = *b;
    if (auto d = ctx.quantity_at(t, path, "csr_drift", quantity::length, Bound::non_negative, false)) c.csr_drift = *d;
    if (c.bins <= 4 * (c.smoothing + 1))
        ctx.error(c.where, "collective.bins",
                  fmt::format("{} bins leave no room for the bunch inside margins of {} nodes (smoothing + 1) "
                              "on each side",
                              c.bins, c.smoothing + 1));
}

}  // namespace gt::deck
