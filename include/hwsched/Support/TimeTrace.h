//===- TimeTrace.h - Time-trace events of hwsched's library -----*- C++ -*-===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//
//
// The library times its expensive steps (tile enumeration, dependence
// analysis, stage scheduling, the pipelining rewrite) with
// `llvm::TimeTraceScope`, the profiler LLVM's tools share: the events cost
// nothing unless a driver turns the profiler on (`hwsched-opt
// --hwsched-time-trace=FILE`) and land in a Chrome trace JSON that benches
// and `hwsched-tune` read. The transform ops themselves time nothing.
//
// Event names are stable (benches match them): "hwsched::<function>".
//
//===----------------------------------------------------------------------===//

#ifndef HWSCHED_SUPPORT_TIMETRACE_H
#define HWSCHED_SUPPORT_TIMETRACE_H

#include <string>

namespace mlir {
class Operation;
} // namespace mlir

namespace hwsched {

/// The detail of a time-trace event about `op`: its location as diagnostics
/// print it (`loc("file.mlir":12:5)`), so a trace tells the loops of one run
/// apart. Pass it in a lambda to `llvm::TimeTraceScope`: it is then only
/// formatted while a profiler runs.
std::string timeTraceDetail(mlir::Operation *op);

} // namespace hwsched

#endif // HWSCHED_SUPPORT_TIMETRACE_H
