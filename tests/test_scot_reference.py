"""The SCOT reference against the spec's message-by-message broadcasts, and its public surface."""

import networkx as nx
import pytest

from checks.scot import small_scots
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
    from checks.reproduce import scot_section_7

    first = scot_section_7(notifications=10, out=None)
    assert first == scot_section_7(notifications=10, out=None)
    assert first["sbp"]["trees"] == 482 and first["sbp"]["clustered_messages"] == [74]
    assert first["sbp"]["flooding_messages"] == [366]
