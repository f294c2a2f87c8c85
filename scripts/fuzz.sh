#!/usr/bin/env bash
# libFuzzer runs of the parsers (docs/reliability.md): the scene loader
# (fuzz_scene: YAML text -> scene -> 3 steps) and the HDF5 readers
# (fuzz_recording: read_recording and read_captured_problems), built with
# clang-14 under ASan + UBSan in build-fuzz/.
#
#   bash scripts/fuzz.sh            # 30 s each (CI)
#   PEGSIM_FUZZ_SECONDS=3600 bash scripts/fuzz.sh   # the hour-long runs
#
# Seed corpora: scenes/*.yaml and tests/data/*.yaml; data/problems/*.h5 and a
# short recording of the default scene. A crash input lands in
# build-fuzz/crashes/; it becomes a regression case in tests/ (scene text in
# tests/io/scene_errors_test.cpp, files in tests/data/fuzz/).
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${PEGSIM_FUZZ_BUILD:-build-fuzz}
SECONDS_EACH=${PEGSIM_FUZZ_SECONDS:-30}
FLAGS="-O1 -g -fno-omit-frame-pointer -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined"
CC=clang-14 CXX=clang++-14 cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Debug \
  -DCMAKE_CXX_FLAGS="$FLAGS" -DCMAKE_C_FLAGS="$FLAGS" \
  -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined" \
  -DPEGSIM_BUILD_FUZZ=ON -DPEGSIM_BUILD_TESTS=OFF -DPEGSIM_BUILD_PYTHON=OFF -DPEGSIM_BUILD_BENCH=OFF \
  -DPEGSIM_BUILD_EXAMPLES=OFF >/dev/null
cmake --build "$BUILD" -j"${PEGSIM_JOBS:-$(nproc)}" --target fuzz_scene fuzz_recording pegsim_cli

corpus="$BUILD/corpus"
mkdir -p "$corpus/scene" "$corpus/recording" "$BUILD/crashes" "$BUILD/tmp"
cp scenes/*.yaml tests/data/*.yaml "$corpus/scene/"
cp data/problems/*.h5 "$corpus/recording/"
ASAN_OPTIONS=detect_leaks=0 "$BUILD/pegsim" run scenes/box-stack-2d.yaml --steps 5 --quiet \
  --record "$corpus/recording/box-stack-2d.h5" >/dev/null

export ASAN_OPTIONS="detect_leaks=1:halt_on_error=1:abort_on_error=1"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
export TMPDIR="$PWD/$BUILD/tmp"
status=0
for target in scene recording; do
  echo "fuzz: fuzz_$target for ${SECONDS_EACH} s"
  # -timeout: an input that runs 10 s is a hang; -rss_limit_mb: one that grows past 2 GB a blow-up
  "$BUILD/fuzz_$target" "$corpus/$target" -max_total_time="$SECONDS_EACH" -timeout=10 -rss_limit_mb=2048 \
    -max_len=65536 -artifact_prefix="$BUILD/crashes/$target-" -print_final_stats=1 2>&1 |
    grep -E "^#[0-9]+ *DONE|stat::number_of_executed_units|ERROR|SUMMARY|Test unit written|==[0-9]+==" || true
  [ "${PIPESTATUS[0]}" -eq 0 ] || status=1
done
[ $status -eq 0 ] && echo "fuzz: no crash" || echo "fuzz: crashes in $BUILD/crashes/" >&2
exit $status
