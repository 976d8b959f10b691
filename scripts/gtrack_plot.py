#!/usr/bin/env python3
"""Pictures of one gtrack output file, made from the file alone (never the deck).

    gtrack plot OUT.h5 [-o DIR]           # the same as: scripts/gtrack_plot.py OUT.h5 [-o DIR]

What is drawn depends on what the file holds (docs/output.md):
  beamline run (/stats, /data, /lost, /space_charge, /collective, /profile): beam sizes, emittances and
      centroids along s; the phase space at each snapshot; losses along s; space-charge and collective
      diagnostics; the per-kernel times;
  detector run (/tallies, /hits, /energy_balance): energy per volume and per layer, hit maps, the
      shower profile, the energy balance;
  scan summary (/summary, from gtrack collect): each final statistic against the scan parameters;
  optics (/optics, from gtrack optics): beta functions and dispersion along s over the element layout.
Writes PNG files (or --format pdf/svg) into DIR (default: OUT_plots in the current directory) and
prints their names. Snapshots of any size: a scatter of every particle up to --max-points, beyond that
a 2D histogram of all particles read in chunks. Needs h5py, numpy and matplotlib
(scripts/install-deps.sh --python).

scripts/plot_scan.py uses the scan part of this file (read_summary, plot_scan) for its own options.
"""
import argparse
import csv
import os
import sys

try:
    import h5py
    import numpy as np
    import matplotlib

    matplotlib.use("Agg")  # files only, never a window
    import matplotlib.pyplot as plt
    from matplotlib.colors import LogNorm
    from matplotlib.patches import Rectangle
except ImportError as e:  # pragma: no cover - what a user without the packages sees
    sys.exit(f"gtrack plot: {e}: it needs Python 3 with h5py, numpy and matplotlib; install them with "
             f"scripts/install-deps.sh --python (or: python3 -m pip install h5py numpy matplotlib)")

#: Figure sizes in inches and the resolution: every image is SIZES[kind] * DPI pixels (tests check it).
DPI = 100
SIZES = {"along_s": (10, 6.5), "phase_space": (10, 8.5), "losses": (10, 8), "diagnostics": (10, 8),
         "profile": (10, 6), "detector": (10, 6), "hit_map": (14, 5), "balance": (10, 5),
         "scan": (7, 4.5), "optics": (11, 6.5)}
#: Rows read at a time from big datasets (6 columns of float64: ~100 MB).
CHUNK = 2_000_000


# ------------------------------------------------------------------------------------------ reading


def text(v):
    """An attribute or string dataset element as str (gtrack writes fixed-length ASCII: bytes)."""
    if isinstance(v, bytes):
        return v.decode()
    if isinstance(v, np.bytes_):
        return bytes(v).decode()
    return str(v)


def texts(a):
    return [text(x) for x in np.atleast_1d(a)]


def unit_of(ds):
    return text(ds.attrs["unit"]) if "unit" in ds.attrs else ""


def table(group, names=None):
    """Columns of a column table (docs/output.md): {name: array}, only those asked for (all by default)."""
    cols = texts(group.attrs["columns"]) if "columns" in group.attrs else [
        k for k in group if isinstance(group[k], h5py.Dataset)]
    if names is not None:
        cols = [c for c in cols if c in names]
    return {c: group[c][:] for c in cols}


def title_of(f, path):
    """What the titles call the run: the file name and the deck it came from (from /provenance)."""
    name = os.path.basename(path)
    prov = f.get("provenance")
    if prov is not None and "deck_path" in prov.attrs:
        deck = text(prov.attrs["deck_path"])
        if deck:  # the deck's name as the run gave it, at most its folder and file
            name += f" (deck {os.path.join(*deck.split(os.sep)[-2:])})"
    return name


def chunks(datasets, rows=CHUNK):
    """Yields tuples of arrays, the same rows of each dataset, CHUNK rows at a time."""
    n = datasets[0].shape[0]
    for start in range(0, n, rows):
        yield tuple(d[start:start + rows] for d in datasets)


def strided(ds, at_most):
    """About at_most values of a big dataset, evenly spaced (one hyperslab read, not the whole)."""
    n = ds.shape[0]
    step = max(1, -(-n // at_most))
    return ds[::step]


def frame(sample):
    """A plot range that holds the core of a distribution, from a sample: the 0.05 % to 99.95 % quantiles
    widened by 10 % on each side (a few far particles do not squeeze the picture)."""
    lo, hi = np.quantile(sample, [0.0005, 0.9995]) if len(sample) else (0.0, 0.0)
    pad = 0.1 * (hi - lo) if hi > lo else max(abs(lo), 1e-12)
    return float(lo - pad), float(hi + pad)


def bin_index(v, edges):
    """The bin of each value among equally spaced edges as numpy.histogram counts it ([e_i, e_i+1), the
    last bin closed), −1 outside: arithmetic first, then corrected against the edges themselves, so that
    values on an edge fall as numpy's searchsorted puts them."""
    n = len(edges) - 1
    with np.errstate(invalid="ignore"):  # NaN: any index here, −1 below
        i = np.floor((v - edges[0]) * (n / (edges[-1] - edges[0]))).astype(np.int64)
    np.clip(i, 0, n - 1, out=i)
    i -= v < edges[i]
    i += (v >= edges[np.minimum(i + 1, n)]) & (i < n - 1)
    i[(v < edges[0]) | (v > edges[-1]) | np.isnan(v)] = -1
    return i


def histogram2d(a, b, edges_a, edges_b, weights=None):
    """numpy.histogram2d over equally spaced edges, as one bincount (about twice as fast on 10^6 rows)."""
    na, nb = len(edges_a) - 1, len(edges_b) - 1
    ia, ib = bin_index(a, edges_a), bin_index(b, edges_b)
    ok = (ia >= 0) & (ib >= 0)
    flat = np.bincount(ia[ok] * nb + ib[ok], weights=None if weights is None else weights[ok], minlength=na * nb)
    return flat.reshape(na, nb).astype(float)


# --------------------------------------------------------------------------------------- drawing aids


def new_figure(kind, rows=1, cols=1, **kw):
    fig, axes = plt.subplots(rows, cols, figsize=SIZES[kind], dpi=DPI, **kw)
    return fig, axes


def save(fig, outdir, name, fmt, written):
    path = os.path.join(outdir, f"{name}.{fmt}")
    fig.savefig(path, dpi=DPI)
    plt.close(fig)
    written.append(path)
    return path


ELEMENT_STYLE = [  # (substring of the element type, colour, height of the box, legend name)
    ("quad", "tab:red", 0.8, "quadrupole"), ("bend", "tab:blue", 0.5, "bend"),
    ("dipole", "tab:blue", 0.5, "bend"), ("sext", "tab:green", 0.6, "sextupole"),
    ("oct", "tab:olive", 0.5, "multipole"), ("multipole", "tab:olive", 0.5, "multipole"),
    ("rf", "tab:orange", 0.7, "cavity"), ("cavit", "tab:orange", 0.7, "cavity"),
    ("field_map", "tab:orange", 0.7, "field map"), ("sol", "tab:purple", 0.7, "solenoid"),
    ("kick", "tab:cyan", 0.4, "kicker"), ("aperture", "black", 1.0, "aperture"),
    ("collimator", "black", 1.0, "collimator"), ("wake", "tab:brown", 0.4, "wake"),
]


def element_style(kind):
    k = kind.lower()
    for key, colour, height, name in ELEMENT_STYLE:
        if key in k:
            return colour, height, name
    if k in ("drift", "marker", "monitor", "start", ""):
        return None
    return "grey", 0.4, "other"


def draw_layout(ax, s_start, length, kinds, strength=None):
    """The element bar: one box per element (quadrupoles above the line when focusing, k1 > 0, and below
    when defocusing, where strengths are known); thin elements as lines."""
    ax.axhline(0, color="black", lw=0.6)
    seen = {}
    for i, (s0, ln, kind) in enumerate(zip(s_start, length, kinds)):
        style = element_style(kind)
        if style is None:
            continue
        colour, height, name = style
        y0 = -height / 2
        if strength is not None and "quad" in kind.lower() and strength[i] != 0:
            y0 = 0 if strength[i] > 0 else -height
        label = None if name in seen else name
        seen[name] = True
        if ln > 0:
            ax.add_patch(Rectangle((s0, y0), ln, height, color=colour, lw=0, label=label))
        else:
            ax.plot([s0, s0], [y0, y0 + height], color=colour, lw=1.2, label=label)
    ax.set_ylim(-1.05, 1.05)
    ax.set_yticks([])
    ax.set_xlabel("s [m]")
    if seen:
        ax.legend(loc="upper left", bbox_to_anchor=(1.005, 1.1), fontsize=7, frameon=False,
                  handlelength=1.0)


def file_lattice(f):
    """The flattened lattice of a beamline file (/lattice, if written): start, length and type of each."""
    g = f.get("lattice")
    if g is None or "s_begin" not in g or "kinds" not in g.attrs:
        return None
    s0, s1 = g["s_begin"][:], g["s_end"][:]
    return s0, s1 - s0, texts(g.attrs["kinds"])


# ----------------------------------------------------------------------------------- beamline runs


def turn_axis(st):
    """Rows of several turns, one per turn (all after the same element; output.stats = "turn"), are drawn
    against the number of turns completed (0: the initial beam, element −1); others against s."""
    turns, element = st.get("turn"), st.get("element")
    if turns is None or len(turns) < 2 or turns.max() <= 0:
        return "s", st["s"], "s [m]"
    if element is not None:
        after = element >= 0
        if len(np.unique(element[after])) == 1 and len(np.unique(turns[after])) == after.sum():
            return "turn", turns + after, "turns completed"
    return "s", st["s"], "s [m] (path length over all turns)"


def plot_along_s(f, name, outdir, fmt, written, records):
    """Beam sizes, emittances and centroids along s (or against the turn), each over the element bar."""
    st = table(f["stats"])
    if len(st.get("s", [])) == 0:
        return
    axis, xs, xlabel = turn_axis(st)
    lattice = file_lattice(f) if axis == "s" and st["turn"].max() <= 0 else None
    # per file: rows of (left quantities, left axis label, right quantities, right axis label)
    panels = [
        ("beam_size", "rms beam size", [
            ([("sigma_x", "σx", 1e3), ("sigma_y", "σy", 1e3)], "rms size [mm]", [], ""),
            ([("sigma_t", "σt = c σΔt", 1e3)], "rms length [mm]", [("sigma_pt", "σpt (right axis)", 1e3)],
             "rms σpt [10⁻³]")]),
        ("emittance", "rms emittance", [
            ([("emittance_xn", "εx, normalized", 1e6), ("emittance_yn", "εy, normalized", 1e6)],
             "normalized emittance [mm mrad]", [], ""),
            ([("emittance_t", "εt", 1e6)], "longitudinal emittance εt [mm × 10⁻³]", [], "")]),
        ("centroid", "beam centroid", [
            ([("mean_x", "⟨x⟩", 1e3), ("mean_y", "⟨y⟩", 1e3)], "centroid [mm]", [], ""),
            ([("mean_px", "⟨px⟩", 1e3), ("mean_py", "⟨py⟩", 1e3)], "centroid angle [mrad]",
             [("mean_pt", "⟨pt⟩ (right axis)", 1e3)], "⟨pt⟩ [10⁻³]")]),
    ]
    alive = st.get("alive")
    style = "-" if len(xs) > 1 else "o"
    for stem, what, rows in panels:
        n_rows = len(rows) + (lattice is not None)
        ratios = [3] * len(rows) + ([0.6] if lattice is not None else [])
        fig, axes = new_figure("along_s", n_rows, 1, sharex=True, gridspec_kw={"height_ratios": ratios})
        used = {}
        for ax, (left, left_label, right_items, right_label) in zip(axes, rows):
            lines = []
            for col, label, scale in left:
                if col in st:
                    lines += ax.plot(xs, st[col] * scale, style, lw=1.4, label=label)
                    used[col] = st[col]
            if any(col in st for col, _, _ in right_items):
                right = ax.twinx()
                for col, label, scale in right_items:
                    if col in st:
                        lines += right.plot(xs, st[col] * scale, style, lw=1.2, color="tab:red", label=label)
                        used[col] = st[col]
                right.set_ylabel(right_label, color="tab:red")
            ax.set_ylabel(left_label)
            ax.grid(alpha=0.3)
            if lines:
                ax.legend(lines, [ln.get_label() for ln in lines], fontsize=8, loc="best")
        if lattice is not None:
            draw_layout(axes[-1], *lattice)
        else:
            axes[-1].set_xlabel(xlabel)
        lost_note = ""
        if alive is not None and len(alive) and alive[0] > 0 and alive[-1] != alive[0]:
            lost_note = f"; {int(alive[-1])} of {int(alive[0])} macroparticles alive at the end"
        fig.suptitle(f"{name}: {what} along {axis}{lost_note}", fontsize=10)
        fig.tight_layout()
        used[axis] = xs
        records[save(fig, outdir, stem, fmt, written)] = used


PHASE_PAIRS = [  # (horizontal record, vertical record, labels and scales to mm / mrad / 10^-3)
    (("position/x", "x [mm]", 1e3), ("momentum/x", "px = Px/p_ref [mrad]", 1e3)),
    (("position/y", "y [mm]", 1e3), ("momentum/y", "py = Py/p_ref [mrad]", 1e3)),
    (("position/t", "t = c Δt [mm] (> 0: behind)", 1e3), ("momentum/t", "pt = −ΔE/(p_ref c) [10⁻³]", 1e3)),
    (("position/x", "x [mm]", 1e3), ("position/y", "y [mm]", 1e3)),
]


def phase_space(species, max_points, bins):
    """The four projections of one snapshot: a scatter of every particle when there are at most max_points,
    else a 2D histogram of all of them, read CHUNK rows at a time. Returns per pair the plotted arrays."""
    records = sorted({r for pair in PHASE_PAIRS for r, _, _ in pair})
    present = [r for r in records if r in species and isinstance(species[r], h5py.Dataset)]
    n = species[present[0]].shape[0] if present else 0
    if n <= max_points:
        cols = {r: species[r][:] for r in present}
        return "scatter", n, [(cols.get(a), cols.get(b)) for (a, _, _), (b, _, _) in PHASE_PAIRS], 0
    bins = int(np.clip(np.sqrt(n / 10), 20, bins))  # about 10 particles per bin on average, at least
    sample = {r: strided(species[r], max_points) for r in present}
    frames = {r: frame(sample[r]) for r in present}
    hists = []
    edges = []
    for (a, _, _), (b, _, _) in PHASE_PAIRS:
        if a in frames and b in frames:
            edges.append((np.linspace(*frames[a], bins + 1), np.linspace(*frames[b], bins + 1)))
            hists.append(np.zeros((bins, bins)))
        else:
            edges.append(None)
            hists.append(None)
    for block in chunks([species[r] for r in present]):
        cols = dict(zip(present, block))
        for i, ((a, _, _), (b, _, _)) in enumerate(PHASE_PAIRS):
            if hists[i] is not None:
                hists[i] += histogram2d(cols[a], cols[b], *edges[i])
    return "density", n, [(h, e) for h, e in zip(hists, edges)], bins


def plot_snapshots(f, name, outdir, fmt, written, records, max_points, bins):
    data = f["data"]
    for it in sorted(data, key=int):
        parts = data[it].get("particles")
        if parts is None:
            continue
        for sp in parts:
            species = parts[sp]
            if "momentum/t" not in species:  # another code's BeamPhysics file: SI momenta, no pt
                print(f"gtrack plot: /data/{it}/particles/{sp} has no momentum/t (not written by gtrack): "
                      f"its phase space is not drawn", file=sys.stderr)
                continue
            mode, n, pairs, nbins = phase_space(species, max_points, bins)
            where = text(species.attrs.get("element", b"?"))
            s_ref = float(species.attrs.get("s_ref", np.nan))
            ek = float(species.attrs.get("kinetic_energy_ref_MeV", np.nan))
            fig, axes = new_figure("phase_space", 2, 2)
            used = {}
            for ax, ((a, alab, asc), (b, blab, bsc)), plotted in zip(axes.flat, PHASE_PAIRS, pairs):
                ax.set_xlabel(alab)
                ax.set_ylabel(blab)
                if mode == "scatter":
                    xa, xb = plotted
                    if xa is None or xb is None:
                        continue
                    ax.plot(xa * asc, xb * bsc, ".", color="tab:blue", ms=1 if n > 2000 else 3,
                            alpha=0.5 if n > 2000 else 1.0, rasterized=True)
                    used[(a, b)] = (xa, xb)
                else:
                    h, e = plotted
                    if h is None:
                        continue
                    m = ax.pcolormesh(e[0] * asc, e[1] * bsc, h.T, norm=LogNorm(vmin=1, vmax=max(h.max(), 1)),
                                      cmap="viridis", rasterized=True)
                    fig.colorbar(m, ax=ax, label="macroparticles per bin")
                    outside = n - int(h.sum())
                    if outside:
                        ax.set_title(f"{outside:,} of {n:,} outside this frame", fontsize=8)
                    used[(a, b)] = (h, e)
                ax.grid(alpha=0.2)
            how = (f"all {n:,} particles" if mode == "scatter" else
                   f"density of all {n:,} particles, {nbins}×{nbins} bins (frame: 0.05–99.95 % quantiles + 10 %)")
            fig.suptitle(f"{name}: phase space of '{sp}' at snapshot {it}, after {where}, s = {s_ref:.6g} m, "
                         f"E_kin = {ek:.6g} MeV\n{how}", fontsize=10)
            fig.tight_layout()
            stem = f"phase_space_{it}" + ("" if len(parts) == 1 else f"_{sp}")
            records[save(fig, outdir, stem, fmt, written)] = {"mode": mode, "n": n, "pairs": used}


def plot_losses(f, name, outdir, fmt, written, records, max_points):
    lost = f["lost"]
    cols = texts(lost.attrs["columns"]) if "columns" in lost.attrs else list(lost)
    if "s" not in cols:
        return
    n = lost["s"].shape[0]
    if n == 0:  # nothing lost: the beam-size pages say how many are alive
        return
    st = f.get("stats")
    fig, axes = new_figure("losses", 2, 2)
    (ax_s, ax_alive), (ax_xy, ax_turn) = axes
    s = lost["s"][:]
    used = {"s": s}
    lattice = f.get("lattice")
    ring = lattice.attrs.get("length") if lattice is not None else None
    s_label = "s where lost [m]"
    if ring is not None and ring > 0 and "turn" in cols and n and lost["turn"][:].max() > 0:
        s = np.mod(s, ring)  # a ring: where in it, over all turns
        s_label = f"s in the ring where lost [m] (circumference {ring:.6g} m, all turns)"
    positions, counts = np.unique(s, return_counts=True)
    if len(positions) <= 200:  # losses at a few places (apertures, element ends): one bar each
        ax_s.vlines(positions, 0, counts, color="tab:red", lw=2)
        ax_s.plot(positions, counts, "o", color="tab:red", ms=3)
        ax_s.set_ylabel("macroparticles lost at this s")
        used["positions"], used["counts"] = positions, counts
    else:
        h, e = np.histogram(s, bins=100)
        ax_s.stairs(h, e, color="tab:red", fill=True, alpha=0.7)
        ax_s.set_ylabel(f"macroparticles lost per {e[1] - e[0]:.3g} m")
        used["positions"], used["counts"] = e, h
    ax_s.set_xlabel(s_label)
    ax_s.set_title(f"{n} macroparticles lost", fontsize=9)
    ax_s.grid(alpha=0.3)
    if st is not None and "alive" in st and st["alive"].shape[0]:
        axis, xs, xlabel = turn_axis(table(st, ["s", "turn", "element", "alive"]))
        alive = st["alive"][:]
        ax_alive.plot(xs, alive / max(alive[0], 1) * 100, "-", color="tab:green", lw=1.5)
        ax_alive.set_xlabel(xlabel)
        ax_alive.set_ylabel("macroparticles alive [% of the start]")
        ax_alive.set_title(f"{int(alive[-1])} of {int(alive[0])} alive at the end", fontsize=9)
        ax_alive.grid(alpha=0.3)
        used["alive"] = alive
    else:
        ax_alive.set_axis_off()
    if "x" in cols and "y" in cols and n:
        x, y = strided(lost["x"], max_points), strided(lost["y"], max_points)
        ax_xy.plot(x * 1e3, y * 1e3, ".", ms=2, color="tab:red", rasterized=True)
        ax_xy.set_xlabel("x where lost [mm]")
        ax_xy.set_ylabel("y where lost [mm]")
        ax_xy.set_title("transverse position of the lost particles" +
                        (f" ({len(x)} of {n} shown)" if len(x) < n else ""), fontsize=9)
        ax_xy.grid(alpha=0.3)
        used["x"], used["y"] = x, y
    else:
        ax_xy.set_axis_off()
    if "turn" in cols and n and lost["turn"][:].max() > 0:
        turns = lost["turn"][:]
        per_turn = np.bincount(turns.astype(np.int64))
        ax_turn.stairs(per_turn, np.arange(len(per_turn) + 1), color="tab:purple", fill=True, alpha=0.7)
        ax_turn.set_xlabel("turn")
        ax_turn.set_ylabel("macroparticles lost per turn")
        if per_turn.max() > 100 * per_turn[per_turn > 0].min():
            ax_turn.set_yscale("log")
        ax_turn.grid(alpha=0.3)
        used["per_turn"] = per_turn
    elif "element" in cols and n:
        element = lost["element"][:].astype(np.int64)
        per = np.bincount(element)
        where = np.flatnonzero(per)
        names = texts(lattice.attrs["names"]) if lattice is not None and "names" in lattice.attrs else None
        labels = [f"{names[i]} ({i})" if names is not None and i < len(names) else str(i) for i in where]
        ax_turn.barh(range(len(where)), per[where], color="tab:red")
        ax_turn.set_yticks(range(len(where)), labels, fontsize=7 if len(where) < 30 else 4)
        ax_turn.invert_yaxis()
        ax_turn.set_xlabel("macroparticles lost")
        ax_turn.set_ylabel("element (flattened lattice index)")
        used["per_element"] = per
    else:
        ax_turn.set_axis_off()
    fig.suptitle(f"{name}: losses", fontsize=10)
    fig.tight_layout()
    records[save(fig, outdir, "losses", fmt, written)] = used


DIAGNOSTICS = {  # group: (file stem, title, [(columns, labels, scale, axis label, log)])
    "space_charge": ("space_charge", "space-charge kicks", [
        (["field_energy"], ["rest-frame field energy"], 1.0, "field energy [J]", False),
        (["outside"], ["outside the grid"], 1.0, "macroparticles outside the grid\n(they felt a point charge)",
         False),
        (["hx", "hy", "hz"], ["hx", "hy", "hz (along the motion)"], 1e3, "grid spacing, rest frame [mm]", False),
        (["t_sort", "t_deposit", "t_green", "t_solve", "t_field", "t_gather", "t_kick"],
         ["sort", "deposit", "Green", "solve", "field", "gather", "kick"], 1.0, "time per kick [s]", True)]),
    "collective": ("collective", "collective kicks (wakes, LSC, CSR)", [
        (["energy_change"], ["energy change of the bunch"], 1.0, "energy change per kick [J]", False),
        (["charge_on_grid"], ["charge on the histogram"], 1e9, "charge [nC]", False),
        (["bin_width"], ["histogram bin width"], 1e6, "bin width in t [µm]", False),
        (["t_histogram", "t_convolve", "t_kick"], ["histogram", "convolve", "kick"], 1.0, "time per kick [s]",
         True)]),
}


def plot_diagnostics(f, group, name, outdir, fmt, written, records):
    stem, what, panels = DIAGNOSTICS[group]
    t = table(f[group])
    if len(t.get("s", [])) == 0:
        return
    axis, xs, xlabel = turn_axis(t) if "turn" in t else ("s", t["s"], "s [m]")
    fig, axes = new_figure("diagnostics", 2, 2, sharex=True)
    used = {axis: xs}
    for ax, (columns, labels, scale, ylabel, log) in zip(axes.flat, panels):
        for c, label in zip(columns, labels):
            if c in t:
                v = t[c] * scale
                if log:
                    v = np.where(v > 0, v, np.nan)
                ax.plot(xs, v, ".-" if len(xs) < 200 else "-", ms=3, lw=1, label=label)
                used[c] = t[c]
        ax.set_ylabel(ylabel)
        if log and np.isfinite(np.asarray([np.nanmax(t[c]) if c in t and np.any(t[c] > 0) else np.nan
                                           for c in columns], dtype=float)).any():
            ax.set_yscale("log")
        ax.grid(alpha=0.3)
        if len(columns) > 1:
            ax.legend(fontsize=7, loc="best")
    for ax in axes[-1]:
        ax.set_xlabel(xlabel)
    fig.suptitle(f"{name}: {what}, {len(xs)} kick{'s' if len(xs) != 1 else ''}", fontsize=10)
    fig.tight_layout()
    records[save(fig, outdir, stem, fmt, written)] = used


def plot_profile(f, name, outdir, fmt, written, records):
    g = f["profile"]
    if "seconds" not in g or "kernels" not in g.attrs:
        return
    kernels = texts(g.attrs["kernels"])
    seconds = g["seconds"][:]
    forecast = g["forecast_seconds"][:] if "forecast_seconds" in g else None
    order = np.argsort(seconds)[::-1][:30]
    fig, ax = new_figure("profile")
    y = np.arange(len(order))
    ax.barh(y - 0.2, seconds[order], height=0.4, color="tab:blue", label="measured")
    if forecast is not None and np.isfinite(forecast[order]).any():
        ax.barh(y + 0.2, np.nan_to_num(forecast[order]), height=0.4, color="tab:orange", label="forecast")
    ax.set_yticks(y, [kernels[i] for i in order], fontsize=7)
    ax.invert_yaxis()
    ax.set_xlabel("time [s]")
    ax.legend(fontsize=8)
    ax.grid(alpha=0.3, axis="x")
    more = f" (the {len(order)} longest of {len(kernels)})" if len(order) < len(kernels) else ""
    ax.set_title(f"{name}: time per kernel or stage{more}", fontsize=10)
    fig.tight_layout()
    records[save(fig, outdir, "profile", fmt, written)] = {"kernels": [kernels[i] for i in order],
                                                            "seconds": seconds[order]}


# ----------------------------------------------------------------------------------- detector runs


def plot_tallies(f, name, outdir, fmt, written, records):
    g = f["tallies"]
    volume, edep = g["volume"][:], g["edep"][:]
    names = texts(g.attrs["volume_names"]) if "volume_names" in g.attrs else [str(v) for v in volume]
    labels = [names[v] if 0 <= v < len(names) else str(v) for v in volume]
    fig, ax = new_figure("detector")
    ax.bar(range(len(edep)), edep, color="tab:blue")
    ax.set_xticks(range(len(edep)), labels, rotation=30 if len(edep) > 6 else 0, ha="right" if len(edep) > 6
                  else "center", fontsize=8)
    ax.set_ylabel("energy deposited [MeV]")
    if edep.max(initial=0) > 0 and edep[edep > 0].min() < 1e-3 * edep.max():
        ax.set_yscale("log")
    for i, e in enumerate(edep):
        ax.annotate(f"{e:.6g} MeV", (i, e), ha="center", va="bottom", fontsize=7)
    ax.grid(alpha=0.3, axis="y")
    det = f.get("detector")
    counts = ""
    if det is not None:
        counts = ", ".join(f"{int(det.attrs[k])} {k}" for k in ("events", "primaries", "hits") if k in det.attrs)
    ax.set_title(f"{name}: energy deposited per volume (all copies)\n{counts}", fontsize=10)
    fig.tight_layout()
    records[save(fig, outdir, "energy_per_volume", fmt, written)] = {"volume": volume, "edep": edep}


def plot_layers(f, name, outdir, fmt, written, records):
    """Energy per copy (replica) of every volume that has hits in more than one copy: the layers."""
    h = f["hits"]
    if h["edep"].shape[0] == 0:
        return
    names = texts(h.attrs["volume_names"]) if "volume_names" in h.attrs else None
    per = {}  # volume -> energy per replica
    for volume, replica, edep in chunks([h[c] for c in ("volume", "replica", "edep")]):
        for v in np.unique(volume):
            sel = volume == v
            add = np.bincount(replica[sel].astype(np.int64), weights=edep[sel])
            old = per.get(int(v), np.zeros(0))
            n = max(len(old), len(add))
            per[int(v)] = np.pad(old, (0, n - len(old))) + np.pad(add, (0, n - len(add)))
    layered = {v: e for v, e in per.items() if len(e) > 1}
    if not layered:
        return
    fig, ax = new_figure("detector")
    for v, e in sorted(layered.items()):
        label = names[v] if names is not None and v < len(names) else f"volume {v}"
        ax.stairs(e, np.arange(len(e) + 1) - 0.5, lw=1.5, label=f"{label}: {e.sum():.5g} MeV in {len(e)} copies")
    ax.set_xlabel("copy number (replica: the layer)")
    ax.set_ylabel("energy deposited in hits [MeV]")
    ax.legend(fontsize=8)
    ax.grid(alpha=0.3)
    ax.set_title(f"{name}: energy per layer (sensitive volumes with several copies)", fontsize=10)
    fig.tight_layout()
    records[save(fig, outdir, "energy_per_layer", fmt, written)] = {
        (names[v] if names is not None and v < len(names) else str(v)): e for v, e in layered.items()}


def plot_hit_maps(f, name, outdir, fmt, written, records, max_points, bins):
    """Energy-weighted 2D histograms of the step midpoints in the three projections, and the shower
    profile: energy along the axis of largest spread and against the distance from it."""
    h = f["hits"]
    n = h["edep"].shape[0]
    if n == 0:
        return
    cols = ["pre_x", "pre_y", "pre_z", "post_x", "post_y", "post_z", "edep"]
    bins = int(np.clip(2 * np.sqrt(n), 50, bins))  # few hits: bigger bins, so that they show
    sample = {a: (strided(h[f"pre_{a}"], max_points) + strided(h[f"post_{a}"], max_points)) / 2 for a in "xyz"}
    frames = {a: frame(sample[a]) for a in "xyz"}
    edges = {a: np.linspace(*frames[a], bins + 1) for a in "xyz"}
    # the shower axis: the coordinate of largest energy-weighted spread (from the sample)
    w = strided(h["edep"], max_points)
    spread = {a: np.sqrt(np.average((sample[a] - np.average(sample[a], weights=w)) ** 2, weights=w))
              if w.sum() > 0 else 0.0 for a in "xyz"}
    axis = max("xyz", key=lambda a: spread[a])
    others = [a for a in "xyz" if a != axis]
    pairs = [(axis, others[0]), (axis, others[1]), (others[0], others[1])]  # the shower axis horizontal
    maps = {p: np.zeros((bins, bins)) for p in pairs}
    centre = {a: float(np.average(sample[a], weights=w)) if w.sum() > 0 else 0.0 for a in others}
    # coarse longitudinal bins: a sampling calorimeter's layers, finer than a bin, would alias into stripes
    long_edges = np.linspace(*frames[axis], min(bins, 40) + 1)
    longitudinal = np.zeros(len(long_edges) - 1)
    r_max = max(1.05 * np.hypot(*(sample[a] - centre[a] for a in others)).max(initial=0), 1e-9)
    r_edges = np.linspace(0, r_max, bins // 2 + 1)
    lateral = np.zeros(bins // 2)
    for block in chunks([h[c] for c in cols]):
        c = dict(zip(cols, block))
        mid = {a: (c[f"pre_{a}"] + c[f"post_{a}"]) / 2 for a in "xyz"}
        for a, b in pairs:
            maps[(a, b)] += histogram2d(mid[a], mid[b], edges[a], edges[b], weights=c["edep"])
        longitudinal += np.histogram(mid[axis], bins=long_edges, weights=c["edep"])[0]
        r = np.hypot(*(mid[a] - centre[a] for a in others))
        lateral += np.histogram(r, bins=r_edges, weights=c["edep"])[0]
    fig, axes = new_figure("hit_map", 1, 3)
    for ax, (a, b) in zip(axes, pairs):
        m = maps[(a, b)]
        positive = m[m > 0]
        mesh = ax.pcolormesh(edges[a] * 1e2, edges[b] * 1e2, m.T, cmap="inferno", rasterized=True,
                             norm=LogNorm(vmin=positive.min(), vmax=positive.max()) if positive.size else None)
        fig.colorbar(mesh, ax=ax, label="energy deposited per bin [MeV]")
        ax.set_xlabel(f"{a} [cm]")
        ax.set_ylabel(f"{b} [cm]")
        ax.set_aspect("auto")
    fig.suptitle(f"{name}: hit map, energy deposited in sensitive volumes ({n} hits, step midpoints; "
                 f"frame: 0.05–99.95 % quantiles)", fontsize=10)
    fig.tight_layout()
    records[save(fig, outdir, "hit_map", fmt, written)] = {"maps": maps, "edges": edges}

    fig, (ax_l, ax_r) = new_figure("detector", 1, 2)
    width = long_edges[1] - long_edges[0]
    ax_l.stairs(longitudinal / (width * 1e2), long_edges * 1e2, color="tab:red", lw=1.5, label="dE/d" + axis)
    ax_l.set_xlabel(f"{axis} [cm] (the axis of largest spread)")
    ax_l.set_ylabel("dE/d" + axis + f" [MeV/cm], in {width * 1e2:.3g} cm bins", color="tab:red")
    ax_l.set_title(f"longitudinal profile along {axis}", fontsize=9)
    ax_l.grid(alpha=0.3)
    contained = ax_l.twinx()
    total = longitudinal.sum()
    contained.plot(long_edges * 1e2, np.concatenate([[0], np.cumsum(longitudinal)]) / (total if total > 0 else 1)
                   * 100, "-", color="black", lw=1.0)
    contained.set_ylabel("energy deposited before this depth [%]")
    contained.set_ylim(0, 105)
    ring = np.pi * (r_edges[1:] ** 2 - r_edges[:-1] ** 2) * 1e4
    ax_r.stairs(lateral / ring, r_edges * 1e2, color="tab:blue", lw=1.5)
    ax_r.set_yscale("log") if (lateral > 0).sum() > 1 else None
    ax_r.set_xlabel(f"r = distance from the shower axis [cm]")
    ax_r.set_ylabel("energy per area [MeV/cm²]")
    ax_r.set_title(f"lateral profile around the {axis} axis at ({others[0]}, {others[1]}) = "
                   f"({centre[others[0]] * 1e2:.3g}, {centre[others[1]] * 1e2:.3g}) cm", fontsize=9)
    ax_r.grid(alpha=0.3)
    fig.suptitle(f"{name}: shower profile, energy deposited in sensitive volumes", fontsize=10)
    fig.tight_layout()
    records[save(fig, outdir, "shower_profile", fmt, written)] = {
        "axis": axis, "longitudinal": longitudinal, "edges": long_edges, "lateral": lateral, "r_edges": r_edges}


def plot_energy_balance(f, name, outdir, fmt, written, records):
    t = table(f["energy_balance"])
    parts = [c for c in ("deposited", "below_cut", "escaped", "lost") if c in t]
    if "primary" not in t or len(t["primary"]) == 0:
        return
    total = {c: float(t[c].sum()) for c in ["primary"] + parts}
    fig, (ax_t, ax_h) = new_figure("balance", 1, 2, gridspec_kw={"width_ratios": [1.2, 1]})
    bottom = 0.0
    colours = {"deposited": "tab:red", "below_cut": "tab:orange", "escaped": "tab:blue", "lost": "tab:grey"}
    for c in parts:
        ax_t.bar(0, total[c], bottom=bottom, color=colours[c], label=f"{c}: {total[c]:.6g} MeV")
        bottom += total[c]
    ax_t.bar(1, total["primary"], color="tab:green", label=f"primary: {total['primary']:.6g} MeV")
    ax_t.set_xticks([0, 1], ["where it went", "primary energy"])
    ax_t.set_xlim(-0.6, 3.2)
    ax_t.set_ylabel("energy, all events [MeV]")
    ax_t.legend(fontsize=7, loc="center right")
    ax_t.set_title(f"sum over {len(t['primary'])} events; unaccounted "
                   f"{total['primary'] - bottom:.3g} MeV", fontsize=9)
    frac = np.divide(t["deposited"] + t.get("below_cut", 0), t["primary"], out=np.zeros_like(t["primary"]),
                     where=t["primary"] > 0)
    ax_h.hist(frac, bins=min(50, max(5, len(frac) // 5)), color="tab:red", alpha=0.8)
    ax_h.set_xlabel("(deposited + below cut) / primary energy, per event [1]")
    ax_h.set_ylabel("events")
    ax_h.yaxis.get_major_locator().set_params(integer=True)
    ax_h.grid(alpha=0.3)
    ax_h.set_title("fraction of each event's energy left in the world", fontsize=9)
    fig.suptitle(f"{name}: energy balance", fontsize=10)
    fig.tight_layout()
    records[save(fig, outdir, "energy_balance", fmt, written)] = {"totals": total, "fraction": frac}


# -------------------------------------------------------------------------------------------- scans


def read_summary(path):
    """A gtrack collect table, .h5 or .csv: (parameters, statistics, complete) where each parameter is
    {values, unit, labels, ticks} (labels/ticks for values that are not numbers) and each statistic
    {values, unit}."""
    return (read_summary_csv if path.endswith(".csv") else read_summary_h5)(path)


def read_summary_h5(path):
    with h5py.File(path, "r") as f:
        if "summary" not in f:
            sys.exit(f"{path}: no /summary table (make one with gtrack collect ... -o {path})")
        return summary_from_group(f["summary"])


def summary_from_group(g):
    columns = texts(g.attrs["columns"])
    data = {c: g[c][:] for c in columns}
    units = {c: unit_of(g[c]) for c in columns}
    params = {}
    for key, col in zip(texts(g.attrs["parameters"]), texts(g.attrs["parameter_columns"])):
        labels = texts(g.attrs[f"labels_{col}"])
        values = data.pop(col)
        unit = units.pop(col)
        if np.issubdtype(values.dtype, np.integer):  # not numbers: indices into the labels
            params[key] = dict(values=values.astype(float), unit="", labels=[labels[i] for i in values],
                               ticks=labels)
        else:
            params[key] = dict(values=values.astype(float), unit=unit, labels=None, ticks=None)
    complete = data.pop("complete").astype(bool)
    data.pop("index")
    stats = {c: dict(values=v.astype(float), unit=units[c]) for c, v in data.items()}
    return params, stats, complete


def split_header(h):
    if h.endswith("]") and " [" in h:
        name, unit = h[:-1].split(" [", 1)
        return name, unit
    return h, ""


def read_summary_csv(path):
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    header, rows = rows[0], rows[1:]
    state = header.index("state")
    first_stat = next(i for i, h in enumerate(header) if split_header(h)[0] == "s")
    complete = np.array([r[state] == "complete" for r in rows])
    params, stats = {}, {}
    for i in range(header.index("file") + 1, first_stat):
        key, unit = split_header(header[i])
        col = [r[i] for r in rows]
        try:
            params[key] = dict(values=np.array(col, dtype=float), unit=unit, labels=None, ticks=None)
        except ValueError:  # not numbers: names, booleans, lists
            ticks = sorted(set(col), key=col.index)
            params[key] = dict(values=np.array([ticks.index(c) for c in col], dtype=float), unit="", labels=col,
                               ticks=ticks)
    for i in range(first_stat, len(header)):
        name, unit = split_header(header[i])
        stats[name] = dict(values=np.array([float(r[i]) if r[i] else np.nan for r in rows]), unit=unit)
    return params, stats, complete


def axis_label(name, unit):
    return f"{name} [{unit}]" if unit and unit != "1" else name


def plot_scan(params, stats, complete, x, y, by, output, logx=False, logy=False, name=None):
    """One statistic against one parameter, one line per combination of the parameters in `by`; points
    missing or broken are left out and counted in the title. Returns {line label: (xs, ys)}."""

    def label(key, i):
        p = params[key]
        if p["labels"] is not None:
            return p["labels"][i]
        return f"{p['values'][i]:g}" + (f" {p['unit']}" if p["unit"] else "")

    groups = {}
    for i in range(len(complete)):
        groups.setdefault(tuple(label(b, i) for b in by), []).append(i)
    px, py = params[x], stats[y]
    fig, ax = new_figure("scan")
    lines = {}
    for key, members in groups.items():
        members = sorted((i for i in members if complete[i]), key=lambda i: px["values"][i])
        if not members:
            continue
        text_ = ", ".join(f"{b} = {v}" for b, v in zip(by, key)) or None
        ax.plot(px["values"][members], py["values"][members], "o-", label=text_)
        lines[text_] = (px["values"][members], py["values"][members])
    if px["ticks"] is not None:
        ax.set_xticks(range(len(px["ticks"])), px["ticks"])
    ax.set_xlabel(axis_label(x, px["unit"]))
    ax.set_ylabel(axis_label(y, py["unit"]))
    if logx:
        ax.set_xscale("log")
    if logy:
        ax.set_yscale("log")
    missing = int((~complete).sum())
    title = (f"{name}: " if name else "") + f"final {y} against {x}"
    if missing:
        title += f"\n({missing} of {len(complete)} points missing or broken, not shown)"
    ax.set_title(title, fontsize=10)
    if len(groups) > 1:
        ax.legend(fontsize=8)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(output, dpi=DPI)
    plt.close(fig)
    return lines


#: The statistics `gtrack plot` draws for a scan (each that the table has), against the first parameter.
SCAN_STATISTICS = ["sigma_x", "sigma_y", "sigma_t", "emittance_xn", "emittance_yn", "mean_x", "mean_y",
                   "alive", "kinetic_energy"]


def plot_summary(summary, name, outdir, fmt, written, records):
    """Each of SCAN_STATISTICS against the first parameter, a line per value of the others."""
    params, stats, complete = summary
    if not params:
        return
    x = next(iter(params))
    by = [k for k in params if k != x]
    for y in SCAN_STATISTICS:
        if y in stats:
            path = os.path.join(outdir, f"scan_{y}.{fmt}")
            records[path] = plot_scan(params, stats, complete, x, y, by, path, name=name)
            written.append(path)


# ------------------------------------------------------------------------------------------- optics


def plot_optics(f, name, outdir, fmt, written, records):
    g = f["optics"]
    o = {k: g[k][:] for k in g if isinstance(g[k], h5py.Dataset)}
    a = g.attrs
    s = o["s"]
    fig, (ax, ax_bar) = new_figure("optics", 2, 1, sharex=True, gridspec_kw={"height_ratios": [4, 0.7]})
    ax.plot(s, o["beta_x"], "-", color="tab:blue", lw=1.5, label="βx")
    ax.plot(s, o["beta_y"], "-", color="tab:red", lw=1.5, label="βy")
    ax.set_ylabel("β [m]")
    ax.grid(alpha=0.3)
    right = ax.twinx()
    lines = ax.get_lines()
    lines += right.plot(s, o["D_x"], "-", color="tab:green", lw=1.3, label="Dx (right axis)")
    used = {"s": s, "beta_x": o["beta_x"], "beta_y": o["beta_y"], "D_x": o["D_x"]}
    if "D_y" in o and np.any(o["D_y"] != 0):
        lines += right.plot(s, o["D_y"], "--", color="tab:olive", lw=1.2, label="Dy (right axis)")
        used["D_y"] = o["D_y"]
    right.set_ylabel("dispersion [m]", color="tab:green")
    ax.legend(lines, [ln.get_label() for ln in lines], fontsize=8, loc="upper right")
    lay = g.get("layout")
    if lay is not None:
        draw_layout(ax_bar, lay["s_start"][:], lay["length"][:], texts(lay["type"][:]),
                    lay["strength"][:] if "strength" in lay else None)
    else:
        ax_bar.set_axis_off()
        ax.set_xlabel("s [m]")

    def attr(k):
        return float(a[k]) if k in a else np.nan

    periodic = bool(int(a.get("periodic", 0)))
    deck = text(a["deck"]) if "deck" in a else ""
    head = f"{name}: {'periodic' if periodic else 'transfer-line'} optics" + (
        f" of {os.path.basename(deck)}" if deck and deck not in name else "")
    tunes = (f"Qx = {attr('tune_x'):.5f}, Qy = {attr('tune_y'):.5f}, ξx = dQx/dδ = {attr('chroma_x'):.4g}, "
             f"ξy = {attr('chroma_y'):.4g}")
    extra = []
    if "momentum_compaction" in a:
        extra.append(f"αc = {attr('momentum_compaction'):.4g}")
    if "synchrotron_tune" in a:
        extra.append(f"Qs = {attr('synchrotron_tune'):.4g}")
    if int(a.get("coupled", 0)):
        extra.append("coupled")
    fig.suptitle(head + "\n" + tunes + (", " + ", ".join(extra) if extra else ""), fontsize=10)
    fig.tight_layout()
    used["title"] = fig._suptitle.get_text()
    records[save(fig, outdir, "optics", fmt, written)] = used

    co = [c for c in ("x_co", "y_co") if c in o]
    if co and any(np.any(o[c] != 0) for c in co):
        fig, ax = new_figure("along_s")
        for c, label in zip(co, ("x", "y")):
            ax.plot(s, o[c] * 1e3, "-", lw=1.4, label=f"closed orbit {label}")
        ax.set_xlabel("s [m]")
        ax.set_ylabel("closed orbit [mm]")
        ax.grid(alpha=0.3)
        ax.legend(fontsize=8)
        ax.set_title(f"{name}: closed orbit", fontsize=10)
        fig.tight_layout()
        records[save(fig, outdir, "closed_orbit", fmt, written)] = {c: o[c] for c in co}


# ---------------------------------------------------------------------------------------------- main


KNOWN = ["stats", "data", "lost", "space_charge", "collective", "profile", "tallies", "hits",
         "energy_balance", "summary", "optics", "strip_quality", "dynamic_aperture", "frequency_map",
         "momentum_aperture"]


def plot_strip_quality(f, name, outdir, fmt, written, records):
    """[strips] runs: efficiency, ghost rate, residuals and pulls per station (/strip_quality), and the
    reconstructed hits in the sensors' frame (true hits and ghosts)."""
    q = table(f["strip_quality"])
    if "efficiency" not in q or len(q["efficiency"]) == 0:
        return
    g = f["strip_quality"]
    n = len(q["efficiency"])
    labels = texts(g.attrs["station_names"]) if "station_names" in g.attrs else [str(i) for i in range(n)]
    labels = labels[:n] + [str(i) for i in range(len(labels), n)]
    x = np.arange(n)
    fig, axes = new_figure("detector", 2, 2, sharex=True)
    (a_eff, a_ghost), (a_res, a_pull) = axes
    a_eff.plot(x, 100 * q["efficiency"], "o-", color="tab:green")
    a_eff.set_ylabel("efficiency [%]")
    a_ghost.plot(x, 100 * q["ghost_rate"], "o-", color="tab:red")
    a_ghost.set_ylabel("ghost rate [%]")
    a_res.plot(x, 1e6 * q["residual_u"], "o-", label="u (across the front strips)")
    a_res.plot(x, 1e6 * q["residual_v"], "s-", label="v (along the strips)")
    a_res.set_yscale("log")
    a_res.set_ylabel("rms residual [µm]")
    a_res.legend(fontsize=7)
    a_pull.plot(x, q["pull_u"], "o-", label="u")
    a_pull.plot(x, q["pull_v"], "s-", label="v")
    a_pull.axhline(1.0, color="grey", lw=0.8, ls="--")
    a_pull.set_ylabel("rms pull")
    a_pull.legend(fontsize=7)
    for ax in (a_res, a_pull):
        ax.set_xticks(x, labels, rotation=30 if n > 4 else 0, fontsize=8)
        ax.set_xlabel("station")
    for ax in axes.flat:
        ax.grid(alpha=0.3)
    points = int(q["points"].sum()) if "points" in q else 0
    hits = int(q["reco_hits"].sum()) if "reco_hits" in q else 0
    fig.suptitle(f"{name}: strip reconstruction per station\n{points} true crossings, {hits} reconstructed hits",
                 fontsize=10)
    fig.tight_layout()
    records[save(fig, outdir, "strip_quality", fmt, written)] = {k: q[k] for k in (
        "efficiency", "ghost_rate", "residual_u", "residual_v", "pull_u", "pull_v")}
    if "reco_hits" not in f:
        return
    h = table(f["reco_hits"], {"x", "y", "true"})
    if "x" not in h or len(h["x"]) == 0:
        return
    fig, ax = new_figure("detector")
    good = h["true"] != 0 if "true" in h else np.ones(len(h["x"]), bool)
    ax.scatter(1e3 * h["x"][good], 1e3 * h["y"][good], s=2, color="tab:blue", label=f"true hits ({good.sum()})")
    ax.scatter(1e3 * h["x"][~good], 1e3 * h["y"][~good], s=2, color="tab:red", label=f"ghosts ({(~good).sum()})")
    ax.set_xlabel("x [mm]")
    ax.set_ylabel("y [mm]")
    ax.set_aspect("equal", adjustable="datalim")
    ax.legend(fontsize=8, markerscale=4)
    ax.grid(alpha=0.3)
    ax.set_title(f"{name}: reconstructed strip hits, all stations", fontsize=10)
    fig.tight_layout()
    records[save(fig, outdir, "strip_hits", fmt, written)] = {"x": h["x"], "y": h["y"], "true": good}


def plot_file(path, outdir, fmt="png", max_points=20000, bins=200):
    """Every picture the file's groups allow. Returns (files written, {file: the arrays it drew})."""
    written, records = [], {}
    with h5py.File(path, "r") as f:
        present = [g for g in KNOWN if g in f]
        if not present:
            groups = ", ".join(f"/{k}" for k in f) or "none"
            raise SystemExit(f"gtrack plot: {path} holds nothing gtrack plot can draw: its groups are {groups}; "
                             f"it draws /stats, /data, /lost, /space_charge, /collective, /profile (beamline "
                             f"runs), /tallies, /hits, /energy_balance, /strip_quality (detector runs), /summary (gtrack "
                             f"collect), /optics (gtrack optics), /dynamic_aperture, /frequency_map and /momentum_aperture (studies)")
        os.makedirs(outdir, exist_ok=True)
        name = title_of(f, path)
        if "optics" in f:
            plot_optics(f, name, outdir, fmt, written, records)
        if "summary" in f:
            plot_summary(summary_from_group(f["summary"]), name, outdir, fmt, written, records)
        if "stats" in f:
            plot_along_s(f, name, outdir, fmt, written, records)
        if "data" in f:
            plot_snapshots(f, name, outdir, fmt, written, records, max_points, bins)
        if "lost" in f:
            plot_losses(f, name, outdir, fmt, written, records, max_points)
        for group in ("space_charge", "collective"):
            if group in f:
                plot_diagnostics(f, group, name, outdir, fmt, written, records)
        if "tallies" in f:
            plot_tallies(f, name, outdir, fmt, written, records)
        if "hits" in f:
            plot_layers(f, name, outdir, fmt, written, records)
            plot_hit_maps(f, name, outdir, fmt, written, records, max_points, bins)
        if "energy_balance" in f:
            plot_energy_balance(f, name, outdir, fmt, written, records)
        if "profile" in f:
            plot_profile(f, name, outdir, fmt, written, records)
        if "strip_quality" in f:
            plot_strip_quality(f, name, outdir, fmt, written, records)
        if "dynamic_aperture" in f or "frequency_map" in f:  # ring studies (gtrack_plot_study.py, beside this)
            import gtrack_plot_study as study
            if "dynamic_aperture" in f:
                study.plot_dynamic_aperture(f, name, outdir, fmt, written, records, new_figure, save)
            if "frequency_map" in f:
                study.plot_frequency_map(f, name, outdir, fmt, written, records, new_figure, save)
        if "momentum_aperture" in f:
            import gtrack_plot_study as study
            study.plot_momentum_aperture(f, name, outdir, fmt, written, records, new_figure, save, draw_layout,
                                         file_lattice)
    return written, records


def flatten(tree, prefix=""):
    """{picture: {quantity: array | (arrays) | {..}}} as one flat {"picture|quantity|...": array}."""
    out = {}
    items = tree.items() if isinstance(tree, dict) else enumerate(tree)
    for k, v in items:
        key = prefix + ("|" if prefix else "") + (",".join(map(str, k)) if isinstance(k, tuple) else str(k))
        if isinstance(v, (dict, tuple, list)) and not (isinstance(v, list) and v and isinstance(v[0], str)):
            out.update(flatten(v, key))
        else:
            out[key] = np.asarray(v)
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(prog="gtrack plot", description=__doc__.splitlines()[0])
    ap.add_argument("file", help="a gtrack output file: a run's, a gtrack collect summary, a gtrack optics file")
    ap.add_argument("-o", "--output", help="folder for the pictures (default: <file name without .h5>_plots "
                                           "in the current directory)")
    ap.add_argument("--format", default="png", choices=["png", "pdf", "svg"], help="image format (default png)")
    ap.add_argument("--max-points", type=int, default=20000,
                    help="snapshots with more particles are drawn as 2D histograms of all of them, and "
                         "big tables are sampled to this many points for scatter plots (default 20000)")
    ap.add_argument("--bins", type=int, default=200, help="bins per axis of the 2D histograms (default 200)")
    args = ap.parse_args(argv)
    if not os.path.isfile(args.file):
        sys.exit(f"gtrack plot: {args.file}: no such file")
    outdir = args.output or os.path.splitext(os.path.basename(args.file))[0] + "_plots"
    if args.file.endswith(".csv"):  # the summary of gtrack collect --csv
        written, records = [], {}
        os.makedirs(outdir, exist_ok=True)
        plot_summary(read_summary_csv(args.file), os.path.basename(args.file), outdir, args.format, written,
                     records)
    else:
        try:
            h5py.File(args.file, "r").close()
        except OSError as e:
            sys.exit(f"gtrack plot: {args.file}: not an HDF5 file gtrack can read ({e})")
        written, records = plot_file(args.file, outdir, args.format, args.max_points, args.bins)
    for p in written:
        print(p)
    if os.environ.get("GTRACK_PLOT_RECORD"):  # tests: the arrays each picture drew, to compare with the file
        np.savez(os.environ["GTRACK_PLOT_RECORD"], **flatten({os.path.basename(k): v for k, v in records.items()}))
    if not written:
        sys.exit(f"gtrack plot: {args.file}: its groups are there but empty (no rows): nothing drawn")


if __name__ == "__main__":
    main()
