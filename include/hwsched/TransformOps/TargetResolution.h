//===- TargetResolution.h - Target resolution for transform ops -*- C++ -*-===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//
//
// The transform-op side of HwSpec/TargetResolution.h: resolves the spec for
// one application of a transform op and turns a refusal into the op's
// silenceable failure, so op files keep one call.
//
//===----------------------------------------------------------------------===//

#ifndef HWSCHED_TRANSFORMOPS_TARGETRESOLUTION_H
#define HWSCHED_TRANSFORMOPS_TARGETRESOLUTION_H

#include "hwsched/HwSpec/TargetResolution.h"
#include "hwsched/TransformOps/NumericInputs.h"
#include "hwsched/TransformOps/RefusalDiagnostics.h"

#include "mlir/Dialect/Transform/Interfaces/TransformInterfaces.h"

namespace hwsched {

/// hwsched::resolveTarget for `transformOp` applied to `payload`; a failure
/// is silenceable, at the transform op, and leaves the payload untouched.
/// The inputs `inputs` read from the op's `params(...)` clause are overrides
/// like its attributes.
inline mlir::DiagnosedSilenceableFailure
resolveTarget(mlir::transform::TransformOpInterface transformOp,
              mlir::Operation *payload,
              llvm::ArrayRef<llvm::StringRef> ownAttrs, ResolvedTarget &result,
              const NumericInputs *inputs = nullptr) {
  llvm::Expected<ResolvedTarget> resolved = resolveTarget(
      transformOp.getOperation(), payload, ownAttrs,
      inputs ? inputs->paramValues() : llvm::ArrayRef<mlir::NamedAttribute>());
  if (!resolved)
    return silenceable(transformOp, resolved.takeError());
  result = std::move(*resolved);
  return mlir::DiagnosedSilenceableFailure::success();
}

} // namespace hwsched

#endif // HWSCHED_TRANSFORMOPS_TARGETRESOLUTION_H
