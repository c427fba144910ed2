//===- AllocationPackingTest.cpp - Minimising the packed peak -------------===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//

#include "hwsched/CostModel/AllocationPacking.h"

#include "llvm/Support/raw_ostream.h"

#include "PackingTestInstances.h"

#include "gtest/gtest.h"

#include <random>

using namespace hwsched;

using hwsched::testing::cutRectangle;
using hwsched::testing::gapInstance;

TEST(AllocationPacking, LowerBoundIsTheLargestLiveSum) {
  std::vector<PackingItem> items = {{0, 2, 10, 1}, {2, 4, 7, 4}, {5, 6, 3, 1}};
  PackingLowerBound bound = computePackingLowerBound(items);
  EXPECT_EQ(bound.bytes, 18u); // 10 + 7 rounded up to 8 at point 2
  EXPECT_EQ(bound.point, 2);
  EXPECT_EQ(bound.live, (std::vector<size_t>{0, 1}));
  EXPECT_EQ(computePackingLowerBound({}).bytes, 0u);
}

TEST(AllocationPacking, MinimisesToAProvenOptimum) {
  std::vector<PackingItem> items = gapInstance();
  PackingResult result = packAllocations(items);
  EXPECT_EQ(result.peak, 10u);
  EXPECT_EQ(result.lowerBound.bytes, 9u);
  EXPECT_EQ(result.provenBound, 10u);
  EXPECT_TRUE(result.provedOptimal);
  EXPECT_TRUE(verifyPacking(items, result.offsets));
}

TEST(AllocationPacking, ReportsAProvedInfeasibleCapacity) {
  PackingOptions options;
  options.capacity = 9;
  PackingResult result = packAllocations(gapInstance(), options);
  EXPECT_FALSE(result.fitsCapacity());
  EXPECT_TRUE(result.capacityProvedInfeasible);
  EXPECT_GE(result.provenBound, 10u);
  // Below the lower bound nothing needs searching.
  options.capacity = 8;
  result = packAllocations(gapInstance(), options);
  EXPECT_TRUE(result.capacityProvedInfeasible);
  EXPECT_EQ(result.searchedComponents, 0u);
}

TEST(AllocationPacking, ReportsABudgetThatRanOut) {
  // Greedy misses the capacity; without search steps nothing is proved.
  std::vector<PackingItem> items = cutRectangle(150, 3);
  PackingOptions options;
  options.capacity = 1 << 20;
  options.fitSteps = options.searchSteps = 0;
  PackingResult result = packAllocations(items, options);
  ASSERT_GT(result.peak, options.capacity);
  EXPECT_FALSE(result.fitsCapacity());
  EXPECT_FALSE(result.capacityProvedInfeasible);
  EXPECT_TRUE(result.budgetExhausted);
  EXPECT_TRUE(verifyPacking(items, result.offsets));
  // With the default budget the same problem fits.
  options.fitSteps = kDefaultPackingFitSteps;
  options.searchSteps = kDefaultPackingSearchSteps;
  result = packAllocations(items, options);
  EXPECT_TRUE(result.fitsCapacity());
  EXPECT_TRUE(result.provedOptimal);
}

TEST(AllocationPacking, SplitsIndependentComponents) {
  // Two copies of the gap instance, one after the other in time.
  std::vector<PackingItem> items = gapInstance();
  for (const PackingItem &item : gapInstance(10))
    items.push_back(item);
  PackingResult result = packAllocations(items);
  EXPECT_EQ(result.components, 2u);
  EXPECT_EQ(result.peak, 10u);
  EXPECT_TRUE(result.provedOptimal);
  EXPECT_TRUE(verifyPacking(items, result.offsets));
}

TEST(AllocationPacking, KeepsItsQualityOnThousandsOfBuffers) {
  // Twenty rectangles of 100 buffers each, side by side in time: 2,000
  // buffers, each group packed to the optimum.
  std::vector<PackingItem> items;
  for (unsigned k = 0; k < 20; ++k)
    for (const PackingItem &item :
         cutRectangle(100, 100 + k, 1000, 1 << 20, 1024, 1000 * k))
      items.push_back(item);
  PackingOptions options;
  options.capacity = 1 << 20;
  PackingResult result = packAllocations(items, options);
  // (A cut through the whole height splits a rectangle in time as well.)
  EXPECT_GE(result.components, 20u);
  EXPECT_EQ(result.peak, uint64_t(1) << 20);
  EXPECT_TRUE(result.provedOptimal);
  EXPECT_TRUE(verifyPacking(items, result.offsets));
}

TEST(AllocationPacking, IsDeterministic) {
  std::vector<PackingItem> items = cutRectangle(100, 9);
  PackingResult a = packAllocations(items), b = packAllocations(items);
  EXPECT_EQ(a.offsets, b.offsets);
  EXPECT_EQ(a.peak, b.peak);
  EXPECT_EQ(a.searchSteps, b.searchSteps);
  EXPECT_EQ(a.decisions, b.decisions);
}

TEST(AllocationPacking, HonoursAlignments) {
  std::vector<PackingItem> items = {
      {0, 5, 5, 64}, {1, 3, 3, 4}, {2, 6, 70, 8}, {4, 8, 33, 48}};
  PackingResult result = packAllocations(items);
  for (size_t i = 0; i < items.size(); ++i)
    EXPECT_EQ(result.offsets[i] % items[i].alignment, 0u) << "item " << i;
  EXPECT_TRUE(verifyPacking(items, result.offsets));
  EXPECT_EQ(result.lowerBound.bytes, 64u + 48 + 72);
}

TEST(AllocationPacking, VerifyRejectsBadPackings) {
  std::vector<PackingItem> items = {{0, 2, 16, 16}, {1, 3, 16, 16}};
  EXPECT_TRUE(verifyPacking(items, {0, 16}));
  EXPECT_FALSE(verifyPacking(items, {0, 8}));  // overlap while both live
  EXPECT_FALSE(verifyPacking(items, {0, 24})); // misaligned
  EXPECT_FALSE(verifyPacking(items, {0}));     // one offset missing
  std::vector<PackingItem> apart = {{0, 1, 16, 16}, {2, 3, 16, 16}};
  EXPECT_TRUE(verifyPacking(apart, {0, 0}));
}

TEST(AllocationPacking, PrintsItself) {
  PackingOptions options;
  options.capacity = 9;
  PackingResult result = packAllocations(gapInstance(), options);
  std::string text;
  llvm::raw_string_ostream os(text);
  result.print(os);
  EXPECT_NE(text.find("capacity 9 B proved infeasible"), std::string::npos)
      << text;
  EXPECT_NE(text.find("lower bound 9 B (proven 10 B)"), std::string::npos)
      << text;
}
