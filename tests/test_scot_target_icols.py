"""Which iCOLs are Algorithm 4's target iCOLs (spec.scot.Reading.target_icols), pinned exactly.

"cbv" (every DNR reading but one): at the publisher's host the iCOLs toward every target
sub-cluster, at any other broker only those toward a cluster named in the CBV. "trees"
(`dnr-tree-icols`): the subscription trees' iCOLs toward the matching subscribers at every broker,
as SNR finds next destinations. The second reading delivers duplicates with no queue congested and
can send a notification round a loop for ever, which spec.scot.route cuts (route_repeats).
"""

import json
from pathlib import Path

import networkx as nx
import pytest

from reference import scot as R
from spec import scot as S

ROOT = Path(__file__).resolve().parents[1]
CX = ROOT / "reports" / "counterexamples" / "scot"


def trees_of(scot):
    return {h: S.subscription_tree(scot, h) for h in scot.brokers()}


def test_the_reading_and_its_field():
    r = S.READINGS["dnr-tree-icols"]
    assert (r.kind, r.protocol, r.router, r.congested_acols, r.cbv_copy, r.target_icols, r.origin) == (
        "dnr", "sbp", "dnr", "copy", "merged", "trees", "open")
    # dnr-icols-only but for the target iCOLs
    import attrs
    assert attrs.evolve(S.READINGS["dnr-icols-only"], name=r.name, summary=r.summary, target_icols="trees") == r
    assert {n: S.READINGS[n].target_icols for n in S.DNR_READINGS} == {
        "dnr-icols-only": "cbv", "dnr-skip-congested-acols": "cbv", "dnr-two-copies": "cbv", "dnr-tree-icols": "trees"}
    assert all(r.target_icols is None for r in S.READINGS.values() if r.kind != "dnr")
    assert [S.route_repeats(n) for n in S.ROUTERS] == [None, None, None, None, None, 2]
    assert "dnr-tree-icols" not in R.ROUTERS and R.ROUTERS == S.ROUTERS[:-1]


def test_target_icols_at_a_broker_that_is_not_the_publishers_host():
    # SCOT(path 0-1-2, K_3), publisher B(0,0); subscribers at B(2,0), B(1,1), B(2,2). A copy from
    # B(0,0) reaches B(1,0). Subscription trees: toward B(2,0) B(1,0) takes the aCOL to B(2,0); toward
    # B(1,1) the iCOL to B(1,1); toward B(2,2) the iCOL to B(1,2) (a secondary broker hangs from its
    # region's broker of the host cluster).
    scot = S.build(nx.path_graph(3), 3)
    t = trees_of(scot)
    hosts = [(1, 1), (2, 0), (2, 2)]
    at, came_from, publisher = (1, 0), (0, 0), (0, 0)
    # "cbv": no cluster named, no target iCOL; cluster 1 named, the iCOL toward it only
    assert S.dnr_targets(at, came_from, 0b000, publisher, hosts, t) == ([(2, 0)], [])
    assert S.dnr_targets(at, came_from, 0b010, publisher, hosts, t, "cbv") == ([(2, 0)], [(1, 1)])
    assert S.dnr_targets(at, came_from, 0b100, publisher, hosts, t, "cbv") == ([(2, 0)], [(1, 2)])
    # "trees": both tree iCOLs, whatever the CBV says
    for cbv in (0b000, 0b010, 0b100, 0b110):
        assert S.dnr_targets(at, came_from, cbv, publisher, hosts, t, "trees") == ([(2, 0)], [(1, 1), (1, 2)])
    # at the publisher's host the two rules agree
    for rule in ("cbv", "trees"):
        assert S.dnr_targets(publisher, None, 0, publisher, hosts, t, rule) == ([(1, 0)], [(0, 1), (0, 2)])
    # at B(1,1), a subscriber's broker, from B(1,0): toward B(2,0) the tree's iCOL is the link the copy
    # came by, so only the iCOL toward B(2,2)'s cluster remains, and "cbv" drops it with no bit set
    assert S.dnr_targets((1, 1), (1, 0), 0, publisher, hosts, t, "trees") == ([], [(1, 2)])
    assert S.dnr_targets((1, 1), (1, 0), 0, publisher, hosts, t, "cbv") == ([], [])
    with pytest.raises(ValueError, match="unknown target_icols 'all'; known: cbv, trees"):
        S.dnr_targets(at, came_from, 0, publisher, hosts, t, "all")


def test_the_reading_threads_the_rule_to_the_targets():
    scot = S.build(nx.path_graph(3), 3)
    t = trees_of(scot)
    hosts = [(1, 1), (2, 0), (2, 2)]
    said = {}
    for reading in ("dnr-icols-only", "dnr-tree-icols"):
        lines = []
        S.dnr(scot, (0, 0), hosts, t, frozenset(), reading, say=lines.append)
        said[reading] = [line for line in lines if line.startswith("B(1, 0) (from B(0, 0)")]
    assert said == {
        "dnr-icols-only": ["B(1, 0) (from B(0, 0), CBV 0): target aCOLs [(2, 0)], target iCOLs [], overloaded "
                           "iCOLs []; sends B(2, 0)"],
        # twice: B(0,1) and B(0,2) pass the copy between them and each sends one back to B(0,0) (the
        # iCOL of B(2,0)'s tree), which forwards both to B(1,0) again: three arrivals, the third only
        # counted (route_repeats)
        "dnr-tree-icols": ["B(1, 0) (from B(0, 0), CBV 0): target aCOLs [(2, 0)], target iCOLs [(1, 1), (1, 2)], "
                           "overloaded iCOLs []; sends B(1, 1), B(1, 2), B(2, 0)"] * 2}


def test_the_smallest_duplicate_needs_no_congestion():
    # one region, K_3: B(0,0) publishes, subscribers at B(0,1) and B(0,2). Under "trees" each of them
    # forwards the copy it got to the other (the iCOL of the other's tree): 4 messages, each
    # subscriber's broker receives and delivers the notification twice. Under "cbv" no cluster is named
    # in the CBV, so DNR is SNR: 2 messages.
    scot = S.build(nx.empty_graph(1), 3)
    t = trees_of(scot)
    hosts = [(0, 1), (0, 2)]
    trees_run = S.dnr(scot, (0, 0), hosts, t, frozenset(), "dnr-tree-icols")
    assert trees_run == S.DnrRouting(deliveries=(((0, 1), 2), ((0, 2), 2)), messages=4,
                                     hops=(((0, 1), 1), ((0, 2), 1)), received=(((0, 1), 2), ((0, 2), 2)),
                                     congested_copies=())
    snr = S.snr(scot, (0, 0), hosts, t)
    assert S.dnr(scot, (0, 0), hosts, t, frozenset(), "dnr-icols-only") == S.DnrRouting(
        snr.deliveries, snr.messages, snr.hops, snr.received, ()) and snr.messages == 2
    run = S.RoutingRun(scot, (0, 0), tuple(hosts), trees_run, frozenset(), snr.messages)
    assert not S.notification_delivered_exactly_once(run)
    assert not S.no_broker_receives_a_notification_twice(run)
    assert not S.dnr_costs_no_more_messages_than_snr(run)
    assert S.at_most_one_copy_into_congested_queues(run)  # nothing congested


def test_a_notification_circulates_for_ever_and_route_cuts_it():
    # SCOT(path 0-1, K_2), publisher B(0,0), subscribers at B(0,0) and B(1,1), nothing congested:
    # B(0,0) -> B(0,1) (toward B(1,1)) -> B(1,1) -> B(1,0) (the tree iCOL toward B(0,0)) -> B(0,0) ->
    # B(0,1) -> ... for ever. route handles each (broker, sender, CBV) twice and then only counts it.
    scot = S.build(nx.path_graph(2), 2)
    t = trees_of(scot)
    hosts = [(0, 0), (1, 1)]
    lines = []
    run = S.dnr(scot, (0, 0), hosts, t, frozenset(), "dnr-tree-icols", say=lines.append)
    assert [line.split(" (")[0] for line in lines] == ["B(0, 0)", "B(0, 1)", "B(1, 1)", "B(1, 0)"] * 2 + ["B(0, 0)"]
    assert run == S.DnrRouting(deliveries=(((0, 0), 3), ((1, 1), 2)), messages=9,
                               hops=(((0, 0), 0), ((1, 1), 2)),
                               received=(((0, 0), 2), ((0, 1), 3), ((1, 0), 2), ((1, 1), 2)), congested_copies=())
    # under "cbv" the same notification goes as SNR's: 2 messages
    assert S.dnr(scot, (0, 0), hosts, t, frozenset(), "dnr-icols-only").messages == 2


def test_route_repeats_bounds_only_what_it_is_given():
    # a two-broker ping-pong: every arrival sends the copy back
    def step(at, came_from, payload):
        return at == "b", [("b" if at == "a" else "a", payload)]

    for repeats, messages, received in [(1, 3, (("a", 1), ("b", 2))), (2, 5, (("a", 2), ("b", 3))),
                                        (3, 7, (("a", 3), ("b", 4)))]:
        r = S.route("a", 0, step, repeats=repeats)
        # a -> b -> a (from b) -> b ... : the arrival (b, from a) is handled `repeats` times, then counted once more
        assert (r.messages, r.received, dict(r.deliveries)["b"]) == (messages, received, received[1][1])


def test_the_simulation_refuses_the_reading_that_loops():
    scot = S.build(nx.path_graph(2), 2)
    with pytest.raises(ValueError, match="router 'dnr-tree-icols' is not simulated: its copies can circulate for "
                                         "ever"):
        R.simulate(scot, [], "dnr-tree-icols")


def recorded(reading, prop):
    report = json.loads((ROOT / "reports" / "check.json").read_text())
    return {r["method"]: r for r in report["results"]
            if r["algorithm"] == "scot" and r["reading"] == reading and r["property"] == prop}


DUPLICATE = {"tree_nodes": [0], "tree_edges": [], "m": 3, "publisher": [0, 0], "subscribers": [[0, 1], [0, 2]],
             "congested": [], "tie_breaks": []}


@pytest.mark.parametrize("prop", ["notification_delivered_exactly_once", "no_broker_receives_a_notification_twice"])
def test_the_checks_found_the_smallest_duplicate(prop):
    """The report's verdicts for dnr-tree-icols, and the exhaustive counterexample they cite: the
    duplicate of test_the_smallest_duplicate_needs_no_congestion, replayed from its file."""
    from checks.algorithms.scot import documents as D

    records = recorded("dnr-tree-icols", prop)
    assert {m: (r["verdict"], r["cases"]) for m, r in records.items()} == {
        "exhaustive": ("violated", 1_026_386), "spark": ("violated", 20_000)}
    assert records["spark"]["detail"] == "11115 of 20000 scenarios violate; first: seed 86 with 3 brokers"
    doc = json.loads((ROOT / records["exhaustive"]["counterexample"]).read_text())
    assert {k: doc[k] for k in DUPLICATE} == DUPLICATE and doc["reading"] == "dnr-tree-icols"
    lines = []
    assert D.replay(doc, say=lines.append).reproduced
    assert lines[-2:] == ["deliveries {(0, 1): 2, (0, 2): 2}; 4 messages (SNR 2); copies into congested queues {}",
                          f"{prop}: VIOLATED"]
    # the same file under dnr-icols-only, which takes target iCOLs by the CBV: SNR's 2 messages, no duplicate
    lines = []
    assert not D.replay({**doc, "reading": "dnr-icols-only"}, say=lines.append).reproduced
    assert lines[-2:] == ["deliveries {(0, 1): 1, (0, 2): 1}; 2 messages (SNR 2); copies into congested queues {}",
                          f"{prop}: holds"]


def test_every_dnr_claim_is_violated_under_the_reading_and_none_changed_for_the_others():
    report = json.loads((ROOT / "reports" / "check.json").read_text())
    verdicts = {(r["property"], r["reading"], r["method"]): r["verdict"] for r in report["results"]
                if r["algorithm"] == "scot" and r["reading"] in S.DNR_READINGS}
    tree = {k[0]: v for k, v in verdicts.items() if k[1] == "dnr-tree-icols" and k[2] != "z3"}
    assert tree == {p: "violated" for p in S.ROUTER_PROPERTIES["dnr"]}
    # the per-broker decision is dnr-icols-only's (only the targets differ), so Z3 says the same
    for prop in ("step_one_copy_into_congested_icol_queues", "step_one_copy_into_congested_queues",
                 "step_keeps_every_target"):
        assert verdicts[(prop, "dnr-tree-icols", "z3")] == verdicts[(prop, "dnr-icols-only", "z3")]


def test_the_picture_of_a_loop_says_where_the_routing_was_cut(monkeypatch):
    from checks import counterexample
    from checks.algorithms.scot import documents as D
    from checks.algorithms.scot import drawing

    seen = []
    monkeypatch.setattr(drawing, "_render", lambda picture, png: seen.append(picture))
    path = ROOT / recorded("dnr-tree-icols", "at_most_one_copy_into_congested_queues")["exhaustive"]["counterexample"]
    D.replay(counterexample.load(path), say=lambda line: None).draw("unused.png", "title")
    picture = seen[0]
    # B(0,0) -> B(0,1) -> B(1,1) -> B(1,0) -> B(0,0) twice round, then B(0,0) -> B(0,1) is only counted
    loop = [((0, 0), (0, 1)), ((0, 1), (1, 1)), ((1, 1), (1, 0)), ((1, 0), (0, 0))]
    assert [(a.sender, a.receiver) for a in picture.arrows] == loop * 2 + loop[:1]
    assert picture.marks.brokers == {(1, 0): "2 queued"}
    assert picture.caption[-1].startswith("the notification circulates for ever: a copy arriving from the same "
                                          "broker with the same CBV as one already handled twice is only counted")
