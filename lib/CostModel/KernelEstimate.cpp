//===- KernelEstimate.cpp - One metric of one kernel ----------------------===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//

#include "hwsched/CostModel/KernelEstimate.h"

#include "hwsched/Support/Refusal.h"

#include "mlir/IR/Operation.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace hwsched;

void KernelEstimate::print(llvm::raw_ostream &os) const {
  os << "estimate: registers_per_thread=" << kernel.registersPerThread
     << " onchip_bytes=" << kernel.onchipBytes
     << " offchip_bytes=" << kernel.offchipBytes << " flops=" << kernel.flops
     << " estimated_time_ns=" << kernel.estimatedTimeNs << " ("
     << (kernel.computeBound ? "compute" : "memory") << " bound)";
  if (kernel.registersPerThread)
    os << "; " << formatRegisterEstimate(kernel.registers);
  if (kernel.conservative)
    os << " [conservative: dynamic shapes]";
  os << "; kernel:";
  for (const OpFeatures &member : group.ops)
    os << " {" << formatOpFeatures(member) << "}";
}

std::string KernelEstimate::conservativeRemark() const {
  return "dynamic shapes: conservative estimate of '" + metric + "'";
}

llvm::Error hwsched::checkMetric(StringRef metric) {
  if (llvm::is_contained(getKnownMetrics(), metric))
    return llvm::Error::success();
  std::string message;
  llvm::raw_string_ostream os(message);
  os << "unknown metric '" << metric << "'; known metrics: ";
  llvm::interleaveComma(getKnownMetrics(), os);
  return refuse(nullptr, message);
}

llvm::Expected<KernelEstimate> hwsched::estimateKernel(Operation *payload,
                                                       const HwSpec &spec,
                                                       StringRef metric) {
  if (metric == "registers_per_thread" && spec.getKind() != HwKind::Gpu)
    return refuse(nullptr, "metric 'registers_per_thread' is modelled for GPU "
                           "targets only; '" +
                               spec.getName() + "' is a " +
                               stringifyHwKind(spec.getKind()));
  KernelEstimate estimate;
  estimate.payload = payload;
  estimate.metric = metric.str();
  if (!collectKernelGroup(payload, estimate.group))
    return refuse(nullptr, "cannot describe the payload op");
  bool sizeDependent = metric != "registers_per_thread";
  if (sizeDependent && estimate.group.dynamicUnbounded)
    return refuse(Refusal(nullptr, "metric '" + metric +
                                       "' needs static shapes or upper "
                                       "bounds of the dynamic ones")
                      .note(payload->getLoc(), "payload op"));
  llvm::Expected<KernelMetrics> kernel =
      computeKernelMetrics(estimate.group, spec);
  if (!kernel)
    return kernel.takeError();
  estimate.kernel = std::move(*kernel);
  estimate.value = *getMetric(estimate.kernel, metric);
  return estimate;
}
