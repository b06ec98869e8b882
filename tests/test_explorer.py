"""The shared breadth-first explorer on a tiny transition system with known answers."""

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
