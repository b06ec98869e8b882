"""CRAWL and CDM on CBDLO (Zheng & Sun 2018): a fast, seeded reference implementation.

`Overlay(nodes, view, apt, seed)` builds the lower layer: each node picks `view` random other
nodes (the union, undirected, is the graph a walk sees: sec. 2's random graph) and APTs of up to
`apt` entries. `subscribe(node, subscription)` records a conjunction of ranges; the entry nodes of
an attribute are its subscribers, and each APT caches one of them per attribute when a walk first
needs it (each node with the chance `apt / attributes`, capped at 1: the `attribute-entries`
reading, this project's choice where the paper says only that the APT "caches a number of"
entries), kept until `refresh()`. `publish(node, event)` runs one CRAWL walk per attribute (`walk`),
then CDM in the attribute's tree, and returns the deliveries, the walks and the messages of each
stage. Churn: `unsubscribe`, `leave` and `join`; a stale APT entry starts sec. 4's re-walk.
`simple(...)` and `tera(...)` run sec. 5.3's baselines on the same overlay.

`success_probability(graph, start, entries, k, budget, reading)` is the exact chance (a Fraction)
that one walk reaches an entry point, computed here by its own recursion over the walk's states
(solving the linear equations exactly where a walk can come back to a state), independently of
checks.markov, which the tests compare it with.

`LazyLayer` draws a lower layer node by node as a walk reaches it (the Spark job's layers of up to
3,000 nodes); `apt_samples`, `apt_attributes` and `entry_points` fill APTs under either reading of
APT_FILLING for the reproduction of sec. 5 (checks/algorithms/crawl/reproduce.py).

The walk follows spec.crawl's rules (step 1, step 2.1, step 2.2, recovery) under a reading's
`halving`, `rounding`, `trace_on_restart` and `restart`; the tests hold each seeded walk to the spec's choices.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any, Iterable, Mapping

import numpy as np

from spec import crawl as C


# --------------------------------------------------------------------------------------------
# One walk
# --------------------------------------------------------------------------------------------

def _trace_with(trace: tuple[int, ...], node: int, k: int) -> tuple[int, ...]:
    return (tuple(t for t in trace if t != node) + (node,))[-k:]


def _avoided(trace: tuple[int, ...], at: int, looked_up: bool, reading: C.Reading) -> tuple[int, ...]:
    """The nodes a forward from `at` may not go to: the Trace (step 2.2), or only `at` itself where
    a restart begins as step 1 (`looked_up` False: the source or a restarted node; a source's Trace
    is itself, so the two are the same there)."""
    return trace if looked_up or reading.restart == "step-2.2" else (at,)


def walk(views: list[list[int]], source: int, entries: set[int] | frozenset[int], k: int, budget: int,
         rng: np.random.Generator, reading: C.Reading = C.DEFAULT, max_moves: int = 100_000,
         stop_on_repeat: bool = False, pool: list[int] | None = None) -> list[tuple[str, int]]:
    """One seeded walk: its moves as (kind, node), as spec.crawl.replay_walk takes them. With
    `stop_on_repeat`, a walk that comes back to a state it was in (it can go round for ever, as
    only a walk whose restarts halve the first budget can) stops there, that move the last. Under
    views refreshed at every hop, a fresh view is drawn among `pool` (default: every node)."""
    if k < 1 or budget < 1:
        raise ValueError(f"a walk needs k >= 1 and a budget >= 1, not k = {k}, budget {budget}")
    moves: list[tuple[str, int]] = []
    at, trace, hops, b = source, (), 0, budget
    lookup = False                       # step 1: the source does not look in its own APT
    seen: set[tuple] = set()
    while len(moves) < max_moves:
        if stop_on_repeat and moves:
            state = (at, trace, hops, b, lookup)
            if state in seen:
                return moves
            seen.add(state)
        if lookup:
            if at in entries:
                moves.append(("found", at))
                return moves
            if hops >= b:
                moves.append(("exhausted", at))
                return moves
        trace = _trace_with(trace, at, k)
        avoid = _avoided(trace, at, lookup, reading)
        lookup = True
        if reading.views == "refreshed":         # a fresh view of as many nodes, among all the others
            others = [v for v in (range(len(views)) if pool is None else pool) if v != at]
            d = min(len(views[at]), len(others))
            fresh = [others[int(i)] for i in rng.choice(len(others), size=d, replace=False)] if d else []
            candidates = sorted(v for v in fresh if v not in avoid)
        else:
            candidates = [v for v in views[at] if v not in avoid]
        if candidates:
            at = candidates[int(rng.integers(len(candidates)))]
            hops += 1
            moves.append(("forward", at))
            continue
        b = ((b if reading.halving == "previous" else budget) + (reading.rounding == "up")) // 2
        if b == 0:
            moves.append(("blocked", at))
            return moves
        at = trace[int(rng.integers(len(trace)))]
        moves.append(("restart", at))
        hops, lookup = 0, False          # the restarted walk forwards at once
        if reading.trace_on_restart == "cleared":
            trace = ()
    raise ValueError(f"the walk did not end within {max_moves} moves")


def success_probability(graph: Any, start: Any, entries: Iterable[Any], k: int, budget: int,
                        reading: C.Reading | str = C.DEFAULT) -> Fraction:
    """The exact chance that one walk from `start` on the networkx graph `graph` reaches a node of
    `entries`, with a Trace of k nodes and a first budget `budget`."""
    import networkx as nx

    if isinstance(reading, str):
        reading = C.reading(reading)
    if not isinstance(graph, nx.Graph) or graph.number_of_nodes() == 0:
        raise ValueError("success_probability needs a non-empty networkx graph")
    nodes = list(graph.nodes)
    if start not in graph:
        raise ValueError(f"the start {start!r} is not a node of the graph")
    missing = [e for e in entries if e not in graph]
    if missing:
        raise ValueError(f"entries {missing!r} are not nodes of the graph")
    if isinstance(k, bool) or not isinstance(k, int) or k < 1:
        raise ValueError(f"the Trace holds k >= 1 nodes, not {k!r}")
    if isinstance(budget, bool) or not isinstance(budget, int) or budget < 1:
        raise ValueError(f"the hop budget is a whole number >= 1, not {budget!r}")
    index = {v: i for i, v in enumerate(nodes)}
    views = [sorted(index[u] for u in graph.neighbors(v)) for v in nodes]
    goal = {index[e] for e in entries}

    lost = ("lost",)           # a state that has ended without an entry point

    # a state: (node, trace, hops, budget, looks up its APT on arrival)
    def moves(state):
        if state == lost:
            return "lost"
        at, trace, hops, b, lookup = state
        if lookup and at in goal:
            return "found"
        if lookup and hops >= b:
            return "lost"
        trace = _trace_with(trace, at, k)
        avoid = _avoided(trace, at, lookup, reading)
        if reading.views == "refreshed":
            # a fresh view of d of the others: inside the Trace with the chance C(t, d) / C(others, d)
            others, d = len(nodes) - 1, len(views[at])
            candidates = [v for v in range(len(nodes)) if v != at and v not in avoid]
            stuck = Fraction(math.comb(others - len(candidates), d), math.comb(others, d))
        else:
            candidates = [v for v in views[at] if v not in avoid]
            stuck = Fraction(not candidates)
        out = [((1 - stuck) / len(candidates), (v, trace, hops + 1, b, True)) for v in candidates] if stuck < 1 else []
        if stuck:
            halved = ((b if reading.halving == "previous" else budget) + (reading.rounding == "up")) // 2
            kept = trace if reading.trace_on_restart == "kept" else ()
            out += [(stuck, lost)] if halved == 0 else [(stuck / len(trace), (t, kept, 0, halved, False))
                                                        for t in trace]
        return out

    # every reachable state, then x = A x + b solved exactly (Gauss-Jordan over fractions)
    first = (index[start], (), 0, budget, False)
    order, edges, seen = [first], {}, {first}
    for s in order:
        out = moves(s)
        edges[s] = out
        if isinstance(out, list):
            for _, t in out:
                if t not in seen:
                    seen.add(t)
                    order.append(t)
    acyclic = _solve_acyclic(first, edges)
    if acyclic is not None:      # no state comes back (the printed halving): each chance from its successors'
        return acyclic
    # a state from which no entry point can be reached has chance 0 (a walk that goes round for
    # ever among such states makes the system singular otherwise); the others solve uniquely
    before: dict[Any, list] = {s: [] for s in order}
    for s, out in edges.items():
        for _, t in out if isinstance(out, list) else ():
            before[t].append(s)
    hopeful = [s for s in order if edges[s] == "found"]
    can_find = set(hopeful)
    while hopeful:
        for s in before[hopeful.pop()]:
            if s not in can_find:
                can_find.add(s)
                hopeful.append(s)
    pos = {s: i for i, s in enumerate(order)}
    n = len(order)
    rows = []
    for s in order:
        row = [Fraction(0)] * (n + 1)
        row[pos[s]] = Fraction(1)
        out = edges[s]
        if out == "found":
            row[n] = Fraction(1)
        elif isinstance(out, list) and s in can_find:
            for p, t in out:
                row[pos[t]] -= p
        rows.append(row)
    for col in range(n):
        pivot = next(r for r in range(col, n) if rows[r][col] != 0)
        rows[col], rows[pivot] = rows[pivot], rows[col]
        inv = 1 / rows[col][col]
        rows[col] = [x * inv for x in rows[col]]
        for r in range(n):
            if r != col and rows[r][col] != 0:
                f = rows[r][col]
                rows[r] = [a - f * b for a, b in zip(rows[r], rows[col])]
    return rows[0][n]


def _solve_acyclic(first: Any, edges: dict) -> Fraction | None:
    """The chance of "found" from `first` where no state can come back, each state's from its
    successors' (depth first, post-order); None where one can (a cycle: the linear system)."""
    chance: dict[Any, Fraction] = {}
    on_path: set[Any] = set()          # expanded, not finished: the current path from `first`
    stack = [(first, False)]
    while stack:
        s, finished = stack.pop()
        out = edges[s]
        if finished:
            chance[s] = sum((p * chance[t] for p, t in out), Fraction(0))
            on_path.discard(s)
        elif s in chance or s in on_path:
            continue                   # reached again by another path and solved (or being solved)
        elif not isinstance(out, list):
            chance[s] = Fraction(out == "found")
        else:
            on_path.add(s)
            stack.append((s, True))
            for _, t in out:
                if t in on_path:
                    return None        # back to a state on the current path
                if t not in chance:
                    stack.append((t, False))
    return chance[first]


# --------------------------------------------------------------------------------------------
# The overlay
# --------------------------------------------------------------------------------------------

def random_views(nodes: int, view: int, rng: np.random.Generator) -> list[list[int]]:
    """Sec. 2's random graph: each node picks `view` other nodes at random; a link is known both
    ways (the union, undirected, sorted per node). It may be disconnected."""
    neighbours: list[set[int]] = [set() for _ in range(nodes)]
    for v in range(nodes):
        for u in rng.choice(nodes - 1, size=view, replace=False):
            u = int(u) + (int(u) >= v)
            neighbours[v].add(u)
            neighbours[u].add(v)
    return [sorted(s) for s in neighbours]


# Numbers that are pure functions of a seed and keys, for drawing a layer piece by piece in any order
_MASK = (1 << 64) - 1


def hashed_uniform(seed: int, *keys: int) -> float:
    """A number in [0, 1) that is a pure function of `seed` and `keys` (splitmix64 over each in
    turn): for drawing a large structure piece by piece, in any order, as a walk reaches it, and
    getting the same piece every time."""
    x = seed & _MASK
    for key in keys:
        x = (x ^ (key & _MASK)) & _MASK
        x = (x + 0x9E3779B97F4A7C15) & _MASK
        x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & _MASK
        x ^= x >> 31
    return (x >> 11) / float(1 << 53)


def hashed_state(seed: int, *keys: int) -> int:
    """A 64-bit state (never 0) that is a pure function of `seed` and `keys`, to start a
    xorshift_star sequence from."""
    return int(hashed_uniform(seed, *keys) * float(1 << 53)) | 1


def xorshift_star(state: int) -> tuple[int, float]:
    """One step of xorshift64*: the next state and a number in [0, 1) (cheap enough to draw a
    node's view with, number by number)."""
    state ^= state >> 12
    state ^= (state << 25) & _MASK
    state ^= state >> 27
    return state, (((state * 0x2545F4914F6CDD1D) & _MASK) >> 11) / float(1 << 53)


def quick_uniform(salt: int, key: int) -> float:
    """A number in [0, 1) from a salt (hashed_state's) and a key, by one multiply-xorshift round
    (murmur3's finalizer): a pure function, cheap enough for a check per node of every view."""
    x = (salt ^ (key * 0x9E3779B97F4A7C15)) & _MASK
    x = ((x ^ (x >> 33)) * 0xFF51AFD7ED558CCD) & _MASK
    x = ((x ^ (x >> 33)) * 0xC4CEB9FE1A85EC53) & _MASK
    return ((x ^ (x >> 33)) >> 11) / float(1 << 53)


class LazyLayer:
    """A lower layer too large to draw whole for every instance, drawn node by node as a walk reaches
    it, the same node the same every time (a pure function of the seed and the node, through
    hashed_state, xorshift_star and quick_uniform): node v has left with the chance `left` (the source never has); its view is `view`
    distinct other nodes drawn at random, the ones that left dropped (views not yet refreshed since);
    a live node is an entry point (a member of the attribute's topology, or one whose APT names a
    member) with the chance `entry`. The view is v's own: a walk at v forwards within the view v
    drew, where random_views also lets v forward to the nodes that drew v. `views[v]` and
    `v in entries` are what walk() reads; `touched` holds every view drawn."""

    def __init__(self, nodes: int, view: int, seed: int, source: int, left: float = 0.0, entry: float = 0.0):
        if not 1 <= view < nodes:
            raise ValueError(f"a view holds 1..{nodes - 1} other nodes, not {view!r}")
        self.n, self.view, self.seed, self.source, self.left, self.entry = nodes, view, seed, source, left, entry
        self.touched: dict[int, list[int]] = {}
        self.salt = hashed_state(seed, 1)
        self.views, self.entries = _LazyViews(self), _LazyEntries(self)

    def alive(self, v: int) -> bool:
        return v == self.source or quick_uniform(self.salt, v) >= self.left

    def view_of(self, v: int) -> list[int]:
        if v not in self.touched:
            picks: list[int] = []
            state = hashed_state(self.seed, v, 2)
            while len(picks) < self.view:          # distinct others, in the order drawn
                state, x = xorshift_star(state)
                u = int(x * (self.n - 1))
                u += u >= v
                if u not in picks:
                    picks.append(u)
            self.touched[v] = sorted(u for u in picks if self.alive(u))
        return self.touched[v]

    def is_entry(self, v: int) -> bool:
        return self.alive(v) and quick_uniform(self.salt ^ 3, v) < self.entry


class _LazyViews:
    def __init__(self, layer: LazyLayer):
        self.layer = layer

    def __getitem__(self, v: int) -> list[int]:
        return self.layer.view_of(v)


class _LazyEntries:
    def __init__(self, layer: LazyLayer):
        self.layer = layer

    def __contains__(self, v: int) -> bool:
        return self.layer.is_entry(v)


MAX_REWALKS = 64        # a re-walk loop that does not end is cut here (the first budget halved, stale APTs)


class Overlay:
    """CBDLO on `nodes` nodes: random views of `view` nodes each, APTs of up to `apt` entries,
    Trace length `k`, hop budget `budget`, all drawn from `seed`.

    Churn (sec. 4): an APT caches, per attribute, one entry node of its topology, filled when a
    walk first needs it and kept until `refresh()`; `unsubscribe(node)` takes a subscriber out of
    every topology (its node stays), `leave(node)` takes the node out of the overlay, `join(node)`
    brings it back with a fresh view. An APT entry naming a node that no longer serves the attribute
    is stale: the data handed to it finds no virtual node there, and that node starts a new walk
    with the budget halved (the walk's own budget, or the first one: `reading.halving`), up to
    MAX_REWALKS; data handed to a node that has left is lost (this project's choice: the text says
    nothing of it)."""

    def __init__(self, nodes: int, view: int, apt: int, seed: int, k: int = 4, budget: int = 10,
                 reading: C.Reading | str = C.DEFAULT):
        if isinstance(nodes, bool) or not isinstance(nodes, int) or nodes < 2:
            raise ValueError(f"an overlay has at least 2 nodes, not {nodes!r}")
        if isinstance(view, bool) or not isinstance(view, int) or not 1 <= view < nodes:
            raise ValueError(f"a view holds 1..{nodes - 1} other nodes, not {view!r}")
        if isinstance(apt, bool) or not isinstance(apt, int) or apt < 0:
            raise ValueError(f"an APT holds a whole number >= 0 of entries, not {apt!r}")
        self.reading = C.reading(reading) if isinstance(reading, str) else reading
        self.n, self.view, self.apt, self.k, self.budget = nodes, view, apt, k, budget
        self.rng = np.random.default_rng(seed)
        self.views = random_views(nodes, view, self.rng)
        self.alive = [True] * nodes
        self.subscriptions: dict[int, dict[str, tuple[int, int]]] = {}
        self.apt_entries: dict[str, dict[int, int]] = {}       # attribute -> node -> the entry it caches
        self.entry_rng = np.random.default_rng([seed, 1])       # which subscriber an APT names

    def subscribe(self, node: int, subscription: Mapping[str, tuple[int, int]]) -> None:
        if not 0 <= node < self.n or not self.alive[node]:
            raise ValueError(f"node {node!r} is not a live node of the overlay")
        for attribute, (lo, hi) in subscription.items():
            if lo > hi:
                raise ValueError(f"range [{lo}, {hi}] of {attribute!r} needs its low end <= its high end")
        self.subscriptions[node] = dict(subscription)

    def _node(self, node: int) -> int:
        if isinstance(node, bool) or not isinstance(node, int) or not 0 <= node < self.n:
            raise ValueError(f"node {node!r} is not a node of the overlay (0..{self.n - 1})")
        return node

    def unsubscribe(self, node: int) -> None:
        """The node's subscriber leaves every attribute topology; APT entries naming it go stale."""
        self.subscriptions.pop(self._node(node), None)

    def leave(self, node: int) -> None:
        self.alive[self._node(node)] = False
        self.subscriptions.pop(node, None)

    def join(self, node: int) -> None:
        """The node comes back with a fresh view of `view` random live others (its old links are
        gone both ways)."""
        self._node(node)
        for u in self.views[node]:
            if node in self.views[u]:
                self.views[u].remove(node)
        live = [u for u in range(self.n) if self.alive[u] and u != node]
        picked = sorted(int(u) for u in self.rng.choice(live, size=min(self.view, len(live)), replace=False))
        self.views[node] = picked
        for u in picked:
            self.views[u] = sorted({*self.views[u], node})
        self.alive[node] = True

    def refresh(self) -> None:
        """Sec. 2's periodic sampling, all at once: every APT entry is drawn again when next needed."""
        self.apt_entries.clear()

    def _apt(self, attribute: str, holders: list[int]) -> dict[int, int]:
        """The nodes whose APT caches the attribute's entry, and the entry each names: filled when a
        walk first needs it (each live node with the chance apt / attributes, capped at 1: the
        `attribute-entries` reading), kept until refresh()."""
        if attribute not in self.apt_entries:
            share = min(1.0, self.apt / max(1, len(self.attributes())))
            cached = [v for v in range(self.n) if self.alive[v] and self.rng.random() < share]
            self.apt_entries[attribute] = {v: holders[int(self.entry_rng.integers(len(holders)))] for v in cached}
        return self.apt_entries[attribute]

    def attributes(self) -> list[str]:
        return sorted({a for s in self.subscriptions.values() for a in s})

    def simple(self, node: int, event: Mapping[str, int], hops: int, forwarding: str = "flood") -> dict[str, Any]:
        """Sec. 5.3's Simple on this overlay's live nodes: the subscribers it reaches whose subscription
        matches the event, and its messages."""
        views = [[u for u in self.views[v] if self.alive[u]] if self.alive[v] else [] for v in range(self.n)]
        matched = {v for v, s in self.subscriptions.items() if C.matches(s, event)}
        reached, messages = simple(views, node, hops, self.rng, forwarding, matched=matched)
        deliveries = sorted(v for v in reached if v in matched)
        return {"deliveries": deliveries, "messages": messages}

    def tera(self, node: int, topic: Any, topics: Mapping[int, Any]) -> dict[str, Any]:
        """Sec. 5.3's TERA on this overlay's live nodes, for an event of `topic`; `topics` gives each
        subscriber node its topic. Each live node caches a topic's entry with the chance apt / topics
        (capped at 1; the `attribute-entries` reading, drawn afresh per event), the event walks as
        CRAWL's walk does to such a node, then is broadcast along a spanning tree of the topic's live
        members. Returns the members reached and the messages."""
        self._node(node)
        members = np.zeros(self.n, dtype=bool)
        members[[v for v, t in topics.items() if t == topic and self.alive[self._node(v)]]] = True
        if not members.any():
            return {"deliveries": [], "messages": 0}
        share = min(1.0, self.apt / max(1, len(set(topics.values()))))
        entries = {v for v in range(self.n) if self.alive[v] and (members[v] or self.rng.random() < share)}
        views = [[u for u in self.views[v] if self.alive[u]] if self.alive[v] else [] for v in range(self.n)]
        found, messages = tera(views, node, members, entries, self.k, self.budget, self.rng, self.reading)
        return {"deliveries": np.flatnonzero(members).tolist() if found else [], "messages": messages}

    def publish(self, node: int, event: Mapping[str, int]) -> dict[str, Any]:
        """One event: a walk per attribute (stage 1), CDM in each reached tree (stage 2). Returns the
        deliveries, each attribute's first walk (`walks`), the re-walks after stale APT entries
        (`rewalks`: each as its start, budget and moves) and the messages of each stage."""
        views = [[u for u in self.views[v] if self.alive[u]] if self.alive[v] else [] for v in range(self.n)]
        walks, rewalks, stage_1, stage_2, arrivals, lost, cut = {}, {}, 0, 0, {}, [], []
        for attribute, value in sorted(event.items()):
            holders = [v for v, s in self.subscriptions.items() if attribute in s]
            if not holders:
                continue
            apt = self._apt(attribute, holders)
            at, budget, entry = node, self.budget, None
            for attempt in range(MAX_REWALKS + 1):
                moves = walk(views, at, set(apt), self.k, budget, self.rng, self.reading,
                             pool=[v for v in range(self.n) if self.alive[v]])
                if attempt == 0:
                    walks[attribute] = moves
                else:
                    rewalks.setdefault(attribute, []).append({"from": at, "budget": budget, "moves": moves})
                stage_1 += stage_1_messages(at, moves)
                if moves[-1][0] != "found":
                    break
                named = apt[moves[-1][1]]
                if not self.alive[named]:
                    lost.append(attribute)        # handed to a node that has left: lost
                    break
                if attribute in self.subscriptions.get(named, {}):
                    entry = named
                    break
                # "the receiving node finds no virtual node for the attribute": a new walk from it
                budget = C.rewalk_budget(self.budget, budget, self.reading)
                at = named
                if budget == 0:
                    break
            else:
                lost.append(attribute)            # cut after MAX_REWALKS re-walks
                cut.append(attribute)
            if entry is None:
                continue
            ranges = [s[attribute] for v, s in self.subscriptions.items() if attribute in s]
            low = min(lo for lo, _ in ranges)
            high = max(hi for _, hi in ranges)
            space = C.Space(min(low, value), max(high, value), tuple(ranges))
            pieces = C.pieces(space)
            tree = C.balanced_tree(len(pieces))
            target = next(i for i, (lo, hi) in enumerate(pieces) if lo <= value <= hi)
            lo, hi = self.subscriptions[entry][attribute]      # the entry's virtual nodes: its range's pieces
            mine = [i for i, (p_lo, p_hi) in enumerate(pieces) if lo <= p_lo and p_hi <= hi]
            start = mine[int(self.rng.integers(len(mine)))]
            stage_2 += tree.distance(start, target)
            for v, s in self.subscriptions.items():
                if attribute in s and s[attribute][0] <= value <= s[attribute][1]:
                    arrivals.setdefault(v, []).append(attribute)
        deliveries = [v for v, got in sorted(arrivals.items())
                      if C.Matching(tuple(self.subscriptions[v].items()), tuple(event.items()), tuple(got),
                                    self.reading).accepts()]
        return {"deliveries": deliveries, "walks": walks, "rewalks": rewalks, "lost": lost, "cut": cut,
                "messages": {"stage_1": stage_1, "stage_2": stage_2}}


# --------------------------------------------------------------------------------------------
# Sec. 5's baselines on the same lower layer: Simple and TERA
# --------------------------------------------------------------------------------------------

SIMPLE_FORWARDING = ("flood", "flood-once", "random-walk", "flood-if-matched")


class FloodCounts:
    """The copies of sec. 5.3's flood with no copy dropped, counted without making them: every node
    that gets the data forwards it to every neighbour but the one it came from, each time it gets it,
    until the hop limit. The copies on a directed link u -> w at hop t + 1 are all those that reached
    u at hop t but the ones that came over w -> u; exact (whole numbers of any size: a view of 10
    makes about 10^38 copies in 30 hops). Built once per lower layer (each view naming a neighbour
    at most once), `copies(source, hops)` per source."""

    def __init__(self, views: list[list[int]]):
        n = len(views)
        self.n = n
        self.tail = np.array([v for v in range(n) for _ in views[v]], dtype=np.int64)
        self.head = np.array([u for v in range(n) for u in views[v]], dtype=np.int64)
        link = {(int(a), int(b)): i for i, (a, b) in enumerate(zip(self.tail, self.head))}
        back = np.array([link.get((int(b), int(a)), -1) for a, b in zip(self.tail, self.head)], dtype=np.int64)
        self.has_back, self.back = back >= 0, np.maximum(back, 0)
        self.by_head = np.argsort(self.head, kind="stable")
        counts = np.bincount(self.head, minlength=n)
        self.heads = np.flatnonzero(counts)
        self.starts = np.concatenate(([0], np.cumsum(counts)))[self.heads]

    def copies(self, source: int, hops: int, forwarders: frozenset[int] | set[int] | None = None) -> list[int]:
        """The copies sent at hops 1..hops from `source`, one count per hop. With `forwarders`, only
        they pass on the copies they get (the source sends at hop 1 whatever they are)."""
        on_link = np.zeros(len(self.tail), dtype=object)
        on_link[:] = 0
        on_link[self.tail == source] = 1
        passes = None
        if forwarders is not None:
            passes = np.zeros(self.n, dtype=bool)
            passes[sorted(forwarders)] = True
            passes = passes[self.tail]
        out = [int(on_link.sum())] if hops else []
        for _ in range(1, hops):
            arrived = np.zeros(self.n, dtype=object)
            arrived[:] = 0
            if len(self.heads):
                arrived[self.heads] = np.add.reduceat(on_link[self.by_head], self.starts)
            on_link = arrived[self.tail] - np.where(self.has_back, on_link[self.back], 0)
            if passes is not None:
                on_link = np.where(passes, on_link, 0)
            out.append(int(on_link.sum()))
        return out


def simple(views: list[list[int]], source: int, hops: int, rng: np.random.Generator | None = None,
           forwarding: str = "flood", counts: FloodCounts | None = None,
           matched: frozenset[int] | set[int] | None = None) -> tuple[dict[int, int], int]:
    """Sec. 5.3's Simple: each node that gets the data matches it locally, then forwards it, until the
    hop limit. Returns the nodes reached (each with the hop it first got the data at) and the messages.
    The text says "flooding" (洪泛式), with nothing of duplicates, and, of Figs. 5-6, "random
    forwarding" and "the simple random algorithm"; three forwardings are named. `flood`: every node
    forwards every copy it gets to every neighbour but the one it came from (its messages counted by
    FloodCounts, `counts` one built for these views). `flood-once`: duplicates dropped (as floods with
    a message id do), each node forwards the data once. `random-walk`: the data goes to one random
    neighbour per hop (not back where it came from while there is another). `flood-if-matched`: the
    flood, every copy passed on, but only by the nodes the data matches (`matched`: 如果匹配...然后再
    把数据转发出去 read as one condition); the source sends it whatever it holds. Both floods reach
    the same nodes at the same hops."""
    if forwarding not in SIMPLE_FORWARDING:
        raise ValueError(f"Simple forwards by {', '.join(SIMPLE_FORWARDING)}, not {forwarding!r}")
    if isinstance(hops, bool) or not isinstance(hops, int) or hops < 0:
        raise ValueError(f"Simple's hop limit is a whole number >= 0, not {hops!r}")
    reached, messages = {source: 0}, 0
    if forwarding in ("flood", "flood-once", "flood-if-matched"):
        if forwarding == "flood-if-matched" and matched is None:
            raise ValueError("a flood-if-matched Simple needs the nodes the data matches")
        passes = matched if forwarding == "flood-if-matched" else None      # None: every node passes it on
        frontier: list[tuple[int, int]] = [(source, -1)]
        for hop in range(1, hops + 1):
            nxt = []
            for v, came_from in frontier:
                for u in views[v]:
                    if u == came_from:
                        continue
                    messages += 1
                    if u not in reached:
                        reached[u] = hop
                        if passes is None or u in passes:
                            nxt.append((u, v))
            frontier = nxt
        if forwarding != "flood-once":       # every copy passed on: counted, not made
            messages = sum((counts or FloodCounts(views)).copies(source, hops, passes))
        return reached, messages
    if rng is None:
        raise ValueError("a random-walk Simple needs a random generator")
    at, came_from = source, -1
    for hop in range(1, hops + 1):
        options = [u for u in views[at] if u != came_from] or views[at]
        if not options:
            break
        at, came_from = options[int(rng.integers(len(options)))], at
        messages += 1
        reached.setdefault(at, hop)
    return reached, messages


def apt_samples(nodes: int, apt: int, rng: np.random.Generator) -> np.ndarray:
    """Each node's APT as `apt` other nodes drawn at random (refreshed by sampling, sec. 2), each
    entry naming the topologies its node belongs to: row v holds node v's entries."""
    if apt <= 0:
        return np.zeros((nodes, 0), dtype=np.int64)
    draws = rng.integers(0, nodes - 1, size=(nodes, apt))
    return draws + (draws >= np.arange(nodes)[:, None])         # never the node itself


# How an APT is filled: sec. 2 says only that it caches a bounded number of (attribute -> entry node)
# entries, refreshed by sampling. Two readings, each named where it is used:
#   attribute-entries  the APT holds the entries of up to |APT| attributes, a random set of them per
#                      node (the chance a node knows an attribute is |APT| / attributes, capped at 1)
#   node-samples       the APT holds |APT| random other nodes, each naming the topologies it is in
APT_FILLING = ("attribute-entries", "node-samples")


def apt_attributes(nodes: int, attributes: int, apt: int, rng: np.random.Generator) -> np.ndarray:
    """The `attribute-entries` APT: row v says which attributes' entries node v caches, a random
    set of min(apt, attributes) of them."""
    ranks = np.argsort(rng.random((nodes, attributes)), axis=1).argsort(axis=1)
    return ranks < apt


def entry_points(table: np.ndarray, members: np.ndarray) -> set[int]:
    """Step 2.1's nodes for one topology (`members`, a Boolean per node): a member itself or a node
    whose APT names a member."""
    hit = members.copy()
    if table.shape[1]:
        hit |= members[table].any(axis=1)
    return set(np.flatnonzero(hit).tolist())


def stage_1_messages(source: int, moves: list[tuple[str, int]]) -> int:
    """A walk's messages: every forward, the hand-over to the entry found, every restart that sends
    the data to another node (a restart at the blocked node itself sends nothing)."""
    sent, at = 0, source
    for kind, to in moves:
        sent += kind in ("forward", "found") or (kind == "restart" and to != at)
        at = to
    return sent


def tera(views: list[list[int]], source: int, members: np.ndarray, entries: set[int], k: int, budget: int,
         rng: np.random.Generator, reading: C.Reading = C.DEFAULT) -> tuple[bool, int]:
    """Sec. 5.3's TERA [16] for one event of one topic: a random walk (CRAWL's, the same budget and
    recovery) to one of `entries` (a member of the topic's overlay, or a node whose APT names one),
    then a broadcast in that overlay along a spanning tree (one message per other member). Returns
    whether the members got it and the messages."""
    moves = walk(views, source, entries, k, budget, rng, reading)
    sent = stage_1_messages(source, moves)
    if moves[-1][0] != "found":
        return False, sent
    return True, sent + max(0, int(members.sum()) - 1)
