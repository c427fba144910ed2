//===- RegisterEstimate.h - Registers per thread of a GPU kernel -*- C++
//-*-===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//
//
// A linear register-pressure model for one (fused) GPU kernel, per thread:
//
//   demand = base + w_addr*AddressOperands
//          + max(w_acc*Accumulators + w_frag*Fragments,              (main
//          loop)
//                w_acc*Accumulators + w_epi*EpilogueInputs
//                                   + w_tmp*Temporaries) (epilogue)
//   floor  = floor_base + Accumulators + FragmentsPerStep
//
// The demand is what ptxas allocates without a cap (the peak over the two
// phases of the kernel: fragments are dead once the epilogue runs). The
// floor is what cannot be rematerialised or loaded later: the accumulators
// and one reduction step's operands; a cap below the floor spills.
//
// counted in 32-bit words over the per-thread tile:
//  - Accumulators: output tile of every op with reduction loops;
//  - Fragments: the per-step operand tiles of those ops (e.g. A: tm x tk,
//    B: tk x tn for a matmul with a reduction step tk);
//  - EpilogueInputs: tiles read from memory by the ops without reductions
//    (bias, residual, ...);
//  - Temporaries: output tiles of the ops without reductions;
//  - AddressOperands: distinct memory operands (base pointer + indices);
//  - FragmentsPerStep: the fragments of one reduction element (tm + tn for
//    a matmul outer product).
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
         perTemporary = 0, perAddressOperand = 0, floorBase = 0;
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
  int64_t fragmentsPerStep = 0;
  /// Rounded-up demand (registers per thread without a cap).
  int64_t registers = 0;
  /// Rounded-up floor: a register cap below it spills.
  int64_t floorRegisters = 0;
  /// Per-thread loop extents of the kernel's main op (the first op with
  /// reduction loops, else the first op that is not a fill).
  llvm::SmallVector<int64_t> threadTile;
  /// Where the per-thread tile came from: "tiled" (scf.forall mapped to GPU
  /// threads) or "default" (spec defaults).
  std::string tileSource;
  /// Dynamic extents were bounded or defaulted: treat as approximate.
  bool conservative = false;
};

/// The counted terms of the register model, in 32-bit words per thread.
/// estimateRegisters counts them from IR; select_tile_config counts them for
/// tile candidates that do not exist as IR yet, and both evaluate them with
/// evaluateRegisterModel so that they agree by construction.
struct RegisterModelTerms {
  int64_t accumulators = 0;
  int64_t fragments = 0;
  int64_t epilogueInputs = 0;
  int64_t temporaries = 0;
  int64_t addressOperands = 0;
};

/// The model's demand (registers per thread without a cap), rounded up:
/// base + address registers + the larger of the main loop (accumulators +
/// fragments) and the epilogue (accumulators + epilogue inputs +
/// temporaries), weighted by `calibration`. The one place the formula lives.
int64_t evaluateRegisterModel(const RegisterModelTerms &terms,
                              const RegisterCalibration &calibration);

/// Words needed for `elements` values of `bits` bits.
inline int64_t registerWords(int64_t elements, int64_t bits) {
  return (elements * (bits < 1 ? 1 : bits) + 31) / 32;
}

/// Estimates the registers per thread of `group` as one kernel.
RegisterEstimate estimateRegisters(const KernelGroup &group,
                                   const RegisterCalibration &calibration);

} // namespace hwsched

#endif // HWSCHED_ANALYSIS_REGISTERESTIMATE_H
