//===- TileMeasurement.h - Compile and time tile candidates -----*- C++ -*-===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//
//
// Measurement mode of select_tile_config: each candidate configuration is
// compiled and run on the host CPU, in-process, so a user tunes a script
// without recompiling anything. For every candidate a standalone module is
// built from a copy of the payload op (operands become buffers filled with
// constants), tiled with the candidate's sizes through the same upstream
// transform ops a CPU script uses (tile_using_for at the cache, reduction and
// register levels, K step 1, vectorize, hoist, bufferize, lower contractions
// to FMAs), lowered to LLVM and JIT-compiled with mlir::ExecutionEngine; its
// thread CPU time is the median of several samples.
//
// The payload is never modified: the copy lives in a private MLIRContext
// (same dialect registry as the caller's) that is destroyed afterwards.
//
//===----------------------------------------------------------------------===//

#ifndef HWSCHED_COSTMODEL_TILEMEASUREMENT_H
#define HWSCHED_COSTMODEL_TILEMEASUREMENT_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>
#include <vector>

namespace mlir {
class Operation;
} // namespace mlir

namespace hwsched {

struct TileProblem;
struct TileSelection;

/// One configuration to measure, as per-loop lists (0 = not tiled at that
/// level), in the payload op's loop order: the lists select_tile_config
/// returns as tile_sizes, reduction_tile_sizes and thread_tile_sizes.
struct MeasuredTileConfig {
  llvm::SmallVector<int64_t> tileSizes, reductionTileSizes, registerTileSizes;
};

/// The outcome of one candidate.
struct TileMeasurementResult {
  /// Median thread CPU time of one call, in ns; negative when the candidate
  /// could not be compiled or run (see `error`).
  double medianNs = -1;
  /// Calls per sample and samples taken.
  int64_t callsPerSample = 0, samples = 0;
  std::string error;
};

/// A refusal when `op` cannot be measured standalone: not a Linalg op with
/// pure tensor semantics, dynamic shapes, operand element types that cannot
/// be filled with constants.
llvm::Error checkTileConfigsMeasurable(mlir::Operation *op);

/// Compiles and times `op` under each configuration: one result per
/// configuration. A refusal when measurement is impossible as a whole (the
/// op cannot be measured, the host JIT or a transform op is unavailable); a
/// configuration that alone fails to compile or run only sets its own
/// `error`.
llvm::Expected<std::vector<TileMeasurementResult>>
measureTileConfigs(mlir::Operation *op,
                   llvm::ArrayRef<MeasuredTileConfig> configs, int64_t samples);

/// Measurement mode of select_tile_config: measures the first `topK`
/// candidates of `selection.ranked` (model order) for `op` and, when at least
/// one ran, re-expands the fastest into `selection`'s result lists and sets
/// its `measuredNs`. `report` gets the remark text: every measured candidate
/// with its lists and time and the one kept, or why nothing was measured (the
/// model's pick is then kept unchanged). Returns true when the pick comes
/// from a measurement.
bool refineTileSelectionByMeasurement(mlir::Operation *op,
                                      const TileProblem &problem,
                                      TileSelection &selection, int64_t topK,
                                      int64_t samples, std::string &report);

} // namespace hwsched

#endif // HWSCHED_COSTMODEL_TILEMEASUREMENT_H
