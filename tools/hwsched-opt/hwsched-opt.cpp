//===- hwsched-opt.cpp - mlir-opt with the hwsched extension --------------===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//
//
// Everything the stock mlir-opt registers, plus the hwsched transform ops and
// passes, plus --hwsched-target to retarget unmodified scripts and
// --hwsched-time-trace to profile the library's steps.
//
//===----------------------------------------------------------------------===//

#include "hwsched/HwSpec/TargetResolution.h"
#include "hwsched/Support/DecisionPictures.h"
#include "hwsched/TransformOps/HwschedTransformOps.h"
#include "hwsched/Transforms/Passes.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/TimeProfiler.h"
#include "llvm/Support/WithColor.h"

static llvm::cl::opt<std::string> defaultTarget(
    "hwsched-target",
    llvm::cl::desc("Hardware spec (name or .json path) for hwsched ops that "
                   "name no target and whose payload records none"),
    llvm::cl::init(""),
    llvm::cl::cb<void, std::string>([](const std::string &target) {
      hwsched::setDefaultTarget(target);
    }));

static llvm::cl::opt<std::string> pictureDir(
    "hwsched-svg-dir",
    llvm::cl::desc("Write SVG pictures of hwsched decisions (memory layouts, "
                   "pipeline schedules) into this directory"),
    llvm::cl::init(""),
    llvm::cl::cb<void, std::string>([](const std::string &dir) {
      hwsched::setPictureDirectory(dir);
    }));

// The library's steps (hwsched/Support/TimeTrace.h) as a Chrome trace: the
// per-step times that --mlir-timing cannot show, since the whole transform
// script is one pass there. Wall-clock durations, microseconds.
static llvm::cl::opt<std::string> timeTraceFile(
    "hwsched-time-trace",
    llvm::cl::desc("Write a Chrome trace (JSON) of the hwsched library's "
                   "steps (tile selection, dependence analysis, stage "
                   "scheduling, pipelining) to this file"),
    llvm::cl::value_desc("file"), llvm::cl::init(""),
    llvm::cl::cb<void, std::string>([](const std::string &file) {
      // Granularity 0: every event, however short (a tile selection takes
      // well under the profiler's usual 500 us).
      if (!file.empty())
        llvm::timeTraceProfilerInitialize(/*TimeTraceGranularity=*/0,
                                          "hwsched-opt");
    }));

int main(int argc, char **argv) {
  mlir::registerAllPasses();
  hwsched::registerHwschedPasses();

  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  // As in mlir-opt: gpu-module-to-binary needs the GPU dialects' LLVM IR
  // translations, so the ptxas harness can run on hwsched-opt alone.
  mlir::registerAllGPUToLLVMIRTranslations(registry);
  hwsched::registerTransformExtension(registry);

  mlir::LogicalResult result =
      mlir::MlirOptMain(argc, argv, "hwsched optimizer driver\n", registry);
  if (llvm::timeTraceProfilerEnabled()) {
    llvm::Error written =
        llvm::timeTraceProfilerWrite(timeTraceFile, "hwsched-opt");
    llvm::timeTraceProfilerCleanup();
    if (written) {
      llvm::WithColor::error(llvm::errs(), "hwsched-opt")
          << "cannot write the time trace: "
          << llvm::toString(std::move(written)) << "\n";
      return 1;
    }
  }
  return mlir::asMainReturnCode(result);
}
