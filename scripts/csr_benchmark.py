#!/usr/bin/env python3
"""CSR entrance transient and drift wake: gtrack against OCELOT and an independent calculation (issue 30).

Four calculations of the 1D CSR model (a line bunch on the reference trajectory, no shielding) for the
cases of issue 30, and a four-bend chicane that compresses a chirped bunch:

  analytic  the ultrarelativistic closed forms that gtrack implements (Saldin, Schneidmiller & Yurkov,
            NIM A 398 (1997) 373, entrance transient; Stupakov & Emma, SLAC-PUB-9242 (2002), drift wake),
            integrated here over the Gaussian bunch and along s (mean energy change only);
  LW        this script's own evaluation of the model from first principles: the Lienard-Wiechert
            field (velocity and acceleration parts) of every source point of the trajectory, at the
            beam's gamma (and at gamma = 2e4, the ultrarelativistic limit), minus the field of the same
            bunch on a straight line (space charge, not CSR); mean and rms energy change of a frozen
            Gaussian bunch. It shares no code with gtrack or OCELOT;
  OCELOT    ocelot-collab's CSR process (the same 1D model, numerically along the trajectory), tracked;
  gtrack    the gtrack binary on generated decks.

    scripts/csr_benchmark.py [--gtrack build/gtrack] [--full] [--no-ocelot] [--json out.json]

The default run takes about 1.5 min of CPU on one core. --full adds the convergence studies of both codes
(OCELOT: lead-in straight, traj_step, apply_step, n_bin, sigma_min, Navigator step; gtrack: bins,
slices, smoothing), about 20 min in all. docs/physics.md section 9.5b has the results and the conclusion.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

import numpy as np

E_CHARGE = 1.602176634e-19
EPS0 = 8.8541878128e-12
ME_MEV = 0.51099895000
K_COUL = 1.0 / (4.0 * np.pi * EPS0)
LD = np.longdouble  # the retardation and the velocity-field subtraction need the extended mantissa

# ----------------------------------------------------------------------------------------------------
# The cases: (name, kinetic energy [MeV], charge [C], sigma_z [m], bend length [m], angle [rad], drift [m])
CASES = [
    ("short bend + 3 m drift", 150.0, 250e-12, 1e-3, 0.5, np.deg2rad(5.0), 3.0),
    ("short bend + 0.01 m drift", 150.0, 250e-12, 1e-3, 0.5, np.deg2rad(5.0), 0.01),
    ("1 GeV, R 10 m, 2 m bend", 1000.0, 1e-9, 100e-6, 2.0, 0.2, 0.0),
]

GL_X, GL_W = np.polynomial.legendre.leggauss(8)
GL_X, GL_W = (GL_X + 1) / 2, GL_W / 2


def gauss_nodes(edges):
    """8-point Gauss-Legendre nodes and weights on the intervals between `edges`."""
    a, b = np.asarray(edges[:-1], float), np.asarray(edges[1:], float)
    x = (a[:, None] + (b - a)[:, None] * GL_X[None, :]).ravel()
    w = ((b - a)[:, None] * GL_W[None, :]).ravel()
    return x, w


def autocorrelation(d, sigma):
    """int g(z) g(z - d) dz for the unit Gaussian g of rms sigma."""
    return np.exp(-d * d / (4 * sigma * sigma)) / (2 * np.sqrt(np.pi) * sigma)


# ----------------------------------------------------------------------------------------------------
# Analytic: the ultrarelativistic wakes W(z) = A [lam(z - near) - lam(z - far)] + int_0^near k(u) lam'(z - u) du,
# dE/ds = -(q/4 pi eps0) W; mean over the Gaussian M = A [Ag(near) - Ag(far)] + int_0^near k(u) u/(2 s^2) Ag(u) du.

def lower_gamma(s, x):
    """The lower incomplete gamma function by its series (x <= 40)."""
    if x > 40:
        from math import gamma
        return gamma(s)
    term = 1.0 / s
    total = term
    k = 1
    while term > 1e-17 * total and k < 2000:
        term *= x / (s + k)
        total += term
        k += 1
    return x ** s * np.exp(-x) * total


def ur_entrance_mean(radius, phi, sigma):
    """Saldin et al. 1997 (ultrarelativistic transient at angle phi from the entrance): M [1/m^2]."""
    from math import gamma
    near = radius * phi ** 3 / 24
    c = 2 / np.cbrt(3 * radius * radius)
    integral = c * np.cbrt(4 * sigma * sigma) * lower_gamma(5 / 6, near ** 2 / (4 * sigma * sigma)) * 1.0
    integral /= 4 * np.sqrt(np.pi) * sigma * sigma
    return 4 / (radius * phi) * (autocorrelation(near, sigma) - autocorrelation(4 * near, sigma)) + integral


def drift_psi(u, radius, big_x):
    """Positive root of R psi^3 (psi + 4X) = 24 u (psi + X), by bisection."""
    lo = np.zeros_like(u)
    hi = np.cbrt(24 * u / radius) + 1e-300
    for _ in range(120):
        mid = (lo + hi) / 2
        below = radius * mid ** 3 * (mid + 4 * big_x) < 24 * u * (mid + big_x)
        lo = np.where(below, mid, lo)
        hi = np.where(below, hi, mid)
    return (lo + hi) / 2


def ur_drift_mean(radius, phi_m, x, sigma):
    """Stupakov & Emma 2002, at x after the exit of a bend of angle phi_m: M [1/m^2]."""
    big_x = x / radius
    near = radius * phi_m ** 3 / 24 * (phi_m + 4 * big_x) / (phi_m + big_x)
    far = radius / 6 * phi_m ** 2 * (phi_m + 3 * big_x)
    u, w = gauss_nodes(np.linspace(0, min(near, 40 * sigma), 201))
    k = 4 / radius / (drift_psi(u, radius, big_x) + 2 * big_x)
    edge = 4 / (radius * (phi_m + 2 * big_x)) * (autocorrelation(near, sigma) - autocorrelation(far, sigma))
    return edge + np.sum(w * k * u / (2 * sigma * sigma) * autocorrelation(u, sigma))


def path_nodes(bend, drift):
    """Quadrature nodes in s over the bend and the drift (the drift's wake varies on the scale x)."""
    s, w = gauss_nodes(np.linspace(0, bend, 4))
    if drift > 0:
        sd, wd = gauss_nodes(np.concatenate([[0], np.geomspace(min(1e-4, drift / 10), drift, 12)]))
        s, w = np.concatenate([s, bend + sd]), np.concatenate([w, wd])
    return s, w


def analytic_mean(case):
    """Mean energy change [eV] per particle of the whole case from the closed forms."""
    _, _, charge, sigma, bend, angle, drift = case
    radius = bend / angle
    s, w = path_nodes(bend, drift)
    m = [ur_entrance_mean(radius, si / radius, sigma) if si <= bend else ur_drift_mean(radius, angle, si - bend, sigma)
         for si in s]
    return -K_COUL * charge * np.sum(w * np.array(m))  # [J] per unit charge e -> [eV]


# ----------------------------------------------------------------------------------------------------
# LW: the 1D model from the Lienard-Wiechert fields. Trajectory: a straight line (s < 0), an arc of radius
# R over [0, L], a straight line after. A source at bunch distance u behind the test particle, seen at the
# test's path position s_t, emitted at the path position s' = s_t - D with u = D - beta |r(s_t) - r(s')|.
# The energy change per unit path of the test charge q from a line density lam [C/m]:
#   dE/ds (z) = (q / 4 pi eps0) int_0^inf dD F(D) lam(z - u(D)),
#   F = [E_LW(u) . t_test - 1/(gamma u)^2] |du/dD|,  |du/dD| = 1 - n . beta',
# E_LW in units of the source charge / 4 pi eps0 (velocity and acceleration fields), 1/(gamma u)^2 the same
# bunch on a straight line (longitudinal space charge, which is not CSR).

class ArcTrajectory:
    def __init__(self, radius, length):
        self.radius, self.length = LD(radius), LD(length)

    def geometry(self, s):
        s = np.asarray(s, dtype=LD)
        r = self.radius
        a = np.clip(s, 0, self.length) / r
        x = np.where(s < 0, s, r * np.sin(a))
        y = np.where(s < 0, 0, 2 * r * np.sin(a / 2) ** 2)
        tx, ty = np.cos(a), np.sin(a)
        after = s > self.length
        x = np.where(after, x + (s - self.length) * tx, x)
        y = np.where(after, y + (s - self.length) * ty, y)
        inside = (s >= 0) & (s <= self.length)
        return x, y, tx, ty, np.where(inside, -np.sin(a) / r, 0), np.where(inside, np.cos(a) / r, 0)


def clustered_nodes(a, b, per_decade=24):
    """Gauss nodes on [a, b] clustered geometrically towards both ends; b = inf: out to a + 1e5 m."""
    if np.isinf(b):
        edges = np.concatenate([[a], a + np.geomspace(1e-9, 1e5, 14 * per_decade + 1)])
    else:
        q = np.geomspace(1e-9, 0.5, 9 * per_decade + 1)
        edges = a + (b - a) * np.unique(np.concatenate([[0.0], q, 1 - q[::-1], [1.0]]))
    return gauss_nodes(edges)


def lw_kernel(traj, s_t, gamma, dmin_fraction=1e-4):
    """u [m] and weights w F [1/m] of the sources seen at s_t (see above)."""
    gamma = LD(gamma)
    g2i = 1 / gamma ** 2
    beta = np.sqrt(1 - g2i)
    s_t = LD(s_t)
    if s_t <= 0:
        return np.zeros(0), np.zeros(0)
    pieces = []
    # D between the test and the exit: both in the straight after the bend, F = 0 exactly (not sampled).
    if s_t > traj.length:
        pieces.append(clustered_nodes(float(s_t - traj.length), float(s_t)))
    else:
        pieces.append(clustered_nodes(0.0, float(s_t)))
    pieces.append(clustered_nodes(float(s_t), np.inf))
    d = np.concatenate([p[0] for p in pieces]).astype(LD)
    w = np.concatenate([p[1] for p in pieces]).astype(LD)
    # Below dmin (a 1e-4 of the distance 2R/gamma over which a source's field differs from the straight
    # line's) F is flat: one node there, F(dmin) dmin, instead of the catastrophic cancellation.
    dmin = LD(dmin_fraction * 2 * float(traj.radius) / float(gamma))
    keep = d > dmin
    d, w = d[keep], w[keep]
    xt, yt, txt, tyt, _, _ = traj.geometry(np.array([s_t]))
    xs, ys, tx, ty, kx, ky = traj.geometry(s_t - d)
    dx, dy = xt[0] - xs, yt[0] - ys
    dist = np.sqrt(dx * dx + dy * dy)
    nx, ny = dx / dist, dy / dist
    one_minus_nt = ((nx - tx) ** 2 + (ny - ty) ** 2) / 2
    one_minus_nb = (1 - beta) + beta * one_minus_nt
    # u = (D - dist) + (1 - beta) dist; D - dist by its series where both ends are on the arc
    on_arc = (s_t - d >= 0) & (s_t <= traj.length)
    h = d / (2 * traj.radius)
    series = 2 * traj.radius * (h ** 3 / 6 - h ** 5 / 120 + h ** 7 / 5040 - h ** 9 / 362880)
    u = np.where(on_arc & (h < 1e-2), series, d - dist) + (1 - beta) * dist
    n_minus_beta_t = (nx - beta * tx) * txt[0] + (ny - beta * ty) * tyt[0]
    ax, ay = beta ** 2 * kx, beta ** 2 * ky  # (d beta'/dt) / c
    velocity = n_minus_beta_t / (gamma ** 2 * one_minus_nb ** 3 * dist ** 2)
    acceleration = (n_minus_beta_t * (nx * ax + ny * ay) - (ax * txt[0] + ay * tyt[0]) * one_minus_nb) / (
        one_minus_nb ** 3 * dist)
    f = (velocity + acceleration - g2i / u ** 2) * one_minus_nb
    i0 = np.argmin(d)
    u = np.concatenate([[u[i0] / 2], u])
    wf = np.concatenate([[f[i0] * dmin], w * f])
    return u.astype(float), wf.astype(float)


def lw_case(case, gamma=None, nz=121):
    """Mean and rms energy change [eV] of a frozen Gaussian bunch over the case, from the LW kernel."""
    _, kinetic, charge, sigma, bend, angle, drift = case
    gamma = gamma or 1 + kinetic / ME_MEV
    traj = ArcTrajectory(bend / angle, bend)
    z = np.linspace(-6 * sigma, 6 * sigma, nz)
    weight = np.exp(-0.5 * (z / sigma) ** 2)
    weight /= weight.sum()
    lam = lambda v: np.exp(-0.5 * (v / sigma) ** 2) / (np.sqrt(2 * np.pi) * sigma)
    total = np.zeros(nz)
    s, w = path_nodes(bend, drift)
    for si, wi in zip(s, w):
        u, wf = lw_kernel(traj, si, gamma)
        total += wi * np.array([np.sum(wf * lam(zi - u)) for zi in z])
    de = K_COUL * charge * total  # [eV]: (e/4 pi eps0) Q W / e
    mean = np.sum(weight * de)
    return mean, np.sqrt(np.sum(weight * (de - mean) ** 2))


class PiecewiseTrajectory:
    """A straight line (s < 0) and then segments (length [m], curvature [1/m], signed), in a plane."""

    def __init__(self, segments):
        self.lengths = np.array([float(l) for l, _ in segments])
        self.curv = np.array([float(k) for _, k in segments])
        self.starts = np.concatenate([[0.0], np.cumsum(self.lengths)])
        self.x0, self.y0, self.a0 = [LD(0)], [LD(0)], [LD(0)]
        for l, k in zip(self.lengths, self.curv):
            x, y, a = self.x0[-1], self.y0[-1], self.a0[-1]
            l, k = LD(l), LD(k)
            if k == 0:
                self.x0.append(x + l * np.cos(a)); self.y0.append(y + l * np.sin(a)); self.a0.append(a)
            else:
                b = a + k * l
                self.x0.append(x + (np.sin(b) - np.sin(a)) / k)
                self.y0.append(y - (np.cos(b) - np.cos(a)) / k)
                self.a0.append(b)
        self.x0, self.y0, self.a0 = (np.array(v, dtype=LD) for v in (self.x0, self.y0, self.a0))

    def segment(self, s):
        return np.clip(np.searchsorted(self.starts, np.asarray(s, float), side="right") - 1, 0, len(self.lengths) - 1)

    def geometry(self, s):
        s = np.asarray(s, dtype=LD)
        j = self.segment(s)
        k = np.where(s < 0, 0, self.curv[j]).astype(LD)
        d = np.where(s < 0, s, s - self.starts[j].astype(LD))
        a0 = np.where(s < 0, 0, self.a0[j])
        x0 = np.where(s < 0, 0, self.x0[j])
        y0 = np.where(s < 0, 0, self.y0[j])
        a = a0 + k * d
        safe_k = np.where(k == 0, 1, k)
        x = np.where(k == 0, x0 + d * np.cos(a0), x0 + (np.sin(a) - np.sin(a0)) / safe_k)
        y = np.where(k == 0, y0 + d * np.sin(a0), y0 - (np.cos(a) - np.cos(a0)) / safe_k)
        return x, y, np.cos(a), np.sin(a), -np.sin(a) * k, np.cos(a) * k


def lw_kernel_piecewise(traj, s_t, gamma, dmin_fraction=1e-4):
    """lw_kernel for a PiecewiseTrajectory (sources in the test's own straight segment: F = 0)."""
    gamma = LD(gamma)
    g2i = 1 / gamma ** 2
    beta = np.sqrt(1 - g2i)
    jt = int(traj.segment(s_t))
    pieces = []
    for j in range(jt + 1):
        lo, hi = s_t - min(traj.starts[j + 1], s_t), s_t - traj.starts[j]
        if j == jt and traj.curv[j] == 0:
            continue
        if hi > lo:
            pieces.append(clustered_nodes(lo, hi))
    pieces.append(clustered_nodes(s_t, np.inf))
    d = np.concatenate([p[0] for p in pieces]).astype(LD)
    w = np.concatenate([p[1] for p in pieces]).astype(LD)
    kt = abs(traj.curv[jt])
    dmin = LD(dmin_fraction * 2 / max(kt, 1e-3) / float(gamma))
    keep = d > dmin
    d, w = d[keep], w[keep]
    s_t = LD(s_t)
    xt, yt, txt, tyt, _, _ = traj.geometry(np.array([s_t]))
    xs, ys, tx, ty, kx, ky = traj.geometry(s_t - d)
    dx, dy = xt[0] - xs, yt[0] - ys
    dist = np.sqrt(dx * dx + dy * dy)
    nx, ny = dx / dist, dy / dist
    one_minus_nb = (1 - beta) + beta * ((nx - tx) ** 2 + (ny - ty) ** 2) / 2
    same_arc = (s_t - d >= LD(traj.starts[jt])) & (kt > 0)
    h = d * LD(kt) / 2
    series = 2 / LD(max(kt, 1e-30)) * (h ** 3 / 6 - h ** 5 / 120 + h ** 7 / 5040 - h ** 9 / 362880)
    u = np.where(same_arc & (h < 1e-2), series, d - dist) + (1 - beta) * dist
    nbt = (nx - beta * tx) * txt[0] + (ny - beta * ty) * tyt[0]
    ax, ay = beta ** 2 * kx, beta ** 2 * ky
    f = (nbt / (gamma ** 2 * one_minus_nb ** 3 * dist ** 2) +
         (nbt * (nx * ax + ny * ay) - (ax * txt[0] + ay * tyt[0]) * one_minus_nb) / (one_minus_nb ** 3 * dist) -
         g2i / u ** 2) * one_minus_nb
    i0 = np.argmin(d)
    return (np.concatenate([[u[i0] / 2], u]).astype(float),
            np.concatenate([[f[i0] * dmin if kt > 0 else 0], w * f]).astype(float))


def lw_chicane(sigma_of_s, kinetic, charge, segments, nq=121):
    """Mean and rms energy change [eV] along s of a Gaussian bunch whose rms length is sigma_of_s(s)
    (the current density, as both programs use it; each particle keeps its quantile), on a
    PiecewiseTrajectory of `segments`. Returns s nodes' ends and the cumulative mean and rms."""
    gamma = 1 + kinetic / ME_MEV
    traj = PiecewiseTrajectory(segments)
    q = np.linspace(-6, 6, nq)
    weight = np.exp(-0.5 * q * q)
    weight /= weight.sum()
    s_nodes, s_w = [], []
    for j, (length, k) in enumerate(segments):
        a = traj.starts[j]
        if k != 0:
            x, wx = gauss_nodes(np.linspace(a, a + length, 4))
        else:
            x, wx = gauss_nodes(a + np.concatenate([[0], np.geomspace(1e-4, length, 12)]))
        s_nodes.append(x); s_w.append(wx)
    s_nodes, s_w = np.concatenate(s_nodes), np.concatenate(s_w)
    total = np.zeros(nq)
    out = []
    ends = list(traj.starts[1:])
    for si, wi in zip(s_nodes, s_w):
        while ends and si > ends[0]:
            de = K_COUL * charge * total
            out.append((ends.pop(0), np.sum(weight * de), np.sqrt(np.sum(weight * (de - np.sum(weight * de)) ** 2))))
        sig = sigma_of_s(si)
        u, wf = lw_kernel_piecewise(traj, si, gamma)
        lam = lambda z: np.exp(-0.5 * (z / sig) ** 2) / (np.sqrt(2 * np.pi) * sig)
        total += wi * np.array([np.sum(wf * lam(qi * sig - u)) for qi in q])
    de = K_COUL * charge * total
    out.append((traj.starts[-1], np.sum(weight * de), np.sqrt(np.sum(weight * (de - np.sum(weight * de)) ** 2))))
    return np.array(out)


# ----------------------------------------------------------------------------------------------------
# gtrack

GTRACK_BEAM = """[run]
kind = "beamline"
name = "{name}"
seed = 7
[beam]
particle = "electron"
kinetic_energy = "{kinetic} MeV"
bunch_charge = "{charge_pc} pC"
macroparticles = {particles}
distribution = "gaussian"
[beam.twiss]
beta_x = 10.0
alpha_x = 0.0
emittance_x = "{emit_nm} nm"
beta_y = 10.0
alpha_y = 0.0
emittance_y = "{emit_nm} nm"
sigma_t = "{sigma_mm} mm"
sigma_pt = {sigma_pt}
chirp = {chirp}
"""

GTRACK_COLLECTIVE = """[collective]
bins = {bins}
smoothing = {smoothing}
csr_transient = true
csr_drift = "{csr_drift} m"
[output]
file = "{name}.h5"
phase_space = [{phase_space}]
stats = "every_slice"
"""


def run_gtrack(binary, deck, workdir):
    """Runs a deck, returns the stats columns s, mean and rms energy change [eV] and emittance_x."""
    import h5py
    path = os.path.join(workdir, "deck.toml")
    with open(path, "w") as f:
        f.write(deck)
    done = subprocess.run([binary, "run", path], cwd=workdir, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit("gtrack failed on {}:\n{}{}".format(path, done.stdout, done.stderr))
    name = deck.split('name = "')[1].split('"')[0]
    with h5py.File(os.path.join(workdir, name + ".h5")) as f:
        st = f["stats"]
        ke = st["kinetic_energy"][0]
        pc = np.sqrt(ke * (ke + 2 * ME_MEV)) * 1e6  # [eV]
        pt, spt = st["mean_pt"][:], st["sigma_pt"][:]
        end = {}
        if "data" in f and len(f["data"]):
            g = f["data"][sorted(f["data"].keys(), key=int)[-1]]["particles/beam"]
            order = np.argsort(g["id"][:])
            end = dict(end_de=-pc * g["momentum/t"][:][order])  # energy change from pt = 0 [eV], by id
        return dict(**end, s=st["s"][:], mean=-pc * (pt - pt[0]), rms=pc * np.sqrt(np.maximum(spt ** 2 - spt[0] ** 2, 0)),
                    emit=st["emittance_x"][:], sigma_t=st["sigma_t"][:])


def gtrack_case(binary, case, bins=1000, bend_slices=20, drift_slice=0.05, smoothing=3, particles=200_000):
    _, kinetic, charge, sigma, bend, angle, drift = case
    deck = GTRACK_BEAM.format(name="case", kinetic=kinetic, charge_pc=charge * 1e12, particles=particles,
                              sigma_mm=sigma * 1e3, sigma_pt=1e-9, chirp=0, emit_nm=1e-3)
    line = ['"B"']
    deck += '[elements]\nB = {{ type = "sbend", length = {}, angle = {!r}, slices = {}, csr = true }}\n'.format(
        bend, float(angle), bend_slices)
    if drift > 0:
        # slices on a geometric progression would suit the 1/x wake; equal ones of drift_slice do here
        deck += 'D = {{ type = "drift", length = {}, slices = {} }}\n'.format(drift, max(2, round(drift / drift_slice)))
        line.append('"D"')
    deck += 'END = { type = "monitor" }\n[lattice]\nline = [' + ", ".join(line + ['"END"']) + "]\n"
    deck += GTRACK_COLLECTIVE.format(bins=bins, smoothing=smoothing, csr_drift=max(drift, 0.01), name="case",
                                      phase_space="")
    with tempfile.TemporaryDirectory() as d:
        r = run_gtrack(binary, deck, d)
    return r["mean"][-1], r["rms"][-1]


# ----------------------------------------------------------------------------------------------------
# OCELOT

def ocelot_csr_class():
    from ocelot.cpbd.csr import CSR

    class LeadInCSR(CSR):
        """OCELOT's CSR with `lead_in` metres of the straight line before the CSR region put into its
        trajectory (sampled geometrically towards the start), instead of only the analytic
        "infinite straight line" term (K0_fin_inf): the sources there that act on the bunch in and
        after the first bend lie up to ~gamma x (the transverse offset) upstream."""

        def __init__(self, lead_in=0.0, **kw):
            super().__init__(**kw)
            self.lead_in = lead_in

        def prepare(self, lat):
            traj = super().prepare(lat)
            if self.lead_in > 0:
                d = np.geomspace(self.lead_in, self.traj_step, 400)
                t0 = traj[4:7, 0]
                pre = np.zeros((7, d.size))
                pre[0] = -d
                pre[1:4] = traj[1:4, :1] - t0[:, None] * d[None, :]
                pre[4:7] = t0[:, None]
                traj = np.concatenate([pre, traj], axis=1)
                traj[0] += self.lead_in
                self.z_csr_start -= self.lead_in
                self.csr_traj = traj
            return self.csr_traj

    return LeadInCSR


def ocelot_recorder():
    from ocelot.cpbd.physics_proc import PhysProc

    class Recorder(PhysProc):
        """Energy and emittance moments after every Navigator step."""

        def __init__(self, e0):
            super().__init__(step=1)
            self.rows, self.e0 = [], e0

        def apply(self, p, dz):
            e = p.E * (1 + p.p()) * 1e9
            x, px = p.x(), p.px()
            emit = np.sqrt(max(np.var(x) * np.var(px) - np.mean((x - x.mean()) * (px - px.mean())) ** 2, 0))
            de = e - self.e0  # per particle (OCELOT keeps their order)
            self.rows.append((self.z0, de.mean(), de.std(), emit, np.std(p.tau())))

    return Recorder


def ocelot_track(elements, kinetic, charge, sigma, emittance=5e-9, lead_in=1000.0, traj_step=0.5e-3, apply_step=5e-3, n_bin=300,
                 sigma_min=1e-5, unit_step=0.025, particles=100_000, chirp=0.0, record=False, csr=True, per_bend=False):
    """Tracks `elements` with OCELOT's CSR; per_bend: one CSR process from each bend to the next, each
    entered from a straight (its own lead-in), i.e. gtrack's approximation of no overlap of bends' wakes."""
    import logging
    logging.getLogger("ocelot").setLevel(logging.ERROR)
    from ocelot import Marker, MagneticLattice, Navigator, track
    from ocelot.cpbd.transformations import SecondTM
    from ocelot.cpbd.beam import generate_parray
    energy = (kinetic + ME_MEV) * 1e-3
    start, end = Marker(), Marker()
    # second-order maps: the chirped beam's 1.6 % energy spread gives the chicane's T566/T166 terms, which
    # gtrack's exact maps have (without them the projected emittances differ without CSR already)
    lat = MagneticLattice([start] + elements + [end], method={"global": SecondTM})
    np.random.seed(1)
    p = generate_parray(sigma_x=np.sqrt(10 * emittance), sigma_px=np.sqrt(emittance / 10),
                        sigma_y=np.sqrt(10 * emittance), sigma_py=np.sqrt(emittance / 10), sigma_tau=sigma, sigma_p=1e-9 if chirp == 0 else 1e-5,
                        chirp=chirp, charge=charge, nparticles=particles, energy=energy)
    # A quiet line density (t at the Gaussian's quantiles, in random order), as the LW calculation's: the
    # mean loss of the short bend is 1/8 of the rms, so sampling noise would need millions of particles.
    from scipy.special import ndtri
    tau = sigma * ndtri((np.random.permutation(particles) + 0.5) / particles)
    p.rparticles[5] += chirp * (tau - p.rparticles[4]) / sigma
    p.rparticles[4] = tau
    e0 = p.E * (1 + p.p()) * 1e9
    nav = Navigator(lat)
    nav.unit_step = unit_step
    if csr:
        make = lambda: ocelot_csr_class()(lead_in=lead_in, traj_step=traj_step, apply_step=apply_step, n_bin=n_bin,
                                          sigma_min=sigma_min, energy=energy)
        if per_bend:
            seq = lat.sequence
            bends = [i for i, e in enumerate(seq) if e.__class__.__name__ == "SBend"]
            for k, i in enumerate(bends):
                nav.add_physics_proc(make(), seq[i - 1], seq[bends[k + 1] - 1] if k + 1 < len(bends) else end)
        else:
            nav.add_physics_proc(make(), start, end)
    rec = None
    if record:
        rec = ocelot_recorder()(e0)
        nav.add_physics_proc(rec, start, end)
    _, p = track(lat, p, nav, print_progress=False, calc_tws=False)
    de = p.E * (1 + p.p()) * 1e9 - e0
    return de.mean(), de.std(), rec


def ocelot_case(case, **kw):
    from ocelot import SBend, Drift
    _, kinetic, charge, sigma, bend, angle, drift = case
    elements = [SBend(l=bend, angle=angle)] + ([Drift(l=drift)] if drift > 0 else [])
    # 1 pm: a frozen bunch, as in the LW calculation (with 5 nm and beta 10 m, R51 x in the 1 GeV bend
    # lengthens the bunch from 100 to ~109 um: gtrack and OCELOT both then lose ~5 % less)
    return ocelot_track(elements, kinetic, charge, sigma, emittance=1e-12, **kw)[:2]


# ----------------------------------------------------------------------------------------------------
# The chicane: four 0.5 m, 5 degree sector bends, 3 m / 1 m / 3 m between them (inputs/chicane_csr.toml's
# geometry, R56 = -2 theta^2 (3 m + 2/3 0.5 m) = -5.1 cm), 150 MeV, 1 nC (--chicane-charge), sigma_z 1 mm, a
# linear chirp that compresses the bunch 6 times (no RF: the chirp is put into the beam); CSR alone.

CHICANE = dict(kinetic=150.0, charge=250e-12, sigma=1e-3, bend=0.5, angle=np.deg2rad(5.0), drifts=(3.0, 1.0, 3.0, 1.0),
               chirp_gtrack=-15.6)  # <t pt> = chirp sigma_t^2 [1/m]: pt = -dE/(p c), t behind > 0


def chicane_gtrack(binary, csr=True, bins=1000, bend_slices=20, particles=200_000):
    c = CHICANE
    deck = GTRACK_BEAM.format(name="chicane", kinetic=c["kinetic"], charge_pc=c["charge"] * 1e12, particles=particles,
                              sigma_mm=c["sigma"] * 1e3, sigma_pt=1e-5, chirp=c["chirp_gtrack"], emit_nm=5)
    a = c["angle"]
    deck += "[elements]\n"
    for i, sign in enumerate((1, -1, -1, 1)):
        deck += 'B{} = {{ type = "sbend", length = {}, angle = {!r}, slices = {}, csr = {} }}\n'.format(
            i + 1, c["bend"], float(sign * a), bend_slices, "true" if csr else "false")
    for i, length in enumerate(c["drifts"]):
        deck += 'D{} = {{ type = "drift", length = {}, slices = {} }}\n'.format(i + 1, length, round(length / 0.05))
    deck += 'END = { type = "monitor" }\n[lattice]\nline = ["B1", "D1", "B2", "D2", "B3", "D3", "B4", "D4", "END"]\n'
    deck += GTRACK_COLLECTIVE.format(bins=bins, smoothing=3, csr_drift=3.0, name="chicane", phase_space='"END"')
    with tempfile.TemporaryDirectory() as d:
        return run_gtrack(binary, deck, d)


def chicane_ocelot(csr=True, **kw):
    from ocelot import SBend, Drift, Marker
    c = CHICANE
    elements = []
    for i, sign in enumerate((1, -1, -1, 1)):
        elements += [Marker(), SBend(l=c["bend"], angle=sign * c["angle"]), Drift(l=c["drifts"][i])]
    # OCELOT: tau = c t (behind > 0) as gtrack's t, p = dE/(p c) = -pt; p += chirp tau / sigma_tau
    chirp = -c["chirp_gtrack"] * c["sigma"]
    _, _, rec = ocelot_track(elements, c["kinetic"], c["charge"], c["sigma"], chirp=chirp, record=True, csr=csr, **kw)
    rows = np.array(rec.rows)
    return dict(s=rows[:, 0], mean=rows[:, 1], rms=rows[:, 2], emit=rows[:, 3], sigma_t=rows[:, 4])


# ----------------------------------------------------------------------------------------------------

def fmt(v):
    return "{:.4g}".format(v)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--gtrack", default=os.environ.get("GTRACK", os.path.join(here, "..", "build", "gtrack")))
    ap.add_argument("--full", action="store_true", help="convergence studies of both codes (minutes)")
    ap.add_argument("--no-ocelot", action="store_true")
    ap.add_argument("--no-gtrack", action="store_true")
    ap.add_argument("--json", help="write the numbers here")
    ap.add_argument("--chicane-charge", type=float, default=1000.0, help="the chicane's bunch charge [pC]")
    ap.add_argument("--only", choices=["cases", "chicane"], help="run only this part")
    args = ap.parse_args()
    have_ocelot = not args.no_ocelot
    if have_ocelot:
        try:
            import ocelot  # noqa: F401
        except ImportError:
            print("ocelot-collab is not installed (pip install ocelot-collab): OCELOT columns skipped")
            have_ocelot = False
    # gtrack runs in a temporary folder (its decks and outputs): a relative --gtrack is taken from here.
    args.gtrack = os.path.abspath(args.gtrack)
    have_gtrack = not args.no_gtrack and os.path.exists(args.gtrack)
    if not args.no_gtrack and not have_gtrack:
        print("no gtrack binary at {} (--gtrack): gtrack columns skipped".format(args.gtrack))
    out = {"cases": [], "convergence": {}}
    t_start = time.time()

    CHICANE["charge"] = args.chicane_charge * 1e-12
    cases = [] if args.only == "chicane" else CASES
    print("## The issue's cases: energy change per particle [eV], mean / rms added\n")
    print("| case | analytic (UR) mean | LW at gamma | LW, gamma 2e4 | gtrack | OCELOT, lead-in 1 km | OCELOT, no lead-in |")
    print("|---|---|---|---|---|---|---|")
    for case in cases:
        row = {"case": case[0], "analytic_mean": analytic_mean(case)}
        row["lw"] = lw_case(case)
        row["lw_ur"] = lw_case(case, gamma=2e4)
        if have_gtrack:
            row["gtrack"] = gtrack_case(args.gtrack, case)
        if have_ocelot:
            row["ocelot"] = ocelot_case(case, lead_in=1000.0)
            if args.full or "0.01" in case[0]:  # the cheapest case by default
                row["ocelot_no_lead_in"] = ocelot_case(case, lead_in=0.0)
        pair = lambda k: " / ".join(fmt(v) for v in row[k]) if k in row else "-"
        print("| {} | {} | {} | {} | {} | {} | {} |".format(case[0], fmt(row["analytic_mean"]), pair("lw"), pair("lw_ur"),
                                                            pair("gtrack"), pair("ocelot"), pair("ocelot_no_lead_in")),
              flush=True)
        out["cases"].append({k: (list(map(float, v)) if isinstance(v, tuple) else v) for k, v in row.items()})

    print("\n## Chicane (4 x 0.5 m, 5 deg, {:g} pC; chirp for compression ~6): along s\n".format(args.chicane_charge))
    chic = {}
    do_chicane = args.only != "cases"
    if have_gtrack and do_chicane:
        chic["gtrack"] = chicane_gtrack(args.gtrack)
        chic["gtrack_nocsr"] = chicane_gtrack(args.gtrack, csr=False)
    if have_ocelot and do_chicane:
        chic["ocelot"] = chicane_ocelot()
        chic["ocelot_nocsr"] = chicane_ocelot(csr=False)
        if args.full:  # gtrack's approximation in OCELOT: each bend entered from a straight, no overlap
            chic["ocelot per bend"] = chicane_ocelot(per_bend=True)
            chic["ocelot per bend_nocsr"] = chic["ocelot_nocsr"]
    ends = np.cumsum([0, 0.5, 3.0, 0.5, 1.0, 0.5, 3.0, 0.5, 1.0])
    ref = chic.get("gtrack_nocsr") or chic.get("ocelot_nocsr")
    if ref is not None:
        # LW for the compressing bunch: sigma_z(s) from a run without CSR (the current density, as both
        # programs take it), the chicane's trajectory, each particle keeping its quantile
        c = CHICANE
        k = c["angle"] / c["bend"]
        segments = []
        for i, sign in enumerate((1, -1, -1, 1)):
            segments += [(c["bend"], sign * k), (c["drifts"][i], 0.0)]
        order = np.argsort(ref["s"], kind="stable")
        sigma_of_s = lambda v: float(np.interp(v, ref["s"][order], ref["sigma_t"][order]))
        lw = lw_chicane(sigma_of_s, c["kinetic"], c["charge"], segments)
        chic["LW"] = dict(s=lw[:, 0], mean=lw[:, 1], rms=lw[:, 2], emit=np.full(len(lw), np.nan),
                          sigma_t=np.array([sigma_of_s(v) for v in lw[:, 0]]))
        chic["LW_nocsr"] = dict(s=lw[:, 0], emit=np.full(len(lw), np.nan))
    if "gtrack" in chic:
        # gtrack's rms energy change per particle at the end: the same particles (seed) with and without CSR
        g = chic["gtrack"]
        g["rms"] = np.full_like(g["mean"], np.nan)
        g["rms"][-1] = np.std(g.pop("end_de") - chic["gtrack_nocsr"].pop("end_de"))
    print("| s [m] | " + " | ".join("{}: mean / rms [keV], emittance_x [nm] (without CSR)".format(k)
                                    for k in chic if "nocsr" not in k) + " |")
    print("|---|" + "---|" * len([k for k in chic if "nocsr" not in k]))
    for s in ends[1:]:
        cells = []
        for k, r in chic.items():
            if "nocsr" in k:
                continue
            last = lambda v: len(v) - 1 - int(np.argmin(abs(v[::-1] - s)))  # the last row at s
            i, j = last(r["s"]), last(chic[k + "_nocsr"]["s"])
            cells.append("{:.3g} / {:.3g}, {:.4g} ({:.4g})".format(r["mean"][i] / 1e3, r["rms"][i] / 1e3, r["emit"][i] * 1e9,
                                                               chic[k + "_nocsr"]["emit"][j] * 1e9))
        print("| {:.1f} | {} |".format(s, " | ".join(cells)))
    for k, r in chic.items():
        if "sigma_t" not in r or k == "LW":
            continue
        print("{}: sigma_t {:.4g} -> {:.4g} mm (compression {:.2f}), emittance_x {:.4g} -> {:.4g} nm".format(
            k, r["sigma_t"][0] * 1e3, r["sigma_t"][-1] * 1e3, r["sigma_t"][0] / r["sigma_t"][-1], r["emit"][0] * 1e9,
            r["emit"][-1] * 1e9))
    out["chicane"] = {k: {c: list(map(float, v)) for c, v in r.items()} for k, r in chic.items()}

    if args.full:
        print("\n## Convergence\n")
        conv = out["convergence"]
        if have_ocelot:
            for case in cases:
                base = dict(lead_in=1000.0, traj_step=0.5e-3, apply_step=5e-3, n_bin=300, sigma_min=1e-5, unit_step=0.025)
                tries = [("base", None), ("lead_in", 0.0), ("lead_in", 10.0), ("lead_in", 100.0), ("traj_step", 0.1e-3),
                         ("apply_step", 1e-3), ("n_bin", 1000), ("sigma_min", 1e-4), ("unit_step", 0.005),
                         ("particles", 400_000)]
                for key, value in tries:
                    kw = dict(base)
                    if key != "base":
                        kw[key] = value
                    r = ocelot_case(case, **kw)
                    conv.setdefault("ocelot " + case[0], []).append([key, value, *map(float, r)])
                    print("OCELOT {} {}={}: {} / {}".format(case[0], key, value, fmt(r[0]), fmt(r[1])), flush=True)
        if have_gtrack:
            for case in cases:
                for kw in ({}, {"bins": 500}, {"bins": 2000}, {"bend_slices": 40}, {"drift_slice": 0.025},
                           {"smoothing": 0}, {"smoothing": 6}, {"particles": 800_000}):
                    r = gtrack_case(args.gtrack, case, **kw)
                    conv.setdefault("gtrack " + case[0], []).append([str(kw), *map(float, r)])
                    print("gtrack {} {}: {} / {}".format(case[0], kw or "base", fmt(r[0]), fmt(r[1])), flush=True)
        for case in cases:
            for per in (48,):
                clustered_nodes.__defaults__ = (per,)
                r = lw_case(case)
                print("LW {} nodes x2: {} / {}".format(case[0], fmt(r[0]), fmt(r[1])), flush=True)
            clustered_nodes.__defaults__ = (24,)
    print("\n({:.0f} s)".format(time.time() - t_start))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(out, f, indent=1)


if __name__ == "__main__":
    sys.exit(main())
