"""IRBR, model II: messages in flight (sec. 3.5): concurrent operations delivered in any order,
crashes at any moment, under the ordering, concurrency and forwarding readings; it reuses model I's
state and handlers, and its claims judge a quiet run (`FlightRun`, group FLIGHT_PROPERTIES)."""

from __future__ import annotations

import attrs

from spec.irbr.filters import Filter
from spec.irbr.operations import (Network, Spread, drop_subscribers, every_interested_subscriber_notified_exactly_once,
                                  fail, matching_entries, publish_run, record, subscribe_level)
from spec.irbr.readings import Reading
from spec.irbr.routing import ALGORITHM, common_prefix_length, delegated_ranges
from spec.registry import Property, register


# ============================================================================================
# Model II: messages in flight (sec. 3.5): concurrent operations, any delivery order, crashes
# ============================================================================================
# A script of operations; a node starts its own operations in script order, different nodes'
# in any order. Each operation sends its messages hop by hop over the delegation tree, and any
# message in flight may be delivered next (messages from one node to another can overtake each
# other: "messages may arrive along different paths"). A crash removes a node. Handlers are the
# atomic operations' steps of model I, applied at the receiver when the message arrives, with
# the receiver's tables at that moment. It follows all eight fields of a Reading: ordering,
# concurrency and forwarding besides model I's.

# --------------------------------------------------------------------------------------------
# State: a network with operations under way
# --------------------------------------------------------------------------------------------

@attrs.frozen(cache_hash=True)
class Flight:
    """A network with operations under way: `started` script indices, messages in flight as
    (kind, origin, item, sender, receiver, range prefix, clock), notifications (event index,
    node, times), clocks seen (node, subscriber, filter, clock), unsubscribes whose withdrawal
    waits for their widenings (`pending`), failed nodes whose entries wait likewise (`purging`)."""

    net: Network
    started: frozenset = frozenset()
    flight: frozenset = frozenset()
    notified: tuple = ()
    crashes: int = 0
    clocks: frozenset = frozenset()
    pending: frozenset = frozenset()
    purging: frozenset = frozenset()  # failed nodes whose entries wait for the widenings their failure caused
    reordered: bool = False  # a subscribe or unsubscribe arrived after a newer one of its subscription
    collided: bool = False   # a message was sent while an identical one was in flight (a duplicate)


# --------------------------------------------------------------------------------------------
# Actions: an operation starts, a message arrives, a withdrawal spreads, a node crashes
# --------------------------------------------------------------------------------------------

def _post(state: Flight, messages: set) -> Flight:
    """Put messages in flight; one identical to a message already in flight would merge with it
    in the set, so it is recorded as a duplicate (the claims count it against exactly-once)."""
    return attrs.evolve(state, flight=state.flight | messages, collided=state.collided or bool(state.flight & messages))


def _send(kind: str, origin: str, item, node: str, net: Network, level: int, clock: int, forward=None) -> set:
    return {(kind, origin, item, node, rep, prefix, clock) for prefix, rep in delegated_ranges(node, net.table(node), level)
            if forward is None or forward(node, prefix)}


def _event_forward(net: Network, event: dict):
    matching = matching_entries(net, event)
    return lambda node, prefix: (node, prefix) in matching


def _notify(state: Flight, k: int, node: str, event: dict) -> tuple:
    if any(m == s == p == node and f.matches(event) for m, p, f, s in state.net.filters):
        counts = dict(((e, n), c) for e, n, c in state.notified)
        counts[(k, node)] = counts.get((k, node), 0) + 1
        return tuple(sorted((e, n, c) for (e, n), c in counts.items()))
    return state.notified


def _clock_of(state: Flight, node: str, subscriber: str, f: Filter) -> int:
    return max((c for m, s, g, c in state.clocks if (m, s, g) == (node, subscriber, f)), default=-1)


def _see(state: Flight, node: str, subscriber: str, f: Filter, clock: int) -> Flight:
    kept = frozenset(e for e in state.clocks if e[:3] != (node, subscriber, f))
    return attrs.evolve(state, clocks=kept | {(node, subscriber, f, clock)})


def _counted(state: Flight, node: str, reading: Reading) -> Network:
    """The network as `node` may count on it: under widen-then-withdraw-settled, not on an entry
    whose subscription is still on its way (a subscribe or widening of it in flight)."""
    if reading.concurrency != "widen-then-withdraw-settled":
        return state.net
    unsettled = {(node, m[1], m[2]) for m in state.flight if m[0] in ("sub", "widen")}
    return attrs.evolve(state.net, withdrawn=state.net.withdrawn | unsettled)


def _widen_uncovered(state: Flight, node: str, reading: Reading) -> Flight:
    """At one node: its own subscriptions the covering rule now sends farther go on to the ranges
    they had skipped (as in `unsubscribe`, here as "widen" messages)."""
    net, sent = state.net, set()
    for s, g, reached in sorted(net.reach, key=lambda r: (r[0], str(r[1]))):
        needed = subscribe_level(_counted(attrs.evolve(state, net=net), node, reading), s, g, reading.covering) \
            if s == node else reached
        if needed < reached:
            net = record(net, s, g, Spread(()), needed)
            sent |= _send("widen", s, g, s, net, needed, _clock_of(state, s, s, g),
                          lambda n, prefix, reached=reached: len(prefix) <= reached)
    return _post(attrs.evolve(state, net=net), sent)


def _drop_entries(net: Network, node: str, f: Filter, subscriber: str) -> Network:
    return attrs.evolve(net, filters=frozenset(e for e in net.filters if not (e[0] == node and e[2:] == (f, subscriber))),
                        withdrawn=net.withdrawn - {(node, subscriber, f)})


def start(state: Flight, script: tuple, k: int, reading: Reading = Reading()) -> Flight:
    """Operation k of the script begins at its node (nothing happens at a crashed node)."""
    _check_script_index(script, k)
    if reading.unsubscribe == "widen-covered":  # its widening is not written as messages
        raise ValueError("messages in flight follow the unsubscribe handling resubscribe-uncovered or remove-only, "
                         "not widen-covered")
    if reading.failure == "prune-unrouted":     # model II's crash keeps or withdraws entries only
        raise ValueError("messages in flight follow the failure handling withdraw-failed or keep-failed, "
                         "not prune-unrouted")
    if k in state.started:
        raise ValueError(f"operation {k} of the script has already started")
    kind, node, item = script[k]
    state = attrs.evolve(state, started=state.started | {k})
    net = state.net
    if node not in net.live:
        return state
    if kind == "subscribe":
        if (node, node, item, node) in net.filters:
            return state
        level = subscribe_level(_counted(state, node, reading), node, item, reading.covering)
        state = _see(attrs.evolve(state, net=record(net, node, item, Spread(()), level)), node, node, item, k)
        return _post(state, _send("sub", node, item, node, state.net, level, k))
    if kind == "unsubscribe":
        if (node, node, item, node) not in net.filters:
            return state
        net = attrs.evolve(_drop_entries(net, node, item, node), reach=frozenset(r for r in net.reach if r[:2] != (node, item)))
        state = _see(attrs.evolve(state, net=net), node, node, item, k)
        if reading.concurrency != "withdraw-at-once":
            state = _post(attrs.evolve(state, pending=state.pending | {k}), _send("uncover", node, item, node, net, 0, k))
        else:
            state = _post(state, _send("unsub", node, item, node, net, 0, k))
        return _widen_uncovered(state, node, reading) if reading.unsubscribe == "resubscribe-uncovered" else state
    event = dict(item)
    state = attrs.evolve(state, notified=_notify(state, k, node, event))
    return _post(state, _send("event", node, k, node, net, 0, k, _event_forward(net, event)))


def _check_script_index(script, k) -> None:
    if not isinstance(script, tuple):
        raise TypeError(f"script must be a tuple of (kind, node, item) operations, not {script!r}")
    if not isinstance(k, int) or isinstance(k, bool):
        raise TypeError(f"k must be an integer index into the script, not {k!r}")
    if not 0 <= k < len(script):
        raise ValueError(f"k must be an operation of the script, 0..{len(script) - 1}, not {k}")


def can_withdraw(state: Flight, k: int) -> bool:
    """widen-then-withdraw: operation k's withdrawal may spread once its notices and every
    widening have arrived."""
    return k in state.pending and not any(m[0] == "widen" or (m[0] == "uncover" and m[6] == k) for m in state.flight)


def withdraw(state: Flight, script: tuple, k: int) -> Flight:
    _check_script_index(script, k)
    if k not in state.pending:
        raise ValueError(f"operation {k} has no withdrawal waiting")
    _, node, item = script[k]
    state = attrs.evolve(state, pending=state.pending - {k})
    if node not in state.net.live:
        return state
    return _post(state, _send("unsub", node, item, node, state.net, 0, k))


def deliver(state: Flight, script: tuple, message: tuple, reading: Reading = Reading()) -> Flight:
    """One message arrives. At a crashed receiver it is lost, or re-sent by its sender to another
    node of the range (retry-alternate); under lamport an outdated subscribe or unsubscribe is
    dropped."""
    if message not in state.flight:  # else a made-up message would take effect
        raise ValueError(f"message {message!r} is not in flight")
    kind, origin, item, sender, receiver, prefix, clock = message
    state = attrs.evolve(state, flight=state.flight - {message})
    net = state.net
    if receiver not in net.live:
        if reading.forwarding == "retry-alternate" and sender in net.live:
            alternate = min((m for m in net.live if m.startswith(prefix)), default=None)
            if alternate is not None:
                state = _post(state, {message[:4] + (alternate,) + message[5:]})
        return state
    if kind != "event" and reading.failure == "withdraw-failed" and origin not in net.live:
        return state  # the failure is known: what is still on its way of the failed node's subscriptions is void
    level = len(prefix)
    if kind == "event":
        event = dict(script[item][2])
        state = attrs.evolve(state, notified=_notify(state, item, receiver, event))
        return _post(state, _send("event", origin, item, receiver, net, level, clock,
                                                               _event_forward(net, event)))
    if kind == "uncover":  # about what may be counted on, not about the entry: never outdated
        state = attrs.evolve(state, net=attrs.evolve(net, withdrawn=net.withdrawn | {(receiver, origin, item)}))
        state = _post(state, _send(kind, origin, item, receiver, state.net, level, clock))
        return _widen_uncovered(state, receiver, reading) if reading.unsubscribe == "resubscribe-uncovered" else state
    if kind == "unsub":  # the notice it ends is over, whatever the clocks say
        net = attrs.evolve(net, withdrawn=net.withdrawn - {(receiver, origin, item)})
        state = attrs.evolve(state, net=net)
    if clock < _clock_of(state, receiver, origin, item):  # older than one already seen here
        state = attrs.evolve(state, reordered=True)
        if reading.ordering == "lamport":  # not applied
            if kind == "unsub":  # but passed on, to end the notice everywhere it went
                state = _post(state, _send(kind, origin, item, receiver, net, level, clock))
            return state
    else:
        state = _see(state, receiver, origin, item, clock)
    if kind in ("sub", "widen"):
        entry = (receiver, origin[:common_prefix_length(receiver, origin) + 1], item, origin)
        state = attrs.evolve(state, net=attrs.evolve(net, filters=net.filters | {entry}))
        return _post(state, _send(kind, origin, item, receiver, state.net, level, clock))
    state = _post(attrs.evolve(state, net=_drop_entries(net, receiver, item, origin)),
                  _send("unsub", origin, item, receiver, net, level, clock))
    if reading.concurrency == "withdraw-at-once" and reading.unsubscribe == "resubscribe-uncovered":
        return _widen_uncovered(state, receiver, reading)
    return state


def crash(state: Flight, node: str, reading: Reading = Reading()) -> Flight:
    """A node crashes. Under withdraw-failed every live node learns it at once (as the tables'
    repair does) and treats the failed node's subscriptions as an unsubscribe under the
    concurrency rule: withdraw-at-once drops their entries at once; widen-then-withdraw stops
    counting on them and keeps them for forwarding until the widenings they cause have arrived
    (`purge`). The widenings travel as messages (resubscribe-uncovered)."""
    at_once = reading.failure == "withdraw-failed" and reading.concurrency == "withdraw-at-once"
    net = fail(state.net, [node], "withdraw-failed" if at_once else "keep-failed", "remove-only", reading.covering)
    state = attrs.evolve(state, net=net, crashes=state.crashes + 1)
    if reading.failure == "keep-failed":
        return state
    if not at_once:
        uncounted = {(m, s, f) for m, _, f, s in net.filters if s == node}
        state = attrs.evolve(state, net=attrs.evolve(net, withdrawn=net.withdrawn | uncounted),
                             purging=state.purging | {node})
    if reading.unsubscribe == "resubscribe-uncovered":
        for m in sorted(state.net.live):
            state = _widen_uncovered(state, m, reading)
    return state


def can_purge(state: Flight, node: str) -> bool:
    """The failed node's entries may be dropped once no widening is in flight."""
    return node in state.purging and not any(m[0] == "widen" for m in state.flight)


def purge(state: Flight, node: str) -> Flight:
    """Every live node drops the entries of the failed node (they were no longer counted on)."""
    if node not in state.purging:
        raise ValueError(f"{node!r} has no entries waiting to be dropped")
    return attrs.evolve(state, net=drop_subscribers(state.net, {node}), purging=state.purging - {node})


# --------------------------------------------------------------------------------------------
# Claims on a FlightRun: a script's run once all is quiet
# --------------------------------------------------------------------------------------------

@attrs.frozen
class FlightRun:
    """A quiescent state (every operation started, nothing in flight, no withdrawal waiting) of
    a script, and the subscriptions that held from before the script to its end (the ones a
    claim can count on)."""

    state: Flight = attrs.field(eq=False)
    script: tuple
    steady: frozenset  # (node, filter) subscribed before the script, not withdrawn, node never crashed


def steady_subscribers_notified_exactly_once(run: FlightRun) -> bool:
    """Sec. 3.5 with the abstract's claim: concurrent operations and reordered messages do not
    cost a steady subscriber an event, nor give anyone an event twice."""
    got = {(e, n): c for e, n, c in run.state.notified}
    for k, (kind, node, item) in enumerate(run.script):
        if kind != "publish" or node not in run.state.net.live:
            continue
        event = dict(item)
        for s, f in run.steady:
            if f.matches(event) and got.get((k, s), 0) != 1:
                return False
    return all(c == 1 for c in got.values()) and not run.state.collided


def settled_network_delivers_exactly_once(run: FlightRun) -> bool:
    """Sec. 3.5 (1): once everything has arrived, the filter tables serve the subscriptions then
    held: each event of the script, published again from every live node, reaches every
    interested subscriber exactly once (reordered messages must not leave a "wrong state")."""
    net = run.state.net
    return all(every_interested_subscriber_notified_exactly_once(publish_run(net, p, dict(item)))
               for kind, _, item in run.script if kind == "publish" for p in sorted(net.live))


def no_entry_outlives_its_subscription(run: FlightRun) -> bool:
    """Sec. 3.5 (1): once everything has arrived, no filter table keeps an entry of a live node's
    subscription that node has withdrawn."""
    f = run.state.net.filters
    return all((s, s, g, s) in f for m, _, g, s in f if s in run.state.net.live)


def no_entry_outlives_its_subscriber(run: FlightRun) -> bool:
    """Sec. 3.1: an entry means that a node of its range is interested, so once everything has
    arrived no filter table keeps an entry of a subscriber that has failed."""
    return all(s in run.state.net.live for _, _, _, s in run.state.net.filters)


def a_node_crashed(run: FlightRun) -> bool:
    return run.state.crashes > 0


def a_steady_subscriber_is_remote_and_interested(run: FlightRun) -> bool:
    """A publish from a node live at the end, whose event a steady subscriber elsewhere wants."""
    return any(kind == "publish" and node in run.state.net.live and
               any(s != node and f.matches(dict(item)) for s, f in run.steady) for kind, node, item in run.script)


def messages_arrived_out_of_order(run: FlightRun) -> bool:
    return run.state.reordered


# A group the checks name: what a run of model II (messages in flight) is held to.
FLIGHT_PROPERTIES = [register(p) for p in (
    Property(ALGORITHM, "steady_subscribers_notified_exactly_once", steady_subscribers_notified_exactly_once,
             "abstract, sec. 3.5: with concurrent operations and messages arriving out of order, every subscriber "
             "whose subscription holds throughout receives each event exactly once",
             witness=a_steady_subscriber_is_remote_and_interested, subject="FlightRun"),
    Property(ALGORITHM, "settled_network_delivers_exactly_once", settled_network_delivers_exactly_once,
             "sec. 3.5 (1): a subscribe and an unsubscribe arriving out of order leave no wrong state: once all "
             "has arrived, every interested subscriber receives each event exactly once",
             witness=messages_arrived_out_of_order, subject="FlightRun"),
    Property(ALGORITHM, "no_entry_outlives_its_subscription", no_entry_outlives_its_subscription,
             "sec. 3.5 (1): once all has arrived, no filter table keeps an entry of a withdrawn subscription",
             witness=messages_arrived_out_of_order, subject="FlightRun"),
    Property(ALGORITHM, "no_entry_outlives_its_subscriber", no_entry_outlives_its_subscriber,
             "sec. 3.1: an entry means a node of its range is interested, so once all has arrived no filter table "
             "keeps an entry of a failed subscriber",
             witness=a_node_crashed, subject="FlightRun"),
)]
