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
from checks.verdict import hypothesis_find, CheckResult, Verdict, property_result, search_verdict
from checks.z3kit import prove_lemmas
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
        status, smallest = solve(overlap, s <= search_bound, t <= search_bound, minimise=s + t)
        m = (smallest if status == z3.sat else solver).model()  # an overlap beyond the bound still counts
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
        out["owner_query"] = str(covered)
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
            "detail": f"disjointness {disjoint}; owner query {out.get('owner_query', 'not applicable')}; "
                      f"no gap with S, T <= {search_bound}"}


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


def z3_member_bucket(d, p, is_publisher, reading: L.Reading):
    """spec.lbdd.member_buckets for one member: the publisher is in bucket 0; a subscriber at
    distance 0 is in bucket 0 or 1 by the reading."""
    b = z3_bucket_by_interval(d ^ p)
    if reading.zero_distance == "bucket1":
        b = z3.If(b == 0, z3.IntVal(1), b)
    return z3.If(is_publisher, z3.IntVal(0), b)


def z3_inserted(peer_bucket, self_no, planted_same_bucket: bool = False):
    """Algorithm 1: a peer enters N_i's bucket sequence iff BucketNo > SelfNo.
    `planted_same_bucket` is the negative control: >= lets a same-bucket peer in."""
    return peer_bucket >= self_no if planted_same_bucket else peer_bucket > self_no


def z3_is_target_bucket(tb, self_no, inserted, bucket_of, reading: L.Reading):
    """Algorithm 2's target bucket: the first of the sequence, or SelfNo + 1 (by the reading).
    `inserted(i)` and `bucket_of(i)` describe the peers, indexed by i."""
    if reading.target_bucket == "next-index":
        return tb == self_no + 1
    i, k = z3.Ints("i_tb k_tb")
    return z3.And(z3.Exists([i], z3.And(inserted(i), bucket_of(i) == tb)),
                  z3.ForAll([k], z3.Implies(inserted(k), tb <= bucket_of(k))))


def cross_check_selection_encoding(reading: L.Reading, samples: int = 20, seed: int = 0) -> int:
    """The encoded Algorithms 1-2 pick the same target bucket as spec.lbdd on random views."""
    rng = random.Random(seed)
    mismatches = 0
    for _ in range(samples):
        bits = rng.choice([2, 3, 32])
        view = L.abstract_view(rng.getrandbits(bits), [rng.getrandbits(bits) for _ in range(rng.randint(1, 6))])
        buckets = L.member_buckets(view, reading)
        for me in view.members():
            self_no, _, higher = L.bucket_construction(view, me, reading)
            expected = {n.address for n in L.select_target_bucket(self_no, higher, reading)}
            peers = [n for n in view.subscribers if n != me]
            p = z3.BitVecVal(view.publisher.digest, BITS)
            z_self = z3_member_bucket(z3.BitVecVal(me.digest, BITS), p, z3.BoolVal(me == view.publisher), reading)
            z_buckets = [z3_member_bucket(z3.BitVecVal(n.digest, BITS), p, z3.BoolVal(False), reading) for n in peers]
            got = set()
            for n, zb in zip(peers, z_buckets):
                inserted = [z3_inserted(b, z_self) for b in z_buckets]
                candidates = [b for b, ins in zip(z_buckets, inserted) if z3.is_true(z3.simplify(ins))]
                if reading.target_bucket == "next-index":
                    tb = z_self + 1
                elif candidates:
                    tb = min(candidates, key=lambda b: z3.simplify(b).as_long())
                else:
                    continue
                if z3.is_true(z3.simplify(z3.And(z3_inserted(zb, z_self), zb == tb))):
                    got.add(n.address)
            mismatches += got != expected
            mismatches += z3.simplify(z_self).as_long() != buckets[me]
    return mismatches


def prove_one_way(reading: L.Reading = L.CORRECTED, timeout_ms: int = 60000,
                  planted_same_bucket: bool = False) -> dict[str, Any]:
    """Every copy goes to a strictly higher bucket, so the copy graph has no cycle and no path
    longer than 32 hops: for all 32-bit digests and views of any size (the peers are an
    uninterpreted, unbounded family of digests)."""
    if cross_check_bucket_encoding() or cross_check_selection_encoding(reading):
        return {"verdict": Verdict.UNKNOWN, "detail": "an encoding disagrees with the spec"}
    p, s, d, a, b, c = z3.BitVecs("p s d a b c", BITS)
    sender_is_publisher = z3.Bool("sender_is_publisher")
    peer = z3.Function("peer_digest", z3.IntSort(), z3.BitVecSort(BITS))
    self_no = z3_member_bucket(s, p, sender_is_publisher, reading)
    bucket_of = (lambda i: z3_member_bucket(peer(i), p, z3.BoolVal(False), reading))
    inserted = (lambda i: z3_inserted(bucket_of(i), self_no, planted_same_bucket))
    tb, t = z3.Int("target_bucket"), z3.Int("target")
    copy_sent = z3.And(z3_is_target_bucket(tb, self_no, inserted, bucket_of, reading),
                       inserted(t), bucket_of(t) == tb)
    lemmas = {
        "the interval definition and the bit length agree on every 32-bit distance":
            z3_bucket_by_interval(d) == z3_bit_length(d),
        "every non-zero distance is in exactly one bucket 1..32": z3.Implies(
            d != 0, z3.PbEq([(z3.And(z3.UGE(d, z3.BitVecVal(2 ** (m - 1), BITS)),
                                     z3.ULT(d, z3.BitVecVal(2 ** m, BITS)) if m < BITS else z3.BoolVal(True)), 1)
                             for m in range(1, BITS + 1)], 1)),
        "buckets lie in 0..32, so a path of strictly rising buckets has at most 32 hops":
            z3.And(z3_bucket_by_interval(d) >= 0, z3_bucket_by_interval(d) <= BITS),
        "Algorithms 1-2 send a copy only to a strictly higher bucket (views of any size)":
            z3.Implies(copy_sent, bucket_of(t) > self_no),
    }
    outcome = prove_lemmas(lemmas, lambda m, _: {
        "publisher": m.eval(p, True).as_long(), "sender": m.eval(s, True).as_long(),
        "sender_is_publisher": z3.is_true(m.eval(sender_is_publisher, True)),
        "target": m.eval(peer(t), True).as_long()}, timeout_ms)
    if outcome["verdict"] == Verdict.PROVED:
        outcome["detail"] = "edges strictly raise an integer bucket, so no cycle of any length"
    return outcome


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

    return TransitionSystem(initial, actions, successor)  # views are sorted sets: states are canonical


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

    Returns (cases tried, the shrunk view or None, how many cases reached the witness).
    Digest widths of 2-8 bits make ties and zero distances common; 32 bits is the paper's
    space. A reading that hashes packed bytes gets real IPv4 addresses instead, since its
    choice only shows through MD5.
    """
    from hypothesis import strategies as st

    prop = next(p for p in properties(ALGORITHM) if p.name == prop_name)

    @st.composite
    def views(draw):
        if reading.hash_input != "ascii":
            addresses = draw(st.lists(st.ip_addresses(v=4).map(str), min_size=1, max_size=25, unique=True))
            return L.View(L.node_at(addresses[0], reading), tuple(L.node_at(a, reading) for a in addresses[1:]))
        bits = draw(st.sampled_from([2, 3, 4, 8, 32]))
        digest = st.integers(0, 2 ** bits - 1)
        return L.abstract_view(draw(digest), draw(st.lists(digest, max_size=24)))

    def judge(view: L.View) -> tuple[bool, bool]:
        run = L.build_dissemination(view, reading)
        return prop.predicate(run), prop.witness(run)

    return hypothesis_find(views(), judge, examples)


def timed(fn, *args, **kwargs):
    start = time.perf_counter()
    value = fn(*args, **kwargs)
    return value, time.perf_counter() - start


def result(prop: str, method: str, reading: str, verdict: Verdict, scope: str, **kw) -> CheckResult:
    return property_result(ALGORITHM, prop, method, reading, verdict, scope, **kw)


# --------------------------------------------------------------------------------------------
# The checks `make check` runs, and what each reports
# --------------------------------------------------------------------------------------------

# Claims about every run (not the statistical ones, which need n >= 100 and only Spark reaches).
TREE_PROPERTIES = [p.name for p in properties(ALGORITHM) if p.scope == "every run"]
# The readings that change the bucket function or the target bucket; the rest share corrected's.
ONE_WAY_READINGS = ["corrected", "literal", "zero-in-bucket0", "next-index"]
PARTITION_READINGS = ["corrected", "literal", "rank-from-0", "integer-ratio", "real-ratio", "ceil-ratio"]
# Abstract digests make the hash input irrelevant, so packed-hash is left to hypothesis (which
# hashes real addresses for it).
EXPLORED_READINGS = [r for r in L.READINGS if r != "packed-hash"]
# A static run is the same under both path-update readings.
HYPOTHESIS_READINGS = [r for r in L.READINGS if r != "literal-path-update"]
PARTITION_SIZES = {"default": 32, "large": 128}
HYPOTHESIS_EXAMPLES = {"default": 150, "large": 2000}


def schedule_document(reading: L.Reading, method: str, s: int, t: int) -> dict[str, Any]:
    return {"algorithm": ALGORITHM, "property": "schedule_partitions_targets", "reading": reading.name,
            "method": method, "kind": "schedule", "S": s, "T": t}


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
    say("schedule_partitions_targets: " + ("holds" if holds else "VIOLATED"))
    return not holds


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
        for name in ONE_WAY_READINGS:
            outcome, secs = timed(prove_one_way, L.READINGS[name])
            results.append(result("one_way_dissemination", "z3", name, outcome["verdict"],
                                  "all 32-bit digests, views of any size, paths of any length",
                                  cases=len(outcome.get("lemmas", {})), seconds=secs,
                                  detail=outcome.get("detail", "") + "; " + "; ".join(
                                      f"{k}: {v}" for k, v in outcome.get("lemmas", {}).items())))

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
            verdict, _ = search_verdict(bad is not None, witnessed)
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
                verdict, detail = search_verdict(p in violations, witnessed[p], complete, deadline_seconds)
                path = None
                if verdict is Verdict.VIOLATED:
                    path = write_counterexample(trace_document(p, reading, "exhaustive", violations[p]))
                    detail = f"shortest trace: {len(violations[p]) - 1} event(s)"
                results.append(result(p, "exhaustive", name, verdict, description,
                                      cases=totals["initial"], states=totals["states"],
                                      seconds=totals["seconds"], counterexample=path,
                                      detail=detail or f"{totals['transitions']} transitions"))

    if wanted("hypothesis"):
        for name in HYPOTHESIS_READINGS:
            reading = L.READINGS[name]
            for p in TREE_PROPERTIES:
                (cases, found, witnessed), secs = timed(hypothesis_search, p, reading, HYPOTHESIS_EXAMPLES[scope])
                path = write_counterexample(view_document(p, reading, "hypothesis", found)) if found else None
                verdict, why = search_verdict(bool(found), witnessed, vacuous="vacuous: no case reached the witness")
                results.append(result(p, "hypothesis", name, verdict,
                                      f"{HYPOTHESIS_EXAMPLES[scope]} random views, <= 24 subscribers, "
                                      + ("MD5 of random IPv4" if reading.hash_input != "ascii" else "digests of 2-32 bits")
                                      + " (shrunk)", cases=cases, seconds=secs, counterexample=path, detail=why or ""))

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
        elif not seen:
            verdict, detail = Verdict.UNKNOWN, "vacuous: no topology reached the witness"
        elif not summary["witnesses"].get(f"{reading}:distinguished", 1):
            verdict, detail = Verdict.UNKNOWN, (f"vacuous: no topology where {reading!r} can differ from "
                                                f"'corrected' (e.g. no digest tie)")
        else:
            verdict = Verdict.HOLDS
        out.append(result(prop, "spark", reading, verdict,
                          f"{summary['cases']} random topologies, 1..{job.max_subscribers} subscribers "
                          f"(log-uniform), MD5 of random IPv4", cases=summary["cases"],
                          seconds=summary.get("seconds", 0.0), counterexample=path, detail=detail))
    return out


def replay_document(doc: dict[str, Any], say=print) -> tuple[bool, L.Dissemination | None]:
    check_document(doc)
    if doc.get("kind") == "schedule":
        return replay_schedule(doc, say), None
    return replay(doc, say)


def check_document(doc: dict[str, Any]) -> None:
    """Refuse a malformed counterexample with a message naming what is wrong."""
    def node_ok(n) -> bool:
        return (isinstance(n, dict) and isinstance(n.get("address"), str) and isinstance(n.get("digest"), int)
                and 0 <= n["digest"] < 2 ** BITS)

    L.reading_named(doc.get("reading", "<missing>"))
    names = {p.name for p in properties(ALGORITHM)}
    if doc.get("property") not in names:
        raise ValueError(f"unknown LBDD property {doc.get('property')!r}; known: {', '.join(sorted(names))}")
    if doc.get("kind") == "schedule":
        return
    if not node_ok(doc.get("publisher")):
        raise ValueError("the publisher must be {\"address\": text, \"digest\": a 32-bit integer}")
    subs = doc.get("subscribers")
    if not isinstance(subs, list) or not all(node_ok(n) for n in subs):
        raise ValueError("subscribers must be a list of {\"address\": text, \"digest\": a 32-bit integer}")
    for event in doc.get("events", []):
        if not (isinstance(event, dict) and (isinstance(event.get("fail"), str) or node_ok(event.get("join")))):
            raise ValueError(f"an event is {{\"fail\": address}} or {{\"join\": node}}, not {event!r}")
