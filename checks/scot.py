"""OctopiS/SCOT checks: exhaustive search over spec/scot.py (first slice: SBP, SNR, BID).

Paper: "Content-based Dynamic Routing in Structured Overlay Networks", sec. 3-6.2.

Exhaustive, two kinds:
  every delivery order  the shared explorer runs a subscription broadcast message by message, every
                        interleaving of the messages in flight, on every tree up to a few vertices
                        times K_m and every host broker; the SBP properties are invariants (judged
                        once the broadcast has ended). Two protocols (readings): `octopis-sbp`
                        (Algorithm 1) and `bid-flooding` (the uncontrolled SBP of sec. 6.1).
  every topology        every non-isomorphic tree up to the bound times K_m, every host broker
                        (first-in-first-out delivery; Algorithm 1 ends in the same tree in every
                        order, which the first kind shows on the small SCOTs),
                        then SNR (Algorithm 3) and BID routing (Algorithm 2) from every publisher to
                        every set of at most two subscriber brokers.
Z3 (sec. 5): subscription trees are shortest for every tree and every m, by induction along
paths. With the host at B(x0, c), let phi(B(x, i)) = d_T(x, x0) + [i != c]. (A) one link changes
phi by at most 1 (an aCOL moves to a tree neighbour, whose distance to x0 differs by exactly 1;
an iCOL keeps x and changes the cluster), so every path from the host to b has at least phi(b)
links; (B) the parent Algorithm 1 gives b is a neighbour with phi one less, so b's depth in the
subscription tree is phi(b). Flooding's parent rule ("whichever neighbour delivered first") is the
refuted reading. The encodings are checked against the spec on every small SCOT first.
Spark (spark_validation/scot.py): the same predicates on random scenarios; `spark_results`
turns its summary into one result per reading and property.
"""

from __future__ import annotations

import itertools
import time
from typing import Any

import attrs
import networkx as nx
import numpy as np
import z3

from checks.enumerate import trees
from checks.explorer import TransitionSystem, explore
from checks.verdict import (CheckResult, Verdict, exploration_verdict, property_result, search_verdict,
                            spark_verdicts)
from checks.z3kit import prove_lemmas
from spec import scot as S
from spec.registry import properties

ALGORITHM = S.ALGORITHM
PROTOCOLS = {"octopis-sbp": "sbp", "bid-flooding": "flood"}
ROUTERS = {"snr": S.snr, "bid": S.bid_routing}


@attrs.frozen
class Scope:
    interleaving_tree_nodes: int   # every tree up to this many vertices, every delivery order
    interleaving_m: int
    flooding_tree_nodes: int       # the same for uncontrolled flooding, whose duplicates explode
    flooding_m: int
    topology_tree_nodes: int       # every tree up to this many vertices, oldest-first delivery
    topology_m: int
    routing_tree_nodes: int        # SNR and BID from every publisher to every <= 2 subscribers
    routing_m: int
    dnr_tree_nodes: int            # DNR: every publisher, subscriber set, congested set, tie-break
    dnr_m: int
    dnr_subscribers: int | None   # None: every subscriber set
    dnr_congested: int | None     # None: every set of congested output queues

    def describe(self, kind: str) -> str:
        n, m = {"interleavings": (self.interleaving_tree_nodes, self.interleaving_m),
                "flooding": (self.flooding_tree_nodes, self.flooding_m),
                "topologies": (self.topology_tree_nodes, self.topology_m),
                "routing": (self.routing_tree_nodes, self.routing_m),
                "dnr": (self.dnr_tree_nodes, self.dnr_m)}[kind]
        return f"every tree of <= {n} vertices x K_m, m <= {m}, every host" + \
            {"interleavings": ", every delivery order", "flooding": ", every delivery order", "topologies": "",
             "routing": ", every publisher, every set of <= 2 subscriber brokers",
             "dnr": ", every publisher (cluster 0, by symmetry), every "
                    + ("set of subscriber brokers" if self.dnr_subscribers is None
                       else f"set of <= {self.dnr_subscribers} subscriber brokers")
                    + (", every set of congested output queues" if self.dnr_congested is None
                       else f", every set of <= {self.dnr_congested} congested output queues") + ", every tie-break"}[kind]


SCOPES = {"default": Scope(3, 3, 2, 3, 7, 4, 6, 3, 4, 3, 2, None),
          "large": Scope(4, 3, 3, 3, 9, 4, 9, 4, 4, 3, 4, None)}


def small_scots(max_nodes: int, max_m: int):
    for n in range(1, max_nodes + 1):
        for tree in trees(n):
            for m in range(1, max_m + 1):
                yield S.build(tree, m)


def broadcast_system(scot_list: list[S.Scot], protocol: str) -> TransitionSystem:
    """States are (SCOT index, broadcast); actions deliver one message in flight."""
    def initial():
        for k, scot in enumerate(scot_list):
            for host in scot.brokers():
                yield (k, S.subscribe(scot, host, protocol))

    def actions(state):
        return sorted(state[1].in_flight, key=repr)

    def successor(state, message):
        k, b = state
        return (k, S.deliver(scot_list[k], b, message, protocol))

    return TransitionSystem(initial, actions, successor)


def explore_protocol(scope: Scope, reading: str, deadline: float | None = None, progress=None):
    bound = (scope.interleaving_tree_nodes, scope.interleaving_m) if reading == "octopis-sbp" \
        else (scope.flooding_tree_nodes, scope.flooding_m)
    scot_list = list(small_scots(*bound))
    props = S.SBP_PROPERTIES
    run_of = (lambda state: S.BroadcastRun(scot_list[state[0]], state[1]))
    invariants = {p.name: (lambda s, p=p: p.predicate(run_of(s))) for p in props}
    witnesses = {p.name: (lambda s, p=p: p.witness(run_of(s))) for p in props}
    ex = explore(broadcast_system(scot_list, PROTOCOLS[reading]), invariants, witnesses,
                 deadline_seconds=deadline, progress=progress)
    return ex, scot_list


def trace_document(prop: str, reading: str, scot: S.Scot, trace) -> dict[str, Any]:
    return broadcast_document(prop, reading, scot, trace[0][1][1].host, [a for a, _ in trace[1:]])


def broadcast_document(prop: str, reading: str, scot: S.Scot, host, deliveries) -> dict[str, Any]:
    return {"algorithm": ALGORITHM, "property": prop, "reading": reading, "method": "exhaustive",
            "tree_edges": [list(e) for e in scot.tree.edges], "tree_nodes": list(scot.tree.nodes), "m": scot.m,
            "host": list(host), "deliveries": [[list(a[0]), list(a[1]), a[2]] for a in deliveries]}


def scot_of(doc: dict[str, Any]) -> S.Scot:
    tree = nx.Graph()
    tree.add_nodes_from(doc["tree_nodes"])
    tree.add_edges_from(tuple(e) for e in doc["tree_edges"])
    return S.build(tree, doc["m"])


def routing_document(prop: str, router: str, reading: str, scot: S.Scot, publisher, hosts, congested=(),
                     tie_breaks=()) -> dict[str, Any]:
    return {"algorithm": ALGORITHM, "property": prop, "reading": reading, "method": "exhaustive", "kind": "routing",
            "router": router, "tree_nodes": list(scot.tree.nodes), "tree_edges": [list(e) for e in scot.tree.edges],
            "m": scot.m, "publisher": list(publisher), "subscribers": [list(h) for h in hosts],
            "congested": [[list(u), list(v)] for u, v in sorted(congested, key=repr)], "tie_breaks": list(tie_breaks)}


def replay_routing(doc: dict[str, Any], say=print) -> bool:
    """Route one notification again (DNR step by step); True if the property fails."""
    router = doc.get("router")
    if router not in ("snr", "bid", "dnr"):
        raise ValueError(f"unknown router {router!r}; known: snr, bid, dnr")
    scot = scot_of(doc)
    publisher, hosts = tuple(doc["publisher"]), tuple(tuple(h) for h in doc["subscribers"])
    congested = frozenset((tuple(u), tuple(v)) for u, v in doc.get("congested", []))
    protocol = "flood" if router == "bid" else "sbp"
    trees = {h: S.subscription_tree(scot, h, protocol) for h in hosts}
    say(f"SCOT of a {scot.tree.number_of_nodes()}-vertex tree x K_{scot.m}; {router} ({doc['reading']}) from "
        f"B{publisher} to subscribers at {list(hosts)}; congested queues {sorted(congested, key=repr)}")
    snr = S.snr(scot, publisher, hosts, trees)
    if router == "dnr":
        choices = iter(doc.get("tie_breaks", []))
        routing = S.dnr(scot, publisher, hosts, trees, congested, doc["reading"],
                        lambda candidates: candidates[next(choices, 0)], say)
    else:
        routing = ROUTERS[router](scot, publisher, hosts, trees)
    run = S.RoutingRun(scot, publisher, hosts, routing, congested, snr.messages)
    prop = next(p for p in S.ROUTING_PROPERTIES if p.name == doc["property"])
    say(f"deliveries {dict(routing.deliveries)}; {routing.messages} messages (SNR {snr.messages}); "
        f"copies into congested queues {dict(getattr(routing, 'congested_copies', ()))}")
    holds = prop.predicate(run)
    say(f"{prop.name}: {'holds' if holds else 'VIOLATED'}")
    return not holds


def replay_document(doc: dict[str, Any], say=print) -> tuple[bool, None]:
    """Re-run a broadcast message by message, or a routing; True if the property fails at the end."""
    if doc.get("kind") == "routing":
        return replay_routing(doc, say), None
    if doc.get("reading") not in PROTOCOLS:
        raise ValueError(f"unknown SCOT reading {doc.get('reading')!r}; known: {', '.join(PROTOCOLS)}")
    prop = next((p for p in properties(ALGORITHM) if p.name == doc.get("property")), None)
    if prop is None or prop not in S.SBP_PROPERTIES:
        raise ValueError(f"not a replayable SCOT broadcast property: {doc.get('property')!r}")
    scot = scot_of(doc)
    tree = scot.tree
    protocol = PROTOCOLS[doc["reading"]]
    b = S.subscribe(scot, tuple(doc["host"]), protocol)
    say(f"SCOT of a {tree.number_of_nodes()}-vertex tree x K_{scot.m}; {doc['reading']} from B{tuple(doc['host'])}")
    for step, (sender, receiver, state) in enumerate(doc["deliveries"], start=1):
        message = (tuple(sender), tuple(receiver), state)
        if message not in b.in_flight:
            raise ValueError(f"step {step}: {message} is not in flight")
        first = tuple(receiver) not in dict(b.received)
        b = S.deliver(scot, b, message, protocol)
        say(f"step {step}: B{tuple(sender)} -> B{tuple(receiver)} ({state})"
            + ("" if first else "  duplicate, discarded"))
    run = S.BroadcastRun(scot, b)
    holds = prop.predicate(run)
    say(f"subscription tree: {dict(b.last_hop)}; {b.messages} messages")
    say(f"{prop.name}: {'holds' if holds else 'VIOLATED'}")
    return not holds, None


# --------------------------------------------------------------------------------------------
# Z3: shortest subscription trees for all tree sizes and all m
# --------------------------------------------------------------------------------------------

def z3_phi(dt, same):
    return dt + z3.If(same, 0, 1)


def z3_link(dt, same, dt2, same2):
    """b = (dt, same) and b2 = (dt2, same2) are SCOT neighbours, in the coordinates phi uses:
    dt = d_T(x, x0), same = (i == c). An aCOL keeps the cluster and moves to a tree neighbour
    (distances to x0 of tree neighbours differ by exactly 1); an iCOL keeps x, changes cluster
    (two clusters other than c are both 'not same')."""
    acol = z3.And(same == same2, z3.Or(dt2 == dt + 1, dt2 == dt - 1))
    icol = z3.And(dt2 == dt, z3.Or(z3.Not(same), z3.Not(same2)))
    return z3.And(dt >= 0, dt2 >= 0, z3.Or(acol, icol))


def z3_parent(reading: str, dt, same, pdt, psame):
    """The parent a reading gives broker (dt, same) != host: Algorithm 1's rule, or any neighbour."""
    if reading == "octopis-sbp":
        return z3.If(same, z3.And(dt > 0, psame, pdt == dt - 1), z3.And(psame, pdt == dt))
    return z3_link(pdt, psame, dt, same)


def cross_check_shortest_encoding(max_nodes: int = 5, max_m: int = 3) -> int:
    """On every small SCOT and host: phi is the distance, Algorithm 1's parents satisfy z3_parent,
    and every link satisfies z3_link."""
    mismatches = 0
    for scot in small_scots(max_nodes, max_m):
        for host in scot.brokers():
            d_t = nx.single_source_shortest_path_length(scot.tree, host[0])
            coords = {b: (z3.IntVal(d_t[b[0]]), z3.BoolVal(b[1] == host[1])) for b in scot.graph}
            dist = nx.single_source_shortest_path_length(scot.graph, host)
            for b, parent in S.subscription_tree(scot, host).items():
                mismatches += z3.simplify(z3_phi(*coords[b])).as_long() != dist[b]
                mismatches += not z3.is_true(z3.simplify(z3_parent("octopis-sbp", *coords[b], *coords[parent])))
            for a, b in scot.graph.edges:
                mismatches += not z3.is_true(z3.simplify(z3_link(*coords[a], *coords[b])))
    return mismatches


def prove_shortest(reading: str, timeout_ms: int = 20000) -> dict[str, Any]:
    if cross_check_shortest_encoding():
        return {"verdict": Verdict.UNKNOWN, "detail": "an encoding disagrees with the spec"}
    dt, pdt, dt2 = z3.Ints("dt parent_dt dt2")
    same, psame, same2 = z3.Bools("same parent_same same2")
    depth, pdepth = z3.Ints("depth parent_depth")
    lemmas = {
        "(A) a link changes phi by at most 1, so no path to b is shorter than phi(b)":
            z3.Implies(z3_link(dt, same, dt2, same2), z3_phi(dt2, same2) >= z3_phi(dt, same) - 1),
        "(B) the parent is a neighbour with phi one less, so depth(b) = phi(b) by induction":
            z3.Implies(z3.And(z3_phi(dt, same) > 0, dt >= 0, z3_parent(reading, dt, same, pdt, psame),
                              pdepth == z3_phi(pdt, psame), depth == pdepth + 1),
                       z3.And(z3_link(pdt, psame, dt, same), depth == z3_phi(dt, same))),
    }
    return prove_lemmas(lemmas, lambda m, _: {
        "d_T": m.eval(dt, True).as_long(), "same_cluster": z3.is_true(m.eval(same, True)),
        "parent_d_T": m.eval(pdt, True).as_long(), "parent_same_cluster": z3.is_true(m.eval(psame, True))},
        timeout_ms)


# --------------------------------------------------------------------------------------------
# Z3: Algorithm 4's decision at one broker, for any numbers of target links
# --------------------------------------------------------------------------------------------
# What dnr_decide does depends only on how many target aCOLs and iCOLs are free or congested and
# on whether the CBV it received names a cluster beyond its target iCOLs' and its own (`rest`), so
# the per-broker claims are lemmas over five counts, for every size. The encoding is checked
# against spec.scot.dnr_step on random concrete decisions first.

def z3_dnr_step(reading: str, af, ac, i_free, ic, rest) -> dict[str, Any]:
    pending = z3.Or(ic > 0, rest)
    case3 = z3.And(pending, i_free == 0, af == 0, ic > 0)
    fallback = z3.And(pending, i_free == 0, af == 0, ic == 0, ac > 0)
    icols_only = reading == "dnr-icols-only"
    extra = z3.If(case3, 1, 0) + (0 if icols_only else z3.If(fallback, 1, 0))
    return {"into_congested": (ac if icols_only else 0) + extra,
            "into_congested_icols": z3.If(case3, 1, 0),
            "messages": i_free + (af + ac if icols_only else af) + extra,
            "keeps_every_target": z3.BoolVal(True) if icols_only
            else z3.Or(ac == 0, z3.And(fallback, ac == 1))}


STEP_LEMMAS = {
    "step_one_copy_into_congested_icol_queues": lambda e: e["into_congested_icols"] <= 1,
    "step_one_copy_into_congested_queues": lambda e: e["into_congested"] <= 1,
    "step_keeps_every_target": lambda e: e["keeps_every_target"],
}


def random_dnr_step(rng, reading: str) -> S.DnrStep:
    """A concrete decision at B(0, 0): a random number of target aCOLs and iCOLs, congested queues
    and CBV bits, and a random tie-break."""
    a, i = int(rng.integers(0, 4)), int(rng.integers(0, 4))
    m = i + 1 + int(rng.integers(0, 3))
    at = (0, 0)
    acols = [(y, 0) for y in range(1, a + 1)]
    icols = [(0, j) for j in range(1, i + 1)]
    congested = frozenset((at, n) for n in acols + icols if rng.random() < 0.5)
    cbv = int(rng.integers(0, 2 ** m)) & ~1
    return S.dnr_step(at, acols, icols, cbv, congested, reading,
                      lambda candidates: candidates[int(rng.integers(len(candidates)))])


def step_counts(step: S.DnrStep) -> dict[str, Any]:
    own_and_targets = S.cluster_bit(step.at[1]) | sum(S.cluster_bit(n[1]) for n in step.icols)
    return {"af": sum((step.at, n) not in step.congested for n in step.acols),
            "ac": sum((step.at, n) in step.congested for n in step.acols),
            "i_free": sum((step.at, n) not in step.congested for n in step.icols),
            "ic": sum((step.at, n) in step.congested for n in step.icols),
            "rest": bool(step.cbv & ~own_and_targets)}


def cross_check_dnr_step(reading: str, samples: int = 2000, seed: int = 0) -> int:
    """Random concrete decisions: the encoding's counts and verdicts against the spec's."""
    rng = np.random.default_rng(seed)
    mismatches = 0
    for _ in range(samples):
        step = random_dnr_step(rng, reading)
        c = step_counts(step)
        e = z3_dnr_step(reading, z3.IntVal(c["af"]), z3.IntVal(c["ac"]), z3.IntVal(c["i_free"]),
                        z3.IntVal(c["ic"]), z3.BoolVal(c["rest"]))
        value = lambda x: z3.simplify(x).as_long()  # noqa: E731
        mismatches += value(e["into_congested"]) != S.copies_into_congested(step)
        mismatches += value(e["into_congested_icols"]) != S.copies_into_congested(step, icols_only=True)
        mismatches += value(e["messages"]) != len(step.sends)
        mismatches += z3.is_true(z3.simplify(e["keeps_every_target"])) != S.step_keeps_every_target(step)
    return mismatches


def prove_dnr_step(reading: str, prop: str, timeout_ms: int = 20000) -> dict[str, Any]:
    if cross_check_dnr_step(reading):
        return {"verdict": Verdict.UNKNOWN, "detail": "the encoding disagrees with spec.scot.dnr_step"}
    af, ac, i_free, ic = z3.Ints("free_acols congested_acols free_icols congested_icols")
    rest = z3.Bool("cbv_names_other_clusters")
    counts = z3.And(af >= 0, ac >= 0, i_free >= 0, ic >= 0)
    lemma = z3.Implies(counts, STEP_LEMMAS[prop](z3_dnr_step(reading, af, ac, i_free, ic, rest)))
    return prove_lemmas({prop: lemma}, lambda m, _: {
        "free target aCOLs": m.eval(af, True).as_long(), "congested target aCOLs": m.eval(ac, True).as_long(),
        "free target iCOLs": m.eval(i_free, True).as_long(), "congested target iCOLs": m.eval(ic, True).as_long(),
        "CBV names other clusters": z3.is_true(m.eval(rest, True))}, timeout_ms, minimize=af + ac + i_free + ic)


def result(prop: str, method: str, reading: str, verdict: Verdict, scope: str, **kw) -> CheckResult:
    return property_result(ALGORITHM, prop, method, reading, verdict, scope, **kw)


def run_checks(scope: str, write_counterexample, spark_summary: dict | None = None,
               deadline_seconds: float = 120.0, only: set[str] | None = None, progress=None) -> list[CheckResult]:
    results: list[CheckResult] = []
    if only is None or "z3" in only:
        for reading in PROTOCOLS:
            start = time.perf_counter()
            outcome = prove_shortest(reading)
            detail = "; ".join(f"{k}: {v}" for k, v in outcome.get("lemmas", {}).items())
            if "model" in outcome:
                detail = f"counterexample {outcome['model']}; " + detail
            results.append(result("subscription_tree_is_shortest", "z3", reading, outcome["verdict"],
                                  "every tree, every m >= 1, every host (induction along paths)",
                                  cases=len(outcome.get("lemmas", {})), seconds=time.perf_counter() - start,
                                  detail=outcome.get("detail", detail)))
        for reading in S.DNR_READINGS:
            for prop in STEP_LEMMAS:
                start = time.perf_counter()
                outcome = prove_dnr_step(reading, prop)
                detail = outcome.get("detail", "encoding cross-checked on 2000 random decisions")
                if "model" in outcome:
                    detail = f"counterexample {outcome['model']}"
                results.append(result(prop, "z3", reading, outcome["verdict"],
                                      "every broker decision, any numbers of free and congested target aCOLs and "
                                      "iCOLs, any CBV", cases=1, seconds=time.perf_counter() - start, detail=detail))
    if only is not None and "exhaustive" not in only:
        return results
    sc = SCOPES[scope]
    for reading in PROTOCOLS:
        ex, scot_list = explore_protocol(sc, reading, deadline_seconds,
                                         progress(f"explore {reading}") if progress else None)
        for p in S.SBP_PROPERTIES:
            verdict, path, detail = exploration_verdict(
                ex, p.name, deadline_seconds, write_counterexample,
                lambda trace, p=p: trace_document(p.name, reading, scot_list[trace[0][1][0]], trace), "deliveries")
            results.append(result(p.name, "exhaustive", reading, verdict,
                                  sc.describe("interleavings" if reading == "octopis-sbp" else "flooding"),
                                  cases=ex.initial, states=ex.states, seconds=ex.seconds,
                                  counterexample=path, detail=detail))
    results += topology_checks(sc, write_counterexample)
    results += routing_checks(sc, write_counterexample)
    results += dnr_checks(sc, write_counterexample)
    if spark_summary is not None and (only is None or "spark" in only):
        results += spark_results(spark_summary, write_counterexample)
    return results


def spark_results(summary: dict[str, Any], write_counterexample) -> list[CheckResult]:
    """One result per (reading, property) column of the Spark job's summary."""
    from spark_validation.scot import ScotJob

    config = {k: v for k, v in summary["config"].items() if k != "algorithm"}
    job = ScotJob(**{**config, "readings": tuple(config["readings"])})
    return spark_verdicts(summary, job, f"{summary['cases']} random scenarios: trees of 1..{job.max_tree} vertices "
                          f"x K_m, m <= {job.max_m}, 1..{job.max_subscribers} subscriber brokers, random congested "
                          "queues and tie-breaks, broadcasts first in first out (equal link delays)",
                          write_counterexample, size="brokers")


@attrs.define
class Tally:
    """Per property over one enumeration: the first failure (its description and replay document)
    and whether the witness was ever reached; then one CheckResult each."""

    props: list
    failures: dict = attrs.Factory(dict)
    documents: dict = attrs.Factory(dict)
    seen: dict = attrs.Factory(dict)
    cases: int = 0
    start: float = attrs.Factory(time.perf_counter)

    def judge(self, run, describe, document) -> None:
        """Evaluate every property on `run`; on a first failure keep describe() and document()."""
        for p in self.props:
            self.seen[p.name] = self.seen.get(p.name, False) or bool(p.witness(run))
            if p.name not in self.failures and not p.predicate(run):
                self.failures[p.name] = describe()
                self.documents[p.name] = document(p.name)

    def results(self, reading: str, scope: str, write_counterexample, detail: str = "") -> list[CheckResult]:
        secs = time.perf_counter() - self.start
        out = []
        for p in self.props:
            verdict, _ = search_verdict(p.name in self.failures, self.seen.get(p.name, False))
            path = write_counterexample(self.documents[p.name]) \
                if p.name in self.documents and write_counterexample else None
            out.append(result(p.name, "exhaustive", reading, verdict, scope, cases=self.cases, seconds=secs,
                              counterexample=path, detail=self.failures.get(p.name, detail)))
        return out


def topology_checks(sc: Scope, write_counterexample=None) -> list[CheckResult]:
    """Algorithm 1 on every tree x K_m and every host (first-in-first-out delivery)."""
    tally = Tally(S.SBP_PROPERTIES)
    for scot in small_scots(sc.topology_tree_nodes, sc.topology_m):
        for host in scot.brokers():
            log: list = []
            run = S.BroadcastRun(scot, S.broadcast_to_the_end(scot, host, log=log))
            tally.cases += 1
            tally.judge(run, lambda: f"tree {sorted(scot.tree.edges)}, m = {scot.m}, host B{host}",
                        lambda prop: broadcast_document(prop, "octopis-sbp", scot, host, log))
    return tally.results("octopis-sbp-every-tree", sc.describe("topologies"), write_counterexample)


def routing_checks(sc: Scope, write_counterexample=None) -> list[CheckResult]:
    """SNR and BID routing from every publisher to every set of <= 2 subscriber brokers, on the
    subscription trees of Algorithm 1 (SNR) and of first-in-first-out flooding (BID)."""
    out = []
    for name, route in ROUTERS.items():
        tally = Tally([p for p in S.ROUTING_PROPERTIES if p.name in S.ROUTER_PROPERTIES[name]])
        messages = 0
        for scot in small_scots(sc.routing_tree_nodes, sc.routing_m):
            protocol = "sbp" if name == "snr" else "flood"
            subscription_trees = {h: S.subscription_tree(scot, h, protocol) for h in scot.brokers()}
            brokers = scot.brokers()
            for publisher in brokers:
                for k in (1, 2):
                    for hosts in itertools.combinations(brokers, k):
                        routing = route(scot, publisher, hosts, subscription_trees)
                        tally.cases += 1
                        messages += routing.messages
                        tally.judge(S.RoutingRun(scot, publisher, hosts, routing),
                                    lambda: (f"tree {sorted(scot.tree.edges)}, m = {scot.m}, publisher "
                                             f"B{publisher}, subscribers at {list(hosts)}: {routing}"),
                                    lambda prop: routing_document(prop, name, name, scot, publisher, hosts))
        out += tally.results(name, sc.describe("routing"), write_counterexample,
                             f"{messages} inter-broker messages in all")
    return out


def dnr_checks(sc: Scope, write_counterexample=None) -> list[CheckResult]:
    """Algorithm 4 under each reading: every publisher of cluster 0 (a permutation of the cluster
    indices is an automorphism of the SCOT that Algorithm 4 respects, so other publishers add no
    behaviour), every subscriber set (every one when `dnr_subscribers` is None), every set of at
    most `dnr_congested` congested output queues and every tie-break, against SNR's message count.
    Congestion is decided lazily (spec.scot.every_decision): a queue's status is branched on when
    the run first asks about it, so each run explored stands for every congested set that agrees
    on the queues it asked about, and `cases` counts those runs."""
    out = []
    for reading in S.DNR_READINGS:
        tally = Tally([p for p in S.ROUTING_PROPERTIES if p.name in S.ROUTER_PROPERTIES["dnr"]])
        for scot in small_scots(sc.dnr_tree_nodes, sc.dnr_m):
            subscription_trees = {h: S.subscription_tree(scot, h) for h in scot.brokers()}
            brokers = scot.brokers()
            most = len(brokers) if sc.dnr_subscribers is None else sc.dnr_subscribers
            for publisher in (b for b in brokers if b[1] == 0):
                for k in range(1, most + 1):
                    for hosts in itertools.combinations(brokers, k):
                        snr_messages = S.snr(scot, publisher, hosts, subscription_trees).messages
                        for d, routing in S.every_decision(lambda d: S.dnr(
                                scot, publisher, hosts, subscription_trees, d, reading, d.choose), sc.dnr_congested):
                            tally.cases += 1
                            congested = d.congested()
                            tally.judge(
                                S.RoutingRun(scot, publisher, hosts, routing, congested, snr_messages),
                                lambda: (f"tree {sorted(scot.tree.edges)}, m = {scot.m}, publisher B{publisher}, "
                                         f"subscribers at {list(hosts)}, congested {sorted(congested, key=repr)}, "
                                         f"tie-breaks {d.ties}: {routing.messages} messages (SNR "
                                         f"{snr_messages}), deliveries {dict(routing.deliveries)}, copies into "
                                         f"congested queues {dict(routing.congested_copies)}"),
                                lambda prop: routing_document(prop, "dnr", reading, scot, publisher, hosts,
                                                              congested, d.ties))
        out += tally.results(reading, sc.describe("dnr"), write_counterexample,
                             "runs: one per distinct congestion of the queues asked about and tie-break")
    return out
