#!/usr/bin/env python3
"""Fits gtrack's photoelectric parameterization for every element Z = 1-98 and writes
src/detector/PhotoelectricFits.cc.

Model (the form of the Sandia tables: Biggs & Lighthill, Sandia report SC-RR-710507 (1971), as used
by Geant4's G4SandiaTable): between two absorption edges of an element the photoelectric cross
section is sigma(E) = a1/E + a2/E^2 + a3/E^3 + a4/E^4. The coefficients are a least-squares fit, in
relative error, to the data points of each interval between edges from 1 keV to 100 GeV; an interval
whose fit misses a point by more than 2% is split in two. With fewer than four points an interval
takes as many terms as it has points (exact interpolation).

Data:
- the ten elements of scripts/em/xcom_data.py (H, C, N, O, Al, Si, Ar, Fe, Cu, Pb): NIST XCOM's
  photoelectric column, 1 keV - 100 GeV, as before;
- every other element: xraylib (PyPI `xraylib`, Schoonjans et al., Spectrochim. Acta B 66 (2011)
  776; version 4.3.0, BSD-3-Clause; its data are used, not its code) CS_Photo and EdgeEnergy from 1 keV to 800 keV (xraylib's upper limit; its
  photoelectric data are XCOM's Scofield cross sections: equal to XCOM's column within 1e-4 for
  the ten elements above at 10, 100 and 800 keV, checked by `--check`). Above 800 keV xraylib's
  value at 800 keV is continued with XCOM's energy dependence sigma(E)/sigma(800 keV), interpolated
  linearly in Z between the two nearest of O, Al, Si, Ar, Fe, Cu, Pb (continued linearly in Z
  beyond Pb; O's for Z < 8). That ratio varies slowly with Z (at 5 MeV 0.052 for O, 0.048 for Cu,
  0.044 for Pb), and above 800 keV the photoelectric effect is a small part of the attenuation
  (at most 25%, for the heaviest elements at 1 MeV), so the interpolation costs < 1% of the total.
xraylib has no photoelectric data beyond Cf (Z = 98), and neither has Geant4's NIST element table:
Es and Fm (Z = 99, 100) are not fitted.

Usage: pip install xraylib==4.3.0; scripts/em/fit_photoelectric.py > src/detector/PhotoelectricFits.cc
       scripts/em/fit_photoelectric.py --check   (xraylib against XCOM for the ten elements)
"""
import sys

import numpy as np

import xcom_data as xcom

TOLERANCE = 0.02


def fit(energies, sigma):
    n = min(4, len(energies))
    e = np.array(energies)
    s = np.array(sigma)
    e0 = e[0]  # basis (e0/E)^k keeps the least-squares matrix well conditioned
    rows = np.array([[(e0 / ek) ** k for k in range(1, n + 1)] for ek in e]) / s[:, None]
    coef, *_ = np.linalg.lstsq(rows, np.ones(len(e)), rcond=None)
    a = [coef[k - 1] * e0**k for k in range(1, n + 1)] + [0.0] * (4 - n)
    model = sum(a[k - 1] / e**k for k in range(1, 5))
    return a, float(np.max(np.abs(model / s - 1)))


AVOGADRO_BARN = 0.602214076  # N_A x 1e-24: (barn/atom) = (cm^2/g) x A / AVOGADRO_BARN
XRAYLIB_MAX = 0.8  # [MeV] xraylib's last tabulated energy
SYMBOLS = [None] + """H He Li Be B C N O F Ne Na Mg Al Si P S Cl Ar K Ca Sc Ti V Cr Mn Fe Co Ni Cu Zn Ga Ge
As Se Br Kr Rb Sr Y Zr Nb Mo Tc Ru Rh Pd Ag Cd In Sn Sb Te I Xe Cs Ba La Ce Pr Nd Pm Sm Eu Gd Tb Dy Ho Er
Tm Yb Lu Hf Ta W Re Os Ir Pt Au Hg Tl Pb Bi Po At Rn Fr Ra Ac Th Pa U Np Pu Am Cm Bk Cf""".split()
SHAPE_ELEMENTS = ["O", "Al", "Si", "Ar", "Fe", "Cu", "Pb"]  # XCOM's high-energy shape, by Z


def xcom_segments(symbol):
    """[(energies [MeV], sigma [barn])] per interval between edges, from XCOM."""
    e, cols = xcom.columns(symbol)
    photo = cols["photo"]
    # an edge appears twice in the energy list; an interval starts at the point just above it
    starts = [0] + [i for i in range(1, len(e)) if e[i] == e[i - 1]]
    ends = starts[1:] + [len(e)]
    return [(e[s:t], photo[s:t]) for s, t in zip(starts, ends)]


def xcom_value(symbol, energy):
    e, cols = xcom.columns(symbol)
    return cols["photo"][max(i for i in range(len(e)) if abs(e[i] / energy - 1) < 1e-9)]


def high_energy_ratio(z, energy):
    """XCOM's sigma(E) / sigma(800 keV) at Z, interpolated linearly in Z (see the docstring)."""
    pts = [(xcom.ELEMENTS[s]["z"], xcom_value(s, energy) / xcom_value(s, XRAYLIB_MAX)) for s in SHAPE_ELEMENTS]
    if z <= pts[0][0]:
        return pts[0][1]
    for (z0, r0), (z1, r1) in zip(pts, pts[1:]):
        if z <= z1 or (z1, r1) == pts[-1]:
            return r0 + (r1 - r0) * (z - z0) / (z1 - z0)


def xraylib_edges(z):
    """The element's absorption edges from 1 keV to 800 keV [MeV], ascending."""
    import xraylib

    out = []
    for shell in range(xraylib.K_SHELL, xraylib.N7_SHELL + 1):
        try:
            e = xraylib.EdgeEnergy(z, shell) * 1.0e-3
        except ValueError:
            continue
        if 1.0e-3 < e < XRAYLIB_MAX:
            out.append(e)
    return sorted(set(out))


def xraylib_segments(z):
    """[(energies [MeV], sigma [barn])] per interval between edges, xraylib continued above 800 keV."""
    import xraylib

    a = xraylib.AtomicWeight(z)

    def sigma(e):
        return xraylib.CS_Photo(z, e * 1.0e3) * a / AVOGADRO_BARN

    grid = [v * 1.0e-6 for v in xcom._values(xcom.GRID)]
    edges = xraylib_edges(z)
    bounds = [1.0e-3] + edges + [grid[-1]]
    out = []
    for j in range(len(bounds) - 1):
        lo, hi = bounds[j], bounds[j + 1]
        # the XCOM grid points inside, and below 800 keV at least 12 points and 40 per decade, evenly in
        # ln E, so that the fit is checked between the points it would otherwise interpolate
        pts = {lo, hi} | {g for g in grid if lo < g < hi}
        if lo < XRAYLIB_MAX:
            top = min(hi, XRAYLIB_MAX)
            n = max(12, int(40 * np.log10(top / lo)))
            pts |= {lo * (top / lo) ** (k / n) for k in range(1, n)}
        # (no point within 1e-3 of an edge but the edge itself: xraylib's jump is not sharp)
        pts = sorted(p for p in pts if p in (lo, hi) or (p > lo * 1.001 and p < hi * 0.999))
        e_list, s_list = [], []
        for k, e in enumerate(pts):
            # at an edge: just above it at an interval's start, just below at its end; 3e-4 away from it,
            # since xraylib's interpolation moves the jump by up to 1e-4 of the edge energy
            ee = e
            if k == 0 and j > 0:
                ee = e * (1 + 3e-4)
            elif k == len(pts) - 1 and j + 2 < len(bounds):
                ee = e * (1 - 3e-4)
            if ee <= XRAYLIB_MAX:
                s = sigma(ee)
            else:
                s = sigma(XRAYLIB_MAX) * high_energy_ratio(z, e)
            e_list.append(e)
            s_list.append(s)
        out.append((e_list, s_list))
    return out


def intervals(z):
    symbol = SYMBOLS[z]
    segs = xcom_segments(symbol) if symbol in xcom.ELEMENTS else xraylib_segments(z)
    # XCOM's grid is coarse: a piece may shrink to four points (then the fit interpolates them). The
    # dense xraylib points allow pieces of at least six, which keeps the fit smooth between its points.
    min_split = 4 if symbol in xcom.ELEMENTS else 11
    out = []
    for E, S in segs:
        todo = [(0, len(E))]
        while todo:
            lo, hi = todo.pop()
            a, err = fit(E[lo:hi], S[lo:hi])
            if err > TOLERANCE and hi - lo > min_split:
                mid = (lo + hi) // 2
                todo += [(mid, hi), (lo, mid + 1)]
            else:
                out.append((E[lo], a, err))
    return sorted(out)


def edges_of(z):
    symbol = SYMBOLS[z]
    if symbol in xcom.ELEMENTS:
        return [x * 1.0e-6 for x in xcom.ELEMENTS[symbol]["edges"]]
    return xraylib_edges(z)


def edge_below(z, energy):
    """The element's highest absorption edge at or below energy [MeV] (0 if none)."""
    edges = [x for x in edges_of(z) if x <= energy * (1 + 1e-9)]
    return max(edges) if edges else 0.0


def check():
    """xraylib's CS_Photo against XCOM's photoelectric column for the ten XCOM elements."""
    import xraylib

    worst = 0.0
    for symbol, d in xcom.ELEMENTS.items():
        for e in (0.01, 0.1, XRAYLIB_MAX):
            x = xraylib.CS_Photo(d["z"], e * 1.0e3) * xraylib.AtomicWeight(d["z"]) / AVOGADRO_BARN
            r = x / xcom_value(symbol, e) - 1
            worst = max(worst, abs(r))
            print(f"{symbol:2s} {e * 1e3:6.0f} keV  xraylib/XCOM - 1 = {r:+.2e}")
    print(f"largest difference {worst:.2e}")


def main():
    if "--check" in sys.argv:
        check()
        return
    w = sys.stdout.write
    w("// Generated by scripts/em/fit_photoelectric.py from NIST XCOM (scripts/em/xcom_data.py: H, C, N, O,\n")
    w("// Al, Si, Ar, Fe, Cu, Pb) and xraylib 4.3.0 (every other element, continued above 800 keV with XCOM's\n")
    w("// energy dependence; see the script); do not edit.\n")
    w("// Per element: {lowest energy of the interval [MeV], the highest absorption edge at or below it [MeV],\n")
    w("// {a1, a2, a3, a4} [barn MeV^k]}, with\n")
    w("// sigma(E) = sum_k a_k / E^k [barn/atom]; the fit's largest relative error at the data points is\n")
    w("// given for each element.\n")
    w("// clang-format off\n")
    w('#include "detector/PhotoelectricFits.hh"\n\nnamespace gt {\n\nnamespace {\n\n')
    names = []
    for z in range(1, len(SYMBOLS)):
        symbol = SYMBOLS[z]
        iv = intervals(z)
        worst = max(p[2] for p in iv)
        name = f"k_{symbol.lower()}"
        names.append((z, name))
        source = "XCOM" if symbol in xcom.ELEMENTS else "xraylib"
        w(f"// Z = {z} ({symbol}, {source}): {len(iv)} intervals, largest fit error {100 * worst:.2f}%\n")
        w(f"constexpr PhotoelectricInterval {name}[] = {{\n")
        for e_low, a, _ in iv:
            edge = edge_below(z, e_low)
            w(f"    {{{e_low:.7g}, {edge:.7g}, {{{', '.join(f'{v:.9e}' for v in a)}}}}},\n")
        w("};\n\n")
    w("}  // namespace\n\n")
    w("std::span<PhotoelectricInterval const> photoelectric_fit(int z)\n{\n    switch (z) {\n")
    for z, name in names:
        w(f"        case {z}: return {name};\n")
    w("        default: return {};\n    }\n}\n\n")
    w("std::vector<int> photoelectric_fit_elements()\n{\n    return {")
    w(", ".join(str(z) for z, _ in names))
    w("};\n}\n\n}  // namespace gt\n")


if __name__ == "__main__":
    main()
