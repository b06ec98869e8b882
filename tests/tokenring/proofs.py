"""The one-token invariant by induction in Z3, for rings of every size: processes are an
unbounded sort, `nxt` the ring's successor function and `zero` the first process. The encoding of
a pass is cross-checked against spec.pass_token on every state of small concrete rings first."""

from __future__ import annotations

import itertools

import z3

from checks import induction as Z
from checks.plugin import ProofOutcome
from checks.verdict import Verdict
from tokenring import spec as T

NODE = "Process"


def system(reading: T.Reading) -> Z.System:
    def init(s):
        x = z3.Const("x", s.system.sort(NODE))
        return z3.ForAll([x], s.token(x) == (x == s.zero))

    def pass_token(pre, post, i):
        x = z3.Const("x", pre.system.sort(NODE))
        wraps = pre.nxt(i) == pre.zero
        keeps = z3.BoolVal(False) if reading.clear_at_wrap else wraps   # the sender keeps its token
        return z3.And(pre.token(i), z3.ForAll([x], post.token(x) == z3.Or(
            x == pre.nxt(i), z3.And(pre.token(x), x != i), z3.And(x == i, keeps))))

    def at_most_one(s):
        x, y = z3.Consts("x y", s.system.sort(NODE))
        return z3.ForAll([x, y], z3.Implies(z3.And(s.token(x), s.token(y)), x == y))

    def at_least_one(s):
        x = z3.Const("h", s.system.sort(NODE))
        return z3.Exists([x], s.token(x))

    return Z.System(
        sorts=(NODE,),
        symbols=(Z.function("nxt", NODE, to=NODE, mutable=False), Z.constant("zero", NODE, mutable=False),
                 Z.relation("token", NODE)),
        init=init, actions={"pass": Z.Action(pass_token, ("token",), {"i": NODE})},
        invariants={"at most one token": at_most_one, "at least one token": at_least_one},
        safety={"exactly one token": lambda s: z3.And(at_most_one(s), at_least_one(s))},
        sometimes={"the token left process 0": lambda s: z3.Not(s.token(s.zero))},
        name=f"token ring ({reading.name})")


def concrete(state: T.State) -> dict:
    n = len(state)
    names = [f"p{i}" for i in range(n)]
    return {"universe": {NODE: names}, "constants": {"zero": "p0"},
            "relations": {"token": [[names[i]] for i in range(n) if state[i]]},
            "functions": {"nxt": {names[i]: names[(i + 1) % n] for i in range(n)}}}


def cross_check(reading: T.Reading, sizes=(2, 3)) -> int:
    """Mismatches between the encoded pass and spec.pass_token on every token placement."""
    sys_ = system(reading)
    mismatches = 0
    for n in sizes:
        for state in itertools.product((False, True), repeat=n):
            for i in (k for k in range(n) if state[k]):
                after = T.pass_token(state, i, reading)
                wrong = tuple(not t if k == 0 else t for k, t in enumerate(after))
                mismatches += not Z.step_holds(sys_, "pass", concrete(state), concrete(after), {"pass.i": f"p{i}"})
                mismatches += Z.step_holds(sys_, "pass", concrete(state), concrete(wrong), {"pass.i": f"p{i}"})
    return mismatches


def prove(reading: T.Reading) -> ProofOutcome:
    if cross_check(reading):
        return ProofOutcome(Verdict.UNKNOWN, 0, "the encoding of a pass disagrees with the spec")
    result = Z.prove_inductive(system(reading))
    return Z.as_outcome(result, {"algorithm": T.ALGORITHM, "property": "exactly_one_token",
                                 "reading": reading.name, "method": "z3"})
