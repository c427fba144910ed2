//===- ConsumerFusion.cpp - Which consumers to fuse into a producer -------===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//

#include "hwsched/CostModel/ConsumerFusion.h"

#include "mlir/IR/Operation.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace hwsched;

void ConsumerFusion::print(llvm::raw_ostream &os) const {
  const FusionDecision &d = decision;
  os << "fusion of '" << consumer->getName().getStringRef() << "' into '"
     << producer->getName().getStringRef() << "' on " << specName << ": "
     << (d.fuse() ? "fuse" : "reject");
  if (!d.reason.empty())
    os << " (" << d.reason << ")";
  if (d.conservative)
    os << " [conservative: dynamic shapes]";
  os << "; " << formatDecisionTerms(d);
  if (d.registers)
    os << "; " << formatRegisterEstimate(*d.registers);
}

std::string ConsumerFusion::conservativeRemark() const {
  return std::string("dynamic shapes: conservative fusion decision (") +
         (decision.fuse() ? "fuse" : "reject") +
         (decision.reason.empty() ? "" : ": " + decision.reason) + ")";
}

llvm::Expected<std::vector<ConsumerFusion>>
hwsched::decideConsumerFusions(Operation *producer, const HwSpec &spec) {
  std::vector<ConsumerFusion> pairs;
  for (Operation *consumer : collectConsumers(producer)) {
    FusionPairFacts facts;
    if (!analyzeFusionPair(producer, consumer, facts))
      continue;
    llvm::Expected<FusionDecision> decision = decideFusion(facts, spec);
    if (!decision)
      return decision.takeError();
    pairs.push_back(
        {producer, consumer, std::move(*decision), spec.getName().str()});
  }
  return pairs;
}
