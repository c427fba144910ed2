//===- EraseMemorySpaces.cpp - Drop memref memory spaces ------------------===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//

#include "hwsched/Transforms/Passes.h"

#include "mlir/IR/AttrTypeSubElements.h"
#include "mlir/IR/BuiltinTypes.h"

namespace hwsched {
#define GEN_PASS_DEF_HWSCHEDERASEMEMORYSPACES
#include "hwsched/Transforms/Passes.h.inc"
} // namespace hwsched

using namespace mlir;

namespace {
struct EraseMemorySpacesPass
    : hwsched::impl::HwschedEraseMemorySpacesBase<EraseMemorySpacesPass> {
  void runOnOperation() override {
    AttrTypeReplacer replacer;
    replacer.addReplacement([](MemRefType type) -> std::optional<Type> {
      if (!type.getMemorySpace())
        return std::nullopt;
      return MemRefType::get(type.getShape(), type.getElementType(),
                             type.getLayout(), Attribute());
    });
    replacer.addReplacement(
        [](UnrankedMemRefType type) -> std::optional<Type> {
          if (!type.getMemorySpace())
            return std::nullopt;
          return UnrankedMemRefType::get(type.getElementType(), Attribute());
        });
    replacer.recursivelyReplaceElementsIn(getOperation(),
                                          /*replaceAttrs=*/true,
                                          /*replaceLocs=*/false,
                                          /*replaceTypes=*/true);
  }
};
} // namespace
