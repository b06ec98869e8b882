"""IRBR checks: Z3 proofs and exhaustive search over spec/irbr.py.

Paper: Wang, Jin & Li, "Building Reliable Content-Based Routing Protocol over Structured P2P
Networks", Journal of Software 17(5), 2006, sec. 2-3.5.

Z3:
  delegation   for every k, L, node n and level l, every identifier x != n that shares n's first
               l digits lies in exactly one range n delegates at levels >= l (the first position
               j >= l where x and n differ names it), and n in none: the delegation tree
               partitions the identifier space, for all sizes. Identifiers are arrays of digits.
  covering     the interval lemma `covers` rests on, for all bounds; then `covers` against Z3's
               answer to "does every event matching f2 match f1" on every pair of a filter family.
Exhaustive, operations one at a time: every live node set of the identifier spaces (k, L) in the
scope, then every sequence of up to `max_ops` operations (subscribe any live node to any filter
of a small family whose members cover one another, unsubscribe one it holds, fail any live node,
let one leave, join any identifier that is not live),
and in every reachable network every publisher and every event of a family.
Exhaustive, messages in flight: the first identifiers of (k, L) live (3 of (2, 2) by default, all
4 in the large scope), every assignment of filters beforehand, a script of one publish and one
subscribe or unsubscribe, or a subscribe and an unsubscribe of one subscription in either order,
every start order and every delivery order of the messages in flight, a crash at any moment
(beside single operations by default); the claims are judged when all is quiet. Both use the
shared explorer and give shortest traces.
Hypothesis: random small networks and operation sequences on the spec, shrunk.
Spark (spark_validation/irbr.py): random workloads on the reference, the same predicates.
Readings: covering optimization / tables after failures / representative / unsubscribe handling,
named "covering-ordered/repaired/smallest/resubscribe-uncovered" etc.; `stale` tables, `remove-only` and
the planted bugs in the tests are the negative controls.
"""

from __future__ import annotations

import functools
import itertools
import time
from typing import Any

import attrs
import numpy as np
import z3

from checks.explorer import TransitionSystem, explore
from checks.verdict import (CheckResult, Verdict, exploration_verdict, hypothesis_find, property_result,
                            search_verdict, spark_verdicts)
from checks.z3kit import prove_lemmas
from spec import irbr as I

ALGORITHM = I.ALGORITHM

# The filter family exhaustive search subscribes with: a covers b, c and d; b covers d.
FILTERS = (I.parse_filter("x in 0..9"), I.parse_filter("x in 0..4"), I.parse_filter("x in 5..9"),
           I.parse_filter("x in 2..3"))
EVENTS = ({"x": 2}, {"x": 7})


Reading = I.Reading

READINGS = {r.name: r for r in (Reading(), Reading("covering"), Reading("no-covering"), Reading(tables="stale"),
                                Reading(tables="stale-alternates"), Reading(representative="largest"),
                                Reading(representative="per-node"), Reading(unsubscribe="remove-only"),
                                Reading("no-covering", unsubscribe="remove-only"), Reading(join="ask-subscribers"))}


def reading_named(name: str) -> Reading:
    if name not in READINGS:
        raise ValueError(f"unknown IRBR reading {name!r}; known: {', '.join(READINGS)}")
    return READINGS[name]


# --------------------------------------------------------------------------------------------
# Z3: the delegation tree partitions the identifier space
# --------------------------------------------------------------------------------------------

def z3_in_range(x, n, j, d):
    """x lies in the range n delegates at level j with digit d: x agrees with n before j, x[j] = d."""
    i = z3.Int("i")
    return z3.And(z3.ForAll([i], z3.Implies(z3.And(i >= 0, i < j), x[i] == n[i])), x[j] == d, d != n[j])


def cross_check_delegation_encoding(samples: int = 200, seed: int = 0) -> int:
    """On random concrete identifiers: Z3's range membership against spec.irbr.delegated_ranges."""
    rng = np.random.default_rng(seed)
    mismatches = 0
    for _ in range(samples):
        k, L = int(rng.integers(2, 5)), int(rng.integers(1, 5))
        space = I.Space(k, L)
        ids = space.identifiers()
        n, x = ids[int(rng.integers(len(ids)))], ids[int(rng.integers(len(ids)))]
        level = int(rng.integers(0, L + 1))
        table = I.routing_table(space, n, ids)
        spec_ranges = [p for p, _ in I.delegated_ranges(n, table, level) if x.startswith(p)]
        xa, na = z3.Array("x", z3.IntSort(), z3.IntSort()), z3.Array("n", z3.IntSort(), z3.IntSort())
        fix = [xa[i] == int(c, 36) for i, c in enumerate(x)] + [na[i] == int(c, 36) for i, c in enumerate(n)]
        z3_ranges = []
        for j in range(level, L):
            for d in range(k):
                s = z3.Solver()
                s.add(*fix, z3_in_range(xa, na, z3.IntVal(j), z3.IntVal(d)))
                if s.check() == z3.sat:
                    z3_ranges.append(n[:j] + I.DIGITS[d])
        mismatches += sorted(spec_ranges) != sorted(z3_ranges)
    return mismatches


def prove_delegation(timeout_ms: int = 20000) -> dict[str, Any]:
    if cross_check_delegation_encoding():
        return {"verdict": Verdict.UNKNOWN, "detail": "the encoding disagrees with spec.irbr.delegated_ranges"}
    x, n = z3.Array("x", z3.IntSort(), z3.IntSort()), z3.Array("n", z3.IntSort(), z3.IntSort())
    k, L, level, j, j2, d, d2, i = z3.Ints("k L level j j2 d d2 i")
    valid = z3.And(k >= 2, L >= 1, level >= 0, level <= L,
                   z3.ForAll([i], z3.Implies(z3.And(i >= 0, i < L),
                                             z3.And(x[i] >= 0, x[i] < k, n[i] >= 0, n[i] < k))))
    shares = z3.ForAll([i], z3.Implies(z3.And(i >= 0, i < level), x[i] == n[i]))
    delegated = lambda jj, dd: z3.And(jj >= level, jj < L, dd >= 0, dd < k, z3_in_range(x, n, jj, dd))  # noqa: E731
    # x != n has a first position j where it differs (the least element of a non-empty set of
    # naturals); given it, the range at level j with digit x[j] holds x
    first_difference = z3.And(j >= 0, j < L, x[j] != n[j],
                              z3.ForAll([i], z3.Implies(z3.And(i >= 0, i < j), x[i] == n[i])))
    lemmas = {
        "every identifier of the range other than n lies in the range of its first difference from n":
            z3.Implies(z3.And(valid, shares, first_difference), delegated(j, x[j])),
        "in at most one":
            z3.Implies(z3.And(valid, delegated(j, d), delegated(j2, d2)), z3.And(j == j2, d == d2)),
        "and n itself in none": z3.Implies(valid, z3.Not(z3.And(delegated(j, d), z3.ForAll(
            [i], z3.Implies(z3.And(i >= 0, i < L), x[i] == n[i]))))),
    }
    return prove_lemmas(lemmas, lambda m, _: {"L": str(m.eval(L, True)), "level": str(m.eval(level, True))},
                        timeout_ms)


# --------------------------------------------------------------------------------------------
# Z3: covering
# --------------------------------------------------------------------------------------------

def prove_interval_lemma(timeout_ms: int = 20000) -> dict[str, Any]:
    """[l2, h2] non-empty is inside [l1, h1] for every value iff l1 <= l2 and h2 <= h1."""
    l1, h1, l2, h2, v = z3.Ints("l1 h1 l2 h2 v")
    inside = z3.ForAll([v], z3.Implies(z3.And(l2 <= v, v <= h2), z3.And(l1 <= v, v <= h1)))
    lemma = z3.Implies(l2 <= h2, inside == z3.And(l1 <= l2, h2 <= h1))
    return prove_lemmas({"interval containment": lemma}, lambda m, _: {"model": str(m)}, timeout_ms)


def z3_matches(f: I.Filter, present: dict, value: dict):
    return z3.And(*[z3.And(present[c.attribute], c.low <= value[c.attribute], value[c.attribute] <= c.high)
                    for c in f.constraints]) if f.constraints else z3.BoolVal(True)


def z3_covers(f1: I.Filter, f2: I.Filter) -> bool:
    """Z3's answer: no event matches f2 and not f1 (integer-valued attributes)."""
    attributes = sorted({c.attribute for c in f1.constraints + f2.constraints})
    present = {a: z3.Bool(f"has_{a}") for a in attributes}
    value = {a: z3.Int(f"value_{a}") for a in attributes}
    s = z3.Solver()
    s.add(z3_matches(f2, present, value), z3.Not(z3_matches(f1, present, value)))
    return s.check() == z3.unsat


def filter_family(attributes=("a", "b"), bounds=range(0, 2)) -> list[I.Filter]:
    """Every filter over the attributes whose integer bounds lie in `bounds` (empty ones too)."""
    per_attribute = [None] + [(lo, hi) for lo in bounds for hi in bounds]
    out = []
    for combo in itertools.product(per_attribute, repeat=len(attributes)):
        out.append(I.make_filter(**{a: b for a, b in zip(attributes, combo) if b is not None}))
    return out


def check_covering(family: list[I.Filter] | None = None) -> tuple[int, list, bool]:
    """`covers` against Z3 and against the spec's property (deciding events) on every ordered
    pair of the family: (pairs, disagreements, whether a strict cover was met)."""
    family = family if family is not None else filter_family()
    prop = next(p for p in I.PROPERTIES if p.name == "covers_decides_covering")
    wrong, strict = [], False
    for f1 in family:
        for f2 in family:
            q = I.CoveringQuestion(f1, f2)
            strict = strict or prop.witness(q)
            if I.covers(f1, f2) != z3_covers(f1, f2) or not prop.predicate(q):
                wrong.append((str(f1), str(f2)))
    return len(family) ** 2, wrong, strict


# --------------------------------------------------------------------------------------------
# Exhaustive: every live set, every operation sequence, every publisher and event
# --------------------------------------------------------------------------------------------

@attrs.frozen
class Scope:
    spaces: tuple  # (k, L, max_ops)

    def describe(self) -> str:
        return ("every live node set of " + ", ".join(f"(k={k}, L={L}) with <= {ops} operations"
                                                       for k, L, ops in self.spaces)
                + f" (subscribe any live node to any of {len(FILTERS)} filters, unsubscribe one it holds, fail any "
                  f"live node, let one leave, join any other identifier), every "
                  f"publisher, {len(EVENTS)} events")


SCOPES = {"default": Scope(((2, 2, 4), (2, 3, 1), (3, 2, 1))),
          "large": Scope(((2, 2, 4), (2, 3, 2), (3, 2, 2)))}


def live_sets(space: I.Space):
    ids = space.identifiers()
    for size in range(1, len(ids) + 1):
        for live in itertools.combinations(ids, size):
            yield live


def operations(net: I.Network) -> list[tuple]:
    ops = [("subscribe", n, k) for n in sorted(net.live) for k in range(len(FILTERS))]
    ops += [("unsubscribe", n, k) for n in sorted(net.live) for k in range(len(FILTERS))
            if (n, n, FILTERS[k], n) in net.filters]
    if len(net.live) > 1:
        ops += [("fail", n) for n in sorted(net.live)] + [("leave", n) for n in sorted(net.live)]
    ops += [("join", n) for n in net.space.identifiers() if n not in net.live]
    return ops


def apply(net: I.Network, op: tuple, reading: Reading) -> I.Network:
    """An operation of `operations` (filters by their index in FILTERS) on the spec."""
    return I.operate(net, op[:2] + ((FILTERS[op[2]],) if op[0] in ("subscribe", "unsubscribe") else ()), reading)[0]


@functools.lru_cache(maxsize=8)  # every invariant and witness of a state asks for the same runs
def runs_of(net: I.Network) -> tuple[I.PublishRun, ...]:
    return tuple(I.publish_run(net, publisher, event) for publisher in sorted(net.live) for event in EVENTS)


def explore_reading(scope: Scope, reading: Reading, deadline: float | None = None):
    """One exploration per identifier space: states are (ops done, network)."""
    props = I.RUN_PROPERTIES
    out = []
    for k, L, max_ops in scope.spaces:
        space = I.Space(k, L)
        system = TransitionSystem(
            lambda space=space: ((0, reading.network(space, live))
                                 for live in live_sets(space)),
            lambda state, max_ops=max_ops: operations(state[1]) if state[0] < max_ops else [],
            lambda state, op: (state[0] + 1, apply(state[1], op, reading)))
        invariants = {p.name: (lambda s, p=p: all(p.predicate(r) for r in runs_of(s[1]))) for p in props}
        witnesses = {p.name: (lambda s, p=p: any(p.witness(r) for r in runs_of(s[1]))) for p in props}
        out.append(((k, L), explore(system, invariants, witnesses, deadline_seconds=deadline)))
    return out


def first_failing_run(net: I.Network, prop) -> I.PublishRun:
    return next(r for r in runs_of(net) if not prop.predicate(r))


def trace_document(prop: str, reading: Reading, trace) -> dict[str, Any]:
    net0 = trace[0][1][1]
    run = first_failing_run(trace[-1][1][1], next(p for p in I.RUN_PROPERTIES if p.name == prop))
    return {"algorithm": ALGORITHM, "property": prop, "reading": reading.name, "method": "exhaustive",
            "k": net0.space.k, "L": net0.space.L, "live": sorted(net0.live),
            "operations": [[op[0], op[1]] + ([str(FILTERS[op[2]])] if op[0] in ("subscribe", "unsubscribe") else [])
                           for op, _ in trace[1:]],
            "publisher": run.publication.publisher, "event": dict(run.publication.event)}


def replay_document(doc: dict[str, Any], say=print) -> tuple[bool, None]:
    """Rebuild the network, apply each operation (printing the filter tables it changes), publish
    and judge the property; True if it fails. A `flight` document replays message by message."""
    if doc.get("kind") == "flight":
        return replay_flight(doc, say), None
    reading = reading_named(doc.get("reading", "<missing>"))
    prop = next((p for p in I.RUN_PROPERTIES if p.name == doc.get("property")), None)
    if prop is None:
        raise ValueError(f"unknown IRBR property {doc.get('property')!r}; known: "
                         f"{', '.join(p.name for p in I.RUN_PROPERTIES)}")
    net = reading.network(I.Space(doc["k"], doc["L"]), doc["live"])
    say(f"IRBR ({reading.name}) on k={doc['k']}, L={doc['L']}, live nodes {sorted(net.live)}")
    for step, op in enumerate(doc["operations"], start=1):
        try:
            net, line = I.operate(net, tuple(op[:2]) + tuple(I.parse_filter(text) for text in op[2:]), reading)
        except ValueError as e:
            raise ValueError(f"step {step}: {e}") from e
        say(f"step {step}: {line}")
    run = I.publish_run(net, doc["publisher"], doc["event"])
    pub = run.publication
    say(f"{doc['publisher']} publishes {doc['event']}: notified {dict(pub.notified)}, interested "
        f"{sorted(run.interested)}, {pub.messages} messages" + (f", lost {list(pub.lost)}" if pub.lost else ""))
    holds = prop.predicate(run)
    say(f"{prop.name}: {'holds' if holds else 'VIOLATED'}")
    return not holds, None


# --------------------------------------------------------------------------------------------
# Hypothesis: random small networks and operation sequences on the spec, shrunk when they fail
# --------------------------------------------------------------------------------------------

HYPOTHESIS_EXAMPLES = {"default": 150, "large": 2000}
OPERATION_KINDS = ("subscribe", "subscribe", "subscribe", "unsubscribe", "fail", "leave", "join")  # subscribes weigh 3


def interpret(k: int, L: int, live: list[str], draws: list, reading: Reading) -> tuple[I.Network, list]:
    """Apply drawn operations, each (kind, index, filter) with the index taken modulo the live
    nodes, held subscriptions or absent identifiers of the moment, so that every draw is a valid
    operation; a draw with nothing to act on is skipped. Returns the network and the operations
    as a replay document lists them."""
    space = I.Space(k, L)
    net = reading.network(space, live)
    done = []
    for kind, index, f in draws:
        nodes = sorted(net.live)
        held = sorted(((n, g) for n, p, g, s in net.filters if n == p == s and n in net.live), key=repr)
        absent = [x for x in space.identifiers() if x not in net.live]
        if kind == "subscribe":
            op = ("subscribe", nodes[index % len(nodes)], f)
        elif kind == "unsubscribe" and held:
            op = ("unsubscribe",) + held[index % len(held)]
        elif kind in ("fail", "leave") and len(nodes) > 1:
            op = (kind, nodes[index % len(nodes)])
        elif kind == "join" and absent:
            op = ("join", absent[index % len(absent)])
        else:
            continue
        net = I.operate(net, op, reading)[0]
        done.append(list(op[:2]) + [str(g) for g in op[2:]])
    return net, done


def hypothesis_search(prop_name: str, reading: Reading, examples: int):
    """Search random small networks (k 2..3 with L 2..3, or k 4 with L 2; any live set) and up to 8 operations with
    random filters over x and y (bounds 0..4) for a publication that violates the property;
    hypothesis shrinks what it finds. Returns (cases, the failing document or None, witnessed)."""
    from hypothesis import strategies as st

    prop = next(p for p in I.RUN_PROPERTIES if p.name == prop_name)
    bound = st.tuples(st.integers(0, 4), st.integers(0, 4)).map(sorted).map(tuple)
    filters = st.builds(lambda x, y: I.make_filter(**{"x": x, **({"y": y} if y else {})}), bound, st.none() | bound)

    @st.composite
    def workloads(draw):
        k = draw(st.sampled_from([2, 3, 4]))
        L = draw(st.integers(2, 3)) if k < 4 else 2
        ids = I.Space(k, L).identifiers()
        live = draw(st.lists(st.sampled_from(ids), min_size=1, max_size=8, unique=True))
        ops = draw(st.lists(st.tuples(st.sampled_from(OPERATION_KINDS), st.integers(0, 63), filters),
                            min_size=1, max_size=8))
        event = {"x": draw(st.integers(0, 4)), "y": draw(st.integers(0, 4))}
        return k, L, sorted(live), ops, draw(st.integers(0, 63)), event

    def run_of(w):
        k, L, live, ops, publisher, event = w
        net, done = interpret(k, L, live, ops, reading)
        nodes = sorted(net.live)
        return I.publish_run(net, nodes[publisher % len(nodes)], event), done

    def judge(w) -> tuple[bool, bool]:
        run, _ = run_of(w)
        return prop.predicate(run), prop.witness(run)

    cases, found, witnessed = hypothesis_find(workloads(), judge, examples)
    if found is None:
        return cases, None, witnessed
    run, done = run_of(found)
    doc = {"algorithm": ALGORITHM, "property": prop_name, "reading": reading.name, "method": "hypothesis",
           "k": found[0], "L": found[1], "live": found[2], "operations": done,
           "publisher": run.publication.publisher, "event": dict(run.publication.event)}
    return cases, doc, witnessed


def result(prop: str, method: str, reading: str, verdict: Verdict, scope: str, **kw) -> CheckResult:
    return property_result(ALGORITHM, prop, method, reading, verdict, scope, **kw)


COVERING_BOUNDS = {"default": 2, "large": 3}


def run_checks(scope: str, write_counterexample, spark_summary: dict | None = None,
               deadline_seconds: float = 300.0, only: set[str] | None = None, progress=None) -> list[CheckResult]:
    results: list[CheckResult] = []
    if only is None or "z3" in only:
        start = time.perf_counter()
        outcome = prove_delegation()
        results.append(result("delegation_reaches_every_live_node_once", "z3", "any-representative",
                              outcome["verdict"], "every k >= 2, L >= 1, node and level (identifiers as digit "
                              "arrays); the tree spans the live nodes when every range's representative is live",
                              cases=len(outcome.get("lemmas", {})), seconds=time.perf_counter() - start,
                              detail=outcome.get("detail") or "; ".join(f"{k}: {v}" for k, v in
                                                                      outcome.get("lemmas", {}).items())))
        start = time.perf_counter()
        lemma = prove_interval_lemma()
        pairs, wrong, strict = check_covering(filter_family(bounds=range(COVERING_BOUNDS[scope])))
        verdict = Verdict.UNKNOWN if lemma["verdict"] != Verdict.PROVED or not strict else \
            (Verdict.VIOLATED if wrong else Verdict.HOLDS)
        results.append(result("covers_decides_covering", "z3", "conjunctions of ranges", verdict,
                              f"the interval lemma for all bounds, then every ordered pair of {int(pairs ** 0.5)} "
                              f"filters over two integer attributes with bounds in 0..{COVERING_BOUNDS[scope] - 1} "
                              "(empty ones too)",
                              cases=pairs, seconds=time.perf_counter() - start,
                              detail=f"disagreements: {wrong[:3]}" if wrong else "covers agrees with Z3 on every pair"))
    if spark_summary is not None and (only is None or "spark" in only):
        results += spark_results(spark_summary, write_counterexample)
    if only is None or "hypothesis" in only:
        for name, reading in READINGS.items():
            for p in I.RUN_PROPERTIES:
                start = time.perf_counter()
                cases, doc, witnessed = hypothesis_search(p.name, reading, HYPOTHESIS_EXAMPLES[scope])
                verdict, why = search_verdict(doc is not None, bool(witnessed))
                results.append(result(p.name, "hypothesis", name, verdict,
                                      f"{HYPOTHESIS_EXAMPLES[scope]} random examples: (k, L) in 2..3 x 2..3 or (4, 2), any live set, "
                                      "<= 8 random subscribes (filters over x, y), unsubscribes, failures, leaves and "
                                      "joins, one publication", cases=cases, seconds=time.perf_counter() - start,
                                      counterexample=write_counterexample(doc) if doc else None,
                                      detail=why or (f"shrunk to {len(doc['operations'])} operations on "
                                                     f"{len(doc['live'])} nodes" if doc else
                                                     f"{witnessed} examples reached the witness")))
    if only is not None and "exhaustive" not in only:
        return results
    sc = SCOPES[scope]
    results += flight_checks(scope, write_counterexample, deadline_seconds)
    for name, reading in READINGS.items():
        explorations = explore_reading(sc, reading, deadline_seconds)
        states = sum(ex.states for _, ex in explorations)
        initial = sum(ex.initial for _, ex in explorations)
        seconds = sum(ex.seconds for _, ex in explorations)
        transitions = sum(ex.transitions for _, ex in explorations)
        for p in I.RUN_PROPERTIES:
            failing = next(((space, ex) for space, ex in explorations if p.name in ex.violations), None)
            verdict, detail = search_verdict(failing is not None, any(ex.witnessed[p.name] for _, ex in explorations),
                                             all(ex.complete for _, ex in explorations), deadline_seconds)
            path, detail = None, detail or f"{transitions} transitions"
            if verdict is Verdict.VIOLATED:
                trace = failing[1].violations[p.name]
                path = write_counterexample(trace_document(p.name, reading, trace))
                detail = f"shortest trace: {len(trace) - 1} operations on (k, L) = {failing[0]}"
            results.append(result(p.name, "exhaustive", name, verdict, sc.describe(), cases=initial, states=states,
                                  seconds=seconds, counterexample=path, detail=detail))
    return results


def spark_results(summary: dict[str, Any], write_counterexample) -> list[CheckResult]:
    """One result per (reading, property) column of the Spark job's summary."""
    from spark_validation.irbr import IrbrJob

    config = {k: v for k, v in summary["config"].items() if k != "algorithm"}
    job = IrbrJob(**{**config, "readings": tuple(config["readings"])})
    return spark_verdicts(summary, job, f"{summary['cases']} random workloads: k in 2, 4, 16, 2..{job.small_nodes} "
                          f"nodes (one in {job.large_every}: {job.small_nodes + 1}..{job.max_nodes}), 4.."
                          f"{job.max_operations} random subscribes, unsubscribes, publishes, failures, leaves and joins; "
                          "every publication judged", write_counterexample, unit="workloads")


# --------------------------------------------------------------------------------------------
# Exhaustive, messages in flight: every interleaving of a few concurrent operations
# --------------------------------------------------------------------------------------------

FLIGHT_READINGS = {r.name: r for r in (
    I.Rules(), I.Rules(concurrency="withdraw-at-once"), I.Rules(ordering="arrival"),
    I.Rules(forwarding="fire-and-forget"), I.Rules(Reading(unsubscribe="remove-only")),
    I.Rules(Reading("no-covering"), concurrency="withdraw-at-once"))}


def flight_reading_named(name: str) -> I.Rules:
    if name not in FLIGHT_READINGS:
        raise ValueError(f"unknown IRBR reading of messages in flight {name!r}; known: {', '.join(FLIGHT_READINGS)}")
    return FLIGHT_READINGS[name]


@attrs.frozen
class FlightScope:
    k: int
    L: int
    crashes: int
    nodes: int | None = None  # the first `nodes` identifiers live (None: all)
    pairs: bool = True        # scripts with a subscribe and an unsubscribe of one subscription too
    crashing_pairs: bool = True  # crashes in those scripts too (else only beside one operation)

    def describe(self) -> str:
        space = I.Space(self.k, self.L)
        live = space.identifiers()[:self.nodes]
        return (f"live nodes {', '.join(live)} of (k={self.k}, L={self.L}), every assignment of at most one of "
                f"{len(FLIGHT_FILTERS)} filters per node beforehand, every script of a publish and one subscribe or "
                "unsubscribe" + (", or a subscribe and an unsubscribe of one node and filter (either order)"
                                 if self.pairs else "") +
                f", every start order and delivery order, <= {self.crashes} crash(es) at any moment"
                + ("" if self.crashing_pairs or not self.pairs else " (in the scripts of one operation)"))


FLIGHT_SCOPES = {"default": FlightScope(2, 2, 1, nodes=3, crashing_pairs=False),
                 "large": FlightScope(2, 2, 1, crashing_pairs=False)}
FLIGHT_FILTERS = FILTERS[:2]  # x in 0..9 covers x in 0..4
FLIGHT_EVENT = (("x", 2),)


def flight_scripts(ids: list[str], held: set, pairs: bool = True) -> list[tuple]:
    """The operations besides the publish: one subscribe or unsubscribe, or a pair on one
    subscription (unsubscribe then subscribe again if held, subscribe then unsubscribe if not)."""
    singles = [(("subscribe", n, f),) for n in ids for f in FLIGHT_FILTERS if (n, f) not in held] + \
        [(("unsubscribe", n, f),) for n, f in sorted(held, key=lambda e: (e[0], str(e[1])))]
    if not pairs:
        return singles
    return singles + [(("unsubscribe", n, f), ("subscribe", n, f)) if (n, f) in held else
                      (("subscribe", n, f), ("unsubscribe", n, f)) for n in ids for f in FLIGHT_FILTERS]


def flight_initial_states(scope: FlightScope, reading: I.Rules):
    space = I.Space(scope.k, scope.L)
    ids = space.identifiers()[:scope.nodes]
    for assignment in itertools.product(range(len(FLIGHT_FILTERS) + 1), repeat=len(ids)):
        net = reading.reading.network(space, ids)
        held = set()
        for node, choice in zip(ids, assignment):
            if choice:
                net = I.subscribe(net, node, FLIGHT_FILTERS[choice - 1], reading.reading.covering)[0]
                held.add((node, FLIGHT_FILTERS[choice - 1]))
        for ops in flight_scripts(ids, held, scope.pairs):
            for publisher in ids:
                script = ops + (("publish", publisher, FLIGHT_EVENT),)
                steady = frozenset(held - {(node, item) for _, node, item in ops})
                yield (script, steady, I.Flight(net))


def flight_actions(state, crashes: int) -> list[tuple]:
    """Start an operation (a node's own in script order), deliver any message in flight, let a
    waiting withdrawal spread, crash a node (`crashes`: how many a run may have)."""
    script, _, f = state
    acts = [("start", k) for k in range(len(script)) if k not in f.started
            and all(j in f.started for j in range(k) if script[j][1] == script[k][1])]
    acts += [("deliver", m) for m in sorted(f.flight, key=repr)]
    acts += [("withdraw", k) for k in sorted(f.pending) if I.can_withdraw(f, k)]
    if f.crashes < crashes and len(f.net.live) > 1:
        acts += [("crash", n) for n in sorted(f.net.live)]
    return acts


def flight_step(state, action, rules: I.Rules):
    script, steady, f = state
    if action[0] == "start":
        f = I.start(f, script, action[1], rules)
    elif action[0] == "deliver":
        f = I.deliver(f, script, action[1], rules)
    elif action[0] == "withdraw":
        f = I.withdraw(f, script, action[1])
    else:
        f = I.crash(f, action[1])
        steady = frozenset(e for e in steady if e[0] != action[1])
    return (script, steady, f)


def flight_run(state) -> I.FlightRun | None:
    script, steady, f = state
    quiet = not f.flight and not f.pending and len(f.started) == len(script)
    return I.FlightRun(f, script, steady) if quiet else None


def explore_flight(scope: FlightScope, reading: I.Rules, deadline: float | None = None):
    system = TransitionSystem(lambda: flight_initial_states(scope, reading),
                              lambda state: flight_actions(state, scope.crashes if scope.crashing_pairs
                                                           or len(state[0]) == 2 else 0),
                              lambda state, action: flight_step(state, action, reading))
    invariants = {p.name: (lambda s, p=p: (r := flight_run(s)) is None or p.predicate(r)) for p in I.FLIGHT_PROPERTIES}
    witnesses = {p.name: (lambda s, p=p: (r := flight_run(s)) is not None and p.witness(r))
                 for p in I.FLIGHT_PROPERTIES}
    return explore(system, invariants, witnesses, deadline_seconds=deadline)


def _text(item) -> Any:
    return str(item) if isinstance(item, I.Filter) else item


def flight_document(prop: str, reading: I.Rules, trace, crashes: int = 1) -> dict[str, Any]:
    script, steady, first = trace[0][1]
    before = sorted([n, str(f)] for n, p, f, s in first.net.filters if n == p == s)

    def step(action) -> list:
        if action[0] == "deliver":
            return ["deliver"] + [_text(v) for v in action[1]]
        return list(action)

    return {"algorithm": ALGORITHM, "property": prop, "reading": reading.name,
            "method": "exhaustive", "kind": "flight", "k": first.net.space.k, "L": first.net.space.L,
            "live": sorted(first.net.live), "subscriptions": before, "crashes": crashes,
            "script": [[kind, node, str(item) if kind != "publish" else dict(item)] for kind, node, item in script],
            "steps": [step(a) for a, _ in trace[1:]]}


def replay_flight(doc: dict[str, Any], say=print) -> bool:
    reading = flight_reading_named(doc["reading"])
    r = reading.reading
    prop = next((p for p in I.FLIGHT_PROPERTIES if p.name == doc.get("property")), None)
    if prop is None:
        raise ValueError(f"unknown IRBR property {doc.get('property')!r}; known: "
                         f"{', '.join(p.name for p in I.FLIGHT_PROPERTIES)}")
    net = r.network(I.Space(doc["k"], doc["L"]), doc["live"])
    for node, text in doc["subscriptions"]:
        net = I.subscribe(net, node, I.parse_filter(text), r.covering)[0]
    script = tuple((kind, node, I.parse_filter(item) if kind != "publish" else tuple(sorted(item.items())))
                   for kind, node, item in doc["script"])
    steady = {(n, I.parse_filter(t)) for n, t in doc["subscriptions"]} - {(node, item) for _, node, item in script}
    state = (script, frozenset(steady), I.Flight(net))
    say(f"IRBR ({reading.name}) on k={doc['k']}, L={doc['L']}; subscribed beforehand: {doc['subscriptions']}; "
        f"script: {doc['script']}")
    for number, step in enumerate(doc["steps"], start=1):
        if step[0] == "deliver":
            kind, origin, item, sender, receiver, prefix, clock = step[1:]
            action = ("deliver", (kind, origin, item if kind == "event" else I.parse_filter(item), sender, receiver,
                                  prefix, clock))
            say(f"step {number}: {kind} of {origin} arrives at {receiver} from {sender} (range {prefix}, clock {clock})")
        else:
            action = tuple(step)
            say(f"step {number}: " + {"start": f"start {doc['script'][step[1]] if step[0] == 'start' else ''}",
                                      "withdraw": f"the withdrawal of operation {step[1]} spreads",
                                      "crash": f"{step[1]} crashes"}.get(step[0], str(step)))
        if action not in flight_actions(state, crashes=doc.get("crashes", 1)):
            raise ValueError(f"step {number}: {step} is not possible here")
        state = flight_step(state, action, reading)
    run = flight_run(state)
    if run is None:
        raise ValueError("the steps do not reach a quiescent state")
    holds = prop.predicate(run)
    say(f"notified (event, node, times): {list(run.state.notified)}; steady subscriptions: "
        f"{sorted((n, str(f)) for n, f in run.steady)}; entries: "
        f"{sorted((m, p, str(f), s) for m, p, f, s in run.state.net.filters)}")
    say(f"{prop.name}: {'holds' if holds else 'VIOLATED'}")
    return not holds


def flight_checks(scope: str, write_counterexample, deadline_seconds: float) -> list[CheckResult]:
    sc = FLIGHT_SCOPES[scope]
    out = []
    for name, reading in FLIGHT_READINGS.items():
        ex = explore_flight(sc, reading, deadline_seconds)
        for prop in I.FLIGHT_PROPERTIES:
            verdict, path, detail = exploration_verdict(
                ex, prop.name, deadline_seconds, write_counterexample,
                lambda trace, prop=prop: flight_document(prop.name, reading, trace, sc.crashes))
            out.append(result(prop.name, "exhaustive", name, verdict, sc.describe(), cases=ex.initial,
                              states=ex.states, seconds=ex.seconds, counterexample=path, detail=detail))
    return out
