"""The shared breadth-first explorer on a tiny transition system with known answers."""

import multiprocessing
import time

import pytest
from hypothesis import given, settings, strategies as st

from checks.explorer import TransitionSystem, explore

# Two counters mod 4; actions bump either. 16 reachable states; (2, 3) first at depth 5.
SYSTEM = TransitionSystem(
    initial_states=lambda: [(0, 0)],
    actions=lambda s: ["a", "b"],
    successor=lambda s, act: ((s[0] + 1) % 4, s[1]) if act == "a" else (s[0], (s[1] + 1) % 4),
)


def test_counts_states_transitions_and_depth():
    ex = explore(SYSTEM, {"ok": lambda s: True})
    assert (ex.states, ex.transitions, ex.depth, ex.complete) == (16, 32, 6, True)


def test_shortest_trace_to_a_violation():
    ex = explore(SYSTEM, {"never_2_3": lambda s: s != (2, 3)})
    trace = ex.violations["never_2_3"]
    assert len(trace) == 6 and trace[0] == (None, (0, 0)) and trace[-1][1] == (2, 3)


def test_symmetry_reduction_merges_orbits():
    symmetric = TransitionSystem(SYSTEM.initial_states, SYSTEM.actions, SYSTEM.successor,
                                 canonical=lambda s: tuple(sorted(s)))
    assert explore(symmetric, {}).states == 10


def test_witnesses_and_bounds():
    ex = explore(SYSTEM, {}, witnesses={"corner": lambda s: s == (3, 3), "never": lambda s: s == (9, 9)},
                 max_depth=2)
    assert ex.witnessed == {"corner": False, "never": False} and ex.depth == 2
    assert explore(SYSTEM, {}, witnesses={"corner": lambda s: s == (3, 3)}).witnessed["corner"]


def test_a_deadline_leaves_the_exploration_incomplete():
    ex = explore(SYSTEM, {}, deadline_seconds=0.0)
    assert not ex.complete
    slow = TransitionSystem(SYSTEM.initial_states, SYSTEM.actions,
                            lambda s, a: time.sleep(0.05) or SYSTEM.successor(s, a))
    split = explore(slow, {}, deadline_seconds=0.3, processes=2)
    assert not split.complete and 0 < split.states < 16


def test_a_stop_interrupts_the_split_search_and_leaves_no_process():
    slow = TransitionSystem(SYSTEM.initial_states, SYSTEM.actions,
                            lambda s, a: time.sleep(0.05) or SYSTEM.successor(s, a))
    before = set(multiprocessing.active_children())
    asked = []
    with pytest.raises(KeyboardInterrupt):
        explore(slow, {}, stop=lambda: asked.append(1) or len(asked) > 3, processes=2)
    assert set(multiprocessing.active_children()) <= before


def test_the_search_split_over_processes_finds_what_one_process_finds():
    symmetric = TransitionSystem(SYSTEM.initial_states, SYSTEM.actions, SYSTEM.successor,
                                 canonical=lambda s: tuple(sorted(s)))
    invariants = {"never_2_3": lambda s: s != (2, 3), "below_5": lambda s: sum(s) < 5, "ok": lambda s: True}
    witnesses = {"corner": lambda s: s == (3, 3), "never": lambda s: s == (9, 9)}
    for system in (SYSTEM, symmetric):
        for depth in (None, 2, 4):
            one = explore(system, invariants, witnesses, max_depth=depth)
            for processes in (2, 3):
                split = explore(system, invariants, witnesses, max_depth=depth, processes=processes)
                assert (split.states, split.transitions, split.initial, split.depth, split.complete) == \
                    (one.states, one.transitions, one.initial, one.depth, one.complete)
                assert split.witnessed == one.witnessed and split.violations == one.violations


@settings(max_examples=60, deadline=None, derandomize=True)
@given(st.integers(2, 12).flatmap(lambda n: st.tuples(
    st.lists(st.lists(st.integers(0, n - 1), max_size=4), min_size=n, max_size=n),   # each state's successors
    st.lists(st.integers(0, n - 1), min_size=1, max_size=4),                         # initial states, repeats too
    st.sets(st.integers(0, n - 1)), st.integers(1, 4), st.sampled_from([None, 1, 3]))))
def test_on_random_systems_the_split_search_gives_the_same_counts_and_shortest_traces(drawn):
    edges, initial, bad, fold, depth = drawn
    # the state is (node, steps taken mod 2): a state space with joins, cycles and ties between
    # paths of one length; the canonical form folds nodes together (a reduction the split must respect)
    system = TransitionSystem(initial_states=lambda: [(v, 0) for v in initial],
                              actions=lambda s: list(range(len(edges[s[0]]))),
                              successor=lambda s, i: (edges[s[0]][i], 1 - s[1]),
                              canonical=(lambda s: (s[0] // fold, s[1])) if fold > 1 else None,
                              # a split search's owners by affinity (here the parity alone: unbalanced)
                              affinity=(lambda k: k[1]) if fold % 2 else None)
    invariants = {"avoids_bad": lambda s: s[0] not in bad, "even_steps_low": lambda s: s[1] == 0 or s[0] < 5}
    witnesses = {"odd": lambda s: s[1] == 1}
    one = explore(system, invariants, witnesses, max_depth=depth)
    split = explore(system, invariants, witnesses, max_depth=depth, processes=2)
    assert (split.states, split.transitions, split.initial, split.depth) == \
        (one.states, one.transitions, one.initial, one.depth)
    assert split.witnessed == one.witnessed and split.violations == one.violations


def test_a_failing_successor_in_a_search_process_is_raised_in_the_caller():
    broken = TransitionSystem(SYSTEM.initial_states, SYSTEM.actions,
                              lambda s, a: 1 / 0 if s == (1, 1) else SYSTEM.successor(s, a))
    with pytest.raises(ZeroDivisionError):
        explore(broken, {}, processes=2)
    with pytest.raises(ValueError, match="processes"):
        explore(SYSTEM, {}, processes=0)


def test_levels_larger_than_a_pipe_holds_cross_between_the_processes():
    # 20,000 initial states split between the processes, each with a successor the other may own:
    # each sends the other far more than a pipe's 64 KiB at once
    wide = TransitionSystem(initial_states=lambda: range(20_000), actions=lambda s: [0] if isinstance(s, int) else [],
                            successor=lambda s, a: ("x" * 50, s))
    one, split = explore(wide, {}), explore(wide, {}, processes=2)
    assert split.states == one.states == 40_000 and split.depth == one.depth == 1


def test_a_split_search_ends_its_processes_even_where_the_caller_handles_sigterm():
    # the CLI turns SIGTERM into an interrupt; the search's processes, forked with that handler,
    # must still end when the search is over (they would wait for a level that never comes)
    import signal

    before = signal.signal(signal.SIGTERM, lambda *_: None)
    try:
        started = time.perf_counter()
        split = explore(SYSTEM, {"ok": lambda s: True}, processes=2)
        assert split.states == 16 and time.perf_counter() - started < 5
        assert not [p for p in multiprocessing.active_children() if p.is_alive()]
    finally:
        signal.signal(signal.SIGTERM, before)
