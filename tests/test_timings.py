"""A run that changes no result changes no committed file: the report (and the docs made from it)
holds the runtime class each manifest pins, never measured seconds; those go to a timings file
beside the report, which is not committed and is merged by the same key as the report."""

import json
import subprocess
from pathlib import Path

import pytest

import tokenring
from checks import docs, runner
from checks.verdict import CheckResult

FIXTURE = tokenring.ALGORITHM
ROOT = Path(__file__).resolve().parents[1]
METHODS = {"z3", "exhaustive", "hypothesis"}   # every method but Spark, which would start a session


@pytest.fixture(scope="module")
def two_runs(tmp_path_factory):
    """`make check` twice on the fixture, into one report and one docs folder: the report's bytes,
    the docs page, the timings and the results after each."""
    folder = tmp_path_factory.mktemp("timings")
    report = folder / "check.json"
    out = []
    for _ in range(2):
        results, problems = runner.run([FIXTURE], report=report, methods=METHODS)
        assert problems == []
        docs.generate(report, docs_dir=folder / "docs", algorithms=[FIXTURE])
        out.append((report.read_bytes(), (folder / "docs" / "tokenring.md").read_text(),
                    json.loads((folder / "timings.json").read_text()), results))
    return report, out


def verdicts_table(page: str) -> str:
    start, end = docs.markers("verdicts")
    return page[page.index(start):page.index(end)]


def test_a_rerun_rewrites_the_report_and_its_docs_byte_for_byte(two_runs):
    _, [(first, page1, _, _), (second, page2, _, _)] = two_runs
    assert first == second
    assert page1 == page2
    table = verdicts_table(page1)
    assert verdicts_table(page2) == table
    assert "in all" not in table and "| proved (8 cases, fast) |" in table


def test_the_report_records_the_manifests_runtime_class_and_no_seconds(two_runs):
    report, _ = two_runs
    loaded = json.loads(report.read_text())
    manifest = runner.load_manifest(FIXTURE)["default"]
    assert "seconds" not in loaded
    for r in loaded["results"]:
        assert "seconds" not in r
        assert r["runtime"] == manifest[runner._key(r)]["runtime"]


def test_the_timings_file_gets_every_records_measured_seconds(two_runs):
    report, [_, (_, _, timings2, results)] = two_runs
    keys = [runner._key(r) for r in json.loads(report.read_text())["results"]]
    assert list(timings2["results"]) == keys
    assert timings2["scope"] == "default" and timings2["last_run_seconds"] >= 0
    for r in results:
        entry = timings2["results"][r.key]
        assert entry["seconds"] == round(r.seconds, 3) and entry["measured_runtime"] == runner.measured_class(r)
    assert any(e["seconds"] > 0 for e in timings2["results"].values())


def test_a_partial_run_keeps_the_timings_of_the_records_it_keeps(tmp_path):
    report = tmp_path / "check.json"
    runner.run([FIXTURE], report=report, methods={"exhaustive", "hypothesis"})
    before = json.loads((tmp_path / "timings.json").read_text())["results"]
    results, _ = runner.run([FIXTURE], report=report, methods={"hypothesis"})
    after = json.loads((tmp_path / "timings.json").read_text())["results"]
    assert set(after) == set(before)
    rerun = {r.key for r in results}
    assert rerun and all(k.endswith("/hypothesis") for k in rerun)
    for key in set(before) - rerun:
        assert after[key] == before[key]                   # kept, as the record is
    for r in results:
        assert after[r.key]["seconds"] == round(r.seconds, 3)
    assert [runner._key(r) for r in json.loads(report.read_text())["results"]] == list(after)


def test_a_report_from_before_moves_its_seconds_to_the_timings_when_merged_into(tmp_path):
    report = tmp_path / "check.json"
    runner.run([FIXTURE], report=report, methods={"exhaustive", "hypothesis"})
    (tmp_path / "timings.json").unlink()
    old = json.loads(report.read_text())
    legacy = [{("seconds" if k == "runtime" else k): (1.25 if k == "runtime" else v) for k, v in r.items()}
              for r in old["results"]]
    report.write_text(json.dumps({**old, "seconds": 9.5, "results": legacy}, indent=1) + "\n")
    runner.run([FIXTURE], report=report, methods={"hypothesis"})
    merged = json.loads(report.read_text())
    assert "seconds" not in merged and all("seconds" not in r for r in merged["results"])
    assert [list(r) for r in merged["results"]] == [list(r) for r in old["results"]]   # the same fields, in order
    assert merged["results"] == old["results"]
    timings = json.loads((tmp_path / "timings.json").read_text())["results"]
    kept = [runner._key(r) for r in legacy if r["method"] == "exhaustive"]
    assert kept and all(timings[k] == {"seconds": 1.25, "measured_runtime": "fast"} for k in kept)


def test_a_report_of_another_name_has_its_own_timings(tmp_path):
    runner.run([FIXTURE], report=tmp_path / "large.json", methods={"z3"})
    assert (tmp_path / "timings-large.json").exists() and not (tmp_path / "timings.json").exists()


def test_a_file_in_the_timings_place_that_is_none_is_an_error_before_anything_runs(tmp_path):
    (tmp_path / "timings.json").write_text("[1, 2]")
    with pytest.raises(ValueError, match="not a timings file"):
        runner.run([FIXTURE], report=tmp_path / "check.json", methods={"z3"})
    assert not (tmp_path / "check.json").exists() and (tmp_path / "timings.json").read_text() == "[1, 2]"


def test_the_timings_are_not_committed():
    ignored = subprocess.run(["git", "check-ignore", "-q", "reports/timings.json"], cwd=ROOT)
    if ignored.returncode == 128:
        pytest.skip("not a git checkout")
    assert ignored.returncode == 0


def test_a_check_far_from_its_pinned_class_is_a_note_not_a_mismatch():
    def result(seconds, runtime, method="exhaustive"):
        return CheckResult("a", "p", "c", method, "holds", "s", seconds=seconds, runtime=runtime)

    notes = runner.runtime_notes([result(0.1, "fast"), result(5.0, "fast"), result(90.0, "fast", "z3"),
                                  result(0.5, "slow", "spark"), result(90.0, None)])
    assert notes == ["a/p//z3: took 90.0 s (slow), the manifest's class is fast"]
    # the same distance below which --update-manifest keeps the class it recorded
    assert runner.expected_entry(result(5.0, "fast"), {"runtime": "fast"})["runtime"] == "fast"
    assert runner.expected_entry(result(90.0, "fast"), {"runtime": "fast"})["runtime"] == "slow"
