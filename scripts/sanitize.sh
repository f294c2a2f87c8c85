#!/usr/bin/env bash
# The C++ test suite under AddressSanitizer + UndefinedBehaviorSanitizer
# (LeakSanitizer comes with ASan on Linux), in a second build folder.
#
#   bash scripts/sanitize.sh                 # the whole C++ suite (every test_* and example.cpp.*)
#   PEGSIM_SANITIZE_TESTS="test_geometry test_solvers" bash scripts/sanitize.sh   # some binaries
#   PEGSIM_SANITIZE_BUILD_ONLY=1 bash scripts/sanitize.sh   # build, run nothing (fills ccache)
#
# Choices (docs/reliability.md):
# - GCC, -O1 -g1: about twice the Release build's speed under ASan, and the
#   same compiler as the main build (so the same warnings); -g1 (line tables
#   only) gives the reports' file:line at less compile time than -g.
# - The C++ suite: every gtest binary and the C++ examples, run by ctest (each
#   test its own process, PEGSIM_JOBS at a time). The Python tests (pytest) would need the
#   interpreter started with libasan preloaded, and CPython and numpy report
#   their own leaks; the Python module's C++ is the same library the gtests
#   link, so they are left out here.
# - The CLI tests (tests/cli) run the sanitized pegsim binary (a dependency of theirs).
# - Every finding aborts (halt_on_error, -fno-sanitize-recover): a suppression
#   goes in scripts/lsan-suppressions.txt with its reason (two libraries'
#   leaks on damaged input, shared with scripts/fuzz.sh; nothing of pegsim's).
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${PEGSIM_SANITIZE_BUILD:-build-sanitize}
JOBS=${PEGSIM_JOBS:-$(nproc)}
FLAGS="-O1 -g1 -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=undefined"
# (CMAKE_*_FLAGS_DEBUG emptied: Debug's own -g would come after -g1 and win)
cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Debug \
  -DCMAKE_CXX_FLAGS="$FLAGS" -DCMAKE_C_FLAGS="$FLAGS" -DCMAKE_CXX_FLAGS_DEBUG="" -DCMAKE_C_FLAGS_DEBUG="" \
  -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined" -DCMAKE_SHARED_LINKER_FLAGS="-fsanitize=address,undefined" \
  -DPEGSIM_BUILD_PYTHON=OFF -DPEGSIM_BUILD_BENCH=OFF -DPEGSIM_BUILD_EXAMPLES=ON ${PEGSIM_CMAKE_ARGS:-} >/dev/null
TESTS=${PEGSIM_SANITIZE_TESTS:-}
if [ -z "$TESTS" ]; then
  # every test binary, and the C++ examples (example.cpp.*) with them
  cmake --build "$BUILD" -j"$JOBS"
  SELECT=()
else
  # shellcheck disable=SC2086
  cmake --build "$BUILD" -j"$JOBS" --target $TESTS
  # test_<stage> is ctest's label <stage> (tests/CMakeLists.txt)
  SELECT=(-L "^($(echo "$TESTS" | xargs -n1 | sed 's/^test_//' | paste -sd'|'))\$")
fi
[ -n "${PEGSIM_SANITIZE_BUILD_ONLY:-}" ] && exit 0
export ASAN_OPTIONS="detect_leaks=1:halt_on_error=1:abort_on_error=1:strict_string_checks=1:detect_stack_use_after_return=1"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
export LSAN_OPTIONS="suppressions=$PWD/scripts/lsan-suppressions.txt:print_suppressions=0"
# each test in its own process; a finding aborts that test, whose output
# (the sanitizer's report) ctest prints
start=$SECONDS
if ctest --test-dir "$BUILD" -j"$JOBS" --timeout 1800 --output-on-failure "${SELECT[@]}"; then
  echo "sanitize: the suite is clean ($((SECONDS - start)) s)"
else
  echo "sanitize: FAILED ($((SECONDS - start)) s)" >&2
  exit 1
fi
