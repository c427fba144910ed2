//===- RecurrenceExplanation.h - Why a loop's RecMII is what it is -*- C++ -*-//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//
//
// The recurrence that sets a loop's RecMII, in the user's terms: the ops of
// the dependence cycle and what carries each loop-carried edge (a value in
// an iter_arg, one buffer, two roots that may alias, unknown memory), with
// what lifts it when the user can (noalias on function arguments). Used by
// schedule_stages' `explain` remarks.
//
//===----------------------------------------------------------------------===//

#ifndef HWSCHED_COSTMODEL_RECURRENCEEXPLANATION_H
#define HWSCHED_COSTMODEL_RECURRENCEEXPLANATION_H

#include "hwsched/CostModel/StageScheduler.h"

#include "llvm/Support/raw_ostream.h"

#include <string>
#include <vector>

namespace hwsched {

/// The critical recurrence of one loop body.
struct RecurrenceExplanation {
  int64_t recMII = 1;
  /// The cycle, as indices into the graph's edges, in cycle order.
  std::vector<unsigned> edges;
  /// Function arguments (by buffer index) whose possible aliasing carries a
  /// loop-carried edge of the cycle: marking them noalias lifts it.
  std::vector<unsigned> aliasingArguments;

  bool empty() const { return edges.empty(); }
  /// One sentence: the cycle, then the cause of each loop-carried edge.
  void print(llvm::raw_ostream &os, const LoopDependenceGraph &graph) const;
};

/// The recurrence that sets RecMII of `graph` under `config`; empty when
/// RecMII is 1.
RecurrenceExplanation explainRecurrence(const LoopDependenceGraph &graph,
                                        const SchedulerConfig &config);

} // namespace hwsched

#endif // HWSCHED_COSTMODEL_RECURRENCEEXPLANATION_H
