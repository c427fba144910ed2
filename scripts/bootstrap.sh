#!/usr/bin/env bash
# Installs what hwsched needs from Debian 12's packages, only what is missing.
# Safe to run repeatedly; needs root (or sudo) when something is missing.
set -euo pipefail

packages=(
  llvm-22-dev libmlir-22-dev mlir-22-tools llvm-22-tools  # MLIR 22, lit, FileCheck
  nlohmann-json3-dev                                      # spec parsing
  cmake ninja-build g++ ccache                            # build
  python3                                                 # lit, harness scripts
  python3-distributed                                     # hwsched-tune --scheduler (Dask)
  clang-14 libclang-rt-14-dev                             # libFuzzer targets (fuzz/build.sh)
  libomp-22-dev                                           # OpenMP runtime of the multi-threaded CPU schedule
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

# A fresh machine spends minutes here: say what is happening.
echo "bootstrap: ${#missing[@]} Debian package(s) missing: ${missing[*]}" >&2
sudo=""
if [ "$(id -u)" -ne 0 ]; then
  sudo="sudo"
fi
export DEBIAN_FRONTEND=noninteractive
# Debian 12 carries LLVM 22 in its repositories here; apt.llvm.org is the
# upstream source of the same packages where it does not.
echo "bootstrap: apt-get update ..." >&2
$sudo apt-get update -qq
echo "bootstrap: apt-get install (a few minutes on a fresh machine) ..." >&2
t0=$(date +%s)
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "bootstrap: installed in $(( $(date +%s) - t0 )) s" >&2
