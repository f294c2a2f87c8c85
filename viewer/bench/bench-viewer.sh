#!/usr/bin/env bash
# The replay viewer at scale: 100 tumbling boxes over a floor, 10,000 steps
# recorded every step, turned into a page and played in headless Chromium.
# Prints the page size, load time and frame time (viewer/test/probe.mjs bench).
# Usage: bash viewer/bench/bench-viewer.sh [BUILD_DIR] [STEPS]   (build, 10000)
set -euo pipefail
cd "$(dirname "$0")/../.."
BUILD=${1:-build}
STEPS=${2:-10000}
WORK=$(mktemp -d /tmp/pegsim-viewer-bench.XXXXXX)
SCENE=$WORK/boxes-100.yaml

# 10 x 10 boxes 1.5 m apart, each spinning about its own axis, dropped from
# 2-4 m: they land, tumble and settle, each on its own (no pile, so the run is
# quick); h = 0.002 s, 10,000 steps = 20 s
{
  echo "options: {name: boxes-100, dimension: 3, h: 0.002, duration: 20, eps: auto, friction_directions: 4,"
  echo "          model: standard, formulation: stewart-trinkle, solver: lemke, gravity: [0, 0, -9.81]}"
  echo "shapes:"
  echo "  cube: {box: [0.5, 0.5, 0.5]}"
  echo "  floor: {half_space: {normal: [0, 0, 1], offset: 0}}"
  echo "bodies:"
  echo "  - {name: ground, shape: floor, static: true}"
  for i in $(seq 0 9); do
    for j in $(seq 0 9); do
      k=$((10 * i + j))
      z=$(awk "BEGIN { print 2 + 2 * (($k * 37) % 100) / 100 }")
      a=$(awk "BEGIN { print 0.3 + 0.01 * $k }")
      echo "  - {name: box$k, shape: cube, mass: 1, position: [$((3 * i)).0, $((3 * j)).0, $z],"
      echo "     orientation: {axis_angle: [1, 1, 0, $a]}, angular_velocity: [0, 0, $((k % 7 - 3))]}"
    done
  done
} > "$SCENE"

echo "== simulate: $STEPS steps of 100 boxes"
/usr/bin/time -f "simulation wall time %e s" "$BUILD/pegsim" run "$SCENE" --steps "$STEPS" --quiet --record "$WORK/boxes-100.h5" \
  | grep -E "steps|contacts per step|failures" || true
echo "== page"
/usr/bin/time -f "pegsim replay wall time %e s" "$BUILD/pegsim" replay "$WORK/boxes-100.h5" --out "$WORK/boxes-100.html"
echo "== browser (headless Chromium, software WebGL)"
for viewport in 1280x760 640x380; do
  echo "-- viewport $viewport"
  PROBE_VIEWPORT=$viewport node viewer/test/probe.mjs bench "$WORK/boxes-100.html"
done
echo "files in $WORK"
