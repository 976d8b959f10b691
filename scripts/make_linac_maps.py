#!/usr/bin/env python3
"""Write the on-axis field profiles of the example linac decks, from analytic fields (no third-party data).

    scripts/make_linac_maps.py                 # writes inputs/maps/*.txt
    scripts/make_linac_maps.py --out DIR       # somewhere else

Files (format: docs/decks.md, "On-axis profile files"):
  gun_ez.txt           1.6-cell 1.3 GHz photo-gun: a 0.6-cell and a full pi-mode cell, peak 60 MV/m
  gun_solenoid_bz.txt  emittance-compensation solenoid: 0.19 T finite current sheet, radius 5 cm, 20 cm long
  ion_solenoid_bz.txt  short focusing solenoid of an ion linac: 2.5 T, radius 2 cm, 10 cm long
  qwr_ez.txt           two-gap 352.2 MHz cavity for beta ~ 0.073 (pi mode, gaps beta lambda / 2 apart)
Only the Python standard library is needed.
"""
import argparse
import math
import os

C_LIGHT = 299792458.0


def finite_solenoid(b0, radius, half_length):
    """On-axis Bz of an ideal finite solenoid (a cylindrical current sheet), B0 = mu0 n I."""
    def g(u):
        return u / math.sqrt(u * u + radius * radius)
    return lambda z: 0.5 * b0 * (g(z + half_length) - g(z - half_length))


def photo_gun(e0, frequency):
    """Pi-mode 1.6-cell gun: cell 1 = 0.6 of a half wavelength from the cathode (z = 0, field at its
    peak), cell 2 a full half wavelength with the opposite sign; a half-sine per cell."""
    d = 0.5 * C_LIGHT / frequency
    c1 = 0.6 * d

    def ez(z):
        if 0.0 <= z <= c1:
            return e0 * math.cos(0.5 * math.pi * z / c1)
        if c1 < z <= c1 + d:
            return -e0 * math.sin(math.pi * (z - c1) / d)
        return 0.0
    return ez, c1 + d


def two_gap(e0, frequency, beta, sigma):
    """Two accelerating gaps beta lambda / 2 apart with opposite fields (pi mode), Gaussian in z."""
    half = 0.25 * beta * C_LIGHT / frequency
    return lambda z: e0 * (math.exp(-((z + half) / sigma) ** 2) - math.exp(-((z - half) / sigma) ** 2))


def write(path, header, f, z_first, z_last, points, unit_scale=1.0):
    dz = (z_last - z_first) / (points - 1)
    with open(path, "w") as out:
        out.write(header + "\n")
        out.write("# written by scripts/make_linac_maps.py from an analytic field\n")
        for i in range(points):
            z = z_first + i * dz
            out.write(f"{z:.12f} {f(z) * unit_scale:.12e}\n")


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", default=os.path.join(here, "..", "inputs", "maps"), help="output directory")
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)

    gun, gun_length = photo_gun(60e6, 1.3e9)
    write(os.path.join(args.out, "gun_ez.txt"), "# z [m]  Ez [MV/m]", gun, 0.0, gun_length, 401, 1e-6)
    write(os.path.join(args.out, "gun_solenoid_bz.txt"), "# z [m]  Bz [T]",
          finite_solenoid(0.19, 0.05, 0.10), -0.3, 0.3, 301)
    write(os.path.join(args.out, "ion_solenoid_bz.txt"), "# z [m]  Bz [T]",
          finite_solenoid(2.5, 0.02, 0.05), -0.12, 0.12, 241)
    write(os.path.join(args.out, "qwr_ez.txt"), "# z [m]  Ez [MV/m]",
          two_gap(8e6, 352.2e6, 0.073, 0.007), -0.06, 0.06, 241, 1e-6)


if __name__ == "__main__":
    main()
