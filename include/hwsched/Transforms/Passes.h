//===- Passes.h - hwsched passes --------------------------------*- C++ -*-===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//

#ifndef HWSCHED_TRANSFORMS_PASSES_H
#define HWSCHED_TRANSFORMS_PASSES_H

#include "mlir/Pass/Pass.h"

namespace hwsched {

#define GEN_PASS_DECL
#include "hwsched/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "hwsched/Transforms/Passes.h.inc"

} // namespace hwsched

#endif // HWSCHED_TRANSFORMS_PASSES_H
