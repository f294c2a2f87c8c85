#!/usr/bin/env bash
# Installs dependencies, builds, and runs the built-in default scene (box-stack-3d).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
./build/pegsim run "$@"
