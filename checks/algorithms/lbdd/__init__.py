"""LBDD (Li, Wang, Yin & Yuan 2014): what is checked, under which readings, at which scope.

Paper: Li, Wang, Yin & Yuan, "Load-balancing data distribution in publish/subscribe mode",
J. Southeast Univ. 30(4), 2014, sec. 3.2-3.5 and 4.3. The model and its claims are spec/lbdd.py.

What is checked (the engine, checks.engine, runs every check declared here):
  z3          schedule_partitions_targets for every bucket size S >= 1, T >= 0 (unbounded
              integers), and one_way_dissemination for every 32-bit digest, views of any size and
              paths of any length; the encodings and their cross-checks are in proofs.py.
  exhaustive  schedule_partitions_targets for every S, T up to the scope's partition size; and
              every claim about a run on every publisher and every subscriber multiset over small
              digest spaces, then every failure and join (Algorithm 3) up to a depth, through the
              shared explorer, the registry's properties being the invariants.
  hypothesis  the same claims on random views, shrunk.
  spark       the same claims on random topologies of MD5-hashed IPv4 addresses
              (spark_validation/lbdd.py); a failing topology comes back shrunk, as a spec view.

Layout: readings, scopes, the checks, counterexample files and their replay (drawn by
drawing.py), the declaration.
"""

from __future__ import annotations

import ipaddress

import functools
from typing import Any, Iterable, Iterator

import attrs

from checks import plugin
from checks.enumerate import multisets
from checks.explorer import TransitionSystem
from checks.verdict import Verdict
from spec import lbdd as L
from spec.registry import get, properties

from . import drawing, proofs

NAME = L.ALGORITHM


# --------------------------------------------------------------------------------------------
# Readings: spec.lbdd.READINGS, and the ones each method can tell apart
# --------------------------------------------------------------------------------------------

FIELDS = tuple(f.name for f in attrs.fields(L.Reading) if f.name != "name")


def telling_apart(fields: Iterable[str]) -> tuple[str, ...]:
    """The readings a check that reads only `fields` can tell apart: corrected, and every reading
    that departs from it in one of them (any other gives that check corrected's answer)."""
    fields = set(fields)
    return tuple(name for name, r in L.READINGS.items()
                 if r == L.CORRECTED or any(getattr(r, f) != getattr(L.CORRECTED, f) for f in fields))


# Z3's one-way encoding reads the bucket function and the target bucket.
ONE_WAY_READINGS = telling_apart({"zero_distance", "target_bucket"})
# Algorithm 2's partition reads the rank base and the ratio arithmetic.
PARTITION_READINGS = telling_apart({"rank_base", "ratio"})
# Abstract digests hash nothing: packed-hash is left to hypothesis, which hashes real addresses.
EXPLORED_READINGS = telling_apart(set(FIELDS) - {"hash_input"})
# A static run never updates a path.
HYPOTHESIS_READINGS = telling_apart(set(FIELDS) - {"path_update"})


def describe_reading(reading: L.Reading) -> str:
    changed = [f"{f} = {getattr(reading, f)}" for f in FIELDS if getattr(reading, f) != getattr(L.CORRECTED, f)]
    if not changed:
        return "every open choice resolved so that the claims can hold"
    lead = "the paper's pseudocode as written: " if reading == L.LITERAL else "corrected, but "
    return lead + ", ".join(changed)


CATALOGUE = plugin.Catalogue(L.READINGS, describe_reading, key=("corrected", "literal"))

# The properties of every run (the statistical ones need n >= 100, which only Spark reaches).
EVERY_RUN = tuple(p.name for p in L.EVERY_RUN_PROPERTIES)   # the names of the spec's group
PARTITION = L.PARTITION.name


# --------------------------------------------------------------------------------------------
# Scopes
# --------------------------------------------------------------------------------------------

@attrs.frozen
class Space:
    """A digest space explored exhaustively."""

    bits: int        # digests range over 0 .. 2^bits - 1
    copies: int      # at most this many subscribers share a digest (copies > 1 makes ties)
    depth: int       # failures and joins after the initial tree

    def describe(self) -> str:
        return (f"digests of {self.bits} bits, <= {self.copies} subscriber(s) per digest, "
                f"every publisher, {self.depth} failure/join step(s)")


@attrs.frozen
class Scope:
    spaces: tuple[Space, ...]     # explored one after the other, as one check per reading
    partition_size: int           # Algorithm 2 on every S in 1..n, T in 0..n
    hypothesis_examples: int      # random views per property and reading


SCOPES = {
    "default": Scope(spaces=(Space(bits=3, copies=1, depth=1), Space(bits=2, copies=2, depth=1)),
                     partition_size=32, hypothesis_examples=150),
    "large": Scope(spaces=(Space(bits=4, copies=1, depth=1), Space(bits=3, copies=2, depth=1),
                           Space(bits=2, copies=2, depth=2)),
                   partition_size=128, hypothesis_examples=2000),
}


# --------------------------------------------------------------------------------------------
# The checks
# --------------------------------------------------------------------------------------------

def checks(scope: Scope) -> Iterator[plugin.Check]:
    for name in PARTITION_READINGS:
        yield partition_proof(name)
    for name in ONE_WAY_READINGS:
        yield one_way_proof(name)
    for name in PARTITION_READINGS:
        yield partition_enumeration(scope, name)
    for name in EXPLORED_READINGS:
        yield exploration(scope, name)
    for name in HYPOTHESIS_READINGS:
        for prop in EVERY_RUN:
            yield search(scope, prop, name)


# Z3 (proofs.py): the partition for all sizes; the bucket lemmas one-way dissemination rests on, for
# all digests (the step to whole runs is not encoded, so that check records holds, not proved).

def partition_proof(name: str) -> plugin.Proof:
    def prove() -> plugin.ProofOutcome:
        found = proofs.prove_partition(L.READINGS[name])
        if found["verdict"] is not Verdict.VIOLATED:
            return plugin.ProofOutcome(found["verdict"], found["queries"], found.get("detail", ""))
        return plugin.ProofOutcome(found["verdict"], found["queries"],
                                   f"{found['kind']} at S={found['S']}, T={found['T']}, index {found['j']}",
                                   schedule_document(name, "z3", found["S"], found["T"]))

    return plugin.Proof(PARTITION, name, "all S >= 1, T >= 0 (unbounded integers)", prove)


def one_way_proof(name: str) -> plugin.Proof:
    def prove() -> plugin.ProofOutcome:
        found = proofs.prove_one_way(L.READINGS[name])
        lemmas = found.get("lemmas", {})
        detail = "; ".join([part for part in [found.get("detail", "")] if part] + [f"{k}: {v}" for k, v in lemmas.items()])
        return plugin.ProofOutcome(found["verdict"], len(lemmas), detail)

    return plugin.Proof("one_way_dissemination", name, "the bucket function on all 32-bit distances", prove,
                        unproved_step="Algorithm 1 inserts only higher buckets by definition, so the lemma on "
                                      "copies restates the encoding; the encoding is cross-checked against the "
                                      "spec on 20 random views, Algorithm 3 is not encoded, and whole runs are "
                                      "judged by the exhaustive search")


# Exhaustive: Algorithm 2 on every pair of bucket sizes up to the scope's.

def partition_enumeration(scope: Scope, name: str) -> plugin.Enumeration:
    reading, bound = L.READINGS[name], scope.partition_size

    def cases() -> Iterator[plugin.Case]:
        for s in range(1, bound + 1):
            for t in range(0, bound + 1):
                yield plugin.Case(L.BucketSizes(s, t, reading),
                                  describe=lambda s=s, t=t: f"first failure S={s}, T={t}",
                                  document=lambda _, s=s, t=t: schedule_document(name, "exhaustive", s, t))

    return plugin.Enumeration(name, (PARTITION,), f"every S in 1..{bound}, T in 0..{bound}", cases)


# Exhaustive: every publisher and subscriber multiset of each space, then failures and joins.

def exploration(scope: Scope, name: str) -> plugin.Exploration:
    reading = L.READINGS[name]
    run_of = functools.lru_cache(maxsize=8)(lambda state: L.dissemination(state, reading))
    props = [get(NAME, p) for p in EVERY_RUN]
    invariants = {p.name: (lambda s, p=p: p.predicate(run_of(s))) for p in props}
    witnesses = {p.name: (lambda s, p=p: p.witness(run_of(s))) for p in props if p.witness}
    return plugin.Exploration(
        name, EVERY_RUN, " + ".join(space.describe() for space in scope.spaces),
        systems=lambda: ((f"{space.bits}-bit digests", lbdd_system(space, reading)) for space in scope.spaces),
        invariants=lambda label: invariants, witnesses=lambda label: witnesses,
        document=lambda prop, label, trace: trace_document(prop, name, "exhaustive", trace),
        steps="event(s)",
        # the shortest trace, then the one from the smaller initial view
        prefer=lambda label, trace: (len(trace), len(trace[0].state.view.subscribers)))


def subscriber_address(digest: int, copy: int) -> str:
    return f"s{digest}.{copy}"


def initial_views(space: Space) -> Iterator[L.View]:
    """Every (publisher, subscriber multiset), fewest subscribers first."""
    digests = range(2 ** space.bits)
    for chosen in multisets(digests, space.copies):
        subs = tuple(L.Node(d, subscriber_address(d, k)) for d, k in chosen)
        for p in digests:
            yield L.View(L.Node(p, "p"), subs)


def lbdd_system(space: Space, reading: L.Reading) -> TransitionSystem:
    """Initial trees, then every failure and join, none past `space.depth` events (the system's
    depth bound: a state's depth is that of its first, breadth-first so shallowest, appearance).
    Views are sorted sets, so states are canonical."""

    def initial():
        for view in initial_views(space):
            yield L.initial_state(view, reading)

    def actions(state: L.State):
        for s in state.view.subscribers:
            yield ("fail", s.address)
        used = {s.address for s in state.view.subscribers}
        for d in range(2 ** space.bits):
            free = [k for k in range(space.copies) if subscriber_address(d, k) not in used]
            if free:
                yield ("join", d, subscriber_address(d, free[0]))

    def successor(state: L.State, action) -> L.State:
        if action[0] == "fail":
            return L.fail(state, action[1], reading)
        return L.join(state, L.Node(action[1], action[2]), reading)

    return TransitionSystem(initial, actions, successor, max_depth=space.depth)


# Hypothesis: random views, the same predicates; hypothesis shrinks what fails.

def search(scope: Scope, prop: str, name: str) -> plugin.Search:
    reading, claim = L.READINGS[name], get(NAME, prop)

    def judge(view: L.View) -> tuple[bool, bool]:
        run = L.build_dissemination(view, reading)
        return claim.predicate(run), claim.witness(run)

    drawn = "MD5 of random IPv4" if reading.hash_input != "ascii" else "digests of 2-32 bits"
    described = f"{scope.hypothesis_examples} random views, <= 24 subscribers, {drawn} (shrunk)"
    return plugin.Search(prop, name, described,
                         strategy=lambda: random_views(reading), judge=judge,
                         document=lambda view: view_document(prop, name, "hypothesis", view),
                         examples=scope.hypothesis_examples)


def random_views(reading: L.Reading):
    """Digest widths of 2-8 bits make ties and zero distances common; 32 bits is the paper's
    space. A reading that hashes packed bytes gets real IPv4 addresses instead, since its choice
    only shows through MD5."""
    from hypothesis import strategies as st

    @st.composite
    def views(draw):
        if reading.hash_input != "ascii":
            addresses = draw(st.lists(st.ip_addresses(v=4).map(str), min_size=1, max_size=25, unique=True))
            return L.View(L.node_at(addresses[0], reading), tuple(L.node_at(a, reading) for a in addresses[1:]))
        bits = draw(st.sampled_from([2, 3, 4, 8, 32]))
        digest = st.integers(0, 2 ** bits - 1)
        return L.abstract_view(draw(digest), draw(st.lists(digest, max_size=24)))

    return views()


# Spark (spark_validation/lbdd.py): the job shrinks a failing topology to a spec view, and the
# replay file is made here, since spark_validation never imports checks.

def spark_document(job, column: str, seed: int, at_least: int = 0) -> dict[str, Any]:
    shrunk = job.shrunk(column, seed, at_least)
    return {**view_document(shrunk.property, shrunk.reading, "spark", shrunk.view),
            "seed": seed, "original_subscribers": shrunk.original_subscribers}


def spark_scope(summary: dict[str, Any], job) -> str:
    return (f"{summary['cases']} random topologies, 1..{job.max_subscribers} subscribers (log-uniform), "
            "MD5 of random IPv4")


# --------------------------------------------------------------------------------------------
# Counterexample files, and their replay
# --------------------------------------------------------------------------------------------

def schedule_document(reading: str, method: str, s: int, t: int) -> dict[str, Any]:
    """Algorithm 2's whole input: S senders, T targets."""
    return {"algorithm": NAME, "property": PARTITION, "reading": reading, "method": method, "kind": "schedule",
            "S": s, "T": t}


def view_document(prop: str, reading: str, method: str, view: L.View, events=()) -> dict[str, Any]:
    """A view, then events ({"fail": address} or {"join": node}) applied in order."""
    return {
        "algorithm": NAME, "property": prop, "reading": reading, "method": method,
        "publisher": {"address": view.publisher.address, "digest": view.publisher.digest},
        "subscribers": [{"address": s.address, "digest": s.digest} for s in view.subscribers],
        "events": list(events),
    }


def trace_document(prop: str, reading: str, method: str, trace) -> dict[str, Any]:
    """An explorer trace (a list of explorer Steps) as a view and its events."""
    events = [{"fail": action[1]} if action[0] == "fail" else {"join": {"address": action[2], "digest": action[1]}}
              for action in (step.action for step in trace[1:])]
    return view_document(prop, reading, method, trace[0].state.view, events)


def replay(doc: dict[str, Any], say=print) -> plugin.Replayed:
    """Re-run a counterexample step by step; drawn (drawing.py) as the final copy graph of a
    tree, or as Algorithm 2's partition grid of a schedule."""
    check_document(doc)
    if doc.get("kind") == "schedule":
        return plugin.Replayed(replay_schedule(doc, say),
                               draw=lambda png, title: drawing.draw_schedule(doc, png, title))
    reproduced, run = replay_tree(doc, say)
    return plugin.Replayed(reproduced, draw=lambda png, title: drawing.draw_tree(doc, run, png, title))


def replay_tree(doc: dict[str, Any], say=print) -> tuple[bool, L.Dissemination]:
    """Rebuild the scenario, print every step; True if the recorded property fails at the end,
    with the final copy graph."""
    reading = L.reading_named(doc["reading"])
    view = L.View(L.Node(doc["publisher"]["digest"], doc["publisher"]["address"]),
                  tuple(L.Node(s["digest"], s["address"]) for s in doc["subscribers"]))
    state = L.initial_state(view, reading)
    say(f"LBDD, reading {reading.name!r}: publisher {view.publisher.address} "
        f"(digest {view.publisher.digest}), {len(view.subscribers)} subscriber(s)")
    _describe(state, reading, say)
    for step, event in enumerate(doc.get("events", []), start=1):
        if "fail" in event:
            say(f"step {step}: subscriber {event['fail']} fails; Algorithm 3 at every node")
            state = L.fail(state, event["fail"], reading)
        else:
            j = event["join"]
            say(f"step {step}: subscriber {j['address']} (digest {j['digest']}) joins; Algorithm 3")
            state = L.join(state, L.Node(j["digest"], j["address"]), reading)
        _describe(state, reading, say)
    run = L.dissemination(state, reading)
    holds = L.evaluate(run)[doc["property"]]
    say(f"{doc['property']}: {'holds' if holds else 'VIOLATED'}")
    return not holds, run


def _describe(state: L.State, reading: L.Reading, say) -> None:
    run = L.dissemination(state, reading)
    for address, sched in state.schedules:
        say(f"  {address:>14}  bucket {sched.self_no:>2}  rank {sched.rank:>2}  sends to "
            f"{', '.join(sched.targets) or '-'}")
    failing = [name for name, ok in L.evaluate(run).items() if not ok]
    say(f"  properties violated here: {', '.join(failing) or 'none'}")


def replay_schedule(doc: dict[str, Any], say=print) -> bool:
    """Algorithm 2 for S senders and T targets, rank by rank; True if the partition fails."""
    reading = L.reading_named(doc["reading"])
    s, t = doc["S"], doc["T"]
    if not (isinstance(s, int) and isinstance(t, int) and s >= 1 and t >= 0):
        raise ValueError(f"a schedule needs integers S >= 1 and T >= 0, not S={s!r}, T={t!r}")
    say(f"Algorithm 2, reading {reading.name!r} (ratio {reading.ratio}, ranks from {reading.rank_base}): "
        f"SelfBucket of {s}, TargetBucket of {t}")
    owners = {j: [] for j in range(1, t + 1)}
    for r in range(reading.rank_base, reading.rank_base + s):
        got = list(L.owned_indices(r, s, t, reading))
        for j in got:
            owners[j].append(r)
        say(f"  rank {r}: targets {got or '-'}")
    for j, rs in owners.items():
        if len(rs) != 1:
            say(f"  target index {j} is owned by {len(rs)} rank(s) {rs}")
    holds = L.schedule_partitions_targets(L.BucketSizes(s, t, reading))
    say(f"{PARTITION}: " + ("holds" if holds else "VIOLATED"))
    return not holds


def check_document(doc: dict[str, Any]) -> None:
    """Refuse a malformed counterexample with a message naming what is wrong."""
    def node_ok(n) -> bool:
        return (isinstance(n, dict) and isinstance(n.get("address"), str) and isinstance(n.get("digest"), int)
                and 0 <= n["digest"] < 2 ** L.DIGEST_BITS)

    L.reading_named(doc.get("reading", "<missing>"))
    names = {p.name for p in properties(NAME)}
    if doc.get("property") not in names:
        raise ValueError(f"unknown LBDD property {doc.get('property')!r}; known: {', '.join(sorted(names))}")
    if doc.get("kind") == "schedule":
        return
    if not node_ok(doc.get("publisher")):
        raise ValueError("the publisher must be {\"address\": text, \"digest\": a 32-bit integer}")
    subs = doc.get("subscribers")
    if not isinstance(subs, list) or not all(node_ok(n) for n in subs):
        raise ValueError("subscribers must be a list of {\"address\": text, \"digest\": a 32-bit integer}")
    events = doc.get("events", [])
    if not isinstance(events, list):
        raise ValueError(f"events must be a list, not {events!r}")
    for event in events:
        if not (isinstance(event, dict) and (isinstance(event.get("fail"), str) or node_ok(event.get("join")))):
            raise ValueError(f"an event is {{\"fail\": address}} or {{\"join\": node}}, not {event!r}")
    check_derived_fields(doc)


def check_derived_fields(doc: dict[str, Any]) -> None:
    """What the model derives must agree with the document, so an edited file cannot replay as
    "reproduced": a node whose address is an IPv4 address carries the MD5 digest of it (under the
    reading's hash input; a bare label such as s1 stands for an abstract digest), addresses are
    unique among the nodes present, a failure names a present subscriber and a join a new one."""
    reading = L.reading_named(doc["reading"])
    present = [doc["publisher"]["address"]]
    for node in [doc["publisher"], *doc["subscribers"], *(e["join"] for e in doc.get("events", []) if "join" in e)]:
        try:
            ipaddress.IPv4Address(node["address"])
        except ValueError:
            continue  # an abstract label
        want = L.md5_digest(node["address"], reading.hash_input)
        if node["digest"] != want:
            raise ValueError(f"node {node['address']}: digest {node['digest']} is not the MD5 digest of its address "
                             f"under reading {reading.name!r} ({want})")
    for s in doc["subscribers"]:
        if s["address"] in present:
            raise ValueError(f"address {s['address']!r} appears twice among the publisher and subscribers")
        present.append(s["address"])
    for step, event in enumerate(doc.get("events", []), start=1):
        if "fail" in event:
            if event["fail"] not in present[1:]:
                raise ValueError(f"event {step}: {event['fail']!r} is not a live subscriber")
            present.remove(event["fail"])
        else:
            if event["join"]["address"] in present:
                raise ValueError(f"event {step}: {event['join']['address']!r} is already present")
            present.append(event["join"]["address"])


# --------------------------------------------------------------------------------------------
# The declaration
# --------------------------------------------------------------------------------------------

ALGORITHM = plugin.Algorithm(
    name=NAME,
    title="LBDD (Li, Wang, Yin & Yuan 2014)",
    spec="spec.lbdd",
    readings=CATALOGUE,
    scopes=SCOPES,
    checks=checks,
    spark=plugin.SparkJob.of("spark_validation.lbdd",
                             scope=spark_scope, unit="topologies", size="subscribers",
                             counterexample=spark_document),
    replay=replay,
    **plugin.beside(__name__),
)
