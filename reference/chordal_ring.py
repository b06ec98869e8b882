"""Chordal reliability ring, reference implementation: the join of sec. 3.2-3.3 at scale.

Paper: Madhu Kumar S D, Umesh Bellur, V. K. Govindan, "Chordal Reliability Rings", sec. 3.2
(identifiers: 0, then 2^16 - 1, then midpoints) and sec. 3.3 (join-overlay, Process-join-request).

The spec (spec/chordal_ring.py) rebuilds an immutable ring per join, which a search needs and which
costs O(n) a join; here the brokers live in flat lists indexed by handle (join order) and a join
costs O(1) plus its forwards. Readings are the spec's `Reading` values, selected by name, and
tests/test_chordal_ring.py holds the two to the same identifiers, pointers and outcomes on every
reading. Users name brokers by identifier; where the printed join gave two brokers one identifier,
naming it is an error, since the identifier no longer says which broker is meant.
"""

from __future__ import annotations

import heapq
import random
from fractions import Fraction
from typing import Iterable

from spec.chordal_ring import (CHORD, CONFIRMED, DANGLING, FAR, JOINED, LINK_DOWN, LOOPS, LOST, NEVER_ENDS, NEW_ROUTE,
                               NO_ROUTE, PAPER_BITS, REFUSED, RING_LINK, SHARING, SILENCE, STALLED, UNDETECTED, Reading,
                               branch_lines, check_bits, check_reading, chord_lengths, gap, midpoint, reading_named,
                               second_id, space)

UNSET = -1


class RingError(ValueError):
    """A request the ring cannot carry out, with the reason in its message."""


class UnknownBroker(RingError):
    """An identifier no live broker holds."""


class AmbiguousBroker(RingError):
    """An identifier two brokers hold (only the printed join gives one twice)."""


class JoinFailed(RingError):
    """The join did not insert the broker; `outcome` is the spec's name for what happened."""

    def __init__(self, outcome: str, message: str):
        super().__init__(message)
        self.outcome = outcome


class Ring:
    """The ring of brokers under joins, one reading of the printed text.

    >>> ring = Ring(reading="corrected")
    >>> ring.join(None), ring.join(0), ring.join(0)
    (0, 65535, 2147516415)
    >>> ring.order()
    [0, 65535, 2147516415]
    >>> ring.pointers(0)
    (2147516415, 65535, 65535, 2147516415)
    """

    def __init__(self, reading: str | Reading = "corrected", bits: int = PAPER_BITS):
        self.reading = check_reading(reading_named(reading) if isinstance(reading, str) else reading)
        self.bits = check_bits(bits)
        self._space = space(self.bits)
        self.ids: list[int] = []
        self.left: list[int] = []
        self.right: list[int] = []
        self.leftleft: list[int] = []
        self.rightright: list[int] = []
        self._by_id: dict[int, int] = {}
        self._twice: set[int] = set()
        self.forwards = 0                 # send-join-request forwards over every join so far
        self.failed: set[int] = set()     # handles of failed brokers
        self.last_backups: tuple[int, ...] = ()
        # sec. 3.2's load sharing: a failed broker's id -> the live brokers (ids) that took its
        # tasks and their shares, as `fail(..., sharing=)` handed them on (none where no one did)
        self.tasks: dict[int, tuple[tuple[int, Fraction], ...]] = {}

    def __len__(self) -> int:
        return len(self.ids)

    # -- naming brokers --

    def handle(self, broker_id) -> int:
        """The handle of the broker holding `broker_id`, or an error naming the problem."""
        try:
            handle, twice = self._by_id[broker_id], broker_id in self._twice
        except (KeyError, TypeError):
            raise UnknownBroker(f"no broker has identifier {broker_id!r}") from None
        if twice:
            raise AmbiguousBroker(f"two brokers hold identifier {broker_id} (the join gave it twice)")
        return handle

    def _id(self, handle: int) -> int | None:
        return None if handle == UNSET else self.ids[handle]

    def pointers(self, broker_id: int) -> tuple:
        """(Left, Right, Leftleft, Rightright) of the broker, as identifiers (None where unset)."""
        h = self.handle(broker_id)
        return (self._id(self.left[h]), self._id(self.right[h]), self._id(self.leftleft[h]),
                self._id(self.rightright[h]))

    def order(self) -> list[int]:
        """The identifiers met following Right from the first live broker, until one repeats or a
        pointer is unset: the ring as its pointers have it."""
        seen: list[int] = []
        marked: set[int] = set()
        h = next((h for h in range(len(self.ids)) if h not in self.failed), UNSET)
        while h != UNSET and h not in marked:
            marked.add(h)
            seen.append(self.ids[h])
            h = self.right[h]
        return seen

    # -- the join --

    def _add(self, new_id: int) -> int:
        b = len(self.ids)
        self.ids.append(new_id)
        for pointer in (self.left, self.right, self.leftleft, self.rightright):
            pointer.append(UNSET)
        if new_id in self._by_id and self._by_id[new_id] not in self.failed:
            self._twice.add(new_id)
        else:                               # a failed broker's identifier now names the new one
            self._by_id[new_id] = b
        return b

    def join(self, contact: int | None) -> int:
        """join-overlay through the broker holding identifier `contact` (None for the first
        broker): the new broker's identifier, or JoinFailed with the spec's outcome."""
        if not self.ids:
            if contact is not None:
                raise UnknownBroker(f"the first broker joins with no contact, not through {contact!r}")
            return self.join_through(None)
        if contact is None:
            raise UnknownBroker("only the first broker joins with no contact")
        y = self.handle(contact)
        if y in self.failed:
            raise RingError(f"broker {contact} has failed: a new broker pings live ones only")
        return self.join_through(y)

    def join_through(self, y: int | None) -> int:
        """The join through the broker with handle `y` (its join order; None for the first)."""
        n = len(self.ids)
        if n == 0:
            b = self._add(0)
            self.left[b] = self.right[b] = self.leftleft[b] = self.rightright[b] = b
            return 0
        if n == 1:
            # sec. 3.2's own rule for the second broker
            b = self._add(second_id(self.bits))
            self.left[0] = self.right[0] = b
            self.leftleft[0] = self.rightright[0] = 0
            self.left[b] = self.right[b] = 0
            self.leftleft[b] = self.rightright[b] = b
            return self.ids[b]
        return self._request(y)

    def _request(self, contact: int) -> int:
        reading, ids = self.reading, self.ids
        y, visited = contact, set()
        while True:
            if y == UNSET:
                raise JoinFailed(DANGLING, "the request was sent along an unset Rightright pointer")
            if reading.when_full == "refuse" and visited and y == contact:
                raise JoinFailed(REFUSED, f"no free identifier is left: the request came back to "
                                          f"{ids[contact]} after {len(visited)} brokers")
            if y in visited:
                raise JoinFailed(NEVER_ENDS, f"the request goes round {len(visited)} brokers for ever "
                                             f"(it is back at {ids[y]})")
            if y in self.failed:
                raise JoinFailed(LOST, f"the request was sent to broker {ids[y]}, which has failed")
            visited.add(y)
            ly, ry = self.left[y], self.right[y]
            if ly == UNSET or ry == UNSET:
                raise JoinFailed(DANGLING, f"broker {ids[y]} has an unset ring pointer")
            left_gap = (ids[y] - ids[ly]) % self._space
            right_gap = (ids[ry] - ids[y]) % self._space
            if left_gap >= right_gap and (reading.space_test == "printed" or left_gap >= 2):
                new_id = ((ids[y] + left_gap // 2) % self._space if reading.left_id == "printed"
                          else midpoint(ids[ly], ids[y], self.bits))
                return self._join(y, "left", new_id)
            if (ids[ry] > (ids[y] + 1) % self._space if reading.space_test == "printed" else right_gap >= 2):
                return self._join(y, "right", (ids[y] + right_gap // 2) % self._space)
            self.forwards += 1
            y = self.rightright[y]

    def _join(self, y: int, side: str, new_id: int) -> int:
        """The branch's lines (spec.chordal_ring.branch_lines), in the printed order: where Ly, Ry
        and LLy coincide (rings of 2 or 3) a later line wins."""
        names = {"y": y, "ly": self.left[y], "ry": self.right[y], "far": getattr(self, FAR[side])[y]}
        names["b"] = self._add(new_id)
        for at, field, value in branch_lines(side, self.reading):
            if names[at] not in self.failed:        # a failed broker's lines do not arrive
                getattr(self, field)[names[at]] = names[value]
        near, other = ("ry", "ly") if side == "left" else ("ly", "ry")
        self.last_backups = (names[near], y, names["b"], names[other], names["far"])
        return new_id

    # -- node failure (sec. 3.4.1) --

    def fail(self, broker_ids: Iterable[int], rule: str = "doubling",
             sharing: str | None = None) -> list[tuple[int, str, int]]:
        """The brokers fail at once and each is handled as sec. 3.4.1 says (the spec's
        node_failure): per failed broker, in identifier order, (its id, how the handling ended,
        the messages it took). A failed broker stays in the lists, marked. With `sharing` (one of
        sec. 3.2's options, spec.chordal_ring.SHARING), each confirmed failure's tasks are then
        handed on as the spec's share_tasks does, into `tasks`."""
        if sharing is not None and sharing not in SHARING:
            raise RingError(f"unknown way of sharing a failed broker's tasks {sharing!r}; known: {', '.join(SHARING)}")
        handles = []
        for broker_id in broker_ids:
            h = self.handle(broker_id)
            if h in self.failed:
                raise RingError(f"broker {broker_id} has already failed")
            handles.append(h)
        dead = set(handles)
        if len(dead | self.failed) >= len(self.ids):
            raise RingError("at least one broker must stay up")
        order = sorted((h for h in range(len(self.ids)) if h not in self.failed), key=lambda h: (self.ids[h], h))
        position = {h: i for i, h in enumerate(order)}
        lengths = (1, 2) + chord_lengths(len(order), rule)
        holders = {b: (self.left[b], self.right[b], self.leftleft[b], self.rightright[b]) for b in dead}
        out, confirmed = [], []
        for b in sorted(dead, key=lambda h: (self.ids[h], h)):
            a = self.left[b]
            if a == UNSET or a in dead or a in self.failed:
                out.append((self.ids[b], UNDETECTED, 0))
                continue
            c = self.rightright[a]
            if c == UNSET or c in dead or c in self.failed:
                out.append((self.ids[b], STALLED, 1))
                continue
            i, n = position[b], len(order)
            links = {order[(i + s * k) % n] for k in lengths for s in (1, -1)} - {b}
            told = len(links - {a, c}) * (2 if self.reading.divide == "both" else 1)
            if self.reading.splice == "four":
                la, rc = self.left[a], self.right[c]
                self.right[a], self.rightright[a] = c, rc
                self.left[c], self.leftleft[c] = a, la
                if la not in dead and la not in self.failed:
                    self.rightright[la] = c
                if rc not in dead and rc not in self.failed:
                    self.leftleft[rc] = a
            out.append((self.ids[b], CONFIRMED, 3 + told))
            confirmed.append((b, a))
        self.failed |= dead
        if sharing is not None:
            self._share(sharing, dead, confirmed, holders)
        return out

    def _share(self, option: str, dead: set[int], confirmed: list[tuple[int, int]], holders: dict) -> None:
        """sec. 3.2: A takes B's tasks; or B's live backup holders (its four pointers before the
        failure) share them equally; or a new broker joins through A and takes them, one join
        per confirmed failure in turn."""
        for b in dead - {b for b, _ in confirmed}:
            self.tasks[self.ids[b]] = ()          # never confirmed: no one knows to take them
        for b, a in confirmed:
            if option == "neighbour":
                shares = ((self.ids[a], Fraction(1)),)
            elif option == "next-neighbours":
                live = sorted({x for x in holders[b] if x != UNSET and x not in self.failed})
                shares = tuple((self.ids[x], Fraction(1, len(live))) for x in live)
            else:
                try:
                    shares = ((self.join_through(a), Fraction(1)),)
                except JoinFailed:
                    shares = ()
            self.tasks[self.ids[b]] = shares

    # -- link failure (sec. 3.4.2) --

    def fail_link(self, a_id: int, b_id: int, rule: str = "doubling", b_queried: bool = False,
                  b_failed: bool = False) -> tuple[str, str, list[int]]:
        """Link A-B fails (the spec's link_failure), B up, or failing with a chord (`b_failed`: B is
        then failed and handled, as `fail` does). Returns the kind of link (ring link or chord), what
        A concluded, and the identifiers on A's path to B: through the neighbour's neighbour for a
        ring link, by the nearest identifier for a chord's query."""
        a, b = self.handle(a_id), self.handle(b_id)
        if {a, b} & self.failed:
            raise RingError(f"broker {a_id if a in self.failed else b_id} has already failed")
        adjacent: dict[int, set[int]] = {}
        for x, y in self.links(rule):
            adjacent.setdefault(x, set()).add(y)
            adjacent.setdefault(y, set()).add(x)
        if b_id not in adjacent.get(a_id, ()):
            raise RingError(f"brokers {a_id} and {b_id} have no link between them")
        beside = {self.right[a]: self.rightright[a], self.left[a]: self.leftleft[a],
                  self.rightright[a]: self.right[a], self.leftleft[a]: self.left[a]}
        if b in beside:
            if b_failed:
                raise RingError(f"broker {b_id} is on A's ring links: its failure is a node failure (fail)")
            return RING_LINK, LINK_DOWN, [a_id, self.ids[beside[b]], b_id]
        if b_failed and b_queried:
            raise RingError("a failed B sends no query of its own")

        def query(source: int, to: int) -> tuple[list[int], str | None]:
            path, at = [source], source
            while at != to:
                options = adjacent[at] - ({to} if at == source else set())
                if not options:
                    return path, NO_ROUTE
                at = min(options, key=lambda x: (self._distance(x, to), self._by_id[x]))
                path.append(at)
                if at in path[:-1]:
                    return path, LOOPS
            return path, None

        if b_failed:
            path, stopped = query(a_id, b_id)
            (_, outcome, _), = self.fail([b_id], rule)
            return CHORD, NEW_ROUTE if outcome == CONFIRMED else stopped or SILENCE, path
        heard = b_queried and query(b_id, a_id)[1] is None
        path, stopped = query(a_id, b_id)
        if stopped is not None:
            return CHORD, LINK_DOWN if heard else stopped, path
        heard = heard or b_queried == (self.reading.link_down == "printed")     # link-down sent back
        if not b_queried and self.reading.b_queries == "always":
            heard = heard or query(b_id, a_id)[1] is None
        return CHORD, LINK_DOWN if heard else SILENCE, path

    def _distance(self, x: int, y: int) -> int:
        d = abs(x - y)
        return d if self.reading.nearest == "absolute" else min(d, self._space - d)

    # -- events over the multigraph (sec. 3.3) --

    def links(self, rule: str = "doubling") -> set[tuple[int, int]]:
        """En: the live brokers' ring links (one and two apart in identifier order) and chords, as
        pairs of identifiers, the smaller first."""
        ids = sorted(self.ids[h] for h in range(len(self.ids)) if h not in self.failed)
        n = len(ids)
        out = set()
        for i, a in enumerate(ids):
            for k in (1, 2) + chord_lengths(n, rule):
                b = ids[(i + k) % n]
                if a != b:
                    out.add((min(a, b), max(a, b)))
        return out

    def route_event(self, source: int, to: int, kind: str = "normal", express=(), secure=(), weights=None,
                    rule: str = "doubling") -> list[int] | None:
        """An event from the broker holding identifier `source` to the one holding `to`: the
        identifiers on its path of least total weight over its kind's links (normal: En; express:
        `express`, secure: `secure`, each with the ring's links where the reading takes them to be
        express and secure too), or None where no such path joins them. Links are pairs of
        identifiers; `weights` maps a link to its weight (1 where absent)."""
        for broker in (source, to):
            if self.handle(broker) in self.failed:
                raise RingError(f"broker {broker} has failed")
        return least_weight_path(self.links_for(kind, express, secure, rule), source, to, weights or {})

    def links_for(self, kind: str, express=(), secure=(), rule: str = "doubling") -> set[tuple[int, int]]:
        """The links an event of `kind` may take, as pairs of identifiers (see route_event)."""
        normal = self.links(rule)
        if kind == "normal":
            return normal
        if kind not in ("express", "secure"):
            raise RingError(f"an event is normal, express or secure, not {kind!r}")
        allowed = {(min(a, b), max(a, b)) for a, b in (express if kind == "express" else secure)}
        if allowed - normal:
            raise RingError(f"{kind} link {sorted(allowed - normal)[0]} is not a normal link")
        if self.reading.special_links == "ring":        # Ec, from the live brokers' Left and Leftleft
            allowed |= {(min(self.ids[h], self.ids[p]), max(self.ids[h], self.ids[p]))
                        for h in range(len(self.ids)) if h not in self.failed
                        for p in (self.left[h], self.leftleft[h]) if p != UNSET and p != h}
        return allowed

    # -- many joins --

    def join_random(self, count: int, seed: int) -> list[str]:
        """`count` joins, each through a broker drawn uniformly (seeded) from those that joined;
        the outcome of each (the spec's names). A failed join leaves the ring as it was."""
        rng = random.Random(seed)
        outcomes = []
        for _ in range(count):
            try:
                self.join_through(rng.randrange(len(self.ids)) if self.ids else None)
                outcomes.append(JOINED)
            except JoinFailed as failed:
                outcomes.append(failed.outcome)
        return outcomes


def least_weight_path(links: Iterable[tuple[int, int]], source: int, to: int, weights) -> list[int] | None:
    """Dijkstra over bi-directional links (weight 1 unless `weights` gives one), ties to the
    smaller path in order, as the spec's route_event breaks them; None where `to` is not reached."""
    nearby: dict[int, list[int]] = {}
    for a, b in links:
        nearby.setdefault(a, []).append(b)
        nearby.setdefault(b, []).append(a)
    heap, done = [(0, (source,))], set()
    while heap:
        cost, path = heapq.heappop(heap)
        at = path[-1]
        if at in done:
            continue
        if at == to:
            return list(path)
        done.add(at)
        for other in nearby.get(at, ()):
            if other not in done:
                heapq.heappush(heap, (cost + weights.get((min(at, other), max(at, other)), 1), path + (other,)))
    return None


def joins(contacts: Iterable[int | None], reading: str | Reading = "corrected", bits: int = PAPER_BITS) -> Ring:
    """A ring after joins through the contacts given, by identifier (None for the first)."""
    ring = Ring(reading, bits)
    for contact in contacts:
        ring.join(contact)
    return ring


__all__ = ["Ring", "RingError", "UnknownBroker", "AmbiguousBroker", "JoinFailed", "joins", "gap"]
