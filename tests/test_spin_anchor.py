"""The SPIN anchor of `make bench` (checks/algorithms/scot/promela.py): the Promela is SCOT's
subscription broadcast, the system the explorer searches, generated from the spec's forwarding."""

from __future__ import annotations

import pytest

from checks.algorithms.scot import promela as P
from checks.algorithms.scot.search import broadcast_system, small_scots
from checks.explorer import explore

DEFAULT = list(small_scots(3, 3))     # the default scope's SCOTs for SBP's delivery orders
FLOODED = list(small_scots(2, 2))     # flooding's: the check's m <= 3 has 121,258 states, too many for a test
SCOTS = {"sbp": DEFAULT, "flood": FLOODED}


@pytest.mark.parametrize("protocol", ["sbp", "flood"])
def test_the_model_has_every_message_a_broadcast_sends_and_no_other(protocol):
    for scot in SCOTS[protocol]:
        sent = set()
        explore(broadcast_system([scot], protocol), {"x": lambda s: sent.update(s.broadcast.in_flight) or True}, {})
        assert set(P.messages(scot, protocol)) == sent


def test_the_model_writes_each_delivery_as_the_spec_forwards_it():
    text = P.model(DEFAULT[5:6], "sbp")          # one edge x K_3: 6 brokers
    assert text.count(":: d_step { which =") == 6 and "bit seen[6];" in text
    first = P.messages(DEFAULT[5], "sbp")
    assert text.count(":: d_step { fly[") == len(first)
    single = P.model(DEFAULT[:1], "sbp")         # one broker: nothing to deliver, still Promela
    assert ":: false" in single and "bit fly[1];" in single


def test_what_is_missing_is_said_in_words(monkeypatch):
    monkeypatch.setattr(P.shutil, "which", lambda tool: None if tool == "spin" else "/usr/bin/cc")
    assert P.available() == "spin not installed (Debian: apt-get install spin gcc)"


@pytest.mark.skipif(P.available() is not None, reason=str(P.available()))
@pytest.mark.parametrize("protocol", ["sbp", "flood"])
def test_spin_finds_the_explorers_states_and_one_more(protocol):
    """The state before the SCOT and host are chosen is SPIN's alone (WHAT_A_STATE_IS)."""
    ours = explore(broadcast_system(SCOTS[protocol], protocol), {}, {})
    spin = P.run(P.model(SCOTS[protocol], protocol))
    assert (spin["states"], spin["depth"]) == (ours.states + 1, ours.depth + 1)


def test_the_bench_records_why_it_has_no_anchor(monkeypatch):
    from checks.algorithms.scot import bench

    monkeypatch.setattr(P, "available", lambda: "spin not installed (Debian: apt-get install spin gcc)")
    assert bench.spin_figures() == {"skipped": "spin not installed (Debian: apt-get install spin gcc)"}
