"""Which candidates to measure next, and when to stop.

The model ranks every candidate by its predicted time; measurements correct
it. A candidate's corrected estimate is its predicted time times the
measured/predicted ratio of the measured candidates nearest to it (the 3
nearest in log-scale tile sizes, stages and knob values, weighted by
closeness): where the model was optimistic for a region of the space it is
assumed optimistic for the neighbours too. Each batch takes the unmeasured
candidates with the best corrected estimates, plus one exploration pick
(among the model's better half, the one farthest from everything measured),
so that a region the model misjudges as a whole is still visited.

The first batch starts with the untuned default (the model's pick with the
script's knob values), which is also the reference every measurement is
paired with; the rest of it are candidates the model cannot tell apart
from its pick (predicted within 5%), chosen as different from each other
as possible (greedy farthest points), since the model's order among
near-ties carries no information. Batches hold at most half the budget
(at least 2), so that later batches use what the first measured.

Stopping rule (the first that holds, checked after every batch):
  1. budget: `budget` candidates have been measured (failures count);
  2. no gain: the last `patience` candidates measured did not improve the
     best time by at least `min_gain` (a relative gain, default 1%);
  3. nothing promising: after at least `patience` measurements, no
     unmeasured candidate's predicted time times the most favourable
     measured/predicted ratio seen so far is below the best measured time
     divided by (1 + min_gain) (the model with its most optimistic
     correction says nothing left can win);
  4. the space is exhausted.
"""

import math


def kendall_tau(xs, ys):
    """Kendall's tau-b between two equally long sequences (ties allowed)."""
    n = len(xs)
    concordant = discordant = ties_x = ties_y = 0
    for i in range(n):
        for j in range(i + 1, n):
            dx = (xs[i] > xs[j]) - (xs[i] < xs[j])
            dy = (ys[i] > ys[j]) - (ys[i] < ys[j])
            if dx == 0 and dy == 0:
                continue
            if dx == 0:
                ties_x += 1
            elif dy == 0:
                ties_y += 1
            elif dx == dy:
                concordant += 1
            else:
                discordant += 1
    denom = math.sqrt((concordant + discordant + ties_x) *
                      (concordant + discordant + ties_y))
    return (concordant - discordant) / denom if denom else float("nan")


class Search:
    def __init__(self, space, default, budget, batch=4, patience=6, min_gain=0.01,
                 done=None):
        self.space = list(space)
        self.default = default
        self.budget = max(budget, 1)
        self.batch = max(1, min(batch, max(2, self.budget // 2)))
        self.patience = max(patience, 1)
        self.min_gain = min_gain
        # ident -> estimated ns (None: failed)
        self.results = {}
        self.order = []              # idents in measurement order
        self.best_history = []       # best time after each measurement
        self.stop_reason = None
        # The playoff's leader (tuner.py), which wins even where a candidate
        # left out of the playoff or dropped from it has a lower median of
        # fewer, noisier rounds.
        self.chosen = None
        self.playoff = None
        # Predicted times within this share of the best are model ties.
        self.tie_band = 0.05
        self.by_ident = {c.ident(): c for c in self.space}
        self.by_ident.setdefault(default.ident(), default)
        for ident, ns in (done or {}).items():
            self.observe(ident, ns)

    # -- bookkeeping ---------------------------------------------------------

    def observe(self, ident, ns):
        """A measured time (ns, paired-round estimate) or None (failed)."""
        if ident in self.results:
            self.results[ident] = ns
            return
        self.results[ident] = ns
        self.order.append(ident)
        best = self.best()
        self.best_history.append(best[1] if best else None)

    def best(self):
        if self.chosen is not None and self.results.get(self.chosen) is not None:
            return self.chosen, self.results[self.chosen]
        ok = [(i, ns) for i, ns in self.results.items() if ns is not None]
        return min(ok, key=lambda x: x[1]) if ok else None

    def measured_count(self):
        return len(self.results)

    # -- estimates -----------------------------------------------------------

    def _corrections(self):
        pts = []
        for ident, ns in self.results.items():
            c = self.by_ident.get(ident)
            if ns is None or c is None or not c.predicted_ns:
                continue
            pts.append((c.features(), math.log(ns / c.predicted_ns)))
        return pts

    def corrected(self, candidate, pts=None):
        pts = self._corrections() if pts is None else pts
        pred = candidate.predicted_ns or 1.0
        if not pts:
            return pred
        f = candidate.features()
        near = sorted(((sum((a - b) ** 2 for a, b in zip(f, p)) ** 0.5, r)
                       for p, r in pts))[:3]
        wsum = sum(1.0 / (d + 0.5) for d, _ in near)
        corr = sum(r / (d + 0.5) for d, r in near) / wsum
        return pred * math.exp(corr)

    # -- choosing ------------------------------------------------------------

    def _check_stop(self, unmeasured, pts):
        n = self.measured_count()
        if n >= self.budget:
            return f"budget: {n} candidates measured (budget {self.budget})"
        if not unmeasured:
            return f"space exhausted ({n} candidates measured)"
        hist = [b for b in self.best_history if b is not None]
        if len(self.best_history) > self.patience and hist:
            before = self.best_history[-self.patience - 1]
            now = self.best_history[-1]
            if before is not None and now is not None and now > before / (1 + self.min_gain):
                return (f"no gain: the last {self.patience} candidates measured improved "
                        f"the best by less than {self.min_gain:.0%}")
        best = self.best()
        if best and pts and n >= self.patience:
            # Optimistic: the most favourable correction seen anywhere.
            optimism = math.exp(min(r for _, r in pts))
            promising = [c for c in unmeasured
                         if (c.predicted_ns or 0) * optimism < best[1] / (1 + self.min_gain)]
            if not promising:
                return ("nothing promising: no unmeasured candidate's estimate, with the "
                        "most favourable measured/predicted ratio seen, beats the best "
                        f"by {self.min_gain:.0%}")
        return None

    @staticmethod
    def _distance(a, b):
        return sum((x - y) ** 2 for x, y in zip(a.features(), b.features()))

    def _spread(self, pool, chosen, count):
        """Greedy farthest-point picks from `pool` away from `chosen`."""
        picks = []
        pool = [c for c in pool if c not in chosen]
        while pool and len(picks) < count:
            anchors = chosen + picks
            best = max(pool, key=lambda c: min(self._distance(c, a) for a in anchors))
            picks.append(best)
            pool.remove(best)
        return picks

    def next_batch(self):
        """The candidates to measure next ([] when a stopping rule holds)."""
        if self.default.ident() not in self.results:
            # First batch: the default, then candidates the model cannot
            # tell apart from its pick (predicted within `tie_band`), as
            # different from each other as possible: the model's order among
            # near-ties carries no information, the measurements will.
            rest = [c for c in self.space if c.ident() != self.default.ident()]
            rest.sort(key=lambda c: (c.predicted_ns or 0))
            take = max(min(self.batch - 1, self.budget - 1), 0)
            if not rest or take == 0:
                return [self.default]
            top = rest[0].predicted_ns or 0
            pool = [c for c in rest if (c.predicted_ns or 0) <= top * (1 + self.tie_band)]
            if len(pool) < take:
                pool = rest[:max(take, len(pool))]
            return [self.default] + self._spread(pool, [self.default], take)
        unmeasured = [c for c in self.space if c.ident() not in self.results]
        pts = self._corrections()
        self.stop_reason = self._check_stop(unmeasured, pts)
        if self.stop_reason:
            return []
        room = min(self.batch, self.budget - self.measured_count())
        ranked = sorted(unmeasured, key=lambda c: self.corrected(c, pts))
        chosen = ranked[:max(room - 1, 1)]
        if room > len(chosen):
            # Exploration: among the model's better half, the candidate
            # farthest from every measured one.
            by_model = sorted(unmeasured, key=lambda c: c.predicted_ns or 0)
            half = [c for c in by_model[:max(len(by_model) // 2, 1)] if c not in chosen]
            measured = [self.by_ident[i].features() for i in self.results
                        if i in self.by_ident]
            if half and measured:
                def distance(c):
                    f = c.features()
                    return min(sum((a - b) ** 2 for a, b in zip(f, m)) for m in measured)
                chosen.append(max(half, key=distance))
            elif len(ranked) > len(chosen):
                chosen.append(ranked[len(chosen)])
        return chosen
