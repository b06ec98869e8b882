"""The LBDD spec: vocabulary, algorithms, readings, and a negative control for every property."""

import hashlib

import attrs
import pytest
from hypothesis import given, strategies as st

from spec import lbdd as L
from spec.registry import get, properties

PAPER_PCS = ["10.3.17." + x for x in "74 97 234 90 98 64 61 184 72 88 44 68".split()]


def paper_view(reading=L.CORRECTED):
    return L.View(L.node_at(PAPER_PCS[0], reading), tuple(L.node_at(a, reading) for a in PAPER_PCS[1:]))


@st.composite
def views(draw, max_subscribers=16):
    bits = draw(st.sampled_from([2, 3, 4, 8, 32]))
    digest = st.integers(0, 2 ** bits - 1)
    return L.abstract_view(draw(digest), draw(st.lists(digest, max_size=max_subscribers)))


def test_digest_is_the_top_32_bits_of_md5_of_the_dotted_quad():
    assert L.md5_digest("10.3.17.74") == int(hashlib.md5(b"10.3.17.74").hexdigest()[:8], 16)
    assert L.md5_digest("10.3.17.74", "packed") == int(hashlib.md5(bytes([10, 3, 17, 74])).hexdigest()[:8], 16)


@pytest.mark.parametrize("m", [1, 2, 5, 31, 32])
def test_bucket_m_is_the_interval_from_2_to_the_m_minus_1(m):
    assert L.bucket_number(2 ** (m - 1)) == m
    assert L.bucket_number(2 ** m - 1) == m
    assert L.bucket_number(0) == 0


def test_paper_example_is_a_tree_under_the_corrected_reading_and_not_the_literal_one():
    corrected = L.evaluate(L.build_dissemination(paper_view(), L.CORRECTED))
    assert corrected["every_subscriber_has_one_parent"] and corrected["every_subscriber_reached"]
    literal = L.evaluate(L.build_dissemination(paper_view(L.LITERAL), L.LITERAL))
    assert not literal["every_subscriber_reached"]


def test_literal_publisher_sends_nothing_because_rank_zero_owns_no_interval():
    state = L.initial_state(paper_view(L.LITERAL), L.LITERAL)
    assert state.schedule(PAPER_PCS[0]).targets == ()


@given(views())
def test_corrected_reading_gives_a_one_way_tree_with_n_copies(view):
    run = L.build_dissemination(view, L.CORRECTED)
    for name in ("every_subscriber_has_one_parent", "every_subscriber_reached", "no_cycle",
                 "one_way_dissemination", "exactly_n_copies"):
        assert get("lbdd", name).predicate(run), name


@given(views(max_subscribers=10), st.data())
def test_recomputing_path_update_equals_building_afresh(view, data):
    state = L.initial_state(view, L.CORRECTED)
    if view.subscribers and data.draw(st.booleans()):
        gone = data.draw(st.sampled_from(view.subscribers)).address
        after = L.fail(state, gone, L.CORRECTED)
    else:
        after = L.join(state, L.Node(data.draw(st.integers(0, 255)), "new"), L.CORRECTED)
    fresh = L.initial_state(after.view, L.CORRECTED)
    assert dict(after.schedules) == dict(fresh.schedules)


@pytest.mark.parametrize("name", ["literal-path-update", "reselect-path-update"])
def test_algorithm_3_keeps_a_stale_rank_after_a_same_bucket_failure(name):
    # s1 (rank 1) and s2 (rank 2) share bucket 2 and s2 owns s3 in bucket 3; when s2 fails,
    # Algorithm 3 leaves s1 alone (its bucket is not below s2's), so nobody sends to s3
    reading = L.READINGS[name]
    view = L.View(L.Node(0, "p"), (L.Node(2, "s1"), L.Node(3, "s2"), L.Node(4, "s3")))
    assert L.initial_state(view, reading).schedule("s2").targets == ("s3",)
    state = L.fail(L.initial_state(view, reading), "s2", reading)
    assert state.schedule("s1").targets == ()
    assert not L.every_subscriber_reached(L.dissemination(state, reading))
    fixed = L.fail(L.initial_state(view, L.CORRECTED), "s2", L.CORRECTED)
    assert L.every_subscriber_reached(L.dissemination(fixed, L.CORRECTED))


def test_every_reading_value_is_checked():
    with pytest.raises(ValueError, match="ratio must be one of"):
        L.Reading("bad", ratio="round")
    with pytest.raises(ValueError, match="unknown LBDD reading 'nope'"):
        L.reading_named("nope")


def test_duplicate_addresses_and_a_subscribing_publisher_are_rejected():
    with pytest.raises(ValueError, match="duplicate node address"):
        L.View(L.Node(0, "p"), (L.Node(1, "a"), L.Node(2, "a")))
    with pytest.raises(ValueError, match="publisher is among the subscribers"):
        L.View(L.Node(0, "p"), (L.Node(1, "p"),))
    with pytest.raises(ValueError, match="not an IPv4 address"):
        L.md5_digest("10.3.17.300")


def test_partition_holds_for_corrected_and_fails_for_the_literal_reading():
    assert all(L.schedule_partitions_targets(L.BucketSizes(s, t, L.CORRECTED))
               for s in range(1, 30) for t in range(0, 30))
    assert not L.schedule_partitions_targets(L.BucketSizes(1, 1, L.LITERAL))
    assert not L.schedule_partitions_targets(L.BucketSizes(2, 3, L.READINGS["real-ratio"]))


# Negative controls: a planted bug in a concrete run that each property must reject, and a run
# on which its witness holds (so no property can only ever be vacuously true).
GOOD = L.Dissemination(("p", "a", "b", "c"), (0, 1, 2, 2), ((0, 1), (1, 2), (1, 3)))
PLANTED = {
    "every_subscriber_has_one_parent": attrs.evolve(GOOD, edges=GOOD.edges + ((0, 2),)),
    "every_subscriber_reached": attrs.evolve(GOOD, edges=((0, 1), (1, 2))),
    "no_cycle": attrs.evolve(GOOD, edges=((0, 1), (1, 2), (2, 3), (3, 2))),
    "one_way_dissemination": attrs.evolve(GOOD, buckets=(0, 2, 1, 2)),
    "exactly_n_copies": attrs.evolve(GOOD, edges=GOOD.edges + ((0, 3),)),
    "buckets_at_most_log2_n": attrs.evolve(GOOD, buckets=(0, 1, 2, 3)),
    "mean_out_degree_of_all_nodes_is_two": GOOD,
    "mean_out_degree_of_senders_near_two": L.Dissemination(
        ("p",) + tuple(f"s{i}" for i in range(100)), (0,) + (1,) * 100, tuple((0, i) for i in range(1, 101))),
    "depth_between_5_and_9": L.Dissemination(
        ("p",) + tuple(f"s{i}" for i in range(100)), (0,) + (1,) * 100, tuple((0, i) for i in range(1, 101))),
    "buckets_24_to_32_at_500": L.Dissemination(
        ("p",) + tuple(f"s{i}" for i in range(500)), (0,) + (3,) * 500, tuple((0, i) for i in range(1, 501))),
    "schedule_partitions_targets": L.BucketSizes(2, 1, L.READINGS["integer-ratio"]),
}


@pytest.mark.parametrize("prop", properties("lbdd"), ids=lambda p: p.name)
def test_every_property_rejects_its_planted_bug(prop):
    assert prop.name in PLANTED, f"no negative control for {prop.name}"
    assert not prop.predicate(PLANTED[prop.name])


def test_tree_properties_accept_the_good_run():
    for name in ("every_subscriber_has_one_parent", "every_subscriber_reached", "no_cycle",
                 "one_way_dissemination", "exactly_n_copies"):
        assert get("lbdd", name).predicate(GOOD)


@pytest.mark.parametrize("prop", properties("lbdd"), ids=lambda p: p.name)
def test_every_property_has_a_reachable_witness(prop):
    assert prop.witness is not None
    from reference import lbdd as R

    candidates = [GOOD, PLANTED[prop.name], L.build_dissemination(paper_view(), L.CORRECTED),
                  L.BucketSizes(3, 5, L.CORRECTED)]
    candidates += [R.as_dissemination(R.build([f"10.0.{i // 250}.{i % 250 + 1}" for i in range(n)], "192.168.0.1"))
                   for n in (150, 500)]
    assert any(_safe(prop.witness, c) for c in candidates)


def _safe(fn, arg):
    try:
        return fn(arg)
    except (AttributeError, TypeError):
        return False


def test_the_printed_algorithm_3_retargets_the_changed_peers_bucket_and_the_repair_does_not():
    # p (digest 0); s1 in bucket 1 sends to s2 (bucket 2); s3 joins in bucket 3. The printed line
    # SelectTargets(BucketNo) makes s1, below bucket 3, send its share of bucket 3 instead of
    # bucket 2, so s2 loses its parent; the repair (reselect in its own next bucket) keeps s2.
    view = L.View(L.Node(0, "p"), (L.Node(1, "s1"), L.Node(2, "s2")))
    joining = L.Node(4, "s3")
    printed, repaired = L.READINGS["literal-path-update"], L.READINGS["reselect-path-update"]
    before = L.initial_state(view, printed)
    assert before.schedule("s1").targets == ("s2",)
    after = L.join(before, joining, printed)
    assert after.schedule("s1").targets == ("s3",)
    assert not L.every_subscriber_reached(L.dissemination(after, printed))
    kept = L.join(L.initial_state(view, repaired), joining, repaired)
    assert kept.schedule("s1").targets == ("s2",)
    assert L.every_subscriber_reached(L.dissemination(kept, repaired))
    assert L.LITERAL.path_update == "printed"


@pytest.mark.parametrize("name", ["literal-path-update", "reselect-path-update"])
def test_a_stale_rank_outside_the_shrunken_bucket_is_kept_not_refused(name):
    # two subscribers share a bucket; one fails (Algorithm 3 ignores its own bucket, so the other
    # keeps rank 2 of a bucket of 1), then a join above makes it reselect with that stale rank
    reading = L.READINGS[name]
    view = L.abstract_view(0, [0, 0])
    state = L.initial_state(view, reading)
    stale = next(a for a, s in state.schedules if s.rank == 2 and a != view.publisher.address)
    other = next(s.address for s in view.subscribers if s.address != stale)
    after = L.join(L.fail(state, other, reading), L.Node(2, "n1"), reading)
    assert after.schedule(stale).rank == 2 and after.schedule(stale).targets == ()
    assert not L.every_subscriber_reached(L.dissemination(after, reading))
