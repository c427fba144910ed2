//===- ThreadUniformity.cpp - Which code all threads of a block run -------===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//

#include "hwsched/Analysis/ThreadUniformity.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using namespace hwsched;

static bool isKernelBoundary(Operation *op) {
  return op->hasTrait<OpTrait::IsIsolatedFromAbove>() || isa<gpu::LaunchOp>(op);
}

/// GPU ops whose result is the same in every thread of a workgroup.
static bool isUniformGpuQuery(Operation *op) {
  return isa<gpu::BlockIdOp, gpu::BlockDimOp, gpu::GridDimOp, gpu::ClusterIdOp,
             gpu::ClusterDimOp, gpu::ClusterBlockIdOp, gpu::ClusterDimBlocksOp,
             gpu::NumSubgroupsOp, gpu::SubgroupSizeOp>(op);
}

/// Region-free, memory-effect-free arithmetic: uniform operands give a
/// uniform result. A whitelist of dialects, because other pure ops (thread
/// ids, shuffles, subgroup reductions) are per-thread by design.
static bool isUniformPreservingArith(Operation *op) {
  if (op->getNumRegions() != 0 || !isMemoryEffectFree(op))
    return false;
  StringRef ns = op->getName().getDialectNamespace();
  return ns == "arith" || ns == "index" || ns == "math" || ns == "affine";
}

ThreadUniformity::ThreadUniformity(Operation *op) : kernel(op) {
  while (kernel->getParentOp() && !isKernelBoundary(kernel))
    kernel = kernel->getParentOp();
  // Arguments of the kernel's own blocks: function parameters are uniform;
  // the launch body's thread ids are not; arguments of non-entry blocks (and
  // of any other boundary) are reached through branches we do not follow.
  bool function = isa<FunctionOpInterface>(kernel);
  for (Region &region : kernel->getRegions())
    for (Block &block : region)
      if (&block != &region.front() ||
          (!function && !isa<gpu::LaunchOp>(kernel)))
        divergent.insert(block.args_begin(), block.args_end());
  if (auto launch = dyn_cast<gpu::LaunchOp>(kernel)) {
    gpu::KernelDim3 ids = launch.getThreadIds();
    for (Value id : {ids.x, ids.y, ids.z})
      divergent.insert(id);
  }
  propagate();
}

namespace {
/// One sweep of the divergence propagation over a kernel: marks the values
/// that may differ between threads, given those already marked, and
/// remembers whether it marked any new one.
class DivergenceSweep {
public:
  DivergenceSweep(Operation *kernel, llvm::DenseSet<Value> &divergent)
      : kernel(kernel), divergent(divergent) {}

  /// Walks the kernel once; returns whether some value became divergent.
  bool run() {
    changed = false;
    kernel->walk<WalkOrder::PreOrder>([&](Operation *op) { return visit(op); });
    return changed;
  }

private:
  void mark(Value value) {
    if (divergent.insert(value).second)
      changed = true;
  }
  bool anyDivergent(ValueRange values) const {
    return llvm::any_of(values, [&](Value v) { return divergent.contains(v); });
  }
  /// Every result and region argument of `op`.
  void markAll(Operation *op) {
    for (Value result : op->getResults())
      mark(result);
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (BlockArgument arg : block.getArguments())
          mark(arg);
  }

  WalkResult visit(Operation *op);
  void visitFor(scf::ForOp loop);
  void visitWhile(scf::WhileOp loop);
  void visitSelection(Operation *op);
  void visitAffine(Operation *op);

  Operation *kernel;
  llvm::DenseSet<Value> &divergent;
  bool changed = false;
};
} // namespace

/// The induction variable diverges with the lower bound or the step; an
/// iter_arg with its init or its yielded value; a result with its iter_arg
/// or any bound (threads then run different trip counts).
void DivergenceSweep::visitFor(scf::ForOp loop) {
  bool bounds = anyDivergent(
      {loop.getLowerBound(), loop.getUpperBound(), loop.getStep()});
  if (anyDivergent({loop.getLowerBound(), loop.getStep()}))
    mark(loop.getInductionVar());
  auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
  for (auto [i, arg] : llvm::enumerate(loop.getRegionIterArgs())) {
    if (divergent.contains(loop.getInitArgs()[i]) ||
        divergent.contains(yield.getOperand(i)))
      mark(arg);
    if (bounds || divergent.contains(arg))
      mark(loop.getResult(i));
  }
}

/// A before-argument diverges with its init or its yielded value; an
/// after-argument and result with the value the condition forwards, or with
/// the exit condition itself.
void DivergenceSweep::visitWhile(scf::WhileOp loop) {
  scf::ConditionOp condition = loop.getConditionOp();
  scf::YieldOp yield = loop.getYieldOp();
  for (auto [i, arg] : llvm::enumerate(loop.getBeforeArguments()))
    if (divergent.contains(loop.getInits()[i]) ||
        divergent.contains(yield.getOperand(i)))
      mark(arg);
  bool exit = divergent.contains(condition.getCondition());
  for (auto [i, value] : llvm::enumerate(condition.getArgs())) {
    if (exit || divergent.contains(value)) {
      mark(loop.getAfterArguments()[i]);
      mark(loop.getResult(i));
    }
  }
}

/// scf.if / scf.index_switch / scf.execute_region: a result diverges with
/// the selector (the first operand) or with a value any region yields for it.
void DivergenceSweep::visitSelection(Operation *op) {
  bool selector =
      op->getNumOperands() != 0 && divergent.contains(op->getOperand(0));
  for (OpResult result : op->getResults()) {
    bool yielded = false;
    for (Region &region : op->getRegions())
      for (Block &block : region)
        if (auto yield = dyn_cast<scf::YieldOp>(block.getTerminator()))
          yielded |=
              divergent.contains(yield.getOperand(result.getResultNumber()));
    if (selector || yielded)
      mark(result);
  }
}

/// affine.for / affine.if: bound operands and inits are the operands;
/// yielded values are the terminator's. Any divergent one makes every
/// carried value and result divergent (the induction variable too: simpler
/// than splitting the operand groups, and still sound).
void DivergenceSweep::visitAffine(Operation *op) {
  bool any = anyDivergent(op->getOperands());
  for (Region &region : op->getRegions())
    for (Block &block : region)
      any |= anyDivergent(block.getTerminator()->getOperands());
  if (any)
    markAll(op);
}

/// The rule for one op; nested kernels are all divergent and not entered.
WalkResult DivergenceSweep::visit(Operation *op) {
  if (op == kernel)
    return WalkResult::advance();
  if (isKernelBoundary(op)) {
    markAll(op);
    return WalkResult::skip();
  }
  // Branch targets inside structured ops: not followed.
  for (Region &region : op->getRegions())
    for (Block &block : llvm::drop_begin(region))
      for (BlockArgument arg : block.getArguments())
        mark(arg);

  if (matchPattern(op, m_Constant()) || isUniformGpuQuery(op))
    return WalkResult::advance();
  if (auto loop = dyn_cast<scf::ForOp>(op)) {
    visitFor(loop);
    return WalkResult::advance();
  }
  if (auto loop = dyn_cast<scf::WhileOp>(op)) {
    visitWhile(loop);
    return WalkResult::advance();
  }
  if (isa<scf::IfOp, scf::IndexSwitchOp, scf::ExecuteRegionOp>(op)) {
    visitSelection(op);
    return WalkResult::advance();
  }
  StringRef name = op->getName().getStringRef();
  if (name == "affine.for" || name == "affine.if") {
    visitAffine(op);
    return WalkResult::advance();
  }
  if (isUniformPreservingArith(op)) {
    if (anyDivergent(op->getOperands()))
      for (Value result : op->getResults())
        mark(result);
    return WalkResult::advance();
  }
  markAll(op);
  return WalkResult::advance();
}

void ThreadUniformity::propagate() {
  // Values only ever move from uniform to divergent, so iterating until
  // nothing changes reaches the fixpoint (loop-carried values included).
  DivergenceSweep sweep(kernel, divergent);
  while (sweep.run()) {
  }
}

bool ThreadUniformity::isUniform(Value value) const {
  return !divergent.contains(value);
}

bool ThreadUniformity::runsRegionsUniformly(Operation *op,
                                            std::string *reason) const {
  auto fail = [&](StringRef text) {
    if (reason)
      *reason = text.str();
    return false;
  };
  if (auto loop = dyn_cast<scf::ForOp>(op))
    return llvm::all_of(ValueRange{loop.getLowerBound(), loop.getUpperBound(),
                                   loop.getStep()},
                        [&](Value v) { return isUniform(v); }) ||
           fail("its bounds or step may differ between threads");
  if (auto branch = dyn_cast<scf::IfOp>(op))
    return isUniform(branch.getCondition()) ||
           fail("its condition may differ between threads");
  if (auto sw = dyn_cast<scf::IndexSwitchOp>(op))
    return isUniform(sw.getArg()) ||
           fail("its selector may differ between threads");
  if (auto loop = dyn_cast<scf::WhileOp>(op))
    return isUniform(loop.getConditionOp().getCondition()) ||
           fail("its exit condition may differ between threads");
  if (isa<scf::ExecuteRegionOp, memref::AllocaScopeOp>(op))
    return true;
  StringRef name = op->getName().getStringRef();
  if (name == "affine.for" || name == "affine.if")
    return llvm::all_of(op->getOperands(),
                        [&](Value v) { return isUniform(v); }) ||
           fail(name == "affine.for"
                    ? "its bounds may differ between threads"
                    : "its condition may differ between threads");
  return fail(("'" + name +
               "' is not known to run its regions alike in "
               "every thread")
                  .str());
}

bool ThreadUniformity::isUniformBlock(Block *block) const {
  auto it = blockCache.find(block);
  if (it != blockCache.end())
    return it->second;
  Region *region = block->getParent();
  Operation *parent = region->getParentOp();
  bool entry = block == &region->front();
  bool uniform;
  if (parent == kernel)
    uniform = entry;
  else if (!kernel->isProperAncestor(parent))
    uniform = true; // Around the kernel: only reached from its entry.
  else
    uniform = entry && !isKernelBoundary(parent) &&
              isUniformBlock(parent->getBlock()) &&
              runsRegionsUniformly(parent, nullptr);
  blockCache[block] = uniform;
  return uniform;
}

Operation *ThreadUniformity::getUniformAncestor(Operation *op,
                                                Operation *stopAt) const {
  while (op != stopAt && op != kernel && op->getBlock() &&
         !isUniformBlock(op->getBlock()))
    op = op->getParentOp();
  return op;
}

std::string ThreadUniformity::getDivergenceReason(Operation *op) const {
  std::string reason;
  if (op == kernel || runsRegionsUniformly(op, &reason)) {
    bool multiBlock = llvm::any_of(op->getRegions(), [](Region &r) {
      return !r.empty() && !r.hasOneBlock();
    });
    if (multiBlock)
      return "its regions branch between several blocks";
    return "";
  }
  return reason;
}
