//===- FrontendOps.cpp - Frontend forms brought to the schedules' ---------===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//

#include "hwsched/Support/PrintToString.h"
#include "hwsched/TransformOps/HwschedTransformOps.h"
#include "hwsched/TransformOps/RefusalDiagnostics.h"
#include "hwsched/Transforms/ContractionNormalForm.h"
#include "hwsched/Transforms/QuantizedDecomposition.h"

using namespace mlir;
using namespace mlir::transform;
using namespace hwsched;

/// The two ops' shared script: plan every payload op of `target` first (a
/// refusal, prefixed with `refusalContext`, leaves the payload unchanged),
/// then rewrite each as planned, with the plan as a remark under `explain`
/// (prefixed with the op's short `name`), and return the new ops as
/// `result`.
template <typename Plan, typename PlanFn, typename RewriteFn>
static DiagnosedSilenceableFailure
planAllThenRewrite(TransformOpInterface op, TransformRewriter &rewriter,
                   TransformResults &results, TransformState &state,
                   Value target, OpResult result, bool explain, StringRef name,
                   StringRef refusalContext, PlanFn planOne,
                   RewriteFn rewriteOne) {
  std::vector<Plan> plans;
  for (Operation *payload : state.getPayloadOps(target)) {
    llvm::Expected<Plan> plan = planOne(payload);
    if (!plan) {
      results.setRemainingToEmpty(op);
      return silenceable(op, addContext(plan.takeError(), refusalContext),
                         "payload op");
    }
    plans.push_back(*plan);
  }
  SmallVector<Operation *> rewritten;
  for (const Plan &plan : plans) {
    if (explain)
      plan.op->emitRemark() << name << ": " << printToString(plan);
    rewritten.push_back(rewriteOne(rewriter, plan));
  }
  results.set(result, rewritten);
  return DiagnosedSilenceableFailure::success();
}

DiagnosedSilenceableFailure
hwsched::DecomposeQuantizedOp::apply(TransformRewriter &rewriter,
                                     TransformResults &results,
                                     TransformState &state) {
  return planAllThenRewrite<QuantizedDecompositionPlan>(
      *this, rewriter, results, state, getTarget(), cast<OpResult>(getPlain()),
      getExplain(), "decompose_quantized",
      "cannot take the plain form of the op: ", planQuantizedDecomposition,
      decomposeQuantized);
}

DiagnosedSilenceableFailure
hwsched::ContractionToMatmulOp::apply(TransformRewriter &rewriter,
                                      TransformResults &results,
                                      TransformState &state) {
  return planAllThenRewrite<ContractionNormalFormPlan>(
      *this, rewriter, results, state, getTarget(),
      cast<OpResult>(getContraction()), getExplain(), "contraction_to_matmul",
      "cannot rewrite the op as a matmul: ", planContractionNormalForm,
      rewriteToContractionNormalForm);
}

#define GET_OP_CLASSES
#include "hwsched/TransformOps/FrontendOps.cpp.inc"
