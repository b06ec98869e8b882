"""SCOT behaviour pinned exactly: spec/scot.py and reference/scot.py.

What a user of the two modules sees, asserted as values, not as "some run differs":
  * the readings catalogue and the claims each reading is held to (exact tuples);
  * the reference's routing (SNR, BID and DNR under every DNR reading) conforms to the spec's,
    fed the spec's own message-by-message trees, on small SCOTs exhaustively and on random
    scenarios (hypothesis, derandomized);
  * the per-broker rules (Algorithms 2-4) on hand-made cases, with the expected values worked out
    in the comments, and the explanation lines `say` receives;
  * broadcast_to_the_end under explicit delivery orders and first in first out;
  * the queue simulation (reference.scot.simulate) on tiny scenarios, traced tick by tick;
  * predicates at their boundaries, and the exact messages of refused input.
"""

import itertools
import re

import attrs
import networkx as nx
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reference import scot as R
from spec import scot as S

P = R.Publication
SBP_NAMES = ["every_broker_receives_the_subscription_once", "subscription_tree_has_no_loop",
             "subscription_tree_is_shortest", "subscription_tree_links_are_host_acols_and_icols",
             "subscription_tree_has_all_icols", "no_duplicate_subscription_messages"]


def spec_trees(scot, protocol="sbp"):
    """Every broker's subscription tree, as the spec's broadcast (message by message) leaves it."""
    return {h: S.subscription_tree(scot, h, protocol) for h in scot.brokers()}


# --------------------------------------------------------------------------------------------
# The readings catalogue and the claims per reading
# --------------------------------------------------------------------------------------------

def test_readings_of_each_kind_in_catalogue_order():
    assert S.readings_of("protocol") == ("octopis-sbp", "bid-flooding")
    assert S.readings_of("topology") == ("octopis-sbp-every-tree",)
    assert S.readings_of("router") == ("snr", "bid")
    assert S.readings_of("dnr") == ("dnr-icols-only", "dnr-skip-congested-acols", "dnr-two-copies", "dnr-tree-icols")
    # catalogue order, whatever order the kinds are asked in
    assert S.readings_of("dnr", "router") == ("snr", "bid", "dnr-icols-only", "dnr-skip-congested-acols",
                                              "dnr-two-copies", "dnr-tree-icols")
    assert S.readings_of() == ()
    assert S.readings_of(*S.KINDS) == tuple(S.READINGS)
    assert S.ROUTERS == ("snr", "bid", "dnr-icols-only", "dnr-skip-congested-acols", "dnr-two-copies",
                         "dnr-tree-icols")
    # the queue simulation leaves out the reading whose copies can circulate for ever
    assert R.ROUTERS == ("snr", "bid", "dnr-icols-only", "dnr-skip-congested-acols", "dnr-two-copies")
    assert S.DNR_READINGS == ("dnr-icols-only", "dnr-skip-congested-acols", "dnr-two-copies", "dnr-tree-icols")
    assert S.PROTOCOLS == {"octopis-sbp": "sbp", "bid-flooding": "flood"}
    assert R.CONGESTION_RULES == ("ce-above-1", "not-free")


@pytest.mark.parametrize("reading, names", [
    ("octopis-sbp", SBP_NAMES),
    ("bid-flooding", SBP_NAMES),
    ("octopis-sbp-every-tree", SBP_NAMES),
    ("snr", ["notification_delivered_exactly_once", "notification_takes_shortest_paths",
             "no_broker_receives_a_notification_twice"]),
    ("bid", ["notification_delivered_exactly_once", "notification_takes_shortest_paths",
             "no_broker_receives_a_notification_twice"]),
    ("dnr-icols-only", ["notification_delivered_exactly_once", "no_broker_receives_a_notification_twice",
                        "at_most_one_copy_into_congested_queues", "dnr_costs_no_more_messages_than_snr"]),
    ("dnr-skip-congested-acols", ["notification_delivered_exactly_once", "no_broker_receives_a_notification_twice",
                                  "at_most_one_copy_into_congested_queues", "dnr_costs_no_more_messages_than_snr"]),
    ("dnr-two-copies", ["notification_delivered_exactly_once", "no_broker_receives_a_notification_twice",
                        "at_most_one_copy_into_congested_queues", "dnr_costs_no_more_messages_than_snr"]),
    ("dnr-tree-icols", ["notification_delivered_exactly_once", "no_broker_receives_a_notification_twice",
                        "at_most_one_copy_into_congested_queues", "dnr_costs_no_more_messages_than_snr"]),
])
def test_properties_of_each_reading_are_its_claims_in_order(reading, names):
    got = S.properties_of(reading)
    assert isinstance(got, list) and [p.name for p in got] == names


def test_the_finished_only_wrapper_keeps_the_claims_name_and_text_and_passes_a_run_in_progress():
    wrapped = {p.name: p.predicate for p in S.SBP_PROPERTIES}
    for name in ("every_broker_receives_the_subscription_once", "subscription_tree_is_shortest",
                 "subscription_tree_links_are_host_acols_and_icols", "subscription_tree_has_all_icols",
                 "no_duplicate_subscription_messages"):
        original = getattr(S, name)
        assert wrapped[name] is not original
        assert wrapped[name].__name__ == name and wrapped[name].__doc__ == original.__doc__
    scot = S.build(nx.path_graph(2), 2)
    started = S.BroadcastRun(scot, S.subscribe(scot, (0, 0)))  # messages still in flight
    assert not S.is_finished(started)
    assert not S.every_broker_receives_the_subscription_once(started)
    assert wrapped["every_broker_receives_the_subscription_once"](started)
    assert not S.no_duplicate_subscription_messages(started)  # 2 messages sent of the 3 needed
    assert wrapped["no_duplicate_subscription_messages"](started)


# --------------------------------------------------------------------------------------------
# The topology: broker order, neighbours, counts
# --------------------------------------------------------------------------------------------

def test_brokers_and_neighbours_are_in_repr_order_and_counted_exactly():
    star = S.build(nx.star_graph(11), 2)  # centre 0, leaves 1..11: repr puts "(10, 0)" before "(2, 0)"
    assert star.brokers()[:6] == ((0, 0), (0, 1), (1, 0), (1, 1), (10, 0), (10, 1))
    assert star.neighbours((0, 0))[:5] == [(0, 1), (1, 0), (10, 0), (11, 0), (2, 0)]
    assert star.neighbours((10, 1)) == [(0, 1), (10, 0)]
    assert star.broker_count() == 24 and star.link_count() == 11 * 2 + 12 * 1 == 34
    k4 = S.build(nx.path_graph(3), 4)
    assert k4.link_count() == 2 * 4 + 3 * 6 == k4.graph.number_of_edges()
    assert k4.tree_distance(0, 2) == 2 and k4.tree_distance(1, 1) == 0
    assert S.distance(k4, (0, 1), (2, 3)) == 3 and S.distance(k4, (2, 3), (2, 3)) == 0
    assert not k4.has_broker(([0], 0)) and not k4.has_broker((0, 4)) and not k4.has_broker((0, 1, 2))
    assert k4.has_broker((2, 3))
    assert S.cluster_bit(0) == 1 and S.cluster_bit(3) == 8


# --------------------------------------------------------------------------------------------
# Subscription broadcasts: explicit delivery orders, FIFO, messages counted
# --------------------------------------------------------------------------------------------

K2 = S.build(nx.path_graph(2), 2)   # brokers (0,0) (0,1) (1,0) (1,1); links: 2 aCOLs, 2 iCOLs


def test_flooding_fifo_delivers_in_arrival_order_and_counts_every_copy():
    log = []
    b = S.broadcast_to_the_end(K2, (0, 0), "flood", log=log)
    # (0,0) sends to (0,1), (1,0) (sorted); each forwards to its other neighbour, (1,1) gets two
    # copies and forwards the first (from (0,1)) to (1,0): 2 + 1 + 1 + 1 = 5 messages
    assert log == [((0, 0), (0, 1), "PRIMARY"), ((0, 0), (1, 0), "PRIMARY"), ((0, 1), (1, 1), "PRIMARY"),
                   ((1, 0), (1, 1), "PRIMARY"), ((1, 1), (1, 0), "PRIMARY")]
    assert b.messages == 5 and b.in_flight == frozenset()
    assert b.last_hop == (((0, 1), (0, 0)), ((1, 0), (0, 0)), ((1, 1), (0, 1)))
    assert b.received == (((0, 0), 0), ((0, 1), 1), ((1, 0), 2), ((1, 1), 2))
    # order all zeros: always the first message of the sorted set in flight -- the same run here
    log0 = []
    assert S.broadcast_to_the_end(K2, (0, 0), "flood", [0] * 10, log0) == b and log0 == log


@pytest.mark.parametrize("order", [[1] * 10, [5, 5, 5, 5], [1]])
def test_flooding_under_an_explicit_order_takes_the_chosen_index_modulo_the_set_in_flight(order):
    """Index 1 of {(0,0)->(0,1), (0,0)->(1,0)} is (0,0)->(1,0); then (1,0) forwards to (1,1), which
    floods on to (0,1); the copy (0,1) then forwards reaches the host. An index past the end wraps
    (5 % 2 == 1, 5 % 3 == 2 ...); an order that runs out continues with index 0."""
    log = []
    b = S.broadcast_to_the_end(K2, (0, 0), "flood", order, log)
    if order == [1]:
        # one choice, then first-of-sorted: after (0,0)->(1,0), in flight are (0,0)->(0,1) and
        # (1,0)->(1,1); index 0 takes (0,0)->(0,1) first
        assert log[:2] == [((0, 0), (1, 0), "PRIMARY"), ((0, 0), (0, 1), "PRIMARY")]
        assert b.last_hop == (((0, 1), (0, 0)), ((1, 0), (0, 0)), ((1, 1), (0, 1)))
        return
    assert log == [((0, 0), (1, 0), "PRIMARY"), ((1, 0), (1, 1), "PRIMARY"), ((1, 1), (0, 1), "PRIMARY"),
                   ((0, 1), (0, 0), "PRIMARY"), ((0, 0), (0, 1), "PRIMARY")]
    assert b.last_hop == (((0, 1), (1, 1)), ((1, 0), (0, 0)), ((1, 1), (1, 0)))
    assert b.received == (((0, 0), 1), ((0, 1), 2), ((1, 0), 1), ((1, 1), 1))
    assert b.messages == 5
    assert not S.subscription_tree_is_shortest(S.BroadcastRun(K2, b))  # (0,1) hangs 3 hops away


def test_algorithm_1_sends_one_message_per_broker_in_every_order():
    log = []
    b = S.broadcast_to_the_end(K2, (0, 0), "sbp", log=log)
    assert log == [((0, 0), (0, 1), "SECONDARY"), ((0, 0), (1, 0), "PRIMARY"), ((1, 0), (1, 1), "SECONDARY")]
    assert b.messages == 3 and b.last_hop == (((0, 1), (0, 0)), ((1, 0), (0, 0)), ((1, 1), (1, 0)))
    for order in itertools.product(range(3), repeat=3):
        assert S.broadcast_to_the_end(K2, (0, 0), "sbp", order) == b
    first = S.subscribe(K2, (0, 0))
    assert first == S.Broadcast((0, 0), frozenset({((0, 0), (1, 0), "PRIMARY"), ((0, 0), (0, 1), "SECONDARY")}),
                                (), (((0, 0), 0),), 2)
    # a duplicate is counted as received and forwarded no further
    flood = S.subscribe(K2, (0, 0), "flood")
    again = S.deliver(K2, S.deliver(K2, flood, ((0, 0), (0, 1), "PRIMARY"), "flood"),
                      ((0, 0), (1, 0), "PRIMARY"), "flood")
    after = S.deliver(K2, S.deliver(K2, again, ((0, 1), (1, 1), "PRIMARY"), "flood"),
                      ((1, 0), (1, 1), "PRIMARY"), "flood")
    assert dict(after.received)[(1, 1)] == 2 and after.messages == 5
    assert after.in_flight == frozenset({((1, 1), (1, 0), "PRIMARY")})


# --------------------------------------------------------------------------------------------
# Reference vs spec: every router and every DNR reading on small SCOTs and random scenarios
# --------------------------------------------------------------------------------------------

SMALL = [S.build(nx.path_graph(3), 2), S.build(nx.star_graph(3), 3), S.build(nx.path_graph(2), 3)]


def path_links(trees, publisher, hosts):
    """The directed links on the tree paths from the publisher to each host."""
    links = set()
    for h in hosts:
        b = publisher
        while b != h:
            links.add((b, trees[h][b]))
            b = trees[h][b]
    return links


def directed_links(scot):
    return sorted([(u, v) for u, v in scot.graph.edges] + [(v, u) for u, v in scot.graph.edges], key=repr)


@pytest.mark.parametrize("k", range(len(SMALL)))
def test_the_reference_routes_every_notification_as_the_spec_does(k):
    scot = SMALL[k]
    sbp, flood = spec_trees(scot), spec_trees(scot, "flood")
    brokers = scot.brokers()
    links = directed_links(scot)
    for publisher in brokers:
        leaving = [link for link in links if link[0] == publisher]
        pairs = list(itertools.combinations(brokers, 2))
        for hosts in itertools.chain(itertools.combinations(brokers, 1), pairs[publisher[1]::len(brokers) // 4]):
            snr = R.snr(scot, publisher, hosts)
            assert snr == S.snr(scot, publisher, hosts, sbp)
            # reverse path forwarding: one message per link on the union of the tree paths, and each
            # subscriber reached along its shortest path
            assert snr.messages == len(path_links(sbp, publisher, hosts))
            assert snr.hops == tuple((h, S.distance(scot, publisher, h)) for h in sorted(hosts, key=repr))
            bid = R.bid(scot, publisher, hosts)
            assert bid == S.bid_routing(scot, publisher, hosts, flood)
            assert S.notification_delivered_exactly_once(S.RoutingRun(scot, publisher, hosts, bid))
            assert bid.hops == snr.hops
            for reading in S.DNR_READINGS:
                for congested in [()] + [(link,) for link in leaving] + [tuple(leaving)]:
                    ref = R.dnr(scot, publisher, hosts, congested, reading)
                    assert ref == S.dnr(scot, publisher, hosts, sbp, frozenset(congested), reading)
                    if not congested and S.READINGS[reading].target_icols == "cbv":  # nothing congested: DNR is SNR
                        assert (ref.deliveries, ref.messages, ref.hops, ref.received, ref.congested_copies) == (
                            snr.deliveries, snr.messages, snr.hops, snr.received, ())
                    if reading == "dnr-icols-only":
                        assert dict(ref.deliveries) == {h: 1 for h in hosts}
                # the default reading, both sides
                assert R.dnr(scot, publisher, hosts, leaving[:1]) == S.dnr(
                    scot, publisher, hosts, sbp, frozenset(leaving[:1]), "dnr-icols-only")


@settings(derandomize=True, deadline=None, max_examples=40)
@given(seed=st.integers(0, 2 ** 32 - 1))
def test_random_scenarios_route_alike_in_the_reference_and_the_spec(seed):
    sc = R.random_scenario(seed, max_tree=6, max_m=3, max_subscribers=4)
    scot, pub, hosts = sc.scot, sc.publisher, sc.subscriber_hosts
    assert 1 <= scot.tree.number_of_nodes() <= 6 and 1 <= scot.m <= 3 and 1 <= len(hosts) <= 4
    assert len(set(hosts)) == len(hosts) and list(hosts) == sorted(hosts, key=repr)
    assert all(link[0] != link[1] for link in sc.congested) and S.check_links(scot, sc.congested) == sc.congested
    sbp = {h: S.subscription_tree(scot, h) for h in hosts}
    flood = {h: S.subscription_tree(scot, h, "flood") for h in hosts}
    assert all(R.subscription_tree(scot, h) == sbp[h] and R.flooding_tree(scot, h) == flood[h] for h in hosts)
    snr = R.snr(scot, pub, hosts)
    assert snr == S.snr(scot, pub, hosts, sbp)
    assert R.bid(scot, pub, hosts) == S.bid_routing(scot, pub, hosts, flood)
    for reading in S.DNR_READINGS:
        ref = R.dnr(scot, pub, hosts, sc.congested, reading)
        assert ref == S.dnr(scot, pub, hosts, sbp, sc.congested, reading)
        run = S.RoutingRun(scot, pub, hosts, ref, sc.congested, snr.messages)
        # two copies on one link is dnr-two-copies' fault, tree iCOLs at every broker dnr-tree-icols'
        if S.READINGS[reading].cbv_copy == "merged" and S.READINGS[reading].target_icols == "cbv":
            assert S.no_broker_receives_a_notification_twice(run)
        if reading == "dnr-icols-only":
            assert S.notification_delivered_exactly_once(run)
    assert R.random_scenario(seed, max_tree=6, max_m=3, max_subscribers=4) == sc  # a pure function of the seed


def test_a_random_scenario_is_reproduced_exactly_from_its_seed():
    sc = R.random_scenario(3, 6, 3, 4)
    assert sorted(sc.scot.tree.edges) == sorted(R.random_scenario(3, 6, 3, 4).scot.tree.edges)
    assert (sc.scot.tree.number_of_nodes(), sc.scot.m, sc.publisher) == (6, 3, (0, 2))
    assert sc.subscriber_hosts == ((1, 2), (4, 0), (5, 2))
    assert len(sc.congested) == 34 and round(sc.congestion, 6) == 0.835698
    one = R.random_scenario(0, 1, 1, 1)  # a single broker: it publishes to itself, nothing can congest
    assert (one.publisher, one.subscriber_hosts, one.congested) == ((0, 0), ((0, 0),), frozenset())


# --------------------------------------------------------------------------------------------
# Per-broker rules (Algorithms 2-4) on hand-made cases
# --------------------------------------------------------------------------------------------

def test_snr_sends_to_distinct_last_hops_in_repr_order():
    star = S.build(nx.star_graph(11), 1)
    trees = {h: S.subscription_tree(star, h) for h in [(2, 0), (10, 0)]}
    # the publisher (0,0) sends one copy toward each host; "(10, 0)" sorts before "(2, 0)"
    assert S.snr_next_hops((0, 0), None, (0, 0), [(2, 0), (10, 0)], trees) == [(10, 0), (2, 0)]
    routing = S.snr(star, (0, 0), [(10, 0), (2, 0)], trees)
    assert routing.deliveries == (((10, 0), 1), ((2, 0), 1)) and routing.messages == 2
    # a broker forwards inside its cluster only, never back where the copy came from
    s = S.build(nx.path_graph(3), 2)
    t = spec_trees(s)
    assert S.snr_next_hops((1, 0), None, (1, 0), [(0, 1), (2, 0)], t) == [(1, 1), (2, 0)]
    assert S.snr_next_hops((1, 0), (0, 0), (0, 0), [(0, 1), (2, 0), (2, 1)], t) == [(2, 0)]
    assert S.snr_next_hops((1, 0), (2, 0), (0, 0), [(2, 0)], t) == []


def test_bid_groups_the_bids_by_next_hop():
    s = S.build(nx.path_graph(3), 2)
    t = spec_trees(s, "flood")
    # at (0,0): its own BID is dropped; (1,0) and (2,0) both go via (1,0); (2,1) via (0,1)
    # (flooding's first-in-first-out tree of (2,1) hangs (0,0) off (0,1), (0,1) off (1,1))
    assert S.bid_next_hops((0, 0), frozenset({(2, 1), (1, 0), (0, 0), (2, 0)}), t) == [
        ((0, 1), frozenset({(2, 1)})), ((1, 0), frozenset({(1, 0), (2, 0)}))]
    routing = S.bid_routing(s, (0, 0), [(2, 1), (1, 0), (2, 0)], t)
    assert routing.deliveries == (((1, 0), 1), ((2, 0), 1), ((2, 1), 1))
    # messages: (0,0)->(0,1)->(1,1)->(2,1) is 3, (0,0)->(1,0)->(2,0) is 2
    assert routing.messages == 5 and routing.hops == (((1, 0), 1), ((2, 0), 2), ((2, 1), 3))


def test_dnr_targets_split_acols_and_icols_by_the_cbv():
    s = S.build(nx.path_graph(3), 2)
    t = spec_trees(s)
    hosts = [(0, 0), (2, 0), (0, 1), (1, 1), (1, 0)]
    # at the publisher every iCOL target counts; its own host is no target
    assert S.dnr_targets((1, 0), None, 0, (1, 0), hosts, t) == ([(0, 0), (2, 0)], [(1, 1)])
    # elsewhere only the clusters named in the CBV, and never back to the sender
    assert S.dnr_targets((1, 0), (0, 0), 0b10, (2, 0), hosts, t) == ([(2, 0)], [(1, 1)])
    assert S.dnr_targets((1, 0), (0, 0), 0b00, (2, 0), hosts, t) == ([(2, 0)], [])
    assert S.dnr_targets((1, 1), (1, 0), 0, (1, 0), hosts, t) == ([(0, 1)], [])


AT = (0, 0)
I1, I2, I3, A1 = (0, 1), (0, 2), (0, 3), (1, 0)


@pytest.mark.parametrize("reading, acols, icols, cbv, congested, sends", [
    # nothing congested: a copy per target, no CBV
    ("dnr-icols-only", [A1], [I1, I2], 0, [], [(I1, 0), (I2, 0), (A1, 0)]),
    # Case I: I1 overloaded, I2 free carries cluster 1's bit (0b10)
    ("dnr-icols-only", [A1], [I1, I2], 0, [I1], [(I2, 0b10), (A1, 0)]),
    # Case I with two free iCOLs: the first (default choose) carries it
    ("dnr-skip-congested-acols", [], [I1, I2, I3], 0, [I1], [(I2, 0b10), (I3, 0)]),
    # Case II: every iCOL overloaded, the free aCOL carries clusters 1 and 2 (0b110)
    ("dnr-icols-only", [A1], [I1, I2], 0, [I1, I2], [(A1, 0b110)]),
    # Case III: everything congested; icols-only keeps the aCOL copy, the first iCOL carries 0b100
    ("dnr-icols-only", [A1], [I1, I2], 0, [I1, I2, A1], [(I1, 0b100), (A1, 0)]),
    ("dnr-skip-congested-acols", [A1], [I1, I2], 0, [I1, I2, A1], [(I1, 0b100)]),
    # no target iCOL but a CBV to pass on: the congested aCOL carries it (the own cluster's bit cleared)
    ("dnr-skip-congested-acols", [A1], [], 0b1011, [A1], [(A1, 0b1010)]),
    ("dnr-skip-congested-acols", [], [], 0b10, [], []),
    # the same decisions with n_CBV as its own entry of DL: a second copy where the carrier has one
    ("dnr-two-copies", [A1], [I1, I2], 0, [I1], [(I2, 0), (I2, 0b10), (A1, 0)]),     # Case I
    ("dnr-two-copies", [A1], [I1, I2], 0, [I1, I2], [(A1, 0), (A1, 0b110)]),         # Case II
    ("dnr-two-copies", [A1], [I1, I2], 0, [I1, I2, A1], [(I1, 0b100)]),              # Case III: no copy there
    ("dnr-two-copies", [A1], [I1, I2], 0, [], [(I1, 0), (I2, 0), (A1, 0)]),          # uncongested: as SNR
    ("dnr-two-copies", [A1], [], 0b1011, [A1], [(A1, 0b1010)]),
])
def test_dnr_decisions_per_case(reading, acols, icols, cbv, congested, sends):
    links = {(AT, n) for n in congested} | {((5, 5), I1)}  # another broker's queue is not this one's
    step = S.dnr_step(AT, acols, icols, cbv, links, reading)  # the default choose: the first candidate
    assert step.sends == tuple(sends)
    assert step.congested == frozenset((AT, n) for n in congested)
    assert (step.at, step.acols, step.icols, step.cbv, step.reading) == (AT, tuple(acols), tuple(icols), cbv, reading)


def test_dnr_step_uses_the_choice_it_is_given():
    last = S.dnr_step(AT, [], [I1, I2, I3], 0, {(AT, I1)}, "dnr-skip-congested-acols", lambda c: c[-1])
    assert last.sends == ((I2, 0), (I3, 0b10))
    assert S.dnr_decide(AT, [A1], [I1, I2], 0, {(AT, I1), (AT, I2)}, "dnr-skip-congested-acols", lambda c: c[-1]) == [
        (A1, 0b110)]


def test_copies_into_congested_queues_at_the_boundary():
    one = S.dnr_step(AT, [A1], [I1, I2], 0, {(AT, I1), (AT, I2)}, "dnr-icols-only")
    assert one.sends == ((A1, 0b110),) and S.copies_into_congested(one) == 0
    exactly_one = S.dnr_step(AT, [A1], [I1, I2], 0, {(AT, I1), (AT, I2), (AT, A1)}, "dnr-skip-congested-acols")
    assert S.copies_into_congested(exactly_one) == 1
    assert S.step_one_copy_into_congested_queues(exactly_one)
    assert S.step_one_copy_into_congested_icol_queues(exactly_one)
    two = S.dnr_step(AT, [A1], [I1, I2], 0, {(AT, I1), (AT, I2), (AT, A1)}, "dnr-icols-only")
    assert S.copies_into_congested(two) == 2 and S.copies_into_congested(two, icols_only=True) == 1
    assert not S.step_one_copy_into_congested_queues(two)
    assert S.step_one_copy_into_congested_icol_queues(two)
    icols2 = S.DnrStep(AT, (), (I1, I2), 0, frozenset({(AT, I1), (AT, I2)}), "dnr-skip-congested-acols", ((I1, 0), (I2, 0)))
    assert S.copies_into_congested(icols2, icols_only=True) == 2
    assert not S.step_one_copy_into_congested_icol_queues(icols2)
    assert S.step_meets_congestion(two) and S.step_has_congested_acols_and_icols(two)
    assert not S.step_has_congested_acols_and_icols(one) and S.step_meets_congestion(one)
    free = S.dnr_step(AT, [A1], [I1], 0, set(), "dnr-skip-congested-acols")
    assert not S.step_meets_congestion(free) and S.step_keeps_every_target(free)
    # the literal reading drops a congested aCOL that carries no CBV: a target is lost
    dropped = S.dnr_step(AT, [A1], [I1], 0, {(AT, A1)}, "dnr-skip-congested-acols")
    assert dropped.sends == ((I1, 0),) and not S.step_keeps_every_target(dropped)
    # an iCOL target is kept by the CBV another copy carries
    assert S.step_keeps_every_target(one)


def test_at_most_one_copy_per_broker_into_congested_queues():
    s = S.build(nx.path_graph(2), 3)
    t = spec_trees(s)
    hosts = [(0, 1), (0, 2), (1, 0)]
    snr = S.snr(s, AT, hosts, t)  # a plain Routing: no congested copies recorded at all
    assert not hasattr(snr, "congested_copies")
    assert S.at_most_one_copy_into_congested_queues(S.RoutingRun(s, AT, tuple(hosts), snr))
    allc = frozenset({(AT, (0, 1)), (AT, (0, 2)), (AT, (1, 0))})
    one = S.dnr(s, AT, hosts, t, allc, "dnr-skip-congested-acols")
    assert one.congested_copies == ((AT, 1),)
    assert S.at_most_one_copy_into_congested_queues(S.RoutingRun(s, AT, tuple(hosts), one, allc, snr.messages))
    two = S.dnr(s, AT, hosts, t, allc, "dnr-icols-only")
    assert two.congested_copies == ((AT, 2),)
    run = S.RoutingRun(s, AT, tuple(hosts), two, allc, snr.messages)
    assert not S.at_most_one_copy_into_congested_queues(run)
    assert S.dnr_costs_no_more_messages_than_snr(run) and two.messages == snr.messages == 3
    assert S.congestion_was_met(run) and S.routes_across_clusters(run)
    assert not S.congestion_was_met(attrs.evolve(run, congested=frozenset()))
    assert not S.routes_across_clusters(attrs.evolve(run, subscriber_hosts=((0, 1),)))
    assert not S.routes_across_clusters(attrs.evolve(run, subscriber_hosts=((1, 0), (0, 0))))
    assert S.dnr_costs_no_more_messages_than_snr(attrs.evolve(run, snr_messages=None))
    assert not S.dnr_costs_no_more_messages_than_snr(attrs.evolve(run, snr_messages=2))


# --------------------------------------------------------------------------------------------
# The explanation a user reads (dnr's `say`)
# --------------------------------------------------------------------------------------------

K3 = S.build(nx.path_graph(2), 3)
K3_TREES = spec_trees(K3)
HOSTS3 = [(0, 1), (0, 2), (1, 0)]


def test_dnr_explains_case_i_broker_by_broker():
    lines = []
    r = S.dnr(K3, AT, HOSTS3, K3_TREES, frozenset({(AT, (0, 1))}), say=lines.append)  # default: icols-only
    assert lines == [
        "B(0, 0) (from -, CBV 0): target aCOLs [(1, 0)], target iCOLs [(0, 1), (0, 2)], overloaded iCOLs "
        "[(0, 1)]; sends B(0, 2) with CBV 10, B(1, 0)",
        "B(0, 2) (from B(0, 0), CBV 10): target aCOLs [], target iCOLs [(0, 1)], overloaded iCOLs []; sends B(0, 1)",
        "B(1, 0) (from B(0, 0), CBV 0): target aCOLs [], target iCOLs [], overloaded iCOLs []; sends nothing",
        "B(0, 1) (from B(0, 2), CBV 0): target aCOLs [], target iCOLs [], overloaded iCOLs []; sends nothing"]
    assert r.hops == (((0, 1), 2), ((0, 2), 1), ((1, 0), 1)) and r.messages == 3 and r.congested_copies == ()


@pytest.mark.parametrize("reading, first", [
    ("dnr-icols-only", "B(0, 0) (from -, CBV 0): target aCOLs [(1, 0)], target iCOLs [(0, 1), (0, 2)], "
                       "overloaded iCOLs [(0, 1), (0, 2)]; sends B(0, 1) with CBV 100 (congested), B(1, 0) (congested)"),
    ("dnr-skip-congested-acols", "B(0, 0) (from -, CBV 0): target aCOLs [(1, 0)], target iCOLs [(0, 1), (0, 2)], "
                    "overloaded iCOLs [(0, 1), (0, 2)]; sends B(0, 1) with CBV 100 (congested)"),
])
def test_dnr_explains_case_iii_and_marks_congested_copies(reading, first):
    lines = []
    allc = frozenset({(AT, (0, 1)), (AT, (0, 2)), (AT, (1, 0))})
    S.dnr(K3, AT, HOSTS3, K3_TREES, allc, reading, say=lines.append)
    assert lines[0] == first
    assert lines[1] == ("B(0, 1) (from B(0, 0), CBV 100): target aCOLs [], target iCOLs [(0, 2)], "
                        "overloaded iCOLs []; sends B(0, 2)")


def test_dnr_next_hops_says_nothing_without_say_and_uses_the_choice():
    hops = S.dnr_next_hops(AT, None, 0, AT, HOSTS3, K3_TREES, {(AT, (0, 1))}, "dnr-icols-only", lambda c: c[-1])
    assert hops == [((0, 2), 0b10), ((1, 0), 0)]
    # a choice at every broker (the queue simulation's least-CE) reaches the decision
    start, step = S.router_step("dnr-skip-congested-acols", AT, HOSTS3, K3_TREES, {(AT, (0, 1)), (AT, (0, 2))},
                                lambda at: (lambda c: c[-1]))
    assert start == 0 and step(AT, None, 0) == (False, [((1, 0), 0b110)])
    start, step = S.router_step("dnr-skip-congested-acols", AT, HOSTS3, K3_TREES, {(AT, (0, 1)), (AT, (0, 2))})
    assert step(AT, None, 0) == (False, [((1, 0), 0b110)])
    start, step = S.router_step("bid", AT, HOSTS3, K3_TREES)
    assert start == frozenset(HOSTS3)
    start, step = S.router_step("snr", AT, HOSTS3, K3_TREES)
    assert start is None and step((0, 1), AT, None) == (True, [])


# --------------------------------------------------------------------------------------------
# The queue simulation, traced tick by tick
# --------------------------------------------------------------------------------------------

def queue_run(router, messages, deliveries, delays, hops, samples, links, max_queue, last, end, congested,
              missed=0, wrong=0):
    return R.QueueRun(router, messages, deliveries, wrong, missed, delays, hops, samples, links, max_queue, last,
                      end, congested)


SIM = R.build(nx.path_graph(2), 2)
L1, L2, L3, L4 = ((0, 0), (0, 1)), ((0, 1), (1, 1)), ((0, 0), (1, 0)), ((1, 0), (1, 1))
# Scenario A (window 1, capacity 1): three copies at tick 0 from (0,0) to (1,1), one at tick 2 to
# (1,1) and (1,0). SNR's tree of (1,1): (0,0) -> (0,1) -> (1,1), so L1 then L2 (2 hops).
#  tick 0: L1 gets 3 (max queue 3), sends 1; table: L1 CE 3/1 = 3, queue 2: congested (both rules);
#          sample L1 = 2
#  tick 1: copy 0 reaches (0,1) -> L2; L1 sends (queue 1), L2 sends; table: L1 CE 0/1 = 0, queue 1
#          (ce-above-1: free; not-free: congested), L2 1/1 = 1 free; sample 1 + 0 = 1
#  tick 2: copy 0 delivered (delay 2, hops 2); copy 1 -> L2; the last publication at (0,0):
#          SNR sends L1 (queue 2; under not-free a copy into a congested queue) and L3
#          DNR (not-free: L1 overloaded, Case II) sends only L3 carrying CBV 0b10; under ce-above-1 as SNR
#  then, SNR: copy 1 delivered at 3, copy 3 at (1,0) at 3 (1 hop), copy 2 at 4, copy 3 at (1,1) at 5
#        DNR not-free: (1,0) at 3 sends L4, (1,1) at 4 (2 hops), copy 2 at 4: 8 messages, not 9
SCENARIO_A = [P(0, (0, 0), frozenset({(1, 1)}), True)] * 3 + [P(2, (0, 0), frozenset({(1, 1), (1, 0)}), True)]
SNR_A = dict(messages=9, deliveries=5, delays=[(True, 2), (True, 3), (True, 1), (True, 4), (True, 3)],
             hops=[(True, 2), (True, 2), (True, 1), (True, 2), (True, 2)], samples=[2, 1, 1, 0, 0, 0],
             links={L1, L2, L3}, max_queue=3, last=5, end=2)


@pytest.mark.parametrize("router", R.ROUTERS)
def test_scenario_a_under_ce_above_1_every_router_routes_as_snr(router):
    run = R.simulate(SIM, SCENARIO_A, router, window=1)  # the default rule: ce-above-1
    assert run == queue_run(router, congested=0, **SNR_A)


@pytest.mark.parametrize("router", R.ROUTERS)
def test_scenario_a_under_not_free_dnr_takes_the_acol_and_saves_a_message(router):
    run = R.simulate(SIM, SCENARIO_A, router, window=1, congestion_rule="not-free")
    if router in ("snr", "bid"):
        assert run == queue_run(router, congested=1, **SNR_A)
    elif router == "dnr-two-copies":  # n and n_CBV both go on L3: (1,0) is delivered twice, no message saved
        assert run == queue_run(router, 9, 6, [(True, 2), (True, 3), (True, 1), (True, 2), (True, 4), (True, 3)],
                                [(True, 2), (True, 2), (True, 1), (True, 1), (True, 2), (True, 2)],
                                [2, 1, 1, 0, 0, 0], {L1, L2, L3, L4}, 3, 5, 2, 0, wrong=1)
    else:
        assert run == queue_run(router, 8, 5, [(True, 2), (True, 3), (True, 1), (True, 4), (True, 2)],
                                [(True, 2), (True, 2), (True, 1), (True, 2), (True, 2)], [2, 1, 0, 0, 0],
                                {L1, L2, L3, L4}, 3, 4, 2, 0)


# Scenario B (window 2): five copies at tick 0 over the one hop L1, one more at tick 2 (burst) and
# at tick 4 (not burst).
#  ticks 0-1: in 5, out 2: CE 5/2 = 2.5, queue 3: congested under both rules (sample 3)
#  ticks 2-3: the tick-2 copy enters a congested queue (1); in 1, out 2: CE 0.5, queue 2:
#             ce-above-1 free, not-free congested (sample 2)
#  ticks 4-5: the tick-4 copy: congested only under not-free; in 1, out 2, queue 1 (sample 1)
#  ticks 6-7: the last copy arrives at 7; in 0, out 1, queue 0 (sample 0)
SCENARIO_B = [P(0, (0, 0), frozenset({(0, 1)}), True)] * 5 + [P(2, (0, 0), frozenset({(0, 1)}), True),
                                                             P(4, (0, 0), frozenset({(0, 1)}))]


@pytest.mark.parametrize("rule, congested", [("ce-above-1", 1), ("not-free", 2)])
def test_scenario_b_the_congestion_element_is_n_in_over_n_out_per_window(rule, congested):
    run = R.simulate(SIM, SCENARIO_B, "snr", window=2, congestion_rule=rule)
    assert run == queue_run("snr", 7, 7, [(True, 1), (True, 2), (True, 3), (True, 4), (True, 5), (True, 4),
                                          (False, 3)], [(True, 1)] * 6 + [(False, 1)], [3, 2, 1, 0], {L1}, 5, 6, 2,
                            congested)


SIM3 = R.build(nx.path_graph(2), 3)
J1, J2, J21 = ((0, 0), (0, 1)), ((0, 0), (0, 2)), ((0, 2), (0, 1))
# Scenario D (window 2, m = 3): four copies at tick 0 toward (0,2) (J2), three at tick 1 toward
# (0,1) (J1), then at tick 2 a burst to both.
#  window 0-1: J2 in 4 out 2 -> CE 2, queue 2; J1 in 3 out 1 -> CE 3, queue 2: both congested
#  tick 2: SNR puts a copy into each (2 congested copies, 1 hop each, delivered at 5)
#          DNR, Case III: the least CE of the overloaded iCOLs is J2 (2 < 3; the first candidate
#          would be J1): one copy on J2 carrying cluster 1's bit, then (0,2) -> (0,1) (2 hops, at 6)
SCENARIO_D = ([P(0, (0, 0), frozenset({(0, 2)}))] * 4 + [P(1, (0, 0), frozenset({(0, 1)}))] * 3
              + [P(2, (0, 0), frozenset({(0, 1), (0, 2)}), True)])
EARLY_D = [(False, 1), (False, 2), (False, 1), (False, 3), (False, 2), (False, 4), (False, 3)]


@pytest.mark.parametrize("rule", R.CONGESTION_RULES)
@pytest.mark.parametrize("router", R.ROUTERS)
def test_scenario_d_dnr_picks_the_overloaded_icol_with_the_least_congestion_element(router, rule):
    run = R.simulate(SIM3, SCENARIO_D, router, window=2, congestion_rule=rule)
    if router in ("snr", "bid"):
        assert run == queue_run(router, 9, 9, EARLY_D + [(True, 3), (True, 3)], [(False, 1)] * 7 + [(True, 1)] * 2,
                                [0, 2, 0], {J1, J2}, 4, 5, 2, 2)
    else:
        assert run == queue_run(router, 9, 9, EARLY_D + [(True, 3), (True, 4)],
                                [(False, 1)] * 7 + [(True, 1), (True, 2)], [0, 1, 0], {J2, J21}, 4, 6, 2, 1)


SIM4 = R.build(nx.path_graph(2), 4)
# Scenario E (window 1, m = 4): at tick 0 one copy toward (0,3) (its queue: in 1, out 1, CE 1)
# and three toward (0,1) (CE 3, queue 2: congested). At tick 1 a burst to (0,1), (0,2), (0,3):
# DNR, Case I: the free iCOLs (0,2) (no CE yet: read as 1) and (0,3) (CE 1) tie, so the first,
# (0,2), carries cluster 1's bit; (0,1) is reached in 2 hops at tick 3, and no copy enters a
# congested queue. SNR puts one copy into the congested queue toward (0,1), delivered at tick 4.
SCENARIO_E = ([P(0, (0, 0), frozenset({(0, 3)}))] + [P(0, (0, 0), frozenset({(0, 1)}))] * 3
              + [P(1, (0, 0), frozenset({(0, 1), (0, 2), (0, 3)}), True)])
EARLY_E = [(False, 1), (False, 1), (False, 2), (True, 1), (True, 1), (False, 3)]


@pytest.mark.parametrize("rule", R.CONGESTION_RULES)
@pytest.mark.parametrize("router", R.ROUTERS)
def test_scenario_e_a_queue_without_a_congestion_element_reads_as_ce_1(router, rule):
    run = R.simulate(SIM4, SCENARIO_E, router, window=1, congestion_rule=rule)
    i1, i2, i3 = ((0, 0), (0, 1)), ((0, 0), (0, 2)), ((0, 0), (0, 3))
    if router in ("snr", "bid"):
        assert run == queue_run(router, 7, 7, EARLY_E + [(True, 3)], [(False, 1)] * 3 + [(True, 1)] * 2
                                + [(False, 1), (True, 1)], [0, 2, 1, 0, 0], {i1, i2, i3}, 3, 4, 1, 1)
    elif router == "dnr-two-copies":  # (0,2) gets n and n_CBV: delivered twice, one message more
        assert run == queue_run(router, 8, 8, EARLY_E + [(True, 2), (True, 3)], [(False, 1)] * 3 + [(True, 1)] * 2
                                + [(False, 1), (True, 1), (True, 2)], [0, 1, 0, 0, 0],
                                {i2, i3, ((0, 2), (0, 1))}, 3, 4, 1, 0, wrong=1)
    else:
        assert run == queue_run(router, 7, 7, EARLY_E + [(True, 2)], [(False, 1)] * 3 + [(True, 1)] * 2
                                + [(False, 1), (True, 2)], [0, 0, 0, 0], {i2, i3, ((0, 2), (0, 1))}, 3, 3, 1, 0)


def test_capacity_and_wrong_or_missed_deliveries_are_counted():
    fast = R.simulate(SIM, SCENARIO_A, "snr", window=3, capacity=3)
    # every queue empties the tick it fills: every copy takes one tick per hop; the last arrives at
    # tick 4, so the table is refreshed once (at tick 2, the end of the first 3-tick window)
    assert fast.delays == [(True, 2)] * 3 + [(True, 1), (True, 2)] and fast.max_queue == 3
    assert fast.queue_samples == [0] and fast.messages == 9 and fast.congested_copies == 0
    # the publisher's own broker subscribes: delivered at tick 0 with no hop and no message
    self_run = R.simulate(SIM, [P(3, (1, 1), frozenset({(1, 1)}))], "bid")
    assert (self_run.deliveries, self_run.messages, self_run.delays, self_run.hops) == (1, 0, [(False, 0)],
                                                                                      [(False, 0)])
    assert self_run.queue_samples == [] and self_run.burst_end == 0 and self_run.burst_links == set()
    # dnr-skip-congested-acols with the aCOL toward (1,0) congested drops it: one subscriber missed
    literal = R.simulate(SIM, [P(0, (0, 0), frozenset({(1, 0)}))] * 3 + [P(1, (0, 0), frozenset({(1, 0)}))],
                         "dnr-skip-congested-acols", window=1)
    assert (literal.missed, literal.wrong_deliveries, literal.deliveries, literal.messages) == (1, 0, 3, 3)
    assert R.simulate(SIM, [], "snr") == R.QueueRun("snr")


# --------------------------------------------------------------------------------------------
# Reference closed forms and helpers, exact on small inputs
# --------------------------------------------------------------------------------------------

def test_reference_trees_counts_and_broadcast_match_the_spec_exactly():
    s = S.build(nx.path_graph(3), 2)
    assert R.tree_parents_toward(s.tree, 1) == {1: None, 0: 1, 2: 1}
    assert R.subscription_tree(s, (1, 1)) == {(0, 1): (1, 1), (2, 1): (1, 1), (0, 0): (0, 1), (1, 0): (1, 1),
                                              (2, 0): (2, 1)}
    assert R.flooding_tree(s, (0, 0)) == {(0, 1): (0, 0), (1, 0): (0, 0), (1, 1): (0, 1), (2, 0): (1, 0),
                                          (2, 1): (1, 1)}
    assert R.flooding_tree(s, (0, 0), until=(1, 0)) == {(0, 1): (0, 0), (1, 0): (0, 0)}
    assert R.sbp_messages(s) == 5 and R.flooding_messages(s) == 2 * 7 - 6 + 1 == 9
    for host in s.brokers():
        for protocol in ("sbp", "flood"):
            assert R.broadcast(s, host, protocol) == S.broadcast_to_the_end(s, host, protocol)


def test_link_delays_and_the_quickest_flooding_tree():
    s = S.build(nx.path_graph(2), 2)
    delays = R.random_link_delays(s, np.random.default_rng(0), 0.0)
    assert list(delays) == [((0, 0), (0, 1)), ((0, 0), (1, 0)), ((0, 1), (1, 1)), ((1, 0), (1, 1))]
    assert set(delays.values()) == {1.0}
    slow = dict(delays)
    slow[((0, 0), (0, 1))] = 5.0
    parents, arrival = R.flooding_tree_with_delays(s, (0, 0), slow)
    # (0,1) is reached quicker around the square: (0,0) -> (1,0) -> (1,1) -> (0,1) in 3 < 5
    assert parents == {(1, 0): (0, 0), (1, 1): (1, 0), (0, 1): (1, 1)}
    assert arrival == {(0, 0): 0.0, (1, 0): 1.0, (0, 1): 3.0, (1, 1): 2.0}
    # a tie goes to the sender sorted first: (1,1) at 2 via (0,1) or (1,0) -> (0,1)
    parents, arrival = R.flooding_tree_with_delays(s, (0, 0), delays)
    assert parents == {(0, 1): (0, 0), (1, 0): (0, 0), (1, 1): (0, 1)} and arrival[(1, 1)] == 2.0
    spread = R.random_link_delays(s, np.random.default_rng(1), 2)
    assert all(1.0 <= d <= 3.0 for d in spread.values()) and len(set(spread.values())) == 4


def test_random_trees_have_n_vertices():
    rng = np.random.default_rng(7)
    assert list(R.random_tree(rng, 1).nodes) == [0] and R.random_tree(rng, 1).number_of_edges() == 0
    assert sorted(R.random_tree(rng, 2).edges) == [(0, 1)]
    t = R.random_tree(np.random.default_rng(7), np.int64(5))
    assert nx.is_tree(t) and sorted(t.nodes) == [0, 1, 2, 3, 4]


# --------------------------------------------------------------------------------------------
# Refused input: the exact message a user reads
# --------------------------------------------------------------------------------------------

SC = S.build(nx.path_graph(3), 2)
TR = spec_trees(SC)

REFUSED = [
    ("build-type", lambda: S.build([(0, 1)], 2), TypeError,
     "the acyclic factor must be an undirected networkx.Graph, not list"),
    ("build-directed", lambda: S.build(nx.DiGraph([(0, 1)]), 2), ValueError,
     "the acyclic factor must be an undirected networkx.Graph"),
    ("build-multi", lambda: S.build(nx.MultiGraph([(0, 1)]), 2), ValueError,
     "the acyclic factor must be an undirected networkx.Graph"),
    ("build-empty", lambda: S.build(nx.Graph(), 2), ValueError, "the acyclic factor has no vertices"),
    ("build-m", lambda: S.build(nx.path_graph(2), True), ValueError,
     "the connectivity factor K_m needs an integer m >= 1, not True"),
    ("build-selfloop", lambda: S.build(nx.Graph([(0, 0), (0, 1)]), 2), ValueError,
     "the acyclic factor has a self-loop"),
    ("build-disconnected", lambda: S.build(nx.empty_graph(3), 2), ValueError,
     "the acyclic factor is disconnected (3 components): the SCOT would be disconnected"),
    ("build-cycle", lambda: S.build(nx.cycle_graph(3), 2), ValueError, "the acyclic factor has a cycle: [0, 1, 2]"),
    ("build-tuples", lambda: S.build(nx.Graph([((0, 1), (1, 1))]), 2), ValueError,
     "tree vertex labels must not be tuples (brokers are labelled (vertex, cluster))"),
    ("cluster-bit", lambda: S.cluster_bit(-1), ValueError, "cluster index i must be an integer >= 0, not -1"),
    ("cluster-bit-type", lambda: S.cluster_bit(1.0), TypeError, "cluster index i must be an integer >= 0, not 1.0"),
    ("check-broker-type", lambda: S.check_broker("scot", (0, 0)), TypeError,
     "scot must be a spec.scot.Scot (see build), not 'scot'"),
    ("check-broker", lambda: S.check_broker(SC, (0, 2), "publisher"), ValueError,
     "no publisher (0, 2) in this SCOT (brokers are (tree vertex, cluster in 0..1))"),
    ("check-broker-default", lambda: S.subscribe(SC, (7, 0)), ValueError,
     "no broker (7, 0) in this SCOT (brokers are (tree vertex, cluster in 0..1))"),
    ("protocol", lambda: S.check_protocol("gossip"), ValueError, "unknown protocol 'gossip'; known: sbp, flood"),
    ("hosts", lambda: S.check_hosts(SC, (0, 0)), TypeError,
     "subscriber_hosts must be a collection of brokers, not (0, 0)"),
    ("hosts-member", lambda: S.check_hosts(SC, [(0, 0), (0, 5)]), ValueError,
     "no subscriber host (0, 5) in this SCOT (brokers are (tree vertex, cluster in 0..1))"),
    ("trees-type", lambda: S.check_trees([], []), TypeError,
     "trees must be a dict from subscriber host to its subscription tree, not []"),
    ("trees-missing", lambda: S.check_trees({}, [(1, 0)]), ValueError,
     "trees has no subscription tree for subscriber host (1, 0)"),
    ("links-type", lambda: S.check_links(SC, 3), TypeError, "congested must be a set of (broker, broker) links, not 3"),
    ("links-pair", lambda: S.check_links(SC, {((0, 0), (9, 9))}), ValueError,
     "congested link ((0, 0), (9, 9)) is not a pair of brokers of this SCOT"),
    ("links-neighbours", lambda: S.check_links(SC, {((0, 0), (2, 0))}, "slow"), ValueError,
     "slow link ((0, 0), (2, 0)) joins no neighbours: no such aCOL or iCOL"),
    ("links-same", lambda: S.check_links(SC, {((0, 0), (0, 0))}), ValueError,
     "congested link ((0, 0), (0, 0)) joins no neighbours: no such aCOL or iCOL"),
    ("deliver", lambda: S.deliver(SC, S.subscribe(SC, (0, 0)), ((0, 0), (2, 0), S.PRIMARY)), ValueError,
     "message ((0, 0), (2, 0), 'PRIMARY') is not in flight"),
    ("order", lambda: S.broadcast_to_the_end(SC, (0, 0), order="01"), TypeError,
     "order must be a sequence of integers, not '01'"),
    ("dnr-reading", lambda: S.dnr(SC, (0, 0), [(1, 0)], TR, frozenset(), "snr"), ValueError,
     "unknown DNR reading 'snr'; known: dnr-icols-only, dnr-skip-congested-acols, dnr-two-copies, dnr-tree-icols"),
    ("dnr-congested", lambda: S.dnr(SC, (0, 0), [(1, 0)], TR, {((0, 0), (2, 1))}), ValueError,
     "congested link ((0, 0), (2, 1)) joins no neighbours: no such aCOL or iCOL"),
    ("dnr-step-reading", lambda: S.dnr_step((0, 0), [], [], 0, frozenset(), "bid"), ValueError,
     "unknown DNR reading 'bid'; known: dnr-icols-only, dnr-skip-congested-acols, dnr-two-copies, dnr-tree-icols"),
    ("dnr-step-cbv", lambda: S.dnr_step((0, 0), [], [], -1, frozenset(), "dnr-skip-congested-acols"), ValueError,
     "cbv must be an integer >= 0 (a bit per cluster), not -1"),
    ("dnr-step-cbv-type", lambda: S.dnr_step((0, 0), [], [], 1.5, frozenset(), "dnr-skip-congested-acols"), TypeError,
     "cbv must be an integer >= 0 (a bit per cluster), not 1.5"),
    ("dnr-step-acols", lambda: S.dnr_step((0, 0), [(1,)], [], 0, frozenset(), "dnr-skip-congested-acols"), TypeError,
     "acols must be a list of brokers (vertex, cluster), not [(1,)]"),
    ("dnr-step-icols", lambda: S.dnr_step((0, 0), [], "ab", 0, frozenset(), "dnr-skip-congested-acols"), TypeError,
     "icols must be a list of brokers (vertex, cluster), not 'ab'"),
    ("router-step", lambda: S.router_step("ospf", (0, 0), [], {}), ValueError,
     "unknown router 'ospf'; known: snr, bid, dnr-icols-only, dnr-skip-congested-acols, dnr-two-copies, "
     "dnr-tree-icols"),
    ("readings-of", lambda: S.readings_of("router", "routers"), ValueError,
     "unknown reading kind 'routers'; known: protocol, topology, router, dnr"),
    ("properties-of", lambda: S.properties_of("flood"), ValueError,
     "unknown SCOT reading 'flood'; known: octopis-sbp, bid-flooding, octopis-sbp-every-tree, snr, bid, "
     "dnr-icols-only, dnr-skip-congested-acols, dnr-two-copies, dnr-tree-icols"),
    ("properties-of-type", lambda: S.properties_of(3), TypeError, "reading must be a SCOT reading's name, not 3"),
    ("ref-parents-type", lambda: R.tree_parents_toward({}, 0), TypeError, "tree must be a networkx.Graph, not {}"),
    ("ref-parents-root", lambda: R.tree_parents_toward(nx.path_graph(2), 5), ValueError,
     "root 5 is not a vertex of the tree"),
    ("ref-delays-type", lambda: R.flooding_tree_with_delays(SC, (0, 0), []), TypeError,
     "delay must be a dict from link (u, v) to its delay, not []"),
    ("ref-delays-neg", lambda: R.flooding_tree_with_delays(SC, (0, 0), {1: 1.0, 2: -2.0}), ValueError,
     "link delays must be >= 0, not -2.0"),
    ("ref-delays-missing", lambda: R.flooding_tree_with_delays(SC, (0, 0), {}), ValueError,
     "delay has no delay for the link ((0, 0), (0, 1))"),
    ("ref-rld-rng", lambda: R.random_link_delays(SC, 3, 1.0), TypeError,
     "rng must be a numpy.random.Generator, not 3"),
    ("ref-rld-spread", lambda: R.random_link_delays(SC, np.random.default_rng(0), -1.0), ValueError,
     "spread must be a number >= 0, not -1.0"),
    ("ref-rld-spread-type", lambda: R.random_link_delays(SC, np.random.default_rng(0), True), TypeError,
     "spread must be a number >= 0, not True"),
    ("ref-rld-spread-str", lambda: R.random_link_delays(SC, np.random.default_rng(0), "1"), TypeError,
     "spread must be a number >= 0, not '1'"),
    ("ref-scot", lambda: R.sbp_messages("x"), TypeError, "scot must be a spec.scot.Scot (see build), not 'x'"),
    ("ref-flood-scot", lambda: R.flooding_messages(None), TypeError,
     "scot must be a spec.scot.Scot (see build), not None"),
    ("ref-until", lambda: R.flooding_tree(SC, (0, 0), until=(8, 8)), ValueError,
     "no broker until (8, 8) in this SCOT (brokers are (tree vertex, cluster in 0..1))"),
    ("ref-dnr-str", lambda: R.dnr(SC, (0, 0), [(1, 0)], "ab"), TypeError,
     "congested must be a set of (broker, broker) links, not 'ab'"),
    ("ref-dnr-publisher", lambda: R.dnr(SC, (4, 0), [(1, 0)]), ValueError,
     "no publisher (4, 0) in this SCOT (brokers are (tree vertex, cluster in 0..1))"),
    ("ref-rt-rng", lambda: R.random_tree(1, 3), TypeError, "rng must be a numpy.random.Generator, not 1"),
    ("ref-rt-n", lambda: R.random_tree(np.random.default_rng(0), "3"), TypeError, "n must be an integer >= 1, not '3'"),
    ("ref-rt-bool", lambda: R.random_tree(np.random.default_rng(0), True), TypeError,
     "n must be an integer >= 1, not True"),
    ("ref-rt-zero", lambda: R.random_tree(np.random.default_rng(0), 0), ValueError,
     "a tree needs at least one vertex, not 0"),
    ("ref-rs-type", lambda: R.random_scenario(1, max_subscribers=True), TypeError,
     "max_subscribers must be an integer >= 1, not True"),
    ("ref-rs-zero", lambda: R.random_scenario(1, max_tree=0), ValueError,
     "max_tree, max_m and max_subscribers must all be at least 1"),
    ("sim-router", lambda: R.simulate(SC, [], "ospf"), ValueError,
     "unknown router 'ospf'; known: snr, bid, dnr-icols-only, dnr-skip-congested-acols, dnr-two-copies"),
    ("sim-rule", lambda: R.simulate(SC, [], "snr", congestion_rule="x"), ValueError,
     "unknown congestion rule 'x'; known: ce-above-1, not-free"),
    ("sim-scot", lambda: R.simulate(None, [], "snr"), TypeError, "scot must be a spec.scot.Scot (see build), not None"),
    ("sim-capacity-type", lambda: R.simulate(SC, [], "snr", capacity=1.0), TypeError,
     "capacity must be an integer, not 1.0"),
    ("sim-window-bool", lambda: R.simulate(SC, [], "snr", window=True), TypeError, "window must be an integer, not True"),
    ("sim-maxticks-type", lambda: R.simulate(SC, [], "snr", max_ticks=1.5), TypeError,
     "max_ticks must be an integer, not 1.5"),
    ("sim-pubs-set", lambda: R.simulate(SC, set(), "snr"), TypeError,
     "publications must be a list of Publication, not set()"),
    ("sim-maxticks", lambda: R.simulate(SC, [], "snr", max_ticks=-1), ValueError, "max_ticks must be >= 0, not -1"),
    ("sim-pubs-type", lambda: R.simulate(SC, "p", "snr"), TypeError, "publications must be a list of Publication, not 'p'"),
    ("sim-pub-type", lambda: R.simulate(SC, [1], "snr"), TypeError, "publications must hold Publication values, not 1"),
    ("sim-tick", lambda: R.simulate(SC, [P(-1, (0, 0), frozenset())], "snr"), ValueError,
     "a publication's tick must be an integer >= 0, not -1"),
    ("sim-tick-bool", lambda: R.simulate(SC, [P(True, (0, 0), frozenset())], "snr"), ValueError,
     "a publication's tick must be an integer >= 0, not True"),
    ("sim-publisher", lambda: R.simulate(SC, [P(0, (0, 9), frozenset())], "snr"), ValueError,
     "no publisher (0, 9) in this SCOT (brokers are (tree vertex, cluster in 0..1))"),
    ("sim-capacity", lambda: R.simulate(SC, [], "snr", capacity=0), ValueError,
     "window and capacity must be at least 1 tick / 1 copy, not 10, 0"),
    ("sim-window", lambda: R.simulate(SC, [], "snr", window=0), ValueError,
     "window and capacity must be at least 1 tick / 1 copy, not 0, 1"),
    ("sim-drain", lambda: R.simulate(SC, [P(0, (0, 0), frozenset({(2, 1)}))], "snr", max_ticks=1), RuntimeError,
     "the simulation did not drain within 1 ticks"),
]


@pytest.mark.parametrize("call, error, message", [r[1:] for r in REFUSED], ids=[r[0] for r in REFUSED])
def test_refused_input_is_named_exactly(call, error, message):
    with pytest.raises(error, match="^" + re.escape(message) + "$"):
        call()


def test_limits_that_are_still_accepted():
    # max_ticks bounds the tick counter: a run that drains by tick 3 passes with max_ticks 3
    run = R.simulate(SC, [P(0, (0, 0), frozenset({(2, 1)}))], "snr", max_ticks=3)
    assert run.deliveries == 1 and run.delays == [(False, 3)]
    assert R.simulate(SC, (), "snr", max_ticks=0) == R.QueueRun("snr")
    assert R.random_scenario(5, 1, 1, 1).scot.broker_count() == 1
    assert S.dnr_step(AT, [], [], 0, frozenset(), "dnr-skip-congested-acols").sends == ()
    assert S.check_links(SC, []) == frozenset()
    assert S.check_hosts(SC, []) == [] and S.snr(SC, (0, 0), [], TR).messages == 0


def test_the_simulation_routes_bid_along_flooding_trees_and_the_others_along_algorithm_1s():
    """From (1,1) to (0,0) on P3 x K2: Algorithm 1's tree of (0,0) crosses the iCOL first,
    (1,1) -> (1,0) -> (0,0); flooding's first-in-first-out tree reaches (1,1) from (0,1) (sorted
    first), so BID goes (1,1) -> (0,1) -> (0,0). Both take 2 ticks and 2 messages."""
    s = R.build(nx.path_graph(3), 2)
    pub = [P(0, (1, 1), frozenset({(0, 0)}), True)]
    sbp_links = {((1, 1), (1, 0)), ((1, 0), (0, 0))}
    for router in R.ROUTERS:
        run = R.simulate(s, pub, router)
        links = {((1, 1), (0, 1)), ((0, 1), (0, 0))} if router == "bid" else sbp_links
        assert run == queue_run(router, 2, 1, [(True, 2)], [(True, 2)], [], links, 1, 2, 0, 0)
