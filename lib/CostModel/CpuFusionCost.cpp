//===- CpuFusionCost.cpp - CPU fusion score
//--------------------------------===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//
//
// The GPU/NPU structure with caches, in nanoseconds of one core:
//
// Cost_cpu = w_cache*CachePressure + w_recompute*Recompute
//          - w_bw*BandwidthSaved
//
//  - BandwidthSaved: bytes fusion removes at offchip.bandwidth_gb_per_s;
//  - CachePressure: for tiled ops, fused live bytes beyond the L2
//    re-fetched from memory;
//  - Recompute: producer work repeated because the consumer re-reads its
//    elements (recompute factor - 1) at the vector peak
//    (compute.peak_fp32_gflops scaled down by the lanes lost when the
//    consumer reads the producer against its memory order: the fused loop no
//    longer vectorises along cpu.vector_width_bits).
// Hard limit: when both ops are tiled, the fused tile must fit the L2
// (onchip.capacity_bytes, l2_limit_bytes override); the L1 (cpu.l1d_bytes)
// is reported as a soft limit.
//
//===----------------------------------------------------------------------===//

#include "hwsched/CostModel/FusionCostModel.h"

#include <algorithm>

using namespace hwsched;

llvm::Error hwsched::scoreCpuFusion(const FusionPairFacts &facts,
                                    const HwSpec &spec,
                                    FusionDecision &decision) {
  static const llvm::StringRef keys[] = {"onchip.capacity_bytes",
                                         "onchip.alignment_bytes",
                                         "cpu.l1d_bytes",
                                         "cpu.vector_width_bits",
                                         "offchip.bandwidth_gb_per_s",
                                         "compute.peak_fp32_gflops",
                                         "cost_weights.cache_pressure",
                                         "cost_weights.bandwidth_saved",
                                         "cost_weights.recompute"};
  double v[9];
  if (llvm::Error err = spec.getNumbers(keys, v, costModelName(spec)))
    return err;
  double l2 = v[0], l1 = v[2], bandwidth = std::max(v[4], 1e-9);
  int64_t live = costmodel::getFusedLiveBytes(facts, (int64_t)v[1]);
  bool tiled = facts.producer.tiled && facts.consumer.tiled;
  decision.limits.push_back({"l2_live_bytes", (double)live, l2, tiled});
  decision.limits.push_back({"l1_live_bytes", (double)live, l1, false});

  double saved = costmodel::getSavedBytes(facts) / bandwidth;
  // An untiled pair streams through the fused loop nest; only a tile that
  // is kept resident can overflow the cache.
  double pressure = tiled ? std::max(0.0, live - l2) / bandwidth : 0.0;

  const OperandFeatures &fused = facts.consumer.operands[facts.consumerOperand];
  double lanes = std::max(1.0, v[3] / std::max<int64_t>(fused.elementBits, 1));
  double peak = std::max(v[5], 1e-9);
  if (fused.pattern == AccessPattern::Transposed ||
      fused.pattern == AccessPattern::Strided)
    peak /= lanes;
  double recompute = std::max<int64_t>(0, facts.recomputeFactor - 1) *
                     facts.producer.flops / peak;

  decision.terms.push_back({"cache_pressure_ns", pressure, v[6], +1});
  decision.terms.push_back({"recompute_ns", recompute, v[8], +1});
  decision.terms.push_back({"bandwidth_saved_ns", saved, v[7], -1});
  if (tiled && live > l2 && decision.legal && decision.reason.empty())
    decision.reason = "L2 overflow: " + std::to_string(live) +
                      " live bytes > " + std::to_string((int64_t)l2);
  return llvm::Error::success();
}
