"""Breadth-first explicit-state exploration of a transition system.

A `TransitionSystem` gives initial states, the enabled actions of a state and the successor of a
state under an action. `explore` visits every reachable state once (by a canonical hash, with an
optional symmetry reduction that maps a state to its orbit's representative), evaluates named
invariants (`always`) and witnesses (`sometimes`) on each, counts states, transitions and depth,
and returns the shortest trace to the first state that violates each invariant. Because the
search is breadth-first and initial states are visited in the order given, the trace is shortest
in actions, and among those from the earliest (smallest, when the caller orders them so) initial
state.

With `processes` > 1 the same search is split over that many forked processes, each owning the
states whose key hashes to it (`partitioned`): level by level, each expands the states it owns and
sends every successor to its owner. It gives the same counts, depth, witnesses and shortest traces
as one process: a breadth-first search visits a level's states in the order of their first paths
(the initial state's index, then each action's index among the state's actions), so each state
carries its least path and the least violating path of the first level with one is the trace one
process finds (replayed from its initial state at the end).
"""

from __future__ import annotations

import os
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
    """The functions are pure: what they return depends on their arguments alone (a memo is
    fine, a table filled in the order of the search is not), since a split search calls them in
    several processes, in another order."""

    initial_states: Callable[[], Iterable[State]]
    actions: Callable[[State], Iterable[Action]]
    successor: Callable[[State, Action], State]
    canonical: Callable[[State], Hashable] | None = None  # symmetry reduction
    max_depth: int | None = None    # no action from a state this many actions from an initial one
    # a split search's owner of a state is chosen by the hash of affinity(key): states whose
    # judging shares a memo (IRBR's: one network reached after different operations) go to one
    # process, so the memo still serves them all
    affinity: Callable[[Hashable], Hashable] | None = None


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
            stop: Callable[[], bool] | None = None,
            processes: int = 1) -> Exploration:
    """Explore `system`; a trace is a list of Steps (action, state), the first action None.

    `progress(states)` is called every 256 expanded states (a progress bar's update); `stop()`
    is asked as often, and when it answers True the exploration raises KeyboardInterrupt (Ctrl-C).
    With `processes` > 1 the search is `partitioned` over that many processes (where a state
    bound is given it stays in one: where a bound cuts a level depends on the order of the visits).
    """
    if isinstance(processes, bool) or not isinstance(processes, int) or processes < 1:
        raise ValueError(f"processes must be a whole number >= 1, not {processes!r}")
    if system.max_depth is not None:
        max_depth = system.max_depth if max_depth is None else min(max_depth, system.max_depth)
    if processes > 1 and max_states is None:
        return partitioned(system, invariants, witnesses, processes, max_depth, deadline_seconds, progress, stop)
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


# --------------------------------------------------------------------------------------------
# The same search over several processes, the states partitioned by hash
# --------------------------------------------------------------------------------------------

Path = tuple[int, ...]      # the initial state's index, then each action's index among its state's actions


def partitioned(system: TransitionSystem,
                invariants: dict[str, Callable[[State], bool]],
                witnesses: dict[str, Callable[[State], bool]] | None,
                processes: int,
                max_depth: int | None = None,
                deadline_seconds: float | None = None,
                progress: Callable[[int], None] | None = None,
                stop: Callable[[], bool] | None = None) -> Exploration:
    """`explore` over `processes` forked processes, level by level (see the module's docstring).
    The system's functions are not pickled: the processes are forked with them. The deadline and
    `stop` are asked between levels and while a level runs; a level cut short by the deadline is
    left out, so an incomplete search's counts are those of its whole levels."""
    import multiprocessing

    witnesses = witnesses or {}
    start = time.perf_counter()
    initial = list(system.initial_states())
    context = multiprocessing.get_context("fork")
    # queues with a feeder thread each: two processes sending each other a level larger than a pipe holds
    # would otherwise both wait to write, neither reading
    inboxes = [context.Queue() for _ in range(processes)]
    pipes = [context.Pipe() for _ in range(processes)]
    workers = [context.Process(target=_partition, daemon=True,
                               args=(w, processes, system, initial, invariants, witnesses, max_depth, inboxes,
                                     pipes[w][1], os.getpid()))
               for w in range(processes)]
    result = Exploration(witnessed={name: False for name in witnesses}, initial=len(initial))
    first: dict[str, tuple[int, Path]] = {}
    try:
        for w in workers:
            w.start()
        depth = 0
        while True:
            reports = [_receive(pipes[w][0], workers[w], start, deadline_seconds, stop) for w in range(processes)]
            if any(r is None for r in reports):          # past the deadline: this level is left out
                result.complete = False
                break
            states = sum(r["states"] for r in reports)
            if states:
                result.depth = depth
            result.states += states
            result.transitions += sum(r["transitions"] for r in reports)
            for r in reports:
                for name in r["witnessed"]:
                    result.witnessed[name] = True
                for name, path in r["violations"].items():
                    # the first level with a violation holds the shortest traces; the least path of it, the first
                    if name not in first or (first[name][0] == depth and path < first[name][1]):
                        first[name] = (depth, path)
            if progress is not None:
                progress(result.states)
            if not any(r["next"] for r in reports):
                break
            for w in range(processes):
                pipes[w][0].send("go")
            depth += 1
    finally:
        for w in workers:
            if w.is_alive():
                w.terminate()
        for w in workers:
            w.join(timeout=10)
            if w.is_alive():        # it cannot ignore this one
                w.kill()
                w.join()
    for name, (_, path) in sorted(first.items()):
        result.violations[name] = replay(system, initial, path)
    result.seconds = time.perf_counter() - start
    return result


def replay(system: TransitionSystem, initial: list[State], path: Path) -> list[Step]:
    """The trace a path names: its initial state, then each action by its index."""
    state = initial[path[0]]
    steps = [Step(None, state)]
    for index in path[1:]:
        action = list(system.actions(state))[index]
        state = system.successor(state, action)
        steps.append(Step(action, state))
    return steps


def _receive(pipe, worker, start: float, deadline_seconds: float | None, stop: Callable[[], bool] | None):
    """A worker's report of its level: None past the deadline; an error or a stop raised."""
    while not pipe.poll(0.1):
        if stop is not None and stop():
            raise KeyboardInterrupt
        if deadline_seconds is not None and time.perf_counter() - start > deadline_seconds:
            return None
        if not worker.is_alive() and not pipe.poll(0):
            raise RuntimeError(f"a search process died (exit code {worker.exitcode}), so the search stopped")
    report = pipe.recv()
    if isinstance(report, BaseException):
        raise report
    return report


def _partition(me: int, processes: int, system: TransitionSystem, initial: list[State],
               invariants: dict[str, Callable[[State], bool]], witnesses: dict[str, Callable[[State], bool]],
               max_depth: int | None, inboxes: list, pipe, parent: int) -> None:
    """One process's part: the states whose key hashes to `me`. Each level it judges its new
    states, expands them, sends each other process the successors it owns (one message each, the
    least path per key), takes theirs, reports and waits for the next level."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)      # the parent owns Ctrl-C
    # and SIGTERM ends it: a handler inherited from the parent (the CLI's, which turns SIGTERM into
    # an interrupt) would leave it waiting for a next level that never comes, and the parent's join
    # waiting on it
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    try:
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)     # dies with its parent (Linux)
    except (OSError, AttributeError):
        pass
    if os.getppid() != parent:
        os._exit(1)
    key = system.canonical or (lambda s: s)
    near = system.affinity or (lambda k: k)
    try:
        seen: set[Hashable] = set()
        # keys sent to their owners at an earlier level: the owner has visited them since, so a
        # successor with one of them is dropped here rather than sent again
        sent: set[Hashable] = set()
        witnessed: set[str] = set()      # once seen here, a witness is asked no more
        level: dict[Hashable, tuple[Path, State]] = {}
        for i, s in enumerate(initial):
            k = key(s)
            if hash(near(k)) % processes == me and k not in level:
                level[k] = ((i,), s)
        depth = 0
        while True:
            seen.update(level)
            judged = len(level)
            violations: dict[str, Path] = {}
            for path, state in level.values():
                for name, holds in invariants.items():
                    if not holds(state) and (name not in violations or path < violations[name]):
                        violations[name] = path
                for name, sees in witnesses.items():
                    if name not in witnessed and sees(state):
                        witnessed.add(name)
            transitions = 0
            found: list[dict[Hashable, tuple[Path, State]]] = [{} for _ in range(processes)]
            if max_depth is None or depth < max_depth:
                for path, state in level.values():
                    for index, action in enumerate(system.actions(state)):
                        transitions += 1
                        nxt = system.successor(state, action)
                        k = key(nxt)
                        if k in seen or k in sent:
                            continue
                        owner = found[hash(near(k)) % processes]
                        p = path + (index,)
                        if k not in owner or p < owner[k][0]:
                            owner[k] = (p, nxt)
                for w in range(processes):
                    if w != me:
                        inboxes[w].put(list(found[w].items()))
                        sent.update(found[w])
                merged = found[me]
                for _ in range(processes - 1):
                    for k, (p, nxt) in inboxes[me].get():
                        if k not in merged or p < merged[k][0]:
                            merged[k] = (p, nxt)
                level = {k: v for k, v in merged.items() if k not in seen}
            else:
                level = {}
            pipe.send({"states": judged, "transitions": transitions, "violations": violations,
                       "witnessed": witnessed, "next": len(level)})
            if pipe.recv() != "go":
                return
            depth += 1
    except BaseException as e:       # the parent raises it (or says what it was, where it cannot be pickled)
        import pickle

        try:
            pickle.loads(pickle.dumps(e))
        except Exception:
            e = RuntimeError(f"{type(e).__name__}: {e}")
        pipe.send(e)
