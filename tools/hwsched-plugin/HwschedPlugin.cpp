//===- HwschedPlugin.cpp - hwsched as an mlir-opt dialect plugin ----------===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//
//
// `mlir-opt --load-dialect-plugin=HwschedPlugin.so` runs the same scripts as
// hwsched-opt. The default target comes from $HWSCHED_TARGET here, since a
// plugin cannot add command-line options to a tool that already parsed them.
//
//===----------------------------------------------------------------------===//

#include "hwsched/TransformOps/HwschedTransformOps.h"
#include "hwsched/Transforms/Passes.h"

#include "mlir/Tools/Plugins/DialectPlugin.h"
#include "llvm/Config/llvm-config.h"

extern "C" LLVM_ATTRIBUTE_WEAK mlir::DialectPluginLibraryInfo
mlirGetDialectPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "HwschedPlugin", LLVM_VERSION_STRING,
          [](mlir::DialectRegistry *registry) {
            hwsched::registerTransformExtension(*registry);
            // Pass pipelines are parsed after plugins load, so the passes
            // are usable through --pass-pipeline.
            hwsched::registerHwschedPasses();
          }};
}
