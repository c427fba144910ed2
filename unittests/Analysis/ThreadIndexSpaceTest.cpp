//===- ThreadIndexSpaceTest.cpp - Index values of each thread -------------===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//

#include "hwsched/Analysis/ThreadIndexSpace.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include "gtest/gtest.h"

using namespace mlir;
using namespace hwsched;

namespace {
class ThreadIndexSpaceTest : public ::testing::Test {
protected:
  ThreadIndexSpaceTest() {
    context.loadDialect<affine::AffineDialect, arith::ArithDialect,
                        func::FuncDialect, gpu::GPUDialect>();
    context.allowUnregisteredDialects();
  }

  /// Parses `body` as the body of `func.func @f(%n: index)` with
  /// `attributes`; the indices under test are the operands of the
  /// "test.use" op.
  void parse(StringRef body, StringRef attributes = "") {
    std::string text = ("func.func @f(%n: index) " + attributes + " {\n" +
                        body + "\n  return\n}")
                           .str();
    module = parseSourceString<ModuleOp>(text, &context);
    ASSERT_TRUE(module);
    module->walk([&](Operation *op) {
      if (op->getName().getStringRef() == "test.use")
        use = op;
    });
    ASSERT_NE(use, nullptr);
  }

  std::optional<SmallVector<int64_t>> at(std::array<int64_t, 3> tid,
                                         std::array<int64_t, 3> extents) {
    return evaluateInThread(use->getOperands(), tid, extents);
  }

  MLIRContext context;
  OwningOpRef<ModuleOp> module;
  Operation *use = nullptr;
};
} // namespace

// A tile copy's row and column from the thread id (the shapes of
// tile_using_forall + map_nested_forall_to_threads): floor division, modulo
// and products through affine.apply, evaluated exactly per thread.
TEST_F(ThreadIndexSpaceTest, AffineIndicesPerThread) {
  parse(R"(
  %tx = gpu.thread_id x
  %r = affine.apply affine_map<()[s0] -> ((s0 floordiv 4) * 4 + 1)>()[%tx]
  %c = affine.apply affine_map<()[s0] -> (s0 * 8 - (s0 floordiv 4) * 32)>()[%tx]
  "test.use"(%r, %c) : (index, index) -> ())");
  EXPECT_TRUE(dependsOnThreadId(use->getOperands()));
  EXPECT_EQ(at({0, 0, 0}, {128, 1, 1}), (SmallVector<int64_t>{1, 0}));
  EXPECT_EQ(at({7, 0, 0}, {128, 1, 1}), (SmallVector<int64_t>{5, 24}));
  EXPECT_EQ(at({127, 0, 0}, {128, 1, 1}), (SmallVector<int64_t>{125, 24}));
}

// A swizzle: the 16-byte chunk XORed with the row's low bits through arith,
// and the block size itself (gpu.block_dim) as a value.
TEST_F(ThreadIndexSpaceTest, ArithSwizzleAndBlockDim) {
  parse(R"(
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %tx = gpu.thread_id x
  %ty = gpu.thread_id y
  %chunk = arith.remui %tx, %c4 : index
  %row = arith.divui %tx, %c4 : index
  %low = arith.andi %row, %c3 : index
  %sw = arith.xori %chunk, %low : index
  %bd = gpu.block_dim x
  %lin = arith.muli %ty, %bd : index
  "test.use"(%sw, %lin) : (index, index) -> ())");
  EXPECT_EQ(at({6, 0, 0}, {16, 2, 1}), (SmallVector<int64_t>{3, 0}));
  EXPECT_EQ(at({9, 1, 0}, {16, 2, 1}), (SmallVector<int64_t>{3, 16}));
}

// Anything else than thread ids and constants is not known per thread: a
// function argument (or a block id, a loop induction variable, a load).
TEST_F(ThreadIndexSpaceTest, OtherLeavesAreUnknown) {
  parse(R"(
  %tx = gpu.thread_id x
  %s = arith.addi %tx, %n : index
  "test.use"(%s) : (index) -> ())");
  EXPECT_EQ(at({0, 0, 0}, {32, 1, 1}), std::nullopt);
  // ... unless the caller gives its value, as for a rotation's induction
  // variable.
  EXPECT_EQ(evaluateInThread(
                use->getOperands(), {2, 0, 0}, {32, 1, 1},
                {{module->lookupSymbol<func::FuncOp>("f").getArgument(0), 40}}),
            (SmallVector<int64_t>{42}));
}

// Undefined arithmetic is refused, not folded to a value: division by zero,
// the unsigned reading of a negative value.
TEST_F(ThreadIndexSpaceTest, UndefinedArithmeticIsUnknown) {
  parse(R"(
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %tx = gpu.thread_id x
  %d = arith.divsi %tx, %c0 : index
  "test.use"(%d) : (index) -> ())");
  EXPECT_EQ(at({3, 0, 0}, {32, 1, 1}), std::nullopt);
  parse(R"(
  %c1 = arith.constant 1 : index
  %tx = gpu.thread_id x
  %neg = arith.subi %tx, %c1 : index
  %d = arith.divui %neg, %c1 : index
  "test.use"(%d) : (index) -> ())");
  EXPECT_EQ(at({0, 0, 0}, {32, 1, 1}), std::nullopt);
  EXPECT_EQ(at({5, 0, 0}, {32, 1, 1}), (SmallVector<int64_t>{4}));
}

// The block size comes from the function's gpu.known_block_size (or a
// launch's constant sizes); none, or more than 1024 threads, is unknown.
TEST_F(ThreadIndexSpaceTest, KnownBlockExtents) {
  parse(R"(
  %tx = gpu.thread_id x
  "test.use"(%tx) : (index) -> ())",
        "attributes {gpu.known_block_size = array<i32: 64, 2, 1>}");
  EXPECT_EQ(getKnownBlockExtents(use),
            (std::optional<std::array<int64_t, 3>>{{64, 2, 1}}));
  EXPECT_EQ(enumerateThreads({2, 2, 1}).size(), 4u);
  EXPECT_EQ(enumerateThreads({2, 2, 1})[1], (std::array<int64_t, 3>{1, 0, 0}));
  parse(R"(
  %tx = gpu.thread_id x
  "test.use"(%tx) : (index) -> ())",
        "attributes {gpu.known_block_size = array<i32: 64, 32, 1>}");
  EXPECT_EQ(getKnownBlockExtents(use), std::nullopt);
  parse(R"(
  %tx = gpu.thread_id x
  "test.use"(%tx) : (index) -> ())");
  EXPECT_EQ(getKnownBlockExtents(use), std::nullopt);
}
