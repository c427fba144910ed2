//===- select_bench.cpp - Time the tile-configuration model alone ---------===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//
//
// Usage: hwsched-select-bench --target NAME_OR_JSON [--repeat N] FILE
//
// For each Linalg op of FILE (functions of linalg, tensor, arith and math
// ops, in program order), analyses the tile problem once and runs
// hwsched::selectTileConfig N times (default 5). Prints one line per op:
//   LOC first_ms F best_ms B median_ms M enumerated E feasible F
//   tile_sizes [..]
// where the times are thread CPU time of one selectTileConfig call
// (enumeration, pruning and scoring; the machine that runs the benches is
// shared and wall time there measures the other jobs): the first call, the
// best and the median of the N. The rest lets a script check that it timed
// the decision the op takes. The op itself
// times nothing; `hwsched-opt --hwsched-time-trace` gives its wall time
// inside a transform script.
//
//===----------------------------------------------------------------------===//

#include "hwsched/Analysis/TileProblem.h"
#include "hwsched/CostModel/TileConfig.h"
#include "hwsched/HwSpec/HwSpecLoader.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cstring>
#include <ctime>
#include <string>
#include <vector>

using namespace mlir;
using namespace hwsched;

static double threadCpuMs() {
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}

static int usage() {
  llvm::errs() << "usage: hwsched-select-bench --target NAME_OR_JSON "
                  "[--repeat N] FILE\n";
  return 2;
}

int main(int argc, char **argv) {
  std::string target, file;
  int repeat = 5;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--target") && i + 1 < argc)
      target = argv[++i];
    else if (!std::strcmp(argv[i], "--repeat") && i + 1 < argc)
      repeat = std::max(1, std::atoi(argv[++i]));
    else if (argv[i][0] == '-')
      return usage();
    else
      file = argv[i];
  }
  if (target.empty() || file.empty())
    return usage();

  llvm::Expected<HwSpec> spec = loadSpec(target);
  if (!spec) {
    llvm::errs() << "hwsched-select-bench: " << llvm::toString(spec.takeError())
                 << "\n";
    return 1;
  }
  MLIRContext context;
  context.loadDialect<arith::ArithDialect, func::FuncDialect,
                      linalg::LinalgDialect, math::MathDialect,
                      tensor::TensorDialect>();
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(file, &context);
  if (!module)
    return 1;

  std::vector<Operation *> ops;
  module->walk([&](linalg::LinalgOp op) { ops.push_back(op); });
  for (Operation *op : ops) {
    llvm::Expected<TileProblem> problem = analyzeTileProblem(op);
    if (!problem) {
      llvm::errs() << op->getLoc() << ": "
                   << llvm::toString(problem.takeError()) << "\n";
      return 1;
    }
    std::vector<double> times;
    std::optional<TileSelection> selection;
    for (int r = 0; r < repeat; ++r) {
      double start = threadCpuMs();
      llvm::Expected<TileSelection> selected =
          selectTileConfig(*problem, *spec);
      times.push_back(threadCpuMs() - start);
      if (!selected) {
        llvm::errs() << op->getLoc() << ": "
                     << llvm::toString(selected.takeError()) << "\n";
        return 1;
      }
      selection = std::move(*selected);
    }
    // The first call is what the op pays in a transform script (cold
    // caches and code pages); the best and the median of all calls are the
    // model's own cost.
    double first = times.front();
    std::sort(times.begin(), times.end());
    llvm::outs() << op->getLoc() << " first_ms " << llvm::format("%.3f", first)
                 << " best_ms " << llvm::format("%.3f", times.front())
                 << " median_ms "
                 << llvm::format("%.3f", times[times.size() / 2])
                 << " enumerated " << selection->enumerated << " feasible "
                 << selection->ranked.size() << " tile_sizes [";
    llvm::interleaveComma(selection->tileSizes, llvm::outs());
    llvm::outs() << "]\n";
  }
  return 0;
}
