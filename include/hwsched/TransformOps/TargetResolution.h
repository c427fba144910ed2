//===- TargetResolution.h - Which spec one op application uses --*- C++ -*-===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//
//
// Every hwsched op answers the same question first: which hardware spec, with
// which overrides, applies to this payload op? Keeping the answer in one
// place keeps the precedence (op attribute, payload DLTI, driver default,
// built-in default) and the override rules identical across ops.
//
//===----------------------------------------------------------------------===//

#ifndef HWSCHED_TRANSFORMOPS_TARGETRESOLUTION_H
#define HWSCHED_TRANSFORMOPS_TARGETRESOLUTION_H

#include "hwsched/HwSpec/HwSpec.h"
#include "hwsched/HwSpec/SpecAttributes.h"
#include "hwsched/TransformOps/NumericInputs.h"

#include "mlir/Dialect/Transform/Interfaces/TransformInterfaces.h"

#include <string>
#include <vector>

namespace hwsched {

/// The spec used when neither the op, the payload nor the driver names one.
constexpr llvm::StringLiteral kBuiltinDefaultTarget = "nvidia-a100";

/// Sets the driver's default target (hwsched-opt --hwsched-target). An empty
/// name falls back to $HWSCHED_TARGET, then to kBuiltinDefaultTarget.
void setDefaultTarget(llvm::StringRef target);
std::string getDefaultTarget();

/// A spec as resolved for one application of one op.
struct ResolvedTarget {
  HwSpec spec;
  /// What named the spec: the name or path that was looked up.
  std::string target;
  /// Where the name came from: "attribute", "payload", "driver" or "default".
  std::string origin;
  /// The parsed `onchip.memory_space` (null for specs without one).
  mlir::Attribute onChipMemorySpace;
  /// The parsed `onchip.direct_read_spaces` (empty for specs without it).
  /// A std::vector, so that containers of ResolvedTarget stay small.
  std::vector<MemorySpacePair> directReadSpaces;
};

/// Resolves the spec for `transformOp` applied to `payload` (which may be
/// null when the op has no payload yet). `ownAttrs` are the op's inherent
/// input names that are not overrides (`target`, `explain`, ...); every
/// other attribute is an override, and so is every input `inputs` read from
/// the op's `params(...)` clause. Failures are silenceable and leave the
/// payload untouched.
mlir::DiagnosedSilenceableFailure
resolveTarget(mlir::transform::TransformOpInterface transformOp,
              mlir::Operation *payload,
              llvm::ArrayRef<llvm::StringRef> ownAttrs, ResolvedTarget &result,
              const NumericInputs *inputs = nullptr);

} // namespace hwsched

#endif // HWSCHED_TRANSFORMOPS_TARGETRESOLUTION_H
