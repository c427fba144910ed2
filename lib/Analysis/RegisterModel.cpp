//===- RegisterModel.cpp - The register model evaluated from terms --------===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//

#include "hwsched/Analysis/RegisterModel.h"

#include <algorithm>
#include <cmath>

using namespace hwsched;

int64_t hwsched::evaluateRegisterModel(const RegisterModelTerms &terms,
                                       const RegisterCalibration &weights) {
  // Same demand as estimateRegisters: the peak over the main loop
  // (accumulators + fragments) and the epilogue (accumulators + epilogue
  // inputs + temporaries), plus the base and the address registers.
  double mainLoop = weights.perAccumulator * terms.accumulators +
                    weights.perFragment * terms.fragments;
  double epilogue = weights.perAccumulator * terms.accumulators +
                    weights.perEpilogueInput * terms.epilogueInputs +
                    weights.perTemporary * terms.temporaries;
  double regs = weights.base +
                weights.perAddressOperand * terms.addressOperands +
                std::max(mainLoop, epilogue);
  return std::max<int64_t>(1, static_cast<int64_t>(std::ceil(regs - 1e-9)));
}
