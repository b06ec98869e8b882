"""IRBR's Z3 checks.

  delegation   for every k, L, node n and level l, every identifier x != n that shares n's first
               l digits lies in exactly one range n delegates at levels >= l (the first position
               j >= l where x and n differ names it), and n in none: the delegation tree
               partitions the identifier space, for all sizes. Identifiers are arrays of digits.
  covering     the interval lemma `covers` rests on, for all bounds; then `covers` against Z3's
               answer to "does every event matching f2 match f1" on every pair of a filter family.
"""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np
import z3

from checks import plugin
from checks.verdict import Verdict
from checks.z3kit import prove_lemmas
from spec import irbr as I
from spec.registry import get


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
    prop = get(I.ALGORITHM, "covers_decides_covering")
    wrong, strict = [], False
    for f1 in family:
        for f2 in family:
            q = I.CoveringQuestion(f1, f2)
            strict = strict or prop.witness(q)
            if I.covers(f1, f2) != z3_covers(f1, f2) or not prop.predicate(q):
                wrong.append((str(f1), str(f2)))
    return len(family) ** 2, wrong, strict


# --------------------------------------------------------------------------------------------
# The outcomes the declared proofs report
# --------------------------------------------------------------------------------------------

DELEGATION_SCOPE = "the delegated ranges partition the identifier space, every k >= 2, L >= 1, node and level"
DELEGATION_STEP = ("that a broadcast over live representatives then reaches every live node once is argued by "
                   "induction over levels, and judged on every network the exhaustive search explores")


def covering_scope(bounds: int) -> str:
    return (f"the interval lemma for all bounds, then every ordered pair of {len(filter_family(bounds=range(bounds)))} "
            f"filters over two integer attributes with bounds in 0..{bounds - 1} (empty ones too)")


def delegation() -> plugin.ProofOutcome:
    outcome = prove_delegation()
    lemmas = outcome.get("lemmas", {})
    return plugin.ProofOutcome(outcome["verdict"], cases=len(lemmas),
                               detail=outcome.get("detail") or "; ".join(f"{k}: {v}" for k, v in lemmas.items()))


def covering(bounds: int) -> plugin.ProofOutcome:
    lemma = prove_interval_lemma()
    pairs, wrong, strict = check_covering(filter_family(bounds=range(bounds)))
    verdict = Verdict.UNKNOWN if lemma["verdict"] != Verdict.PROVED or not strict else \
        (Verdict.VIOLATED if wrong else Verdict.HOLDS)
    return plugin.ProofOutcome(verdict, cases=pairs,
                               detail=f"disagreements: {wrong[:3]}" if wrong else "covers agrees with Z3 on every pair")
