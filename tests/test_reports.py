"""The committed reports are whole: every counterexample they name replays and reproduces, and no
file under reports/ is left that no report names (a stale file would be read as a finding)."""

import json
import subprocess
from pathlib import Path

import pytest

from checks import counterexample, smt

ROOT = Path(__file__).resolve().parents[1]
REPORTS = ROOT / "reports"


def check_reports() -> list[Path]:
    """reports/check.json (make check's) and any other check report committed beside it (a run of
    the large scope, say: reports/crawl-atlas.json)."""
    return [p for p in sorted(REPORTS.glob("*.json"))
            if {"scope", "mismatches", "results"} <= set(json.loads(p.read_text()))]


def named_counterexamples() -> list[str]:
    paths = [p for report in check_reports() for r in json.loads(report.read_text())["results"]
             for p in (r["counterexample"], r.get("evaluated_counterexample")) if p]
    for summary in sorted((REPORTS / "validate").glob("*.json")):
        paths += list(json.loads(summary.read_text()).get("counterexamples", {}).values())
    return sorted(set(paths))


def committed_report_files() -> list[str]:
    listed = subprocess.run(["git", "ls-files", "reports"], capture_output=True, text=True, cwd=ROOT)
    if listed.returncode != 0:  # not a git checkout: every file but Spark's regenerated Parquet
        return sorted(str(p.relative_to(ROOT)) for p in REPORTS.rglob("*") if p.is_file()
                      and "spark" not in p.relative_to(REPORTS).parts[:1] and not p.name.startswith("timings"))
    return sorted(listed.stdout.split())


def test_no_file_under_reports_is_unreferenced():
    named = set(named_counterexamples())
    summaries = {"reports/.gitkeep", "reports/bench.json"} | {str(p.relative_to(ROOT)) for p in check_reports()} | {
        str(p.relative_to(ROOT)) for p in REPORTS.glob("*-reproduction.json")} | {
        str(p.relative_to(ROOT)) for p in (REPORTS / "validate").glob("*.json")}
    queries = {str((smt.query_folder(report) / r["algorithm"] / smt.file_name(r["property"], r["reading"]))
                   .relative_to(ROOT)) for report in check_reports()
               for r in json.loads(report.read_text())["results"] if r.get("second_solver")}
    certificates = {str(smt.certificates_path(report).relative_to(ROOT)) for report in check_reports()}
    stray = [f for f in committed_report_files() if f not in named | summaries | queries | certificates]
    assert stray == []


@pytest.mark.parametrize("path", named_counterexamples())
def test_every_committed_counterexample_replays_and_reproduces(path, monkeypatch):
    monkeypatch.chdir(ROOT)
    assert counterexample.replay(path, say=lambda line: None)
    # the command it prints names the file where it is committed (not where a run wrote it first)
    replay = json.loads((ROOT / path).read_text()).get("replay")
    assert replay in (None, f"pubsub-proofs replay {path}"), replay


def stale_claims(reports: list[Path]) -> list[tuple[str, str, str]]:
    """The records whose claim text is not their property's in spec/ now."""
    from checks import plugin

    claims = {(a.name, p.name): p.claim for a in plugin.algorithms().values() for p in a.properties()}
    return sorted({(report.name, r["algorithm"], r["property"]) for report in reports
                   for r in json.loads(report.read_text())["results"]
                   if (r["algorithm"], r["property"]) in claims and r.get("claim") != claims[r["algorithm"], r["property"]]})


def test_every_committed_report_states_each_propertys_claim_as_the_spec_does_now(tmp_path):
    """Each record carries its property's claim: a description changed in spec/ without its checks
    rerun leaves the old text in the committed reports, which make check on a fresh clone rewrites."""
    assert check_reports() and not stale_claims(check_reports())
    # a record with an old claim is found
    report = json.loads((REPORTS / "check.json").read_text())
    report["results"][0]["claim"] = "an older wording"
    old = tmp_path / "check.json"
    old.write_text(json.dumps(report))
    first = report["results"][0]
    assert stale_claims([old]) == [("check.json", first["algorithm"], first["property"])]
