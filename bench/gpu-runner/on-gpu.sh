#!/usr/bin/env bash
# bench/gpu-runner/on-gpu.sh RUNNER FOLDER...: time prepared kernels on the
# GPU machine this runs on, against cuBLAS, in one go.
#
# For a machine that has a GPU but not LLVM: schedule and lower where LLVM
# is, carry the folders and a portable runner (build-portable.sh), run this
# there. Each FOLDER is either
#   - a folder `bench/gpu-runner/run.py --keep FOLDER --dry-run` wrote (the
#     shipped schedule per shape): run.py --prepared runs it, or
#   - a folder holding <name>.ptx + <name>.launch.json pairs (a kernel and
#     how to launch it: m, n, k, type, grid, block, smem, args, c_init,
#     epilogue, entry; for TMA kernels tma_box_a, tma_box_b ([inner, outer]),
#     tma_swizzle, tma_l2_promotion), as bench/gpu-runner/tensorcore-ptx.py
#     writes them.
# First it prints what it runs on (GPU, driver, clocks, host CPU), since
# timings mean nothing without it. Reports go to $OUT (or ./gpu-reports).
set -uo pipefail
runner=$1
shift
here=$(cd "$(dirname "$0")" && pwd)
out=${OUT:-$PWD/gpu-reports}
mkdir -p "$out"
reps=${HWSCHED_GPU_REPS:-20}
# A kernel that waits forever (an mbarrier never completed) must not take
# the machine's whole time: each launch gets this many seconds.
limit=${HWSCHED_GPU_TIMEOUT:-60}

if ! ldd "$runner" | grep -q 'libcublas.so.13 => /'; then
  lib=$(find / -xdev -name libcublas.so.13 -print -quit 2>/dev/null)
  [ -n "$lib" ] && export LD_LIBRARY_PATH=$(dirname "$lib")${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
fi
echo "== device"
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.max.sm,clocks.mem,temperature.gpu,power.draw --format=csv
echo "host CPU: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2-)"
echo "cuBLAS: $(ldd "$runner" | grep libcublas.so)"
status=0
for folder in "$@"; do
  # Reports are named after the folder's last two components: folders
  # that tensorcore-ptx.py or swizzle-ptx.py wrote end in the architecture
  # (ours-f16-sm_90/sm_90, upstream-f16-sm_90/sm_90), and the basename alone
  # made their reports overwrite each other.
  folder=${folder%/}
  name=$(basename "$folder")
  parent=$(basename "$(dirname "$folder")")
  case "$parent" in .|/|"") ;; *) name=$parent-$name ;; esac
  echo "== $folder"
  if [ -e "$folder/model_check.json" ]; then
    python3 "$here/model_check.py" --run "$folder" --runner "$runner" \
      --json "$out/$name.json" || status=1
    continue
  fi
  if [ -e "$folder/prepared.json" ]; then
    python3 "$here/run.py" --prepared "$folder" --runner "$runner" \
      --reps "$reps" --json "$out/$name.json" || status=1
    continue
  fi
  for launch in "$folder"/*.launch.json; do
    ptx=${launch%.launch.json}.ptx
    args=$(python3 - "$launch" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
a = ["--m", d["m"], "--n", d["n"], "--k", d["k"], "--type", d["type"],
     "--grid", ",".join(map(str, d["grid"])),
     "--block", ",".join(map(str, d["block"])),
     "--smem", d.get("smem", 0), "--args", d["args"],
     "--c-init", d.get("c_init", "nan"),
     "--epilogue", d.get("epilogue", "none")]
if d.get("entry"):
    a += ["--kernel", d["entry"]]
# TMA kernels (args tmapA/tmapB): boxes as [inner, outer] in elements.
for key in ("tma_box_a", "tma_box_b"):
    if key in d:
        a += ["--" + key.replace("_", "-"), ",".join(map(str, d[key]))]
for key in ("tma_swizzle", "tma_l2_promotion"):
    if key in d:
        a += ["--" + key.replace("_", "-"), d[key]]
print(" ".join(str(x) for x in a))
PY
)
    base=$(basename "${launch%.launch.json}")
    echo "-- $base: $args"
    # shellcheck disable=SC2086
    timeout "$limit" "$runner" "$ptx" $args --reps "$reps" \
      --json "$out/$name-$base.json" 2>&1 | tail -n 12
    rc=${PIPESTATUS[0]}
    [ "$rc" = 124 ] && echo "-- $base: TIMEOUT after ${limit}s (the kernel did not finish)"
    [ "$rc" = 0 ] || status=1
  done
done
python3 "$here/summary.py" "$out"
exit $status
