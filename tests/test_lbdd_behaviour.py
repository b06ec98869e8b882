"""LBDD behaviour pinned exactly: Algorithms 1-3 under every reading, the claim predicates at their
boundaries, the explanations of a violating run, digests, input validation, and the numpy
reference's conformance to the spec and its metrics on hand-made trees.

Fast by design (small hand-made views, derandomized Hypothesis with few examples)."""

import hashlib

import attrs
import numpy as np
import pytest
from hypothesis import assume, given, settings, strategies as st

from reference import generators as G
from reference import lbdd as R
from spec import lbdd as L
from spec.registry import get

N = L.Node
C = L.CORRECTED
FAST = settings(derandomize=True, max_examples=40, deadline=None)


def raises_exactly(exc, message, fn, *args, **kwargs):
    """fn(*args) raises exactly `exc` with exactly `message`."""
    with pytest.raises(exc) as info:
        fn(*args, **kwargs)
    assert type(info.value) is exc
    assert str(info.value) == message


def schedules(state):
    return {a: (s.self_no, s.rank, s.targets) for a, s in state.schedules}


def reading(**fields):
    return attrs.evolve(C, name="custom", **fields)


# --------------------------------------------------------------------------------------------
# Readings: every allowed value accepted, any other rejected with the field named
# --------------------------------------------------------------------------------------------

ALLOWED = {
    "hash_input": ("ascii", "packed"),
    "zero_distance": ("bucket0", "bucket1"),
    "tie_break": ("none", "address"),
    "rank_base": (0, 1),
    "ratio": ("integer", "real", "ceil", "floored"),
    "target_bucket": ("next-occupied", "next-index"),
    "path_update": ("printed", "printed-as-selfbucket", "reselect", "recompute"),
}


@pytest.mark.parametrize("field", sorted(ALLOWED))
def test_every_allowed_reading_value_is_accepted_and_others_rejected_by_name(field):
    for value in ALLOWED[field]:
        assert getattr(L.Reading("r", **{field: value}), field) == value
    for bad in ("XX", "", 2, None, ALLOWED[field][0].upper() if isinstance(ALLOWED[field][0], str) else -1):
        raises_exactly(ValueError, f"reading 'r': {field} must be one of {ALLOWED[field]}, not {bad!r}",
                       L.Reading, "r", **{field: bad})


def test_the_default_reading_is_the_corrected_one_and_the_named_readings_are_single_departures():
    d = L.Reading("d")
    assert (d.hash_input, d.zero_distance, d.tie_break, d.rank_base, d.ratio, d.target_bucket,
            d.path_update) == ("ascii", "bucket1", "address", 1, "floored", "next-occupied", "recompute")
    assert attrs.evolve(L.LITERAL, name="corrected", zero_distance="bucket1", tie_break="address",
                        rank_base=1, ratio="floored", path_update="recompute") == C
    assert list(L.READINGS) == ["corrected", "literal", "packed-hash", "zero-in-bucket0", "no-tie-break",
                                "rank-from-0", "integer-ratio", "real-ratio", "ceil-ratio", "next-index",
                                "literal-path-update", "selfbucket-path-update", "reselect-path-update"]
    fields = [f.name for f in attrs.fields(L.Reading) if f.name != "name"]
    for name, r in L.READINGS.items():
        assert r.name == name
        departures = [f for f in fields if getattr(r, f) != getattr(C, f)]
        assert len(departures) == (0 if name == "corrected" else 5 if name == "literal" else 1)


def test_reading_named_finds_each_reading_and_names_the_bad_ones():
    for name, r in L.READINGS.items():
        assert L.reading_named(name) is r
    raises_exactly(ValueError, "unknown LBDD reading 'nope'; known: " + ", ".join(L.READINGS),
                   L.reading_named, "nope")
    raises_exactly(TypeError, "reading name must be a str, not 3", L.reading_named, 3)
    raises_exactly(TypeError, "reading must be a spec.lbdd.Reading (see reading_named), not 'corrected'",
                   L.check_reading, "corrected")
    assert L.check_reading(C) is C


# --------------------------------------------------------------------------------------------
# Vocabulary: digests, distance, buckets, sizes
# --------------------------------------------------------------------------------------------

@pytest.mark.parametrize("address", ["10.3.17.74", "192.168.0.1", "0.0.0.0", "255.255.255.255"])
def test_md5_digest_is_the_top_32_bits_of_md5_of_the_text_or_the_four_bytes(address):
    text = hashlib.md5(address.encode()).digest()
    packed = hashlib.md5(bytes(int(x) for x in address.split("."))).digest()
    assert L.md5_digest(address) == int.from_bytes(text[:4], "big")
    assert L.md5_digest(address, "ascii") == int.from_bytes(text[:4], "big")
    assert L.md5_digest(address, "packed") == int.from_bytes(packed[:4], "big")
    assert L.node_at(address) == N(int.from_bytes(text[:4], "big"), address)
    assert L.node_at(address, L.READINGS["packed-hash"]) == N(int.from_bytes(packed[:4], "big"), address)
    assert R.fast_digests([address]).tolist() == [int.from_bytes(text[:4], "big")]
    assert R.fast_digests([address], "packed").tolist() == [int.from_bytes(packed[:4], "big")]


def test_known_digest_values():
    # the top 8 hex digits of md5("10.3.17.74"), md5(b"\x0a\x03\x11\x4a"), md5("1.2.3.4"), md5(b"\x01\x02\x03\x04")
    assert (L.md5_digest("10.3.17.74"), L.md5_digest("10.3.17.74", "packed")) == (0x6A55A1AE, 0xECE5A7F7)
    assert (L.md5_digest("1.2.3.4"), L.md5_digest("1.2.3.4", "packed")) == (0x6465EC74, 0x08D6C05A)
    assert R.fast_digests(["1.2.3.4", "10.3.17.74"]).tolist() == [0x6465EC74, 0x6A55A1AE]
    assert R.fast_digests(["1.2.3.4", "10.3.17.74"], "packed").tolist() == [0x08D6C05A, 0xECE5A7F7]
    assert R.fast_digests(["1.2.3.4"]).dtype == np.uint64


def test_md5_digest_and_fast_digests_refuse_bad_input_by_name():
    raises_exactly(ValueError, "hash_input must be 'ascii' or 'packed', not 'ASCII'", L.md5_digest, "1.2.3.4", "ASCII")
    raises_exactly(ValueError, "not an IPv4 address: '1.2.3'", L.md5_digest, "1.2.3")
    raises_exactly(ValueError, "not an IPv4 address: None", L.parse_ipv4, None)
    raises_exactly(ValueError, "not an IPv4 address: '1.2.3.256'", L.parse_ipv4, "1.2.3.256")
    assert str(L.parse_ipv4("1.2.3.4")) == "1.2.3.4"
    raises_exactly(ValueError, "hash_input must be 'ascii' or 'packed', not 'x'", R.fast_digests, ["1.2.3.4"], "x")
    raises_exactly(TypeError, "addresses must be a list of IPv4 addresses, not '1.2.3.4'", R.fast_digests, "1.2.3.4")
    raises_exactly(TypeError, "addresses must be a list of IPv4 addresses, not b'1'", R.fast_digests, b"1")
    assert R.fast_digests([]).tolist() == []


def test_digest_range_is_checked_at_both_ends_and_by_type():
    assert L.check_digest(0) == 0 and L.check_digest(2 ** 32 - 1) == 2 ** 32 - 1
    assert L.check_digest(np.uint32(7)) == 7
    msg = "digest must be an integer in 0..2**32-1, not {!r}"
    raises_exactly(ValueError, msg.format(-1), L.check_digest, -1)
    raises_exactly(ValueError, msg.format(2 ** 32), L.check_digest, 2 ** 32)
    raises_exactly(TypeError, msg.format(True), L.check_digest, True)
    raises_exactly(TypeError, msg.format(1.0), L.check_digest, 1.0)
    raises_exactly(TypeError, "x must be an integer in 0..2**32-1, not '1'", L.check_digest, "1", "x")


def test_check_size_boundaries_and_messages():
    assert L.check_size(0, "k", 0) == 0 and L.check_size(5, "k", 5) == 5
    raises_exactly(ValueError, "k must be an integer >= 5, not 4", L.check_size, 4, "k", 5)
    raises_exactly(TypeError, "k must be an integer >= 0, not False", L.check_size, False, "k", 0)
    raises_exactly(TypeError, "k must be an integer >= 0, not 1.5", L.check_size, 1.5, "k", 0)


def test_distance_is_xor_and_bucket_number_is_bit_length():
    assert L.distance(0b1100, 0b1010) == 0b0110
    assert L.distance(2 ** 32 - 1, 0) == 2 ** 32 - 1
    assert L.distance(5, 5) == 0
    raises_exactly(ValueError, "digest_a must be an integer in 0..2**32-1, not -1", L.distance, -1, 0)
    raises_exactly(ValueError, "digest_b must be an integer in 0..2**32-1, not 4294967296", L.distance, 0, 2 ** 32)
    assert [L.bucket_number(d) for d in (0, 1, 2, 3, 4, 7, 8, 2 ** 31, 2 ** 32 - 1)] == [0, 1, 2, 2, 3, 3, 4, 32, 32]
    raises_exactly(ValueError, "dist must be an integer in 0..2**32-1, not -5", L.bucket_number, -5)
    raises_exactly(TypeError, "reading must be a spec.lbdd.Reading (see reading_named), not None",
                   L.node_at, "1.2.3.4", None)


# --------------------------------------------------------------------------------------------
# Views, membership, buckets
# --------------------------------------------------------------------------------------------

def test_view_keeps_subscribers_as_a_sorted_set_and_checks_every_member():
    v = L.View(N(0, "p"), [N(3, "b"), N(1, "z"), N(3, "a")])
    assert v.subscribers == (N(1, "z"), N(3, "a"), N(3, "b"))
    assert v == L.View(N(0, "p"), (N(3, "a"), N(3, "b"), N(1, "z")))
    assert v.members() == (N(0, "p"), N(1, "z"), N(3, "a"), N(3, "b"))
    assert L.View(N(0, "p"), ()).members() == (N(0, "p"),)
    for bad in ("ab", b"ab", N(1, "a")):
        raises_exactly(TypeError, f"subscribers must be a collection of Nodes, not {bad!r}", L.View, N(0, "p"), bad)
    raises_exactly(TypeError, "a view's publisher must be a spec.lbdd.Node, not (0, 'p')", L.View, (0, "p"), ())
    raises_exactly(TypeError, "a view's subscriber must be a spec.lbdd.Node, not (1, 'a')",
                   L.View, N(0, "p"), [(1, "a")])
    raises_exactly(ValueError, "publisher 'p''s digest must be an integer in 0..2**32-1, not 4294967296",
                   L.View, N(2 ** 32, "p"), ())
    raises_exactly(ValueError, "subscriber 'a''s digest must be an integer in 0..2**32-1, not -1",
                   L.View, N(0, "p"), [N(-1, "a")])
    raises_exactly(TypeError, "a view's publisher address must be a str, not 7", L.View, N(0, 7), ())
    raises_exactly(TypeError, "a view's subscriber address must be a str, not None", L.View, N(0, "p"), [N(1, None)])
    raises_exactly(ValueError, "duplicate node address(es) ['a', 'b']",
                   L.View, N(0, "p"), [N(1, "b"), N(2, "a"), N(3, "b"), N(4, "a"), N(5, "c")])
    raises_exactly(ValueError, "duplicate node address(es) ['p'] (the publisher is among the subscribers)",
                   L.View, N(0, "p"), [N(1, "p")])


def test_abstract_view_labels_subscribers_in_input_order():
    v = L.abstract_view(4, [7, 1, 7])
    assert v.publisher == N(4, "p")
    assert v.subscribers == (N(1, "s2"), N(7, "s1"), N(7, "s3"))
    raises_exactly(TypeError, "subscriber_digests must be a collection of integers, not '12'", L.abstract_view, 0, "12")
    raises_exactly(TypeError, "subscriber_digests must be a collection of integers, not b'1'", L.abstract_view, 0, b"1")
    raises_exactly(TypeError, "subscriber_digests must be a collection of integers, not 5", L.abstract_view, 0, 5)
    raises_exactly(ValueError, "publisher_digest must be an integer in 0..2**32-1, not -1", L.abstract_view, -1, [])
    raises_exactly(ValueError, "subscriber digest must be an integer in 0..2**32-1, not 4294967296",
                   L.abstract_view, 0, [1, 2 ** 32])


def test_member_buckets_and_the_zero_distance_reading():
    v = L.View(N(4, "p"), (N(4, "z"), N(5, "a"), N(6, "b"), N(0, "c"), N(12, "d")))
    assert L.member_buckets(v, C) == {N(4, "p"): 0, N(0, "c"): 3, N(4, "z"): 1, N(5, "a"): 1, N(6, "b"): 2,
                                      N(12, "d"): 4}
    zero0 = L.READINGS["zero-in-bucket0"]
    assert L.member_buckets(v, zero0)[N(4, "z")] == 0
    assert L.member_buckets(v, L.LITERAL)[N(4, "z")] == 0
    assert L.bucket_of(N(12, "d"), v, C) == 4 and L.bucket_of(N(4, "p"), v, C) == 0
    raises_exactly(ValueError, "node Node(digest=9, address='x') is not a member of the view",
                   L.bucket_of, N(9, "x"), v, C)
    raises_exactly(TypeError, "view must be a spec.lbdd.View, not 'v'", L.member_buckets, "v", C)
    raises_exactly(TypeError, "reading must be a spec.lbdd.Reading (see reading_named), not None",
                   L.member_buckets, v, None)
    assert L.rank_key(N(3, "a"), C) == (3, "a")
    assert L.rank_key(N(3, "a"), L.READINGS["no-tie-break"]) == (3,)


# --------------------------------------------------------------------------------------------
# Algorithm 1: bucket construction
# --------------------------------------------------------------------------------------------

# p = 0; bucket 3 holds c(4), a(5), b(5), d(7); bucket 4 holds e(8); bucket 2 holds f(2)
BUCKET3 = L.View(N(0, "p"), (N(5, "a"), N(5, "b"), N(4, "c"), N(7, "d"), N(8, "e"), N(2, "f")))


@pytest.mark.parametrize("tie_break, rank_base, ranks", [
    ("address", 1, {"c": 1, "a": 2, "b": 3, "d": 4}),
    ("address", 0, {"c": 0, "a": 1, "b": 2, "d": 3}),
    ("none", 1, {"c": 1, "a": 2, "b": 2, "d": 4}),
    ("none", 0, {"c": 0, "a": 1, "b": 1, "d": 3}),
])
def test_algorithm_1_ranks_four_nodes_of_one_bucket(tie_break, rank_base, ranks):
    r = reading(tie_break=tie_break, rank_base=rank_base)
    by_address = {n.address: n for n in BUCKET3.members()}
    for address, rank in ranks.items():
        self_no, got, higher = L.bucket_construction(BUCKET3, by_address[address], r)
        assert (self_no, got) == (3, rank)
        assert higher == {4: [N(8, "e")]}
    assert L.bucket_construction(BUCKET3, N(0, "p"), r) == (
        0, rank_base, {2: [N(2, "f")], 3: [N(4, "c"), N(5, "a"), N(5, "b"), N(7, "d")], 4: [N(8, "e")]})
    assert L.bucket_construction(BUCKET3, N(8, "e"), r) == (4, rank_base, {})
    assert L.bucket_construction(BUCKET3, N(2, "f"), r) == (2, rank_base, {3: [N(4, "c"), N(5, "a"), N(5, "b"),
                                                                              N(7, "d")], 4: [N(8, "e")]})


def test_algorithm_1_orders_the_higher_buckets_by_number_not_by_digest():
    # publisher 4: digest order 0 (bucket 3), 5 (bucket 1), 6 (bucket 2)
    v = L.View(N(4, "p"), (N(0, "x"), N(5, "y"), N(6, "w"), N(7, "v")))
    self_no, rank, higher = L.bucket_construction(v, N(5, "y"), C)
    assert (self_no, rank) == (1, 1)
    assert list(higher) == [2, 3]
    assert higher == {2: [N(6, "w"), N(7, "v")], 3: [N(0, "x")]}
    raises_exactly(ValueError, "node Node(digest=9, address='q') is not a member of the view",
                   L.bucket_construction, v, N(9, "q"), C)


@st.composite
def small_views(draw, max_subscribers=12):
    bits = draw(st.sampled_from([2, 3, 4, 6]))
    digest = st.integers(0, 2 ** bits - 1)
    return L.abstract_view(draw(digest), draw(st.lists(digest, max_size=max_subscribers)))


@FAST
@given(small_views(), st.sampled_from(["none", "address"]), st.sampled_from([0, 1]),
       st.sampled_from(["bucket0", "bucket1"]))
def test_algorithm_1_ranks_are_a_count_of_smaller_peers_in_the_bucket(view, tie_break, rank_base, zero):
    r = reading(tie_break=tie_break, rank_base=rank_base, zero_distance=zero)
    buckets = L.member_buckets(view, r)
    by_bucket = {}
    for node in view.members():
        self_no, rank, higher = L.bucket_construction(view, node, r)
        assert self_no == buckets[node]
        by_bucket.setdefault(self_no, []).append((node, rank))
        assert list(higher) == sorted(higher) and all(b > self_no for b in higher)
        assert sorted(m for ms in higher.values() for m in ms) == sorted(
            m for m in view.subscribers if buckets[m] > self_no)
    for members in by_bucket.values():
        ranks = sorted(rank for _, rank in members)
        if tie_break == "address":  # unique and consecutive from the base
            assert ranks == list(range(rank_base, rank_base + len(members)))
        for node, rank in members:
            assert rank == rank_base + sum(1 for m, _ in members if L.rank_key(m, r) < L.rank_key(node, r))


# --------------------------------------------------------------------------------------------
# Algorithm 2: the owned interval and target selection
# --------------------------------------------------------------------------------------------

# (rank, S, T) -> owned indices, per ratio
OWNED = {
    "integer": {(1, 2, 5): [1, 2], (2, 2, 5): [3, 4], (1, 3, 2): [], (0, 1, 1): [], (1, 1, 3): [1, 2, 3]},
    "ceil": {(1, 2, 5): [1, 2, 3], (2, 2, 5): [4, 5], (3, 2, 5): [], (1, 3, 2): [1], (3, 3, 2): []},
    "real": {(1, 2, 5): [1, 2], (2, 2, 5): [4, 5], (1, 2, 1): [], (2, 2, 1): [], (2, 3, 7): [4]},
    "floored": {(1, 2, 5): [1, 2], (2, 2, 5): [3, 4, 5], (1, 2, 1): [], (2, 2, 1): [1], (2, 3, 7): [3, 4],
                (3, 3, 7): [5, 6, 7], (1, 3, 0): []},
}


@pytest.mark.parametrize("ratio", sorted(OWNED))
def test_algorithm_2_owned_intervals_exactly(ratio):
    r = reading(ratio=ratio)
    for (rank, s, t), owned in OWNED[ratio].items():
        assert list(L.owned_indices(rank, s, t, r)) == owned, (rank, s, t)
        low, up = R.owned_bounds(np.array([rank]), s, t, ratio)
        assert list(range(int(low[0]), int(up[0]) + 1)) == owned, (rank, s, t)


def test_owned_intervals_clip_to_the_target_bucket():
    assert list(L.owned_indices(5, 2, 4, reading(ratio="integer"))) == []
    assert list(L.owned_indices(2, 2, 5, reading(ratio="ceil"))) == [4, 5]
    assert list(L.owned_indices(0, 1, 3, C)) == []
    assert list(L.owned_indices(-1, 1, 3, reading(ratio="ceil"))) == []
    assert list(L.owned_indices(2, 1, 3, reading(ratio="ceil"))) == []
    low, up = R.owned_bounds(np.array([0, 1, 2, 3]), 2, 4, "ceil")
    assert low.tolist() == [1, 1, 3, 5] and up.tolist() == [0, 2, 4, 4]
    low, up = R.owned_bounds(np.array([1, 2, 3]), np.array([3, 3, 3]), np.array([7, 7, 7]), "floored")
    assert low.tolist() == [1, 3, 5] and up.tolist() == [2, 4, 7]
    low, up = R.owned_bounds(np.array([1, 2, 3]), 3, 7, "real")
    assert low.tolist() == [1, 4, 6] and up.tolist() == [2, 4, 7]
    low, up = R.owned_bounds(np.array([1, 2, 3]), 3, 7, "integer")
    assert low.tolist() == [1, 3, 5] and up.tolist() == [2, 4, 6]


@pytest.mark.parametrize("ratio", ["integer", "ceil", "real", "floored"])
def test_reference_bounds_agree_with_the_spec_for_all_small_sizes(ratio):
    r = reading(ratio=ratio)
    for s in range(1, 7):
        for t in range(0, 9):
            ranks = np.arange(-1, s + 2)
            low, up = R.owned_bounds(ranks, s, t, ratio)
            for rank, lo, hi in zip(ranks.tolist(), low.tolist(), up.tolist()):
                assert range(lo, hi + 1) == L.owned_indices(rank, s, t, r), (rank, s, t)


def test_owned_indices_and_bounds_refuse_bad_input_by_name():
    raises_exactly(TypeError, "rank must be an integer, not True", L.owned_indices, True, 2, 3, C)
    raises_exactly(TypeError, "rank must be an integer, not 1.5", L.owned_indices, 1.5, 2, 3, C)
    raises_exactly(ValueError, "self_size must be an integer >= 1, not 0", L.owned_indices, 1, 0, 3, C)
    raises_exactly(ValueError, "target_size must be an integer >= 0, not -1", L.owned_indices, 1, 2, -1, C)
    raises_exactly(TypeError, "reading must be a spec.lbdd.Reading (see reading_named), not 'x'",
                   L.owned_indices, 1, 2, 3, "x")
    assert list(L.owned_indices(1, 1, 0, C)) == [] and list(L.owned_indices(1, 1, 1, C)) == [1]
    raises_exactly(ValueError, "ratio must be one of integer, ceil, real, floored, not 'REAL'",
                   R.owned_bounds, np.array([1]), 1, 1, "REAL")
    raises_exactly(ValueError, "s (the sending bucket's size) must be at least 1, not 0",
                   R.owned_bounds, np.array([1, 1]), np.array([2, 0]), 3, "floored")
    low, up = R.owned_bounds(np.array([1]), 1, 2, "floored")
    assert (low.tolist(), up.tolist()) == ([1], [2])


def test_select_target_bucket_and_select_targets():
    higher = {3: [N(5, "a")], 5: [N(20, "b")]}
    assert L.select_target_bucket(2, higher, C) == [N(5, "a")]
    assert L.select_target_bucket(2, higher, L.READINGS["next-index"]) == [N(5, "a")]
    assert L.select_target_bucket(1, higher, L.READINGS["next-index"]) == []
    assert L.select_target_bucket(4, higher, L.READINGS["next-index"]) == [N(20, "b")]
    assert L.select_target_bucket(1, {}, C) == []
    bucket = [N(9, "z"), N(3, "y"), N(3, "x"), N(7, "w")]
    assert L.select_targets(1, 2, bucket, C) == (N(3, "x"), N(3, "y"))
    assert L.select_targets(2, 2, bucket, C) == (N(7, "w"), N(9, "z"))
    assert L.select_targets(1, 3, bucket, L.READINGS["ceil-ratio"]) == (N(3, "x"), N(3, "y"))
    assert L.select_targets(3, 3, bucket, L.READINGS["ceil-ratio"]) == ()
    assert L.select_targets(1, 1, [], C) == ()
    raises_exactly(TypeError, "target_bucket must be a list of Nodes, not 'ab'", L.select_targets, 1, 1, "ab", C)
    raises_exactly(TypeError, "target_bucket must be a list of Nodes, not b'a'", L.select_targets, 1, 1, b"a", C)


# --------------------------------------------------------------------------------------------
# Local schedules and initial states
# --------------------------------------------------------------------------------------------

# p = 0; bucket 3: a(5), b(6); bucket 4: c(8), d(9), e(12); bucket 5: f(16), g(20)
BASE = L.View(N(0, "p"), (N(5, "a"), N(6, "b"), N(8, "c"), N(9, "d"), N(12, "e"), N(16, "f"), N(20, "g")))
BASE_SCHEDULES = {"p": (0, 1, ("a", "b")), "a": (3, 1, ("c",)), "b": (3, 2, ("d", "e")), "c": (4, 1, ()),
                  "d": (4, 2, ("f",)), "e": (4, 3, ("g",)), "f": (5, 1, ()), "g": (5, 2, ())}


def test_local_schedule_exactly_and_with_a_given_rank():
    assert L.local_schedule(BASE, N(6, "b"), C) == L.Schedule(3, 2, ("d", "e"))
    assert L.local_schedule(BASE, N(6, "b"), C, rank=1) == L.Schedule(3, 1, ("c",))
    assert L.local_schedule(BASE, N(9, "d"), C, rank=3) == L.Schedule(4, 3, ("g",))
    assert L.local_schedule(BASE, N(9, "d"), C, rank=1) == L.Schedule(4, 1, ())
    zero = L.READINGS["rank-from-0"]
    assert L.local_schedule(BASE, N(6, "b"), zero, rank=0) == L.Schedule(3, 0, ())
    assert L.local_schedule(BASE, N(6, "b"), zero, rank=1) == L.Schedule(3, 1, ("c",))
    raises_exactly(ValueError, "rank must be an integer in 0..1 (bucket 3 holds 2), not 2",
                   L.local_schedule, BASE, N(6, "b"), zero, rank=2)
    raises_exactly(ValueError, "rank must be an integer in 1..2 (bucket 3 holds 2), not 0",
                   L.local_schedule, BASE, N(6, "b"), C, rank=0)
    raises_exactly(ValueError, "rank must be an integer in 1..2 (bucket 3 holds 2), not 3",
                   L.local_schedule, BASE, N(6, "b"), C, rank=3)
    raises_exactly(TypeError, "rank must be an integer in 1..3 (bucket 4 holds 3), not '1'",
                   L.local_schedule, BASE, N(9, "d"), C, rank="1")
    raises_exactly(TypeError, "rank must be an integer in 1..3 (bucket 4 holds 3), not True",
                   L.local_schedule, BASE, N(9, "d"), C, rank=True)


@pytest.mark.parametrize("name", sorted(L.READINGS))
def test_initial_state_schedules_every_member_in_view_order(name):
    r = L.READINGS[name]
    state = L.initial_state(BASE, r)
    assert [a for a, _ in state.schedules] == ["p", "a", "b", "c", "d", "e", "f", "g"]
    for address, sched in state.schedules:
        node = next(n for n in BASE.members() if n.address == address)
        assert sched == L.local_schedule(BASE, node, r)
        assert state.schedule(address) == sched


def test_initial_state_on_the_base_view_under_the_corrected_and_literal_readings():
    assert schedules(L.initial_state(BASE, C)) == BASE_SCHEDULES
    assert schedules(L.initial_state(BASE, L.LITERAL)) == {
        "p": (0, 0, ()), "a": (3, 0, ()), "b": (3, 1, ("c",)), "c": (4, 0, ()), "d": (4, 1, ()),
        "e": (4, 2, ()), "f": (5, 0, ()), "g": (5, 1, ())}
    st_ = L.initial_state(BASE, C)
    raises_exactly(ValueError, "no live node 'zz' in this state", st_.schedule, "zz")
    raises_exactly(ValueError, "no live node ['a'] in this state", st_.schedule, ["a"])
    raises_exactly(TypeError, "view must be a spec.lbdd.View, not None", L.initial_state, None, C)
    raises_exactly(TypeError, "reading must be a spec.lbdd.Reading (see reading_named), not 'corrected'",
                   L.initial_state, BASE, "corrected")


# --------------------------------------------------------------------------------------------
# Algorithm 3: path update on join and on failure, under each reading of it
# --------------------------------------------------------------------------------------------

PRINTED, RESELECT = L.READINGS["literal-path-update"], L.READINGS["reselect-path-update"]


def test_join_between_two_nodes_of_bucket_4():
    x = N(10, "x")  # between d(9) and e(12)
    printed = schedules(L.join(L.initial_state(BASE, PRINTED), x, PRINTED))
    assert printed == {**BASE_SCHEDULES, "p": (0, 1, ("c", "d", "x", "e")), "a": (3, 1, ("c", "d")),
                       "b": (3, 2, ("x", "e")), "x": (4, 3, ())}
    reselect = schedules(L.join(L.initial_state(BASE, RESELECT), x, RESELECT))
    assert reselect == {**BASE_SCHEDULES, "a": (3, 1, ("c", "d")), "b": (3, 2, ("x", "e")), "x": (4, 3, ())}
    corrected = schedules(L.join(L.initial_state(BASE, C), x, C))
    assert corrected == {**BASE_SCHEDULES, "a": (3, 1, ("c", "d")), "b": (3, 2, ("x", "e")), "x": (4, 3, ()),
                         "e": (4, 4, ("g",))}
    # e keeps its stale rank 3 under both readings of Algorithm 3: x and e both own rank 3's share
    assert printed["e"] == reselect["e"] == (4, 3, ("g",))


def test_join_into_the_lowest_occupied_bucket():
    y = N(4, "y")
    expected_stale = {**BASE_SCHEDULES, "p": (0, 1, ("y", "a", "b")), "y": (3, 1, ("c",))}
    assert schedules(L.join(L.initial_state(BASE, PRINTED), y, PRINTED)) == expected_stale
    assert schedules(L.join(L.initial_state(BASE, RESELECT), y, RESELECT)) == expected_stale
    assert schedules(L.join(L.initial_state(BASE, C), y, C)) == {
        **BASE_SCHEDULES, "p": (0, 1, ("y", "a", "b")), "y": (3, 1, ("c",)), "a": (3, 2, ("d",)),
        "b": (3, 3, ("e",))}


def test_failure_in_a_middle_bucket():
    printed = schedules(L.fail(L.initial_state(BASE, PRINTED), "d", PRINTED))
    rest = {k: v for k, v in BASE_SCHEDULES.items() if k != "d"}
    assert printed == {**rest, "p": (0, 1, ("c", "e")), "b": (3, 2, ("e",))}
    assert schedules(L.fail(L.initial_state(BASE, RESELECT), "d", RESELECT)) == {**rest, "b": (3, 2, ("e",))}
    assert schedules(L.fail(L.initial_state(BASE, C), "d", C)) == {
        **rest, "b": (3, 2, ("e",)), "c": (4, 1, ("f",)), "e": (4, 2, ("g",))}


def test_failure_in_the_highest_bucket():
    rest = {k: v for k, v in BASE_SCHEDULES.items() if k != "f"}
    assert schedules(L.fail(L.initial_state(BASE, PRINTED), "f", PRINTED)) == {
        **rest, "p": (0, 1, ("g",)), "a": (3, 1, ()), "b": (3, 2, ("g",)), "c": (4, 1, ()), "d": (4, 2, ()),
        "e": (4, 3, ("g",))}
    assert schedules(L.fail(L.initial_state(BASE, RESELECT), "f", RESELECT)) == {**rest, "d": (4, 2, ())}
    assert schedules(L.fail(L.initial_state(BASE, C), "f", C)) == {**rest, "d": (4, 2, ()), "g": (5, 1, ())}


SELFBUCKET = L.READINGS["selfbucket-path-update"]


def test_selfbucket_divides_by_the_changed_bucket_and_keeps_the_nodes_own_target_bucket():
    # SelectTargets(BucketNo) with BucketNo bound to Algorithm 2's parameter SelfBucket: the divisor
    # is the changed bucket's size, TargetBucket stays the node's next occupied bucket.
    # x joins bucket 4 (now c, d, x, e: 4 nodes): p shares bucket 3 (2 nodes) by 4, ratio 1/2, and
    # its rank 1 owns [1, 0]: nothing, so a and b lose their parent; a and b share bucket 4 by 4.
    assert schedules(L.join(L.initial_state(BASE, SELFBUCKET), N(10, "x"), SELFBUCKET)) == {
        **BASE_SCHEDULES, "p": (0, 1, ()), "b": (3, 2, ("d",)), "x": (4, 3, ())}
    # y joins bucket 3 (3 nodes): p's rank 1 of 3 owns y alone
    assert schedules(L.join(L.initial_state(BASE, SELFBUCKET), N(4, "y"), SELFBUCKET)) == {
        **BASE_SCHEDULES, "p": (0, 1, ("y",)), "y": (3, 1, ("c",))}
    # f fails in bucket 5 (g left): every node below divides by 1, so rank 1 takes its whole
    # target bucket and every other rank nothing
    rest = {k: v for k, v in BASE_SCHEDULES.items() if k != "f"}
    assert schedules(L.fail(L.initial_state(BASE, SELFBUCKET), "f", SELFBUCKET)) == {
        **rest, "a": (3, 1, ("c", "d", "e")), "b": (3, 2, ()), "c": (4, 1, ("g",)), "d": (4, 2, ()), "e": (4, 3, ())}


def test_selfbucket_selects_nothing_once_the_changed_bucket_is_empty():
    # for rank = 1 to 0 runs no iteration: the only member of bucket 5 fails, so nodes below it that
    # run Algorithm 3 send nothing
    view = L.View(N(0, "p"), (N(1, "a"), N(2, "b")))
    state = L.fail(L.initial_state(view, SELFBUCKET), "b", SELFBUCKET)
    assert schedules(state) == {"p": (0, 1, ()), "a": (1, 1, ())}
    assert not L.every_subscriber_reached(L.dissemination(state, SELFBUCKET))
    assert L.every_subscriber_reached(L.dissemination(L.fail(L.initial_state(view, C), "b", C), C))


def test_reselect_uses_the_stale_rank_left_by_an_earlier_change():
    # y joins bucket 3 below a and b, who keep ranks 1 and 2; then x joins bucket 4, and every node
    # of bucket 3 reselects its share of bucket 4 with the rank it holds: y 1, a 1, b 2
    state = L.join(L.initial_state(BASE, RESELECT), N(4, "y"), RESELECT)
    state = L.join(state, N(10, "x"), RESELECT)
    got = schedules(state)
    assert (got["y"], got["a"], got["b"]) == ((3, 1, ("c",)), (3, 1, ("c",)), (3, 2, ("d",)))
    fresh = schedules(L.initial_state(state.view, C))
    assert (fresh["y"], fresh["a"], fresh["b"]) == ((3, 1, ("c",)), (3, 2, ("d",)), (3, 3, ("x", "e")))


def test_a_fail_then_join_under_the_printed_reading():
    state = L.fail(L.initial_state(BASE, PRINTED), "a", PRINTED)
    assert schedules(state) == {**{k: v for k, v in BASE_SCHEDULES.items() if k != "a"}, "p": (0, 1, ("b",))}
    state = L.join(state, N(17, "h"), PRINTED)
    got = schedules(state)
    assert got["p"] == (0, 1, ("f", "h", "g"))
    assert got["b"] == (3, 2, ())  # stale rank 2 of a bucket of one: its share of bucket 5 is empty
    assert got["c"] == (4, 1, ("f",)) and got["d"] == (4, 2, ("h",)) and got["e"] == (4, 3, ("g",))
    assert got["h"] == (5, 2, ())


@pytest.mark.parametrize("name", ["literal-path-update", "reselect-path-update", "corrected"])
def test_fail_and_join_refuse_bad_input_by_name(name):
    r = L.READINGS[name]
    state = L.initial_state(BASE, r)
    raises_exactly(ValueError, "cannot fail 'zz': not a live subscriber", L.fail, state, "zz", r)
    raises_exactly(ValueError, "cannot fail 'p': not a live subscriber", L.fail, state, "p", r)
    raises_exactly(TypeError, "reading must be a spec.lbdd.Reading (see reading_named), not None",
                   L.fail, state, "a", None)
    raises_exactly(TypeError, "node must be a spec.lbdd.Node, not (3, 'x')", L.join, state, (3, "x"), r)
    raises_exactly(TypeError, "reading must be a spec.lbdd.Reading (see reading_named), not None",
                   L.join, state, N(3, "x"), None)
    raises_exactly(ValueError, "duplicate node address(es) ['a']", L.join, state, N(3, "a"), r)
    assert L.fail(state, "a", r).view == L.View(BASE.publisher, tuple(s for s in BASE.subscribers if s.address != "a"))
    assert L.join(state, N(3, "x"), r).view == L.View(BASE.publisher, BASE.subscribers + (N(3, "x"),))


@st.composite
def event_sequences(draw):
    view = draw(small_views(max_subscribers=8))
    events, live, fresh = [], [s.address for s in view.subscribers], 0
    for _ in range(draw(st.integers(1, 4))):
        if live and draw(st.booleans()):
            gone = draw(st.sampled_from(sorted(live)))
            live.remove(gone)
            events.append(("fail", gone))
        else:
            fresh += 1
            events.append(("join", N(draw(st.integers(0, 63)), f"n{fresh}")))
            live.append(f"n{fresh}")
    return view, events


def apply(state, events, r):
    for kind, what in events:
        state = L.fail(state, what, r) if kind == "fail" else L.join(state, what, r)
    return state


@FAST
@given(event_sequences())
def test_recompute_after_any_joins_and_failures_equals_building_afresh(case):
    view, events = case
    after = apply(L.initial_state(view, C), events, C)
    assert after == L.initial_state(after.view, C)


@FAST
@given(event_sequences(), st.sampled_from(["printed", "printed-as-selfbucket", "reselect"]))
def test_algorithm_3_touches_only_nodes_below_the_changed_bucket(case, path_update):
    view, events = case
    r = reading(path_update=path_update)
    state = L.initial_state(view, r)
    for kind, what in events:
        changed = what if kind == "join" else next(s for s in state.view.subscribers if s.address == what)
        before = dict(state.schedules)
        changed_bucket = L.member_buckets(state.view if kind == "fail" else
                                          L.View(view.publisher, state.view.subscribers + (what,)), r)[changed]
        try:
            state = apply(state, [(kind, what)], r)
        except ValueError as e:  # a stale rank left by a same-bucket failure, outside the bucket now
            assume(path_update != "reselect" or "rank must be an integer in" not in str(e))
            raise
        after = dict(state.schedules)
        assert set(after) == {m.address for m in state.view.members()}
        for address, sched in after.items():
            if address not in before:
                assert sched == L.local_schedule(state.view, changed, r)
            elif before[address].self_no >= changed_bucket:
                assert sched == before[address]
            else:
                assert (sched.self_no, sched.rank) == (before[address].self_no, before[address].rank)
                if path_update == "reselect":
                    assert sched == L.local_schedule(state.view, next(
                        m for m in state.view.members() if m.address == address), r, rank=sched.rank)


# --------------------------------------------------------------------------------------------
# The copy graph of a run
# --------------------------------------------------------------------------------------------

def test_dissemination_of_the_base_view():
    run = L.build_dissemination(BASE, C)
    assert run.addresses == ("p", "a", "b", "c", "d", "e", "f", "g")
    assert run.buckets == (0, 3, 3, 4, 4, 4, 5, 5)
    assert run.edges == ((0, 1), (0, 2), (1, 3), (2, 4), (2, 5), (4, 6), (5, 7))
    assert run.n == 7
    assert run.children == [[1, 2], [3], [4, 5], [], [6], [7], [], []]
    assert run.parent_counts == [0, 1, 1, 1, 1, 1, 1, 1]
    assert run.depths == {0: 0, 1: 1, 2: 1, 3: 2, 4: 2, 5: 2, 6: 3, 7: 3}
    assert L.tree_depth(run) == 3 and L.senders(run) == [0, 1, 2, 4, 5]
    empty = L.build_dissemination(L.View(N(0, "p"), ()), C)
    assert (empty.addresses, empty.buckets, empty.edges, empty.n) == (("p",), (0,), (), 0)
    assert L.tree_depth(empty) == 0
    raises_exactly(TypeError, "state must be a spec.lbdd.State, not None", L.dissemination, None, C)


def test_dissemination_refuses_malformed_runs_by_name():
    raises_exactly(ValueError, "a dissemination needs at least the publisher (node 0) in addresses",
                   L.Dissemination, (), (), ())
    raises_exactly(ValueError, "buckets must give one bucket per address (2), not 1", L.Dissemination, ("p", "a"), (0,), ())
    for edge in ((0, 2), (-1, 1), (0, True), [0, 1], (0, 1, 1), (0,), (0, 1.0)):
        raises_exactly(ValueError, f"edge {edge!r} must be a pair of node indices in 0..1",
                       L.Dissemination, ("p", "a"), (0, 1), (edge,))
    assert L.Dissemination(("p", "a"), (0, 1), ((1, 0), (0, 1), (np.int64(1), 1))).parent_counts == [1, 2]


def test_depths_follow_breadth_first_shortest_paths():
    run = L.Dissemination(("p", "a", "b", "c", "d"), (0, 1, 2, 3, 4), ((0, 1), (1, 2), (2, 3), (0, 3), (3, 1)))
    assert run.depths == {0: 0, 1: 1, 3: 1, 2: 2}
    assert not L.every_subscriber_reached(run)
    assert L.tree_depth(run) == 2


# --------------------------------------------------------------------------------------------
# Claims at their boundaries
# --------------------------------------------------------------------------------------------

def star(n, bucket=1):
    return L.Dissemination(("p",) + tuple(f"s{i}" for i in range(1, n + 1)), (0,) + (bucket,) * n,
                           tuple((0, i) for i in range(1, n + 1)))


def with_buckets(run, buckets):
    return attrs.evolve(run, buckets=(0,) + tuple(buckets))


def with_edges(run, edges):
    return attrs.evolve(run, edges=tuple(edges))


def chain(n, depth):
    """n subscribers; a path 0 -> 1 -> ... -> depth, the rest one hop from the publisher."""
    return with_edges(star(n), [(i, i + 1) for i in range(depth)] + [(0, i) for i in range(depth + 1, n + 1)])


def test_tree_claims_on_hand_made_runs():
    good = L.Dissemination(("p", "a", "b", "c"), (0, 1, 2, 2), ((0, 1), (1, 2), (1, 3)))
    assert L.every_subscriber_has_one_parent(good) and L.every_subscriber_reached(good)
    assert L.no_cycle(good) and L.one_way_dissemination(good) and L.exactly_n_copies(good)
    assert not L.every_subscriber_has_one_parent(with_edges(good, good.edges + ((3, 0),)))
    assert not L.every_subscriber_has_one_parent(with_edges(good, good.edges[:2]))
    assert not L.no_cycle(with_edges(good, ((0, 1), (2, 3), (3, 2))))
    assert not L.no_cycle(with_edges(good, good.edges + ((2, 2),)))
    assert not L.one_way_dissemination(attrs.evolve(good, buckets=(0, 1, 1, 2)))
    assert not L.exactly_n_copies(with_edges(good, good.edges[:2]))
    assert not L.exactly_n_copies(with_edges(good, good.edges + ((0, 2),)))
    assert L.exactly_n_copies(L.Dissemination(("p",), (0,), ()))
    assert L.mean_out_degree_of_all_nodes_is_two(with_edges(good, [(0, 1)] * 8))
    assert not L.mean_out_degree_of_all_nodes_is_two(with_edges(good, [(0, 1)] * 7))
    assert not L.mean_out_degree_of_all_nodes_is_two(with_edges(good, [(0, 1)] * 9))


def test_buckets_at_most_log2_n_at_a_power_of_two():
    run = star(4)
    assert L.buckets_at_most_log2_n(with_buckets(run, (2, 2, 1, 2)))  # log2 4 = 2 exactly
    assert not L.buckets_at_most_log2_n(with_buckets(run, (2, 3, 1, 2)))
    assert L.buckets_at_most_log2_n(with_buckets(star(5), (2, 2, 2, 2, 2)))
    assert not L.buckets_at_most_log2_n(with_buckets(star(3), (2, 1, 1)))  # log2 3 < 2
    assert L.buckets_at_most_log2_n(with_buckets(star(1), (0,)))
    assert not L.buckets_at_most_log2_n(with_buckets(star(1), (1,)))
    assert L.buckets_at_most_log2_n(L.Dissemination(("p",), (0,), ()))


def test_buckets_24_to_32_at_exactly_500():
    run = star(500)
    assert L.buckets_24_to_32_at_500(with_buckets(run, [24] + [28] * 498 + [32]))
    assert not L.buckets_24_to_32_at_500(with_buckets(run, [23] + [28] * 499))
    assert not L.buckets_24_to_32_at_500(with_buckets(run, [33] + [28] * 499))
    assert L.buckets_24_to_32_at_500(star(499, bucket=3)) and L.buckets_24_to_32_at_500(star(501, bucket=3))
    assert not L.buckets_24_to_32_at_500(star(500, bucket=3))


@pytest.mark.parametrize("n", [100, 500])
def test_depth_between_5_and_9_at_its_ends(n):
    assert [L.depth_between_5_and_9(chain(n, d)) for d in (4, 5, 6, 9, 10)] == [False, True, True, True, False]
    assert L.tree_depth(chain(n, 9)) == 9


def test_depth_claim_says_nothing_outside_100_to_500():
    assert L.depth_between_5_and_9(chain(99, 2)) and L.depth_between_5_and_9(chain(501, 2))
    assert L.depth_between_5_and_9(chain(99, 20)) and L.depth_between_5_and_9(chain(501, 12))


def test_mean_out_degree_of_senders_near_two_at_1_5_and_2_5():
    def run(n, edges):
        return with_edges(star(n), edges)

    at_1_5 = [(0, 1), (0, 2), (1, 3)]                          # 3 copies from 2 senders
    at_2_5 = [(0, 1), (0, 2), (0, 3), (1, 4), (1, 5)]          # 5 from 2
    below = [(0, 1), (0, 2), (1, 3), (2, 4)]                   # 4 from 3 = 1.33
    above = [(0, 1), (0, 2), (0, 3), (1, 4), (1, 5), (1, 6), (2, 7), (2, 8)]  # 8 from 3 = 2.67
    for n in (100, 101, 500):
        assert L.mean_out_degree_of_senders_near_two(run(n, at_1_5))
        assert L.mean_out_degree_of_senders_near_two(run(n, at_2_5))
        assert L.mean_out_degree_of_senders_near_two(run(n, [(0, 1), (0, 2), (1, 3), (1, 4)]))
        assert not L.mean_out_degree_of_senders_near_two(run(n, below))
        assert not L.mean_out_degree_of_senders_near_two(run(n, above))
        assert not L.mean_out_degree_of_senders_near_two(run(n, []))
        assert not L.mean_out_degree_of_senders_near_two(star(n))
    for edges in (below, above, []):
        assert L.mean_out_degree_of_senders_near_two(run(99, edges))
    assert L.SENDER_DEGREE_BAND == (1.5, 2.5) and L.SENDER_DEGREE_MIN_N == 100


def test_witnesses_at_their_boundaries():
    good = L.Dissemination(("p", "a", "b", "c"), (0, 1, 2, 3), ((0, 1), (1, 2), (2, 3)))
    assert L.relays_copies(good) and not L.relays_copies(star(3))
    assert not L.relays_copies(L.Dissemination(("p",), (0,), ()))
    assert L.reaches_depth_three(good)
    assert not L.reaches_depth_three(with_edges(good, good.edges[:2]))
    assert not L.reaches_depth_three(L.Dissemination(("p",), (0,), ()))
    assert L.has_fan_out(star(2)) and not L.has_fan_out(star(1)) and not L.has_fan_out(good)
    assert [L.in_depth_table_range(star(n)) for n in (99, 100, 500, 501)] == [False, True, True, False]
    assert [L.has_500_subscribers(star(n)) for n in (499, 500, 501)] == [False, True, False]
    assert [L.has_at_least_100_subscribers(star(n)) for n in (99, 100, 101)] == [False, True, True]
    assert not L.splits_a_bucket(L.BucketSizes(1, 2, C)) and not L.splits_a_bucket(L.BucketSizes(2, 1, C))
    assert L.splits_a_bucket(L.BucketSizes(2, 2, C))


def test_evaluate_runs_every_property_on_one_run():
    run = L.build_dissemination(BASE, C)
    assert L.evaluate(run) == {
        "every_subscriber_has_one_parent": True, "every_subscriber_reached": True, "no_cycle": True,
        "one_way_dissemination": True, "exactly_n_copies": True, "buckets_at_most_log2_n": False,
        "mean_out_degree_of_all_nodes_is_two": False, "mean_out_degree_of_senders_near_two": True,
        "depth_between_5_and_9": True, "buckets_24_to_32_at_500": True}


def test_partition_claim_on_bucket_sizes():
    assert L.schedule_partitions_targets(L.BucketSizes(3, 7, C))
    assert L.schedule_partitions_targets(L.BucketSizes(1, 0, C))
    assert L.schedule_partitions_targets(L.BucketSizes(3, 2, L.READINGS["rank-from-0"])) is False
    assert L.schedule_partitions_targets(L.BucketSizes(1, 1, attrs.evolve(C, rank_base=0, ratio="ceil"))) is False
    assert L.schedule_partitions_targets(L.BucketSizes(2, 3, L.READINGS["integer-ratio"])) is False  # index 3 unowned
    assert L.schedule_partitions_targets(L.BucketSizes(2, 3, L.READINGS["ceil-ratio"]))
    assert not L.schedule_partitions_targets(L.BucketSizes(2, 1, L.READINGS["real-ratio"]))
    raises_exactly(ValueError, "self_size must be an integer >= 1, not 0", L.BucketSizes, 0, 1, C)
    raises_exactly(ValueError, "target_size must be an integer >= 0, not -1", L.BucketSizes, 1, -1, C)
    raises_exactly(TypeError, "reading must be a spec.lbdd.Reading (see reading_named), not None",
                   L.BucketSizes, 1, 1, None)


# --------------------------------------------------------------------------------------------
# Explanations of a violating run
# --------------------------------------------------------------------------------------------

def test_helpers_of_the_explanations():
    assert [L._copies(k) for k in (0, 1, 2)] == ["0 copies", "1 copy", "2 copies"]
    assert [L._nodes(k, "node") for k in (0, 1, 2)] == ["0 nodes", "1 node", "2 nodes"]
    run = L.Dissemination(("p", "a", "b", "c", "d"), (0, 1, 2, 2, 3), ((0, 1), (0, 2), (1, 2), (0, 0)))
    assert L._wrongly_served(run) == ["b gets 2 copies", "c gets no copy", "d gets no copy"]


def explain(name, run):
    return L.EXPLAIN[name](run)


def test_the_explanations_of_violating_runs_exactly():
    bad = L.Dissemination(("p", "a", "b", "c"), (0, 1, 1, 3), ((0, 1), (1, 2), (0, 2), (2, 1)))
    assert explain("every_subscriber_has_one_parent", bad) == "a gets 2 copies; b gets 2 copies; c gets no copy."
    assert explain("every_subscriber_reached", bad) == "Unreached: c."
    assert explain("no_cycle", bad) == "The copies form a cycle."
    assert explain("one_way_dissemination", bad) == (
        "A copy goes to a bucket that is not higher: a (bucket 1) → b (bucket 1), b (bucket 1) → a (bucket 1).")
    assert explain("exactly_n_copies", bad) == "4 copies for n = 3 (a gets 2 copies; b gets 2 copies; c gets no copy)."
    assert explain("exactly_n_copies", L.Dissemination(("p", "a"), (0, 1), ())) == "0 copies for n = 1 (a gets no copy)."
    ok = L.Dissemination(("p", "a"), (0, 1), ((0, 1),))
    assert explain("exactly_n_copies", ok) == "1 copy for n = 1."
    assert explain("buckets_at_most_log2_n", bad) == "Buckets a: 1, b: 1, c: 3, above log2 n = 1.58."
    assert explain("buckets_at_most_log2_n", L.Dissemination(("p",), (0,), ())) == "Buckets , above log2 n = undefined."
    assert explain("mean_out_degree_of_all_nodes_is_two", bad) == "4 copies over 4 nodes: mean out-degree 1.00, not 2."
    assert explain("mean_out_degree_of_all_nodes_is_two", L.Dissemination(("p",), (0,), ())) == (
        "0 copies over 1 node: mean out-degree 0.00, not 2.")
    assert explain("mean_out_degree_of_senders_near_two", bad) == "4 copies from 3 sending nodes: 1.33 per sender."
    assert explain("mean_out_degree_of_senders_near_two", ok) == "1 copy from 1 sending node: 1.00 per sender."
    assert explain("mean_out_degree_of_senders_near_two", L.Dissemination(("p",), (0,), ())) == (
        "0 copies from 0 sending nodes: 0.00 per sender.")
    assert explain("depth_between_5_and_9", chain(100, 4)) == "Depth 4 with n = 100."
    assert explain("buckets_24_to_32_at_500", with_buckets(star(500), [30] * 499 + [23])) == "Lowest subscriber bucket 23."
    for name, fn in L.EXPLAIN.items():
        assert get("lbdd", name).explain is fn


# --------------------------------------------------------------------------------------------
# The reference: conformance to the spec over every reading
# --------------------------------------------------------------------------------------------

def named_edges(run):
    return sorted((run.addresses[s], run.addresses[r]) for s, r in run.edges)


@pytest.mark.parametrize("name", sorted(L.READINGS))
@settings(derandomize=True, max_examples=15, deadline=None)
@given(data=st.data())
def test_reference_disseminate_conforms_to_the_spec(name, data):
    r = L.READINGS[name]
    bits = data.draw(st.sampled_from([2, 3, 5, 32]))
    digest = st.integers(0, 2 ** bits - 1)
    publisher, subs = data.draw(digest), data.draw(st.lists(digest, max_size=14))
    # labels whose string order differs from input order ("s10" < "s2"), so ties test address_order
    labels = ["p"] + [f"s{len(subs) - i}" for i in range(len(subs))]
    view = L.View(N(publisher, "p"), tuple(N(d, a) for d, a in zip(subs, labels[1:])))
    spec_run = L.build_dissemination(view, r)
    tree = R.disseminate(np.array(subs, dtype=np.uint64), publisher, r, R.address_order(labels))
    ref_run = R.as_dissemination(tree, labels)
    assert named_edges(ref_run) == named_edges(spec_run)
    assert dict(zip(ref_run.addresses, ref_run.buckets)) == dict(zip(spec_run.addresses, spec_run.buckets))
    assert tree.n == len(subs) and tree.digests.tolist() == [publisher] + subs


@pytest.mark.parametrize("name", sorted(L.READINGS))
def test_reference_build_conforms_to_the_spec_on_real_addresses(name):
    r = L.READINGS[name]
    subs = [f"10.{i % 3}.{i % 7}.{i + 1}" for i in range(60)]
    pub = "172.16.5.4"
    spec_run = L.build_dissemination(L.View(L.node_at(pub, r), tuple(L.node_at(s, r) for s in subs)), r)
    for given_reading in (r, name):
        ref_run = R.as_dissemination(R.build(subs, pub, given_reading), [pub] + subs)
        assert named_edges(ref_run) == named_edges(spec_run)
        assert dict(zip(ref_run.addresses, ref_run.buckets)) == dict(zip(spec_run.addresses, spec_run.buckets))


def test_reference_on_the_base_view_and_its_default_tie_order():
    digests = [d.digest for d in BASE.subscribers]
    tree = R.disseminate(np.array(digests), 0, C)
    run = R.as_dissemination(tree)
    assert run.addresses == ("p", "s1", "s2", "s3", "s4", "s5", "s6", "s7")
    assert sorted(run.edges) == sorted(L.build_dissemination(BASE, C).edges)
    # equal digests 2, 2 in bucket 2 split bucket 3 (4..7): by default in input order
    tree = R.disseminate(np.array([2, 2, 4, 5, 6, 7]), 0, C)
    assert sorted(zip(tree.senders.tolist(), tree.receivers.tolist())) == [
        (0, 1), (0, 2), (1, 3), (1, 4), (2, 5), (2, 6)]
    tree = R.disseminate(np.array([2, 2, 4, 5, 6, 7]), 0, C, np.array([0, 2, 1, 3, 4, 5, 6]))
    assert sorted(zip(tree.senders.tolist(), tree.receivers.tolist())) == [
        (0, 1), (0, 2), (1, 5), (1, 6), (2, 3), (2, 4)]
    tree = R.disseminate(np.array([2, 3, 4, 5, 6]), 0, C, np.array([0, 1, 2, 5, 4, 3]))
    spec = L.build_dissemination(L.View(N(0, "p"), (N(2, "a"), N(3, "b"), N(4, "e"), N(5, "d"), N(6, "c"))), C)
    assert sorted(zip(tree.senders.tolist(), tree.receivers.tolist())) == sorted(spec.edges)
    empty = R.disseminate(np.array([], dtype=np.uint64), 7, C)
    assert empty.n == 0 and empty.senders.tolist() == [] and empty.buckets.tolist() == [0]


def test_reference_ties_follow_the_address_order():
    # equal digests in bucket 2 with the target bucket split between them
    subs = [2, 2, 4, 5, 6, 7]
    labels = ["p", "s2", "s1", "t1", "t2", "t3", "t4"]
    tree = R.disseminate(np.array(subs), 0, C, R.address_order(labels))
    assert sorted((labels[s], labels[r]) for s, r in zip(tree.senders.tolist(), tree.receivers.tolist())) == [
        ("p", "s1"), ("p", "s2"), ("s1", "t1"), ("s1", "t2"), ("s2", "t3"), ("s2", "t4")]
    none = R.disseminate(np.array(subs), 0, L.READINGS["no-tie-break"], R.address_order(labels))
    assert sorted((labels[s], labels[r]) for s, r in zip(none.senders.tolist(), none.receivers.tolist())) == [
        ("p", "s1"), ("p", "s2"), ("s1", "t1"), ("s1", "t2"), ("s2", "t1"), ("s2", "t2")]


def test_address_order_ranks_by_string_and_keeps_equal_addresses_in_input_order():
    assert R.address_order(["b", "a", "c"]).tolist() == [1, 0, 2]
    assert R.address_order(["s2", "s10", "p"]).tolist() == [2, 1, 0]
    many = ["b", "a"] * 20 + ["a", "c"] * 5
    expected = sorted(range(len(many)), key=lambda i: (many[i], i))
    order = [0] * len(many)
    for position, i in enumerate(expected):
        order[i] = position
    assert R.address_order(many).tolist() == order


def test_disseminate_refuses_bad_input_by_name():
    raises_exactly(ValueError, "tie_order must rank all 3 members (publisher first), not 2",
                   R.disseminate, np.array([1, 2]), 0, C, np.array([0, 1]))
    raises_exactly(ValueError, "digests must be one-dimensional, not of shape (1, 2)", R.disseminate,
                   np.array([[1, 2]]), 0, C)
    raises_exactly(TypeError, "digests must be integers, not of dtype float64", R.disseminate, np.array([1.0]), 0, C)
    raises_exactly(TypeError, "digests must be an array of integers, not '12'", R.disseminate, "12", 0, C)
    raises_exactly(TypeError, "digests must be an array of integers, not b'1'", R.disseminate, b"1", 0, C)
    raises_exactly(ValueError, "digests must lie in 0..2**32-1, not -2", R.disseminate, np.array([3, -2]), 0, C)
    raises_exactly(ValueError, "digests must lie in 0..2**32-1, not 4294967296", R.disseminate,
                   np.array([3, 2 ** 32]), 0, C)
    raises_exactly(ValueError, "digests must lie in 0..2**32-1, not 4294967296", R.disseminate,
                   np.array([0, 2 ** 32]), 0, C)
    raises_exactly(ValueError, "publisher_digest must be an integer in 0..2**32-1, not 4294967296",
                   R.disseminate, np.array([1]), 2 ** 32, C)
    raises_exactly(TypeError, "reading must be a spec.lbdd.Reading (see reading_named), not 'corrected'",
                   R.disseminate, np.array([1]), 0, "corrected")
    assert R.disseminate(np.array([0, 2 ** 32 - 1]), 0, C).buckets.tolist() == [0, 1, 32]
    assert R.disseminate([], 0, C).n == 0


def test_reference_tree_validation():
    d = np.zeros(3, np.uint64)
    b = np.array([0, 1, 2])
    e = np.array([], np.int64)
    raises_exactly(ValueError, "a tree needs the publisher and one bucket per member: 0 digests, 0 buckets",
                   R.Tree, np.zeros(0, np.uint64), np.array([]), e, e)
    raises_exactly(ValueError, "a tree needs the publisher and one bucket per member: 3 digests, 2 buckets",
                   R.Tree, d, b[:2], e, e)
    raises_exactly(ValueError, "senders and receivers must pair up: 1 senders, 0 receivers",
                   R.Tree, d, b, np.array([0]), e)
    raises_exactly(ValueError, "receivers must be member indices in 0..2, not 1..3", R.Tree, d, b,
                   np.array([0, 0]), np.array([1, 3]))
    raises_exactly(ValueError, "senders must be member indices in 0..2, not -1..0", R.Tree, d, b,
                   np.array([-1, 0]), np.array([1, 2]))
    raises_exactly(ValueError, "senders must be member indices in 0..2, not 0.0..1.0", R.Tree, d, b,
                   np.array([0.0, 1.0]), np.array([1, 2]))
    tree = R.Tree(d, b, np.array([0, 1]), np.array([1, 2]))
    assert tree.n == 2 and R.Tree(d[:1], b[:1], e, e).n == 0
    for fn in (R.copies_sent, R.depth, R.occupied_buckets, R.as_dissemination, R.contribution_rates,
               R.out_degree_histogram):
        raises_exactly(TypeError, "tree must be a reference.lbdd.Tree, not None", fn, None)


# --------------------------------------------------------------------------------------------
# The reference's metrics on a hand-made tree, and the point-to-point baseline
# --------------------------------------------------------------------------------------------

# p -> 1, 2; 1 -> 3, 4, 5; 4 -> 6; members 2, 3, 5 and 6 send nothing (6 is the last member)
HAND = R.Tree(np.array([0, 5, 6, 8, 9, 12, 16], np.uint64), np.array([0, 3, 3, 4, 4, 4, 5]),
              np.array([0, 0, 1, 1, 1, 4]), np.array([1, 2, 3, 4, 5, 6]))


def test_metrics_on_a_hand_made_tree():
    assert R.copies_sent(HAND).tolist() == [2, 3, 0, 0, 1, 0, 0]
    assert R.depth(HAND) == 3
    assert R.contribution_rates(HAND).tolist() == [2 / 6, 3 / 6, 0, 0, 1 / 6, 0, 0]
    assert R.out_degree_histogram(HAND) == {0: 4, 1: 1, 2: 1, 3: 1}
    assert R.occupied_buckets(HAND) == [3, 4, 5]
    run = R.as_dissemination(HAND)
    assert run.addresses == ("p", "s1", "s2", "s3", "s4", "s5", "s6")
    assert run.buckets == (0, 3, 3, 4, 4, 4, 5)
    assert run.edges == ((0, 1), (0, 2), (1, 3), (1, 4), (1, 5), (4, 6))
    named = R.as_dissemination(HAND, ["P", "a", "b", "c", "d", "e", "f"])
    assert named.addresses == ("P", "a", "b", "c", "d", "e", "f") and named.edges == run.edges
    raises_exactly(TypeError, "addresses must be a list of str, not 'abc'", R.as_dissemination, HAND, "abc")
    lone = R.Tree(np.zeros(1, np.uint64), np.array([0]), np.array([], np.int64), np.array([], np.int64))
    assert R.copies_sent(lone).tolist() == [0] and R.contribution_rates(lone).tolist() == [0.0]
    assert R.depth(lone) == 0 and R.out_degree_histogram(lone) == {0: 1} and R.occupied_buckets(lone) == []


@pytest.mark.parametrize("n", [0, 1, 5])
def test_point_to_point_baseline(n):
    tree = R.point_to_point(n)
    assert tree.n == n
    assert tree.digests.dtype == np.uint64 and tree.digests.tolist() == [0] * (n + 1)
    assert tree.buckets.tolist() == [0] + [1] * n
    assert tree.senders.tolist() == [0] * n and tree.receivers.tolist() == list(range(1, n + 1))
    assert R.copies_sent(tree).tolist() == [n] + [0] * n
    assert R.depth(tree) == (1 if n else 0)
    assert R.contribution_rates(tree).tolist() == [1.0 if n else 0.0] + [0.0] * n
    assert R.out_degree_histogram(tree) == ({0: n, n: 1} if n else {0: 1})
    assert R.occupied_buckets(tree) == ([1] if n else [])
    assert L.evaluate(R.as_dissemination(tree))["exactly_n_copies"]


def test_point_to_point_refuses_bad_sizes():
    raises_exactly(ValueError, "n must be an integer >= 0, not -1", R.point_to_point, -1)
    raises_exactly(TypeError, "n must be an integer >= 0, not 2.0", R.point_to_point, 2.0)


def test_bit_length_is_vectorized_int_bit_length():
    values = [0, 1, 2, 3, 4, 255, 256, 2 ** 31, 2 ** 32 - 1]
    assert R._bit_length(np.array(values, np.uint64)).tolist() == [v.bit_length() for v in values]


# --------------------------------------------------------------------------------------------
# build, build_tree, canonical addresses, random topologies
# --------------------------------------------------------------------------------------------

def test_canonical_addresses_and_their_errors():
    assert R.canonical_addresses(["10.0.0.1", "10.0.0.2"], "10.0.0.9") == ("10.0.0.9", ["10.0.0.1", "10.0.0.2"])
    assert R.canonical_addresses(iter(["10.0.0.1"]), "10.0.0.9") == ("10.0.0.9", ["10.0.0.1"])
    raises_exactly(ValueError, "subscribers must be a list of IPv4 addresses, not one string",
                   R.canonical_addresses, "10.0.0.1", "10.0.0.9")
    raises_exactly(TypeError, "subscribers must be a list of IPv4 addresses, not b'x'",
                   R.canonical_addresses, b"x", "10.0.0.9")
    raises_exactly(TypeError, "subscribers must be a list of IPv4 addresses, not 5", R.canonical_addresses, 5, "10.0.0.9")
    raises_exactly(ValueError, "duplicate subscriber '10.0.0.2'", R.canonical_addresses,
                   ["10.0.0.1", "10.0.0.2", "10.0.0.3", "10.0.0.2", "10.0.0.1"], "10.0.0.9")
    raises_exactly(ValueError, "the publisher '10.0.0.9' is also listed as a subscriber",
                   R.canonical_addresses, ["10.0.0.9"], "10.0.0.9")
    raises_exactly(ValueError, "not an IPv4 address: 'x'", R.canonical_addresses, ["10.0.0.1"], "x")


def test_build_and_build_tree():
    subs = [f"192.168.1.{i}" for i in range(1, 30)]
    tree = R.build(subs, "192.168.0.1")
    assert tree.digests.tolist() == R.fast_digests(["192.168.0.1"] + subs).tolist()
    assert R.build(subs, "192.168.0.1", "packed-hash").digests.tolist() == R.fast_digests(
        ["192.168.0.1"] + subs, "packed").tolist()
    parents = R.build_tree(subs, "192.168.0.1")
    names = ["192.168.0.1"] + subs
    assert parents == {names[r]: names[s] for s, r in zip(tree.senders.tolist(), tree.receivers.tolist())}
    assert R.build_tree(subs, "192.168.0.1", C) == parents
    empty = R.build([], "10.0.0.1")
    assert empty.n == 0 and empty.senders.size == 0 and R.build_tree([], "10.0.0.1") == {}
    raises_exactly(TypeError, "reading must be a spec.lbdd.Reading (see reading_named), not 3", R.build, subs, "1.1.1.1", 3)


def test_build_tree_names_the_orphans_and_the_doubly_served():
    subs = [f"192.168.1.{i}" for i in range(1, 20)]
    tree = R.build(subs, "192.168.0.1", "literal")
    counts = np.bincount(tree.receivers, minlength=20)
    orphans = [subs[i - 1] for i in range(1, 20) if counts[i] == 0]
    doubled = [subs[i - 1] for i in range(1, 20) if counts[i] > 1]
    message = (f"reading 'literal' gives no tree: {len(orphans)} subscriber(s) without a parent {orphans[:5]}, "
               f"{len(doubled)} with several {doubled[:5]}")
    assert len(orphans) == 9 and doubled == []
    raises_exactly(R.NotATreeError, message, R.build_tree, subs, "192.168.0.1", "literal")
    raises_exactly(R.NotATreeError, message, R.build_tree, subs, "192.168.0.1", L.LITERAL)
    assert issubclass(R.NotATreeError, ValueError)


def test_random_topology_is_reproducible_from_the_lbdd_salt():
    for seed, most in ((0, 5), (3, 40), (11, 1)):
        rng = G.rng_for("lbdd", seed)
        n = G.log_uniform_int(rng, 1, most)
        addresses = G.dotted(G.distinct_uint32(rng, n + 1))
        assert R.random_topology(seed, most) == (addresses[0], addresses[1:])
    pub, subs = R.random_topology(5, 1)
    assert len(subs) == 1 and subs[0] != pub
    raises_exactly(TypeError, "max_subscribers must be an integer in 1..2**32-1, not True", R.random_topology, 0, True)
    raises_exactly(TypeError, "max_subscribers must be an integer in 1..2**32-1, not 2.0", R.random_topology, 0, 2.0)
    raises_exactly(ValueError, "max_subscribers must be an integer in 1..2**32-1, not 0", R.random_topology, 0, 0)
    raises_exactly(ValueError, "max_subscribers must be an integer in 1..2**32-1, not 4294967296",
                   R.random_topology, 0, 2 ** 32)
    assert R.MAX_RANDOM_SUBSCRIBERS == 1000 and R.ALGORITHM_SALT == "lbdd"
