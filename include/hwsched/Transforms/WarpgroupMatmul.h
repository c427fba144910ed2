//===- WarpgroupMatmul.h - A matmul as a Hopper wgmma + TMA kernel -*- C++
//-*-===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//
//
// The Hopper (sm_90a) form of a matmul that no upstream transform op reaches
// from Linalg: block tiles of A and B brought into shared memory by the
// Tensor Memory Accelerator (`nvgpu.tma.async.load`) into a ring of
// `num_stages` buffers, each guarded by its own transaction mbarrier, and
// multiplied by warpgroup MMAs (`nvgpu.warpgroup.mma`, wgmma.mma_async) that
// read both operands from shared memory through matrix descriptors. The
// accumulator stays in registers and is stored once.
//
// planWarpgroupMatmul checks the payload and the target and decides the
// layout (a plan that prints itself); rewriteAsWarpgroupMatmul builds it and
// decides nothing.
//
//===----------------------------------------------------------------------===//

#ifndef HWSCHED_TRANSFORMS_WARPGROUPMATMUL_H
#define HWSCHED_TRANSFORMS_WARPGROUPMATMUL_H

#include "hwsched/CostModel/WarpgroupTiles.h"
#include "hwsched/HwSpec/HwSpec.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/Support/Error.h"

namespace hwsched {

/// The decided kernel for one matmul.
struct WarpgroupMatmulPlan {
  mlir::linalg::LinalgOp matmul;
  /// The linalg.fill of C with zero that the kernel's zero accumulator
  /// replaces (erased with the matmul).
  mlir::linalg::FillOp zeroFill;
  WarpgroupProblem problem;
  /// Routing an op on tensors (routeWarpgroupMatmul): its extents when they
  /// are not whole 64-element tiles, `problem` being the zero-padded one
  /// the script is to build (pad M, N to multiples of 64 and K of the K
  /// step before bufferizing). Unset when no padding is needed.
  std::optional<WarpgroupProblem> unpadded;
  mlir::Type inputType;
  WarpgroupTiles tiles;
  /// The cost model's ranking when the request left an input open.
  std::optional<WarpgroupTileChoice> choice;
  /// The target's shared-memory limit per block and its architecture.
  int64_t sharedLimitBytes = 0;
  std::string computeCapability;

  /// The K step: one 128-byte swizzle span of the input type (64 f16 /
  /// bf16), and the number of them.
  int64_t blockK() const { return problem.blockK(); }
  int64_t kSteps() const { return problem.k / blockK(); }
  /// Bytes of one stage's A tile and B tile, and of the whole ring
  /// (including the 1024 bytes kept to align it).
  int64_t aStageBytes() const { return tiles.blockM * kWgmmaSwizzleBytes; }
  int64_t bStageBytes() const { return tiles.blockN * kWgmmaSwizzleBytes; }
  int64_t dynamicSharedBytes() const { return warpgroupSharedBytes(tiles); }
  void print(llvm::raw_ostream &os) const;
};

/// Checks `op` and `spec` and decides the kernel: the tiles `request`
/// fixes, the rest from chooseWarpgroupTiles. A refusal names the property
/// that fails and what would make it work: the target (a GPU spec with
/// compute capability sm_90), the op (a linalg.matmul on memrefs, outside a
/// gpu.launch, row-major f16 x f16 or bf16 x bf16 into f32, static shapes,
/// its C zero-filled by a linalg.fill before it, with no op between that
/// may write C), the tiles
/// (checkWarpgroupTiles).
llvm::Expected<WarpgroupMatmulPlan>
planWarpgroupMatmul(mlir::Operation *op, const HwSpec &spec,
                    const WarpgroupTileRequest &request);

/// Whether the kernel will take `op`, and how: planWarpgroupMatmul with
/// every tile left to the cost model. On an op on tensors the op checks are
/// those its bufferized form will meet after one-shot bufferization with
/// identity layouts at function boundaries: static whole tensors (not
/// slices: a slice bufferizes to a strided view), C's init a linalg.fill of
/// zero. Extents that are not whole 64-element tiles are taken as padded
/// with zeros to them (`unpadded` records the original): the script pads
/// before bufferizing. A script routes with it before bufferizing and
/// rewrites after; the same problem and target give the rewrite the same
/// tiles.
llvm::Expected<WarpgroupMatmulPlan> routeWarpgroupMatmul(mlir::Operation *op,
                                                         const HwSpec &spec);

/// Replaces the fill and the matmul of `plan` with the TMA descriptors and
/// the kernel's gpu.launch, which it returns.
mlir::FailureOr<mlir::gpu::LaunchOp>
rewriteAsWarpgroupMatmul(mlir::RewriterBase &rewriter,
                         const WarpgroupMatmulPlan &plan);

} // namespace hwsched

#endif // HWSCHED_TRANSFORMS_WARPGROUPMATMUL_H
