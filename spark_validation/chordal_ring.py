"""Chordal reliability ring validation at scale: random sequences of joins, then failures, on Spark.

Paper: Madhu Kumar S D, Umesh Bellur, V. K. Govindan, "Chordal Reliability Rings", sec. 3.2-3.3
(the join), 3.4.1 (node failure), 3.4.2 (link failure) and 3.5 (backups).

Each seed is one sequence (`instance`): `joins` brokers join one after another (log-uniform in
2..max_joins), each through a broker drawn uniformly among those already in (a uniform draw scaled
to the ring's size, so that the same draws name the same handles under every reading), in the
paper's 2^32 identifiers, or, each `small_every`-th seed, in a space of 2^2, 2^4 or 2^6 identifiers that
fills (where a request is forwarded, refused or goes round). The join phase ends at the first join
that does not insert. Then, on the ring the corrected join makes from the same contacts (failure
handling reads only the ring's order and identifiers, as exhaustive search takes it, where the
ring is made by the corrected join too), where it has at least 5 brokers: 1..max_failures brokers
fail at once and are handled (chords "doubling" or "none", data backed up in 1..4 neighbours, at
random), one link of a random broker fails (B's own query sent first or not, and a chord's B
failing with it or not, at random), its query routed by nearest identifier, and an event of a random kind (normal, express, secure) is
routed between two random brokers over sec. 3.3's multigraph (each link express with one random
chance and secure with another, weights 1..10). So a sequence has up to max_joins + 3 operations.
Joins after failures are not modelled.

Each reading asked for is judged on the parts of the model (the join, node failure, link failure)
it resolves differently from the readings before it, as exhaustive search judges them
(spec.chordal_ring.PART_READINGS; the corrected and literal readings on every part). The spec runs
the joins (spec.chordal_ring.join_overlay) and the reference (reference.chordal_ring.Ring) the
same joins: any difference in an identifier, an outcome or a pointer is an error, not a verdict. The spec's own predicates judge: the join claims
(JOIN_PROPERTIES) on every join, and the ring claims (RING_PROPERTIES) with
join_updates_four_nodes (each O(brokers) to judge) on every join up to `dense` brokers, then on
the joins that bring the ring to a power of two and on the last: a claim broken by one join and
mended by a later one beyond `dense` brokers can be missed (exhaustive and hypothesis search judge
every join). The failure claims judge the failure, the link claims the link.

Metrics (of the corrected reading's runs): `brokers` (the ring failed), `joins` (attempted),
`forwards`, `refused` (the join phase ended refused: the space is full), `failed`, `confirmed`
(handlings that confirmed a failure), `failure_messages`, `chord` (the failed link is a chord),
`query_hops`; of the literal reading's event, `event_hops` and `no_path` (no path of its kind).

A failing sequence is shrunk: to the prefix up to its first failing join, then joins dropped one
at a time while the claim still fails (later contacts renumbered); a failure to the failed brokers
it needs.
"""

from __future__ import annotations

from typing import Any

import attrs
import numpy as np
import pyarrow as pa

from reference import chordal_ring as R
from reference import generators as G
from spark_validation.job import JudgedJob, judge
from spec import chordal_ring as C

PARTS = {"join": C.RING_PROPERTIES + C.JOIN_PROPERTIES, "failure": C.FAILURE_PROPERTIES, "link": C.LINK_PROPERTIES,
         "event": C.EVENT_PROPERTIES}
# each reading is judged on the parts of the model it resolves differently from every reading
# before it (spec.chordal_ring.PART_READINGS), as exhaustive search judges them: a reading judged
# on a part it shares with another would repeat that one's verdict on fewer cases
READINGS = tuple(r for r in C.READINGS if any(r in C.PART_READINGS[part] for part in PARTS))
# judged where the ring is small or at checkpoints: each reads every broker
WHOLE_RING = frozenset(p.name for p in C.RING_PROPERTIES) | {"join_updates_four_nodes"}
SHRINK_LIMIT = 400      # joins a failing prefix may have for joins to be dropped one at a time


@attrs.frozen
class Instance:
    seed: int
    bits: int
    draws: tuple[float, ...]            # one per join after the first: the contact is floor(draw x ring size)
    failures: int
    chords: str
    backups: int
    failure_seed: int                   # which brokers fail, which link (drawn once the ring's size is known)
    b_queried: bool
    b_failed: bool                      # a failed chord's B fails with it (B then sends no query of its own)

    def contacts(self, count: int | None = None) -> list[int | None]:
        draws = self.draws if count is None else self.draws[:max(count - 1, 0)]
        return [None] + [int(d * (k + 1)) for k, d in enumerate(draws)]


def checkpoint(size: int, last: bool, dense: int) -> bool:
    """Whether the whole-ring claims are judged after a join that leaves `size` brokers (the last join or not)."""
    return last or size <= dense or (size & (size - 1)) == 0


@attrs.frozen
class ChordalRingJob(JudgedJob):
    KNOWN = READINGS
    readings: tuple[str, ...] = READINGS
    max_joins: int = 1000
    small_every: int = 8
    max_failures: int = 3
    dense: int = 64
    algorithm: str = C.ALGORITHM

    def __attrs_post_init__(self) -> None:
        self.check_readings()
        for name in ("max_joins", "small_every", "max_failures", "dense"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"{name} must be a whole number >= 1, not {value!r}")
        if self.max_joins < 2:
            raise ValueError(f"max_joins must be at least 2, not {self.max_joins}")

    def parts_of(self, reading: str) -> list[str]:
        return [part for part in PARTS if reading in C.PART_READINGS[part]]

    def properties_of(self, reading: str) -> list:
        return [p for part in self.parts_of(reading) for p in PARTS[part]]

    def metric_columns(self) -> list[str]:
        return ["brokers", "joins", "forwards", "refused", "failed", "confirmed", "failure_messages", "chord",
                "query_hops", "event_hops", "no_path"]

    # -- the sampler --

    def instance(self, seed: int) -> Instance:
        seed = int(seed)
        rng = G.rng_for(C.ALGORITHM, seed)
        small = seed % self.small_every == 0
        bits = 2 * int(rng.integers(1, 4)) if small else C.PAPER_BITS
        joins = G.log_uniform_int(rng, 2, self.max_joins)
        draws = tuple(float(d) for d in rng.random(joins - 1))
        return Instance(seed, bits, draws, failures=int(rng.integers(1, self.max_failures + 1)),
                        chords=C.CHORD_RULES[int(rng.integers(len(C.CHORD_RULES)))],
                        backups=int(rng.integers(1, 5)), failure_seed=int(rng.integers(2 ** 62)),
                        b_queried=bool(rng.integers(2)), b_failed=bool(rng.integers(2)))

    # -- the runs --

    def joins(self, inst: Instance, reading: str, count: int | None = None) -> list[C.JoinRun]:
        """The spec's joins under `reading`, to the first that does not insert, held to the
        reference's (a ValueError where they differ)."""
        r = C.READINGS[reading]
        ring, runs = C.empty(inst.bits), []
        ref = R.Ring(r, inst.bits)
        for contact in inst.contacts(count):
            run = C.join_overlay(ring, contact, r)
            runs.append(run)
            try:
                got = ref.join_through(contact)
                outcome = C.JOINED
            except R.JoinFailed as failed:
                got, outcome = None, failed.outcome
            if outcome != run.outcome or (outcome == C.JOINED and got != run.after[run.new].id):
                raise ValueError(f"seed {inst.seed}, reading {reading}, join {len(runs) - 1}: the reference gave "
                                 f"{outcome} {got}, the spec {run.outcome} "
                                 f"{run.after[run.new].id if run.new is not None else ''}")
            if run.outcome != C.JOINED:
                break
            ring = run.after
        for h, broker in enumerate(ring.brokers):
            want = tuple(None if p is None else ring[p].id for p in broker.pointers())
            if tuple(ref._id(getattr(ref, f)[h]) for f in C.POINTERS) != want:
                raise ValueError(f"seed {inst.seed}, reading {reading}: the reference's pointers of broker {h} "
                                 f"differ from the spec's")
        return runs

    def failure_choice(self, inst: Instance, n: int) -> tuple[tuple[int, ...], int, int]:
        """Which brokers fail (handles), and the link: broker a and the index of b among its links."""
        rng = np.random.Generator(np.random.PCG64(inst.failure_seed))
        failed = tuple(sorted(int(h) for h in rng.choice(n, size=min(inst.failures, n - 1), replace=False)))
        return failed, int(rng.integers(n)), int(rng.integers(2 ** 31))

    def failure(self, inst: Instance, reading: str, ring: C.Ring, failed=None) -> C.FailureRun:
        failed = self.failure_choice(inst, len(ring))[0] if failed is None else failed
        return C.node_failure(ring, failed, C.READINGS[reading], inst.chords, inst.backups)

    def event(self, inst: Instance, reading: str, ring: C.Ring) -> C.EventRoute:
        """An event of a random kind between two random brokers of the multigraph over the ring:
        each normal link express with one chance and secure with another, weights 1..10."""
        rng = np.random.Generator(np.random.PCG64(inst.failure_seed + 1))
        normal = sorted(C.Multigraph(ring).normal())
        chance = rng.random(2)
        draws = rng.random((len(normal), 2))
        weights = rng.integers(1, 11, len(normal))
        express = frozenset(l for l, d in zip(normal, draws[:, 0]) if d < chance[0])
        secure = frozenset(l for l, d in zip(normal, draws[:, 1]) if d < chance[1])
        graph = C.Multigraph(ring, express, secure, tuple((l, int(w)) for l, w in zip(normal, weights)))
        source, to = (int(h) for h in rng.integers(len(ring), size=2))
        return C.route_event(graph, source, to, C.KINDS[int(rng.integers(len(C.KINDS)))], C.READINGS[reading])

    def link(self, inst: Instance, reading: str, ring: C.Ring) -> C.LinkRun:
        _, a, pick = self.failure_choice(inst, len(ring))
        links = sorted(C.neighsets(ring)[a])
        b, me = links[pick % len(links)], ring[a]
        failed = inst.b_failed and b not in me.pointers()    # a chord's B only
        return C.link_failure(ring, a, b, C.READINGS[reading], b_queried=inst.b_queried and not failed,
                              b_failed=failed)

    # -- judging --

    def judge_joins(self, runs: list[C.JoinRun]) -> tuple[dict[str, bool], dict[str, bool]]:
        verdicts = {p.name: True for p in C.RING_PROPERTIES + C.JOIN_PROPERTIES}
        seen = {p.name: False for p in C.RING_PROPERTIES + C.JOIN_PROPERTIES}
        for k, run in enumerate(runs):
            whole = checkpoint(len(run.after), k == len(runs) - 1, self.dense)
            for p in C.RING_PROPERTIES + C.JOIN_PROPERTIES:
                if p.name in WHOLE_RING and not whole:
                    continue
                subject = run.after if p.subject == C.RING else run
                verdicts[p.name] = verdicts[p.name] and bool(p.predicate(subject))
                seen[p.name] = seen[p.name] or bool(p.witness(subject))
        return verdicts, seen

    def evaluate(self, seeds: np.ndarray) -> pa.RecordBatch:
        rows = self.new_rows()
        for seed in np.asarray(seeds).tolist():
            inst = self.instance(seed)
            corrected = self.joins(inst, "corrected")
            base = corrected[-1].after          # the ring failures are made on
            rows["seed"].append(seed)
            rows["n"].append(len(base))
            metrics = {"brokers": len(base), "joins": len(corrected), "forwards": sum(r.forwards for r in corrected),
                       "refused": corrected[-1].outcome == C.REFUSED}
            for reading in self.readings:
                verdicts, seen = {}, {}
                for part in self.parts_of(reading):
                    if part == "join":
                        v, w = self.judge_joins(corrected if reading == "corrected" else self.joins(inst, reading))
                    elif len(base) < 5:         # no failure made: every claim holds, no witness reached
                        v, w = {p.name: True for p in PARTS[part]}, {p.name: False for p in PARTS[part]}
                    else:
                        run = {"failure": self.failure, "link": self.link, "event": self.event}[part](inst, reading, base)
                        v, w = judge(PARTS[part], run)
                        if reading == "corrected" and part == "failure":
                            metrics.update(failed=len(run.failed),
                                           confirmed=sum(h.outcome == C.CONFIRMED for h in run.handlings),
                                           failure_messages=sum(len(h.messages) for h in run.handlings))
                        elif reading == "corrected" and part == "link":
                            metrics.update(chord=run.kind == C.CHORD, query_hops=len(run.path) - 1)
                        elif reading == "literal" and part == "event":
                            metrics.update(event_hops=max(len(run.path) - 1, 0), no_path=run.outcome == C.NO_PATH)
                    verdicts.update(v)
                    seen.update(w)
                self.record(rows, reading, verdicts, seen)
            for c in self.metric_columns():
                rows[c].append(int(metrics.get(c, 0)))
        return self.batch(rows)

    # -- counterexamples --

    def counterexample(self, column: str, seed: int) -> dict[str, Any]:
        """The shrunk failing operation of `seed` as a replay document (checks' chordal ring
        declaration reads it): joins as their contacts by handle; a failure or a link on the
        corrected join's ring of the sequence's contacts."""
        reading, prop = self.property_of(column)
        inst = self.instance(int(seed))
        base = {"algorithm": C.ALGORITHM, "property": prop.name, "reading": reading, "method": "spark",
                "seed": int(seed)}
        if prop.subject in (C.RING, C.JOIN):
            contacts = self.shrink_joins(inst, reading, prop)
            return {**base, "kind": "joins", "bits": inst.bits, "contacts": contacts}
        ring = self.joins(inst, "corrected")
        contacts = [r.contact for r in ring]
        ring = ring[-1].after
        if prop.subject == C.FAILURE:
            failed = list(self.failure_choice(inst, len(ring))[0])
            for h in list(failed):              # drop each failed broker the violation does not need
                fewer = [x for x in failed if x != h]
                if fewer and not prop.predicate(self.failure(inst, reading, ring, fewer)):
                    failed = fewer
            run = self.failure(inst, reading, ring, failed)
            if prop.predicate(run):
                raise ValueError(f"seed {seed} does not violate {column} with this code: nothing to shrink")
            return {**base, "kind": "failure", "brokers": len(ring), "failed": failed, "chords": inst.chords,
                    "backups": inst.backups, "bits": inst.bits, "contacts": contacts}
        if prop.subject == C.EVENT:
            route = self.event(inst, reading, ring)
            if prop.predicate(route):
                raise ValueError(f"seed {seed} does not violate {column} with this code: nothing to shrink")
            g = route.graph
            kept = {C.EXPRESS: g.express, C.SECURE: g.secure}
            if route.outcome == C.NO_PATH and route.kind in kept:
                # only the event's own kind's links the source reaches bear on its finding no path
                reached = C.reachable(g.links(route.kind, route.reading), route.source)
                kept = {route.kind: frozenset(l for l in kept[route.kind] if l[0] in reached)}
            weights = [[list(l), w] for l, w in g.weights if any(l in links for links in kept.values())]
            return {**base, "kind": "event", "brokers": len(ring),
                    "express": [list(l) for l in sorted(kept.get(C.EXPRESS, ()))],
                    "secure": [list(l) for l in sorted(kept.get(C.SECURE, ()))], "weights": weights,
                    "event": route.kind, "from": route.source, "to": route.to, "bits": inst.bits, "contacts": contacts}
        run = self.link(inst, reading, ring)
        if prop.predicate(run):
            raise ValueError(f"seed {seed} does not violate {column} with this code: nothing to shrink")
        return {**base, "kind": "link", "brokers": len(ring), "link": [run.a, run.b], "b_queried": run.b_queried,
                **({"b_failed": True} if run.b_failed else {}),
                "bits": inst.bits, "contacts": contacts}

    def shrink_joins(self, inst: Instance, reading: str, prop) -> list[int | None]:
        r = C.READINGS[reading]

        def fails(contacts) -> bool:
            runs = C.run_joins(contacts, r, inst.bits)
            if any(run.outcome != C.JOINED for run in runs[:-1]):
                return False
            last = runs[-1]
            return not prop.predicate(last.after if prop.subject == C.RING else last)

        runs = self.joins(inst, reading)
        contacts = None
        for k in range(len(runs)):
            prefix = [run.contact for run in runs[:k + 1]]
            if fails(prefix):
                contacts = prefix
                break
        if contacts is None:
            raise ValueError(f"seed {inst.seed} does not violate {reading}:{prop.name} with this code: nothing to shrink")
        if len(contacts) <= SHRINK_LIMIT:
            j = len(contacts) - 2
            while j >= 1:
                # drop join j: a later contact through j goes through the broker before it, later handles shift down
                fewer = contacts[:j] + [c if c < j else max(c - 1, 0) for c in contacts[j + 1:]]
                if fails(fewer):
                    contacts = fewer
                j -= 1
        return contacts


def default_job() -> ChordalRingJob:
    return ChordalRingJob()


from_config = ChordalRingJob.from_config
