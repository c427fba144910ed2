//===- RegisterModel.cpp - The register model evaluated from terms --------===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//

#include "hwsched/Analysis/RegisterModel.h"

#include <cmath>

using namespace hwsched;

bool hwsched::loadRegisterModelWeights(const HwSpec &spec,
                                       RegisterModelWeights &out,
                                       std::string &missing) {
  static const llvm::StringLiteral keys[] = {
      "cost_weights.reg_base",          "cost_weights.reg_per_accumulator",
      "cost_weights.reg_per_fragment",  "cost_weights.reg_per_epilogue_input",
      "cost_weights.reg_per_temporary", "cost_weights.reg_per_address_operand"};
  double *fields[] = {&out.base,         &out.perAccumulator,
                      &out.perFragment,  &out.perEpilogueInput,
                      &out.perTemporary, &out.perAddressOperand};
  for (unsigned i = 0; i < std::size(keys); ++i) {
    std::optional<double> value = spec.getNumber(keys[i]);
    if (!value) {
      missing = keys[i].str();
      return false;
    }
    *fields[i] = *value;
  }
  return true;
}

int64_t hwsched::evaluateRegisterModel(const RegisterModelTerms &terms,
                                       const RegisterModelWeights &weights) {
  double regs = weights.base + weights.perAccumulator * terms.accumulators +
                weights.perFragment * terms.fragments +
                weights.perEpilogueInput * terms.epilogueInputs +
                weights.perTemporary * terms.temporaries +
                weights.perAddressOperand * terms.addressOperands;
  return static_cast<int64_t>(std::ceil(regs - 1e-9));
}
