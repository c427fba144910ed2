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
                                          "time_budget_ms",
                                          "dynamic_shared_memory"};

namespace {
/// One scope's decision, decided before any scope changes.
struct DecidedScope {
  ScopeMergeDecision decision;
  std::string explanation;
  /// The launch whose dynamic shared memory gets the buffer, or null.
  Operation *dynamicLaunch = nullptr;
};
} // namespace

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

/// Resolves the target of `scope`, decides its merge (and, with
/// `dynamic_shared_memory`, the launch that holds it), shows the plan and
/// appends the decision to `decided`. Changes nothing.
static DiagnosedSilenceableFailure
decideScope(MergeAllocationsOp op, OpApplication &app, Operation *scope,
            const PackingOptions &packing,
            DenseMap<Value, Operation *> &claimedBy,
            std::vector<DecidedScope> &decided) {
  ResolvedTarget target;
  DiagnosedSilenceableFailure resolved = app.resolve(scope, kOwnAttrs, target);
  if (!resolved.succeeded())
    return resolved;
  llvm::Expected<ScopeMergeDecision> decision = decideScopeMerge(
      scope, target.spec, target.onChipMemorySpace, packing, claimedBy);
  if (!decision)
    return app.fail(decision.takeError());
  Operation *launch = nullptr;
  if (op.getDynamicSharedMemory()) {
    if (target.spec.getKind() != HwKind::Gpu)
      return app.fail(refuse(scope, "dynamic_shared_memory needs a GPU target "
                                    "(spec '" +
                                        target.spec.getName().str() +
                                        "' is not one)"));
    llvm::Expected<Operation *> found =
        findDynamicSharedMemoryLaunch(decision->liveness, decision->plan);
    if (!found)
      return app.fail(found.takeError());
    launch = *found;
  }
  hwsched::detail::showMergePlan(op, *decision, target.spec.getName(),
                                 decided.size());
  std::string explanation;
  llvm::raw_string_ostream os(explanation);
  if (op.getExplain())
    decision->print(os);
  decided.push_back({std::move(*decision), std::move(explanation), launch});
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
  std::vector<DecidedScope> decided;
  DenseMap<Value, Operation *> claimedBy;
  for (Operation *scope : scopes) {
    DiagnosedSilenceableFailure ok =
        decideScope(*this, app, scope, packing, claimedBy, decided);
    if (!ok.succeeded())
      return ok;
  }
  SmallVector<Operation *> buffers;
  for (DecidedScope &d : decided) {
    AllocationMergeOutcome outcome =
        applyAllocationMerge(rewriter, d.decision.liveness, d.decision.plan,
                             d.decision.barriers, d.dynamicLaunch);
    if (outcome.buffer)
      buffers.push_back(outcome.buffer);
    if (!getExplain())
      continue;
    llvm::raw_string_ostream os(d.explanation);
    d.decision.printBarriers(os, outcome.insertedBarriers.size(),
                             outcome.reusedBarriers);
    d.decision.liveness.scope->emitRemark() << d.explanation;
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
