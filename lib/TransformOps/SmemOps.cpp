//===- SmemOps.cpp - transform.smem.* ops ---------------------------------===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//

#include "hwsched/TransformOps/HwschedTransformOps.h"
#include "hwsched/TransformOps/OpApplication.h"
#include "hwsched/TransformOps/RefusalDiagnostics.h"

#include "DecisionPictureBuilders.h"

#include "hwsched/CostModel/AllocationMergePlan.h"
#include "hwsched/Transforms/MergeAllocations.h"

#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace mlir::transform;
using namespace hwsched;

//===----------------------------------------------------------------------===//
// MergeAllocationsOp
//===----------------------------------------------------------------------===//

/// The op's attributes that are not spec overrides.
static constexpr StringRef kOwnAttrs[] = {"target", "explain", "search_steps",
                                          "time_budget_ms"};

/// Unpacks the op's numeric inputs (attributes or params) into `app.inputs`
/// and the search budget `packing`, which each scope gets whole.
static DiagnosedSilenceableFailure
unpackInputs(transform::TransformState &state, OpApplication &app,
             PackingOptions &packing) {
  DiagnosedSilenceableFailure read = app.readInputs(state);
  if (!read.succeeded())
    return read;
  std::optional<int64_t> steps, ms;
  for (auto [name, value] :
       {std::pair<StringRef, std::optional<int64_t> *>{"search_steps", &steps},
        {"time_budget_ms", &ms}}) {
    DiagnosedSilenceableFailure budgetRead =
        app.inputs.getInteger(name, 0, *value);
    if (!budgetRead.succeeded())
      return app.fail(std::move(budgetRead));
  }
  if (steps)
    packing.searchSteps = packing.fitSteps = *steps;
  if (ms)
    packing.timeBudgetMs = *ms;
  return DiagnosedSilenceableFailure::success();
}

DiagnosedSilenceableFailure
hwsched::MergeAllocationsOp::apply(transform::TransformRewriter &rewriter,
                                   transform::TransformResults &results,
                                   transform::TransformState &state) {
  OpApplication app(*this, results);
  PackingOptions packing;
  DiagnosedSilenceableFailure read = unpackInputs(state, app, packing);
  if (!read.succeeded())
    return read;
  // A scope listed twice is handled once. Decide for every scope before
  // changing any (a failure leaves the payload untouched), explanations
  // included: they name the buffers as the IR spells them.
  llvm::SetVector<Operation *> scopes(llvm::from_range,
                                      state.getPayloadOps(getScope()));
  std::vector<std::pair<ScopeMergeDecision, std::string>> decided;
  DenseMap<Value, Operation *> claimedBy;
  for (Operation *scope : scopes) {
    ResolvedTarget target;
    DiagnosedSilenceableFailure resolved =
        app.resolve(scope, kOwnAttrs, target);
    if (!resolved.succeeded())
      return resolved;
    llvm::Expected<ScopeMergeDecision> decision = decideScopeMerge(
        scope, target.spec, target.onChipMemorySpace, packing, claimedBy);
    if (!decision)
      return app.fail(decision.takeError());
    detail::showMergePlan(*this, *decision, target.spec.getName(),
                          decided.size());
    std::string explanation;
    llvm::raw_string_ostream os(explanation);
    if (getExplain())
      decision->print(os);
    decided.emplace_back(std::move(*decision), std::move(explanation));
  }
  SmallVector<Operation *> buffers;
  for (auto &[decision, explanation] : decided) {
    AllocationMergeOutcome outcome = applyAllocationMerge(
        rewriter, decision.liveness, decision.plan, decision.barriers);
    if (outcome.buffer)
      buffers.push_back(outcome.buffer);
    if (!getExplain())
      continue;
    llvm::raw_string_ostream os(explanation);
    decision.printBarriers(os, outcome.insertedBarriers.size(),
                           outcome.reusedBarriers);
    decision.liveness.scope->emitRemark() << explanation;
  }
  results.set(cast<OpResult>(getMerged()), buffers);
  return DiagnosedSilenceableFailure::success();
}

void hwsched::MergeAllocationsOp::getEffects(
    SmallVectorImpl<MemoryEffects::EffectInstance> &effects) {
  onlyReadsHandle(getScopeMutable(), effects);
  onlyReadsHandle(getParamsMutable(), effects);
  producesHandle(getOperation()->getOpResults(), effects);
  modifiesPayload(effects);
}

#define GET_OP_CLASSES
#include "hwsched/TransformOps/SmemOps.cpp.inc"
