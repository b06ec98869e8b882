"""Enumerators of small structures for exhaustive checks, with isomorphism reduction where sound.

- `trees(n)`: every tree on n nodes up to isomorphism (networkx's WROM generator).
- `multisets(space, max_copies)`: every multiset over a space with bounded multiplicity, smallest
  first; copies of one value are interchangeable, so each multiset appears once.

Isomorphism reduction is sound only for properties invariant under relabelling; a caller whose
property reads labels (ids, digests) must enumerate labelled structures instead.
"""

from __future__ import annotations

import itertools
from typing import Iterator, Sequence

import networkx as nx

def trees(n: int) -> Iterator[nx.Graph]:
    if n < 1:
        raise ValueError(f"a tree has at least one node, not {n}")
    if n <= 2:
        yield nx.path_graph(n)
        return
    yield from nx.nonisomorphic_trees(n)


def multisets(space: Sequence, max_copies: int) -> Iterator[tuple[tuple, ...]]:
    """Each multiset as a tuple of (value, copy index) slots, by increasing size."""
    if max_copies < 1:
        raise ValueError(f"max_copies must be at least 1, not {max_copies}")
    slots = [(v, k) for v in space for k in range(max_copies)]
    for size in range(len(slots) + 1):
        for chosen in itertools.combinations(slots, size):
            # copy k of a value only together with copies 0..k-1: one tuple per multiset
            present = set(chosen)
            if all(k == 0 or (v, k - 1) in present for v, k in chosen):
                yield chosen
