"""IRBR, sec. 2 and Table 1: identifiers of L digits in base k, Pastry routing tables by prefix, and
the per-source spanning tree by delegation of identifier ranges."""

from __future__ import annotations

import zlib
from typing import Iterable

import attrs

ALGORITHM = "irbr"
DIGITS = "0123456789abcdefghijklmnopqrstuvwxyz"


def check_choice(what: str, value: str, known: tuple) -> None:
    if value not in known:
        raise ValueError(f"unknown {what} {value!r}; known: {', '.join(known)}")


# The rules of this section the paper leaves open (the others: spec.irbr.readings)
REPRESENTATIVES = ("smallest", "largest", "per-node")
# Which live node of a range a routing table names: Pastry picks by network proximity, which the
# paper does not model; any node of the range serves (sec. 3.2). smallest / largest: every node
# names the same one; per-node: each node names its own, a fixed pseudo-random member of the
# range (crc32 of the node and the prefix), standing in for proximity.


# --------------------------------------------------------------------------------------------
# Identifiers and Pastry routing (sec. 2, Table 1)
# --------------------------------------------------------------------------------------------

@attrs.frozen
class Space:
    """Identifiers of L digits in base k (digits 0-9 then a-z)."""

    k: int
    L: int

    def __attrs_post_init__(self) -> None:
        for name, value in (("the base k", self.k), ("the identifier length L", self.L)):
            if not isinstance(value, int) or isinstance(value, bool):
                raise TypeError(f"{name} must be an integer, not {value!r}")
        if not 2 <= self.k <= len(DIGITS):
            raise ValueError(f"the base k must be an integer in 2..{len(DIGITS)}, not {self.k!r}")
        if self.L < 1:
            raise ValueError(f"the identifier length L must be a positive integer, not {self.L!r}")

    @property
    def digits(self) -> str:
        return DIGITS[:self.k]

    def check(self, node_id) -> str:
        if not isinstance(node_id, str) or len(node_id) != self.L:
            raise ValueError(f"identifier {node_id!r} must be a string of {self.L} digits")
        bad = sorted(set(node_id) - set(self.digits))
        if bad:
            raise ValueError(f"identifier {node_id!r} has digit(s) {bad} outside base {self.k} ({self.digits})")
        return node_id

    def identifiers(self) -> list[str]:
        out = [""]
        for _ in range(self.L):
            out = [p + d for p in out for d in self.digits]
        return out


def common_prefix_length(a: str, b: str) -> int:
    n = 0
    while n < min(len(a), len(b)) and a[n] == b[n]:
        n += 1
    return n


def choose_representative(n: str, prefix: str, members: list[str], representative: str) -> str:
    """`members`: the range's nodes, sorted."""
    if not members:
        raise ValueError(f"the range {prefix!r} has no members to choose a representative from")
    check_choice("representative choice", representative, REPRESENTATIVES)
    if representative == "smallest":
        return members[0]
    if representative == "largest":
        return members[-1]
    return members[zlib.crc32(f"{n}/{prefix}".encode()) % len(members)]


def routing_table(space: Space, n: str, live: Iterable[str], representative: str = "smallest") -> dict[str, str]:
    """RT^n as {prefix: representative}: for each level l and digit d != n[l], the range of
    identifiers starting n[:l] + d, if a live node lies in it (Table 1)."""
    if not isinstance(space, Space):
        raise TypeError(f"space must be a spec.irbr.Space, not {space!r}")
    space.check(n)
    if isinstance(live, (str, bytes)):
        raise TypeError(f"live must be a collection of identifiers, not {live!r}")
    check_choice("representative choice", representative, REPRESENTATIVES)
    ranges: dict[str, list[str]] = {}
    for other in live:
        if other != n:
            ranges.setdefault(other[:common_prefix_length(n, other) + 1], []).append(other)
    return {prefix: choose_representative(n, prefix, sorted(members), representative)
            for prefix, members in sorted(ranges.items())}


def delegated_ranges(n: str, table: dict[str, str], level: int) -> list[tuple[str, str]]:
    """A node responsible for the range n[:level] delegates each sub-range of its table at levels
    >= level to that range's representative (source based forwarding, sec. 2)."""
    return [(prefix, rep) for prefix, rep in table.items() if len(prefix) > level]
