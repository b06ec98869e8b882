"""LBDD checks: Z3 proofs, exhaustive exploration and hypothesis search over spec/lbdd.py.

Paper: Li, Wang, Yin & Yuan, J. Southeast Univ. 30(4), 2014, sec. 3.2-3.5 and 4.3.

Z3 (sec. 3.3 Algorithm 2, sec. 3.5.1 Theorem 1):
  schedule_partitions_targets   for every bucket size S >= 1 and T >= 0, Algorithm 2 gives each
                                target index 1..T to exactly one rank. Disjointness is refuted
                                or proved as one quantifier-free query over unbounded integers;
                                coverage is proved with an explicit owner function (the rank that
                                must own index j) or refuted by a bounded search that Z3 then
                                minimises (smallest S + T).
  one_way_dissemination         over all 32-bit digests: the interval definition of buckets
                                (3.2) names exactly one bucket for every non-zero distance and
                                agrees with the spec's bit length; Algorithm 1's "higher bucket"
                                relation is irreflexive and transitive, so no path of any length
                                returns to a node and no path is longer than 32 hops.
Every encoding is evaluated against the Python predicate on random concrete instances first
(`cross_check_*`); a mismatch makes the check's verdict `unknown`, never a pass.

Exhaustive (sec. 3.2-3.4): every publisher and every subscriber multiset over a small digest
space, then every single failure and join (Algorithm 3), for each reading, through the shared
explorer; the registry's properties are the invariants.
"""

from __future__ import annotations

import functools
import random
import time
from typing import Any, Iterator

import attrs
import z3

from checks.enumerate import multisets
from checks.explorer import TransitionSystem, explore
from checks.verdict import CheckResult, Verdict
from spec import lbdd as L
from spec.registry import properties

ALGORITHM = L.ALGORITHM


# --------------------------------------------------------------------------------------------
# Z3: Algorithm 2 partitions the target bucket
# --------------------------------------------------------------------------------------------

def z3_bounds(reading: L.Reading, r, s, t):
    """Algorithm 2's [LowBound, UpBound] in Z3 integer arithmetic (div is floor for s > 0)."""
    if reading.ratio == "integer":
        q = t / s
        return q * (r - 1) + 1, q * r
    if reading.ratio == "ceil":
        q = (t + s - 1) / s
        return q * (r - 1) + 1, q * r
    if reading.ratio == "real":
        return (t * (r - 1) + 2 * s - 1) / s, (t * r) / s
    return (t * (r - 1)) / s + 1, (t * r) / s


def z3_owns(reading: L.Reading, r, j, s, t):
    low, up = z3_bounds(reading, r, s, t)
    return z3.And(low <= j, j <= up, 1 <= j, j <= t)


def z3_is_rank(reading: L.Reading, r, s):
    return z3.And(reading.rank_base <= r, r < reading.rank_base + s)


def owner_function(reading: L.Reading, j, s, t):
    """The rank that must own index j, where the reading has one (coverage witness)."""
    if reading.rank_base != 1:
        return None
    if reading.ratio == "floored":  # (r-1) t < j s <= r t  <=>  r = ceil(j s / t)
        return (j * s + t - 1) / t
    if reading.ratio == "ceil":     # blocks of q = ceil(t/s) indices
        q = (t + s - 1) / s
        return (j + q - 1) / q
    return None


def cross_check_partition_encoding(reading: L.Reading, samples: int = 300, seed: int = 0) -> int:
    """Evaluate z3_owns on random concrete sizes against spec.lbdd.owned_indices."""
    rng = random.Random(seed)
    mismatches = 0
    for _ in range(samples):
        s, t = rng.randint(1, 40), rng.randint(0, 60)
        r = rng.randint(reading.rank_base - 1, reading.rank_base + s)
        j = rng.randint(0, t + 1)
        z = z3.simplify(z3_owns(reading, z3.IntVal(r), z3.IntVal(j), z3.IntVal(s), z3.IntVal(t)))
        mismatches += z3.is_true(z) != (j in L.owned_indices(r, s, t, reading))
    return mismatches


def prove_partition(reading: L.Reading, timeout_ms: int = 20000, search_bound: int = 12) -> dict[str, Any]:
    """proved / violated (with the minimal S+T counterexample) / unknown."""
    s, t, j, r1, r2 = z3.Ints("S T j r1 r2")
    sizes = z3.And(s >= 1, t >= 0, 1 <= j, j <= t)
    out: dict[str, Any] = {"queries": 0}
    if cross_check_partition_encoding(reading):
        return {**out, "verdict": Verdict.UNKNOWN, "detail": "encoding disagrees with the spec"}

    def solve(*constraints, minimise=None):
        out["queries"] += 1
        solver = z3.Optimize() if minimise is not None else z3.Solver()
        solver.set("timeout", timeout_ms)
        solver.add(*constraints)
        if minimise is not None:
            solver.minimize(minimise)
        return solver.check(), solver

    overlap = z3.And(sizes, z3_is_rank(reading, r1, s), z3_is_rank(reading, r2, s), r1 < r2,
                     z3_owns(reading, r1, j, s, t), z3_owns(reading, r2, j, s, t))
    disjoint, solver = solve(overlap)
    if disjoint == z3.sat:
        status, solver = solve(overlap, s <= search_bound, t <= search_bound, minimise=s + t)
        m = solver.model()
        return {**out, "verdict": Verdict.VIOLATED, "kind": "two owners",
                "S": m[s].as_long(), "T": m[t].as_long(), "j": m[j].as_long()}
    owner = owner_function(reading, j, s, t)
    if owner is not None:
        uncovered = z3.And(sizes, z3.Not(z3.And(z3_is_rank(reading, owner, s),
                                                z3_owns(reading, owner, j, s, t))))
        covered, _ = solve(uncovered)
        if disjoint == z3.unsat and covered == z3.unsat:
            return {**out, "verdict": Verdict.PROVED,
                    "detail": "disjoint (unsat) and covered by the owner function (unsat), all S, T"}
    # No owner function: search for an uncovered index with S unrolled up to the bound.
    for bound in range(1, search_bound + 1):
        rank_terms = [z3.IntVal(reading.rank_base + k) for k in range(bound)]
        nobody = z3.And(sizes, s == bound, t <= search_bound,
                        *[z3.Not(z3_owns(reading, rk, j, s, t)) for rk in rank_terms])
        status, solver = solve(nobody, minimise=t)
        if status == z3.sat:
            m = solver.model()
            return {**out, "verdict": Verdict.VIOLATED, "kind": "no owner",
                    "S": bound, "T": m[t].as_long(), "j": m[j].as_long()}
    return {**out, "verdict": Verdict.UNKNOWN,
            "detail": f"disjointness {disjoint}; no owner function and no gap with S, T <= {search_bound}"}


# --------------------------------------------------------------------------------------------
# Z3: one-way dissemination over 32-bit digests
# --------------------------------------------------------------------------------------------

BITS = L.DIGEST_BITS


def z3_bucket_by_interval(d):
    """Sec. 3.2 as written: bucket m iff distance in [2^(m-1), 2^m); 0 for distance 0."""
    term = z3.IntVal(0)
    for m in range(1, BITS + 1):
        inside = z3.And(z3.UGE(d, z3.BitVecVal(2 ** (m - 1), BITS)),
                        z3.ULT(d, z3.BitVecVal(2 ** m, BITS)) if m < BITS else z3.BoolVal(True))
        term = z3.If(inside, z3.IntVal(m), term)
    return term


def z3_bit_length(d):
    """The spec's bucket_number: the position of the highest set bit."""
    term = z3.IntVal(0)
    for k in range(BITS):  # later (higher) bits override
        term = z3.If(z3.Extract(k, k, d) == 1, z3.IntVal(k + 1), term)
    return term


def cross_check_bucket_encoding(samples: int = 300, seed: int = 0) -> int:
    rng = random.Random(seed)
    mismatches = 0
    for _ in range(samples):
        d = rng.choice([0, 1, 2 ** 31, 2 ** 32 - 1, rng.getrandbits(rng.randint(1, 32))])
        v = z3.BitVecVal(d, BITS)
        for enc in (z3_bucket_by_interval, z3_bit_length):
            mismatches += z3.simplify(enc(v)).as_long() != L.bucket_number(d)
    return mismatches


def prove_one_way(timeout_ms: int = 60000) -> dict[str, Any]:
    if cross_check_bucket_encoding():
        return {"verdict": Verdict.UNKNOWN, "detail": "bucket encoding disagrees with the spec"}
    p, a, b, c, d = z3.BitVecs("p a b c d", BITS)
    bucket = functools.partial(z3_bucket_by_interval)

    def higher(x, y):  # Algorithm 1 inserts y into x's bucket sequence iff bucket(y) > bucket(x)
        return bucket(y ^ p) > bucket(x ^ p)

    lemmas = {
        "the interval definition and the bit length agree on every 32-bit distance":
            z3_bucket_by_interval(d) == z3_bit_length(d),
        "every non-zero distance is in exactly one bucket 1..32": z3.Implies(
            d != 0, z3.PbEq([(z3.And(z3.UGE(d, z3.BitVecVal(2 ** (m - 1), BITS)),
                                     z3.ULT(d, z3.BitVecVal(2 ** m, BITS)) if m < BITS else z3.BoolVal(True)), 1)
                             for m in range(1, BITS + 1)], 1)),
        "buckets lie in 0..32, so a path has at most 32 hops":
            z3.And(bucket(d) >= 0, bucket(d) <= BITS),
        "no node is in its own bucket sequence (irreflexive)": z3.Not(higher(a, a)),
        "the higher-bucket relation is transitive":
            z3.Implies(z3.And(higher(a, b), higher(b, c)), higher(a, c)),
        "the publisher's bucket 0 is below every other digest's":
            z3.Implies(a != p, higher(p, a)),
    }
    results = {}
    for name, lemma in lemmas.items():
        solver = z3.Solver()
        solver.set("timeout", timeout_ms)
        solver.add(z3.Not(lemma))
        results[name] = str(solver.check())
    if all(v == "unsat" for v in results.values()):
        return {"verdict": Verdict.PROVED, "lemmas": results}
    if any(v == "sat" for v in results.values()):
        return {"verdict": Verdict.VIOLATED, "lemmas": results}
    return {"verdict": Verdict.UNKNOWN, "lemmas": results}


# --------------------------------------------------------------------------------------------
# Exhaustive exploration: every subscriber multiset, every publisher, every failure and join
# --------------------------------------------------------------------------------------------

@attrs.frozen
class Scope:
    bits: int        # digests range over 0 .. 2^bits - 1
    copies: int      # at most this many subscribers share a digest (copies > 1 makes ties)
    depth: int       # failures and joins after the initial tree

    def describe(self) -> str:
        return (f"digests of {self.bits} bits, <= {self.copies} subscriber(s) per digest, "
                f"every publisher, {self.depth} failure/join step(s)")


SCOPES = {
    "default": (Scope(bits=3, copies=1, depth=1), Scope(bits=2, copies=2, depth=1)),
    "large": (Scope(bits=4, copies=1, depth=1), Scope(bits=3, copies=2, depth=1),
              Scope(bits=2, copies=2, depth=2)),
}


def subscriber_address(digest: int, copy: int) -> str:
    return f"s{digest}.{copy}"


def initial_views(scope: Scope) -> Iterator[L.View]:
    """Every (publisher, subscriber multiset), fewest subscribers first."""
    space = range(2 ** scope.bits)
    for chosen in multisets(space, scope.copies):
        subs = tuple(L.Node(d, subscriber_address(d, k)) for d, k in chosen)
        for p in space:
            yield L.View(L.Node(p, "p"), subs)


def lbdd_system(scope: Scope, reading: L.Reading) -> TransitionSystem:
    def initial():
        return (L.initial_state(v, reading) for v in initial_views(scope))

    def actions(state: L.State):
        for s in state.view.subscribers:
            yield ("fail", s.address)
        used = {s.address for s in state.view.subscribers}
        for d in range(2 ** scope.bits):
            free = [k for k in range(scope.copies) if subscriber_address(d, k) not in used]
            if free:
                yield ("join", d, subscriber_address(d, free[0]))

    def successor(state: L.State, action):
        if action[0] == "fail":
            return L.fail(state, action[1], reading)
        return L.join(state, L.Node(action[1], action[2]), reading)

    def canonical(state: L.State):  # the view is a set: subscriber order carries no meaning
        return (state.view.publisher, frozenset(state.view.subscribers), frozenset(state.schedules))

    return TransitionSystem(initial, actions, successor, canonical)


def explore_reading(scope: Scope, reading: L.Reading, names: list[str], deadline: float | None = None,
                    progress=None):
    run_of = functools.lru_cache(maxsize=8)(lambda state: L.dissemination(state, reading))
    props = {p.name: p for p in properties(ALGORITHM) if p.name in names}
    invariants = {n: (lambda s, p=p: p.predicate(run_of(s))) for n, p in props.items()}
    witnesses = {n: (lambda s, p=p: p.witness(run_of(s))) for n, p in props.items() if p.witness}
    return explore(lbdd_system(scope, reading), invariants, witnesses, max_depth=scope.depth,
                   deadline_seconds=deadline, progress=progress)


def trace_document(prop: str, reading: L.Reading, method: str, trace) -> dict[str, Any]:
    """A replayable counterexample from an explorer trace (list of (action, state))."""
    first = trace[0][1]
    events = []
    for action, _ in trace[1:]:
        events.append({"fail": action[1]} if action[0] == "fail"
                      else {"join": {"address": action[2], "digest": action[1]}})
    return view_document(prop, reading, method, first.view, events)


def view_document(prop: str, reading: L.Reading, method: str, view: L.View, events=()) -> dict[str, Any]:
    return {
        "algorithm": ALGORITHM, "property": prop, "reading": reading.name, "method": method,
        "publisher": {"address": view.publisher.address, "digest": view.publisher.digest},
        "subscribers": [{"address": s.address, "digest": s.digest} for s in view.subscribers],
        "events": list(events),
    }


# --------------------------------------------------------------------------------------------
# Replay: re-run a counterexample step by step
# --------------------------------------------------------------------------------------------

def replay(doc: dict[str, Any], say=print) -> tuple[bool, L.Dissemination]:
    """Rebuild the scenario, print every step; True if the recorded property fails at the end."""
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
    verdicts = L.evaluate(run)
    prop = doc["property"]
    say(f"{prop}: {'holds' if verdicts[prop] else 'VIOLATED'}")
    return not verdicts[prop], run


def _describe(state: L.State, reading: L.Reading, say) -> None:
    run = L.dissemination(state, reading)
    for address, sched in state.schedules:
        say(f"  {address:>14}  bucket {sched.self_no:>2}  rank {sched.rank:>2}  sends to "
            f"{', '.join(sched.targets) or '-'}")
    failing = [name for name, ok in L.evaluate(run).items() if not ok]
    say(f"  properties violated here: {', '.join(failing) or 'none'}")


# --------------------------------------------------------------------------------------------
# Hypothesis search over random views (the same predicates, hypothesis shrinks failures)
# --------------------------------------------------------------------------------------------

def hypothesis_search(prop_name: str, reading: L.Reading, examples: int):
    """Search random views for one that violates the property; hypothesis shrinks what it finds.

    Returns (cases tried, the shrunk view or None). Digest widths of 2-8 bits make ties and
    zero distances common; 32 bits is the paper's space.
    """
    from hypothesis import HealthCheck, find, settings, strategies as st
    from hypothesis.errors import NoSuchExample

    prop = next(p for p in properties(ALGORITHM) if p.name == prop_name)
    cases = 0

    @st.composite
    def views(draw):
        bits = draw(st.sampled_from([2, 3, 4, 8, 32]))
        digest = st.integers(0, 2 ** bits - 1)
        return L.abstract_view(draw(digest), draw(st.lists(digest, max_size=24)))

    def violates(view: L.View) -> bool:
        nonlocal cases
        cases += 1
        return not prop.predicate(L.build_dissemination(view, reading))

    config = settings(max_examples=examples, database=None, deadline=None, derandomize=True,
                      suppress_health_check=list(HealthCheck))
    try:
        found = find(views(), violates, settings=config)
    except NoSuchExample:
        return cases, None
    return cases, found


def timed(fn, *args, **kwargs):
    start = time.perf_counter()
    value = fn(*args, **kwargs)
    return value, time.perf_counter() - start


def result(prop: str, method: str, reading: str, verdict: Verdict, scope: str, **kw) -> CheckResult:
    claim = next(p.claim for p in properties(ALGORITHM) if p.name == prop)
    return CheckResult(ALGORITHM, prop, claim, method, verdict, scope, reading=reading, **kw)


# --------------------------------------------------------------------------------------------
# The checks `make check` runs, and what each reports
# --------------------------------------------------------------------------------------------

TREE_PROPERTIES = ["every_subscriber_has_one_parent", "every_subscriber_reached", "no_cycle",
                   "one_way_dissemination", "exactly_n_copies", "buckets_at_most_log2_n",
                   "mean_out_degree_of_all_nodes_is_two"]
PARTITION_READINGS = ["corrected", "literal", "rank-from-0", "integer-ratio", "real-ratio", "ceil-ratio"]
# Abstract digests make the hash input irrelevant, so packed-hash is left to Spark.
EXPLORED_READINGS = [r for r in L.READINGS if r != "packed-hash"]
# A static run is the same under both path-update readings.
HYPOTHESIS_READINGS = [r for r in EXPLORED_READINGS if r != "literal-path-update"]
PARTITION_SIZES = {"default": 32, "large": 128}
HYPOTHESIS_EXAMPLES = {"default": 150, "large": 2000}


def schedule_document(reading: L.Reading, method: str, s: int, t: int) -> dict[str, Any]:
    return {"algorithm": ALGORITHM, "property": "schedule_partitions_targets", "reading": reading.name,
            "method": method, "kind": "schedule", "S": s, "T": t}


def replay_schedule(doc: dict[str, Any], say=print) -> bool:
    """Algorithm 2 for S senders and T targets, rank by rank; True if some index is not owned once."""
    reading = L.reading_named(doc["reading"])
    s, t = doc["S"], doc["T"]
    say(f"Algorithm 2, reading {reading.name!r} (ratio {reading.ratio}, ranks from {reading.rank_base}): "
        f"SelfBucket of {s}, TargetBucket of {t}")
    owners = {j: [] for j in range(1, t + 1)}
    for r in range(reading.rank_base, reading.rank_base + s):
        got = list(L.owned_indices(r, s, t, reading))
        for j in got:
            owners[j].append(r)
        say(f"  rank {r}: targets {got or '-'}")
    bad = {j: rs for j, rs in owners.items() if len(rs) != 1}
    for j, rs in bad.items():
        say(f"  target index {j} is owned by {len(rs)} rank(s) {rs}")
    say("schedule_partitions_targets: " + ("VIOLATED" if bad else "holds"))
    return bool(bad)


def run_checks(scope: str, write_counterexample, spark_summary: dict | None = None,
               deadline_seconds: float = 120.0, only: set[str] | None = None,
               progress=None) -> list[CheckResult]:
    """Every LBDD check at a scope; `write_counterexample(doc) -> path` stores a replay file;
    `progress(label)` returns a callback taking a state count (a progress bar's task)."""
    results: list[CheckResult] = []
    wanted = (lambda method: only is None or method in only)

    if wanted("z3"):
        for name in PARTITION_READINGS:
            reading = L.READINGS[name]
            outcome, secs = timed(prove_partition, reading)
            path = None
            if outcome["verdict"] == Verdict.VIOLATED:
                path = write_counterexample(schedule_document(reading, "z3", outcome["S"], outcome["T"]))
            results.append(result("schedule_partitions_targets", "z3", name, outcome["verdict"],
                                  "all S >= 1, T >= 0 (unbounded integers)", cases=outcome["queries"],
                                  seconds=secs, counterexample=path,
                                  detail=outcome.get("detail", f"{outcome.get('kind', '')} at S={outcome.get('S')}, "
                                                               f"T={outcome.get('T')}, index {outcome.get('j')}")))
        outcome, secs = timed(prove_one_way)
        results.append(result("one_way_dissemination", "z3", "corrected", outcome["verdict"],
                              "all 32-bit digests, paths of any length", cases=len(outcome.get("lemmas", {})),
                              seconds=secs, detail="; ".join(f"{k}: {v}" for k, v in outcome.get("lemmas", {}).items())))

    if wanted("exhaustive"):
        bound = PARTITION_SIZES[scope]
        for name in PARTITION_READINGS:
            reading = L.READINGS[name]
            start = time.perf_counter()
            cases = [L.BucketSizes(s, t, reading) for s in range(1, bound + 1) for t in range(0, bound + 1)]
            bad = next((c for c in cases if not L.schedule_partitions_targets(c)), None)
            witnessed = any(L.splits_a_bucket(c) for c in cases)
            path = write_counterexample(schedule_document(reading, "exhaustive", bad.self_size, bad.target_size)) \
                if bad else None
            verdict = Verdict.VIOLATED if bad else (Verdict.HOLDS if witnessed else Verdict.UNKNOWN)
            results.append(result("schedule_partitions_targets", "exhaustive", name, verdict,
                                  f"every S in 1..{bound}, T in 0..{bound}", cases=len(cases),
                                  seconds=time.perf_counter() - start, counterexample=path,
                                  detail=f"first failure S={bad.self_size}, T={bad.target_size}" if bad else ""))
        for name in EXPLORED_READINGS:
            reading = L.READINGS[name]
            totals = {"states": 0, "transitions": 0, "initial": 0, "seconds": 0.0}
            violations: dict[str, Any] = {}
            witnessed = {p: False for p in TREE_PROPERTIES}
            complete = True
            for sc in SCOPES[scope]:
                ex = explore_reading(sc, reading, TREE_PROPERTIES, deadline=deadline_seconds,
                                     progress=progress(f"explore {name}, {sc.bits}-bit digests") if progress else None)
                complete &= ex.complete
                for k in ("states", "transitions", "initial"):
                    totals[k] += getattr(ex, k)
                totals["seconds"] += ex.seconds
                for p, trace in ex.violations.items():
                    # keep the shortest trace, then the one from the smaller initial view
                    old = violations.get(p)
                    if old is None or (len(trace), len(trace[0][1].view.subscribers)) < \
                            (len(old), len(old[0][1].view.subscribers)):
                        violations[p] = trace
                for p, seen in ex.witnessed.items():
                    witnessed[p] |= seen
            description = " + ".join(sc.describe() for sc in SCOPES[scope])
            for p in TREE_PROPERTIES:
                path, detail = None, ""
                if p in violations:
                    verdict = Verdict.VIOLATED
                    path = write_counterexample(trace_document(p, reading, "exhaustive", violations[p]))
                    detail = f"shortest trace: {len(violations[p]) - 1} event(s)"
                elif not complete:
                    verdict, detail = Verdict.UNKNOWN, f"stopped at the {deadline_seconds:.0f} s limit"
                elif not witnessed[p]:
                    verdict, detail = Verdict.UNKNOWN, "vacuous: the witness state was never reached"
                else:
                    verdict = Verdict.HOLDS
                results.append(result(p, "exhaustive", name, verdict, description,
                                      cases=totals["initial"], states=totals["states"],
                                      seconds=totals["seconds"], counterexample=path,
                                      detail=detail or f"{totals['transitions']} transitions"))

    if wanted("hypothesis"):
        for name in HYPOTHESIS_READINGS:
            reading = L.READINGS[name]
            for p in TREE_PROPERTIES:
                (cases, found), secs = timed(hypothesis_search, p, reading, HYPOTHESIS_EXAMPLES[scope])
                path = write_counterexample(view_document(p, reading, "hypothesis", found)) if found else None
                results.append(result(p, "hypothesis", name, Verdict.VIOLATED if found else Verdict.HOLDS,
                                      f"{HYPOTHESIS_EXAMPLES[scope]} random views, <= 24 subscribers, digests of "
                                      f"2-32 bits (shrunk)", cases=cases, seconds=secs, counterexample=path))

    if wanted("spark") and spark_summary is not None:
        results.extend(spark_results(spark_summary, write_counterexample))
    return results


def spark_results(summary: dict[str, Any], write_counterexample) -> list[CheckResult]:
    from spark_validation.lbdd import LbddJob

    job = LbddJob(readings=tuple(summary["config"]["readings"]),
                  max_subscribers=summary["config"]["max_subscribers"])
    out = []
    for column, outcome in summary["checks"].items():
        reading, prop = column.split(":")
        seen = summary["witnesses"].get(f"{column}:witness")
        path, detail = None, f"{outcome['violations']} of {summary['cases']} topologies violate"
        if outcome["violations"]:
            verdict = Verdict.VIOLATED
            path = write_counterexample(job.counterexample(column, outcome["first"]["seed"]))
            detail += f"; first: seed {outcome['first']['seed']} with {outcome['first']['n']} subscribers"
        elif seen == 0:
            verdict, detail = Verdict.UNKNOWN, "vacuous: no topology reached the witness"
        else:
            verdict = Verdict.HOLDS
        out.append(result(prop, "spark", reading, verdict,
                          f"{summary['cases']} random topologies, 1..{job.max_subscribers} subscribers "
                          f"(log-uniform), MD5 of random IPv4", cases=summary["cases"],
                          seconds=summary.get("seconds", 0.0), counterexample=path, detail=detail))
    return out


def replay_document(doc: dict[str, Any], say=print) -> tuple[bool, L.Dissemination | None]:
    if doc.get("kind") == "schedule":
        return replay_schedule(doc, say), None
    return replay(doc, say)
