//===- RecurrenceExplanation.cpp - Why a loop's RecMII is what it is ------===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//

#include "hwsched/CostModel/RecurrenceExplanation.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Location.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

using namespace mlir;
using namespace hwsched;

/// The function and argument number of `root`, if it is an argument of a
/// function's entry block.
static std::optional<std::pair<FunctionOpInterface, unsigned>>
asFunctionArgument(Value root) {
  auto arg = dyn_cast_or_null<BlockArgument>(root);
  if (!arg || !arg.getOwner()->isEntryBlock())
    return std::nullopt;
  auto func = dyn_cast<FunctionOpInterface>(arg.getOwner()->getParentOp());
  if (!func)
    return std::nullopt;
  return std::make_pair(func, arg.getArgNumber());
}

static void printOp(llvm::raw_ostream &os, Operation *op) {
  os << "'" << op->getName() << "'";
  if (auto loc = dyn_cast<FileLineColLoc>(op->getLoc()))
    os << " (line " << loc.getLine() << ")";
}

static void printBuffer(llvm::raw_ostream &os, const LoopBuffer &buffer) {
  if (auto arg = asFunctionArgument(buffer.root)) {
    os << "argument #" << arg->second << " of @" << arg->first.getName();
  } else if (buffer.allocOp) {
    os << "the buffer of ";
    printOp(os, buffer.allocOp);
  } else {
    os << buffer.name;
  }
}

/// Whether node `node` writes / reads `buffer` ("writes", "reads", or
/// "accesses" when it does both).
static StringRef accessVerb(const LoopDependenceGraph &graph, unsigned node,
                            int buffer) {
  bool reads = false, writes = false;
  for (auto [b, isWrite] : graph.accesses[node])
    if (static_cast<int>(b) == buffer)
      (isWrite ? writes : reads) = true;
  if (reads && writes)
    return "accesses";
  return writes ? "writes" : "reads";
}

/// The buffer of the edge that node `node` goes through.
static int sideBuffer(const LoopDependenceGraph &graph, const DepEdge &e,
                      unsigned node) {
  if (e.aliasBuffer < 0)
    return e.buffer;
  for (auto [b, isWrite] : graph.accesses[node])
    if (static_cast<int>(b) == e.buffer)
      return e.buffer;
  return e.aliasBuffer;
}

RecurrenceExplanation
hwsched::explainRecurrence(const LoopDependenceGraph &graph,
                           const SchedulerConfig &config) {
  RecurrenceExplanation r;
  r.recMII = computeRecMII(graph, config);
  r.edges = findCriticalRecurrence(graph, config);
  for (unsigned i : r.edges) {
    const DepEdge &e = graph.edges[i];
    if (e.distance == 0 || e.aliasBuffer < 0)
      continue;
    for (int b : {e.buffer, e.aliasBuffer})
      if (asFunctionArgument(graph.buffers[b].root) &&
          !llvm::is_contained(r.aliasingArguments, static_cast<unsigned>(b)))
        r.aliasingArguments.push_back(b);
  }
  return r;
}

void RecurrenceExplanation::print(llvm::raw_ostream &os,
                                  const LoopDependenceGraph &graph) const {
  if (edges.empty())
    return;
  os << "RecMII " << recMII << " is set by the recurrence ";
  for (unsigned i : edges) {
    printOp(os, graph.nodes[graph.edges[i].from].op);
    os << " -> ";
  }
  const DepEdge &first = graph.edges[edges.front()];
  printOp(os, graph.nodes[first.from].op);
  unsigned total = 0;
  for (unsigned i : edges)
    total += graph.edges[i].distance;
  if (total == 1)
    os << " of the next iteration";
  else
    os << " " << total << " iterations later";
  // Through the slots of a rotating buffer a dependence skips iterations.
  auto earlier = [](const DepEdge &e) {
    return e.distance == 1 ? std::string("in the previous iteration")
                           : std::to_string(e.distance) + " iterations earlier";
  };
  for (unsigned i : edges) {
    const DepEdge &e = graph.edges[i];
    if (e.distance == 0)
      continue;
    os << "; ";
    Operation *from = graph.nodes[e.from].op, *to = graph.nodes[e.to].op;
    if (e.kind == DepKind::SSA) {
      printOp(os, to);
      os << " uses a value ";
      printOp(os, from);
      os << " computed in the previous iteration (an iter_arg)";
      continue;
    }
    if (e.buffer < 0) {
      printOp(os, to);
      os << " and ";
      printOp(os, from);
      os << " of the previous iteration touch unknown memory ("
         << stringifyDepKind(e.kind).upper() << ")";
      continue;
    }
    int fromBuffer = sideBuffer(graph, e, e.from);
    int toBuffer = sideBuffer(graph, e, e.to);
    printOp(os, to);
    os << " " << accessVerb(graph, e.to, toBuffer) << " ";
    printBuffer(os, graph.buffers[toBuffer]);
    os << " after ";
    printOp(os, from);
    os << " " << accessVerb(graph, e.from, fromBuffer) << " ";
    printBuffer(os, graph.buffers[fromBuffer]);
    os << " " << earlier(e) << " (" << stringifyDepKind(e.kind).upper() << ")";
    if (fromBuffer == toBuffer) {
      const LoopBuffer &buffer = graph.buffers[fromBuffer];
      if (buffer.rotatingSlots)
        os << ", the same slot of the " << buffer.rotatingSlots
           << " the loop already rotates through";
      else if (!buffer.whyNotRenamable.empty())
        os << ", one memory for both iterations (not multi-buffered: "
           << buffer.whyNotRenamable << ")";
      continue;
    }
    os << ": the two may be the same memory";
    auto a = asFunctionArgument(graph.buffers[fromBuffer].root);
    auto b = asFunctionArgument(graph.buffers[toBuffer].root);
    if (a && b)
      os << " (function arguments may alias unless marked noalias)";
  }
  if (!aliasingArguments.empty()) {
    // "arguments #0 and #1 of @f": the numbers grouped per function.
    llvm::SmallVector<std::pair<FunctionOpInterface, SmallVector<unsigned>>>
        perFunction;
    for (unsigned b : aliasingArguments) {
      auto arg = *asFunctionArgument(graph.buffers[b].root);
      auto it = llvm::find_if(perFunction,
                              [&](auto &e) { return e.first == arg.first; });
      if (it == perFunction.end())
        perFunction.push_back({arg.first, {arg.second}});
      else
        it->second.push_back(arg.second);
    }
    os << "; marking ";
    for (auto [k, entry] : llvm::enumerate(perFunction)) {
      if (k)
        os << " and ";
      llvm::sort(entry.second);
      os << (entry.second.size() == 1 ? "argument " : "arguments ");
      for (auto [j, n] : llvm::enumerate(entry.second))
        os << (j == 0                         ? ""
               : j + 1 == entry.second.size() ? " and "
                                              : ", ")
           << "#" << n;
      os << " of @" << entry.first.getName();
    }
    os << " `llvm.noalias` (`bufferization.noalias` on tensor arguments, "
          "before bufferization) says they do not alias and lifts this "
          "recurrence";
  }
}
