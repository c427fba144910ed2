//===- NpuFusionCost.cpp - Ascend-style NPU fusion score
//-------------------===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//
//
// Hard constraint: the fused pair's live tiles, each aligned to
// onchip.alignment_bytes, times npu.ping_pong_factor (double buffering) must
// fit the unified buffer (onchip.capacity_bytes, ub_limit_bytes override).
//
// Cost_npu = FormatCastOverhead - DMASaved, both in cycles of one core:
//  - DMASaved: the intermediate's bytes no longer moved out and back in by
//    the MTE engines, at npu.mte_bytes_per_cycle;
//  - FormatCastOverhead: a cube producer (contraction / convolution, result
//    in npu.cube_format) feeding a vector consumer that is not elementwise
//    (it reduces or changes the layout) needs the result in
//    npu.vector_format: the cast reads and writes the intermediate at
//    npu.format_cast_bytes_per_cycle.
//
//===----------------------------------------------------------------------===//

#include "hwsched/CostModel/FusionCostModel.h"

#include <algorithm>

using namespace hwsched;

llvm::Error hwsched::scoreNpuFusion(const FusionPairFacts &facts,
                                    const HwSpec &spec,
                                    FusionDecision &decision) {
  static const llvm::StringRef keys[] = {"onchip.capacity_bytes",
                                         "onchip.alignment_bytes",
                                         "npu.ping_pong_factor",
                                         "npu.mte_bytes_per_cycle",
                                         "npu.format_cast_bytes_per_cycle",
                                         "cost_weights.format_cast",
                                         "cost_weights.dma_saved"};
  double v[7];
  if (llvm::Error err = spec.getNumbers(keys, v, costModelName(spec)))
    return err;
  double capacity = v[0], pingPong = v[2];
  int64_t live = costmodel::getFusedLiveBytes(facts, (int64_t)v[1]);
  decision.limits.push_back(
      {"ub_live_bytes_x_ping_pong", live * pingPong, capacity, true});

  double mteRate = std::max(v[3], 1e-9), castRate = std::max(v[4], 1e-9);
  double dmaSaved = costmodel::getSavedBytes(facts) / mteRate;

  const OperandFeatures &fused = facts.consumer.operands[facts.consumerOperand];
  bool vectorNeedsNd = facts.consumerReduces || facts.layoutChange ||
                       (facts.consumer.opClass != OpClass::Elementwise &&
                        facts.consumer.opClass != OpClass::Fill);
  double cast = 0;
  if (facts.producer.isCubeLike() && !facts.consumer.isCubeLike() &&
      vectorNeedsNd)
    cast = 2.0 * fused.bytes / castRate;

  decision.terms.push_back({"format_cast_cycles", cast, v[5], +1});
  decision.terms.push_back({"dma_saved_cycles", dmaSaved, v[6], -1});
  if (live * pingPong > capacity && decision.legal && decision.reason.empty())
    decision.reason = "unified buffer overflow: " + std::to_string(live) +
                      " live bytes x " + std::to_string((int64_t)pingPong) +
                      " > " + std::to_string((int64_t)capacity);
  return llvm::Error::success();
}
