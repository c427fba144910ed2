//===- FusionAnalysis.h - IR facts about producer/consumer fusion -*- C++ -*-=//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//
//
// What the cost models need to know about fusing one consumer with its
// producer that only the IR can tell: which ops consume a producer (also
// through the results of the tiling loops around it), which result dims the
// producer's scf.forall splits across parallel workers, which the consumer
// reduces, whether the consumer's other operands dominate the fusion point,
// how often the consumer re-reads each producer element, and the
// back-to-back GEMM shapes. Also the "kernel group" of an op: the structured
// ops already fused into the same tiling loop.
//
//===----------------------------------------------------------------------===//

#ifndef HWSCHED_ANALYSIS_FUSIONANALYSIS_H
#define HWSCHED_ANALYSIS_FUSIONANALYSIS_H

#include "hwsched/Analysis/OpFeatures.h"

namespace hwsched {

/// Ops that run as one kernel, with the facts a register estimate needs.
struct KernelGroup {
  std::vector<OpFeatures> ops;
  /// Per op, per operand (same order as OpFeatures::operands): the index of
  /// the group op producing the value (it then lives in registers / on chip
  /// and is not loaded from memory), or -1; and that op's result number.
  llvm::SmallVector<llvm::SmallVector<int>> operandProducer;
  llvm::SmallVector<llvm::SmallVector<int>> operandResult;
  /// Every op of the group is nested in an scf.forall mapped to GPU threads:
  /// loop ranges are per-thread extents.
  bool threadTiled = false;
  /// Some op has a dynamic extent.
  bool dynamicShape = false;
  bool dynamicUnbounded = false;
};

/// One consumer of a producer and the facts about fusing the two.
struct FusionPairFacts {
  OpFeatures producer;
  OpFeatures consumer;
  /// The producer result the consumer reads and the consumer operand
  /// (index into consumer.operands) that reads it.
  unsigned producerResult = 0;
  unsigned consumerOperand = 0;
  /// The producer's result reaches the consumer through the results of the
  /// tiling loops around the producer.
  bool throughLoops = false;
  /// Producer result dims split across parallel workers (scf.forall) and
  /// result dims the consumer reduces over.
  llvm::SmallVector<int64_t> workerSplitDims;
  llvm::SmallVector<int64_t> consumerReducedDims;
  /// First consumer operand that is not available at the fusion point (it
  /// does not dominate it and its definitions cannot be moved before it:
  /// memory effects, or computed from the producer), if any, and why.
  bool operandsDominate = true;
  std::string nonDominatingOperand;
  /// How many times fusion recomputes each producer element: the product of
  /// the consumer's parallel extents that do not index the producer value
  /// and lie outside the innermost loop that does (tiling splits outer loops
  /// first);
  /// `gather`: the consumer reads the producer at data-dependent positions.
  int64_t recomputeFactor = 1;
  bool gather = false;
  /// The consumer reads the producer value with a different dim order than
  /// it writes its result (a transpose / layout change), or reduces it.
  bool layoutChange = false;
  bool consumerReduces = false;
  /// Bytes of the producer result (whole, i.e. outside the producer's loops).
  int64_t intermediateBytes = 0;
  /// Back-to-back GEMM: both contractions and the consumer reduces along the
  /// producer's N. gemm1N{Full,Tile}: the producer's N extent and its tile;
  /// gemm2N: the consumer's N (its parallel extent not indexing the value).
  bool backToBackGemm = false;
  int64_t gemm1NFull = 0;
  int64_t gemm1NTile = 0;
  int64_t gemm2N = 0;
  /// The two ops as a kernel group (for the register estimate).
  KernelGroup group;
};

/// The structured (TilingInterface / Linalg) users of `producer`'s results,
/// following results through tensor.insert_slice, tensor.parallel_insert_slice
/// and the results of the loops around the producer; in program order,
/// without duplicates.
llvm::SmallVector<mlir::Operation *>
collectConsumers(mlir::Operation *producer);

/// Computes the facts of fusing `consumer` into `producer` (the consumer must
/// be in collectConsumers(producer)). Returns false if either op cannot be
/// described.
bool analyzeFusionPair(mlir::Operation *producer, mlir::Operation *consumer,
                       FusionPairFacts &facts);

/// The kernel group of `op`: the structured ops nested in the innermost
/// scf.forall around `op` (else the outermost scf.for), or `op` alone when it
/// is not tiled.
bool collectKernelGroup(mlir::Operation *op, KernelGroup &group);

} // namespace hwsched

#endif // HWSCHED_ANALYSIS_FUSIONANALYSIS_H
