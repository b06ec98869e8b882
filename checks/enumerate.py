"""Enumerators of small structures for exhaustive checks, with isomorphism reduction where sound.

- `graphs(max_nodes)`: every graph up to 7 nodes, one per isomorphism class (networkx's atlas,
  from "An Atlas of Graphs"); `connected_graphs` keeps the connected ones.
- `trees(n)`: every tree on n nodes up to isomorphism (networkx's WROM generator).
- `id_sets(space, k)`: every k-subset of an identifier space, in lexicographic order; no
  reduction, since identifiers carry meaning (prefixes, XOR distances) that relabelling breaks.
- `multisets(space, max_copies)`: every multiset over a space with bounded multiplicity, smallest
  first; copies of one value are interchangeable, so each multiset appears once.

Isomorphism reduction is sound only for properties invariant under relabelling; a caller whose
property reads labels (ids, digests) must enumerate labelled structures instead.
"""

from __future__ import annotations

import itertools
from typing import Iterator, Sequence

import networkx as nx

ATLAS_MAX_NODES = 7


def graphs(max_nodes: int) -> Iterator[nx.Graph]:
    if not 0 <= max_nodes <= ATLAS_MAX_NODES:
        raise ValueError(f"the graph atlas covers 0..{ATLAS_MAX_NODES} nodes, not {max_nodes}")
    for g in nx.graph_atlas_g():
        if g.number_of_nodes() > max_nodes:
            break
        yield g


def connected_graphs(max_nodes: int) -> Iterator[nx.Graph]:
    return (g for g in graphs(max_nodes) if g.number_of_nodes() > 0 and nx.is_connected(g))


def trees(n: int) -> Iterator[nx.Graph]:
    if n < 1:
        raise ValueError(f"a tree has at least one node, not {n}")
    if n <= 2:
        yield nx.path_graph(n)
        return
    yield from nx.nonisomorphic_trees(n)


def id_sets(space: Sequence, k: int) -> Iterator[tuple]:
    if not 0 <= k <= len(space):
        raise ValueError(f"cannot choose {k} identifiers from a space of {len(space)}")
    return itertools.combinations(space, k)


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
