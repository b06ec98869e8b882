"""IRBR reference: the same protocol as spec/irbr/ on networks of 10^4-10^5 nodes.

Paper: Wang, Jin & Li, "Building Reliable Content-Based Routing Protocol over Structured P2P
Networks", Journal of Software 17(5), 2006, sec. 2-3.3.

The spec builds every node's routing table from the whole live set; here a table is never built:
the live identifiers are kept sorted, so the representative of a range (all identifiers with a
prefix) is found by binary search, and a node delegates only at levels where its own range still
holds another node. Filter tables are dictionaries from prefix to (filter, subscriber) entries.
tests/test_irbr.py holds this to the spec (filter tables and every publication) on random
networks and operation sequences.

As the spec's one-at-a-time model: subscribe (with the covering optimization), unsubscribe, fail,
join, leave, publish; `random_workload` draws the Spark validation's networks and operations.
"""

from __future__ import annotations

import zlib
from bisect import bisect_left, insort
from collections import deque
from typing import Iterable

import attrs
import numpy as np

from reference.generators import log_uniform_int, rng_for
from spec import irbr as I
from spec.irbr import Filter, Publication, Space, common_prefix_length, parse_filter  # noqa: F401

_AFTER_EVERY_DIGIT = "~"  # sorts after 0-9 and a-z


def _filter(f) -> Filter:
    """A Filter, or its text parsed."""
    if isinstance(f, str):
        return parse_filter(f)
    if not isinstance(f, Filter):
        raise TypeError(f"f must be a Filter or a filter's text such as 'x in 1..5', not {f!r}")
    return f


def _nodes(nodes) -> set:
    if isinstance(nodes, (str, bytes)) or not isinstance(nodes, Iterable):  # fail("01") is not fail(["0", "1"])
        raise TypeError(f"nodes must be a collection of identifiers, not {nodes!r}")
    return set(nodes)


class Network:
    """`Network(k, L, ids)`: a Pastry-style network of live nodes with IRBR's filter tables."""

    def __init__(self, k: int, L: int, ids: Iterable[str], representative: str = "smallest",
                 tables_after_failure: str = "repaired", covering: str = "covering-ordered",
                 unsubscribe: str = "resubscribe-uncovered", failure: str = "withdraw-failed"):
        self.space = Space(k, L)
        ids = I.checked_ids(self.space, ids)
        I.Reading(covering, tables_after_failure, representative, unsubscribe, failure=failure)  # refuses an unknown choice
        self.representative, self.tables_after_failure, self.covering = representative, tables_after_failure, covering
        self.unsubscribe_handling, self.failure = unsubscribe, failure
        self._reach: dict[tuple[str, Filter], int] = {}
        self._live_sorted: list[str] | None = None
        self._tables: dict[str, tuple] = {}  # delegation lists, dropped when the nodes change
        self._subranges: dict[str, list] = {}
        self.live = set(ids)
        self._table_ids = sorted(ids)  # what routing tables are built from (stale: the ids before failures)
        self._ft: dict[str, dict[str, list[tuple[Filter, str]]]] = {n: {} for n in ids}

    # -- routing ---------------------------------------------------------------------------

    def delegations(self, n: str, level: int) -> list[tuple[str, str]]:
        """(range prefix, representative) for every range n delegates at levels >= level."""
        if n not in self._tables:  # checked once per node (the table is kept): no typo gets a table
            self.space.check(n)
            if not isinstance(level, int) or not 0 <= level <= self.space.L:
                raise ValueError(f"level must be an integer in 0..{self.space.L}, not {level!r}")
        cached = self._tables.get(n)
        if cached is None:
            cached = self._tables[n] = self._delegation_table(n)
        table, starts = cached
        return table if level == 0 else table[starts[level]:] if level < len(starts) else []

    def _children(self, prefix: str) -> list[tuple[str, int, int]]:
        """The non-empty sub-ranges of `prefix` (one digit longer) as (prefix, lo, hi) slices of
        the sorted identifiers, shared by every node of the range; kept until the nodes change."""
        got = self._subranges.get(prefix)
        if got is None:
            ids, j = self._table_ids, len(prefix)
            lo = bisect_left(ids, prefix)
            hi = bisect_left(ids, prefix + _AFTER_EVERY_DIGIT, lo)
            got, a = [], lo
            while a < hi:
                child = ids[a][:j + 1]
                b = bisect_left(ids, child + _AFTER_EVERY_DIGIT, a, hi)
                got.append((child, a, b))
                a = b
            self._subranges[prefix] = got
        return got

    def _delegation_table(self, n: str) -> tuple[list[tuple[str, str]], list[int]]:
        """RT^n as the delegation list at level 0 (ranges by level), and where each level starts."""
        out, starts = [], []
        ids = self._table_ids
        for j in range(self.space.L):
            children = self._children(n[:j])
            starts.append(len(out))
            if len(children) == 1 and children[0][2] - children[0][1] <= 1:
                break  # the range n[:j] holds n alone: nothing deeper
            for prefix, a, b in children:
                if prefix[j] == n[j]:
                    continue
                rep = ids[a] if self.representative == "smallest" else ids[b - 1] \
                    if self.representative == "largest" else \
                    ids[a + zlib.crc32(f"{n}/{prefix}".encode()) % (b - a)]
                if rep not in self.live and self.tables_after_failure == "stale-alternates":
                    rep = self._smallest_live(prefix) or rep
                out.append((prefix, rep))
        return out, starts

    def _forget_tables(self, changed: Iterable[str], ids: list[str]) -> None:
        """Drop the delegation tables that `changed` identifiers joining or leaving the sorted
        `ids` (which hold them) can alter, keeping the others. With the smallest (largest)
        identifier of a range as its representative, x matters to a node's table only where x
        represents a range the node delegates, or empties or fills one: in the ranges x[:j + 1] from
        the shallowest one x represents, whose nodes all share x[:j]; every other node's ranges keep
        their representative and stay non-empty. A hashed representative, or a live alternate
        standing in for a failed one, can change anywhere: there every table goes."""
        if self.representative not in ("smallest", "largest") or self.tables_after_failure == "stale-alternates":
            self._tables = {}
            return
        for x in changed:
            self._tables.pop(x, None)
            for j in range(self.space.L):
                child = x[:j + 1]
                lo = bisect_left(ids, child)
                rep = ids[lo] if self.representative == "smallest" else \
                    ids[bisect_left(ids, child + _AFTER_EVERY_DIGIT, lo) - 1]
                if rep == x:
                    break
            lo = bisect_left(ids, x[:j])
            for n in ids[lo:bisect_left(ids, x[:j] + _AFTER_EVERY_DIGIT, lo)]:
                self._tables.pop(n, None)

    def _smallest_live(self, prefix: str) -> str | None:
        if self._live_sorted is None:
            self._live_sorted = sorted(self.live)
        i = bisect_left(self._live_sorted, prefix)
        return self._live_sorted[i] if i < len(self._live_sorted) and self._live_sorted[i].startswith(prefix) else None

    def _broadcast(self, origin: str, level: int, forward=None, shared: list | None = None) -> tuple[list, list]:
        """The delegation tree from `origin` at `level`: the messages sent (sender, receiver, range)
        and lost (to a failed representative). With `shared`, each receiver's common prefix length
        with the origin is appended to it, in the order of `sent`: the origin's delegation to a range
        one digit longer than d digits it shares with it reaches nodes that all share exactly d."""
        sent, lost = [], []
        live = self.live
        queue = deque([(origin, level, -1)])
        while queue:
            node, lvl, depth = queue.popleft()
            for prefix, rep in self.delegations(node, lvl):
                if forward is not None and not forward(node, prefix):
                    continue
                if rep not in live:
                    lost.append((node, rep, prefix))
                    continue
                sent.append((node, rep, prefix))
                below = len(prefix) - 1 if depth < 0 else depth
                if shared is not None:
                    shared.append(below)
                queue.append((rep, len(prefix), below))
        return sent, lost

    # -- operations ------------------------------------------------------------------------

    def _live(self, n: str) -> str:
        if not isinstance(n, str) or n not in self.live:
            raise ValueError(f"{n!r} is not a live node")
        return n

    def _level(self, node: str, f: Filter) -> int:
        """How far a subscription must go (spec.irbr.subscribe_level)."""
        level = 0
        if self.covering != "no-covering":
            for q, entries in self._ft[node].items():
                if any(I.counts_on(f2, s, f, node, self.covering) for f2, s in entries):
                    level = max(level, common_prefix_length(q, node))
        return level

    def _everyone_in_range(self, origin: str, level: int) -> list[tuple[int, list[str]]] | None:
        """Where no failed identifier is left in the tables, the receivers of origin's whole
        delegation tree from `level`, without walking it: every range's representative is then
        live, so the tree reaches each other node of the range origin[:level] once (sec. 2; the
        spec's delegation_reaches_every_live_node_once, and tests/test_irbr.py holds this to
        _broadcast). The receivers come grouped by their common prefix length d with origin, each
        group a slice of the sorted identifiers (those with origin[:d] and not origin[:d + 1]).
        None where a failed identifier is still known (stale tables): then messages can be lost."""
        ids = self._table_ids
        if len(ids) != len(self.live):   # the tables' identifiers are the live ones and the failed ones kept
            return None
        groups = []
        for d in range(level, self.space.L):
            lo = bisect_left(ids, origin[:d])
            hi = bisect_left(ids, origin[:d] + _AFTER_EVERY_DIGIT, lo)
            a = bisect_left(ids, origin[:d + 1], lo, hi)
            b = bisect_left(ids, origin[:d + 1] + _AFTER_EVERY_DIGIT, a, hi)
            if a - lo + hi - b:
                groups.append((d, ids[lo:a] + ids[b:hi]))
        return groups

    def _record(self, node: str, f: Filter, receivers: list[tuple[int, list[str]]], level: int) -> None:
        """node's subscription f in the filter table of node and of every receiver m (grouped by
        the common prefix length d they share with node, as _spread gives them), under node's
        prefix one digit longer than m shares with it."""
        entry, ft = (f, node), self._ft
        for prefix, ms in [(node, [node])] + [(node[:d + 1], ms) for d, ms in receivers]:
            for m in ms:       # a loop over every node of the range: no list made where one exists
                table = ft[m]
                entries = table.get(prefix)
                if entries is None:
                    table[prefix] = [entry]
                elif entry not in entries:
                    entries.append(entry)
        self._reach[(node, f)] = min(level, self._reach.get((node, f), self.space.L))

    def _spread(self, node: str, level: int, forward=None) -> tuple[int, list[tuple[int, list[str]]]]:
        """The messages of node's delegation tree from `level` (pruned by `forward`) and its
        receivers grouped by their common prefix length with node, as _record takes them."""
        if forward is None:
            groups = self._everyone_in_range(node, level)
            if groups is not None:
                return sum(len(ms) for _, ms in groups), groups
        shared: list[int] = []
        sent, _ = self._broadcast(node, level, forward, shared)
        by_length: dict[int, list[str]] = {}
        for (_, m, _), d in zip(sent, shared):
            by_length.setdefault(d, []).append(m)
        return len(sent), sorted(by_length.items())

    def subscribe(self, node: str, f: Filter | str) -> int:
        """Subscribe `node` to `f` (a Filter or its text); returns the messages sent. An empty
        filter (a range lo > hi) is a valid subscription that no event matches."""
        node, f = self._live(node), _filter(f)
        level = self._level(node, f)
        messages, receivers = self._spread(node, level)
        self._record(node, f, receivers, level)
        return messages

    def unsubscribe(self, node: str, f: Filter | str) -> int:
        """Withdraw `node`'s subscription `f` everywhere; under `resubscribe-uncovered` every node
        that hears of it widens its own subscriptions that the withdrawn filter had covered
        (spec.irbr.unsubscribe). Returns the messages sent, the widenings included."""
        node, f = self._live(node), _filter(f)
        if (f, node) not in self._ft[node].get(node, []):
            raise ValueError(f"{node!r} has no subscription {f}")
        messages, receivers = self._spread(node, 0)
        heard = [node] + [m for _, ms in receivers for m in ms]
        for m in heard:
            self._drop_entries(m, (node,), lambda e: e == (f, node))
        self._reach.pop((node, f), None)
        if self.unsubscribe_handling == "resubscribe-uncovered":
            messages += self._widen_uncovered(set(heard))
        elif self.unsubscribe_handling == "widen-covered":
            messages += self._widen_covered(set(heard), (f,))
        return messages

    def _widen_covered(self, nodes: set, withdrawn) -> int:
        """spec.irbr.widen_covered: each node's subscriptions that a withdrawn filter covers go on
        to every range they had skipped. Returns the messages sent."""
        return sum(self._send_on(s, g, 0)
                   for s, g in sorted((key for key in self._reach if key[0] in nodes), key=lambda key: (key[0], str(key[1])))
                   if self._reach[(s, g)] and any(I.covers(f, g) for f in withdrawn))

    def _widen_uncovered(self, nodes: set) -> int:
        """spec.irbr.widen_uncovered: each node's subscriptions sent less far than the covering
        rule now allows go on to the ranges they had skipped. Returns the messages sent."""
        messages = 0
        by_subscriber: dict[str, list] = {}
        for key in self._reach:
            if key[0] in nodes:
                by_subscriber.setdefault(key[0], []).append(key)
        for m in sorted(by_subscriber):
            for s, g in sorted(by_subscriber[m], key=lambda key: str(key[1])):
                needed = self._level(s, g)
                if needed < self._reach[(s, g)]:
                    messages += self._send_on(s, g, needed)
        return messages

    def _drop_entries(self, m: str, subscribers: Iterable[str], drop) -> None:
        """Remove from m's filter table the entries of `subscribers` for which `drop` holds. An entry
        of subscriber s lies at m under s's prefix one digit longer than s shares with m (_record,
        join), so only those prefixes are looked at."""
        table = self._ft[m]
        for s in subscribers:
            prefix = s[:common_prefix_length(m, s) + 1]
            entries = table.get(prefix)
            if entries and any(drop(e) for e in entries):
                table[prefix] = [e for e in entries if not drop(e)]
                if not table[prefix]:
                    del table[prefix]

    def _known(self, prefix: str) -> bool:
        """Whether an identifier the routing tables know has `prefix`."""
        i = bisect_left(self._table_ids, prefix)
        return i < len(self._table_ids) and self._table_ids[i].startswith(prefix)

    def _send_on(self, s: str, g: Filter, level: int) -> int:
        """spec.irbr.send_on: s's subscription g goes on to the ranges it had skipped, from `level`.
        Returns the messages sent."""
        before = self._reach[(s, g)]
        messages, receivers = self._spread(s, level, lambda n, prefix: n != s or len(prefix) <= before)
        self._record(s, g, receivers, level)
        return messages

    def fail(self, nodes: Iterable[str]) -> None:
        """Nodes crash (spec.irbr.fail): under withdraw-failed every live node drops the failed
        nodes' entries and widens its subscriptions that counted on one (resubscribe-uncovered)
        or that a failed node's filter covers (widen-covered); under prune-unrouted each drops the
        entries under a prefix no live node has."""
        nodes = _nodes(nodes)
        I.check_failures(self.live, nodes)
        failed_filters = sorted({f for s, f in self._reach if s in nodes}, key=str)
        self.live -= nodes
        self._live_sorted = None
        for n in nodes:
            del self._ft[n]
            self._tables.pop(n, None)
        self._reach = {key: level for key, level in self._reach.items() if key[0] in self.live}
        if self.tables_after_failure == "repaired":   # stale tables are built from the ids before the failure
            self._forget_tables(nodes, self._table_ids)
            self._table_ids, self._subranges = sorted(self.live), {}
        elif self.tables_after_failure == "stale-alternates":
            self._tables = {}
        if self.failure == "prune-unrouted":   # sec. 3.1's rule: an entry goes with its range's table entry
            for n, table in self._ft.items():
                for prefix in [p for p in table if p != n and not self._known(p)]:
                    del table[prefix]
        if self.failure == "withdraw-failed":
            for m in self._ft:
                self._drop_entries(m, nodes, lambda e: e[1] in nodes)
            if self.unsubscribe_handling == "resubscribe-uncovered":
                self._widen_uncovered(set(self.live))
            elif self.unsubscribe_handling == "widen-covered":
                self._widen_covered(set(self.live), failed_filters)

    def publish(self, node: str, event: dict) -> Publication:
        """Publish `event` at `node`: who was notified (node -> times) and the messages sent."""
        node = self._live(node)
        I.check_event(event)

        def matches(m: str, prefix: str) -> bool:
            return any(f.matches(event) for f, _ in self._ft[m].get(prefix, ()))

        sent, lost = self._broadcast(node, 0, matches)
        notified: dict[str, int] = {}
        received: dict[str, int] = {}
        for m in [node] + [m for _, m, _ in sent]:
            if matches(m, m):
                notified[m] = notified.get(m, 0) + 1
        for _, m, _ in sent:
            received[m] = received.get(m, 0) + 1
        return Publication(node, tuple(sorted(event.items())), tuple(sorted(notified.items())),
                           tuple(sorted(received.items())), len(sent), tuple(sorted(lost)))

    def leave(self, node: str) -> int:
        """A graceful departure (spec.irbr.leave): unsubscribe every own filter, then fail.
        Returns the messages the unsubscribes sent."""
        node = self._live(node)
        messages = sum(self.unsubscribe(node, f) for f, s in list(self._ft[node].get(node, ())) if s == node)
        self.fail([node])
        return messages

    def join(self, node: str, design: str = "copy-closest") -> int:
        """A fresh node joins (spec.irbr.join): Pastry puts it into the tables (repaired: rebuilt;
        stale: the newcomer is added beside the failed entries), then it initializes its filter
        table by `design`. Returns the messages the initialization took."""
        self.space.check(node)
        I.check_choice("join design", design, I.JOINS)
        if node in self.live:
            raise ValueError(f"{node!r} is already a live node")
        live = sorted(self.live)
        i = bisect_left(live, node)
        # the live node sharing the longest prefix is a sorted neighbour; the smallest such on ties
        closest = min(live[max(0, i - 1):i + 1], key=lambda m: -common_prefix_length(node, m))
        best = common_prefix_length(node, closest)
        closest = live[bisect_left(live, node[:best])]
        entries = [(f, s) for q, fs in self._ft[closest].items() for f, s in fs if s != node]
        if design == "copy-closest":
            wanted, messages = entries, 1
        else:
            subscribers = {s for _, s in entries}
            wanted = [(f, s) for (s, f), level in self._reach.items()
                      if s in subscribers and common_prefix_length(node, s) >= level]
            messages = 1 + 2 * len(subscribers)
        self.live.add(node)
        self._ft[node] = {}
        for f, s in wanted:
            entries = self._ft[node].setdefault(s[:common_prefix_length(node, s) + 1], [])
            if (f, s) not in entries:
                entries.append((f, s))
        i = bisect_left(self._table_ids, node)
        if i == len(self._table_ids) or self._table_ids[i] != node:
            insort(self._table_ids, node)  # a failed identifier coming back is still known to stale tables
            self._forget_tables([node], self._table_ids)
        elif self.tables_after_failure == "stale-alternates":   # a live alternate may now be the newcomer
            self._tables = {}
        if self.tables_after_failure == "repaired":
            self._table_ids = sorted(self.live)
        self._live_sorted, self._subranges = None, {}
        return messages

    def publish_run(self, node: str, event: dict) -> I.PublishRun:
        """`publish`, with what the claims (spec.irbr) judge it by: the interested live subscribers,
        the live nodes and the unpruned delegation tree from the publisher."""
        publication = self.publish(node, event)
        interested = frozenset(m for m in self.live if any(f.matches(event) for f, s in self._ft[m].get(m, ())))
        spanning, _ = self._broadcast(node, 0)
        return I.PublishRun(publication, interested, frozenset(self.live), tuple(sorted((a, b) for a, b, _ in spanning)))

    def filter_table(self, node: str) -> list[tuple[str, Filter, str]]:
        """FT^node as sorted (prefix, filter, subscriber) entries, as spec.irbr.Network.ft gives them."""
        self._live(node)
        return sorted((p, f, s) for p, entries in self._ft[node].items() for f, s in entries)


# --------------------------------------------------------------------------------------------
# The Scribe-based baseline (sec. 1, 4)
# --------------------------------------------------------------------------------------------

class Scribe:
    """Sec. 4's baseline on the same Pastry identifiers: one rendezvous node for all events (the
    live node whose identifier shares the longest prefix with `key`, the smallest such), a
    multicast tree made of the subscribers' Pastry routes toward it (reverse path forwarding),
    events routed to the rendezvous and then down the tree, pruned where no subscriber below a
    child matches. Before repair a failed tree node loses everything below it (and a failed
    rendezvous everything); `repair()` re-joins every live subscriber (the heartbeat timeout)."""

    def __init__(self, k: int, L: int, ids: Iterable[str], key: str | None = None):
        self.space = Space(k, L)
        self.ids = sorted(I.checked_ids(self.space, ids))
        self.key = self.space.check(key) if key is not None else self.space.digits[0] * L
        self.live = set(self.ids)
        self.filters: dict[str, list[Filter]] = {}
        self.parent: dict[str, str] = {}
        self.children: dict[str, set[str]] = {}
        self.root = self._rendezvous()

    def _rendezvous(self) -> str:
        best = max(common_prefix_length(n, self.key) for n in self.live)
        return min(n for n in self.live if common_prefix_length(n, self.key) == best)

    def route(self, source: str) -> list[str]:
        """Pastry's route from `source` to the rendezvous: each hop shares at least one more digit
        with the key (the node `at`'s table names for that range, chosen per node as under the
        `per-node` reading), then the rendezvous itself."""
        if not isinstance(source, str) or source not in self.live:
            raise ValueError(f"{source!r} is not a live node")
        path, at = [source], source
        live = sorted(self.live)
        while at != self.root:
            prefix = self.key[:common_prefix_length(at, self.key) + 1]
            lo, hi = bisect_left(live, prefix), bisect_left(live, prefix + _AFTER_EVERY_DIGIT)
            nxt = live[lo + zlib.crc32(f"{at}/{prefix}".encode()) % (hi - lo)] if hi > lo else self.root
            path.append(nxt)
            at = nxt
        return path

    def subscribe(self, node: str, f: Filter | str) -> int:
        """Join the tree along the route to the rendezvous; returns the messages sent."""
        if not isinstance(node, str) or node not in self.live:
            raise ValueError(f"{node!r} is not a live node")
        f = _filter(f)
        self.filters.setdefault(node, []).append(f)
        return self._join(node)

    def _join(self, node: str) -> int:
        path, messages = self.route(node), 0
        for child, up in zip(path, path[1:]):
            messages += 1
            if self.parent.get(child) == up:
                break  # already on the tree from here up
            self.parent[child] = up
            self.children.setdefault(up, set()).add(child)
        return messages

    def _wants(self, node: str, event: dict, seen=None) -> bool:
        """Some subscriber at or below `node` in the tree matches (what a child's filter summary says)."""
        if any(f.matches(event) for f in self.filters.get(node, ())):
            return True
        return any(self._wants(c, event) for c in self.children.get(node, ()))

    def publish(self, node: str, event: dict) -> Publication:
        """Route the event to the rendezvous, then down the tree; failed nodes drop it."""
        if not isinstance(node, str) or node not in self.live:
            raise ValueError(f"{node!r} is not a live node")
        I.check_event(event)
        messages = 0
        received: dict[str, int] = {}
        path = self.route(node)
        for hop in path[1:]:
            messages += 1
            received[hop] = received.get(hop, 0) + 1
        notified: dict[str, int] = {}
        queue = deque([self.root]) if self.root in self.live else deque()
        while queue:
            at = queue.popleft()
            if any(f.matches(event) for f in self.filters.get(at, ())) and at in self.live:
                notified[at] = notified.get(at, 0) + 1
            for child in sorted(self.children.get(at, ())):
                if self._wants(child, event):
                    messages += 1
                    if child in self.live:
                        received[child] = received.get(child, 0) + 1
                        queue.append(child)
        return Publication(node, tuple(sorted(event.items())), tuple(sorted(notified.items())),
                           tuple(sorted(received.items())), messages)

    def fail(self, nodes: Iterable[str]) -> None:
        """Nodes crash; the tree keeps them until `repair()`. The rendezvous moves if it failed."""
        nodes = _nodes(nodes)
        I.check_failures(self.live, nodes)
        self.live -= nodes
        for n in nodes:
            self.filters.pop(n, None)

    def repair(self) -> None:
        """Rebuild the tree: every live subscriber re-joins toward the (possibly new) rendezvous."""
        self.root = self._rendezvous()
        self.parent, self.children = {}, {}
        for n in sorted(self.filters):
            self._join(n)


# --------------------------------------------------------------------------------------------
# Random networks and workloads (the Spark validation's scenarios)
# --------------------------------------------------------------------------------------------

ALGORITHM_SALT = "irbr"
BASES = (2, 4, 16)
MAX_RANDOM_NODES = 3000
ATTRIBUTES = ("x", "y")


@attrs.frozen
class Workload:
    """A network and a sequence of operations: ("subscribe", node, filter), ("unsubscribe", node,
    filter), ("publish", node, event as sorted pairs), ("fail", node, None), ("leave", node, None),
    ("join", node, None)."""

    k: int
    L: int
    ids: tuple
    operations: tuple

    def replay(self, net: "Network", join_design: str = "copy-closest", on_publish=None) -> None:
        """Apply the operations; `on_publish(index, run)` gets every publication's PublishRun."""
        known = ("subscribe", "unsubscribe", "fail", "leave", "join", "publish")
        for index, (kind, node, item) in enumerate(self.operations):
            if kind not in known:  # else it would be taken for a publish
                raise ValueError(f"operation {index}: unknown kind {kind!r}; known: {', '.join(known)}")
            if kind == "subscribe":
                net.subscribe(node, item)
            elif kind == "unsubscribe":
                net.unsubscribe(node, item)
            elif kind == "fail":
                net.fail([node])
            elif kind == "leave":
                net.leave(node)
            elif kind == "join":
                net.join(node, join_design)
            else:
                run = net.publish_run(node, dict(item))
                if on_publish is not None:
                    on_publish(index, run)


def random_filter(rng: np.random.Generator) -> Filter:
    """A conjunction over x and y (values 0..9): each constrained with probability 3/4 to an
    interval or a value, so that filters often cover one another."""
    if not isinstance(rng, np.random.Generator):
        raise TypeError(f"rng must be a numpy.random.Generator, not {rng!r}")
    bounds = {}
    for a in ATTRIBUTES:
        if rng.random() < 0.75:
            lo, hi = sorted(int(v) for v in rng.integers(0, 10, size=2))
            bounds[a] = (lo, hi)
    return I.make_filter(**bounds) if bounds else I.make_filter(x=(0, 9))


SMALL_NODES = 64
LARGE_EVERY = 500


def random_workload(seed: int, max_nodes: int = MAX_RANDOM_NODES, max_operations: int = 16,
                    small_nodes: int = SMALL_NODES, large_every: int = LARGE_EVERY) -> Workload:
    """k uniform in (2, 4, 16); nodes log-uniform in 2..small_nodes, except with probability
    1/large_every log-uniform in small_nodes+1..max_nodes (a large network costs hundreds of small
    ones: exactly-once failures show on a few nodes, scale is what the large ones test); distinct
    random identifiers of L = ceil(log_k(4 n)) digits; then 4..max_operations operations: subscribe a random live
    node to a random filter (40%), unsubscribe a held subscription (15%), publish a random event
    (values 0..9 of x and y, each absent with probability 1/8) at a random live node (25%),
    fail (6%) or leave (4%) a random live node (never the last), join a random fresh identifier
    (10%); a draw with nothing to act on (no subscription held, one node left, an identifier
    already live, a subscription already held) is skipped; the
    last operation is a publish."""
    for name, value, least in (("max_nodes", max_nodes, 2), ("max_operations", max_operations, 2),
                               ("small_nodes", small_nodes, 2), ("large_every", large_every, 1)):
        if not isinstance(value, int) or isinstance(value, bool):
            raise TypeError(f"{name} must be an integer >= {least}, not {value!r}")
        if value < least:  # small_nodes 1 leaves no network; large_every 0 would make every one large
            raise ValueError(f"{name} must be at least {least}, not {value!r}" if name in ("small_nodes", "large_every")
                             else "max_nodes and max_operations must be at least 2")
    rng = rng_for(ALGORITHM_SALT, seed)
    k = int(rng.choice(BASES))
    large = max_nodes > small_nodes and rng.random() * large_every < 1
    n = log_uniform_int(rng, small_nodes + 1, max_nodes) if large else log_uniform_int(rng, 2, min(small_nodes, max_nodes))
    L = max(2, int(np.ceil(np.log(4 * n) / np.log(k))))
    space = Space(k, L)
    values = rng.choice(k ** L, size=n, replace=False) if k ** L <= 10 ** 7 else \
        np.unique(rng.integers(0, k ** L, size=2 * n))[:n]

    def ident(v: int) -> str:
        return "".join(space.digits[(int(v) // k ** (L - 1 - i)) % k] for i in range(L))

    ids = sorted(ident(v) for v in values)
    live, held, ops = list(ids), [], []
    count = int(rng.integers(4, max_operations + 1))
    for i in range(count):
        draw = 1.0 if i == count - 1 else rng.random()
        if draw < 0.40:
            node, f = live[int(rng.integers(len(live)))], random_filter(rng)
            if (node, f) not in held:
                ops.append(("subscribe", node, f))
                held.append((node, f))
        elif draw < 0.55:
            if held:
                node, f = held.pop(int(rng.integers(len(held))))
                ops.append(("unsubscribe", node, f))
        elif draw < 0.65:
            if len(live) > 1:
                node = live.pop(int(rng.integers(len(live))))
                held = [(m, f) for m, f in held if m != node]
                ops.append(("fail" if draw < 0.61 else "leave", node, None))
        elif draw < 0.75:
            fresh = ident(int(rng.integers(k ** L)))
            if fresh not in live:
                insort(live, fresh)
                ops.append(("join", fresh, None))
        else:
            event = tuple((a, int(rng.integers(10))) for a in ATTRIBUTES if rng.random() >= 0.125)
            ops.append(("publish", live[int(rng.integers(len(live)))], event))
    return Workload(k, L, tuple(ids), tuple(ops))
