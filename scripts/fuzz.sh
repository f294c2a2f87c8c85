#!/usr/bin/env bash
# libFuzzer runs of the parsers (docs/reliability.md, "Fuzzing"), built with
# clang-14 under ASan + UBSan in build-fuzz/ (ccache through the project's
# CMAKE_CXX_COMPILER_LAUNCHER):
#   fuzz_scene      YAML text -> load_scene_string -> 3 steps
#   fuzz_urdf       URDF text -> load_urdf_string -> add_tree -> 3 steps
#   fuzz_recording  bytes -> read_recording
#   fuzz_capture    bytes -> read_captured_problems, read_fclib_local
#
#   bash scripts/fuzz.sh                                  # 30 s each
#   PEGSIM_FUZZ_SECONDS=60 PEGSIM_FUZZ_SEED=1 bash scripts/fuzz.sh   # CI (.ci/run)
#   PEGSIM_FUZZ_SECONDS=3600 bash scripts/fuzz.sh         # the hour-long runs
#   PEGSIM_FUZZ_TARGETS="urdf capture" bash scripts/fuzz.sh   # some harnesses only
#   PEGSIM_JOBS=2                                         # build parallelism (default nproc)
#   PEGSIM_FUZZ_SEED=1                                    # libFuzzer's -seed (CI: the same mutations each run)
#
# Seed corpora (build-fuzz/corpus/<harness>, kept between runs so that long
# runs build on each other): scenes/*.yaml and tests/data/*.yaml;
# data/robots/*.urdf; recordings of five shipped scenes (2D, 3D, joints, a
# URDF tree) made here by the fuzz build's pegsim; data/problems/*.h5 and
# short captures (the fast ones to mutate). A crash, timeout or out-of-memory input lands in
# build-fuzz/crashes/ and the script exits 1; each becomes a regression case
# in tests/ (scene text in tests/io/scene_errors_test.cpp, files in
# tests/data/fuzz/, loaded by tests/io/fuzz_regression_test.cpp).
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${PEGSIM_FUZZ_BUILD:-build-fuzz}
SECONDS_EACH=${PEGSIM_FUZZ_SECONDS:-30}
TARGETS=${PEGSIM_FUZZ_TARGETS:-scene urdf recording capture}
# -gline-tables-only: file:line in sanitizer reports at a fraction of -g's compile time
FLAGS="-O1 -gline-tables-only -fno-omit-frame-pointer -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined"
CC=clang-14 CXX=clang++-14 cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Debug \
  -DCMAKE_CXX_FLAGS="$FLAGS" -DCMAKE_C_FLAGS="$FLAGS" -DCMAKE_CXX_FLAGS_DEBUG="" -DCMAKE_C_FLAGS_DEBUG="" \
  -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined" \
  -DPEGSIM_BUILD_FUZZ=ON -DPEGSIM_BUILD_TESTS=OFF -DPEGSIM_BUILD_PYTHON=OFF -DPEGSIM_BUILD_BENCH=OFF \
  -DPEGSIM_BUILD_EXAMPLES=OFF >/dev/null
cmake --build "$BUILD" -j"${PEGSIM_JOBS:-$(nproc)}" --target fuzz_scene fuzz_urdf fuzz_recording fuzz_capture pegsim_cli

corpus="$BUILD/corpus"
mkdir -p "$corpus"/{scene,urdf,recording,capture} "$BUILD/crashes" "$BUILD/tmp" "$BUILD/fuzz-logs"
cp scenes/*.yaml tests/data/*.yaml "$corpus/scene/"
cp data/robots/*.urdf "$corpus/urdf/"
cp data/problems/*.h5 "$corpus/capture/"
seed() {  # seed FOLDER NAME SCENE STEPS --record|--capture
  [ -s "$corpus/$1/$2.h5" ] && return 0
  ASAN_OPTIONS=detect_leaks=0 "$BUILD/pegsim" run "$3" --steps "$4" --quiet "$5" "$corpus/$1/$2.h5" >/dev/null
}
seed recording box-stack-2d scenes/box-stack-2d.yaml 5 --record
seed recording box-stack-3d scenes/box-stack-3d.yaml 3 --record
seed recording pendulum scenes/pendulum.yaml 3 --record
seed recording four-bar scenes/four-bar.yaml 3 --record
seed recording powerball-arm-tree scenes/powerball-arm-tree.yaml 3 --record
seed capture resting-block scenes/resting-block.yaml 2 --capture
seed capture box-stack-2d scenes/box-stack-2d.yaml 3 --capture
[ -s "$corpus/capture/random-2x2.h5" ] ||
  "$BUILD/pegsim" gen-problems --count 2 --contacts 2 --seed 1 --out "$corpus/capture/random-2x2.h5" >/dev/null

export ASAN_OPTIONS="detect_leaks=1:halt_on_error=1:abort_on_error=1"
# leaks inside urdfdom and HDF5 on malformed input (not pegsim's to free): scripts/lsan-suppressions.txt
export LSAN_OPTIONS="suppressions=$PWD/scripts/lsan-suppressions.txt:print_suppressions=0"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
export TMPDIR="$PWD/$BUILD/tmp"
status=0
for target in $TARGETS; do
  case $target in
    scene | urdf) max_len=65536 ;;
    recording) max_len=262144 ;;   # the seed recordings are 50-80 kB
    capture) max_len=1048576 ;;    # data/problems/*.h5 are up to 900 kB
    *) echo "fuzz: unknown harness '$target'" >&2; exit 2 ;;
  esac
  log="$BUILD/fuzz-logs/$target.log"
  echo "fuzz: fuzz_$target for ${SECONDS_EACH} s (log $log)"
  # -timeout: an input that runs 10 s is a hang; -rss_limit_mb: one that grows past 2 GB a blow-up
  if ! "$BUILD/fuzz/fuzz_$target" "$corpus/$target" -max_total_time="$SECONDS_EACH" -timeout=10 -rss_limit_mb=2048 \
      -seed="${PEGSIM_FUZZ_SEED:-0}" -max_len=$max_len -artifact_prefix="$BUILD/crashes/$target-" -print_final_stats=1 >"$log" 2>&1; then
    status=1
  fi
  grep -E "^#[0-9]+ *DONE|stat::number_of_executed_units|stat::peak_rss|ERROR|SUMMARY|Test unit written" "$log" || true
done
rm -f "$BUILD"/tmp/pegsim-fuzz-*  # the harnesses' input files
if [ $status -eq 0 ]; then echo "fuzz: no crash"; else echo "fuzz: findings in $BUILD/crashes/ (logs in $BUILD/fuzz-logs/)" >&2; fi
exit $status
