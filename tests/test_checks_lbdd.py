"""The LBDD checkers: each must prove the corrected reading and reject the paper's literal one."""

import json

import pytest

from checks import counterexample, lbdd as C, runner
from checks.verdict import CheckResult, Verdict
from spec import lbdd as L


def test_z3_proves_the_corrected_partition_for_all_sizes():
    assert C.prove_partition(L.CORRECTED)["verdict"] == Verdict.PROVED
    assert C.prove_partition(L.READINGS["ceil-ratio"])["verdict"] == Verdict.PROVED


@pytest.mark.parametrize("name, sizes", [("literal", (1, 1)), ("rank-from-0", (1, 1)),
                                         ("integer-ratio", (2, 1)), ("real-ratio", (2, 1))])
def test_z3_refutes_the_failing_readings_with_the_minimal_sizes(name, sizes):
    out = C.prove_partition(L.READINGS[name])
    assert out["verdict"] == Verdict.VIOLATED and (out["S"], out["T"]) == sizes
    assert not L.schedule_partitions_targets(L.BucketSizes(out["S"], out["T"], L.READINGS[name]))


def test_a_wrong_encoding_is_caught_by_the_cross_check_and_never_passes(monkeypatch):
    original = C.z3_bounds
    monkeypatch.setattr(C, "z3_bounds", lambda reading, r, s, t: (original(reading, r, s, t)[0],
                                                                  original(reading, r, s, t)[1] + 1))
    assert C.cross_check_partition_encoding(L.CORRECTED) > 0
    assert C.prove_partition(L.CORRECTED)["verdict"] == Verdict.UNKNOWN


def test_one_way_dissemination_is_proved_and_a_wrong_bucket_encoding_is_caught(monkeypatch):
    assert C.prove_one_way()["verdict"] == Verdict.PROVED
    monkeypatch.setattr(C, "z3_bit_length", lambda d: C.z3_bucket_by_interval(d) + 1)
    assert C.cross_check_bucket_encoding() > 0
    assert C.prove_one_way()["verdict"] == Verdict.UNKNOWN


def test_one_way_rejects_a_planted_same_bucket_insertion():
    out = C.prove_one_way(L.CORRECTED, planted_same_bucket=True)
    assert out["verdict"] == Verdict.VIOLATED and "strictly higher bucket" in out["model"]["lemma"]


def test_the_selection_encoding_agrees_with_the_spec_and_a_wrong_one_does_not(monkeypatch):
    assert C.cross_check_selection_encoding(L.CORRECTED) == 0
    monkeypatch.setattr(C, "z3_inserted", lambda peer_bucket, self_no, planted=False: peer_bucket >= self_no)
    assert C.cross_check_selection_encoding(L.CORRECTED) > 0


TINY = C.Scope(bits=2, copies=1, depth=1)


def test_exhaustive_exploration_counts_states_exactly():
    ex = C.explore_reading(TINY, L.CORRECTED, C.TREE_PROPERTIES)
    # 4 publishers x 16 subscriber sets; recomputing path updates lead back into those states
    assert (ex.initial, ex.states) == (64, 64)
    assert set(ex.violations) == {"buckets_at_most_log2_n", "mean_out_degree_of_all_nodes_is_two"}


def test_exhaustive_exploration_finds_the_literal_path_update_bug_with_a_shortest_trace():
    ex = C.explore_reading(C.Scope(bits=3, copies=1, depth=1), L.READINGS["literal-path-update"],
                           ["every_subscriber_reached"])
    trace = ex.violations["every_subscriber_reached"]
    assert len(trace) == 2  # an initial tree, then one failure
    doc = C.trace_document("every_subscriber_reached", L.READINGS["literal-path-update"], "exhaustive", trace)
    reproduced, run = C.replay(doc, say=lambda line: None)
    assert reproduced and not L.every_subscriber_reached(run)


def test_a_timeout_is_unknown_never_holds(monkeypatch):
    results = C.run_checks("default", lambda doc: "x.json", only={"exhaustive"}, deadline_seconds=0.0)
    tree_results = [r for r in results if r.property == "no_cycle"]
    assert tree_results and all(r.verdict == Verdict.UNKNOWN for r in tree_results)


def test_hypothesis_search_shrinks_a_counterexample():
    cases, view, _ = C.hypothesis_search("every_subscriber_reached", L.LITERAL, examples=100)
    assert view is not None and len(view.subscribers) == 1
    cases, view, witnessed = C.hypothesis_search("no_cycle", L.CORRECTED, examples=30)
    assert view is None and witnessed > 0
    assert C.hypothesis_search("no_cycle", L.READINGS["packed-hash"], examples=30)[2] > 0


def test_a_hypothesis_pass_without_its_witness_is_unknown(monkeypatch):
    import attrs
    from spec import registry

    prop = registry.get("lbdd", "no_cycle")
    monkeypatch.setitem(registry._REGISTRY, ("lbdd", "no_cycle"), attrs.evolve(prop, witness=lambda run: False))
    results = C.run_checks("default", lambda doc: "x.json", only={"hypothesis"})
    assert {r.verdict for r in results if r.property == "no_cycle"} == {Verdict.UNKNOWN}


def test_counterexample_files_replay_and_draw(tmp_path):
    doc = C.view_document("every_subscriber_reached", L.LITERAL, "test", L.abstract_view(0, [5, 6]))
    path = counterexample.store(doc, tmp_path)
    lines = []
    assert counterexample.replay(path, say=lines.append, png=str(tmp_path / "cx.png"))
    assert any("VIOLATED" in line for line in lines) and (tmp_path / "cx.png").stat().st_size > 1000
    schedule = counterexample.store(C.schedule_document(L.LITERAL, "test", 1, 1), tmp_path)
    assert counterexample.replay(schedule, say=lines.append)
    (tmp_path / "bad.json").write_text("{")
    with pytest.raises(ValueError, match="is not JSON"):
        counterexample.replay(tmp_path / "bad.json")


def test_the_manifest_comparison_flags_a_changed_verdict_or_state_count():
    result = CheckResult("lbdd", "no_cycle", "c", "exhaustive", Verdict.HOLDS, "s", states=10)
    manifest = {"lbdd": {"default": {result.key: {"verdict": "holds", "states": 10}}}}
    assert runner.compare([result], manifest, "default") == []
    manifest["lbdd"]["default"][result.key]["states"] = 11
    assert "expected 11 states" in runner.compare([result], manifest, "default")[0]
    manifest["lbdd"]["default"][result.key] = {"verdict": "violated"}
    assert "expected violated, got holds" in runner.compare([result], manifest, "default")[0]
    assert "not in the manifest" in runner.compare([result], {}, "default")[0]
    enumerated = CheckResult("lbdd", "no_cycle", "c", "exhaustive", Verdict.HOLDS, "s", cases=7)
    assert runner.expected_entry(enumerated) == {"verdict": "holds", "cases": 7}  # an enumeration pins its cases
    pinned = {"lbdd": {"default": {enumerated.key: {"verdict": "holds", "cases": 8}}}}
    assert "expected 8 cases, enumerated 7" in runner.compare([enumerated], pinned, "default")[0]


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
def test_a_malformed_counterexample_is_refused_by_name(tmp_path, doc, message):
    path = tmp_path / "cx.json"
    path.write_text(json.dumps(doc))
    with pytest.raises(ValueError, match=message):
        counterexample.replay(path, say=lambda line: None)


def test_a_manifest_check_that_stops_running_fails_make_check(tmp_path, monkeypatch):
    manifest = {"lbdd": {"default": {"lbdd/ghost/corrected/z3": {"verdict": "proved"}}}}
    path = tmp_path / "manifest.json"
    path.write_text(json.dumps(manifest))
    monkeypatch.setattr(runner, "MANIFEST", path)
    _, problems = runner.run(["lbdd"], methods={"z3"}, report=str(tmp_path / "check.json"))
    assert any("ghost" in p and "produced no result" in p for p in problems)


def test_the_manifest_covers_every_default_check():
    manifest = json.loads(runner.MANIFEST.read_text())["lbdd"]["default"]
    methods = {key.split("/")[-1] for key in manifest}
    assert methods == {"z3", "exhaustive", "hypothesis", "spark"}
    assert all("states" in v for k, v in manifest.items() if k.endswith("/exhaustive")
               and not k.startswith("lbdd/schedule_partitions_targets"))
