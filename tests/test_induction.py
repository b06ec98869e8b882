"""checks.induction on a toy ring: members on an abstract ring (`btw`), a `succ` pointer relation,
`join` inserting a node between n and succ(n), `leave` splicing a member out. Every counterexample
Z3 gives back is checked again in plain Python on its concrete states."""

from __future__ import annotations

import itertools
import json

import attrs
import pytest
import z3

from checks import induction
from checks.induction import (Action, System, as_outcome, check_cti, frame, prove_inductive, reachable,
                              relation, ring_axioms, trace)
from checks.plugin import ProofOutcome
from checks.verdict import Verdict

pytestmark = pytest.mark.usefixtures("fresh_z3")

NODE = "Node"


def q(s, n, body):
    xs = [z3.Const(f"v{i}", s.system.sort(NODE)) for i in range(n)]
    return z3.ForAll(xs, body(*xs))


def at_least(s, k):
    xs = [z3.Const(f"a{i}", s.system.sort(NODE)) for i in range(k)]
    return z3.Exists(xs, z3.And(*[s.member(x) for x in xs], z3.Distinct(*xs)))


def next_member(s):
    """Every member's succ is the next member on the ring: no member strictly between."""
    return q(s, 3, lambda x, y, z: z3.Implies(z3.And(s.succ(x, y), s.member(z)), z3.Not(s.btw(x, z, y))))


STRENGTHENING = {
    "succ in members": lambda s: q(s, 2, lambda x, y: z3.Implies(s.succ(x, y), z3.And(s.member(x), s.member(y)))),
    "succ functional": lambda s: q(s, 3, lambda x, y, z: z3.Implies(z3.And(s.succ(x, y), s.succ(x, z)), y == z)),
    "succ total": lambda s: q(s, 1, lambda x: z3.Implies(
        s.member(x), z3.Exists([w := z3.Const("w", s.system.sort(NODE))], s.succ(x, w)))),
    "self loop only alone": lambda s: q(s, 2, lambda x, z: z3.Implies(z3.And(s.succ(x, x), s.member(z)), z == x)),
    "next member": next_member,
}


def ring(bug: str | None = None, strengthen: bool = True, bad_init: bool = False) -> System:
    def init(s):
        r = z3.Const("root", s.system.sort(NODE))   # an existential parameter of init
        succ = z3.BoolVal(False) if bad_init else None
        return z3.And(q(s, 1, lambda x: s.member(x) == (x == r)),
                      q(s, 2, lambda x, y: s.succ(x, y) == (succ if bad_init else z3.And(x == r, y == r))))

    def join(pre, post, j, n, s):
        new_succ = n if bug == "join points back" else s
        return z3.And(z3.Not(pre.member(j)), pre.member(n), pre.succ(n, s), z3.Or(pre.btw(n, j, s), n == s),
                      q(pre, 1, lambda x: post.member(x) == z3.Or(pre.member(x), x == j)),
                      q(pre, 2, lambda x, y: post.succ(x, y) == z3.Or(
                          z3.And(pre.succ(x, y), x != n), z3.And(x == n, y == j), z3.And(x == j, y == new_succ))))

    def leave(pre, post):   # a plain action: its parameters are its free constants, its frame explicit
        v, p, s = (z3.Const(name, pre.system.sort(NODE)) for name in ("v", "p", "s"))
        return z3.And(pre.member(v), pre.succ(p, v), pre.succ(v, s), p != v,
                      q(pre, 1, lambda x: post.member(x) == z3.And(pre.member(x), x != v)),
                      q(pre, 2, lambda x, y: post.succ(x, y) == z3.Or(
                          z3.And(pre.succ(x, y), x != p, x != v), z3.And(x == p, y == s))),
                      frame(pre, post, ("member", "succ")))

    return System(
        sorts=(NODE,),
        symbols=(relation("btw", NODE, NODE, NODE, mutable=False), relation("member", NODE),
                 relation("succ", NODE, NODE)),
        axioms=ring_axioms("btw"), init=init,
        actions={"join": Action(join, ("member", "succ"), {"j": NODE, "n": NODE, "s": NODE}), "leave": leave},
        invariants=STRENGTHENING if strengthen else {"next member": next_member},
        safety={"next member": next_member},
        sometimes={"three members": lambda s: at_least(s, 3)},
        name="toy ring")


# --------------------------------------------------------------------------------------------
# The same ring in plain Python, on the concrete states Z3 gives back
# --------------------------------------------------------------------------------------------

def rel(state, name):
    return {tuple(t) for t in state["relations"][name]}


def nodes(state):
    return state["universe"][NODE]


def is_ring_order(state) -> bool:
    btw, ns = rel(state, "btw"), nodes(state)
    for w, x, y, z in itertools.product(ns, repeat=4):
        if (w, x, y) in btw and (w, y, z) in btw and (w, x, z) not in btw:
            return False
        if (w, x, y) in btw and (w, y, x) in btw:
            return False
        if len({w, x, y}) == 3 and (w, x, y) not in btw and (w, y, x) not in btw:
            return False
        if (x, y, z) in btw and (y, z, x) not in btw:
            return False
    return True


def py_invariants(state) -> dict[str, bool]:
    member, succ, btw, ns = rel(state, "member"), rel(state, "succ"), rel(state, "btw"), nodes(state)
    member = {m for (m,) in member}
    return {
        "succ in members": all(x in member and y in member for x, y in succ),
        "succ functional": all(y == z for (x, y), (x2, z) in itertools.product(succ, succ) if x == x2),
        "succ total": all(any((x, y) in succ for y in ns) for x in member),
        "self loop only alone": all(z == x for (x, y) in succ if x == y for z in member),
        "next member": all((x, z, y) not in btw for (x, y) in succ for z in member),
    }


def py_step(pre, action, params, bug=None):
    """The post-state (member, succ) of an action in Python, or None where its guard fails."""
    member, succ, btw = {m for (m,) in rel(pre, "member")}, rel(pre, "succ"), rel(pre, "btw")
    if action == "join":
        j, n, s = params["join.j"], params["join.n"], params["join.s"]
        if j in member or n not in member or (n, s) not in succ or not ((n, j, s) in btw or n == s):
            return None
        new_succ = n if bug == "join points back" else s
        return member | {j}, {(x, y) for x, y in succ if x != n} | {(n, j), (j, new_succ)}
    v, p, s = params["v"], params["p"], params["s"]
    if v not in member or (p, v) not in succ or (v, s) not in succ or p == v:
        return None
    return member - {v}, {(x, y) for x, y in succ if x not in (p, v)} | {(p, s)}


def assert_step(pre, post, action, params, bug=None):
    expected = py_step(pre, action, params, bug)
    assert expected is not None, f"{action} {params} is not enabled in the pre-state"
    assert ({m for (m,) in rel(post, "member")}, rel(post, "succ")) == expected
    assert rel(post, "btw") == rel(pre, "btw") and nodes(post) == nodes(pre)


def assert_run(system_trace, bug=None):
    first = system_trace.states[0]
    root = system_trace.init_params["root"]
    assert rel(first, "member") == {(root,)} and rel(first, "succ") == {(root, root)}
    for state in system_trace.states:
        assert is_ring_order(state)
    for pre, step, post in zip(system_trace.states, system_trace.steps, system_trace.states[1:]):
        assert_step(pre, post, step["action"], step["params"], bug)


# --------------------------------------------------------------------------------------------
# The checks
# --------------------------------------------------------------------------------------------

def test_ring_is_proved_for_every_size():
    result = prove_inductive(ring(), timeout_ms=20000)
    assert result.verdict is Verdict.PROVED, result.detail
    assert set(result.queries.values()) <= {"sat", "unsat", "reached"}
    assert result.cases == 1 + 5 + 2 * (1 + 5) + 1 + 1  # init, initiation, enabled+consecution, safety, witness
    witness = result.witnesses["three members"]
    assert len(witness.steps) == 2 and len(rel(witness.states[-1], "member")) == 3
    assert_run(witness)
    outcome = as_outcome(result, {"algorithm": "toy", "property": "next member"})
    assert isinstance(outcome, ProofOutcome)
    assert (outcome.verdict, outcome.cases, outcome.document) == (Verdict.PROVED, result.cases, None)


def test_planted_bug_gives_a_cti_that_really_breaks_the_invariant():
    bug = "join points back"
    system = ring(bug=bug)
    result = prove_inductive(system, timeout_ms=20000)
    cti = result.cti
    assert cti is not None and (cti.action, cti.invariant) == ("join", "next member")
    # in Python, on the concrete states: a ring order, every invariant before, the buggy join, broken after
    assert is_ring_order(cti.pre) and is_ring_order(cti.post)
    assert all(py_invariants(cti.pre).values())
    assert_step(cti.pre, cti.post, "join", cti.params, bug)
    assert py_invariants(cti.post)["next member"] is False
    assert check_cti(system, json.loads(json.dumps(cti.as_json())))
    assert not check_cti(ring(), cti)        # the correct join does not lead to that post-state
    # the bug is real: a run from init reaches it, so the verdict is violated
    assert result.verdict is Verdict.VIOLATED and result.kind == "trace"
    assert_run(result.trace, bug)
    assert py_invariants(result.trace.states[-1])["next member"] is False
    assert all(py_invariants(s)["next member"] for s in result.trace.states[:-1])
    outcome = as_outcome(result, {"algorithm": "toy", "property": "next member", "method": "z3"})
    assert outcome.verdict is Verdict.VIOLATED and outcome.cases == result.cases
    document = json.loads(json.dumps(outcome.document))
    assert document["algorithm"] == "toy" and document["kind"] == "trace"
    assert document["cti"]["action"] == "join" and len(document["trace"]["steps"]) == len(result.trace.steps)


def test_true_but_not_inductive_invariant_gives_a_cti_and_unknown():
    system = ring(strengthen=False)
    result = prove_inductive(system, timeout_ms=20000)
    assert result.verdict is Verdict.UNKNOWN and result.kind == "cti", result.detail
    cti = result.cti
    assert py_invariants(cti.pre)["next member"] and is_ring_order(cti.pre)
    assert_step(cti.pre, cti.post, cti.action, cti.params)
    assert py_invariants(cti.post)[cti.invariant] is False
    assert not all(py_invariants(cti.pre).values())   # the pre-state is one the strengthening excludes
    assert check_cti(system, cti)
    assert trace(system, 3) is None                    # and no real run of 3 steps breaks it
    outcome = as_outcome(result, {"algorithm": "toy"})
    assert outcome.verdict is Verdict.UNKNOWN and outcome.document["cti"]["invariant"] == "next member"


def test_init_violation_gives_the_initial_state():
    result = prove_inductive(ring(bad_init=True), timeout_ms=20000)
    assert result.verdict is Verdict.VIOLATED and result.kind == "initiation"
    assert result.invariant == "succ total"
    state, root = result.initial, result.initial_params["root"]
    assert rel(state, "member") == {(root,)} and rel(state, "succ") == set()
    assert py_invariants(state)["succ total"] is False
    assert as_outcome(result, {}).document["initial"] == state


def test_reachability_witness_and_bounds():
    system = ring()
    found = reachable(system, lambda s: at_least(s, 3), 3)
    assert found is not None and [s["action"] for s in found.steps] == ["join", "join"]
    assert_run(found)
    assert reachable(system, lambda s: at_least(s, 3), 1) is None
    # from a ring of two, one member is reached only by a leave; the plain action's parameters
    # (its free constants) come back per step
    def two(s):
        a, b = (z3.Const(n, s.system.sort(NODE)) for n in ("ra", "rb"))
        return z3.And(a != b, q(s, 1, lambda x: s.member(x) == z3.Or(x == a, x == b)),
                      q(s, 2, lambda x, y: s.succ(x, y) == z3.Or(z3.And(x == a, y == b), z3.And(x == b, y == a))))

    alone = reachable(attrs.evolve(system, init=two), lambda s: z3.Not(at_least(s, 2)), 2)
    assert alone is not None and [s["action"] for s in alone.steps] == ["leave"]
    assert set(alone.steps[0]["params"]) == {"v", "p", "s"}
    assert_step(alone.states[0], alone.states[1], "leave", alone.steps[0]["params"])
    assert py_invariants(alone.states[1]) == dict.fromkeys(STRENGTHENING, True)


def test_vacuity_guards():
    never = ring()
    never = attrs.evolve(never, init=lambda s: z3.BoolVal(False))
    assert prove_inductive(never).kind == "vacuous"
    unreachable = attrs.evolve(ring(), sometimes={"four members": lambda s: at_least(s, 4)})
    result = prove_inductive(unreachable, witness_steps=2)
    assert result.verdict is Verdict.UNKNOWN and "four members" in result.detail


def test_declaration_errors():
    with pytest.raises(ValueError, match="free constants"):
        prove_inductive(attrs.evolve(ring(), invariants={"bad": lambda s: s.member(z3.Const("x", s.system.sort(NODE)))}))
    with pytest.raises(ValueError, match="mutable"):
        prove_inductive(attrs.evolve(ring(), axioms={"bad": lambda s: q(s, 1, lambda x: s.member(x))}))
    with pytest.raises(ValueError, match="not a mutable symbol"):
        attrs.evolve(ring(), actions={"a": Action(lambda pre, post: z3.BoolVal(True), ("btw",))})


def test_timeout_is_unknown(monkeypatch):
    # a hard query with a tiny timeout: integer cubes (Fermat, n = 3), never a pass
    def cube(v):
        return v * v * v

    hard = System(sorts=(), symbols=[induction.constant(c, "Int") for c in "abc"],
                  init=lambda s: z3.And(s.a == 1, s.b == 1, s.c == 1),
                  actions={"any": Action(lambda pre, post: z3.And(post.a > 0, post.b > 0, post.c > 0, post.c < 10 ** 6),
                                         ("a", "b", "c"))},
                  invariants={"no cube sum": lambda s: cube(s.a) + cube(s.b) != cube(s.c)})
    result = prove_inductive(hard, timeout_ms=50)
    assert result.verdict is Verdict.UNKNOWN and result.queries["consecution/any/no cube sum"] == "unknown"
    # and any undecided query, mocked
    monkeypatch.setattr(induction, "_solve", lambda assertions, timeout_ms: ("unknown", None))
    result = prove_inductive(ring(), timeout_ms=20000)
    assert result.verdict is Verdict.UNKNOWN and result.kind == "unknown"
    assert as_outcome(result).verdict is Verdict.UNKNOWN
