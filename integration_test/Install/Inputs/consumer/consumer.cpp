//===- consumer.cpp - Uses an installed hwsched
//-----------------------------===//
//
// Registers the hwsched transform extension, checks its ops are known, and
// reads a figure of a shipped spec.
//
//===----------------------------------------------------------------------===//

#include "hwsched/HwSpec/HwSpecLoader.h"
#include "hwsched/TransformOps/HwschedTransformOps.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/raw_ostream.h"

int main() {
  mlir::DialectRegistry registry;
  registry.insert<mlir::transform::TransformDialect>();
  hwsched::registerTransformExtension(registry);
  mlir::MLIRContext context(registry);
  context.loadAllAvailableDialects();
  for (llvm::StringRef name : {"transform.smem.merge_allocations",
                               "transform.pipeline.schedule_stages",
                               "transform.cost_model.filter_fusable_consumers"})
    llvm::outs() << name << " registered: "
                 << (context.isOperationRegistered(name) ? "yes" : "no")
                 << "\n";
  llvm::Expected<hwsched::HwSpec> spec = hwsched::loadSpec("nvidia-h100");
  if (!spec) {
    llvm::errs() << llvm::toString(spec.takeError()) << "\n";
    return 1;
  }
  llvm::outs() << "nvidia-h100 gpu.sm_count = "
               << *spec->getInteger("gpu.sm_count") << "\n";
  return 0;
}
