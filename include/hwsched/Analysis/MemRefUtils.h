//===- MemRefUtils.h - Bytes and roots of memrefs ---------------*- C++ -*-===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//
//
// Two facts about memrefs that every analysis needs and that must agree
// between them: how many bytes a buffer occupies, and which buffer a view
// (subview, expand/collapse_shape, cast, reinterpret_cast, view, ...) reads.
// The copy analysis, the loop dependence graph, the on-chip allocation
// liveness and the register estimate all use these, so that a buffer has one
// size and one root whichever decision looks at it.
//
//===----------------------------------------------------------------------===//

#ifndef HWSCHED_ANALYSIS_MEMREFUTILS_H
#define HWSCHED_ANALYSIS_MEMREFUTILS_H

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Value.h"
#include "mlir/Interfaces/DataLayoutInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <cstdint>
#include <optional>

namespace hwsched {

/// Bytes one element of `elementType` occupies in a buffer laid out by
/// `layout` (the payload's DLTI data layout, or MLIR's defaults: index is 64
/// bits, a vector is padded as LLVM pads it). Only integers, index, floats,
/// fixed-size vectors and complex numbers have one; other element types
/// (scalable vectors, opaque dialect types) give nullopt. The sizes come
/// from mlir::DataLayout, the same the memref-to-LLVM lowering allocates
/// with; the whitelist is ours because DataLayout aborts on types it does
/// not know.
std::optional<uint64_t> getElementStorageBytes(mlir::Type elementType,
                                               const mlir::DataLayout &layout);

/// Bytes of a buffer of the statically shaped memref type `type` under
/// `layout`: elements x getElementStorageBytes. nullopt for dynamic shapes,
/// element types without a storage size, and sizes that overflow int64.
std::optional<int64_t> getStaticSizeInBytes(mlir::MemRefType type,
                                            const mlir::DataLayout &layout);

/// The same for a value of memref type, under the data layout in scope
/// where `memref` is defined; nullopt when it is no memref.
std::optional<int64_t> getStaticSizeInBytes(mlir::Value memref);

/// The buffer `value` is a view of: follows ops implementing
/// ViewLikeOpInterface from the result to their view source until a value
/// that no view-like op defines (an allocation, a block argument, the result
/// of any other op). `onView`, when given, sees each view-like op passed, the
/// outermost (closest to `value`) first, so that a caller can map indices on
/// the way. MLIR has no such walk: memref::skipFullyAliasingOperations stops
/// at the first view that changes the region.
mlir::Value
getViewRoot(mlir::Value value,
            llvm::function_ref<void(mlir::ViewLikeOpInterface)> onView = {});

} // namespace hwsched

#endif // HWSCHED_ANALYSIS_MEMREFUTILS_H
