#!/usr/bin/env bash
# Builds hwsched and runs the whole lit suite; ends with one summary line,
# "N passed, N failed, N skipped". Extra arguments go to lit (e.g. a test
# path or --filter).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${HWSCHED_BUILD_DIR:-$root/build}

"$root/scripts/build.sh"
results="$build/test-results.xml"
rm -f "$results"
status=0
/usr/lib/llvm-22/bin/lit -sv --xunit-xml-output="$results" \
  "${@:-$build/test}" || status=$?
python3 - "$results" <<'PY'
import sys, xml.etree.ElementTree as ET
try:
    root = ET.parse(sys.argv[1]).getroot()
except Exception as e:
    print(f"0 passed, 1 failed (no lit results: {e})")
    sys.exit(0)
cases = root.iter("testcase")
passed = failed = skipped = 0
for c in cases:
    if c.find("failure") is not None or c.find("error") is not None:
        failed += 1
    elif c.find("skipped") is not None:
        skipped += 1
    else:
        passed += 1
print(f"{passed} passed, {failed} failed, {skipped} skipped")
PY
exit $status
