//===- FrontendOps.cpp - Frontend forms brought to the schedules' ---------===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//

#include "hwsched/TransformOps/HwschedTransformOps.h"
#include "hwsched/TransformOps/RefusalDiagnostics.h"
#include "hwsched/Transforms/ContractionNormalForm.h"
#include "hwsched/Transforms/QuantizedDecomposition.h"

#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::transform;

DiagnosedSilenceableFailure
hwsched::DecomposeQuantizedOp::apply(TransformRewriter &rewriter,
                                     TransformResults &results,
                                     TransformState &state) {
  // Plan every payload op first: a refusal leaves the payload unchanged.
  SmallVector<QuantizedDecompositionPlan> plans;
  for (Operation *payload : state.getPayloadOps(getTarget())) {
    llvm::Expected<QuantizedDecompositionPlan> plan =
        planQuantizedDecomposition(payload);
    if (!plan) {
      results.setRemainingToEmpty(*this);
      return silenceable(*this,
                         addContext(plan.takeError(),
                                    "cannot take the plain form of the op: "),
                         "payload op");
    }
    plans.push_back(*plan);
  }
  SmallVector<Operation *> plain;
  for (const QuantizedDecompositionPlan &plan : plans) {
    if (getExplain()) {
      std::string text;
      llvm::raw_string_ostream os(text);
      plan.print(os);
      plan.op->emitRemark() << "decompose_quantized: " << text;
    }
    plain.push_back(decomposeQuantized(rewriter, plan));
  }
  results.set(cast<OpResult>(getPlain()), plain);
  return DiagnosedSilenceableFailure::success();
}

void hwsched::DecomposeQuantizedOp::getEffects(
    SmallVectorImpl<MemoryEffects::EffectInstance> &effects) {
  consumesHandle(getTargetMutable(), effects);
  producesHandle(getOperation()->getOpResults(), effects);
  modifiesPayload(effects);
}

DiagnosedSilenceableFailure
hwsched::ContractionToMatmulOp::apply(TransformRewriter &rewriter,
                                      TransformResults &results,
                                      TransformState &state) {
  // Plan every payload op first: a refusal leaves the payload unchanged.
  std::vector<ContractionNormalFormPlan> plans;
  for (Operation *payload : state.getPayloadOps(getTarget())) {
    llvm::Expected<ContractionNormalFormPlan> plan =
        planContractionNormalForm(payload);
    if (!plan) {
      results.setRemainingToEmpty(*this);
      return silenceable(
          *this,
          addContext(plan.takeError(), "cannot rewrite the op as a matmul: "),
          "payload op");
    }
    plans.push_back(*plan);
  }
  SmallVector<Operation *> contractions;
  for (const ContractionNormalFormPlan &plan : plans) {
    if (getExplain()) {
      std::string text;
      llvm::raw_string_ostream os(text);
      plan.print(os);
      plan.op->emitRemark() << "contraction_to_matmul: " << text;
    }
    contractions.push_back(rewriteToContractionNormalForm(rewriter, plan));
  }
  results.set(cast<OpResult>(getContraction()), contractions);
  return DiagnosedSilenceableFailure::success();
}

void hwsched::ContractionToMatmulOp::getEffects(
    SmallVectorImpl<MemoryEffects::EffectInstance> &effects) {
  consumesHandle(getTargetMutable(), effects);
  producesHandle(getOperation()->getOpResults(), effects);
  modifiesPayload(effects);
}

#define GET_OP_CLASSES
#include "hwsched/TransformOps/FrontendOps.cpp.inc"
