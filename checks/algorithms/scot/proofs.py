"""SCOT's Z3 lemmas, for every size: each encoding is first checked against the spec on small
concrete cases, and a disagreement makes the verdict unknown, never a pass. The lemmas are not the
claims themselves: the declaration names the step from them to each claim and its bound
(plugin.Proof.unproved_step), so a proof records holds, not proved.

Shortest subscription trees (sec. 5): the lemmas of an induction along paths. With
the host at B(x0, c), let phi(B(x, i)) = d_T(x, x0) + [i != c]. (A) one link changes phi by at most
1 (an aCOL moves to a tree neighbour, whose distance to x0 differs by exactly 1; an iCOL keeps x
and changes the cluster), so every path from the host to b has at least phi(b) links; (B) the
parent Algorithm 1 gives b is a neighbour with phi one less, so b's depth in the subscription tree
is phi(b). Flooding's parent rule ("whichever neighbour delivered first") is the refuted reading.

Algorithm 4's decision at one broker (sec. 6.3), for any numbers of target links: what dnr_decide
does depends only on how many target aCOLs and iCOLs are free or congested and on whether the CBV
it received names a cluster beyond its target iCOLs' and its own (`rest`), so the per-broker claims
are lemmas over five counts. The encoding is checked against spec.scot.dnr_step first, on every
decision with at most STEP_BOUND target aCOLs and iCOLs and on random ones.
"""

from __future__ import annotations

import functools
from typing import Any

import networkx as nx
import numpy as np
import z3

from checks import plugin
from checks.algorithms.scot.search import small_scots
from checks.verdict import Verdict
from checks.z3kit import prove_lemmas
from spec import scot as S

SHORTEST_SCOPE = "lemmas (A) and (B) over every distance in the tree and every pair of clusters"
SHORTEST_STEP = ("that Algorithm 1 gives every broker a parent by the rule of (B) is checked on its first-in-first-"
                 "out run on every tree of at most 5 vertices, m <= 3, every host (every delivery order only by the "
                 "exhaustive search, on trees of at most 3 vertices); depth = distance then follows by induction "
                 "along paths (argued)")
STEP_SCOPE = "the decision as five counts: any numbers of free and congested target aCOLs and iCOLs, any CBV"
STEP_SAMPLES = 2000
STEP_BOUND = 3  # the reduction to counts is checked on every decision with at most this many aCOLs and iCOLs


def step_decisions(bound: int = STEP_BOUND) -> int:
    """How many decisions `cross_check_dnr_step_exhaustively` compares: every number of target
    aCOLs a and iCOLs i up to `bound`, every congested subset of the a + i links, every CBV over
    the i + 2 clusters without the broker's own bit."""
    return sum(2 ** (a + i) * 2 ** (i + 1) for a in range(bound + 1) for i in range(bound + 1))


STEP_REDUCTION = (f"the reduction of a broker's decision to the five counts is checked on every decision with at "
                  f"most {STEP_BOUND} target aCOLs and {STEP_BOUND} target iCOLs, every congested set and CBV "
                  f"({step_decisions():,} decisions), and on {STEP_SAMPLES:,} random ones")


# --------------------------------------------------------------------------------------------
# Shortest subscription trees for all tree sizes and all m
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
    if S.READINGS[reading].protocol == "sbp":
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
            tree = S.subscription_tree(scot, host)
            mismatches += len(tree) != scot.broker_count() - 1  # every broker but the host has a parent
            for b, parent in tree.items():
                mismatches += z3.simplify(z3_phi(*coords[b])).as_long() != dist[b]
                mismatches += not z3.is_true(z3.simplify(z3_parent("octopis-sbp", *coords[b], *coords[parent])))
            for a, b in scot.graph.edges:
                mismatches += not z3.is_true(z3.simplify(z3_link(*coords[a], *coords[b])))
    return mismatches


def shortest_lemmas(reading: str, timeout_ms: int = 20000) -> dict[str, Any]:
    """The two lemmas under `reading` (checks.z3kit.prove_lemmas' answer, with the model of a
    refuted lemma)."""
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


def prove_shortest(reading: str, timeout_ms: int = 20000) -> plugin.ProofOutcome:
    if cross_check_shortest_encoding():
        return plugin.ProofOutcome(Verdict.UNKNOWN, detail="an encoding disagrees with the spec")
    outcome = shortest_lemmas(reading, timeout_ms)
    detail = "; ".join(f"{k}: {v}" for k, v in outcome["lemmas"].items())
    if "model" in outcome:
        detail = f"counterexample {outcome['model']}; " + detail
    return plugin.ProofOutcome(outcome["verdict"], cases=len(outcome["lemmas"]), detail=detail)


# --------------------------------------------------------------------------------------------
# Algorithm 4's decision at one broker, for any numbers of target links
# --------------------------------------------------------------------------------------------

def z3_dnr_step(reading: str, af, ac, i_free, ic, rest) -> dict[str, Any]:
    pending = z3.Or(ic > 0, rest)
    case3 = z3.And(pending, i_free == 0, af == 0, ic > 0)
    fallback = z3.And(pending, i_free == 0, af == 0, ic == 0, ac > 0)
    copies_every_acol = S.READINGS[reading].congested_acols == "copy"
    # n_CBV on a link that already has a plain copy (Cases I and II): one more message if separate
    on_a_copied_link = z3.And(pending, z3.Or(i_free > 0, af > 0))
    separate = S.READINGS[reading].cbv_copy == "separate"
    extra = z3.If(case3, 1, 0) + (0 if copies_every_acol else z3.If(fallback, 1, 0))  # into congested queues
    return {"into_congested": (ac if copies_every_acol else 0) + extra,
            "into_congested_icols": z3.If(case3, 1, 0),
            "messages": i_free + (af + ac if copies_every_acol else af) + extra
            + (z3.If(on_a_copied_link, 1, 0) if separate else 0),
            "keeps_every_target": z3.BoolVal(True) if copies_every_acol
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


def cross_check_dnr_step(reading: str, samples: int = STEP_SAMPLES, seed: int = 0) -> int:
    """Random concrete decisions (random tie-breaks too): the encoding's counts and verdicts
    against the spec's."""
    rng = np.random.default_rng(seed)
    return sum(not encoding_agrees(reading, random_dnr_step(rng, reading)) for _ in range(samples))


def encoding_agrees(reading: str, step: S.DnrStep) -> bool:
    c = step_counts(step)
    e = z3_dnr_step(reading, z3.IntVal(c["af"]), z3.IntVal(c["ac"]), z3.IntVal(c["i_free"]),
                    z3.IntVal(c["ic"]), z3.BoolVal(c["rest"]))
    value = lambda x: z3.simplify(x).as_long()  # noqa: E731
    return (value(e["into_congested"]) == S.copies_into_congested(step)
            and value(e["into_congested_icols"]) == S.copies_into_congested(step, icols_only=True)
            and value(e["messages"]) == len(step.sends)
            and z3.is_true(z3.simplify(e["keeps_every_target"])) == S.step_keeps_every_target(step))


@functools.lru_cache(maxsize=None)
def cross_check_dnr_step_exhaustively(reading: str, bound: int = STEP_BOUND) -> int:
    """Every decision at B(0, 0) up to the bound (see step_decisions): the encoding against the spec."""
    at, mismatches = (0, 0), 0
    for a in range(bound + 1):
        for i in range(bound + 1):
            acols, icols = [(y, 0) for y in range(1, a + 1)], [(0, j) for j in range(1, i + 1)]
            links = acols + icols
            for mask in range(2 ** len(links)):
                congested = frozenset((at, n) for k, n in enumerate(links) if mask >> k & 1)
                for cbv in range(0, 2 ** (i + 2), 2):
                    mismatches += not encoding_agrees(reading, S.dnr_step(at, acols, icols, cbv, congested, reading))
    return mismatches


def prove_dnr_step(reading: str, prop: str, timeout_ms: int = 20000) -> plugin.ProofOutcome:
    if cross_check_dnr_step(reading) or cross_check_dnr_step_exhaustively(reading):
        return plugin.ProofOutcome(Verdict.UNKNOWN, cases=1, detail="the encoding disagrees with spec.scot.dnr_step")
    af, ac, i_free, ic = z3.Ints("free_acols congested_acols free_icols congested_icols")
    rest = z3.Bool("cbv_names_other_clusters")
    counts = z3.And(af >= 0, ac >= 0, i_free >= 0, ic >= 0)
    lemma = z3.Implies(counts, STEP_LEMMAS[prop](z3_dnr_step(reading, af, ac, i_free, ic, rest)))
    outcome = prove_lemmas({prop: lemma}, lambda m, _: {
        "free target aCOLs": m.eval(af, True).as_long(), "congested target aCOLs": m.eval(ac, True).as_long(),
        "free target iCOLs": m.eval(i_free, True).as_long(), "congested target iCOLs": m.eval(ic, True).as_long(),
        "CBV names other clusters": z3.is_true(m.eval(rest, True))}, timeout_ms, minimize=af + ac + i_free + ic)
    detail = f"encoding cross-checked on {step_decisions():,} decisions and {STEP_SAMPLES:,} random ones"
    if "model" in outcome:
        detail = f"counterexample {outcome['model']}"
    return plugin.ProofOutcome(outcome["verdict"], cases=1, detail=detail)
