//===- FusionCostModel.h - Hardware-aware fusion decisions ------*- C++ -*-===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//
//
// Scores fusing one consumer into its producer for the spec's target kind:
//
//   GPU: Cost = a*RegPressure + b*CoalescingPenalty - c*BandwidthSaved,
//        hard limit: registers <= gpu.max_registers_per_thread (else spills);
//   NPU: Cost = FormatCastOverhead - DMASaved,
//        hard limit: align(LiveBytes) * npu.ping_pong_factor <= UB capacity;
//   CPU: Cost = CachePressure + VectorPenalty - BandwidthSaved,
//        hard limit: LiveBytes <= onchip (L2) capacity.
//
// Legality comes first (a reduction across parallel workers, operands not
// dominating the fusion point, recomputation blow-up, back-to-back GEMM
// residence); an illegal pair is never scored as profitable. The decision
// records every term, weight and limit so that remarks, tests and benchmarks
// print the same numbers. Weights, limits and calibration constants come from
// the spec only.
//
//===----------------------------------------------------------------------===//

#ifndef HWSCHED_COSTMODEL_FUSIONCOSTMODEL_H
#define HWSCHED_COSTMODEL_FUSIONCOSTMODEL_H

#include "hwsched/Analysis/FusionAnalysis.h"
#include "hwsched/Analysis/RegisterEstimate.h"
#include "hwsched/HwSpec/HwSpec.h"

#include <string>

namespace hwsched {

/// One weighted term of a score: contributes sign * weight * value.
struct CostTerm {
  std::string name;
  double value = 0;
  double weight = 0;
  /// +1 for a cost, -1 for a benefit.
  int sign = 1;
  double contribution() const { return sign * weight * value; }
};

/// One limit checked by the model: `value <= limit` (`hard`: violating it
/// rejects the fusion; soft limits only feed a term).
struct CostLimit {
  std::string name;
  double value = 0;
  double limit = 0;
  bool hard = true;
  bool holds() const { return value <= limit; }
};

/// The outcome for one producer/consumer pair.
struct FusionDecision {
  bool legal = true;
  bool profitable = false;
  bool fuse() const { return legal && profitable; }
  /// Why the pair was rejected (empty when fused).
  std::string reason;
  llvm::SmallVector<CostTerm> terms;
  llvm::SmallVector<CostLimit> limits;
  double cost = 0;
  /// The shapes were dynamic: the decision is the conservative one.
  bool conservative = false;
  /// GPU only: the register estimate of the fused kernel.
  std::optional<RegisterEstimate> registers;
};

/// "the gpu cost model": who needs a figure, in refusals for a spec that
/// lacks one (missingFigure).
std::string costModelName(const HwSpec &spec);

/// Decides whether to fuse the pair described by `facts` on `spec`'s target.
/// A refusal naming the key path when the spec lacks a figure the model
/// needs.
llvm::Expected<FusionDecision> decideFusion(const FusionPairFacts &facts,
                                            const HwSpec &spec);

/// Per-target scoring, called by decideFusion after the legality rules: adds
/// the target's terms and limits to `decision`.
llvm::Error scoreGpuFusion(const FusionPairFacts &facts, const HwSpec &spec,
                           FusionDecision &decision);
llvm::Error scoreNpuFusion(const FusionPairFacts &facts, const HwSpec &spec,
                           FusionDecision &decision);
llvm::Error scoreCpuFusion(const FusionPairFacts &facts, const HwSpec &spec,
                           FusionDecision &decision);

/// The numbers `transform.cost_model.estimate` exposes, for one kernel group.
struct KernelMetrics {
  int64_t registersPerThread = 0;
  /// Live tile bytes, each buffer aligned to onchip.alignment_bytes.
  int64_t onchipBytes = 0;
  /// Bytes read from and written to off-chip memory by the group.
  int64_t offchipBytes = 0;
  int64_t flops = 0;
  /// Roofline: max(flops / peak, offchip bytes / bandwidth), in ns.
  int64_t estimatedTimeNs = 0;
  /// Whether the time is compute or memory bound.
  bool computeBound = false;
  RegisterEstimate registers;
  bool conservative = false;
};

/// The metric names, in documentation order.
llvm::ArrayRef<llvm::StringRef> getKnownMetrics();

/// Computes the metrics of `group` on `spec`'s target; a refusal naming the
/// key path when the spec lacks a figure the model needs.
llvm::Expected<KernelMetrics> computeKernelMetrics(const KernelGroup &group,
                                                   const HwSpec &spec);

/// The value of `metric` (one of getKnownMetrics()).
std::optional<int64_t> getMetric(const KernelMetrics &metrics,
                                 llvm::StringRef metric);

/// One-line renderings used by remarks (and parsed by bench/costmodel):
///   "cost=<c> = <+/-w*name(value)>...; limits: <name> <v> <= <l>
///   (ok|VIOLATED[, soft])..." "registers=<n> (acc=.. frag=.. epi=.. tmp=..
///   addr=.. tile=[..] <source>)"
std::string formatDecisionTerms(const FusionDecision &decision);
std::string formatRegisterEstimate(const RegisterEstimate &estimate);

/// Shared helpers of the per-target models.
namespace costmodel {
/// Rounds `bytes` up to `alignment`.
int64_t alignTo(int64_t bytes, int64_t alignment);
/// Bytes that must be live on chip for the fused pair: every distinct
/// operand of both ops, each aligned.
int64_t getFusedLiveBytes(const FusionPairFacts &facts, int64_t alignment);
/// Off-chip bytes of the pair when not fused (both ops read and write
/// memory) and the bytes fusion removes (the intermediate written once and
/// read once).
int64_t getUnfusedOffchipBytes(const FusionPairFacts &facts);
int64_t getSavedBytes(const FusionPairFacts &facts);
} // namespace costmodel

} // namespace hwsched

#endif // HWSCHED_COSTMODEL_FUSIONCOSTMODEL_H
