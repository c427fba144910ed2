//===- FrontendOps.cpp - Frontend forms brought to the schedules' ---------===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//

#include "hwsched/Support/PrintToString.h"
#include "hwsched/TransformOps/HwschedTransformOps.h"
#include "hwsched/TransformOps/RefusalDiagnostics.h"
#include "hwsched/Transforms/ContractionNormalForm.h"
#include "hwsched/Transforms/DynamicLoopChunks.h"
#include "hwsched/Transforms/QuantizedDecomposition.h"

using namespace mlir;
using namespace mlir::transform;
using namespace hwsched;

/// The new op of a rewrite that cannot fail, or of one that returns
/// `FailureOr` (null when it failed).
static Operation *rewrittenOp(Operation *op) { return op; }
template <typename OpT> static Operation *rewrittenOp(FailureOr<OpT> op) {
  return succeeded(op) ? op->getOperation() : nullptr;
}

/// The frontend ops' shared script: plan every payload op of `target` first
/// (a refusal, prefixed with `refusalContext`, leaves the payload
/// unchanged), then rewrite each as planned, with the plan as a remark under
/// `explain` (prefixed with the op's short `name`), and return the new ops
/// as `result`. A rewrite that fails after its plan accepted the op (the
/// plans check what the rewrites need, so this is a bug) is a definite
/// failure: earlier payload ops may already be rewritten.
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
    Operation *done = rewrittenOp(rewriteOne(rewriter, plan));
    if (!done)
      return emitDefiniteFailure(op, name + ": the rewrite failed after the "
                                            "plan accepted the op");
    rewritten.push_back(done);
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

LogicalResult hwsched::ChunkDynamicLoopsOp::verify() {
  for (auto [name, size] :
       {std::pair<StringRef, int64_t>{"parallel_chunk",
                                      static_cast<int64_t>(getParallelChunk())},
        {"reduction_chunk", static_cast<int64_t>(getReductionChunk())},
        {"window_chunk", static_cast<int64_t>(getWindowChunk())}})
    if (size <= 0)
      return emitOpError() << name << " must be positive, got " << size;
  return success();
}

DiagnosedSilenceableFailure
hwsched::ChunkDynamicLoopsOp::apply(TransformRewriter &rewriter,
                                    TransformResults &results,
                                    TransformState &state) {
  DynamicLoopChunkSizes sizes{static_cast<int64_t>(getParallelChunk()),
                              static_cast<int64_t>(getReductionChunk()),
                              static_cast<int64_t>(getWindowChunk())};
  return planAllThenRewrite<DynamicLoopChunksPlan>(
      *this, rewriter, results, state, getTarget(),
      cast<OpResult>(getChunked()), getExplain(), "chunk_dynamic_loops",
      "cannot give the op static shapes: ",
      [&](Operation *op) { return planDynamicLoopChunks(op, sizes); },
      rewriteToDynamicLoopChunks);
}

#define GET_OP_CLASSES
#include "hwsched/TransformOps/FrontendOps.cpp.inc"
