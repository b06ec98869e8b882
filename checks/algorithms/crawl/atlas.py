"""Every walk on the atlas's graphs as a graph of states, not as a list of walks.

At 7 nodes, a budget of 10 and k = 1 a walk has up to 6 choices at each of 10 forwards and more
after a restart: its walks cannot be listed (the tests list them on graphs of up to 4 or 5 nodes,
as the oracle this search is held to), but its states can. For one graph, Trace length k and first budget B, the walks from every
source share one graph of states, each state's successors the spec's `successors` (a state's
successors do not read the source, only step 1 does: the tests hold that). From it:

- how every walk ends: a walk from a source can go round for ever exactly where a cycle of states
  is reachable from it, and its shortest lasso is the case judged; where none is, the walk that
  forwards most is judged (no walk forwards more than 2B - 1 times iff that one does not);
- the exact chance of reaching an entry point, for every APT placement at once. With entry points
  E the walk is the walk without any, stopped at its first lookup (step 2.1) at a node of E: the
  successors read the entries nowhere else. So one pass over the states, sinks first, gives the
  distribution of the set of nodes a walk looks up, and the chance of reaching E is one minus the
  chance that this set misses E (a sum over the subsets of the nodes outside E). The arithmetic is
  exact: a state's distribution is kept as integers over L^h, L the least common multiple of the
  choices' denominators and h the longest way from the state to an end.
"""

from __future__ import annotations

import functools
import math
from collections import deque
from fractions import Fraction
from typing import Callable, Hashable, Iterator

import attrs
from flint import fmpq, fmpq_mat

from spec import crawl as C


@attrs.frozen(slots=False)
class States:
    """The walk's states from every source of one graph, k and first budget: `moves[i]` the
    choices (probability, move, next state's index) from state i, `roots[s]` the step-1 choices
    from source s, `order` the states that cannot reach a cycle, every state after its successors,
    `round` those that can."""

    graph: C.Graph
    k: int
    budget: int
    reading: C.Reading
    states: list[C.WalkState]
    moves: list[list[tuple[Fraction, C.Move, int]]]
    roots: list[list[tuple[Fraction, C.Move, int]]]
    order: list[int]
    round: frozenset[int]

    def params(self, source: int, entries: frozenset[int] = frozenset()) -> C.WalkParameters:
        return C.WalkParameters(self.graph, source, entries, self.k, self.budget)

    @functools.cached_property
    def links(self) -> C.Graph:
        """The links a walk can move along under the reading's views (spec.crawl.moves_within)."""
        return C.moves_within(self.graph, self.reading)

    def goes_round(self, source: int) -> bool:
        """Whether a walk from `source` can come back to a state it was in (and go round for ever)."""
        return any(j in self.round for _, _, j in self.roots[source])


CERTAIN = Fraction(1)      # a choice's chance where it is the only one


@functools.lru_cache(maxsize=None)
def _share(n: int) -> Fraction:
    return Fraction(1, n)


@functools.lru_cache(maxsize=None)
def _fresh(others: int, candidates: int, d: int, trace: int) -> tuple[Fraction, Fraction, Fraction]:
    """A fresh view of d of the `others` nodes, `candidates` of them outside the Trace (of `trace`
    nodes): the chance it is blocked, each candidate's chance, and each Trace node's chance to
    restart the walk (when the halved budget is 0, the chance of ending blocked)."""
    blocked = Fraction(math.comb(others - candidates, d), math.comb(others, d))
    share = (1 - blocked) / candidates if candidates else Fraction(0)
    return blocked, share, blocked / trace


class Steps:
    """spec.crawl.successors for one graph, Trace length k, first budget and reading, with no entry
    point (the atlas's walk): the same choices in the same order, each state and move built once and
    shared (a state's successors are built millions of times over an atlas, most of them states and
    moves seen before), the chances counted once per count of candidates. The spec stays the judge:
    tests/test_crawl.py holds every state's choices to the spec's, on every graph, k, budget and
    reading of the default scope's smaller graphs and a sample of 5 and 7 nodes."""

    def __init__(self, graph: C.Graph, k: int, budget: int, reading: C.Reading) -> None:
        self.views, self.n, self.k, self.first, self.reading = graph.views, len(graph), k, budget, reading
        self.fresh = reading.views == "refreshed"
        self.previous = reading.halving == "previous"
        self.kept = reading.trace_on_restart == "kept"
        self.restart_avoids = reading.restart == "step-2.2"
        self.carries = reading.handover == "sent"
        self._states: dict[tuple, C.WalkState] = {}
        self._moves: dict[tuple, C.Move] = {}

    def state(self, at: int, trace: tuple[int, ...], hops: int, budget: int, ended: str = "") -> C.WalkState:
        key = (at, trace, hops, budget, ended)
        s = self._states.get(key)
        if s is None:
            s = self._states[key] = C.WalkState(at, trace, hops, budget, ended)
        return s

    def move(self, kind: str, frm: int, to: int, trace: tuple[int, ...], budget: int, avoids: bool = True,
             carries: bool = True) -> C.Move:
        key = (kind, frm, to, trace, budget, avoids, carries)
        m = self._moves.get(key)
        if m is None:
            m = self._moves[key] = C.Move(kind, frm, to, trace, budget, avoids, carries)
        return m

    def successors(self, source: int, state: C.WalkState | None) -> list[tuple[Fraction, C.Move, C.WalkState]]:
        if state is None:                                           # step 1
            return self._forward(source, (), 0, self.first, True)
        if state.ended == "restarting":
            return self._forward(state.at, state.trace, state.hops, state.budget, self.restart_avoids)
        if state.ended:
            return []
        if state.hops >= state.budget:                              # step 2.2, the budget used up
            return [(CERTAIN, self.move("exhausted", state.at, state.at, state.trace, state.budget),
                     self.state(state.at, state.trace, state.hops, state.budget, "exhausted"))]
        return self._forward(state.at, state.trace, state.hops, state.budget, True)

    def _forward(self, at: int, trace: tuple[int, ...], hops: int, budget: int, avoid_trace: bool):
        trace = C._remember(trace, at, self.k)
        if self.fresh:
            candidates = [v for v in range(self.n) if v != at and (v not in trace or not avoid_trace)]
            blocked, share, restart = _fresh(self.n - 1, len(candidates), len(self.views[at]), len(trace))
            choices = []
            if candidates and blocked < 1:
                choices = [(share, self.move("forward", at, v, trace, budget, avoid_trace),
                            self.state(v, trace, hops + 1, budget)) for v in candidates]
            if blocked:
                choices += self._recovery(at, trace, hops, budget, restart, blocked)
            return choices
        avoid = trace if avoid_trace else (at,)
        candidates = [v for v in self.views[at] if v not in avoid]
        if candidates:
            share = _share(len(candidates))
            return [(share, self.move("forward", at, v, trace, budget, avoid_trace),
                     self.state(v, trace, hops + 1, budget)) for v in candidates]
        return self._recovery(at, trace, hops, budget, _share(len(trace)), CERTAIN)

    def _recovery(self, at: int, trace: tuple[int, ...], hops: int, budget: int, share: Fraction,
                  certain: Fraction):
        """Sec. 3.2's recovery, `share` each Trace node's chance and `certain` that of ending blocked
        (scaled by the chance of blocking in a fresh view)."""
        halved = C.halve(budget if self.previous else self.first, self.reading)
        if halved == 0:
            return [(certain, self.move("blocked", at, at, trace, budget), self.state(at, trace, hops, budget, "blocked"))]
        after = trace if self.kept else ()
        return [(share, self.move("restart", at, node, trace, halved, carries=self.carries), self.state(node, after, 0, halved, "restarting"))
                for node in trace]


def spec_steps(graph: C.Graph, k: int, budget: int, reading: C.Reading):
    """The spec's own successors in Steps' shape (the oracle the tests hold Steps to)."""
    def successors(source: int, state: C.WalkState | None):
        return C.successors(C.WalkParameters(graph, source, frozenset(), k, budget), state, reading)
    return successors


def explore(graph: C.Graph, k: int, budget: int, reading: C.Reading, successors=None) -> States:
    """The walk's states from every source; `successors` (source, state) -> choices, by default
    Steps' (held to the spec's by the tests), or spec_steps' to search with the spec itself."""
    successors = successors or Steps(graph, k, budget, reading).successors
    index: dict[C.WalkState, int] = {}
    states: list[C.WalkState] = []
    moves: list[list[tuple[Fraction, C.Move, int]]] = []
    todo: list[int] = []

    def visit(state: C.WalkState) -> int:
        i = index.get(state)
        if i is None:
            i = index[state] = len(states)
            states.append(state)
            moves.append([])
            todo.append(i)
        return i

    roots = []
    for source in range(len(graph)):
        roots.append([(pr, m, visit(nxt)) for pr, m, nxt in successors(source, None)])
        while todo:
            i = todo.pop()
            moves[i] = [(pr, m, visit(nxt)) for pr, m, nxt in successors(source, states[i])]
    # sinks first (Kahn's algorithm on the reversed edges): what is left can reach a cycle
    left = [len(m) for m in moves]
    before: list[list[int]] = [[] for _ in states]
    for i, ms in enumerate(moves):
        for _, _, j in ms:
            before[j].append(i)
    ready = deque(i for i, n in enumerate(left) if n == 0)
    order = []
    while ready:
        j = ready.popleft()
        order.append(j)
        for i in before[j]:
            left[i] -= 1
            if left[i] == 0:
                ready.append(i)
    done = set(order)
    return States(graph, k, budget, reading, states, moves, roots, order,
                  frozenset(i for i in range(len(states)) if i not in done))


def longest_walks(s: States) -> Iterator[C.Walk]:
    """For each source: its shortest lasso where a walk from it can go round for ever, else the
    walk that forwards most (the first such in the order of the choices)."""
    most: dict[int, tuple[int, int]] = {}          # state -> (forwards to an end, the best choice)
    for i in s.order:
        best_f, best_c = 0, -1
        for c, (_, m, j) in enumerate(s.moves[i]):
            f = most[j][0] + (m.kind == "forward")
            if best_c < 0 or f > best_f:
                best_f, best_c = f, c
        most[i] = (best_f, best_c)
    for source in range(len(s.graph)):
        if s.goes_round(source):
            yield shortest_lasso(s, source)
            continue
        choice = max(range(len(s.roots[source])),
                     key=lambda c: (most[s.roots[source][c][2]][0] + (s.roots[source][c][1].kind == "forward"), -c))
        _, move, i = s.roots[source][choice]
        path = [move]
        while s.moves[i]:
            _, move, i = s.moves[i][most[i][1]]
            path.append(move)
        yield C.Walk(s.params(source), s.reading, tuple(path))


def shortest_lasso(s: States, source: int) -> C.Walk:
    """The fewest moves from the source round a cycle back to a state of the walk: a way to a
    state x, then the shortest way from x back to x, over every x (breadth first)."""
    way: dict[int, list[C.Move]] = {}
    frontier = deque()
    for _, m, j in s.roots[source]:
        if j not in way:
            way[j] = [m]
            frontier.append(j)
    best: list[C.Move] | None = None
    lasso_at = -1
    while frontier:
        x = frontier.popleft()
        if best is not None and len(way[x]) >= len(best):
            break
        if x in s.round:
            back = _way_back(s, x)
            if back is not None and (best is None or len(way[x]) + len(back) < len(best)):
                best, lasso_at = way[x] + back, len(way[x]) - 1
        for _, m, j in s.moves[x]:
            if j not in way:
                way[j] = way[x] + [m]
                frontier.append(j)
    assert best is not None, "a source that can go round has a lasso"
    return C.Walk(s.params(source), s.reading, tuple(best), lasso=lasso_at)


def _way_back(s: States, x: int) -> list[C.Move] | None:
    """The fewest moves from state x back to x (None if there is no way back)."""
    way: dict[int, list[C.Move]] = {x: []}
    frontier = deque([x])
    while frontier:
        u = frontier.popleft()
        for _, m, j in s.moves[u]:
            if j == x:
                return way[u] + [m]
            if j not in way and j in s.round:
                way[j] = way[u] + [m]
                frontier.append(j)
    return None


def lookup_distributions(s: States) -> tuple[int, dict[int, tuple[int, dict[int, int]]]]:
    """L and, for every state that cannot reach a cycle, (h, {mask: n}): the walk from there looks
    up exactly the nodes of `mask` (bit v: node v) with probability n / L^h."""
    denominators = {pr.denominator for ms in s.moves for pr, _, _ in ms}
    denominators |= {pr.denominator for ms in s.roots for pr, _, _ in ms}
    big_l = math.lcm(*denominators)
    dist: dict[int, tuple[int, dict[int, int]]] = {}
    for i in s.order:
        state = s.states[i]
        own = 1 << state.at if state.ended == "" else 0
        dist[i] = _combine(s.moves[i], dist, big_l, own)
    return big_l, dist


def _combine(choices, dist, big_l: int, own: int) -> tuple[int, dict[int, int]]:
    if not choices:
        return 0, {own: 1}
    h = 1 + max(dist[j][0] for _, _, j in choices)
    out: dict[int, int] = {}
    for pr, _, j in choices:
        hj, dj = dist[j]
        factor = pr.numerator * (big_l // pr.denominator) * big_l ** (h - 1 - hj)
        for mask, n in dj.items():
            key = mask | own
            out[key] = out.get(key, 0) + factor * n
    return h, out


def placement_chances(s: States, big_l: int, dist, source: int,
                      rounds: Rounds | None = None) -> Iterator[tuple[frozenset[int], Fraction]]:
    """For one source: every nonempty set of entry points among the other nodes (step 1: the
    source does not look in its own APT) with the exact chance that the walk reaches one. A source
    whose walk can go round for ever needs `rounds` (its states cut at a feedback set, below)."""
    n = len(s.graph)
    full = (1 << n) - 1
    if s.goes_round(source):
        assert rounds is not None, "a walk that can go round is solved over its feedback states"
        for e in range(1, 1 << n):
            if not e >> source & 1:
                yield (frozenset(v for v in range(n) if e >> v & 1),
                       rounds.chance(s.roots[source], lambda mask, exit, e=e: mask & e != 0, e))
        return
    h, d = _combine(s.roots[source], dist, big_l, 0)
    total = big_l ** h
    assert sum(d.values()) == total, "a walk that cannot go round ends with certainty"
    within = [0] * (1 << n)                  # within[S]: chance (times L^h) that every lookup is in S
    for mask, c in d.items():
        within[mask] += c
    for bit in range(n):
        for mask in range(1 << n):
            if mask >> bit & 1:
                within[mask] += within[mask ^ (1 << bit)]
    for e in range(1, 1 << n):
        if e >> source & 1:
            continue
        yield frozenset(v for v in range(n) if e >> v & 1), Fraction(total - within[full ^ e], total)


def ending_chance(s: States, source: int, rounds: Rounds) -> Fraction:
    """The exact chance that a walk from the source ends (finds nothing to go round for ever in):
    1 where no cycle of states is reachable from it."""
    if not s.goes_round(source):
        return Fraction(1)
    return rounds.chance(s.roots[source], lambda mask, exit: exit == END, "ends")


END = -1        # a walk's way out of the states that can go round: it ended
ZERO, ONE = fmpq(0), fmpq(1)
ENDS = {(0, END): ONE}      # a state that cannot go round, where lookups are not asked


def _rational(pr: Fraction) -> fmpq:
    return fmpq(pr.numerator, pr.denominator)


@attrs.frozen
class Rounds:
    """The states that can reach a cycle, cut at a feedback set F (the targets of a depth-first
    search's back edges: every cycle passes one, so without F what is left is acyclic). For each
    such state, `outcomes[i]` is the distribution of (mask, exit) up to the walk's next state in F
    or its end (exit END): `mask` the nodes it looks up on the way (bit v: node v), this state's
    own lookup included. A chance is then a linear system over F alone. The arithmetic is FLINT's
    exact rationals (fmpq): Python's fractions spent most of the time in their own bookkeeping
    (gcds, object creation); a chance is handed back as a Fraction."""

    feedback: tuple[int, ...]
    outcomes: dict[int, dict[tuple[int, int], fmpq]]
    big_l: int                  # the states that cannot go round: lookup_distributions (None: not asked)
    dist: dict[int, tuple[int, dict[int, int]]] | None
    solved: dict[Hashable, dict[int, fmpq]] = attrs.field(factory=dict, eq=False, repr=False)

    def chance(self, choices, success: Callable[[int, int], bool], key: Hashable) -> Fraction:
        """The exact chance, from `choices` (probability, move, state), that the walk makes an
        outcome for which `success(mask, exit)` holds before it stops without one: x_f for f in F
        solves x_f = sum over f's outcomes of q * (1 if success else x_exit), where F's states
        that cannot reach a success are 0 (the least solution, as a model checker takes it). `key`
        names the success, so that its system is solved once for every source."""
        x = self.solved.get(key)
        if x is None:
            x = self.solved[key] = self._solve(*self._system(success))
        total = fmpq(0)
        for pr, _, j in choices:
            total += _rational(pr) * self._value(j, success, x)
        return Fraction(int(total.p), int(total.q))

    def _value(self, i: int, success, x: dict[int, fmpq]) -> fmpq:
        if i in x:
            return x[i]
        if i not in self.outcomes:
            if self.dist is None:
                return fmpq(int(success(0, END)))
            h, d = self.dist[i]
            return fmpq(sum(n for mask, n in d.items() if success(mask, END)), self.big_l ** h)
        total = fmpq(0)
        for (mask, exit), q in self.outcomes[i].items():
            total += q if success(mask, exit) else q * x.get(exit, ZERO)
        return total

    def _system(self, success) -> tuple[list[fmpq], list[dict[int, fmpq]]]:
        """For each f of F (by index): the chance of a success before F's next state, and the
        chance of each next state of F without one."""
        at = {v: i for i, v in enumerate(self.feedback)}
        rhs = [fmpq(0)] * len(self.feedback)
        step: list[dict[int, fmpq]] = [{} for _ in self.feedback]
        for i, v in enumerate(self.feedback):
            for (mask, exit), q in self.outcomes[v].items():
                if success(mask, exit):
                    rhs[i] += q
                elif exit != END:
                    step[i][at[exit]] = step[i].get(at[exit], ZERO) + q
        return rhs, step

    def _solve(self, rhs: list[fmpq], step: list[dict[int, fmpq]]) -> dict[int, fmpq]:
        f = self.feedback
        # which of F can reach a success at all: the others stay 0
        live = {i for i in range(len(f)) if rhs[i]}
        grew = True
        while grew:
            grew = False
            for i in range(len(f)):
                if i not in live and any(j in live for j in step[i]):
                    live.add(i)
                    grew = True
        keep = sorted(live)
        x = {v: ZERO for v in f}
        if not keep:
            return x
        # (I - Q) x = rhs over the live ones, exactly, by FLINT's rational solver: Gauss-Jordan over
        # Python's fractions took from a millisecond to a minute on systems of the same size (its
        # numbers' digits grow with the fill-in), FLINT took under a second on each of them. Solved
        # block by block, a strongly connected component at a time with the ones it leads to
        # already solved: the largest systems (619 states at 6 nodes, k = 4) fall into blocks of
        # under half their size, and a dense solve costs the cube of its size
        live_step = {a: {b: q for b, q in step[a].items() if b in live} for a in keep}
        for block in _components(keep, live_step):
            inside = {a: n for n, a in enumerate(block)}
            column = []
            for a in block:
                known = rhs[a]
                for b, q in live_step[a].items():
                    if b not in inside:
                        known += q * x[f[b]]
                column.append(known)
            if len(block) == 1:
                a = block[0]
                x[f[a]] = column[0] / (1 - live_step[a].get(a, ZERO))
                continue
            matrix, right = fmpq_mat(len(block), len(block)), fmpq_mat(len(block), 1)
            for a in block:
                matrix[inside[a], inside[a]] = 1
                for b, q in live_step[a].items():
                    if b in inside:
                        matrix[inside[a], inside[b]] -= q
                right[inside[a], 0] = column[inside[a]]
            solution = matrix.solve(right)
            for a in block:
                x[f[a]] = solution[inside[a], 0]
        return x


def _components(nodes: list[int], edges: dict[int, dict[int, object]]) -> Iterator[list[int]]:
    """The strongly connected components of the graph `edges` over `nodes`, each after every
    component it leads to (Tarjan's order), without recursion. Written out rather than taken from
    networkx: its condensation, on the 6-node sample of 5e8cf6c, took the whole search from 21 s to
    33 s (a graph object with its dictionaries built for each of ten thousand systems)."""
    index: dict[int, int] = {}
    low: dict[int, int] = {}
    on_stack: set[int] = set()
    stack: list[int] = []
    for root in nodes:
        if root in index:
            continue
        work = [(root, iter(edges[root]))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            v, it = work[-1]
            for w in it:
                if w not in index:
                    index[w] = low[w] = len(index)
                    stack.append(w)
                    on_stack.add(w)
                    work.append((w, iter(edges[w])))
                    break
                if w in on_stack:
                    low[v] = min(low[v], index[w])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[v])
                if low[v] == index[v]:
                    block = []
                    while True:
                        w = stack.pop()
                        on_stack.discard(w)
                        block.append(w)
                        if w == v:
                            break
                    yield block


def rounds(s: States, big_l: int = 1, dist=None) -> Rounds:
    """The states that can go round, cut at a feedback set (Rounds); `dist` the lookup
    distributions of the states that cannot (lookup_distributions), or None where only how walks
    end is asked (ending_chance): every outcome's mask is then 0, and a state that cannot go round
    ends with certainty, so the distributions are one entry each instead of one per set of nodes."""
    feedback: set[int] = set()
    finished: set[int] = set()
    post: list[int] = []
    for root in sorted(s.round):
        if root in finished:
            continue
        on_stack = {root}
        stack = [(root, iter(s.moves[root]))]
        while stack:
            v, it = stack[-1]
            for _, _, j in it:
                if j not in s.round:
                    continue
                if j in on_stack:
                    feedback.add(j)
                elif j not in finished:
                    on_stack.add(j)
                    stack.append((j, iter(s.moves[j])))
                    break
            else:
                stack.pop()
                on_stack.discard(v)
                finished.add(v)
                post.append(v)
    outcomes: dict[int, dict[tuple[int, int], fmpq]] = {}
    ends: dict[int, dict[tuple[int, int], fmpq]] = {}

    def settled(j: int) -> dict[tuple[int, int], fmpq]:
        if dist is None:
            return ENDS
        if j not in ends:
            h, d = dist[j]
            ends[j] = {(mask, END): fmpq(n, big_l ** h) for mask, n in d.items()}
        return ends[j]

    # post-order: a state after every successor it reaches without passing F (the DFS finished
    # those first, or they are in F and cut)
    for i in post:
        state = s.states[i]
        own = 1 << state.at if state.ended == "" and dist is not None else 0
        out: dict[tuple[int, int], fmpq] = {}
        for pr, _, j in s.moves[i]:
            pr = _rational(pr)
            if j in feedback:
                after = {(0, j): ONE}
            else:
                after = outcomes[j] if j in s.round else settled(j)
            for (mask, exit), q in after.items():
                key = (mask | own, exit)
                out[key] = out.get(key, ZERO) + pr * q
        outcomes[i] = out
    return Rounds(tuple(sorted(feedback)), outcomes, big_l, dist)


# --------------------------------------------------------------------------------------------
# The Trace's properties on every walk: each read as a monitor that carries what it must remember
# of a walk's history along the states (tests/test_crawl.py holds each monitor to the spec's
# predicate on every listed walk; a walk it flags is replayed on the spec and judged by it)
# --------------------------------------------------------------------------------------------

VIOLATED = object()


@attrs.frozen
class Monitor:
    """`start(source, k)` what is remembered before the first move; `step(memory, move, graph, k)`
    what is remembered after the move, or VIOLATED where the move breaks the property;
    `round_breaks` where a walk that can go round for ever (a lasso) breaks it too."""

    start: Callable[[int, int], Hashable]
    step: Callable[[Hashable, C.Move, C.Graph, int], Hashable]
    round_breaks: bool = False


def _no_return_step(window, move, graph, k):
    got = C.received(move)
    if got is None:
        return window
    return VIOLATED if got in window else (window + (got,))[-k:]


def _path_step(window, move, graph, k):
    at = C.moved_to(move)
    if at is None:
        return window
    return VIOLATED if C.received(move) is not None and at in window else (window + (at,))[-k:]


def _never_revisits_step(seen, move, graph, k):
    got = C.received(move)
    if got is None:
        return seen
    return VIOLATED if seen >> got & 1 else seen | 1 << got


MONITORS = {
    # nothing remembered: each forward is judged on its own
    "forwarding_avoids_the_trace": Monitor(lambda source, k: None,
                                           lambda _, m, graph, k: None if C.forward_avoids_the_trace(m, graph)
                                           else VIOLATED),
    # the last k receptions
    "no_return_within_the_trace": Monitor(lambda source, k: (source,), _no_return_step),
    # the last k nodes the walk passed (a restart at a Trace node passes it, whether or not it sends
    # the data there)
    "no_return_within_the_last_k_nodes_passed": Monitor(lambda source, k: (source,), _path_step),
    # every node that received the data (a bit each); a walk can also go round for ever without
    # a second reception (blocked, it restarts at the blocked node itself again and again)
    "walk_never_revisits_a_node": Monitor(lambda source, k: 1 << source, _never_revisits_step, round_breaks=True),
}


@attrs.frozen
class Breaches:
    """One monitor run over every walk from every source of one graph of states: `first[s]` the
    shortest walk from source s that breaks the property (None where every walk keeps it) and
    `searched` the distinct (state, memory) pairs visited."""

    first: list[C.Walk | None]
    searched: int


def breaches(s: States, monitor: Monitor) -> Breaches:
    """Every walk from every source through (state, memory) pairs: each pair carries the sources
    that reach it (bits), propagated until nothing grows; a source is dropped once one of its walks
    breaks the property. Then, for each source that breaks it, breadth first for its shortest such
    walk (the first in the order of the choices), followed to its end by first choices."""
    n = len(s.graph)
    broken = sum(1 << v for v in range(n) if monitor.round_breaks and s.goes_round(v))
    reached: dict[tuple[int, Hashable], int] = {}
    todo: deque[tuple[int, Hashable]] = deque()

    def reach(j: int, memory: Hashable, bits: int) -> None:
        key = (j, memory)
        had = reached.get(key, 0)
        if bits & ~had:
            reached[key] = had | bits
            if key not in queued:
                queued.add(key)
                todo.append(key)

    queued: set[tuple[int, Hashable]] = set()
    for source in range(n):
        start = monitor.start(source, s.k)
        for _, move, j in s.roots[source]:
            memory = monitor.step(start, move, s.links, s.k)
            if memory is VIOLATED:
                broken |= 1 << source
            else:
                reach(j, memory, 1 << source)
    while todo:
        key = todo.popleft()
        queued.discard(key)
        bits = reached[key] & ~broken
        if not bits:
            continue
        i, memory = key
        for _, move, j in s.moves[i]:
            after = monitor.step(memory, move, s.links, s.k)
            if after is VIOLATED:
                broken |= bits
                bits = 0
                break
            reach(j, after, bits)
    first = [_shortest_breach(s, monitor, source) if broken >> source & 1 else None for source in range(n)]
    return Breaches(first, len(reached))


def _shortest_breach(s: States, monitor: Monitor, source: int) -> C.Walk:
    walk = _shortest_flagged(s, monitor, source)
    if monitor.round_breaks and s.goes_round(source):
        lasso = shortest_lasso(s, source)
        if walk is None or len(lasso.moves) < breach_length(walk, monitor):
            return lasso
    assert walk is not None, "a source flagged as breaking the property has a walk that does"
    return walk


def breach_length(walk: C.Walk, monitor: Monitor) -> int | None:
    """How many moves of the walk it takes to break the property by the monitor (all of them for a
    lasso that breaks it by going round); None where the walk keeps it."""
    memory = monitor.start(walk.params.source, walk.params.k)
    for i, move in enumerate(walk.moves):
        memory = monitor.step(memory, move, C.moves_within(walk.params.graph, walk.reading), walk.params.k)
        if memory is VIOLATED:
            return i + 1
    return len(walk.moves) if monitor.round_breaks and walk.lasso is not None else None


def _shortest_flagged(s: States, monitor: Monitor, source: int) -> C.Walk | None:
    start = monitor.start(source, s.k)
    parent: dict[tuple[int, Hashable], tuple[tuple[int, Hashable] | None, C.Move]] = {}
    frontier: deque[tuple[int, Hashable]] = deque()
    edges = [(None, start, s.roots[source])]
    while True:
        for at, memory, choices in edges:
            for _, move, j in choices:
                after = monitor.step(memory, move, s.links, s.k)
                if after is VIOLATED:
                    path = [(move, j)]
                    while at is not None:
                        before, made = parent[at]
                        path.append((made, at[0]))
                        at = before
                    return _finish(s, source, path[::-1])
                if (j, after) not in parent:
                    parent[(j, after)] = (at, move)
                    frontier.append((j, after))
        if not frontier:
            return None
        key = frontier.popleft()
        edges = [(key, key[1], s.moves[key[0]])]


def _finish(s: States, source: int, path: list[tuple[C.Move, int]]) -> C.Walk:
    """The walk of `path` (move, state after it), followed to its end by first choices unless it
    has come back to a state it was in; `lasso` the index of the move whose state the walk first
    comes back to (as C.replay_walk sets it). A path that breaks a property only after coming back
    to a state (a memory the state does not hold: the window of receptions under a cleared Trace)
    stops at the breach, its lasso set where it first came back; none does on the atlas's scopes."""
    moves = [m for m, _ in path]
    seen: list[int] = []
    lasso = None
    for _, j in path:
        if lasso is None and j in seen:
            lasso = seen.index(j)
        seen.append(j)
    at = seen[-1]
    while lasso is None and s.moves[at]:
        _, move, at = s.moves[at][0]
        moves.append(move)
        if at in seen:
            lasso = seen.index(at)
        seen.append(at)
    return C.Walk(s.params(source), s.reading, tuple(moves), lasso=lasso)


def first_walk(s: States, source: int) -> C.Walk:
    """The walk that makes the first choice at every step (a lasso where it comes back)."""
    _, move, j = s.roots[source][0]
    return _finish(s, source, [(move, j)])
