"""OctopiS/SCOT: topology, SBP, SNR, BID and DNR (runs and single decisions), with a negative
control per property."""

import itertools
import json

import attrs
import networkx as nx
import pytest
import z3

from checks import counterexample, engine, plugin
from checks.algorithms import scot as C
from checks.algorithms.scot import documents as D
from checks.algorithms.scot import proofs as P
from checks.algorithms.scot.search import every_decision, small_scots
from spec import scot as S
from spec.registry import properties


def replays(path, say=lambda line: None) -> bool:
    """Replay a counterexample file through the SCOT declaration (as `pubsub-proofs replay` does)."""
    return C.ALGORITHM.replay(counterexample.load(path), say).reproduced


def paper_tree():
    """Sec. 7.1's factor: 15 vertices, 5 inner (degree >= 2) and 10 edge; one tree with those counts."""
    t = nx.Graph()
    t.add_edges_from([(0, 1), (1, 2), (2, 3), (3, 4)])            # 5 inner vertices on a path...
    leaves = iter(range(5, 15))
    for inner, k in ((0, 3), (1, 1), (2, 1), (3, 1), (4, 4)):      # ...and 10 leaves among them
        for _ in range(k):
            t.add_edge(inner, next(leaves))
    return t


def test_the_product_has_the_clusters_regions_and_links_of_sec_4():
    scot = S.build(nx.path_graph(4), 3)
    g = scot.graph
    assert g.number_of_nodes() == 12
    kinds = [g.edges[e]["kind"] for e in g.edges]
    assert kinds.count("aCOL") == 3 * 3 and kinds.count("iCOL") == 4 * 3
    assert g.nodes[(0, 2)] == {"cluster": 2, "region": 0, "type": "edge"}
    assert g.nodes[(1, 0)]["type"] == "inner"
    assert scot.primary_neighbours((1, 0)) == [(0, 0), (2, 0)] and scot.secondary_neighbours((1, 0)) == [(1, 1), (1, 2)]
    assert S.cluster_bit(2) == 0b100


@pytest.mark.parametrize("tree, m, message", [
    (nx.cycle_graph(4), 2, "has a cycle"),
    (nx.empty_graph(3), 2, "disconnected"),
    (nx.Graph(), 2, "no vertices"),
    (nx.path_graph(3), 0, "m >= 1"),
    (nx.path_graph(3), "3", "m >= 1"),
    (nx.DiGraph([(0, 1)]), 2, "undirected"),
    (nx.Graph([((0, 1), (1, 1))]), 2, "must not be tuples"),
])
def test_a_factor_that_breaks_sec_3_2_is_refused_by_name(tree, m, message):
    with pytest.raises(ValueError, match=message):
        S.build(tree, m)


def test_algorithm_1_builds_the_host_cluster_tree_then_one_icol_per_region():
    scot = S.build(nx.path_graph(3), 3)
    tree = S.subscription_tree(scot, (0, 1))
    assert tree[(1, 1)] == (0, 1) and tree[(2, 1)] == (1, 1)
    assert tree[(2, 0)] == (2, 1) and tree[(2, 2)] == (2, 1)
    assert len(tree) == 8


def test_the_distance_lemma_matches_networkx_on_every_small_scot():
    for scot in small_scots(5, 3):
        lengths = dict(nx.all_pairs_shortest_path_length(scot.graph))
        assert all(S.distance(scot, a, b) == lengths[a][b] for a in scot.graph for b in scot.graph)


def test_message_counts_on_the_75_broker_scot():
    scot = S.build(paper_tree(), 5)
    assert scot.graph.number_of_nodes() == 75
    sbp = S.broadcast_to_the_end(scot, (0, 0), "sbp")
    flood = S.broadcast_to_the_end(scot, (0, 0), "flood")
    assert sbp.messages == 74
    assert flood.messages == 2 * scot.graph.number_of_edges() - 75 + 1 == 366
    # 79.8% fewer messages (the paper reports 89%); 79.8% of flooding's messages are duplicates
    assert round(1 - sbp.messages / flood.messages, 3) == 0.798


def finished(scot, host, protocol="sbp", order=None):
    return S.BroadcastRun(scot, S.broadcast_to_the_end(scot, host, protocol, order))


SCOT = S.build(nx.path_graph(3), 3)
GOOD = finished(SCOT, (0, 0))


def with_last_hop(run, changes):
    last = dict(run.broadcast.last_hop)
    last.update(changes)
    return attrs.evolve(run, broadcast=attrs.evolve(run.broadcast, last_hop=tuple(sorted(last.items(), key=repr))))


PLANTED = {
    "every_broker_receives_the_subscription_once": attrs.evolve(GOOD, broadcast=attrs.evolve(
        GOOD.broadcast, received=tuple((b, 2 if b == (2, 2) else c) for b, c in GOOD.broadcast.received))),
    "subscription_tree_has_no_loop": with_last_hop(GOOD, {(1, 0): (2, 0), (2, 0): (1, 0)}),
    "subscription_tree_is_shortest": with_last_hop(GOOD, {(1, 1): (1, 2), (1, 2): (1, 0)}),
    "subscription_tree_links_are_host_acols_and_icols": with_last_hop(GOOD, {(1, 1): (0, 1)}),
    "subscription_tree_has_all_icols": GOOD,
    "no_duplicate_subscription_messages": finished(SCOT, (0, 0), "flood"),
}


@pytest.mark.parametrize("prop", S.SBP_PROPERTIES, ids=lambda p: p.name)
def test_every_broadcast_property_holds_on_algorithm_1_or_rejects_its_planted_bug(prop):
    assert not prop.predicate(PLANTED[prop.name])
    if prop.name != "subscription_tree_has_all_icols":
        assert prop.predicate(GOOD)
    assert prop.witness(GOOD)


def test_routing_properties_and_their_negative_controls():
    trees = {h: S.subscription_tree(SCOT, h) for h in SCOT.graph}
    hosts = ((2, 1), (0, 2), (1, 0))
    for name, route in (("snr", S.snr), ("bid", S.bid_routing)):
        run = S.RoutingRun(SCOT, (0, 0), hosts, route(SCOT, (0, 0), hosts, trees))
        assert all(p.predicate(run) and p.witness(run) for p in S.properties_of(name))
    twice = attrs.evolve(run, routing=attrs.evolve(run.routing, deliveries=(((0, 2), 2), ((1, 0), 1), ((2, 1), 1))))
    longer = attrs.evolve(run, routing=attrs.evolve(run.routing, hops=(((0, 2), 3),)))
    assert not S.notification_delivered_exactly_once(twice)
    assert not S.notification_takes_shortest_paths(longer)


def test_every_registered_scot_property_has_a_negative_control_here():
    names = {p.name for p in properties("scot")}
    # the step properties' negative controls: test_dnr_step_negative_controls
    assert names == set(PLANTED) | {p.name for p in S.ROUTING_PROPERTIES} | {p.name for p in S.DNR_STEP_PROPERTIES}


def tiny_scope(**changes):
    """A scope small enough for a test: every kind of check, in seconds."""
    tiny = C.Scope(sbp_orders=C.Trees(vertices=3, m=2), flooding_orders=C.Trees(vertices=2, m=2),
                   sbp_trees=C.Trees(vertices=3, m=3),
                   routing=C.Notifications(C.Trees(vertices=3, m=2), subscribers=2),
                   dnr=C.Notifications(C.Trees(vertices=2, m=2), subscribers=2, congested=1))
    return attrs.evolve(tiny, **changes)


def run_checks(scope, tmp_path, methods=("z3", "exhaustive")):
    """The engine on the SCOT declaration at `scope`, counterexamples written under tmp_path."""
    written = []

    def store(doc):
        written.append(counterexample.store(doc, tmp_path))
        return written[-1]

    declaration = attrs.evolve(C.ALGORITHM, scopes={**C.ALGORITHM.scopes, "test": scope})
    results = engine.run_algorithm(declaration, "test", store, methods)
    return {(r.reading, r.property, r.method): r for r in results}, written


def test_the_declaration_covers_the_manifest_at_both_scopes():
    import json

    manifest = json.loads(C.ALGORITHM.manifest.read_text())
    columns = C.ALGORITHM.spark.job().check_columns()
    for scope in ("default", "large"):
        declared = {k for check in C.ALGORITHM.checks(C.ALGORITHM.scope(scope)) for k in check.keys()}
        declared |= {(c.split(":")[1], c.split(":")[0], "spark") for c in columns}
        assert declared == {tuple(key.split("/")[1:]) for key in manifest[scope]}
    assert set(C.ALGORITHM.readings) == set(S.READINGS)


def test_exhaustive_interleavings_hold_for_algorithm_1_and_refute_flooding_with_a_replayable_trace(tmp_path):
    results, _ = run_checks(tiny_scope(), tmp_path, ("exhaustive",))
    assert results[("octopis-sbp", "subscription_tree_is_shortest", "exhaustive")].verdict.value == "holds"
    refuted = results[("bid-flooding", "subscription_tree_is_shortest", "exhaustive")]
    assert refuted.verdict.value == "violated" and refuted.states > 0
    path = refuted.counterexample
    lines = []
    assert replays(path, say=lines.append)
    assert any("duplicate, discarded" in line or "->" in line for line in lines)
    doc = counterexample.load(path)
    doc["deliveries"][0][0] = [9, 9]
    (tmp_path / "bad.json").write_text(json.dumps(doc))
    with pytest.raises(ValueError, match="not in flight"):
        replays(tmp_path / "bad.json")


def test_z3_proves_algorithm_1_trees_shortest_for_all_sizes_and_refutes_flooding():
    assert P.prove_shortest("octopis-sbp").verdict.value == "proved"
    refuted = P.shortest_lemmas("bid-flooding")
    assert refuted["verdict"].value == "violated" and refuted["model"]["lemma"].startswith("(B)")
    assert P.prove_shortest("bid-flooding").verdict.value == "violated"


def test_a_wrong_parent_encoding_is_caught_by_the_cross_check(monkeypatch):
    monkeypatch.setattr(P, "z3_phi", lambda dt, same: dt)  # forgets the cluster term
    assert P.cross_check_shortest_encoding(max_nodes=3, max_m=2) > 0
    assert P.prove_shortest("octopis-sbp").verdict.value == "unknown"


K2 = S.build(nx.path_graph(2), 2)
K2_TREES = {h: S.subscription_tree(K2, h) for h in K2.graph}


def dnr_run(reading, hosts, congested, scot=K2, trees=K2_TREES, publisher=(0, 0)):
    routing = S.dnr(scot, publisher, hosts, trees, frozenset(congested), reading)
    snr = S.snr(scot, publisher, hosts, trees)
    return S.RoutingRun(scot, publisher, tuple(hosts), routing, frozenset(congested), snr.messages)


def test_dnr_case_i_carries_the_cbv_on_a_free_icol_and_delivers_once():
    scot = S.build(nx.path_graph(2), 3)
    trees = {h: S.subscription_tree(scot, h) for h in scot.graph}
    run = dnr_run("dnr-icols-only", [(0, 1), (0, 2)], {((0, 0), (0, 1))}, scot, trees)
    assert dict(run.routing.deliveries) == {(0, 1): 1, (0, 2): 1} and dict(run.routing.congested_copies) == {}
    assert S.no_broker_receives_a_notification_twice(run)


def test_the_dnr_readings_trade_a_missed_subscriber_for_copies_in_congested_queues():
    both_congested = {((0, 0), (0, 1)), ((0, 0), (1, 0))}
    icols_only = dnr_run("dnr-icols-only", [(0, 1), (1, 0)], both_congested)
    assert S.notification_delivered_exactly_once(icols_only)
    assert not S.at_most_one_copy_into_congested_queues(icols_only)
    literal = dnr_run("dnr-skip-congested-acols", [(1, 0)], {((0, 0), (1, 0))})
    assert not S.notification_delivered_exactly_once(literal)
    assert S.at_most_one_copy_into_congested_queues(literal)
    detour = dnr_run("dnr-icols-only", [(0, 1), (1, 0)], {((0, 0), (0, 1))})
    assert not S.dnr_costs_no_more_messages_than_snr(detour) and detour.routing.messages == 3
    assert S.congestion_was_met(detour)


def test_every_tie_break_is_explored():
    scot = S.build(nx.path_graph(2), 4)
    trees = {h: S.subscription_tree(scot, h) for h in scot.graph}
    congested = frozenset({((0, 0), (0, 1))})
    runs = list(every_decision(lambda d: S.dnr(scot, (0, 0), [(0, 1), (0, 2), (0, 3)], trees, congested,
                                                 "dnr-icols-only", d.choose)))
    assert sorted(tuple(d.ties) for d, _ in runs) == [(0,), (1,)]  # the CBV rides to cluster 2 or 3


def test_every_congested_set_is_covered_by_the_lazily_decided_runs():
    """Each set of <= 2 congested queues behaves exactly like one explored run."""
    scot = S.build(nx.path_graph(3), 2)
    trees = {h: S.subscription_tree(scot, h) for h in scot.brokers()}
    hosts = [(0, 1), (2, 0)]
    lazily = {(d.congested(), tuple(d.ties)): r for d, r in every_decision(
        lambda d: S.dnr(scot, (1, 0), hosts, trees, d, "dnr-icols-only", d.choose), budget=2)}
    links = [(u, v) for u, v in scot.graph.edges] + [(v, u) for u, v in scot.graph.edges]
    for k in range(3):
        for chosen in itertools.combinations(links, k):
            for ties, routing in every_run_with(scot, hosts, trees, frozenset(chosen)):
                asked = [c for (c, t) in lazily if t == ties and c <= frozenset(chosen)]
                assert any(lazily[(c, ties)] == routing for c in asked)
    assert len(lazily) < sum(1 for k in range(3) for _ in itertools.combinations(links, k))


def every_run_with(scot, hosts, trees, congested):
    for d, routing in every_decision(lambda d: S.dnr(scot, (1, 0), hosts, trees, congested, "dnr-icols-only",
                                                     d.choose)):
        yield tuple(d.ties), routing


def test_dnr_counterexamples_replay_step_by_step(tmp_path):
    doc = D.routing_document("notification_delivered_exactly_once", "dnr", "dnr-skip-congested-acols", S.build(nx.path_graph(2), 1),
                             (0, 0), [(1, 0)], {((0, 0), (1, 0))})
    lines = []
    assert replays(counterexample.store(doc, tmp_path), say=lines.append)
    assert any("sends nothing" in line for line in lines)


def test_the_scot_checks_run_end_to_end_at_a_tiny_scope_and_write_replayable_files(tmp_path):
    results, written = run_checks(tiny_scope(), tmp_path, ("exhaustive",))
    verdicts = {(reading, prop): r.verdict.value for (reading, prop, _), r in results.items()}
    assert verdicts[("octopis-sbp-every-tree", "subscription_tree_is_shortest")] == "holds"
    assert verdicts[("snr", "notification_delivered_exactly_once")] == "holds"
    assert verdicts[("dnr-skip-congested-acols", "notification_delivered_exactly_once")] == "violated"
    assert results[("snr", "notification_delivered_exactly_once", "exhaustive")].detail.endswith(
        "inter-broker messages in all")
    assert written and all(replays(path) for path in written)


@pytest.mark.long(30)
def test_dnr_step_claims_have_their_z3_verdicts_per_reading():
    verdicts = {(r, p): P.prove_dnr_step(r, p).verdict.value for r in S.DNR_READINGS for p in P.STEP_LEMMAS}
    assert verdicts == {
        ("dnr-icols-only", "step_one_copy_into_congested_icol_queues"): "proved",
        ("dnr-icols-only", "step_one_copy_into_congested_queues"): "violated",
        ("dnr-icols-only", "step_keeps_every_target"): "proved",
        ("dnr-skip-congested-acols", "step_one_copy_into_congested_icol_queues"): "proved",
        ("dnr-skip-congested-acols", "step_one_copy_into_congested_queues"): "proved",
        ("dnr-skip-congested-acols", "step_keeps_every_target"): "violated",
        ("dnr-two-copies", "step_one_copy_into_congested_icol_queues"): "proved",
        ("dnr-two-copies", "step_one_copy_into_congested_queues"): "proved",
        ("dnr-two-copies", "step_keeps_every_target"): "violated",
        # the decision of dnr-icols-only: only the target links it is given differ
        ("dnr-tree-icols", "step_one_copy_into_congested_icol_queues"): "proved",
        ("dnr-tree-icols", "step_one_copy_into_congested_queues"): "violated",
        ("dnr-tree-icols", "step_keeps_every_target"): "proved"}


def fig_7b():
    """Fig. 7(b) in miniature: the publisher's broker B(0, 2) has subscribers in its own cluster's
    region (B(0, 1), cluster 1) and in cluster 0 behind B(1, 0); its iCOL to cluster 0 is overloaded."""
    scot = S.build(nx.path_graph(2), 3)
    trees = {h: S.subscription_tree(scot, h) for h in scot.graph}
    return scot, trees, [(0, 1), (1, 0)], {((0, 2), (0, 0))}


def test_fig_7b_counts_the_same_messages_as_snr_only_when_n_cbv_is_the_plain_copy():
    """The paper counts 6 IMs for SNR and DNR in Fig. 7(b): B(b, 2) sends n_CBV to B(b, 1), which
    forwards toward C. Read line by line (n and n_CBV both added to DL), DNR sends one message more
    and the subscriber at B(0, 1) receives the notification twice."""
    scot, trees, hosts, congested = fig_7b()
    merged = dnr_run("dnr-skip-congested-acols", hosts, congested, scot, trees, publisher=(0, 2))
    two = dnr_run("dnr-two-copies", hosts, congested, scot, trees, publisher=(0, 2))
    assert merged.routing.messages == merged.snr_messages == 3
    assert S.notification_delivered_exactly_once(merged) and S.no_broker_receives_a_notification_twice(merged)
    assert two.routing.messages == 4 and dict(two.routing.deliveries)[(0, 1)] == 2
    assert not S.notification_delivered_exactly_once(two) and not S.no_broker_receives_a_notification_twice(two)
    assert not S.dnr_costs_no_more_messages_than_snr(two) and S.congestion_was_met(two)


def test_dnr_step_negative_controls():
    """SNR's decision (a copy on every target link) puts two copies into congested iCOL queues;
    the literal reading drops a congested aCOL; a wrong encoding is caught by the cross-check."""
    at, icols = (0, 0), ((0, 1), (0, 2))
    snr_like = S.DnrStep(at, (), icols, 0, frozenset((at, n) for n in icols), "snr", tuple((n, 0) for n in icols))
    assert S.step_meets_congestion(snr_like) and not S.step_one_copy_into_congested_icol_queues(snr_like)
    literal = S.dnr_step(at, [(1, 0)], [], 0, {(at, (1, 0))}, "dnr-skip-congested-acols")
    assert not S.step_keeps_every_target(literal) and literal.sends == ()
    real = P.z3_dnr_step
    try:
        P.z3_dnr_step = lambda reading, af, ac, i_free, ic, rest: {**real(reading, af, ac, i_free, ic, rest),
                                                                   "into_congested_icols": z3.IntVal(0)}
        assert P.cross_check_dnr_step("dnr-icols-only", samples=300) > 0
        assert P.prove_dnr_step("dnr-icols-only", "step_one_copy_into_congested_icol_queues").verdict.value \
            == "unknown"
    finally:
        P.z3_dnr_step = real


def test_scots_proofs_are_of_lemmas_and_name_their_unproved_steps():
    algorithm = plugin.algorithm("scot")
    proofs = {(c.property, c.reading): c for c in algorithm.checks(algorithm.scope("default"))
              if isinstance(c, plugin.Proof)}
    assert proofs[("subscription_tree_is_shortest", "octopis-sbp")].unproved_step == P.SHORTEST_STEP
    steps = [c for (p, _), c in proofs.items() if p.startswith("step_")]
    assert len(steps) == 3 * len(S.DNR_READINGS)
    assert all(c.unproved_step == P.STEP_REDUCTION for c in steps)
    assert f"{P.step_decisions():,} decisions" in P.STEP_REDUCTION
