//===- AttachTargetSpec.cpp - Record a spec on the payload ----------------===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//

#include "hwsched/Transforms/Passes.h"

#include "hwsched/HwSpec/HwSpecLoader.h"
#include "hwsched/HwSpec/SpecAttributes.h"
#include "hwsched/HwSpec/TargetResolution.h"
#include "hwsched/Support/Refusal.h"

#include "mlir/Dialect/DLTI/DLTI.h"

namespace hwsched {
#define GEN_PASS_DEF_HWSCHEDATTACHTARGETSPEC
#include "hwsched/Transforms/Passes.h.inc"
} // namespace hwsched

using namespace mlir;

namespace {
struct AttachTargetSpecPass
    : hwsched::impl::HwschedAttachTargetSpecBase<AttachTargetSpecPass> {
  using Base::Base;

  void runOnOperation() override {
    Operation *op = getOperation();
    std::string name = target.empty() ? hwsched::getDefaultTarget() : target;
    llvm::Expected<hwsched::HwSpec> spec = hwsched::loadSpec(name);
    if (!spec) {
      op->emitError() << llvm::toString(spec.takeError());
      return signalPassFailure();
    }
    llvm::Expected<Attribute> attr = hwsched::buildTargetSystemSpec(
        *spec, name, op->getAttr(DLTIDialect::kTargetSystemDescAttrName),
        op->getContext());
    if (!attr) {
      op->emitError() << hwsched::takeRefusalMessage(attr.takeError());
      return signalPassFailure();
    }
    op->setAttr(DLTIDialect::kTargetSystemDescAttrName, *attr);
  }
};
} // namespace
