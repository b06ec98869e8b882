"""`pubsub-proofs explain`: one property on one screen, for every property of every algorithm and
of the token-ring fixture (issue 27)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from rich.console import Console

from checks import cli, explain, plugin, runner

ROOT = Path(__file__).resolve().parents[1]
REPORT = ROOT / "reports" / "check.json"
ALGORITHMS = plugin.algorithms()
PROPERTIES = [(a, p.name) for a, algorithm in sorted(ALGORITHMS.items()) for p in algorithm.properties()]


def located(at: str) -> tuple[Path, int]:
    file, line = re.fullmatch(r"(.+?):(\d+)", at).groups()
    return ROOT / file, int(line)


@pytest.fixture(autouse=True)
def in_the_project(monkeypatch):
    monkeypatch.chdir(ROOT)
    monkeypatch.setattr(explain, "ROOT", ROOT)


@pytest.mark.parametrize("algorithm,prop", PROPERTIES, ids=[f"{a}.{p}" for a, p in PROPERTIES])
def test_explain_answers_for_every_property(algorithm, prop):
    found = explain.explain(algorithm, prop, REPORT)
    assert json.loads(explain.to_json(found)) == found
    # the predicate is where it says, and is the one the registry holds
    file, line = located(found["predicate"]["at"])
    assert f"def {prop}" in file.read_text().splitlines()[line - 1] or found["predicate"]["name"] in \
        file.read_text().splitlines()[line - 1]
    pinned = {k for k in runner.load_manifest(ALGORITHMS[algorithm]).get("default", {})
              if k.startswith(f"{algorithm}/{prop}/")}
    # every pinned check is listed with where the declaration sets it up, and what it expects
    listed = {f"{algorithm}/{prop}/{c['reading']}/{c['method']}" for c in found["checks"]}
    assert listed == pinned
    for c in found["checks"]:
        if c["method"] != "spark":
            file, line = located(c["declared_at"])
            assert file.exists() and line >= 1
        assert c["expected"]["verdict"] in ("proved", "holds", "violated", "unknown")
    # the records are the report's, each failure with its replay and picture commands
    records = [r for r in json.loads(REPORT.read_text())["results"]
               if r["algorithm"] == algorithm and r["property"] == prop]
    assert sorted((r["method"], r["reading"], r["verdict"]) for r in found["records"]) == \
        sorted((r["method"], r["reading"], r["verdict"]) for r in records)
    for r in found["records"]:
        if r["counterexample"]:
            assert r["picture"].endswith(".png") and r["counterexample"] in r["replay"]
    # the docs page shows it, and the sentences that cite it are the inventory's
    assert found["docs"] and all(located(d["at"])[0].exists() for d in found["docs"])
    inventory = ALGORITHMS[algorithm].inventory
    cited = [c for c in (inventory() if inventory else ()) if prop in c.checked_by]
    assert [s["text"] for s in found["sentences"]] == [c.text for c in cited]


def test_explain_fits_one_screen_and_names_every_step():
    console = Console(record=True, width=160)
    explain.render(explain.explain("scot", "subscription_tree_has_no_loop", REPORT), console)
    text = console.export_text()
    assert len(text.splitlines()) <= 50
    for step in ("paper sentences", "predicate: spec/scot.py:", "witness:", "readings:", "checks at the default scope",
                 "checks/algorithms/scot/__init__.py:", "spark_validation/scot.py (default_job)", "records",
                 "docs: docs/scot.md:"):
        assert step in text, step


def test_explain_an_algorithm_lists_its_properties_and_the_fixture_plugs_in(monkeypatch, capsys):
    assert cli.main(["explain", "lbdd"]) == 0
    out = capsys.readouterr().out
    assert all(p.name in out for p in ALGORITHMS["lbdd"].properties())
    monkeypatch.setenv(plugin.PLUGINS_VARIABLE, "tokenring")
    found = explain.summary("tokenring", REPORT)
    assert {p["property"] for p in found["properties"]} >= {"exactly_one_token"}
    one = explain.explain("tokenring", "exactly_one_token", REPORT)
    assert one["predicate"]["at"].startswith("tests/tokenring/") and one["checks"]


def test_explain_json_and_bad_names(capsys):
    assert cli.main(["explain", "irbr", "no_node_receives_an_event_twice", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["property"] == "no_node_receives_an_event_twice"
    assert cli.main(["explain", "irbr", "no_such_property"]) == 2
    assert "unknown property 'no_such_property' for irbr" in capsys.readouterr().err
    assert cli.main(["explain", "nope"]) == 2


def test_explain_before_the_first_check_shows_every_verdict_as_not_checked(tmp_path, monkeypatch, capsys):
    # a fresh clone before `make check`: no reports/check.json, so no verdict to show, and no error
    monkeypatch.chdir(tmp_path)
    assert cli.main(["explain", "lbdd", "no_cycle", "--json"]) == 0
    found = json.loads(capsys.readouterr().out)
    assert found["property"] == "no_cycle"
    assert found["sentences"] and {s["verdict"] for s in found["sentences"]} == {"not checked"}
    assert found["records"] == []
    # named but absent, the report is an error: the user asked for verdicts that are not there
    assert cli.main(["explain", "lbdd", "no_cycle", "--report", "absent.json"]) == 2
    assert "no report at absent.json" in capsys.readouterr().err
