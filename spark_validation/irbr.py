"""IRBR validation at scale: every claim about a publication, on random networks and workloads, on Spark.

Paper: Wang, Jin & Li, "Building Reliable Content-Based Routing Protocol over Structured P2P
Networks", Journal of Software 17(5), 2006, sec. 2-3.5 (the abstract's exactly-once claim).

Each seed is one workload (reference.irbr.random_workload): k in (2, 4, 16), 2..64 nodes
(log-uniform), one seed in 500 65..3000 nodes, with random identifiers, then a random sequence of subscribes (random conjunctions
over two attributes, so that filters often cover one another), unsubscribes, publishes, failures
and joins, ending with a publish. The workload is replayed on reference.irbr.Network under each
reading of the spec's catalogue marked for Spark (spec.irbr.READINGS), and every publication is
judged by the spec's own predicates (its group PUBLISH_PROPERTIES, the ones
exhaustive search calls): a property holds for the workload when it holds for each of its
publications. A failing workload is shrunk (operations, then nodes no operation names, dropped
while the property still fails); the checks turn it into a document that replays on the spec.
"""

from __future__ import annotations


import attrs
import numpy as np
import pyarrow as pa

from reference import irbr as R
from spark_validation.job import JudgedJob
from spec import irbr as I

# The readings judged on every workload: those of the spec's catalogue marked for Spark.
READINGS = tuple(name for name, reading in I.READINGS.items() if reading.spark)


@attrs.frozen
class IrbrJob(JudgedJob):
    KNOWN = READINGS
    readings: tuple[str, ...] = READINGS
    max_nodes: int = R.MAX_RANDOM_NODES
    max_operations: int = 16
    small_nodes: int = R.SMALL_NODES
    large_every: int = R.LARGE_EVERY
    algorithm: str = I.ALGORITHM

    def __attrs_post_init__(self) -> None:
        self.check_readings()
        if min(self.max_nodes, self.max_operations, self.small_nodes) < 2 or self.large_every < 1:
            raise ValueError("max_nodes, max_operations and small_nodes must be at least 2, large_every at least 1")

    def properties_of(self, reading: str) -> list:
        return I.PUBLISH_PROPERTIES

    def metric_columns(self) -> list[str]:
        return ["k", "operations", "publishes", "failures", "leaves", "joins", "notified", "publish_messages"]

    def workload(self, seed: int) -> R.Workload:
        return R.random_workload(int(seed), self.max_nodes, self.max_operations, self.small_nodes, self.large_every)

    def network(self, w: R.Workload, reading: str) -> R.Network:
        r = I.READINGS[reading]
        return R.Network(w.k, w.L, w.ids, r.representative, r.tables, r.covering, r.unsubscribe, r.failure)

    def judge(self, w: R.Workload, reading: str) -> tuple[dict[str, bool], dict[str, bool], list]:
        """Per property: holds on every publication; witnessed on some; and the publications."""
        runs: list = []
        w.replay(self.network(w, reading), I.READINGS[reading].join, lambda i, run: runs.append((i, run)))
        holds = {p.name: all(p.predicate(r) for _, r in runs) for p in I.PUBLISH_PROPERTIES}
        seen = {p.name: any(p.witness(r) for _, r in runs) for p in I.PUBLISH_PROPERTIES}
        return holds, seen, runs

    def evaluate(self, seeds: np.ndarray) -> pa.RecordBatch:
        rows = self.new_rows()
        for seed in np.asarray(seeds).tolist():
            w = self.workload(seed)
            rows["seed"].append(seed)
            rows["n"].append(len(w.ids))
            for reading in self.readings:
                holds, seen, runs = self.judge(w, reading)
                self.record(rows, reading, holds, seen)
                if reading == self.readings[0]:
                    kinds = [op[0] for op in w.operations]
                    metrics = {"k": w.k, "operations": len(kinds), "publishes": kinds.count("publish"),
                               "failures": kinds.count("fail"), "leaves": kinds.count("leave"),
                               "joins": kinds.count("join"),
                               "notified": sum(c for _, r in runs for _, c in r.publication.notified),
                               "publish_messages": sum(r.publication.messages for _, r in runs)}
                    for c in self.metric_columns():
                        rows[c].append(int(metrics[c]))
        return self.batch(rows)

    def shrink(self, column: str, seed: int) -> tuple[R.Workload, int]:
        """The workload of `seed` cut after its first failing publish, then operations and nodes no
        operation names dropped while that publish still fails, repeated until nothing more can
        go: 1-minimal in operations and in single nodes. Returns the workload and the index of
        the failing publish (the last operation)."""
        reading, prop = self.property_of(column)

        def failing_publish(w: R.Workload) -> int | None:
            try:
                _, _, runs = self.judge(w, reading)
            except ValueError:  # an unsubscribe whose subscribe was dropped, and the like
                return None
            return next((i for i, r in runs if not prop.predicate(r)), None)

        w = self.workload(seed)
        first = failing_publish(w)
        if first is None:
            raise ValueError(f"seed {seed} does not violate {column} with this code: nothing to shrink")
        w = attrs.evolve(w, operations=w.operations[:first + 1])
        while True:
            size = (len(w.operations), len(w.ids))
            ops = list(w.operations)
            for i in reversed(range(len(ops) - 1)):
                trial = attrs.evolve(w, operations=tuple(ops[:i] + ops[i + 1:]))
                if failing_publish(trial) == len(ops) - 2:
                    ops = ops[:i] + ops[i + 1:]
            w = attrs.evolve(w, operations=tuple(ops))
            named = {op[1] for op in ops}
            ids = list(w.ids)
            chunk = max(1, len(ids) // 2)
            while chunk >= 1:  # drop unnamed nodes in halves, then quarters, ... then one at a time
                i = 0
                while i < len(ids):
                    part = [x for x in ids[i:i + chunk] if x not in named]
                    rest = [x for x in ids if x not in part]
                    if part and rest and failing_publish(attrs.evolve(w, ids=tuple(rest))) == len(ops) - 1:
                        ids = rest
                    else:
                        i += chunk
                chunk //= 2
            w = attrs.evolve(w, ids=tuple(ids))
            if (len(w.operations), len(w.ids)) == size:
                return w, len(w.operations) - 1


def default_job() -> IrbrJob:
    return IrbrJob()


from_config = IrbrJob.from_config
