//===- RegisterEstimate.cpp - Registers per thread of a GPU kernel --------===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//

#include "hwsched/Analysis/RegisterEstimate.h"
#include "hwsched/Analysis/MemRefUtils.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Interfaces/ValueBoundsOpInterface.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/ADT/DenseSet.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace hwsched;

llvm::ArrayRef<llvm::StringRef> hwsched::getRegisterCalibrationKeys() {
  static const llvm::StringRef keys[] = {
      "cost_weights.reg_floor_base",
      "cost_weights.default_thread_tile_elements",
      "cost_weights.default_reduction_tile",
      "pipeline.units.smem_load.latency_cycles",
      "pipeline.units.smem_load.issue_cycles"};
  return keys;
}

llvm::Expected<RegisterCalibration>
hwsched::loadRegisterCalibration(const HwSpec &spec,
                                 const llvm::Twine &neededBy) {
  double values[5];
  if (llvm::Error err =
          spec.getNumbers(getRegisterCalibrationKeys(), values, neededBy))
    return std::move(err);
  RegisterCalibration out;
  out.floorBase = values[0];
  out.defaultThreadTileElements = std::max<int64_t>(1, std::llround(values[1]));
  out.defaultReductionTile = std::max<int64_t>(1, std::llround(values[2]));
  out.smemLatency = std::max(1.0, values[3]);
  out.smemIssue = std::max(1.0, values[4]);
  return out;
}

/// Registers read once at launch and kept: the thread and block ids (x, y)
/// the addresses are computed from.
static constexpr int64_t kLaunchRegisters = 4;
/// The 64-bit induction variables of the K-tile and K-step loops.
static constexpr int64_t kLoopRegisters = 4;
/// Words of a 64-bit address (`.address_size 64`).
static constexpr int64_t kPointerWords = 2;

int64_t hwsched::getStepsInFlight(const RegisterModelTerms &terms,
                                  const RegisterCalibration &cal) {
  // Only the loads of a K-step loop (one reduction element per iteration)
  // that the compiler can unroll are hoisted across steps.
  if (terms.kStepTrip <= 1)
    return 1;
  // Little's law on the shared-memory load pipe: more loads in flight than
  // latency / issue interval do not return any sooner.
  auto littlesLaw = (int64_t)std::ceil(cal.smemLatency / cal.smemIssue);
  // The step in use plus the later steps whose FMAs (one per cycle in the
  // thread's stream) cover a load round trip of 2L.
  int64_t fmas = std::max<int64_t>(terms.fmasPerStep, 1);
  int64_t cover = 1 + (int64_t)std::ceil(2.0 * cal.smemLatency / fmas);
  return std::max<int64_t>(1, std::min({terms.kStepTrip, littlesLaw, cover}));
}

int64_t hwsched::evaluateRegisterModel(const RegisterModelTerms &terms,
                                       const RegisterCalibration &cal) {
  int64_t fixed =
      kLaunchRegisters + kLoopRegisters +
      kPointerWords * (terms.addressOperands + terms.stagedOperands);
  // Fragments are dead once the epilogue runs: the demand is the peak of the
  // two phases, not their sum.
  int64_t mainLoop =
      terms.accumulators + terms.fragments * getStepsInFlight(terms, cal);
  int64_t epilogue =
      terms.accumulators + terms.epilogueInputs + terms.temporaries;
  return std::max<int64_t>(1, fixed + std::max(mainLoop, epilogue));
}

/// A buffer private to the thread (memref.alloca or the private address
/// space): promoted to registers, it needs no pointer; its values are
/// counted where they are held (e.g. the accumulators).
static bool isPrivateBuffer(Value root) {
  if (root.getDefiningOp<memref::AllocaOp>())
    return true;
  auto type = dyn_cast<MemRefType>(root.getType());
  auto space =
      type ? dyn_cast_or_null<gpu::AddressSpaceAttr>(type.getMemorySpace())
           : nullptr;
  return space && space.getValue() == gpu::AddressSpace::Private;
}

/// An operand read from shared memory (#gpu.address_space<workgroup>).
static bool isSharedMemory(Value value) {
  auto type = dyn_cast<MemRefType>(value.getType());
  return type && type.getMemorySpace() &&
         gpu::GPUDialect::isWorkgroupMemoryAddressSpace(type.getMemorySpace());
}

/// The trip count of the scf.for directly around `op` (the K-step loop of a
/// per-thread contraction); 1 without such a loop. A dynamic trip count (a
/// partial K tile) counts with its constant upper bound, else as unbounded:
/// the compiler unrolls such a loop by a factor with a remainder and hoists
/// the loads the same way, so only the other limits of the steps in flight
/// apply.
static int64_t getEnclosingTripCount(Operation *op) {
  auto loop = op ? dyn_cast_or_null<scf::ForOp>(op->getParentOp()) : nullptr;
  if (!loop)
    return 1;
  std::optional<int64_t> lb = getConstantIntValue(loop.getLowerBound());
  std::optional<int64_t> ub = getConstantIntValue(loop.getUpperBound());
  std::optional<int64_t> step = getConstantIntValue(loop.getStep());
  if (!ub) {
    FailureOr<int64_t> bound = ValueBoundsConstraintSet::computeConstantBound(
        presburger::BoundType::UB,
        ValueBoundsConstraintSet::Variable(loop.getUpperBound()),
        /*stopCondition=*/nullptr, /*closedUB=*/true);
    if (succeeded(bound))
      ub = *bound;
    else if (lb && step && *step > 0)
      return std::numeric_limits<int64_t>::max();
  }
  if (!lb || !ub || !step || *step <= 0 || *ub <= *lb)
    return 1;
  return (*ub - *lb + *step - 1) / *step;
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

/// A consumer iterates over the tile its in-group producer hands it: the
/// per-loop extents of op `i` from its first shaped operand produced earlier
/// in the group (reduction loops whole); empty when there is none.
static SmallVector<int64_t>
getInheritedExtents(const KernelGroup &group, unsigned i,
                    ArrayRef<SmallVector<int64_t>> extents) {
  const OpFeatures &op = group.ops[i];
  SmallVector<int64_t> ext;
  for (auto [k, operand] : llvm::enumerate(op.operands)) {
    int producer = group.operandProducer[i][k];
    if (producer < 0 || producer >= (int)i || operand.isScalar)
      continue;
    const OpFeatures &prod = group.ops[producer];
    const OperandFeatures *prodInit = prod.getInit(group.operandResult[i][k]);
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
      int64_t tile =
          prodLoop >= 0 ? extents[producer][prodLoop] : prodInit->shape[dim];
      ext[loop] = std::min(op.loopRanges[loop], tile);
    }
    break;
  }
  return ext;
}

/// The per-loop extents one thread covers in op `i`: its shapes when it is
/// tiled to threads (also when its consumer, not yet fused, is outside the
/// thread loop), else the tile its producer hands it, else the default tile.
static SmallVector<int64_t>
getThreadExtents(const KernelGroup &group, unsigned i,
                 ArrayRef<SmallVector<int64_t>> extents,
                 const RegisterCalibration &cal) {
  const OpFeatures &op = group.ops[i];
  if (group.threadTiled || op.threadTiled)
    return SmallVector<int64_t>(op.loopRanges.begin(), op.loopRanges.end());
  SmallVector<int64_t> ext = getInheritedExtents(group, i, extents);
  if (ext.empty())
    ext = getDefaultExtents(op, cal);
  return ext;
}

namespace {
/// The running state of estimateRegisters over the ops of a group.
struct RegisterCount {
  const KernelGroup &group;
  RegisterEstimate &est;
  /// Distinct buffers whose addresses the kernel keeps.
  llvm::DenseSet<void *> addressed;
  /// The op whose tile is reported reduces / is a fill.
  bool anchorReduces = false, anchorIsFill = false;
};

/// How the inputs of one op reach its registers.
struct InputSources {
  /// A copy into a private buffer (the accumulator promoted for the K loop)
  /// loads the accumulators themselves: nothing beyond them is live.
  bool intoPrivate = false;
  /// An input produced in the group, or read from a private buffer (the
  /// promoted accumulator), already sits in registers.
  bool hasInternalInput = false;
};
} // namespace

/// Reports the tile of the first op that reduces (the kernel's main loop),
/// else of the first op that is not a fill.
static void updateReportedTile(RegisterCount &count, const OpFeatures &op,
                               ArrayRef<int64_t> ext) {
  RegisterEstimate &est = count.est;
  if (est.threadTile.empty() || (!count.anchorReduces && op.hasReduction()) ||
      (count.anchorIsFill && op.opClass != OpClass::Fill)) {
    est.threadTile.assign(ext.begin(), ext.end());
    count.anchorReduces = op.hasReduction();
    count.anchorIsFill = op.opClass == OpClass::Fill;
  }
}

/// Where the inputs of op `i` come from (see InputSources).
static InputSources getInputSources(const KernelGroup &group, unsigned i,
                                    bool reduces) {
  InputSources sources;
  for (auto [k, operand] : llvm::enumerate(group.ops[i].operands)) {
    if (operand.isScalar)
      continue;
    if (operand.isInit && isPrivateBuffer(getViewRoot(operand.value)))
      sources.intoPrivate = !reduces;
    if (!operand.isInit && (group.operandProducer[i][k] >= 0 ||
                            isPrivateBuffer(getViewRoot(operand.value))))
      sources.hasInternalInput = true;
  }
  return sources;
}

/// Adds the registers of op `i`'s operands (thread tile `ext`, one
/// reduction step `stepExt`) to the terms: accumulators, fragments,
/// temporaries, epilogue inputs, and the buffers addressed. Returns whether
/// a reducing op loads a fragment.
static bool addOperandTerms(RegisterCount &count, unsigned i,
                            ArrayRef<int64_t> ext, ArrayRef<int64_t> stepExt) {
  const KernelGroup &group = count.group;
  const OpFeatures &op = group.ops[i];
  RegisterModelTerms &terms = count.est.terms;
  bool reduces = op.hasReduction();
  InputSources sources = getInputSources(group, i, reduces);
  bool loads = false;
  for (auto [k, operand] : llvm::enumerate(op.operands)) {
    if (operand.isScalar)
      continue;
    bool internal = group.operandProducer[i][k] >= 0;
    Value root = getViewRoot(operand.value);
    bool isPrivate = isPrivateBuffer(root);
    int64_t words =
        registerWords(getTileElements(operand, ext), operand.elementBits);
    if (operand.isInit) {
      if (reduces)
        terms.accumulators += words;
      else if (!sources.intoPrivate && !sources.hasInternalInput)
        terms.temporaries += words;
    } else if (reduces) {
      // A value produced in the group already sits in registers (the
      // producer's accumulators): only loaded operands are fragments.
      if (internal)
        continue;
      terms.fragments += words;
      count.est.fragmentsPerStep +=
          registerWords(getTileElements(operand, stepExt), operand.elementBits);
      loads = true;
      if (isSharedMemory(operand.value) && !isPrivate)
        ++terms.stagedOperands;
    } else if (!internal && !sources.intoPrivate && !isPrivate) {
      terms.epilogueInputs += words;
    }
    if (!internal && !isPrivate)
      count.addressed.insert(root.getAsOpaquePointer());
  }
  return loads;
}

/// The FMAs per step of a reducing op, and the trip count of its K-step
/// loop. The loop around an op that does one element of each reduction loop
/// per iteration is the K-step loop whose loads the compiler hoists. An op
/// doing several (a K step of 4) already holds their fragments together
/// (`fragments` counts them all), and ptxas does not hoist the next
/// iteration's on top (bench/costmodel corpus).
static void addReductionTerms(RegisterModelTerms &terms, const OpFeatures &op,
                              ArrayRef<int64_t> ext, bool loads) {
  int64_t fmas = 1;
  for (int64_t e : ext)
    fmas *= std::max<int64_t>(e, 1);
  terms.fmasPerStep = std::max(terms.fmasPerStep, fmas);
  bool oneStep =
      llvm::all_of(llvm::zip(op.isReductionLoop, ext), [](auto pair) {
        return !std::get<0>(pair) || std::get<1>(pair) == 1;
      });
  if (loads && oneStep)
    terms.kStepTrip = std::max(terms.kStepTrip, getEnclosingTripCount(op.op));
}

/// Adds the terms of op `i` with thread tile `ext`. A fill only initialises
/// what the next op accumulates into: it adds none.
static void addOpTerms(RegisterCount &count, unsigned i,
                       ArrayRef<int64_t> ext) {
  const OpFeatures &op = count.group.ops[i];
  if (op.opClass == OpClass::Fill)
    return;
  // One element of every reduction loop: the operands of one step.
  SmallVector<int64_t> stepExt(ext);
  for (auto [loop, isReduction] : llvm::enumerate(op.isReductionLoop))
    if (isReduction)
      stepExt[loop] = 1;
  bool loads = addOperandTerms(count, i, ext, stepExt);
  if (op.hasReduction())
    addReductionTerms(count.est.terms, op, ext, loads);
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
  RegisterCount count{group, est, {}};
  RegisterModelTerms &terms = est.terms;

  for (unsigned i = 0; i < group.ops.size(); ++i) {
    extents[i] = getThreadExtents(group, i, extents, cal);
    updateReportedTile(count, group.ops[i], extents[i]);
    addOpTerms(count, i, extents[i]);
  }
  terms.addressOperands = count.addressed.size();
  est.stepsInFlight = getStepsInFlight(terms, cal);
  est.registers = evaluateRegisterModel(terms, cal);
  double floor = cal.floorBase + terms.accumulators + est.fragmentsPerStep;
  est.floorRegisters = std::max<int64_t>(1, (int64_t)std::ceil(floor - 1e-9));
  return est;
}
