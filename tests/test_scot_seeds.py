"""What seeds generate on SCOT beyond the first twenty (tests/data/seed_pins), and the reference held
to the spec on SCOTs of ten vertices and more, where sorting brokers by their text (as both do:
"(10, 0)" before "(2, 0)") and by their numbers differ. Written from an independent mutation sample
(seed 7) whose survivors showed these orders unchecked."""

import networkx as nx

from reference import scot as R
from spec import scot as S


def test_a_scenario_of_sixteen_vertices_is_pinned_with_its_hosts_in_text_order():
    sc = R.random_scenario(1)
    assert (sc.scot.tree.number_of_nodes(), sc.scot.m, sc.publisher, len(sc.congested)) == (16, 5, (6, 2), 215)
    assert sc.subscriber_hosts == ((15, 0), (3, 1), (3, 2), (4, 3), (5, 2))   # text order: (15, 0) first
    assert list(sc.subscriber_hosts) == sorted(sc.subscriber_hosts, key=repr) != sorted(sc.subscriber_hosts)


def test_the_reference_broadcast_is_the_specs_on_a_scot_of_twelve_vertices():
    scot = S.build(nx.path_graph(12), 2)
    for host in ((0, 0), (11, 1), (5, 0)):
        for protocol in ("sbp", "flood"):
            fast = R.broadcast(scot, host, protocol)
            assert fast == S.broadcast_to_the_end(scot, host, protocol)
            assert [b for b, _ in fast.received] == sorted((b for b, _ in fast.received), key=repr)


def test_snr_on_twelve_vertices_is_pinned():
    scot = S.build(nx.path_graph(12), 2)
    trees = {h: S.subscription_tree(scot, h) for h in scot.brokers()}
    routing = S.snr(scot, (0, 0), ((11, 0), (2, 1), (10, 1), (3, 0)), trees)
    assert routing.deliveries == (((10, 1), 1), ((11, 0), 1), ((2, 1), 1), ((3, 0), 1))
    assert routing.hops == (((10, 1), 11), ((11, 0), 11), ((2, 1), 3), ((3, 0), 3))
    assert routing.messages == 22 and len(routing.received) == 22
