//===- RegisterEstimate.h - Registers per thread of a GPU kernel -*- C++
//-*-===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//
//
// A structural register model for one (fused) GPU kernel, per thread, in
// 32-bit words: what the kernel holds live, counted from the IR (estimate,
// filter_fusable_consumers) or from a tile candidate (select_tile_config),
// both through evaluateRegisterModel so that they agree by construction.
//
//   demand = launch + loops + 2*(memory roots + staged operands)
//          + max(Accumulators + Fragments * StepsInFlight,          (main loop)
//                Accumulators + EpilogueInputs + Temporaries)     (epilogue)
//   floor  = floor_base + Accumulators + FragmentsPerStep
//
//  - launch = 4: the thread and block ids (x, y) the addresses are built
//    from, read once from special registers and kept;
//  - loops = 4: the 64-bit induction variables of the K-tile loop and the
//    K-step loop;
//  - memory roots: distinct buffers the kernel addresses (a subview chain
//    counts once; private buffers promoted to registers do not count), one
//    64-bit pointer (2 words) each (`.address_size 64`);
//  - staged operands: reduction operands read from shared memory (A and B
//    tiles multi-buffered by the pipeline): the loop carries a 64-bit stage
//    offset for each (2 words);
//  - Accumulators: output tile of every op with reduction loops;
//  - Fragments: the operand tiles one iteration of those ops loads (A: tm x
//    tk, B: tk x tn);
//  - StepsInFlight: for ops doing one element of each reduction loop per
//    iteration of a K-step loop of trip count T (static, or its bound), the
//    compiler unrolls that loop and issues the loads of later steps before
//    the FMAs of the current one, to hide the load latency L
//    (pipeline.units.smem_load.latency_cycles) within one thread's
//    instruction stream:
//      min(T, ceil(L / issue), 1 + ceil(2L / FMAs per step))
//    (issue = pipeline.units.smem_load.issue_cycles: by Little's law no more
//    than ceil(L / issue) loads of one stream are usefully in flight; 2L:
//    the loads of a step are issued a round trip ahead of their use, one
//    FMA per cycle; the factor 2 is the one choice made after reading
//    ptxas' output). ptxas schedules global loads like shared ones, so the
//    same figures serve both. 1 otherwise (an op doing a K step of 4 holds
//    its 4 steps' fragments already; ptxas does not hoist more,
//    bench/costmodel corpus);
//  - EpilogueInputs: tiles loaded by the ops without reductions (bias,
//    residual, ...), except copies into a private buffer (their values are
//    the accumulators);
//  - Temporaries: output tiles of ops without reductions that have no input
//    produced in the group (a consumer of the accumulators computes in
//    place);
//  - FragmentsPerStep: the fragments of one reduction element (tm + tn for
//    a matmul outer product).
// The demand is what ptxas allocates without a cap; the floor is what
// cannot be rematerialised or loaded later (a cap below it spills). Only
// the per-thread tile assumed for ops not yet tiled to threads comes from
// `cost_weights` (default_thread_tile_elements, default_reduction_tile),
// and reg_floor_base; every other figure is counted or read from the spec's
// hardware figures. Measured against ptxas by bench/tileconfig/reg_check.py
// (results in bench/tileconfig/RESULTS.md).
//
//===----------------------------------------------------------------------===//

#ifndef HWSCHED_ANALYSIS_REGISTERESTIMATE_H
#define HWSCHED_ANALYSIS_REGISTERESTIMATE_H

#include "hwsched/Analysis/FusionAnalysis.h"
#include "hwsched/HwSpec/HwSpec.h"

#include <string>

namespace hwsched {

/// The spec figures of the register model.
struct RegisterCalibration {
  /// cost_weights.reg_floor_base.
  double floorBase = 0;
  /// pipeline.units.smem_load.{latency,issue}_cycles.
  double smemLatency = 1, smemIssue = 1;
  /// Per-thread output elements and reduction step assumed for ops that are
  /// not tiled to threads yet.
  int64_t defaultThreadTileElements = 1;
  int64_t defaultReductionTile = 1;
};

/// Spec keys the register model reads.
llvm::ArrayRef<llvm::StringRef> getRegisterCalibrationKeys();

/// Reads the calibration from `spec`; a missing key is a refusal naming it
/// and `neededBy` (missingFigure).
llvm::Expected<RegisterCalibration>
loadRegisterCalibration(const HwSpec &spec, const llvm::Twine &neededBy);

/// The counted terms of the register model, in 32-bit words per thread.
/// estimateRegisters counts them from IR; select_tile_config counts them for
/// tile candidates that do not exist as IR yet, and both evaluate them with
/// evaluateRegisterModel so that they agree by construction.
struct RegisterModelTerms {
  int64_t accumulators = 0;
  int64_t fragments = 0;
  int64_t epilogueInputs = 0;
  int64_t temporaries = 0;
  /// Distinct memory roots (64-bit pointers).
  int64_t addressOperands = 0;
  /// Reduction operands read from shared memory (multi-buffered stages).
  int64_t stagedOperands = 0;
  /// Trip count of the K-step loop around the reduction (1: none known).
  int64_t kStepTrip = 1;
  /// FMAs (multiply-adds) of one iteration of the reduction ops.
  int64_t fmasPerStep = 1;
};

/// The estimate: the counted terms and what the model makes of them.
struct RegisterEstimate {
  RegisterModelTerms terms;
  int64_t stepsInFlight = 1;
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

/// Reduction steps whose fragments are live at once (see the file comment).
int64_t getStepsInFlight(const RegisterModelTerms &terms,
                         const RegisterCalibration &calibration);

/// The model's demand (registers per thread without a cap): launch and loop
/// registers + pointers + the larger of the main loop (accumulators +
/// fragments x steps in flight) and the epilogue (accumulators + epilogue
/// inputs + temporaries). The one place the formula lives.
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
