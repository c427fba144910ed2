//===- TargetOps.cpp - transform.hwsched.* ops ----------------------------===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//

#include "hwsched/TransformOps/HwschedTransformOps.h"

#include "hwsched/HwSpec/SpecAttributes.h"
#include "hwsched/TransformOps/OpApplication.h"
#include "hwsched/TransformOps/RefusalDiagnostics.h"
#include "hwsched/Transforms/KernelOutlining.h"

#include "mlir/Dialect/DLTI/DLTI.h"

using namespace mlir;
using namespace mlir::transform;
using namespace hwsched;

DiagnosedSilenceableFailure
hwsched::AttachTargetSpecOp::apply(transform::TransformRewriter &rewriter,
                                   transform::TransformResults &results,
                                   transform::TransformState &state) {
  // Build every attribute first: a failure on the second payload op must not
  // leave the first one changed.
  OpApplication app(*this, results);
  DiagnosedSilenceableFailure read = app.readInputs(state);
  if (!read.succeeded())
    return read;
  SmallVector<std::pair<Operation *, Attribute>> updates;
  for (Operation *payload : state.getPayloadOps(getOp())) {
    ResolvedTarget target;
    DiagnosedSilenceableFailure resolved =
        app.resolve(payload, {"target", "explain"}, target);
    if (!resolved.succeeded())
      return resolved;
    llvm::Expected<Attribute> spec = buildTargetSystemSpec(
        target.spec, target.target,
        payload->getAttr(DLTIDialect::kTargetSystemDescAttrName), getContext());
    if (!spec)
      return app.fail(spec.takeError());
    if (getExplain()) {
      InFlightDiagnostic remark = payload->emitRemark()
                                  << "attached hardware spec '"
                                  << target.spec.getName() << "', chosen by "
                                  << target.origin;
      for (const std::string &applied : target.spec.getAppliedOverrides())
        remark << "; override " << applied;
      remark << "; read from " << target.spec.getPath();
    }
    updates.emplace_back(payload, *spec);
  }
  // Not a structured binding: clang before 16 (the fuzz build) cannot
  // capture one in a lambda.
  for (auto &update : updates) {
    Operation *payload = update.first;
    Attribute spec = update.second;
    rewriter.modifyOpInPlace(payload, [&] {
      payload->setAttr(DLTIDialect::kTargetSystemDescAttrName, spec);
    });
  }
  return DiagnosedSilenceableFailure::success();
}

void hwsched::AttachTargetSpecOp::getEffects(
    SmallVectorImpl<MemoryEffects::EffectInstance> &effects) {
  onlyReadsHandle(getOpMutable(), effects);
  onlyReadsHandle(getParamsMutable(), effects);
  modifiesPayload(effects);
}

//===----------------------------------------------------------------------===//
// QuerySpecOp
//===----------------------------------------------------------------------===//

DiagnosedSilenceableFailure
hwsched::QuerySpecOp::apply(transform::TransformRewriter &rewriter,
                            transform::TransformResults &results,
                            transform::TransformState &state) {
  OpApplication app(*this, results);
  DiagnosedSilenceableFailure read = app.readInputs(state);
  if (!read.succeeded())
    return read;
  SmallVector<Attribute> values;
  for (Operation *payload : state.getPayloadOps(getOp())) {
    ResolvedTarget target;
    DiagnosedSilenceableFailure resolved =
        app.resolve(payload, {"target", "explain", "key"}, target);
    if (!resolved.succeeded())
      return resolved;
    Attribute value = specValueToAttribute(target.spec, getKey(), getContext());
    if (!value)
      return emitSilenceableError()
             << "hardware spec '" << target.spec.getPath()
             << "' has no figure '" << getKey() << "'";
    if (getExplain()) {
      InFlightDiagnostic remark = payload->emitRemark()
                                  << "spec '" << target.spec.getName() << "' "
                                  << getKey() << " = " << value;
      // Where the figure came from: the citation of a file spec, the file
      // or instruction that `host` read it from.
      if (std::optional<StringRef> source = target.spec.getSource(getKey()))
        remark << " (source: " << *source << ")";
    }
    values.push_back(value);
  }
  results.setParams(cast<OpResult>(getValue()), values);
  return DiagnosedSilenceableFailure::success();
}

//===----------------------------------------------------------------------===//
// GetAnnotationOp
//===----------------------------------------------------------------------===//

DiagnosedSilenceableFailure
hwsched::GetAnnotationOp::apply(transform::TransformRewriter &rewriter,
                                transform::TransformResults &results,
                                transform::TransformState &state) {
  Builder b(getContext());
  SmallVector<Attribute> values;
  for (Operation *payload : state.getPayloadOps(getOp())) {
    Attribute attr = payload->getAttr(getName());
    auto fail = [&](StringRef what) {
      DiagnosedSilenceableFailure diag =
          emitSilenceableError()
          << "'" << payload->getName() << "' " << what << " '" << getName()
          << "' (transform.annotate writes one from a parameter)";
      diag.attachNote(payload->getLoc()) << "the payload op";
      return diag;
    };
    if (!attr)
      return fail("carries no attribute");
    if (auto integer = dyn_cast<IntegerAttr>(attr)) {
      values.push_back(b.getI64IntegerAttr(integer.getInt()));
    } else if (auto dense = dyn_cast<DenseI64ArrayAttr>(attr)) {
      for (int64_t v : dense.asArrayRef())
        values.push_back(b.getI64IntegerAttr(v));
    } else if (auto array = dyn_cast<ArrayAttr>(attr)) {
      for (Attribute element : array) {
        auto integer = dyn_cast<IntegerAttr>(element);
        if (!integer)
          return fail("has a non-integer element in");
        values.push_back(b.getI64IntegerAttr(integer.getInt()));
      }
    } else {
      return fail("has no integer value in");
    }
  }
  results.setParams(cast<OpResult>(getValue()), values);
  return DiagnosedSilenceableFailure::success();
}

//===----------------------------------------------------------------------===//
// RefuseIfOp
//===----------------------------------------------------------------------===//

DiagnosedSilenceableFailure
hwsched::RefuseIfOp::apply(transform::TransformRewriter &rewriter,
                           transform::TransformResults &results,
                           transform::TransformState &state) {
  auto ops = state.getPayloadOps(getOps());
  if (ops.empty())
    return DiagnosedSilenceableFailure::success();
  Operation *culprit = *ops.begin();
  DiagnosedSilenceableFailure diag = emitSilenceableError() << getMessage();
  diag.attachNote(culprit->getLoc())
      << "at this '" << culprit->getName() << "'";
  return diag;
}

//===----------------------------------------------------------------------===//
// OutlineKernelFunctionOp
//===----------------------------------------------------------------------===//

DiagnosedSilenceableFailure
hwsched::OutlineKernelFunctionOp::apply(transform::TransformRewriter &rewriter,
                                        transform::TransformResults &results,
                                        transform::TransformState &state) {
  SmallVector<Operation *> functions, calls;
  for (Operation *target : state.getPayloadOps(getTarget())) {
    // Checked before anything moves, so that a refusal leaves the payload
    // as it was.
    if (llvm::Error err = checkKernelOutlinable(target, getFuncName()))
      return silenceable(*this, std::move(err));
  }
  for (Operation *target : state.getPayloadOps(getTarget())) {
    llvm::Expected<OutlinedKernel> outlined =
        outlineKernelFunction(rewriter, target, getFuncName());
    if (!outlined)
      return silenceable(*this, outlined.takeError());
    functions.push_back(outlined->function);
    calls.push_back(outlined->call);
  }
  results.set(cast<OpResult>(getFunction()), functions);
  results.set(cast<OpResult>(getCall()), calls);
  return DiagnosedSilenceableFailure::success();
}

#define GET_OP_CLASSES
#include "hwsched/TransformOps/TargetOps.cpp.inc"
