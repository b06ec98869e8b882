"""A token ring: the test suite's fixture algorithm, not one of the papers.

N processes on a ring pass one token clockwise; the holder may enter its critical section.
Readings: `correct` clears the sender's token on every pass; `keeps-at-wrap` (the planted bug)
forgets to clear it when the token wraps from the last process to the first. For the chance of a
round trip, a pass loses the token with probability `loss`.
Claims: exactly one process holds the token in every state; the token comes back to process 0
within one round with probability at least 1/2.
"""

from __future__ import annotations

from fractions import Fraction

import attrs

from spec.registry import Property, register

ALGORITHM = "tokenring"


@attrs.frozen
class Reading:
    name: str
    clear_at_wrap: bool = True
    loss: Fraction = Fraction(1, 10)


READINGS = {r.name: r for r in (Reading("correct"), Reading("keeps-at-wrap", clear_at_wrap=False),
                                 Reading("lossy", loss=Fraction(1, 5)))}

State = tuple[bool, ...]   # state[i]: process i holds the token


def initial(n: int) -> State:
    if not isinstance(n, int) or n < 2:
        raise ValueError(f"a ring has at least 2 processes, not {n!r}")
    return (True,) + (False,) * (n - 1)


def pass_token(state: State, i: int, reading: Reading) -> State:
    """Process i, holding the token, passes it to its successor."""
    if not 0 <= i < len(state) or not state[i]:
        raise ValueError(f"process {i} does not hold the token in {state}")
    j = (i + 1) % len(state)
    after = list(state)
    after[j] = True
    if j != 0 or reading.clear_at_wrap:
        after[i] = False
    return tuple(after)


@attrs.frozen
class Run:
    states: tuple[State, ...]


def exactly_one_token(run: Run) -> bool:
    return all(sum(s) == 1 for s in run.states)


def token_wrapped(run: Run) -> bool:
    """The witness: the token went from the last process back to the first."""
    return any(a[-1] and b[0] for a, b in zip(run.states, run.states[1:]))


register(Property(ALGORITHM, "exactly_one_token", exactly_one_token,
                  "exactly one process holds the token in every state (mutual exclusion)",
                  witness=token_wrapped, subject="Run"))

ROUND_TRIP_AT_LEAST = Fraction(1, 2)


def round_trip_likely(probability: Fraction) -> bool:
    return probability >= ROUND_TRIP_AT_LEAST


register(Property(ALGORITHM, "round_trip_likely", round_trip_likely,
                  "the token comes back to process 0 within one round with probability at least 1/2",
                  subject="probability"))
