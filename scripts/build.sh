#!/usr/bin/env bash
# Configures (once) and builds hwsched into ${HWSCHED_BUILD_DIR:-build}.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${HWSCHED_BUILD_DIR:-$root/build}

# Progress goes to stderr, one line per stage (and per tenth of the build
# when stderr is not a terminal), so that a fresh machine is never silent
# for minutes; ninja's own lines stay in $build/build.log.
say() { echo "build: $*" >&2; }
say "checking Debian packages (scripts/bootstrap.sh)"
"$root/scripts/bootstrap.sh"
if [ ! -f "$build/build.ninja" ]; then
  say "configuring $build (cmake, once)"
  cmake -G Ninja -S "$root" -B "$build" \
    -DCMAKE_BUILD_TYPE=Release \
    -DLLVM_EXTERNAL_LIT=/usr/lib/llvm-22/bin/lit \
    "$@" >/dev/null
fi
if [ -t 2 ]; then
  cmake --build "$build" >&2
  exit 0
fi
say "compiling (the first build takes several minutes on 2 cores; log: $build/build.log)"
t0=$(date +%s)
status=0
# ninja prints "[done/total] ..." per step: report every tenth.
cmake --build "$build" 2>&1 | tee "$build/build.log" | awk '
  match($0, /^\[[0-9]+\/[0-9]+\]/) {
    split(substr($0, 2, RLENGTH - 2), n, "/")
    if (n[2] >= 20 && int(10 * n[1] / n[2]) > last) {
      last = int(10 * n[1] / n[2])
      printf "build: %d/%d steps\n", n[1], n[2] > "/dev/stderr"; fflush("/dev/stderr")
    }
  }' || status=$?
# (pipefail: a failed ninja fails the pipeline.)
[ "$status" = 0 ] || {
  say "FAILED; the end of $build/build.log:"
  tail -40 "$build/build.log" >&2
  exit 1
}
say "done in $(( $(date +%s) - t0 )) s"
