"""The SCOT reference against the spec's message-by-message broadcasts, and its public surface."""

import networkx as nx
import pytest

from checks.algorithms.scot.search import small_scots
from reference import scot as R
from spec import scot as S


def test_closed_form_trees_equal_the_spec_broadcasts_on_every_small_scot():
    for scot in small_scots(6, 3):
        for host in scot.brokers():
            assert R.subscription_tree(scot, host) == S.subscription_tree(scot, host, "sbp")
            assert R.flooding_tree(scot, host) == S.subscription_tree(scot, host, "flood")
            assert R.sbp_messages(scot) == S.broadcast_to_the_end(scot, host, "sbp").messages
            assert R.flooding_messages(scot) == S.broadcast_to_the_end(scot, host, "flood").messages


def test_public_surface_names_brokers_as_the_paper_does():
    scot = R.build(nx.balanced_tree(2, 3), 4)
    assert scot.graph.nodes[(0, 3)]["cluster"] == 3 and scot.graph.nodes[(0, 3)]["region"] == 0
    assert {scot.graph.edges[e]["kind"] for e in scot.graph.edges} == {"aCOL", "iCOL"}
    tree = R.subscription_tree(scot, (5, 1))
    assert len(tree) == scot.graph.number_of_nodes() - 1 and (5, 1) not in tree
    routing = R.snr(scot, (0, 0), [(5, 1), (14, 3)])
    assert dict(routing.deliveries) == {(5, 1): 1, (14, 3): 1}
    with pytest.raises(ValueError, match="no broker"):
        R.subscription_tree(scot, (99, 0))


def test_the_sec_7_reproduction_is_deterministic_and_counts_every_candidate_tree():
    from checks.algorithms.scot.reproduce import scot_section_7

    small = dict(notifications=5, hrp_notifications=60, burst_seeds=(0,), trees_sampled=2, out=None)
    first = scot_section_7(**small)
    assert first == scot_section_7(**small)
    assert first["sbp"]["trees"] == 482 and first["sbp"]["clustered_messages"] == [74]
    assert first["sbp"]["flooding_messages"] == [366]
    no_spread = first["tree_lengths"]["by_spread"][0]
    assert no_spread["spread"] == 0 and no_spread["shorter_mean"] == 0  # equal delays: flooding is shortest too
    assert all(r["shorter_min"] >= 0 for r in first["tree_lengths"]["by_spread"])  # Algorithm 1 is never longer
    burst = first["burst"]["by_rate"]["100000"]["ce-above-1"]
    assert burst["snr"]["missed"] == burst["dnr-icols-only"]["missed"] == burst["bid"]["missed"] == 0
    assert burst["dnr-skip-congested-acols"]["missed"] > 0


def small_workload(scot, seed, notifications=40, rate=2.0, hosts_per=3):
    """A few publishers sending faster than a link can carry, to random subscriber brokers."""
    import numpy as np

    rng = np.random.default_rng(seed)
    brokers = scot.brokers()
    pubs = []
    for k in range(notifications):
        hosts = frozenset(brokers[int(i)] for i in rng.choice(len(brokers), size=min(hosts_per, len(brokers)),
                                                              replace=False))
        pubs.append(R.Publication(int(k / rate), brokers[int(rng.integers(len(brokers)))], hosts, k % 2 == 0))
    return pubs


def test_without_queueing_the_simulation_sends_what_the_spec_routes():
    """Conformance: with every link fast enough, each notification costs what spec.scot's routing
    says, and every subscriber gets exactly one copy."""
    scot = R.build(nx.path_graph(4), 3)
    pubs = small_workload(scot, 1)
    for router, route in (("snr", S.snr), ("bid", S.bid_routing)):
        trees = {h: (R.flooding_tree(scot, h) if router == "bid" else R.subscription_tree(scot, h))
                 for h in scot.brokers()}
        run = R.simulate(scot, pubs, router, capacity=10_000)
        assert run.messages == sum(route(scot, p.publisher, p.hosts, trees).messages for p in pubs)
        assert (run.missed, run.wrong_deliveries) == (0, 0) and run.deliveries == sum(len(p.hosts) for p in pubs)
        assert run.max_queue <= len(pubs)
    uncongested = R.simulate(scot, pubs, "dnr-icols-only", capacity=10_000)
    assert uncongested.messages == R.simulate(scot, pubs, "snr", capacity=10_000).messages  # DNR is SNR then


@pytest.mark.parametrize("rule", R.CONGESTION_RULES)
def test_under_congestion_dnr_still_delivers_exactly_once_and_the_literal_reading_does_not(rule):
    missed_literal = 0
    for seed in range(6):
        scot = R.build(nx.star_graph(3), 3)
        pubs = small_workload(scot, seed, rate=3.0)
        for router in ("snr", "bid", "dnr-icols-only"):
            run = R.simulate(scot, pubs, router, window=2, congestion_rule=rule)
            assert (run.missed, run.wrong_deliveries) == (0, 0), (router, seed)
        dnr = R.simulate(scot, pubs, "dnr-icols-only", window=2, congestion_rule=rule)
        assert dnr.congested_copies > 0  # congestion was met: the check is not vacuous
        missed_literal += R.simulate(scot, pubs, "dnr-skip-congested-acols", window=2, congestion_rule=rule).missed
    assert missed_literal > 0  # the negative control: dropping copies on congested aCOLs loses subscribers


def test_the_simulation_refuses_bad_parameters():
    scot = R.build(nx.path_graph(2), 2)
    with pytest.raises(ValueError, match="unknown router"):
        R.simulate(scot, [], "ospf")
    with pytest.raises(ValueError, match="congestion rule"):
        R.simulate(scot, [], "snr", congestion_rule="magic")
    with pytest.raises(ValueError, match="at least 1"):
        R.simulate(scot, [], "snr", window=0)


def test_flooding_with_uneven_delays_keeps_the_quickest_copy():
    import numpy as np

    scot = R.build(nx.balanced_tree(2, 2), 3)
    delays = R.random_link_delays(scot, np.random.default_rng(3), 4.0)
    weighted = nx.Graph()
    order = {b: k for k, b in enumerate(scot.brokers())}
    for (u, v), d in delays.items():
        weighted.add_edge(u, v, weight=d)
    assert weighted.number_of_edges() == scot.link_count()
    quickest = nx.single_source_dijkstra_path_length(weighted, (0, 0))
    parents, arrival = R.flooding_tree_with_delays(scot, (0, 0), delays)
    assert all(abs(arrival[b] - quickest[b]) < 1e-9 for b in scot.brokers())
    for b, p in parents.items():
        assert abs(arrival[b] - arrival[p] - delays[(b, p) if order[b] < order[p] else (p, b)]) < 1e-9
    flat = R.flooding_tree_with_delays(scot, (0, 0), R.random_link_delays(scot, np.random.default_rng(3), 0.0))[0]
    assert all(depth_in(flat, b) == S.distance(scot, b, (0, 0)) for b in flat)


def depth_in(parents, b, host=(0, 0)):
    hops = 0
    while b != host:
        b, hops = parents[b], hops + 1
    return hops
