//===- RegisterEstimate.h - Registers per thread of a GPU kernel -*- C++
//-*-===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//
//
// A linear register-pressure model for one (fused) GPU kernel, per thread:
//
//   regs = base + w_acc*Accumulators + w_frag*Fragments + w_epi*EpilogueInputs
//        + w_tmp*Temporaries + w_addr*AddressOperands
//
// counted in 32-bit words over the per-thread tile:
//  - Accumulators: output tile of every op with reduction loops;
//  - Fragments: the per-step operand tiles of those ops (e.g. A: tm x tk,
//    B: tk x tn for a matmul with a reduction step tk);
//  - EpilogueInputs: tiles read from memory by the ops without reductions
//    (bias, residual, ...);
//  - Temporaries: output tiles of the ops without reductions;
//  - AddressOperands: distinct memory operands (base pointer + indices).
// The weights and the per-thread tile assumed for ops that are not yet tiled
// to threads come from the spec (`cost_weights.reg_*`,
// `cost_weights.default_thread_tile_elements`,
// `cost_weights.default_reduction_tile`), fitted against ptxas by
// bench/costmodel/calibrate.py.
//
//===----------------------------------------------------------------------===//

#ifndef HWSCHED_ANALYSIS_REGISTERESTIMATE_H
#define HWSCHED_ANALYSIS_REGISTERESTIMATE_H

#include "hwsched/Analysis/FusionAnalysis.h"
#include "hwsched/HwSpec/HwSpec.h"

#include <string>

namespace hwsched {

/// The calibrated constants of the register model.
struct RegisterCalibration {
  double base = 0, perAccumulator = 0, perFragment = 0, perEpilogueInput = 0,
         perTemporary = 0, perAddressOperand = 0;
  /// Per-thread output elements and reduction step assumed for ops that are
  /// not tiled to threads yet.
  int64_t defaultThreadTileElements = 1;
  int64_t defaultReductionTile = 1;
};

/// Spec keys the register model reads (all under cost_weights).
llvm::ArrayRef<llvm::StringRef> getRegisterCalibrationKeys();

/// Reads the calibration from `spec`; on a missing key returns false and
/// sets `missing` to the key path.
bool loadRegisterCalibration(const HwSpec &spec, RegisterCalibration &out,
                             std::string &missing);

/// The estimate with every counted term.
struct RegisterEstimate {
  int64_t accumulators = 0;
  int64_t fragments = 0;
  int64_t epilogueInputs = 0;
  int64_t temporaries = 0;
  int64_t addressOperands = 0;
  /// Rounded-up model value.
  int64_t registers = 0;
  /// Per-thread loop extents assumed for the first op of the group.
  llvm::SmallVector<int64_t> threadTile;
  /// Where the per-thread tile came from: "tiled" (scf.forall mapped to GPU
  /// threads) or "default" (spec defaults).
  std::string tileSource;
  /// Dynamic extents were bounded or defaulted: treat as approximate.
  bool conservative = false;
};

/// Estimates the registers per thread of `group` as one kernel.
RegisterEstimate estimateRegisters(const KernelGroup &group,
                                   const RegisterCalibration &calibration);

} // namespace hwsched

#endif // HWSCHED_ANALYSIS_REGISTERESTIMATE_H
