"""The seeded generators every random topology rests on: what they return, including the paths
that real seeds rarely take (a collision among 32-bit draws)."""

import numpy as np
import pytest
from hypothesis import given, strategies as st

from reference import generators as G


class ScriptedRng(np.random.Generator):
    """Returns the given batches of integers in turn, so a collision can be forced."""

    def __init__(self, *batches):
        super().__init__(np.random.PCG64(0))
        self.batches = [np.array(b, dtype=np.uint64) for b in batches]
        self.sizes = []

    def integers(self, low, high, size, dtype):
        assert (low, high, dtype) == (0, 2 ** 32, np.uint64)
        self.sizes.append(size)
        batch = self.batches.pop(0)
        assert len(batch) == size
        return batch


def test_distinct_uint32_redraws_collisions_keeping_the_first_of_each_in_order():
    rng = ScriptedRng([7, 3, 7, 9, 3], [3, 11], [5])
    values = G.distinct_uint32(rng, 5)
    # 7, 3, 9 kept in generation order; two redrawn, of which 3 collides again: one more draw
    assert values.tolist() == [7, 3, 9, 11, 5]
    assert rng.sizes == [5, 2, 1]
    assert values.dtype == np.uint64 and len(set(values.tolist())) == 5


def test_distinct_uint32_without_collision_draws_once():
    rng = ScriptedRng([4, 2, 2 ** 32 - 1])
    assert G.distinct_uint32(rng, 3).tolist() == [4, 2, 2 ** 32 - 1]
    assert rng.sizes == [3]


@given(st.integers(0, 2 ** 20), st.integers(1, 300))
def test_distinct_uint32_of_a_real_rng_is_distinct_and_in_range(seed, k):
    values = G.distinct_uint32(G.rng_for("any", seed), k)
    assert len(values) == k == len(set(values.tolist()))
    assert all(0 <= v < 2 ** 32 for v in values.tolist())


def test_rng_for_is_a_function_of_algorithm_and_seed():
    a = G.rng_for("lbdd", 5).integers(0, 2 ** 32, size=4).tolist()
    assert a == G.rng_for("lbdd", 5).integers(0, 2 ** 32, size=4).tolist()
    assert a != G.rng_for("lbdd", 6).integers(0, 2 ** 32, size=4).tolist()
    assert a != G.rng_for("scot", 5).integers(0, 2 ** 32, size=4).tolist()
    assert G.rng_for("lbdd", 0).integers(0, 2 ** 32) >= 0


def test_rng_for_rejects_a_negative_seed_naming_it():
    with pytest.raises(ValueError, match="seeds are non-negative, not -1"):
        G.rng_for("lbdd", -1)


@given(st.integers(0, 10 ** 6), st.integers(1, 50), st.integers(0, 5000))
def test_log_uniform_int_stays_in_its_closed_range(seed, low, span):
    rng = G.rng_for("t", seed)
    assert all(low <= G.log_uniform_int(rng, low, low + span) <= low + span for _ in range(5))


def test_log_uniform_int_reaches_both_ends_and_is_log_uniform():
    rng = G.rng_for("t", 1)
    draws = [G.log_uniform_int(rng, 1, 1000) for _ in range(20_000)]
    assert min(draws) == 1 and max(draws) == 1000
    # log-uniform: about a third of the draws in each decade [1, 10), [10, 100), [100, 1000]
    decades = np.histogram(np.log10(draws), bins=[0, 1, 2, 3.01])[0] / len(draws)
    assert all(abs(share - 1 / 3) < 0.03 for share in decades), decades
    assert G.log_uniform_int(rng, 7, 7) == 7


def test_dotted_is_big_endian_dotted_quad():
    values = np.array([0, 1, 0x0A000001, 0xC0A80102, 2 ** 32 - 1], dtype=np.uint64)
    assert G.dotted(values) == ["0.0.0.0", "0.0.0.1", "10.0.0.1", "192.168.1.2", "255.255.255.255"]
    assert G.dotted(np.array([], dtype=np.uint64)) == []


def test_distinct_uint32_of_zero_values_is_empty_and_negative_counts_are_refused():
    assert G.distinct_uint32(G.rng_for("t", 0), 0).tolist() == []
    with pytest.raises(ValueError, match=r"k must be an integer in 0\.\.2\*\*32, not -1"):
        G.distinct_uint32(G.rng_for("t", 0), -1)


def test_dotted_names_the_value_outside_32_bits_and_refuses_non_integers():
    with pytest.raises(ValueError, match="not 4294967296"):
        G.dotted(np.array([0, 2 ** 32], dtype=np.int64))
    with pytest.raises(ValueError, match="not -3"):
        G.dotted(np.array([-3, 2 ** 32], dtype=np.int64))
    with pytest.raises(TypeError, match="values must be integers, not of dtype float64"):
        G.dotted(np.array([1.0]))
    assert G.dotted(np.array([7], dtype=np.int8)) == ["0.0.0.7"]


def test_a_salt_that_is_no_string_is_named():
    with pytest.raises(TypeError, match=r"algorithm must be a str \(the salt\), not 7"):
        G.rng_for(7, 0)
