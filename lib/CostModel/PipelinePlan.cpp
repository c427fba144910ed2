//===- PipelinePlan.cpp - What is decided before a loop is pipelined ------===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//

#include "hwsched/CostModel/PipelinePlan.h"
#include "hwsched/Support/Refusal.h"
#include "hwsched/Support/TimeTrace.h"

#include "llvm/Support/TimeProfiler.h"

#include <limits>

using namespace mlir;
using namespace hwsched;

//===----------------------------------------------------------------------===//
// Stage schedule and synchronisation
//===----------------------------------------------------------------------===//

bool hwsched::expandsLoop(scf::ForOp forOp, const StageSchedule &schedule) {
  std::optional<int64_t> tripCount = staticTripCount(forOp);
  return schedule.numStages > 1 &&
         !(tripCount && *tripCount < schedule.numStages);
}

PipelinePlan hwsched::planPipeline(scf::ForOp forOp,
                                   const LoopDependenceGraph &graph,
                                   StageSchedule schedule, PipelineSync sync) {
  PipelinePlan plan;
  plan.expands = expandsLoop(forOp, schedule);
  plan.schedule = std::move(schedule);
  plan.sync = sync;
  if (sync == PipelineSync::NpuFlag)
    plan.npuFlags = planNpuFlags(graph, plan.schedule, plan.expands);
  return plan;
}

llvm::Expected<PipelinePlan>
hwsched::scheduleForSync(scf::ForOp forOp, const LoopDependenceGraph &graph,
                         const SchedulerConfig &config, PipelineSync sync) {
  llvm::TimeTraceScope trace("hwsched::scheduleForSync",
                             [&] { return timeTraceDetail(forOp); });
  llvm::Expected<StageSchedule> first = scheduleStages(graph, config);
  if (!first)
    return first.takeError();
  PipelinePlan plan = planPipeline(forOp, graph, *first, sync);
  // The flags a schedule needs grow with its stages (longer flag lifetimes,
  // more buffer copies): fewer stages is the fallback once coarsening is
  // not enough, as for the on-chip capacity.
  while (sync == PipelineSync::NpuFlag && plan.npuFlags.fewerStagesMayFit() &&
         plan.schedule.numStages > 1) {
    SchedulerConfig fewer = config;
    unsigned limit = plan.schedule.numStages - 1;
    fewer.maxStages = std::min(config.maxStages, limit);
    if (fewer.requestedStages)
      fewer.requestedStages = std::min(*fewer.requestedStages, limit);
    llvm::Expected<StageSchedule> next = scheduleStages(graph, fewer);
    if (!next) {
      // Fewer stages never need more bytes; keep the refusal of the flags.
      llvm::consumeError(next.takeError());
      break;
    }
    std::vector<ScheduleNote> notes;
    // The user's clamp still applies; the rest described the dropped
    // schedule.
    for (const ScheduleNote &note : first->notes)
      if (note.kind == ScheduleNote::Kind::StageClamp)
        notes.push_back(note);
    unsigned asked = config.requestedStages
                         ? std::min(*config.requestedStages, config.maxStages)
                         : config.maxStages;
    notes.push_back({ScheduleNote::Kind::SyncReduction,
                     (config.requestedStages ? "requested " : "maximum ") +
                         std::to_string(asked) + " stages reduced to " +
                         std::to_string(next->stageLimit) + ": with " +
                         std::to_string(plan.schedule.numStages) + " stages " +
                         plan.npuFlags.refusal->message});
    notes.insert(notes.end(), next->notes.begin(), next->notes.end());
    next->notes = std::move(notes);
    plan = planPipeline(forOp, graph, std::move(*next), sync);
  }
  return plan;
}

//===----------------------------------------------------------------------===//
// One loop of schedule_stages
//===----------------------------------------------------------------------===//

llvm::Error hwsched::refuseLoop(scf::ForOp forOp, llvm::Error error) {
  Refusal refusal = takeRefusal(std::move(error));
  refusal.message = "cannot pipeline the loop: " + refusal.message;
  if (refusal.culprit == forOp.getOperation())
    refusal.culprit = nullptr;
  refusal.notes.insert(refusal.notes.begin(),
                       RefusalNote{forOp.getLoc(), "loop"});
  return refuse(std::move(refusal));
}

llvm::Expected<LoopPipelinePlan>
hwsched::planLoopPipeline(scf::ForOp forOp, const HwSpec &spec,
                          Attribute onChipMemorySpace,
                          const LoopPipelineRequest &request) {
  llvm::Expected<SchedulerConfig> config = readSchedulerConfig(spec);
  if (!config)
    return config.takeError();
  if (request.numStages)
    config->requestedStages = static_cast<unsigned>(std::min<int64_t>(
        *request.numStages, std::numeric_limits<unsigned>::max()));
  config->separateUnits = request.separateUnitStages;
  PipelineSync sync = spec.getPipelineSync();
  if (forOp.getUnsignedCmp())
    return refuseLoop(forOp, refuse(forOp, "unsigned loops are not supported"));

  UnitContext ctx;
  ctx.kind = spec.getKind();
  ctx.onChipMemorySpace = onChipMemorySpace;
  ctx.units = spec.getPipelineUnits();
  ctx.barriersAreSync = sync == PipelineSync::GpuBarrier;
  llvm::Expected<LoopDependenceGraph> graph =
      buildLoopDependenceGraph(forOp, ctx);
  if (!graph)
    return refuseLoop(forOp, graph.takeError());

  LoopPipelinePlan plan;
  plan.loop = forOp;
  plan.graph = std::move(*graph);
  llvm::Expected<PipelinePlan> pipeline =
      scheduleForSync(forOp, plan.graph, *config, sync);
  if (!pipeline)
    return refuse(std::move(
        takeRefusal(pipeline.takeError()).note(forOp.getLoc(), "loop")));
  plan.pipeline = std::move(*pipeline);
  plan.units = config->units;
  const StageSchedule &decided = plan.pipeline.schedule;
  if (request.explain && decided.recMII > 1 && decided.recMII >= decided.resMII)
    plan.recurrence = explainRecurrence(plan.graph, *config);
  plan.targetName = spec.getName().str();
  return plan;
}

//===----------------------------------------------------------------------===//
// Explanation
//===----------------------------------------------------------------------===//

void LoopPipelinePlan::explain(
    llvm::function_ref<void(Operation *at, StringRef text)> remark) const {
  const StageSchedule &s = pipeline.schedule;
  Operation *loopOp = scf::ForOp(loop).getOperation();
  // Each remark is formatted into `text`, then handed out.
  std::string text;
  llvm::raw_string_ostream os(text);
  auto emit = [&](Operation *at) {
    remark(at, text);
    text.clear();
  };
  for (auto [n, node] : llvm::enumerate(graph.nodes)) {
    os << "stage " << s.stage[n] << " on unit " << node.unit;
    emit(node.op);
  }
  for (auto [b, buffer] : llvm::enumerate(graph.buffers)) {
    if (!buffer.onChip && s.copies[b] <= 1)
      continue;
    os << "buffer " << s.copies[b] << " cop"
       << (s.copies[b] == 1 ? "y" : "ies");
    if (buffer.bytes >= 0)
      os << " x " << buffer.bytes << " bytes";
    else
      os << " (dynamic size)";
    os << (buffer.onChip ? " on chip" : " off chip");
    emit(buffer.allocOp ? buffer.allocOp : loopOp);
  }
  os << "stages " << s.numStages << " of limit " << s.stageLimit << ": ResMII "
     << s.resMII << ", RecMII " << s.recMII << ", MII " << s.mii
     << ", achieved interval " << s.achievedII << ", lower bound with "
     << s.stageLimit << " stages " << s.stageBoundII
     << (s.moduloScheduled ? " (modulo scheduled)" : " (level merging)");
  emit(loopOp);
  if (!recurrence.empty()) {
    recurrence.print(os, graph);
    emit(loopOp);
  }
  if (s.exhaustiveII) {
    os << "every allowed stage assignment enumerated: smallest latency-only "
          "interval "
       << *s.exhaustiveII;
    emit(loopOp);
  }
  for (const ScheduleNote &note : s.notes) {
    os << note.text;
    emit(loopOp);
  }
  if (pipeline.sync == PipelineSync::NpuFlag && pipeline.npuFlags.planned()) {
    for (const NpuFlagCoarsening &c : pipeline.npuFlags.coarsened) {
      c.print(os);
      emit(loopOp);
    }
    for (const NpuFlagChannel &c : pipeline.npuFlags.channels) {
      c.print(os);
      emit(loopOp);
    }
  }
  // Last, where the remarks have always put it.
  os << "on-chip bytes " << s.onChipBytes << " of capacity " << s.capacityBytes;
  if (s.dynamicOnChipBuffers)
    os << " (" << s.dynamicOnChipBuffers
       << " dynamic-size on-chip buffers not counted)";
  emit(loopOp);
}

void LoopPipelinePlan::print(llvm::raw_ostream &os) const {
  explain([&](Operation *, StringRef text) { os << text << "\n"; });
}
