"""IRBR: Pastry tables, delegation, filters and covering, subscribe, unsubscribe, publish, failures,
joins and leaves, messages in flight, with the paper's Table 1 and Fig. 3, negative controls, Z3
proofs and reference conformance."""

import collections
import json
from pathlib import Path

import attrs
import numpy as np
import pytest

from checks import counterexample, engine, explorer, plugin
from checks.algorithms import irbr as C
from checks.algorithms.irbr import flight as F, operations as O, proofs as Z
from reference import irbr as R
from spec import irbr as I

PAPER_IDS = ["031", "102", "320", "202", "221", "233", "210", "211", "212", "213"]


def test_table_1_routing_table_of_peer_213():
    table = I.routing_table(I.Space(4, 3), "213", PAPER_IDS)
    assert table == {"0": "031", "1": "102", "3": "320", "20": "202", "22": "221", "23": "233",
                     "210": "210", "211": "211", "212": "212"}


def test_fig_3_filter_tables_after_a_covered_subscription():
    net = I.network(I.Space(4, 3), PAPER_IDS + ["011", "201"])
    f2, f1 = I.parse_filter("price in 0..100"), I.parse_filter('price in 10..20 & symbol = "IBM"')
    net, _ = I.subscribe(net, "210", f2)
    before = {n: [(p, f) for p, f, _ in net.ft(n)] for n in ("011", "201", "210", "211", "212", "213")}
    assert before == {"011": [("2", f2)], "201": [("21", f2)], "210": [("210", f2)], "211": [("210", f2)],
                      "212": [("210", f2)], "213": [("210", f2)]}
    net, spread = I.subscribe(net, "213", f1)
    assert sorted(m for _, m, _ in spread.messages) == ["210", "211", "212"]  # prefix length 3 only
    assert [(p, f) for p, f, _ in net.ft("011")] == before["011"] and [(p, f) for p, f, _ in net.ft("201")] == \
        before["201"]
    for n in ("210", "211", "212", "213"):
        assert [(p, f) for p, f, _ in net.ft(n)] == sorted(before[n] + [("213", f1)])
    pub = I.publish(net, "011", {"price": 15, "symbol": "IBM"})
    assert dict(pub.notified) == {"210": 1, "213": 1}


@pytest.mark.parametrize("bad, message", [
    (lambda: I.Space(1, 3), "base k"), (lambda: I.Space(4, 0), "length L"),
    (lambda: I.network(I.Space(4, 3), ["213", "21"]), "string of 3 digits"),
    (lambda: I.network(I.Space(4, 3), ["219"]), "outside base 4"),
    (lambda: I.network(I.Space(4, 3), ["213", "213"]), "duplicate"),
    (lambda: I.fail(I.network(I.Space(2, 2), ["00", "01"]), ["11"]), "not live"),
    (lambda: I.parse_filter("price > 3"), "cannot read"), (lambda: I.parse_filter("price >= 3"), "both bounds"),
    (lambda: I.parse_filter("x in 1..'a'"), "neither an integer"), (lambda: I.parse_filter(""), "at least one"),
    (lambda: R.Network(4, 3, ["213", "213"]), "duplicate"), (lambda: R.Network(4, 3, ["2131"]), "3 digits"),
    (lambda: R.Network(4, 3, ["213"]).publish("999", {}), "not a live node"),
    (lambda: R.Network(4, 3, ["213"]).subscribe("000", "x in 1..2"), "not a live node"),
    (lambda: R.Network(4, 3, ["213"]).unsubscribe("213", "x in 1..2"), "has no subscription"),
    (lambda: R.Network(4, 3, ["213"]).subscribe("213", "x between 1 and 2"), "cannot read"),
    (lambda: R.Network(4, 3, ["213"], tables_after_failure="magic"), "unknown table reading"),
])
def test_bad_input_is_refused_with_a_message_naming_the_problem(bad, message):
    with pytest.raises(ValueError, match=message):
        bad()


def test_covering_decision_agrees_with_z3_and_with_the_events():
    pairs, wrong, strict = Z.check_covering()
    assert (pairs, wrong, strict) == (625, [], True)
    assert Z.prove_interval_lemma()["verdict"].value == "proved"
    assert I.covers(I.parse_filter('s = "a" & x in 0..9'), I.parse_filter('s = "a" & x in 2..3 & y = 1'))
    assert not I.covers(I.parse_filter("x in 0..9"), I.parse_filter('x = "3"'))  # a string is no integer
    assert I.covers(I.parse_filter("x in 0..1"), I.parse_filter("x in 5..4"))  # empty filters are covered


def test_a_wrong_covering_procedure_is_rejected():
    """Negative control: ignoring attributes f2 lacks (a classic bug) is caught by the events."""
    real = I.covers
    try:
        I.covers = lambda f1, f2: all(real(I.Filter((c,)), f2) for c in f1.constraints
                                      if c.attribute in {d.attribute for d in f2.constraints})
        assert Z.check_covering()[1]
    finally:
        I.covers = real


def test_the_delegation_tree_is_proved_a_partition():
    outcome = Z.prove_delegation()
    assert outcome["verdict"].value == "proved" and set(outcome["lemmas"].values()) == {"unsat"}


def declared(scope: C.Scope, methods: set[str], subject: str, tmp_path) -> list:
    """The declared checks of `methods` whose properties judge `subject`, run by the engine at a
    smaller scope than `make check` uses."""
    algorithm = attrs.evolve(C.ALGORITHM, scopes={"default": scope})
    keys = {(p.name, name, m) for name, checked in I.READINGS.items() if subject in checked.runs
            for p in (I.PUBLISH_PROPERTIES if subject == O.SUBJECT else I.FLIGHT_PROPERTIES) for m in methods}
    return engine.run_algorithm(algorithm, "default", lambda doc: counterexample.store(doc, tmp_path), methods, keys)


@pytest.mark.long(30)
@pytest.mark.slow
def test_exhaustive_search_holds_with_repaired_tables_and_refutes_stale_ones(tmp_path):
    scope = attrs.evolve(C.SCOPES["default"], one_at_a_time=(O.Bound(2, 2, 3),), deeper=())  # make check runs the full one
    results = declared(scope, {"exhaustive"}, O.SUBJECT, tmp_path)
    verdicts = {(r.property, r.reading): r.verdict.value for r in results}
    for reading in ("covering-ordered/repaired/smallest/resubscribe-uncovered", "no-covering/repaired/smallest/"
                    "resubscribe-uncovered", "covering-ordered/repaired/largest/resubscribe-uncovered",
                    "no-covering/repaired/smallest/remove-only"):
        assert {v for (p, r), v in verdicts.items() if r == reading} == {"holds"}
    # the paper's unsubscribe without its "special handling" loses a covered subscription
    assert verdicts[("every_interested_subscriber_notified_exactly_once",
                     "covering-ordered/repaired/smallest/remove-only")] == "violated"
    stale = "covering-ordered/stale/smallest/resubscribe-uncovered"
    assert verdicts[("every_interested_subscriber_notified_exactly_once", stale)] == "violated"
    assert verdicts[("no_node_receives_an_event_twice", stale)] == "holds"
    cx = next(r.counterexample for r in results if r.reading == stale and r.counterexample)
    doc = json.loads(open(cx).read())
    assert any(op[0] == "fail" for op in doc["operations"])
    assert counterexample.replay(cx, say=lambda line: None)


def test_a_planted_covering_bug_loses_an_event():
    """Negative control: sending one level too narrow (lcp + 1) misses a subscriber."""
    from spec.irbr import operations as model

    real = model.subscribe_level
    try:   # planted where subscribe looks it up: model I's module
        model.subscribe_level = lambda net, n, f, covering="covering-ordered": \
            min(real(net, n, f, covering) + 1, net.space.L) if real(net, n, f, covering) else 0
        reading = C.READINGS["covering-ordered/repaired/smallest/resubscribe-uncovered"]
        ex = explorer.explore(O.system(O.Bound(2, 2, 3), reading), O.invariants(), O.witnesses())
        assert "every_interested_subscriber_notified_exactly_once" in ex.violations
    finally:
        model.subscribe_level = real


@pytest.mark.parametrize("rep", I.REPRESENTATIVES)
@pytest.mark.parametrize("tables", I.TABLE_READINGS)
def test_the_reference_keeps_only_the_delegation_tables_a_join_or_failure_leaves_as_they_were(rep, tables):
    # every table warmed, then a failure or a join: each table kept must be the one built afresh
    rng = np.random.default_rng(11)
    for trial in range(30):
        k, L = 4, int(rng.integers(2, 5))
        space = I.Space(k, L)
        ids = [x for x in space.identifiers() if rng.random() < 0.3] or list(space.identifiers()[:2])
        net = R.Network(k, L, ids, rep, tables)
        for _ in range(8):
            for n in sorted(net.live):
                net.delegations(n, 0)
            absent = [x for x in space.identifiers() if x not in net.live]
            if rng.random() < 0.5 and len(net.live) > 1:
                net.fail([sorted(net.live)[int(rng.integers(len(net.live)))]])
            elif absent:
                net.join(absent[int(rng.integers(len(absent)))])
            kept = {n: list(t[0]) for n, t in net._tables.items()}
            net._tables, net._subranges = {}, {}
            for n, table in kept.items():
                assert n in net.live and table == net.delegations(n, 0), (trial, n)


@pytest.mark.parametrize("rep", I.REPRESENTATIVES)
@pytest.mark.parametrize("tables", I.TABLE_READINGS)
def test_the_receivers_of_a_whole_delegation_tree_are_those_the_tree_reaches(rep, tables):
    # subscribe and unsubscribe take their receivers from the sorted identifiers (_everyone_in_range)
    # where no failed identifier is kept; each must be exactly who the walked tree reaches, with the
    # same common prefix lengths and message count, from every node and level, after joins and failures
    rng = np.random.default_rng(13)
    fast_paths = walked = 0
    for trial in range(25):
        k, L = int(rng.choice([2, 3, 4])), int(rng.integers(2, 5))
        space = I.Space(k, L)
        ids = [x for x in space.identifiers() if rng.random() < 0.4] or list(space.identifiers()[:2])
        net = R.Network(k, L, ids, rep, tables)
        for _ in range(4):
            for n in sorted(net.live):
                for level in range(L + 1):
                    shared: list[int] = []
                    sent, lost = net._broadcast(n, level, shared=shared)
                    by_length: dict[int, list[str]] = {}
                    for (_, m, _), d in zip(sent, shared):
                        by_length.setdefault(d, []).append(m)
                    groups = net._everyone_in_range(n, level)
                    if groups is None:
                        walked += 1
                        assert len(net._table_ids) > len(net.live)
                        continue
                    fast_paths += 1
                    assert not lost and {d: sorted(ms) for d, ms in groups} == {d: sorted(ms) for d, ms in by_length.items()}
                    assert net._spread(n, level) == (len(sent), groups)
            absent = [x for x in space.identifiers() if x not in net.live]
            if rng.random() < 0.5 and len(net.live) > 1:
                net.fail([sorted(net.live)[int(rng.integers(len(net.live)))]])
            elif absent:
                net.join(absent[int(rng.integers(len(absent)))])
    assert fast_paths and (walked or tables == "repaired")


def test_reference_conforms_to_the_spec_on_random_networks_and_operations():
    rng = np.random.default_rng(7)
    for trial in range(100):
        k, L = int(rng.choice([2, 3, 4])), int(rng.integers(2, 4))
        space = I.Space(k, L)
        ids = [x for x in space.identifiers() if rng.random() < 0.5] or [space.identifiers()[0]]
        rep, tables = str(rng.choice(I.REPRESENTATIVES)), str(rng.choice(I.TABLE_READINGS))
        covering, design = str(rng.choice(I.COVERING)), str(rng.choice(I.JOINS))
        handling, failure = str(rng.choice(I.UNSUBSCRIBE)), str(rng.choice(I.FAILURES))
        spec, ref = I.network(space, ids, rep, tables), R.Network(k, L, ids, rep, tables, covering, handling, failure)
        filters = O.FILTERS + tuple(R.random_filter(rng) for _ in range(3))
        for _ in range(10):
            live = sorted(spec.live)
            n = live[int(rng.integers(len(live)))]
            own = [f for f in filters if (n, n, f, n) in spec.filters]
            absent = [x for x in space.identifiers() if x not in spec.live]
            draw = rng.random()
            if draw < 0.1 and len(live) > 1:
                spec = I.fail(spec, [n], failure, handling, covering)
                ref.fail([n])
            elif draw < 0.15 and len(live) > 1:
                spec = I.leave(spec, n, handling, covering, failure)
                ref.leave(n)
            elif draw < 0.3 and absent:
                x = absent[int(rng.integers(len(absent)))]
                spec, messages = I.join(spec, x, design)
                assert ref.join(x, design) == messages
            elif own and draw < 0.5:
                spec, _ = I.unsubscribe(spec, n, own[0], handling, covering)
                ref.unsubscribe(n, own[0])
            else:
                f = filters[int(rng.integers(len(filters)))]
                spec, spread = I.subscribe(spec, n, f, covering)
                assert ref.subscribe(n, f) == len(spread.messages)
        for n in sorted(spec.live):
            assert sorted(set(ref.filter_table(n))) == spec.ft(n)
            for event in O.EVENTS:
                assert ref.publish_run(n, event) == I.publish_run(spec, n, event)


def test_scribe_baseline_delivers_once_loses_below_a_failure_and_recovers_after_repair():
    rng = np.random.default_rng(3)
    ids = sorted({format(int(v), "04x") for v in rng.integers(0, 16 ** 4, size=300)})
    scribe, irbr = R.Scribe(16, 4, ids), R.Network(16, 4, ids, representative="per-node")
    subs = [ids[int(i)] for i in rng.choice(len(ids), size=40, replace=False)]
    for s in subs:
        scribe.subscribe(s, "x in 0..9")
        irbr.subscribe(s, "x in 0..9")
    publisher = next(n for n in ids if n not in subs and n != scribe.root)
    for net in (scribe, irbr):
        assert dict(net.publish(publisher, {"x": 5}).notified) == {s: 1 for s in subs}
    scribe.fail([scribe.root])  # the rendezvous: everything is lost until the tree is repaired
    assert dict(scribe.publish(publisher, {"x": 5}).notified) == {}
    scribe.repair()
    assert dict(scribe.publish(publisher, {"x": 5}).notified) == {s: 1 for s in subs if s in scribe.live}


@pytest.mark.long(20)
@pytest.mark.slow
def test_the_fig_4_reproduction_is_deterministic_and_alternates_lose_nothing(monkeypatch):
    from checks.algorithms.irbr import reproduce

    # sec. 3.3's subscribe counts (a quarter of a minute a seed) are held to the same seed twice, and
    # to the committed cache, in test_the_covering_rule_sends_fewer_subscribe_messages_as_subscriptions_grow
    counts = {rule: [0.0] * reproduce.SUBSCRIBE_BATCHES for rule in reproduce.COVERING_RULES}
    monkeypatch.setattr(reproduce, "subscribe_messages", lambda seed: counts)
    small = dict(events_per_point=4, draws=1, seeds=(0,), out=None)
    first = reproduce.irbr_fig_4(**small)
    assert first == reproduce.irbr_fig_4(**small)
    assert all(v["irbr-alternates"] == 0 for v in first["loss_before_repair"].values())
    assert first["fig_4b"]["bins"]


def replayed(doc: dict, reading: str) -> list[str]:
    lines: list[str] = []
    C.ALGORITHM.replay({**doc, "reading": reading}, lines.append)
    return lines


def test_literal_covering_loses_two_equal_filters_that_count_on_each_other():
    """The paper's covering rule read literally: after the filter covering both is withdrawn, two
    equal subscriptions each count on the other and neither is sent on (exhaustive search's
    4-operation trace); ordering equal filters by subscriber fixes it."""
    doc = {"algorithm": "irbr", "property": "every_interested_subscriber_notified_exactly_once", "k": 2, "L": 2,
           "live": ["00", "01", "10"], "operations": [["subscribe", "00", "x in 0..9"], ["subscribe", "00", "x in 0..4"],
                                                      ["subscribe", "01", "x in 0..4"], ["unsubscribe", "00", "x in 0..9"]],
           "publisher": "10", "event": {"x": 2}}
    assert "VIOLATED" in replayed(doc, "covering/repaired/smallest/resubscribe-uncovered")[-1]
    assert "holds" in replayed(doc, "covering-ordered/repaired/smallest/resubscribe-uncovered")[-1]
    # sec. 3.4's other handling keeps the literal rule safe here: both covered subscriptions go everywhere
    assert "holds" in replayed(doc, "covering/repaired/smallest/widen-covered")[-1]


def test_widen_covered_sends_every_subscription_the_withdrawn_filter_covers_everywhere_and_no_other():
    """On an unsubscribe, and on a failure under withdraw-failed, each covered subscription (and
    only a covered one) is sent to every range it had skipped, whatever else still covers it."""
    f9, f4, g = I.parse_filter("x in 0..9"), I.parse_filter("x in 0..4"), I.parse_filter("y in 0..1")
    net = I.network(I.Space(2, 2), ["00", "01", "10", "11"])
    for n, f in (("00", f9), ("01", f9), ("01", f4), ("00", g)):
        net, _ = I.subscribe(net, n, f, "covering")
    levels = {(s, f): lvl for s, f, lvl in net.reach}
    assert levels[("01", f9)] == 1 and levels[("01", f4)] == 2   # 01's count on 00's and on its own
    after, _ = I.unsubscribe(net, "00", f9, "widen-covered", "covering")
    levels = {(s, f): lvl for s, f, lvl in after.reach}
    assert levels[("01", f9)] == 0 and levels[("01", f4)] == 0 and levels[("00", g)] == 0
    assert ("10", "0", f4, "01") in after.filters and ("11", "0", f4, "01") in after.filters
    # re-applying the rule instead: 01's 0..4 still counts on its own 0..9
    again, _ = I.unsubscribe(net, "00", f9, "resubscribe-uncovered", "covering")
    assert {(s, f): lvl for s, f, lvl in again.reach}[("01", f4)] == 2
    failed = I.fail(net, ["00"], "withdraw-failed", "widen-covered", "covering")
    assert {(s, f): lvl for s, f, lvl in failed.reach}[("01", f4)] == 0
    kept = I.fail(net, ["00"], "keep-failed", "widen-covered", "covering")
    assert {(s, f): lvl for s, f, lvl in kept.reach}[("01", f4)] == 2


@pytest.mark.parametrize("join, failure, reproduced", [
    ("ask-subscribers", "keep-failed", True), ("copy-closest", "keep-failed", False),
    ("ask-subscribers", "withdraw-failed", False), ("copy-closest", "withdraw-failed", False)])
def test_a_join_that_asks_the_subscribers_misses_a_failed_cover_only_while_failed_entries_are_kept(join, failure, reproduced):
    """01's 0..9 counts on 00's; 00 fails; 10 joins and asks the subscribers in 01's table: 00
    cannot answer, so 10 records nothing for 01's range. With 00's entries kept, 01 still counts on
    them and 10's event is lost; copy-closest copies the dead entry and forwards; withdraw-failed
    widens 01's subscription when 00 fails, and 10 gets it from there."""
    doc = {"algorithm": "irbr", "property": "every_interested_subscriber_notified_exactly_once", "k": 2, "L": 2,
           "live": ["00", "01"], "operations": [["subscribe", "00", "x in 0..9"], ["subscribe", "01", "x in 0..9"],
                                                ["fail", "00"], ["join", "10"]],
           "publisher": "10", "event": {"x": 2}}
    assert O.replay(doc, I.Reading(join=join, failure=failure), say=lambda line: None).reproduced is reproduced


def test_join_and_leave_keep_the_filter_tables_of_one_at_a_time_operations():
    net = I.network(I.Space(4, 3), PAPER_IDS)
    f2, f1 = I.parse_filter("price in 0..100"), I.parse_filter("price in 10..20")
    net, _ = I.subscribe(net, "210", f2)
    net, _ = I.subscribe(net, "213", f1)
    net, messages = I.join(net, "011")
    assert messages == 1 and [(p, str(f), s) for p, f, s in net.ft("011")] == [("2", "price in 0..100", "210")]
    net = I.leave(net, "210")  # 213's filter, covered by 210's, is widened before 210 departs
    assert "210" not in net.live
    pub = I.publish(net, "011", {"price": 15})
    assert dict(pub.notified) == {"213": 1}


@pytest.mark.long(15)
@pytest.mark.parametrize("reading, scope, failing", [
    ("covering-ordered/repaired/smallest/resubscribe-uncovered", F.FlightScope(2, 2, 0, nodes=3, pairs=False), set()),
    ("covering-ordered/repaired/smallest/resubscribe-uncovered/withdraw-at-once",
     F.FlightScope(2, 2, 0, nodes=3, pairs=False), {"steady_subscribers_notified_exactly_once"}),
    ("covering-ordered/repaired/smallest/resubscribe-uncovered", F.FlightScope(2, 2, 0, nodes=2), set()),
    ("covering-ordered/repaired/smallest/resubscribe-uncovered/arrival", F.FlightScope(2, 2, 0, nodes=2),
     {"settled_network_delivers_exactly_once", "no_entry_outlives_its_subscription"}),
    ("covering-ordered/repaired/smallest/resubscribe-uncovered/fire-and-forget",
     F.FlightScope(2, 2, 1, nodes=3, pairs=False), {"steady_subscribers_notified_exactly_once",
                                                    "settled_network_delivers_exactly_once",
                                                    "no_entry_outlives_its_subscription"}),
])
def test_messages_in_flight_each_rule_of_sec_3_5_is_needed_and_traces_replay(reading, scope, failing, tmp_path):
    """Sec. 3.5 with every delivery order: the default rules (Lamport clocks, widen-then-withdraw,
    retry to an alternate) keep exactly-once; dropping any one of them is refuted, shortest trace."""
    rules = C.READINGS[reading]
    ex = explorer.explore(F.system(scope, rules), F.invariants(), F.witnesses(), deadline_seconds=300)
    assert ex.complete and set(ex.violations) == failing
    must_see = {p.name for p in I.FLIGHT_PROPERTIES} if scope.pairs else {"steady_subscribers_notified_exactly_once"}
    if not scope.crashes:   # no failed subscriber to keep an entry of
        must_see.discard("no_entry_outlives_its_subscriber")
    assert all(ex.witnessed[p] for p in must_see - failing)  # a property that holds was not vacuous
    for prop, trace in ex.violations.items():
        path = counterexample.store(F.trace_document(rules, scope.crashes, prop, None, trace), tmp_path)
        lines = []
        assert counterexample.replay(path, say=lines.append) and "VIOLATED" in lines[-1]


def test_the_concurrency_race_without_widen_then_withdraw_is_the_papers_problem(tmp_path):
    """Sec. 3.5 (2): a publish that overtakes the widening a covering unsubscribe triggers misses
    a steady subscriber; the trace names the unsubscribe arriving before the widening."""
    reading = C.READINGS["covering-ordered/repaired/smallest/resubscribe-uncovered/withdraw-at-once"]
    scope = F.FlightScope(2, 2, 0, nodes=3, pairs=False)
    ex = explorer.explore(F.system(scope, reading), F.invariants(), F.witnesses(), deadline_seconds=300)
    trace = ex.violations["steady_subscribers_notified_exactly_once"]
    doc = F.trace_document(reading, 0, "steady_subscribers_notified_exactly_once", None, trace)
    steps = [step[:2] for step in doc["steps"]]
    assert len(steps) == 5 and steps.index(["deliver", "unsub"]) < steps.index(["start", 1]) < \
        steps.index(["deliver", "widen"])  # the publish starts between the withdrawal and the widening


@pytest.mark.parametrize("bad, message", [
    (lambda: I.join(I.network(I.Space(2, 2), ["00"]), "00"), "already a live node"),
    (lambda: I.join(I.network(I.Space(2, 2), ["00"]), "0x"), "outside base 2"),
    (lambda: I.join(I.network(I.Space(2, 2), ["00"]), "01", "guess"), "unknown join design"),
    (lambda: I.leave(I.network(I.Space(2, 2), ["00"]), "11"), "not a live node"),
    (lambda: R.Network(2, 2, ["00"]).join("00"), "already a live node"),
    (lambda: R.Network(2, 2, ["00", "01"]).leave("10"), "not a live node"),
    (lambda: I.Reading(ordering="vector"), "unknown ordering"),
    (lambda: C.ALGORITHM.replay({"algorithm": "irbr", "property": "x", "reading": "nosuch"}, print),
     "unknown reading 'nosuch'"),
])
def test_bad_join_leave_and_rule_input_is_refused(bad, message):
    with pytest.raises(ValueError, match=message):
        bad()


@pytest.mark.long(15)
@pytest.mark.slow
def test_hypothesis_search_shrinks_a_stale_table_loss_and_the_default_reading_holds(tmp_path):
    prop = "every_interested_subscriber_notified_exactly_once"
    stale, default = "covering-ordered/stale/smallest/resubscribe-uncovered", I.Reading().name
    ctx = engine.Context(C.ALGORITHM, "default", lambda doc: counterexample.store(doc, tmp_path))

    def search(reading: str, examples: int) -> plugin.Search:
        scope = attrs.evolve(C.SCOPES["default"], hypothesis_examples=examples)
        return next(check for check in C.checks(scope) if isinstance(check, plugin.Search)
                    and (check.property, check.reading) == (prop, reading))

    [found] = engine.run_check(search(stale, 150), ctx)
    doc = json.loads(open(found.counterexample).read())
    assert found.verdict.value == "violated" and doc["method"] == "hypothesis"
    assert any(op[0] == "fail" for op in doc["operations"]) and len(doc["operations"]) <= 4
    assert counterexample.replay(found.counterexample, say=lambda line: None)
    [holds] = engine.run_check(search(default, 100), ctx)
    assert holds.verdict.value == "holds" and holds.cases == 100 and holds.detail.endswith("reached the witness")


def test_one_catalogue_of_readings_serves_every_check_and_the_spark_job():
    """Each declared check judges a catalogued reading on the runs the catalogue names for it
    (the Z3 proofs excepted, which range over every reading), and the Spark job's readings are
    the catalogue's marked for it."""
    from spark_validation.irbr import READINGS as SPARK_READINGS

    for check in C.checks(C.SCOPES["default"]):
        if check.method != "z3":
            subjects = {p.subject for p in I.PUBLISH_PROPERTIES + I.FLIGHT_PROPERTIES + I.OPERATIONS_PROPERTIES
                        if p.name == check.keys()[0][0]}
            assert len(subjects) == 1 and subjects <= set(I.READINGS[check.reading].runs), check.keys()
    assert SPARK_READINGS == tuple(n for n, c in I.READINGS.items() if c.spark)
    assert all(C.READINGS[n].name == n for n in C.READINGS)


# --------------------------------------------------------------------------------------------
# Sec. 3.5 with operations at two different nodes (issue 10): the flight scope's third kind of
# script. The tests explore only a slice of it (ops at 00 and 01, publish from 10, no crash);
# `make check` explores the whole declared scope, pinned in the manifest.
# --------------------------------------------------------------------------------------------

TWO_NODES = F.FlightScope(2, 2, 0, nodes=3, pairs=False, different_nodes=True)


def two_node_slice(reading: str):
    """The declared flight system, started only from the scripts of one operation at 00 and one
    at 01 beside a publish from 10 (every assignment of filters beforehand)."""
    system = F.system(TWO_NODES, C.READINGS[reading])
    start = [s for s in system.initial_states() if len(s[0]) == 3 and {s[0][0][1], s[0][1][1]} == {"00", "01"}
             and s[0][2][1] == "10"]
    return attrs.evolve(system, initial_states=lambda: start)


def test_two_node_scripts_pair_every_operation_of_two_different_nodes():
    ids, held = ["00", "01", "10"], {("00", F.FLIGHT_FILTERS[1]), ("01", F.FLIGHT_FILTERS[1])}
    alone = F.scripts(ids, held, pairs=True)
    both = F.scripts(ids, held, pairs=True, different_nodes=True)
    assert both[:len(alone)] == alone  # the scripts of one node keep their place (and their traces)
    extra = both[len(alone):]
    assert len(extra) == 3 * 2 * 2 and all(len(ops) == 2 and ops[0][1] < ops[1][1] for ops in extra)
    kinds = {tuple(sorted(kind for kind, _, _ in ops)) for ops in extra}
    assert kinds == {("subscribe", "subscribe"), ("subscribe", "unsubscribe"), ("unsubscribe", "unsubscribe")}
    assert F.FlightScope(2, 2, 1, crashing_pairs=False, different_nodes=True).crashes_beside(extra[0] + (None,)) == 0
    assert F.FlightScope(2, 2, 1, crashing_pairs=False, different_nodes=True).crashes_beside(alone[0] + (None,)) == 1
    declared = C.SCOPES["default"].in_flight
    assert declared.different_nodes and "two different nodes" in declared.describe()


def test_two_nodes_a_steady_subscriber_misses_an_event_under_the_default_rules(tmp_path):
    """00 unsubscribes x in 0..4 while 01, which holds x in 0..4 too (sent only to 00, counting on
    00's equal entry), subscribes x in 0..9. 00's notice reaches 01, which now counts on its own
    x in 0..9 and widens nothing; the withdrawal reaches 10 before 01's x in 0..9 does, and 10's
    event x=2 goes nowhere: 01's steady x in 0..4 misses it. The scope reaches the witness, the
    trace replays, and the same slice holds without covering."""
    default = I.Reading().name
    ex = explorer.explore(two_node_slice(default), F.invariants(), F.witnesses())
    assert ex.complete and set(ex.violations) == {"steady_subscribers_notified_exactly_once"}
    assert ex.witnessed["steady_subscribers_notified_exactly_once"]  # a steady remote subscriber is interested
    trace = ex.violations["steady_subscribers_notified_exactly_once"]
    doc = F.trace_document(C.READINGS[default], 0, "steady_subscribers_notified_exactly_once", None, trace)
    assert doc["subscriptions"] == [["00", "x in 0..4"], ["01", "x in 0..4"]]
    assert doc["script"] == [["unsubscribe", "00", "x in 0..4"], ["subscribe", "01", "x in 0..9"],
                             ["publish", "10", {"x": 2}]]
    steps = doc["steps"]
    at_10 = [i for i, s in enumerate(steps) if s[0] == "deliver" and s[5] == "10"]
    unsub_at_10 = next(i for i in at_10 if steps[i][1] == "unsub")
    sub_at_10 = next(i for i in at_10 if steps[i][1] == "sub")
    assert unsub_at_10 < steps.index(["start", 2]) < sub_at_10  # the publish falls between the two
    path = counterexample.store(doc, tmp_path)
    lines = []
    assert counterexample.replay(path, say=lines.append) and "VIOLATED" in lines[-1]
    safe = explorer.explore(two_node_slice("no-covering/repaired/smallest/resubscribe-uncovered/withdraw-at-once"),
                            F.invariants(), F.witnesses())
    assert safe.complete and not safe.violations and safe.witnessed["steady_subscribers_notified_exactly_once"]


def test_two_nodes_clocks_kept_per_filter_not_per_subscriber_are_rejected():
    """Negative control: Lamport clocks kept per (node, filter) instead of per (node, subscriber,
    filter) make one subscriber's newer operation drop another's message. One node's operations
    never show it (the scope before issue 10 holds); two nodes' do."""
    from spec.irbr import flight as model

    reading = "no-covering/repaired/smallest/resubscribe-uncovered/withdraw-at-once"
    real_clock, real_see = model._clock_of, model._see

    def clock_of(state, node, subscriber, f):
        return max((c for m, _, g, c in state.clocks if (m, g) == (node, f)), default=-1)

    def see(state, node, subscriber, f, clock):
        kept = frozenset(e for e in state.clocks if (e[0], e[2]) != (node, f))
        return attrs.evolve(state, clocks=kept | {(node, subscriber, f, clock)})

    try:
        model._clock_of, model._see = clock_of, see   # planted where model II looks them up
        one = explorer.explore(F.system(F.FlightScope(2, 2, 0, nodes=3, pairs=False), C.READINGS[reading]),
                               F.invariants(), F.witnesses())
        two = explorer.explore(two_node_slice(reading), F.invariants(), F.witnesses())
    finally:
        model._clock_of, model._see = real_clock, real_see
    assert one.complete and not one.violations
    assert two.complete and {"settled_network_delivers_exactly_once", "no_entry_outlives_its_subscription"} <= \
        set(two.violations)


SETTLED = "covering-ordered/repaired/smallest/resubscribe-uncovered/widen-then-withdraw-settled"


def test_two_nodes_counting_only_on_settled_subscriptions_holds():
    """The repair (reading widen-then-withdraw-settled): a subscription may count on a covering
    entry only once that entry's subscription has settled (no subscribe or widening of it still
    in flight, the acknowledgements abstracted to that condition as widen-then-withdraw's are).
    It holds where the default fails."""
    assert I.READINGS[SETTLED].runs == ("FlightRun",)
    ex = explorer.explore(two_node_slice(SETTLED), F.invariants(), F.witnesses())
    assert ex.complete and not ex.violations and ex.witnessed["steady_subscribers_notified_exactly_once"]


def test_an_uncover_notice_widens_every_subscription_that_counted_on_the_withdrawn_entry():
    # 00 holds x in 0..9; 01 holds x in 0..4 and x in 5..9, both sent only inside range "0" because
    # 00's entry covers them. When 00 withdraws, its notice reaches 01, which must widen both.
    wide, f1, f2 = (I.parse_filter(t) for t in ("x in 0..9", "x in 0..4", "x in 5..9"))
    net = I.network(I.Space(2, 2), ["00", "01", "10", "11"])
    for node, f in (("00", wide), ("01", f1), ("01", f2)):
        net, _ = I.subscribe(net, node, f)
    assert {(s, g, lvl) for s, g, lvl in net.reach if s == "01"} == {("01", f1, 1), ("01", f2, 1)}
    script = (("unsubscribe", "00", wide),)
    state = I.start(I.Flight(net=net), script, 0, I.Reading())
    notice = next(m for m in state.flight if m[0] == "uncover" and m[4] == "01")
    state = I.deliver(state, script, notice, I.Reading())
    widened = {(m[1], m[2]) for m in state.flight if m[0] == "widen"}
    assert widened == {("01", f1), ("01", f2)}
    assert {(s, g, lvl) for s, g, lvl in state.net.reach if s == "01"} == {("01", f1, 0), ("01", f2, 0)}


def test_a_publisher_is_notified_only_of_events_its_own_filters_match():
    net = I.network(I.Space(2, 2), ["00", "01", "10"])
    net, _ = I.subscribe(net, "00", I.parse_filter("x in 5..9"))
    net, _ = I.subscribe(net, "01", I.parse_filter("x in 0..4"))
    for publisher, event, expected in (("00", (("x", 2),), ()), ("01", (("x", 2),), ((0, "01", 1),))):
        script = (("publish", publisher, event),)
        state = I.start(I.Flight(net=net), script, 0, I.Reading())
        assert state.notified == expected


def test_the_delegation_proof_names_its_unproved_step_and_covering_is_the_property_itself():
    algorithm = plugin.algorithm("irbr")
    proofs = {(c.property, c.reading): c for c in algorithm.checks(algorithm.scope("default"))
              if isinstance(c, plugin.Proof)}
    assert "induction over levels" in proofs[("delegation_reaches_every_live_node_once", "any-representative")] \
        .unproved_step
    assert proofs[("covers_decides_covering", "conjunctions of ranges")].unproved_step is None  # records holds itself


def test_the_first_large_workload_is_pinned():
    """One seed in LARGE_EVERY draws a large network: the first, 623, is pinned (the seed pins'
    twenty seeds are all small)."""
    w = R.random_workload(623)
    assert (len(w.ids), w.k, len(w.operations)) == (536, 2, 4) and len(w.ids) > R.SMALL_NODES


def test_a_bound_written_twice_names_the_part_that_is_no_value():
    with pytest.raises(ValueError, match=r"'2\.\.3' is neither an integer"):
        I.parse_filter("x in 1..2..3")


def test_an_unknown_operation_is_named():
    net = I.network(I.Space(2, 2), ["00", "01"])
    with pytest.raises(ValueError, match=r"unknown operation 'publish'.*subscribe, unsubscribe, fail, leave, join"):
        I.operate(net, ("publish", "00"))


@pytest.mark.parametrize("field, what, known", [
    ("covering", "covering reading", I.COVERING), ("tables", "table reading", I.TABLE_READINGS),
    ("representative", "representative choice", I.REPRESENTATIVES), ("unsubscribe", "unsubscribe handling", I.UNSUBSCRIBE),
    ("join", "join design", I.JOINS), ("failure", "failure handling", I.FAILURES), ("ordering", "ordering", I.ORDERINGS),
    ("concurrency", "concurrency rule", I.CONCURRENCY), ("forwarding", "forwarding", I.FORWARDING)])
def test_a_reading_with_an_unknown_choice_names_its_rule_and_the_known_ones(field, what, known):
    """Each rule's error says which rule and lists its choices (from an independent mutation sample:
    the messages were unchecked)."""
    with pytest.raises(ValueError) as e:
        I.Reading(**{field: "bogus"})
    assert str(e.value) == f"unknown {what} 'bogus'; known: {', '.join(known)}"


def test_keeping_a_failed_subscribers_entries_loses_an_event_in_five_operations_and_withdrawing_them_does_not():
    """An independent review's finding, after an exhaustive bound of 4 operations: when 00 fails
    its entry stays at 01 (keep-failed, this project's default then), so 01's new subscription
    counts on a dead subscriber's covering entry, sends nothing, and an event published at 10
    reaches no one. Under withdraw-failed (the default now) 01 drops the entry and the same five
    operations notify it."""
    path = Path(__file__).with_name("data") / "findings" / "irbr-keep-failed-loses-an-event-in-five-operations.json"
    doc = json.loads(path.read_text())
    assert counterexample.replay(path, say=lambda line: None)
    keep_failed = O.replay(doc, I.READINGS[doc["reading"]], say=lambda line: None)
    assert keep_failed.reproduced and keep_failed.run.publication.notified == () and keep_failed.run.interested == {"01"}
    withdrawn = O.replay(doc, I.Reading(), say=lambda line: None)
    assert not withdrawn.reproduced and withdrawn.run.publication.notified == (("01", 1),)
    # read with sec. 3.1's rule, 01 drops the entry under 00*, emptied by the failure: notified too
    pruned = O.replay(doc, I.Reading(failure="prune-unrouted"), say=lambda line: None)
    assert not pruned.reproduced and pruned.run.publication.notified == (("01", 1),)


@pytest.mark.parametrize("failure", I.FAILURES)
def test_a_failure_drops_the_failed_subscribers_entries_and_widens_what_counted_on_them_only_under_withdraw_failed(failure):
    """01's 0..4 counts on 00's 0..9 (sent only toward 00); when 00 fails, withdraw-failed drops
    00's entries everywhere and widens 01's subscription to 10; keep-failed leaves both as they were."""
    reading = I.Reading(failure=failure)
    net = I.network(I.Space(2, 2), ["00", "01", "10"])
    for op in (("subscribe", "00", I.parse_filter("x in 0..9")), ("subscribe", "01", I.parse_filter("x in 0..4")),
               ("fail", "00")):
        net, _ = I.operate(net, op, reading)
    names_00 = {e for e in net.filters if e[3] == "00"}
    at_10 = {(p, str(f), s) for p, f, s in net.ft("10")}
    if failure == "withdraw-failed":
        assert names_00 == set() and at_10 == {("0", "x in 0..4", "01")}
        assert I.publish(net, "10", {"x": 2}).notified == (("01", 1),)
    else:   # prune-unrouted drops 01's entry under 00*, a range the failure emptied; 10's under 0* stays
        assert {e[0] for e in names_00} == ({"01", "10"} if failure == "keep-failed" else {"10"})
        assert at_10 == {("0", "x in 0..9", "00")}



@pytest.mark.parametrize("concurrency", ["widen-then-withdraw", "widen-then-withdraw-settled", "withdraw-at-once"])
def test_a_crash_stops_counting_on_the_failed_entries_and_drops_them_as_the_concurrency_rule_drops_an_unsubscribe(
        concurrency):
    """00 and 01 hold x in 0..9; 01's counts on 00's equal one (00 < 01), so 10 holds only 00's
    entry. When 00 crashes 01 widens toward 10. Under widen-then-withdraw 10 keeps 00's entry,
    no longer counted on, until the widening has arrived (an event 10 publishes meanwhile still
    reaches 01); under withdraw-at-once it goes at once, and that event is lost (the hazard of
    sec. 3.5 (2), as for an unsubscribe)."""
    reading = I.Reading(concurrency=concurrency)
    f = I.parse_filter("x in 0..9")
    net = I.network(I.Space(2, 2), ["00", "01", "10"])
    for node in ("00", "01"):
        net, _ = I.subscribe(net, node, f)
    assert {(p, str(g), s) for p, g, s in net.ft("10")} == {("0", "x in 0..9", "00")}
    state = I.crash(I.Flight(net=net), "00", reading)
    assert {(m[0], m[1], m[4]) for m in state.flight} == {("widen", "01", "10")}
    script = (("publish", "10", (("x", 2),)),)
    if concurrency == "withdraw-at-once":
        assert state.purging == frozenset() and state.net.ft("10") == []
        assert not I.start(state, script, 0, reading).flight - state.flight  # nothing goes toward 01
        return
    assert state.purging == {"00"} and ("10", "00", f) in state.net.withdrawn and not I.can_purge(state, "00")
    state = I.start(state, script, 0, reading)
    event = next(m for m in state.flight if m[0] == "event")
    assert event[4] == "01"
    for message in sorted(state.flight, key=repr):
        state = I.deliver(state, script, message, reading)
    assert state.notified == ((0, "01", 1),) and I.can_purge(state, "00")
    state = I.purge(state, "00")
    assert {(p, str(g), s) for p, g, s in state.net.ft("10")} == {("0", "x in 0..9", "01")}
    assert not any(e[3] == "00" for e in state.net.filters) and state.purging == frozenset()
    with pytest.raises(ValueError, match="no entries waiting"):
        I.purge(state, "00")


def test_under_keep_failed_a_crash_leaves_the_failed_entries_counted_on():
    f = I.parse_filter("x in 0..9")
    net = I.network(I.Space(2, 2), ["00", "01", "10"])
    for node in ("00", "01"):
        net, _ = I.subscribe(net, node, f)
    state = I.crash(I.Flight(net=net), "00", I.Reading(failure="keep-failed"))
    assert state.flight == frozenset() and state.purging == frozenset() and state.net.withdrawn == frozenset()
    assert {(p, str(g), s) for p, g, s in state.net.ft("10")} == {("0", "x in 0..9", "00")}


@pytest.mark.parametrize("make, message", [
    (lambda: I.CoveringQuestion("x in 0..1", I.parse_filter("x in 0..1")),
     "f1 must be a spec.irbr.Filter (see make_filter, parse_filter), not 'x in 0..1'"),
    (lambda: I.CoveringQuestion(I.parse_filter("x in 0..1"), None),
     "f2 must be a spec.irbr.Filter (see make_filter, parse_filter), not None"),
    (lambda: I.deciding_events(I.parse_filter("x in 0..1"), 3),
     "f2 must be a spec.irbr.Filter (see make_filter, parse_filter), not 3"),
    (lambda: I.subscribe(I.network(I.Space(2, 2), ["00"]), "00", "x in 0..1"),
     "f must be a spec.irbr.Filter (see make_filter, parse_filter), not 'x in 0..1'"),
    (lambda: I.check_event([("x", 1)]), "event must be a dict of attribute values, not [('x', 1)]"),
    (lambda: I.check_event({"x": 1.5}), "event attribute 'x' must be a str with an integer or string value, not 1.5"),
    (lambda: I.check_event({1: 1}), "event attribute 1 must be a str with an integer or string value, not 1"),
    (lambda: I.check_event({"x": True}), "event attribute 'x' must be a str with an integer or string value, not True"),
    (lambda: I.start(I.Flight(I.network(I.Space(2, 2), ["00"])), [("publish", "00", ())], 0),
     "script must be a tuple of (kind, node, item) operations, not [('publish', '00', ())]"),
    (lambda: I.start(I.Flight(I.network(I.Space(2, 2), ["00"])), (("publish", "00", ()),), True),
     "k must be an integer index into the script, not True"),
])
def test_the_spec_refuses_a_wrong_type_naming_the_argument_and_the_value(make, message):
    """Each message exactly (survivors of the independent mutation sample: spec/irbr/filters.py and
    flight.py's argument checks were unasserted)."""
    with pytest.raises(TypeError) as e:
        make()
    assert str(e.value) == message


@pytest.mark.parametrize("k", [-1, 1, 5])
def test_a_script_index_outside_the_script_is_refused(k):
    with pytest.raises(ValueError) as e:
        I.start(I.Flight(I.network(I.Space(2, 2), ["00"])), (("publish", "00", ()),), k)
    assert str(e.value) == f"k must be an operation of the script, 0..0, not {k}"


def test_the_deciding_events_are_every_bound_and_one_past_it_and_absence():
    events = I.deciding_events(I.parse_filter("x in 2..3"), I.parse_filter("x in 3..5"))
    assert events == [{}] + [{"x": v} for v in (1, 2, 3, 4, 5, 6)]
    assert I.a_strict_cover(I.CoveringQuestion(I.parse_filter("x in 0..9"), I.parse_filter("x in 2..3")))
    assert not I.a_strict_cover(I.CoveringQuestion(I.parse_filter("x in 0..9"), I.parse_filter("x in 0..9")))


# --------------------------------------------------------------------------------------------
# Claims on an OperationsRun: the tables operations leave, and changes after the subscriptions
# --------------------------------------------------------------------------------------------

@pytest.mark.parametrize("order, kinds, after", [
    (I.SUBSCRIBING, ("subscribe", "unsubscribe"), I.SUBSCRIBING),
    (I.SUBSCRIBING, I.CHANGES, I.CHANGED_AFTER_SUBSCRIBING),
    (I.CHANGED_AFTER_SUBSCRIBING, I.CHANGES, I.CHANGED_AFTER_SUBSCRIBING),
    (I.CHANGED_AFTER_SUBSCRIBING, ("subscribe", "unsubscribe"), I.INTERLEAVED),
    (I.INTERLEAVED, ("subscribe", "unsubscribe") + I.CHANGES, I.INTERLEAVED),
])
def test_the_order_of_operations_is_subscriptions_then_changes_until_a_subscription_follows_a_change(order, kinds, after):
    assert {I.order_after(order, kind) for kind in kinds} == {after}


@pytest.mark.parametrize("order, kind, message", [("sideways", "fail", "unknown order 'sideways'"),
                                                  (I.SUBSCRIBING, "publish", "unknown operation 'publish'")])
def test_an_unknown_order_or_operation_is_named(order, kind, message):
    with pytest.raises(ValueError, match=message):
        I.order_after(order, kind)


def after(reading: I.Reading, live: list[str], ops: list[tuple]) -> tuple[I.Network, str]:
    net, order = I.network(I.Space(2, 2), live, reading.representative, reading.tables), I.SUBSCRIBING
    for op in ops:
        net, _ = I.operate(net, op, reading)
        order = I.order_after(order, op[0])
    return net, order


@pytest.mark.parametrize("failure", I.FAILURES)
def test_a_failed_subscribers_entry_outlives_its_range_in_the_routing_table_only_under_keep_failed(failure):
    """00 subscribes, then fails alone in range 00: the repaired table of 01 no longer has 00*;
    keep-failed leaves 01's entry [00* x in 0..9 of 00] (sec. 3.1 broken), prune-unrouted drops it
    (sec. 3.1's rule kept) and withdraw-failed drops every entry of 00. 10's entry [0* ... of 00]
    is under a range that still has 01, so under both printed readings the event goes from 10 into
    0* where no live node is interested (sec. 3.2)."""
    net, order = after(I.Reading(failure=failure), ["00", "01", "10"],
                       [("subscribe", "00", I.parse_filter("x in 0..9")), ("fail", "00")])
    run = I.operations_run(net, order, "10", {"x": 2})
    assert "00" not in net.table("01")
    kept = failure in ("keep-failed", "prune-unrouted")
    assert I.stray_entries(net) == ([("01", "00", I.parse_filter("x in 0..9"), "00")] if failure == "keep-failed" else [])
    assert I.every_entry_prefix_in_the_routing_table(run) == (failure != "keep-failed")
    assert I.copies_into_ranges_without_interest(net, run.publish) == ([("10", "01", "0")] if kept else [])
    assert I.no_copy_enters_a_range_without_interest(run) == (not kept)
    assert I.an_entry_names_another_range(run) == kept


@pytest.mark.parametrize("failure, loses", [("keep-failed", True), ("prune-unrouted", True), ("withdraw-failed", False)])
def test_the_seventh_reviews_trace_loses_an_event_under_both_printed_failure_readings(failure, loses):
    """On (k=2, L=3), beyond the operations exhaustive search reaches there: 010 subscribes 0..9,
    000 subscribes 0..4 (counting on it), 000 fails while 001 keeps range 00 alive, 010 unsubscribes
    0..9 and subscribes 2..3, counting on 000's entry, which neither printed reading drops; an event
    x = 2 from 100 misses 010. The declaration explores this script for both readings."""
    from checks.algorithms.irbr import operations as O

    script = O.REVIEWED[0]
    reading = I.Reading(failure=failure)
    net = I.network(I.Space(script.k, script.L), script.live)
    for op in script.operations:
        net, _ = I.operate(net, O.spec_operation(op), reading)
    run = I.publish_run(net, "100", {"x": 2})
    assert I.every_interested_subscriber_notified_exactly_once(run) == (not loses)
    assert run.interested == {"010"}


@pytest.mark.parametrize("tables, holds", [("repaired", True), ("stale", False)])
def test_a_failure_after_the_subscription_loses_the_event_only_with_stale_tables(tables, holds):
    """01 subscribes, then its representative for 10's range 0*, 00, fails: repaired tables send
    10's event to 01, stale ones to failed 00, and sec. 3.2's claim on changes fails. The same
    run with the subscription after the failure is not what the claim speaks of."""
    reading = I.Reading(tables=tables)
    ops = [("subscribe", "01", I.parse_filter("x in 0..9")), ("fail", "00")]
    net, order = after(reading, ["00", "01", "10"], ops)
    run = I.operations_run(net, order, "10", {"x": 2})
    assert order == I.CHANGED_AFTER_SUBSCRIBING and I.a_remote_subscriber_is_interested_after_changes(run)
    assert I.changes_after_subscribing_lose_no_event(run) is holds
    net, order = after(reading, ["00", "01", "10"], ops[::-1])
    assert order == I.INTERLEAVED and I.changes_after_subscribing_lose_no_event(I.operations_run(net, order, "10", {"x": 2}))


def test_the_ordered_exploration_judges_the_operations_runs_of_the_same_networks():
    """The ordered system reaches the networks of the plain one (every order), and its invariants
    are the spec's OperationsRun predicates on every publication."""
    bound, reading = O.Bound(2, 2, 2), I.READINGS["covering-ordered/repaired/smallest/resubscribe-uncovered/keep-failed"]

    def reached(system):
        seen, frontier = set(), list(system.initial_states())
        while frontier:
            state = frontier.pop()
            if state not in seen:
                seen.add(state)
                frontier += [system.successor(state, a) for a in system.actions(state)]
        return seen

    plain, ordered = reached(O.system(bound, reading)), reached(O.system(bound, reading, ordered=True))
    assert {s.net for s in plain} == {s.net for s in ordered}
    assert {s.order for s in ordered} == {I.SUBSCRIBING, I.CHANGED_AFTER_SUBSCRIBING, I.INTERLEAVED}
    judge = O.invariants(ordered=True)
    assert set(judge) == {p.name for p in I.OPERATIONS_PROPERTIES}
    for state in ordered:
        for p in I.OPERATIONS_PROPERTIES:
            assert judge[p.name](state) == all(p.predicate(I.operations_run(state.net, state.order, pub, dict(ev)))
                                               for pub in sorted(state.net.live) for ev in O.EVENTS)


@pytest.mark.long(45)
def test_the_covering_rule_sends_fewer_subscribe_messages_as_subscriptions_grow():
    """Sec. 3.3 reproduced (reproduce.py): without covering every subscribe goes to every other node
    of the 1,000 (999 messages); with it, fewer in each batch than in the one before, on the
    committed cache as on a fresh computation of one seed."""
    from checks.algorithms.irbr import inventory, reproduce

    fresh = reproduce.subscribe_messages(0)
    assert fresh["no-covering"] == [999.0] * reproduce.SUBSCRIBE_BATCHES
    assert all(b < a for a, b in zip(fresh["covering"], fresh["covering"][1:]))
    assert fresh == reproduce.subscribe_messages(0)
    verdict, evidence = inventory.fewer_targets_as_subscriptions_grow()
    cached = inventory.subscribe_messages()["per_batch"]["covering"]
    assert verdict == "holds" and " -> ".join(f"{v:.0f}" for v in cached) in evidence and "999 throughout" in evidence


def test_messages_in_flight_refuse_the_handling_they_do_not_model():
    """Model II writes resubscribe-uncovered's widenings as messages and has no widen-covered: a
    reading asking for it is refused, not run as remove-only."""
    reading = I.Reading("covering", unsubscribe="widen-covered")
    with pytest.raises(ValueError, match="not widen-covered"):
        explorer.explore(F.system(F.FlightScope(2, 2, 0, nodes=2), reading), F.invariants(), F.witnesses())


@pytest.mark.long(15)
@pytest.mark.parametrize("reading, states", [
    ("covering-ordered/repaired/smallest/resubscribe-uncovered/keep-failed", 31055),
    ("covering/repaired/smallest/widen-covered/keep-failed", 30751),
    ("covering/repaired/smallest/resubscribe-uncovered/keep-failed", 0),  # the equal-filter cycle
])
def test_without_failures_leaves_and_joins_lose_no_event_under_failures_as_printed(reading, states):
    """Sec. 3.5 (3)'s mechanisms are for a node leaving (退出), which the paper keeps apart from a
    failure (失败, left to the P2P layer: keep-failed). This project's leave unsubscribes every
    filter first, so a leave leaves no entry behind whatever the failure handling: with subscribes,
    unsubscribes, leaves and joins and no failure, failures as printed lose no event up to four
    operations, while the literal covering rule with resubscribe-uncovered (the negative control,
    states 0) still loses one by itself."""
    plain = O.system(O.Bound(2, 2, 4), I.READINGS[reading])
    taken = collections.Counter()

    def successor(state, op):
        taken[op[0]] += 1
        return plain.successor(state, op)

    no_failure = explorer.TransitionSystem(plain.initial_states,
                                           lambda s: [op for op in plain.actions(s) if op[0] != "fail"], successor)
    name = "every_interested_subscriber_notified_exactly_once"
    result = explorer.explore(no_failure, {name: O.invariants()[name]})
    assert set(taken) == {"subscribe", "unsubscribe", "leave", "join"}
    if states == 0:
        assert [step.action[0] for step in result.violations[name][1:]].count("fail") == 0
    else:
        assert name not in result.violations and result.states == states


def test_exhaustive_search_judges_each_network_once_and_each_order_apart(monkeypatch):
    """Model I's invariants keep each claim's verdict per (network, order): a network reached after
    another number of operations is judged once; one reached in another order is judged again
    (an OperationsRun's claims depend on the order)."""
    reading = I.READINGS["covering-ordered/repaired/smallest/resubscribe-uncovered"]
    net = I.network(I.Space(2, 2), ("00", "01"), reading.representative, reading.tables)
    net = I.operate(net, O.spec_operation(("subscribe", "01", 0)), reading)[0]
    judged = []
    real = O.subjects_of
    monkeypatch.setattr(O, "subjects_of", lambda state: judged.append(state) or real(state))
    plain = O.invariants()
    for done in (1, 3, 5):
        assert all(holds(O.OperationsState(done, net)) for holds in plain.values())
    assert len(judged) == 1
    ordered = O.invariants(ordered=True)
    verdicts = {order: {name: holds(O.OperationsState(2, net, order)) for name, holds in ordered.items()}
                for order in (I.SUBSCRIBING, I.CHANGED_AFTER_SUBSCRIBING, I.SUBSCRIBING)}
    assert len(judged) == 3
    changed = {p.name: all(p.predicate(I.OperationsRun(net, I.CHANGED_AFTER_SUBSCRIBING, r))
                           for r in O.runs_of(net)) for p in I.OPERATIONS_PROPERTIES}
    assert verdicts[I.CHANGED_AFTER_SUBSCRIBING] == changed
