"""The numpy reference against the spec (conformance), its public API, metrics and bad input."""

import numpy as np
import pytest
from hypothesis import given, strategies as st

from reference import lbdd as R
from spec import lbdd as L


@given(st.sampled_from(sorted(L.READINGS)), st.sampled_from([2, 3, 8, 32]), st.data())
def test_reference_sends_the_same_copies_as_the_spec(reading_name, bits, data):
    reading = L.READINGS[reading_name]
    digest = st.integers(0, 2 ** bits - 1)
    publisher, subscribers = data.draw(digest), data.draw(st.lists(digest, max_size=20))
    view = L.abstract_view(publisher, subscribers)
    spec_run = L.build_dissemination(view, reading)
    in_input_order = ["p"] + [f"s{i}" for i in range(1, len(subscribers) + 1)]
    tree = R.disseminate(np.array(subscribers, dtype=np.uint64), publisher, reading,
                         R.address_order(in_input_order))
    ref_run = R.as_dissemination(tree, in_input_order)
    assert named_edges(ref_run) == named_edges(spec_run)
    assert named_buckets(ref_run) == named_buckets(spec_run)


def named_edges(run):
    return sorted((run.addresses[s], run.addresses[r]) for s, r in run.edges)


def named_buckets(run):
    return dict(zip(run.addresses, run.buckets))


def test_reference_matches_the_spec_on_real_addresses():
    subs = [f"10.3.{i}.{j}" for i in range(3) for j in range(1, 40)]
    view = L.View(L.node_at("10.9.9.9"), tuple(L.node_at(s) for s in subs))
    spec_run = L.build_dissemination(view, L.CORRECTED)
    ref_run = R.as_dissemination(R.build(subs, "10.9.9.9"), ["10.9.9.9"] + subs)
    assert named_edges(ref_run) == named_edges(spec_run)


def test_build_tree_maps_every_subscriber_to_one_parent():
    subs = [f"192.168.1.{i}" for i in range(1, 200)]
    tree = R.build_tree(subs, "192.168.0.1")
    assert set(tree) == set(subs)
    assert "192.168.0.1" in tree.values()
    # following parents always ends at the publisher
    for s in subs:
        node, hops = s, 0
        while node != "192.168.0.1":
            node, hops = tree[node], hops + 1
            assert hops <= 33


def test_build_tree_selects_readings_by_name_and_names_the_failure():
    subs = [f"192.168.1.{i}" for i in range(1, 20)]
    assert R.build_tree(subs, "192.168.0.1", reading="ceil-ratio")
    with pytest.raises(R.NotATreeError, match="reading 'literal' gives no tree"):
        R.build_tree(subs, "192.168.0.1", reading="literal")
    with pytest.raises(ValueError, match="unknown LBDD reading"):
        R.build_tree(subs, "192.168.0.1", reading="typo")


@pytest.mark.parametrize("subs, publisher, message", [
    (["10.0.0.1", "10.0.0.256"], "10.0.0.9", "not an IPv4 address: '10.0.0.256'"),
    (["10.0.0.1", "hello"], "10.0.0.9", "not an IPv4 address: 'hello'"),
    (["10.0.0.1", "10.0.0.1"], "10.0.0.9", "duplicate subscriber '10.0.0.1'"),
    (["10.0.0.1", "10.0.0.9"], "10.0.0.9", "publisher '10.0.0.9' is also listed"),
    ("10.0.0.1", "10.0.0.9", "not one string"),
    (["10.0.0.1"], "10.0.0", "not an IPv4 address: '10.0.0'"),
])
def test_bad_input_gets_a_clear_error(subs, publisher, message):
    with pytest.raises(ValueError, match=message.replace(".", r"\.")):
        R.build_tree(subs, publisher)


def test_metrics_and_point_to_point_baseline():
    subs = [f"172.16.{i // 200}.{i % 200 + 1}" for i in range(1000)]
    tree = R.build(subs, "172.31.0.1")
    assert R.copies_sent(tree).sum() == 1000
    assert 0 < R.contribution_rates(tree)[0] < 0.05
    assert R.contribution_rates(R.point_to_point(1000))[0] == 1.0
    assert R.depth(R.point_to_point(10)) == 1
    assert 5 <= R.depth(tree) <= 15
    assert sum(R.out_degree_histogram(tree).values()) == 1001
    assert R.occupied_buckets(tree)[-1] == 32


def test_reference_depth_is_the_spec_depth():
    for seed in range(20):
        publisher, subscribers = R.random_topology(seed, max_subscribers=300)
        tree = R.build(subscribers, publisher)
        assert R.depth(tree) == L.tree_depth(R.as_dissemination(tree))


def test_random_topologies_are_a_pure_function_of_the_seed():
    assert R.random_topology(42) == R.random_topology(42)
    assert R.random_topology(42) != R.random_topology(43)
    sizes = [len(R.random_topology(s)[1]) for s in range(300)]
    assert min(sizes) >= 1 and max(sizes) <= 1000
    pub, subs = R.random_topology(7)
    assert len(set(subs + [pub])) == len(subs) + 1
