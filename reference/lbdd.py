"""LBDD reference implementation: the dissemination tree of sec. 3 built with numpy, at scale.

Paper: Li, Wang, Yin & Yuan, "Load-balancing data distribution in publish/subscribe mode",
J. Southeast Univ. 30(4), 2014, sec. 3.2-3.3 (Algorithms 1 and 2), and the point-to-point
baseline and metrics of sec. 4 (depth, out-degrees, copies per node, contribution rate, Fig. 4).

The spec (spec/lbdd.py) runs Algorithms 1 and 2 at every node, which costs O(n^2); here all
nodes are done at once: sort the members by (bucket, digest, address), then give every sending
bucket's ranks their slices of the next bucket. tests/test_lbdd_reference.py holds the two to the
same edges on every reading. Readings are the spec's `Reading` values, selected by name.
"""

from __future__ import annotations

import hashlib
from typing import Sequence

import attrs
import numpy as np

from spec.lbdd import Dissemination, Reading, parse_ipv4, reading_named


class NotATreeError(ValueError):
    """The chosen reading does not give every subscriber exactly one parent."""


def digests_of(addresses: Sequence[str], hash_input: str = "ascii") -> np.ndarray:
    """Top 32 bits of MD5 of each address (sec. 3.2), as uint64. Validates every address."""
    ips = [parse_ipv4(a) for a in addresses]
    if hash_input == "ascii":
        data = (str(ip).encode("ascii") for ip in ips)
    else:
        data = (ip.packed for ip in ips)
    return np.fromiter((int.from_bytes(hashlib.md5(d).digest()[:4], "big") for d in data),
                       dtype=np.uint64, count=len(ips))


def _bit_length(values: np.ndarray) -> np.ndarray:
    """bit_length of each non-negative integer < 2^53, vectorized (frexp's exponent)."""
    return np.frexp(values.astype(np.float64))[1].astype(np.int64)


@attrs.frozen
class Tree:
    """Members are index 0 (publisher) and 1..n (subscribers); one edge per copy sent."""

    digests: np.ndarray   # uint64, per member
    buckets: np.ndarray   # int64, per member
    senders: np.ndarray   # int64, per copy
    receivers: np.ndarray  # int64, per copy

    @property
    def n(self) -> int:
        return len(self.digests) - 1


def owned_bounds(ranks: np.ndarray, s: int, t: int, ratio: str) -> tuple[np.ndarray, np.ndarray]:
    """Algorithm 2's [LowBound, UpBound] per rank, in exact integer arithmetic, clipped to 1..t."""
    if ratio == "integer":
        q = t // s
        low, up = q * (ranks - 1) + 1, q * ranks
    elif ratio == "ceil":
        q = -(-t // s)
        low, up = q * (ranks - 1) + 1, q * ranks
    elif ratio == "real":  # ceil(t(r-1)/s + 1), floor(t r/s)
        low, up = -(-(t * (ranks - 1) + s) // s), (t * ranks) // s
    else:  # floored: floor(t(r-1)/s) + 1, floor(t r/s)
        low, up = (t * (ranks - 1)) // s + 1, (t * ranks) // s
    return np.maximum(low, 1), np.minimum(up, t)


def disseminate(digests: np.ndarray, publisher_digest: int, reading: Reading,
                tie_order: np.ndarray | None = None) -> Tree:
    """The copy graph of Algorithms 1 and 2 for subscribers with these digests.

    `tie_order` ranks all members, publisher first, among equal digests (the order of their
    addresses, as the spec compares them); by default the publisher, then input order.
    """
    n = len(digests)
    all_digests = np.concatenate([np.array([publisher_digest], dtype=np.uint64),
                                  np.asarray(digests, dtype=np.uint64)])
    buckets = _bit_length(all_digests ^ np.uint64(publisher_digest))
    buckets[0] = 0
    if reading.zero_distance == "bucket1":
        buckets[1:][buckets[1:] == 0] = 1
    ties = np.arange(n + 1) if tie_order is None else np.asarray(tie_order)
    order = np.lexsort((ties, all_digests, buckets))
    sorted_buckets = buckets[order]
    sorted_digests = all_digests[order]
    starts = np.flatnonzero(np.r_[True, sorted_buckets[1:] != sorted_buckets[:-1]])
    ends = np.r_[starts[1:], len(order)]
    occupied = sorted_buckets[starts]

    senders, receivers = [], []
    for g, (lo, hi) in enumerate(zip(starts, ends)):
        b = occupied[g]
        if reading.target_bucket == "next-index":
            nxt = np.flatnonzero(occupied == b + 1)
            if len(nxt) == 0:
                continue
            tg = int(nxt[0])
        else:
            tg = g + 1
            if tg >= len(occupied):
                continue
        t_lo, t_hi = starts[tg], ends[tg]
        s, t = hi - lo, t_hi - t_lo
        positions = np.arange(s)
        if reading.tie_break == "none":  # rank = number of strictly smaller digests
            d = sorted_digests[lo:hi]
            positions = np.searchsorted(d, d, side="left")
        ranks = positions + reading.rank_base
        low, up = owned_bounds(ranks.astype(np.int64), int(s), int(t), reading.ratio)
        counts = np.maximum(up - low + 1, 0)
        if counts.sum() == 0:
            continue
        sender_rows = np.repeat(np.arange(lo, hi), counts)
        offsets = np.arange(counts.sum()) - np.repeat(np.cumsum(counts) - counts, counts)
        target_rows = t_lo + np.repeat(low - 1, counts) + offsets
        senders.append(order[sender_rows])
        receivers.append(order[target_rows])
    cat = (lambda parts: np.concatenate(parts).astype(np.int64) if parts else np.zeros(0, np.int64))
    return Tree(all_digests, buckets, cat(senders), cat(receivers))


def as_dissemination(tree: Tree, addresses: Sequence[str] | None = None) -> Dissemination:
    """The spec's view of a reference tree, so the spec's predicates judge it."""
    if addresses is None:
        addresses = ["p"] + [f"s{i}" for i in range(1, tree.n + 1)]
    return Dissemination(tuple(addresses), tuple(tree.buckets.tolist()),
                         tuple(zip(tree.senders.tolist(), tree.receivers.tolist())))


def _check_inputs(subscribers: Sequence[str], publisher: str) -> None:
    if isinstance(subscribers, str):
        raise ValueError("subscribers must be a list of IPv4 addresses, not one string")
    parse_ipv4(publisher)
    seen: set[str] = set()
    for s in subscribers:
        canonical = str(parse_ipv4(s))
        if canonical in seen:
            raise ValueError(f"duplicate subscriber {s!r}")
        seen.add(canonical)
    if str(parse_ipv4(publisher)) in seen:
        raise ValueError(f"the publisher {publisher!r} is also listed as a subscriber")


def build(subscribers: Sequence[str], publisher: str, reading: str | Reading = "corrected") -> Tree:
    """The copy graph for IPv4 subscribers and publisher under a named reading."""
    reading = reading_named(reading) if isinstance(reading, str) else reading
    _check_inputs(subscribers, publisher)
    subscribers = [str(parse_ipv4(s)) for s in subscribers]
    digests = digests_of(subscribers, reading.hash_input)
    publisher_digest = int(digests_of([publisher], reading.hash_input)[0])
    return disseminate(digests, publisher_digest, reading,
                       address_order([str(parse_ipv4(publisher))] + subscribers))


def address_order(addresses: Sequence[str]) -> np.ndarray:
    """Each address's position in string order: the spec's tie-break among equal digests."""
    return np.argsort(np.array(addresses, dtype=object), kind="stable").argsort()


def build_tree(subscribers: Sequence[str], publisher: str, reading: str | Reading = "corrected") -> dict[str, str]:
    """Map every subscriber to its parent (the publisher or another subscriber).

    Raises ValueError on a malformed or duplicate address, and NotATreeError when the reading
    leaves a subscriber with no parent or several (the literal reading does, see docs/lbdd.md).
    """
    tree = build(subscribers, publisher, reading)
    names = [str(parse_ipv4(publisher))] + [str(parse_ipv4(s)) for s in subscribers]
    counts = np.bincount(tree.receivers, minlength=tree.n + 1)
    orphans = [names[i] for i in np.flatnonzero(counts[1:] == 0) + 1]
    doubled = [names[i] for i in np.flatnonzero(counts[1:] > 1) + 1]
    if orphans or doubled:
        name = reading if isinstance(reading, str) else reading.name
        raise NotATreeError(f"reading {name!r} gives no tree: {len(orphans)} subscriber(s) without a "
                            f"parent {orphans[:5]}, {len(doubled)} with several {doubled[:5]}")
    return {names[r]: names[s] for s, r in zip(tree.senders.tolist(), tree.receivers.tolist())}


# --------------------------------------------------------------------------------------------
# The paper's metrics (sec. 4) and the point-to-point baseline
# --------------------------------------------------------------------------------------------

def point_to_point(n: int) -> Tree:
    """The baseline: the publisher sends every copy itself."""
    return Tree(np.zeros(n + 1, np.uint64), np.r_[0, np.ones(n, np.int64)],
                np.zeros(n, np.int64), np.arange(1, n + 1, dtype=np.int64))


def copies_sent(tree: Tree) -> np.ndarray:
    return np.bincount(tree.senders, minlength=tree.n + 1)


def depth(tree: Tree) -> int:
    """Longest publisher-to-subscriber path, in hops (a tree is assumed: one parent each)."""
    parent = np.full(tree.n + 1, -1, np.int64)
    parent[tree.receivers] = tree.senders
    level = np.zeros(tree.n + 1, np.int64)
    # a tree's edges go from lower to higher bucket, so one pass in bucket order settles levels
    for v in np.argsort(tree.buckets, kind="stable"):
        if parent[v] >= 0:
            level[v] = level[parent[v]] + 1
    return int(level.max())


def contribution_rates(tree: Tree) -> np.ndarray:
    """Contribution rate_i = copies sent by N_i / n (sec. 4.3, Fig. 4); index 0 is the publisher."""
    return copies_sent(tree) / max(tree.n, 1)


def out_degree_histogram(tree: Tree) -> dict[int, int]:
    values, counts = np.unique(copies_sent(tree), return_counts=True)
    return dict(zip(values.tolist(), counts.tolist()))


def occupied_buckets(tree: Tree) -> list[int]:
    return sorted(set(tree.buckets[1:].tolist()))
