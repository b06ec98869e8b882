"""CRAWL validation at scale: every claim about one walk, on random lower layers, on Spark.

Paper: Zheng & Sun, "A Publishing/Subscription System Based on the Hybrid Two-Layer Topology",
Software Engineering and Applications 7(1), 2018, sec. 3 (CRAWL: step 1, step 2, recovery).

Each seed is one walk's situation (`instance`): a lower layer of 2..64 nodes (log-uniform), each
node picking a view of 1..4 others at random (reference.crawl.random_views, the graph sec. 2's
random sampling gives; it may be disconnected, and a walk stays in its source's part), a random
source, 0..n/4 entry points (nodes whose APT holds the attribute's entry), a Trace of k = 1..4
nodes and a first hop budget of 1..16. Under each walk reading of the spec's catalogue
(spec.crawl.WALK_READINGS) the reference makes one seeded walk, stopped where a state comes back
(it can then go round for ever); the walk is replayed on the spec (every move checked to be one
of its choices) and judged by the spec's own Walk predicates, the ones exhaustive search calls.

Metrics (under the first reading, the printed one) set the estimate beside the exact chance:
`found` (the walk reached an entry point), and on the instances small enough to solve exactly
(`exact_cases`: at most 6 nodes, budget at most 8) the exact chance of reaching one
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

READINGS = C.WALK_READINGS
WALK_PROPERTIES = properties(C.ALGORITHM, subject="Walk")
EXACT_NODES, EXACT_BUDGET = 6, 8      # the instances whose exact chance is solved (a dense system per walk)


@attrs.frozen
class Instance:
    params: C.WalkParameters
    seed: int = 0


@attrs.frozen
class CrawlJob(JudgedJob):
    KNOWN = READINGS
    readings: tuple[str, ...] = READINGS
    max_nodes: int = 64
    max_view: int = 4
    max_k: int = 4
    max_budget: int = 16
    algorithm: str = C.ALGORITHM

    def __attrs_post_init__(self) -> None:
        self.check_readings()
        if self.max_nodes < 2 or min(self.max_view, self.max_k, self.max_budget) < 1:
            raise ValueError("max_nodes must be at least 2, max_view, max_k and max_budget at least 1")

    def properties_of(self, reading: str) -> list:
        return WALK_PROPERTIES

    def metric_columns(self) -> list[str]:
        return ["k", "budget", "entries", "found", "moves", "restarts", "messages",
                "exact_cases", "exact_ppm", "found_exact"]

    def instance(self, seed: int) -> Instance:
        rng = G.rng_for(C.ALGORITHM, int(seed))
        n = G.log_uniform_int(rng, 2, self.max_nodes)
        views = R.random_views(n, int(rng.integers(1, min(self.max_view, n - 1) + 1)), rng)
        source = int(rng.integers(n))
        entries = frozenset(int(v) for v in rng.choice(n, size=int(rng.integers(0, n // 4 + 1)), replace=False))
        k, budget = int(rng.integers(1, self.max_k + 1)), int(rng.integers(1, self.max_budget + 1))
        graph = C.Graph(tuple(tuple(v) for v in views))
        return Instance(C.WalkParameters(graph, source, entries, k, budget), int(seed))

    def walk(self, inst: Instance, reading: str) -> C.Walk:
        """The reference's seeded walk under `reading`, replayed on the spec (a ValueError if the
        reference makes a move the spec does not allow)."""
        r = C.READINGS[reading]
        rng = G.rng_for(f"{C.ALGORITHM}/{reading}", inst.seed)
        p = inst.params
        moves = R.walk(p.graph.views, p.source, p.entries, p.k, p.budget, rng, r, stop_on_repeat=True)
        return C.replay_walk(p, r, moves)

    def exact(self, inst: Instance) -> int | None:
        """The exact chance of reaching an entry point under the first reading, in parts per
        million (squares summed over a million instances stay within 64 bits), where the instance is small enough."""
        p = inst.params
        if len(p.graph) > EXACT_NODES or p.budget > EXACT_BUDGET:
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
            rows["n"].append(len(inst.params.graph))
            for reading in self.readings:
                w = self.walk(inst, reading)
                self.record(rows, reading, *judge(WALK_PROPERTIES, w))
                if reading == self.readings[0]:
                    exact = self.exact(inst)
                    metrics = {"k": inst.params.k, "budget": inst.params.budget, "entries": len(inst.params.entries),
                               "found": w.found(), "moves": len(w.moves),
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
        p = inst.params
        small = C.WalkParameters(C.Graph.of(edges, len(order)), number[p.source],
                                 frozenset(number[e] for e in p.entries if e in number), p.k, p.budget)
        shrunk = C.replay_walk(small, w.reading, [(m.kind, number[m.to]) for m in w.moves])
        return shrunk if not prop.predicate(shrunk) else w


def default_job() -> CrawlJob:
    return CrawlJob()


from_config = CrawlJob.from_config
