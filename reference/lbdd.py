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
from typing import Iterable, Sequence

import attrs
import numpy as np

from spec.lbdd import (DIGEST_LIMIT, Dissemination, Reading, check_digest, check_reading, check_size,
                       parse_ipv4, reading_named)


class NotATreeError(ValueError):
    """The chosen reading does not give every subscriber exactly one parent."""


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

    def __attrs_post_init__(self) -> None:
        # once per tree (vectorized): a copy to a member that does not exist would index past
        # the arrays in every metric below
        size = len(self.digests)
        if size == 0 or len(self.buckets) != size:
            raise ValueError(f"a tree needs the publisher and one bucket per member: {size} digests, "
                             f"{len(self.buckets)} buckets")
        if len(self.senders) != len(self.receivers):
            raise ValueError(f"senders and receivers must pair up: {len(self.senders)} senders, "
                             f"{len(self.receivers)} receivers")
        for name in ("senders", "receivers"):
            ends = np.asarray(getattr(self, name))
            if ends.size and (ends.dtype.kind not in "iu" or ends.min() < 0 or ends.max() >= size):
                raise ValueError(f"{name} must be member indices in 0..{size - 1}, not {ends.min()}..{ends.max()}")

    @property
    def n(self) -> int:
        return len(self.digests) - 1


def _check_tree(tree) -> Tree:
    if not isinstance(tree, Tree):
        raise TypeError(f"tree must be a reference.lbdd.Tree, not {tree!r}")
    return tree


def _check_digest_array(digests) -> np.ndarray:
    """Subscriber digests as given: integers of 32 bits (checked once, vectorized)."""
    if isinstance(digests, (str, bytes)):
        raise TypeError(f"digests must be an array of integers, not {digests!r}")
    values = np.asarray(digests)
    if values.ndim != 1:
        raise ValueError(f"digests must be one-dimensional, not of shape {values.shape}")
    if values.size == 0:
        return values
    if values.dtype.kind not in "iu":
        raise TypeError(f"digests must be integers, not of dtype {values.dtype}")
    low, high = int(values.min()), int(values.max())
    if low < 0 or high >= DIGEST_LIMIT:
        raise ValueError(f"digests must lie in 0..2**32-1, not {low if low < 0 else high}")
    return values


def owned_bounds(ranks: np.ndarray, s, t, ratio: str) -> tuple[np.ndarray, np.ndarray]:
    """Algorithm 2's [LowBound, UpBound] per rank, in exact integer arithmetic, clipped to 1..t.

    `s` and `t` are scalars or arrays aligned with `ranks` (s >= 1).
    """
    if ratio not in ("integer", "ceil", "real", "floored"):
        raise ValueError(f"ratio must be one of integer, ceil, real, floored, not {ratio!r}")
    if np.any(np.asarray(s) < 1):  # an empty sending bucket would divide by zero
        raise ValueError(f"s (the sending bucket's size) must be at least 1, not {np.min(s)}")
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
    Every step is one vector operation over all members: sort by (bucket, digest, tie), number
    the occupied buckets, rank each member inside its bucket, find each bucket's target bucket,
    and cut the target bucket into the rank's interval.
    """
    digests = _check_digest_array(digests)
    check_digest(publisher_digest, "publisher_digest")
    check_reading(reading)
    if tie_order is not None and len(tie_order) != len(digests) + 1:
        raise ValueError(f"tie_order must rank all {len(digests) + 1} members (publisher first), "
                         f"not {len(tie_order)}")
    n = len(digests)
    all_digests = np.concatenate([np.array([publisher_digest], dtype=np.uint64),
                                  np.asarray(digests, dtype=np.uint64)])
    buckets = _bit_length(all_digests ^ np.uint64(publisher_digest))
    buckets[0] = 0
    if reading.zero_distance == "bucket1":
        buckets[1:][buckets[1:] == 0] = 1
    ties = np.arange(n + 1) if tie_order is None else np.asarray(tie_order)
    order = np.lexsort((ties, all_digests, buckets))
    sb, sd = buckets[order], all_digests[order]
    position = np.arange(n + 1)

    new_group = np.r_[True, sb[1:] != sb[:-1]]
    group = np.cumsum(new_group) - 1                 # occupied-bucket number of each member
    starts = np.flatnonzero(new_group)
    sizes = np.diff(np.r_[starts, n + 1])
    occupied = sb[starts]
    first_of_group = starts[group]
    if reading.tie_break == "none":  # rank counts strictly smaller digests: equal digests share it
        new_digest = new_group | np.r_[True, sd[1:] != sd[:-1]]
        below = np.maximum.accumulate(np.where(new_digest, position, 0)) - first_of_group
    else:
        below = position - first_of_group
    ranks = below + reading.rank_base

    if reading.target_bucket == "next-index":
        target = np.searchsorted(occupied, occupied + 1)
        has_target = (target < len(occupied)) & (occupied[np.minimum(target, len(occupied) - 1)] == occupied + 1)
    else:
        target = np.arange(len(occupied)) + 1
        has_target = target < len(occupied)
    target = np.where(has_target, target, 0)
    s = sizes[group]
    t = np.where(has_target[group], sizes[target[group]], 0)
    low, up = owned_bounds(ranks, s, t, reading.ratio)
    counts = np.maximum(up - low + 1, 0)
    total = int(counts.sum())
    sender_rows = np.repeat(position, counts)
    offsets = np.arange(total) - np.repeat(np.cumsum(counts) - counts, counts)
    target_rows = np.repeat(starts[target[group]] + low - 1, counts) + offsets
    return Tree(all_digests, buckets, order[sender_rows].astype(np.int64), order[target_rows].astype(np.int64))


def as_dissemination(tree: Tree, addresses: Sequence[str] | None = None) -> Dissemination:
    """The spec's view of a reference tree, so the spec's predicates judge it."""
    _check_tree(tree)
    if isinstance(addresses, str):
        raise TypeError(f"addresses must be a list of str, not {addresses!r}")
    if addresses is None:
        addresses = ["p"] + [f"s{i}" for i in range(1, tree.n + 1)]
    return Dissemination(tuple(addresses), tuple(tree.buckets.tolist()),
                         tuple(zip(tree.senders.tolist(), tree.receivers.tolist())))


def canonical_addresses(subscribers: Sequence[str], publisher: str) -> tuple[str, list[str]]:
    """Validate once: every address an IPv4 dotted quad, no duplicates, publisher not subscribing."""
    if isinstance(subscribers, str):
        raise ValueError("subscribers must be a list of IPv4 addresses, not one string")
    if isinstance(subscribers, bytes) or not isinstance(subscribers, Iterable):
        raise TypeError(f"subscribers must be a list of IPv4 addresses, not {subscribers!r}")
    pub = str(parse_ipv4(publisher))
    subs = [str(parse_ipv4(s)) for s in subscribers]
    if len(set(subs)) != len(subs):
        seen: set[str] = set()
        dup = next(s for s in subs if s in seen or seen.add(s))
        raise ValueError(f"duplicate subscriber {dup!r}")
    if pub in set(subs):
        raise ValueError(f"the publisher {publisher!r} is also listed as a subscriber")
    return pub, subs


def build(subscribers: Sequence[str], publisher: str, reading: str | Reading = "corrected") -> Tree:
    """The copy graph for IPv4 subscribers and publisher under a named reading. No subscribers is
    a valid corner case: a tree of the publisher alone (n = 0, no copies)."""
    reading = reading_named(reading) if isinstance(reading, str) else check_reading(reading)
    pub, subs = canonical_addresses(subscribers, publisher)
    digests = fast_digests([pub] + subs, reading.hash_input)
    return disseminate(digests[1:], int(digests[0]), reading, address_order([pub] + subs))


def address_order(addresses: Sequence[str]) -> np.ndarray:
    """Each address's position in string order: the spec's tie-break among equal digests."""
    return np.argsort(np.array(addresses, dtype=object), kind="stable").argsort()


def build_tree(subscribers: Sequence[str], publisher: str, reading: str | Reading = "corrected") -> dict[str, str]:
    """Map every subscriber to its parent (the publisher or another subscriber).

    Raises ValueError on a malformed or duplicate address, and NotATreeError when the reading
    leaves a subscriber with no parent or several (the literal reading does, see docs/lbdd.md).
    """
    tree = build(subscribers, publisher, reading)
    pub, subs = canonical_addresses(subscribers, publisher)
    names = [pub] + subs
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
    check_size(n, "n", 0)
    return Tree(np.zeros(n + 1, np.uint64), np.r_[0, np.ones(n, np.int64)],
                np.zeros(n, np.int64), np.arange(1, n + 1, dtype=np.int64))


def copies_sent(tree: Tree) -> np.ndarray:
    _check_tree(tree)
    return np.bincount(tree.senders, minlength=tree.n + 1)


def depth(tree: Tree) -> int:
    """Longest publisher-to-subscriber path in hops: the spec's `tree_depth`, on this tree."""
    from spec.lbdd import tree_depth

    _check_tree(tree)
    return tree_depth(as_dissemination(tree))


def contribution_rates(tree: Tree) -> np.ndarray:
    """Contribution rate_i = copies sent by N_i / n (sec. 4.3, Fig. 4); index 0 is the publisher.
    With no subscribers every rate is 0 (the publisher alone: one rate, 0.0)."""
    return copies_sent(tree) / max(tree.n, 1)


def out_degree_histogram(tree: Tree) -> dict[int, int]:
    values, counts = np.unique(copies_sent(tree), return_counts=True)
    return dict(zip(values.tolist(), counts.tolist()))


def occupied_buckets(tree: Tree) -> list[int]:
    _check_tree(tree)
    return sorted(set(tree.buckets[1:].tolist()))


# --------------------------------------------------------------------------------------------
# Random topologies for validation at scale
# --------------------------------------------------------------------------------------------

MAX_RANDOM_SUBSCRIBERS = 1000


def random_topology(seed: int, max_subscribers: int = MAX_RANDOM_SUBSCRIBERS) -> tuple[str, list[str]]:
    """(publisher, subscribers): a log-uniform count in 1..max of distinct random IPv4 addresses."""
    from reference.generators import distinct_uint32, dotted, log_uniform_int, rng_for

    # n + 1 distinct IPv4 addresses must exist, or drawing them would never end
    if not (isinstance(max_subscribers, int) and not isinstance(max_subscribers, bool)):
        raise TypeError(f"max_subscribers must be an integer in 1..2**32-1, not {max_subscribers!r}")
    if not 1 <= max_subscribers < 2 ** 32:
        raise ValueError(f"max_subscribers must be an integer in 1..2**32-1, not {max_subscribers!r}")
    rng = rng_for(ALGORITHM_SALT, seed)
    n = log_uniform_int(rng, 1, max_subscribers)
    addresses = dotted(distinct_uint32(rng, n + 1))
    return addresses[0], addresses[1:]


ALGORITHM_SALT = "lbdd"


def fast_digests(addresses: Sequence[str], hash_input: str = "ascii") -> np.ndarray:
    """Top 32 bits of MD5 of each address (sec. 3.2), as uint64. The addresses must already be
    canonical dotted quads (validated by `canonical_addresses`, or generated)."""
    if isinstance(addresses, (str, bytes)):
        raise TypeError(f"addresses must be a list of IPv4 addresses, not {addresses!r}")
    if hash_input not in ("ascii", "packed"):
        raise ValueError(f"hash_input must be 'ascii' or 'packed', not {hash_input!r}")
    if hash_input == "ascii":
        data = (a.encode() for a in addresses)
    else:
        data = (bytes(int(x) for x in a.split(".")) for a in addresses)
    md5 = hashlib.md5
    joined = b"".join(md5(d).digest() for d in data)
    # each digest is 16 bytes; its highest 32 bits are the first big-endian word of four
    return np.frombuffer(joined, dtype=">u4")[::4].astype(np.uint64)
