"""The SCOT checkers' search: which SCOTs, which delivery orders, which congested queues and
tie-breaks. None of this is the paper (spec/scot.py is); it is how the exhaustive checks cover
every case up to a bound.

  small_scots        every non-isomorphic tree up to a bound times K_m, every m up to a bound
  broadcast_system   a subscription broadcast as a transition system: every delivery order
  every_decision     DNR's nondeterminism (tie-breaks among equally congested links, and which
                     output queues are congested), branched on lazily: a stateless search

Only checks use this module: the Spark job draws one random tie-break per run
(spark_validation.scot.tie_breaker) and never needs the search.
"""

from __future__ import annotations

from typing import Any, Callable, Iterator, NamedTuple

from checks.enumerate import trees
from checks.explorer import TransitionSystem
from spec import scot as S


def small_scots(max_nodes: int, max_m: int) -> Iterator[S.Scot]:
    for n in range(1, max_nodes + 1):
        for tree in trees(n):
            for m in range(1, max_m + 1):
                yield S.build(tree, m)


class BroadcastState(NamedTuple):
    """A state of broadcast_system: which SCOT of the list, and the broadcast on it so far."""

    scot: int
    broadcast: S.Broadcast


def broadcast_system(scot_list: list[S.Scot], protocol: str) -> TransitionSystem:
    """States are BroadcastStates; actions deliver one message in flight."""
    def initial():
        for k, scot in enumerate(scot_list):
            for host in scot.brokers():
                yield BroadcastState(k, S.subscribe(scot, host, protocol))

    def actions(state: BroadcastState):
        return sorted(state.broadcast.in_flight, key=repr)

    def successor(state: BroadcastState, message):
        return BroadcastState(state.scot, S.deliver(scot_list[state.scot], state.broadcast, message, protocol))

    return TransitionSystem(initial, actions, successor)


# --------------------------------------------------------------------------------------------
# DNR's nondeterminism, decided lazily
# --------------------------------------------------------------------------------------------

class Decisions:
    """One run's nondeterministic choices, taken from a prefix and then the first option: the
    tie-breaks `choose` makes among equally congested links, and whether each output queue the run
    asks about is congested (`link in decisions`; decided once per queue, at most `budget` yes).
    It stands in for spec.scot.dnr's `congested` set and `choose`."""

    def __init__(self, prefix: tuple = (), budget: int | None = None):
        self.prefix, self.budget = prefix, budget
        self.made: list[tuple[int, int]] = []  # (option taken, options there) at each decision
        self.ties: list[int] = []              # the tie-breaks alone, as a replay gives them
        self.queues: dict = {}                 # output queue -> congested?

    def _decide(self, options: int) -> int:
        k = self.prefix[len(self.made)] if len(self.made) < len(self.prefix) else 0
        self.made.append((k, options))
        return k

    def choose(self, candidates):
        k = self._decide(len(candidates))
        self.ties.append(k)
        return candidates[k]

    def __contains__(self, link) -> bool:
        if link not in self.queues:
            full = self.budget is not None and sum(self.queues.values()) >= self.budget
            self.queues[link] = bool(self._decide(1 if full else 2))
        return self.queues[link]

    def congested(self) -> frozenset:
        return frozenset(link for link, yes in self.queues.items() if yes)


def every_decision(run_with: Callable[[Decisions], Any], budget: int | None = None):
    """Run `run_with(decisions)` once per distinct sequence of decisions (a stateless search):
    every tie-break, and every congestion status of the queues the run asks about, with at most
    `budget` congested. Sets of congested queues that differ only in queues a run never asks about
    give that same run, so these runs cover every set of at most `budget` congested queues."""
    prefixes = [()]
    while prefixes:
        prefix = prefixes.pop()
        decisions = Decisions(prefix, budget)
        result = run_with(decisions)
        yield decisions, result
        for depth in range(len(prefix), len(decisions.made)):  # branch on the decisions this run added
            for alt in range(1, decisions.made[depth][1]):
                prefixes.append(tuple(c for c, _ in decisions.made[:depth]) + (alt,))
