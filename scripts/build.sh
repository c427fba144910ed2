#!/usr/bin/env bash
# Configures (once) and builds hwsched into ${HWSCHED_BUILD_DIR:-build}.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${HWSCHED_BUILD_DIR:-$root/build}

"$root/scripts/bootstrap.sh"
if [ ! -f "$build/build.ninja" ]; then
  cmake -G Ninja -S "$root" -B "$build" \
    -DCMAKE_BUILD_TYPE=Release \
    -DLLVM_EXTERNAL_LIT=/usr/lib/llvm-22/bin/lit \
    "$@" >/dev/null
fi
cmake --build "$build" >&2
