"""IRBR, model I: operations one at a time (subscribe sec. 3.3, unsubscribe sec. 3.4, fail, leave
and join sec. 3.5 (3), publish sec. 3.2), its state (the network) and the claims judged on one
publication (`PublishRun`, group PUBLISH_PROPERTIES) and on the network the operations leave, in the
order they came (`OperationsRun`, group OPERATIONS_PROPERTIES)."""

from __future__ import annotations

import functools
from typing import Iterable

import attrs

from spec.irbr.filters import Filter, _check_filter, check_event, covers
from spec.irbr.readings import COVERING, FAILURES, JOINS, TABLE_READINGS, UNSUBSCRIBE, Reading
from spec.irbr.routing import (ALGORITHM, REPRESENTATIVES, Space, check_choice, common_prefix_length, delegated_ranges,
                               routing_table)
from spec.registry import Property, register


# ============================================================================================
# Model I: operations one at a time
# ============================================================================================
# A subscribe, unsubscribe, failure, join or leave completes before the next starts. The
# readings it follows: covering, tables, representative, unsubscribe, join.

# --------------------------------------------------------------------------------------------
# State: the network (live nodes, routing tables, filter tables)
# --------------------------------------------------------------------------------------------

@attrs.frozen(cache_hash=True)
class Network:
    space: Space
    live: frozenset
    tables: tuple          # sorted (node, ((prefix, representative), ...)) for every live node
    filters: frozenset     # (node, prefix, filter, subscriber): FT^node holds (prefix, filter)
    reach: frozenset = frozenset()  # (subscriber, filter, level): how far each subscription was sent
    representative: str = "smallest"
    tables_after_failure: str = "repaired"
    known: frozenset = frozenset()  # the identifiers the tables were built from (stale: failed ones too)
    withdrawn: frozenset = frozenset()  # (node, subscriber, filter): entries kept, no longer counted on

    def table(self, n: str) -> dict[str, str]:
        try:
            return dict(_tables_by_node(self)[n])
        except (KeyError, TypeError):
            raise ValueError(f"{n!r} is not a live node") from None

    def ft(self, n: str) -> list[tuple[str, Filter, str]]:
        if n not in self.live:  # a failed node's table went with it; a typo has none either
            raise ValueError(f"{n!r} is not a live node")
        return sorted((p, f, s) for m, p, f, s in self.filters if m == n)


@functools.lru_cache(maxsize=64)
def _tables_by_node(net: Network) -> dict[str, dict[str, str]]:
    return {n: dict(table) for n, table in net.tables}


def _delegations(net: Network) -> dict[str, list[list[tuple[str, str]]]]:
    """Each live node's delegated_ranges at every level 0..L. A broadcast asks for them at every
    node it passes, millions of times in a search; they are kept per routing tables, which every
    network a search reaches from one by subscribing or unsubscribing shares."""
    return _kept_per_routing(_DELEGATIONS, net.tables, lambda: {
        n: [delegated_ranges(n, dict(table), level) for level in range(net.space.L + 1)] for n, table in net.tables})


def _kept_per_routing(memo: dict, key: tuple, work):
    """memo[key], worked out the first time (at most 4,096 kept: the memo starts again when full)."""
    found = memo.get(key)
    if found is None:
        if len(memo) >= 4096:
            memo.clear()
        found = memo[key] = work()
    return found


_DELEGATIONS: dict[tuple, dict[str, list[list[tuple[str, str]]]]] = {}


def tables_for(space: Space, live: Iterable[str], representative: str, known: Iterable[str] | None = None) -> tuple:
    """Every live node's table, built from the `known` identifiers (the live ones by default)."""
    for name, ids in (("live", live), ("known", known)):
        if isinstance(ids, (str, bytes)):
            raise TypeError(f"{name} must be a collection of identifiers, not {ids!r}")
    return _tables_for(space, frozenset(live), representative, None if known is None else frozenset(known))


@functools.lru_cache(maxsize=1024)   # a search fails and joins its way back to the same live sets again and again
def _tables_for(space: Space, live: frozenset, representative: str, known: frozenset | None) -> tuple:
    known = live if known is None else known
    return tuple((n, tuple(routing_table(space, n, known, representative).items())) for n in sorted(live))


def checked_ids(space: Space, ids: Iterable[str]) -> list[str]:
    """The identifiers, each checked against the space; duplicates and no nodes are refused."""
    if not isinstance(space, Space):
        raise TypeError(f"space must be a spec.irbr.Space, not {space!r}")
    if isinstance(ids, (str, bytes)) or not isinstance(ids, Iterable):  # a str's digits are no nodes
        raise TypeError(f"ids must be a collection of identifiers, not {ids!r}")
    ids = list(ids)
    seen, duplicates = set(), set()
    for n in ids:
        (duplicates if space.check(n) in seen else seen).add(n)
    if duplicates:
        raise ValueError(f"duplicate node identifiers: {sorted(duplicates)[:10]}")
    if not ids:
        raise ValueError("a network needs at least one node")
    return ids


def check_failures(live, nodes: set) -> None:
    unknown = sorted(nodes - set(live))
    if unknown:
        raise ValueError(f"cannot fail {unknown[:10]}: not live nodes")
    if nodes >= set(live):
        raise ValueError("every node would have failed")


def network(space: Space, ids: Iterable[str], representative: str = "smallest",
            tables_after_failure: str = "repaired") -> Network:
    ids = checked_ids(space, ids)
    check_choice("representative choice", representative, REPRESENTATIVES)
    check_choice("table reading", tables_after_failure, TABLE_READINGS)
    live = frozenset(ids)
    return Network(space, live, tables_for(space, live, representative), frozenset(), frozenset(),
                   representative, tables_after_failure, live)


# --------------------------------------------------------------------------------------------
# Actions: subscribe (sec. 3.3), unsubscribe (sec. 3.4), fail, leave and join (sec. 3.5 (3)),
# publish (sec. 3.2)
# --------------------------------------------------------------------------------------------

@attrs.frozen
class Spread:
    """Where one broadcast went: each (sender, receiver, range delegated) message, in order."""

    messages: tuple
    lost: tuple = ()  # messages addressed to a failed representative


def broadcast(net: Network, origin: str, from_level: int, forward=lambda node, prefix: True) -> Spread:
    """Source based forwarding from `origin`: delegate every range of its table at levels >=
    from_level, and so on down; `forward(node, prefix)` prunes. Breadth first, deterministic."""
    if origin not in net.live:
        raise ValueError(f"{origin!r} is not a live node")
    if not isinstance(from_level, int) or isinstance(from_level, bool) or not 0 <= from_level <= net.space.L:
        raise ValueError(f"from_level must be an integer in 0..{net.space.L}, not {from_level!r}")
    sent, lost = [], []
    delegations = _delegations(net)
    frontier = [(origin, from_level)]
    while frontier:
        nxt = []
        for node, level in frontier:
            for prefix, rep in delegations[node][level]:
                if not forward(node, prefix):
                    continue
                if rep not in net.live and net.tables_after_failure == "stale-alternates":
                    rep = min((m for m in net.live if m.startswith(prefix)), default=rep)
                if rep not in net.live:
                    lost.append((node, rep, prefix))
                    continue
                sent.append((node, rep, prefix))
                nxt.append((rep, len(prefix)))
        frontier = nxt
    return Spread(tuple(sent), tuple(lost))


def counts_on(f2: Filter, subscriber: str, f: Filter, n: str, covering: str = "covering-ordered") -> bool:
    """Whether n's subscription f may count on the entry (f2, subscriber) to go less far."""
    if covering == "no-covering" or not covers(f2, f):
        return False
    if covering == "covering":
        return (f2, subscriber) != (f, n)  # a subscription does not cover itself
    return not covers(f, f2) or subscriber < n


def subscribe_level(net: Network, n: str, f: Filter, covering: str = "covering-ordered") -> int:
    """How far n's subscription must go (sec. 3.3): 0 is everywhere. An entry (q, f2) of FT^n that
    f may count on stands, for every node outside the range n and q share, for interest in f2
    there, so n sends only inside the longest such shared range (L: nowhere, when n itself has f2)."""
    if n not in net.live:   # a failed node's table went with it
        raise ValueError(f"{n!r} is not a live node")
    best = 0
    for m, q, f2, subscriber in net.filters:    # FT^n's entries in any order: the longest range counts
        if m == n and counts_on(f2, subscriber, f, n, covering) and (n, subscriber, f2) not in net.withdrawn:
            best = max(best, common_prefix_length(q, n))
    return best


def subscribe(net: Network, n: str, f: Filter, covering: str = "covering-ordered") -> tuple[Network, Spread]:
    """n's own entry (n, f), then every receiver m records (its prefix toward n, f). An empty
    filter (a range lo > hi) is a valid subscription that no event matches."""
    if n not in net.live:
        raise ValueError(f"{n!r} is not a live node")
    _check_filter(f)
    check_choice("covering reading", covering, COVERING)
    level = subscribe_level(net, n, f, covering)
    spread = broadcast(net, n, level)
    return record(net, n, f, spread, level), spread


def record(net: Network, n: str, f: Filter, spread: Spread, level: int) -> Network:
    entries = {(n, n, f, n)} | {(m, n[:common_prefix_length(m, n) + 1], f, n) for _, m, _ in spread.messages}
    reach = {(s, g, lvl) for s, g, lvl in net.reach if (s, g) != (n, f)}
    before = min((lvl for s, g, lvl in net.reach if (s, g) == (n, f)), default=net.space.L)
    return attrs.evolve(net, filters=net.filters | entries, reach=frozenset(reach | {(n, f, min(level, before))}))


def unsubscribe(net: Network, n: str, f: Filter, handling: str = "resubscribe-uncovered",
                covering: str = "covering-ordered") -> tuple[Network, Spread]:
    """n withdraws f: the unsubscribe goes over n's whole delegation tree (the subscription may
    have gone anywhere a later widening sent it) and each receiver drops (., f, n)."""
    if n not in net.live:
        raise ValueError(f"{n!r} is not a live node")
    _check_filter(f)
    check_choice("covering reading", covering, COVERING)
    if (n, n, f, n) not in net.filters:
        raise ValueError(f"{n!r} has no subscription {f}")
    check_choice("unsubscribe handling", handling, UNSUBSCRIBE)
    spread = broadcast(net, n, 0)
    heard = {n} | {m for _, m, _ in spread.messages}  # a lost message leaves its range's entries
    net = attrs.evolve(net, filters=frozenset(e for e in net.filters if e[0] not in heard or (e[2], e[3]) != (f, n)),
                       reach=frozenset(r for r in net.reach if r[:2] != (n, f)))
    if handling == "resubscribe-uncovered":
        net = widen_uncovered(net, heard, covering)
    elif handling == "widen-covered":
        net = widen_covered(net, heard, {f})
    return net, spread


def widen_uncovered(net: Network, nodes: Iterable[str], covering: str = "covering-ordered") -> Network:
    """Each of `nodes` (in order) re-evaluates its own subscriptions after entries it counted on
    went away: one that had been sent less far than the covering rule now allows goes on to the
    ranges it had skipped (resubscribe-uncovered)."""
    for m in sorted(nodes):
        for s, g, sent in sorted(net.reach, key=lambda r: (r[0], str(r[1]))):
            if s != m or s not in net.live:
                continue
            needed = subscribe_level(net, s, g, covering)
            if needed < sent:
                net = send_on(net, s, g, sent, needed)
    return net


def send_on(net: Network, s: str, g: Filter, sent: int, level: int) -> Network:
    """s's subscription g, sent from level `sent`, goes on to the ranges it had skipped, levels
    `level` .. sent - 1 (a widening)."""
    wider = broadcast(net, s, level, lambda node, prefix: node != s or len(prefix) <= sent)
    return record(net, s, g, wider, level)


def widen_covered(net: Network, nodes: Iterable[str], withdrawn: Iterable[Filter]) -> Network:
    """Each of `nodes` (in order) sends each of its own subscriptions that a `withdrawn` filter
    covers on to every range it had skipped, the whole delegation tree, with no covering rule
    (widen-covered): whatever counted on a withdrawn filter, directly or through others, is
    covered by it."""
    withdrawn = tuple(withdrawn)
    for m in sorted(nodes):
        for s, g, sent in sorted(net.reach, key=lambda r: (r[0], str(r[1]))):
            if s == m and s in net.live and sent > 0 and any(covers(f, g) for f in withdrawn):
                net = send_on(net, s, g, sent, 0)
    return net


def fail(net: Network, nodes: Iterable[str], failure: str = "withdraw-failed",
         handling: str = "resubscribe-uncovered", covering: str = "covering-ordered") -> Network:
    """Nodes crash at once; their filter tables go with them. Under `repaired` every live node's
    table is rebuilt from the live nodes; under `stale` tables still name the failed nodes. Under
    withdraw-failed every live node drops the failed nodes' entries and widens its subscriptions
    that counted on one (resubscribe-uncovered) or that one of the failed nodes' filters covers
    (widen-covered); under keep-failed the entries stay; under prune-unrouted every live node
    drops the entries under a prefix its repaired routing table no longer has (sec. 3.1's rule)."""
    if isinstance(nodes, (str, bytes)) or not isinstance(nodes, Iterable):  # fail("01") is not fail(["0", "1"])
        raise TypeError(f"nodes must be a collection of identifiers, not {nodes!r}")
    nodes = set(nodes)
    check_failures(net.live, nodes)
    check_choice("failure handling", failure, FAILURES)
    check_choice("unsubscribe handling", handling, UNSUBSCRIBE)
    check_choice("covering reading", covering, COVERING)
    live = net.live - nodes
    failed_filters = sorted({g for s, g, _ in net.reach if s in nodes}, key=str)
    filters = frozenset(e for e in net.filters if e[0] in live)
    reach = frozenset(r for r in net.reach if r[0] in live)
    known = live if net.tables_after_failure == "repaired" else net.known or net.live
    tables = tables_for(net.space, live, net.representative) if net.tables_after_failure == "repaired" else \
        tuple((n, t) for n, t in net.tables if n in live)
    net = attrs.evolve(net, live=live, tables=tables, filters=filters, reach=reach, known=known)
    if failure == "prune-unrouted":
        stray = set(stray_entries(net))
        net = attrs.evolve(net, filters=frozenset(e for e in net.filters if e not in stray))
    if failure == "withdraw-failed":
        net = drop_subscribers(net, nodes)
        if handling == "resubscribe-uncovered":
            net = widen_uncovered(net, live, covering)
        elif handling == "widen-covered":
            net = widen_covered(net, live, failed_filters)
    return net


def drop_subscribers(net: Network, nodes) -> Network:
    """Every table drops the entries of the subscribers `nodes` (and stops marking them withdrawn)."""
    return attrs.evolve(net, filters=frozenset(e for e in net.filters if e[3] not in nodes),
                        withdrawn=frozenset(w for w in net.withdrawn if w[1] not in nodes))


def leave(net: Network, n: str, handling: str = "resubscribe-uncovered",
          covering: str = "covering-ordered", failure: str = "withdraw-failed") -> Network:
    """Sec. 3.5 (3): a node leaving "should affect the propagation of messages as little as
    possible". This project's design: it unsubscribes each of its filters (so the subscriptions
    they covered are widened first), then departs as a failure would (tables and entries as the
    reading has them after a failure)."""
    if n not in net.live:
        raise ValueError(f"{n!r} is not a live node")
    check_choice("unsubscribe handling", handling, UNSUBSCRIBE)  # even with no filter to withdraw
    check_choice("covering reading", covering, COVERING)
    check_choice("failure handling", failure, FAILURES)
    for _, f, _ in [e for e in net.ft(n) if e[0] == n and e[2] == n]:
        net, _ = unsubscribe(net, n, f, handling, covering)
    return fail(net, [n], failure, handling, covering)


def join(net: Network, n: str, design: str = "copy-closest") -> tuple[Network, int]:
    """Node n joins (a fresh node: an identifier that is not live). Returns the network and the
    messages the filter-table initialization took (the Pastry join itself is not counted)."""
    net.space.check(n)
    check_choice("join design", design, JOINS)
    if n in net.live:
        raise ValueError(f"{n!r} is already a live node")
    live = net.live | {n}
    known = live if net.tables_after_failure == "repaired" else (net.known or net.live) | {n}
    closest = min(net.live, key=lambda m: (-common_prefix_length(n, m), m))
    # entries naming n were left by an earlier node with n's identifier: not the newcomer's
    copied = [(f, s) for m, _, f, s in net.filters if m == closest and s != n]
    if design == "copy-closest":
        entries = {(n, s[:common_prefix_length(n, s) + 1], f, s) for f, s in copied}
        messages = 1
    else:
        subscribers = {s for _, s in copied}
        entries = {(n, s[:common_prefix_length(n, s) + 1], f, s) for s, f, level in net.reach
                   if s in subscribers and common_prefix_length(n, s) >= level}
        messages = 1 + 2 * len(subscribers)
    net = attrs.evolve(net, live=live, known=known, tables=tables_for(net.space, live, net.representative, known),
                       filters=net.filters | entries)
    return net, messages


def operate(net: Network, op: tuple, reading: Reading = Reading()) -> tuple[Network, str]:
    """One operation, ("subscribe" | "unsubscribe", node, filter) or ("fail" | "leave" |
    "join", node), under the reading; returns the network and a line saying what it did."""
    if not isinstance(reading, Reading):
        raise TypeError(f"reading must be a spec.irbr.Reading, not {reading!r}")
    if not isinstance(op, tuple) or len(op) < 2 or (op[0] in ("subscribe", "unsubscribe") and len(op) < 3):
        raise ValueError(f"an operation is (kind, node) or (subscribe | unsubscribe, node, filter), not {op!r}")
    kind, node = op[0], op[1]
    if kind == "subscribe":
        net, spread = subscribe(net, node, op[2], reading.covering)
        return net, (f"{node} subscribes {op[2]}: {len(spread.messages)} messages "
                     f"{[(a, b) for a, b, _ in spread.messages]}" + (f", lost {list(spread.lost)}" if spread.lost else ""))
    if kind == "unsubscribe":
        net, spread = unsubscribe(net, node, op[2], reading.unsubscribe, reading.covering)
        return net, f"{node} unsubscribes {op[2]}: {len(spread.messages)} messages"
    if kind == "fail":
        return fail(net, [node], reading.failure, reading.unsubscribe, reading.covering), f"{node} fails"
    if kind == "leave":
        return leave(net, node, reading.unsubscribe, reading.covering, reading.failure), \
            f"{node} leaves (unsubscribes its filters, then departs)"
    if kind == "join":
        net, messages = join(net, node, reading.join)
        return net, (f"{node} joins ({reading.join}, {messages} messages); its filter table "
                     f"{[(p, str(f), s) for p, f, s in net.ft(node)]}")
    raise ValueError(f"unknown operation {kind!r} (subscribe, unsubscribe, fail, leave, join)")


@attrs.frozen
class Publication:
    """One event published: who was notified (node -> times), messages, what was lost."""

    publisher: str
    event: tuple             # sorted (attribute, value) pairs
    notified: tuple          # sorted (node, times)
    received: tuple          # sorted (node, copies received from other nodes)
    messages: int
    lost: tuple = ()


def interested(net: Network, event: dict) -> list[str]:
    check_event(event)
    return sorted({s for m, p, f, s in net.filters if m == s == p and s in net.live and f.matches(event)})


def matching_entries(net: Network, event: dict) -> set[tuple[str, str]]:
    """The (node, range) of every FT entry whose filter matches the event."""
    return {(m, p) for m, p, f, _ in net.filters if f.matches(event)}


def event_spread(net: Network, publisher: str, event: dict, matching: set | None = None) -> Spread:
    """The copies of an event (sender, receiver, range): the publisher's delegation tree, into a
    range only if an entry of the sender's FT for that range matches (Fig. 2). `matching`: the
    matching entries, where the caller has them."""
    matching = matching_entries(net, event) if matching is None else matching
    return broadcast(net, publisher, 0, lambda node, prefix: (node, prefix) in matching)


def publish(net: Network, publisher: str, event: dict, matching: set | None = None) -> Publication:
    """The event follows the publisher's delegation tree, pruned where no entry matches
    (event_spread); a node notifies its application if one of its own filters matches.
    `matching`: the matching entries, where the caller has them."""
    check_event(event)
    if publisher not in net.live:
        raise ValueError(f"{publisher!r} is not a live node")
    matching = matching_entries(net, event) if matching is None else matching
    spread = event_spread(net, publisher, event, matching)
    notified: dict[str, int] = {}
    received: dict[str, int] = {}
    for node in [publisher] + [m for _, m, _ in spread.messages]:
        if (node, node) in matching:
            notified[node] = notified.get(node, 0) + 1
    for _, m, _ in spread.messages:
        received[m] = received.get(m, 0) + 1
    return Publication(publisher, tuple(sorted(event.items())), tuple(sorted(notified.items())),
                       tuple(sorted(received.items())), len(spread.messages), tuple(sorted(spread.lost)))


# --------------------------------------------------------------------------------------------
# Claims on a PublishRun: one event published on a network of model I
# --------------------------------------------------------------------------------------------

@attrs.frozen
class PublishRun:
    """One event published, as the claims see it, whichever implementation produced it: the
    publication, the live subscribers whose subscription matches the event, the live nodes, and
    the (sender, receiver) pairs of the unpruned delegation tree from the publisher, sorted."""

    publication: Publication
    interested: frozenset
    live: frozenset
    spanning: tuple


def publish_run(net: Network, publisher: str, event: dict) -> PublishRun:
    return publish_runs(net, [publisher], [event])[0]


def publish_runs(net: Network, publishers: Iterable[str], events: Iterable[dict]) -> tuple[PublishRun, ...]:
    """publish_run of every publisher with every event, publisher by publisher (which entries
    match an event, and who is interested in it, do not depend on the publisher: found once)."""
    by_event = [(event, matching_entries(net, check_event(event)), frozenset(interested(net, event))) for event in events]
    return tuple(PublishRun(publish(net, publisher, event, matching), wanted, net.live, spanning(net, publisher))
                 for publisher in publishers for event, matching, wanted in by_event)


def spanning(net: Network, publisher: str) -> tuple[tuple[str, str], ...]:
    """The (sender, receiver) pairs of the publisher's unpruned delegation tree, sorted."""
    # the unpruned tree reads only the routing tables and the live nodes, which every network a
    # search reaches from one by subscribing or unsubscribing shares: kept per those
    return _kept_per_routing(_SPANNING, (net.tables, net.live, net.tables_after_failure, publisher),
                             lambda: tuple(sorted((a, b) for a, b, _ in broadcast(net, publisher, 0).messages)))


_SPANNING: dict[tuple, tuple[tuple[str, str], ...]] = {}


def every_interested_subscriber_notified_exactly_once(run: PublishRun) -> bool:
    """Abstract: "the subscribing nodes always receive the interested events exactly once as long
    as the message from publishing nodes to subscribing nodes is arrivable"."""
    want = set(run.interested)
    got = dict(run.publication.notified)
    return set(got) == want and all(c == 1 for c in got.values())


def no_node_receives_an_event_twice(run: PublishRun) -> bool:
    return all(c == 1 for _, c in run.publication.received) and \
        run.publication.publisher not in dict(run.publication.received)


def delegation_reaches_every_live_node_once(run: PublishRun) -> bool:
    """Sec. 2: the delegation tree of every node spans the live nodes (no pruning). A copy lost
    to a range with no live node left harms no one; a live node missed or reached twice does."""
    return sorted(m for _, m in run.spanning) == sorted(run.live - {run.publication.publisher})


def a_remote_subscriber_is_interested(run: PublishRun) -> bool:
    return any(s != run.publication.publisher for s in run.interested)


def relays_through_a_node(run: PublishRun) -> bool:
    """Some copy went through a node other than the publisher (a two-level delegation)."""
    return any(m != run.publication.publisher for m, _ in run.spanning)


# A group the checks name (by this name: grep a property, then its group): what one publication of
# model I is held to.
PUBLISH_PROPERTIES = [register(p) for p in (
    Property(ALGORITHM, "every_interested_subscriber_notified_exactly_once",
             every_interested_subscriber_notified_exactly_once,
             "abstract, sec. 3: every interested subscriber receives each event exactly once as long as it is "
             "arrivable from the publisher", witness=a_remote_subscriber_is_interested, subject="PublishRun"),
    Property(ALGORITHM, "no_node_receives_an_event_twice", no_node_receives_an_event_twice,
             "sec. 2, 3.2: an event travels the publisher's delegation tree, so no node gets it twice",
             witness=a_remote_subscriber_is_interested, subject="PublishRun"),
    Property(ALGORITHM, "delegation_reaches_every_live_node_once", delegation_reaches_every_live_node_once,
             "sec. 2: delegating identifier ranges builds a spanning tree rooted at each node",
             witness=relays_through_a_node, subject="PublishRun"),
)]


# --------------------------------------------------------------------------------------------
# Claims on an OperationsRun: the network the operations leave, and the order they came in
# --------------------------------------------------------------------------------------------
# The order of a sequence of operations, as sec. 3.2's claim on changes speaks of it: only
# subscribes and unsubscribes so far; then failures, leaves and joins after them (the changes
# "between the subscribe and the publish"); or a subscribe or unsubscribe after a change.
SUBSCRIBING, CHANGED_AFTER_SUBSCRIBING, INTERLEAVED = "subscribing", "changed after subscribing", "interleaved"
CHANGES = ("fail", "leave", "join")


def order_after(order: str, kind: str) -> str:
    """The order of a sequence of operations once one more of `kind` is done."""
    if order not in (SUBSCRIBING, CHANGED_AFTER_SUBSCRIBING, INTERLEAVED):
        raise ValueError(f"unknown order {order!r}")
    if kind in CHANGES:
        return INTERLEAVED if order == INTERLEAVED else CHANGED_AFTER_SUBSCRIBING
    if kind in ("subscribe", "unsubscribe"):
        return SUBSCRIBING if order == SUBSCRIBING else INTERLEAVED
    raise ValueError(f"unknown operation {kind!r} (subscribe, unsubscribe, fail, leave, join)")


@attrs.frozen
class OperationsRun:
    """A network of model I after operations, as the claims on its filter tables and on changes of
    neighbours see it: the network, the order its operations came in (`order_after`), and one
    event published on it."""

    net: Network
    order: str
    publish: PublishRun


def operations_run(net: Network, order: str, publisher: str, event: dict) -> OperationsRun:
    return OperationsRun(net, order, publish_run(net, publisher, event))


def stray_entries(net: Network) -> list[tuple[str, str, Filter, str]]:
    """The live nodes' filter entries (node, prefix, filter, subscriber) whose prefix is neither the
    node's own identifier nor a range of its routing table."""
    return sorted((e for e in net.filters if e[0] in net.live and e[1] != e[0] and e[1] not in net.table(e[0])),
                  key=repr)


def every_entry_prefix_in_the_routing_table(run: OperationsRun) -> bool:
    """Sec. 3.1: "the prefix in a filter table may equal the node's own identifier, meaning the
    events its application layer is interested in; every other prefix should have a corresponding
    entry in the Pastry routing table"."""
    return not stray_entries(run.net)


def changes_after_subscribing_lose_no_event(run: OperationsRun) -> bool:
    """Sec. 3.2: "since the dissemination tree is created dynamically when the event is published,
    changes of neighbouring nodes between the subscribe and the publish do not affect the delivery
    of the event": where every subscribe and unsubscribe came before the first failure, leave or
    join, every interested live subscriber is notified exactly once."""
    return run.order != CHANGED_AFTER_SUBSCRIBING or every_interested_subscriber_notified_exactly_once(run.publish)


def copies_into_ranges_without_interest(net: Network, run: PublishRun) -> list[tuple[str, str, str]]:
    """The copies of the event published on `net` (sender, receiver, range) sent into a range where
    no live node is interested in it."""
    pub = run.publication
    spread = event_spread(net, pub.publisher, dict(pub.event))
    return [c for c in spread.messages + spread.lost if not any(s.startswith(c[2]) for s in run.interested)]


def no_copy_enters_a_range_without_interest(run: OperationsRun) -> bool:
    """Sec. 3.2: "during forwarding, if no node in the identifier range that a node of the spanning
    tree is responsible for is interested in the event, the event is not sent into that subtree"."""
    return not copies_into_ranges_without_interest(run.net, run.publish)


def an_entry_names_another_range(run: OperationsRun) -> bool:
    return any(m in run.net.live and p != m for m, p, _, _ in run.net.filters)


def a_copy_is_sent(run: OperationsRun) -> bool:
    return run.publish.publication.messages > 0


def a_remote_subscriber_is_interested_after_changes(run: OperationsRun) -> bool:
    return run.order == CHANGED_AFTER_SUBSCRIBING and a_remote_subscriber_is_interested(run.publish)


# A group the checks name: what the network operations leave is held to, and a publication on it
# after subscriptions and then changes.
OPERATIONS_PROPERTIES = [register(p) for p in (
    Property(ALGORITHM, "every_entry_prefix_in_the_routing_table", every_entry_prefix_in_the_routing_table,
             "sec. 3.1: every prefix of a node's filter table is its own identifier or a range of its routing table",
             witness=an_entry_names_another_range, subject="OperationsRun"),
    Property(ALGORITHM, "no_copy_enters_a_range_without_interest", no_copy_enters_a_range_without_interest,
             "sec. 3.2: an event is not sent into the subtree of a range where no node is interested in it",
             witness=a_copy_is_sent, subject="OperationsRun"),
    Property(ALGORITHM, "changes_after_subscribing_lose_no_event", changes_after_subscribing_lose_no_event,
             "sec. 3.2: failures, leaves and joins between the subscribes and the publish do not affect the delivery "
             "of the event",
             witness=a_remote_subscriber_is_interested_after_changes, subject="OperationsRun"),
)]
