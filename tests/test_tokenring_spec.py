"""The fixture's spec does what its docstring says (and, named test_tokenring*, this file is the
fixture's own: `make mutation` would select it for the fixture's mutants by its name alone)."""

import pytest

from tokenring import spec as T


def walk(n: int, reading: T.Reading, passes: int) -> T.Run:
    states = [T.initial(n)]
    for _ in range(passes):
        holder = states[-1].index(True) if reading.clear_at_wrap else max(
            i for i, held in enumerate(states[-1]) if held)
        states.append(T.pass_token(states[-1], holder, reading))
    return T.Run(tuple(states))


def test_the_correct_ring_keeps_one_token_through_a_wrap():
    run = walk(3, T.READINGS["correct"], 4)
    assert run.states[1:4] == ((False, True, False), (False, False, True), (True, False, False))
    assert T.exactly_one_token(run) and T.token_wrapped(run)


def test_the_planted_bug_keeps_a_second_token_at_the_wrap():
    run = walk(3, T.READINGS["keeps-at-wrap"], 3)
    assert run.states[-1] == (True, False, True)
    assert not T.exactly_one_token(run) and T.token_wrapped(run)


@pytest.mark.parametrize("n", [1, 0, "3", None])
def test_a_ring_has_at_least_two_processes(n):
    with pytest.raises(ValueError, match="at least 2 processes"):
        T.initial(n)


def test_only_the_holder_passes():
    with pytest.raises(ValueError, match="does not hold the token"):
        T.pass_token((True, False), 1, T.READINGS["correct"])


def test_a_round_trip_is_likely_from_one_half():
    assert T.round_trip_likely(T.ROUND_TRIP_AT_LEAST) and not T.round_trip_likely(T.ROUND_TRIP_AT_LEAST - 1 / 100)
