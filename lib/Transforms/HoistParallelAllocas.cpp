//===- HoistParallelAllocas.cpp - Per-thread allocas in OpenMP regions ----===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//

#include "hwsched/Transforms/Passes.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/OpenMP/OpenMPDialect.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace hwsched {
#define GEN_PASS_DEF_HWSCHEDHOISTPARALLELALLOCAS
#include "hwsched/Transforms/Passes.h.inc"
} // namespace hwsched

using namespace mlir;

namespace {
struct HoistParallelAllocasPass
    : hwsched::impl::HwschedHoistParallelAllocasBase<HoistParallelAllocasPass> {
  void runOnOperation() override {
    SmallVector<memref::AllocaScopeOp> scopes;
    getOperation()->walk([&](memref::AllocaScopeOp scope) {
      if (scope->getParentOfType<omp::ParallelOp>())
        scopes.push_back(scope);
    });
    if (scopes.empty())
      return;
    for (memref::AllocaScopeOp scope : scopes) {
      Block &entry =
          scope->getParentOfType<omp::ParallelOp>().getRegion().front();
      for (memref::AllocaOp alloca : llvm::make_early_inc_range(
               scope.getBodyRegion().front().getOps<memref::AllocaOp>()))
        // Operands (dynamic sizes) may be defined inside the loop.
        if (alloca->getNumOperands() == 0)
          alloca->moveBefore(&entry, entry.begin());
    }
    // Inline the scopes that no longer hold an alloca (upstream's
    // canonicalization of memref.alloca_scope does exactly that).
    RewritePatternSet patterns(&getContext());
    memref::AllocaScopeOp::getCanonicalizationPatterns(patterns, &getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};
} // namespace
