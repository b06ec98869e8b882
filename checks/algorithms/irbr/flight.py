"""IRBR model II, messages in flight (spec.irbr): the transition system exhaustive search explores,
its replay documents and their replay.

The first identifiers of (k, L) live (3 of (2, 2) by default, all 4 in the large scope), every
assignment of filters beforehand, a script of one publish and one subscribe or unsubscribe, or a
subscribe and an unsubscribe of one subscription in either order, or (`different_nodes`, sec. 3.5's
concurrent operations issued by different nodes) one subscribe or unsubscribe at each of two
different nodes, every start order and every delivery order of the messages in flight, a crash at
any moment (beside single operations by default); the claims, the spec's properties whose subject
is a FlightRun, are judged when all is quiet.

Under the default rules the two-node scripts refute steady_subscribers_notified_exactly_once: a
steady subscription re-evaluated on an "uncover" notice counts on a covering subscription that is
itself still in flight (the subscriber's own newer one), so it is not widened, and the old
covering entry is withdrawn at the publisher before the new one arrives there.
"""

from __future__ import annotations

import itertools
from typing import Any, NamedTuple

import attrs

from checks.algorithms.irbr.drawing import FlightReplay
from checks.algorithms.irbr.operations import FILTERS
from checks.explorer import TransitionSystem
from spec import irbr as I

SUBJECT = "FlightRun"
FLIGHT_FILTERS = FILTERS[:2]  # x in 0..9 covers x in 0..4
FLIGHT_EVENT = (("x", 2),)


@attrs.frozen
class FlightScope:
    k: int
    L: int
    crashes: int
    nodes: int | None = None  # the first `nodes` identifiers live (None: all)
    pairs: bool = True        # scripts with a subscribe and an unsubscribe of one subscription too
    crashing_pairs: bool = True  # crashes in those scripts too (else only beside one operation)
    different_nodes: bool = False  # scripts of two operations at two different nodes too (sec. 3.5)
    crashing_different: bool = False  # crashes in those scripts too

    def describe(self) -> str:
        space = I.Space(self.k, self.L)
        live = space.identifiers()[:self.nodes]
        return (f"live nodes {', '.join(live)} of (k={self.k}, L={self.L}), every assignment of at most one of "
                f"{len(FLIGHT_FILTERS)} filters per node beforehand, every script of a publish and one subscribe or "
                "unsubscribe" + (", or a subscribe and an unsubscribe of one node and filter (either order)"
                                 if self.pairs else "")
                + (", or one subscribe or unsubscribe at each of two different nodes" if self.different_nodes else "")
                + f", every start order and delivery order, <= {self.crashes} crash(es) at any moment"
                + self._crash_words())

    def _crash_words(self) -> str:
        crashing = ["one operation"] + (["a pair on one subscription"] if self.pairs and self.crashing_pairs else []) \
            + (["two nodes' operations"] if self.different_nodes and self.crashing_different else [])
        offered = 1 + self.pairs + self.different_nodes
        if not self.crashes or len(crashing) == offered:
            return ""
        return f" (in the scripts of {' and of '.join(crashing)})"

    def crashes_beside(self, script: tuple) -> int:
        """How many crashes a run of `script` may have."""
        ops = script[:-1]
        if len(ops) == 1:
            return self.crashes
        if len({node for _, node, _ in ops}) == 1:
            return self.crashes if self.crashing_pairs else 0
        return self.crashes if self.crashing_different else 0


def own_operations(node: str, held: set) -> list[tuple]:
    """What one node may do: subscribe a filter it does not hold, unsubscribe one it holds."""
    return [("unsubscribe", node, f) if (node, f) in held else ("subscribe", node, f) for f in FLIGHT_FILTERS]


def scripts(ids: list[str], held: set, pairs: bool = True, different_nodes: bool = False) -> list[tuple]:
    """The operations besides the publish: one subscribe or unsubscribe, or a pair on one
    subscription (unsubscribe then subscribe again if held, subscribe then unsubscribe if not),
    or (`different_nodes`) one operation at each of two different nodes, whose starts and
    messages interleave in every order (subscribe and subscribe, subscribe and unsubscribe,
    unsubscribe and unsubscribe)."""
    singles = [(("subscribe", n, f),) for n in ids for f in FLIGHT_FILTERS if (n, f) not in held] + \
        [(("unsubscribe", n, f),) for n, f in sorted(held, key=lambda e: (e[0], str(e[1])))]
    out = singles
    if pairs:
        out = out + [(("unsubscribe", n, f), ("subscribe", n, f)) if (n, f) in held else
                     (("subscribe", n, f), ("unsubscribe", n, f)) for n in ids for f in FLIGHT_FILTERS]
    if different_nodes:
        out = out + [(a, b) for n, m in itertools.combinations(ids, 2)
                     for a in own_operations(n, held) for b in own_operations(m, held)]
    return out


class FlightState(NamedTuple):
    """A state of model II's exploration: the script of operations, the subscriptions held
    throughout (steady), and the network with its messages in flight."""

    script: tuple
    steady: frozenset
    flight: I.Flight


def initial_states(scope: FlightScope, reading: I.Reading):
    space = I.Space(scope.k, scope.L)
    ids = space.identifiers()[:scope.nodes]
    for assignment in itertools.product(range(len(FLIGHT_FILTERS) + 1), repeat=len(ids)):
        net = I.network(space, ids, reading.representative, reading.tables)
        held = set()
        for node, choice in zip(ids, assignment):
            if choice:
                net = I.subscribe(net, node, FLIGHT_FILTERS[choice - 1], reading.covering)[0]
                held.add((node, FLIGHT_FILTERS[choice - 1]))
        for ops in scripts(ids, held, scope.pairs, scope.different_nodes):
            for publisher in ids:
                script = ops + (("publish", publisher, FLIGHT_EVENT),)
                steady = frozenset(held - {(node, item) for _, node, item in ops})
                yield FlightState(script, steady, I.Flight(net))


def actions(state, crashes: int) -> list[tuple]:
    """Start an operation (a node's own in script order), deliver any message in flight, let a
    waiting withdrawal spread, crash a node (`crashes`: how many a run may have)."""
    script, _, f = state
    acts = [("start", k) for k in range(len(script)) if k not in f.started
            and all(j in f.started for j in range(k) if script[j][1] == script[k][1])]
    acts += [("deliver", m) for m in sorted(f.flight, key=repr)]
    acts += [("withdraw", k) for k in sorted(f.pending) if I.can_withdraw(f, k)]
    acts += [("purge", n) for n in sorted(f.purging) if I.can_purge(f, n)]
    if f.crashes < crashes and len(f.net.live) > 1:
        acts += [("crash", n) for n in sorted(f.net.live)]
    return acts


def step(state, action, reading: I.Reading):
    script, steady, f = state
    if action[0] == "start":
        f = I.start(f, script, action[1], reading)
    elif action[0] == "deliver":
        f = I.deliver(f, script, action[1], reading)
    elif action[0] == "withdraw":
        f = I.withdraw(f, script, action[1])
    elif action[0] == "purge":
        f = I.purge(f, action[1])
    else:
        f = I.crash(f, action[1], reading)
        steady = frozenset(e for e in steady if e[0] != action[1])
    return FlightState(script, steady, f)


def quiet_run(state) -> I.FlightRun | None:
    script, steady, f = state
    quiet = not f.flight and not f.pending and not f.purging and len(f.started) == len(script)
    return I.FlightRun(f, script, steady) if quiet else None


def system(scope: FlightScope, reading: I.Reading) -> TransitionSystem:
    return TransitionSystem(lambda: initial_states(scope, reading),
                            lambda state: actions(state, scope.crashes_beside(state.script)),
                            lambda state, action: step(state, action, reading))


def systems(scope: FlightScope, reading: I.Reading):
    """The one system of the scope, labelled (k, L)."""
    yield (scope.k, scope.L), system(scope, reading)


def invariants(label=None) -> dict:
    return {p.name: (lambda s, p=p: (r := quiet_run(s)) is None or p.predicate(r)) for p in I.FLIGHT_PROPERTIES}


def witnesses(label=None) -> dict:
    return {p.name: (lambda s, p=p: (r := quiet_run(s)) is not None and p.witness(r)) for p in I.FLIGHT_PROPERTIES}


def _text(item) -> Any:
    return str(item) if isinstance(item, I.Filter) else item


def trace_document(reading: I.Reading, crashes: int, prop: str, label, trace) -> dict[str, Any]:
    script, steady, first = trace[0].state
    before = sorted([n, str(f)] for n, p, f, s in first.net.filters if n == p == s)

    def step_text(action) -> list:
        if action[0] == "deliver":
            return ["deliver"] + [_text(v) for v in action[1]]
        return list(action)

    return {"algorithm": I.ALGORITHM, "property": prop, "reading": reading.name,
            "method": "exhaustive", "kind": "flight", "k": first.net.space.k, "L": first.net.space.L,
            "live": sorted(first.net.live), "subscriptions": before, "crashes": crashes,
            "script": [[kind, node, str(item) if kind != "publish" else dict(item)] for kind, node, item in script],
            "steps": [step_text(s.action) for s in trace[1:]]}


def replay(doc: dict[str, Any], reading: I.Reading, say=print) -> FlightReplay:
    """Rebuild the network and its subscriptions, take each recorded step (refusing one that is
    not possible), and judge the property once all is quiet. Returns what it computed
    (`reproduced`: True if the property fails), which draws itself."""
    prop = next((p for p in I.FLIGHT_PROPERTIES if p.name == doc.get("property")), None)
    if prop is None:
        raise ValueError(f"unknown IRBR property {doc.get('property')!r}; known: "
                         f"{', '.join(p.name for p in I.FLIGHT_PROPERTIES)}")
    net = I.network(I.Space(doc["k"], doc["L"]), doc["live"], reading.representative, reading.tables)
    for node, text in doc["subscriptions"]:
        net = I.subscribe(net, node, I.parse_filter(text), reading.covering)[0]
    script = tuple((kind, node, I.parse_filter(item) if kind != "publish" else tuple(sorted(item.items())))
                   for kind, node, item in doc["script"])
    steady = {(n, I.parse_filter(t)) for n, t in doc["subscriptions"]} - {(node, item) for _, node, item in script}
    state = (script, frozenset(steady), I.Flight(net))
    first, taken = state[2], []
    say(f"IRBR ({reading.name}) on k={doc['k']}, L={doc['L']}; subscribed beforehand: {doc['subscriptions']}; "
        f"script: {doc['script']}")
    for number, recorded in enumerate(doc["steps"], start=1):
        if recorded[0] == "deliver":
            kind, origin, item, sender, receiver, prefix, clock = recorded[1:]
            action = ("deliver", (kind, origin, item if kind == "event" else I.parse_filter(item), sender, receiver,
                                  prefix, clock))
            said = f"{kind} of {origin} arrives at {receiver} from {sender} (range {prefix}, clock {clock})"
        else:
            action = tuple(recorded)
            said = {"start": f"start {doc['script'][recorded[1]] if recorded[0] == 'start' else ''}",
                    "withdraw": f"the withdrawal of operation {recorded[1]} spreads",
                    "crash": f"{recorded[1]} crashes",
                    "purge": f"the entries of failed {recorded[1]} are dropped"}.get(recorded[0], str(recorded))
        say(f"step {number}: {said}")
        if action not in actions(state, crashes=doc.get("crashes", 1)):
            raise ValueError(f"step {number}: {recorded} is not possible here")
        state = step(state, action, reading)
        taken.append((said, action, state[2]))
    run = quiet_run(state)
    if run is None:
        raise ValueError("the steps do not reach a quiescent state")
    holds = prop.predicate(run)
    say(f"notified (event, node, times): {list(run.state.notified)}; steady subscriptions: "
        f"{sorted((n, str(f)) for n, f in run.steady)}; entries: "
        f"{sorted((m, p, str(f), s) for m, p, f, s in run.state.net.filters)}")
    say(f"{prop.name}: {'holds' if holds else 'VIOLATED'}")
    return FlightReplay(not holds, prop, reading, tuple(tuple(s) for s in doc["subscriptions"]), script, first,
                        tuple(taken), run)
