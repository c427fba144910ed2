//===- MemRefUtilsTest.cpp - Bytes and roots of memrefs -------------------===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//

#include "hwsched/Analysis/MemRefUtils.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/DLTI/DLTI.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include "gtest/gtest.h"

using namespace mlir;
using namespace hwsched;

namespace {
class MemRefUtilsTest : public ::testing::Test {
protected:
  MemRefUtilsTest() {
    context.loadDialect<arith::ArithDialect, DLTIDialect, func::FuncDialect,
                        memref::MemRefDialect>();
    // "test.use" stands for any user of the views.
    context.allowUnregisteredDialects();
  }

  /// The memref type `text` (e.g. "memref<4xindex>").
  MemRefType type(StringRef text) {
    return cast<MemRefType>(parseType(text, &context));
  }

  std::optional<int64_t> bytes(StringRef text) {
    return getStaticSizeInBytes(type(text), DataLayout());
  }

  MLIRContext context;
};
} // namespace

// Every analysis sizes a buffer the same way: the data layout's storage
// size of the element times the elements (index 64 bits by default, a
// vector padded as LLVM allocates it, sub-byte integers a whole byte).
TEST_F(MemRefUtilsTest, StaticSizesFollowTheDataLayout) {
  EXPECT_EQ(bytes("memref<8xf32>"), 32);
  EXPECT_EQ(bytes("memref<4x2xf16>"), 16);
  EXPECT_EQ(bytes("memref<4xindex>"), 32);
  EXPECT_EQ(bytes("memref<3xi1>"), 3);
  EXPECT_EQ(bytes("memref<2xvector<4xf32>>"), 32);
  EXPECT_EQ(bytes("memref<2xvector<3xf32>>"), 32);
  EXPECT_EQ(bytes("memref<2xcomplex<f32>>"), 16);
  EXPECT_EQ(bytes("memref<f64>"), 8);
  EXPECT_EQ(bytes("memref<0x4xf32>"), 0);
}

TEST_F(MemRefUtilsTest, NoSizeWithoutAStaticShapeOrAStorageSize) {
  EXPECT_EQ(bytes("memref<?x4xf32>"), std::nullopt);
  EXPECT_EQ(bytes("memref<2xvector<[4]xf32>>"), std::nullopt);
  EXPECT_EQ(bytes("memref<2xmemref<4xf32>>"), std::nullopt);
  // 2^62 elements of 8 bytes overflow int64.
  EXPECT_EQ(bytes("memref<4611686018427387904xf64>"), std::nullopt);
}

// The payload's DLTI decides the size of index.
TEST_F(MemRefUtilsTest, IndexWidthComesFromThePayload) {
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(
      R"mlir(
      module attributes {dlti.dl_spec = #dlti.dl_spec<index = 32 : i64>} {
        func.func @f() {
          %a = memref.alloc() : memref<4xindex>
          return
        }
      })mlir",
      &context);
  ASSERT_TRUE(module);
  Value alloc;
  module->walk([&](memref::AllocOp op) { alloc = op.getResult(); });
  EXPECT_EQ(getStaticSizeInBytes(alloc), 16);
}

TEST_F(MemRefUtilsTest, ViewRootFollowsEveryViewLikeOp) {
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(
      R"mlir(
      func.func @f(%arg: memref<64xf32>, %i: index) {
        %a = memref.alloc() : memref<8x16xf32>
        %s = memref.subview %a[0, 0] [4, 16] [1, 1]
            : memref<8x16xf32> to memref<4x16xf32, strided<[16, 1]>>
        %c = memref.collapse_shape %s [[0, 1]]
            : memref<4x16xf32, strided<[16, 1]>> into memref<64xf32, strided<[1]>>
        %d = memref.cast %c : memref<64xf32, strided<[1]>> to memref<64xf32, strided<[?]>>
        %v = memref.subview %arg[%i] [4] [1]
            : memref<64xf32> to memref<4xf32, strided<[1], offset: ?>>
        "test.use"(%d, %v) : (memref<64xf32, strided<[?]>>, memref<4xf32, strided<[1], offset: ?>>) -> ()
        return
      })mlir",
      &context);
  ASSERT_TRUE(module);
  Operation *use = nullptr;
  module->walk([&](Operation *op) {
    if (op->getName().getStringRef() == "test.use")
      use = op;
  });
  ASSERT_TRUE(use);
  SmallVector<StringRef> passed;
  Value root = getViewRoot(use->getOperand(0), [&](ViewLikeOpInterface view) {
    passed.push_back(view->getName().getStringRef());
  });
  EXPECT_TRUE(root.getDefiningOp<memref::AllocOp>());
  EXPECT_EQ(passed,
            (SmallVector<StringRef>{"memref.cast", "memref.collapse_shape",
                                    "memref.subview"}));
  Value argRoot = getViewRoot(use->getOperand(1));
  EXPECT_TRUE(isa<BlockArgument>(argRoot));
  // A value no view defines is its own root.
  EXPECT_EQ(getViewRoot(argRoot), argRoot);
}
