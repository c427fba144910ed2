//===- FusionCostModel.cpp - Legality, dispatch and kernel metrics --------===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//

#include "hwsched/CostModel/FusionCostModel.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cmath>

using namespace hwsched;

int64_t costmodel::alignTo(int64_t bytes, int64_t alignment) {
  if (alignment <= 1)
    return bytes;
  return (bytes + alignment - 1) / alignment * alignment;
}

int64_t costmodel::getFusedLiveBytes(const FusionPairFacts &facts,
                                     int64_t alignment) {
  llvm::DenseSet<void *> seen;
  int64_t live = 0;
  for (const OpFeatures *op : {&facts.producer, &facts.consumer})
    for (const OperandFeatures &operand : op->operands)
      if (!operand.isScalar &&
          seen.insert(operand.value.getAsOpaquePointer()).second)
        live += alignTo(operand.bytes, alignment);
  return live;
}

int64_t costmodel::getUnfusedOffchipBytes(const FusionPairFacts &facts) {
  return facts.producer.bytesRead + facts.producer.bytesWritten +
         facts.consumer.bytesRead + facts.consumer.bytesWritten;
}

int64_t costmodel::getSavedBytes(const FusionPairFacts &facts) {
  // The producer no longer writes the intermediate and the consumer no
  // longer reads it back.
  const OperandFeatures &fused = facts.consumer.operands[facts.consumerOperand];
  int64_t written = facts.intermediateBytes;
  if (const OperandFeatures *init =
          facts.producer.getInit(facts.producerResult))
    written = std::min(written, init->bytes);
  return written + fused.bytes;
}

static std::string formatDims(llvm::ArrayRef<int64_t> dims) {
  std::string text;
  llvm::raw_string_ostream os(text);
  llvm::interleave(dims, os, ",");
  return text;
}

std::string hwsched::costModelName(const HwSpec &spec) {
  return ("the " + stringifyHwKind(spec.getKind()) + " cost model").str();
}

llvm::Expected<FusionDecision>
hwsched::decideFusion(const FusionPairFacts &facts, const HwSpec &spec) {
  FusionDecision decision;
  std::optional<double> recomputeLimit =
      spec.getNumber("cost_weights.recompute_limit");
  if (!recomputeLimit)
    return missingFigure(spec, "cost_weights.recompute_limit",
                         costModelName(spec));

  // Legality first, in the order a user would fix them.
  auto reject = [&](std::string reason) {
    if (decision.legal) {
      decision.legal = false;
      decision.reason = std::move(reason);
    }
  };
  if (facts.gather)
    reject("illegal: the consumer gathers from the producer result "
           "(data-dependent positions), fusing would recompute the whole "
           "producer for every tile");
  llvm::SmallVector<int64_t> racy;
  for (int64_t dim : facts.consumerReducedDims)
    if (llvm::is_contained(facts.workerSplitDims, dim))
      racy.push_back(dim);
  if (!racy.empty())
    reject("illegal: the consumer reduces along dim " + formatDims(racy) +
           " which the producer's scf.forall splits across parallel "
           "workers (fusing gives racy partial results)");
  if (!facts.operandsDominate)
    reject("illegal: consumer " + facts.nonDominatingOperand);
  if (facts.backToBackGemm) {
    decision.limits.push_back({"gemm2_n_vs_gemm1_n_tile", (double)facts.gemm2N,
                               (double)facts.gemm1NTile, true});
    decision.limits.push_back({"gemm1_n_full_vs_tile", (double)facts.gemm1NFull,
                               (double)facts.gemm1NTile, true});
    if (facts.gemm1NTile < facts.gemm1NFull)
      reject("illegal: back-to-back GEMM, the second GEMM contracts over "
             "all " +
             std::to_string(facts.gemm1NFull) +
             " columns of the first but its tile holds " +
             std::to_string(facts.gemm1NTile));
    else if (facts.gemm2N > facts.gemm1NTile)
      reject("illegal: back-to-back GEMM violates threadblock residence, "
             "the second GEMM's N = " +
             std::to_string(facts.gemm2N) +
             " does not fit the first GEMM's N tile = " +
             std::to_string(facts.gemm1NTile));
  } else {
    decision.limits.push_back({"recompute_factor",
                               (double)facts.recomputeFactor, *recomputeLimit,
                               true});
    if (facts.recomputeFactor > *recomputeLimit)
      reject("illegal: recomputation blow-up, the consumer reads each "
             "producer element " +
             std::to_string(facts.recomputeFactor) + " times (limit " +
             std::to_string((int64_t)*recomputeLimit) + ")");
  }
  decision.conservative = facts.group.dynamicShape;
  if (facts.group.dynamicUnbounded)
    reject("dynamic shapes without upper bounds: conservative decision, not "
           "fused");

  llvm::Error scored = llvm::Error::success();
  switch (spec.getKind()) {
  case HwKind::Gpu:
    scored = scoreGpuFusion(facts, spec, decision);
    break;
  case HwKind::Npu:
    scored = scoreNpuFusion(facts, spec, decision);
    break;
  case HwKind::Cpu:
    scored = scoreCpuFusion(facts, spec, decision);
    break;
  }
  if (scored)
    return std::move(scored);

  decision.cost = 0;
  for (const CostTerm &term : decision.terms)
    decision.cost += term.contribution();
  decision.profitable = decision.cost < 0;
  for (const CostLimit &limit : decision.limits) {
    if (limit.hard && !limit.holds()) {
      if (decision.legal && decision.reason.empty())
        decision.reason = "over limit: " + limit.name;
      decision.profitable = false;
    }
  }
  if (decision.legal && decision.reason.empty() && !decision.profitable) {
    const CostTerm *worst = nullptr;
    for (const CostTerm &term : decision.terms)
      if (term.contribution() > 0 &&
          (!worst || term.contribution() > worst->contribution()))
        worst = &term;
    decision.reason = "not profitable: cost >= 0";
    if (worst)
      decision.reason += ", dominated by " + worst->name;
  }
  if (decision.fuse() && decision.conservative)
    decision.reason = "";
  return decision;
}

//===----------------------------------------------------------------------===//
// Kernel metrics
//===----------------------------------------------------------------------===//

llvm::ArrayRef<llvm::StringRef> hwsched::getKnownMetrics() {
  static const llvm::StringRef metrics[] = {"registers_per_thread",
                                            "onchip_bytes", "offchip_bytes",
                                            "flops", "estimated_time_ns"};
  return metrics;
}

llvm::Expected<KernelMetrics>
hwsched::computeKernelMetrics(const KernelGroup &group, const HwSpec &spec) {
  KernelMetrics metrics;
  metrics.conservative = group.dynamicShape;
  int64_t alignment = spec.getInteger("onchip.alignment_bytes").value_or(1);
  std::optional<double> bandwidth =
      spec.getNumber("offchip.bandwidth_gb_per_s");
  std::optional<double> peak = spec.getNumber("compute.peak_fp32_gflops");
  if (!bandwidth || !peak)
    return missingFigure(spec,
                         !bandwidth ? "offchip.bandwidth_gb_per_s"
                                    : "compute.peak_fp32_gflops",
                         costModelName(spec));
  std::optional<double> matrixPeak =
      spec.getNumber("compute.peak_matrix_gflops");

  // Results consumed inside the group stay on chip.
  llvm::SmallVector<llvm::SmallVector<bool>> consumedInside(group.ops.size());
  for (auto [i, op] : llvm::enumerate(group.ops))
    consumedInside[i].assign(op.operands.size(), false);
  for (auto [i, producers] : llvm::enumerate(group.operandProducer))
    for (auto [k, producer] : llvm::enumerate(producers))
      if (producer >= 0)
        consumedInside[producer][group.operandResult[i][k]] = true;

  llvm::DenseSet<void *> seen;
  bool matrixOnly = true, anyFlops = false;
  for (auto [i, op] : llvm::enumerate(group.ops)) {
    metrics.flops += op.flops;
    if (op.flops > 0) {
      anyFlops = true;
      bool lowPrecision = true;
      for (const OperandFeatures &operand : op.operands)
        if (!operand.isInit && operand.elementBits > 16)
          lowPrecision = false;
      matrixOnly &= op.isCubeLike() && lowPrecision;
    }
    unsigned result = 0;
    for (auto [k, operand] : llvm::enumerate(op.operands)) {
      if (operand.isScalar)
        continue;
      if (seen.insert(operand.value.getAsOpaquePointer()).second)
        metrics.onchipBytes += costmodel::alignTo(operand.bytes, alignment);
      bool internal = group.operandProducer[i][k] >= 0;
      if (operand.isInit) {
        if (!consumedInside[i][result])
          metrics.offchipBytes += operand.bytes;
        if (operand.initIsRead && !internal)
          metrics.offchipBytes += operand.bytes;
        ++result;
      } else if (!internal) {
        metrics.offchipBytes += operand.bytes;
      }
    }
  }
  double computePeak =
      (anyFlops && matrixOnly && matrixPeak) ? *matrixPeak : *peak;
  // GFLOP/s is FLOP per ns and GB/s is byte per ns.
  double computeNs = metrics.flops / computePeak;
  double memoryNs = metrics.offchipBytes / *bandwidth;
  metrics.computeBound = computeNs > memoryNs;
  metrics.estimatedTimeNs =
      (int64_t)std::ceil(std::max(computeNs, memoryNs) - 1e-9);

  if (spec.getKind() == HwKind::Gpu) {
    llvm::Expected<RegisterCalibration> calibration =
        loadRegisterCalibration(spec, costModelName(spec));
    if (!calibration)
      return calibration.takeError();
    metrics.registers = estimateRegisters(group, *calibration);
    metrics.registersPerThread = metrics.registers.registers;
  }
  return metrics;
}

std::optional<int64_t> hwsched::getMetric(const KernelMetrics &metrics,
                                          llvm::StringRef metric) {
  if (metric == "registers_per_thread")
    return metrics.registersPerThread;
  if (metric == "onchip_bytes")
    return metrics.onchipBytes;
  if (metric == "offchip_bytes")
    return metrics.offchipBytes;
  if (metric == "flops")
    return metrics.flops;
  if (metric == "estimated_time_ns")
    return metrics.estimatedTimeNs;
  return std::nullopt;
}

//===----------------------------------------------------------------------===//
// Printing
//===----------------------------------------------------------------------===//

/// Prints a number compactly (integers without a fraction).
static void printNumber(llvm::raw_ostream &os, double value) {
  if (std::fabs(value - std::llround(value)) < 1e-9 && std::fabs(value) < 1e15)
    os << (int64_t)std::llround(value);
  else
    os << llvm::format("%.4g", value);
}

std::string hwsched::formatDecisionTerms(const FusionDecision &decision) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "cost=";
  printNumber(os, decision.cost);
  os << " =";
  for (const CostTerm &term : decision.terms) {
    os << " " << (term.sign > 0 ? "+" : "-");
    printNumber(os, term.weight);
    os << "*" << term.name << "(";
    printNumber(os, term.value);
    os << ")";
  }
  os << "; limits:";
  llvm::interleave(
      decision.limits, os,
      [&](const CostLimit &limit) {
        os << " " << limit.name << " ";
        printNumber(os, limit.value);
        os << " <= ";
        printNumber(os, limit.limit);
        os << " (" << (limit.holds() ? "ok" : "VIOLATED")
           << (limit.hard ? "" : ", soft") << ")";
      },
      ",");
  return text;
}

std::string hwsched::formatRegisterEstimate(const RegisterEstimate &est) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "registers=" << est.registers << " (acc=" << est.terms.accumulators
     << " frag=" << est.terms.fragments << " epi=" << est.terms.epilogueInputs
     << " tmp=" << est.terms.temporaries
     << " addr=" << est.terms.addressOperands
     << " staged=" << est.terms.stagedOperands
     << " inflight=" << est.stepsInFlight << " step=" << est.fragmentsPerStep
     << " floor=" << est.floorRegisters << " tile=[";
  llvm::interleave(est.threadTile, os, ",");
  os << "] " << est.tileSource << (est.conservative ? ", conservative" : "")
     << ")";
  return text;
}
