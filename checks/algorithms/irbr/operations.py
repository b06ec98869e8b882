"""IRBR model I, operations one at a time (spec.irbr): what exhaustive search and hypothesis explore,
the replay documents they write (the Spark job's too) and their replay.

Exhaustive: every live node set of an identifier space (k, L), then every sequence of up to
`operations` operations (subscribe any live node to any filter of a small family whose members
cover one another, unsubscribe one it holds, fail any live node, let one leave, join any
identifier that is not live), and in every reachable network every publisher and every event of a
family; the claims are the spec's properties whose subject is a PublishRun. A second exploration
(`ordered=True`) also follows the order the operations came in, for the claims on an
OperationsRun (the tables operations leave, and changes after the subscriptions).
Hypothesis: random small networks and operation sequences on the spec, shrunk.
"""

from __future__ import annotations

import functools
import itertools
from typing import Any, Iterable, NamedTuple

import attrs

from checks.algorithms.irbr.drawing import OperationsReplay
from checks.explorer import TransitionSystem
from spec import irbr as I

SUBJECT = "PublishRun"
ORDERED_SUBJECT = "OperationsRun"

# The filter family exhaustive search subscribes with: a covers b, c and d; b covers d.
FILTERS = (I.parse_filter("x in 0..9"), I.parse_filter("x in 0..4"), I.parse_filter("x in 5..9"),
           I.parse_filter("x in 2..3"))
EVENTS = ({"x": 2}, {"x": 7})


# --------------------------------------------------------------------------------------------
# Exhaustive: every live set, every operation sequence, every publisher and event
# --------------------------------------------------------------------------------------------

@attrs.frozen
class Bound:
    """One identifier space explored: every live set of (k, L), then up to `operations` operations."""

    k: int
    L: int
    operations: int


@attrs.frozen
class Script:
    """One scripted run explored beside the exhaustive spaces: a live set of (k, L) and its
    operations (as `operations` names them), every publisher and event judged after each."""

    k: int
    L: int
    live: tuple[str, ...]
    operations: tuple[tuple, ...]
    source: str


# Failures as printed (keep-failed), and the repair prune-unrouted, lose an event where exhaustive
# search cannot reach at L = 3: a seventh independent review's trace (5 operations on (k=2, L=3);
# 001 keeps the range 00 alive, so its entries are no stray ones and prune-unrouted keeps the
# failed subscriber's too).
REVIEWED = (Script(2, 3, ("000", "001", "010", "100"),
                   (("subscribe", "010", 0), ("subscribe", "000", 1), ("fail", "000"), ("unsubscribe", "010", 0),
                    ("subscribe", "010", 3)), "a seventh independent review"),)
SCRIPTED_FAILURES = ("keep-failed", "prune-unrouted")


def describe(bounds: Iterable[Bound], scripts: Iterable[Script] = ()) -> str:
    scripted = "".join(f"; and {s.source}'s {len(s.operations)} operations on (k={s.k}, L={s.L}) from {list(s.live)}"
                       for s in scripts)
    return ("every live node set of " + ", ".join(f"(k={b.k}, L={b.L}) with <= {b.operations} operations"
                                                   for b in bounds)
            + f" (subscribe any live node to any of {len(FILTERS)} filters, unsubscribe one it holds, fail any "
              f"live node, let one leave, join any other identifier), every publisher, {len(EVENTS)} events"
            + scripted)


def live_sets(space: I.Space):
    ids = space.identifiers()
    for size in range(1, len(ids) + 1):
        for live in itertools.combinations(ids, size):
            yield live


def operations(net: I.Network) -> list[tuple]:
    ops = [("subscribe", n, k) for n in sorted(net.live) for k in range(len(FILTERS))]
    ops += [("unsubscribe", n, k) for n in sorted(net.live) for k in range(len(FILTERS))
            if (n, n, FILTERS[k], n) in net.filters]
    if len(net.live) > 1:
        ops += [("fail", n) for n in sorted(net.live)] + [("leave", n) for n in sorted(net.live)]
    ops += [("join", n) for n in net.space.identifiers() if n not in net.live]
    return ops


def spec_operation(op: tuple) -> tuple:
    """An operation of `operations` as spec.irbr.operate takes it (the filter for its index)."""
    return op[:2] + ((FILTERS[op[2]],) if op[0] in ("subscribe", "unsubscribe") else ())


class OperationsState(NamedTuple):
    """A state of model I's exploration: how many operations were applied, the network now, and
    (an ordered exploration only) the order they came in (spec.irbr.order_after)."""

    done: int
    net: I.Network
    order: str | None = None


def system(bound: Bound, reading: I.Reading, ordered: bool = False) -> TransitionSystem:
    """States are OperationsStates; an action is one operation (until `bound.operations`)."""
    space = I.Space(bound.k, bound.L)
    start = I.SUBSCRIBING if ordered else None

    def initial():
        return (OperationsState(0, I.network(space, live, reading.representative, reading.tables), start)
                for live in live_sets(space))

    def actions(state: OperationsState):
        return operations(state.net) if state.done < bound.operations else []

    def successor(state: OperationsState, op) -> OperationsState:
        return OperationsState(state.done + 1, I.operate(state.net, spec_operation(op), reading)[0],
                               I.order_after(state.order, op[0]) if ordered else None)

    # a split search keeps each network's states in one process: their judging is memoised per
    # network (Verdicts)
    return TransitionSystem(initial, actions, successor, affinity=lambda state: state.net)


def systems(bounds: Iterable[Bound], reading: I.Reading, ordered: bool = False, scripts: Iterable[Script] = ()):
    """One system per identifier space, labelled (k, L), explored in the scope's order, then one
    per script (a violation is reported from the first system that has one)."""
    for bound in bounds:
        yield (bound.k, bound.L), system(bound, reading, ordered)
    for script in scripts:
        yield (script.k, script.L), scripted(script, reading)


def scripted(script: Script, reading: I.Reading) -> TransitionSystem:
    """The script's run: its one action at each step is the script's next operation."""
    space = I.Space(script.k, script.L)
    return TransitionSystem(
        lambda: [OperationsState(0, I.network(space, script.live, reading.representative, reading.tables))],
        lambda state: [script.operations[state.done]] if state.done < len(script.operations) else [],
        lambda state, op: OperationsState(state.done + 1, I.operate(state.net, spec_operation(op), reading)[0]))


@functools.lru_cache(maxsize=8)  # every invariant and witness of a state asks for the same runs
def runs_of(net: I.Network) -> tuple[I.PublishRun, ...]:
    return I.publish_runs(net, sorted(net.live), EVENTS)


def subjects_of(state: OperationsState) -> tuple:
    """What the claims judge in a state: its PublishRuns, or in an ordered exploration its
    OperationsRuns (the same publications, with the network and the order of the operations)."""
    runs = runs_of(state.net)
    return runs if state.order is None else tuple(I.OperationsRun(state.net, state.order, r) for r in runs)


def claims(ordered: bool = False) -> list:
    return I.OPERATIONS_PROPERTIES if ordered else I.PUBLISH_PROPERTIES


class Verdicts:
    """Each claim's verdict on a state's subjects, kept per network (and order): the search reaches
    one network after different numbers of operations, which are different states with the same
    publications, so each network's are judged once (a third of the states of the default scope's
    deepest search repeat a network). One per exploration. Witnesses need no such memory: the
    search stops asking for one once it is seen."""

    NONE = frozenset()      # shared by every network where every claim holds (most of them)

    def __init__(self, ordered: bool) -> None:
        self.claims = claims(ordered)
        self.known: dict[tuple, frozenset] = {}

    def violated(self, state: OperationsState) -> frozenset:
        """The names of the claims the state's subjects violate."""
        key = (state.net, state.order)
        if key not in self.known:
            subjects = subjects_of(state)
            self.known[key] = frozenset(p.name for p in self.claims if not all(p.predicate(r) for r in subjects)) \
                or self.NONE
        return self.known[key]


def invariants(label=None, ordered: bool = False) -> dict:
    verdicts = Verdicts(ordered)
    return {p.name: (lambda s, p=p: p.name not in verdicts.violated(s)) for p in claims(ordered)}


def witnesses(label=None, ordered: bool = False) -> dict:
    return {p.name: (lambda s, p=p: any(p.witness(r) for r in subjects_of(s))) for p in claims(ordered)}


# --------------------------------------------------------------------------------------------
# Replay documents: one format for exhaustive search, hypothesis and the Spark job
# --------------------------------------------------------------------------------------------

def document(prop: str, reading: str, method: str, k: int, L: int, live: Iterable[str], ops: Iterable[tuple],
             publisher: str, event, **extra) -> dict[str, Any]:
    """A network of `live` nodes, operations (kind, node[, filter]) applied one at a time, then
    one publish judged by `prop`. `extra` (a Spark seed) follows the method."""
    return {"algorithm": I.ALGORITHM, "property": prop, "reading": reading, "method": method, **extra,
            "k": k, "L": L, "live": list(live),
            "operations": [[kind, node] + ([str(item[0])] if kind in ("subscribe", "unsubscribe") else [])
                           for kind, node, *item in ops],
            "publisher": publisher, "event": dict(event)}


def trace_document(reading: I.Reading, prop: str, label, trace) -> dict[str, Any]:
    """A shortest trace of exhaustive search: its first network and operations, and the first
    publication of the last network that violates `prop`."""
    net0, last = trace[0].state.net, trace[-1].state
    claim = next(p for p in I.PUBLISH_PROPERTIES + I.OPERATIONS_PROPERTIES if p.name == prop)
    run = next(r for r in subjects_of(last) if not claim.predicate(r))
    publication = (run.publish if isinstance(run, I.OperationsRun) else run).publication
    return document(prop, reading.name, "exhaustive", net0.space.k, net0.space.L, sorted(net0.live),
                    [spec_operation(step.action) for step in trace[1:]], publication.publisher, publication.event)


def replay(doc: dict[str, Any], reading: I.Reading, say=print) -> OperationsReplay:
    """Rebuild the network, apply each operation (printing the filter tables it changes), publish
    and judge the property. Returns what it computed (`reproduced`: True if the property fails),
    which draws itself."""
    known = I.PUBLISH_PROPERTIES + I.OPERATIONS_PROPERTIES
    prop = next((p for p in known if p.name == doc.get("property")), None)
    if prop is None:
        raise ValueError(f"unknown IRBR property {doc.get('property')!r}; known: "
                         f"{', '.join(p.name for p in known)}")
    net = I.network(I.Space(doc["k"], doc["L"]), doc["live"], reading.representative, reading.tables)
    say(f"IRBR ({reading.name}) on k={doc['k']}, L={doc['L']}, live nodes {sorted(net.live)}")
    first, done, order = net, [], I.SUBSCRIBING
    for step, op in enumerate(doc["operations"], start=1):
        try:
            operation = tuple(op[:2]) + tuple(I.parse_filter(text) for text in op[2:])
            net, line = I.operate(net, operation, reading)
            order = I.order_after(order, operation[0])
        except ValueError as e:
            raise ValueError(f"step {step}: {e}") from e
        say(f"step {step}: {line}")
        done.append((operation, line))
    run = I.publish_run(net, doc["publisher"], doc["event"])
    pub = run.publication
    published = (f"{doc['publisher']} publishes {doc['event']}: notified {dict(pub.notified)}, interested "
                 f"{sorted(run.interested)}, {pub.messages} messages"
                 + (f", lost {list(pub.lost)}" if pub.lost else ""))
    say(published)
    if prop.subject == ORDERED_SUBJECT:
        say(f"the operations came in this order: {order}")
        stray = I.stray_entries(net)
        if stray:
            say("filter entries whose prefix is not in their node's routing table: "
                + ", ".join(f"{m} [{p}* {f} of {s}]" for m, p, f, s in stray))
    holds = prop.predicate(I.OperationsRun(net, order, run) if prop.subject == ORDERED_SUBJECT else run)
    say(f"{prop.name}: {'holds' if holds else 'VIOLATED'}")
    return OperationsReplay(not holds, prop, reading, first, tuple(done), net, run, published)


# --------------------------------------------------------------------------------------------
# Hypothesis: random small networks and operation sequences on the spec, shrunk when they fail
# --------------------------------------------------------------------------------------------

OPERATION_KINDS = ("subscribe", "subscribe", "subscribe", "unsubscribe", "fail", "leave", "join")  # subscribes weigh 3
RANDOM_SCOPE = ("random examples: (k, L) in 2..3 x 2..3 or (4, 2), any live set, <= 8 random subscribes (filters "
                "over x, y), unsubscribes, failures, leaves and joins, one publication")


def workloads():
    """Random small networks (k 2..3 with L 2..3, or k 4 with L 2; any live set) and up to 8
    operations with random filters over x and y (bounds 0..4), then one publication:
    (k, L, live, draws, publisher index, event)."""
    from hypothesis import strategies as st

    bound = st.tuples(st.integers(0, 4), st.integers(0, 4)).map(sorted).map(tuple)
    filters = st.builds(lambda x, y: I.make_filter(**{"x": x, **({"y": y} if y else {})}), bound, st.none() | bound)

    @st.composite
    def workload(draw):
        k = draw(st.sampled_from([2, 3, 4]))
        L = draw(st.integers(2, 3)) if k < 4 else 2
        ids = I.Space(k, L).identifiers()
        live = draw(st.lists(st.sampled_from(ids), min_size=1, max_size=8, unique=True))
        ops = draw(st.lists(st.tuples(st.sampled_from(OPERATION_KINDS), st.integers(0, 63), filters),
                            min_size=1, max_size=8))
        event = {"x": draw(st.integers(0, 4)), "y": draw(st.integers(0, 4))}
        return k, L, sorted(live), ops, draw(st.integers(0, 63)), event

    return workload()


def interpret(k: int, L: int, live: list[str], draws: list, reading: I.Reading) -> tuple[I.Network, list]:
    """Apply drawn operations, each (kind, index, filter) with the index taken modulo the live
    nodes, held subscriptions or absent identifiers of the moment, so that every draw is a valid
    operation; a draw with nothing to act on is skipped. Returns the network and the operations
    done, as spec.irbr.operate takes them."""
    space = I.Space(k, L)
    net = I.network(space, live, reading.representative, reading.tables)
    done = []
    for kind, index, f in draws:
        nodes = sorted(net.live)
        held = sorted(((n, g) for n, p, g, s in net.filters if n == p == s and n in net.live), key=repr)
        absent = [x for x in space.identifiers() if x not in net.live]
        if kind == "subscribe":
            op = ("subscribe", nodes[index % len(nodes)], f)
        elif kind == "unsubscribe" and held:
            op = ("unsubscribe",) + held[index % len(held)]
        elif kind in ("fail", "leave") and len(nodes) > 1:
            op = (kind, nodes[index % len(nodes)])
        elif kind == "join" and absent:
            op = ("join", absent[index % len(absent)])
        else:
            continue
        net = I.operate(net, op, reading)[0]
        done.append(op)
    return net, done


def example_run(reading: I.Reading, example) -> tuple[I.PublishRun, list]:
    k, L, live, draws, publisher, event = example
    net, done = interpret(k, L, live, draws, reading)
    nodes = sorted(net.live)
    return I.publish_run(net, nodes[publisher % len(nodes)], event), done


def judge(prop, reading: I.Reading, example) -> tuple[bool, bool]:
    run, _ = example_run(reading, example)
    return prop.predicate(run), prop.witness(run)


def example_document(prop: str, reading: I.Reading, example) -> dict[str, Any]:
    run, done = example_run(reading, example)
    return document(prop, reading.name, "hypothesis", example[0], example[1], example[2], done,
                    run.publication.publisher, run.publication.event)


def shrunk(reading: I.Reading, example) -> str:
    _, done = example_run(reading, example)
    return f"shrunk to {len(done)} operations on {len(example[2])} nodes"
