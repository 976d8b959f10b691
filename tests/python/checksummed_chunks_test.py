#!/usr/bin/env python3
"""A snapshot whose checksummed chunks gtrack wrote directly (io/ChecksummedChunks.hh) reads through h5py's
own HDF5 with the fletcher32 filter verifying each chunk; its values and stored chunks equal those written
through HDF5's filter (GTRACK_TEST_FILTER_CHECKSUMS=1); one damaged byte makes h5py's read fail.

Usage: checksummed_chunks_test.py GTRACK SOURCE_DIR (exit 77 when h5py or numpy is missing)."""
import os
import subprocess
import sys
import tempfile

try:
    import h5py
    import numpy as np
except ImportError as e:
    print(f"skipped: {e}")
    sys.exit(77)

gtrack, source = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
failures = []


def expect(what, ok):
    print(("ok   " if ok else "FAIL ") + what)
    if not ok:
        failures.append(what)


# 150001 particles: two whole chunks of 2^16 values and a partial last one, in every record.
N = 150001


def run(out, env_extra):
    env = dict(os.environ, **env_extra)
    subprocess.run([gtrack, "run", os.path.join(source, "inputs/fodo.toml"), "--backend", "cpu", "--threads",
                    "1", "-q", "--set", f"beam.macroparticles={N}", "--set", 'lattice.line=["cell*1"]',
                    "-o", out], check=True, env=env)


def datasets(f):
    found = []
    f.visititems(lambda name, obj: found.append(name) if isinstance(obj, h5py.Dataset) else None)
    return sorted(found)


with tempfile.TemporaryDirectory() as tmp:
    direct, filtered = os.path.join(tmp, "direct.h5"), os.path.join(tmp, "filtered.h5")
    run(direct, {})
    run(filtered, {"GTRACK_TEST_FILTER_CHECKSUMS": "1"})
    beam = "data/0/particles/beam"
    with h5py.File(direct, "r") as a, h5py.File(filtered, "r") as b:
        names = [n for n in datasets(a) if n.startswith(beam) and a[n].chunks is not None]
        # x, y, t, px, py, pt, id, BeamPhysics momentum/z and time (weighting is a uniform dataset, no chunks).
        expect(f"{len(names)} chunked per-particle records (9 expected)", len(names) == 9)
        for n in names:
            da, db = a[n], b[n]
            expect(f"{n}: fletcher32 filter, {da.shape[0]} values", da.fletcher32 and da.shape == (N,))
            expect(f"{n}: the same values as through the filter", np.array_equal(da[:], db[:]))
            same = True
            for origin in range(0, N, da.chunks[0]):
                mask_a, bytes_a = da.id.read_direct_chunk((origin,))
                mask_b, bytes_b = db.id.read_direct_chunk((origin,))
                same = same and mask_a == 0 and mask_b == 0 and bytes_a == bytes_b
            expect(f"{n}: the same stored chunks (values, padding, checksum)", same)
        second = a[beam + "/position/x"].id.get_chunk_info_by_coord((65536,))
        address, size = second.byte_offset, second.size
    expect(f"the second chunk is stored with its checksum ({size} bytes)", size == 8 * 65536 + 4)

    # One byte of particle 70000's x flipped on disk: h5py's read of that chunk fails, the first reads.
    with open(direct, "r+b") as f:
        f.seek(address + 8 * (70000 - 65536) + 3)
        byte = f.read(1)[0]
        f.seek(address + 8 * (70000 - 65536) + 3)
        f.write(bytes([byte ^ 0x04]))
    with h5py.File(direct, "r") as a:
        x = a[beam + "/position/x"]
        try:
            x[:]
            expect("a damaged chunk fails to read", False)
        except OSError as e:
            expect(f"a damaged chunk fails to read ({str(e).splitlines()[0][:80]})", True)
        with h5py.File(filtered, "r") as b:
            expect("the undamaged first chunk reads", np.array_equal(x[:65536], b[beam + "/position/x"][:65536]))

sys.exit(1 if failures else 0)
