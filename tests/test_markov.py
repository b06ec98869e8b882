"""checks.markov: exact reachability probabilities (against closed forms, Storm and numpy) and
Wilson score intervals."""

from __future__ import annotations

from fractions import Fraction as F

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from checks.markov import (Chain, IncompleteChain, estimate, judge_at_least, numpy_probability,
                           reach_probability, storm_probability, to_storm)
from checks.verdict import Verdict


def ruin(n: int, start: int, p: F) -> Chain:
    """Gambler's ruin on 0..n: up with p, down with 1 - p, absorbed at 0 and n; target n."""
    return Chain(initial=lambda: [(F(1), start)],
                 transitions=lambda s: [] if s in (0, n) else [(p, s + 1), (1 - p, s - 1)],
                 target=lambda s: s == n)


def ruin_closed_form(n: int, k: int, p: F) -> F:
    r = (1 - p) / p
    return F(k, n) if r == 1 else (1 - r ** k) / (1 - r ** n)


@pytest.mark.parametrize("n", [1, 2, 5, 12, 40])
def test_gamblers_ruin_matches_closed_form_exactly(n):
    p = F(1, 3)
    for k in range(n + 1):
        outcome = reach_probability(ruin(n, k, p))
        assert outcome.complete
        assert isinstance(outcome.probability, F)
        assert outcome.probability == ruin_closed_form(n, k, p)
        assert outcome.upper == outcome.probability
    outcome = reach_probability(ruin(n, (n + 1) // 2, p))
    assert outcome.states == (n + 1 if n > 1 else 1)  # targets are not expanded
    if n > 1:
        assert outcome.values == {k: ruin_closed_form(n, k, p) for k in range(n + 1)}


def test_fair_ruin_from_a_mixed_initial_distribution():
    n = 10
    chain = Chain(initial=lambda: [(F(1, 2), 3), (F(1, 4), 7), (F(1, 4), 3)],
                  transitions=ruin(n, 0, F(1, 2)).transitions, target=lambda s: s == n)
    assert reach_probability(chain).probability == F(3, 4) * F(3, 10) + F(1, 4) * F(7, 10)


def test_cycles_are_solved_exactly():
    # a -> b (1/2) or a -> c (1/2); b -> a (1/3), b -> goal (2/3); c -> c (1/2), c -> a (1/4),
    # c -> trap (1/4). Hand solution: a = b/2 + c/2, b = a/3 + 2/3, c = c/2 + a/4.
    rows = {"a": [(F(1, 2), "b"), (F(1, 2), "c")],
            "b": [(F(1, 3), "a"), (F(2, 3), "goal")],
            "c": [(F(1, 2), "c"), (F(1, 4), "a"), (F(1, 4), "trap")],
            "goal": [], "trap": [(F(1), "trap")]}
    chain = Chain(lambda: [(F(1), "a")], lambda s: rows[s], lambda s: s == "goal")
    outcome = reach_probability(chain)
    a = F(4, 7)  # c = a/2, so a = (a/3 + 2/3)/2 + a/4, i.e. a (1 - 1/6 - 1/4) = 1/3
    assert outcome.probability == a
    assert outcome.values["b"] == a / 3 + F(2, 3)
    assert outcome.values["c"] == a / 2
    assert outcome.values["trap"] == 0 and outcome.values["goal"] == 1
    assert outcome.states == 5


def test_recurrent_walk_reaches_its_target_with_probability_one():
    # a walk on a cycle of 7 that comes back again and again still reaches 0 almost surely
    chain = Chain(lambda: [(F(1), 3)], lambda s: [(F(2, 3), (s + 1) % 7), (F(1, 3), (s - 1) % 7)],
                  lambda s: s == 0)
    assert reach_probability(chain).probability == 1


def test_deterministic_chains():
    line = Chain(lambda: [(F(1), 0)], lambda s: [(1, s + 1)] if s < 9 else [], lambda s: s == 9)
    assert reach_probability(line).probability == 1
    loop = Chain(lambda: [(F(1), 0)], lambda s: [(1, (s + 1) % 5)], lambda s: s == 7)
    outcome = reach_probability(loop)
    assert outcome.probability == 0 and outcome.states == 5 and outcome.transitions == 5
    assert reach_probability(Chain(lambda: [(1, "x")], lambda s: [], lambda s: True)).probability == 1


def test_unreachable_target_is_zero():
    chain = Chain(lambda: [(F(1), 0)], lambda s: [(F(1, 2), min(s + 1, 3)), (F(1, 2), max(s - 1, 0))],
                  lambda s: s == 99)
    outcome = reach_probability(chain)
    assert outcome.probability == 0 and outcome.complete
    assert set(outcome.values.values()) == {0}


def test_symmetry_reduction_gives_the_same_value():
    # two independent counters, each moving up with 1/3 and down with 2/3 on 0..4 (absorbed at
    # the ends); target: both at 4. Sorting the pair is a symmetry of the chain.
    n = 4

    def steps(s):
        a, b = s
        if a in (0, n) and b in (0, n):
            return []
        out = []
        moving = [i for i, v in enumerate(s) if v not in (0, n)]
        for i in moving:
            for p, d in ((F(1, 3), 1), (F(2, 3), -1)):
                t = list(s)
                t[i] += d
                out.append((p / len(moving), tuple(t)))
        return out

    plain = Chain(lambda: [(F(1), (1, 3))], steps, lambda s: s == (n, n))
    reduced = attrs_evolve(plain, canonical=lambda s: tuple(sorted(s)))
    full, small = reach_probability(plain), reach_probability(reduced)
    assert small.probability == full.probability
    one = ruin_closed_form(n, 1, F(1, 3)) * ruin_closed_form(n, 3, F(1, 3))
    assert full.probability == one
    assert small.states < full.states


def attrs_evolve(chain, **changes):
    import attrs

    return attrs.evolve(chain, **changes)


@pytest.mark.parametrize("rows, message", [
    ({0: [(0.5, 1), (0.5, 2)]}, "float"),
    ({0: [(F(1, 2), 1), (F(1, 3), 2)]}, "sum to 5/6"),
    ({0: [(F(3, 2), 1), (F(-1, 2), 2)]}, "outside"),
    ({0: [(True, 1)]}, "bool"),
    ({0: [(F(1), 1)], 1: [(F(1, 2), 0)]}, "state 1"),
])
def test_bad_probabilities_raise_naming_the_state(rows, message):
    chain = Chain(lambda: [(F(1), 0)], lambda s: rows.get(s, []), lambda s: s == 2)
    with pytest.raises(ValueError, match=message):
        reach_probability(chain)


def test_bad_initial_distribution_raises():
    for initial in ([], [(F(1, 2), 0)], [(0.25, 0), (0.75, 1)]):
        with pytest.raises(ValueError, match="initial distribution"):
            reach_probability(Chain(lambda: initial, lambda s: [], lambda s: False))


def test_a_state_limit_gives_bounds_never_a_value():
    chain = attrs_evolve(ruin(30, 15, F(1, 3)), max_states=10)
    with pytest.raises(IncompleteChain) as raised:
        reach_probability(chain)
    partial = reach_probability(chain, partial=True)
    assert raised.value.outcome.probability == partial.probability
    assert not partial.complete and partial.states <= 12
    exact = ruin_closed_form(30, 15, F(1, 3))
    assert partial.probability <= exact <= partial.upper
    assert partial.probability < partial.upper


# --------------------------------------------------------------------------------------------
# Cross-checks on random small chains
# --------------------------------------------------------------------------------------------

@st.composite
def random_chains(draw):
    """A chain on states 0..n-1 whose every state has up to 3 successors with random exact
    probabilities (some absorbing), some target states, and a random initial distribution."""
    n = draw(st.integers(1, 9))

    def distribution(allow_empty):
        k = draw(st.sampled_from([0, 1, 2, 2, 3, 3] if allow_empty else [1, 2, 3]))
        if k == 0:
            return []
        succ = draw(st.lists(st.integers(0, n - 1), min_size=k, max_size=k))
        weights = draw(st.lists(st.integers(1, 6), min_size=k, max_size=k))
        total = sum(weights)
        return [(F(w, total), s) for w, s in zip(weights, succ)]

    rows = {s: distribution(True) for s in range(n)}
    initial = distribution(False)
    targets = draw(st.sets(st.integers(0, n - 1), min_size=1, max_size=max(1, n // 3)))
    return Chain(lambda: initial, lambda s: rows[s], lambda s: s in targets)


@settings(max_examples=40, deadline=None)
@given(random_chains())
def test_storm_and_numpy_agree_on_random_chains(chain):
    exact = reach_probability(chain).probability
    assert abs(storm_probability(chain) - float(exact)) <= 1e-9
    assert abs(numpy_probability(chain) - float(exact)) <= 1e-9


@settings(max_examples=25, deadline=None)
@given(random_chains())
def test_storm_exact_mode_agrees_exactly_on_random_chains(chain):
    assert storm_probability(chain, exact=True) == reach_probability(chain).probability


def test_storm_model_shape():
    built = to_storm(ruin(6, 3, F(1, 3)))
    model = built.model
    assert model.nr_states == 8  # 7 explored + the "init" state of the initial distribution
    assert set(model.labeling.get_labels()) >= {"init", "target"}
    assert list(model.labeling.get_states("target")) == [built.index[6]]
    assert storm_probability(ruin(40, 20, F(1, 3)), exact=True) == ruin_closed_form(40, 20, F(1, 3))


# --------------------------------------------------------------------------------------------
# Wilson score intervals
# --------------------------------------------------------------------------------------------

@pytest.mark.parametrize("successes, trials, low, high", [
    (5, 10, 0.2366, 0.7634),   # the textbook 95% Wilson interval for 5 of 10
    (0, 10, 0.0, 0.2775),      # ... for 0 of 10
    (10, 10, 0.7225, 1.0),
    (81, 263, 0.2553, 0.3662),  # 81 of 263
])
def test_wilson_known_values(successes, trials, low, high):
    est = estimate(successes, trials)
    assert est.estimate == successes / trials
    assert est.low == pytest.approx(low, abs=1e-4)
    assert est.high == pytest.approx(high, abs=1e-4)
    assert est.confidence == 0.95


def test_wilson_text_and_confidence():
    assert estimate(5, 10).text == "0.500 [0.236, 0.764] at 95%"
    assert estimate(7120, 10000).text == "0.712 [0.703, 0.721] at 95%"
    wide, narrow = estimate(50, 100, 0.99), estimate(50, 100, 0.9)
    assert wide.low < narrow.low < 0.5 < narrow.high < wide.high
    assert wide.text.endswith("at 99%") and estimate(1, 3, 0.999).text.endswith("at 99.9%")


@pytest.mark.parametrize("args", [(1, 0), (-1, 5), (6, 5), (1, 5, 1.0), (1, 5, 0), (1.0, 5)])
def test_wilson_rejects_bad_arguments(args):
    with pytest.raises(ValueError):
        estimate(*args)


def test_judge_at_least_never_says_more_than_the_interval():
    est = estimate(7120, 10000)  # [0.7031, 0.7208]
    assert judge_at_least(est, 0.70) == Verdict.HOLDS == "holds"
    assert judge_at_least(est, 0.73) == "violated"
    assert judge_at_least(est, 0.712) == "unknown"
    assert judge_at_least(est, F(7, 10)) == "holds"
    assert judge_at_least(estimate(0, 10), 0.0) == "holds"


@given(st.integers(1, 2000).flatmap(lambda n: st.tuples(st.integers(0, n), st.just(n))),
       st.sampled_from([0.8, 0.9, 0.95, 0.99]))
def test_wilson_interval_contains_the_estimate(pair, confidence):
    est = estimate(*pair, confidence)
    assert 0.0 <= est.low <= est.estimate <= est.high <= 1.0
