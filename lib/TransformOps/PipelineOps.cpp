//===- PipelineOps.cpp - transform.pipeline.* ops -------------------------===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//

#include "hwsched/TransformOps/HwschedTransformOps.h"

#include "hwsched/Analysis/LoopDependenceGraph.h"
#include "hwsched/CostModel/RecurrenceExplanation.h"
#include "hwsched/CostModel/StageScheduler.h"

#include "DecisionPictureBuilders.h"
#include "hwsched/TransformOps/RefusalDiagnostics.h"
#include "hwsched/TransformOps/TargetResolution.h"
#include "hwsched/Transforms/LoopPipelining.h"
#include "hwsched/Transforms/NpuFlagSync.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

#include <limits>

using namespace mlir;
using namespace mlir::transform;
using namespace hwsched;

namespace {
/// Everything decided for one loop before the payload is touched.
struct LoopPlan {
  scf::ForOp loop;
  /// Where the loop was (for notes once loops are rewritten).
  Location loc = UnknownLoc();
  LoopDependenceGraph graph;
  /// The schedule and its synchronisation (the NPU flags planned once).
  PipelinePlan pipeline;
  /// For the schedule picture.
  std::vector<PipelineUnit> units;
  std::string targetName;
  /// With `explain`, when a recurrence bounds the interval: its cycle and
  /// cause.
  RecurrenceExplanation recurrence;
};
} // namespace

/// Emits the `explain` remarks of one plan: one per scheduled op, one per
/// multi-buffered allocation, the interval figures and every stage decision.
static void explainPlan(const LoopPlan &plan) {
  const StageSchedule &s = plan.pipeline.schedule;
  for (auto [n, node] : llvm::enumerate(plan.graph.nodes))
    node.op->emitRemark() << "stage " << s.stage[n] << " on unit " << node.unit;
  for (auto [b, buffer] : llvm::enumerate(plan.graph.buffers)) {
    if (!buffer.onChip && s.copies[b] <= 1)
      continue;
    Operation *anchor = buffer.allocOp ? buffer.allocOp : plan.loop;
    InFlightDiagnostic diag = anchor->emitRemark();
    diag << "buffer " << s.copies[b] << " cop"
         << (s.copies[b] == 1 ? "y" : "ies");
    if (buffer.bytes >= 0)
      diag << " x " << buffer.bytes << " bytes";
    else
      diag << " (dynamic size)";
    diag << (buffer.onChip ? " on chip" : " off chip");
  }
  plan.loop->emitRemark() << "stages " << s.numStages << " of limit "
                          << s.stageLimit << ": ResMII " << s.resMII
                          << ", RecMII " << s.recMII << ", MII " << s.mii
                          << ", achieved interval " << s.achievedII
                          << ", lower bound with " << s.stageLimit << " stages "
                          << s.stageBoundII
                          << (s.moduloScheduled ? " (modulo scheduled)"
                                                : " (level merging)");
  if (!plan.recurrence.empty()) {
    InFlightDiagnostic diag = plan.loop->emitRemark();
    std::string text;
    llvm::raw_string_ostream os(text);
    plan.recurrence.print(os, plan.graph);
    diag << text;
  }
  InFlightDiagnostic bytes = plan.loop->emitRemark();
  bytes << "on-chip bytes " << s.onChipBytes << " of capacity "
        << s.capacityBytes;
  if (s.dynamicOnChipBuffers)
    bytes << " (" << s.dynamicOnChipBuffers
          << " dynamic-size on-chip buffers not counted)";
  if (s.exhaustiveII)
    plan.loop->emitRemark() << "every allowed stage assignment enumerated: "
                               "smallest latency-only interval "
                            << *s.exhaustiveII;
  for (const ScheduleNote &note : s.notes)
    plan.loop->emitRemark() << note.text;
  if (plan.pipeline.sync == PipelineSync::NpuFlag &&
      plan.pipeline.npuFlags.planned()) {
    const NpuFlagPlan &flags = plan.pipeline.npuFlags;
    for (const NpuFlagCoarsening &c : flags.coarsened) {
      InFlightDiagnostic diag = plan.loop->emitRemark();
      diag << "npu flags " << c.srcPipe << " -> " << c.dstPipe
           << " coarsened: " << c.fineChannels << " channels need "
           << c.fineEvents << " event ids, the hardware has " << c.budget
           << "; now " << c.channels
           << (c.channels == 1 ? " channel with " : " channels with ")
           << c.events << (c.events == 1 ? " event id" : " event ids");
      if (c.sharedChannels)
        diag << " (" << c.sharedChannels
             << " channels share event ids with flags never live at once)";
    }
    for (const NpuFlagChannel &c : flags.channels)
      plan.loop->emitRemark()
          << "npu flag " << c.srcPipe << " -> " << c.dstPipe << ": events "
          << c.firstEvent << ".." << c.firstEvent + c.numEvents - 1
          << ", set in stage " << c.producerStage << ", wait in stage "
          << c.consumerStage << ", distance " << c.distance << ", "
          << (c.backPressure ? "back-pressure"
                             : std::to_string(c.edges) + " dependence" +
                                   (c.edges == 1 ? "" : "s"));
  }
}

DiagnosedSilenceableFailure
hwsched::ScheduleStagesOp::apply(transform::TransformRewriter &rewriter,
                                 transform::TransformResults &results,
                                 transform::TransformState &state) {
  SmallVector<StringRef> ownAttrs = {"target", "explain", "num_stages",
                                     "separate_unit_stages"};
  std::vector<LoopPlan> plans;
  NumericInputs inputs;
  DiagnosedSilenceableFailure read = NumericInputs::read(*this, state, inputs);
  if (!read.succeeded())
    return read;
  std::optional<int64_t> numStages;
  DiagnosedSilenceableFailure stagesRead =
      inputs.getInteger("num_stages", 1, numStages);
  if (!stagesRead.succeeded())
    return stagesRead;
  // Decide for every loop first: any refusal leaves all payloads untouched.
  for (Operation *payload : state.getPayloadOps(getLoop())) {
    ResolvedTarget target;
    DiagnosedSilenceableFailure resolved =
        resolveTarget(*this, payload, ownAttrs, target, &inputs);
    if (!resolved.succeeded())
      return resolved;
    auto forOp = dyn_cast<scf::ForOp>(payload);
    if (!forOp) {
      DiagnosedSilenceableFailure diag = emitSilenceableError()
                                         << "expects scf.for payload ops, got '"
                                         << payload->getName() << "'";
      diag.attachNote(payload->getLoc()) << "payload op";
      return diag;
    }
    llvm::Expected<SchedulerConfig> config = readSchedulerConfig(target.spec);
    if (!config)
      return silenceable(*this, config.takeError());
    if (numStages)
      config->requestedStages = static_cast<unsigned>(
          std::min<int64_t>(*numStages, std::numeric_limits<unsigned>::max()));
    config->separateUnits = getSeparateUnitStages();

    LoopPlan plan;
    plan.loop = forOp;
    plan.loc = forOp.getLoc();
    StringRef syncName =
        target.spec.getString("pipeline.sync").value_or("none");
    PipelineSync sync = llvm::StringSwitch<PipelineSync>(syncName)
                            .Case("gpu_barrier", PipelineSync::GpuBarrier)
                            .Case("npu_flag", PipelineSync::NpuFlag)
                            .Default(PipelineSync::None);

    // A refusal about the loop: "cannot pipeline the loop: ...", a note at
    // the loop and one at the op in the way.
    auto refuseLoop = [&](llvm::Error error) {
      Refusal refusal = takeRefusal(std::move(error));
      refusal.message = "cannot pipeline the loop: " + refusal.message;
      if (refusal.culprit == forOp.getOperation())
        refusal.culprit = nullptr;
      refusal.notes.insert(refusal.notes.begin(),
                           RefusalNote{forOp.getLoc(), "loop"});
      return silenceable(*this, refusal);
    };
    if (forOp.getUnsignedCmp())
      return refuseLoop(refuse(forOp, "unsigned loops are not supported"));

    UnitContext ctx;
    ctx.kind = target.spec.getKind();
    ctx.onChipMemorySpace = target.onChipMemorySpace;
    ctx.units = target.spec.getPipelineUnits();
    ctx.barriersAreSync = sync == PipelineSync::GpuBarrier;
    llvm::Expected<LoopDependenceGraph> graph =
        buildLoopDependenceGraph(forOp, ctx);
    if (!graph)
      return refuseLoop(graph.takeError());
    plan.graph = std::move(*graph);

    llvm::Expected<PipelinePlan> pipeline =
        scheduleForSync(forOp, plan.graph, *config, sync);
    if (!pipeline)
      return silenceable(
          *this,
          std::move(
              takeRefusal(pipeline.takeError()).note(forOp.getLoc(), "loop")));
    plan.pipeline = std::move(*pipeline);
    plan.units = config->units;
    const StageSchedule &decided = plan.pipeline.schedule;
    if (getExplain() && decided.recMII > 1 && decided.recMII >= decided.resMII)
      plan.recurrence = explainRecurrence(plan.graph, *config);
    plan.targetName = target.spec.getName().str();
    if (llvm::Error err =
            checkPipelinePreconditions(forOp, plan.graph, plan.pipeline))
      return refuseLoop(std::move(err));
    plans.push_back(std::move(plan));
  }

  // Rewriting an outer loop clones and erases its body: a nested loop of the
  // same handle would be left dangling.
  for (LoopPlan &outer : plans)
    for (LoopPlan &inner : plans)
      if (outer.loop != inner.loop &&
          outer.loop->isProperAncestor(inner.loop)) {
        DiagnosedSilenceableFailure diag =
            emitSilenceableError()
            << "the handle holds nested loops; schedule them in separate "
               "calls (inner loops first)";
        diag.attachNote(inner.loc) << "nested loop";
        return diag;
      }

  SmallVector<Operation *> newLoops;
  for (LoopPlan &plan : plans) {
    if (getExplain())
      explainPlan(plan);
    llvm::Expected<std::optional<std::string>> picture =
        hwsched::detail::drawStageSchedule(
            plan.graph, plan.pipeline.schedule, plan.units, plan.targetName,
            hwsched::detail::pictureStem(plan.loop, "loop", newLoops.size()));
    if (!picture)
      emitWarning() << "no picture: " << llvm::toString(picture.takeError());
    else if (*picture && getExplain())
      plan.loop->emitRemark() << "schedule picture " << **picture;
    llvm::Expected<PipelineRewriteResult> rewritten =
        pipelineLoop(rewriter, plan.loop, plan.graph, plan.pipeline);
    if (!rewritten)
      return emitDefiniteFailure()
             << "pipelining failed after the payload was modified: "
             << takeRefusalMessage(rewritten.takeError());
    if (rewritten->loop)
      newLoops.push_back(rewritten->loop);
  }
  results.set(cast<OpResult>(getPipelined()), newLoops);
  return DiagnosedSilenceableFailure::success();
}

void hwsched::ScheduleStagesOp::getEffects(
    SmallVectorImpl<MemoryEffects::EffectInstance> &effects) {
  consumesHandle(getLoopMutable(), effects);
  onlyReadsHandle(getParamsMutable(), effects);
  producesHandle(getOperation()->getOpResults(), effects);
  modifiesPayload(effects);
}

#define GET_OP_CLASSES
#include "hwsched/TransformOps/PipelineOps.cpp.inc"
