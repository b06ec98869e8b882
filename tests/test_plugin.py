"""The engines are generic: the token ring fixture (tests/tokenring), which nothing outside
tests/ names, is checked end to end by every method, each rejecting its planted bug; and the
runner writes reports whole or not at all, merges partial runs and removes what no record names."""

import json
import os
import re
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import attrs
import pytest

import tokenring
from checks import counterexample, engine, plugin, runner
from checks.verdict import Verdict

FIXTURE = tokenring.ALGORITHM
ROOT = Path(__file__).resolve().parents[1]


def by_key(results):
    return {(r.property, r.reading, r.method): r for r in results}


@pytest.fixture(scope="module")
def fixture_run(tmp_path_factory, spark):
    """One full default-scope run of the fixture, Spark included, into a fresh report."""
    report = tmp_path_factory.mktemp("fixture") / "check.json"
    results, problems = runner.run([FIXTURE], report=report, spark=spark)
    return report, by_key(results), problems


@pytest.mark.spark
def test_every_method_checks_the_fixture_and_matches_its_manifest(fixture_run):
    report, results, problems = fixture_run
    assert problems == []
    assert {m for (_, _, m) in results} == {"z3", "exhaustive", "hypothesis", "spark"}
    for method in ("z3", "exhaustive", "hypothesis", "spark"):
        assert results[("exactly_one_token", "correct", method)].verdict in (Verdict.PROVED, Verdict.HOLDS)
        bug = results[("exactly_one_token", "keeps-at-wrap", method)]
        assert bug.verdict is Verdict.VIOLATED, method   # each method rejects the planted bug
        assert bug.counterexample and Path(bug.counterexample).exists()
    assert results[("exactly_one_token", "correct", "z3")].verdict is Verdict.PROVED


@pytest.mark.spark
def test_the_chance_of_a_round_trip_is_exact(fixture_run):
    _, results, _ = fixture_run
    correct = results[("round_trip_likely", "correct", "exhaustive")]
    lossy = results[("round_trip_likely", "lossy", "exhaustive")]
    assert Fraction(correct.probability) == Fraction(9, 10) ** 4 and correct.verdict is Verdict.HOLDS
    assert Fraction(lossy.probability) == Fraction(4, 5) ** 4 and lossy.verdict is Verdict.VIOLATED


@pytest.mark.spark
def test_every_counterexample_of_the_fixture_replays_and_reproduces(fixture_run, tmp_path, monkeypatch):
    monkeypatch.setenv(plugin.PLUGINS_VARIABLE, "tokenring")   # replay finds the algorithm by discovery
    report, results, _ = fixture_run
    files = [r.counterexample for r in results.values() if r.counterexample]
    assert len(files) == 5   # keeps-at-wrap under four methods, and the lossy round trip
    for path in files:
        assert counterexample.replay(path, say=lambda line: None)
    png = tmp_path / "cx.png"
    counterexample.replay(results[("exactly_one_token", "keeps-at-wrap", "exhaustive")].counterexample,
                          say=lambda line: None, png=str(png))
    assert png.stat().st_size > 0
    with pytest.raises(ValueError, match="cannot draw"):
        counterexample.replay(results[("round_trip_likely", "lossy", "exhaustive")].counterexample,
                              say=lambda line: None, png=str(tmp_path / "no.png"))


def test_a_witness_never_reached_makes_the_verdict_unknown_not_a_pass(tmp_path):
    check = tokenring.exploration(tokenring.SCOPES["default"], "correct")
    never = attrs.evolve(check, witnesses=lambda label: {"exactly_one_token": lambda s: False})
    [r] = engine.run_check(never, engine.Context(FIXTURE, "default", lambda doc: "unused"))
    assert r.verdict is Verdict.UNKNOWN and "vacuous" in r.detail


def test_a_violated_check_writes_a_replayable_document_through_the_writer():
    written = []
    results = engine.run_algorithm(FIXTURE, "default", lambda doc: written.append(doc) or f"cx{len(written)}.json",
                                   methods={"exhaustive"})
    bug = by_key(results)[("exactly_one_token", "keeps-at-wrap", "exhaustive")]
    assert bug.counterexample == "cx1.json"
    # the shortest trace: 0 passes to 1, 1 passes back to 0 and keeps its token
    assert written[0]["passes"] == [0, 1] and written[0]["n"] == 2


def _fixture_files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def test_an_interrupted_run_leaves_the_report_and_its_counterexamples_as_they_were(tmp_path, monkeypatch):
    report = tmp_path / "check.json"
    runner.run([FIXTURE], report=report, methods={"exhaustive", "hypothesis"})
    before = _fixture_files(tmp_path)
    calls = {"n": 0}
    real = engine.run_check

    def interrupted(check, ctx):
        calls["n"] += 1
        if calls["n"] == 3:
            raise KeyboardInterrupt
        return real(check, ctx)

    monkeypatch.setattr(engine, "run_check", interrupted)
    with pytest.raises(KeyboardInterrupt):
        runner.run([FIXTURE], report=report, methods={"exhaustive", "hypothesis"})
    assert _fixture_files(tmp_path) == before          # nothing lost, nothing half-written
    assert not list(tmp_path.rglob(".staging-*"))


def test_a_partial_run_merges_its_records_and_removes_only_its_own_files_no_record_names(tmp_path):
    report = tmp_path / "check.json"
    runner.run([FIXTURE], report=report, methods={"exhaustive", "hypothesis"})
    full = json.loads(report.read_text())
    stray = tmp_path / "counterexamples" / "tokenring" / "orphan" / "old.json"
    stray.parent.mkdir(parents=True)
    stray.write_text("{}")
    runner.run([FIXTURE], report=report, methods={"hypothesis"})
    merged = json.loads(report.read_text())
    assert merged["recomputed"] == 2 and merged["kept"] == len(full["results"]) - 2
    assert {(r["property"], r["reading"], r["method"]) for r in merged["results"]} == \
        {(r["property"], r["reading"], r["method"]) for r in full["results"]}
    for r in merged["results"]:
        if r["counterexample"]:
            assert Path(r["counterexample"]).exists()
    assert stray.exists()   # no report named it: not this project's file to delete (issue 22)


def test_a_changed_count_is_a_mismatch_against_the_manifest(tmp_path):
    results = engine.run_algorithm(FIXTURE, "default", lambda doc: "x", methods={"exhaustive"})
    manifest = runner.load_manifest(FIXTURE)
    assert runner.compare(results, manifest, "default") == []
    key = "tokenring/exactly_one_token/correct/exhaustive"
    changed = {"default": {**manifest["default"], key: {**manifest["default"][key], "states": 1}}}
    assert runner.compare(results, changed, "default") == [f"{key}: expected 1 states, explored 21"]


def test_the_cli_finds_a_plugin_named_in_the_environment(tmp_path):
    env = {**os.environ, plugin.PLUGINS_VARIABLE: "tokenring"}
    cli = [sys.executable, "-m", "checks.cli"]
    done = subprocess.run(cli + ["check", "tokenring", "--methods", "exhaustive,z3", "--report",
                                 str(tmp_path / "check.json")], capture_output=True, text=True, env=env, cwd=ROOT)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "tokenring" in done.stdout and "mismatches" in done.stdout
    [cx] = [r["counterexample"] for r in json.loads((tmp_path / "check.json").read_text())["results"]
            if r["counterexample"] and r["method"] == "z3"]
    replayed = subprocess.run(cli + ["replay", cx], capture_output=True, text=True, env=env, cwd=ROOT)
    assert replayed.returncode == 0 and "reproduced" in replayed.stdout
    unknown = subprocess.run(cli + ["check", "nosuch"], capture_output=True, text=True, env=env, cwd=ROOT)
    assert unknown.returncode == 2 and "nosuch" in unknown.stderr + unknown.stdout


def test_a_chain_explored_in_part_gives_bounds_and_no_verdict_they_do_not_show():
    from tokenring import spec as T

    check = attrs.evolve(tokenring.round_trip(tokenring.SCOPES["default"], "correct"),
                         chain=lambda: attrs.evolve(tokenring.round_trip_chain(4, T.READINGS["correct"]), max_states=3))
    [r] = engine.run_check(check, engine.Context(FIXTURE, "default", lambda doc: "unused"))
    assert r.verdict is Verdict.UNKNOWN and r.probability.startswith("[0, ")


@pytest.mark.spark
def test_the_fixture_gets_its_docs_page_from_the_same_engine(fixture_run, tmp_path):
    from checks import docs

    report, _, _ = fixture_run
    written = docs.generate(report, docs_dir=tmp_path / "docs", algorithms=[FIXTURE])
    page = (tmp_path / "docs" / "tokenring.md").read_text()
    assert str(tmp_path / "docs" / "tokenring.md") in map(str, written)
    assert "`keeps-at-wrap` is the planted bug" in page            # the fixture's own section
    assert "exactly_one_token" in page and "round_trip_likely" in page   # the generic claims table
    assert "keeps the sender's token when it wraps" in page         # the readings table, from the catalogue


@pytest.mark.spark
def test_a_spark_verdict_carries_the_estimated_share_with_its_interval(fixture_run):
    _, results, _ = fixture_run
    correct = results[("exactly_one_token", "correct", "spark")]
    bug = results[("exactly_one_token", "keeps-at-wrap", "spark")]
    assert correct.probability.startswith("holds on 1.000 [0.998, 1.000] at 95%")
    share, low, high = (float(x) for x in re.match(r"holds on ([\d.]+) \[([\d.]+), ([\d.]+)\]",
                                                   bug.probability).groups())
    violations = int(bug.detail.split()[0])
    assert low <= (bug.cases - violations) / bug.cases <= high and 0 < share < 1


def test_a_report_of_another_name_keeps_its_own_counterexamples(tmp_path):
    runner.run([FIXTURE], report=tmp_path / "check.json", methods={"exhaustive"})
    main = _fixture_files(tmp_path / "counterexamples")
    runner.run([FIXTURE], report=tmp_path / "large.json", methods={"hypothesis"})
    assert _fixture_files(tmp_path / "counterexamples") == main     # the other report's files are its own
    assert list((tmp_path / "counterexamples-large").rglob("*.json"))


def test_updating_the_manifest_with_a_runtime_class_is_refused(tmp_path):
    with pytest.raises(ValueError, match="without --runtime"):
        runner.run([FIXTURE], report=tmp_path / "check.json", runtime="fast", update=True)
    assert not (tmp_path / "check.json").exists()


def test_a_run_of_some_properties_runs_only_the_checks_that_judge_them(tmp_path):
    results, problems = runner.run([FIXTURE], report=tmp_path / "check.json", properties={"exactly_one_token"})
    assert results and {r.property for r in results} == {"exactly_one_token"} and problems == []
    with pytest.raises(ValueError, match="unknown properties.*no_such"):
        runner.run([FIXTURE], report=tmp_path / "other.json", properties={"no_such"})
    with pytest.raises(ValueError, match="without --runtime, --properties or --readings"):
        runner.run([FIXTURE], report=tmp_path / "other.json", properties={"exactly_one_token"}, update=True)
    assert not (tmp_path / "other.json").exists()


def test_a_run_of_some_readings_runs_only_their_checks_and_merges_into_the_report(tmp_path):
    report = tmp_path / "check.json"
    results, problems = runner.run([FIXTURE], report=report, readings={"lossy"})
    assert {(r.property, r.reading) for r in results} == {("round_trip_likely", "lossy")} and problems == []
    results, problems = runner.run([FIXTURE], report=report, readings={"keeps-at-wrap"},
                                   properties={"exactly_one_token"}, methods={"z3", "exhaustive"})
    assert {(r.reading, r.method) for r in results} == {("keeps-at-wrap", "z3"), ("keeps-at-wrap", "exhaustive")}
    assert problems == []
    kept = {(r["property"], r["reading"], r["method"]) for r in json.loads(report.read_text())["results"]}
    assert kept == {("round_trip_likely", "lossy", "exhaustive"), ("exactly_one_token", "keeps-at-wrap", "z3"),
                    ("exactly_one_token", "keeps-at-wrap", "exhaustive")}   # one reading per run, merged
    with pytest.raises(ValueError, match="unknown readings.*no-such"):
        runner.run([FIXTURE], report=tmp_path / "other.json", readings={"no-such"})
    with pytest.raises(ValueError, match="without --runtime, --properties or --readings"):
        runner.run([FIXTURE], report=tmp_path / "other.json", readings={"lossy"}, update=True)
    assert not (tmp_path / "other.json").exists()


def test_a_scope_without_a_spark_size_is_refused_before_anything_runs(tmp_path):
    sized = attrs.evolve(FIXTURE, spark=attrs.evolve(FIXTURE.spark, instances={"default": 100}))
    for properties in (None, {"exactly_one_token"}):
        with pytest.raises(ValueError, match="no number of instances for scope 'large'"):
            runner.run([sized], scope="large", report=tmp_path / "check.json", properties=properties)
    assert not (tmp_path / "check.json").exists()


def test_a_report_that_is_not_one_is_a_clear_error_before_anything_runs(tmp_path):
    (tmp_path / "check.json").write_text('{"scope": "default"}')
    with pytest.raises(ValueError, match="not a check report"):
        runner.run([FIXTURE], report=tmp_path / "check.json", methods={"exhaustive"})
