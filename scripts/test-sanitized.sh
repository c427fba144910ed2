#!/usr/bin/env bash
# Builds hwsched with AddressSanitizer + UndefinedBehaviorSanitizer on our code
# (HWSCHED_ENABLE_SANITIZERS; libMLIR stays uninstrumented) into
# ${HWSCHED_ASAN_BUILD_DIR:-build-asan} and runs both lit suites on it (test/ and
# integration_test/).
# Ends with one summary line, "sanitized: N passed, N failed, N skipped".
# Extra arguments go to lit (e.g. a test path).
#
# Our executables link the sanitizer runtimes, so no LD_PRELOAD is needed for
# them; the lit config preloads libasan only into the stock mlir-opt that
# loads the plugin. Sanitizer options (set by test/lit.cfg.py unless given
# here): leaks are detected, UBSan halts on the first report, so any report
# fails its test.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${HWSCHED_ASAN_BUILD_DIR:-$root/build-asan}

start=$(date +%s)
HWSCHED_BUILD_DIR="$build" "$root/scripts/build.sh" \
  -DHWSCHED_ENABLE_SANITIZERS=ON
built=$(date +%s)
# A build configured without sanitizers would silently test the wrong thing.
if ! grep -q '^HWSCHED_ENABLE_SANITIZERS:BOOL=ON' "$build/CMakeCache.txt"; then
  echo "test-sanitized: $build is not configured with HWSCHED_ENABLE_SANITIZERS=ON" >&2
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
