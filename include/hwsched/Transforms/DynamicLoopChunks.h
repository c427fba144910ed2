//===- DynamicLoopChunks.h - Dynamic loops as static chunks -----*- C++ -*-===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//
//
// Gives a Linalg op with dynamic loop extents (a batch of rows, a sequence
// length or a reduction length known only at run time) static shapes: each
// dynamic loop is tiled by a static chunk (an scf.for around the op) and the
// tile is padded with zeros to the chunk, so that the op in the loop body has
// static extents and the static schedules (block tiles, launch grids,
// register tiles, im2col) take it. The last chunk computes on padding:
//  - a parallel loop's padded rows or columns of the result are cut off;
//  - a reduction loop's padded part multiplies zeros, which a sum of
//    products ignores: so a dynamic reduction loop is chunked only for a
//    multiply-add body (a contraction or a convolution);
//  - a convolution window (a reduction loop that indexes the image through a
//    sum with an output loop, `oh + kh`) gets its own, small chunk: padded
//    filter taps are zeros.
// The waste is bounded by one chunk per dynamic loop. Usable from C++
// without the Transform dialect.
//
// Why our own: upstream's tile and pad transforms need per-op tile-size
// lists written by hand for each combination of dynamic loops (a script
// cannot compute them per op), and its pad refuses where no static bound is
// visible; here the chunks are chosen per loop from its role.
//
//===----------------------------------------------------------------------===//

#ifndef HWSCHED_TRANSFORMS_DYNAMICLOOPCHUNKS_H
#define HWSCHED_TRANSFORMS_DYNAMICLOOPCHUNKS_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace mlir {
class RewriterBase;
} // namespace mlir

namespace hwsched {

/// The attribute on each chunk loop (`scf.for`): its chunk (i64).
inline constexpr llvm::StringLiteral kChunkLoopAttr = "hwsched.chunk_loop";

/// The static chunk of each role of loop.
struct DynamicLoopChunkSizes {
  int64_t parallel = 256;
  int64_t reduction = 512;
  int64_t window = 3;
  /// The most elements any padded operand of one chunk may hold (64 MiB of
  /// f32). Several dynamic parallel loops multiply their chunks: a
  /// convolution with a dynamic batch, height and width would pad a
  /// 256 x 256 x 256 x channels output, tens of GiB. The largest parallel
  /// chunk is halved (the outermost first among equals) until every
  /// operand fits.
  int64_t maxChunkElements = int64_t(1) << 24;
};

/// Which loops of one op are chunked, and by how much.
struct DynamicLoopChunksPlan {
  enum class Role { Parallel, Reduction, Window };
  struct Loop {
    int64_t extent; // ShapedType::kDynamic when dynamic
    Role role;
    int64_t chunk; // 0: the loop is static and stays as it is
  };
  mlir::linalg::LinalgOp op;
  llvm::SmallVector<Loop> loops;
  /// Elements of the largest padded operand of one chunk, and whether the
  /// parallel chunks were shrunk below DynamicLoopChunkSizes::parallel to
  /// keep it within maxChunkElements.
  int64_t largestOperandElements = 0;
  bool shrunk = false;

  /// Whether any loop is chunked (false: the op is left as it is).
  bool chunksAnything() const;
  /// "3 loops: d0 dynamic (parallel) in chunks of 256, d1 = 512, d2
  /// dynamic (reduction) in chunks of 512, zero-padded; the op in the
  /// chunk loops: 256 x 512 x 512", or "no dynamic loop: left as it is".
  void print(llvm::raw_ostream &os) const;
};

/// The plan for `op`, or a refusal at `op` saying why its dynamic loops
/// cannot be chunked (buffer semantics, a dynamic reduction of a body that
/// is not a multiply-add, an operand indexed by something other than sums
/// of loops).
llvm::Expected<DynamicLoopChunksPlan>
planDynamicLoopChunks(mlir::Operation *op, const DynamicLoopChunkSizes &sizes);

/// Rewrites `plan.op` as planned: the chunk loops around a clone of the op
/// on padded, static operands. Returns that clone (`plan.op` itself when
/// nothing is chunked), or failure when upstream tiling or padding declined
/// (the plan checks what they need, so this is not expected).
mlir::FailureOr<mlir::linalg::LinalgOp>
rewriteToDynamicLoopChunks(mlir::RewriterBase &rewriter,
                           const DynamicLoopChunksPlan &plan);

} // namespace hwsched

#endif // HWSCHED_TRANSFORMS_DYNAMICLOOPCHUNKS_H
