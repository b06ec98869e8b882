"""IRBR reference: the same protocol as spec/irbr.py on networks of 10^4-10^5 nodes.

Paper: Wang, Jin & Li, "Building Reliable Content-Based Routing Protocol over Structured P2P
Networks", Journal of Software 17(5), 2006, sec. 2-3.3.

The spec builds every node's routing table from the whole live set; here a table is never built:
the live identifiers are kept sorted, so the representative of a range (all identifiers with a
prefix) is found by binary search, and a node delegates only at levels where its own range still
holds another node. Filter tables are dictionaries from prefix to (filter, subscriber) entries.
tests/test_irbr.py holds this to the spec (filter tables and every publication) on random
networks and operation sequences.

First slice, as the spec: subscribe (with the covering optimization), unsubscribe, fail, publish.
"""

from __future__ import annotations

from bisect import bisect_left
from collections import deque
from typing import Iterable

from spec import irbr as I
from spec.irbr import Filter, Publication, Space, common_prefix_length, parse_filter  # noqa: F401

_AFTER_EVERY_DIGIT = "~"  # sorts after 0-9 and a-z


class Network:
    """`Network(k, L, ids)`: a Pastry-style network of live nodes with IRBR's filter tables."""

    def __init__(self, k: int, L: int, ids: Iterable[str], representative: str = "smallest",
                 tables_after_failure: str = "repaired", covering: str = "covering",
                 unsubscribe: str = "resubscribe-uncovered"):
        self.space = Space(k, L)
        ids = list(ids)
        for n in ids:
            self.space.check(n)
        if len(set(ids)) != len(ids):
            seen, dup = set(), set()
            for n in ids:
                (dup if n in seen else seen).add(n)
            raise ValueError(f"duplicate node identifiers: {sorted(dup)[:10]}")
        if not ids:
            raise ValueError("a network needs at least one node")
        if representative not in I.REPRESENTATIVES:
            raise ValueError(f"unknown representative choice {representative!r}; known: {', '.join(I.REPRESENTATIVES)}")
        if tables_after_failure not in I.TABLE_READINGS:
            raise ValueError(f"unknown table reading {tables_after_failure!r}; known: {', '.join(I.TABLE_READINGS)}")
        if covering not in I.COVERING:
            raise ValueError(f"unknown covering reading {covering!r}; known: {', '.join(I.COVERING)}")
        if unsubscribe not in I.UNSUBSCRIBE:
            raise ValueError(f"unknown unsubscribe handling {unsubscribe!r}; known: {', '.join(I.UNSUBSCRIBE)}")
        self.representative, self.tables_after_failure, self.covering = representative, tables_after_failure, covering
        self.unsubscribe_handling = unsubscribe
        self._reach: dict[tuple[str, Filter], int] = {}
        self.live = set(ids)
        self._table_ids = sorted(ids)  # what routing tables are built from (stale: the ids before failures)
        self._ft: dict[str, dict[str, list[tuple[Filter, str]]]] = {n: {} for n in ids}

    # -- routing ---------------------------------------------------------------------------

    def _range(self, prefix: str) -> tuple[int, int]:
        ids = self._table_ids
        return bisect_left(ids, prefix), bisect_left(ids, prefix + _AFTER_EVERY_DIGIT)

    def delegations(self, n: str, level: int) -> list[tuple[str, str]]:
        """(range prefix, representative) for every range n delegates at levels >= level."""
        out = []
        ids = self._table_ids
        for j in range(level, self.space.L):
            lo, hi = self._range(n[:j])
            if hi - lo <= 1:
                break  # the range n[:j] holds n alone: nothing deeper
            for d in self.space.digits:
                if d == n[j]:
                    continue
                a, b = self._range(n[:j] + d)
                if a < b:
                    out.append((n[:j] + d, ids[a] if self.representative == "smallest" else ids[b - 1]))
        return out

    def _broadcast(self, origin: str, level: int, forward=None) -> tuple[list, list]:
        sent, lost = [], []
        queue = deque([(origin, level)])
        while queue:
            node, lvl = queue.popleft()
            for prefix, rep in self.delegations(node, lvl):
                if forward is not None and not forward(node, prefix):
                    continue
                if rep not in self.live:
                    lost.append((node, rep, prefix))
                    continue
                sent.append((node, rep, prefix))
                queue.append((rep, len(prefix)))
        return sent, lost

    # -- operations ------------------------------------------------------------------------

    def _live(self, n: str) -> str:
        if n not in self.live:
            raise ValueError(f"{n!r} is not a live node")
        return n

    def _level(self, node: str, f: Filter) -> int:
        """How far a subscription must go (spec.irbr.subscribe_level)."""
        level = 0
        if self.covering == "covering":
            for q, entries in self._ft[node].items():
                if any(I.covers(f2, f) and (f2, s) != (f, node) for f2, s in entries):
                    level = max(level, common_prefix_length(q, node))
        return level

    def _record(self, node: str, f: Filter, sent: list, level: int) -> None:
        for m, prefix in [(node, node)] + [(m, node[:common_prefix_length(m, node) + 1]) for _, m, _ in sent]:
            entries = self._ft[m].setdefault(prefix, [])
            if (f, node) not in entries:
                entries.append((f, node))
        self._reach[(node, f)] = min(level, self._reach.get((node, f), self.space.L))

    def subscribe(self, node: str, f: Filter | str) -> int:
        """Subscribe `node` to `f` (a Filter or its text); returns the messages sent."""
        node, f = self._live(node), parse_filter(f) if isinstance(f, str) else f
        level = self._level(node, f)
        sent, _ = self._broadcast(node, level)
        self._record(node, f, sent, level)
        return len(sent)

    def unsubscribe(self, node: str, f: Filter | str) -> int:
        """Withdraw `node`'s subscription `f` everywhere; under `resubscribe-uncovered` every node
        that hears of it widens its own subscriptions that the withdrawn filter had covered
        (spec.irbr.unsubscribe). Returns the messages sent, the widenings included."""
        node, f = self._live(node), parse_filter(f) if isinstance(f, str) else f
        if (f, node) not in self._ft[node].get(node, []):
            raise ValueError(f"{node!r} has no subscription {f}")
        sent, _ = self._broadcast(node, 0)
        messages = len(sent)
        for m in [node] + [m for _, m, _ in sent]:
            for prefix in list(self._ft[m]):
                self._ft[m][prefix] = [e for e in self._ft[m][prefix] if e != (f, node)]
                if not self._ft[m][prefix]:
                    del self._ft[m][prefix]
        self._reach.pop((node, f), None)
        if self.unsubscribe_handling == "resubscribe-uncovered":
            for m in sorted({node} | {m for _, m, _ in sent}):
                for (s, g), before in sorted(self._reach.items(), key=lambda kv: (kv[0][0], str(kv[0][1]))):
                    if s != m:
                        continue
                    needed = self._level(s, g)
                    if needed < before:
                        wider, _ = self._broadcast(s, needed, lambda n, prefix, s=s, before=before:
                                                   n != s or len(prefix) <= before)
                        self._record(s, g, wider, needed)
                        messages += len(wider)
        return messages

    def fail(self, nodes: Iterable[str]) -> None:
        nodes = set(nodes)
        unknown = sorted(nodes - self.live)
        if unknown:
            raise ValueError(f"cannot fail {unknown[:10]}: not live nodes")
        if nodes >= self.live:
            raise ValueError("every node would have failed")
        self.live -= nodes
        for n in nodes:
            del self._ft[n]
        self._reach = {key: level for key, level in self._reach.items() if key[0] in self.live}
        if self.tables_after_failure == "repaired":
            self._table_ids = sorted(self.live)

    def publish(self, node: str, event: dict) -> Publication:
        """Publish `event` at `node`: who was notified (node -> times) and the messages sent."""
        node = self._live(node)

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
                           tuple(sorted(received.items())), len(sent), tuple(lost))

    def filter_table(self, node: str) -> list[tuple[str, Filter, str]]:
        """FT^node as sorted (prefix, filter, subscriber) entries, as spec.irbr.Network.ft gives them."""
        return sorted((p, f, s) for p, entries in self._ft[node].items() for f, s in entries)
