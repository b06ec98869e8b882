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


def halved_budget(first, previous, reading: C.Reading):
    """The halving of sec. 3.2's restart and sec. 4's re-walk (C.rewalk_budget) over Z3 integers
    (`/` on Ints is the floor for positive ones, as `//`; tests hold the two to each other on
    concrete budgets)."""
    return ((previous if reading.halving == "previous" else first) + (1 if reading.rounding == "up" else 0)) / 2


def restarts_shrink(reading: C.Reading) -> plugin.ProofOutcome:
    first, blocked = z3.Ints("B b")
    halved = halved_budget(first, blocked, reading)
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
              f"{C.halve(b_first if reading.halving == 'original' else b_blocked, reading)}, not less")
    document = None
    if walk is not None:
        from checks.algorithms.crawl.model import walk_document

        document = walk_document("recovery_ends", reading.name, "z3", walk)
        detail += f"; a walk that goes round for ever: {len(walk.moves)} moves on a path of 3 nodes"
    return plugin.ProofOutcome(Verdict.VIOLATED, 1, detail, document)


def _lemma(lemma: z3.BoolRef, proved: str, what: str = "the lemma") -> plugin.ProofOutcome:
    """`lemma` for every value of its unbounded variables: proved with `proved` as the detail where
    its negation is unsat; else violated (sat) or unknown."""
    solver = z3.Solver()
    solver.add(z3.Not(lemma))
    answer = solver.check()
    if answer == z3.unsat:
        return plugin.ProofOutcome(Verdict.PROVED, 1, proved)
    return plugin.ProofOutcome(Verdict.UNKNOWN if answer != z3.sat else Verdict.VIOLATED, 1,
                               f"Z3 answered {answer} for {what}")


def forwards_bounded(reading: C.Reading) -> plugin.ProofOutcome:
    """The forwards of a walk, S(B) = B + S(B // 2) with S(0) = 0 where each restarted budget halves
    the blocked walk's, are at most 2B - 1: Z3 proves the induction step for every B >= 1 (the
    budgets after B's are B // 2, B // 4, ..., so the hypothesis is for B // 2). Where each restart
    halves the first budget the walk can go round for ever (restarts_shrink's counterexample)."""
    if reading.halving != "previous" or reading.rounding != "down":
        outcome = restarts_shrink(reading)
        if outcome.document is not None:
            outcome = attrs.evolve(outcome, document={**outcome.document,
                                                      "property": "forwards_at_most_twice_the_budget"})
        return outcome
    b, rest = z3.Ints("b rest")
    half = b / 2
    hypothesis = z3.If(half >= 1, z3.And(rest >= 0, rest <= 2 * half - 1), rest == 0)
    return _lemma(z3.Implies(z3.And(b >= 1, hypothesis), b + rest <= 2 * b - 1),
                  "S(b) = b + S(b // 2) <= 2b - 1 for every b >= 1, given S(b // 2) <= 2 (b // 2) - 1 (S(0) = 0): "
                  "by induction on b", "the induction step")


def rewalks_shrink(reading: C.Reading) -> plugin.ProofOutcome:
    """Sec. 4's re-walk: a walk of budget b (at most the first budget B) whose data finds no virtual
    node starts one of halved_budget(B, b); the lemma is that this one's budget, where one starts
    (it is at least 1), is below b."""
    first, previous = z3.Ints("B b")
    after = halved_budget(first, previous, reading)
    return _lemma(z3.Implies(z3.And(first >= 1, previous >= 1, previous <= first, after >= 1), after < previous),
                  "b // 2 < b for every b >= 1: each re-walk's budget is below the walk's before it")


def lasso_walk(budget: int, reading: C.Reading) -> C.Walk | None:
    """A walk on the path 0 - 1 - 2 (the paper's Fig. 3 in small: the walk reaches a node at the
    network's edge and blocks) that comes back to a state, shortest first."""
    for b in range(budget, budget + 8):   # the smallest budget, from Z3's, at which the path blocks
        params = C.WalkParameters(C.Graph.of([(0, 1), (1, 2)], 3), 0, frozenset(), 2, b)
        lassos = [w for _, w in C.walks(params, reading, max_restarts=8) if w.lasso is not None]
        if lassos:
            return min(lassos, key=lambda w: len(w.moves))
    return None


# --------------------------------------------------------------------------------------------
# The upper layer: pieces of a value space, the balanced tree's height
# --------------------------------------------------------------------------------------------

def _ranges(n: int):
    """n range subscriptions [lo_i, hi_i] inside a value space [a, b], unbounded integers, and the
    cuts they make: each range's low end (where it is above a) and its high end + 1 (where it is
    below b), each (value, is-a-cut) pair."""
    a, b = z3.Ints("a b")
    lo = [z3.Int(f"lo{i}") for i in range(n)]
    hi = [z3.Int(f"hi{i}") for i in range(n)]
    inside = z3.And(a <= b, *[z3.And(a <= lo[i], lo[i] <= hi[i], hi[i] <= b) for i in range(n)])
    ends = [p for i in range(n) for p in ((lo[i], lo[i] > a), (hi[i] + 1, hi[i] < b))]
    return a, b, lo, hi, inside, ends


def _pieces(ends) -> z3.ArithRef:
    """1 + the number of distinct cuts: spec.crawl.pieces counted, a cut counted where no earlier
    end is the same cut."""
    fresh = [z3.And(cut, *[z3.Not(z3.And(c2, v2 == v)) for v2, c2 in ends[:j]]) for j, (v, cut) in enumerate(ends)]
    return 1 + z3.Sum([z3.If(f, 1, 0) for f in fresh]) if fresh else z3.IntVal(1)


def pieces_model_agrees(n: int, ranges: list[tuple[int, int]], low: int, high: int) -> bool:
    """The encoding's count against spec.crawl.pieces on one concrete space (the cross-check)."""
    a, b, lo, hi, inside, ends = _ranges(n)
    fixed = [a == low, b == high] + [x == r[0] for x, r in zip(lo, ranges)] + [x == r[1] for x, r in zip(hi, ranges)]
    solver = z3.Solver()
    solver.add(inside, *fixed)
    if solver.check() != z3.sat:
        return False
    return solver.model().eval(_pieces(ends)).as_long() == len(C.pieces(C.Space(low, high, tuple(ranges))))


def a_range_adds_two_cuts() -> plugin.ProofOutcome:
    """The tight bound's lemma. A piece ends where some range starts or stops holding the values:
    c in (a, b] is a cut where, for some range, c - 1 and c are not both in it or both out of it.
    Z3 proves, for every value space [a, b], range [lo, hi] inside it and value c (unbounded
    integers), that one range changes there only at c = lo (if lo > a) or c = hi + 1 (if hi < b):
    spec.crawl.pieces's two cuts. With no range the space is one piece, so n ranges make at most
    1 + 2n; n ranges [2i + 1, 2i + 1] in [0, 2n + 1] make exactly that many."""
    a, b, lo, hi, c = z3.Ints("a b lo hi c")
    holds = lambda x: z3.And(lo <= x, x <= hi)     # noqa: E731
    changes = z3.And(a < c, c <= b, a <= lo, lo <= hi, hi <= b, holds(c - 1) != holds(c))
    lemma = z3.Implies(changes, z3.Or(z3.And(c == lo, lo > a), z3.And(c == hi + 1, hi < b)))
    outcome = _lemma(lemma, "one range changes which values it holds only at its low end and one past its high "
                     "end, for every value space and range (unbounded integers); n ranges [2i + 1, 2i + 1] in "
                     "[0, 2n + 1] make 2n + 1 pieces (counted for n = 1..4)")
    if outcome.verdict != Verdict.PROVED:
        return outcome
    # the tight example, counted by the same encoding as the printed bound's search
    for n in range(1, 5):
        if not pieces_model_agrees(n, [(2 * i + 1, 2 * i + 1) for i in range(n)], 0, 2 * n + 1):
            return plugin.ProofOutcome(Verdict.UNKNOWN, 1, f"the encoding disagrees with the spec at n = {n}")
    return outcome


PRINTED_BOUND_SIZES = range(1, 5)


def least_ranges_beyond_n_plus_2() -> plugin.ProofOutcome:
    """Sec. 5.2's max(VN) = subscriptions + 2 against every space of n ranges, n = 1, 2, ... (unbounded
    integers): the least n with more than n + 2 pieces, and its canonical (smallest) space."""
    return least_ranges_beyond(lambda n: n + 2, "n + 2", "virtual_nodes_at_most_subscriptions_plus_2")


def least_ranges_beyond(bound, printed: str, prop: str) -> plugin.ProofOutcome:
    """The least n = 1, 2, ... for which n ranges cut a value space into more than bound(n) pieces."""
    from checks.z3kit import canonical_model

    for n in PRINTED_BOUND_SIZES:
        a, b, lo, hi, inside, ends = _ranges(n)
        formula = z3.And(inside, _pieces(ends) > bound(n))
        solver = z3.Solver()
        solver.add(formula)
        answer = solver.check()
        if answer == z3.unsat:
            continue
        if answer != z3.sat:
            return plugin.ProofOutcome(Verdict.UNKNOWN, n, f"Z3 answered {answer} at n = {n}")
        model = canonical_model(formula, minimize=b - a)
        value = lambda t: model.eval(t, model_completion=True).as_long()   # noqa: E731
        low, high = value(a), value(b)
        ranges = [(value(lo[i]) - low, value(hi[i]) - low) for i in range(n)]
        space = C.Space(0, high - low, tuple(ranges))
        if len(C.pieces(space)) <= bound(n):
            return plugin.ProofOutcome(Verdict.UNKNOWN, n, f"the encoding disagrees with the spec at n = {n}")
        document = {"algorithm": C.ALGORITHM, "property": prop,
                    "reading": "previous/kept", "method": "z3", "kind": "space", "low": space.low,
                    "high": space.high, "ranges": [list(r) for r in space.ranges]}
        fewer = (f"no space of fewer than {n} ranges has more than {printed} pieces (Z3: unsat for "
                 f"n = {'1' if n == 2 else f'1..{n - 1}'}); " if n > 1 else "")
        shown = ", ".join(f"[{x}, {y}]" for x, y in ranges)
        return plugin.ProofOutcome(Verdict.VIOLATED, n, f"{fewer}{n} ranges {shown} cut [0, {space.high}] into "
                                   f"{len(C.pieces(space))} pieces (the narrowest such space)", document)
    return plugin.ProofOutcome(Verdict.UNKNOWN, len(PRINTED_BOUND_SIZES),
                               f"no counterexample with up to {PRINTED_BOUND_SIZES[-1]} ranges")


def height_step() -> plugin.ProofOutcome:
    """The balanced tree of N >= 2 nodes has a root and subtrees of N // 2 and N - 1 - N // 2 nodes
    (spec.crawl.balanced_tree splits at the middle), the first no smaller, so its height is
    1 + height(N // 2). If 2^h <= N // 2 < 2^(h+1), then 2^(h+1) <= N < 2^(h+2): Z3 proves it with
    p = 2^h for every N and every p >= 1, so by induction from height(1) = 0 the height is
    floor(log2 N) for every N."""
    n, p = z3.Ints("N p")
    half = n / 2
    return _lemma(z3.Implies(z3.And(n >= 2, p >= 1, p <= half, half < 2 * p),
                             z3.And(2 * p <= n, n < 4 * p, half >= n - 1 - half)),
                  "2^h <= N // 2 < 2^(h+1) implies 2^(h+1) <= N < 2^(h+2), and the left subtree (N // 2 nodes) is "
                  "never smaller than the right, for every N >= 2", "the induction step")
