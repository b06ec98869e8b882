"""checks.z3kit: a refuted lemma's counterexample is the same in every process, whatever the
solver's random seed (a committed report must not change between two runs that change nothing)."""

from __future__ import annotations

import pytest
import z3

from checks.verdict import Verdict
from checks.z3kit import canonical_model, constants, prove_lemmas


def with_seed(seed: int, work):
    z3.set_param("smt.random_seed", seed)
    z3.set_param("sat.random_seed", seed)
    try:
        return work()
    finally:
        z3.set_param("smt.random_seed", 0)
        z3.set_param("sat.random_seed", 0)


def test_constants_lists_each_free_variable_once_and_no_interpreted_term():
    x, y = z3.Ints("x y")
    b = z3.Bool("b")
    found = list(constants(z3.And(x + y > 3, z3.Or(b, x == y), x >= -2)))
    assert sorted(map(str, found)) == ["b", "x", "y"]


def test_the_canonical_model_is_the_least_by_size_then_sign_then_name():
    x, y = z3.Ints("x y")
    b = z3.Bool("b")
    formula = z3.And(x + y >= 3, z3.Or(b, x != 0), y <= 5)
    def described():
        m = canonical_model(formula)
        return tuple(sorted((str(d), str(m[d])) for d in m.decls()))
    assert len({with_seed(seed, described) for seed in range(6)}) == 1
    m = canonical_model(formula)
    # b false first, so x must be non-zero; x as small as it can be (1), then y = 2
    assert (z3.is_false(m.eval(b, True)), m.eval(x, True).as_long(), m.eval(y, True).as_long()) == (True, 1, 2)


def test_minimize_comes_before_the_constants():
    x, y = z3.Ints("x y")
    m = canonical_model(z3.And(x >= 0, y >= 0, x + 2 * y >= 4), minimize=x + y)
    assert (m.eval(x, True).as_long(), m.eval(y, True).as_long()) == (0, 2)


@pytest.mark.parametrize("seed", [0, 3, 11])
def test_prove_lemmas_describes_the_same_counterexample_under_every_seed(seed):
    a, c = z3.Ints("a c")
    lemmas = {"proved": z3.Or(a >= 0, a < 0), "refuted": z3.Implies(z3.And(a >= 0, c >= 0), a + c <= 1)}
    outcome = with_seed(seed, lambda: prove_lemmas(
        lemmas, lambda m, _: {"a": m.eval(a, True).as_long(), "c": m.eval(c, True).as_long()}))
    assert outcome["verdict"] == Verdict.VIOLATED
    assert outcome["lemmas"] == {"proved": "unsat", "refuted": "sat"}
    assert outcome["model"] == {"lemma": "refuted", "a": 0, "c": 2}
