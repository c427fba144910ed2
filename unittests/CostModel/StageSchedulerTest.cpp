//===- StageSchedulerTest.cpp - The modulo scheduler on plain graphs ------===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//
//
// The scheduler's decisions on dependence graphs built by hand, with answers
// worked out on paper: the interval bounds (resources, recurrences), the
// stage order of a producer/consumer chain, the legality check, and the
// stage count lowered when the multi-buffered copies exceed the capacity.
// The graphs' nodes point at unregistered ops only so that refusals can
// name a culprit.
//
//===----------------------------------------------------------------------===//

#include "hwsched/CostModel/StageScheduler.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Operation.h"

#include "gtest/gtest.h"

using namespace mlir;
using namespace hwsched;

namespace {
class StageSchedulerTest : public ::testing::Test {
protected:
  StageSchedulerTest() {
    context.allowUnregisteredDialects();
    // mem: one port, 2 cycles per issue, 10 cycles latency; alu: two,
    // 1 cycle per issue, 4 cycles latency.
    config.units = {{"mem", 1, 10, 2}, {"alu", 2, 4, 1}};
    config.capacityBytes = 1 << 20;
    config.maxStages = 4;
    config.specName = "test-spec";
  }
  ~StageSchedulerTest() override {
    for (Operation *op : ops)
      op->destroy();
  }

  /// Appends a node on `unit` (an op named "test.<unit><index>").
  unsigned node(StringRef unit, bool isSync = false) {
    OperationState state(UnknownLoc::get(&context),
                         ("test." + unit + Twine(graph.nodes.size())).str());
    ops.push_back(Operation::create(state));
    DepNode n;
    n.op = ops.back();
    n.unit = unit.str();
    n.position = graph.nodes.size();
    n.isSync = isSync;
    graph.nodes.push_back(n);
    graph.accesses.emplace_back();
    graph.nodeOf[n.op] = n.position;
    return n.position;
  }

  void edge(unsigned from, unsigned to, unsigned distance,
            DepKind kind = DepKind::SSA, int buffer = -1,
            bool removable = false) {
    DepEdge e;
    e.from = from;
    e.to = to;
    e.distance = distance;
    e.kind = kind;
    e.buffer = buffer;
    e.removableByMultiBuffering = removable;
    graph.edges.push_back(e);
  }

  MLIRContext context;
  std::vector<Operation *> ops;
  LoopDependenceGraph graph;
  SchedulerConfig config;
};
} // namespace

// ResMII = max over units of ceil(issue cycles of its nodes / its count);
// synchronisation nodes take no issue slot.
TEST_F(StageSchedulerTest, ResourceBoundCountsIssueCyclesPerUnit) {
  for (int i = 0; i < 3; ++i)
    node("mem");
  node("mem", /*isSync=*/true);
  for (int i = 0; i < 3; ++i)
    node("alu");
  // mem: 3 x 2 cycles on one port = 6; alu: 3 x 1 on two = 2.
  EXPECT_EQ(computeResMII(graph, config), 6);
  config.units[0].count = 2;
  EXPECT_EQ(computeResMII(graph, config), 3);
}

// RecMII = max over dependence cycles of ceil(latency / distance); the
// critical recurrence is that cycle's edges.
TEST_F(StageSchedulerTest, RecurrenceBoundIsTheSlowestCycle) {
  unsigned a = node("alu"), b = node("alu"), c = node("mem");
  edge(a, b, 0);
  edge(b, a, 1); // a -> b -> a: 4 + 4 cycles over 1 iteration
  edge(a, c, 0);
  edge(c, c, 2); // c -> c: 10 cycles over 2 iterations
  EXPECT_EQ(computeRecMII(graph, config), 8);
  std::vector<unsigned> cycle = findCriticalRecurrence(graph, config);
  ASSERT_EQ(cycle.size(), 2u);
  EXPECT_EQ(graph.edges[cycle[0]].from, graph.edges[cycle[1]].to);
  EXPECT_EQ(graph.edges[cycle[1]].from, graph.edges[cycle[0]].to);
  // Write-after-read edges carry no latency: no recurrence left.
  graph.edges[1].kind = DepKind::WAR;
  EXPECT_EQ(computeRecMII(graph, config), 5);
}

// A load feeding a long chain: with two stages requested, the load goes to
// the earlier stage (its 10-cycle latency is hidden behind the previous
// iteration's compute), and the assignment passes the legality check;
// the reverse order does not.
TEST_F(StageSchedulerTest, ProducerBeforeConsumerAcrossStages) {
  unsigned load = node("mem");
  unsigned use = node("alu");
  unsigned use2 = node("alu");
  edge(load, use, 0);
  edge(use, use2, 0);
  config.requestedStages = 2;
  llvm::Expected<StageSchedule> schedule = scheduleStages(graph, config);
  ASSERT_TRUE(static_cast<bool>(schedule)) << toString(schedule.takeError());
  EXPECT_EQ(schedule->numStages, 2u);
  EXPECT_LT(schedule->stage[load], schedule->stage[use2]);
  EXPECT_LE(schedule->stage[use], schedule->stage[use2]);
  EXPECT_GE(schedule->achievedII, schedule->mii);
  EXPECT_FALSE(static_cast<bool>(checkStageLegality(graph, schedule->stage)));

  llvm::Error reversed = checkStageLegality(graph, {1, 0, 0});
  ASSERT_TRUE(static_cast<bool>(reversed));
  llvm::consumeError(std::move(reversed));
}

// A renamable on-chip buffer written in stage 0 and read in stage 1 needs
// two copies; when two do not fit the capacity, the scheduler lowers the
// stage count (one copy, one stage; the interval rises to the unpipelined
// one) and says why in a typed note.
TEST_F(StageSchedulerTest, StagesLoweredWhenCopiesExceedCapacity) {
  unsigned load = node("mem");
  unsigned use = node("alu");
  LoopBuffer tile;
  tile.onChip = true;
  tile.bytes = 600;
  tile.renamable = true;
  tile.overwrittenEachIteration = true;
  tile.name = "tile";
  graph.buffers.push_back(tile);
  graph.accesses[load].push_back({0, /*isWrite=*/true});
  graph.accesses[use].push_back({0, /*isWrite=*/false});
  edge(load, use, 0, DepKind::RAW, 0);
  // Next iteration's write after this iteration's read: removed by
  // multi-buffering.
  edge(use, load, 1, DepKind::WAR, 0, /*removable=*/true);
  config.requestedStages = 2;

  config.capacityBytes = 2000;
  llvm::Expected<StageSchedule> roomy = scheduleStages(graph, config);
  ASSERT_TRUE(static_cast<bool>(roomy)) << toString(roomy.takeError());
  EXPECT_EQ(roomy->numStages, 2u);
  EXPECT_EQ(roomy->copies[0], 2u);
  EXPECT_EQ(roomy->onChipBytes, 1200);

  config.capacityBytes = 1000;
  llvm::Expected<StageSchedule> tight = scheduleStages(graph, config);
  ASSERT_TRUE(static_cast<bool>(tight)) << toString(tight.takeError());
  EXPECT_EQ(tight->numStages, 1u);
  EXPECT_EQ(tight->copies[0], 1u);
  EXPECT_LE(tight->onChipBytes, 1000);
  bool explained = false;
  for (const ScheduleNote &note : tight->notes)
    explained |= (note.kind == ScheduleNote::Kind::CapacityReduction ||
                  note.kind == ScheduleNote::Kind::IntervalRaised) &&
                 note.text.find("to fit the capacity") != std::string::npos;
  std::string notes;
  for (const ScheduleNote &note : tight->notes)
    notes += "[" + std::to_string(static_cast<int>(note.kind)) + "] " +
             note.text + "\n";
  EXPECT_TRUE(explained) << notes;

  // Not even one copy fits: a refusal with the figures.
  config.capacityBytes = 500;
  llvm::Expected<StageSchedule> none = scheduleStages(graph, config);
  ASSERT_FALSE(static_cast<bool>(none));
  std::string message = toString(none.takeError());
  EXPECT_NE(message.find("600"), std::string::npos) << message;
}
