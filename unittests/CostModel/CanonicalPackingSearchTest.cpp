//===- CanonicalPackingSearchTest.cpp - The exact packing search ----------===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//

#include "hwsched/CostModel/CanonicalPackingSearch.h"

#include "llvm/Support/raw_ostream.h"

#include "PackingTestInstances.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <cstdint>
#include <random>

using namespace hwsched;

using hwsched::testing::cutRectangle;
using hwsched::testing::gapInstance;

TEST(CanonicalPackingSearch, FindsAPackingAtTheLowerBound) {
  // A chain: A meets B, B meets C, A and C can share.
  std::vector<PackingItem> items = {
      {0, 2, 32, 1}, {1, 4, 16, 1}, {3, 5, 32, 1}};
  PackingStepBudget budget(1 << 20);
  PackingDecision decision = decidePacking(items, 48, budget);
  ASSERT_EQ(decision.verdict, PackingVerdict::Fits);
  EXPECT_EQ(decision.peak, 48u);
  EXPECT_TRUE(verifyPacking(items, decision.offsets));
  for (size_t i = 0; i < items.size(); ++i)
    EXPECT_LE(decision.offsets[i] + items[i].size, 48u);
}

TEST(CanonicalPackingSearch, ProvesATinyInstanceInfeasible) {
  std::vector<PackingItem> items = gapInstance();
  ASSERT_EQ(computePackingLowerBound(items).bytes, 9u);
  PackingStepBudget budget(1 << 20);
  PackingDecision atBound = decidePacking(items, 9, budget);
  EXPECT_EQ(atBound.verdict, PackingVerdict::Infeasible);
  EXPECT_TRUE(atBound.offsets.empty());
  PackingDecision above = decidePacking(items, 10, budget);
  ASSERT_EQ(above.verdict, PackingVerdict::Fits);
  EXPECT_TRUE(verifyPacking(items, above.offsets));
  EXPECT_EQ(above.peak, 10u);
  // Cheap refusals: a buffer or the live bytes above the capacity.
  EXPECT_EQ(decidePacking(items, 8, budget).verdict,
            PackingVerdict::Infeasible);
  EXPECT_EQ(decidePacking({{0, 0, 5, 1}}, 4, budget).verdict,
            PackingVerdict::Infeasible);
}

TEST(CanonicalPackingSearch, StopsWhenTheBudgetIsSpent) {
  std::vector<PackingItem> items = cutRectangle(60, 11, 400, 1 << 16, 64);
  PackingStepBudget budget(10);
  PackingDecision decision = decidePacking(items, 1 << 16, budget);
  EXPECT_EQ(decision.verdict, PackingVerdict::OutOfBudget);
  EXPECT_TRUE(budget.exhausted());
  EXPECT_FALSE(budget.hitDeadline());
}

TEST(CanonicalPackingSearch, IsDeterministic) {
  std::vector<PackingItem> items = cutRectangle(120, 5, 1000, 1 << 20, 1024);
  PackingStepBudget first(uint64_t(1) << 30), second(uint64_t(1) << 30);
  PackingDecision a = decidePacking(items, 1 << 20, first);
  PackingDecision b = decidePacking(items, 1 << 20, second);
  ASSERT_EQ(a.verdict, PackingVerdict::Fits);
  EXPECT_EQ(a.offsets, b.offsets);
  EXPECT_EQ(a.steps, b.steps);
  EXPECT_EQ(a.nodes, b.nodes);
  EXPECT_EQ(first.used(), second.used());
}

TEST(CanonicalPackingSearch, SolvesCutRectanglesToTheirOptimum) {
  for (unsigned seed = 1; seed <= 6; ++seed) {
    std::vector<PackingItem> items =
        cutRectangle(100, seed, 1000, 1 << 20, 1024);
    ASSERT_EQ(computePackingLowerBound(items).bytes, uint64_t(1) << 20);
    PackingStepBudget budget(uint64_t(1) << 31);
    PackingDecision decision = decidePacking(items, 1 << 20, budget);
    ASSERT_EQ(decision.verdict, PackingVerdict::Fits) << "seed " << seed;
    EXPECT_TRUE(verifyPacking(items, decision.offsets));
  }
}

TEST(CanonicalPackingSearch, HonoursAlignments) {
  // Footprints 64, 48 (alignment 48, not a power of two), 24, 8: the
  // offsets must be multiples of each buffer's alignment.
  std::vector<PackingItem> items = {
      {0, 3, 40, 64}, {1, 4, 48, 48}, {2, 2, 20, 24}, {3, 5, 5, 8}};
  uint64_t bound = computePackingLowerBound(items).bytes;
  PackingStepBudget budget(1 << 20);
  for (uint64_t capacity = bound;; ++capacity) {
    PackingDecision decision = decidePacking(items, capacity, budget);
    ASSERT_NE(decision.verdict, PackingVerdict::OutOfBudget);
    if (decision.verdict != PackingVerdict::Fits)
      continue;
    for (size_t i = 0; i < items.size(); ++i)
      EXPECT_EQ(decision.offsets[i] % items[i].alignment, 0u) << "item " << i;
    EXPECT_TRUE(verifyPacking(items, decision.offsets));
    EXPECT_LE(decision.peak, capacity);
    break;
  }
}

TEST(CanonicalPackingSearch, IgnoresEmptyBuffers) {
  std::vector<PackingItem> items = {{0, 5, 0, 16}, {0, 5, 32, 16}};
  PackingStepBudget budget(1 << 10);
  PackingDecision decision = decidePacking(items, 32, budget);
  ASSERT_EQ(decision.verdict, PackingVerdict::Fits);
  EXPECT_EQ(decision.offsets[0], 0u);
  EXPECT_EQ(decision.peak, 32u);
}

TEST(CanonicalPackingSearch, PrintsItself) {
  PackingStepBudget budget(1 << 20);
  PackingDecision decision = decidePacking(gapInstance(), 9, budget);
  std::string text;
  llvm::raw_string_ostream os(text);
  decision.print(os);
  EXPECT_EQ(text.rfind("infeasible 9 B, ", 0), 0u) << text;
}

namespace {
/// The optimum of a tiny instance by brute force: every order of stacking
/// placements (each buffer at the lowest aligned offset above the placed
/// buffers it meets). Any packing can be lowered into one of these.
uint64_t bruteForceOptimum(const std::vector<PackingItem> &items) {
  std::vector<size_t> order(items.size());
  for (size_t i = 0; i < order.size(); ++i)
    order[i] = i;
  uint64_t best = UINT64_MAX;
  do {
    std::vector<uint64_t> offsets(items.size(), 0);
    uint64_t peak = 0;
    for (size_t k = 0; k < order.size(); ++k) {
      const PackingItem &item = items[order[k]];
      uint64_t at = 0;
      for (size_t l = 0; l < k; ++l) {
        const PackingItem &other = items[order[l]];
        if (other.start <= item.end && item.start <= other.end)
          at = std::max(at, offsets[order[l]] + getFootprint(other));
      }
      at = alignUpTo(at, item.alignment);
      offsets[order[k]] = at;
      peak = std::max(peak, at + getFootprint(item));
    }
    best = std::min(best, peak);
  } while (std::next_permutation(order.begin(), order.end()));
  return best;
}
} // namespace

// Soundness of every pruning rule (dominance, hatless, exclusion, section
// inference): on random tiny instances the search finds a packing at the
// brute-force optimum and proves one byte less infeasible.
TEST(CanonicalPackingSearch, AgreesWithBruteForceOnTinyInstances) {
  std::mt19937 rng(7);
  for (int round = 0; round < 400; ++round) {
    size_t n = 3 + rng() % 5;
    std::vector<PackingItem> items;
    for (size_t i = 0; i < n; ++i) {
      int64_t start = rng() % 8;
      int64_t end = start + rng() % 5;
      uint64_t align = round % 3 == 0 ? uint64_t(1) << (rng() % 3) : 1;
      items.push_back({start, end, 1 + rng() % 6, align});
    }
    uint64_t optimum = bruteForceOptimum(items);
    PackingStepBudget budget(uint64_t(1) << 30);
    PackingDecision fits = decidePacking(items, optimum, budget);
    ASSERT_EQ(fits.verdict, PackingVerdict::Fits) << "round " << round;
    EXPECT_TRUE(verifyPacking(items, fits.offsets));
    EXPECT_LE(fits.peak, optimum);
    PackingDecision below = decidePacking(items, optimum - 1, budget);
    ASSERT_EQ(below.verdict, PackingVerdict::Infeasible) << "round " << round;
  }
}
