//===- StageScheduler.h - Resource-aware stage assignment -------*- C++ -*-===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//
//
// Turns a loop dependence graph and a hardware spec into a stage schedule:
// ResMII / RecMII / MII, one stage per scheduled op, the number of copies of
// every buffer that crosses stages, and the on-chip bytes those copies take.
// Plain data in, plain data out: tests, remarks, benchmarks and the rewrite
// all read the same StageSchedule.
//
// Timing model (modulo scheduling): op v of iteration j issues at
// (j + stage(v)) * II + t(v) with 0 <= t(v) < II. An edge u -> v of distance d
// needs t(v) + (d + stage(v) - stage(u)) * II >= t(u) + latency(u). The
// achieved interval is the smallest II >= MII for which such offsets exist.
//
//===----------------------------------------------------------------------===//

#ifndef HWSCHED_COSTMODEL_STAGESCHEDULER_H
#define HWSCHED_COSTMODEL_STAGESCHEDULER_H

#include "hwsched/Analysis/LoopDependenceGraph.h"
#include "hwsched/HwSpec/HwSpec.h"

#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <string>
#include <vector>

namespace hwsched {

/// One `pipeline.units.<name>` entry of the spec.
struct PipelineUnit {
  std::string name;
  int64_t count = 1;
  int64_t latencyCycles = 1;
  int64_t issueCycles = 1;
};

/// What the scheduler needs from the spec and the caller.
struct SchedulerConfig {
  std::vector<PipelineUnit> units;
  int64_t capacityBytes = 0;
  unsigned maxStages = 1;
  /// The op's `num_stages`, if given.
  std::optional<unsigned> requestedStages;
  /// Dependent ops on different units always go to different stages (the
  /// op's `separate_unit_stages`); otherwise that partition rule is a
  /// preference the scheduler drops where it would cost interval.
  bool separateUnits = false;
  /// The spec's name, for refusals ("on-chip buffers do not fit (spec
  /// 'nvidia-h100'): ...").
  std::string specName;
};

/// Reads `pipeline.units`, `pipeline.max_stages` and `onchip.capacity_bytes`;
/// a refusal naming the spec and the first missing or invalid key.
llvm::Expected<SchedulerConfig> readSchedulerConfig(const HwSpec &spec);

/// One decision about the stage count or the interval, as `explain` prints
/// it. The kind lets a later step keep or drop a note without reading its
/// text (a re-schedule with fewer stages keeps the user's clamp only).
struct ScheduleNote {
  enum class Kind {
    /// `num_stages` above `pipeline.max_stages`, clamped.
    StageClamp,
    /// The stage limit lowered until the buffer copies fit the capacity.
    CapacityReduction,
    /// The graph uses fewer stages than requested (the interval is MII).
    UnusedStages,
    /// The interval raised (and maybe the stages lowered) so the copies fit.
    IntervalRaised,
    /// No modulo schedule: stages by level merging.
    LevelMerging,
    /// The stage limit lowered because the synchronisation of more stages
    /// does not fit the hardware (NPU flag event ids).
    SyncReduction,
    /// Fewer stages than the limit allows: more reach no shorter interval.
    FewerStages,
  };
  Kind kind;
  std::string text;

  void print(llvm::raw_ostream &os) const { os << text; }
};

/// The schedule of one loop.
struct StageSchedule {
  /// Stage per graph node.
  std::vector<unsigned> stage;
  /// Stages used (max stage + 1).
  unsigned numStages = 1;
  /// The stage limit the schedule was computed for.
  unsigned stageLimit = 1;
  int64_t resMII = 1, recMII = 1, mii = 1;
  /// Smallest II the stage assignment supports under the timing model.
  int64_t achievedII = 1;
  /// Smallest II >= MII at which the latency paths fit in `stageLimit`
  /// stages (floor(path / II) + 1 <= stageLimit for every dependence path):
  /// a lower bound for any schedule with this stage limit.
  int64_t stageBoundII = 1;
  /// The stages come from the modulo scheduler (timing, stage order and the
  /// per-unit reservation table checked); false for the level-merging
  /// fallback.
  bool moduloScheduled = false;
  /// On tiny bodies above the bound: the smallest latency-only interval over
  /// every stage assignment the kernel allows (exact for the latency model,
  /// a lower bound with the units); unset when not enumerated.
  std::optional<int64_t> exhaustiveII;
  /// Copies per graph buffer (1: not multi-buffered).
  std::vector<unsigned> copies;
  /// On-chip bytes with the copies, and the capacity they are checked
  /// against; `dynamicOnChipBuffers` counts buffers with unknown size.
  int64_t onChipBytes = 0;
  int64_t capacityBytes = 0;
  unsigned dynamicOnChipBuffers = 0;
  /// Decisions about the stage count and the interval, in order.
  std::vector<ScheduleNote> notes;
};

/// Lower bounds of the interval.
int64_t computeResMII(const LoopDependenceGraph &graph,
                      const SchedulerConfig &config);
int64_t computeRecMII(const LoopDependenceGraph &graph,
                      const SchedulerConfig &config);

/// A dependence cycle that sets RecMII, as indices into `graph.edges` in
/// cycle order; empty when RecMII is 1.
std::vector<unsigned> findCriticalRecurrence(const LoopDependenceGraph &graph,
                                             const SchedulerConfig &config);

/// The earliest issue offsets t(v) in [0, II) (see the timing model above)
/// of the stage assignment `stages` at interval `ii`: where in its slot each
/// op can start once its operands' latencies have elapsed. Empty when no
/// offsets exist at `ii`.
std::vector<int64_t> computeIssueOffsets(const LoopDependenceGraph &graph,
                                         const SchedulerConfig &config,
                                         const std::vector<unsigned> &stages,
                                         int64_t ii);

/// Smallest II >= `lowerBound` under which `stages` is a valid modulo
/// schedule (ignoring edges removed by multi-buffering).
int64_t computeAchievedII(const LoopDependenceGraph &graph,
                          const SchedulerConfig &config,
                          const std::vector<unsigned> &stages,
                          int64_t lowerBound);

/// Assigns stages with at most `stageLimit` stages, and computes copies and
/// bytes (no capacity decision).
StageSchedule scheduleWithLimit(const LoopDependenceGraph &graph,
                                const SchedulerConfig &config,
                                unsigned stageLimit);

/// Picks the stage count (requested or largest fitting, clamped to
/// max_stages, reduced while the copies exceed the capacity) and returns its
/// schedule; a refusal with the numbers when even one stage does not fit.
llvm::Expected<StageSchedule> scheduleStages(const LoopDependenceGraph &graph,
                                             const SchedulerConfig &config);

/// Independent legality check of a stage assignment against the graph's
/// distance-0 and loop-carried edges (for body-order kernels): a refusal
/// describing the first violated dependence (at its consumer), or success.
llvm::Error checkStageLegality(const LoopDependenceGraph &graph,
                               const std::vector<unsigned> &stages);

} // namespace hwsched

#endif // HWSCHED_COSTMODEL_STAGESCHEDULER_H
