//===- GpuFusionCost.cpp - GPU fusion score
//--------------------------------===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//
//
// Cost_gpu = a*RegPressure + b*CoalescingPenalty - c*BandwidthSaved
//
//  - RegPressure: registers per thread of the fused kernel above
//    gpu.occupancy_register_budget, relative to that budget (occupancy lost);
//    when the register floor (accumulators + one reduction step + base) is
//    above gpu.max_registers_per_thread (reg_limit) the kernel spills:
//    rejected.
//  - CoalescingPenalty: a consumer writing its result in another dim order
//    than the producer's per-thread tile (transpose, strided write) turns
//    each warp store into one memory transaction per element: the extra
//    traffic (transaction bytes / element bytes - 1 per written byte),
//    relative to the unfused traffic.
//  - BandwidthSaved: off-chip bytes removed by fusion, relative to the
//    unfused traffic.
//
//===----------------------------------------------------------------------===//

#include "hwsched/CostModel/FusionCostModel.h"

#include <algorithm>

using namespace hwsched;

llvm::Error hwsched::scoreGpuFusion(const FusionPairFacts &facts,
                                    const HwSpec &spec,
                                    FusionDecision &decision) {
  static const llvm::StringRef keys[] = {
      "gpu.max_registers_per_thread",
      "gpu.occupancy_register_budget",
      "cost_weights.register_pressure",
      "cost_weights.coalescing_penalty",
      "cost_weights.bandwidth_saved",
      "cost_weights.memory_transaction_bytes"};
  double v[6];
  if (llvm::Error err = spec.getNumbers(keys, v, costModelName(spec)))
    return err;
  double maxRegs = v[0], budget = std::max(v[1], 1.0);
  llvm::Expected<RegisterCalibration> calibration =
      loadRegisterCalibration(spec, costModelName(spec));
  if (!calibration)
    return calibration.takeError();
  RegisterEstimate regs = estimateRegisters(facts.group, *calibration);
  decision.registers = regs;

  double pressure = std::max(0.0, regs.registers - budget) / budget;

  double unfused =
      std::max<int64_t>(1, costmodel::getUnfusedOffchipBytes(facts));
  double saved = costmodel::getSavedBytes(facts) / unfused;

  double coalescing = 0;
  if (facts.layoutChange && !facts.consumerReduces) {
    if (const OperandFeatures *init = facts.consumer.getInit()) {
      double elementBytes = std::max<double>(1, init->elementBits / 8.0);
      double amplification = std::max(0.0, v[5] / elementBytes - 1);
      coalescing = init->bytes * amplification / unfused;
    }
  }

  decision.terms.push_back({"reg_pressure", pressure, v[2], +1});
  decision.terms.push_back({"coalescing_penalty", coalescing, v[3], +1});
  decision.terms.push_back({"bandwidth_saved", saved, v[4], -1});
  decision.limits.push_back(
      {"register_floor", (double)regs.floorRegisters, maxRegs, true});
  decision.limits.push_back(
      {"occupancy_register_budget", (double)regs.registers, budget, false});
  if (regs.floorRegisters > maxRegs && decision.legal &&
      decision.reason.empty())
    decision.reason =
        "spills: at least " + std::to_string(regs.floorRegisters) +
        " registers per thread > limit " + std::to_string((int64_t)maxRegs);
  return llvm::Error::success();
}
