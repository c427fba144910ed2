//===- KernelOutlining.cpp - An op into a function of its own ------------===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//
//
// MLIR's outlineSingleBlockRegion does the outlining; what it lacks is
// keeping constants constant (every value from above becomes an argument),
// so they are cloned into the region first.
//
//===----------------------------------------------------------------------===//

#include "hwsched/Transforms/KernelOutlining.h"

#include "hwsched/Support/Refusal.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Utils/Utils.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Transforms/RegionUtils.h"

using namespace mlir;

llvm::Error hwsched::checkKernelOutlinable(Operation *op) {
  if (!SymbolTable::getNearestSymbolTable(op->getParentOp()))
    return refuse(op, "the op has no symbol-table ancestor to hold the "
                      "outlined function");
  return llvm::Error::success();
}

llvm::Expected<hwsched::OutlinedKernel>
hwsched::outlineKernelFunction(RewriterBase &rewriter, Operation *op,
                               StringRef name) {
  if (llvm::Error err = checkKernelOutlinable(op))
    return std::move(err);
  // The op in a region of its own: an scf.execute_region yielding its
  // results.
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(op);
  auto region = scf::ExecuteRegionOp::create(rewriter, op->getLoc(),
                                             op->getResultTypes());
  Block *body = rewriter.createBlock(&region.getRegion());
  rewriter.replaceAllUsesWith(op->getResults(), region.getResults());
  rewriter.moveOpBefore(op, body, body->end());
  rewriter.setInsertionPointToEnd(body);
  scf::YieldOp::create(rewriter, op->getLoc(), op->getResults());

  // Constants from above, cloned in.
  llvm::SetVector<Value> captured;
  getUsedValuesDefinedAbove(region.getRegion(), captured);
  rewriter.setInsertionPointToStart(body);
  for (Value value : captured) {
    Operation *def = value.getDefiningOp();
    if (!def || !matchPattern(value, m_Constant()))
      continue;
    Operation *clone = rewriter.clone(*def);
    rewriter.replaceUsesWithIf(value, clone->getResult(0), [&](OpOperand &use) {
      return region->isProperAncestor(use.getOwner());
    });
  }

  func::CallOp call;
  FailureOr<func::FuncOp> function = outlineSingleBlockRegion(
      rewriter, op->getLoc(), region.getRegion(), name, &call);
  if (failed(function))
    return refuse(region, "the op could not be outlined into a function");
  return OutlinedKernel{*function, call};
}
