//===- KernelEstimate.h - One metric of one kernel --------------*- C++ -*-===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//
//
// transform.cost_model.estimate's decision for one payload op: its kernel
// group (FusionAnalysis.h) measured by the cost model of the spec's target
// (computeKernelMetrics), and the value of the metric the script asks for.
// The estimate prints the remark `explain` reports.
//
//===----------------------------------------------------------------------===//

#ifndef HWSCHED_COSTMODEL_KERNELESTIMATE_H
#define HWSCHED_COSTMODEL_KERNELESTIMATE_H

#include "hwsched/CostModel/FusionCostModel.h"

#include <string>

namespace mlir {
class Operation;
} // namespace mlir

namespace hwsched {

/// The metrics of one payload op's kernel and the value asked for.
struct KernelEstimate {
  mlir::Operation *payload = nullptr;
  KernelGroup group;
  KernelMetrics kernel;
  /// The metric asked for and its value.
  std::string metric;
  int64_t value = 0;

  /// "estimate: registers_per_thread=.. onchip_bytes=.. ... (memory bound);
  /// <registers>; kernel: {<op>} ...": every metric and the ops behind them.
  void print(llvm::raw_ostream &os) const;
  /// "dynamic shapes: conservative estimate of '<metric>'": what is reported
  /// without `explain` when the shapes were dynamic.
  std::string conservativeRemark() const;
};

/// A refusal listing the known metrics when `metric` is not one of them.
llvm::Error checkMetric(llvm::StringRef metric);

/// Estimates `metric` (a known one) for the kernel of `payload` on `spec`. A
/// refusal when the metric is not modelled for the target, the payload
/// cannot be described, a size-dependent metric meets unbounded dynamic
/// shapes, or the spec lacks a figure the model needs.
llvm::Expected<KernelEstimate> estimateKernel(mlir::Operation *payload,
                                              const HwSpec &spec,
                                              llvm::StringRef metric);

} // namespace hwsched

#endif // HWSCHED_COSTMODEL_KERNELESTIMATE_H
