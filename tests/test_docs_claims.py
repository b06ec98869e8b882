"""Claims table, generated docs and the sec. 4.3 reproduction (checks/claims.py, docs.py, reproduce.py)."""

import json

import pytest
from rich.console import Console

from checks import claims, docs, reproduce_lbdd
from checks.lbdd import schedule_document, view_document
from spec import lbdd as L


def record(prop, method, verdict, reading="corrected", counterexample=None, algorithm="toy", **kw):
    return {"algorithm": algorithm, "property": prop, "claim": f"sec. 9: {prop}", "method": method,
            "verdict": verdict, "scope": kw.pop("scope", f"{method} scope"), "reading": reading,
            "cases": kw.pop("cases", 5), "states": kw.pop("states", None), "seconds": 0.1,
            "counterexample": counterexample, "expected": None, "detail": kw.pop("detail", "")}


def write_report(path, results, mismatches=()):
    path.write_text(json.dumps({"scope": "default", "seconds": 1.0, "mismatches": list(mismatches),
                                "results": results}))
    return path


@pytest.fixture
def toy_report(tmp_path):
    return write_report(tmp_path / "check.json", [
        record("a", "z3", "proved"),
        record("a", "exhaustive", "holds", states=40),
        record("a", "spark", "violated", "literal", "spark-a.json"),
        record("a", "hypothesis", "violated", "literal", "hyp-a.json"),
        record("a", "z3", "violated", "literal", "z3-a.json"),
        record("a", "exhaustive", "violated", "literal", "ex-a.json"),
        record("b", "exhaustive", "holds", states=12, cases=3),
        record("b", "hypothesis", "holds", cases=150),
        record("b", "spark", "violated", "literal", "spark-b.json"),
        record("b", "hypothesis", "violated", "literal", "hyp-b.json"),
        record("c", "exhaustive", "unknown", detail="stopped at the limit"),
        record("c", "spark", "holds", "literal", cases=20000),
        record("d", "z3", "unknown"),
        record("d", "spark", "violated", counterexample="spark-d.json"),
        record("e", "z3", "proved"),
        record("e", "hypothesis", "unknown"),
    ])


def by_property(table):
    return {e["property"]: e for e in table}


def test_claims_table_combines_every_method_per_reading(toy_report):
    table = by_property(claims.claims_table(toy_report))
    assert list(table) == ["a", "b", "c", "d", "e"]
    a, b, c, d, e = (table[p] for p in "abcde")
    assert a["claim"] == "sec. 9: a"
    assert a["readings"]["corrected"]["verdict"] == "proved"
    # a violation wins over a proof elsewhere, and the counterexample is z3's, then exhaustive's, ...
    assert a["readings"]["literal"]["verdict"] == "fails"
    assert a["readings"]["literal"]["counterexample"] == "z3-a.json"
    assert a["readings"]["literal"]["replay"] == "pubsub-proofs replay z3-a.json"
    assert b["readings"]["literal"]["counterexample"] == "hyp-b.json"
    assert d["readings"]["corrected"]["counterexample"] == "spark-d.json"
    bounded = b["readings"]["corrected"]
    assert bounded["verdict"] == "holds (bounded)"
    assert "exhaustive" in bounded["summary"] and "12 states" in bounded["summary"]
    assert "hypothesis" in bounded["summary"] and "150 cases" in bounded["summary"]
    assert c["readings"]["corrected"]["verdict"] == "unknown"
    assert c["readings"]["literal"]["verdict"] == "holds (bounded)"
    assert e["readings"]["corrected"]["verdict"] == "proved"
    assert [x["overall"] for x in (a, b, c, d, e)] == ["ambiguous", "ambiguous", "holds", "fails", "holds"]
    assert json.loads(json.dumps(list(table.values()))) == list(table.values())


def test_registered_claims_without_records_are_listed_as_not_checked(tmp_path):
    report = write_report(tmp_path / "check.json", [record("no_cycle", "exhaustive", "holds", algorithm="lbdd")])
    table = by_property(claims.claims_table(report))
    assert table["no_cycle"]["overall"] == "holds"
    assert table["depth_between_5_and_9"]["overall"] == "not checked"
    assert table["depth_between_5_and_9"]["claim"].startswith("sec. 4.3")


def test_a_missing_report_is_a_clear_error(tmp_path):
    with pytest.raises(ValueError, match=r"no report at .*missing\.json: run `make check` first"):
        claims.claims_table(tmp_path / "missing.json")
    with pytest.raises(ValueError, match="no report at"):
        docs.generate(tmp_path / "missing.json", docs_dir=tmp_path / "docs")


def test_print_claims_shows_verdicts_and_replay_commands(toy_report):
    console = Console(record=True, width=200)
    claims.print_claims(claims.claims_table(toy_report), console)
    text = console.export_text()
    assert "toy.a" in text and "fails" in text and "holds (bounded)" in text
    assert "pubsub-proofs replay z3-a.json" in text


@pytest.fixture
def lbdd_report(tmp_path):
    """A small LBDD report whose failures have real counterexample files."""
    folder = tmp_path / "reports"
    folder.mkdir()
    schedule = folder / "schedule.json"
    schedule.write_text(json.dumps(schedule_document(L.LITERAL, "z3", 1, 1)))
    view = folder / "view.json"
    view.write_text(json.dumps(view_document("every_subscriber_reached", L.LITERAL, "exhaustive",
                                             L.abstract_view(0, [0]))))
    return write_report(folder / "check.json", [
        record("schedule_partitions_targets", "z3", "proved", algorithm="lbdd"),
        record("schedule_partitions_targets", "z3", "violated", "literal", str(schedule), algorithm="lbdd"),
        record("every_subscriber_reached", "exhaustive", "holds", states=9, algorithm="lbdd"),
        record("every_subscriber_reached", "exhaustive", "violated", "literal", str(view), algorithm="lbdd"),
        record("depth_between_5_and_9", "spark", "holds", cases=100, algorithm="lbdd"),
    ])


def test_generate_keeps_the_prose_and_replaces_only_generated_sections(tmp_path, lbdd_report):
    folder = tmp_path / "docs"
    folder.mkdir()
    page = folder / "lbdd.md"
    start, end = docs.markers("claims")
    page.write_text(f"# LBDD\n\nHand-written model.\n\n{start}\nstale claims\n{end}\n\nHand-written tail.\n")
    written = docs.generate(str(lbdd_report), docs_dir=folder, seeds_per_n=2)
    assert all(str(tmp_path) in p for p in written)
    text = page.read_text()
    assert text.startswith("# LBDD\n\nHand-written model.\n") and "Hand-written tail." in text
    assert "stale claims" not in text
    # every section is present once; those the page lacked are appended
    for name in ("readings", "claims", "verdicts", "reproduction", "errata"):
        assert text.count(docs.markers(name)[0]) == 1 and text.count(docs.markers(name)[1]) == 1
    assert f"pubsub-proofs replay {lbdd_report.parent / 'schedule.json'}" in text
    assert "S = 1 sender(s) and T = 1 target(s)" in text  # the errata read the counterexample file
    assert "Unreached: s1" in text
    assert "![tree depth vs n](figures/lbdd-depth.png)" in text
    assert (folder / "figures" / "lbdd-depth.png").stat().st_size > 0
    assert json.loads((lbdd_report.parent / "lbdd-reproduction.json").read_text())["seeds_per_n"] == 2
    assert "[lbdd.md](lbdd.md)" in (folder / "README.md").read_text()
    # hand edits outside markers survive a second run, and the generated text is stable
    page.write_text(page.read_text().replace("Hand-written model.", "Edited model."))
    first = page.read_text()
    docs.generate(str(lbdd_report), docs_dir=folder, seeds_per_n=2)
    assert page.read_text() == first


def test_markers_must_be_unique_and_ordered():
    start, end = docs.markers("claims")
    with pytest.raises(ValueError, match="once"):
        docs.fill_sections(f"{start}\n{end}\n{start}\n{end}\n", {"claims": "x"})
    with pytest.raises(ValueError, match="before"):
        docs.fill_sections(f"{end}\n{start}\n", {"claims": "x"})


def test_the_reproduction_is_deterministic_and_sane(tmp_path):
    first = reproduce_lbdd.lbdd_section_4_3(seeds_per_n=3, figures_dir=tmp_path, out=tmp_path / "r.json")
    assert reproduce_lbdd.lbdd_section_4_3(seeds_per_n=3, figures_dir=tmp_path, out=None) == first
    assert json.loads((tmp_path / "r.json").read_text()) == first
    assert [s["n"] for s in first["sizes"]] == list(range(100, 501, 50))
    for s in first["sizes"]:
        assert s["trees"] == 3 and s["not_trees"] == 0 and s["exactly_n_copies"] == 3
        assert 1 <= s["depth"]["min"] <= s["depth"]["mean"] <= s["depth"]["max"] <= 33
        assert 0 <= s["depth"]["fraction_in_paper_band"] <= 1
        assert 1 <= s["lowest_bucket"]["min"] and s["highest_bucket"]["max"] <= 32
        rates = s["contribution"]
        assert all(0 <= rates[k] <= 1 for k in ("publisher_mean", "publisher_max", "subscriber_mean",
                                                "subscriber_max"))
        assert rates["point_to_point_publisher"] == 1.0
        assert s["sender_out_degree"]["mean"] >= 1
    assert 0 <= first["at_500"]["fraction_all_in_paper_buckets"] <= 1
    testbed = first["testbed"]
    assert len(testbed["choices"]) == 12 and testbed["assumed_publisher"] == "10.3.17.74"
    for choice in testbed["choices"]:
        assert choice["tree"] and len(choice["parent"]) == 11 and choice["depth"] >= 1
    assert sorted(p.name for p in tmp_path.glob("*.png")) == ["lbdd-contribution.png", "lbdd-depth.png"]
