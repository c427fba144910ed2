//===- RegisterModel.h - The register model evaluated from terms -*- C++ -*-=//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//
//
// The calibrated linear register model of `estimate` /
// `filter_fusable_consumers` (RegisterEstimate.h, issue 5) evaluated on terms
// counted without IR: select_tile_config counts them for tile candidates that
// do not exist as IR yet, and must prune them through the same model and the
// same spec weights (`cost_weights.reg_*`).
//
//===----------------------------------------------------------------------===//

#ifndef HWSCHED_ANALYSIS_REGISTERMODEL_H
#define HWSCHED_ANALYSIS_REGISTERMODEL_H

#include "hwsched/Analysis/RegisterEstimate.h"

#include <cstdint>
#include <string>

namespace hwsched {

/// The counted terms of the register model, in 32-bit words per thread.
struct RegisterModelTerms {
  int64_t accumulators = 0;
  int64_t fragments = 0;
  int64_t epilogueInputs = 0;
  int64_t temporaries = 0;
  int64_t addressOperands = 0;
};

/// The model's demand (registers per thread without a cap), rounded up,
/// exactly as estimateRegisters computes it from the same terms: base +
/// address registers + the larger of the main loop and the epilogue
/// (weights from loadRegisterCalibration).
int64_t evaluateRegisterModel(const RegisterModelTerms &terms,
                              const RegisterCalibration &weights);

/// Words needed for `elements` values of `bits` bits.
inline int64_t registerWords(int64_t elements, int64_t bits) {
  return (elements * (bits < 1 ? 1 : bits) + 31) / 32;
}

} // namespace hwsched

#endif // HWSCHED_ANALYSIS_REGISTERMODEL_H
