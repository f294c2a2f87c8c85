#!/usr/bin/env bash
# Regenerates the captured problem set in data/problems/ (docs/capture-format.md,
# data/problems/README.md) from the shipped scenes, the box-of-polyhedra pour and
# the random generator. Deterministic: the same build gives the same files.
#
#   bash scripts/capture-problems.sh [PEGSIM] [OUT]     (defaults: build/pegsim, data/problems)
set -euo pipefail
cd "$(dirname "$0")/.."
PEGSIM=${1:-build/pegsim}
OUT=${2:-data/problems}
[ -x "$PEGSIM" ] || { echo "capture-problems: $PEGSIM not built (cmake --build build --target pegsim_cli)"; exit 2; }
mkdir -p "$OUT"

run() {  # name, then pegsim run arguments
  local name=$1; shift
  "$PEGSIM" run "$@" --quiet --capture "$OUT/$name.h5" 2>/dev/null | grep "captured problems" | sed "s|^|$name: |"
}
# box stacks: the 2D stack (frictionless) under the standard model and PEG, the 3D stack (mu = 0.5)
run box-stack-2d-standard scenes/box-stack-2d.yaml --model standard --steps 400 --capture-every 40
run box-stack-2d-peg      scenes/box-stack-2d.yaml --model peg --steps 400 --capture-every 40
run box-stack-3d          scenes/box-stack-3d.yaml --steps 600 --capture-every 120
# grasp-like: a box wedged between two inclined static plates (mu = 0.5)
run wedge-grasp           scenes/wedge-grasp.yaml --steps 200 --capture-every 20
# box-of-polyhedra (thesis 5.2.4): one pour, seed 1, h = 0.005, frictionless
"$PEGSIM" experiment box-of-polyhedra --capture "$OUT/box-of-polyhedra.h5" --capture-every 125
# random rigid-body contact problems (Drumwright & Shell style), 3D, 4 friction directions
"$PEGSIM" gen-problems --count 12 --contacts 12 --seed 1 --out "$OUT/random-12.h5"
du -ch "$OUT"/*.h5 | tail -1
