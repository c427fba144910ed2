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
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Transforms/RegionUtils.h"

using namespace mlir;

/// The function around `op` and the symbol table that holds it (where the
/// outlined function goes), or nulls.
static std::pair<FunctionOpInterface, Operation *>
enclosingFunctionAndTable(Operation *op) {
  auto function = op->getParentOfType<FunctionOpInterface>();
  if (!function)
    return {nullptr, nullptr};
  Operation *table = function->getParentOp();
  if (!table || !table->hasTrait<OpTrait::SymbolTable>())
    return {function, nullptr};
  return {function, table};
}

llvm::Error hwsched::checkKernelOutlinable(Operation *op, StringRef name) {
  if (name.empty())
    return refuse(op, "func_name is empty: name the function to create");
  if (isa<FunctionOpInterface, SymbolOpInterface>(op) ||
      op->hasTrait<OpTrait::SymbolTable>())
    return refuse(op, "the op is a function, a symbol or a symbol table; "
                      "outline an op inside a function body");
  auto [function, table] = enclosingFunctionAndTable(op);
  if (!function)
    return refuse(op, "the op is not inside a function: the outlined "
                      "function is placed beside the one that holds the op");
  if (!table)
    return refuse(op, "the function holding the op is not in a symbol "
                      "table (a module), which the new function needs");
  if (op->hasTrait<OpTrait::IsTerminator>())
    return refuse(op, "the op terminates its block; only an op its block "
                      "goes on after can move into a function");
  if (op->getParentOp()->hasTrait<OpTrait::IsTerminator>())
    return refuse(op, "the op is inside the region of a terminator ('" +
                          op->getParentOp()->getName().getStringRef().str() +
                          "'), which holds only ops of its own kind");
  return llvm::Error::success();
}

/// `base`, or `base_0`, `base_1`, ... : the first name no symbol in `table`
/// has.
static std::string uniqueSymbolName(Operation *table, StringRef base) {
  if (!SymbolTable::lookupSymbolIn(table, base))
    return base.str();
  for (unsigned i = 0;; ++i) {
    std::string candidate = (base + "_" + llvm::Twine(i)).str();
    if (!SymbolTable::lookupSymbolIn(table, candidate))
      return candidate;
  }
}

llvm::Expected<hwsched::OutlinedKernel>
hwsched::outlineKernelFunction(RewriterBase &rewriter, Operation *op,
                               StringRef name) {
  if (llvm::Error err = checkKernelOutlinable(op, name))
    return std::move(err);
  std::string unique =
      uniqueSymbolName(enclosingFunctionAndTable(op).second, name);
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
      rewriter, op->getLoc(), region.getRegion(), unique, &call);
  if (failed(function))
    return refuse(region, "the op could not be outlined into a function");
  return OutlinedKernel{*function, call};
}
