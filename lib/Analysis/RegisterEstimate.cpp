//===- RegisterEstimate.cpp - Registers per thread of a GPU kernel --------===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//

#include "hwsched/Analysis/RegisterEstimate.h"

#include "llvm/ADT/DenseSet.h"

#include <cmath>

using namespace mlir;
using namespace hwsched;

llvm::ArrayRef<llvm::StringRef> hwsched::getRegisterCalibrationKeys() {
  static const llvm::StringRef keys[] = {
      "cost_weights.reg_base",
      "cost_weights.reg_per_accumulator",
      "cost_weights.reg_per_fragment",
      "cost_weights.reg_per_epilogue_input",
      "cost_weights.reg_per_temporary",
      "cost_weights.reg_per_address_operand",
      "cost_weights.reg_floor_base",
      "cost_weights.default_thread_tile_elements",
      "cost_weights.default_reduction_tile"};
  return keys;
}

bool hwsched::loadRegisterCalibration(const HwSpec &spec,
                                      RegisterCalibration &out,
                                      std::string &missing) {
  double *fields[] = {&out.base,         &out.perAccumulator,
                      &out.perFragment,  &out.perEpilogueInput,
                      &out.perTemporary, &out.perAddressOperand,
                      &out.floorBase};
  llvm::ArrayRef<llvm::StringRef> keys = getRegisterCalibrationKeys();
  for (auto [i, field] : llvm::enumerate(fields)) {
    std::optional<double> value = spec.getNumber(keys[i]);
    if (!value) {
      missing = keys[i].str();
      return false;
    }
    *field = *value;
  }
  std::optional<double> tile = spec.getNumber(keys[7]);
  std::optional<double> step = spec.getNumber(keys[8]);
  if (!tile || !step) {
    missing = (!tile ? keys[7] : keys[8]).str();
    return false;
  }
  out.defaultThreadTileElements = std::max<int64_t>(1, std::llround(*tile));
  out.defaultReductionTile = std::max<int64_t>(1, std::llround(*step));
  return true;
}

int64_t hwsched::evaluateRegisterModel(const RegisterModelTerms &terms,
                                       const RegisterCalibration &cal) {
  // Fragments are dead once the epilogue runs: the demand is the peak of the
  // two phases, not their sum.
  double mainLoop = cal.perAccumulator * terms.accumulators +
                    cal.perFragment * terms.fragments;
  double epilogue = cal.perAccumulator * terms.accumulators +
                    cal.perEpilogueInput * terms.epilogueInputs +
                    cal.perTemporary * terms.temporaries;
  double demand = cal.base + cal.perAddressOperand * terms.addressOperands +
                  std::max(mainLoop, epilogue);
  return std::max<int64_t>(1, (int64_t)std::ceil(demand - 1e-9));
}

/// Per-thread extents for an op that is not tiled to threads: the spec's
/// default thread tile spread over the two innermost parallel dims of the
/// result (as square as the extents allow), the default reduction step on
/// the innermost reduction loop, 1 elsewhere.
static SmallVector<int64_t> getDefaultExtents(const OpFeatures &op,
                                              const RegisterCalibration &cal) {
  SmallVector<int64_t> ext(op.loopRanges.size(), 1);
  SmallVector<int64_t> parallel;
  if (const OperandFeatures *init = op.getInit())
    for (int64_t loop : init->loopDims)
      if (loop >= 0 && !op.isReductionLoop[loop])
        parallel.push_back(loop);
  if (parallel.empty())
    for (unsigned loop = 0; loop < op.loopRanges.size(); ++loop)
      if (!op.isReductionLoop[loop])
        parallel.push_back(loop);
  int64_t budget = cal.defaultThreadTileElements;
  if (parallel.size() == 1) {
    ext[parallel[0]] = std::min(op.loopRanges[parallel[0]], budget);
  } else if (parallel.size() >= 2) {
    int64_t inner = parallel.back(), outer = parallel[parallel.size() - 2];
    int64_t side =
        std::max<int64_t>(1, (int64_t)std::llround(std::sqrt((double)budget)));
    ext[inner] = std::min(op.loopRanges[inner], side);
    ext[outer] = std::min(op.loopRanges[outer],
                          std::max<int64_t>(1, budget / ext[inner]));
  }
  for (int64_t loop = (int64_t)op.loopRanges.size() - 1; loop >= 0; --loop) {
    if (op.isReductionLoop[loop]) {
      ext[loop] = std::min(op.loopRanges[loop], cal.defaultReductionTile);
      break;
    }
  }
  return ext;
}

/// Elements of `operand` one thread touches with per-loop extents `ext`.
static int64_t getTileElements(const OperandFeatures &operand,
                               ArrayRef<int64_t> ext) {
  if (operand.loopDims.empty()) {
    int64_t n = 1;
    for (int64_t e : ext)
      n *= e;
    return std::min(n, operand.numElements);
  }
  int64_t n = 1;
  for (auto [result, loop] : llvm::enumerate(operand.loopDims)) {
    if (loop >= 0) {
      n *= ext[loop];
      continue;
    }
    // A window result (d1 + d4): the tile spans the sum of the extents
    // minus the overlap, e.g. tw + kw - 1 input columns.
    int64_t span = 1;
    if (result < operand.resultLoopDims.size())
      for (int64_t dim : operand.resultLoopDims[result])
        span += ext[dim] - 1;
    n *= span;
  }
  return n;
}

RegisterEstimate hwsched::estimateRegisters(const KernelGroup &group,
                                            const RegisterCalibration &cal) {
  RegisterEstimate est;
  est.tileSource =
      group.threadTiled || (!group.ops.empty() && group.ops.front().threadTiled)
          ? "tiled"
          : "default";
  est.conservative = group.dynamicShape;
  SmallVector<SmallVector<int64_t>> extents(group.ops.size());
  llvm::DenseSet<void *> addressed;
  bool anchorReduces = false, anchorIsFill = false;

  for (auto [i, op] : llvm::enumerate(group.ops)) {
    SmallVector<int64_t> &ext = extents[i];
    // An op tiled to threads has its per-thread tile in its shapes (also
    // when its consumer, not yet fused, is outside the thread loop).
    if (group.threadTiled || op.threadTiled) {
      ext.assign(op.loopRanges.begin(), op.loopRanges.end());
    } else {
      // A consumer iterates over the tile its in-group producer hands it.
      for (auto [k, operand] : llvm::enumerate(op.operands)) {
        int producer = group.operandProducer[i][k];
        if (producer < 0 || producer >= (int)i || operand.isScalar)
          continue;
        const OpFeatures &prod = group.ops[producer];
        const OperandFeatures *prodInit =
            prod.getInit(group.operandResult[i][k]);
        if (!prodInit)
          continue;
        ext.assign(op.loopRanges.size(), 1);
        for (unsigned loop = 0; loop < op.loopRanges.size(); ++loop)
          if (op.isReductionLoop[loop])
            ext[loop] = op.loopRanges[loop];
        for (auto [dim, loop] : llvm::enumerate(operand.loopDims)) {
          if (loop < 0 || dim >= prodInit->loopDims.size())
            continue;
          int64_t prodLoop = prodInit->loopDims[dim];
          int64_t tile = prodLoop >= 0 ? extents[producer][prodLoop]
                                       : prodInit->shape[dim];
          ext[loop] = std::min(op.loopRanges[loop], tile);
        }
        break;
      }
      if (ext.empty())
        ext = getDefaultExtents(op, cal);
    }
    // Report the tile of the first op that reduces (the kernel's main
    // loop), else of the first op that is not a fill.
    if (est.threadTile.empty() || (!anchorReduces && op.hasReduction()) ||
        (anchorIsFill && op.opClass != OpClass::Fill)) {
      est.threadTile = ext;
      anchorReduces = op.hasReduction();
      anchorIsFill = op.opClass == OpClass::Fill;
    }

    // A fill only initialises what the next op accumulates into.
    if (op.opClass == OpClass::Fill)
      continue;
    bool reduces = op.hasReduction();
    // One element of every reduction loop: the operands of one step.
    SmallVector<int64_t> stepExt(ext);
    for (auto [loop, isReduction] : llvm::enumerate(op.isReductionLoop))
      if (isReduction)
        stepExt[loop] = 1;
    for (auto [k, operand] : llvm::enumerate(op.operands)) {
      if (operand.isScalar)
        continue;
      bool internal = group.operandProducer[i][k] >= 0;
      int64_t words =
          registerWords(getTileElements(operand, ext), operand.elementBits);
      if (operand.isInit) {
        (reduces ? est.accumulators : est.temporaries) += words;
      } else if (reduces) {
        // A value produced in the group already sits in registers (the
        // producer's accumulators): only loaded operands are fragments.
        if (internal)
          continue;
        est.fragments += words;
        est.fragmentsPerStep += registerWords(getTileElements(operand, stepExt),
                                              operand.elementBits);
      } else if (!internal) {
        est.epilogueInputs += words;
      }
      if (!internal)
        addressed.insert(operand.value.getAsOpaquePointer());
    }
  }
  est.addressOperands = addressed.size();
  RegisterModelTerms terms;
  terms.accumulators = est.accumulators;
  terms.fragments = est.fragments;
  terms.epilogueInputs = est.epilogueInputs;
  terms.temporaries = est.temporaries;
  terms.addressOperands = est.addressOperands;
  est.registers = evaluateRegisterModel(terms, cal);
  double floor = cal.floorBase + est.accumulators + est.fragmentsPerStep;
  est.floorRegisters = std::max<int64_t>(1, (int64_t)std::ceil(floor - 1e-9));
  return est;
}
