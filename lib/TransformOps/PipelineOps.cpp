//===- PipelineOps.cpp - transform.pipeline.* ops -------------------------===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//

#include "hwsched/TransformOps/HwschedTransformOps.h"

#include "DecisionPictureBuilders.h"
#include "hwsched/CostModel/PipelinePlan.h"
#include "hwsched/TransformOps/OpApplication.h"
#include "hwsched/TransformOps/RefusalDiagnostics.h"
#include "hwsched/Transforms/LoopPipelining.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::transform;
using namespace hwsched;

/// The op's attributes that are not spec overrides.
static constexpr StringRef kOwnAttrs[] = {"target", "explain", "num_stages",
                                          "separate_unit_stages"};

/// Unpacks the op's inputs (attributes, or params for `num_stages`) into
/// `app.inputs` and `request`.
static DiagnosedSilenceableFailure
unpackInputs(hwsched::ScheduleStagesOp op, transform::TransformState &state,
             OpApplication &app, LoopPipelineRequest &request) {
  request.separateUnitStages = op.getSeparateUnitStages();
  request.explain = op.getExplain();
  DiagnosedSilenceableFailure read = app.readInputs(state);
  if (!read.succeeded())
    return read;
  return app.fail(app.inputs.getInteger("num_stages", 1, request.numStages));
}

/// The payload as a loop: a refusal, with a note at it, unless it is an
/// scf.for.
static llvm::Expected<scf::ForOp> unpackLoop(Operation *payload) {
  if (auto forOp = dyn_cast<scf::ForOp>(payload))
    return forOp;
  return refuse(Refusal(nullptr, "expects scf.for payload ops, got '" +
                                     payload->getName().getStringRef() + "'")
                    .note(payload->getLoc(), "payload op"));
}

DiagnosedSilenceableFailure
hwsched::ScheduleStagesOp::apply(transform::TransformRewriter &rewriter,
                                 transform::TransformResults &results,
                                 transform::TransformState &state) {
  OpApplication app(*this, results);
  LoopPipelineRequest request;
  DiagnosedSilenceableFailure read = unpackInputs(*this, state, app, request);
  if (!read.succeeded())
    return read;
  // Decide for every loop first: any refusal leaves all payloads untouched.
  std::vector<LoopPipelinePlan> plans;
  for (Operation *payload : state.getPayloadOps(getLoop())) {
    ResolvedTarget target;
    DiagnosedSilenceableFailure resolved =
        app.resolve(payload, kOwnAttrs, target);
    if (!resolved.succeeded())
      return resolved;
    llvm::Expected<scf::ForOp> forOp = unpackLoop(payload);
    if (!forOp)
      return app.fail(forOp.takeError());
    llvm::Expected<LoopPipelinePlan> plan = planLoopPipeline(
        *forOp, target.spec, target.onChipMemorySpace, request);
    if (!plan)
      return app.fail(plan.takeError());
    if (llvm::Error err =
            checkPipelinePreconditions(*forOp, plan->graph, plan->pipeline))
      return app.fail(refuseLoop(*forOp, std::move(err)));
    plans.push_back(std::move(*plan));
  }
  if (llvm::Error err = checkNotNested(llvm::map_to_vector(
          plans, [](const LoopPipelinePlan &p) { return p.loop; })))
    return app.fail(std::move(err));
  SmallVector<Operation *> newLoops;
  for (LoopPipelinePlan &plan : plans) {
    if (getExplain())
      plan.explain(
          [](Operation *at, StringRef text) { at->emitRemark() << text; });
    detail::showStageSchedule(*this, plan, newLoops.size(), getExplain());
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
