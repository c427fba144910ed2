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
  double regs = weights.base + weights.perAccumulator * terms.accumulators +
                weights.perFragment * terms.fragments +
                weights.perEpilogueInput * terms.epilogueInputs +
                weights.perTemporary * terms.temporaries +
                weights.perAddressOperand * terms.addressOperands;
  return std::max<int64_t>(1, static_cast<int64_t>(std::ceil(regs - 1e-9)));
}
