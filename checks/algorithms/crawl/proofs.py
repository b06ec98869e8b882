"""Z3 for CRAWL's recovery (sec. 3.2): does each restart's budget fall below the blocked walk's?

A walk's state holds its budget b and its hops h (h <= b). Every forward raises h; every restart
starts a walk with h = 0 and the halved budget. If each restarted budget is smaller than the
blocked walk's, the pair (b, h) falls in the order "b down, then h up" at every move, so no state
comes back and every walk ends (with at most log2 B + 1 restarts). Z3 decides the lemma for every
first budget B and every blocked budget b, as unbounded integers; the step from it to the walks
is argued and checked on every walk of the exhaustive scope.
"""

from __future__ import annotations

import attrs
import z3

from checks import plugin
from checks.verdict import Verdict
from spec import crawl as C


def restarts_shrink(reading: C.Reading) -> plugin.ProofOutcome:
    first, blocked = z3.Ints("B b")
    halved = (blocked if reading.halving == "previous" else first) / 2     # integer division, as `//`
    solver = z3.Optimize()
    # b is the first budget or a restarted one (each at most B), and a restart happens (halved >= 1)
    solver.add(first >= 1, blocked >= 1, blocked <= first, halved >= 1, z3.Not(halved < blocked))
    solver.minimize(first)
    answer = solver.check()
    if answer == z3.unsat:
        return plugin.ProofOutcome(Verdict.PROVED, 1, "b // 2 < b for every b >= 1: each restart's budget is "
                                   "smaller than the blocked walk's")
    if answer != z3.sat:
        return plugin.ProofOutcome(Verdict.UNKNOWN, 1, f"Z3 answered {answer}")
    model = solver.model()
    b_first, b_blocked = model[first].as_long(), model[blocked].as_long()
    walk = lasso_walk(b_first, reading)
    detail = (f"B = {b_first}: a walk with budget {b_blocked} that blocks restarts with "
              f"{b_first // 2 if reading.halving == 'original' else b_blocked // 2}, not less")
    document = None
    if walk is not None:
        from checks.algorithms.crawl.model import walk_document

        document = walk_document("recovery_ends", reading.name, "z3", walk)
        detail += f"; a walk that goes round for ever: {len(walk.moves)} moves on a path of 3 nodes"
    return plugin.ProofOutcome(Verdict.VIOLATED, 1, detail, document)


def forwards_bounded(reading: C.Reading) -> plugin.ProofOutcome:
    """The forwards of a walk, S(B) = B + S(B // 2) with S(0) = 0 where each restarted budget halves
    the blocked walk's, are at most 2B - 1: Z3 proves the induction step for every B >= 1 (the
    budgets after B's are B // 2, B // 4, ..., so the hypothesis is for B // 2). Where each restart
    halves the first budget the walk can go round for ever (restarts_shrink's counterexample)."""
    if reading.halving != "previous":
        outcome = restarts_shrink(reading)
        if outcome.document is not None:
            outcome = attrs.evolve(outcome, document={**outcome.document,
                                                      "property": "forwards_at_most_twice_the_budget"})
        return outcome
    b, rest = z3.Ints("b rest")
    half = b / 2
    hypothesis = z3.If(half >= 1, z3.And(rest >= 0, rest <= 2 * half - 1), rest == 0)
    solver = z3.Solver()
    solver.add(b >= 1, hypothesis, z3.Not(b + rest <= 2 * b - 1))
    answer = solver.check()
    if answer == z3.unsat:
        return plugin.ProofOutcome(Verdict.PROVED, 1, "S(b) = b + S(b // 2) <= 2b - 1 for every b >= 1, given "
                                   "S(b // 2) <= 2 (b // 2) - 1 (S(0) = 0): by induction on b")
    return plugin.ProofOutcome(Verdict.UNKNOWN if answer != z3.sat else Verdict.VIOLATED, 1,
                               f"Z3 answered {answer} for the induction step")


def lasso_walk(budget: int, reading: C.Reading) -> C.Walk | None:
    """A walk on the path 0 - 1 - 2 (the paper's Fig. 3 in small: the walk reaches a node at the
    network's edge and blocks) that comes back to a state, shortest first."""
    for b in range(budget, budget + 8):   # the smallest budget, from Z3's, at which the path blocks
        params = C.WalkParameters(C.Graph.of([(0, 1), (1, 2)], 3), 0, frozenset(), 2, b)
        lassos = [w for _, w in C.walks(params, reading, max_restarts=8) if w.lasso is not None]
        if lassos:
            return min(lassos, key=lambda w: len(w.moves))
    return None
