//===- OpHelpers.h - Small pieces shared by hwsched op files ----*- C++ -*-===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//

#ifndef HWSCHED_LIB_TRANSFORMOPS_OPHELPERS_H
#define HWSCHED_LIB_TRANSFORMOPS_OPHELPERS_H

#include "hwsched/TransformOps/TargetResolution.h"

namespace hwsched {
namespace detail {

/// Resolves the target for every payload op of `handle` before anything is
/// decided, so a bad spec fails the op with the payload untouched; then
/// reports that the op's behaviour is still to come (`issue` says where it is
/// tracked). Results are left empty.
mlir::DiagnosedSilenceableFailure
reportNotImplemented(mlir::transform::TransformOpInterface op,
                     mlir::transform::TransformState &state,
                     mlir::transform::TransformResults &results,
                     mlir::Value handle, llvm::ArrayRef<llvm::StringRef> ownAttrs,
                     llvm::StringRef issue);

} // namespace detail
} // namespace hwsched

#endif // HWSCHED_LIB_TRANSFORMOPS_OPHELPERS_H
