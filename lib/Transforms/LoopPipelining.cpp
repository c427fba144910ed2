//===- LoopPipelining.cpp - Stage-scheduled loop rewrite ------------------===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//

#include "hwsched/Transforms/LoopPipelining.h"
#include "hwsched/Analysis/ThreadPrivateAccess.h"
#include "hwsched/Support/Refusal.h"
#include "hwsched/Support/TimeTrace.h"
#include "hwsched/Transforms/NpuFlagSync.h"
#include "hwsched/Transforms/PipelineBarriers.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Transforms/Transforms.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/Utils/Utils.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/Support/TimeProfiler.h"

#include <limits>

using namespace mlir;
using namespace hwsched;

//===----------------------------------------------------------------------===//
// nvgpu async-copy groups
//===----------------------------------------------------------------------===//

namespace {
/// Where the rewrite puts the group and the wait of a body whose async
/// copies have neither (LoopDependenceGraph::needsAsyncGroup).
struct AsyncGroupPlan {
  /// The last copy in body order: the group goes right after it.
  Operation *lastCopy = nullptr;
  unsigned copyStage = 0;
  /// The first op (body order) of the earliest stage that depends on a copy:
  /// the wait goes right before it.
  Operation *firstConsumer = nullptr;
  unsigned waitStage = 0;
  SmallVector<Value> tokens;
};
} // namespace

static bool isAsyncCopy(Operation *op) {
  return isa<nvgpu::DeviceAsyncCopyOp>(op);
}

/// Plans the inserted group and wait; a refusal when we cannot be sure
/// where they go (the op then refuses the loop).
static llvm::Expected<AsyncGroupPlan>
planAsyncGroup(const LoopDependenceGraph &graph,
               const StageSchedule &schedule) {
  AsyncGroupPlan plan;
  std::optional<unsigned> copyStage;
  for (auto [n, node] : llvm::enumerate(graph.nodes)) {
    if (!isAsyncCopy(node.op))
      continue;
    if (copyStage && *copyStage != schedule.stage[n])
      return refuse(node.op, "async copies in stages " +
                                 std::to_string(*copyStage) + " and " +
                                 std::to_string(schedule.stage[n]) +
                                 " would need one group per stage");
    copyStage = schedule.stage[n];
    plan.lastCopy = node.op;
    plan.tokens.push_back(node.op->getResult(0));
  }
  plan.copyStage = *copyStage;
  unsigned lastCopyPos =
      graph.nodes[graph.nodeOf.lookup(plan.lastCopy)].position;
  std::optional<unsigned> consumer;
  for (const DepEdge &e : graph.edges) {
    const DepNode &from = graph.nodes[e.from];
    const DepNode &to = graph.nodes[e.to];
    if (e.kind == DepKind::SSA || !isAsyncCopy(from.op) ||
        e.removableByMultiBuffering)
      continue;
    // Two copies in flight to (or from) one place: their order is lost.
    if (isAsyncCopy(to.op))
      return refuse(to.op, "async copies with a memory dependence between "
                           "them");
    if (to.position < lastCopyPos)
      return refuse(to.op, "an op before the last async copy depends on an "
                           "async copy (no single wait point)");
    if (!consumer || schedule.stage[e.to] < schedule.stage[*consumer] ||
        (schedule.stage[e.to] == schedule.stage[*consumer] &&
         to.position < graph.nodes[*consumer].position))
      consumer = e.to;
  }
  if (!consumer)
    return refuse(plan.lastCopy, "no op of the body depends on the async "
                                 "copies (no place for the wait)");
  if (schedule.stage[*consumer] < plan.copyStage)
    return refuse(graph.nodes[*consumer].op,
                  "an op depending on an async copy is scheduled before the "
                  "copy's stage");
  plan.firstConsumer = graph.nodes[*consumer].op;
  plan.waitStage = schedule.stage[*consumer];
  return plan;
}

/// Marks a wait whose group count the pipeliner's annotation sets: the number
/// of stages between the group and the wait.
static constexpr llvm::StringLiteral kWaitDistanceAttr =
    "hwsched.async_wait_distance";

/// The body's single group + wait pair usable with a group count: one
/// create_group (after every copy, grouping every copy's token), one wait on
/// its token without a count (wait all). Returns {group, wait} or nulls.
static std::pair<Operation *, Operation *> findAsyncPair(scf::ForOp forOp) {
  Operation *group = nullptr, *wait = nullptr;
  SmallVector<Operation *> copies;
  for (Operation &op : forOp.getBody()->without_terminator()) {
    StringRef name = op.getName().getStringRef();
    if (isAsyncCopy(&op))
      copies.push_back(&op);
    if (name == "nvgpu.device_async_create_group") {
      if (group)
        return {};
      group = &op;
    }
    if (name == "nvgpu.device_async_wait") {
      if (wait)
        return {};
      wait = &op;
    }
  }
  // Copies or groups nested in regions escape this simple picture.
  bool nested = false;
  forOp.getBody()->walk([&](Operation *op) {
    StringRef name = op->getName().getStringRef();
    if (op->getBlock() != forOp.getBody() &&
        (isAsyncCopy(op) || name.starts_with("nvgpu.device_async")))
      nested = true;
  });
  if (!group || !wait || nested || copies.empty() ||
      wait->getOperand(0) != group->getResult(0) ||
      cast<nvgpu::DeviceAsyncWaitOp>(wait).getNumGroups() ||
      !group->isBeforeInBlock(wait) || group->getNumOperands() != copies.size())
    return {};
  for (Operation *copy : copies)
    if (!copy->isBeforeInBlock(group) ||
        !llvm::is_contained(group->getOperands(), copy->getResult(0)))
      return {};
  return {group, wait};
}

llvm::Error
hwsched::checkPipelinePreconditions(scf::ForOp forOp,
                                    const LoopDependenceGraph &graph,
                                    const PipelinePlan &plan) {
  llvm::TimeTraceScope trace("hwsched::checkPipelinePreconditions",
                             [&] { return timeTraceDetail(forOp); });
  const StageSchedule &schedule = plan.schedule;
  if (forOp.getUnsignedCmp())
    return refuse(forOp, "unsigned loops are not supported "
                         "(scf::pipelineForLoop compares signed)");
  if (graph.needsAsyncGroup)
    if (llvm::Expected<AsyncGroupPlan> asyncPlan =
            planAsyncGroup(graph, schedule);
        !asyncPlan)
      return addContext(asyncPlan.takeError(),
                        "cannot insert the async-copy group and wait: ");
  if (plan.sync == PipelineSync::NpuFlag && !plan.npuFlags.planned())
    return addContext(refuse(*plan.npuFlags.refusal),
                      "cannot synchronise the NPU pipes: ");
  if (schedule.numStages <= 1)
    return llvm::Error::success();
  std::optional<int64_t> step = getConstantIntValue(forOp.getStep());
  if (step && *step <= 0)
    return refuse(forOp, "the step is not positive");
  std::optional<int64_t> tripCount = staticTripCount(forOp);
  if (tripCount && *tripCount < schedule.numStages)
    return llvm::Error::success(); // unrolled completely
  for (auto [b, buffer] : llvm::enumerate(graph.buffers)) {
    if (schedule.copies[b] <= 1 || buffer.loopLocal)
      continue;
    if (!buffer.renamable)
      return refuse(buffer.allocOp ? buffer.allocOp : forOp.getOperation(),
                    "buffer " + buffer.name +
                        " crosses stages but cannot be multi-buffered: " +
                        buffer.whyNotRenamable);
    if (!forOp.getInductionVar().getType().isIndex())
      return refuse(forOp, "multi-buffering needs an index induction variable");
  }
  return addContext(checkStageLegality(graph, schedule.stage),
                    "the schedule violates a ");
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
/// producers. A refusal when an op cannot be placed.
static llvm::Error
placeFollowers(scf::ForOp forOp,
               llvm::DenseMap<Operation *, int64_t> &stageOf) {
  Block *body = forOp.getBody();
  Operation *yield = body->getTerminator();
  SmallVector<Operation *> followers;
  for (Operation &op : body->without_terminator()) {
    if (stageOf.count(&op))
      continue;
    if (!isMemoryEffectFree(&op))
      return refuse(&op, "op without a stage has side effects: " +
                             op.getName().getStringRef());
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
  return llvm::Error::success();
}

/// Final SSA check of the complete body schedule, in the form the pipeliner
/// requires; a refusal at the first op whose operand breaks it.
static llvm::Error
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
      return refuse(&op, error);
  }
  return llvm::Error::success();
}

llvm::Error hwsched::checkNotNested(ArrayRef<scf::ForOp> loops) {
  for (scf::ForOp outer : loops)
    for (scf::ForOp inner : loops)
      if (outer != inner && outer->isProperAncestor(inner))
        return refuse(Refusal(nullptr, "the loops given include nested loops; "
                                       "schedule them in separate calls "
                                       "(inner loops first)")
                          .note(inner.getLoc(), "nested loop"));
  return llvm::Error::success();
}

namespace {
/// What the steps of pipelineLoop share: the inputs, the result being
/// filled in, and the stage of every body op (graph nodes first, then the
/// ops the rewrite inserts).
struct PipelineRewrite {
  RewriterBase &rewriter;
  const LoopDependenceGraph &graph;
  const PipelinePlan &plan;
  const StageSchedule &schedule;
  PipelineRewriteResult &result;
  llvm::DenseMap<Operation *, int64_t> stageOf{};
  /// With one barrier per step (PipelineBarriers.h): the wait and the
  /// barrier that go first in the kernel order.
  Operation *leadingWait = nullptr;
  Operation *leadingBarrier = nullptr;
};
} // namespace

/// Inserts the group right after the last copy (in the copies' stage) and
/// the wait (waiting for everything: the count is set at expansion, where it
/// is known) right before the first op that depends on a copy.
static llvm::Error insertAsyncGroup(PipelineRewrite &rw) {
  llvm::Expected<AsyncGroupPlan> planned =
      planAsyncGroup(rw.graph, rw.schedule);
  if (!planned)
    return addContext(planned.takeError(),
                      "internal async-group check failed: ");
  AsyncGroupPlan &asyncPlan = *planned;
  RewriterBase &rewriter = rw.rewriter;
  rewriter.setInsertionPointAfter(asyncPlan.lastCopy);
  auto group = nvgpu::DeviceAsyncCreateGroupOp::create(
      rewriter, asyncPlan.lastCopy->getLoc(),
      nvgpu::DeviceAsyncTokenType::get(rewriter.getContext()),
      asyncPlan.tokens);
  rewriter.setInsertionPoint(asyncPlan.firstConsumer);
  auto wait = nvgpu::DeviceAsyncWaitOp::create(
      rewriter, asyncPlan.firstConsumer->getLoc(), group.getResult(),
      IntegerAttr());
  rw.stageOf[group] = asyncPlan.copyStage;
  rw.stageOf[wait] = asyncPlan.waitStage;
  rw.result.asyncGroupsInserted = true;
  return llvm::Error::success();
}

/// Flags go in before the expansion (or unrolling): the pipeliner then
/// copies each with its stage, predicated like the op it guards. The plan
/// was made on this loop before any change (planPipeline).
static llvm::Error insertPlannedNpuFlags(PipelineRewrite &rw,
                                         scf::ForOp forOp) {
  const PipelinePlan &plan = rw.plan;
  if (!plan.npuFlags.planned())
    return addContext(refuse(*plan.npuFlags.refusal),
                      "internal NPU flag plan failed: ");
  if (plan.expands != expandsLoop(forOp, rw.schedule))
    return refuse(forOp, "internal NPU flag plan failed: planned for "
                         "another trip count");
  rw.result.npuFlagOpsInBody =
      insertNpuFlags(rw.rewriter, forOp, rw.graph, plan.npuFlags, rw.stageOf);
  rw.result.npuFlagChannels = plan.npuFlags.channels.size();
  return llvm::Error::success();
}

/// Whether one of `a`, `b` is an async copy and the other an async wait. The
/// graph models a wait as a write of the copies' buffers (so that readers
/// stay after it), but a wait completes only the calling thread's own
/// copies: the edge between them orders nothing across threads, and a
/// barrier between a copy and a wait would order nothing either. What other
/// threads read is ordered by the wait -> reader edge, which keeps its
/// barrier.
static bool isCopyAndItsCompletion(Operation *a, Operation *b) {
  return (isAsyncCopy(a) && isa<nvgpu::DeviceAsyncWaitOp>(b)) ||
         (isAsyncCopy(b) && isa<nvgpu::DeviceAsyncWaitOp>(a));
}

/// The memory edges that never cross threads (each thread only touches its
/// own elements, Analysis/ThreadPrivateAccess.h, or a copy and the wait
/// that completes it): they need no barrier. Decided on the accesses as
/// written, before multi-buffering turns them into views.
static llvm::DenseSet<unsigned>
findSameThreadEdges(const LoopDependenceGraph &graph, scf::ForOp forOp) {
  llvm::DenseSet<unsigned> sameThreadEdges;
  ThreadUniformity uniformity(forOp);
  for (auto [i, e] : llvm::enumerate(graph.edges)) {
    Operation *from = graph.nodes[e.from].op, *to = graph.nodes[e.to].op;
    if (e.kind != DepKind::SSA && e.from != e.to &&
        (isCopyAndItsCompletion(from, to) ||
         accessesStayInOneThread(from, to, forOp, uniformity)))
      sameThreadEdges.insert(i);
  }
  return sameThreadEdges;
}

/// Multi-buffers every allocation the schedule gives more than one copy
/// (allocations inside the loop keep theirs).
static llvm::Error multiBufferAllocations(PipelineRewrite &rw) {
  for (auto [b, buffer] : llvm::enumerate(rw.graph.buffers)) {
    if (rw.schedule.copies[b] <= 1 || buffer.loopLocal)
      continue;
    if (failed(multiBufferAllocation(rw.rewriter, buffer.allocOp,
                                     rw.schedule.copies[b])))
      return refuse(buffer.allocOp,
                    "memref::multiBuffer failed on " + buffer.name);
    ++rw.result.multiBufferedAllocations;
  }
  return llvm::Error::success();
}

/// Every op that takes part in a memory dependence must be separated by a
/// barrier from the other end, whatever stage (and so kernel iteration)
/// that end runs in: a barrier right before the op, in the op's stage, does
/// it in the prologue, kernel and epilogue alike. One barrier serves several
/// ops: the op is covered by the nearest barrier before it when that barrier
/// has the same stage (so every part that emits the op emits the barrier
/// before it) and no op in between conflicts with it (conflicting ops before
/// the barrier, in this or an earlier kernel iteration, are ordered by it).
/// Ops outside the graph with memory effects (inserted async waits) end the
/// coverage.
static void
insertGpuBarriers(PipelineRewrite &rw, scf::ForOp forOp,
                  const llvm::DenseSet<unsigned> &crossThreadEdges) {
  const LoopDependenceGraph &graph = rw.graph;
  llvm::DenseSet<unsigned> synced;
  llvm::DenseSet<std::pair<unsigned, unsigned>> conflicting;
  for (unsigned i : crossThreadEdges) {
    const DepEdge &e = graph.edges[i];
    // An async wait touches no memory itself (its writes stand for the
    // thread's own copies landing): it never needs a barrier before it;
    // its readers get theirs after it (it stays a conflicting op).
    for (unsigned n : {e.from, e.to})
      if (!isa<nvgpu::DeviceAsyncWaitOp>(graph.nodes[n].op))
        synced.insert(n);
    conflicting.insert({std::min(e.from, e.to), std::max(e.from, e.to)});
  }
  SmallVector<Operation *> bodyOps;
  for (Operation &op : forOp.getBody()->without_terminator())
    bodyOps.push_back(&op);
  std::optional<int64_t> barrierStage;
  SmallVector<unsigned> since;
  for (Operation *op : bodyOps) {
    auto it = graph.nodeOf.find(op);
    if (it == graph.nodeOf.end()) {
      if (!isMemoryEffectFree(op))
        barrierStage.reset();
      continue;
    }
    unsigned n = it->second;
    if (synced.contains(n)) {
      bool covered =
          barrierStage && *barrierStage == rw.schedule.stage[n] &&
          llvm::none_of(since, [&](unsigned m) {
            return conflicting.contains({std::min(m, n), std::max(m, n)});
          });
      if (!covered) {
        rw.rewriter.setInsertionPoint(op);
        auto barrier = gpu::BarrierOp::create(rw.rewriter, op->getLoc());
        rw.stageOf[barrier] = rw.schedule.stage[n];
        ++rw.result.barriersInserted;
        barrierStage = rw.schedule.stage[n];
        since.clear();
      }
    }
    since.push_back(n);
  }
}

/// The graph edges that need a barrier: memory edges between different
/// nodes that may cross threads.
static llvm::DenseSet<unsigned>
findCrossThreadEdges(const LoopDependenceGraph &graph,
                     const llvm::DenseSet<unsigned> &sameThreadEdges) {
  llvm::DenseSet<unsigned> edges;
  for (auto [i, e] : llvm::enumerate(graph.edges))
    if (e.kind != DepKind::SSA && e.from != e.to &&
        !sameThreadEdges.contains(i))
      edges.insert(i);
  return edges;
}

/// Applies a single-barrier plan: the barrier goes in the body (in the
/// wait's stage; the expansion order puts the wait and then it first), and
/// one barrier before and one after the loop order the loop's first copies
/// and last reads against the code around it, which the erased barriers of
/// the original body did.
static void insertSingleBarrier(PipelineRewrite &rw, scf::ForOp forOp,
                                const SingleBarrierPlan &plan,
                                Operation *wait) {
  RewriterBase &rewriter = rw.rewriter;
  rewriter.setInsertionPointToStart(forOp.getBody());
  auto barrier = gpu::BarrierOp::create(rewriter, forOp.getLoc());
  rw.stageOf[barrier] = plan.barrierStage;
  rw.leadingWait = wait;
  rw.leadingBarrier = barrier;
  rewriter.setInsertionPoint(forOp);
  gpu::BarrierOp::create(rewriter, forOp.getLoc());
  rewriter.setInsertionPointAfter(forOp);
  gpu::BarrierOp::create(rewriter, forOp.getLoc());
  rw.result.barriersInserted += 3;
}

/// A group/wait pair gets its group count from the stage distance: in the
/// kernel and the prologue the wait of iteration i runs after the groups of
/// iterations up to i + d were committed (d = stage(wait) - stage(group),
/// the group first in body order), so all but the d newest groups must be
/// complete; epilogue part e commits no group for iterations past the last,
/// leaving min(d, stage(wait) - 1 - e). Predicated prologues/epilogues skip
/// groups, so dynamic loops keep waiting for all groups. Marks the wait with
/// d here; `options.annotateFn` turns the mark into each clone's count.
static void setAsyncWaitCounts(PipelineRewrite &rw, scf::ForOp forOp,
                               scf::PipeliningOption &options) {
  auto [asyncGroup, asyncWait] = findAsyncPair(forOp);
  if (asyncWait && rw.result.tripCount &&
      rw.stageOf[asyncWait] >= rw.stageOf[asyncGroup]) {
    // A wait that goes first in the kernel order runs before its iteration's
    // group is committed: one group fewer is pending there.
    int64_t distance = rw.stageOf[asyncWait] - rw.stageOf[asyncGroup] -
                       (asyncWait == rw.leadingWait ? 1 : 0);
    asyncWait->setAttr(kWaitDistanceAttr,
                       rw.rewriter.getI64IntegerAttr(distance));
    rw.result.asyncWaitStage = rw.stageOf[asyncWait];
  }
  options.annotateFn = [&rw](Operation *op,
                             scf::PipeliningOption::PipelinerPart part,
                             unsigned iteration) {
    auto distance = op->getAttrOfType<IntegerAttr>(kWaitDistanceAttr);
    if (!distance)
      return;
    int64_t groups = distance.getInt();
    if (part == scf::PipeliningOption::PipelinerPart::Epilogue)
      groups = std::min<int64_t>(
          groups,
          static_cast<int64_t>(*rw.result.asyncWaitStage) - 1 - iteration);
    op->removeAttr(kWaitDistanceAttr);
    cast<nvgpu::DeviceAsyncWaitOp>(op).setNumGroupsAttr(
        rw.rewriter.getI32IntegerAttr(static_cast<int32_t>(groups)));
  };
}

/// Expands the loop with scf::pipelineForLoop on the body order and stages
/// of `rw.stageOf`: peeled epilogues for static trip counts, predication
/// otherwise. Sets `rw.result.loop` to the kernel loop.
static llvm::Error expandPipelinedLoop(PipelineRewrite &rw, scf::ForOp forOp) {
  RewriterBase &rewriter = rw.rewriter;
  std::vector<std::pair<Operation *, unsigned>> order;
  for (Operation *first : {rw.leadingWait, rw.leadingBarrier})
    if (first)
      order.emplace_back(first, static_cast<unsigned>(rw.stageOf[first]));
  for (Operation &op : forOp.getBody()->without_terminator())
    if (&op != rw.leadingWait && &op != rw.leadingBarrier)
      order.emplace_back(&op, static_cast<unsigned>(rw.stageOf[&op]));

  scf::PipeliningOption options;
  options.getScheduleFn =
      [&](scf::ForOp, std::vector<std::pair<Operation *, unsigned>> &out) {
        out = order;
      };
  setAsyncWaitCounts(rw, forOp, options);
  if (rw.result.tripCount) {
    options.peelEpilogue = true;
  } else {
    options.peelEpilogue = false;
    options.supportDynamicLoops = true;
    options.predicateFn = predicateOp;
    rw.result.predicated = true;
  }
  // The pipeliner emits the prologue at the rewriter's insertion point.
  rewriter.setInsertionPoint(forOp);
  bool modified = false;
  FailureOr<scf::ForOp> pipelined =
      scf::pipelineForLoop(rewriter, forOp, options, &modified);
  if (failed(pipelined))
    return refuse(forOp, "scf::pipelineForLoop refused the schedule");
  // Every clone of a marked wait went through annotateFn; drop the mark in
  // case the pipeliner kept an op it did not annotate.
  (*pipelined)->getParentOp()->walk([&](nvgpu::DeviceAsyncWaitOp wait) {
    if (wait->hasAttr(kWaitDistanceAttr))
      wait->removeAttr(kWaitDistanceAttr);
  });
  rw.result.loop = *pipelined;
  return llvm::Error::success();
}

llvm::Expected<PipelineRewriteResult>
hwsched::pipelineLoop(RewriterBase &rewriter, scf::ForOp forOp,
                      const LoopDependenceGraph &graph,
                      const PipelinePlan &plan) {
  llvm::TimeTraceScope trace("hwsched::pipelineLoop",
                             [&] { return timeTraceDetail(forOp); });
  const StageSchedule &schedule = plan.schedule;
  PipelineSync sync = plan.sync;
  PipelineRewriteResult result;
  result.tripCount = staticTripCount(forOp);
  unsigned numStages = schedule.numStages;
  PipelineRewrite rw{rewriter, graph, plan, schedule, result};
  for (auto [n, node] : llvm::enumerate(graph.nodes))
    rw.stageOf[node.op] = schedule.stage[n];
  if (graph.needsAsyncGroup)
    if (llvm::Error err = insertAsyncGroup(rw))
      return std::move(err);
  if (sync == PipelineSync::NpuFlag)
    if (llvm::Error err = insertPlannedNpuFlags(rw, forOp))
      return std::move(err);
  if (numStages <= 1) {
    result.loop = forOp;
    return result;
  }
  if (result.tripCount && *result.tripCount < numStages) {
    if (failed(loopUnrollFull(forOp)))
      return refuse(forOp, "full unrolling failed");
    result.unrolled = true;
    return result;
  }

  forOp = dropPassThroughIterArgs(rewriter, forOp);

  // Barriers of the original body are replaced by the sync rule below.
  for (Operation *barrier : graph.barriers)
    rewriter.eraseOp(barrier);

  llvm::DenseSet<unsigned> sameThreadEdges;
  if (sync == PipelineSync::GpuBarrier)
    sameThreadEdges = findSameThreadEdges(graph, forOp);
  if (llvm::Error err = multiBufferAllocations(rw))
    return std::move(err);
  if (sync == PipelineSync::GpuBarrier) {
    llvm::DenseSet<unsigned> crossThreadEdges =
        findCrossThreadEdges(graph, sameThreadEdges);
    // The same group/wait pair setAsyncWaitCounts gives its counts to (the
    // user's wait-all or the inserted one): a wait with a count of its own
    // must not move before its group.
    auto [group, wait] = findAsyncPair(forOp);
    std::optional<SingleBarrierPlan> single;
    if (result.tripCount && wait) {
      auto node = graph.nodeOf.find(wait);
      AsyncWaitPoint point{node == graph.nodeOf.end()
                               ? std::nullopt
                               : std::optional<unsigned>(node->second),
                           static_cast<unsigned>(rw.stageOf[wait]),
                           static_cast<unsigned>(rw.stageOf[group])};
      single = planSingleBarrier(graph, schedule, *result.tripCount,
                                 crossThreadEdges, point);
    }
    if (single)
      insertSingleBarrier(rw, forOp, *single, wait);
    else
      insertGpuBarriers(rw, forOp, crossThreadEdges);
  }

  if (llvm::Error err = placeFollowers(forOp, rw.stageOf))
    return std::move(err);
  if (llvm::Error err = verifyBodySchedule(forOp, rw.stageOf))
    return addContext(std::move(err), "internal schedule check failed: ");
  if (llvm::Error err = expandPipelinedLoop(rw, forOp))
    return std::move(err);
  return result;
}
