//===- TargetResolution.h - Which spec one op application uses --*- C++ -*-===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//
//
// Every hwsched op and pass answers the same question first: which hardware
// spec, with which overrides, applies to this payload op? Keeping the answer
// in one place keeps the precedence (op attribute, payload DLTI, driver
// default, built-in default) and the override rules identical across ops.
// It lives with the specs, below every layer that reads one, so that passes
// and ops share it without a dependency on the Transform dialect; a transform
// op maps a failure to a silenceable one (TransformOps/TargetResolution.h).
//
//===----------------------------------------------------------------------===//

#ifndef HWSCHED_HWSPEC_TARGETRESOLUTION_H
#define HWSCHED_HWSPEC_TARGETRESOLUTION_H

#include "hwsched/HwSpec/HwSpec.h"
#include "hwsched/HwSpec/SpecAttributes.h"

#include "mlir/IR/Attributes.h"
#include "llvm/Support/Error.h"

#include <optional>
#include <string>
#include <vector>

namespace mlir {
class Operation;
} // namespace mlir

namespace hwsched {

/// The spec used when neither the op, the payload nor the driver names one.
constexpr llvm::StringLiteral kBuiltinDefaultTarget = "nvidia-a100";

/// The op attribute naming the spec a script falls back to when neither the
/// op, the payload nor the driver names one (e.g. the CPU scripts'
/// `default_target = "host"`). Never an override.
constexpr llvm::StringLiteral kDefaultTargetAttr = "default_target";

/// Sets the driver's default target (hwsched-opt --hwsched-target). An empty
/// name falls back to $HWSCHED_TARGET.
void setDefaultTarget(llvm::StringRef target);
/// The driver's target: --hwsched-target, else $HWSCHED_TARGET, else none.
std::optional<std::string> getDriverTarget();
/// getDriverTarget(), else kBuiltinDefaultTarget.
std::string getDefaultTarget();

/// A spec as resolved for one application of one op.
struct ResolvedTarget {
  HwSpec spec;
  /// What named the spec: the name or path that was looked up.
  std::string target;
  /// Where the name came from: "attribute", "payload", "driver", "script
  /// default" (the op's `default_target`) or "default".
  std::string origin;
  /// The parsed `onchip.memory_space` (null for specs without one).
  mlir::Attribute onChipMemorySpace;
  /// The parsed `onchip.direct_read_spaces` (empty for specs without it).
  /// A std::vector, so that containers of ResolvedTarget stay small.
  std::vector<MemorySpacePair> directReadSpaces;
};

/// Resolves the spec for `op` (the op whose attributes name the target and
/// the overrides, e.g. a transform op) applied to `payload` (which may be
/// null when there is no payload yet). Precedence: the op's `target`, the
/// target recorded on the payload or an ancestor, the driver's, the op's
/// `default_target`, kBuiltinDefaultTarget. `ownAttrs` are the op's
/// attribute names that are not overrides (`target`, `explain`, ...); every
/// other attribute but `default_target` is an override, and so is every
/// entry of `paramInputs` (the values a transform op's `params(...)` clause
/// gave, by input name). A failure is a Refusal (Support/Refusal.h) naming
/// the spec file, the key path or the override; nothing is changed.
llvm::Expected<ResolvedTarget>
resolveTarget(mlir::Operation *op, mlir::Operation *payload,
              llvm::ArrayRef<llvm::StringRef> ownAttrs,
              llvm::ArrayRef<mlir::NamedAttribute> paramInputs = {});

} // namespace hwsched

#endif // HWSCHED_HWSPEC_TARGETRESOLUTION_H
