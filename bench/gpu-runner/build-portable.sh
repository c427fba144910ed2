#!/usr/bin/env bash
# bench/gpu-runner/build-portable.sh [OUT]: a hwsched-gpu-run that needs
# neither LLVM nor the C++ runtime of this machine at run time.
#
# The CMake build links LLVM's Support through the shared libLLVM (150 MB),
# as every hwsched program does. A GPU machine borrowed for a measurement
# (a cloud box, a colleague's workstation) rarely has LLVM 22; this build
# links Support and libstdc++ statically, so the program needs only the C
# library and cuBLAS there (the CUDA driver is opened at run time, as
# always). Sources and options are those of the CMake target.
#
# OUT defaults to build/portable/hwsched-gpu-run. On the GPU machine, point
# the loader at that machine's cuBLAS if it is not on its default path:
#   LD_LIBRARY_PATH=$(dirname "$(find / -name libcublas.so.13 -print -quit)")
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
out=${1:-$root/build/portable/hwsched-gpu-run}
llvm=${LLVM_DIR_ROOT:-/usr/lib/llvm-22}
cuda=${CUDAToolkit_ROOT:-/usr/local/cuda}
cxx=${CXX:-g++}

for need in "$llvm/include/llvm/Support/JSON.h" "$llvm/lib/libLLVMSupport.a" \
            "$cuda/include/cublas_v2.h"; do
  if [ ! -e "$need" ]; then
    echo "build-portable.sh: $need not found (LLVM_DIR_ROOT=$llvm," \
         "CUDAToolkit_ROOT=$cuda; scripts/bootstrap.sh installs both)" >&2
    exit 2
  fi
done
culib=$cuda/lib64
[ -e "$culib/libcublas.so" ] || culib=$cuda/lib

mkdir -p "$(dirname "$out")"
echo "build-portable.sh: compiling $out (about 20 s)"
"$cxx" -O2 -std=c++17 -DNDEBUG -I"$llvm/include" -I"$cuda/include" -I"$here" \
  "$here/hwsched-gpu-run.cpp" "$here/GpuRunnerCuda.cpp" \
  "$here/GpuRunnerCore.cpp" -o "$out" \
  "$llvm/lib/libLLVMSupport.a" "$llvm/lib/libLLVMDemangle.a" \
  -L"$culib" -lcublas -ldl -lpthread -static-libstdc++ -static-libgcc
echo "build-portable.sh: $out needs at run time:"
ldd "$out" | sed 's/^/  /'
# The mma.sync ceiling program (mma-sync-peak.cu), where the toolkit has
# nvcc: the CUDA runtime linked statically, so it too needs only the driver.
if [ -x "$cuda/bin/nvcc" ]; then
  peak=$(dirname "$out")/mma-sync-peak
  echo "build-portable.sh: compiling $peak"
  "$cuda/bin/nvcc" -O3 -std=c++17 -gencode arch=compute_80,code=sm_80 \
    -gencode arch=compute_90,code=[sm_90,compute_90] -o "$peak" "$here/mma-sync-peak.cu"
fi

