"""CRAWL and CDM on the CBDLO two-layer overlay, as an executable specification.

Paper: Zheng Liming, Sun Weidong, "A Publishing/Subscription System Based on the Hybrid Two-Layer
Topology" (一种基于混合式双层拓扑的发布/订阅系统), Software Engineering and Applications 7(1):13-23,
2018 (../shared/seeds/000_ed0f36aeebe08850.txt; Chinese, quoted here in translation).

    sec. 2     CBDLO: a random-graph lower layer (views, the APT of attribute entry points); per
               attribute, the value space cut into contiguous disjoint pieces (virtual nodes)
               arranged as a distributed balanced binary tree
    sec. 3.1   CRAWL (Fig. 2): one random walk per attribute carrying a Trace of the last k nodes;
               step 2.1 an APT hit ends the walk, step 2.2 the hop budget, then a random neighbour
               not in the Trace
    sec. 3.2   path blocking and recovery: restart from a random Trace node, the hop budget halved
    sec. 4     CDM (Fig. 4): the two conversions, matching in the tree, the subscriber's counter
    sec. 5     the virtual-node bound, the tree height, the cost model, the worked example

Modelled: one attribute's walk on a fixed lower-layer graph (views are the graph's edges at the
moment of the walk), the set of nodes whose APT holds that attribute's entry, every random choice
as an explicit distribution (so a walk is a Markov chain and its probabilities are exact); the
value space of one attribute as integers [a, b] cut by range subscriptions; the balanced tree of
its pieces; a subscriber's counter over the attributes of one event.
Abstracted away: APT filling over time (the reference's `Overlay` names how it fills them), message
timing, the walks of other attributes
(they are independent: sec. 3.1 runs them in parallel).

The text leaves choices open. Each is a field of `Reading` (below), and `READINGS` names the ones
checked: every printed choice, and this project's repairs beside them (docs/crawl.md).

Layout, as in the paper: readings, the lower layer and a walk's state, the walk's steps by the
paper's names (step 1, step 2.1, step 2.2, recovery), the upper layer (pieces, the tree, CDM),
then the claims as named properties over a concrete run.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Iterable, Iterator, Mapping

import attrs

from spec.registry import Property, register

ALGORITHM = "crawl"


# --------------------------------------------------------------------------------------------
# Readings of what the paper leaves open
# --------------------------------------------------------------------------------------------

HALVING = ("previous", "original")
# Sec. 3.2: "the maximum hop count of each restarted walk should be reduced to half of the
# original maximum hop count" (应减为原来最大跳步数的一半). "previous" (printed) halves the budget
# the blocked walk had (B, B/2, B/4, ...): 减为原来的一半 is the set phrase for "cut to half of its
# current value", 每次 says the cut happens at each restart, and sec. 4's sister sentence says
# "each restarted walk halves the maximum hop count" (每次启动的随机行走过程会把最大的跳步数减半).
# "original" halves the first budget B every time (B, B/2, B/2, ...), a reading the words 原来最大
# 跳步数 admit but the sentence's purpose speaks against: kept beside the printed one (origin
# "open"), never deciding a sentence the printed one reaches.
TRACE_ON_RESTART = ("kept", "cleared")
# Sec. 3.2 restarts "a random walk" from a node chosen in the Trace, and says nothing of the Trace
# itself: the restarted walk keeps it ("kept") or starts with its own node only ("cleared").
ACCEPTANCE = ("exceeds", "reaches")
# Sec. 4: a subscriber "accepts the data when the number of matched attributes exceeds the
# number of attributes of the subscription" (超过): "exceeds" (count > m, printed); "reaches"
# (count >= m, this project's repair).
COUNTING = ("every-arrival", "distinct")
# Sec. 4 counts "the number of matched attributes" and restarts a walk when an entry node no
# longer serves the attribute, so one attribute can arrive twice; the text does not say what the
# counter does then: "every-arrival" counts each arrival, "distinct" each attribute once.

ROUNDING = ("down", "up")
# Sec. 3.2 cuts the hop budget "to half" (减为...一半) and prints no rounding: the budget becomes
# B/2 exactly, and step 2.2 forwards while the hop count has not reached it (没有达到), so a walk
# with B/2 makes ceil(B/2) hops, and halving again gives ceil(ceil(B/2)/2) = ceil(B/4) hops, the
# hops of the exact quarter: "up" is the printed exact half, kept in whole numbers. A budget of 1
# becomes 1/2, 1/4, ...: never 0, one hop each time, so a walk blocked with it restarts again. "down"
# (5 -> 2, 1 -> 0, integer division: a walk with nothing left to halve ends blocked) is this
# project's repair, the rounding that makes the halving end the restarts the sentence says it ends.
RESTART = ("step-2.2", "step-1")
# Sec. 3.2 "restarts a random walk" (重新启动一个随机行走的过程) from the node chosen in the Trace and
# does not say with which step of Fig. 2 it starts: "step-2.2", the chosen node forwards as step 2.2
# does, to a random neighbour not in the Trace (with the Trace kept it can block again at once);
# "step-1", it starts the walk as a source does, joining the Trace and sending to a random neighbour,
# any of them (step 1 does not look at the Trace). With the Trace cleared the two are the same walk.
# Neither looks in the chosen node's APT (step 1 has no lookup; a node forwards when it restarts).
HANDOVER = ("sent", "held")
# Sec. 3.2 "chooses a node at random from the Trace and restarts a random walk" (从Trace表中随机的
# 选择一个节点,重新启动一个随机行走的过程) and does not say how the data gets there: "sent", the
# blocked node sends the data to the chosen node, which receives it again; "held", the chosen node
# restarts from the copy it kept when it passed the data on, the blocked node sending it only a
# notice (a message without the data, so no reception). The walk's states and chances are the same
# under both; they differ in which nodes receive the data (the Trace's claims) and in nothing else:
# the notice is a message as the data would be (a restart at the blocked node itself sends neither).
VIEWS = ("snapshot", "refreshed")
# Sec. 2: every node keeps a view of a fixed number of neighbours, "refreshed by periodic random
# sampling"; the text gives no period. "snapshot": no view changes while a walk is under way (the
# period is long beside a walk), so a walk sees one graph. "refreshed": the period is no longer than
# a hop, so the node holding the data forwards within a view drawn afresh, as many nodes as its view
# holds (its degree in the graph) drawn at random among all the other nodes; it is blocked when the
# fresh view lies inside the Trace.

# The choices that are not the printed text (ORIGIN_OF_CHOICE): the acceptance rule "reaches" and
# halves rounded down (repairs), the first-budget halving (a reading the words admit, not the printed one) and views
# refreshed at every hop (the far end of an open period: Fig. 3's explanation of blocking, F on
# the edge with one neighbour, takes F's view as fixed while the walk is under way).
ORIGIN_OF_CHOICE = {"reaches": "repair", "down": "repair", "original": "open", "refreshed": "open"}


@attrs.frozen(cache_hash=True)
class Reading:
    """One resolution of every open choice of secs. 3.2 and 4 (see the tuples above)."""

    name: str
    halving: str = "previous"
    trace_on_restart: str = "kept"
    acceptance: str = "exceeds"
    counting: str = "distinct"
    views: str = "snapshot"
    rounding: str = "down"
    restart: str = "step-2.2"
    handover: str = "sent"
    note: str = attrs.field(default="", eq=False)

    def __attrs_post_init__(self) -> None:
        for field, value, known in (("halving", self.halving, HALVING),
                                    ("trace_on_restart", self.trace_on_restart, TRACE_ON_RESTART),
                                    ("acceptance", self.acceptance, ACCEPTANCE), ("counting", self.counting, COUNTING),
                                    ("views", self.views, VIEWS), ("rounding", self.rounding, ROUNDING),
                                    ("restart", self.restart, RESTART), ("handover", self.handover, HANDOVER)):
            if value not in known:
                raise ValueError(f"unknown {field} {value!r}; known: {', '.join(known)}")

    @property
    def origin(self) -> str:
        """printed where every choice is the printed text or one of the text's open choices,
        repair where one is this project's repair (checks.plugin.ORIGINS)."""
        origins = {ORIGIN_OF_CHOICE.get(c, "printed")
                   for c in (self.halving, self.trace_on_restart, self.acceptance, self.counting, self.views,
                             self.rounding, self.restart, self.handover)}
        return next((o for o in ("repair", "open") if o in origins), "printed")


READINGS: dict[str, Reading] = {r.name: r for r in (
    Reading("previous/kept", note="the printed text but for one repair: the budget halved from the blocked walk's and "
            "rounded down (printed, the exact half never reaches 0); a subscriber accepts when its count exceeds its "
            "attribute count; with two choices the text leaves open, the Trace kept on a restart and each attribute "
            "counted once"),
    Reading("original/kept", halving="original",
            note="原来 read as the first budget (every restart gets half of it, rounded down): a reading the words "
            "admit, not the printed one"),
    Reading("previous/cleared", trace_on_restart="cleared",
            note="previous/kept (halves rounded down, the repair) with the other choice for the Trace: the restarted "
            "walk's Trace holding only its own node"),
    Reading("original/cleared", halving="original", trace_on_restart="cleared",
            note="原来 read as the first budget and the Trace cleared on a restart (not the printed halving)"),
    Reading("previous/kept/round-up", rounding="up",
            note="the printed halving: the exact half of the blocked walk's budget, which step 2.2 (stop when the hops "
            "reach it) makes half of an odd hop count rounded up, so a budget of 1 stays one hop; the Trace kept"),
    Reading("previous/cleared/round-up", trace_on_restart="cleared", rounding="up",
            note="the printed halving (the exact half: half of an odd hop count rounded up) with the Trace cleared on "
            "a restart"),
    Reading("previous/kept/round-up/step-1", rounding="up", restart="step-1",
            note="the printed halving, the Trace kept, and the restarted walk begun as Fig. 2's step 1 begins one: the "
            "chosen node sends to a random neighbour, any of them, as a source does (重新启动一个随机行走, 'starts a "
            "random walk again'), then step 2 as ever"),
    Reading("previous/kept/round-up/held", rounding="up", handover="held",
            note="the printed halving, the Trace kept, and the other choice for how the data reaches the chosen Trace "
            "node: it restarts from the copy it kept when it passed the data on, told by a notice from the blocked "
            "node (no second reception)"),
    Reading("previous/cleared/round-up/held", trace_on_restart="cleared", rounding="up", handover="held",
            note="the printed halving, the Trace cleared on a restart, the chosen node restarting from the copy it "
            "kept"),
    Reading("original/kept/round-up", halving="original", rounding="up",
            note="原来 read as the first budget, halved exactly as printed (half of an odd hop count rounded up): "
            "every restart gets ceil(B/2) hops; the Trace kept. A reading the words admit, not the printed one"),
    Reading("original/cleared/round-up", halving="original", trace_on_restart="cleared", rounding="up",
            note="原来 read as the first budget, halved exactly as printed, the Trace cleared on a restart"),
    Reading("previous/kept/held", handover="held",
            note="previous/kept (halves rounded down, the repair) with the chosen Trace node restarting from the copy "
            "it kept"),
    Reading("previous/kept/refreshed", views="refreshed",
            note="an open choice, not the printed text: each view drawn afresh at every hop (sec. 2's periodic "
            "sampling no slower than a walk; Fig. 3 takes a view as fixed during a walk)"),
    Reading("every-arrival", counting="every-arrival",
            note="previous/kept's choices with the other one for the counter: every arrival counted (a re-walked "
            "attribute twice)"),
    Reading("reaches", acceptance="reaches",
            note="this project's repair: a subscriber accepts when its count reaches its attribute count"),
    Reading("reaches/every-arrival", acceptance="reaches", counting="every-arrival",
            note="this project's acceptance repair, the counter counting every arrival"),
)}
DEFAULT = READINGS["previous/kept"]
# the readings that differ in the walk (CDM's choices as printed): each walk claim is judged under each
WALK_READINGS = tuple(name for name, r in READINGS.items() if (r.acceptance, r.counting) == ("exceeds", "distinct"))


def reading(name: str) -> Reading:
    try:
        return READINGS[name]
    except (KeyError, TypeError):
        raise ValueError(f"unknown CRAWL reading {name!r}; known: {', '.join(READINGS)}") from None


# --------------------------------------------------------------------------------------------
# The lower layer (sec. 2) and a walk's state
# --------------------------------------------------------------------------------------------

@attrs.frozen(cache_hash=True)
class Graph:
    """The lower layer at the moment of a walk: each node's view (its neighbours, sorted), as an
    undirected graph (a view is refreshed by random sampling: what a walk sees is one snapshot)."""

    views: tuple[tuple[int, ...], ...]

    @classmethod
    def of(cls, edges: Iterable[tuple[int, int]], n: int) -> "Graph":
        if not isinstance(n, int) or isinstance(n, bool) or n < 1:
            raise ValueError(f"a lower layer has at least one node, not {n!r}")
        views: list[set[int]] = [set() for _ in range(n)]
        for u, v in edges:
            if not (0 <= u < n and 0 <= v < n) or u == v:
                raise ValueError(f"edge ({u}, {v}) is not between two distinct nodes of 0..{n - 1}")
            views[u].add(v)
            views[v].add(u)
        return cls(tuple(tuple(sorted(v)) for v in views))

    def __len__(self) -> int:
        return len(self.views)

    def edges(self) -> list[tuple[int, int]]:
        return [(u, v) for u, view in enumerate(self.views) for v in view if u < v]

    def distance(self, source: int, targets: Iterable[int]) -> int | None:
        """Hops from `source` to the nearest of `targets` (None if none is reachable)."""
        goal, seen, frontier, hops = set(targets), {source}, [source], 0
        while frontier:
            if goal & set(frontier):
                return hops
            frontier = [v for u in frontier for v in self.views[u] if v not in seen and not seen.add(v)]
            hops += 1
        return None


@attrs.frozen(cache_hash=True)
class WalkParameters:
    """One attribute's walk: the graph, the source, the nodes whose APT holds the attribute's entry
    point (`entries`), the Trace length k and the first hop budget."""

    graph: Graph
    source: int
    entries: frozenset[int]
    k: int
    budget: int

    def __attrs_post_init__(self) -> None:
        n = len(self.graph)
        if isinstance(self.k, bool) or not isinstance(self.k, int) or self.k < 1:
            raise ValueError(f"the Trace holds k >= 1 nodes, not k = {self.k!r}")
        if isinstance(self.budget, bool) or not isinstance(self.budget, int) or self.budget < 1:
            raise ValueError(f"the hop budget is a whole number >= 1, not {self.budget!r}")
        if not isinstance(self.source, int) or not 0 <= self.source < n:
            raise ValueError(f"the source {self.source!r} is not a node of 0..{n - 1}")
        bad = [e for e in self.entries if not isinstance(e, int) or not 0 <= e < n]
        if bad:
            raise ValueError(f"entries {sorted(map(str, bad))} are not nodes of 0..{n - 1}")


def moves_within(graph: Graph, reading: Reading) -> Graph:
    """The links a walk can move along under the reading's views: the snapshot's, or, with views
    refreshed at every hop, from every node with a view to every other node (the fresh view may
    hold any of them)."""
    if reading.views == "snapshot":
        return graph
    n = len(graph)
    return Graph(tuple(tuple(v for v in range(n) if v != u) if graph.views[u] else () for u in range(n)))


@attrs.frozen(cache_hash=True)
class WalkState:
    """Where a walk is: the node holding the data, the Trace (oldest first, at most k nodes), the
    hops made and the budget of the current walk (a restart begins a new one), and how it ended
    ("" while it goes on; "found", "exhausted" or "blocked")."""

    at: int
    trace: tuple[int, ...]
    hops: int
    budget: int
    ended: str = ""


@attrs.frozen
class Move:
    """One step of a walk: `kind` is "forward" (to a neighbour, one hop), "found" (step 2.1: sent to
    the entry point, the walk ends), "exhausted" (step 2.2: the budget is used up), "restart"
    (sec. 3.2: blocked, sent to a Trace node that starts a new walk with a halved budget) or
    "blocked" (blocked with nothing left to halve). `trace` is the Trace the move was chosen with;
    `avoids_trace` is False for a forward chosen among all the neighbours after a restart begun as
    step 1 (`Reading.restart`), True for one chosen outside the Trace (the source's first forward
    too: its Trace is itself alone, so the two choices are the same). `carries` is False for a
    restart that sends only a notice, the chosen node holding the data already (`Reading.handover`)."""

    kind: str
    frm: int
    to: int
    trace: tuple[int, ...]
    budget: int
    avoids_trace: bool = True
    carries: bool = True


def _remember(trace: tuple[int, ...], node: int, k: int) -> tuple[int, ...]:
    """The Trace after `node` joins it: the last k nodes, each once (a node already in it moves to
    the newest place)."""
    return (tuple(t for t in trace if t != node) + (node,))[-k:]


# --------------------------------------------------------------------------------------------
# CRAWL's steps (Fig. 2, sec. 3.2), each a distribution over (move, next state)
# --------------------------------------------------------------------------------------------

Choice = tuple[Fraction, Move, WalkState]
Only = tuple[str, int] | None      # a (kind, destination) to build alone: see successors


def step_1(p: WalkParameters, reading: Reading, only: Only = None) -> list[Choice]:
    """Step 1: the source puts itself in the Trace and sends the data to a random neighbour (it
    does not look in its own APT: the text starts the lookup at step 2, on receipt)."""
    return _forward(p, WalkState(p.source, (), 0, p.budget), reading, only)


def step_2(p: WalkParameters, state: WalkState, reading: Reading, only: Only = None) -> list[Choice]:
    """Step 2, at the node that received the data: 2.1 its APT holds the attribute, so the data
    goes to the entry point and the walk ends; 2.2 the budget is used up, so the walk ends; else it
    joins the Trace and goes to a random neighbour not in the Trace (blocked: recovery)."""
    if state.ended:
        return []
    if state.at in p.entries:
        return [(Fraction(1), Move("found", state.at, state.at, state.trace, state.budget), attrs.evolve(state, ended="found"))]
    if state.hops >= state.budget:
        return [(Fraction(1), Move("exhausted", state.at, state.at, state.trace, state.budget),
                 attrs.evolve(state, ended="exhausted"))]
    return _forward(p, state, reading, only)


def _forward(p: WalkParameters, state: WalkState, reading: Reading, only: Only = None,
             avoid_trace: bool = True) -> list[Choice]:
    """The node joins the Trace and sends the data to a random neighbour: one not in the Trace
    (step 2.2), or any of them (`avoid_trace` False: step 1, which a source's Trace, itself alone,
    makes the same)."""
    trace = _remember(state.trace, state.at, p.k)
    avoid = trace if avoid_trace else (state.at,)
    if reading.views == "refreshed":
        return _forward_in_a_fresh_view(p, state, trace, reading, only, avoid_trace)
    candidates = [v for v in p.graph.views[state.at] if v not in avoid]
    if candidates:
        share = Fraction(1, len(candidates))
        return [(share, Move("forward", state.at, v, trace, state.budget, avoid_trace),
                 WalkState(v, trace, state.hops + 1, state.budget)) for v in candidates
                if only is None or only == ("forward", v)]
    return recovery(p, attrs.evolve(state, trace=trace), reading, only)


def _forward_in_a_fresh_view(p: WalkParameters, state: WalkState, trace: tuple[int, ...], reading: Reading,
                             only: Only = None, avoid_trace: bool = True) -> list[Choice]:
    """Views refreshed at every hop: the node draws d of the m other nodes (d its view's size),
    every d-set alike. The fresh view lies inside the Trace's t other nodes with the chance
    C(t, d) / C(m, d) (blocked: recovery); else the data goes to a random member outside the Trace,
    each of the m - t nodes outside it alike (with `avoid_trace` False, a restart begun as step 1,
    to any of the m others, never blocked)."""
    others = len(p.graph) - 1
    d = len(p.graph.views[state.at])
    candidates = [v for v in range(len(p.graph)) if v != state.at and (v not in trace or not avoid_trace)]
    blocked = Fraction(math.comb(others - len(candidates), d), math.comb(others, d))
    choices: list[Choice] = []
    if candidates and blocked < 1:
        share = (1 - blocked) / len(candidates)
        choices = [(share, Move("forward", state.at, v, trace, state.budget, avoid_trace),
                    WalkState(v, trace, state.hops + 1, state.budget)) for v in candidates
                   if only is None or only == ("forward", v)]
    if blocked:
        choices += [(blocked * pr, move, after)
                    for pr, move, after in recovery(p, attrs.evolve(state, trace=trace), reading, only)]
    return choices


def halve(budget: int, reading: Reading) -> int:
    """Half a hop budget, rounded as `reading.rounding` says."""
    return (budget + (reading.rounding == "up")) // 2


def recovery(p: WalkParameters, blocked: WalkState, reading: Reading, only: Only = None) -> list[Choice]:
    """Sec. 3.2: path blocking (every neighbour is in the Trace) and recovery: a node chosen at
    random in the Trace restarts the walk with half the budget (of the blocked walk, or of the
    first one: `reading.halving`); with nothing left to halve the walk ends blocked. The restarted
    walk forwards as step 2.2 or step 1 does (`reading.restart`), with its Trace kept or cleared
    (`reading.trace_on_restart`), from the data sent to it or the copy it kept (`reading.handover`)."""
    halved = halve(blocked.budget if reading.halving == "previous" else p.budget, reading)
    if halved == 0:
        return [(Fraction(1), Move("blocked", blocked.at, blocked.at, blocked.trace, blocked.budget),
                 attrs.evolve(blocked, ended="blocked"))]
    share = Fraction(1, len(blocked.trace))
    choices = []
    for node in blocked.trace:
        if only is not None and only != ("restart", node):
            continue
        trace = blocked.trace if reading.trace_on_restart == "kept" else ()
        choices.append((share, Move("restart", blocked.at, node, blocked.trace, halved, carries=reading.handover == "sent"),
                        WalkState(node, trace, 0, halved, "restarting")))
    return choices


def successors(p: WalkParameters, state: WalkState | None, reading: Reading, only: Only = None) -> list[Choice]:
    """Every choice from a state (None: the walk has not started), each with its probability.
    With `only` (a kind and a destination), a forward or restart is built only if it is that one
    (replay's shortcut: a node's view can hold 20 neighbours); the other moves are built anyway."""
    if state is None:
        return step_1(p, reading, only)
    if state.ended == "restarting":   # the chosen Trace node forwards at once (no lookup)
        return _forward(p, attrs.evolve(state, ended=""), reading, only, avoid_trace=reading.restart == "step-2.2")
    return step_2(p, state, reading, only)


@attrs.frozen
class Walk:
    """A concrete walk: its parameters, reading and moves. `lasso` is set when the walk's last state
    equals the state after move `lasso` (an infinite walk, drawn as its first loop)."""

    params: WalkParameters
    reading: Reading
    moves: tuple[Move, ...]
    lasso: int | None = None
    cut: bool = False          # stopped by the exploration's bound on restarts, not by the walk


    def receptions(self) -> list[int]:
        """The nodes that receive the data, in order: the source, then each move's destination."""
        return [self.params.source] + [v for v in map(received, self.moves) if v is not None]

    def passed(self) -> list[int]:
        """The nodes the walk is at, in order: the source, then each forward's destination and each
        restart's chosen node other than the blocked one (whether the data is sent there or held
        there: `Reading.handover`). Under "sent" these are the receptions."""
        return [self.params.source] + [v for v in map(moved_to, self.moves) if v is not None]

    def found(self) -> bool:
        return any(m.kind == "found" for m in self.moves)

    def messages(self) -> int:
        """Stage-1 messages: every forward, every restart at another node (the data, or the notice
        that the chosen node restarts from its copy: `Reading.handover`), the hand-over to the entry
        point (at another node: the APT names it)."""
        return sum(m.kind in ("forward", "found") or (m.kind == "restart" and m.to != m.frm) for m in self.moves)


def moved_to(move: Move) -> int | None:
    """The node a move takes the walk to: a forward's destination, a restart's chosen node other
    than the blocked one (the walk goes on from there, whether the data is sent or held there)."""
    return move.to if move.kind == "forward" or (move.kind == "restart" and move.to != move.frm) else None


def received(move: Move) -> int | None:
    """The node a move sends the data to: a forward's or a restart's destination (a restart at the
    blocked node itself sends nothing, nor one whose node restarts from its own copy; the other
    moves end the walk where it is)."""
    return move.to if move.kind == "forward" or (move.kind == "restart" and move.carries and move.to != move.frm) else None


def walks(p: WalkParameters, reading: Reading, max_restarts: int | None = None) -> Iterator[tuple[Fraction, Walk]]:
    """Every walk with its probability, depth first in the order of the choices. A walk that comes
    back to a state it was in is returned once, as a lasso (it can go round for ever). With
    `max_restarts`, a walk that would restart once more is returned cut before that restart (a
    prefix of longer walks: where the budget is halved from the blocked walk's, no walk of a budget
    below 2 ** max_restarts is cut)."""
    stack: list[tuple[WalkState | None, tuple[Move, ...], tuple[WalkState, ...], Fraction, int]] = [
        (None, (), (), Fraction(1), 0)]
    while stack:
        state, moves, seen, prob, restarts = stack.pop()
        choices = successors(p, state, reading)
        if not choices:
            yield prob, Walk(p, reading, moves)
            continue
        if max_restarts is not None and restarts >= max_restarts and choices[0][1].kind == "restart":
            yield prob, Walk(p, reading, moves, cut=True)
            continue
        for share, move, nxt in reversed(choices):
            if nxt in seen:
                yield prob * share, Walk(p, reading, moves + (move,), lasso=seen.index(nxt))
            else:
                stack.append((nxt, moves + (move,), seen + (nxt,), prob * share, restarts + (move.kind == "restart")))


def replay_walk(p: WalkParameters, reading: Reading, moves: Iterable[tuple[str, int]]) -> Walk:
    """The walk that makes the given (kind, to) moves, each checked to be a choice the spec allows;
    a ValueError names the first that is not."""
    state: WalkState | None = None
    made: list[Move] = []
    seen: dict[WalkState, int] = {}          # each state after a move, at its first move
    lasso = None
    for i, (kind, to) in enumerate(moves):
        chosen = [(m, s) for _, m, s in successors(p, state, reading, only=(kind, to)) if (m.kind, m.to) == (kind, to)]
        if not chosen:
            allowed = ", ".join(f"{m.kind} {m.to}" for _, m, _ in successors(p, state, reading))
            raise ValueError(f"move {i + 1} ({kind} {to}) is not a choice of the walk here; allowed: "
                             f"{allowed or 'none (the walk has ended)'}")
        move, state = chosen[0]
        made.append(move)
        if state in seen and lasso is None:
            lasso = seen[state]
        seen.setdefault(state, i)
    return Walk(p, reading, tuple(made), lasso)


def unfinished(walk: Walk) -> list[tuple[str, int]]:
    """The (kind, to) moves the walk could still make after its last one: none where it has ended
    (found, exhausted or dropped); a lasso or a cut walk has some."""
    state: WalkState | None = None
    for move in walk.moves:
        state = next(s for _, m, s in successors(walk.params, state, walk.reading) if m == move)
    return [(m.kind, m.to) for _, m, _ in successors(walk.params, state, walk.reading)]


# --------------------------------------------------------------------------------------------
# The upper layer (sec. 2, sec. 5.2): pieces of the value space, the balanced tree, CDM (sec. 4)
# --------------------------------------------------------------------------------------------

@attrs.frozen
class Space:
    """One attribute's value space [a, b] (integers) and the range subscriptions cutting it."""

    low: int
    high: int
    ranges: tuple[tuple[int, int], ...]

    def __attrs_post_init__(self) -> None:
        if self.low > self.high:
            raise ValueError(f"a value space [a, b] needs a <= b, not [{self.low}, {self.high}]")
        for lo, hi in self.ranges:
            if lo > hi:
                raise ValueError(f"a range [{lo}, {hi}] needs its low end <= its high end")
            if lo < self.low or hi > self.high:
                raise ValueError(f"range [{lo}, {hi}] leaves the value space [{self.low}, {self.high}]")


def pieces(space: Space) -> list[tuple[int, int]]:
    """Sec. 2: the value space cut into contiguous, disjoint pieces (the virtual nodes), the fewest
    such that every subscription's range is a union of pieces."""
    cuts = sorted({lo for lo, _ in space.ranges if lo > space.low} |
                  {hi + 1 for _, hi in space.ranges if hi < space.high})
    starts = [space.low] + cuts
    ends = [c - 1 for c in cuts] + [space.high]
    return list(zip(starts, ends))


@attrs.frozen
class Tree:
    """The balanced binary tree of N virtual nodes (sec. 2, 5.2): node i's parent (-1 at the root),
    built by splitting at the middle, as a balanced search tree over the pieces in order."""

    parent: tuple[int, ...]

    def __len__(self) -> int:
        return len(self.parent)

    def depth(self, i: int) -> int:
        d = 0
        while self.parent[i] >= 0:
            i, d = self.parent[i], d + 1
        return d

    def height(self) -> int:
        return max(self.depth(i) for i in range(len(self)))

    def distance(self, i: int, j: int) -> int:
        """Hops between two virtual nodes along the tree."""
        up_i = [i]
        while self.parent[up_i[-1]] >= 0:
            up_i.append(self.parent[up_i[-1]])
        up_j = [j]
        while self.parent[up_j[-1]] >= 0:
            up_j.append(self.parent[up_j[-1]])
        common = next(x for x in up_i if x in set(up_j))
        return up_i.index(common) + up_j.index(common)


def balanced_tree(n: int) -> Tree:
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise ValueError(f"a tree of virtual nodes has at least one node, not {n!r}")
    parent = [-1] * n

    def build(lo: int, hi: int, up: int) -> None:
        if lo > hi:
            return
        mid = (lo + hi + 1) // 2
        parent[mid] = up
        build(lo, mid - 1, mid)
        build(mid + 1, hi, mid)

    build(0, n - 1, -1)
    return Tree(tuple(parent))


@attrs.frozen
class Routing:
    """Stage 2 of one event's attribute (sec. 5.3): the tree of N pieces, the virtual node the entry
    point starts from and the one holding the event's value."""

    tree: Tree
    entry: int
    target: int

    def hops(self) -> int:
        return self.tree.distance(self.entry, self.target)


Subscription = Mapping[str, tuple[int, int]]   # attribute -> range (a conjunction)
Event = Mapping[str, int]                      # attribute -> value


def matches(subscription: Subscription, event: Event) -> bool:
    """The subscription's every attribute is in the event, its value inside the range."""
    return all(a in event and lo <= event[a] <= hi for a, (lo, hi) in subscription.items())


@attrs.frozen
class Matching:
    """CDM at one subscriber (sec. 4, Fig. 4): its subscription, the event, and the attributes whose
    tree delivered the event to it, in order of arrival (a re-walk can deliver one twice)."""

    subscription: tuple[tuple[str, tuple[int, int]], ...]
    event: tuple[tuple[str, int], ...]
    arrivals: tuple[str, ...]
    reading: Reading

    def accepts(self) -> bool:
        """The counter and its acceptance rule (`reading.counting`, `reading.acceptance`)."""
        sub = dict(self.subscription)
        counted = [a for a in self.arrivals if a in sub]
        count = len(counted) if self.reading.counting == "every-arrival" else len(set(counted))
        m = len(sub)
        return count > m if self.reading.acceptance == "exceeds" else count >= m

    def interested(self) -> bool:
        return matches(dict(self.subscription), dict(self.event))


def arrivals_of(subscription: Subscription, event: Event) -> list[str]:
    """The attributes whose tree sends the event to this subscriber: those of its subscription
    whose range holds the event's value (its virtual node matches), in the subscription's order."""
    return [a for a, (lo, hi) in subscription.items() if a in event and lo <= event[a] <= hi]


# Sec. 4 (Fig. 4): "if the receiving node finds no virtual node for the attribute, the subscriber may
# have left, so a new random walk is started, the maximum hop count halved each time".
def rewalk_budget(first: int, previous: int, reading: Reading) -> int:
    """The budget of the walk a node starts when the data handed to it finds no virtual node there:
    half the walk before it (or the first walk: `reading.halving`, as sec. 3.2's restart), rounded
    as `reading.rounding` says; 0 starts none."""
    return halve(previous if reading.halving == "previous" else first, reading)


@attrs.frozen
class Rewalks:
    """One attribute's delivery under churn: the budget of each walk in turn (the first walk's, then
    each re-walk's, each by rewalk_budget) and whether the chain was cut by a bound on re-walks
    before it ended."""

    reading: Reading
    budgets: tuple[int, ...]
    cut: bool = False

    def describe(self) -> str:
        """The budgets in turn, a run of equal ones shortened ("2 -> 1 (x 64)")."""
        runs: list[list[int]] = []
        for b in self.budgets:
            if runs and runs[-1][0] == b:
                runs[-1][1] += 1
            else:
                runs.append([b, 1])
        shown = " -> ".join(f"{b}" if times == 1 else f"{b} (x {times})" for b, times in runs)
        return shown + (", cut before the re-walks ended" if self.cut else "")

    def __attrs_post_init__(self) -> None:
        if not self.budgets or any(isinstance(b, bool) or not isinstance(b, int) or b < 1 for b in self.budgets):
            raise ValueError(f"a chain of walks has budgets >= 1, not {self.budgets!r}")
        for i, (before, after) in enumerate(zip(self.budgets, self.budgets[1:]), start=1):
            rule = rewalk_budget(self.budgets[0], before, self.reading)
            if after != rule:
                raise ValueError(f"re-walk {i} has budget {after}, not {rule} (sec. 4's halving under "
                                 f"{self.reading.name})")


# --------------------------------------------------------------------------------------------
# The claims
# --------------------------------------------------------------------------------------------

def forwarding_avoids_the_trace(walk: Walk) -> bool:
    """Step 2.2: every forward goes to a neighbour not in the Trace it was chosen with (a restart
    begun as step 1 sends to any neighbour: that send is step 1's, judged only as a link)."""
    links = moves_within(walk.params.graph, walk.reading)
    return all(forward_avoids_the_trace(m, links) for m in walk.moves)


def forward_avoids_the_trace(move: Move, graph: Graph) -> bool:
    """One move of forwarding_avoids_the_trace: a forward goes to a neighbour (`graph`: the links
    it may move along, moves_within), not in its Trace unless it was chosen as step 1's send
    (`Move.avoids_trace` False)."""
    return move.kind != "forward" or ((move.to not in move.trace or not move.avoids_trace)
                                      and move.to in graph.views[move.frm])


def no_return_within_the_trace(walk: Walk) -> bool:
    """Sec. 3.1: the data does not come back, in the short term, to a node that just received it:
    no node receives it twice within k receptions."""
    got, k = walk.receptions(), walk.params.k
    return all(got[i] not in got[max(0, i - k):i] for i in range(len(got)))


def no_return_within_the_last_k_nodes_passed(walk: Walk) -> bool:
    """Sec. 3.1 with 'in the short term' counted over the nodes the walk passed: the Trace records
    the nodes the data has just passed (该数据最近刚刚走过的节点), and a restart from a copy held at a
    Trace node passes that node again without sending it the data, which this reading does not count
    as the data coming back (a return needs a reception: 回到...收到过). No node receives the data
    while it is among the last k nodes the walk passed. Under handover "sent" the nodes passed are the
    receptions, and this is no_return_within_the_trace."""
    return _first_return_on_the_path(walk) is None


def walk_never_revisits_a_node(walk: Walk) -> bool:
    """No node receives the data twice (stronger than sec. 3's claim, which speaks of the most recent path)."""
    got = walk.receptions()
    return len(got) == len(set(got)) and walk.lasso is None


def recovery_ends(walk: Walk) -> bool:
    """Sec. 3.2: halving the budget on each restart keeps a walk out of endless blocking and
    recovery: every walk ends, whatever the random choices (this project reads "endless" as a
    possible infinite walk, not only one of positive probability; docs/crawl.md gives the chance
    of ending too)."""
    return walk.lasso is None


def forwards_at_most_twice_the_budget(walk: Walk) -> bool:
    """Sec. 3.2's halving, as a bound: a walk ends after at most 2B - 1 forwards (B, then at most
    B // 2, B // 4, ... after each restart), so its messages are bounded by its first budget."""
    return walk.lasso is None and sum(m.kind == "forward" for m in walk.moves) <= 2 * walk.params.budget - 1


@attrs.frozen
class Ending:
    """One walk's chance of ending (found, exhausted or blocked): its parameters, reading and the
    exact probability, summed over every random choice."""

    params: WalkParameters
    reading: Reading
    probability: Fraction

    def can_restart(self) -> bool:
        """Whether some walk from the source blocks and restarts (sec. 3.2's recovery is reached)."""
        seen: set[WalkState | None] = {None}
        todo: list[WalkState | None] = [None]
        while todo:
            for _, move, after in successors(self.params, todo.pop(), self.reading):
                if move.kind == "restart":
                    return True
                if after not in seen:
                    seen.add(after)
                    todo.append(after)
        return False


def walk_ends_with_certainty(e: Ending) -> bool:
    """Sec. 3.2, as a chance: the walk ends (found, exhausted or blocked) with probability 1."""
    return e.probability == 1


def restarted(walk: Walk) -> bool:
    """The witness: a walk that blocked and restarted (sec. 3.2's recovery was reached)."""
    return any(m.kind == "restart" for m in walk.moves)


def walked_past_the_trace(walk: Walk) -> bool:
    """The witness: a walk longer than its Trace, with a forward after the Trace is full."""
    return sum(m.kind == "forward" for m in walk.moves) > walk.params.k


register(Property(ALGORITHM, "forwarding_avoids_the_trace", forwarding_avoids_the_trace,
                  "sec. 3.1 step 2.2: the data goes to a random neighbour not in the Trace",
                  witness=walked_past_the_trace, subject="Walk"))
register(Property(ALGORITHM, "no_return_within_the_trace", no_return_within_the_trace,
                  "sec. 3.1: the Trace keeps the data from coming back, in the short term, to a node that has "
                  "just received it (no node receives it twice within k receptions)",
                  witness=restarted, subject="Walk",
                  explain=lambda w: f"node {_first_repeat(w)} receives the data twice within {w.params.k} receptions"))
register(Property(ALGORITHM, "no_return_within_the_last_k_nodes_passed", no_return_within_the_last_k_nodes_passed,
                  "sec. 3.1, 'in the short term' counted over the nodes the data has just passed (该数据最近刚刚走过的"
                  "节点), a return needing a reception: no node receives the data while it is among the last k nodes "
                  "the walk passed (the same as no_return_within_the_trace where a restart sends the data; where the "
                  "chosen node restarts from its own copy, that restart passes the node without a reception and is "
                  "not counted as a return: a choice)",
                  witness=restarted, subject="Walk",
                  explain=lambda w: f"node {_first_return_on_the_path(w)} receives the data while among the last "
                  f"{w.params.k} nodes the walk passed"))
register(Property(ALGORITHM, "walk_never_revisits_a_node", walk_never_revisits_a_node,
                  "sec. 3.2 and 6: the Trace can prevent the data from forming loops (能够防止数据形成回路, "
                  "without sec. 3.1's 'in the short term'), read without a limit: no node receives the data twice "
                  "in one walk (sec. 3 and 3.1 limit it to the most recent path: no_return_within_the_trace)",
                  witness=walked_past_the_trace, subject="Walk",
                  explain=lambda w: f"node {_first_repeat(w)} receives the data twice"))
register(Property(ALGORITHM, "recovery_ends", recovery_ends,
                  "sec. 3.2: halving the hop budget on each restart avoids endless blocking and recovery",
                  witness=restarted, subject="Walk",
                  explain=lambda w: "the walk comes back to a state it was in and can block and restart for ever"))


register(Property(ALGORITHM, "forwards_at_most_twice_the_budget", forwards_at_most_twice_the_budget,
                  "a walk ends after at most 2B - 1 forwards, B its first hop budget: blocking and recovery "
                  "bound its messages",
                  witness=restarted, subject="Walk",
                  question="sec. 3.2 says halving avoids endless blocking and recovery (recovery_ends); that the "
                  "messages are then bounded by the first budget (B + B/2 + B/4 + ... < 2B) is this project's "
                  "question",
                  explain=lambda w: ("the walk can go round for ever" if w.lasso is not None else
                                     f"{sum(m.kind == 'forward' for m in w.moves)} forwards with a first budget of "
                                     f"{w.params.budget}")))


register(Property(ALGORITHM, "walk_ends_with_certainty", walk_ends_with_certainty,
                  "sec. 3.2: halving the hop budget on each restart avoids endless blocking and recovery (the walk "
                  "ends with probability 1)", subject="Ending", witness=Ending.can_restart,
                  explain=lambda e: f"the walk ends with probability {e.probability} only"))


def _first_return_on_the_path(walk: Walk) -> int | None:
    """The first node that receives the data while among the last k nodes the walk passed."""
    window: list[int] = [walk.params.source]
    for move in walk.moves:
        at = moved_to(move)
        if at is None:
            continue
        if received(move) is not None and at in window[-walk.params.k:]:
            return at
        window.append(at)
    return None


def _first_repeat(walk: Walk) -> int | None:
    got = walk.receptions()
    return next((v for i, v in enumerate(got) if v in got[:i]), None)


@attrs.frozen
class Delivery:
    """One walk's chance of reaching an entry point: its parameters, reading and the exact
    probability (summed over every random choice), and whether an entry point lies within the
    first budget's reach."""

    params: WalkParameters
    reading: Reading
    probability: Fraction

    def entry_within_budget(self) -> bool:
        d = moves_within(self.params.graph, self.reading).distance(self.params.source, self.params.entries)
        return d is not None and d <= self.params.budget


def walk_reaches_an_entry_whenever_one_is_in_reach(d: Delivery) -> bool:
    """Sec. 5.3: CBDLO sends the data accurately to every node interested in it, so its walk must
    reach the attribute's topology: with probability 1 wherever an entry point lies within the
    budget's reach."""
    return d.probability == 1 or not d.entry_within_budget()


register(Property(ALGORITHM, "walk_reaches_an_entry_whenever_one_is_in_reach",
                  walk_reaches_an_entry_whenever_one_is_in_reach,
                  "sec. 5.3: CBDLO delivers the data accurately to all interested nodes, so each attribute's walk "
                  "reaches its topology (with certainty where an entry point is within the budget)",
                  witness=lambda d: d.entry_within_budget() and 0 < d.probability, subject="Delivery",
                  explain=lambda d: f"the walk reaches an entry point with probability {d.probability} only"))


def rewalks_end(r: Rewalks) -> bool:
    """Sec. 4: halving the budget each time keeps the re-walks from going on for ever: each re-walk's
    budget is below the one before it, and the chain ended."""
    return not r.cut and all(after < before for before, after in zip(r.budgets, r.budgets[1:]))


register(Property(ALGORITHM, "rewalks_end", rewalks_end,
                  "sec. 4: when the data finds no virtual node at the entry (its subscriber left), a new walk starts "
                  "with the budget halved each time, so the re-walks end",
                  witness=lambda r: len(r.budgets) >= 3, subject="Rewalks",
                  explain=lambda r: f"the walks' budgets go {r.describe()}"))


def virtual_nodes_at_most_subscriptions_plus_2(space: Space) -> bool:
    """Sec. 5.2, 5.4: max(VN) = subscriptions + 2; |VirtualNode| <= n + 2."""
    return len(pieces(space)) <= len(space.ranges) + 2


def virtual_nodes_at_most_twice_subscriptions_plus_1(space: Space) -> bool:
    """Each range adds at most two cuts (its two ends), so n ranges make at most 2n + 1 pieces."""
    return len(pieces(space)) <= 2 * len(space.ranges) + 1


register(Property(ALGORITHM, "virtual_nodes_at_most_subscriptions_plus_2", virtual_nodes_at_most_subscriptions_plus_2,
                  "sec. 5.2, 5.4: the virtual nodes of an attribute number at most subscriptions + 2",
                  witness=lambda s: len(s.ranges) >= 2, subject="Space",
                  explain=lambda s: f"{len(s.ranges)} ranges cut [{s.low}, {s.high}] into {len(pieces(s))} pieces"))
register(Property(ALGORITHM, "virtual_nodes_at_most_twice_subscriptions_plus_1",
                  virtual_nodes_at_most_twice_subscriptions_plus_1,
                  "the tight bound: n ranges cut the value space into at most 2n + 1 pieces",
                  witness=lambda s: len(pieces(s)) == 2 * len(s.ranges) + 1 and len(s.ranges) >= 2, subject="Space",
                  question="sec. 5.2 states subscriptions + 2; this bound is this project's, reached by n ranges "
                  "that share no end and touch neither end of the value space"))


def tree_height_is_log2_n(tree: Tree) -> bool:
    """Sec. 5.2: the tree's height is h = log2 N (N virtual nodes), read as printed: equal to the
    real number log2 N."""
    return tree.height() == math.log2(len(tree))


def tree_height_is_floor_log2_n(tree: Tree) -> bool:
    """Sec. 5.2's h = log2 N rounded down: the least height of a binary tree of N nodes."""
    return tree.height() == len(tree).bit_length() - 1


register(Property(ALGORITHM, "tree_height_is_log2_n", tree_height_is_log2_n,
                  "sec. 5.2: the height of the balanced tree is h = log2 N",
                  witness=lambda t: len(t) >= 3, subject="Tree",
                  explain=lambda t: f"a balanced tree of {len(t)} nodes has height {t.height()}, "
                  f"log2 {len(t)} = {math.log2(len(t)):.3g}"))
register(Property(ALGORITHM, "tree_height_is_floor_log2_n", tree_height_is_floor_log2_n,
                  "sec. 5.2's h = log2 N rounded down (a tree's height is a whole number)",
                  witness=lambda t: len(t) >= 3, subject="Tree",
                  question="sec. 5.2 prints h = log2 N (tree_height_is_log2_n, which fails); the rounding down is "
                  "this project's repair, which the text does not give"))


def stage_two_cost_is_the_tree_height(routing: Routing) -> bool:
    """Sec. 5.3: the second stage's cost is fixed and equals the height of the attribute's tree."""
    return routing.hops() <= routing.tree.height()


register(Property(ALGORITHM, "stage_two_cost_is_the_tree_height", stage_two_cost_is_the_tree_height,
                  "sec. 5.3: the cost of the second stage is fixed, equal to the height of the attribute tree",
                  witness=lambda r: r.entry != r.target, subject="Routing",
                  explain=lambda r: f"from virtual node {r.entry} to {r.target} is {r.hops()} hops in a tree of "
                  f"height {r.tree.height()}"))


def subscriber_accepts_exactly_the_matching_events(m: Matching) -> bool:
    """Sec. 4, sec. 5.3: CDM delivers accurately: a subscriber accepts an event if and only if the
    event matches its subscription (no false positive, no false negative)."""
    return m.accepts() == m.interested()


register(Property(ALGORITHM, "subscriber_accepts_exactly_the_matching_events",
                  subscriber_accepts_exactly_the_matching_events,
                  "sec. 4, 5.3: CDM sends the matched data to the nodes interested in it, accurately (the counter "
                  "accepts exactly the events that match the subscription)",
                  witness=lambda m: m.interested(), subject="Matching",
                  explain=lambda m: ("the subscriber accepts an event that does not match it" if m.accepts() else
                                     "the subscriber rejects an event that matches it")))


WALK_PROPERTIES = ("forwarding_avoids_the_trace", "no_return_within_the_trace",
                   "no_return_within_the_last_k_nodes_passed", "walk_never_revisits_a_node", "recovery_ends",
                   "forwards_at_most_twice_the_budget")


def evaluate(walk: Walk) -> dict[str, bool]:
    """Every walk property on one walk."""
    from spec.registry import get

    return {name: get(ALGORITHM, name).predicate(walk) for name in WALK_PROPERTIES}


# Sec. 5.2: an attribute i appears in a subscription with probability mu x i^alpha, 0 < alpha, mu < 1,
# "so the common attributes are in most subscriptions and special ones only in a few".
def zipf_as_printed(i: int, mu: float, alpha: float) -> float:
    return mu * i ** alpha


# The law the prose describes (a Zipf law falls with the rank i): this project's repair, not the text.
def zipf_as_intended(i: int, mu: float, alpha: float) -> float:
    return mu * i ** -alpha


# Sec. 5.3's worked example: Simple's first point, 68,605 messages, 408 matches expected, 68 made.
WORKED_EXAMPLE = {"messages": 68_605, "expected": 408, "matched": 68, "printed": 411_630}


def effective_cost(messages: int, matched: int, expected: int) -> Fraction:
    """Sec. 5.3's effective distribution cost (its formula was lost from the text; the worked
    example fixes it): messages / (matched / expected)."""
    if matched <= 0 or expected <= 0:
        raise ValueError("the effective cost needs matched > 0 and expected > 0")
    return Fraction(messages) / Fraction(matched, expected)
