#!/usr/bin/env bash
# Builds the libFuzzer binaries with clang (Debian's clang-14; LLVM 22's
# headers compile with it) into ${HWSCHED_FUZZ_BUILD_DIR:-build-fuzz}:
#   spec_loader_fuzzer   hwsched::parseSpec + the spec's MLIR attributes
# Our sources are instrumented for coverage (-fsanitize=fuzzer) and checked
# with ASan + UBSan; libMLIR/libLLVM stay uninstrumented (vptr checks are off
# because libMLIR has no RTTI). Prints the binary's path.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=${HWSCHED_FUZZ_BUILD_DIR:-$root/build-fuzz}
cxx=${HWSCHED_FUZZ_CXX:-$(command -v clang++-14 || command -v clang++ || true)}
if [ -z "$cxx" ]; then
  echo "fuzz/build.sh: no clang++ (apt-get install clang-14)" >&2
  exit 2
fi
llvm=/usr/lib/llvm-22
mkdir -p "$out/obj"

# The embedded schema, generated the way lib/HwSpec/CMakeLists.txt does.
python3 - "$root/lib/HwSpec/SpecSchema.cpp.in" "$root/hw-specs/schema.json" \
  "$out/obj/SpecSchema.cpp.new" <<'PY'
import sys
template, schema, dest = sys.argv[1:]
text = open(template).read().replace("@HWSCHED_SCHEMA_TEXT@", open(schema).read())
open(dest, "w").write(text)
PY
if ! cmp -s "$out/obj/SpecSchema.cpp.new" "$out/obj/SpecSchema.cpp"; then
  mv "$out/obj/SpecSchema.cpp.new" "$out/obj/SpecSchema.cpp"
else
  rm "$out/obj/SpecSchema.cpp.new"
fi

launcher=$(command -v ccache || true)
flags=(-std=c++17 -O1 -g -DNDEBUG -fno-omit-frame-pointer
       -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize=vptr
       -fno-sanitize-recover=undefined
       -I"$root/include" -isystem "$llvm/include")
srcs=("$root/lib/HwSpec/HwSpec.cpp" "$root/lib/HwSpec/HwSpecLoader.cpp"
      "$root/lib/HwSpec/JsonSchema.cpp" "$root/lib/HwSpec/SpecAttributes.cpp"
      "$out/obj/SpecSchema.cpp" "$root/fuzz/spec_loader_fuzzer.cpp")
objs=()
for src in "${srcs[@]}"; do
  obj="$out/obj/$(basename "${src%.cpp}").o"
  if [ ! -f "$obj" ] || [ "$src" -nt "$obj" ] || [ "$0" -nt "$obj" ]; then
    $launcher "$cxx" "${flags[@]}" -c "$src" -o "$obj"
  fi
  objs+=("$obj")
done
"$cxx" -fsanitize=fuzzer,address,undefined -fno-sanitize=vptr "${objs[@]}" \
  -L"$llvm/lib" -Wl,-rpath,"$llvm/lib" -lMLIR -lLLVM \
  -o "$out/spec_loader_fuzzer"
echo "$out/spec_loader_fuzzer"
