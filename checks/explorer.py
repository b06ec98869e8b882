"""Breadth-first explicit-state exploration of a transition system.

A `TransitionSystem` gives initial states, the enabled actions of a state and the successor of a
state under an action. `explore` visits every reachable state once (by a canonical hash, with an
optional symmetry reduction that maps a state to its orbit's representative), evaluates named
invariants (`always`) and witnesses (`sometimes`) on each, counts states, transitions and depth,
and returns the shortest trace to the first state that violates each invariant. Because the
search is breadth-first and initial states are visited in the order given, the trace is shortest
in actions, and among those from the earliest (smallest, when the caller orders them so) initial
state.
"""

from __future__ import annotations

import time
from collections import deque
from typing import Any, Callable, Hashable, Iterable, NamedTuple

import attrs

State = Hashable
Action = Any


class Step(NamedTuple):
    """One step of a trace: the action taken (None for the initial state) and the state reached."""

    action: Action | None
    state: State


@attrs.frozen
class TransitionSystem:
    initial_states: Callable[[], Iterable[State]]
    actions: Callable[[State], Iterable[Action]]
    successor: Callable[[State, Action], State]
    canonical: Callable[[State], Hashable] | None = None  # symmetry reduction


@attrs.define
class Exploration:
    states: int = 0
    transitions: int = 0
    initial: int = 0
    depth: int = 0
    seconds: float = 0.0
    complete: bool = True
    violations: dict[str, list[Step]] = attrs.Factory(dict)
    witnessed: dict[str, bool] = attrs.Factory(dict)

    @property
    def states_per_second(self) -> float:
        return self.states / self.seconds if self.seconds else 0.0


def explore(system: TransitionSystem,
            invariants: dict[str, Callable[[State], bool]],
            witnesses: dict[str, Callable[[State], bool]] | None = None,
            max_depth: int | None = None,
            max_states: int | None = None,
            deadline_seconds: float | None = None,
            progress: Callable[[int], None] | None = None,
            stop: Callable[[], bool] | None = None) -> Exploration:
    """Explore `system`; a trace is a list of Steps (action, state), the first action None.

    `progress(states)` is called every 256 expanded states (a progress bar's update); `stop()`
    is asked as often, and when it answers True the exploration raises KeyboardInterrupt (Ctrl-C).
    """
    witnesses = witnesses or {}
    key = system.canonical or (lambda s: s)
    result = Exploration(witnessed={name: False for name in witnesses})
    parent: dict[Hashable, tuple[Hashable | None, Action | None, State]] = {}
    queue: deque[tuple[State, int]] = deque()
    start = time.perf_counter()

    def visit(state: State, depth: int, via: Hashable | None, action: Action | None) -> None:
        k = key(state)
        if k in parent:
            return
        parent[k] = (via, action, state)
        result.states += 1
        result.depth = max(result.depth, depth)
        for name, holds in invariants.items():
            if name not in result.violations and not holds(state):
                result.violations[name] = trace_to(k)
        for name, seen in result.witnessed.items():
            if not seen and witnesses[name](state):
                result.witnessed[name] = True
        queue.append((state, depth))

    def trace_to(k: Hashable) -> list[Step]:
        steps = []
        while k is not None:
            via, action, state = parent[k]
            steps.append(Step(action, state))
            k = via
        return steps[::-1]

    for s in system.initial_states():
        if deadline_seconds is not None and time.perf_counter() - start > deadline_seconds:
            result.complete = False
            break
        result.initial += 1
        visit(s, 0, None, None)
    expanded = 0
    while queue:
        if (max_states is not None and result.states >= max_states) or \
                (deadline_seconds is not None and time.perf_counter() - start > deadline_seconds):
            result.complete = False
            break
        state, depth = queue.popleft()
        if max_depth is not None and depth >= max_depth:
            continue
        for action in system.actions(state):
            result.transitions += 1
            visit(system.successor(state, action), depth + 1, key(state), action)
        expanded += 1
        if expanded % 256 == 0:
            if stop is not None and stop():
                raise KeyboardInterrupt
            if progress is not None:
                progress(result.states)
    result.seconds = time.perf_counter() - start
    return result
