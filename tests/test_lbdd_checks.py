"""The LBDD checkers: each must prove the corrected reading and reject the paper's literal one."""

import json

import attrs
import pytest

from checks import counterexample, engine, plugin, runner
from checks.algorithms import lbdd as C
from checks.algorithms.lbdd import proofs as P
from checks.verdict import CheckResult, Verdict
from spec import lbdd as L


def run(check, algorithm=C.ALGORITHM):
    """One declared check through the engine; the counterexample documents it writes, kept."""
    written = []

    def write(doc):
        written.append(doc)
        return f"cx-{len(written)}.json"

    return engine.run_check(check, engine.Context(algorithm, "default", write)), written


def by_property(results):
    return {r.property: r for r in results}


# --------------------------------------------------------------------------------------------
# Z3
# --------------------------------------------------------------------------------------------

def test_z3_proves_the_corrected_partition_for_all_sizes():
    assert P.prove_partition(L.CORRECTED)["verdict"] == Verdict.PROVED
    assert P.prove_partition(L.READINGS["ceil-ratio"])["verdict"] == Verdict.PROVED


@pytest.mark.parametrize("name, sizes", [("literal", (1, 1)), ("rank-from-0", (1, 1)),
                                         ("integer-ratio", (2, 1)), ("real-ratio", (2, 1))])
def test_z3_refutes_the_failing_readings_with_the_minimal_sizes(name, sizes):
    [result], [doc] = run(C.partition_proof(name))
    assert result.verdict is Verdict.VIOLATED and (doc["S"], doc["T"]) == sizes
    assert not L.schedule_partitions_targets(L.BucketSizes(doc["S"], doc["T"], L.READINGS[name]))
    assert C.replay(doc, say=lambda line: None).reproduced


def test_a_wrong_encoding_is_caught_by_the_cross_check_and_never_passes(monkeypatch):
    original = P.z3_bounds
    monkeypatch.setattr(P, "z3_bounds", lambda reading, r, s, t: (original(reading, r, s, t)[0],
                                                                  original(reading, r, s, t)[1] + 1))
    assert P.cross_check_partition_encoding(L.CORRECTED) > 0
    [result], _ = run(C.partition_proof("corrected"))
    assert result.verdict is Verdict.UNKNOWN


def test_one_way_lemmas_are_proved_the_property_holds_and_a_wrong_bucket_encoding_is_caught(monkeypatch):
    # Z3 proves the four lemmas, but the step from them to whole runs is not encoded (Algorithm 3
    # is not, and sending upward is Algorithm 1's definition): the record says holds, not proved
    assert P.prove_one_way()["verdict"] == Verdict.PROVED
    [result], _ = run(C.one_way_proof("corrected"))
    assert result.verdict is Verdict.HOLDS and result.cases == 4
    assert result.detail.startswith("lemmas proved for all sizes, the property within the step's bound")
    assert "Algorithm 3 is not encoded" in result.scope
    monkeypatch.setattr(P, "z3_bit_length", lambda d: P.z3_bucket_by_interval(d) + 1)
    assert P.cross_check_bucket_encoding() > 0
    assert P.prove_one_way()["verdict"] == Verdict.UNKNOWN


def test_one_way_rejects_a_planted_same_bucket_insertion():
    out = P.prove_one_way(L.CORRECTED, planted_same_bucket=True)
    assert out["verdict"] == Verdict.VIOLATED and "strictly higher bucket" in out["model"]["lemma"]


def test_the_selection_encoding_agrees_with_the_spec_and_a_wrong_one_does_not(monkeypatch):
    assert P.cross_check_selection_encoding(L.CORRECTED) == 0
    monkeypatch.setattr(P, "z3_inserted", lambda peer_bucket, self_no, planted=False: peer_bucket >= self_no)
    assert P.cross_check_selection_encoding(L.CORRECTED) > 0


# --------------------------------------------------------------------------------------------
# Readings and scopes
# --------------------------------------------------------------------------------------------

def test_each_method_checks_the_readings_it_can_tell_apart():
    assert C.ONE_WAY_READINGS == ("corrected", "literal", "zero-in-bucket0", "next-index")
    assert C.PARTITION_READINGS == ("corrected", "literal", "rank-from-0", "integer-ratio", "real-ratio",
                                    "ceil-ratio")
    assert set(L.READINGS) - set(C.EXPLORED_READINGS) == {"packed-hash"}
    assert set(L.READINGS) - set(C.HYPOTHESIS_READINGS) == {"literal-path-update", "selfbucket-path-update",
                                                                "reselect-path-update"}
    assert C.CATALOGUE.names() == list(L.READINGS)
    with pytest.raises(ValueError, match="unknown reading"):
        C.CATALOGUE["typo"]


def test_the_default_scope_declares_one_check_per_key():
    keys = [k for check in C.checks(C.ALGORITHM.scope("default")) for k in check.keys()]
    assert len(keys) == len(set(keys)) == 2 * 6 + 4 + 7 * 12 + 7 * 10
    with pytest.raises(ValueError, match="unknown scope"):
        C.ALGORITHM.scope("huge")


# --------------------------------------------------------------------------------------------
# Exhaustive
# --------------------------------------------------------------------------------------------

TINY = C.Scope(spaces=(C.Space(bits=2, copies=1, depth=1),), partition_size=4, hypothesis_examples=30)


def test_exhaustive_exploration_counts_states_exactly():
    results, _ = run(C.exploration(TINY, "corrected"))
    # 4 publishers x 16 subscriber sets; recomputing path updates lead back into those states
    assert {(r.cases, r.states) for r in results} == {(64, 64)}
    assert {r.property for r in results if r.verdict is Verdict.VIOLATED} == {
        "buckets_at_most_log2_n", "mean_out_degree_of_all_nodes_is_two"}


def test_the_depth_bound_stops_failures_and_joins():
    one, _ = run(C.exploration(C.Scope((C.Space(2, 2, 1),), 4, 30), "literal-path-update"))
    two, _ = run(C.exploration(C.Scope((C.Space(2, 2, 2),), 4, 30), "literal-path-update"))
    assert one[0].states < two[0].states and one[0].cases == two[0].cases


@pytest.mark.parametrize("reading, event", [("literal-path-update", "join"), ("reselect-path-update", "fail")])
def test_exhaustive_exploration_finds_the_path_update_bugs_with_a_shortest_trace(reading, event):
    # the printed SelectTargets(BucketNo) loses a subscriber on one join already; the repair
    # (reselect the node's own next bucket) only on a failure in a bucket it keeps a stale rank of
    space = C.Scope(spaces=(C.Space(bits=3, copies=1, depth=1),), partition_size=4, hypothesis_examples=30)
    results, written = run(C.exploration(space, reading))
    reached = by_property(results)["every_subscriber_reached"]
    assert reached.verdict is Verdict.VIOLATED and reached.detail == "shortest trace: 1 event(s)"
    doc = next(d for d in written if d["property"] == "every_subscriber_reached")
    assert len(doc["events"]) == 1 and event in doc["events"][0]  # an initial tree, then one event
    reproduced, final = C.replay_tree(doc, say=lambda line: None)
    assert reproduced and not L.every_subscriber_reached(final)


def test_several_spaces_are_one_check_with_their_counts_summed():
    spaces = (C.Space(2, 2, 1), C.Space(2, 1, 1))
    both, _ = run(C.exploration(C.Scope(spaces, 4, 30), "literal"))
    alone = [run(C.exploration(C.Scope((space,), 4, 30), "literal"))[0] for space in spaces]
    for prop in C.EVERY_RUN:
        parts = [by_property(results)[prop] for results in alone]
        combined = by_property(both)[prop]
        assert (combined.states, combined.cases) == (sum(r.states for r in parts), sum(r.cases for r in parts))
        assert (combined.verdict is Verdict.VIOLATED) == any(r.verdict is Verdict.VIOLATED for r in parts)


def test_the_partition_is_enumerated_over_every_size():
    results, written = run(C.partition_enumeration(TINY, "integer-ratio"))
    [result] = results
    assert result.cases == 4 * 5 and result.verdict is Verdict.VIOLATED
    assert (written[0]["S"], written[0]["T"]) == (2, 1) and result.detail == "first failure S=2, T=1"
    assert run(C.partition_enumeration(TINY, "corrected"))[0][0].verdict is Verdict.HOLDS


def test_a_timeout_is_unknown_never_holds():
    hurried = attrs.evolve(C.ALGORITHM, deadline_seconds=0.0)
    results = engine.run_algorithm(hurried, "default", lambda doc: "x.json", methods={"exhaustive"})
    tree_results = [r for r in results if r.property == "no_cycle"]
    assert tree_results and all(r.verdict == Verdict.UNKNOWN for r in tree_results)


# --------------------------------------------------------------------------------------------
# Hypothesis
# --------------------------------------------------------------------------------------------

def test_hypothesis_search_shrinks_a_counterexample():
    more = attrs.evolve(TINY, hypothesis_examples=100)
    [result], [doc] = run(C.search(more, "every_subscriber_reached", "literal"))
    assert result.verdict is Verdict.VIOLATED and len(doc["subscribers"]) == 1
    assert C.replay(doc, say=lambda line: None).reproduced
    [result], _ = run(C.search(TINY, "no_cycle", "corrected"))
    assert result.verdict is Verdict.HOLDS  # not vacuous: some view reached the witness
    [result], _ = run(C.search(TINY, "no_cycle", "packed-hash"))
    assert result.verdict is Verdict.HOLDS


def test_a_hypothesis_pass_without_its_witness_is_unknown(monkeypatch):
    from spec import registry

    prop = registry.get("lbdd", "no_cycle")
    monkeypatch.setitem(registry._REGISTRY, ("lbdd", "no_cycle"), attrs.evolve(prop, witness=lambda run: False))
    keys = {("no_cycle", r, "hypothesis") for r in ("corrected", "no-tie-break")}
    results = engine.run_algorithm(C.ALGORITHM, "default", lambda doc: "x.json", methods={"hypothesis"}, keys=keys)
    assert len(results) == 2 and {r.verdict for r in results} == {Verdict.UNKNOWN}


# --------------------------------------------------------------------------------------------
# Counterexample files
# --------------------------------------------------------------------------------------------

def test_counterexample_files_replay_and_draw(tmp_path):
    doc = C.view_document("every_subscriber_reached", "literal", "test", L.abstract_view(0, [5, 6]))
    path = counterexample.store(doc, tmp_path)
    lines = []
    assert counterexample.replay(path, say=lines.append, png=str(tmp_path / "cx.png"))
    assert any("VIOLATED" in line for line in lines) and (tmp_path / "cx.png").stat().st_size > 1000
    schedule = counterexample.store(C.schedule_document("literal", "test", 1, 1), tmp_path)
    assert counterexample.replay(schedule, say=lines.append)
    # a schedule has no copy graph: it is drawn as Algorithm 2's partition grid
    assert counterexample.replay(schedule, say=lines.append, png=str(tmp_path / "schedule.png"))
    assert (tmp_path / "schedule.png").stat().st_size > 1000
    (tmp_path / "bad.json").write_text("{")
    with pytest.raises(ValueError, match="is not JSON"):
        counterexample.replay(tmp_path / "bad.json")


def test_a_replay_draws_the_copy_graph(tmp_path):
    doc = C.view_document("no_cycle", "literal", "test", L.abstract_view(0, [5, 6]))
    replayed = C.replay(doc, say=lambda line: None)
    assert not replayed.reproduced and replayed.draw is not None
    replayed.draw(str(tmp_path / "tree.png"), "a tree")
    assert (tmp_path / "tree.png").stat().st_size > 1000
    schedule = C.replay(C.schedule_document("corrected", "test", 3, 7), say=lambda line: None)
    assert not schedule.reproduced and schedule.draw is not None
    schedule.draw(str(tmp_path / "schedule.png"), "a schedule")
    assert (tmp_path / "schedule.png").stat().st_size > 1000


@pytest.mark.parametrize("doc, message", [
    ({"algorithm": "lbdd", "property": "no_cycle"}, "unknown LBDD reading"),
    ({"algorithm": "lbdd", "property": "nope", "reading": "corrected"}, "unknown LBDD property"),
    ({"algorithm": "lbdd", "property": "no_cycle", "reading": "corrected", "publisher": {"address": "p", "digest": "7"},
      "subscribers": []}, "the publisher must be"),
    ({"algorithm": "lbdd", "property": "no_cycle", "reading": "corrected", "publisher": {"address": "p", "digest": 7},
      "subscribers": [], "events": [{"crash": "x"}]}, "an event is"),
    ({"algorithm": "lbdd", "property": "schedule_partitions_targets", "reading": "literal", "kind": "schedule",
      "S": 0, "T": 1}, "S >= 1"),
])
def test_a_malformed_counterexample_is_refused_by_name(doc, message):
    with pytest.raises(ValueError, match=message):
        C.ALGORITHM.replay(doc, lambda line: None)


# --------------------------------------------------------------------------------------------
# The manifest
# --------------------------------------------------------------------------------------------

def test_the_manifest_comparison_flags_a_changed_verdict_or_state_count():
    result = CheckResult("lbdd", "no_cycle", "c", "exhaustive", Verdict.HOLDS, "s", states=10)
    manifest = {"default": {result.key: {"verdict": "holds", "states": 10}}}
    assert runner.compare([result], manifest, "default") == []
    manifest["default"][result.key]["states"] = 11
    assert "expected 11 states" in runner.compare([result], manifest, "default")[0]
    manifest["default"][result.key] = {"verdict": "violated"}
    assert "expected violated, got holds" in runner.compare([result], manifest, "default")[0]
    assert "not in the manifest" in runner.compare([result], {}, "default")[0]
    enumerated = CheckResult("lbdd", "no_cycle", "c", "exhaustive", Verdict.HOLDS, "s", cases=7)
    assert runner.expected_entry(enumerated)["cases"] == 7  # an enumeration pins its cases
    pinned = {"default": {enumerated.key: {"verdict": "holds", "cases": 8}}}
    assert "expected 8 cases, enumerated 7" in runner.compare([enumerated], pinned, "default")[0]


def test_a_manifest_check_that_stops_running_fails_make_check(tmp_path):
    manifest = {"default": {"lbdd/ghost/corrected/z3": {"verdict": "proved"},
                            "lbdd/schedule_partitions_targets/corrected/z3": {"verdict": "proved"}}}
    path = tmp_path / "manifest.json"
    path.write_text(json.dumps(manifest))
    algorithm = attrs.evolve(C.ALGORITHM, manifest=path, checks=lambda scope: [C.partition_proof("corrected")])
    _, problems = runner.run([algorithm], methods={"z3"}, report=str(tmp_path / "check.json"))
    assert problems == ["lbdd/ghost/corrected/z3: in the manifest but produced no result"]


def test_the_manifest_covers_every_default_check():
    manifest = json.loads(C.ALGORITHM.manifest.read_text())["default"]
    methods = {key.split("/")[-1] for key in manifest}
    assert methods == {"z3", "exhaustive", "hypothesis", "spark"}
    declared = {f"lbdd/{p}/{r}/{m}" for check in C.checks(C.ALGORITHM.scope("default")) for p, r, m in check.keys()}
    assert declared == {key for key in manifest if not key.endswith("/spark")}
    assert all("states" in v for k, v in manifest.items() if k.endswith("/exhaustive")
               and not k.startswith("lbdd/schedule_partitions_targets"))


def test_only_the_partition_proof_is_of_the_property_itself():
    """LBDD's partition is the property (disjoint and covered); the one-way proof is of lemmas and
    names its unproved step (the honesty audit of every algorithm: tests/test_honesty.py)."""
    algorithm = plugin.algorithm("lbdd")
    proofs = [c for c in algorithm.checks(algorithm.scope("default")) if isinstance(c, plugin.Proof)]
    assert all(c.unproved_step is None for c in proofs if c.property == "schedule_partitions_targets")
    assert all("Algorithm 3 is not encoded" in c.unproved_step for c in proofs if c.property == "one_way_dissemination")
    assert {c.property for c in proofs} == {"schedule_partitions_targets", "one_way_dissemination"}
