//===- DecisionPictureBuilders.cpp - Pictures from op decisions -----------===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//

#include "DecisionPictureBuilders.h"

#include "hwsched/Support/DecisionPictures.h"

#include "mlir/IR/SymbolTable.h"
#include "llvm/Support/raw_ostream.h"

#include <map>

using namespace mlir;
using namespace hwsched;

std::string hwsched::detail::pictureStem(Operation *op, StringRef what,
                                         unsigned index) {
  std::string symbol = "module";
  for (Operation *current = op; current; current = current->getParentOp())
    if (auto name = current->getAttrOfType<StringAttr>(
            SymbolTable::getSymbolAttrName())) {
      symbol = name.str();
      break;
    }
  return symbol + "-" + what.str() + "-" + std::to_string(index);
}

/// Writes `svg` when pictures are on.
static llvm::Expected<std::optional<std::string>>
writeIfEnabled(StringRef stem, const std::string &svg) {
  std::string dir = getPictureDirectory();
  if (dir.empty())
    return std::nullopt;
  llvm::Expected<std::string> path = writePicture(dir, stem, svg);
  if (!path)
    return path.takeError();
  return std::optional<std::string>(*path);
}

std::optional<std::string> hwsched::detail::pictureOrWarning(
    Operation *transformOp,
    llvm::Expected<std::optional<std::string>> picture) {
  if (picture)
    return *picture;
  transformOp->emitWarning()
      << "no picture: " << llvm::toString(picture.takeError());
  return std::nullopt;
}

llvm::Expected<std::optional<std::string>>
hwsched::detail::drawMergePlan(const ScopeAllocationLiveness &liveness,
                               const AllocationMergePlan &plan,
                               StringRef targetName, StringRef stem) {
  if (getPictureDirectory().empty())
    return std::nullopt;
  std::vector<LayoutBox> boxes;
  auto nameOf = [&](size_t index) {
    std::string text;
    llvm::raw_string_ostream os(text);
    os << "#" << index << " " << liveness.buffers[index].bytes << " B";
    return text;
  };
  for (auto [slot, index] : llvm::enumerate(plan.merged)) {
    const OnChipBuffer &buffer = liveness.buffers[index];
    boxes.push_back({nameOf(index), buffer.start, buffer.end,
                     static_cast<int64_t>(plan.offsets[slot]),
                     static_cast<int64_t>(buffer.bytes), /*pinned=*/false});
  }
  // Pinned buffers keep private slots: stack them above the merged buffer,
  // live over the whole scope.
  int64_t top = plan.mergedBytes;
  int64_t points = static_cast<int64_t>(liveness.programOrder.size());
  for (size_t index : plan.pinned) {
    const OnChipBuffer &buffer = liveness.buffers[index];
    if (buffer.unboundedSize)
      continue;
    boxes.push_back({nameOf(index), 0, points, top,
                     static_cast<int64_t>(buffer.bytes), /*pinned=*/true});
    top += buffer.bytes;
  }
  MemoryLayoutPicture picture;
  picture.title = "merge_allocations on " + targetName.str() + ": " +
                  std::to_string(plan.merged.size()) + " buffers packed";
  picture.boxes = boxes;
  picture.capacityBytes = plan.capacityBytes;
  picture.peakBytes = plan.peakBytes;
  picture.lowerBoundBytes = plan.lowerBoundBytes;
  picture.numProgramPoints = points;
  return writeIfEnabled(stem, renderMemoryLayoutSvg(picture));
}

llvm::Expected<std::optional<std::string>> hwsched::detail::drawStageSchedule(
    const LoopDependenceGraph &graph, const StageSchedule &schedule,
    ArrayRef<PipelineUnit> units, StringRef targetName, StringRef stem) {
  if (getPictureDirectory().empty())
    return std::nullopt;
  auto issueCycles = [&](StringRef unit) -> int64_t {
    for (const PipelineUnit &u : units)
      if (u.name == unit)
        return std::max<int64_t>(u.issueCycles, 1);
    return 1;
  };
  // Iteration i runs stage s in slot i + s, each op at its issue offset in
  // the slot: the earliest one the schedule's latencies allow (an op waits
  // for its operands, e.g. a matmul for a copy whose latency spans more than
  // the stages between them), then pushed back past ops issued before it on
  // the same unit in the same slot. Drawing stages + 2 iterations shows a
  // prologue, at least one full kernel slot and the epilogue.
  int64_t ii = std::max<int64_t>(schedule.achievedII, 1);
  int64_t iterations = schedule.numStages + 2;
  std::vector<ScheduleBox> boxes;
  SchedulerConfig config;
  config.units.assign(units.begin(), units.end());
  std::vector<int64_t> offsets =
      computeIssueOffsets(graph, config, schedule.stage, ii);
  // The level-merging fallback's stages need not admit offsets at its
  // interval: start every op at its slot then.
  if (offsets.size() != graph.nodes.size())
    offsets.assign(graph.nodes.size(), 0);
  std::vector<unsigned> order(graph.nodes.size());
  for (unsigned n = 0; n < order.size(); ++n)
    order[n] = n;
  llvm::stable_sort(
      order, [&](unsigned a, unsigned b) { return offsets[a] < offsets[b]; });
  std::map<std::pair<unsigned, std::string>, int64_t> busyUntil;
  for (unsigned n : order) {
    const auto &node = graph.nodes[n];
    int64_t &free = busyUntil[{schedule.stage[n], node.unit}];
    offsets[n] = std::max(offsets[n], free);
    free = offsets[n] + (node.isSync ? 0 : issueCycles(node.unit));
  }
  for (int64_t it = 0; it < iterations; ++it)
    for (auto [n, node] : llvm::enumerate(graph.nodes)) {
      std::string name = node.op->getName().getStringRef().str();
      boxes.push_back({name, node.unit, schedule.stage[n], it,
                       (it + schedule.stage[n]) * ii + offsets[n],
                       node.isSync ? 1 : issueCycles(node.unit)});
    }
  SchedulePicture picture;
  picture.title = "schedule_stages on " + targetName.str() + ": " +
                  std::to_string(schedule.numStages) + " stages, " +
                  std::to_string(graph.nodes.size()) + " ops";
  picture.boxes = boxes;
  picture.initiationInterval = ii;
  picture.kernelStartCycle = (schedule.numStages - 1) * ii;
  picture.kernelEndCycle = iterations * ii;
  return writeIfEnabled(stem, renderScheduleSvg(picture));
}

void hwsched::detail::showStageSchedule(Operation *transformOp,
                                        const LoopPipelinePlan &plan,
                                        unsigned index, bool explain) {
  std::optional<std::string> picture = pictureOrWarning(
      transformOp, drawStageSchedule(plan.graph, plan.pipeline.schedule,
                                     plan.units, plan.targetName,
                                     pictureStem(plan.loop, "loop", index)));
  if (picture && explain)
    plan.loop->emitRemark() << "schedule picture " << *picture;
}

void hwsched::detail::showMergePlan(Operation *transformOp,
                                    ScopeMergeDecision &decision,
                                    StringRef targetName, unsigned index) {
  if (decision.liveness.buffers.empty())
    return;
  decision.picture = pictureOrWarning(
      transformOp,
      drawMergePlan(decision.liveness, decision.plan, targetName,
                    pictureStem(decision.liveness.scope, "smem", index)));
}
