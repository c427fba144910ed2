#!/usr/bin/env bash
# Builds hwsched with AddressSanitizer + UndefinedBehaviorSanitizer on our code
# (libMLIR stays uninstrumented) and runs both lit suites on it (test/ and
# integration_test/). Which build:
#   with clang (clang++-14 or clang++): the libFuzzer build,
#     ${HWSCHED_FUZZ_BUILD_DIR:-build-fuzz} (fuzz/build.sh --all: clang, ASan +
#     UBSan, coverage instrumentation for libFuzzer), so that CI, which runs
#     the fuzzers from that build too, compiles the instrumented code once
#     instead of twice (a whole g++ ASan build was about 20 minutes of CI);
#   without clang, or with HWSCHED_ASAN_BUILD_DIR set: a g++ build with
#     HWSCHED_ENABLE_SANITIZERS=ON in ${HWSCHED_ASAN_BUILD_DIR:-build-asan}.
# Ends with one summary line, "sanitized: N passed, N failed, N skipped".
# Extra arguments go to lit (e.g. a test path).
#
# Our executables link the sanitizer runtimes, so no LD_PRELOAD is needed for
# them; the lit config preloads the compiler's ASan runtime only into the
# stock mlir-opt that loads the plugin. Sanitizer options (set by
# test/lit.cfg.py unless given here): leaks are detected, UBSan halts on the
# first report, so any report fails its test.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
clang=$(command -v clang++-14 || command -v clang++ || true)

start=$(date +%s)
if [ -z "${HWSCHED_ASAN_BUILD_DIR:-}" ] && [ -n "$clang" ]; then
  build=${HWSCHED_FUZZ_BUILD_DIR:-$root/build-fuzz}
  echo "test-sanitized: the clang ASan + UBSan build in $build (fuzz/build.sh --all)"
  "$root/fuzz/build.sh" --all >/dev/null
else
  build=${HWSCHED_ASAN_BUILD_DIR:-$root/build-asan}
  echo "test-sanitized: the g++ ASan + UBSan build in $build"
  HWSCHED_BUILD_DIR="$build" "$root/scripts/build.sh" \
    -DHWSCHED_ENABLE_SANITIZERS=ON
fi
built=$(date +%s)
# A build configured without sanitizers would silently test the wrong thing.
if ! grep -q -E '^HWSCHED_ENABLE_(SANITIZERS|FUZZERS):BOOL=ON' "$build/CMakeCache.txt"; then
  echo "test-sanitized: $build is configured with neither HWSCHED_ENABLE_SANITIZERS nor HWSCHED_ENABLE_FUZZERS" >&2
  exit 2
fi
results="$build/test-results.xml"
rm -f "$results"
status=0
[ $# -gt 0 ] || set -- "$build/test" "$build/integration_test"
/usr/lib/llvm-22/bin/lit -sv --time-tests --xunit-xml-output="$results" \
  "$@" || status=$?
read -r passed failed skipped < <(python3 "$root/scripts/lit-summary.py" "$results")
echo "sanitized: $passed passed, $failed failed, $skipped skipped"
echo "sanitized: build $((built - start)) s, lit $(( $(date +%s) - built )) s"
exit $status
