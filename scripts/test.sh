#!/usr/bin/env bash
# Builds hwsched and runs both lit suites in one lit run: test/ (the fast
# FileCheck tests) and integration_test/ (CPU execution, ptxas, the Python
# harnesses, the robustness corpus, fuzz replays, the examples); prints
# "lit: N passed, N failed, N skipped (test/ (fast): ...; integration_test/:
# ...)" and ends with one summary line, "N passed, N failed, N skipped".
# Extra arguments go to lit (e.g. a test path or --filter); with them, only
# that lit run happens. Only the fast suite, without this script:
#   /usr/lib/llvm-22/bin/lit build/test    (or: ninja -C build check-hwsched)
#
# Further steps of a full run, each with its own summary line, counted in the
# final line (a step that fails counts as one failed test):
#   HWSCHED_FUZZ=1 (default)    short fixed-seed libFuzzer runs of the spec
#                               loader and of the ops (fuzz/run-ci.sh; builds
#                               build-fuzz/ with clang; skipped without clang)
#   HWSCHED_SANITIZE=1          both lit suites again on an ASan + UBSan
#                               build (scripts/test-sanitized.sh: the clang
#                               build-fuzz/ of the step above, every target;
#                               a g++ build-asan/ without clang)
#                               (.ci/run turns it on)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${HWSCHED_BUILD_DIR:-$root/build}

summarize() { # results.xml -> "passed failed skipped"
  python3 "$root/scripts/lit-summary.py" "$1"
}

t0=$(date +%s)
echo "test: installing what is missing and building hwsched (scripts/build.sh)" >&2
"$root/scripts/build.sh"
t1=$(date +%s)
echo "test: running lit on ${*:-$build/test} (build took $((t1 - t0)) s)" >&2
results="$build/test-results.xml"
rm -f "$results"
status=0
if [ $# -eq 0 ]; then
  set -- "$build/test" "$build/integration_test"
  whole=1
else
  whole=0
fi
/usr/lib/llvm-22/bin/lit -sv --time-tests --xunit-xml-output="$results" \
  "$@" || status=$?
read -r passed failed skipped < <(summarize "$results")
t2=$(date +%s)
timings="build $((t1 - t0)) s, lit $((t2 - t1)) s"
if [ "$whole" = 1 ]; then
  by_suite=$(python3 "$root/scripts/lit-summary.py" "$results" --by-suite |
    sed -e 's/^HWSCHED-INTEGRATION:/integration_test\/:/' -e 's/^HWSCHED:/test\/ (fast):/' |
    paste -sd ';' | sed 's/;/; /g')
  echo "lit: $passed passed, $failed failed, $skipped skipped ($by_suite)"
  if [ "${HWSCHED_FUZZ:-1}" = 1 ]; then
    if "$root/fuzz/run-ci.sh"; then
      passed=$((passed + 1))
    else
      failed=$((failed + 1)); status=1
    fi
    t3=$(date +%s); timings="$timings, libfuzzer $((t3 - t2)) s"; t2=$t3
  fi
  if [ "${HWSCHED_SANITIZE:-0}" = 1 ]; then
    log=$(mktemp)
    if "$root/scripts/test-sanitized.sh" >"$log" 2>&1; then s=0; else s=$?; fi
    [ "$s" -eq 0 ] || cat "$log"
    grep -E '^ *[0-9.]+s: HWSCHED :: ' "$log" | head -5 | sed 's/^ */sanitized slowest: /' || true
    line=$(grep '^sanitized: [0-9]* passed' "$log" | tail -1)
    if [ -n "$line" ]; then
      echo "$line"
      read -r sp sf ss < <(echo "$line" | sed 's/sanitized: \([0-9]*\) passed, \([0-9]*\) failed, \([0-9]*\) skipped/\1 \2 \3/')
      passed=$((passed + sp)); failed=$((failed + sf)); skipped=$((skipped + ss))
    else
      tail -30 "$log"
      failed=$((failed + 1))
    fi
    [ "$s" -eq 0 ] || status=1
    rm -f "$log"
    t3=$(date +%s); timings="$timings, sanitized build+lit $((t3 - t2)) s"
  fi
  echo "timings: $timings"
fi
echo "$passed passed, $failed failed, $skipped skipped"
exit $status
