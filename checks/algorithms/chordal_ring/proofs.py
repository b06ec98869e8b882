"""The chordal ring's Z3 proofs.

1. The join by induction, for rings of every size (checks.induction, mypyvy-style): brokers are an
   unbounded sort `Node`, their identifiers a ring order `btw` (the ring axioms: going round from
   x, y comes strictly before z), and the state is who is a member and the four pointers, each a
   relation (so that every query is in EPR, which Z3 decides, for proofs and counterexamples to
   induction alike). Each join's assignments are the spec's, in the printed order, so that a later
   line overrides an earlier one where Ly, Ry and LLy are one broker. The new broker's identifier
   is abstracted to a position strictly inside the gap its branch splits, which lemma 2 shows the
   corrected midpoint is. Invariants: pointers join members and name one broker each, Left is the
   inverse of Right, Leftleft and Rightright are two steps (both ways), a broker that is its own
   Right is alone, and no member lies between a member and its Right in the order. Two steps are
   argued, not encoded: that every member has its four pointers (under the complete pointer
   lines each branch, and the second join, writes all four of the broker it adds, and a line
   replaces a pointer, never removes one; stating it takes an existential, which leaves EPR),
   and that Right then goes round every broker once (it is the next member in a total order).
2. The midpoint arithmetic on 32-bit bit-vectors: `id[Ly] + ((id[y] - id[Ly]) mod 2^32)/2`
   wraps correctly, lands strictly inside the gap whenever the gap is at least 2 (and on Ly
   itself when it is 1, which is why the corrected branch asks for 2), at half the gap; the
   printed left identifier `id[y] + gap/2` lands inside the gap exactly when gap + gap/2 exceeds
   2^32, a gap above two thirds of the space (and on Ly's own identifier when it equals 2^32).

3. The degree-4 ring's vertex connectivity for every size n >= 5 (an integer): a broker one or two
   places on is linked; three failed brokers hold no two disjoint pairs of neighbours and leave a
   live broker; four (i - 2, i - 1, i + 1, i + 2) cut broker i off. The step to
   survives_three_failures is argued: going round the live brokers in identifier order, each is
   linked to the next unless two failed brokers side by side lie between them, which happens at
   most once, so the live brokers lie on a path; chords only add links. The encoded links are held
   to the spec's Neighsets on rings of 5 to 16.

The join's and the midpoint's encodings are held to the spec: every join of every contact sequence up to 6 brokers is a
step of the encoded action between the concrete states, and a wrong post-state is not. The ring
order of those states is the identifiers' where the claim is about identifiers; for the claim on
pointers alone it is the order Right gives, so a reading whose identifiers are out of order
(printed-left-id) is judged on its pointer lines there and refuted on its identifiers by the
exhaustive search.
"""

from __future__ import annotations

import itertools

import z3

from checks import induction as Z
from checks.plugin import ProofOutcome, in_words
from checks.verdict import Verdict
from spec import chordal_ring as C

NODE = "Node"
POINTERS = C.POINTERS


# --------------------------------------------------------------------------------------------
# 1. The join by induction
# --------------------------------------------------------------------------------------------

# Each pointer is a relation, `right(x, z)`: "Right of x is z", so that every formula is in EPR
# (no function symbols), where Z3 decides both answers: a proof and a counterexample to induction
# alike. That a pointer names one broker and every member has one are invariants.
ACTION_PARAMS = {"second": ("y", "b"), "join_left": ("y", "b", "ly", "ry", "lly"),
                 "join_right": ("y", "b", "ly", "ry", "rry")}


def _lines(side: str, reading: C.Reading, y, b, ly, ry, far) -> list[tuple[str, object, object]]:
    """The branch's assignments (pointer, broker, value) in the printed order, the spec's
    (spec.chordal_ring.branch_lines) over Z3 constants; `far` is LLy on the left and RRy on the
    right."""
    names = {"y": y, "b": b, "ly": ly, "ry": ry, "far": far}
    return [(field, names[at], names[value]) for at, field, value in C.branch_lines(side, reading)]


def _after(pre, post, lines, b) -> z3.BoolRef:
    """The post-state: b a member, and each pointer as the lines leave it (a later line wins)."""
    x, z = z3.Consts("x z", pre.system.sort(NODE))
    parts = [z3.ForAll([x], post.member(x) == z3.Or(pre.member(x), x == b))]
    for pointer in POINTERS:
        value = pre[pointer](x, z)
        for name, at, v in lines:
            if name == pointer:
                value = z3.If(x == at, z == v, value)
        parts.append(z3.ForAll([x, z], post[pointer](x, z) == value))
    return z3.And(*parts)


def system(reading: C.Reading) -> Z.System:
    def init(s):
        x, z = z3.Consts("x z", s.system.sort(NODE))
        first = z3.Const("first", s.system.sort(NODE))
        return z3.And(z3.ForAll([x], s.member(x) == (x == first)),
                      *(z3.ForAll([x, z], s[p](x, z) == z3.And(x == first, z == first)) for p in POINTERS))

    def second(pre, post, y, b):
        # sec. 3.2's own rule: a ring of one takes the second broker, every pointer forced
        lines = [("left", y, b), ("right", y, b), ("leftleft", y, y), ("rightright", y, y),
                 ("left", b, y), ("right", b, y), ("leftleft", b, b), ("rightright", b, b)]
        return z3.And(pre.member(y), pre.right(y, y), z3.Not(pre.member(b)), _after(pre, post, lines, b))

    def join(side: str):
        def body(pre, post, y, b, ly, ry, **far):
            (far,) = far.values()
            gap = pre.btw(ly, b, y) if side == "left" else pre.btw(y, b, ry)
            # the printed branch saves LLy (RRy) and never uses it: no constraint, since the pointer
            # it reads may be one an earlier printed join left unset
            reads = z3.BoolVal(True) if reading.pointers == "printed" else \
                pre.leftleft(y, far) if side == "left" else pre.rightright(y, far)
            return z3.And(pre.member(y), z3.Not(pre.member(b)), z3.Not(pre.right(y, y)),
                          pre.left(y, ly), pre.right(y, ry), reads, gap,
                          _after(pre, post, _lines(side, reading, y, b, ly, ry, far), b))
        return body

    def every(s, body):
        x, y, z = z3.Consts("x y z", s.system.sort(NODE))
        return z3.ForAll([x, y, z], body(x, y, z))

    def some_member(s):
        x = z3.Const("x", s.system.sort(NODE))
        return z3.Exists([x], s.member(x))

    def members_only(s):
        return every(s, lambda x, y, z: z3.And(*(z3.Implies(s[p](x, y), z3.And(s.member(x), s.member(y)))
                                                 for p in POINTERS)))

    def one_each(s):
        return every(s, lambda x, y, z: z3.And(*(z3.Implies(z3.And(s[p](x, y), s[p](x, z)), y == z)
                                                 for p in POINTERS)))

    def inverse(s):
        return every(s, lambda x, y, z: s.right(x, y) == s.left(y, x))

    def two_step(s):
        return every(s, lambda x, y, z: z3.And(z3.Implies(z3.And(s.left(x, y), s.left(y, z)), s.leftleft(x, z)),
                                               z3.Implies(z3.And(s.right(x, y), s.right(y, z)), s.rightright(x, z))))

    def two_step_back(s):
        # the converse, without saying that a pointer is set (which would take an existential,
        # and leave EPR): where Leftleft(x) = z and Left(x) = y, Left(y) = z
        return every(s, lambda x, y, z: z3.And(z3.Implies(z3.And(s.leftleft(x, z), s.left(x, y)), s.left(y, z)),
                                               z3.Implies(z3.And(s.rightright(x, z), s.right(x, y)), s.right(y, z))))

    def alone(s):
        # a member that is its own Right is the only one (the second join's precondition)
        return every(s, lambda x, y, z: z3.Implies(z3.And(s.right(x, x), s.member(z)), z == x))

    def next_member(s):
        return every(s, lambda x, y, z: z3.Implies(z3.And(s.right(x, y), s.member(z)), z3.Not(s.btw(x, z, y))))

    def four_members(s):
        a, b, c, d = z3.Consts("a b c d", s.system.sort(NODE))
        return z3.Exists([a, b, c, d], z3.And(z3.Distinct(a, b, c, d), *(s.member(v) for v in (a, b, c, d))))

    pointer_invariants = {"pointers join members": members_only, "a pointer names one broker": one_each,
                          "left is the inverse of right": inverse,
                          "leftleft and rightright are two steps": two_step,
                          "two steps back are left and right": two_step_back,
                          "a member that is its own right is alone": alone}
    return Z.System(
        sorts=(NODE,),
        symbols=(Z.relation("btw", NODE, NODE, NODE, mutable=False), Z.relation("member", NODE),
                 *(Z.relation(p, NODE, NODE) for p in POINTERS)),
        axioms=Z.ring_axioms("btw"), init=init,
        actions={name: Z.Action(body, POINTERS + ("member",), {p: NODE for p in ACTION_PARAMS[name]})
                 for name, body in (("second", second), ("join_left", join("left")), ("join_right", join("right")))},
        invariants={"a member": some_member, **pointer_invariants, "right is the next member": next_member},
        safety={"pointers agree": lambda s: z3.And(*(p(s) for p in pointer_invariants.values())),
                "ring order": next_member},
        sometimes={"four brokers": four_members},
        name=f"chordal ring join ({reading.name})")


def _state(ring: C.Ring, members: int, rank: dict[int, int]) -> dict:
    """A spec ring as a concrete state: its first `members` brokers members, the rest not (with no
    pointers), the ring order `rank`; an unset pointer is no pair."""
    n = len(ring)
    names = [f"b{h}" for h in range(n)]

    def btw(x, y, z):
        return (rank[y] - rank[x]) % n < (rank[z] - rank[x]) % n

    relations = {"member": [[names[h]] for h in range(members)],
                 "btw": sorted([names[x], names[y], names[z]] for x, y, z in itertools.permutations(range(n), 3)
                               if btw(x, y, z))}
    for k, pointer in enumerate(POINTERS):
        relations[pointer] = sorted([names[h], names[ring[h].pointers()[k]]] for h in range(members)
                                    if ring[h].pointers()[k] is not None)
    return {"universe": {NODE: names}, "constants": {}, "relations": relations, "functions": {}}


def step_states(run: C.JoinRun, by: str = "ids") -> tuple[dict, dict]:
    """A join as (pre, post) concrete states on one universe: the ring before with the new broker
    a non-member, and the ring after. The ring order `btw` is the identifiers' (`by="ids"`, ties by
    handle), or the one Right gives after the join (`by="right"`: every reading writes Right in
    full), for the claim on pointers alone, which reads no identifier."""
    after = run.after
    if by == "ids":
        cycle = C.in_id_order(after)
    else:
        cycle = C.order(after)
        if len(cycle) != len(after):
            raise ValueError("Right does not go round the ring after the join")
    rank = {h: i for i, h in enumerate(cycle)}
    padded = C.Ring(after.bits, run.before.brokers + (after[run.new],))
    return _state(padded, len(run.before), rank), _state(after, len(after), rank)


ACTIONS = {"second": "second", "left": "join_left", "right": "join_right"}


def step_params(run: C.JoinRun, reading: C.Reading) -> dict[str, str]:
    """The encoded action's parameters for a spec join: y the broker that took the request, b the
    new one, and the pointers of y the branch reads."""
    action = ACTIONS[run.side]
    y = run.visited[-1]
    me = run.before[y]
    values = {"y": y, "b": run.new, "ly": me.left, "ry": me.right, "lly": me.leftleft, "rry": me.rightright}
    unused = ("lly", "rry") if reading.pointers == "printed" else ()     # saved, passed only to the backups
    return {f"{action}.{p}": f"b{values[p]}" for p in ACTION_PARAMS[action] if p not in unused}


def cross_check(reading: C.Reading, brokers: int = 6, bits: int = 32, by: str = "ids") -> tuple[int, int]:
    """(steps checked, mismatches): every join of every contact sequence up to `brokers` brokers
    is a step of the encoded action (its ring order `by` step_states'), and, for every join up to
    `brokers - 1` brokers (every branch, on rings of every shape but the largest, whose joins are
    most of the Z3 calls), the same post-state with the new broker's Right, or its Left, changed
    is not."""
    sys_ = system(reading)
    checked = mismatches = 0
    frontier, seen = [C.run_joins([None], reading, bits)[-1].after], set()
    for level in range(brokers - 1):
        following = []
        for ring in frontier:
            for contact in range(len(ring)):
                run = C.join_overlay(ring, contact, reading)
                if run.outcome != C.JOINED:
                    continue
                if run.after not in seen:
                    seen.add(run.after)
                    following.append(run.after)
                pre, post = step_states(run, by)
                action, params = ACTIONS[run.side], step_params(run, reading)
                checked += 1
                mismatches += not Z.step_holds(sys_, action, pre, post, params)
                if level == brokers - 2:
                    continue
                new = f"b{run.new}"
                for pointer in ("right", "left"):
                    moved = [pair for pair in post["relations"][pointer] if pair[0] != new] + [[new, new]]
                    wrong = {**post, "relations": {**post["relations"], pointer: sorted(moved)}}
                    mismatches += Z.step_holds(sys_, action, pre, wrong, params)
        frontier = following
    return checked, mismatches


def prove_join(reading: C.Reading, prop: str, by: str = "ids") -> ProofOutcome:
    """The induction for `prop`, after the cross-check with the ring order `by` (step_states):
    "right" for pointers_agree, which reads no identifier, "ids" where the order is the claim."""
    checked, mismatches = cross_check(reading, by=by)
    if mismatches:
        return ProofOutcome(Verdict.UNKNOWN, 0, f"the encoded join disagrees with the spec on {mismatches} of "
                                                f"{checked} joins")
    result = Z.prove_inductive(system(reading), confirm_steps=2, witness_steps=3)
    outcome = Z.as_outcome(result, {"algorithm": C.ALGORITHM, "property": prop, "reading": reading.name,
                                    "method": "z3"})
    return ProofOutcome(outcome.verdict, outcome.cases,
                        f"{outcome.detail} (the encoding agrees with the spec on {checked} joins)", outcome.document)


# --------------------------------------------------------------------------------------------
# 2. The midpoint arithmetic on 32-bit identifiers
# --------------------------------------------------------------------------------------------

def midpoint_lemmas(bits: int = C.PAPER_BITS, timeout_ms: int = 20000) -> dict[str, str]:
    """Each lemma's answer: "proved" (unsat negation), or the counterexample's numbers."""
    low, high = z3.BitVecs("low high", bits)
    gap = high - low                                   # (id[y] - id[Ly]) mod 2^bits
    mid = low + z3.LShR(gap, 1)
    inside = lambda v: z3.And(z3.ULT(v - low, gap), v != low)   # noqa: E731  strictly inside (low, high)
    out = {}

    def ask(name: str, claim) -> None:
        s = z3.Solver()
        s.set("timeout", timeout_ms)
        s.add(z3.Not(claim))
        status = s.check()
        if status == z3.unsat:
            out[name] = "proved"
        elif status == z3.sat:
            m = s.model()
            out[name] = f"fails at low = {m.eval(low)}, high = {m.eval(high)}"
        else:
            out[name] = "unknown"

    # the wide arithmetic: Python's (low + (high - low) mod 2^b // 2) mod 2^b is the bit-vector value
    wide_low, wide_high = z3.ZeroExt(1, low), z3.ZeroExt(1, high)
    wide_gap = z3.URem(wide_high - wide_low + (1 << bits), 1 << bits)
    wide_mid = z3.URem(wide_low + z3.UDiv(wide_gap, 2), 1 << bits)
    ask("the 32-bit midpoint equals the exact one (no overflow)", z3.ZeroExt(1, mid) == wide_mid)
    ask("a gap of at least 2 puts the midpoint strictly between the neighbours",
        z3.Implies(z3.UGE(gap, 2), inside(mid)))
    ask("the midpoint is half the gap from the left neighbour", z3.Implies(z3.UGE(gap, 2), mid - low == z3.LShR(gap, 1)))
    ask("a gap of 1 gives the left neighbour's identifier again", z3.Implies(gap == 1, mid == low))
    printed = high + z3.LShR(gap, 1)                    # id[y] + (id[y] - id[Ly])/2
    wide_gap = z3.ZeroExt(2, gap)
    ask("the printed left identifier is inside the gap exactly when gap + gap/2 exceeds 2^32",
        z3.Implies(z3.UGE(gap, 2), inside(printed) == z3.UGT(wide_gap + z3.LShR(wide_gap, 1), 1 << bits)))
    ask("the printed left identifier is inside the gap", z3.Implies(z3.UGE(gap, 2), inside(printed)))
    return out


CORRECTED_LEMMAS = ("the 32-bit midpoint equals the exact one (no overflow)",
                    "a gap of at least 2 puts the midpoint strictly between the neighbours",
                    "the midpoint is half the gap from the left neighbour")


def prove_midpoint() -> ProofOutcome:
    """The corrected branch's arithmetic, for every pair of 32-bit identifiers: the lemmas that
    new_id_midway and ids_unique_in_ring_order rest on, with the join's induction."""
    lemmas = midpoint_lemmas()
    verdict = Verdict.PROVED if all(lemmas[k] == "proved" for k in CORRECTED_LEMMAS) else \
        Verdict.UNKNOWN if any(lemmas[k] == "unknown" for k in CORRECTED_LEMMAS) else Verdict.VIOLATED
    return ProofOutcome(verdict, len(CORRECTED_LEMMAS), "; ".join(f"{k}: {lemmas[k]}" for k in CORRECTED_LEMMAS))


# --------------------------------------------------------------------------------------------
# 3. The degree-4 ring's vertex connectivity, for every size
# --------------------------------------------------------------------------------------------

def adjacent(n, x, y) -> z3.BoolRef:
    """Positions x and y (0..n-1, in identifier order) are linked in C_n(1, 2): one or two apart
    either way round (spec.chordal_ring.neighsets with no chords)."""
    d = (y - x) % n
    return z3.And(x != y, z3.Or(d == 1, d == 2, d == n - 1, d == n - 2))


def _ask(claim, timeout_ms: int = 20000) -> str:
    s = z3.Solver()
    s.set("timeout", timeout_ms)
    s.add(z3.Not(claim))
    status = s.check()
    if status == z3.sat:
        m = s.model()
        return "fails at " + ", ".join(f"{d.name()} = {m[d]}" for d in sorted(m.decls(), key=str) if d.arity() == 0)
    return "proved" if status == z3.unsat else "unknown"


def connectivity_lemmas(failures: int = 3) -> dict[str, str]:
    """Each lemma's answer over an unbounded ring size n (an integer) and `failures` failed
    positions (equal ones stand for fewer failures)."""
    n, i, x = z3.Ints("n i x")
    down = z3.Ints(" ".join(f"f{k}" for k in range(failures)))
    k = in_words(failures)
    within = lambda *vs: z3.And(*[z3.And(0 <= v, v < n) for v in vs])     # noqa: E731
    failed = lambda v: z3.Or(*[v % n == f for f in down])                  # noqa: E731
    # each lemma over free constants, valid when its negation is unsat (a counterexample names them)
    lemmas = {
        # the links two apart carry a walk past one failed broker
        "a broker one or two places on is linked (n >= 5)":
            z3.Implies(z3.And(n >= 5, within(x)), z3.And(adjacent(n, x, (x + 1) % n), adjacent(n, x, (x + 2) % n))),
        # so going round in identifier order, a live broker reaches the next live one unless two
        # failed brokers side by side lie between them; three failures leave at most one such pair
        f"{k} failed brokers hold no two disjoint pairs of neighbours (n >= 5)":
            z3.Implies(z3.And(n >= 5, within(i, x, *down), failed(i), failed(i + 1), failed(x), failed(x + 1)),
                       z3.Or(i == x, (i + 1) % n == x, (x + 1) % n == i)),
        f"{k} failed brokers leave a live one among positions 0..{failures} (n >= 5)":
            z3.Implies(z3.And(n >= 5, within(*down)), z3.Or(*[z3.Not(failed(z3.IntVal(p))) for p in range(failures + 1)])),
        # and four can cut the ring: the broker between two failed pairs keeps no live link
        "four failed brokers i-2, i-1, i+1, i+2 cut broker i off (n >= 6)":
            z3.Implies(z3.And(n >= 6, within(i, x), adjacent(n, i, x)),
                       z3.Or(x == (i + 1) % n, x == (i + 2) % n, x == (i - 1) % n, x == (i - 2) % n)),
    }
    return {name: _ask(claim) for name, claim in lemmas.items()}


def cross_check_links(sizes=range(5, 17)) -> int:
    """The encoded links against the spec's Neighsets (no chords) on rings of every size given,
    every pair of positions: the number of pairs compared; a ValueError at the first difference."""
    compared = 0
    for size in sizes:
        ring = C.run_joins([None] + [0] * (size - 1), C.CORRECTED)[-1].after
        order, links = C.in_id_order(ring), C.neighsets(ring, "none")
        for px, py in itertools.product(range(size), repeat=2):
            encoded = z3.is_true(z3.simplify(adjacent(z3.IntVal(size), z3.IntVal(px), z3.IntVal(py))))
            if encoded != (order[py] in links[order[px]]):
                raise ValueError(f"the encoded links differ from the spec's on a ring of {size}: positions {px}, {py}")
            compared += 1
    return compared


# --------------------------------------------------------------------------------------------
# 4. Sec. 3.1's degree-3 ring: any two failures leave it connected, for every size
# --------------------------------------------------------------------------------------------

def wrapped(n, v) -> z3.ArithRef:
    """v mod n for -n <= v < 2n: one wrap at most, so linear arithmetic."""
    return z3.If(v < 0, v + n, z3.If(v >= n, v - n, v))


def chord_partner(n, c, v) -> z3.ArithRef:
    """The other end of position v's chord in sec. 3.1's ring (even v: v - c, odd v: v + c, mod n),
    for 0 <= v < n and 0 < c < n."""
    return z3.If(v % 2 == 0, wrapped(n, v - c), wrapped(n, v + c))


# two failed positions x < y cut the ring links into the arcs x+1..y-1 and y+1..x-1 (each a path);
# the rest stays connected exactly when one arc is empty or a chord joins the two. The chord
# is always found among the two brokers beside each failed one, on either arc (searched first on
# every even n up to 60, then proved here for every n)
ARC_ENDS = ((1, "x"), (2, "x"), (-1, "y"), (-2, "y"), (1, "y"), (2, "y"), (-1, "x"), (-2, "x"))


def third_degree_lemma(lowest_c: int = 3, timeout_ms: int = 20000) -> str:
    """Whether every two failed positions of sec. 3.1's ring (an unbounded even n >= 6, an odd c
    from `lowest_c` to n - 3) leave the rest connected: "proved", or the counterexample."""
    n, c, x, y = z3.Ints("n c x y")
    in_a = lambda p: z3.And(x < p, p < y)                               # noqa: E731
    in_b = lambda p: z3.Or(p > y, p < x)                                # noqa: E731
    crossing = []
    for offset, side in ARC_ENDS:
        v = wrapped(n, (x if side == "x" else y) + offset)
        mine, other = (in_a, in_b) if (offset > 0) == (side == "x") else (in_b, in_a)   # x+1, x+2, y-1, y-2 in A
        w = chord_partner(n, c, v)
        crossing.append(z3.And(mine(v), other(w)))
    premise = z3.And(n >= 6, n % 2 == 0, c % 2 == 1, lowest_c <= c, c <= n - 3,
                     0 <= x, x < y, y < n, y - x >= 2, x + n - y >= 2)
    return _ask(z3.Implies(premise, z3.Or(*crossing)), timeout_ms)


def cross_check_third_degree(sizes=range(6, 21, 2)) -> int:
    """The encoded chord partner against spec.chordal_ring.third_degree_links on every even n and
    odd c given: the number of positions compared; a ValueError at the first difference."""
    compared = 0
    for n in sizes:
        for c in range(1, n, 2):
            links = C.third_degree_links(n, c)
            for v in range(n):
                w = z3.simplify(chord_partner(z3.IntVal(n), z3.IntVal(c), z3.IntVal(v))).as_long()
                ring = {(v + 1) % n, (v - 1) % n}
                if links[v] != frozenset(ring | {w}) - {v}:
                    raise ValueError(f"the encoded chord differs from the spec's at n = {n}, c = {c}, node {v}")
                compared += 1
    return compared


def prove_three_failures() -> ProofOutcome:
    """survives_three_failures for rings of every size: the lemmas proved, the step argued."""
    lemmas = connectivity_lemmas()
    pairs = cross_check_links()
    verdict = Verdict.PROVED if all(v == "proved" for v in lemmas.values()) else \
        Verdict.UNKNOWN if any(v == "unknown" for v in lemmas.values()) else Verdict.VIOLATED
    return ProofOutcome(verdict, len(lemmas), "; ".join(f"{k}: {v}" for k, v in lemmas.items())
                        + f" (the encoded links agree with the spec's on {pairs} pairs of positions, rings of 5 to 16)")
