//===- hwsched-opt.cpp - mlir-opt with the hwsched extension --------------===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//
//
// Everything the stock mlir-opt registers, plus the hwsched transform ops and
// passes, plus --hwsched-target to retarget unmodified scripts.
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

  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "hwsched optimizer driver\n", registry));
}
