//===- NpuFlagPlanning.cpp - Which flags a pipelined NPU loop needs -------===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//

#include "hwsched/CostModel/NpuFlagPlanning.h"

#include "hwsched/Dialect/NpuSync/NpuSync.h"
#include "hwsched/Support/Refusal.h"

#include "llvm/Support/raw_ostream.h"

#include <limits>
#include <map>
#include <optional>
#include <tuple>

using namespace mlir;
using namespace hwsched;

namespace {
/// A channel under construction, with the figures its validity depends on.
struct Candidate {
  NpuFlagChannel channel;
  unsigned producerPos = 0, consumerPos = 0;
  /// Copies of the multi-buffered buffer the channel's edges go through.
  unsigned copies = 1;
};

/// A point of the pipelined order, relative to the consumer's iteration j:
/// (stage, position) means "in stage-time j + stage, at body position
/// `position`". Sets go right after the node at `position`, waits right
/// before it; the two ends of a flag are always on different pipes, so
/// their positions differ and the lexicographic order is strict.
struct Point {
  int64_t stage = 0;
  unsigned position = 0;
  unsigned node = 0;
  bool operator<(const Point &o) const {
    return stage < o.stage || (stage == o.stage && position < o.position);
  }
};

/// One set/wait pair of a coarsened pipe pair. It covers edge u -> v of
/// distance d when the producer runs no later than the set the wait
/// consumes, (stage(u) - d, pos(u)) <= `set`, and the wait comes before the
/// consumer, `wait` <= (stage(v), pos(v)); it is sound when `set` < `wait`
/// (the set is issued before the wait that consumes it: no deadlock). With
/// `set` the latest producer point and `wait` the earliest consumer point
/// of its edges, any group of edges with `set` < `wait` can share it.
struct Group {
  Point set, wait;
  unsigned edges = 0;
  /// Most copies of a multi-buffered buffer its edges go through.
  unsigned copies = 1;
};
} // namespace

/// Consumer of iteration j waits for the producer of iteration j - delta:
/// that set must come first in the pipelined order, i.e.
/// (stage(u) - delta, pos(u)) < (stage(v), pos(v)).
static bool setsBeforeWait(const Candidate &c) {
  int64_t su = static_cast<int64_t>(c.channel.producerStage) -
               static_cast<int64_t>(c.channel.distance);
  int64_t sv = c.channel.consumerStage;
  return su < sv || (su == sv && c.producerPos < c.consumerPos);
}

/// Smallest event count for which the producer of iteration i + K sets its
/// flag only after the consumer of iteration i + delta consumed the previous
/// one: (delta + stage(v), pos(v)) < (K + stage(u), pos(u)).
static unsigned eventsNeeded(const Candidate &c) {
  int64_t delta = c.channel.distance;
  int64_t k = delta + static_cast<int64_t>(c.channel.consumerStage) -
              static_cast<int64_t>(c.channel.producerStage) +
              (c.consumerPos > c.producerPos ? 1 : 0);
  k = std::max<int64_t>({k, delta, 1, static_cast<int64_t>(c.copies)});
  return static_cast<unsigned>(k);
}

/// The channel of a group. The set of iteration i runs at stage-time
/// i + producerStage and releases the wait of iteration i + delta, so only
/// producerStage - delta = set.stage is fixed: the smallest delta >= 0 with
/// producerStage >= 0 pre-sets the fewest flags, and producerStage <=
/// stage(u) keeps it inside the schedule. Event count as in eventsNeeded,
/// with the one-event-per-buffer-copy minimum only if `perCopy`: the
/// rotation is correct in the pipelined order for any K >= the bound (the
/// set of iteration i + K comes after the wait of iteration i + delta, and
/// K >= delta keeps the pre-sets on distinct events), but K >= copies also
/// lets the buffer's own reverse flag hold a producer back until the
/// consumer of the same copy has waited, so it is kept while it fits.
static NpuFlagChannel channelOf(const Group &g, StringRef src, StringRef dst,
                                bool perCopy) {
  NpuFlagChannel c;
  c.srcPipe = src.str();
  c.dstPipe = dst.str();
  int64_t delta = std::max<int64_t>(0, -g.set.stage);
  c.distance = static_cast<unsigned>(delta);
  c.producerStage = static_cast<unsigned>(g.set.stage + delta);
  c.consumerStage = static_cast<unsigned>(g.wait.stage);
  c.lastProducer = g.set.node;
  c.firstConsumer = g.wait.node;
  int64_t k =
      g.wait.stage - g.set.stage + (g.wait.position > g.set.position ? 1 : 0);
  c.numEvents = static_cast<unsigned>(std::max<int64_t>(
      {k, delta, 1, perCopy ? static_cast<int64_t>(g.copies) : 1}));
  c.edges = g.edges;
  c.coarsened = true;
  return c;
}

static unsigned totalEvents(ArrayRef<Group> groups, bool perCopy) {
  unsigned total = 0;
  for (const Group &g : groups)
    total += channelOf(g, "", "", perCopy).numEvents;
  return total;
}

/// Merges `a` and `b` if one set/wait pair can serve both.
static std::optional<Group> merge(const Group &a, const Group &b) {
  Group m;
  m.set = a.set < b.set ? b.set : a.set;
  m.wait = b.wait < a.wait ? b.wait : a.wait;
  m.edges = a.edges + b.edges;
  m.copies = std::max(a.copies, b.copies);
  if (!(m.set < m.wait))
    return std::nullopt;
  return m;
}

/// Coarsens the channels of one pipe pair (`groups`, one per fine channel;
/// `edges`, one per dependence edge) until they fit `budget` events
/// (counted with or without the per-copy minimum, `perCopy`), keeping the
/// flags as fine as possible: the merge of two channels that saves the most
/// events, repeatedly; if that gets stuck above the budget, the fewest
/// channels that can cover the edges (greedy interval stabbing: sorted by
/// consumer point, each channel takes every remaining edge whose producer
/// point comes before the earliest remaining consumer point, optimal for
/// the count). Returns the groups that fit, or when none do, every option
/// from finest to coarsest (the fine channels, the pairwise merges, the
/// stabbed cover) for event sharing.
static SmallVector<SmallVector<Group>> coarsen(SmallVector<Group> groups,
                                               ArrayRef<Group> edges,
                                               unsigned budget, bool perCopy) {
  SmallVector<SmallVector<Group>> candidates = {groups};
  unsigned total = totalEvents(groups, perCopy);
  while (total > budget) {
    std::optional<Group> best;
    unsigned bestI = 0, bestJ = 0;
    int64_t bestSaving = 0;
    unsigned bestEvents = 0;
    SmallVector<unsigned> events;
    for (const Group &g : groups)
      events.push_back(channelOf(g, "", "", perCopy).numEvents);
    for (unsigned i = 0; i < groups.size(); ++i)
      for (unsigned j = i + 1; j < groups.size(); ++j) {
        std::optional<Group> m = merge(groups[i], groups[j]);
        if (!m)
          continue;
        unsigned mergedEvents = channelOf(*m, "", "", perCopy).numEvents;
        int64_t saving =
            static_cast<int64_t>(events[i] + events[j]) - mergedEvents;
        // Equal savings: keep the longer channel, whose wait comes later
        // (its consumers wait less early).
        if (!best || saving > bestSaving ||
            (saving == bestSaving && mergedEvents > bestEvents)) {
          bestEvents = mergedEvents;
          best = m;
          bestSaving = saving;
          bestI = i;
          bestJ = j;
        }
      }
    if (!best)
      break;
    groups[bestI] = *best;
    groups.erase(groups.begin() + bestJ);
    total = totalEvents(groups, perCopy);
  }
  if (total <= budget)
    return {groups};
  candidates.push_back(groups);

  SmallVector<Group> sorted(edges.begin(), edges.end());
  llvm::stable_sort(
      sorted, [](const Group &a, const Group &b) { return a.wait < b.wait; });
  SmallVector<Group> stabbed;
  SmallVector<bool> taken(sorted.size(), false);
  for (unsigned i = 0; i < sorted.size(); ++i) {
    if (taken[i])
      continue;
    Group g = sorted[i];
    taken[i] = true;
    for (unsigned j = i + 1; j < sorted.size(); ++j)
      if (!taken[j] && sorted[j].set < sorted[i].wait) {
        // sorted[j].wait >= sorted[i].wait: the merge keeps g.wait.
        g = *merge(g, sorted[j]);
        taken[j] = true;
      }
    stabbed.push_back(g);
  }
  // Always offered: with one stage its channels after the first are
  // disjoint single-event arcs, so with sharing they need one event.
  candidates.push_back(stabbed);
  return candidates;
}

/// Lets single-event channels of one pipe pair share event ids when their
/// flags never overlap, and assigns every event id. A single-event channel
/// is live (set, not yet waited) from its set to its wait: an arc on the
/// circle of body positions (one kernel iteration), wrapping when the wait
/// is in the next stage-time. Channels whose arcs are disjoint can use the
/// same event: in the pipelined order its sets and waits then alternate,
/// set, wait, set, wait, in every kernel iteration, and an iteration that
/// does not run (prologue, epilogue, predication) drops a set together with
/// the wait it releases when the distance is 0. With a distance > 0 the
/// set of an iteration before the first is hoisted before the loop and the
/// wait of one after the last sunk after it, which keeps the alternation
/// only when the loop is not expanded (one stage or unrolled: those sets
/// and waits are already the first and last flags of their event). Arcs
/// are closed (a set and a wait in the same gap between two ops are ordered
/// set first, see insertNpuFlags), so touching arcs conflict. Returns the
/// events used.
static unsigned assignEvents(MutableArrayRef<NpuFlagChannel> channels,
                             const LoopDependenceGraph &graph, bool pipelined,
                             bool share, unsigned &sharedChannels) {
  sharedChannels = 0;
  unsigned next = 0;
  struct Arc {
    unsigned channel;
    int64_t from, to;
    bool wraps;
  };
  SmallVector<Arc> arcs;
  for (auto [i, c] : llvm::enumerate(channels)) {
    if (share && c.numEvents == 1 && (c.distance == 0 || !pipelined)) {
      // Gap after node p is 2p + 1, before node p is 2p - 1.
      int64_t from = 2 * int64_t(graph.nodes[c.lastProducer].position) + 1;
      int64_t to = 2 * int64_t(graph.nodes[c.firstConsumer].position) - 1;
      arcs.push_back({static_cast<unsigned>(i), from, to, to < from});
      continue;
    }
    c.firstEvent = next;
    next += c.numEvents;
  }
  if (arcs.empty())
    return next;
  auto overlap = [](const Arc &a, const Arc &b) {
    if (a.wraps && b.wraps)
      return true;
    if (a.wraps)
      return b.from <= a.to || b.to >= a.from;
    if (b.wraps)
      return a.from <= b.to || a.to >= b.from;
    return !(a.to < b.from || b.to < a.from);
  };
  // Wrapping arcs first (they exclude each other), then by start.
  llvm::stable_sort(arcs, [](const Arc &a, const Arc &b) {
    if (a.wraps != b.wraps)
      return a.wraps;
    return a.from < b.from;
  });
  SmallVector<SmallVector<const Arc *>> colors;
  for (const Arc &arc : arcs) {
    unsigned color = 0;
    for (; color < colors.size(); ++color)
      if (llvm::none_of(colors[color],
                        [&](const Arc *o) { return overlap(arc, *o); }))
        break;
    if (color == colors.size())
      colors.emplace_back();
    colors[color].push_back(&arc);
    channels[arc.channel].firstEvent = next + color;
  }
  for (const auto &members : colors)
    if (members.size() > 1)
      sharedChannels += members.size();
  return next + colors.size();
}

namespace {
/// A channel as the hardware-order simulation sees it: its pipes and pipe
/// pair as small integers, the gaps between body ops its set and wait sit
/// in, and its events.
struct SimChannel {
  unsigned src, dst, pair;
  int64_t setGap, waitGap;
  unsigned k, first, distance;
  int64_t producerStage, consumerStage;
  bool checked;
};

/// One flag of a stage-time: the set or the wait of a channel.
struct SimEntry {
  unsigned channel;
  bool wait;
};

/// The t-th pre-set (before the loop) or final wait (after it) of a
/// channel.
struct SimExtra {
  unsigned channel;
  int64_t t;
};

/// Simulation state: the vector clock of the last instruction of each pipe
/// and, per (pair, event): its pending set's clock, and the position on the
/// destination pipe of the wait that consumed the previous one.
struct SimState {
  SmallVector<int64_t> clock;
  SmallVector<int64_t> setClock;
  SmallVector<int64_t> lastWait;
  SmallVector<char> pending;
  /// Channel of the last checked set simulated (for `offender`).
  std::optional<unsigned> lastSet;
};

/// The simulation behind checkHardwareOrder (see there): the channels
/// indexed once, the fixed order of the flags inside one stage-time, the
/// pre-sets and final waits, and the state of the common prefix.
class HardwareOrderCheck {
public:
  HardwareOrderCheck(ArrayRef<NpuFlagChannel> channels,
                     const LoopDependenceGraph &graph,
                     llvm::function_ref<bool(const NpuFlagChannel &)> checked,
                     unsigned *offender);
  /// Every checked trip count in increasing order: the first hazard, or
  /// nothing.
  std::optional<std::string> run();

private:
  void indexChannels(const LoopDependenceGraph &graph,
                     llvm::function_ref<bool(const NpuFlagChannel &)> checked);
  void orderStageTimeFlags();
  void orderExtras();
  std::string describe(unsigned ci, unsigned event) const;
  std::string report(const SimState &s, std::string message);
  std::optional<std::string> step(SimState &s, unsigned ci, bool wait,
                                  int64_t iteration, unsigned event,
                                  int64_t trips);
  std::optional<std::string> stageTime(SimState &s, int64_t time,
                                       int64_t iterationsBelow, int64_t trips);
  std::optional<std::string> runTail(int64_t n);
  bool isChecked(int64_t n) const { return n <= window + 1 || n == lastTrip; }

  ArrayRef<NpuFlagChannel> channels;
  unsigned *offender;
  SmallVector<SimChannel> chans;
  SmallVector<unsigned, 8> pairBase;
  unsigned numPipes = 0, numSlots = 0;
  int64_t maxStage = 0, window = 0, lastTrip = 0;
  SmallVector<SimEntry> slotOrder;
  SmallVector<SimExtra> extras;
  SimState prefix, tail;
  /// `offender` after the last complete trip count.
  std::optional<unsigned> previousSet;
};
} // namespace

HardwareOrderCheck::HardwareOrderCheck(
    ArrayRef<NpuFlagChannel> channels, const LoopDependenceGraph &graph,
    llvm::function_ref<bool(const NpuFlagChannel &)> checked,
    unsigned *offender)
    : channels(channels), offender(offender) {
  indexChannels(graph, checked);
  orderStageTimeFlags();
  orderExtras();
  prefix.clock.assign(numPipes * numPipes, 0);
  prefix.setClock.assign(numSlots * numPipes, 0);
  prefix.lastWait.assign(numSlots, -1);
  prefix.pending.assign(numSlots, 0);
}

/// Pipes and (source, destination) pairs as small integers; every event id
/// of a pair gets one slot of the event state. Also the trip counts to
/// check: a wait and the next set of its event lie at most the largest
/// stage, the longest rotation and the largest distance apart (in
/// stage-times), and a chain of flags between them runs forward inside
/// that span.
void HardwareOrderCheck::indexChannels(
    const LoopDependenceGraph &graph,
    llvm::function_ref<bool(const NpuFlagChannel &)> checked) {
  SmallVector<StringRef, 8> pipes;
  auto pipeOf = [&](StringRef name) {
    auto *it = llvm::find(pipes, name);
    if (it != pipes.end())
      return static_cast<unsigned>(it - pipes.begin());
    pipes.push_back(name);
    return static_cast<unsigned>(pipes.size() - 1);
  };
  chans.reserve(channels.size());
  SmallVector<std::pair<unsigned, unsigned>, 8> pairs;
  SmallVector<unsigned, 8> pairEvents;
  int64_t maxEvents = 1, maxDistance = 0;
  for (const NpuFlagChannel &c : channels) {
    SimChannel ch;
    ch.src = pipeOf(c.srcPipe);
    ch.dst = pipeOf(c.dstPipe);
    auto *it = llvm::find(pairs, std::make_pair(ch.src, ch.dst));
    ch.pair = static_cast<unsigned>(it - pairs.begin());
    if (it == pairs.end()) {
      pairs.push_back({ch.src, ch.dst});
      pairEvents.push_back(0);
    }
    ch.setGap = 2 * int64_t(graph.nodes[c.lastProducer].position) + 1;
    ch.waitGap = 2 * int64_t(graph.nodes[c.firstConsumer].position) - 1;
    ch.k = std::max(1u, c.numEvents);
    ch.first = c.firstEvent;
    ch.distance = c.distance;
    ch.producerStage = c.producerStage;
    ch.consumerStage = c.consumerStage;
    ch.checked = checked(c);
    pairEvents[ch.pair] = std::max(pairEvents[ch.pair], ch.first + ch.k);
    chans.push_back(ch);
    maxStage = std::max<int64_t>({maxStage, c.producerStage, c.consumerStage});
    maxEvents = std::max<int64_t>(maxEvents, c.numEvents);
    maxDistance = std::max<int64_t>(maxDistance, c.distance);
  }
  window = maxStage + maxEvents + maxDistance + 2;
  lastTrip = 2 * window + 2;
  numPipes = pipes.size();
  for (unsigned events : pairEvents) {
    pairBase.push_back(numSlots);
    numSlots += events;
  }
}

/// The flags of one stage-time in program order: by gap between body ops,
/// sets before waits, then channel (the order the layout of
/// checkHardwareOrder gives).
void HardwareOrderCheck::orderStageTimeFlags() {
  slotOrder.reserve(2 * chans.size());
  for (unsigned ci = 0; ci < chans.size(); ++ci) {
    slotOrder.push_back({ci, false});
    slotOrder.push_back({ci, true});
  }
  auto entryKey = [&](const SimEntry &e) {
    const SimChannel &c = chans[e.channel];
    return std::make_tuple(e.wait ? c.waitGap : c.setGap, e.wait ? 1 : 0,
                           e.wait ? int64_t(e.channel) : -int64_t(e.channel));
  };
  llvm::sort(slotOrder, [&](const SimEntry &a, const SimEntry &b) {
    return entryKey(a) < entryKey(b);
  });
}

/// Pre-sets (before the loop) and final waits (after it), each ordered by
/// channel * 64 + index, ties in channel order.
void HardwareOrderCheck::orderExtras() {
  for (auto [ci, c] : llvm::enumerate(chans))
    for (int64_t t = 0; t < c.distance; ++t)
      extras.push_back({unsigned(ci), t});
  llvm::stable_sort(extras, [](const SimExtra &a, const SimExtra &b) {
    return int64_t(a.channel) * 64 + a.t < int64_t(b.channel) * 64 + b.t;
  });
}

/// How a hazard names an event of a channel.
std::string HardwareOrderCheck::describe(unsigned ci, unsigned event) const {
  const NpuFlagChannel &c = channels[ci];
  return "event " + std::to_string(event) + " from " + c.srcPipe + " to " +
         c.dstPipe;
}

/// A hazard found in state `s`: sets `offender` (the last checked set of
/// `s`, or of the last complete trip count) and returns `message`.
std::string HardwareOrderCheck::report(const SimState &s, std::string message) {
  if (offender) {
    if (s.lastSet)
      *offender = *s.lastSet;
    else if (previousSet)
      *offender = *previousSet;
  }
  return message;
}

/// Simulates one flag; returns a hazard or nothing.
std::optional<std::string>
HardwareOrderCheck::step(SimState &s, unsigned ci, bool wait, int64_t iteration,
                         unsigned event, int64_t trips) {
  const SimChannel &c = chans[ci];
  unsigned slot = pairBase[c.pair] + event;
  int64_t *setClock = &s.setClock[slot * numPipes];
  if (!wait) {
    int64_t *own = &s.clock[c.src * numPipes];
    ++own[c.src];
    if (c.checked) {
      s.lastSet = ci;
      if (s.pending[slot])
        return report(s, describe(ci, event) + " is set twice before a wait");
      if (s.lastWait[slot] >= 0 && own[c.dst] < s.lastWait[slot])
        return report(s, describe(ci, event) + " is set again (iteration " +
                             std::to_string(iteration) + " of a " +
                             std::to_string(trips) +
                             "-iteration loop) before the " +
                             channels[ci].dstPipe +
                             " pipe has waited for its previous set");
    }
    s.pending[slot] = 1;
    std::copy(own, own + numPipes, setClock);
    return std::nullopt;
  }
  int64_t *own = &s.clock[c.dst * numPipes];
  ++own[c.dst];
  if (!s.pending[slot]) {
    if (c.checked)
      return report(s, describe(ci, event) + " is waited for before it is set");
    return std::nullopt;
  }
  for (unsigned p = 0; p < numPipes; ++p)
    own[p] = std::max(own[p], setClock[p]);
  s.pending[slot] = 0;
  s.lastWait[slot] = own[c.dst];
  return std::nullopt;
}

/// The flags of stage-time `time` of iterations below `iterationsBelow`
/// (any when it is negative).
std::optional<std::string>
HardwareOrderCheck::stageTime(SimState &s, int64_t time,
                              int64_t iterationsBelow, int64_t trips) {
  for (const SimEntry &e : slotOrder) {
    const SimChannel &c = chans[e.channel];
    int64_t i = time - (e.wait ? c.consumerStage : c.producerStage);
    if (i < 0 || (iterationsBelow >= 0 && i >= iterationsBelow))
      continue;
    unsigned event =
        c.first + unsigned((e.wait ? i : i + c.distance) % int64_t(c.k));
    std::optional<std::string> hazard =
        step(s, e.channel, e.wait, i, event, trips);
    if (hazard)
      return hazard;
  }
  return std::nullopt;
}

/// The tail of trip count `n` on a copy of the prefix state: its flags at
/// stage-times >= n, then its final waits.
std::optional<std::string> HardwareOrderCheck::runTail(int64_t n) {
  tail.clock.assign(prefix.clock.begin(), prefix.clock.end());
  tail.setClock.assign(prefix.setClock.begin(), prefix.setClock.end());
  tail.lastWait.assign(prefix.lastWait.begin(), prefix.lastWait.end());
  tail.pending.assign(prefix.pending.begin(), prefix.pending.end());
  tail.lastSet = prefix.lastSet;
  for (int64_t time = n; time < n + maxStage; ++time) {
    std::optional<std::string> hazard = stageTime(tail, time, n, n);
    if (hazard)
      return hazard;
  }
  for (const SimExtra &x : extras) {
    const SimChannel &c = chans[x.channel];
    std::optional<std::string> hazard =
        step(tail, x.channel, /*wait=*/true, n + x.t,
             c.first + unsigned((n + x.t) % int64_t(c.k)), n);
    if (hazard)
      return hazard;
  }
  if (tail.lastSet)
    previousSet = tail.lastSet;
  return std::nullopt;
}

std::optional<std::string> HardwareOrderCheck::run() {
  // The pre-sets belong to every trip count; a hazard among them is found
  // with the first.
  for (const SimExtra &x : extras) {
    const SimChannel &c = chans[x.channel];
    std::optional<std::string> hazard =
        step(prefix, x.channel, /*wait=*/false, x.t - int64_t(c.distance),
             c.first + unsigned(x.t % int64_t(c.k)), 1);
    if (hazard)
      return hazard;
  }
  for (int64_t n = 1; n <= lastTrip; ++n) {
    // Stage-time n - 1 joins the common prefix; its hazards are those of
    // the next trip count checked.
    int64_t reportedTrips = isChecked(n) ? n : lastTrip;
    std::optional<std::string> hazard =
        stageTime(prefix, n - 1, -1, reportedTrips);
    if (hazard)
      return hazard;
    if (!isChecked(n))
      continue;
    hazard = runTail(n);
    if (hazard)
      return hazard;
  }
  return std::nullopt;
}

/// Checks `channels` against the hardware order of the NPU: every pipe runs
/// its own instructions in order, independently of the others, and the only
/// order between two pipes is a set_flag (issued on the source pipe after
/// its earlier instructions) and the wait_flag that consumes it (on the
/// destination pipe). An event id may be set again only once the wait that
/// consumed its previous set happens before the new set in that partial
/// order; the program order of the pipelined loop is not enough (the source
/// pipe may run ahead). The flags of a loop of N iterations are laid out as
/// insertNpuFlags and scf::pipelineForLoop place them: the set of iteration i
/// at stage-time i + producerStage right after its producer, the wait of
/// iteration j at stage-time j + consumerStage right before its consumer,
/// pre-sets before the loop and final waits after it; happens-before is
/// tracked with one vector clock per pipe (flags are the only cross-pipe
/// edges; nodes add nothing beyond program order). Every trip count from 1
/// to a bound past which any window between a wait and the next set of its
/// event already occurs in a shorter trip or in the steady state is checked:
/// the windows are bounded by the stages plus the longest rotation plus the
/// largest distance. Only the events of pipe pairs with `checked` set are
/// checked; the others' flags still order the pipes. Returns nothing, or a
/// description of the first hazard (trip counts in increasing
/// order, flags in program order); `offender` gets the channel of the last
/// checked set met before it.
///
/// Cost. The flags of an N-iteration loop that come before stage-time N
/// (the pre-sets and every flag at stage-times 0..N-1) do not depend on N:
/// stage-time t holds the flags of iterations t - stage >= 0, all below N.
/// So the trip counts share one simulation of that growing prefix (stage-time
/// N - 1 added for trip count N), and only each trip count's tail (its flags
/// at stage-times >= N, of iterations below N, then its final waits) is
/// simulated on a copy of the prefix state. This visits the flags of every
/// checked trip count in the same order with the same state as simulating
/// each trip count from scratch, so the verdict and the first hazard are
/// the same, at O(trip counts x (1 + stages)) instead of O(trip counts^2)
/// flags, without sorting (the order inside one stage-time is fixed).
static std::optional<std::string>
checkHardwareOrder(ArrayRef<NpuFlagChannel> channels,
                   const LoopDependenceGraph &graph,
                   llvm::function_ref<bool(const NpuFlagChannel &)> checked,
                   unsigned *offender = nullptr) {
  if (channels.empty())
    return std::nullopt;
  return HardwareOrderCheck(channels, graph, checked, offender).run();
}

namespace {
using ChannelKey =
    std::tuple<std::string, std::string, unsigned, unsigned, unsigned>;
using PipePair = std::pair<std::string, std::string>;

/// How the search for a pipe pair's coarser flags ended: the events of the
/// last option tried and its shared channels, the fewest events any
/// hardware-ordered option needs, the options within the budget the
/// hardware order refused, and whether one fits.
struct CoarseningOutcome {
  unsigned total = 0, shared = 0, fewest = 0, unordered = 0;
  bool fits = false;
};

/// planFlags in steps: the fine channels (one per class of dependences a
/// set/wait pair serves), event ids per pipe pair (coarsened or shared when
/// a pair needs more than the hardware has), the plan's channel order, and
/// back-pressure flags for what the hardware order does not separate.
class FlagPlanner {
public:
  FlagPlanner(const LoopDependenceGraph &graph, const StageSchedule &schedule,
              bool pipelined, NpuFlagPlan &plan)
      : graph(graph), schedule(schedule), pipelined(pipelined), plan(plan) {}

  /// Fills the plan's channels and coarsening notes; a refusal (with the
  /// plan's verdict set where a budget or the hardware order refused it).
  llvm::Error run();

private:
  llvm::Error collectChannels();
  Candidate fineCandidate(const DepEdge &e) const;
  void addToChannels(const Candidate &c);
  void countEvents();
  SmallVector<NpuFlagChannel> orderingContext(const PipePair &current,
                                              ArrayRef<NpuFlagChannel> option);
  llvm::Error assignPairEvents();
  llvm::Error coarsenPair(const PipePair &pair, ArrayRef<Candidate *> members,
                          SmallVector<NpuFlagChannel> &channels);
  CoarseningOutcome searchCoarserFlags(const PipePair &pair,
                                       const SmallVector<Group> &groups,
                                       SmallVector<NpuFlagChannel> &channels);
  void emitChannels();
  llvm::Error addBackPressure();
  NpuFlagChannel backPressureFlag(const NpuFlagChannel &c) const;

  const LoopDependenceGraph &graph;
  const StageSchedule &schedule;
  bool pipelined;
  NpuFlagPlan &plan;
  std::map<ChannelKey, SmallVector<unsigned>> byKey;
  SmallVector<Candidate> candidates;
  /// Every edge as a one-edge group, per pipe pair (for coarsening).
  std::map<PipePair, SmallVector<Group>> edgeGroups;
  /// The channels of each pipe pair, in channel order, and the events
  /// they need together.
  std::map<PipePair, SmallVector<Candidate *>> byPair;
  std::map<PipePair, unsigned> needed;
  /// Channels per pipe pair, event ids assigned in channel order.
  std::map<PipePair, SmallVector<NpuFlagChannel>> channelsOf;
};
} // namespace

llvm::Error FlagPlanner::run() {
  if (llvm::Error err = collectChannels())
    return err;
  countEvents();
  if (llvm::Error err = assignPairEvents())
    return err;
  emitChannels();
  return addBackPressure();
}

/// The fine channels: one candidate per cross-pipe dependence, refused when
/// a unit is no NPU pipe or the schedule runs a consumer before its
/// producer, merged into a channel of the same class when one set and one
/// wait still serve every edge of both.
llvm::Error FlagPlanner::collectChannels() {
  for (const DepEdge &e : graph.edges) {
    const DepNode &u = graph.nodes[e.from];
    const DepNode &v = graph.nodes[e.to];
    // One pipe executes in order: same-pipe dependences need no flag.
    if (e.from == e.to || u.unit == v.unit)
      continue;
    for (const DepNode *node : {&u, &v})
      if (!npu::getPipeIndex(node->unit)) {
        return refuse(node->op,
                      "unit '" + node->unit +
                          "' of the spec is not an NPU pipe a flag can name "
                          "(mte1, mte2, mte3, cube, vector, scalar, fixpipe)");
      }
    Candidate c = fineCandidate(e);
    if (!setsBeforeWait(c)) {
      return refuse(v.op, "the schedule runs '" +
                              v.op->getName().getStringRef().str() + "' (" +
                              v.unit + ") before the '" +
                              u.op->getName().getStringRef().str() + "' (" +
                              u.unit + ") it depends on");
    }
    Group single;
    single.set = {static_cast<int64_t>(c.channel.producerStage) -
                      static_cast<int64_t>(c.channel.distance),
                  c.producerPos, e.from};
    single.wait = {c.channel.consumerStage, c.consumerPos, e.to};
    single.edges = 1;
    single.copies = c.copies;
    edgeGroups[{u.unit, v.unit}].push_back(single);
    addToChannels(c);
  }
  return llvm::Error::success();
}

/// The one-edge channel of dependence `e`, its distance raised to the
/// buffer's copies when multi-buffering removed a loop-carried WAR/WAW.
Candidate FlagPlanner::fineCandidate(const DepEdge &e) const {
  auto stageOf = [&](unsigned n) { return pipelined ? schedule.stage[n] : 0u; };
  const DepNode &u = graph.nodes[e.from];
  const DepNode &v = graph.nodes[e.to];
  Candidate c;
  c.channel.srcPipe = u.unit;
  c.channel.dstPipe = v.unit;
  c.channel.producerStage = stageOf(e.from);
  c.channel.consumerStage = stageOf(e.to);
  c.channel.distance = e.distance;
  c.channel.lastProducer = e.from;
  c.channel.firstConsumer = e.to;
  c.channel.edges = 1;
  c.producerPos = u.position;
  c.consumerPos = v.position;
  if (pipelined && e.buffer >= 0 && schedule.copies[e.buffer] > 1 &&
      !graph.buffers[e.buffer].loopLocal) {
    // The buffer is multi-buffered: iteration i uses copy i mod copies,
    // and a loop-carried WAR/WAW now reaches the iteration `copies` later.
    c.copies = schedule.copies[e.buffer];
    if (e.removableByMultiBuffering)
      c.channel.distance = c.copies;
  }
  return c;
}

/// Merges `c` into an existing channel of the same class when one set and
/// one wait still serve every edge of both; else it is a new channel.
void FlagPlanner::addToChannels(const Candidate &c) {
  ChannelKey key{c.channel.srcPipe, c.channel.dstPipe, c.channel.producerStage,
                 c.channel.consumerStage, c.channel.distance};
  for (unsigned idx : byKey[key]) {
    Candidate m = candidates[idx];
    if (c.producerPos > m.producerPos) {
      m.producerPos = c.producerPos;
      m.channel.lastProducer = c.channel.lastProducer;
    }
    if (c.consumerPos < m.consumerPos) {
      m.consumerPos = c.consumerPos;
      m.channel.firstConsumer = c.channel.firstConsumer;
    }
    m.copies = std::max(m.copies, c.copies);
    if (!setsBeforeWait(m))
      continue;
    ++m.channel.edges;
    candidates[idx] = m;
    return;
  }
  byKey[key].push_back(candidates.size());
  candidates.push_back(c);
}

/// The events each channel needs, and per pipe pair its channels (in
/// channel order) and their total.
void FlagPlanner::countEvents() {
  for (Candidate &c : candidates) {
    c.channel.numEvents = eventsNeeded(c);
    PipePair pair{c.channel.srcPipe, c.channel.dstPipe};
    byPair[pair].push_back(&c);
    needed[pair] += c.channel.numEvents;
  }
}

/// The flags that order the pipes while a pair's options are checked: the
/// pairs decided so far, and the fine channels of the others (coarser
/// channels of a pair set no earlier and wait no later than the fine ones
/// they replace, so they order at least as much; sharing changes no edge).
SmallVector<NpuFlagChannel>
FlagPlanner::orderingContext(const PipePair &current,
                             ArrayRef<NpuFlagChannel> option) {
  SmallVector<NpuFlagChannel> all(option.begin(), option.end());
  for (auto &[other, members] : byPair) {
    if (other == current)
      continue;
    auto decided = channelsOf.find(other);
    if (decided != channelsOf.end()) {
      all.append(decided->second.begin(), decided->second.end());
      continue;
    }
    unsigned next = 0;
    for (Candidate *c : members) {
      all.push_back(c->channel);
      all.back().firstEvent = next;
      next += c->channel.numEvents;
    }
  }
  return all;
}

/// Event ids per pipe pair: in channel order when the fine channels fit the
/// hardware's events, else coarser or shared flags (coarsenPair).
llvm::Error FlagPlanner::assignPairEvents() {
  for (auto &[pair, members] : byPair) {
    SmallVector<NpuFlagChannel> &channels = channelsOf[pair];
    if (needed[pair] <= npu::kNumEventIds) {
      for (Candidate *c : members)
        channels.push_back(c->channel);
    } else {
      // Too many: fewer, coarser flags for this pipe pair.
      if (llvm::Error err = coarsenPair(pair, members, channels))
        return err;
      continue;
    }
    unsigned next = 0;
    for (NpuFlagChannel &c : channels) {
      c.firstEvent = next;
      next += c.numEvents;
    }
  }
  return llvm::Error::success();
}

/// Fewer, coarser (or shared) flags for a pipe pair whose fine channels
/// need more events than the hardware has: the plan's coarsening note, or a
/// refusal when no option fits.
llvm::Error FlagPlanner::coarsenPair(const PipePair &pair,
                                     ArrayRef<Candidate *> members,
                                     SmallVector<NpuFlagChannel> &channels) {
  SmallVector<Group> groups;
  for (Candidate *c : members) {
    Group g;
    g.set = {static_cast<int64_t>(c->channel.producerStage) -
                 static_cast<int64_t>(c->channel.distance),
             c->producerPos, c->channel.lastProducer};
    g.wait = {c->channel.consumerStage, c->consumerPos,
              c->channel.firstConsumer};
    g.edges = c->channel.edges;
    g.copies = c->copies;
    groups.push_back(g);
  }
  CoarseningOutcome o = searchCoarserFlags(pair, groups, channels);
  NpuFlagCoarsening note;
  note.srcPipe = pair.first;
  note.dstPipe = pair.second;
  note.fineChannels = members.size();
  note.fineEvents = needed[pair];
  note.channels = channels.size();
  note.budget = npu::kNumEventIds;
  note.events = o.total;
  note.sharedChannels = o.shared;
  if (!o.fits) {
    plan.verdict = NpuFlagPlan::Verdict::EventBudgetExceeded;
    return refuse(graph.nodes[members.front()->channel.firstConsumer].op,
                  "the flags from " + pair.first + " to " + pair.second +
                      " need " + std::to_string(needed[pair]) + " event ids (" +
                      std::to_string(o.fewest) +
                      " with coarser or shared flags), the hardware has " +
                      std::to_string(npu::kNumEventIds) +
                      (o.unordered
                           ? "; " + std::to_string(o.unordered) +
                                 " plans within the budget were refused: "
                                 "their flags could be set again before "
                                 "the previous set was waited for, the "
                                 "pipes running out of program order"
                           : std::string()));
  }
  plan.coarsened.push_back(note);
  return llvm::Error::success();
}

/// Finest first: merges keeping one event per buffer copy, merges without
/// that minimum, then event sharing over the options of the latter (the
/// fine channels, the merges, the fewest channels). `channels` gets the
/// last option tried (the one that fits, if any).
CoarseningOutcome
FlagPlanner::searchCoarserFlags(const PipePair &pair,
                                const SmallVector<Group> &groups,
                                SmallVector<NpuFlagChannel> &channels) {
  CoarseningOutcome o;
  o.fewest = needed[pair];
  auto ofPair = [&](const NpuFlagChannel &c) {
    return c.srcPipe == pair.first && c.dstPipe == pair.second;
  };
  for (bool perCopy : {true, false}) {
    SmallVector<SmallVector<Group>> options =
        coarsen(groups, edgeGroups[pair], npu::kNumEventIds, perCopy);
    for (bool share : {false, true}) {
      if (perCopy && share)
        continue;
      for (ArrayRef<Group> option : options) {
        channels.clear();
        for (const Group &g : option)
          channels.push_back(channelOf(g, pair.first, pair.second, perCopy));
        o.total = assignEvents(channels, graph, pipelined, share, o.shared);
        // Shorter rotations and shared events are only kept when the
        // hardware order, not just the program order, separates each set
        // of an event from the wait of its previous set.
        if (o.total <= npu::kNumEventIds &&
            checkHardwareOrder(orderingContext(pair, channels), graph,
                               ofPair)) {
          ++o.unordered;
          continue;
        }
        o.fewest = std::min(o.fewest, o.total);
        if ((o.fits = o.total <= npu::kNumEventIds))
          return o;
      }
    }
  }
  return o;
}

/// Fine channels keep the order of their first dependences; the channels of
/// a coarsened pair come together where its first one was.
void FlagPlanner::emitChannels() {
  std::map<PipePair, unsigned> emitted;
  for (const Candidate &c : candidates) {
    PipePair pair{c.channel.srcPipe, c.channel.dstPipe};
    SmallVector<NpuFlagChannel> &channels = channelsOf[pair];
    unsigned &done = emitted[pair];
    bool coarse = !channels.empty() && channels.front().coarsened;
    if (coarse && done == 0) {
      plan.channels.append(channels.begin(), channels.end());
      done = channels.size();
    } else if (!coarse) {
      plan.channels.push_back(channels[done++]);
    }
  }
}

/// The back-pressure flag of channel `c`: set after its consumer, waited
/// for before the producer that sets the same event next, K - delta
/// iterations later, with K events; its first event after those its pipe
/// pair uses.
NpuFlagChannel FlagPlanner::backPressureFlag(const NpuFlagChannel &c) const {
  NpuFlagChannel r;
  r.srcPipe = c.dstPipe;
  r.dstPipe = c.srcPipe;
  r.lastProducer = c.firstConsumer;
  r.firstConsumer = c.lastProducer;
  r.producerStage = c.consumerStage;
  r.consumerStage = c.producerStage;
  r.distance = c.numEvents - c.distance;
  int64_t k = int64_t(r.distance) + r.consumerStage - r.producerStage +
              (graph.nodes[r.firstConsumer].position >
                       graph.nodes[r.lastProducer].position
                   ? 1
                   : 0);
  r.numEvents = static_cast<unsigned>(
      std::max<int64_t>({k, int64_t(r.distance), 1, int64_t(c.numEvents)}));
  r.edges = 0;
  r.backPressure = true;
  unsigned used = 0;
  for (const NpuFlagChannel &o : plan.channels)
    if (o.srcPipe == r.srcPipe && o.dstPipe == r.dstPipe)
      used = std::max(used, o.firstEvent + o.numEvents);
  r.firstEvent = used;
  return r;
}

/// The whole plan, every pair (the fine ones included), in the hardware
/// order: each pipe in order, pipes ordered only by the flags. A channel
/// whose rotation nothing orders on the hardware (no dependence leads back
/// from its consumer to its producer, e.g. a loop-local buffer) gets a
/// back-pressure flag (backPressureFlag); a refusal when a hazard remains.
llvm::Error FlagPlanner::addBackPressure() {
  std::optional<std::string> hazard;
  SmallVector<bool> throttled(plan.channels.size(), false);
  while (true) {
    unsigned offender = ~0u;
    hazard = checkHardwareOrder(
        plan.channels, graph, [](const NpuFlagChannel &) { return true; },
        &offender);
    if (!hazard || offender >= throttled.size() || throttled[offender])
      break;
    throttled[offender] = true;
    NpuFlagChannel r = backPressureFlag(plan.channels[offender]);
    unsigned used = r.firstEvent;
    if (used + r.numEvents > npu::kNumEventIds) {
      *hazard += " (a back-pressure flag from " + r.srcPipe + " to " +
                 r.dstPipe + " would need " + std::to_string(r.numEvents) +
                 " more event ids, " + std::to_string(used) +
                 " of the hardware's " + std::to_string(npu::kNumEventIds) +
                 " are used)";
      break;
    }
    plan.channels.push_back(r);
  }
  if (hazard) {
    plan.verdict = NpuFlagPlan::Verdict::HardwareOrderHazard;
    return refuse(graph.nodes[plan.channels.front().firstConsumer].op,
                  "on the hardware, where each pipe runs on its own, " +
                      *hazard);
  }
  return llvm::Error::success();
}

/// planNpuFlags: success, or a refusal at the op the flags cannot be planned
/// for (with the plan's verdict set).
static llvm::Error planFlags(const LoopDependenceGraph &graph,
                             const StageSchedule &schedule, bool pipelined,
                             NpuFlagPlan &plan) {
  return FlagPlanner(graph, schedule, pipelined, plan).run();
}

NpuFlagPlan hwsched::planNpuFlags(const LoopDependenceGraph &graph,
                                  const StageSchedule &schedule,
                                  bool pipelined) {
  NpuFlagPlan plan;
  llvm::Error err = planFlags(graph, schedule, pipelined, plan);
  if (!err)
    return plan;
  if (plan.verdict == NpuFlagPlan::Verdict::Planned)
    plan.verdict = NpuFlagPlan::Verdict::Unsupported;
  plan.refusal = takeRefusal(std::move(err));
  return plan;
}

//===----------------------------------------------------------------------===//
// Printing
//===----------------------------------------------------------------------===//

void NpuFlagChannel::print(llvm::raw_ostream &os) const {
  os << "npu flag " << srcPipe << " -> " << dstPipe << ": events " << firstEvent
     << ".." << firstEvent + numEvents - 1 << ", set in stage " << producerStage
     << ", wait in stage " << consumerStage << ", distance " << distance
     << ", ";
  if (backPressure)
    os << "back-pressure";
  else
    os << edges << " dependence" << (edges == 1 ? "" : "s");
}

void NpuFlagCoarsening::print(llvm::raw_ostream &os) const {
  os << "npu flags " << srcPipe << " -> " << dstPipe
     << " coarsened: " << fineChannels << " channels need " << fineEvents
     << " event ids, the hardware has " << budget << "; now " << channels
     << (channels == 1 ? " channel with " : " channels with ") << events
     << (events == 1 ? " event id" : " event ids");
  if (sharedChannels)
    os << " (" << sharedChannels
       << " channels share event ids with flags never live at once)";
}

void NpuFlagPlan::print(llvm::raw_ostream &os) const {
  if (!planned()) {
    os << "npu flags not planned: "
       << (refusal ? refusal->message : std::string("no reason given")) << "\n";
    return;
  }
  for (const NpuFlagCoarsening &c : coarsened) {
    c.print(os);
    os << "\n";
  }
  for (const NpuFlagChannel &c : channels) {
    c.print(os);
    os << "\n";
  }
}
