//===- NpuFlagPlanning.h - Flags a pipelined NPU loop needs -----*- C++ -*-===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//
//
// Plans the hwsched_npu.set_flag / wait_flag pairs that a stage-scheduled
// scf.for body needs for every dependence whose two ends run on different
// NPU pipes: which channels, their events and stages, or why there can be
// none. The rewrite (Transforms/NpuFlagSync.h) takes the plan and decides
// nothing.
//
// Model. Op v of iteration j runs at "time" (j + stage(v), position(v)) in
// the pipelined program (prologue, kernel and epilogue alike), and at
// (j, position(v)) when the loop runs unpipelined (one stage, or unrolled
// completely). A channel carries the edges u -> v, pipe(u) != pipe(v), of one
// (pipe(u), pipe(v), stage(u), stage(v), distance) class: consumer v of
// iteration j needs producer u of iteration j - delta, where delta is 0 for
// same-iteration edges, the number of buffer copies for a WAR/WAW through a
// multi-buffered buffer, and 1 for other loop-carried edges. The channel's
// set_flag goes right after its last producer, its wait_flag right before
// its first consumer; the set of iteration i uses event
// base + (i + delta) mod K, the wait of iteration j uses base + j mod K.
// K is the smallest count for which a flag is never set twice before its
// wait (and at least the buffer's copy count, so that for ping-pong buffers
// event base + k belongs to copy k). Channels with delta > 0 pre-set delta
// flags before the loop (the producers of iterations -delta..-1) and wait
// for the last delta flags after it (consumers N..N+delta-1), so every wait
// has exactly one set along every path, whatever the trip count.
//
// Coarsening. When the channels of one pipe pair need more than the 8 event
// ids of the hardware, one set/wait pair serves several classes: with S the
// latest producer point (stage(u) - delta, pos(u)) and W the earliest
// consumer point (stage(v), pos(v)) of its edges (in the consumer
// iteration's frame), a set right after the producer at S, released
// delta = max(0, -stage(S)) iterations later, and a wait right before the
// consumer at W cover every edge of the group as long as S < W: each
// producer runs before the set (same source pipe, in order), each consumer
// after the wait (same destination pipe). Its event count is
// max(1, delta, stage(W) - stage(S) + [pos(W) > pos(S)]), never more than
// that of any channel it replaces. Channels are merged pairwise (largest
// saving first) until the pipe pair fits; if that gets stuck, the fewest
// channels that cover every edge (interval stabbing) are used when cheaper.
// If the pair still needs too many, single-event channels whose flags are
// never live at the same time share event ids (see assignEvents).
//
// Hardware order. The above is correct in program order. On the hardware
// each pipe runs on its own, ordered with the others only by set -> wait, so
// every plan is also checked in that partial order (checkHardwareOrder:
// vector clocks over the flags of all pipe pairs laid out for trip counts
// 1..bound): each set of an event must come after the wait of its previous
// set. Coarsened, shortened or shared plans that fail are not used; a fine
// channel that fails gets a back-pressure channel (the reverse pipe pair,
// no dependence) or the plan is refused (hardwareOrderHazard).
//
//===----------------------------------------------------------------------===//

#ifndef HWSCHED_COSTMODEL_NPUFLAGPLANNING_H
#define HWSCHED_COSTMODEL_NPUFLAGPLANNING_H

#include "hwsched/Analysis/LoopDependenceGraph.h"
#include "hwsched/CostModel/StageScheduler.h"
#include "hwsched/Support/Refusal.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <string>

namespace hwsched {

/// One flag channel (see the file comment).
struct NpuFlagChannel {
  std::string srcPipe, dstPipe;
  /// Graph nodes: the set goes after `lastProducer`, the wait before
  /// `firstConsumer` (body order).
  unsigned lastProducer = 0, firstConsumer = 0;
  unsigned producerStage = 0, consumerStage = 0;
  /// Iterations between a producer and the consumer its flag releases.
  unsigned distance = 0;
  /// Events used, [firstEvent, firstEvent + numEvents).
  unsigned firstEvent = 0, numEvents = 1;
  /// Number of dependence edges the channel carries.
  unsigned edges = 0;
  /// Made by coarsening (see NpuFlagCoarsening): may carry edges of several
  /// stage/distance classes, and `distance` is the smallest that places the
  /// set in a stage >= 0.
  bool coarsened = false;
  /// Carries no dependence: throttles another channel whose rotation the
  /// hardware order would not otherwise protect (the producer pipe could set
  /// an event again before the consumer pipe waited for it).
  bool backPressure = false;

  /// One line, as `explain` prints it: pipes, events, stages, distance and
  /// what the channel carries.
  void print(llvm::raw_ostream &os) const;
};

/// A pipe pair whose fine channels needed more event ids than the hardware
/// has, and the coarser channels that replaced them.
struct NpuFlagCoarsening {
  std::string srcPipe, dstPipe;
  unsigned fineChannels = 0, fineEvents = 0;
  unsigned channels = 0, events = 0;
  /// Channels that share an event id with another channel.
  unsigned sharedChannels = 0;
  /// Event ids per pipe pair on the hardware.
  unsigned budget = 0;

  /// One line, as `explain` prints it: the fine and the coarse figures.
  void print(llvm::raw_ostream &os) const;
};

/// All channels of one loop, or why there are none.
struct NpuFlagPlan {
  enum class Verdict {
    Planned,
    /// A pipe pair needs more event ids than the hardware has, even with the
    /// coarsest flags (fewer stages may fit).
    EventBudgetExceeded,
    /// The flags, correct in program order, could set an event again before
    /// its previous set was waited for when the pipes run independently
    /// (fewer stages may fit).
    HardwareOrderHazard,
    /// A unit that is not a pipe, or a schedule that runs a consumer before
    /// its producer: fewer stages do not help.
    Unsupported,
  };
  Verdict verdict = Verdict::Planned;
  /// verdict != Planned: what the user reads, at the op that needs the flag.
  std::optional<Refusal> refusal;
  llvm::SmallVector<NpuFlagChannel> channels;
  llvm::SmallVector<NpuFlagCoarsening> coarsened;

  bool planned() const { return verdict == Verdict::Planned; }
  /// Whether a schedule with fewer stages may get a plan.
  bool fewerStagesMayFit() const {
    return verdict == Verdict::EventBudgetExceeded ||
           verdict == Verdict::HardwareOrderHazard;
  }

  /// One line per coarsened pipe pair, then one per channel (the `explain`
  /// remarks of a planned loop); the refusal when there is no plan.
  void print(llvm::raw_ostream &os) const;
};

/// Plans the flags of `graph` under `schedule`. `pipelined` says whether the
/// loop is really expanded (more than one stage and not unrolled completely):
/// otherwise stages are ignored and buffers are not multi-buffered. The
/// plan's verdict says whether the flags could be planned.
NpuFlagPlan planNpuFlags(const LoopDependenceGraph &graph,
                         const StageSchedule &schedule, bool pipelined);

} // namespace hwsched

#endif // HWSCHED_COSTMODEL_NPUFLAGPLANNING_H
