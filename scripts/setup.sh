#!/usr/bin/env bash
# Installs pegsim's build dependencies (Debian 12 packages) and builds it in build/.
# Safe to run again: apt-get runs only when a package is missing.
set -euo pipefail
cd "$(dirname "$0")/.."

PACKAGES=(build-essential cmake ninja-build ccache pkg-config
          libeigen3-dev libqhull-dev libyaml-cpp-dev libhdf5-dev hdf5-tools libcli11-dev
          libgtest-dev libgmock-dev libbenchmark-dev libsiconos-numerics-dev
          libbullet-dev libmujoco-dev libode-dev
          liburdfdom-dev libassimp-dev
          python3 python3-dev python3-pybind11 python3-numpy python3-h5py python3-pytest python3-matplotlib
          python3-yaml python3-dask python3-distributed python3-pandas python3-tables
          clang-14 libfuzzer-14-dev
          chromium chromium-driver)
# the replay viewer (viewer/) is bundled with node and npm; Debian's nodejs and
# npm are installed only when no node/npm is on the PATH (e.g. NodeSource's)
command -v node >/dev/null 2>&1 || PACKAGES+=(nodejs)
command -v npm >/dev/null 2>&1 || PACKAGES+=(npm)

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  echo "setup: installing ${missing[*]}"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}"
fi

# the viewer's JS dependencies (three, esbuild, playwright-core: viewer/package-lock.json);
# the CMake target pegsim_viewer then bundles it next to the binary
if [ ! -d viewer/node_modules ] || [ viewer/package-lock.json -nt viewer/node_modules/.package-lock.json ]; then
  (cd viewer && npm ci --no-audit --no-fund) ||
    echo "setup: warning: npm ci failed in viewer/: pegsim replay's viewer is not built, its browser tests skip" >&2
fi

BUILD_TYPE=${PEGSIM_BUILD_TYPE:-Release}
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE="$BUILD_TYPE" ${PEGSIM_CMAKE_ARGS:-} >/dev/null
cmake --build build -j"$(nproc)"
