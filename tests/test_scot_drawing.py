"""Pictures of SCOT counterexamples (checks/algorithms/scot/drawing.py): every committed
counterexample, broadcast or routing, exhaustive or Spark, replays and draws a PNG; the same
counterexample gives the same bytes; what is marked red is what the spec says went wrong; and the
layout keeps message numbers off the brokers and off each other."""

import itertools
import math
import struct
from pathlib import Path

import networkx as nx
import pytest

from checks import counterexample
from checks.algorithms.scot import documents as D
from checks.algorithms.scot import drawing
from spec import scot as S

ROOT = Path(__file__).resolve().parents[1]
COMMITTED = sorted(ROOT.glob("reports/counterexamples/scot/*.json")) + sorted(ROOT.glob("reports/validate/scot/*.json"))
CX = ROOT / "reports/counterexamples/scot"
TWO_COPIES = CX / "exhaustive-dnr-two-copies-no_broker_receives_a_notification_twice-e3e93476.json"
NOT_SHORTEST = CX / "exhaustive-bid-flooding-subscription_tree_is_shortest-89e75cc8.json"


def png_size(path: Path) -> tuple[int, int]:
    """(width, height) from a PNG's IHDR chunk, after checking the signature."""
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", f"{path} is no PNG"
    assert data[12:16] == b"IHDR"
    return struct.unpack(">II", data[16:24])


def captured(path: Path, monkeypatch) -> drawing.Picture:
    """Replay a committed file and draw it, keeping the Picture handed to the renderer (nothing
    is rendered): what the PNG would show."""
    seen = []
    monkeypatch.setattr(drawing, "_render", lambda picture, png: seen.append(picture))
    replayed = D.replay(counterexample.load(path), say=lambda line: None)
    assert replayed.reproduced and replayed.draw is not None
    replayed.draw("unused.png", "title")
    return seen[0]


def test_both_kinds_and_both_methods_are_committed():
    docs = [counterexample.load(p) for p in COMMITTED]
    assert {d.get("kind", "broadcast") for d in docs} == {"broadcast", "routing"}
    assert {d["method"] for d in docs} == {"exhaustive", "spark"}


@pytest.mark.parametrize("path", COMMITTED, ids=[str(p.relative_to(ROOT)) for p in COMMITTED])
def test_every_committed_counterexample_replays_and_draws(path, tmp_path):
    png = tmp_path / "cx.png"
    lines = []
    assert counterexample.replay(path, say=lines.append, png=str(png))
    assert lines[-1] == f"drawn to {png}"
    width, height = png_size(png)
    assert 600 <= width <= 2500 and 300 <= height <= 2000, (width, height)
    assert png.stat().st_size > 20_000          # a picture, not an empty canvas


@pytest.mark.parametrize("path", [TWO_COPIES, NOT_SHORTEST], ids=["routing", "broadcast"])
def test_drawing_twice_gives_the_same_bytes(path, tmp_path):
    replayed = D.replay(counterexample.load(path), say=lambda line: None)
    replayed.draw(str(tmp_path / "a.png"), "title")
    replayed.draw(str(tmp_path / "b.png"), "title")
    assert (tmp_path / "a.png").read_bytes() == (tmp_path / "b.png").read_bytes()


def test_the_broker_marked_red_is_the_one_the_spec_says_got_two_copies(monkeypatch):
    picture = captured(TWO_COPIES, monkeypatch)
    # the spec's routing (replayed by DNR, dnr-two-copies): B(0,1) gets the notification twice,
    # once plain and once carrying n_CBV over the same iCOL
    doc = counterexample.load(TWO_COPIES)
    scot = D.scot_of(doc)
    hosts = [tuple(h) for h in doc["subscribers"]]
    trees = {h: S.subscription_tree(scot, h) for h in hosts}
    routing = S.dnr(scot, tuple(doc["publisher"]), hosts, trees, {((0, 0), (0, 2))}, doc["reading"])
    twice = [b for b, n in routing.received if n > 1]
    assert twice == [(0, 1)]
    assert picture.marks.brokers == {(0, 1): "got 2"}
    assert picture.marks.messages == {1}                 # the second copy into B(0,1), sent second
    assert [(a.sender, a.receiver, a.colour) for a in picture.arrows] == [
        ((0, 0), (0, 1), drawing.MESSAGE), ((0, 0), (0, 1), drawing.RED), ((0, 1), (0, 2), drawing.MESSAGE)]
    assert picture.congested == {((0, 0), (0, 2))}
    assert picture.roles == {(0, 0): "publisher", (0, 1): "subscriber", (0, 2): "subscriber"}


@pytest.mark.parametrize("name, brokers, links", [
    ("exhaustive-bid-flooding-subscription_tree_is_shortest-89e75cc8.json",
     {(0, 2): "2 hops"}, {((0, 1), (0, 2)): "not on a shortest path"}),
    ("exhaustive-bid-flooding-subscription_tree_has_all_icols-85823925.json",
     {}, {((0, 1), (0, 2)): "missing"}),
    ("exhaustive-bid-flooding-every_broker_receives_the_subscription_once-9105e4c8.json",
     {(0, 1): "got 2", (0, 2): "got 2"}, {}),
    ("spark-bid-flooding-subscription_tree_links_are_host_acols_and_icols-7423c2cc.json",
     {(1, 1): "wrong hop"}, {((0, 1), (1, 1)): "not in Algorithm 1's tree"}),
    ("exhaustive-dnr-skip-congested-acols-notification_delivered_exactly_once-cb0024bd.json",
     {(1, 0): "got none"}, {}),
    ("spark-dnr-icols-only-at_most_one_copy_into_congested_queues-8fab5923.json",
     {(1, 0): "2 queued"}, {}),
])
def test_what_is_marked_red_is_what_the_property_objects_to(name, brokers, links, monkeypatch):
    picture = captured(CX / name, monkeypatch)
    assert picture.marks.brokers == brokers
    assert picture.marks.links == links
    assert picture.marks.findings                           # and the caption says it in words


def test_the_extra_copies_against_snr_are_the_ones_snr_does_not_send(monkeypatch):
    picture = captured(CX / "exhaustive-dnr-icols-only-dnr_costs_no_more_messages_than_snr-a889b1da.json",
                       monkeypatch)
    # SNR: B(0,0) -> B(1,0) and -> B(0,1); DNR avoids the congested iCOL and goes round by cluster 1
    assert [(a.sender, a.receiver) for a in picture.arrows] == [((0, 0), (1, 0)), ((1, 0), (1, 1)), ((1, 1), (0, 1))]
    assert picture.marks.messages == {1, 2}


def test_a_run_where_the_property_holds_marks_nothing():
    scot = S.build(nx.path_graph(3), 2)
    hosts = [(0, 1), (2, 0)]
    trees = {h: S.subscription_tree(scot, h) for h in hosts}
    routing = S.snr(scot, (1, 0), hosts, trees)
    run = S.RoutingRun(scot, (1, 0), tuple(hosts), routing)
    for prop in S.properties_of("snr"):
        assert prop.predicate(run)
        marks = drawing.routing_marks(run, [], prop.name)
        assert not (marks.brokers or marks.links or marks.messages or marks.findings), prop.name
    broadcast = S.BroadcastRun(scot, S.broadcast_to_the_end(scot, (1, 0)))   # Algorithm 1, two clusters
    for prop in S.SBP_PROPERTIES:
        assert prop.predicate(broadcast)
        marks = drawing.broadcast_marks(broadcast, [], prop.name)
        assert not (marks.brokers or marks.links or marks.messages or marks.findings), prop.name


def test_what_is_drawn_is_the_run_the_replay_judged(monkeypatch):
    """The copies drawn are the routing judged, copy for copy (as many, into the same brokers);
    the deliveries drawn are the document's steps with the spec's duplicate flags."""
    handed = []
    monkeypatch.setattr(drawing, "draw_routing", lambda run, copies, *rest, **kw: handed.append((run, copies)))
    monkeypatch.setattr(drawing, "draw_broadcast", lambda run, deliveries, *rest: handed.append((run, deliveries)))
    for path in COMMITTED:
        doc = counterexample.load(path)
        D.replay(doc, say=lambda line: None).draw("unused.png", "title")
        run, drawn = handed.pop()
        if doc.get("kind") == "routing":
            into: dict = {}
            for c in drawn:
                into[c.receiver] = into.get(c.receiver, 0) + 1
            assert len(drawn) == run.routing.messages and sorted(into.items()) == sorted(run.routing.received)
        else:
            assert [[list(d.sender), list(d.receiver), d.state] for d in drawn] == doc["deliveries"]
            assert sum(d.first for d in drawn) == len(run.broadcast.last_hop)


def test_a_path_is_one_row_per_cluster_and_a_region_one_column():
    scot = S.build(nx.path_graph(4), 3)
    pos = drawing.layout(scot)
    for x, i in pos:
        assert pos[(x, i)] == (x * drawing.COLUMN_GAP, -i * drawing.ROW_GAP)


def test_a_tree_drawn_in_one_row_has_no_crossing_arcs():
    tree = nx.Graph([(0, 1), (1, 2), (1, 3), (3, 4), (0, 5), (5, 6)])
    column = {x: k for k, x in enumerate(drawing.region_order(tree))}
    spans = [sorted((column[u], column[v])) for u, v in tree.edges]
    assert not any(a < c < b < d for (a, b), (c, d) in itertools.permutations(spans, 2))


@pytest.mark.parametrize("path", [p for p in COMMITTED if "counterexamples" in str(p)],
                         ids=lambda p: p.name)
def test_message_numbers_keep_off_the_brokers_and_each_other(path, monkeypatch):
    picture = captured(path, monkeypatch)
    pos = drawing.layout(picture.scot)
    labels = [drawing.curve_point(pos[a.sender], pos[a.receiver], a.rad, 0.5) for a in picture.arrows]
    for x, y in labels:
        assert all(math.dist((x, y), p) > drawing.NODE_RADIUS + 0.15 for p in pos.values())
    assert all(math.dist(p, q) > 0.3 for p, q in itertools.combinations(labels, 2))
