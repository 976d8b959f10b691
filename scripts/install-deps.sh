#!/usr/bin/env bash
# Installs gtrack's build dependencies from Debian packages (and the Python tools of scripts/ from PyPI).
# Usage: scripts/install-deps.sh [--python]
set -euo pipefail
packages=(cmake ninja-build g++ pkg-config libhdf5-dev libcli11-dev libtomlplusplus-dev libfmt-dev
          doctest-dev libfftw3-dev librandom123-dev libopenmpi-dev openmpi-bin
          clang libclang-rt-dev libomp-dev)  # clang: the sanitizer and fuzzing build (scripts/sanitize.sh)
missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
if [ ${#missing[@]} -gt 0 ]; then
    echo "installing: ${missing[*]}"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi
if [ "${1:-}" = "--python" ]; then
    # xraylib: scripts/em/fit_photoelectric.py (regenerates src/detector/PhotoelectricFits.cc)
    python3 -m pip install --quiet h5py numpy matplotlib openpmd-beamphysics openpmd-viewer cpymad xraylib==4.3.0 xsuite
fi
