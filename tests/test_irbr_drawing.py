"""IRBR counterexample pictures (checks/algorithms/irbr/drawing.py): every committed counterexample,
of model I (operations) and model II (messages in flight), found by exhaustive search, hypothesis or
Spark, replays to a PNG; drawing is byte-for-byte repeatable; and what a picture marks in red is
what the spec's replay found wrong."""

import json
import math
import struct
from pathlib import Path

import attrs
import pytest

from checks import counterexample
from checks.algorithms import irbr as C
from checks.algorithms.irbr import drawing as D, flight as F, operations as O
from spec import irbr as I

ROOT = Path(__file__).resolve().parents[1]
COMMITTED = sorted(str(p.relative_to(ROOT)) for pattern in ("reports/counterexamples/irbr/*.json",
                                                            "reports/validate/irbr/*.json")
                   for p in ROOT.glob(pattern))
FLIGHT = "reports/counterexamples/irbr/exhaustive-covering-ordered+repaired+smallest+resubscribe-uncovered-" \
    "steady_subscribers_notified_exactly_once-717f6c84.json"
SPARK = "reports/validate/irbr/spark-covering+repaired+smallest+resubscribe-uncovered-" \
    "every_interested_subscriber_notified_exactly_once-eaa1b775.json"


def load(path: str) -> dict:
    return json.loads((ROOT / path).read_text())


def replayed(path: str):
    """The model's own replay record of a committed file (what its picture is drawn from)."""
    doc = load(path)
    model = F if doc.get("kind") == "flight" else O
    return model.replay(doc, C.READINGS[doc["reading"]], lambda line: None)


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    return struct.unpack(">II", data[16:24])


def test_the_committed_counterexamples_cover_both_models_and_every_method():
    docs = [load(p) for p in COMMITTED]
    assert {d.get("kind", "operations") for d in docs} == {"operations", "flight"}
    assert {d["method"] for d in docs} == {"exhaustive", "hypothesis", "spark"}


@pytest.mark.parametrize("path", COMMITTED, ids=lambda p: p.split("/")[-1][-13:-5])
def test_every_committed_counterexample_replays_to_a_png(path, tmp_path):
    png = tmp_path / "cx.png"
    lines = []
    assert counterexample.replay(ROOT / path, say=lines.append, png=str(png))
    assert lines[-1] == f"drawn to {png}" and "VIOLATED" in lines[-2]
    data = png.read_bytes()
    width, height = png_size(data)
    assert 1000 <= width <= 2400 and 450 <= height <= 1600, (width, height)
    assert len(data) > 30_000  # not a blank canvas


@pytest.mark.parametrize("path", [FLIGHT, SPARK], ids=["flight", "operations"])
def test_drawing_twice_gives_identical_bytes(path, tmp_path):
    draw = C.replay(load(path), lambda line: None).draw
    draw(str(tmp_path / "a.png"), "title")
    draw(str(tmp_path / "b.png"), "title")
    assert (tmp_path / "a.png").read_bytes() == (tmp_path / "b.png").read_bytes()


def test_model_i_marks_the_subscriber_the_spec_says_missed_the_event():
    """Spark's eaa1b775 (literal covering): 110010 and 110011 hold equal filters and each counts on
    the other once 110101's covering one is withdrawn, so 101110's event is pruned before either."""
    found = replayed(SPARK)
    pub = found.run.publication
    missed = set(found.run.interested) - set(dict(pub.notified))
    assert found.reproduced and missed == {"110010", "110011"}
    assert D.publish_marks(found.prop.name, found.run) == {"110010": "interested, never notified",
                                                           "110011": "interested, never notified"}


@pytest.mark.parametrize("suffix, marked", [
    ("delegation_reaches_every_live_node_once-92a10834", {"01"}),  # 10's stale table names failed 00 for 0*
    ("every_interested_subscriber_notified_exactly_once-47eece57", {"01"}),
    ("every_interested_subscriber_notified_exactly_once-7505e29c", {"11"}),
    # 00 subscribed and failed alone in 00*: 01 keeps its entry, and 10 sends 01 the event for it
    ("every_entry_prefix_in_the_routing_table-ebae7308", {"01"}),
    ("no_copy_enters_a_range_without_interest-6220ce5c", {"10"}),
    ("changes_after_subscribing_lose_no_event-ae777a13", {"01"}),  # 10's stale table names failed 00 for 0*
])
def test_model_i_marks_what_the_property_judges(suffix, marked):
    (path,) = [p for p in COMMITTED if p.endswith(suffix + ".json")]
    found = replayed(path)
    assert set(D.publish_marks(found.prop.name, found.run, found.net)) == marked


def test_model_ii_marks_the_steady_subscriber_that_missed_the_event():
    """717f6c84: 00 crashes and its entries are dropped (steps 3-4) before 01's new covering
    subscription reaches 10 (step 6), and 10 publishes in between (step 5): steady 01 misses it."""
    found = replayed(FLIGHT)
    got = {(e, n): c for e, n, c in found.run.state.notified}
    steady = {n for n, f in found.run.steady if f.matches({"x": 2})}
    assert found.reproduced and steady == {"01"} and got.get((1, "01"), 0) == 0
    assert set(D.flight_marks(found.prop.name, found.run)) == {"01"}
    assert [action[0] for _, action, _ in found.steps] == ["start", "deliver", "crash", "purge", "start", "deliver"]
    assert D.send_steps(found)[6] == 1  # the late subscribe was sent when 01 started it


@pytest.mark.parametrize("suffix, marked, words", [
    ("no_entry_outlives_its_subscription-e8237b48", {"01"}, "[00* x in 0..4] of 00's withdrawn"),
    ("no_entry_outlives_its_subscription-9c9b6aaf", {"01"}, "[1* x in 0..9] of 10's withdrawn"),
    ("settled_network_delivers_exactly_once-42dc9e77", {"01"}, "never notified"),
    ("steady_subscribers_notified_exactly_once-e73891cf", {"01"}, "never notified of event 1"),
    ("no_entry_outlives_its_subscriber-8c4e4acc", None, "of failed"),
])
def test_model_ii_marks_what_the_property_judges(suffix, marked, words):
    (path,) = [p for p in COMMITTED if p.endswith(suffix + ".json")]
    found = replayed(path)
    marks = D.flight_marks(found.prop.name, found.run)
    if marked is None:   # every node keeping an entry of a failed subscriber
        marked = {m for m, _, _, s in found.run.state.net.filters if s not in found.run.state.net.live}
    assert marks and set(marks) == marked and any(words in why for whys in marks.values() for why in whys)


@pytest.mark.parametrize("path", [p for p in COMMITTED if load(p).get("kind") != "flight"],
                         ids=lambda p: p.split("/")[-1][-13:-5])
def test_the_drawn_copies_are_the_ones_publish_counts(path):
    found = replayed(path)
    pub = found.run.publication
    copies = I.event_spread(found.net, pub.publisher, dict(pub.event))
    assert len(copies.messages) == pub.messages and tuple(sorted(copies.lost)) == pub.lost


def test_a_run_that_holds_marks_nothing():
    doc = {**load(SPARK), "reading": "no-covering/repaired/smallest/resubscribe-uncovered"}
    found = O.replay(doc, C.READINGS[doc["reading"]], lambda line: None)
    assert not found.reproduced and D.publish_marks(found.prop.name, found.run) == {}


def test_the_ring_is_in_identifier_order_clockwise_from_the_top():
    positions, placement = D.ring_positions(I.Space(2, 2), ["10", "00", "01"])
    assert placement == D.TO_SCALE and positions["00"] == pytest.approx((0, 1))
    assert positions["01"] == pytest.approx((1, 0)) and positions["10"] == pytest.approx((0, -1))
    nudged, placement = D.ring_positions(I.Space(2, 4), ["1001", "1010"])  # 22.5 degrees apart to scale
    angles = [math.degrees(math.atan2(x, y)) % 360 for x, y in (nudged["1001"], nudged["1010"])]
    assert placement == D.NUDGED and angles[0] < 202.5 < 225 < angles[1] and angles[1] - angles[0] >= 45 - 1e-6
    crowded, placement = D.ring_positions(I.Space(16, 2), [f"0{d}" for d in "0123456789abcdef"])
    assert placement == D.EVEN and crowded["04"] == pytest.approx((1, 0))


def test_a_property_that_explains_itself_is_quoted_in_the_title(tmp_path):
    found = replayed(SPARK)
    told = attrs.evolve(found, prop=attrs.evolve(found.prop, explain=lambda run: "0101 misses the event."))
    assert D.explanation(told.prop, told.run) == "0101 misses the event."
    told.draw(str(tmp_path / "told.png"), "title")
    found.draw(str(tmp_path / "plain.png"), "title")
    assert png_size((tmp_path / "told.png").read_bytes())[1] > png_size((tmp_path / "plain.png").read_bytes())[1]
