//===- TileConfigDecision.h - select_tile_config's whole decision -*- C++ -*-=//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//
//
// One select_tile_config decision for one payload op, from the payload to
// the pick: the TileProblem with the schedule's promises, the tile rules'
// ranking (TileConfig.h), then the tuning database or `candidate_rank`
// (TuningDatabase.h), then measurement on the host (TileMeasurement.h). The
// decision prints the remarks the op reports and writes the candidates
// export a tuner reads, so the op only unpacks, calls and reports.
//
//===----------------------------------------------------------------------===//

#ifndef HWSCHED_COSTMODEL_TILECONFIGDECISION_H
#define HWSCHED_COSTMODEL_TILECONFIGDECISION_H

#include "hwsched/CostModel/TileConfig.h"
#include "hwsched/CostModel/TuningDecision.h"

#include <optional>
#include <string>
#include <vector>

namespace hwsched {

/// What the script asks of one select_tile_config application besides the
/// payload and the spec.
struct TileConfigRequest {
  /// The schedule's promises: the split-K result is applied, the
  /// accumulator is kept in shared memory, shared memory is static.
  bool splitK = false, accumulatorInSmem = false, staticSmem = false;
  /// The schedule builds the tensor-core kernel (`mma_sync`), and takes
  /// f32 inputs as tf32 (`allow_tf32`).
  bool mmaSync = false, allowTf32 = false;
  /// The kernel is asked for as if C's init were a linalg.fill: the
  /// caller splits a C += A x B first (split_accumulation), so the
  /// decision is the one the split matmul gets.
  bool assumeFilledInit = false;
  /// `packed_operands`: operand indices the schedule packs.
  std::optional<llvm::SmallVector<int64_t>> packedOperands;
  /// `tuning_db`, when the op names one.
  std::optional<std::string> tuningDb;
  /// `candidate_rank`, `measure_top_k`, `measure_samples`, `export_top_k`.
  std::optional<int64_t> candidateRank, measureTopK, measureSamples, exportTopK;
  /// Where the decisions are exported (attribute or environment); none when
  /// std::nullopt.
  std::optional<std::string> candidatesFile;
};

/// Where one decision's pick came from, for the remarks and the export.
struct TuningOutcome {
  TuningLookup lookup;
  TuningSchedule schedule;
  /// "model", "candidate_rank", "database" or "measurement".
  std::string chosenBy = "model";
  /// "hit", "no entry", "no configuration", "schedule differs"; empty
  /// without a database.
  std::string databaseStatus;
  /// The remark saying what the database did (empty when it did nothing
  /// worth a remark without `explain`).
  std::string remark;
};

/// The decision for one payload op.
struct TileConfigDecision {
  mlir::Operation *payload = nullptr;
  HwSpec spec;
  TileProblem problem;
  TileSelection selection;
  /// Measurement mode: the measured times or why nothing was measured.
  std::string measurement;
  TuningOutcome tuning;
  /// The model's ranking before any choice, for the candidates export.
  std::vector<TileCandidate> modelOrder;

  /// The remarks the op reports, in order: the notes (padding, dynamic
  /// extents), the measurement and what the database did, always; with
  /// `explain` also the results, the candidate counts, the rules and the
  /// best candidates, and why the winner won.
  llvm::SmallVector<std::string> remarks(bool explain) const;
  /// Every remark of `explain`, one per line.
  void print(llvm::raw_ostream &os) const;
  /// Appends the decision to the candidates export at `path` (`opLoc`: where
  /// the transform op is; `topK`: candidates listed, 0 = all).
  llvm::Error exportTo(llvm::StringRef path, mlir::Location opLoc,
                       int64_t topK) const;
};

/// Decides the tile configuration of `payload` on `spec` as `request` asks.
/// A refusal (with a note at the payload op) when the payload is not a tile
/// problem, `packed_operands` do not fit it, no candidate survives the
/// rules, the tuning database cannot be read or names an infeasible
/// configuration, or `candidate_rank` is past the last candidate.
llvm::Expected<TileConfigDecision>
decideTileConfig(mlir::Operation *payload, HwSpec spec,
                 const TileConfigRequest &request);

/// Whether the tensor-core (mma.sync) kernel of
/// transform-scripts/gpu-matmul-tensorcore.mlir can take `payload` on
/// `spec`, before its tiles are chosen: a GPU target, a `linalg.matmul`
/// with the default indexing maps on tensors, outside any `gpu.launch`,
/// whose init is a `linalg.fill` (the kernel fuses it), f16 inputs, or f32
/// inputs when `allowTf32` (the kernel multiplies them as tf32), and an f32
/// result. A refusal at `payload` naming the property and what would make
/// it work. The one check of the kernel's payloads: select_tile_config
/// { mma_sync } and match_mma_sync_matmuls both reach it through
/// decideTileConfig; the tile rules then check the extents and the target.
/// With `requireFillInit` false the init rule is skipped (for a C += A x B
/// that split_accumulation turns into a filled product).
llvm::Error checkMmaSyncEligible(mlir::Operation *payload, const HwSpec &spec,
                                 bool allowTf32, bool requireFillInit = true);

/// How the tensor-core (mma.sync) kernel would take `payload` on `spec` as
/// `request` asks: not at all (a target without mma.sync), refused (the
/// reason), or taken (its pick). The question match_mma_sync_matmuls and
/// split_accumulation both ask before they route or rewrite a matmul.
struct MmaSyncRoute {
  /// The target has the mma.sync kernel, so the payload was considered.
  bool considered = false;
  /// The pick ("tile 64x64x64, warp 32x64, ..."), when taken.
  std::optional<std::string> plan;
  /// Why the kernel does not take it, when considered and not taken.
  std::string refusal;
};
MmaSyncRoute routeToMmaSync(mlir::Operation *payload, HwSpec spec,
                            const TileConfigRequest &request);

/// "tile 64x64x32, inner 4x4, warp 32x32, 3 stages, ...": one candidate with
/// the figures the rules of `kind` checked.
void printTileCandidate(llvm::raw_ostream &os, const TileCandidate &candidate,
                        HwKind kind);

} // namespace hwsched

#endif // HWSCHED_COSTMODEL_TILECONFIGDECISION_H
