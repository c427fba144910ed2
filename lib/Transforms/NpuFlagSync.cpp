//===- NpuFlagSync.cpp - set_flag/wait_flag for pipelined NPU loops -------===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//

#include "hwsched/Transforms/NpuFlagSync.h"

#include "hwsched/Dialect/NpuSync/NpuSync.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

#include <map>
#include <tuple>

using namespace mlir;
using namespace hwsched;

namespace {
/// A channel under construction, with the figures its validity depends on.
struct Candidate {
  NpuFlagChannel channel;
  unsigned producerPos = 0, consumerPos = 0;
  /// Copies of the multi-buffered buffer the channel's edges go through.
  unsigned copies = 1;
};
} // namespace

/// Consumer of iteration j waits for the producer of iteration j - delta:
/// that set must come first in the pipelined order, i.e.
/// (stage(u) - delta, pos(u)) < (stage(v), pos(v)).
static bool setsBeforeWait(const Candidate &c) {
  int64_t su = static_cast<int64_t>(c.channel.producerStage) -
               static_cast<int64_t>(c.channel.distance);
  int64_t sv = c.channel.consumerStage;
  return su < sv || (su == sv && c.producerPos < c.consumerPos);
}

/// Smallest event count for which the producer of iteration i + K sets its
/// flag only after the consumer of iteration i + delta consumed the previous
/// one: (delta + stage(v), pos(v)) < (K + stage(u), pos(u)).
static unsigned eventsNeeded(const Candidate &c) {
  int64_t delta = c.channel.distance;
  int64_t k = delta + static_cast<int64_t>(c.channel.consumerStage) -
              static_cast<int64_t>(c.channel.producerStage) +
              (c.consumerPos > c.producerPos ? 1 : 0);
  k = std::max<int64_t>({k, delta, 1, static_cast<int64_t>(c.copies)});
  return static_cast<unsigned>(k);
}

std::string hwsched::planNpuFlags(const LoopDependenceGraph &graph,
                                  const StageSchedule &schedule, bool pipelined,
                                  NpuFlagPlan &plan, Operation *&culprit) {
  plan.channels.clear();
  auto stageOf = [&](unsigned n) { return pipelined ? schedule.stage[n] : 0u; };
  using Key =
      std::tuple<std::string, std::string, unsigned, unsigned, unsigned>;
  std::map<Key, SmallVector<unsigned>> byKey;
  SmallVector<Candidate> candidates;
  for (const DepEdge &e : graph.edges) {
    const DepNode &u = graph.nodes[e.from];
    const DepNode &v = graph.nodes[e.to];
    // One pipe executes in order: same-pipe dependences need no flag.
    if (e.from == e.to || u.unit == v.unit)
      continue;
    for (const DepNode *node : {&u, &v})
      if (!npu::getPipeIndex(node->unit)) {
        culprit = node->op;
        return "unit '" + node->unit +
               "' of the spec is not an NPU pipe a flag can name (mte1, "
               "mte2, mte3, cube, vector, scalar, fixpipe)";
      }
    Candidate c;
    c.channel.srcPipe = u.unit;
    c.channel.dstPipe = v.unit;
    c.channel.producerStage = stageOf(e.from);
    c.channel.consumerStage = stageOf(e.to);
    c.channel.distance = e.distance;
    c.channel.lastProducer = e.from;
    c.channel.firstConsumer = e.to;
    c.channel.edges = 1;
    c.producerPos = u.position;
    c.consumerPos = v.position;
    if (pipelined && e.buffer >= 0 && schedule.copies[e.buffer] > 1 &&
        !graph.buffers[e.buffer].loopLocal) {
      // The buffer is multi-buffered: iteration i uses copy i mod copies,
      // and a loop-carried WAR/WAW now reaches the iteration `copies` later.
      c.copies = schedule.copies[e.buffer];
      if (e.removableByMultiBuffering)
        c.channel.distance = c.copies;
    }
    if (!setsBeforeWait(c)) {
      culprit = v.op;
      return "the schedule runs '" + v.op->getName().getStringRef().str() +
             "' (" + v.unit + ") before the '" +
             u.op->getName().getStringRef().str() + "' (" + u.unit +
             ") it depends on";
    }
    // Merge into an existing channel of the same class when one set and one
    // wait still serve every edge of both.
    Key key{c.channel.srcPipe, c.channel.dstPipe, c.channel.producerStage,
            c.channel.consumerStage, c.channel.distance};
    bool merged = false;
    for (unsigned idx : byKey[key]) {
      Candidate m = candidates[idx];
      if (c.producerPos > m.producerPos) {
        m.producerPos = c.producerPos;
        m.channel.lastProducer = c.channel.lastProducer;
      }
      if (c.consumerPos < m.consumerPos) {
        m.consumerPos = c.consumerPos;
        m.channel.firstConsumer = c.channel.firstConsumer;
      }
      m.copies = std::max(m.copies, c.copies);
      if (!setsBeforeWait(m))
        continue;
      ++m.channel.edges;
      candidates[idx] = m;
      merged = true;
      break;
    }
    if (!merged) {
      byKey[key].push_back(candidates.size());
      candidates.push_back(c);
    }
  }
  // Events per pipe pair, in channel order.
  std::map<std::pair<std::string, std::string>, unsigned> nextEvent;
  for (Candidate &c : candidates) {
    c.channel.numEvents = eventsNeeded(c);
    unsigned &next = nextEvent[{c.channel.srcPipe, c.channel.dstPipe}];
    c.channel.firstEvent = next;
    next += c.channel.numEvents;
    if (next > npu::kNumEventIds) {
      culprit = graph.nodes[c.channel.firstConsumer].op;
      return "the flags from " + c.channel.srcPipe + " to " +
             c.channel.dstPipe + " need " + std::to_string(next) +
             " event ids, the hardware has " +
             std::to_string(npu::kNumEventIds);
    }
    plan.channels.push_back(c.channel);
  }
  return "";
}

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
