"""LBDD's Z3 proofs (sec. 3.3 Algorithm 2, sec. 3.5.1 Theorem 1), and the cross-checks that hold
every encoding to the spec before it is trusted.

  schedule_partitions_targets   for every bucket size S >= 1 and T >= 0, Algorithm 2 gives each
                                target index 1..T to exactly one rank. Disjointness is refuted
                                or proved as one quantifier-free query over unbounded integers;
                                coverage is proved with an explicit owner function (the rank that
                                must own index j) or refuted by a bounded search that Z3 then
                                minimises (smallest S + T).
  one_way_dissemination         the lemmas it rests on, over all 32-bit digests: the interval
                                definition of buckets (3.2) names exactly one bucket for every
                                non-zero distance and agrees with the spec's bit length; buckets
                                lie in 0..32. Sending only upward is Algorithm 1's definition in
                                the encoding, and Algorithm 3 is not encoded: the declaration
                                records `holds`, not `proved` (plugin.Proof.unproved_step).

Every encoding is evaluated against the Python predicate on random concrete instances first
(`cross_check_*`); a mismatch makes the verdict `unknown`, never a pass. `prove_partition` and
`prove_one_way` return what Z3 found as a dict (verdict, query or lemma counts, the model); the
declaration (checks.algorithms.lbdd) turns it into the check's outcome.
"""

from __future__ import annotations

import random
from typing import Any

import z3

from checks.verdict import Verdict
from checks.z3kit import prove_lemmas
from spec import lbdd as L

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
    """The bucket lemmas one-way dissemination rests on, for all 32-bit distances, and the encoded
    Algorithms 1-2 sending upward (true by the encoding's definition; the planted control breaks
    it). The step from these to whole runs is not encoded: the declaration records `holds`."""
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
        # true by the encoding's definition of Algorithm 1 (it inserts only higher buckets): kept
        # because the planted negative control (same-bucket insertion) must break it
        "Algorithms 1-2 as encoded send a copy only to a strictly higher bucket (by definition)":
            z3.Implies(copy_sent, bucket_of(t) > self_no),
    }
    outcome = prove_lemmas(lemmas, lambda m, _: {
        "publisher": m.eval(p, True).as_long(), "sender": m.eval(s, True).as_long(),
        "sender_is_publisher": z3.is_true(m.eval(sender_is_publisher, True)),
        "target": m.eval(peer(t), True).as_long()}, timeout_ms)
    return outcome

