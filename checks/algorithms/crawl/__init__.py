"""CRAWL and CDM on CBDLO (Zheng & Sun 2018): the declaration the engines read.

Checks, each naming the properties it judges:
- exhaustive: every walk (every random choice) as the graph of its states on every connected
  graph of the networkx atlas up to `atlas_nodes` (7 in the large scope), from every source, k and
  budgets up to the scope's, under each walk reading (atlas.py): the Trace's properties
  (`trace_enumeration`: each source's shortest walk that breaks one, found by a monitor carried
  along the states), how every walk ends (`ending_enumeration`: its shortest lasso or its
  longest walk), its exact chance of ending (`ending_chances`) and of reaching an entry point for
  every APT placement (`delivery_enumeration`; a walk that can go round for ever is solved over
  its states cut at a feedback set, atlas.Rounds); every set of range
  subscriptions over a small value space (`space_enumeration`); every balanced tree up to N nodes
  and every route in it (`tree_enumeration`, `routing_enumeration`); every subscription, event and
  duplicate arrival of CDM (`matching_enumeration`);
- z3: the restarted budget shrinks (the step that ends every walk), for every budget; a range adds
  at most two cuts (2n + 1 pieces) and the least n beyond sec. 5.2's n + 2; the tree's height step;
- hypothesis: random graphs and random walks.
"""

from __future__ import annotations

import functools
import itertools
from fractions import Fraction
from typing import Any, Iterable, Iterator

import attrs

from checks import plugin
from checks.algorithms.crawl import atlas
from checks.algorithms.crawl.model import (chain, chance_document, delivery, ending_chain, rewalks_document,  # noqa: F401
                                          rewalks_of, walk_document)
from spec import crawl as C
from spec.registry import get

NAME = C.ALGORITHM
WALK_READINGS = C.WALK_READINGS
CDM_READINGS = ("previous/kept", "every-arrival", "reaches", "reaches/every-arrival")
# the upper layer's pieces and tree depend on no reading: judged once, under previous/kept (its one
# repair, the walk's rounding, is no part of the upper layer)
UPPER = "previous/kept"


def describe_reading(r: C.Reading) -> str:
    return r.note


CATALOGUE = plugin.Catalogue(C.READINGS, describe_reading, key=("previous/kept/round-up", "previous/kept", "reaches"))


@attrs.frozen
class Scope:
    atlas_nodes: int                 # every walk's states on every connected atlas graph of 2..atlas_nodes nodes
    atlas_ks: tuple[int, ...]        # ... with these Trace lengths
    atlas_budgets: tuple[int, ...]   # ... and first hop budgets, every APT placement
    ranges: int                      # the pieces of up to this many range subscriptions ...
    domain: int                      # ... over the value space [0, domain]
    counter_attributes: int          # CDM's counter: every subscription over this many attributes ...
    counter_values: int              # ... each a range over [0, counter_values - 1], every event and arrival order
    tree_nodes: int                  # balanced trees of 1..tree_nodes virtual nodes
    routing_nodes: int               # every route in the trees of 1..routing_nodes
    examples: int                    # hypothesis examples per check

    def describe(self) -> str:
        return (f"walks' states on graphs of <= {self.atlas_nodes} nodes, k in {self.atlas_ks}, budgets "
                f"{_span(self.atlas_budgets)}; {self.ranges} ranges over [0, {self.domain}]; the counter over "
                f"{self.counter_attributes} attributes of values 0..{self.counter_values - 1}")


def _span(values: tuple[int, ...]) -> str:
    if len(values) > 2 and values == tuple(range(values[0], values[-1] + 1)):
        return f"{values[0]}..{values[-1]}"
    return ", ".join(map(str, values))


SCOPES = {"default": Scope(atlas_nodes=5, atlas_ks=(1, 2, 3), atlas_budgets=tuple(range(1, 7)), ranges=3, domain=5,
                           counter_attributes=2, counter_values=3, tree_nodes=1024, routing_nodes=40, examples=100),
          # the atlas: every connected graph of up to 7 nodes, k 1..4, budgets up to 10
          "large": Scope(atlas_nodes=7, atlas_ks=(1, 2, 3, 4), atlas_budgets=tuple(range(1, 11)), ranges=4, domain=7,
                         counter_attributes=3, counter_values=4, tree_nodes=4096, routing_nodes=80, examples=500)}


# --------------------------------------------------------------------------------------------
# The lower layer: every walk, every chance
# --------------------------------------------------------------------------------------------

def atlas_graphs(max_nodes: int) -> tuple[C.Graph, ...]:
    """Every connected graph of 2..max_nodes nodes, up to isomorphism (networkx's atlas, which
    holds every graph of up to 7 nodes), smallest first."""
    if max_nodes > 7:
        raise ValueError(f"the atlas holds graphs of up to 7 nodes, not {max_nodes}")
    return _atlas_graphs(max_nodes)


@functools.lru_cache(maxsize=None)
def _atlas_graphs(max_nodes: int) -> tuple[C.Graph, ...]:
    # networkx reads its atlas from a file at every call: each enumeration would read it again
    import networkx as nx
    from networkx.generators.atlas import graph_atlas_g

    return tuple(C.Graph.of(g.edges(), g.number_of_nodes()) for g in graph_atlas_g()
                 if 2 <= g.number_of_nodes() <= max_nodes and nx.is_connected(g))


# judged on the walk's states (atlas.py): how a walk ends is decided by its cycles and its longest
# way; the Trace's properties by a monitor carried along the states (what each must remember of
# the walk's history)
ENDING_PROPERTIES = ("recovery_ends", "forwards_at_most_twice_the_budget")
TRACE_PROPERTIES = tuple(p for p in C.WALK_PROPERTIES if p not in ENDING_PROPERTIES)


def atlas_states(scope: Scope, r: C.Reading) -> Iterable[atlas.States]:
    """The walk's states on every atlas graph, k and first budget of `scope` under `r`. A
    reading's four enumerations (checks() declares them one after another) search the same
    states: up to KEPT_NODES nodes (about 40 MB a reading at 5) they are searched once and kept
    for the next enumeration of the same reading; larger atlases are searched graph by graph."""
    if scope.atlas_nodes <= KEPT_NODES:
        return _kept_states(scope.atlas_nodes, scope.atlas_ks, scope.atlas_budgets, r)
    return _searched_states(scope.atlas_nodes, scope.atlas_ks, scope.atlas_budgets, r)


KEPT_NODES = 5


def _searched_states(nodes: int, ks: tuple[int, ...], budgets: tuple[int, ...], r: C.Reading) -> Iterator[atlas.States]:
    if r.views == "refreshed":
        yield from _states_by_degrees(nodes, ks, budgets, r)
        return
    for graph in atlas_graphs(nodes):
        for k in ks:
            for budget in budgets:
                yield atlas.explore(graph, k, budget, r)


def _states_by_degrees(nodes: int, ks: tuple[int, ...], budgets: tuple[int, ...], r: C.Reading) -> Iterator[atlas.States]:
    """With views refreshed at every hop a walk reads only how many nodes there are and the
    degree of the node it is at (spec.crawl's fresh view: its size, and who may be in it), so two
    graphs whose nodes have the same degrees have the same walks, state for state. The atlas
    lists the graphs of one degree sequence one after another (853 graphs of 7 nodes in 236
    runs): each run's first graph is searched, and each other graph of the run, relabelled so
    that each node has the degree the first graph's node of its label has (same_degrees), gets
    those states. The first graph's cases come first, so the first that breaks a property is
    where a search graph by graph finds it, and the verdicts and the counts of sources, walks and
    states are the same; the Trace's count of (state, memory) pairs searched depends on the
    labelling (each source's search stops at its shortest breaches, in the order of the choices)."""
    for _, run in itertools.groupby(atlas_graphs(nodes), key=degree_sequence):
        run = list(run)
        first, searched = run[0], {}
        for graph in run:
            graph = same_degrees(graph, first)
            for k in ks:
                for budget in budgets:
                    states = searched.get((k, budget))
                    if states is None:
                        states = atlas.explore(graph, k, budget, r)
                        if len(run) > 1:
                            searched[(k, budget)] = states
                    yield states if states.graph == graph else attrs.evolve(states, graph=graph)


def degree_sequence(graph: C.Graph) -> tuple[int, ...]:
    return (len(graph),) + tuple(sorted(len(view) for view in graph.views))


def same_degrees(graph: C.Graph, like: C.Graph) -> C.Graph:
    """`graph` relabelled so that each node has the degree that `like`'s node of the same label
    has (their degree sequences are the same): the nodes of each side taken in order of degree,
    then label. `like` itself comes back as it is."""
    if degree_sequence(graph) != degree_sequence(like):
        raise ValueError("the graphs' degree sequences differ: no relabelling gives one the other's degrees")
    mine = sorted(range(len(graph)), key=lambda v: (len(graph.views[v]), v))
    theirs = sorted(range(len(like)), key=lambda v: (len(like.views[v]), v))
    label = dict(zip(mine, theirs))
    return C.Graph.of([(label[u], label[v]) for u, v in graph.edges()], len(graph))


class _PerSearch:
    """What an enumeration works out from a search (the exact chances, the longest walks, the
    Trace's breaches), kept for the other graphs of its run, whose States hold the same search
    (_states_by_degrees): the last `size` searches, held by their `states` list."""

    def __init__(self, size: int = 64) -> None:
        self.size, self.kept = size, {}

    def get(self, states: atlas.States, work):
        hit = self.kept.get(id(states.states))
        if hit is not None and hit[0] is states.states:
            return hit[1]
        value = work()
        if len(self.kept) >= self.size:
            del self.kept[next(iter(self.kept))]
        self.kept[id(states.states)] = (states.states, value)
        return value


def _on(walk: C.Walk, graph: C.Graph) -> C.Walk:
    """A walk of a run's first graph as the same walk on another graph of the run (same states)."""
    return walk if walk.params.graph == graph else attrs.evolve(walk, params=attrs.evolve(walk.params, graph=graph))


@functools.lru_cache(maxsize=1)
def _kept_states(nodes: int, ks: tuple[int, ...], budgets: tuple[int, ...], r: C.Reading) -> tuple[atlas.States, ...]:
    return tuple(_searched_states(nodes, ks, budgets, r))


def _atlas_scope(scope: Scope) -> str:
    return (f"every connected graph of 2..{scope.atlas_nodes} nodes, every source, k in "
            f"{', '.join(map(str, scope.atlas_ks))}, budgets {_span(scope.atlas_budgets)}")


def ending_enumeration(scope: Scope, reading: str) -> plugin.Enumeration:
    r = C.READINGS[reading]

    def cases() -> Iterator[plugin.Case]:
        shared = _PerSearch()
        for states in atlas_states(scope, r):
            longest = shared.get(states, lambda: list(atlas.longest_walks(states)))
            for source, walk in enumerate(_on(w, states.graph) for w in longest):
                yield plugin.Case(walk, describe=lambda w=walk: describe_walk(w),
                                  document=lambda prop, w=walk: walk_document(prop, reading, "exhaustive", w),
                                  counts={"sources": 1, "lassos": walk.lasso is not None,
                                          "states": len(states.states) if source == 0 else 0})
    return plugin.Enumeration(
        reading, ENDING_PROPERTIES,
        f"every walk (every random choice) as the graph of its states, on {_atlas_scope(scope)}, no entry point: "
        "from each source its shortest lasso where a walk can come back to a state it was in (go round for ever), "
        "else the walk that forwards most", cases, detail="{sources} sources, {states} states ({lassos} sources "
        "whose walk can go round for ever)")


def trace_enumeration(scope: Scope, reading: str) -> plugin.Enumeration:
    r = C.READINGS[reading]

    def cases() -> Iterator[plugin.Case]:
        shared = _PerSearch()
        for states in atlas_states(scope, r):
            found = shared.get(states, lambda: {prop: atlas.breaches(states, monitor)
                                                for prop, monitor in atlas.MONITORS.items()})
            for source in range(len(states.graph)):
                # the shortest walk that breaks each property, and where none does one walk that
                # keeps them (the first choice at every step), each judged by the spec's predicates
                walks = {_on(b.first[source], states.graph) for b in found.values() if b.first[source] is not None}
                walks = sorted(walks, key=lambda w: len(w.moves)) or [atlas.first_walk(states, source)]
                for i, walk in enumerate(walks):
                    yield plugin.Case(walk, describe=lambda w=walk: describe_walk(w),
                                      document=lambda prop, w=walk: walk_document(prop, reading, "exhaustive", w),
                                      counts={"sources": i == 0, "walks": 1, "states": sum(
                                          b.searched for b in found.values()) if source == 0 == i else 0})
    return plugin.Enumeration(
        reading, TRACE_PROPERTIES,
        f"every walk (every random choice) as the graph of its states, on {_atlas_scope(scope)}, no entry point "
        "(a walk that finds one is a prefix of one of these), each property carried along the states as what it "
        "must remember of the walk (nothing, the last k receptions, the last k nodes passed, the nodes that received "
        "the data): from each "
        "source the shortest walk that breaks it, else the walk of first choices", cases,
        detail="{sources} sources ({walks} walks judged), {states} (state, memory) pairs searched over the four "
        "properties")


def ending_chances(scope: Scope, reading: str) -> plugin.Enumeration:
    r = C.READINGS[reading]

    def chances(states: atlas.States) -> list[Fraction]:
        # how walks end asks no lookups: the states are cut without them, and only where one can go round
        rounds = atlas.rounds(states) if states.round else None
        return [atlas.ending_chance(states, source, rounds) for source in range(len(states.graph))]

    def cases() -> Iterator[plugin.Case]:
        shared = _PerSearch()
        for states in atlas_states(scope, r):
            for source, chance in enumerate(shared.get(states, lambda: chances(states))):
                e = C.Ending(states.params(source), r, chance)
                yield plugin.Case(e, describe=lambda e=e: describe_ending(e),
                                  document=lambda prop, e=e: chance_document(prop, reading, e.params, e.probability),
                                  counts={"sources": 1, "round": states.goes_round(source)})
    return plugin.Enumeration(
        reading, ("walk_ends_with_certainty",),
        f"the exact chance (a fraction) that the walk ends, on {_atlas_scope(scope)}, no entry point: 1 where no "
        "cycle of states is reachable, else the walk's states cut at a feedback set and solved over fractions "
        "(atlas.Rounds; held to the spec's chain solved by checks.markov and by Storm in tests/test_crawl.py)",
        cases, detail="{sources} sources ({round} whose walk can go round, each solved)")


def describe_ending(e: C.Ending) -> str:
    p = e.params
    return (f"from node {p.source} on a graph of {len(p.graph)} nodes (k = {p.k}, budget {p.budget}, no entry point): "
            f"the walk ends with probability {e.probability} ({float(e.probability):.3g}); else it goes round for ever")


def describe_walk(walk: C.Walk) -> str:
    p = walk.params
    tail = f", then round for ever from move {walk.lasso + 1}" if walk.lasso is not None else ""
    return (f"{len(walk.moves)} moves on a graph of {len(p.graph)} nodes (k = {p.k}, budget {p.budget}): "
            f"receptions {' -> '.join(map(str, walk.receptions()))}{tail}")








def delivery_document(prop: str, reading: str, d: C.Delivery) -> dict[str, Any]:
    p = d.params
    return {"algorithm": NAME, "property": prop, "reading": reading, "method": "exhaustive", "kind": "delivery",
            "n": len(p.graph), "edges": [list(e) for e in p.graph.edges()], "source": p.source,
            "entries": sorted(p.entries), "k": p.k, "budget": p.budget, "probability": str(d.probability)}


def delivery_enumeration(scope: Scope, reading: str) -> plugin.Enumeration:
    r = C.READINGS[reading]

    def case(d: C.Delivery) -> plugin.Case:
        return plugin.Case(d, describe=lambda: describe_delivery(d),
                           document=lambda prop: delivery_document(prop, reading, d),
                           counts={"cases": 1, "certain": d.probability == 1})

    def placements(states: atlas.States) -> list[list[tuple[frozenset[int], Fraction]]]:
        big_l, dist = atlas.lookup_distributions(states)
        rounds = atlas.rounds(states, big_l, dist)
        return [list(atlas.placement_chances(states, big_l, dist, source, rounds)) for source in range(len(states.graph))]

    def cases() -> Iterator[plugin.Case]:
        shared = _PerSearch()
        for states in atlas_states(scope, r):
            for source, chances in enumerate(shared.get(states, lambda: placements(states))):
                for entries, probability in chances:
                    yield case(C.Delivery(states.params(source, entries), r, probability))
    return plugin.Enumeration(
        reading, ("walk_reaches_an_entry_whenever_one_is_in_reach",),
        f"the exact chance (a fraction) on {_atlas_scope(scope)}, every APT placement (every nonempty set of entry "
        f"points among the nodes other than the source, which does not look in its own APT); where a walk can go "
        f"round for ever, its states cut at a feedback set and solved over fractions for every placement "
        f"(atlas.Rounds)", cases, detail="{cases} cases, {certain} certain to reach an entry")


def describe_delivery(d: C.Delivery) -> str:
    p = d.params
    return (f"from node {p.source} to the entry point {sorted(p.entries)} on a graph of {len(p.graph)} nodes "
            f"({C.moves_within(p.graph, d.reading).distance(p.source, p.entries)} hops away; k = {p.k}, budget {p.budget}): the walk reaches it "
            f"with probability {d.probability} ({float(d.probability):.3g})")


# --------------------------------------------------------------------------------------------
# The upper layer: pieces, the tree, CDM
# --------------------------------------------------------------------------------------------

def space_enumeration(scope: Scope) -> plugin.Enumeration:
    domain = range(scope.domain + 1)
    every_range = [(lo, hi) for lo in domain for hi in domain if lo <= hi]

    def cases() -> Iterator[plugin.Case]:
        for n in range(scope.ranges + 1):
            for ranges in itertools.combinations_with_replacement(every_range, n):
                space = C.Space(0, scope.domain, ranges)
                yield plugin.Case(space, describe=lambda s=space: describe_space(s),
                                  document=lambda prop, s=space: {"algorithm": NAME, "property": prop, "reading": UPPER,
                                                                  "method": "exhaustive", "kind": "space",
                                                                  "low": s.low, "high": s.high,
                                                                  "ranges": [list(r) for r in s.ranges]},
                                  counts={"spaces": 1})
    return plugin.Enumeration(
        UPPER, ("virtual_nodes_at_most_subscriptions_plus_2", "virtual_nodes_at_most_twice_subscriptions_plus_1"),
        f"every multiset of 0..{scope.ranges} range subscriptions over the value space [0, {scope.domain}]",
        cases, detail="{spaces} sets of ranges")


def describe_space(space: C.Space) -> str:
    return (f"{len(space.ranges)} ranges {', '.join(f'[{lo}, {hi}]' for lo, hi in space.ranges)} cut "
            f"[{space.low}, {space.high}] into {len(C.pieces(space))} pieces")


def tree_enumeration(scope: Scope) -> plugin.Enumeration:
    def cases() -> Iterator[plugin.Case]:
        for n in range(1, scope.tree_nodes + 1):
            tree = C.balanced_tree(n)
            yield plugin.Case(tree, describe=lambda t=tree: f"a balanced tree of {len(t)} virtual nodes has height "
                              f"{t.height()}", document=lambda prop, n=n: {
                                  "algorithm": NAME, "property": prop, "reading": UPPER, "method": "exhaustive",
                                  "kind": "tree", "n": n}, counts={"trees": 1})
    return plugin.Enumeration(UPPER, ("tree_height_is_log2_n", "tree_height_is_floor_log2_n"),
                              f"the balanced tree of every N in 1..{scope.tree_nodes} virtual nodes", cases,
                              detail="{trees} trees")


def routing_enumeration(scope: Scope) -> plugin.Enumeration:
    def cases() -> Iterator[plugin.Case]:
        for n in range(1, scope.routing_nodes + 1):
            tree = C.balanced_tree(n)
            for entry in range(n):
                for target in range(n):
                    route = C.Routing(tree, entry, target)
                    yield plugin.Case(route, describe=lambda r=route: (
                        f"from virtual node {r.entry} to {r.target} in the balanced tree of {len(r.tree)}: {r.hops()} "
                        f"hops, height {r.tree.height()}"), document=lambda prop, r=route: routing_document(prop, r),
                        counts={"routes": 1})
    return plugin.Enumeration(UPPER, ("stage_two_cost_is_the_tree_height",),
                              f"every route between two virtual nodes of the balanced tree of every N in "
                              f"1..{scope.routing_nodes}", cases, detail="{routes} routes")


def routing_document(prop: str, r: C.Routing) -> dict[str, Any]:
    return {"algorithm": NAME, "property": prop, "reading": UPPER, "method": "exhaustive", "kind": "routing",
            "n": len(r.tree), "entry": r.entry, "target": r.target}


ATTRIBUTES = ("x", "y", "z", "w")


def matchings(scope: Scope, reading: C.Reading) -> Iterator[C.Matching]:
    """Every subscription over the scope's attributes (x, y, ...: each absent or a range over
    [0, counter_values - 1]; at least one), every event (each attribute absent or a value) and every
    order of its arrivals, with and without one attribute arriving a second time (a re-walk, sec. 4)."""
    names, values = ATTRIBUTES[:scope.counter_attributes], range(scope.counter_values)
    options = [None] + [(lo, hi) for lo in values for hi in values if lo <= hi]
    for ranges in itertools.product(options, repeat=len(names)):
        sub = {a: r for a, r in zip(names, ranges) if r is not None}
        if not sub:
            continue
        for drawn in itertools.product([None, *values], repeat=len(names)):
            event = {a: v for a, v in zip(names, drawn) if v is not None}
            got = C.arrivals_of(sub, event)
            # a re-walk (sec. 4) brings one of them a second time: only an attribute whose matching
            # virtual node holds this subscriber reaches it at all
            for extra in [()] + [(a,) for a in got]:
                for order in sorted(set(itertools.permutations(got + list(extra)))):
                    yield C.Matching(tuple(sub.items()), tuple(event.items()), order, reading)


def matching_enumeration(scope: Scope, reading: str) -> plugin.Enumeration:
    r = C.READINGS[reading]

    def cases() -> Iterator[plugin.Case]:
        for m in matchings(scope, r):
            yield plugin.Case(m, describe=lambda m=m: describe_matching(m),
                              document=lambda prop, m=m: matching_document(prop, reading, m), counts={"cases": 1})
    return plugin.Enumeration(
        reading, ("subscriber_accepts_exactly_the_matching_events",),
        f"every subscription over {plugin.in_words(scope.counter_attributes)} attributes (ranges over "
        f"[0, {scope.counter_values - 1}]), every event, every order of its arrivals, with and without one attribute "
        "arriving twice (a re-walk)", cases, detail="{cases} arrivals")


def describe_matching(m: C.Matching) -> str:
    sub = " and ".join(f"{a} in [{lo}, {hi}]" for a, (lo, hi) in m.subscription)
    event = ", ".join(f"{a} = {v}" for a, v in m.event) or "no attribute"
    return (f"subscription {sub}, event {event}, arrivals {', '.join(m.arrivals) or 'none'}: "
            f"{'accepted' if m.accepts() else 'rejected'}, {'matches' if m.interested() else 'does not match'}")


def matching_document(prop: str, reading: str, m: C.Matching) -> dict[str, Any]:
    return {"algorithm": NAME, "property": prop, "reading": reading, "method": "exhaustive", "kind": "matching",
            "subscription": {a: list(r) for a, r in m.subscription}, "event": dict(m.event),
            "arrivals": list(m.arrivals)}


# --------------------------------------------------------------------------------------------
# Z3 and hypothesis
# --------------------------------------------------------------------------------------------

# the Z3 proofs of the walk's budget, by property: (what the lemmas range over, the lemma's name in
# proofs.py, the step from the lemmas to every walk, which Z3 does not take)
BUDGET_PROOFS = {
    "recovery_ends": ("every first budget B >= 1 and every blocked walk's budget b (unbounded integers)",
                      "restarts_shrink", "a walk's state (budget, hops) falls in the order 'budget down, then hops up' "
                      "at every move, so no state comes back"),
    "forwards_at_most_twice_the_budget": ("every first budget B >= 1 (unbounded integers)", "forwards_bounded",
                                          "a walk forwards at most its budget between restarts and each restart's "
                                          "budget is the blocked walk's halved"),
}


def budget_proof(prop: str, reading: str) -> plugin.Proof:
    from checks.algorithms.crawl import proofs

    scope, lemma, step = BUDGET_PROOFS[prop]
    return plugin.Proof(prop, reading, scope, lambda: getattr(proofs, lemma)(C.READINGS[reading]),
                        unproved_step=step + ": argued, and checked on every walk of the exhaustive scope")


# Sec. 4's re-walk halves as sec. 3.2's restart does; where each re-walk halves the walk before it,
# Z3 proves the budgets fall (where it halves the first one, hypothesis finds the endless chain)
# (and rounds down: rounded up, a re-walk of budget 1 starts another of 1, which hypothesis finds)
# (how the data reaches a restart's node, Reading.handover, is no part of a re-walk: one reading of it)
REWALK_PROOF_READINGS = tuple(r for r in WALK_READINGS
                              if (C.READINGS[r].halving, C.READINGS[r].rounding, C.READINGS[r].handover)
                              == ("previous", "down", "sent"))


def rewalk_proof(reading: str) -> plugin.Proof:
    from checks.algorithms.crawl import proofs

    return plugin.Proof("rewalks_end", reading, "every first budget B >= 1 and every walk's budget b <= B "
                        "(unbounded integers)", lambda: proofs.rewalks_shrink(C.READINGS[reading]),
                        unproved_step="a chain of positive budgets that falls at every re-walk ends after at most "
                        "floor(log2 B) + 1 walks (within the reference's cap of 64 re-walks for every B < 2^64): "
                        "argued; the chains of walks on random overlays under churn are judged by the hypothesis "
                        "check of rewalks_end")


# the Z3 checks of the upper layer, by property: (what they range over, the function in proofs.py,
# the step from the lemma to the property where Z3 does not take it)
UPPER_PROOFS = {
    "virtual_nodes_at_most_subscriptions_plus_2": (
        "every value space and every n = 1, 2, ... range subscriptions, up to the least n that breaks the bound "
        "(unbounded integers)", "least_ranges_beyond_n_plus_2", None),
    "virtual_nodes_at_most_twice_subscriptions_plus_1": (
        "every value space, every range and every set of ranges before it (unbounded integers)",
        "a_range_adds_two_cuts", "the count from the lemma (no range: one piece; each range adds at most two cuts, so "
        "n ranges make at most 2n + 1 pieces)"),
    "tree_height_is_floor_log2_n": (
        "every N >= 2 virtual nodes and every power of two p (unbounded integers)", "height_step",
        "the recursion height(N) = 1 + height(N // 2) read from spec.crawl.balanced_tree (it splits at the middle, "
        "the left part never the smaller)"),
}


def upper_proof(prop: str) -> plugin.Proof:
    from checks.algorithms.crawl import proofs

    scope, lemma, step = UPPER_PROOFS[prop]
    return plugin.Proof(prop, UPPER, scope, getattr(proofs, lemma),
                        unproved_step=None if step is None else
                        step + ": argued, and checked on every case of the exhaustive scope")


def walk_search(scope: Scope, prop: str, reading: str) -> plugin.Search:
    from hypothesis import strategies as st

    r = C.READINGS[reading]

    @st.composite
    def walks(draw):
        n = draw(st.integers(2, 9))
        edges = [(i, draw(st.integers(0, i - 1))) for i in range(1, n)]          # a spanning tree ...
        extra = draw(st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)), max_size=n))
        edges += [(u, v) for u, v in extra if u != v]                             # ... and some more edges
        params = C.WalkParameters(C.Graph.of(edges, n), draw(st.integers(0, n - 1)), frozenset(),
                                  draw(st.integers(1, 4)), draw(st.integers(1, 8)))
        state, moves = None, []
        for _ in range(60):
            options = C.successors(params, state, r)
            if not options:
                break
            _, move, state = options[draw(st.integers(0, len(options) - 1))]
            moves.append((move.kind, move.to))
        return C.replay_walk(params, r, moves)

    def judge(walk: C.Walk) -> tuple[bool, bool]:
        claim = get(NAME, prop)
        return claim.predicate(walk), bool(claim.witness(walk))

    return plugin.Search(prop, reading, f"{scope.examples} random walks on random connected graphs of 2..9 nodes "
                         "(k 1..4, budget 1..8, at most 60 moves), shrunk", walks, judge,
                         lambda w: walk_document(prop, reading, "hypothesis", w), scope.examples, describe=describe_walk)


def rewalk_search(scope: Scope, reading: str) -> plugin.Search:
    """Sec. 4's re-walk on the reference's overlay: random small overlays whose every APT caches the
    attribute's entry, some subscribers leaving the topology after the APTs are filled (their
    entries stale), one event; the chain of walks judged."""
    from hypothesis import strategies as st

    r = C.READINGS[reading]

    @st.composite
    def scenarios(draw):
        n = draw(st.integers(6, 24))
        subscribers = draw(st.lists(st.integers(0, n - 1), min_size=2, max_size=4, unique=True))
        return {"nodes": n, "view": draw(st.integers(2, 3)), "seed": draw(st.integers(0, 1 << 16)),
                "k": draw(st.integers(1, 4)), "budget": draw(st.integers(1, 16)), "subscribers": subscribers,
                "gone": draw(st.integers(1, len(subscribers) - 1)), "source": draw(st.integers(0, n - 1))}

    def judge(scenario: dict) -> tuple[bool, bool]:
        claim = get(NAME, "rewalks_end")
        chain_ = rewalks_of(scenario, r)
        return claim.predicate(chain_), bool(claim.witness(chain_))

    return plugin.Search("rewalks_end", reading, f"{scope.examples} random overlays of 6..24 nodes (views of 2..3, "
                         "k 1..4, budget 1..16, 2..4 subscribers, 1..3 of them leaving the topology after every APT "
                         "cached an entry), one event each, shrunk", scenarios, judge,
                         lambda s: rewalks_document("rewalks_end", reading, "hypothesis", s), scope.examples,
                         describe=lambda s: describe_rewalks(rewalks_of(s, r)))


def describe_rewalks(chain_: C.Rewalks) -> str:
    return f"the walks' budgets {chain_.describe()}"


def checks(scope: Scope) -> Iterator[plugin.Check]:
    for reading in ("previous/kept", "original/kept", "previous/kept/round-up"):
        for prop in BUDGET_PROOFS:
            yield budget_proof(prop, reading)
    for reading in WALK_READINGS:
        # one after another: they search the same states (atlas_states)
        yield trace_enumeration(scope, reading)
        yield ending_enumeration(scope, reading)
        yield delivery_enumeration(scope, reading)
        yield ending_chances(scope, reading)
    for reading in WALK_READINGS:
        for prop in C.WALK_PROPERTIES:
            yield walk_search(scope, prop, reading)
    for reading in WALK_READINGS:
        yield rewalk_search(scope, reading)
    for reading in REWALK_PROOF_READINGS:
        yield rewalk_proof(reading)
    for prop in UPPER_PROOFS:
        yield upper_proof(prop)
    yield space_enumeration(scope)
    yield tree_enumeration(scope)
    yield routing_enumeration(scope)
    for reading in CDM_READINGS:
        yield matching_enumeration(scope, reading)


# --------------------------------------------------------------------------------------------
# Spark: one seeded walk per random lower layer (spark_validation/crawl.py)
# --------------------------------------------------------------------------------------------

def spark_scope(summary: dict[str, Any], job) -> str:
    large = summary.get("metrics", {}).get("large", {}).get("sum", 0)
    return (f"{summary['cases']:,} random lower layers: {large:,} at sec. 5's sizes ({job.large_nodes[0]:,}.."
            f"{job.large_nodes[1]:,} nodes drawn as the walk reaches them, views of "
            f"{' or '.join(map(str, job.large_views))}, up to {job.max_left:.0%} of the nodes gone, APTs of "
            f"{job.large_apts[0]}..{job.large_apts[1]}, Zipf subscriptions, budget {job.large_budgets[0]}.."
            f"{job.large_budgets[1]}) and the rest small (2..{job.max_nodes} nodes, views of 1..{job.max_view} random "
            f"others, 0..n/4 entry points, budget 1..{job.max_budget}); k 1..{job.max_k}, a random source: one seeded "
            "walk of the reference per layer and reading, replayed on the spec and judged")


def spark_document(job, column: str, seed: int) -> dict[str, Any]:
    """The job's failing walk on its own nodes and edges, as a walk document."""
    reading, prop = column.split(":")[:2]
    return {**walk_document(prop, reading, "spark", job.shrink(column, seed)), "seed": int(seed)}


def replay(doc: dict[str, Any], say=print) -> plugin.Replayed:
    from checks.algorithms.crawl import drawing

    return drawing.replay(doc, say)


ALGORITHM = plugin.Algorithm(
    name=NAME, title="CRAWL and CDM on CBDLO (Zheng & Sun 2018)", spec="spec.crawl", readings=CATALOGUE,
    scopes=SCOPES, checks=checks, replay=replay,
    # `validate`'s 1,250,000 walks: a million at sec. 5's sizes (the job's small_every is 5)
    spark=plugin.SparkJob.of("spark_validation.crawl", scope=spark_scope, unit="walks", size="nodes",
                             counterexample=spark_document,
                             instances={"default": 20_000, "large": 200_000, "validate": 1_250_000}),
    **plugin.beside(__name__))
