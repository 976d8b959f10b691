#!/usr/bin/env python3
"""Write 3D field-map files (HDF5, layout: docs/decks.md, "3D field-map files") from analytic fields,
so that no third-party data is needed.

    scripts/make_field_map3d.py                        # the example maps, into inputs/maps/
    scripts/make_field_map3d.py --out DIR              # somewhere else
    scripts/make_field_map3d.py --kind quadrupole --gradient 10 --length 0.2 --out q.h5 --file

Kinds:
  uniform     B = (0, 0, B0) on a box (a helix in it is exact to round-off: trilinear interpolation
              reproduces a linear field exactly)
  quadrupole  B = g (y, x, 0) over [0, length] in z (hard edge), with short fringes of
              B = g(z) (y, x, 0) where --fringe > 0 (a tanh edge of that width)
  pillbox     TM010 standing wave of a pillbox of radius R: Ez = E0 J0(k r), B_theta = -(E0/c) J1(k r)
              (the amplitude of the sin part), k = 2.405 / R, frequency = k c / (2 pi); z from 0 to L
Needs numpy and h5py (scipy for the Bessel functions when present, else their power series).
"""
import argparse
import math
import os

import h5py
import numpy as np

C_LIGHT = 299792458.0
J0_ZERO = 2.404825557695773


def bessel(order, x):
    try:
        from scipy.special import jv
        return jv(order, x)
    except ImportError:  # power series: converges fast for the x <= 2.405 a pillbox needs
        out = np.zeros_like(x)
        for m in range(30):
            out += (-1) ** m / (math.factorial(m) * math.factorial(m + order)) * (x / 2) ** (2 * m + order)
        return out


def grid(lo, hi, n):
    axes = [np.linspace(lo[a], hi[a], n[a]) for a in range(3)]
    return np.meshgrid(*axes, indexing="ij")  # node (i, j, k) at [i, j, k]: k fastest, as the file asks


def write(path, origin, spacing, dims, e=None, b=None, frequency=None):
    """e, b: arrays of shape (nx, ny, nz, 3) in V/m and T, or None."""
    with h5py.File(path, "w") as f:
        f.attrs["dimensions"] = np.array(dims, dtype=np.uint64)
        f.attrs["origin"] = np.array(origin, dtype=np.float64)
        f.attrs["spacing"] = np.array(spacing, dtype=np.float64)
        f.attrs["length_unit"] = np.bytes_("m")
        if frequency:
            f.attrs["frequency"] = float(frequency)
        for name, field, unit in (("E", e, "V/m"), ("B", b, "T")):
            if field is None:
                continue
            d = f.create_dataset(name, data=np.ascontiguousarray(field, dtype=np.float64).reshape(-1))
            d.attrs["unit"] = np.bytes_(unit)


def box(half_x, half_y, z0, z1, n):
    lo, hi = (-half_x, -half_y, z0), (half_x, half_y, z1)
    spacing = [(hi[a] - lo[a]) / (n[a] - 1) for a in range(3)]
    return lo, hi, spacing


def uniform(path, b0, half, length, n):
    lo, hi, spacing = box(half, half, 0.0, length, n)
    x, _, _ = grid(lo, hi, n)
    b = np.zeros(x.shape + (3,))
    b[..., 2] = b0
    write(path, lo, spacing, n, b=b)


def quadrupole(path, gradient, half, length, fringe, n):
    margin = 3.0 * fringe
    lo, hi, spacing = box(half, half, 0.0, length + 2.0 * margin, n)
    x, y, z = grid(lo, hi, n)
    if fringe > 0.0:
        # g(z): a soft edge at z = margin and z = margin + length (not Maxwell-exact off axis beyond
        # first order in the edge; for examples only)
        g = gradient * 0.5 * (np.tanh((z - margin) / fringe) - np.tanh((z - margin - length) / fringe))
    else:
        g = gradient * np.ones_like(z)
    b = np.stack([g * y, g * x, np.zeros_like(z)], axis=-1)
    write(path, lo, spacing, n, b=b)


def pillbox(path, e0, radius, length, n):
    half = radius / math.sqrt(2.0)  # the grid stays inside the cavity
    lo, hi, spacing = box(half, half, 0.0, length, n)
    x, y, _ = grid(lo, hi, n)
    k = J0_ZERO / radius
    r = np.hypot(x, y)
    ez = e0 * bessel(0, k * r)
    btheta = -(e0 / C_LIGHT) * bessel(1, k * r)
    with np.errstate(invalid="ignore", divide="ignore"):
        cos_t = np.where(r > 0, x / r, 1.0)
        sin_t = np.where(r > 0, y / r, 0.0)
    e = np.stack([np.zeros_like(r), np.zeros_like(r), ez], axis=-1)
    b = np.stack([-btheta * sin_t, btheta * cos_t, np.zeros_like(r)], axis=-1)
    write(path, lo, spacing, n, e=e, b=b, frequency=k * C_LIGHT / (2.0 * math.pi))


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", default=os.path.join(here, "..", "inputs", "maps"),
                        help="output directory (or the file, with --file)")
    parser.add_argument("--file", action="store_true", help="--out names one file to write (with --kind)")
    parser.add_argument("--kind", choices=["uniform", "quadrupole", "pillbox"], help="write only this map")
    parser.add_argument("--nodes", type=int, nargs=3, default=None, help="nx ny nz")
    parser.add_argument("--field", type=float, default=1.0, help="uniform: Bz [T]")
    parser.add_argument("--gradient", type=float, default=10.0, help="quadrupole: g [T/m]")
    parser.add_argument("--fringe", type=float, default=0.0, help="quadrupole: edge width [m]")
    parser.add_argument("--e0", type=float, default=20e6, help="pillbox: peak Ez [V/m]")
    parser.add_argument("--radius", type=float, default=0.0883, help="pillbox: radius [m]")
    parser.add_argument("--length", type=float, default=None, help="z span [m]")
    parser.add_argument("--half-width", type=float, default=0.02, help="uniform, quadrupole: half width [m]")
    args = parser.parse_args()

    def target(name):
        return args.out if args.file else os.path.join(args.out, name)

    if not args.file:
        os.makedirs(args.out, exist_ok=True)
    if args.kind in (None, "quadrupole"):
        quadrupole(target("quadrupole_3d.h5"), args.gradient, args.half_width, args.length or 0.2, args.fringe,
                   args.nodes or [9, 9, 41])
    if args.kind in (None, "pillbox"):
        # pi-mode cell length lambda / 2 at the TM010 frequency of the radius
        wavelength = 2.0 * math.pi * args.radius / J0_ZERO
        pillbox(target("pillbox_3d.h5"), args.e0, args.radius, args.length or 0.5 * wavelength,
                args.nodes or [13, 13, 5])
    if args.kind == "uniform":
        uniform(target("uniform_3d.h5"), args.field, args.half_width, args.length or 0.5, args.nodes or [5, 5, 5])


if __name__ == "__main__":
    main()
