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
of a small family whose members cover one another, unsubscribe one it holds, fail any live node),
and in every reachable network every publisher and every event of a family.
Exhaustive, messages in flight: the whole space live, every assignment of filters beforehand, a
script of one subscribe or unsubscribe and one publish, every start order and every delivery
order of the messages in flight (and crashes in the large scope); the claim is judged when all is
quiet. Both use the shared explorer and give shortest traces.
Readings: covering optimization / tables after failures / representative / unsubscribe handling,
named "covering/repaired/smallest/resubscribe-uncovered" etc.; `stale` tables, `remove-only` and
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
from checks.verdict import CheckResult, Verdict, property_result, search_verdict
from checks.z3kit import prove_lemmas
from spec import irbr as I

ALGORITHM = I.ALGORITHM

# The filter family exhaustive search subscribes with: a covers b, c and d; b covers d.
FILTERS = (I.parse_filter("x in 0..9"), I.parse_filter("x in 0..4"), I.parse_filter("x in 5..9"),
           I.parse_filter("x in 2..3"))
EVENTS = ({"x": 2}, {"x": 7})


@attrs.frozen
class Reading:
    covering: str = "covering"
    tables: str = "repaired"
    representative: str = "smallest"
    unsubscribe: str = "resubscribe-uncovered"

    @property
    def name(self) -> str:
        return f"{self.covering}/{self.tables}/{self.representative}/{self.unsubscribe}"


READINGS = {r.name: r for r in (Reading(), Reading("no-covering"), Reading(tables="stale"),
                                Reading(tables="stale-alternates"), Reading(representative="largest"),
                                Reading(representative="per-node"), Reading(unsubscribe="remove-only"),
                                Reading("no-covering", unsubscribe="remove-only"))}


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
                  f"live node), every "
                  f"publisher, {len(EVENTS)} events")


SCOPES = {"default": Scope(((2, 2, 3), (2, 3, 1), (3, 2, 1))),
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
        ops += [("fail", n) for n in sorted(net.live)]
    return ops


def apply(net: I.Network, op: tuple, reading: Reading) -> I.Network:
    if op[0] == "subscribe":
        return I.subscribe(net, op[1], FILTERS[op[2]], reading.covering)[0]
    if op[0] == "unsubscribe":
        return I.unsubscribe(net, op[1], FILTERS[op[2]], reading.unsubscribe, reading.covering)[0]
    return I.fail(net, [op[1]])


@functools.lru_cache(maxsize=8)  # every invariant and witness of a state asks for the same runs
def runs_of(net: I.Network) -> tuple[I.PublishRun, ...]:
    return tuple(I.PublishRun(net, I.publish(net, publisher, event))
                 for publisher in sorted(net.live) for event in EVENTS)


def explore_reading(scope: Scope, reading: Reading, deadline: float | None = None):
    """One exploration per identifier space: states are (ops done, network)."""
    props = I.RUN_PROPERTIES
    out = []
    for k, L, max_ops in scope.spaces:
        space = I.Space(k, L)
        system = TransitionSystem(
            lambda space=space: ((0, I.network(space, live, reading.representative, reading.tables))
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
            "operations": [[op[0], op[1]] + ([str(FILTERS[op[2]])] if op[0] != "fail" else [])
                           for op, _ in trace[1:]],
            "publisher": run.publication.publisher, "event": dict(run.publication.event)}


def replay_document(doc: dict[str, Any], say=print) -> tuple[bool, None]:
    """Rebuild the network, apply each operation (printing the filter tables it changes), publish
    and judge the property; True if it fails. A `flight` document replays message by message."""
    reading = reading_named(doc.get("reading", "<missing>"))
    if doc.get("kind") == "flight":
        return replay_flight(doc, say), None
    prop = next((p for p in I.RUN_PROPERTIES if p.name == doc.get("property")), None)
    if prop is None:
        raise ValueError(f"unknown IRBR property {doc.get('property')!r}; known: "
                         f"{', '.join(p.name for p in I.RUN_PROPERTIES)}")
    net = I.network(I.Space(doc["k"], doc["L"]), doc["live"], reading.representative, reading.tables)
    say(f"IRBR ({reading.name}) on k={doc['k']}, L={doc['L']}, live nodes {sorted(net.live)}")
    for step, op in enumerate(doc["operations"], start=1):
        if op[0] == "subscribe":
            net, spread = I.subscribe(net, op[1], I.parse_filter(op[2]), reading.covering)
            say(f"step {step}: {op[1]} subscribes {op[2]}: {len(spread.messages)} messages "
                f"{[(a, b) for a, b, _ in spread.messages]}" + (f", lost {list(spread.lost)}" if spread.lost else ""))
        elif op[0] == "unsubscribe":
            net, spread = I.unsubscribe(net, op[1], I.parse_filter(op[2]), reading.unsubscribe, reading.covering)
            say(f"step {step}: {op[1]} unsubscribes {op[2]}: {len(spread.messages)} messages")
        elif op[0] == "fail":
            net = I.fail(net, [op[1]])
            say(f"step {step}: {op[1]} fails")
        else:
            raise ValueError(f"step {step}: unknown operation {op[0]!r} (subscribe, unsubscribe, fail)")
    pub = I.publish(net, doc["publisher"], doc["event"])
    say(f"{doc['publisher']} publishes {doc['event']}: notified {dict(pub.notified)}, interested "
        f"{I.interested(net, doc['event'])}, {pub.messages} messages" + (f", lost {list(pub.lost)}" if pub.lost else ""))
    holds = prop.predicate(I.PublishRun(net, pub))
    say(f"{prop.name}: {'holds' if holds else 'VIOLATED'}")
    return not holds, None


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


# --------------------------------------------------------------------------------------------
# Exhaustive, messages in flight: every interleaving of a few concurrent operations
# --------------------------------------------------------------------------------------------

@attrs.frozen
class FlightScope:
    k: int
    L: int
    crashes: int

    def describe(self) -> str:
        return (f"every identifier of (k={self.k}, L={self.L}) live, every assignment of at most one of "
                f"{len(FLIGHT_FILTERS)} filters per node beforehand, every script of one subscribe or unsubscribe "
                f"and one publish, every start order and delivery order, <= {self.crashes} crash(es)")


FLIGHT_SCOPES = {"default": FlightScope(2, 2, 0), "large": FlightScope(2, 2, 1)}
FLIGHT_FILTERS = FILTERS[:2]  # x in 0..9 covers x in 0..4
FLIGHT_EVENT = (("x", 2),)


def flight_initial_states(scope: FlightScope, reading: Reading):
    space = I.Space(scope.k, scope.L)
    ids = space.identifiers()
    for assignment in itertools.product(range(len(FLIGHT_FILTERS) + 1), repeat=len(ids)):
        net = I.network(space, ids, reading.representative, reading.tables)
        steady = set()
        for node, choice in zip(ids, assignment):
            if choice:
                net = I.subscribe(net, node, FLIGHT_FILTERS[choice - 1], reading.covering)[0]
                steady.add((node, FLIGHT_FILTERS[choice - 1]))
        others = [("subscribe", n, f) for n in ids for f in FLIGHT_FILTERS] + \
            [("unsubscribe", n, f) for n, f in sorted(steady, key=lambda e: (e[0], str(e[1])))]
        for other in others:
            for publisher in ids:
                script = (other, ("publish", publisher, FLIGHT_EVENT))
                kept = frozenset(steady - ({(other[1], other[2])} if other[0] == "unsubscribe" else set()))
                yield (script, kept, I.Flight(net))


def explore_flight(scope: FlightScope, reading: Reading, deadline: float | None = None):
    prop = I.FLIGHT_PROPERTIES[0]

    def actions(state):
        script, _, f = state
        acts = [("start", k) for k in range(len(script)) if k not in f.started]
        acts += [("deliver", m) for m in sorted(f.flight, key=repr)]
        if f.crashes < scope.crashes:
            acts += [("crash", n) for n in sorted(f.net.live) if len(f.net.live) > 1]
        return acts

    def successor(state, action):
        script, steady, f = state
        if action[0] == "start":
            f = I.start(f, script, action[1], reading.covering, reading.unsubscribe)
        elif action[0] == "deliver":
            f = I.deliver(f, script, action[1], reading.covering, reading.unsubscribe)
        else:
            f = I.crash(f, action[1])
            steady = frozenset(e for e in steady if e[0] != action[1])
        return (script, steady, f)

    def run_of(state) -> I.FlightRun | None:
        script, steady, f = state
        quiet = not f.flight and len(f.started) == len(script)
        return I.FlightRun(f, script, steady) if quiet else None

    def holds(state) -> bool:
        run = run_of(state)
        return run is None or prop.predicate(run)

    def seen(state) -> bool:
        run = run_of(state)
        return run is not None and prop.witness(run)

    system = TransitionSystem(lambda: flight_initial_states(scope, reading), actions, successor)
    return explore(system, {prop.name: holds}, {prop.name: seen}, deadline_seconds=deadline)


FLIGHT_READINGS = ("covering/repaired/smallest/resubscribe-uncovered", "covering/repaired/smallest/remove-only",
                   "no-covering/repaired/smallest/resubscribe-uncovered")


def flight_document(reading: Reading, trace) -> dict[str, Any]:
    script, steady, first = trace[0][1]
    before = sorted([n, str(f)] for n, p, f, s in first.net.filters if n == p == s)

    def step(action) -> list:
        if action[0] == "deliver":
            kind, origin, item, sender, receiver, prefix = action[1]
            return ["deliver", kind, origin, str(item) if kind != "event" else item, sender, receiver, prefix]
        return list(action)

    return {"algorithm": ALGORITHM, "property": I.FLIGHT_PROPERTIES[0].name, "reading": reading.name,
            "method": "exhaustive", "kind": "flight", "k": first.net.space.k, "L": first.net.space.L,
            "live": sorted(first.net.live), "subscriptions": before,
            "script": [[kind, node, str(item) if kind != "publish" else dict(item)] for kind, node, item in script],
            "steps": [step(a) for a, _ in trace[1:]]}


def replay_flight(doc: dict[str, Any], say=print) -> bool:
    reading = reading_named(doc["reading"])
    net = I.network(I.Space(doc["k"], doc["L"]), doc["live"], reading.representative, reading.tables)
    for node, text in doc["subscriptions"]:
        net = I.subscribe(net, node, I.parse_filter(text), reading.covering)[0]
    script = tuple((kind, node, I.parse_filter(item) if kind != "publish" else tuple(sorted(item.items())))
                   for kind, node, item in doc["script"])
    steady = {(n, I.parse_filter(t)) for n, t in doc["subscriptions"]} - \
        {(node, item) for kind, node, item in script if kind == "unsubscribe"}
    state = I.Flight(net)
    say(f"IRBR ({reading.name}) on k={doc['k']}, L={doc['L']}; subscribed beforehand: {doc['subscriptions']}; "
        f"script: {doc['script']}")
    for number, step in enumerate(doc["steps"], start=1):
        if step[0] == "start":
            state = I.start(state, script, step[1], reading.covering, reading.unsubscribe)
            say(f"step {number}: start {doc['script'][step[1]]}")
        elif step[0] == "crash":
            state = I.crash(state, step[1])
            steady = {e for e in steady if e[0] != step[1]}
            say(f"step {number}: {step[1]} crashes")
        else:
            _, kind, origin, item, sender, receiver, prefix = step
            message = (kind, origin, item if kind == "event" else I.parse_filter(item), sender, receiver, prefix)
            if message not in state.flight:
                raise ValueError(f"step {number}: {step} is not in flight")
            state = I.deliver(state, script, message, reading.covering, reading.unsubscribe)
            say(f"step {number}: {kind} of {origin} arrives at {receiver} from {sender} (range {prefix})")
    if state.flight or len(state.started) < len(script):
        raise ValueError("the steps do not reach a quiescent state")
    run = I.FlightRun(state, script, frozenset(steady))
    holds = I.FLIGHT_PROPERTIES[0].predicate(run)
    say(f"notified (event, node, times): {list(state.notified)}; steady subscriptions: "
        f"{sorted((n, str(f)) for n, f in steady)}")
    say(f"{I.FLIGHT_PROPERTIES[0].name}: {'holds' if holds else 'VIOLATED'}")
    return not holds


def flight_checks(scope: str, write_counterexample, deadline_seconds: float) -> list[CheckResult]:
    sc = FLIGHT_SCOPES[scope]
    out = []
    for name in FLIGHT_READINGS:
        reading = READINGS[name]
        ex = explore_flight(sc, reading, deadline_seconds)
        prop = I.FLIGHT_PROPERTIES[0]
        verdict, detail = search_verdict(prop.name in ex.violations, ex.witnessed[prop.name], ex.complete,
                                         deadline_seconds)
        path, detail = None, detail or f"{ex.transitions} transitions"
        if verdict is Verdict.VIOLATED:
            trace = ex.violations[prop.name]
            path = write_counterexample(flight_document(reading, trace))
            detail = f"shortest trace: {len(trace) - 1} steps"
        out.append(result(prop.name, "exhaustive", name, verdict, sc.describe(), cases=ex.initial, states=ex.states,
                          seconds=ex.seconds, counterexample=path, detail=detail))
    return out
