//===- NpuFlagSync.cpp - set_flag/wait_flag for pipelined NPU loops -------===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//

#include "hwsched/Transforms/NpuFlagSync.h"

#include "hwsched/Dialect/NpuSync/NpuSync.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace hwsched;

/// base + (iteration + offset) mod K, as index arithmetic at the rewriter's
/// insertion point.
static Value eventId(RewriterBase &rewriter, Location loc, Value iteration,
                     int64_t offset, const NpuFlagChannel &c) {
  auto cst = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(rewriter, loc, v);
  };
  if (c.numEvents == 1)
    return cst(c.firstEvent);
  Value shifted =
      offset ? arith::AddIOp::create(rewriter, loc, iteration, cst(offset))
                   .getResult()
             : iteration;
  Value slot = arith::RemSIOp::create(rewriter, loc, shifted, cst(c.numEvents));
  if (!c.firstEvent)
    return slot;
  return arith::AddIOp::create(rewriter, loc, slot, cst(c.firstEvent));
}

/// (iv - lb) / step: the iteration number, at the rewriter's insertion point.
static Value iterationNumber(RewriterBase &rewriter, Location loc,
                             scf::ForOp forOp) {
  Value delta = arith::SubIOp::create(rewriter, loc, forOp.getInductionVar(),
                                      forOp.getLowerBound());
  return arith::DivSIOp::create(rewriter, loc, delta, forOp.getStep());
}

unsigned hwsched::insertNpuFlags(
    RewriterBase &rewriter, scf::ForOp forOp, const LoopDependenceGraph &graph,
    const NpuFlagPlan &plan, llvm::DenseMap<Operation *, int64_t> &stageOf) {
  unsigned inBody = 0;
  Location loc = forOp.getLoc();
  bool needsTripCount = false;
  for (const NpuFlagChannel &c : plan.channels) {
    Operation *producer = graph.nodes[c.lastProducer].op;
    Operation *consumer = graph.nodes[c.firstConsumer].op;
    rewriter.setInsertionPointAfter(producer);
    Value ev = eventId(rewriter, producer->getLoc(),
                       iterationNumber(rewriter, producer->getLoc(), forOp),
                       c.distance, c);
    auto set = npu::SetFlagOp::create(rewriter, producer->getLoc(), c.srcPipe,
                                      c.dstPipe, ev);
    stageOf[set] = c.producerStage;
    rewriter.setInsertionPoint(consumer);
    ev = eventId(rewriter, consumer->getLoc(),
                 iterationNumber(rewriter, consumer->getLoc(), forOp), 0, c);
    auto wait = npu::WaitFlagOp::create(rewriter, consumer->getLoc(), c.srcPipe,
                                        c.dstPipe, ev);
    stageOf[wait] = c.consumerStage;
    inBody += 2;
    needsTripCount |= c.distance > 0;
  }
  if (!needsTripCount)
    return inBody;

  // The producers of iterations -delta..-1 "ran" before the loop ...
  rewriter.setInsertionPoint(forOp);
  for (const NpuFlagChannel &c : plan.channels)
    for (unsigned t = 0; t < c.distance; ++t) {
      Value ev = arith::ConstantIndexOp::create(rewriter, loc,
                                                c.firstEvent + t % c.numEvents);
      npu::SetFlagOp::create(rewriter, loc, c.srcPipe, c.dstPipe, ev);
    }
  // ... and the consumers of iterations N..N+delta-1 run after it, with
  // N = max(0, ceil((ub - lb) / step)).
  rewriter.setInsertionPointAfter(forOp);
  auto cst = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(rewriter, loc, v);
  };
  Value span = arith::SubIOp::create(rewriter, loc, forOp.getUpperBound(),
                                     forOp.getLowerBound());
  Value stepMinusOne =
      arith::SubIOp::create(rewriter, loc, forOp.getStep(), cst(1));
  Value rounded = arith::AddIOp::create(rewriter, loc, span, stepMinusOne);
  Value trips = arith::DivSIOp::create(rewriter, loc, rounded, forOp.getStep());
  trips = arith::MaxSIOp::create(rewriter, loc, trips, cst(0));
  for (const NpuFlagChannel &c : plan.channels)
    for (unsigned t = 0; t < c.distance; ++t) {
      Value ev = eventId(rewriter, loc, trips, t, c);
      npu::WaitFlagOp::create(rewriter, loc, c.srcPipe, c.dstPipe, ev);
    }
  return inBody;
}
