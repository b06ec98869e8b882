"""Chordal reliability rings (Madhu Kumar, Bellur & Govindan): what is checked, under which readings,
at which scope.

Paper: "Chordal Reliability Rings", sec. 3.2-3.5. The model and its claims are spec/chordal_ring.py.

What is checked (the engine, checks.engine, runs every check declared here):
  z3          the join by induction for rings of every size (pointers_agree; with the 32-bit
              midpoint lemmas, ids_unique_in_ring_order and new_id_midway), proofs.py; the printed
              pointer lines' counterexample to induction, confirmed by a run from one broker.
  exhaustive  every join sequence with every contacted broker, on the paper's 2^32 identifiers and
              on a small space that fills; every set of failed brokers and every failed link on
              rings of the scope's sizes.
  exhaustive  ... and every set of express links (the rest secure) of rings of 5 and 6 brokers,
              with an express and a secure event from one broker to every other (sec. 3.3's multigraph).
  hypothesis  random join sequences and random multigraphs with weights, shrunk.

  spark       random sequences of up to 1,000 joins, then brokers and a link failing, judged by the
              spec's predicates (spark_validation/chordal_ring.py).

Joins after failures: the exploration of the join also runs joins with brokers failing between
them (each failure handled as sec. 3.4.1 says before the next join). Several failures at once:
every order of their handlings' steps (detect, confirm) where up to three fail; a step's messages
(and the splice's writes) are not interleaved with another's.

Layout: readings, scopes, the checks, counterexample files and their replay (drawn by
drawing.py), the declaration.
"""

from __future__ import annotations

import itertools
from typing import Any, Iterator

import attrs

from checks import plugin
from checks.explorer import TransitionSystem
from checks.verdict import Verdict
from spec import chordal_ring as C
from spec.registry import get, properties

NAME = C.ALGORITHM


# --------------------------------------------------------------------------------------------
# Readings: spec.chordal_ring.READINGS, and the ones each part of the model can tell apart
# --------------------------------------------------------------------------------------------

FIELDS = tuple(f.name for f in attrs.fields(C.Reading) if f.name != "name")
JOIN_FIELDS, FAILURE_FIELDS, LINK_FIELDS, EVENT_FIELDS = (C.PART_FIELDS[part]
                                                          for part in ("join", "failure", "link", "event"))
JOIN_READINGS, FAILURE_READINGS, LINK_READINGS, EVENT_READINGS = (C.PART_READINGS[part]
                                                                  for part in ("join", "failure", "link", "event"))
# joins after failures read the join's fields and the failure handling's
CHURN_READINGS = C.telling_apart(JOIN_FIELDS + FAILURE_FIELDS)
PROOF_READINGS = ("corrected", "literal", "printed-pointers")      # the induction reads the pointer lines


def describe_reading(reading: C.Reading) -> str:
    changed = [f"{f} = {getattr(reading, f)}" for f in FIELDS if getattr(reading, f) != getattr(C.CORRECTED, f)]
    if not changed:
        return "every repair taken: the midpoint identifier, all ten pointer lines, modular gap tests, a refusal when full, A and C spliced"
    if reading == C.LITERAL:
        return "the printed pseudocode and procedures: " + ", ".join(changed)
    base = "literal" if reading.origin == "open" else "corrected"
    return f"{base}, but " + ", ".join(f"{f} = {getattr(reading, f)}" for f in FIELDS
                                       if getattr(reading, f) != getattr(C.READINGS[base], f))


RING_PROPS = tuple(p.name for p in C.RING_PROPERTIES)
JOIN_PROPS = tuple(p.name for p in C.JOIN_PROPERTIES)
FAILURE_PROPS = tuple(p.name for p in C.FAILURE_PROPERTIES)
LINK_PROPS = tuple(p.name for p in C.LINK_PROPERTIES)
EVENT_PROPS = tuple(p.name for p in C.EVENT_PROPERTIES)
# the fields each property's checks read (`checks`: the ring and join properties after joins and
# failures, the others in their own part)
PROPERTY_FIELDS = {**{p: JOIN_FIELDS + FAILURE_FIELDS for p in RING_PROPS + JOIN_PROPS},
                   **{p: FAILURE_FIELDS for p in FAILURE_PROPS}, **{p: LINK_FIELDS for p in LINK_PROPS},
                   **{p: EVENT_FIELDS for p in EVENT_PROPS}}


def stand_in(prop: str, reading: str) -> str | None:
    """The reading checked for `prop` that resolves the fields it reads as `reading` does."""
    fields = PROPERTY_FIELDS.get(prop)
    if fields is None or reading not in C.READINGS:
        return None

    def resolution(name: str) -> tuple[str, ...]:
        return tuple(getattr(C.READINGS[name], f) for f in fields)
    return next((kept for kept in C.telling_apart(fields) if resolution(kept) == resolution(reading)), None)


CATALOGUE = plugin.Catalogue(C.READINGS, describe_reading, key=("corrected", "literal"), stand_in=stand_in)


# --------------------------------------------------------------------------------------------
# Scopes
# --------------------------------------------------------------------------------------------

@attrs.frozen
class Scope:
    join_spaces: tuple[tuple[int, int], ...]   # (identifier bits, brokers): every join sequence up to that many
    churn: tuple[int, int]                     # (brokers, failures): joins with failures between them
    failure_rings: tuple[int, ...]             # ring sizes: every set of failed brokers ...
    failures: int                              # ... of at most this many, their handlings' steps
    interleaved: int                           # in every order where at most this many fail
    link_rings: tuple[int, ...]                # ring sizes: every failed link
    event_rings: tuple[int, ...]               # ring sizes: every set of express links, every destination ...
    event_links: int                           # ... where at most this many links are the reading's to choose
    examples: int                              # hypothesis examples per property and reading


SCOPES = {
    "default": Scope(join_spaces=((32, 7), (4, 9), (2, 5)), churn=(7, 1), failure_rings=(5, 6, 7, 8, 9), failures=5, interleaved=3,
                     link_rings=(5, 8, 12, 16), event_rings=(5, 6, 8), event_links=12,
                     examples=100),
    "large": Scope(join_spaces=((32, 8), (4, 10), (2, 5)), churn=(9, 2), failure_rings=tuple(range(5, 13)), failures=5, interleaved=3,
                   link_rings=(5, 8, 12, 16, 32, 64), event_rings=(5, 6, 7, 8, 12),
                   event_links=14, examples=1000),
}


# --------------------------------------------------------------------------------------------
# The checks
# --------------------------------------------------------------------------------------------

def checks(scope: Scope) -> Iterator[plugin.Check]:
    for name in PROOF_READINGS:
        yield join_proof(name)
    yield ids_proof()
    yield midway_proof()
    for name in ("corrected", "literal"):
        yield connectivity_proof(name)
    for name in CHURN_READINGS:
        yield exploration(scope, name)
    for name in FAILURE_READINGS:
        yield failure_enumeration(scope, name)
    for name in LINK_READINGS:
        yield link_enumeration(scope, name)
    for name in EVENT_READINGS:
        yield event_enumeration(scope, name)
    for name in JOIN_READINGS:
        for prop in RING_PROPS + JOIN_PROPS:
            yield join_search(scope, prop, name)
    for name in EVENT_READINGS:
        for prop in EVENT_PROPS:
            yield event_search(scope, prop, name)


# Z3 (proofs.py)

ARGUED = ("every member has its four pointers (each branch, and the second join, writes all four of the broker "
          "it adds, and a line replaces a pointer, never removes one) and Right, the next member in a total "
          "order, goes round every broker once: argued, not encoded (either takes an existential, outside EPR); "
          "the encoding is held to the spec's joins up to 6 brokers")


def join_proof(name: str) -> plugin.Proof:
    def prove() -> plugin.ProofOutcome:
        from . import proofs

        return proofs.prove_join(C.READINGS[name], "pointers_agree", by="right")

    return plugin.Proof("pointers_agree", name, "rings of every size (an unbounded sort), by induction", prove,
                        unproved_step=ARGUED if name == "corrected" else None)


def ids_proof() -> plugin.Proof:
    def prove() -> plugin.ProofOutcome:
        from . import proofs

        ring = proofs.prove_join(C.CORRECTED, "ids_unique_in_ring_order")
        midpoint = proofs.prove_midpoint()
        verdict = ring.verdict if ring.verdict is not Verdict.PROVED else midpoint.verdict
        return plugin.ProofOutcome(verdict, ring.cases + midpoint.cases, f"{ring.detail}; {midpoint.detail}")

    return plugin.Proof("ids_unique_in_ring_order", "corrected",
                        "rings of every size by induction, and every pair of 32-bit identifiers", prove,
                        unproved_step="the induction keeps Right the next member in the order of positions, and "
                                      "lemma 2 puts each new identifier strictly inside the gap of two neighbours "
                                      "with a gap of 2 or more (the corrected space test): so the identifiers are "
                                      "distinct and follow the positions (argued)")


def midway_proof() -> plugin.Proof:
    def prove() -> plugin.ProofOutcome:
        from . import proofs

        return proofs.prove_midpoint()

    return plugin.Proof("new_id_midway", "corrected", "every pair of 32-bit identifiers", prove,
                        unproved_step="the branch computes the midpoint of y and its Left (or Right), which the "
                                      "induction shows are neighbours in the ring order (argued)")


def connectivity_proof(name: str) -> plugin.Proof:
    """Failure handling does not touch the links the claim reads (Neighsets of the ring before the
    failures), so the proof is the same under every reading; it is recorded under the key two."""
    def prove() -> plugin.ProofOutcome:
        from . import proofs

        return proofs.prove_three_failures()

    return plugin.Proof("survives_three_failures", name, "rings of every size n >= 5 (an unbounded integer)", prove,
                        unproved_step="going round the live brokers in identifier order each is linked to the next "
                                      "(lemma 1) unless two failed brokers side by side lie between them, which "
                                      "three failures allow at most once (lemma 2): the live brokers, at least one "
                                      "(lemma 3), lie on a path, and chords only add links (argued)")


# Exhaustive: every join sequence, every contact.

def join_system(bits: int, brokers: int, reading: C.Reading) -> TransitionSystem:
    """States are joins (the ring before and after, so that a join's claims can be judged on it);
    from the first broker, every contact of every ring reached, up to `brokers` brokers. A join
    that does not insert ends its branch (the ring after it is the ring before)."""
    def actions(run: C.JoinRun):
        if run.outcome != C.JOINED or len(run.after) >= brokers:
            return []
        return range(len(run.after))

    return TransitionSystem(lambda: [C.join_overlay(C.empty(bits), None, reading)], actions,
                            lambda run, contact: C.join_overlay(run.after, contact, reading))


def churn_system(brokers: int, failures: int, reading: C.Reading) -> TransitionSystem:
    """Joins with brokers failing between them (sec. 3.3 after sec. 3.4.1): states are joins, as
    in join_system; from a ring of 5 live brokers or more, a broker may fail (its failure handled
    as sec. 3.4.1 says) before the next join, up to `failures` of them, up to `brokers` in all
    (the failed counted), 32-bit identifiers. A join that does not insert ends its branch."""
    def actions(run: C.JoinRun):
        ring = run.after
        if run.outcome != C.JOINED or len(ring) >= brokers:
            return []
        live = ring.live()
        joins = [(None, c) for c in live]
        if len(ring.failed) < failures and len(live) >= 5:
            joins += [(x, c) for x in live for c in live if c != x]
        return joins

    def step(run: C.JoinRun, action) -> C.JoinRun:
        failed, contact = action
        ring = run.after if failed is None else C.node_failure(run.after, [failed], reading).after
        return C.join_overlay(ring, contact, reading)

    return TransitionSystem(lambda: [C.join_overlay(C.empty(C.PAPER_BITS), None, reading)], actions, step)


CHURN_LABEL = "joins after failures"


def churn_operations(trace) -> list:
    """A churn trace as operations: ["join", contact] and ["fail", broker] (handles), in order."""
    out, before = [], frozenset()
    for step in trace:
        run = step.state
        out += [["fail", h] for h in sorted(run.before.failed - before)]
        out.append(["join", run.contact])
        before = run.after.failed
    return out


def exploration(scope: Scope, name: str) -> plugin.Exploration:
    reading = C.READINGS[name]
    invariants = {p.name: (lambda run, p=p: p.predicate(run.after)) for p in C.RING_PROPERTIES}
    invariants.update({p.name: (lambda run, p=p: p.predicate(run)) for p in C.JOIN_PROPERTIES})
    witnesses = {p.name: (lambda run, p=p: p.witness(run.after)) for p in C.RING_PROPERTIES}
    witnesses.update({p.name: (lambda run, p=p: p.witness(run)) for p in C.JOIN_PROPERTIES})
    brokers, failures = scope.churn

    def systems():
        yield from ((f"{bits}-bit identifiers", join_system(bits, n, reading)) for bits, n in scope.join_spaces)
        yield CHURN_LABEL, churn_system(brokers, failures, reading)

    def document(prop, label, trace):
        if label == CHURN_LABEL:
            return churn_document(prop, name, "exhaustive", C.PAPER_BITS, churn_operations(trace))
        return joins_document(prop, name, "exhaustive", int(label.split("-")[0]), [step.state.contact for step in trace])

    return plugin.Exploration(
        name, RING_PROPS + JOIN_PROPS,
        " + ".join(f"every join sequence and contact up to {n} brokers, {bits}-bit identifiers"
                   for bits, n in scope.join_spaces)
        + f" + every join sequence with up to {failures} failed broker(s) between joins (each handled as sec. 3.4.1 "
          f"says), up to {brokers} brokers, 32-bit identifiers",
        systems=systems, invariants=lambda label: invariants, witnesses=lambda label: witnesses,
        document=document, steps="join(s)", prefer=lambda label, trace: len(trace))


# Exhaustive: every set of failed brokers, every failed link.

# every reading of the failure handling runs on the chordal ring sec. 3.4.1 presupposes ("three
# consecutive nodes A, B and C which form part of a chordal ring"): the printed join cannot build it,
# so a scope that says "literal" must say whose ring it is
BUILT = "built by the corrected join"


def ring_of(n: int) -> C.Ring:
    """A ring of n brokers made by the corrected join (which brokers are which does not matter to
    failure handling, only their order)."""
    return C.run_joins([None] + [0] * (n - 1), C.CORRECTED)[-1].after


def failure_enumeration(scope: Scope, name: str) -> plugin.Enumeration:
    """Every set of failed brokers; where at most `interleaved` fail, every order of their
    handlings' steps (sec. 3.4.1's detect and confirm, node_failure's schedule), each distinct
    outcome once; above that, the handlings one after another in identifier order."""
    reading = C.READINGS[name]

    def cases() -> Iterator[plugin.Case]:
        for n in scope.failure_rings:
            ring = ring_of(n)
            for rule in C.CHORD_RULES:
                for f in range(1, min(scope.failures, n - 1) + 1):
                    for failed in itertools.combinations(range(n), f):
                        orders = list(C.schedules(failed)) if 1 < f <= scope.interleaved else [None]
                        outcomes = set()
                        for k, schedule in enumerate(orders):
                            run = C.node_failure(ring, failed, reading, rule, schedule=schedule)
                            if (run.handlings, run.after) in outcomes:
                                continue
                            outcomes.add((run.handlings, run.after))
                            yield plugin.Case(run, describe=lambda n=n, failed=failed, rule=rule, s=run.schedule: (
                                f"first failure: brokers {list(failed)} of a ring of {n}, chords {rule}, steps {list(s)}"),
                                document=lambda prop, n=n, failed=failed, rule=rule, s=run.schedule: failure_document(
                                    prop, name, "exhaustive", n, failed, rule, s),
                                counts={"failure sets": k == 0, "schedules": len(orders) if k == 0 else 0,
                                        "outcomes": 1})

    return plugin.Enumeration(
        name, FAILURE_PROPS,
        f"every set of 1..{scope.failures} failed brokers of rings of {', '.join(map(str, scope.failure_rings))} "
        f"{BUILT}, with and without chords; every order of the handlings' steps where 2..{scope.interleaved} fail", cases,
        detail="{failure sets} failure sets, {schedules} orders of their handlings' steps, {outcomes} distinct outcomes")


def link_enumeration(scope: Scope, name: str) -> plugin.Enumeration:
    reading = C.READINGS[name]
    # (B's own query sent first, B failed with the link): a chord is tried all three ways
    variants = ((False, False), (True, False), (False, True))

    def cases() -> Iterator[plugin.Case]:
        for n in scope.link_rings:
            ring = ring_of(n)
            links = C.neighsets(ring)
            for a in range(n):
                ring_links = ring[a].pointers()
                for b in sorted(links[a]):
                    for queried, failed in variants if b not in ring_links else variants[:1]:
                        run = C.link_failure(ring, a, b, reading, b_queried=queried, b_failed=failed)
                        yield plugin.Case(run, describe=lambda n=n, a=a, b=b, q=queried, f=failed: (
                            f"first failure: link {a}-{b} of a ring of {n}" + (", B's own query sent first" if q else "")
                            + (f", broker {b} failed with it" if f else "")),
                            document=lambda prop, n=n, a=a, b=b, q=queried, f=failed: link_document(
                                prop, name, "exhaustive", n, a, b, q, f),
                            counts={"links": not (queried or failed), "cases": 1})

    return plugin.Enumeration(name, LINK_PROPS,
                              f"every failed link of rings of {', '.join(map(str, scope.link_rings))} {BUILT}, "
                              "with chords, "
                              "both brokers up; a chord also with B's own query to A sent first, and with B failed "
                              "with it (its failure handled as sec. 3.4.1 says)",
                              cases, detail="{links} links, {cases} cases")


def event_enumeration(scope: Scope, name: str) -> plugin.Enumeration:
    """Every set of express links, the same secure, among the links the reading leaves to choose
    (all of En; En but the ring's links Ec where the reading adds Ec), on rings of the scope's sizes
    where those are at most `event_links`; every event of both kinds from the first broker in
    identifier order to each other one (C_n(1, 2) and its chords look the same from every broker,
    and every set is enumerated); unit weights."""
    reading = C.READINGS[name]

    def free_links(n: int) -> list:
        ring = ring_of(n)
        added = C.ring_edges(ring) if reading.special_links == "ring" else frozenset()
        return sorted(C.Multigraph(ring).normal() - added)

    sizes = [n for n in scope.event_rings if len(free_links(n)) <= scope.event_links]

    def cases() -> Iterator[plugin.Case]:
        for n in sizes:
            ring, free = ring_of(n), free_links(n)
            first, *others = C.in_id_order(ring)
            # the sets with most express links first: the first violation found leaves out fewest
            for mask in sorted(range(1 << len(free)), key=lambda m: (-m.bit_count(), m)):
                express = frozenset(free[k] for k in range(len(free)) if mask >> k & 1)
                graph = C.Multigraph(ring, express, express)
                for to in others:
                    for kind in (C.SECURE, C.EXPRESS):       # secure first: sec. 3 routes it "through secure links"
                        route = C.route_event(graph, first, to, kind, reading)
                        yield plugin.Case(route, describe=lambda n=n, e=express, to=to, kind=kind: (
                            f"first: a {kind} event {first} -> {to} on a ring of {n}, express links {sorted(e)}"),
                            document=lambda prop, n=n, e=express, to=to, kind=kind: event_document(
                                prop, name, "exhaustive", n, sorted(e), sorted(e), first, to, kind),
                            counts={"multigraphs": to == others[0] and kind == C.SECURE, "events": 1})

    return plugin.Enumeration(
        name, EVENT_PROPS,
        f"every set of express links, the same secure, of rings of {', '.join(map(str, sizes))} brokers "
        f"({'beyond the ring links Ec, which the reading adds' if reading.special_links == 'ring' else 'all of En'}), "
        "every express and secure event from one broker to each other, unit weights",
        cases, detail="{multigraphs} multigraphs, {events} events")


# Hypothesis: random join sequences.

def join_search(scope: Scope, prop: str, name: str) -> plugin.Search:
    reading, claim = C.READINGS[name], get(NAME, prop)

    def runs(example) -> list[C.JoinRun]:
        bits, draws = example
        ring, out = C.empty(bits), []
        for k, d in enumerate([None] + draws):
            run = C.join_overlay(ring, None if k == 0 else d % len(ring), reading)
            out.append(run)
            if run.outcome != C.JOINED:
                break
            ring = run.after
        return out

    def judge(example) -> tuple[bool, bool]:
        subjects = [r.after if claim.subject == C.RING else r for r in runs(example)]
        return all(claim.predicate(s) for s in subjects), any(claim.witness(s) for s in subjects)

    def strategy():
        from hypothesis import strategies as st

        # small spaces fill within 30 joins, where a request is forwarded or refused; each contact
        # (a draw taken modulo the ring's size) among the first eight brokers, as when newcomers
        # ping the same few well-known brokers (exhaustive search tries every contact)
        return st.tuples(st.sampled_from([2, 4, 4, 6, 32]), st.lists(st.integers(0, 7), max_size=30))

    return plugin.Search(prop, name, f"{scope.examples} random join sequences of <= 31 brokers (shrunk)",
                         strategy=strategy, judge=judge, examples=scope.examples,
                         document=lambda ex: joins_document(prop, name, "hypothesis", ex[0],
                                                            [r.contact for r in runs(ex)]),
                         describe=lambda ex: f"{len(runs(ex))} joins, {ex[0]}-bit identifiers")


def event_search(scope: Scope, prop: str, name: str) -> plugin.Search:
    """Random multigraphs on rings of 5..24 brokers with chords: random express and secure links
    and random weights, an event of a random kind between two random brokers."""
    reading, claim = C.READINGS[name], get(NAME, prop)

    def route(example) -> C.EventRoute:
        n, express, secure, weights, source, to, kind = example
        ring = ring_of(n)
        normal = sorted(C.Multigraph(ring).normal())
        pick = lambda bits: frozenset(l for k, l in enumerate(normal) if bits >> k & 1)    # noqa: E731
        graph = C.Multigraph(ring, pick(express), pick(secure),
                             tuple((l, 1 + weights[k % len(weights)]) for k, l in enumerate(normal)))
        return C.route_event(graph, source % n, to % n, kind, reading)

    def strategy():
        from hypothesis import strategies as st

        return st.tuples(st.integers(5, 24), st.integers(0, 2 ** 64), st.integers(0, 2 ** 64),
                         st.lists(st.integers(0, 9), min_size=1, max_size=8), st.integers(0, 23), st.integers(0, 23),
                         st.sampled_from(C.KINDS))

    def judge(example) -> tuple[bool, bool]:
        r = route(example)
        return claim.predicate(r), claim.witness(r)

    def document(example) -> dict[str, Any]:
        r = route(example)
        g = r.graph
        return event_document(prop, name, "hypothesis", len(g.ring), sorted(g.express), sorted(g.secure), r.source,
                              r.to, r.kind, weights=[[list(l), w] for l, w in g.weights])

    return plugin.Search(prop, name, f"{scope.examples} random multigraphs of 5..24 brokers with chords, random "
                                     "links of each kind and weights (shrunk)",
                         strategy=strategy, judge=judge, examples=scope.examples, document=document,
                         describe=lambda ex: f"a {ex[6]} event on a ring of {ex[0]}")


# --------------------------------------------------------------------------------------------
# Counterexample files, and their replay
# --------------------------------------------------------------------------------------------

def joins_document(prop: str, reading: str, method: str, bits: int, contacts: list) -> dict[str, Any]:
    """Joins one after another from an empty ring: each broker's contact by handle (join order)."""
    return {"algorithm": NAME, "property": prop, "reading": reading, "method": method, "kind": "joins",
            "bits": bits, "contacts": list(contacts)}


def churn_document(prop: str, reading: str, method: str, bits: int, operations: list) -> dict[str, Any]:
    """Joins and failures one after another from an empty ring: ["join", contact] (null for the
    first) and ["fail", broker], by handle."""
    return {"algorithm": NAME, "property": prop, "reading": reading, "method": method, "kind": "churn",
            "bits": bits, "operations": [list(op) for op in operations]}


def failure_document(prop: str, reading: str, method: str, n: int, failed, rule: str,
                     schedule=None) -> dict[str, Any]:
    """Brokers failing on ring_of(n); `schedule`, the order of their handlings' steps, where it is
    not one handling after another in identifier order."""
    ring = ring_of(n)
    default = tuple(h for b in sorted(failed, key=lambda h: (ring[h].id, h)) for h in (b, b))
    return {"algorithm": NAME, "property": prop, "reading": reading, "method": method, "kind": "failure",
            "brokers": n, "failed": sorted(failed), "chords": rule,
            **({"schedule": list(schedule)} if schedule is not None and tuple(schedule) != default else {})}


def link_document(prop: str, reading: str, method: str, n: int, a: int, b: int,
                  b_queried: bool = False, b_failed: bool = False) -> dict[str, Any]:
    return {"algorithm": NAME, "property": prop, "reading": reading, "method": method, "kind": "link",
            "brokers": n, "link": [a, b], "b_queried": b_queried, **({"b_failed": True} if b_failed else {})}


def event_document(prop: str, reading: str, method: str, n: int, express, secure, source: int, to: int, kind: str,
                   weights=()) -> dict[str, Any]:
    """An event on the multigraph over ring_of(n), with chords (links by handle pairs)."""
    return {"algorithm": NAME, "property": prop, "reading": reading, "method": method, "kind": "event",
            "brokers": n, "express": [list(l) for l in express], "secure": [list(l) for l in secure],
            "weights": [list(w) for w in weights], "event": kind, "from": source, "to": to}


def check_document(doc: dict[str, Any]) -> None:
    """Refuse a malformed counterexample with a message naming what is wrong."""
    C.reading_named(doc.get("reading", "<missing>"))
    names = {p.name for p in properties(NAME)}
    if doc.get("property") not in names:
        raise ValueError(f"unknown chordal ring property {doc.get('property')!r}; known: {', '.join(sorted(names))}")
    kind = doc.get("kind") if doc.get("method") != "z3" or "trace" not in doc else "z3"
    if kind not in ("joins", "churn", "failure", "link", "event", "z3"):
        raise ValueError(f"unknown kind of chordal ring counterexample {kind!r}")
    if kind == "churn":
        C.check_bits(doc.get("bits"))
        ops = doc.get("operations")
        if not (isinstance(ops, list) and ops and ops[0] == ["join", None] and all(
                isinstance(op, list) and len(op) == 2 and op[0] in ("join", "fail")
                and isinstance(op[1], int) and not isinstance(op[1], bool) and op[1] >= 0 for op in ops[1:])):
            raise ValueError('operations must be a list: ["join", null] first, then ["join", handle] or '
                             '["fail", handle]')
    if kind == "event":
        n = doc.get("brokers")
        if not (isinstance(n, int) and not isinstance(n, bool) and 5 <= n <= 4096):
            raise ValueError(f"brokers must be a ring size from 5 to 4096, not {n!r}")
        pair = lambda v: (isinstance(v, list) and len(v) == 2 and all(   # noqa: E731
            isinstance(h, int) and not isinstance(h, bool) and 0 <= h < n for h in v))
        for field in ("express", "secure"):
            if not (isinstance(doc.get(field), list) and all(pair(v) for v in doc[field])):
                raise ValueError(f"{field} must be a list of links [a, b] between brokers 0..{n - 1}")
        weights = doc.get("weights", [])
        if not (isinstance(weights, list) and all(isinstance(w, list) and len(w) == 2 and pair(w[0])
                                                  and isinstance(w[1], int) for w in weights)):
            raise ValueError("weights must be a list of [[a, b], weight]")
        if doc.get("event") not in C.KINDS:
            raise ValueError(f"event must be one of {C.KINDS}, not {doc.get('event')!r}")
        for field in ("from", "to"):
            if not (isinstance(doc.get(field), int) and not isinstance(doc.get(field), bool) and 0 <= doc[field] < n):
                raise ValueError(f"{field} must name a broker 0..{n - 1}, not {doc.get(field)!r}")
    if kind == "joins" or (kind != "z3" and "contacts" in doc):     # a failure's ring may come from joins
        C.check_bits(doc.get("bits"))
        contacts = doc.get("contacts")
        if not (isinstance(contacts, list) and contacts and contacts[0] is None
                and all(isinstance(c, int) and not isinstance(c, bool) and 0 <= c < k
                        for k, c in enumerate(contacts) if k)):
            raise ValueError("contacts must be a list: null for the first broker, then a handle below each "
                             "join's position")
    if kind in ("failure", "link"):
        n = doc.get("brokers")
        if not (isinstance(n, int) and not isinstance(n, bool) and 3 <= n <= 4096):
            raise ValueError(f"brokers must be a ring size from 3 to 4096, not {n!r}")
        picked = doc.get("failed") if kind == "failure" else doc.get("link")
        if not (isinstance(picked, list) and picked and all(isinstance(h, int) and 0 <= h < n for h in picked)):
            raise ValueError(f"{'failed' if kind == 'failure' else 'link'} must name brokers 0..{n - 1}")
        if kind == "failure" and doc.get("chords") not in C.CHORD_RULES:
            raise ValueError(f"chords must be one of {C.CHORD_RULES}")
        backups = doc.get("backups", 4)
        if kind == "failure" and not (isinstance(backups, int) and not isinstance(backups, bool) and 1 <= backups <= 4):
            raise ValueError(f"backups must be 1 to 4 neighbours, not {backups!r}")
        schedule = doc.get("schedule")
        if kind == "failure" and schedule is not None and sorted(schedule) != sorted(picked * 2):
            raise ValueError("schedule must name each failed broker twice (its detect step, then its confirm step)")
        for field in ("b_queried", "b_failed"):
            if kind == "link" and not isinstance(doc.get(field, False), bool):
                raise ValueError(f"{field} must be true or false, not {doc.get(field)!r}")


def document_ring(doc: dict[str, Any]) -> C.Ring:
    """The ring a failure, link or event document is on: the corrected join's from its contacts
    where it gives them (a Spark sequence's), else ring_of its size."""
    if "contacts" not in doc:
        return ring_of(doc["brokers"])
    ring = C.run_joins(doc["contacts"], C.CORRECTED, doc["bits"])[-1].after
    if len(ring) != doc["brokers"]:
        raise ValueError(f"the contacts make a ring of {len(ring)} brokers, not the {doc['brokers']} the document says")
    return ring


def replay(doc: dict[str, Any], say=print) -> plugin.Replayed:
    """Re-run a counterexample step by step; drawn (drawing.py) as the ring after each operation."""
    from . import drawing

    check_document(doc)
    reading = C.reading_named(doc["reading"])
    if doc.get("method") == "z3" and "trace" in doc:
        return replay_z3(doc, reading, say)
    claim = get(NAME, doc["property"])
    if doc["kind"] == "churn":
        runs = replay_churn(doc, reading, say)
        subject = runs[-1].after if claim.subject == C.RING else runs[-1]
        holds = claim.predicate(subject)
        say(f"{claim.name}: " + ("holds" if holds else "VIOLATED: " + claim.explain(subject)))
        return plugin.Replayed(not holds, draw=lambda png, title: drawing.draw_joins(runs, png, title))
    if doc["kind"] == "joins":
        runs = C.run_joins(doc["contacts"], reading, doc["bits"])
        for k, run in enumerate(runs):
            new = f"broker {run.new} gets id {run.after[run.new].id}" if run.outcome == C.JOINED else run.outcome
            say(f"join {k}: through {'no one' if run.contact is None else f'broker {run.contact}'}"
                f" (request at {list(run.visited) or '-'}, side {run.side or '-'}): {new}")
        subject = runs[-1].after if claim.subject == C.RING else runs[-1]
        holds = claim.predicate(subject)
        say(f"{claim.name}: " + ("holds" if holds else "VIOLATED: " + claim.explain(subject)))
        return plugin.Replayed(not holds, draw=lambda png, title: drawing.draw_joins(runs, png, title))
    if doc["kind"] == "event":
        ring = document_ring(doc)
        graph = C.Multigraph(ring, frozenset(C.link(*l) for l in doc["express"]),
                             frozenset(C.link(*l) for l in doc["secure"]),
                             tuple((C.link(*l), w) for l, w in doc.get("weights", [])))
        route = C.route_event(graph, doc["from"], doc["to"], doc["event"], reading)
        say(f"{route.kind} links: " + C.listed(graph.links(route.kind, reading), shown=40)[len("are "):])
        say(f"{route.kind} event {route.source} -> {route.to}: "
            + (" -> ".join(map(str, route.path)) if route.path else "-") + f" ({route.outcome})")
        holds = claim.predicate(route)
        say(f"{claim.name}: " + ("holds" if holds else "VIOLATED: " + claim.explain(route)))
        return plugin.Replayed(not holds, draw=lambda png, title: drawing.draw_event(route, png, title))
    ring = document_ring(doc)
    if doc["kind"] == "failure":
        run = C.node_failure(ring, doc["failed"], reading, doc["chords"], doc.get("backups", 4), doc.get("schedule"))
        if "schedule" in doc:
            seen: set[int] = set()
            say("steps: " + ", ".join(f"{'confirm' if b in seen or seen.add(b) else 'detect'}({b})"
                                      for b in run.schedule))
        for h in run.handlings:
            say(handling_line(h))
    else:
        a, b = doc["link"]
        run = C.link_failure(ring, a, b, reading, b_queried=doc.get("b_queried", False),
                             b_failed=doc.get("b_failed", False))
        if run.b_queried:
            say(f"broker {b} first sends broker {a} its own query: path {' -> '.join(map(str, run.back))}")
        if run.failure is not None:
            say(f"broker {b} fails with the link")
            for h in run.failure.handlings:
                say(handling_line(h))
        say(f"link {a}-{b} ({run.kind}) fails: path {' -> '.join(map(str, run.path))}: {run.outcome}")
    holds = claim.predicate(run)
    say(f"{claim.name}: " + ("holds" if holds else "VIOLATED: " + claim.explain(run)))
    return plugin.Replayed(not holds, draw=lambda png, title: drawing.draw_failure(run, png, title))


def handling_line(h: C.Handling) -> str:
    """One failed broker's handling as replay prints it: A, C, each message, how it ended."""
    return (f"broker {h.failed} fails: A = {h.a}, C = {h.c}; " + ", ".join(
        f"{m.kind} {m.sender}->{m.to}{'' if m.delivered else ' (lost)'}" for m in h.messages) + f": {h.outcome}")


def replay_churn(doc: dict[str, Any], reading: C.Reading, say) -> list[C.JoinRun]:
    """The joins of a churn document, each failure handled (sec. 3.4.1) on the ring the join
    before left; a handle that names no live broker is refused with the reason."""
    ring, runs = C.empty(doc["bits"]), []
    for op, handle in doc["operations"]:
        if op == "fail":
            failure = C.node_failure(ring, [handle], reading)
            ring = failure.after
            say(f"broker {handle} fails: {failure.handlings[0].outcome}")
            continue
        run = C.join_overlay(ring, handle, reading)
        runs.append(run)
        new = f"broker {run.new} gets id {run.after[run.new].id}" if run.outcome == C.JOINED else run.outcome
        say(f"join {len(runs) - 1}: through {'no one' if handle is None else f'broker {handle}'}"
            f" (request at {list(run.visited) or '-'}, side {run.side or '-'}): {new}")
        ring = run.after
    if not runs or doc["operations"][-1][0] != "join":
        raise ValueError("a churn document ends with a join")
    return runs


def replay_z3(doc: dict[str, Any], reading: C.Reading, say) -> plugin.Replayed:
    """A Z3 run from one broker: each step checked against the encoded join, the last state
    against the safety property, by Z3 on the concrete states."""
    from checks import induction as Z
    from . import drawing, proofs

    system = proofs.system(reading)
    run = doc["trace"]
    for k, (state, step) in enumerate(zip(run["states"], [None] + run["steps"])):
        if step is not None and not Z.step_holds(system, step["action"], run["states"][k - 1], state, step["params"]):
            raise ValueError(f"step {k} ({step}) is not a join of reading {reading.name!r}")
        say(f"state {k}" + ("" if step is None else f" after {step['action']} {step['params']}") + ": " +
            "; ".join(f"{p} {sorted(tuple(x) for x in state['relations'][p])}" for p in ("member",) + C.POINTERS))
    holds = Z.holds(system, system.safety["pointers agree"], run["states"][-1])
    say(f"pointers agree: {'holds' if holds else 'VIOLATED'}")
    return plugin.Replayed(not holds, draw=lambda png, title: drawing.draw_z3(run["states"], png, title))


# --------------------------------------------------------------------------------------------
# Spark (spark_validation/chordal_ring.py)
# --------------------------------------------------------------------------------------------

def spark_scope(summary: dict[str, Any], job) -> str:
    m = summary.get("metrics", {})
    return (f"{summary['cases']:,} random sequences: 2..{job.max_joins:,} joins (log-uniform) through random "
            f"brokers, 32-bit identifiers (each {job.small_every}th sequence 2^2, 2^4 or 2^6, which fill), "
            f"then on the corrected join's ring of at least 5 brokers 1..{job.max_failures} brokers failing "
            "(chords doubling or none, 1..4 backups), one link (a chord's B failing with it or not), and an event of a random kind over random "
            "express and secure links with weights 1..10; the ring claims judged after every join up to "
            f"{job.dense} brokers, then at powers of two and the last"
            + (f"; {m['brokers']['sum']:,} brokers in all" if "brokers" in m else ""))


# --------------------------------------------------------------------------------------------
# The declaration
# --------------------------------------------------------------------------------------------

ALGORITHM = plugin.Algorithm(
    name=NAME,
    title="Chordal reliability rings (Madhu Kumar, Bellur & Govindan)",
    spec="spec.chordal_ring",
    readings=CATALOGUE,
    scopes=SCOPES,
    checks=checks,
    replay=replay,
    # 15.5 sequences a second on one core in make bench (joins rebuild the spec's ring): make check's 1,000 keep the
    # ring's checks near their 90 s; validate's million is a cluster's job
    spark=plugin.SparkJob.of("spark_validation.chordal_ring", scope=spark_scope, unit="sequences", size="brokers",
                             instances={"default": 1_000, "large": 20_000, "validate": 1_000_000}),
    **plugin.beside(__name__),
)
