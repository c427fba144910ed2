//===- LoopPipelining.cpp - Stage-scheduled loop rewrite ------------------===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//

#include "hwsched/Transforms/LoopPipelining.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/Utils/Utils.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include <limits>

using namespace mlir;
using namespace hwsched;

static std::optional<int64_t> staticTripCount(scf::ForOp forOp) {
  std::optional<int64_t> lb = getConstantIntValue(forOp.getLowerBound());
  std::optional<int64_t> ub = getConstantIntValue(forOp.getUpperBound());
  std::optional<int64_t> step = getConstantIntValue(forOp.getStep());
  if (!lb || !ub || !step || *step <= 0)
    return std::nullopt;
  if (*ub <= *lb)
    return 0;
  return llvm::divideCeil(*ub - *lb, *step);
}

std::string hwsched::checkPipelinePreconditions(
    scf::ForOp forOp, const LoopDependenceGraph &graph,
    const StageSchedule &schedule, Operation *&culprit) {
  culprit = forOp;
  if (forOp.getUnsignedCmp())
    return "unsigned loops are not supported (scf::pipelineForLoop compares "
           "signed)";
  if (schedule.numStages <= 1)
    return "";
  std::optional<int64_t> step = getConstantIntValue(forOp.getStep());
  if (step && *step <= 0)
    return "the step is not positive";
  std::optional<int64_t> tripCount = staticTripCount(forOp);
  if (tripCount && *tripCount < schedule.numStages)
    return ""; // unrolled completely
  for (auto [b, buffer] : llvm::enumerate(graph.buffers)) {
    if (schedule.copies[b] <= 1 || buffer.loopLocal)
      continue;
    if (!buffer.renamable) {
      culprit = buffer.allocOp ? buffer.allocOp : forOp.getOperation();
      return "buffer " + buffer.name +
             " crosses stages but cannot be "
             "multi-buffered: " +
             buffer.whyNotRenamable;
    }
    if (!forOp.getInductionVar().getType().isIndex())
      return "multi-buffering needs an index induction variable";
  }
  std::string violation = checkStageLegality(graph, schedule.stage);
  if (!violation.empty())
    return "the schedule violates a " + violation;
  return "";
}

/// Removes iteration arguments that are yielded unchanged (their value is the
/// init value throughout), which the pipeliner cannot carry.
static scf::ForOp dropPassThroughIterArgs(RewriterBase &rewriter,
                                          scf::ForOp forOp) {
  Block *body = forOp.getBody();
  auto yield = cast<scf::YieldOp>(body->getTerminator());
  SmallVector<bool> drop;
  bool any = false;
  for (auto [i, operand] : llvm::enumerate(yield.getOperands())) {
    drop.push_back(operand == forOp.getRegionIterArgs()[i]);
    any |= drop.back();
  }
  if (!any)
    return forOp;
  SmallVector<Value> inits;
  for (auto [i, init] : llvm::enumerate(forOp.getInitArgs()))
    if (!drop[i])
      inits.push_back(init);
  rewriter.setInsertionPoint(forOp);
  auto newFor =
      scf::ForOp::create(rewriter, forOp.getLoc(), forOp.getLowerBound(),
                         forOp.getUpperBound(), forOp.getStep(), inits);
  Block *newBody = newFor.getBody();
  if (!newBody->empty())
    rewriter.eraseOp(newBody->getTerminator());
  SmallVector<Value> argReplacements{newFor.getInductionVar()};
  unsigned kept = 0;
  for (auto [i, init] : llvm::enumerate(forOp.getInitArgs()))
    argReplacements.push_back(drop[i] ? init
                                      : newFor.getRegionIterArgs()[kept++]);
  rewriter.mergeBlocks(body, newBody, argReplacements);
  auto oldYield = cast<scf::YieldOp>(newBody->getTerminator());
  SmallVector<Value> yielded;
  for (auto [i, operand] : llvm::enumerate(oldYield.getOperands()))
    if (!drop[i])
      yielded.push_back(operand);
  rewriter.setInsertionPoint(oldYield);
  scf::YieldOp::create(rewriter, oldYield.getLoc(), yielded);
  rewriter.eraseOp(oldYield);
  SmallVector<Value> results;
  kept = 0;
  for (auto [i, init] : llvm::enumerate(forOp.getInitArgs()))
    results.push_back(drop[i] ? init : newFor.getResult(kept++));
  rewriter.replaceOp(forOp, results);
  return newFor;
}

/// Multi-buffers one allocation with upstream memref::multiBuffer. Allocas
/// go through a temporary alloc (upstream handles alloc only); deallocs are
/// re-created by hand so multiBuffer cannot pick an enclosing loop from them.
static LogicalResult multiBufferAllocation(RewriterBase &rewriter,
                                           Operation *alloc, unsigned copies) {
  Location loc = alloc->getLoc();
  auto type = cast<MemRefType>(alloc->getResult(0).getType());
  IntegerAttr alignment = alloc->getAttrOfType<IntegerAttr>("alignment");
  bool wasAlloca = isa<memref::AllocaOp>(alloc);
  memref::AllocOp allocOp;
  if (wasAlloca) {
    rewriter.setInsertionPoint(alloc);
    allocOp = memref::AllocOp::create(rewriter, loc, type);
    if (alignment)
      allocOp.setAlignmentAttr(alignment);
    rewriter.replaceOp(alloc, allocOp.getResult());
  } else {
    allocOp = cast<memref::AllocOp>(alloc);
  }
  SmallVector<Operation *> deallocAnchors;
  for (Operation *user : llvm::make_early_inc_range(allocOp->getUsers()))
    if (auto dealloc = dyn_cast<memref::DeallocOp>(user)) {
      deallocAnchors.push_back(dealloc->getNextNode());
      rewriter.eraseOp(dealloc);
    }
  FailureOr<memref::AllocOp> multi =
      memref::multiBuffer(rewriter, allocOp, copies,
                          /*skipOverrideAnalysis=*/true);
  if (failed(multi))
    return failure();
  Value newBuffer = multi->getResult();
  if (wasAlloca) {
    rewriter.setInsertionPoint(*multi);
    auto alloca = memref::AllocaOp::create(rewriter, loc, multi->getType());
    if (alignment)
      alloca.setAlignmentAttr(alignment);
    rewriter.replaceOp(*multi, alloca.getResult());
    newBuffer = alloca.getResult();
  }
  for (Operation *anchor : deallocAnchors) {
    rewriter.setInsertionPoint(anchor);
    memref::DeallocOp::create(rewriter, loc, newBuffer);
  }
  return success();
}

/// Wraps a side-effecting op in scf.if (else: poison results) for the
/// predicated prologue/epilogue of dynamic loops. Pure ops run speculatively.
static Operation *predicateOp(RewriterBase &rewriter, Operation *op,
                              Value pred) {
  // Barriers stay unconditional: every thread evaluates the same predicate,
  // and an extra barrier is harmless.
  if (isPure(op) || isa<gpu::BarrierOp>(op))
    return op;
  Location loc = op->getLoc();
  rewriter.setInsertionPoint(op);
  bool hasResults = op->getNumResults() > 0;
  auto ifOp = scf::IfOp::create(rewriter, loc, op->getResultTypes(), pred,
                                /*withElseRegion=*/hasResults);
  Block *thenBlock = ifOp.thenBlock();
  if (hasResults) {
    rewriter.setInsertionPointToEnd(thenBlock);
    auto yield = scf::YieldOp::create(rewriter, loc, op->getResults());
    rewriter.setInsertionPointToEnd(ifOp.elseBlock());
    SmallVector<Value> poisons;
    for (Type t : op->getResultTypes())
      poisons.push_back(ub::PoisonOp::create(rewriter, loc, t));
    scf::YieldOp::create(rewriter, loc, poisons);
    for (auto [oldResult, newResult] :
         llvm::zip(op->getResults(), ifOp.getResults()))
      rewriter.replaceAllUsesExcept(oldResult, newResult, yield);
    rewriter.moveOpBefore(op, yield);
  } else {
    rewriter.moveOpBefore(op, thenBlock->getTerminator());
  }
  return ifOp;
}

/// Gives every op without a stage (index arithmetic, views, constants,
/// multi-buffer slices) the earliest stage of its users, never before its
/// producers. Returns false when an op cannot be placed.
static bool placeFollowers(scf::ForOp forOp,
                           llvm::DenseMap<Operation *, int64_t> &stageOf,
                           std::string &why) {
  Block *body = forOp.getBody();
  Operation *yield = body->getTerminator();
  SmallVector<Operation *> followers;
  for (Operation &op : body->without_terminator()) {
    if (stageOf.count(&op))
      continue;
    if (!isMemoryEffectFree(&op)) {
      why = "op without a stage has side effects: " +
            op.getName().getStringRef().str();
      return false;
    }
    followers.push_back(&op);
  }
  constexpr int64_t kUnset = std::numeric_limits<int64_t>::max();
  for (Operation *f : followers)
    stageOf[f] = kUnset;
  auto known = [&](Operation *op) -> std::optional<int64_t> {
    auto it = stageOf.find(op);
    if (it == stageOf.end() || it->second == kUnset)
      return std::nullopt;
    return it->second;
  };
  for (unsigned round = 0; round <= followers.size() + 1; ++round) {
    bool changed = false;
    for (Operation *f : llvm::reverse(followers)) {
      int64_t lo = 0, hi = kUnset;
      for (Value operand : f->getOperands())
        if (Operation *def = operand.getDefiningOp())
          if (Operation *top = body->findAncestorOpInBlock(*def))
            if (auto s = known(top))
              lo = std::max(lo, *s);
      for (Value result : f->getResults()) {
        for (OpOperand &use : result.getUses()) {
          Operation *top = body->findAncestorOpInBlock(*use.getOwner());
          if (!top)
            continue;
          if (top == yield) {
            Value arg = forOp.getRegionIterArgs()[use.getOperandNumber()];
            for (Operation *argUser : arg.getUsers()) {
              Operation *top2 = body->findAncestorOpInBlock(*argUser);
              if (top2 && top2 != f && top2 != yield)
                if (auto s = known(top2))
                  hi = std::min(hi, *s);
            }
            continue;
          }
          if (auto s = known(top))
            hi = std::min(hi, *s);
        }
      }
      int64_t s = hi == kUnset ? lo : std::max(hi, lo);
      if (stageOf[f] != s) {
        stageOf[f] = s;
        changed = true;
      }
    }
    if (!changed)
      break;
  }
  return true;
}

/// Final SSA check of the complete body schedule, in the form the pipeliner
/// requires; returns an empty string when valid.
static std::string
verifyBodySchedule(scf::ForOp forOp,
                   llvm::DenseMap<Operation *, int64_t> &stageOf) {
  Block *body = forOp.getBody();
  Operation *yield = body->getTerminator();
  auto position = [&](Operation *op) {
    unsigned i = 0;
    for (Operation &o : *body) {
      if (&o == op)
        return i;
      ++i;
    }
    return i;
  };
  for (Operation &op : body->without_terminator()) {
    int64_t useStage = stageOf[&op];
    std::string error;
    op.walk([&](Operation *nested) {
      for (Value operand : nested->getOperands()) {
        if (auto arg = dyn_cast<BlockArgument>(operand)) {
          if (arg.getOwner() != body || arg.getArgNumber() == 0)
            continue;
          Value ret = yield->getOperand(arg.getArgNumber() - 1);
          Operation *def = ret.getDefiningOp();
          Operation *top = def ? body->findAncestorOpInBlock(*def) : nullptr;
          if (!top) {
            error = "iteration argument not produced in the loop";
            continue;
          }
          int64_t defStage = stageOf[top];
          int64_t slack = position(top) < position(&op) ? 1 : 0;
          if (defStage > useStage + slack)
            error = "loop-carried value defined in stage " +
                    std::to_string(defStage) + " is used in stage " +
                    std::to_string(useStage);
          continue;
        }
        Operation *def = operand.getDefiningOp();
        Operation *top = def ? body->findAncestorOpInBlock(*def) : nullptr;
        if (!top || top == &op)
          continue;
        if (stageOf[top] > useStage)
          error = "'" + top->getName().getStringRef().str() + "' in stage " +
                  std::to_string(stageOf[top]) + " feeds '" +
                  op.getName().getStringRef().str() + "' in stage " +
                  std::to_string(useStage);
      }
    });
    if (!error.empty())
      return error;
  }
  return "";
}

FailureOr<PipelineRewriteResult> hwsched::pipelineLoop(
    RewriterBase &rewriter, scf::ForOp forOp, const LoopDependenceGraph &graph,
    const StageSchedule &schedule, PipelineSync sync, std::string &why) {
  PipelineRewriteResult result;
  result.tripCount = staticTripCount(forOp);
  unsigned numStages = schedule.numStages;
  if (numStages <= 1) {
    result.loop = forOp;
    return result;
  }
  if (result.tripCount && *result.tripCount < numStages) {
    if (failed(loopUnrollFull(forOp))) {
      why = "full unrolling failed";
      return failure();
    }
    result.unrolled = true;
    return result;
  }

  llvm::DenseMap<Operation *, int64_t> stageOf;
  for (auto [n, node] : llvm::enumerate(graph.nodes))
    stageOf[node.op] = schedule.stage[n];

  forOp = dropPassThroughIterArgs(rewriter, forOp);

  // Barriers of the original body are replaced by the sync rule below.
  for (Operation *barrier : graph.barriers)
    rewriter.eraseOp(barrier);

  for (auto [b, buffer] : llvm::enumerate(graph.buffers)) {
    if (schedule.copies[b] <= 1 || buffer.loopLocal)
      continue;
    if (failed(multiBufferAllocation(rewriter, buffer.allocOp,
                                     schedule.copies[b]))) {
      why = "memref::multiBuffer failed on " + buffer.name;
      return failure();
    }
    ++result.multiBufferedAllocations;
  }

  if (sync == PipelineSync::GpuBarrier) {
    // A barrier before every op that takes part in a memory dependence:
    // whatever stage (and so kernel iteration) the other end runs in, the
    // barrier orders it across the threads of the workgroup.
    llvm::DenseSet<unsigned> synced;
    for (const DepEdge &e : graph.edges)
      if (e.kind != DepKind::SSA && e.from != e.to) {
        synced.insert(e.from);
        synced.insert(e.to);
      }
    for (auto [n, node] : llvm::enumerate(graph.nodes)) {
      if (!synced.contains(n))
        continue;
      Operation *prev = node.op->getPrevNode();
      if (prev && isa<gpu::BarrierOp>(prev) &&
          stageOf.lookup(prev) == schedule.stage[n])
        continue;
      rewriter.setInsertionPoint(node.op);
      auto barrier = gpu::BarrierOp::create(rewriter, node.op->getLoc());
      stageOf[barrier] = schedule.stage[n];
      ++result.barriersInserted;
    }
  }

  if (!placeFollowers(forOp, stageOf, why))
    return failure();
  std::string invalid = verifyBodySchedule(forOp, stageOf);
  if (!invalid.empty()) {
    why = "internal schedule check failed: " + invalid;
    return failure();
  }

  std::vector<std::pair<Operation *, unsigned>> order;
  for (Operation &op : forOp.getBody()->without_terminator())
    order.emplace_back(&op, static_cast<unsigned>(stageOf[&op]));

  scf::PipeliningOption options;
  options.getScheduleFn =
      [&](scf::ForOp, std::vector<std::pair<Operation *, unsigned>> &out) {
        out = order;
      };
  if (result.tripCount) {
    options.peelEpilogue = true;
  } else {
    options.peelEpilogue = false;
    options.supportDynamicLoops = true;
    options.predicateFn = predicateOp;
    result.predicated = true;
  }
  // The pipeliner emits the prologue at the rewriter's insertion point.
  rewriter.setInsertionPoint(forOp);
  bool modified = false;
  FailureOr<scf::ForOp> pipelined =
      scf::pipelineForLoop(rewriter, forOp, options, &modified);
  if (failed(pipelined)) {
    why = "scf::pipelineForLoop refused the schedule";
    return failure();
  }
  if (sync == PipelineSync::NpuFlag)
    (*pipelined)
        ->setAttr("hwsched.pipeline_sync", rewriter.getStringAttr("npu_flag"));
  result.loop = *pipelined;
  return result;
}
