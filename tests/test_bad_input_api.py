"""Every public function of spec/ and reference/ refuses a value outside its model with a
TypeError (wrong type) or ValueError (out of range) whose message names the value or the
parameter; valid corner cases (no subscribers, an empty filter) give a result that says so.
(The CLI's own bad-input table is tests/test_bad_input.py.)"""

import networkx as nx
import numpy as np
import pytest

from reference import generators as G
from reference import irbr as RI
from reference import lbdd as RL
from reference import scot as RS
from spec import irbr as I
from spec import lbdd as L
from spec import scot as S

C = L.CORRECTED
VIEW = L.abstract_view(0, [1, 2, 3])
STATE = L.initial_state(VIEW, C)
P, A = L.Node(0, "p"), L.Node(1, "s1")
SUBS = ["10.0.0.1", "10.0.0.2"]
TREE = RL.build(SUBS, "10.0.0.9")
SCOT = S.build(nx.path_graph(3), 2)
TREES = {h: RS.subscription_tree(SCOT, h) for h in SCOT.brokers()}
B = S.subscribe(SCOT, (0, 0))
SPACE = I.Space(4, 3)
NET = I.network(SPACE, ["011", "201", "213"])
F = I.parse_filter("x in 1..5")
RNET = RI.Network(4, 3, ["011", "201", "213"])
SCRIBE = RI.Scribe(4, 3, ["011", "201", "213"])
FLIGHT = I.Flight(NET)
SCRIPT = (("subscribe", "011", F),)
RNG = np.random.default_rng(0)


def rng():
    return np.random.default_rng(0)


# (id, call, exception type, text the message must contain: the value's repr or the parameter)
CASES = [
    # ---- digests: 32 bits, non-negative ----
    ("lbdd-distance-40bit", lambda: L.distance(2 ** 40, 1), ValueError, "1099511627776"),
    ("lbdd-distance-negative", lambda: L.distance(-1, 1), ValueError, "-1"),
    ("lbdd-distance-2**32", lambda: L.distance(0, 2 ** 32), ValueError, "4294967296"),
    ("lbdd-bucket-number-negative", lambda: L.bucket_number(-5), ValueError, "-5"),
    ("lbdd-abstract-view-publisher-40bit", lambda: L.abstract_view(2 ** 40, [1]), ValueError, "publisher_digest"),
    ("lbdd-abstract-view-subscriber-negative", lambda: L.abstract_view(0, [1, -3]), ValueError, "-3"),
    ("lbdd-view-node-digest-too-big", lambda: L.View(L.Node(2 ** 32, "p"), ()), ValueError, "4294967296"),
    ("lbdd-join-digest-too-big", lambda: L.join(STATE, L.Node(2 ** 33, "new"), C), ValueError, "8589934592"),
    ("ref-lbdd-disseminate-digest-too-big", lambda: RL.disseminate(np.array([2 ** 32]), 0, C), ValueError,
     "4294967296"),
    ("ref-lbdd-disseminate-digest-negative", lambda: RL.disseminate(np.array([-2]), 0, C), ValueError, "-2"),
    ("ref-lbdd-disseminate-publisher-too-big", lambda: RL.disseminate(np.array([1]), 2 ** 32, C), ValueError,
     "publisher_digest"),
    ("gen-dotted-too-big", lambda: G.dotted(np.array([2 ** 32])), ValueError, "4294967296"),
    ("gen-dotted-negative", lambda: G.dotted(np.array([-1])), ValueError, "-1"),
    # ---- ranks ----
    ("lbdd-local-schedule-rank-above", lambda: L.local_schedule(VIEW, A, C, rank=9), ValueError, "9"),
    ("lbdd-local-schedule-rank-below", lambda: L.local_schedule(VIEW, A, C, rank=0), ValueError, "rank"),
    ("lbdd-local-schedule-rank-str", lambda: L.local_schedule(VIEW, A, C, rank="1"), TypeError, "'1'"),
    ("lbdd-owned-indices-rank-float", lambda: L.owned_indices(1.5, 2, 3, C), TypeError, "1.5"),
    ("lbdd-owned-indices-rank-bool", lambda: L.owned_indices(True, 2, 3, C), TypeError, "rank"),
    ("lbdd-select-targets-rank-none", lambda: L.select_targets(None, 1, [A], C), TypeError, "None"),
    # ---- links and nodes that do not exist ----
    ("lbdd-bucket-of-stranger", lambda: L.bucket_of(L.Node(9, "x"), VIEW, C), ValueError, "'x'"),
    ("lbdd-bucket-construction-stranger", lambda: L.bucket_construction(VIEW, L.Node(9, "x"), C), ValueError,
     "'x'"),
    ("lbdd-local-schedule-stranger", lambda: L.local_schedule(VIEW, L.Node(9, "x"), C), ValueError, "'x'"),
    ("lbdd-state-schedule-stranger", lambda: STATE.schedule("nobody"), ValueError, "'nobody'"),
    ("lbdd-fail-stranger", lambda: L.fail(STATE, "nobody", C), ValueError, "'nobody'"),
    ("lbdd-dissemination-edge-past-end", lambda: L.Dissemination(("p", "a"), (0, 1), ((0, 7),)), ValueError,
     "(0, 7)"),
    ("lbdd-dissemination-edge-negative", lambda: L.Dissemination(("p", "a"), (0, 1), ((-1, 1),)), ValueError,
     "(-1, 1)"),
    ("ref-lbdd-tree-receiver-past-end",
     lambda: RL.Tree(np.zeros(2, np.uint64), np.array([0, 1]), np.array([0]), np.array([5])), ValueError,
     "receivers"),
    ("scot-subscribe-no-broker", lambda: S.subscribe(SCOT, (7, 0)), ValueError, "(7, 0)"),
    ("scot-subscribe-cluster-out-of-range", lambda: S.subscribe(SCOT, (0, 2)), ValueError, "(0, 2)"),
    ("scot-deliver-not-in-flight", lambda: S.deliver(SCOT, B, ((0, 0), (2, 0), S.PRIMARY)), ValueError,
     "not in flight"),
    ("scot-distance-no-broker", lambda: S.distance(SCOT, (0, 0), (9, 9)), ValueError, "(9, 9)"),
    ("scot-snr-publisher-missing", lambda: S.snr(SCOT, (5, 0), [(1, 0)], TREES), ValueError, "publisher"),
    ("scot-snr-host-missing", lambda: S.snr(SCOT, (0, 0), [(1, 5)], TREES), ValueError, "(1, 5)"),
    ("scot-snr-no-tree-for-host", lambda: S.snr(SCOT, (0, 0), [(1, 0)], {}), ValueError, "(1, 0)"),
    ("scot-bid-host-missing", lambda: S.bid_routing(SCOT, (0, 0), [(4, 0)], TREES), ValueError, "(4, 0)"),
    ("scot-dnr-congested-not-a-link",
     lambda: S.dnr(SCOT, (0, 0), [(2, 1)], TREES, frozenset({((0, 0), (2, 0))})), ValueError, "((0, 0), (2, 0))"),
    ("scot-dnr-congested-no-broker",
     lambda: S.dnr(SCOT, (0, 0), [(2, 1)], TREES, frozenset({((0, 0), (0, 9))})), ValueError, "(0, 9)"),
    ("ref-scot-subscription-tree-no-broker", lambda: RS.subscription_tree(SCOT, (3, 0)), ValueError, "(3, 0)"),
    ("ref-scot-flooding-tree-no-broker", lambda: RS.flooding_tree(SCOT, (0, 7)), ValueError, "(0, 7)"),
    ("ref-scot-flooding-tree-until-missing", lambda: RS.flooding_tree(SCOT, (0, 0), until=(8, 8)), ValueError,
     "(8, 8)"),
    ("ref-scot-broadcast-no-broker", lambda: RS.broadcast(SCOT, "B1"), ValueError, "'B1'"),
    ("ref-scot-snr-publisher-missing", lambda: RS.snr(SCOT, (9, 0), [(1, 0)]), ValueError, "(9, 0)"),
    ("ref-scot-dnr-host-missing", lambda: RS.dnr(SCOT, (0, 0), [(9, 1)]), ValueError, "(9, 1)"),
    ("ref-scot-delays-missing-link", lambda: RS.flooding_tree_with_delays(SCOT, (0, 0), {}), ValueError, "link"),
    ("ref-scot-tree-parents-root-missing", lambda: RS.tree_parents_toward(nx.path_graph(3), 7), ValueError, "7"),
    ("ref-scot-simulate-publisher-missing",
     lambda: RS.simulate(SCOT, [RS.Publication(0, (9, 0), frozenset({(1, 0)}))], "snr"), ValueError, "(9, 0)"),
    ("ref-scot-simulate-host-missing",
     lambda: RS.simulate(SCOT, [RS.Publication(0, (0, 0), frozenset({(1, 3)}))], "snr"), ValueError, "(1, 3)"),
    ("irbr-table-not-live", lambda: NET.table("333"), ValueError, "'333'"),
    ("irbr-ft-not-live", lambda: NET.ft("333"), ValueError, "'333'"),
    ("irbr-broadcast-origin-not-live", lambda: I.broadcast(NET, "333", 0), ValueError, "'333'"),
    ("irbr-subscribe-not-live", lambda: I.subscribe(NET, "000", F), ValueError, "'000'"),
    ("irbr-publish-not-live", lambda: I.publish(NET, "000", {"x": 1}), ValueError, "'000'"),
    ("irbr-leave-not-live", lambda: I.leave(NET, "000"), ValueError, "'000'"),
    ("irbr-fail-not-live", lambda: I.fail(NET, ["000"]), ValueError, "000"),
    ("irbr-join-outside-base", lambda: I.join(NET, "019"), ValueError, "'019'"),
    ("irbr-routing-table-bad-id", lambda: I.routing_table(SPACE, "01", ["011"]), ValueError, "'01'"),
    ("irbr-deliver-not-in-flight", lambda: I.deliver(FLIGHT, SCRIPT, ("sub", "011", F, "011", "201", "2", 0)),
     ValueError, "not in flight"),
    ("irbr-start-past-script", lambda: I.start(FLIGHT, SCRIPT, 3), ValueError, "3"),
    ("irbr-withdraw-nothing-waiting", lambda: I.withdraw(FLIGHT, SCRIPT, 0), ValueError, "0"),
    ("ref-irbr-filter-table-not-live", lambda: RI.Network(4, 3, ["011"]).filter_table("333"), ValueError, "'333'"),
    ("ref-irbr-scribe-subscribe-not-live", lambda: RI.Scribe(4, 3, ["011"]).subscribe("222", F), ValueError,
     "'222'"),
    ("ref-irbr-scribe-route-not-live", lambda: SCRIBE.route("333"), ValueError, "'333'"),
    ("ref-irbr-publish-not-live", lambda: RNET.publish("000", {"x": 1}), ValueError, "'000'"),
    # ---- filters ----
    ("irbr-parse-filter-bounded-twice", lambda: I.parse_filter("x = 1 & x = 2"), ValueError, "'x'"),
    ("irbr-parse-filter-low-twice", lambda: I.parse_filter("x >= 1 & x >= 2 & x <= 5"), ValueError, "'x'"),
    ("irbr-parse-filter-no-operator", lambda: I.parse_filter("x"), ValueError, "'x'"),
    ("irbr-parse-filter-open-range", lambda: I.parse_filter("x <= 4"), ValueError, "'x'"),
    ("irbr-parse-filter-range-syntax", lambda: I.parse_filter("x in 1-5"), ValueError, "'1-5'"),
    ("irbr-parse-filter-mixed-types", lambda: I.parse_filter('x in 1.."b"'), ValueError, "'x'"),
    ("irbr-make-filter-triple", lambda: I.make_filter(x=(1, 2, 3)), ValueError, "(1, 2, 3)"),
    ("irbr-make-filter-bool", lambda: I.make_filter(x=True), ValueError, "True"),
    ("irbr-make-filter-float", lambda: I.make_filter(x=(1.0, 2.0)), ValueError, "(1.0, 2.0)"),
    ("irbr-constraint-mixed", lambda: I.Constraint("x", 1, "z"), TypeError, "'z'"),
    ("irbr-filter-duplicate-attribute",
     lambda: I.Filter((I.Constraint("x", 1, 2), I.Constraint("x", 3, 4))), ValueError, "'x'"),
    ("irbr-filter-list-of-constraints", lambda: I.Filter([I.Constraint("x", 1, 2)]), TypeError, "constraints"),
    ("irbr-covering-question-not-filter", lambda: I.CoveringQuestion(F, "x in 1..2"), TypeError, "f2"),
    ("ref-irbr-subscribe-bad-filter-text", lambda: RI.Network(4, 3, ["011"]).subscribe("011", "x ~ 1"),
     ValueError, "'x ~ 1'"),
    # ---- sizes: zero, negative, absurd ----
    ("lbdd-owned-indices-self-size-0", lambda: L.owned_indices(1, 0, 3, C), ValueError, "self_size"),
    ("lbdd-owned-indices-target-negative", lambda: L.owned_indices(1, 2, -1, C), ValueError, "target_size"),
    ("lbdd-bucket-sizes-zero", lambda: L.BucketSizes(0, 3, C), ValueError, "self_size"),
    ("lbdd-bucket-sizes-negative-target", lambda: L.BucketSizes(1, -2, C), ValueError, "-2"),
    ("ref-lbdd-owned-bounds-s-zero", lambda: RL.owned_bounds(np.array([1]), 0, 3, "floored"), ValueError, "s "),
    ("ref-lbdd-point-to-point-negative", lambda: RL.point_to_point(-3), ValueError, "-3"),
    ("ref-lbdd-random-topology-zero", lambda: RL.random_topology(1, max_subscribers=0), ValueError,
     "max_subscribers"),
    ("ref-lbdd-random-topology-absurd", lambda: RL.random_topology(1, max_subscribers=2 ** 40), ValueError,
     "1099511627776"),
    ("gen-log-uniform-low-zero", lambda: G.log_uniform_int(rng(), 0, 5), ValueError, "low=0"),
    ("gen-log-uniform-low-above-high", lambda: G.log_uniform_int(rng(), 5, 2), ValueError, "high=2"),
    ("gen-distinct-uint32-negative", lambda: G.distinct_uint32(rng(), -1), ValueError, "-1"),
    ("gen-distinct-uint32-absurd", lambda: G.distinct_uint32(rng(), 2 ** 32 + 1), ValueError, "4294967297"),
    ("gen-rng-for-negative-seed", lambda: G.rng_for("lbdd", -1), ValueError, "-1"),
    ("scot-build-m-zero", lambda: S.build(nx.path_graph(2), 0), ValueError, "m >= 1"),
    ("scot-cluster-bit-negative", lambda: S.cluster_bit(-1), ValueError, "-1"),
    ("scot-dnr-step-cbv-negative", lambda: S.dnr_step((0, 0), [], [], -1, frozenset(), "dnr-skip-congested-acols"), ValueError,
     "-1"),
    ("ref-scot-random-tree-zero", lambda: RS.random_tree(rng(), 0), ValueError, "0"),
    ("ref-scot-random-scenario-zero", lambda: RS.random_scenario(1, max_m=0), ValueError, "max_m"),
    ("ref-scot-simulate-window-zero", lambda: RS.simulate(SCOT, [], "snr", window=0), ValueError, "window"),
    ("ref-scot-simulate-max-ticks-negative", lambda: RS.simulate(SCOT, [], "snr", max_ticks=-1), ValueError,
     "max_ticks"),
    ("ref-scot-delays-negative", lambda: RS.flooding_tree_with_delays(
        SCOT, (0, 0), {k: -1.0 for k in RS.random_link_delays(SCOT, rng(), 0.0)}), ValueError, "-1.0"),
    ("ref-scot-random-delays-negative-spread", lambda: RS.random_link_delays(SCOT, rng(), -0.5), ValueError,
     "-0.5"),
    ("irbr-space-k-1", lambda: I.Space(1, 3), ValueError, "base k"),
    ("irbr-space-L-0", lambda: I.Space(4, 0), ValueError, "length L"),
    ("irbr-broadcast-level-past-L", lambda: I.broadcast(NET, "011", 4), ValueError, "from_level"),
    ("ref-irbr-random-workload-large-every-0", lambda: RI.random_workload(1, large_every=0), ValueError,
     "large_every"),
    ("ref-irbr-random-workload-small-nodes-1", lambda: RI.random_workload(1, small_nodes=1), ValueError,
     "small_nodes"),
    ("ref-irbr-random-workload-max-nodes-1", lambda: RI.random_workload(1, max_nodes=1), ValueError, "max_nodes"),
    # ---- types: a str for a list, a bool or float for an int, a name for an object ----
    ("lbdd-distance-bool", lambda: L.distance(True, 1), TypeError, "True"),
    ("lbdd-distance-str", lambda: L.distance("5", 1), TypeError, "'5'"),
    ("lbdd-abstract-view-str", lambda: L.abstract_view(0, "123"), TypeError, "'123'"),
    ("lbdd-view-str-subscribers", lambda: L.View(P, "s1"), TypeError, "'s1'"),
    ("lbdd-view-publisher-tuple", lambda: L.View((0, "p"), ()), TypeError, "(0, 'p')"),
    ("lbdd-initial-state-reading-name", lambda: L.initial_state(VIEW, "corrected"), TypeError, "'corrected'"),
    ("lbdd-build-dissemination-reading-none", lambda: L.build_dissemination(VIEW, None), TypeError, "reading"),
    ("lbdd-reading-named-list", lambda: L.reading_named(["corrected"]), TypeError, "['corrected']"),
    ("lbdd-node-at-reading-str", lambda: L.node_at("10.0.0.1", "corrected"), TypeError, "'corrected'"),
    ("lbdd-md5-hash-input", lambda: L.md5_digest("10.0.0.1", "utf8"), ValueError, "'utf8'"),
    ("lbdd-bucket-sizes-float", lambda: L.BucketSizes(2.0, 3, C), TypeError, "2.0"),
    ("lbdd-join-tuple-node", lambda: L.join(STATE, (5, "n"), C), TypeError, "(5, 'n')"),
    ("ref-lbdd-build-subscribers-int", lambda: RL.build(5, "10.0.0.9"), TypeError, "5"),
    ("ref-lbdd-build-reading-int", lambda: RL.build(SUBS, "10.0.0.9", reading=3), TypeError, "3"),
    ("ref-lbdd-disseminate-str-digests", lambda: RL.disseminate(np.array(["a"]), 0, C), TypeError, "dtype"),
    ("ref-lbdd-disseminate-tie-order-short", lambda: RL.disseminate(np.array([1, 2]), 0, C, np.array([0])),
     ValueError, "tie_order"),
    ("ref-lbdd-owned-bounds-ratio", lambda: RL.owned_bounds(np.array([1]), 1, 3, "round"), ValueError, "'round'"),
    ("ref-lbdd-point-to-point-bool", lambda: RL.point_to_point(True), TypeError, "True"),
    ("ref-lbdd-depth-dict", lambda: RL.depth({"a": "b"}), TypeError, "tree"),
    ("ref-lbdd-as-dissemination-addresses-short", lambda: RL.as_dissemination(TREE, ["p"]), ValueError, "buckets"),
    ("ref-lbdd-fast-digests-hash-input", lambda: RL.fast_digests(SUBS, "sha"), ValueError, "'sha'"),
    ("ref-lbdd-fast-digests-str", lambda: RL.fast_digests("10.0.0.1"), TypeError, "'10.0.0.1'"),
    ("gen-rng-for-float-seed", lambda: G.rng_for("lbdd", 1.5), TypeError, "1.5"),
    ("gen-rng-for-str-seed", lambda: G.rng_for("lbdd", "7"), TypeError, "'7'"),
    ("gen-rng-for-bool-seed", lambda: G.rng_for("lbdd", True), TypeError, "True"),
    ("gen-log-uniform-rng-seed", lambda: G.log_uniform_int(7, 1, 5), TypeError, "rng"),
    ("gen-distinct-uint32-float", lambda: G.distinct_uint32(rng(), 2.5), TypeError, "2.5"),
    ("gen-dotted-str", lambda: G.dotted("1.2.3.4"), TypeError, "'1.2.3.4'"),
    ("scot-build-list", lambda: S.build([(0, 1)], 2), TypeError, "list"),
    ("scot-subscribe-protocol", lambda: S.subscribe(SCOT, (0, 0), "gossip"), ValueError, "'gossip'"),
    ("scot-cluster-bit-bool", lambda: S.cluster_bit(True), TypeError, "True"),
    ("scot-snr-hosts-one-broker", lambda: S.snr(SCOT, (0, 0), (1, 0), TREES), TypeError, "(1, 0)"),
    ("scot-snr-hosts-str", lambda: S.snr(SCOT, (0, 0), "B(1,0)", TREES), TypeError, "'B(1,0)'"),
    ("scot-dnr-step-reading", lambda: S.dnr_step((0, 0), [], [], 0, frozenset(), "snr"), ValueError, "'snr'"),
    ("scot-dnr-step-cbv-str", lambda: S.dnr_step((0, 0), [], [], "1", frozenset(), "dnr-skip-congested-acols"), TypeError,
     "'1'"),
    ("scot-readings-of-unknown", lambda: S.readings_of("routers"), ValueError, "'routers'"),
    ("scot-properties-of-list", lambda: S.properties_of(["snr"]), TypeError, "['snr']"),
    ("scot-broadcast-order-int", lambda: S.broadcast_to_the_end(SCOT, (0, 0), order=3), TypeError, "3"),
    ("ref-scot-broadcast-protocol", lambda: RS.broadcast(SCOT, (0, 0), "gossip"), ValueError, "'gossip'"),
    ("ref-scot-dnr-congested-str", lambda: RS.dnr(SCOT, (0, 0), [(1, 0)], "(0,0)-(1,0)"), TypeError,
     "'(0,0)-(1,0)'"),
    ("ref-scot-sbp-messages-graph", lambda: RS.sbp_messages(nx.path_graph(3)), TypeError, "scot"),
    ("ref-scot-random-tree-float", lambda: RS.random_tree(rng(), 2.5), TypeError, "2.5"),
    ("ref-scot-random-scenario-float", lambda: RS.random_scenario(1, max_tree=2.5), TypeError, "2.5"),
    ("ref-scot-simulate-publication-tuple", lambda: RS.simulate(SCOT, [(0, (0, 0), frozenset())], "snr"),
     TypeError, "Publication"),
    ("ref-scot-simulate-window-float", lambda: RS.simulate(SCOT, [], "snr", window=0.5), TypeError, "0.5"),
    ("irbr-space-k-str", lambda: I.Space("4", 3), TypeError, "'4'"),
    ("irbr-space-L-bool", lambda: I.Space(4, True), TypeError, "True"),
    ("irbr-parse-filter-int", lambda: I.parse_filter(5), TypeError, "5"),
    ("irbr-network-ids-str", lambda: I.network(SPACE, "011"), TypeError, "'011'"),
    ("irbr-fail-str", lambda: I.fail(NET, "011"), TypeError, "'011'"),
    ("irbr-subscribe-text-filter", lambda: I.subscribe(NET, "011", "x in 1..5"), TypeError, "'x in 1..5'"),
    ("irbr-subscribe-covering-typo", lambda: I.subscribe(NET, "011", F, "coverd"), ValueError, "'coverd'"),
    ("irbr-leave-handling-typo", lambda: I.leave(NET, "011", handling="ignore"), ValueError, "'ignore'"),
    ("irbr-publish-event-list", lambda: I.publish(NET, "011", [("x", 1)]), TypeError, "[('x', 1)]"),
    ("irbr-publish-event-float", lambda: I.publish(NET, "011", {"x": 1.5}), TypeError, "1.5"),
    ("irbr-interested-event-bool", lambda: I.interested(NET, {"x": True}), TypeError, "True"),
    ("irbr-operate-short-op", lambda: I.operate(NET, ("subscribe", "011")), ValueError, "('subscribe', '011')"),
    ("irbr-operate-reading-str", lambda: I.operate(NET, ("fail", "011"), "repaired"), TypeError, "'repaired'"),
    ("irbr-choose-representative-empty", lambda: I.choose_representative("011", "2", [], "smallest"), ValueError,
     "'2'"),
    ("irbr-routing-table-representative", lambda: I.routing_table(SPACE, "011", ["201"], "nearest"), ValueError,
     "'nearest'"),
    ("irbr-start-k-str", lambda: I.start(FLIGHT, SCRIPT, "0"), TypeError, "'0'"),
    ("ref-irbr-subscribe-int-filter", lambda: RI.Network(4, 3, ["011"]).subscribe("011", 5), TypeError, "5"),
    ("ref-irbr-fail-str", lambda: RI.Network(4, 3, ["011", "201"]).fail("011"), TypeError, "'011'"),
    ("ref-irbr-publish-event-list", lambda: RNET.publish("011", ["x"]), TypeError, "['x']"),
    ("ref-irbr-scribe-publish-event-float", lambda: SCRIBE.publish("011", {"x": 0.5}), TypeError, "0.5"),
    ("ref-irbr-scribe-fail-str", lambda: RI.Scribe(4, 3, ["011", "201"]).fail("011"), TypeError, "'011'"),
    ("ref-irbr-network-ids-str", lambda: RI.Network(4, 3, "011"), TypeError, "'011'"),
    ("ref-irbr-random-filter-seed", lambda: RI.random_filter(0), TypeError, "rng"),
    ("ref-irbr-random-workload-float", lambda: RI.random_workload(1, max_operations=3.5), TypeError, "3.5"),
    ("ref-irbr-replay-unknown-op", lambda: RI.Workload(4, 3, ("011",), (("explode", "011", None),)).replay(
        RI.Network(4, 3, ["011"])), ValueError, "'explode'"),
    # ---- empty inputs that the model does not allow ----
    ("lbdd-dissemination-no-members", lambda: L.Dissemination((), (), ()), ValueError, "publisher"),
    ("irbr-network-no-nodes", lambda: I.network(SPACE, []), ValueError, "at least one node"),
    ("irbr-parse-filter-blank", lambda: I.parse_filter("  "), ValueError, "at least one constraint"),
    ("irbr-constraint-empty-attribute", lambda: I.Constraint("", 1, 2), TypeError, "''"),
    ("scot-build-empty-tree", lambda: S.build(nx.Graph(), 2), ValueError, "no vertices"),
    ("ref-lbdd-tree-no-members",
     lambda: RL.Tree(np.zeros(0, np.uint64), np.zeros(0, np.int64), np.zeros(0, np.int64), np.zeros(0, np.int64)),
     ValueError, "publisher"),
    ("ref-irbr-scribe-no-nodes", lambda: RI.Scribe(4, 3, []), ValueError, "at least one node"),
]


@pytest.mark.parametrize("call, kind, text", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_bad_input_is_refused_naming_the_value(call, kind, text):
    with pytest.raises(kind) as caught:
        call()
    assert text in str(caught.value), f"{type(caught.value).__name__}: {caught.value}"


def test_the_table_covers_every_kind_and_is_large():
    assert len(CASES) >= 80
    assert len({c[0] for c in CASES}) == len(CASES)


# ---- valid corner cases: the result says so rather than raising ----

def test_no_subscribers_is_a_run_of_the_publisher_alone():
    run = L.build_dissemination(L.abstract_view(5, []), C)
    assert run.n == 0 and run.edges == () and L.every_subscriber_reached(run) and L.exactly_n_copies(run)
    tree = RL.build([], "10.0.0.9")
    assert tree.n == 0 and RL.copies_sent(tree).tolist() == [0] and RL.build_tree([], "10.0.0.9") == {}
    assert RL.point_to_point(0).n == 0 and RL.contribution_rates(RL.point_to_point(0)).tolist() == [0.0]
    assert RL.disseminate(np.array([], dtype=np.uint64), 0, C).n == 0


def test_numpy_digests_and_extreme_32_bit_digests_are_accepted():
    assert L.distance(np.uint64(2 ** 32 - 1), 0) == 2 ** 32 - 1
    assert L.bucket_number(2 ** 32 - 1) == 32
    assert L.build_dissemination(L.abstract_view(2 ** 32 - 1, [0]), C).buckets == (0, 32)


def test_no_subscriber_hosts_routes_nothing():
    for routing in (S.snr(SCOT, (0, 0), [], TREES), RS.snr(SCOT, (0, 0), []), RS.bid(SCOT, (0, 0), []),
                    RS.dnr(SCOT, (0, 0), [])):
        assert routing.deliveries == () and routing.messages == 0


def test_an_empty_filter_is_a_subscription_that_matches_nothing():
    empty = I.parse_filter("x in 5..1")
    assert empty.is_empty() and not empty.matches({"x": 3}) and I.covers(F, empty)
    net, _ = I.subscribe(NET, "011", empty)
    assert I.interested(net, {"x": 3}) == [] and I.publish(net, "201", {"x": 3}).notified == ()
    ref = RI.Network(4, 3, ["011", "201", "213"])
    ref.subscribe("011", "x in 5..1")
    assert ref.publish("201", {"x": 3}).notified == ()
    assert str(I.make_filter()) == "true" and I.make_filter().matches({})  # no constraint: every event


def test_an_empty_event_and_a_range_given_by_two_bounds_are_accepted():
    assert I.parse_filter("x >= 1 & x <= 5") == I.parse_filter("x in 1..5")
    assert I.publish(NET, "011", {}).notified == ()
    assert I.covers_decides_covering(I.CoveringQuestion(F, I.parse_filter("x in 2..3")))
