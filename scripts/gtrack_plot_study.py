"""The pictures of a ring study (gtrack run with [dynamic_aperture] or [momentum_aperture]), read from its
output file only: the survival map with the dynamic-aperture border, the frequency map (tune diagram with
resonance lines coloured by the diffusion index, and the same colours in the initial x-y plane), and the
momentum aperture along s over the element layout. Called by
gtrack_plot.py; the helpers (figure, save) are passed in so that both scripts draw alike."""
from math import gcd

import numpy as np


def _columns(g):
    return {k: g[k][:] for k in g}


def plot_dynamic_aperture(f, name, outdir, fmt, written, records, new_figure, save):
    g = f["dynamic_aperture"]
    p = _columns(g["particles"])
    turns = int(g.attrs["turns"])
    deltas = np.unique(p["delta"])
    for k, d in enumerate(deltas):
        sel = p["delta"] == d
        fig, ax = new_figure("phase_space")
        x0, y0, surv = 1e3 * p["x0"][sel], 1e3 * p["y0"][sel], p["survived_turns"][sel]
        sc = ax.scatter(x0, y0, c=surv, s=14, cmap="viridis", vmin=0, vmax=turns)
        fig.colorbar(sc, ax=ax, label="turns survived")
        used = {"x0": x0, "y0": y0, "survived_turns": surv}
        if "border" in g:
            b = _columns(g["border"])
            bs = b["delta"] == d
            sx, sy = float(g.attrs["sigma_x"]), float(g.attrs["sigma_y"])
            ang, r = b["angle"][bs], b["border"][bs]
            # x0 - r cos(angle) sigma_x is the orbit of this delta: the border about it.
            ox = np.median(p["x0"][sel] - p["radius"][sel] * np.cos(p["angle"][sel]) * sx)
            oy = np.median(p["y0"][sel] - p["radius"][sel] * np.sin(p["angle"][sel]) * sy)
            bx, by = 1e3 * (ox + r * np.cos(ang) * sx), 1e3 * (oy + r * np.sin(ang) * sy)
            ax.plot(bx, by, "-o", color="tab:red", lw=1.8, ms=3, label="DA border")
            ax.legend(fontsize=8)
            used.update({"border_x": bx, "border_y": by})
            s = _columns(g["summary"])
            unit = g.attrs["size_unit"]
            unit = unit.decode() if isinstance(unit, bytes) else str(unit)
            scale, u = (1e3, "mm") if unit == "m" else (1.0, "σ")
            ax.set_title(f"{name}: dynamic aperture, δ = {d:+.3g}, {turns} turns: min {scale * s['min'][k]:.3g} {u}, "
                         f"mean {scale * s['mean'][k]:.3g} {u}", fontsize=10)
        else:
            ax.set_title(f"{name}: survival, δ = {d:+.3g}, {turns} turns", fontsize=10)
        ax.set_xlabel("x0 [mm]")
        ax.set_ylabel("y0 [mm]")
        ax.grid(alpha=0.3)
        fig.tight_layout()
        records[save(fig, outdir, f"dynamic_aperture_{k}", fmt, written)] = used


def resonance_lines(order):
    """(a, b, c) with a Qx + b Qy = c, |a| + |b| <= order, crossing the unit square."""
    out = set()
    for a in range(-order, order + 1):
        for b in range(-order, order + 1):
            if (a, b) == (0, 0) or abs(a) + abs(b) > order:
                continue
            if a < 0 or (a == 0 and b < 0):
                continue
            lo, hi = min(0, a) + min(0, b), max(0, a) + max(0, b)
            for c in range(lo, hi + 1):
                if gcd(gcd(abs(a), abs(b)), abs(c)) == 1:
                    out.add((a, b, c))
    return sorted(out)


def plot_frequency_map(f, name, outdir, fmt, written, records, new_figure, save):
    g = f["frequency_map"]
    m = _columns(g)
    order = int(g.attrs["resonance_order"])
    # Both tunes: a grid point on an axis has no tune in the other plane (NaN) and is not drawn here.
    ok = np.isfinite(m["qx1"]) & np.isfinite(m["qy1"]) & np.isfinite(m["diffusion"])
    if not ok.any():
        return
    d = np.clip(m["diffusion"][ok], -10, -2)
    fig, ax = new_figure("phase_space")
    qx, qy = m["qx1"][ok], m["qy1"][ok]
    # The footprint (1st to 99th percentile, so that a few chaotic tunes do not set the scale) and a margin.
    lo_x, hi_x = np.percentile(qx, [1, 99])
    lo_y, hi_y = np.percentile(qy, [1, 99])
    pad = max(0.01, 0.2 * max(hi_x - lo_x, hi_y - lo_y))
    x0, x1, y0, y1 = lo_x - pad, hi_x + pad, lo_y - pad, hi_y + pad
    for a, b, c in resonance_lines(order):
        n = abs(a) + abs(b)
        style = dict(color="0.5", lw=2.2 / n, alpha=0.8)
        if b != 0:
            xs = np.array([x0, x1])
            ax.plot(xs, (c - a * xs) / b, **style)
        else:
            ax.plot([c / a] * 2, [y0, y1], **style)
    sc = ax.scatter(qx, qy, c=d, s=10, cmap="jet", vmin=-10, vmax=-2)
    fig.colorbar(sc, ax=ax, label="diffusion log10 |ΔQ|")
    ax.set_xlim(x0, x1)
    ax.set_ylim(y0, y1)
    ax.set_xlabel("Qx (first half)")
    ax.set_ylabel("Qy (first half)")
    ax.set_title(f"{name}: frequency map, resonances up to order {order}", fontsize=10)
    fig.tight_layout()
    records[save(fig, outdir, "frequency_map_tunes", fmt, written)] = {"qx": qx, "qy": qy, "diffusion": d}

    fig, ax = new_figure("phase_space")
    xs, ys = 1e3 * m["x0"][ok], 1e3 * m["y0"][ok]
    sc = ax.scatter(xs, ys, c=d, s=14, cmap="jet", vmin=-10, vmax=-2)
    fig.colorbar(sc, ax=ax, label="diffusion log10 |ΔQ|")
    ax.set_xlabel("x0 [mm]")
    ax.set_ylabel("y0 [mm]")
    ax.grid(alpha=0.3)
    ax.set_title(f"{name}: diffusion over the initial conditions", fontsize=10)
    fig.tight_layout()
    records[save(fig, outdir, "frequency_map_xy", fmt, written)] = {"x0": xs, "y0": ys, "diffusion": d}


def plot_momentum_aperture(f, name, outdir, fmt, written, records, new_figure, save, draw_layout, file_lattice):
    """δ+(s) and δ−(s) of a [momentum_aperture] study over the element layout (/lattice of the same file);
    locations where the search reached delta_max without a loss are drawn hollow."""
    g = f["momentum_aperture"]
    m = _columns(g)
    turns, res = int(g.attrs["turns"]), float(g.attrs["resolution"])
    rf = g.attrs["rf"]
    rf = rf.decode() if isinstance(rf, bytes) else str(rf)
    lattice = file_lattice(f)
    rows, ratios = (2, [3, 0.6]) if lattice is not None else (1, [1])
    fig, axes = new_figure("along_s", rows, 1, sharex=True, gridspec_kw={"height_ratios": ratios})
    ax = axes[0] if rows > 1 else axes
    s, dp, dm = m["s"], 100 * m["delta_plus"], 100 * m["delta_minus"]
    ax.plot(s, dp, "-o", color="tab:blue", ms=3, lw=1.4, label="δ+")
    ax.plot(s, dm, "-o", color="tab:red", ms=3, lw=1.4, label="δ−")
    for lost, d in (("lost_element_plus", dp), ("lost_element_minus", dm)):
        open_ = m[lost] == -2  # no candidate lost up to delta_max: the aperture lies beyond the search
        if open_.any():
            ax.plot(s[open_], d[open_], "o", mfc="white", color="black", ms=5, label=None)
    ax.axhline(0, color="black", lw=0.6)
    ax.set_ylabel("momentum aperture δ [%]")
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8, loc="best")
    if lattice is not None:
        draw_layout(axes[-1], *lattice)
    else:
        ax.set_xlabel("s [m]")
    fig.suptitle(f"{name}: momentum aperture, {turns} turns, RF {rf}, step {100 * res:.3g}%: "
                 f"δ+ min {dp.min():.3g}%, δ− max {dm.max():.3g}%", fontsize=10)
    fig.tight_layout()
    records[save(fig, outdir, "momentum_aperture", fmt, written)] = {"s": s, "delta_plus": m["delta_plus"],
                                                                     "delta_minus": m["delta_minus"]}
