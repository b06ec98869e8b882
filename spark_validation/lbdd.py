"""LBDD validation at scale: every registered property on random topologies, on Spark.

Paper: Li, Wang, Yin & Yuan, J. Southeast Univ. 30(4), 2014, sec. 3.5 and 4.3.

Each seed is one topology (reference.lbdd.random_topology: a publisher and 1..1000 subscribers,
log-uniform, with random distinct IPv4 addresses hashed by MD5 as the paper does). For every
reading asked for, the reference builds the copy graph and the spec's own predicates judge it
(spec.registry: the same functions exhaustive search and hypothesis call).
"""

from __future__ import annotations

import attrs
import numpy as np
import pyarrow as pa

from reference import lbdd as R
from spark_validation.job import JudgedJob, judge
from spec import lbdd as L
from spec.registry import Column

DEFAULT_READINGS = ("corrected", "literal", "no-tie-break")


@attrs.frozen
class LbddJob(JudgedJob):
    KNOWN = tuple(L.READINGS)
    readings: tuple[str, ...] = DEFAULT_READINGS
    max_subscribers: int = R.MAX_RANDOM_SUBSCRIBERS
    algorithm: str = L.ALGORITHM

    def __attrs_post_init__(self) -> None:
        for r in self.readings:
            L.reading_named(r)
        if self.max_subscribers < 1:
            raise ValueError(f"max_subscribers must be at least 1, not {self.max_subscribers}")

    def properties_of(self, reading: str) -> list:
        return L.PROPERTIES

    def reading_columns(self) -> list[str]:
        """Per reading whether the topology can tell it from corrected."""
        return [Column.distinguished(r) for r in self.readings]

    def evaluated_from(self, column: str) -> int | None:
        """The smallest n the paper evaluates the column's claim at (None: no such size)."""
        return self.property_of(column)[1].evaluated_from

    def metric_columns(self) -> list[str]:
        return ["depth", "publisher_copies", "senders", "lowest_bucket", "occupied_buckets",
                "at_paper_sizes", "sender_degree_milli_at_paper_sizes"]

    def topology(self, seed: int):
        return R.random_topology(int(seed), self.max_subscribers)

    def evaluate(self, seeds: np.ndarray) -> pa.RecordBatch:
        props = L.PROPERTIES
        rows = self.new_rows()
        for seed in np.asarray(seeds).tolist():
            publisher, subscribers = self.topology(seed)
            rows["seed"].append(seed)
            rows["n"].append(len(subscribers))
            digests = {h: R.fast_digests([publisher] + subscribers, h)
                       for h in {L.reading_named(r).hash_input for r in self.readings}}
            ties = {h: len(np.unique(d)) < len(d) for h, d in digests.items()}
            # the order among addresses only matters between equal digests
            order = R.address_order([publisher] + subscribers) if any(ties.values()) else None
            judged: dict[tuple, tuple[R.Tree, L.Dissemination, dict, dict]] = {}
            h = L.CORRECTED.hash_input
            corrected_key = same_tree_key(L.CORRECTED, digests[h], ties[h]) if h in digests else None
            for name in self.readings:
                reading = L.reading_named(name)
                d = digests[reading.hash_input]
                key = same_tree_key(reading, d, ties[reading.hash_input])
                rows[Column.distinguished(name)].append(name == "corrected" or key != corrected_key)
                if key not in judged:  # readings that differ only where this topology cannot tell
                    tree = R.disseminate(d[1:], int(d[0]), reading, order)
                    run = R.as_dissemination(tree)
                    judged[key] = (tree, run, *judge(props, run))
                tree, run, verdicts, seen = judged[key]
                self.record(rows, name, verdicts, seen)
                if name == self.readings[0]:
                    copies = R.copies_sent(tree)
                    rows["depth"].append(L.tree_depth(run))
                    rows["publisher_copies"].append(int(copies[0]))
                    rows["senders"].append(int((copies > 0).sum()))
                    rows["lowest_bucket"].append(int(tree.buckets[1:].min()))
                    rows["occupied_buckets"].append(len(R.occupied_buckets(tree)))
                    # Theorem 2 as the paper states it, an expectation, at the sizes sec. 4.3
                    # evaluates: copies per sending node in thousandths (integers keep the sums
                    # exact on any partitioning); 0 outside those sizes
                    paper = L.EVALUATED_SIZES[0] <= len(subscribers) <= L.EVALUATED_SIZES[1]
                    rows["at_paper_sizes"].append(int(paper))
                    senders = int((copies > 0).sum())
                    rows["sender_degree_milli_at_paper_sizes"].append(
                        round(1000 * int(copies.sum()) / senders) if paper and senders else 0)
        return self.batch(rows)

    def shrunk(self, column: str, seed: int, at_least: int = 0) -> Shrunk:
        """The topology of `seed`, shrunk while the column's property still fails (and it keeps
        at least `at_least` subscribers), as the spec's view (checks makes the replay file of it:
        spark_validation never imports checks)."""
        reading_name, prop = self.property_of(column)
        prop_name = prop.name
        reading = L.reading_named(reading_name)
        publisher, subscribers = self.topology(seed)

        def fails(subs: list[str]) -> bool:
            if len(subs) < at_least:
                return False
            tree = R.build(subs, publisher, reading)
            return not prop.predicate(R.as_dissemination(tree))

        kept = shrink(subscribers, fails)
        view = L.View(L.node_at(publisher, reading), tuple(L.node_at(s, reading) for s in kept))
        return Shrunk(reading_name, prop_name, view, seed, len(subscribers))


@attrs.frozen
class Shrunk:
    """A failing topology cut down to a 1-minimal failing one, under the column's reading."""

    reading: str
    property: str
    view: L.View
    seed: int
    original_subscribers: int


def same_tree_key(reading: L.Reading, digests: np.ndarray, ties: bool) -> tuple:
    """Readings with equal keys give this topology the same copy graph: tie-breaking matters only
    when two members share a digest (`ties`), and the zero-distance rule only when a subscriber
    shares the publisher's digest."""
    zero = bool((digests[1:] == digests[0]).any())
    return (reading.hash_input, reading.zero_distance if zero else None,
            reading.tie_break if ties else None, reading.rank_base, reading.ratio, reading.target_bucket)


def shrink(items: list, fails) -> list:
    """A 1-minimal sublist that still fails (delta debugging by chunks, then single items)."""
    assert fails(items)
    chunk = max(len(items) // 2, 1)
    while True:
        i, removed = 0, False
        while i < len(items):
            candidate = items[:i] + items[i + chunk:]
            if candidate != items and fails(candidate):
                items, removed = candidate, True
            else:
                i += chunk
        if chunk == 1 and not removed:
            return items
        chunk = max(chunk // 2, 1) if not removed else chunk


def default_job() -> LbddJob:
    return LbddJob()


from_config = LbddJob.from_config
