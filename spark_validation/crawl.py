"""CRAWL validation at scale: every claim about one walk, on random lower layers, on Spark.

Paper: Zheng & Sun, "A Publishing/Subscription System Based on the Hybrid Two-Layer Topology",
Software Engineering and Applications 7(1), 2018, sec. 3 (CRAWL: step 1, step 2, recovery) and
sec. 5 (the sizes of its evaluation).

Each seed is one walk's situation (`instance`), of one of two families:
- large (every seed but each `small_every`-th, by default four seeds in five): sec. 5's sizes, a lower layer of 100..3,000 nodes
  (log-uniform) drawn node by node as the walk reaches it (reference.crawl.LazyLayer: each node's
  own view of 10 or 20 random others; 0..20% of the nodes have left, churn the views have not yet
  caught up with, so a view is shorter by the nodes that left), an APT of 20..100 entries filled
  as one of reference.crawl.APT_FILLING (at random), 30..3,000 attributes (log-uniform) and the
  walk's attribute of rank i among them, in a subscription with the Zipf chance 0.9 x i^-0.5 (the
  law sec. 5.2's prose describes), with 0.001..1 subscriptions per node (log-uniform): a node is an
  entry point with the chance that it is a member or its APT names one (node-samples: 1 - (1 -
  members' share)^|APT|; attribute-entries: |APT| / attributes); a Trace of 1..4 nodes and a first
  budget of 5..30;
- small (each `small_every`-th seed, by default each fifth): a lower layer of 2..64 nodes (log-uniform), each node picking
  a view of 1..4 others at random (reference.crawl.random_views; it may be disconnected, and a walk
  stays in its source's part), 0..n/4 entry points, k = 1..4, budget 1..16: on those of at most 6
  nodes and budget at most 8 the exact chance of reaching an entry point is solved, to set beside
  the share of walks that did.
Under each walk reading of the spec's catalogue with snapshot views and budgets halved rounding down
(spec.crawl.WALK_READINGS; views refreshed at every hop are judged by exhaustive and hypothesis search
only, a large layer, drawn as a walk reaches it, having no whole membership to draw a fresh view
from; halving rounded up too, to keep make check's Spark run as it was) the reference makes one
seeded walk, stopped where a state comes back (it can then go round for ever); the walk is
replayed on the spec (every move checked to be one of its choices; a large layer as the views the
walk drew, the only ones a walk reads) and judged by the spec's own Walk predicates, the ones
exhaustive search calls.

Metrics (under the first reading, the printed one): `found` (the walk reached an entry point),
`large`, and of the large walks those that found one (`found_large`) or restarted
(`restarted_large`); on the small instances solved exactly (`exact_cases`) the exact chance of reaching one
(reference.crawl.success_probability) in parts per million (`exact_ppm`) with `found_exact`, the
walks among them that did: over many instances the share found and the mean exact chance agree
within the estimate's interval.

A failing walk is shrunk to its own nodes and edges (every node it never reached and every edge it
never took dropped, nodes renumbered in the order they received the data); the checks turn it
into a document that replays on the spec.
"""

from __future__ import annotations

import attrs
import numpy as np
import pyarrow as pa

from reference import crawl as R
from reference import generators as G
from spark_validation.job import JudgedJob, judge
from spec import crawl as C
from spec.registry import properties

READINGS = tuple(r for r in C.WALK_READINGS if (C.READINGS[r].views, C.READINGS[r].rounding) == ("snapshot", "down"))
WALK_PROPERTIES = properties(C.ALGORITHM, subject="Walk")
EXACT_NODES, EXACT_BUDGET = 6, 8      # the instances whose exact chance is solved (a dense system per walk)


ATTRIBUTES, MU, ALPHA = (30, 3000), 0.9, 0.5   # the large family's attributes and Zipf law (sec. 5.2's prose)


@attrs.frozen
class Instance:
    params: C.WalkParameters | None       # a small layer, drawn whole
    seed: int = 0
    layer: dict | None = None             # a large layer's parameters (reference.crawl.LazyLayer's and the walk's)


@attrs.frozen
class CrawlJob(JudgedJob):
    KNOWN = READINGS
    readings: tuple[str, ...] = READINGS
    max_nodes: int = 64
    max_view: int = 4
    max_k: int = 4
    max_budget: int = 16
    small_every: int = 5            # make validate's 1,250,000: a million at sec. 5's sizes
    large_nodes: tuple[int, int] = attrs.field(default=(100, 3000), converter=tuple)
    large_views: tuple[int, ...] = attrs.field(default=(10, 20), converter=tuple)
    large_apts: tuple[int, int] = attrs.field(default=(20, 100), converter=tuple)
    large_budgets: tuple[int, int] = attrs.field(default=(5, 30), converter=tuple)
    max_left: float = 0.2
    algorithm: str = C.ALGORITHM

    def __attrs_post_init__(self) -> None:
        self.check_readings()
        if self.max_nodes < 2 or min(self.max_view, self.max_k, self.max_budget) < 1:
            raise ValueError("max_nodes must be at least 2, max_view, max_k and max_budget at least 1")
        low, high = self.large_nodes
        if not (isinstance(self.small_every, int) and self.small_every >= 1):
            raise ValueError(f"small_every must be a whole number >= 1, not {self.small_every!r}")
        if not (2 <= low <= high and all(1 <= v < low for v in self.large_views) and
                1 <= self.large_apts[0] <= self.large_apts[1] and 1 <= self.large_budgets[0] <= self.large_budgets[1]
                and 0 <= self.max_left < 1):
            raise ValueError("the large family needs 2 <= nodes low <= high, views 1..low - 1, APTs and budgets "
                             "low <= high from 1, and max_left in [0, 1)")

    def properties_of(self, reading: str) -> list:
        return WALK_PROPERTIES

    def metric_columns(self) -> list[str]:
        return ["large", "found_large", "restarted_large", "k", "budget", "entries", "found", "moves", "restarts",
                "messages", "exact_cases", "exact_ppm", "found_exact"]

    def instance(self, seed: int) -> Instance:
        if int(seed) % self.small_every:
            return self.large_instance(int(seed))
        rng = G.rng_for(C.ALGORITHM, int(seed))
        n = G.log_uniform_int(rng, 2, self.max_nodes)
        views = R.random_views(n, int(rng.integers(1, min(self.max_view, n - 1) + 1)), rng)
        source = int(rng.integers(n))
        entries = frozenset(int(v) for v in rng.choice(n, size=int(rng.integers(0, n // 4 + 1)), replace=False))
        k, budget = int(rng.integers(1, self.max_k + 1)), int(rng.integers(1, self.max_budget + 1))
        graph = C.Graph(tuple(tuple(v) for v in views))
        return Instance(C.WalkParameters(graph, source, entries, k, budget), int(seed))

    def large_instance(self, seed: int) -> Instance:
        rng = G.rng_for(f"{C.ALGORITHM}/large", seed)
        n = G.log_uniform_int(rng, *self.large_nodes)
        view = int(self.large_views[int(rng.integers(len(self.large_views)))])
        apt = int(rng.integers(self.large_apts[0], self.large_apts[1] + 1))
        filling = R.APT_FILLING[int(rng.integers(len(R.APT_FILLING)))]
        attributes = G.log_uniform_int(rng, *ATTRIBUTES)
        rank = int(rng.integers(1, attributes + 1))
        # subscriptions per node, log-uniform in [0.001, 1]: topologies from a handful of nodes to most
        per_node = float(np.exp(rng.uniform(np.log(1e-3), 0.0)))
        member = per_node * min(1.0, C.zipf_as_intended(rank, MU, ALPHA))
        hit = (1 - (1 - member) ** apt) if filling == "node-samples" else min(1.0, apt / attributes)
        layer = {"nodes": n, "view": view, "seed": int(rng.integers(2 ** 62)), "source": int(rng.integers(n)),
                 "left": float(rng.uniform(0, self.max_left)), "entry": member + (1 - member) * hit,
                 "k": int(rng.integers(1, self.max_k + 1)),
                 "budget": int(rng.integers(self.large_budgets[0], self.large_budgets[1] + 1)),
                 "apt": apt, "filling": filling}
        return Instance(None, seed, layer)

    def layer(self, inst: Instance) -> R.LazyLayer | None:
        """A large instance's lower layer (None for a small one): one per instance, shared by the
        walks of every reading (a node's view is the same whoever draws it first)."""
        q = inst.layer
        return None if q is None else R.LazyLayer(q["nodes"], q["view"], q["seed"], q["source"], q["left"], q["entry"])

    def walk(self, inst: Instance, reading: str, layer: R.LazyLayer | None = None) -> C.Walk:
        """The reference's seeded walk under `reading`, replayed on the spec (a ValueError if the
        reference makes a move the spec does not allow). A large layer is given to the spec as the
        views the walk drew (the rest empty: the walk reads no other) and its entry points among them."""
        r = C.READINGS[reading]
        rng = G.rng_for(f"{C.ALGORITHM}/walk", inst.seed)      # the same draws under every reading
        if inst.layer is None:
            p = inst.params
            moves = R.walk(p.graph.views, p.source, p.entries, p.k, p.budget, rng, r, stop_on_repeat=True)
            return C.replay_walk(p, r, moves)
        q = inst.layer
        layer = layer or self.layer(inst)
        moves = R.walk(layer.views, q["source"], layer.entries, q["k"], q["budget"], rng, r, stop_on_repeat=True)
        reached = {q["source"], *(to for _, to in moves)}
        views = [()] * q["nodes"]
        for v in reached:
            views[v] = tuple(layer.views[v])
        p = C.WalkParameters(C.Graph(tuple(views)), q["source"], frozenset(v for v in reached if layer.is_entry(v)),
                             q["k"], q["budget"])
        return C.replay_walk(p, r, moves)

    def exact(self, inst: Instance) -> int | None:
        """The exact chance of reaching an entry point under the first reading, in parts per
        million (squares summed over a million instances stay within 64 bits), where the instance is small enough."""
        p = inst.params
        if p is None or len(p.graph) > EXACT_NODES or p.budget > EXACT_BUDGET:
            return None
        import networkx as nx

        g = nx.Graph()
        g.add_nodes_from(range(len(p.graph)))
        g.add_edges_from(p.graph.edges())
        chance = R.success_probability(g, p.source, p.entries, p.k, p.budget, self.readings[0])
        return round(chance * 10 ** 6)

    def evaluate(self, seeds: np.ndarray) -> pa.RecordBatch:
        rows = self.new_rows()
        for seed in np.asarray(seeds).tolist():
            inst = self.instance(seed)
            rows["seed"].append(seed)
            rows["n"].append(len(inst.params.graph) if inst.layer is None else inst.layer["nodes"])
            layer = self.layer(inst)
            for reading in self.readings:
                w = self.walk(inst, reading, layer)
                self.record(rows, reading, *judge(WALK_PROPERTIES, w))
                if reading == self.readings[0]:
                    exact = self.exact(inst)
                    large = inst.layer is not None
                    metrics = {"large": large, "found_large": large and w.found(),
                               "restarted_large": large and C.restarted(w), "k": w.params.k, "budget": w.params.budget,
                               # entry points: all of a small layer's; of a large one, those the walk met
                               "entries": len(w.params.entries), "found": w.found(), "moves": len(w.moves),
                               "restarts": sum(m.kind == "restart" for m in w.moves), "messages": w.messages(),
                               "exact_cases": exact is not None, "exact_ppm": exact or 0,
                               "found_exact": exact is not None and w.found()}
                    for c in self.metric_columns():
                        rows[c].append(int(metrics[c]))
        return self.batch(rows)

    def shrink(self, column: str, seed: int) -> C.Walk:
        """The failing walk of `seed` on its own nodes and edges: a node it never reached or an edge
        it never took changes none of its moves (a move's choices only lose candidates it did not
        pick), so the shrunk walk makes the same moves, numbered afresh, and fails the same way."""
        reading, prop = self.property_of(column)
        inst = self.instance(seed)
        w = self.walk(inst, reading)
        if prop.predicate(w):
            raise ValueError(f"seed {seed} does not violate {column} with this code: nothing to shrink")
        order = list(dict.fromkeys(w.receptions()))
        number = {v: i for i, v in enumerate(order)}
        edges = [(number[m.frm], number[m.to]) for m in w.moves if m.kind == "forward"]
        p = w.params
        small = C.WalkParameters(C.Graph.of(edges, len(order)), number[p.source],
                                 frozenset(number[e] for e in p.entries if e in number), p.k, p.budget)
        shrunk = C.replay_walk(small, w.reading, [(m.kind, number[m.to]) for m in w.moves])
        return shrunk if not prop.predicate(shrunk) else w


def default_job() -> CrawlJob:
    return CrawlJob()


from_config = CrawlJob.from_config
