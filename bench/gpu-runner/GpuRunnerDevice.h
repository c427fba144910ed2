//===- GpuRunnerDevice.h - The CUDA half of hwsched-gpu-run -----*- C++ -*-===//
//
// Loads the PTX with the CUDA driver API, launches the kernel, runs cuBLAS
// on the same inputs, compares and times both (GpuRunnerCuda.cpp). Only
// built where CMake finds the CUDA toolkit.
//
//===----------------------------------------------------------------------===//

#ifndef HWSCHED_BENCH_GPURUNNER_GPURUNNERDEVICE_H
#define HWSCHED_BENCH_GPURUNNER_GPURUNNERDEVICE_H

#include "GpuRunnerCore.h"

namespace hwsched {
namespace gpurunner {

/// Exit status when the program cannot run at all (no driver, no device,
/// PTX the driver rejects); a result mismatch exits with 1.
constexpr int kCannotRunExit = 2;

/// Fills report.device, report.check, report.kernelTime and
/// report.cublasTime. Errors starting "no CUDA device:" mean the machine
/// has no usable driver or GPU.
llvm::Error runOnDevice(const Options &options, llvm::StringRef ptx,
                        const PtxEntry &entry, Report &report);

} // namespace gpurunner
} // namespace hwsched

#endif // HWSCHED_BENCH_GPURUNNER_GPURUNNERDEVICE_H
