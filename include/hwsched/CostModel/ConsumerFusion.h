//===- ConsumerFusion.h - Which consumers to fuse into a producer -*- C++ -*-=//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//
//
// filter_fusable_consumers' decision for one producer: every structured
// consumer the analysis can describe, scored by the fusion cost model of the
// spec's target (FusionCostModel.h). Each pair prints the remark `explain`
// reports, so tests and benches read the same text.
//
//===----------------------------------------------------------------------===//

#ifndef HWSCHED_COSTMODEL_CONSUMERFUSION_H
#define HWSCHED_COSTMODEL_CONSUMERFUSION_H

#include "hwsched/CostModel/FusionCostModel.h"

#include <vector>

#include <string>

namespace mlir {
class Operation;
} // namespace mlir

namespace hwsched {

/// The decision for one producer/consumer pair on one spec.
struct ConsumerFusion {
  mlir::Operation *producer = nullptr, *consumer = nullptr;
  FusionDecision decision;
  std::string specName;

  /// "fusion of 'c' into 'p' on <spec>: fuse|reject (reason); <terms>;
  /// <registers>": every figure behind the decision.
  void print(llvm::raw_ostream &os) const;
  /// "dynamic shapes: conservative fusion decision (reject: reason)": what
  /// is reported without `explain` when the shapes were dynamic.
  std::string conservativeRemark() const;
};

/// Decides every consumer of `producer` (collectConsumers, in program order)
/// that the analysis can describe, on `spec`. A refusal naming the key path
/// when the spec lacks a figure the model needs.
llvm::Expected<std::vector<ConsumerFusion>>
decideConsumerFusions(mlir::Operation *producer, const HwSpec &spec);

} // namespace hwsched

#endif // HWSCHED_COSTMODEL_CONSUMERFUSION_H
