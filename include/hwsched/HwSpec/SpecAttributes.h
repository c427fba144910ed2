//===- SpecAttributes.h - Hardware specs as MLIR attributes -----*- C++ -*-===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//
//
// The parts of a spec that only mean something inside an MLIRContext: the
// on-chip memory space (spelled as attribute text in the JSON), and the spec
// exported as `#dlti.target_system_spec` so that upstream tooling
// (`transform.dlti.query`, `DataLayout`) reads the same figures our ops use.
//
//===----------------------------------------------------------------------===//

#ifndef HWSCHED_HWSPEC_SPECATTRIBUTES_H
#define HWSCHED_HWSPEC_SPECATTRIBUTES_H

#include "hwsched/HwSpec/HwSpec.h"

#include "mlir/IR/Attributes.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Error.h"

#include <optional>
#include <string>

namespace mlir {
class Operation;
} // namespace mlir

namespace hwsched {

/// The DLTI entry key that records which spec a device entry came from; our
/// ops read it when a script names no target.
constexpr llvm::StringLiteral kDltiTargetKey = "hwsched.target";

/// Parses `onchip.memory_space`. A spec without one (CPUs) yields a null
/// attribute; unparsable text is an error naming the file and key.
llvm::Expected<mlir::Attribute>
parseOnChipMemorySpace(const HwSpec &spec, mlir::MLIRContext *context);

/// One entry of `onchip.direct_read_spaces` ("SOURCE -> TARGET"): a consumer
/// of a buffer in the TARGET memory space reads a buffer in the SOURCE space
/// directly at no loss, so a copy SOURCE -> TARGET is not needed for speed.
/// std::nullopt stands for any space ("*"); a null attribute for the default
/// memory space ("default").
struct MemorySpacePair {
  std::optional<mlir::Attribute> source;
  std::optional<mlir::Attribute> target;
  /// Whether a copy from space `from` to space `to` is covered.
  bool matches(mlir::Attribute from, mlir::Attribute to) const;
};

/// Parses `onchip.direct_read_spaces` (absent: no pair). Entries are
/// "SOURCE -> TARGET" where each side is MLIR attribute text, `*` or
/// `default`; malformed entries are an error naming the file, key and entry.
llvm::Expected<llvm::SmallVector<MemorySpacePair>>
parseDirectReadSpaces(const HwSpec &spec, mlir::MLIRContext *context);

/// The figure `key` as an attribute (i64, f64, string, bool or array<i64>);
/// null when the spec has no such figure. `onchip.memory_space` is returned
/// as the parsed attribute when it parses.
mlir::Attribute specValueToAttribute(const HwSpec &spec, llvm::StringRef key,
                                     mlir::MLIRContext *context);

/// Builds the spec as a device entry, "GPU"/"NPU"/"CPU", of a
/// `#dlti.target_system_spec`, merged with `existing` (another device's
/// entries are kept; the same device is replaced). Sections become nested
/// `#dlti.map`s, so `["GPU", "gpu", "warp_size"]` is a valid DLTI query.
llvm::Expected<mlir::Attribute>
buildTargetSystemSpec(const HwSpec &spec, llvm::StringRef targetName,
                      mlir::Attribute existing, mlir::MLIRContext *context);

/// Finds the hwsched target recorded on `op` or its closest ancestor with a
/// `dlti.target_system_spec`; std::nullopt when there is none. Several
/// recorded targets on one spec are an error (the caller must pick).
llvm::Expected<std::optional<std::string>>
findRecordedTarget(mlir::Operation *op);

} // namespace hwsched

#endif // HWSCHED_HWSPEC_SPECATTRIBUTES_H
