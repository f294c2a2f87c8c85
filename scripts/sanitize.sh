#!/usr/bin/env bash
# The C++ test suite under AddressSanitizer + UndefinedBehaviorSanitizer
# (LeakSanitizer comes with ASan on Linux), in a second build folder.
#
#   bash scripts/sanitize.sh                 # every gtest binary (test_*)
#   PEGSIM_SANITIZE_TESTS="test_geometry test_solvers" bash scripts/sanitize.sh
#
# Choices (docs/reliability.md):
# - GCC, -O1 -g: about twice the Release build's speed under ASan, and the
#   same compiler as the main build (so the same warnings).
# - Only the C++ gtest binaries. The Python tests (pytest) would need the
#   interpreter started with libasan preloaded, and CPython and numpy report
#   their own leaks; the Python module's C++ is the same library the gtests
#   link, so they are left out here.
# - The CLI tests (tests/cli) run the sanitized pegsim binary (a dependency of theirs).
# - Every finding aborts (halt_on_error, -fno-sanitize-recover): a suppression
#   would go in scripts/sanitize.supp with its reason; there are none.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${PEGSIM_SANITIZE_BUILD:-build-sanitize}
FLAGS="-O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=undefined"
cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Debug \
  -DCMAKE_CXX_FLAGS="$FLAGS" -DCMAKE_C_FLAGS="$FLAGS" \
  -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined" -DCMAKE_SHARED_LINKER_FLAGS="-fsanitize=address,undefined" \
  -DPEGSIM_BUILD_PYTHON=OFF -DPEGSIM_BUILD_BENCH=OFF -DPEGSIM_BUILD_EXAMPLES=OFF ${PEGSIM_CMAKE_ARGS:-} >/dev/null
TESTS=${PEGSIM_SANITIZE_TESTS:-}
if [ -z "$TESTS" ]; then
  TESTS=$(cd tests && for d in */; do ls "$d"*.cpp >/dev/null 2>&1 && echo "test_${d%/}"; done | tr '\n' ' ')
fi
# shellcheck disable=SC2086
cmake --build "$BUILD" -j"${PEGSIM_JOBS:-$(nproc)}" --target $TESTS
export ASAN_OPTIONS="detect_leaks=1:halt_on_error=1:abort_on_error=1:strict_string_checks=1:detect_stack_use_after_return=1"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
[ -s scripts/sanitize.supp ] && export LSAN_OPTIONS="suppressions=$PWD/scripts/sanitize.supp"
mkdir -p "$BUILD/test-tmp" "$BUILD/test-logs"
# the binaries run side by side, PEGSIM_JOBS at a time (each one test at a
# time inside), each into its own log; a failing one's log is printed
run_one() {
  local t=$1 start=$SECONDS
  # shellcheck disable=SC2086
  if TMPDIR="$PWD/$BUILD/test-tmp" "$BUILD/tests/$t" --gtest_brief=1 ${PEGSIM_SANITIZE_GTEST_ARGS:-} \
      > "$BUILD/test-logs/$t.log" 2>&1; then
    echo "sanitize: $t clean ($((SECONDS - start)) s)"
  else
    echo "sanitize: $t FAILED ($((SECONDS - start)) s):"
    tail -n 60 "$BUILD/test-logs/$t.log"
    return 1
  fi
}
jobs_max=${PEGSIM_JOBS:-$(nproc)}
failed=()
pids=()
names=()
for t in $TESTS; do
  while [ "$(jobs -rp | wc -l)" -ge "$jobs_max" ]; do sleep 1; done
  run_one "$t" &
  pids+=($!)
  names+=("$t")
done
for i in "${!pids[@]}"; do
  wait "${pids[$i]}" || failed+=("${names[$i]}")
done
if [ ${#failed[@]} -gt 0 ]; then
  echo "sanitize: FAILED: ${failed[*]}" >&2
  exit 1
fi
echo "sanitize: all clean: $TESTS"
