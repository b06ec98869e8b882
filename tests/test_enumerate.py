"""Enumerators: the counts are the known sequences, and bad bounds are refused."""

import networkx as nx
import pytest

from checks import enumerate as E


def test_trees_up_to_isomorphism():
    assert [sum(1 for _ in E.trees(n)) for n in range(1, 11)] == [1, 1, 1, 2, 3, 6, 11, 23, 47, 106]  # A000055
    assert all(nx.is_tree(t) for t in E.trees(8))


def test_multisets():
    assert sum(1 for _ in E.multisets(range(4), 2)) == 3 ** 4
    assert sum(1 for _ in E.multisets(range(3), 1)) == 2 ** 3
    sizes = [len(m) for m in E.multisets(range(3), 2)]
    assert sizes == sorted(sizes)


@pytest.mark.parametrize("call", [lambda: list(E.trees(0)), lambda: list(E.multisets(range(3), 0))])
def test_impossible_bounds_are_refused(call):
    with pytest.raises(ValueError):
        call()
