#!/usr/bin/env bash
# The main job: runs a shipped transform script with the default hardware spec
# on a shipped example and prints the decisions (the ops' explain remarks)
# and the scheduled IR. Usage:
#   scripts/main-job.sh [example-name] [extra hwsched-opt options]
# e.g. scripts/main-job.sh smem-merge --hwsched-target=nvidia-h100
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${HWSCHED_BUILD_DIR:-$root/build}
example=${1:-smem-merge}
shift || true

# Progress lines of the package install and the build go to stderr.
echo "main-job: installing what is missing and building hwsched (scripts/build.sh)" >&2
"$root/scripts/build.sh"
dir="$root/examples/$example"
# examples/gpu-matmul has a run.py (it also lowers to PTX and runs ptxas).
if [ -f "$dir/run.py" ] && [ ! -f "$dir/run.sh" ]; then
  HWSCHED_OPT="$build/bin/hwsched-opt" exec python3 "$dir/run.py" "$@"
fi
if [ ! -f "$dir/run.sh" ]; then
  echo "main-job: no example '$example' (have: $(ls "$root/examples" | tr '\n' ' '))" >&2
  exit 2
fi
HWSCHED_OPT="$build/bin/hwsched-opt" bash "$dir/run.sh" "$@"
