//===- MemRefUtils.cpp - Bytes and roots of memrefs -----------------------===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//

#include "hwsched/Analysis/MemRefUtils.h"

#include "mlir/IR/Operation.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;

std::optional<uint64_t>
hwsched::getElementStorageBytes(Type elementType, const DataLayout &layout) {
  if (auto vector = dyn_cast<VectorType>(elementType))
    if (vector.isScalable())
      return std::nullopt;
  if (!elementType.isIntOrIndexOrFloat() &&
      !isa<VectorType, ComplexType>(elementType))
    return std::nullopt;
  return layout.getTypeSize(elementType).getFixedValue();
}

std::optional<int64_t> hwsched::getStaticSizeInBytes(MemRefType type,
                                                     const DataLayout &layout) {
  if (!type.hasStaticShape())
    return std::nullopt;
  std::optional<uint64_t> elementBytes =
      getElementStorageBytes(type.getElementType(), layout);
  if (!elementBytes)
    return std::nullopt;
  int64_t bytes = static_cast<int64_t>(*elementBytes);
  for (int64_t dim : type.getShape())
    if (llvm::MulOverflow(bytes, dim, bytes))
      return std::nullopt;
  return bytes;
}

std::optional<int64_t> hwsched::getStaticSizeInBytes(Value memref) {
  auto type = dyn_cast<MemRefType>(memref.getType());
  if (!type)
    return std::nullopt;
  Operation *scope = memref.getDefiningOp();
  if (!scope)
    scope = memref.getParentBlock()->getParentOp();
  return getStaticSizeInBytes(type, scope ? DataLayout::closest(scope)
                                          : DataLayout());
}

Value hwsched::getViewRoot(
    Value value, llvm::function_ref<void(ViewLikeOpInterface)> onView) {
  while (auto view = value.getDefiningOp<ViewLikeOpInterface>()) {
    // A view of itself only exists in graph regions; it has no root.
    if (view.getViewSource() == value)
      break;
    if (onView)
      onView(view);
    value = view.getViewSource();
  }
  return value;
}
