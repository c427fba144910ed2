#!/usr/bin/env bash
# Builds the libFuzzer binaries with clang (Debian's clang-14; LLVM 22's
# headers compile with it) into ${HWSCHED_FUZZ_BUILD_DIR:-build-fuzz}, a
# CMake build with HWSCHED_ENABLE_FUZZERS=ON: all hwsched code (the static
# libraries and the targets) is instrumented for coverage
# (-fsanitize=fuzzer-no-link) and checked with ASan + UBSan; Debian's
# libMLIR.so / libLLVM.so stay uninstrumented (vptr checks are off because
# libMLIR has no RTTI); clang links against the same libstdc++ as g++.
#   hwsched-spec-loader-fuzzer   hwsched::parseSpec + the spec's MLIR attributes
#   hwsched-op-fuzzer            every transform op, in-process, on generated
#                                or mutated payloads (fuzz/op_fuzzer.cpp)
# Prints the two binaries' paths (spec loader first). -O1 and ccache keep the
# first build at a few minutes of CPU and later ones at seconds.
#   fuzz/build.sh --all   builds every target of that build (hwsched-opt, the
#                         plugin, the unit tests...): the ASan + UBSan build
#                         that scripts/test-sanitized.sh runs the lit suites on.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=${HWSCHED_FUZZ_BUILD_DIR:-$root/build-fuzz}
cxx=${HWSCHED_FUZZ_CXX:-$(command -v clang++-14 || command -v clang++ || true)}
if [ -z "$cxx" ]; then
  echo "fuzz/build.sh: no clang++ (apt-get install clang-14)" >&2
  exit 2
fi
cc=${cxx/clang++/clang}
if [ ! -f "$out/build.ninja" ]; then
  cmake -G Ninja -S "$root" -B "$out" \
    -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_FLAGS_RELEASE=-O1 \
    -DCMAKE_C_COMPILER="$cc" -DCMAKE_CXX_COMPILER="$cxx" \
    -DLLVM_EXTERNAL_LIT=/usr/lib/llvm-22/bin/lit \
    -DHWSCHED_ENABLE_FUZZERS=ON >/dev/null
fi
if [ "${1:-}" = --all ]; then
  # Every target (tools, plugin, unit tests, fuzzers): the sanitized lit run
  # (scripts/test-sanitized.sh) tests this build.
  cmake --build "$out" -j "${HWSCHED_FUZZ_JOBS:-2}" >&2
else
  cmake --build "$out" -j "${HWSCHED_FUZZ_JOBS:-2}" --target hwsched-spec-loader-fuzzer \
    hwsched-op-fuzzer >&2
fi
echo "$out/bin/hwsched-spec-loader-fuzzer"
echo "$out/bin/hwsched-op-fuzzer"
