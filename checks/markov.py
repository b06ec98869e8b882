"""Exact reachability probabilities of finite Markov chains, and estimates from sampled trials.

A `Chain` is a transition system whose steps carry probabilities: an initial distribution, the
outgoing distribution of each state (exact Fractions summing to exactly 1; none = absorbing) and a
target predicate. `reach_probability` explores the reachable graph breadth-first (with the same
optional symmetry reduction as checks.explorer), finds the states that can reach a target (the
others have probability 0), and solves x = A x + b for the rest exactly over Fractions by sparse
Gaussian elimination (state elimination in Markowitz order, then back substitution), so chains with
cycles, e.g. a random walk that can come back, are handled and the answer is exact.

Target states are absorbing for the question: they are never expanded and count with probability 1.

`to_storm` / `storm_probability` build the same explored chain in Storm (stormpy) as a sparse DTMC
with state labels and check P=? [F "target"], in floating point (sound value iteration, precision
1e-12) or in exact rational arithmetic: an independent cross-check of the solver here.
`numpy_probability` is a second, dependency-light float cross-check (a dense linear solve).

`estimate` (from checks.interval, a leaf module) gives a Wilson score interval for a success count
of sampled trials, and `judge_at_least` turns it into a verdict that never says more than the
interval shows.
"""

from __future__ import annotations

import heapq
import time
from collections import deque
from fractions import Fraction
from numbers import Integral
from typing import Any, Callable, Hashable, Iterable, Mapping

import attrs

from checks.interval import Estimate, estimate  # noqa: F401 (estimate: re-exported, checks.markov.estimate)
from checks.verdict import Verdict

State = Hashable
Distribution = Iterable[tuple[Fraction, State]]

TARGET_LABEL = "target"
INIT_LABEL = "init"


@attrs.frozen
class Chain:
    """A discrete-time Markov chain given implicitly.

    `initial()` is the initial distribution and `transitions(state)` the outgoing distribution of a
    state, each a list of (probability, state) pairs whose probabilities (Fractions or ints in
    [0, 1]) sum to exactly 1; an empty `transitions(state)` makes `state` absorbing. Pairs with
    the same successor add up; zero-probability pairs are dropped (their successor is not reached
    through them). `canonical` maps a state to its orbit's representative key (a symmetry
    reduction; the target and the transition probabilities must respect the symmetry).
    `max_states` bounds the exploration."""

    initial: Callable[[], Distribution]
    transitions: Callable[[State], Distribution]
    target: Callable[[State], bool]
    canonical: Callable[[State], Hashable] | None = None
    max_states: int | None = None


@attrs.frozen
class Reachability:
    """The probability of eventually reaching a target state from the initial distribution.

    When `complete`, `probability` is exact and equals `upper`. When the exploration stopped
    early (only with `reach_probability(..., partial=True)`), the unexpanded frontier counts as 0
    for `probability` (a lower bound) and as 1 for `upper` (an upper bound). `values` maps each
    explored state's canonical key to its own probability (lower bound when incomplete).
    `states` counts explored states (targets included), `transitions` the distinct
    positive-probability edges of expanded states, `targets` the target states reached."""

    probability: Fraction
    upper: Fraction
    states: int
    transitions: int
    targets: int
    seconds: float
    complete: bool
    values: Mapping[Hashable, Fraction] = attrs.field(repr=False, factory=dict)

    @property
    def exact(self) -> bool:
        return self.complete


class IncompleteChain(RuntimeError):
    """The chain was not explored to the end (max_states or the deadline); `outcome` carries the
    bounds [probability, upper] that the explored part proves."""

    def __init__(self, message: str, outcome: Reachability):
        super().__init__(message)
        self.outcome = outcome


# --------------------------------------------------------------------------------------------
# Exploration
# --------------------------------------------------------------------------------------------

def _distribution(pairs: Distribution, where: str) -> tuple[list[tuple[Fraction, State]], Fraction]:
    """The pairs with their probabilities checked: Fractions or ints in [0, 1], summing to 1."""
    out = []
    total = Fraction(0)
    for pair in pairs:
        try:
            p, state = pair
        except (TypeError, ValueError):
            raise ValueError(f"{where}: {pair!r} is not a (probability, state) pair") from None
        if isinstance(p, bool) or not isinstance(p, (Fraction, Integral)):
            raise ValueError(f"{where}: probability {p!r} of successor {state!r} is a {type(p).__name__}, "
                             f"not an exact Fraction")
        p = Fraction(p)
        if not 0 <= p <= 1:
            raise ValueError(f"{where}: probability {p} of successor {state!r} is outside [0, 1]")
        total += p
        out.append((p, state))
    return out, total


def _checked(pairs: Distribution, where: str, allow_empty: bool) -> list[tuple[Fraction, State]]:
    out, total = _distribution(pairs, where)
    if (out or not allow_empty) and total != 1:
        raise ValueError(f"{where}: probabilities sum to {total}, not exactly 1")
    return out


@attrs.define
class _Graph:
    """The explored chain: state i has key keys[i] and representative reps[i]; rows[i] maps a
    successor index to its probability (empty for targets and absorbing states); expanded[i] is
    False for targets and the unexpanded frontier of an incomplete exploration."""

    keys: list[Hashable] = attrs.Factory(list)
    reps: list[State] = attrs.Factory(list)
    index: dict[Hashable, int] = attrs.Factory(dict)
    rows: list[dict[int, Fraction]] = attrs.Factory(list)
    target: list[bool] = attrs.Factory(list)
    expanded: list[bool] = attrs.Factory(list)
    initial: dict[int, Fraction] = attrs.Factory(dict)
    transitions: int = 0
    complete: bool = True
    seconds: float = 0.0

    @property
    def frontier(self) -> list[int]:
        return [i for i, done in enumerate(self.expanded) if not done and not self.target[i]]


def _explore(chain: Chain, deadline_seconds: float | None = None) -> _Graph:
    key = chain.canonical or (lambda s: s)
    g = _Graph()
    queue: deque[int] = deque()
    start = time.perf_counter()

    def visit(state: State) -> int:
        k = key(state)
        i = g.index.get(k)
        if i is None:
            i = len(g.keys)
            g.index[k] = i
            g.keys.append(k)
            g.reps.append(state)
            g.rows.append({})
            is_target = bool(chain.target(state))
            g.target.append(is_target)
            g.expanded.append(False)
            if not is_target:
                queue.append(i)
        return i

    for p, s in _checked(chain.initial(), "the initial distribution", allow_empty=False):
        if p:
            i = visit(s)
            g.initial[i] = g.initial.get(i, Fraction(0)) + p
    while queue:
        if (chain.max_states is not None and len(g.keys) >= chain.max_states) or \
                (deadline_seconds is not None and time.perf_counter() - start > deadline_seconds):
            g.complete = False
            break
        i = queue.popleft()
        state = g.reps[i]
        row = g.rows[i]
        for p, s in _checked(chain.transitions(state), f"state {state!r}", allow_empty=True):
            if p:
                j = visit(s)
                row[j] = row.get(j, Fraction(0)) + p
        g.expanded[i] = True
        g.transitions += len(row)
    g.seconds = time.perf_counter() - start
    return g


# --------------------------------------------------------------------------------------------
# The exact solver
# --------------------------------------------------------------------------------------------

def _can_reach(g: _Graph, goals: Iterable[int]) -> set[int]:
    preds: list[list[int]] = [[] for _ in g.keys]
    for i, row in enumerate(g.rows):
        for j in row:
            preds[j].append(i)
    seen = set(goals)
    stack = list(seen)
    while stack:
        j = stack.pop()
        for i in preds[j]:
            if i not in seen:
                seen.add(i)
                stack.append(i)
    return seen


def _solve(g: _Graph) -> tuple[list[Fraction], list[Fraction]]:
    """Per-state (lower, upper) reaching probabilities: the frontier counts 0 for the lower and 1
    for the upper value (identical when the exploration is complete)."""
    n = len(g.keys)
    frontier = set(g.frontier)
    exits = {i for i in range(n) if g.target[i]} | frontier
    maybe = _can_reach(g, exits) - exits
    bounds = 2 if frontier else 1
    low = [Fraction(0)] * n
    high = [Fraction(0)] * n
    for i in exits:
        low[i] = Fraction(1) if g.target[i] else Fraction(0)
        high[i] = Fraction(1)

    # x_i = sum_j coef[i][j] x_j + const[i] over the maybe states i, j; everything else is known.
    coef: dict[int, dict[int, Fraction]] = {}
    const: dict[int, list[Fraction]] = {}
    cols: dict[int, set[int]] = {i: set() for i in maybe}
    for i in maybe:
        row: dict[int, Fraction] = {}
        c = [Fraction(0)] * bounds
        for j, p in g.rows[i].items():
            if j in maybe:
                row[j] = p
                cols[j].add(i)
            elif g.target[j]:
                for b in range(bounds):
                    c[b] += p
            elif j in frontier:
                c[1] += p
        coef[i] = row
        const[i] = c

    # Eliminate in Markowitz order (fewest in x out entries first, lazily updated). All entries
    # stay non-negative, so none cancels; every maybe state still reaches an exit, so its
    # self-loop stays below 1 and the pivot 1 - loop is never 0.
    def cost(k: int) -> int:
        return (len(cols[k]) - (k in cols[k])) * (len(coef[k]) - (k in coef[k]))

    heap = [(cost(k), k) for k in maybe]
    heapq.heapify(heap)
    done: set[int] = set()
    order: list[int] = []
    while heap:
        c0, k = heapq.heappop(heap)
        if k in done:
            continue
        c1 = cost(k)
        if c1 != c0:
            heapq.heappush(heap, (c1, k))
            continue
        row = coef[k]
        loop = row.pop(k, None)
        cols[k].discard(k)
        if loop is not None:
            scale = 1 / (1 - loop)
            for j in row:
                row[j] *= scale
            const[k] = [v * scale for v in const[k]]
        ck = const[k]
        touched = set()
        for i in cols[k]:
            ri = coef[i]
            a = ri.pop(k)
            for j, p in row.items():
                if j in ri:
                    ri[j] += a * p
                else:
                    ri[j] = a * p
                    cols[j].add(i)
                    touched.add(j)
            ci = const[i]
            for b in range(bounds):
                ci[b] += a * ck[b]
            touched.add(i)
        for j in row:
            cols[j].discard(k)
            touched.add(j)
        del cols[k]
        done.add(k)
        order.append(k)
        for t in touched:
            if t not in done:
                heapq.heappush(heap, (cost(t), t))

    # Back substitution: the row of k names only states eliminated after k.
    for k in reversed(order):
        row = coef[k]
        ck = const[k]
        low[k] = ck[0] + sum((p * low[j] for j, p in row.items()), Fraction(0))
        if bounds == 2:
            high[k] = ck[1] + sum((p * high[j] for j, p in row.items()), Fraction(0))
        else:
            high[k] = low[k]
    return low, high


def reach_probability(chain: Chain, *, partial: bool = False,
                      deadline_seconds: float | None = None) -> Reachability:
    """The exact probability that `chain` eventually reaches a target state.

    If the exploration stops early (`chain.max_states` or `deadline_seconds`), this raises
    IncompleteChain carrying the proven bounds, unless `partial` is set, when it returns them
    (complete=False, probability the lower and upper the upper bound)."""
    start = time.perf_counter()
    g = _explore(chain, deadline_seconds)
    low, high = _solve(g)
    lo = sum((p * low[i] for i, p in g.initial.items()), Fraction(0))
    hi = sum((p * high[i] for i, p in g.initial.items()), Fraction(0))
    outcome = Reachability(probability=lo, upper=hi, states=len(g.keys), transitions=g.transitions,
                           targets=sum(g.target), seconds=time.perf_counter() - start, complete=g.complete,
                           values=dict(zip(g.keys, low)))
    if not g.complete and not partial:
        limit = f"max_states={chain.max_states}" if chain.max_states is not None and \
            len(g.keys) >= chain.max_states else f"deadline {deadline_seconds} s"
        raise IncompleteChain(f"the chain was explored to {len(g.keys)} states ({limit}) without being complete: "
                              f"the probability is only known to lie in [{lo}, {hi}]", outcome)
    return outcome


# --------------------------------------------------------------------------------------------
# Cross-checks: Storm (stormpy) and a dense float solve (numpy)
# --------------------------------------------------------------------------------------------

@attrs.frozen
class StormModel:
    """The explored chain as a Storm sparse DTMC: explored state i is Storm state i (`index` maps
    canonical keys to it); Storm state `initial` (the last) is a fresh state labelled "init" whose
    row is the initial distribution. Targets and absorbing states carry a self-loop 1."""

    model: Any
    index: Mapping[Hashable, int]
    initial: int
    exact: bool


def _complete_graph(chain: Chain) -> _Graph:
    g = _explore(chain)
    if not g.complete:
        raise IncompleteChain(f"the chain has more than max_states={chain.max_states} states",
                              Reachability(Fraction(0), Fraction(1), len(g.keys), g.transitions, sum(g.target),
                                           g.seconds, False))
    return g


def to_storm(chain: Chain, *, exact: bool = False) -> StormModel:
    """Build the chain in Storm with a SparseMatrixBuilder and labels "init" and "target"; values
    are floats, or stormpy.Rational when `exact`."""
    import stormpy

    g = _complete_graph(chain)
    n = len(g.keys)
    rows = [dict(r) if r else {i: Fraction(1)} for i, r in enumerate(g.rows)] + [dict(g.initial)]
    value_type = stormpy.Rational if exact else float
    convert = (lambda p: stormpy.Rational(p)) if exact else float
    entries = sum(len(r) for r in rows)
    builder = stormpy.datastructures.SparseMatrixBuilder[value_type](rows=n + 1, columns=n + 1, entries=entries,
                                                                      force_dimensions=True)
    for i, r in enumerate(rows):
        for j in sorted(r):
            builder.add_next_value(i, j, convert(r[j]))
    labels = stormpy.models.StateLabeling(n + 1)
    labels.add_label(INIT_LABEL)
    labels.add_label_to_state(INIT_LABEL, n)
    labels.add_label(TARGET_LABEL)
    for i in range(n):
        if g.target[i]:
            labels.add_label_to_state(TARGET_LABEL, i)
    components = stormpy.models.SparseModelComponents[value_type](transition_matrix=builder.build(),
                                                                   state_labeling=labels)
    return StormModel(stormpy.models.SparseDtmc[value_type](components), dict(g.index), n, exact)


def storm_probability(chain: Chain, *, exact: bool = False, precision: float = 1e-12) -> float | Fraction:
    """P=? [F "target"] from the initial distribution, checked by Storm: a float from sound value
    iteration to relative `precision`, or an exact Fraction when `exact`."""
    import stormpy

    built = to_storm(chain, exact=exact)
    prop = stormpy.parse_properties(f'P=? [F "{TARGET_LABEL}"]')[0]
    if exact:
        env = stormpy.environments.exact()
    else:
        env = stormpy.environments.sound()
        env.solver().native().precision = stormpy.Rational(Fraction(precision))
    value = stormpy.model_checking(built.model, prop, environment=env).get_value(built.initial)
    return Fraction(str(value)) if exact else float(value)


def numpy_probability(chain: Chain) -> float:
    """The same probability from a dense float linear solve over the states that can reach a
    target (an independent float cross-check for small chains)."""
    import numpy as np

    g = _complete_graph(chain)
    targets = [i for i, t in enumerate(g.target) if t]
    maybe = sorted(_can_reach(g, targets) - set(targets))
    pos = {i: k for k, i in enumerate(maybe)}
    m = len(maybe)
    a = np.eye(m)
    b = np.zeros(m)
    for i in maybe:
        for j, p in g.rows[i].items():
            if j in pos:
                a[pos[i], pos[j]] -= float(p)
            elif g.target[j]:
                b[pos[i]] += float(p)
    x = np.linalg.solve(a, b) if m else b
    value = 0.0
    for i, p in g.initial.items():
        value += float(p) * (1.0 if g.target[i] else (x[pos[i]] if i in pos else 0.0))
    return float(value)


# --------------------------------------------------------------------------------------------
# Verdicts from sampled trials
# --------------------------------------------------------------------------------------------

def judge_at_least(est: Estimate, bound: float | Fraction) -> Verdict:
    """holds if the whole interval is at or above `bound`, violated if it lies wholly below,
    unknown otherwise (a Verdict, a str enum: it compares equal to "holds" etc.)."""
    if est.low >= bound:
        return Verdict.HOLDS
    if est.high < bound:
        return Verdict.VIOLATED
    return Verdict.UNKNOWN
