"""Claims table, generated docs, reproduction caches and the bench runner (checks/claims.py, docs.py,
bench.py, and LBDD's own docs sections and reproduction).

The engines are held to a small algorithm declared here, which no engine names: its page gets
every generic section and its own, in the project the command runs in."""

import importlib
import json
import os
from pathlib import Path

import attrs
import pytest
from rich.console import Console

from checks import bench, claims, docs, plugin
from checks.algorithms.lbdd import reproduce as reproduce_lbdd
from checks.algorithms.lbdd import schedule_document, view_document
from spec import lbdd as L
from spec.registry import Property, register

ROOT = Path(__file__).resolve().parents[1]


def record(prop, method, verdict, reading="corrected", counterexample=None, algorithm="toy", **kw):
    return {"algorithm": algorithm, "property": prop, "claim": f"sec. 9: {prop}", "method": method,
            "verdict": verdict, "scope": kw.pop("scope", f"{method} scope"), "reading": reading,
            "cases": kw.pop("cases", 5), "states": kw.pop("states", None), "seconds": 0.1,
            "counterexample": counterexample, "expected": None, "detail": kw.pop("detail", "")}


def write_report(path, results, mismatches=()):
    path.parent.mkdir(parents=True, exist_ok=True)
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


# --------------------------------------------------------------------------------------------
# A small algorithm declared here: the engines know it only through its declaration
# --------------------------------------------------------------------------------------------

register(Property("docsfixture", "stays_small", lambda n: n < 3, "sec. 1: the counter stays below 3",
                  witness=lambda n: n > 0))
register(Property("docsfixture", "counts_up", lambda n: True, "sec. 2: the counter counts up"))


@attrs.frozen
class Reading:
    name: str
    step: int
    note: str


READINGS = {r.name: r for r in (Reading("careful", 1, "stops at the bound"), Reading("hasty", 2, "jumps by two"))}


def fixture_algorithm(tmp_path, **changes):
    own = {"story": "The counter's own section.", "readings": None} if changes.pop("own", False) else None
    return plugin.Algorithm(
        name="docsfixture", title="Docs fixture", spec=__name__,
        readings=plugin.Catalogue(READINGS, describe=lambda r: f"a step of {r.step}"),
        scopes={"default": None}, checks=lambda scope: [], replay=lambda doc, say: plugin.Replayed(True),
        manifest=tmp_path / "docsfixture-manifest.json",
        docs=(lambda ctx: own) if own else None, **changes)


@pytest.fixture
def project(tmp_path, monkeypatch):
    """A project folder (the current directory) with a report of the fixture and one
    counterexample file, as `make check` leaves them."""
    monkeypatch.chdir(tmp_path)
    folder = Path("reports/counterexamples/docsfixture")
    folder.mkdir(parents=True)
    (folder / "ce.json").write_text(json.dumps({"algorithm": "docsfixture", "property": "stays_small"}))
    results = [record("stays_small", "exhaustive", "holds", "careful", algorithm="docsfixture", states=4),
               record("stays_small", "exhaustive", "violated", "hasty", str(folder / "ce.json"),
                      algorithm="docsfixture", states=3, detail="shortest trace: 2 steps"),
               record("stays_small", "hypothesis", "holds", "careful", algorithm="docsfixture")]
    write_report(Path("reports/check.json"), results)
    return tmp_path


# --------------------------------------------------------------------------------------------
# Claims
# --------------------------------------------------------------------------------------------

def test_claims_table_combines_every_method_per_reading(toy_report):
    table = by_property(claims.properties_table(toy_report))
    assert list(table) == ["a", "b", "c", "d", "e"]
    a, b, c, d, e = (table[p] for p in "abcde")
    assert a["claim"] == "sec. 9: a"
    assert a["readings"]["corrected"]["verdict"] == "proved"
    # a violation wins over a proof elsewhere, and the counterexample is z3's, then exhaustive's, ...
    assert a["readings"]["literal"]["verdict"] == "violated"
    assert a["readings"]["literal"]["counterexample"] == "z3-a.json"
    assert a["readings"]["literal"]["replay"] == "pubsub-proofs replay z3-a.json"
    assert b["readings"]["literal"]["counterexample"] == "hyp-b.json"
    assert d["readings"]["corrected"]["counterexample"] == "spark-d.json"
    bounded = b["readings"]["corrected"]
    assert bounded["verdict"] == "holds"
    assert "exhaustive" in bounded["summary"] and "12 states" in bounded["summary"]
    assert "hypothesis" in bounded["summary"] and "150 cases" in bounded["summary"]
    assert c["readings"]["corrected"]["verdict"] == "unknown"
    assert c["readings"]["literal"]["verdict"] == "holds"
    assert e["readings"]["corrected"]["verdict"] == "proved"
    assert [x["overall"] for x in (a, b, c, d, e)] == ["ambiguous", "ambiguous", "holds", "violated", "holds"]
    assert json.loads(json.dumps(list(table.values()))) == list(table.values())


def test_registered_claims_without_records_are_listed_as_not_checked(tmp_path):
    report = write_report(tmp_path / "check.json", [record("no_cycle", "exhaustive", "holds", algorithm="lbdd")])
    table = by_property(claims.properties_table(report))
    assert table["no_cycle"]["overall"] == "holds"
    assert table["depth_between_5_and_9"]["overall"] == "not checked"
    assert table["depth_between_5_and_9"]["claim"].startswith("sec. 4.3")


def test_claims_a_declaration_says_no_check_reaches_are_listed_with_why(project, tmp_path):
    fixture = fixture_algorithm(tmp_path, unreached=[{"property": "counts_up", "why": "no run can show it"},
                                                  {"property": "is_fast", "claim": "sec. 3: fast", "why": "timing"}])
    table = by_property(claims.properties_table("reports/check.json", [fixture]))
    assert list(table) == ["stays_small", "counts_up", "is_fast"]
    assert table["stays_small"]["overall"] == "ambiguous"
    assert table["counts_up"]["overall"] == "not checked" and table["counts_up"]["why"] == "no run can show it"
    assert table["is_fast"]["claim"] == "sec. 3: fast" and table["is_fast"]["why"] == "timing"


def test_a_missing_report_is_a_clear_error(tmp_path):
    with pytest.raises(ValueError, match=r"no report at .*missing\.json: run `make check` first"):
        claims.properties_table(tmp_path / "missing.json")
    with pytest.raises(ValueError, match="no report at"):
        docs.generate(tmp_path / "missing.json", docs_dir=tmp_path / "docs")


def test_print_claims_shows_verdicts_and_replay_commands(toy_report):
    console = Console(record=True, width=200)
    claims.print_properties(claims.properties_table(toy_report), console)
    text = console.export_text()
    assert "toy.a" in text and "violated" in text and "holds" in text
    assert "pubsub-proofs replay z3-a.json" in text


# --------------------------------------------------------------------------------------------
# Docs: the generic engine, on the fixture
# --------------------------------------------------------------------------------------------

def test_every_algorithm_gets_the_generic_sections_in_the_project_it_runs_in(project, tmp_path):
    written = docs.generate("reports/check.json", algorithms=[fixture_algorithm(tmp_path)])
    page = project / "docs" / "docsfixture.md"     # docs/ of the current directory, not of the package
    assert str(page) in written and page.read_text().startswith("# Docs fixture\n")
    text = page.read_text()
    for name in ("readings", "claims", "verdicts", "errata"):
        assert text.count(docs.markers(name)[0]) == 1
    # readings: what each does (the catalogue's describe), then the fields, a departure in bold
    assert "| reading | what it does | step | note |" in text
    assert "| `hasty` | a step of 2 | **2** | **jumps by two** |" in text
    # claims: key readings are those every checked claim was checked under (here both)
    assert "| property | paper claim | careful | hasty | other readings | overall |" in text
    assert ("| `stays_small` | sec. 9: stays_small | holds | **violated** (exhaustive) | - "
            "| **ambiguous** |") in text
    assert "| `counts_up` | sec. 2: the counter counts up | not checked | not checked | - | **not checked** |" in text
    # counterexamples are linked relative to docs/, inside the project
    assert "[file](../reports/counterexamples/docsfixture/ce.json)" in text
    assert "0 difference(s) from `docsfixture-manifest.json`" in text    # named relative to the project
    # errata: the record's detail by default, and the claim no record covers
    assert "- `hasty`, found by exhaustive: Shortest trace: 2 steps." in text
    assert "Not checked by this report: `counts_up`" in text
    index = (project / "docs" / "README.md").read_text()
    assert "[docsfixture.md](docsfixture.md): Docs fixture" in index
    assert "Generated from `reports/check.json` by `pubsub-proofs docs`." in index


def test_an_algorithm_adds_and_replaces_sections_and_names_its_page(project, tmp_path):
    fixture = fixture_algorithm(tmp_path, own=True, docs_page="counter")
    docs.generate("reports/check.json", docs_dir=project / "elsewhere", algorithms=[fixture])
    text = (project / "elsewhere" / "counter.md").read_text()
    assert "<!-- generated:story -->\nThe counter's own section.\n<!-- /generated:story -->" in text
    assert docs.markers("readings")[0] not in text          # a section given as None is left out
    assert docs.markers("errata")[0] in text
    assert not (project / "docs").exists()


def test_source_fingerprint_sees_code_not_comments_or_docstrings(tmp_path):
    path = tmp_path / "m.py"
    path.write_text('"""Doc."""\n\nX = 1  # one\n\n\ndef f():\n    """Doc of f."""\n    return X\n')
    first = docs.source_fingerprint(path)
    path.write_text('"""Another doc,\non two lines."""\n# a comment\nX = 1\n\ndef f():\n    """Changed."""\n'
                    '    return X   # why\n')
    assert docs.source_fingerprint(path) == first
    path.write_text('"""Doc."""\nX = 2\n\ndef f():\n    return X\n')
    assert docs.source_fingerprint(path) != first


def test_the_committed_reproduction_caches_match_the_code():
    """A fresh clone's `make check` recomputes nothing: every reproduction cached under reports/
    carries the fingerprint of the code as committed. If this fails, run `pubsub-proofs docs`
    and commit reports/<algorithm>-reproduction.json (and the docs) with the code change."""
    checked = 0
    for name in plugin.algorithms():
        try:
            module = importlib.import_module(f"checks.algorithms.{name}.reproduce")
        except ModuleNotFoundError:
            continue
        cache = ROOT / "reports" / f"{name}-reproduction.json"
        if not hasattr(module, "fingerprint") or not cache.exists():
            continue
        assert json.loads(cache.read_text())["key"]["fingerprint"] == module.fingerprint(), cache
        checked += 1
    assert checked >= 1


# --------------------------------------------------------------------------------------------
# Docs: LBDD's own sections
# --------------------------------------------------------------------------------------------

@pytest.fixture
def lbdd_report(tmp_path):
    """A small LBDD report whose failures have real counterexample files."""
    folder = tmp_path / "reports"
    folder.mkdir()
    schedule = folder / "schedule.json"
    schedule.write_text(json.dumps(schedule_document("literal", "z3", 1, 1)))
    view = folder / "view.json"
    view.write_text(json.dumps(view_document("every_subscriber_reached", "literal", "exhaustive",
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
    assert "| `literal` | the paper's pseudocode as written" in text
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


# --------------------------------------------------------------------------------------------
# Bench: the generic runner
# --------------------------------------------------------------------------------------------

def test_bench_writes_every_algorithms_figures_and_refuses_a_taken_key(tmp_path):
    fixture = fixture_algorithm(tmp_path, bench=lambda: {"docsfixture_counter": {"states_per_second": 7.0}})
    out = tmp_path / "bench.json"
    figures = bench.run(out, algorithms=[fixture], console=Console(file=open(os.devnull, "w")))
    assert json.loads(out.read_text()) == figures
    assert list(figures) == ["machine", "targets", "docsfixture_counter", "split_search", "second_solver",
                            "against_targets"]
    assert figures["second_solver"]["by_algorithm"] == {}      # the fixture declares no Z3 check
    assert figures["against_targets"]["best_states_per_second"] == 7.0
    assert figures["against_targets"]["states_per_second_met"] is False
    twice = fixture_algorithm(tmp_path, bench=lambda: {"targets": 1})
    with pytest.raises(ValueError, match="already taken"):
        bench.run(out, algorithms=[twice], console=Console(file=open(os.devnull, "w")))


def test_bench_times_declared_checks_through_the_engine():
    lbdd = plugin.algorithm("lbdd")
    ran = bench.run_checks(lbdd, lambda c: c.method == "z3" and c.property == "schedule_partitions_targets"
                           and c.reading in ("corrected", "literal"))
    assert [(check.reading, results[0].verdict.value) for check, results, _ in ran] == \
        [("corrected", "proved"), ("literal", "violated")]
    assert all(seconds > 0 for _, _, seconds in ran)


def test_a_refutation_by_counting_is_stated_where_its_premise_holds_and_only_there(tmp_path):
    mean = "mean_out_degree_of_all_nodes_is_two"
    report = write_report(tmp_path / "check.json", [
        record(mean, "exhaustive", "violated", "corrected", "ex-c.json", algorithm="lbdd"),
        record("exactly_n_copies", "exhaustive", "holds", "corrected", algorithm="lbdd"),
        record(mean, "exhaustive", "violated", "literal", "ex-l.json", algorithm="lbdd"),
        record("exactly_n_copies", "exhaustive", "violated", "literal", "ex-n.json", algorithm="lbdd"),
        record(mean, "spark", "violated", "rank-from-0", "sp.json", algorithm="lbdd")])
    readings = by_property(claims.properties_table(report))[mean]["readings"]
    corrected = readings["corrected"]
    assert corrected["verdict"] == "violated" and corrected["counting"] == next(p for p in L.PROPERTIES if p.name == mean).refutation
    assert corrected["summary"].startswith("violated by counting wherever exactly_n_copies holds (holds under")
    assert "n/(n + 1) < 1" in corrected["summary"] and corrected["replay"] == "pubsub-proofs replay ex-c.json"
    # where the premise fails or was not checked, the counterexamples are the whole evidence
    assert "counting" not in readings["literal"] and "counting" not in readings["rank-from-0"]


def test_a_counterexample_at_a_size_the_paper_evaluates_follows_the_minimal_one(tmp_path):
    report = write_report(tmp_path / "check.json", [
        {**record("buckets_at_most_log2_n", "spark", "violated", "corrected", "small.json", algorithm="lbdd"),
         "evaluated_counterexample": "at100.json"}])
    combined = by_property(claims.properties_table(report))["buckets_at_most_log2_n"]["readings"]["corrected"]
    assert combined["replay"] == "pubsub-proofs replay small.json"
    assert combined["evaluated_replay"] == "pubsub-proofs replay at100.json"
    console = Console(record=True, width=200)
    claims.print_properties(claims.properties_table(report), console)
    assert "smallest at a size the paper evaluates: pubsub-proofs replay at100.json" in console.export_text()


def test_bench_keeps_the_mutation_scores_and_mutation_keeps_the_bench_figures(tmp_path):
    from checks import mutation

    out = tmp_path / "bench.json"
    mutation.record(out, {"sample": None, "modules": {"reference/x.py": {"score": 0.95}}})
    fixture = fixture_algorithm(tmp_path, bench=lambda: {"docsfixture_counter": {"states_per_second": 7.0}})
    figures = bench.run(out, algorithms=[fixture], console=Console(file=open(os.devnull, "w")))
    assert figures["mutation"]["modules"]["reference/x.py"]["score"] == 0.95
    mutation.record(out, {"sample": {"per_module": 3, "seed": 0}, "modules": {}})
    kept = json.loads(out.read_text())
    assert kept["docsfixture_counter"] == {"states_per_second": 7.0} and kept["mutation"]["sample"]["per_module"] == 3


def test_the_mutation_score_per_module_counts_timeouts_as_kills_and_untested_mutants_as_survivors():
    from checks import mutation

    codes = {"reference.a.x_f__mutmut_1": 1, "reference.a.x_f__mutmut_2": 0, "reference.a.x_f__mutmut_3": 36,
             "reference.a.x_f__mutmut_4": 33, "spec.b.x_g__mutmut_1": 1, "spec.b.x_g__mutmut_2": None}
    scores = mutation.score(codes, ["reference.a.x_f__mutmut_1", "reference.a.x_f__mutmut_2",
                                    "reference.a.x_f__mutmut_3", "reference.a.x_f__mutmut_4", "spec.b.x_g__mutmut_1"])
    a, b = scores["reference/a.py"], scores["spec/b.py"]
    assert (a["killed"], a["survived"], a["score"]) == (2, 2, 0.5) and "interval95" not in a
    assert a["survivors"] == ["reference.a.x_f__mutmut_2", "reference.a.x_f__mutmut_4"]
    assert (b["mutants"], b["run"], b["score"]) == (2, 1, 1.0) and b["interval95"][1] == 1.0
    sample = mutation.sample(sorted(codes), per_module=1, seed=3)
    assert len(sample) == 2 and sample == mutation.sample(sorted(codes), per_module=1, seed=3)
    assert mutation.module_of("spec.b.xǁViewǁ__init____mutmut_1") == "spec/b.py"
    assert mutation.module_of("spec.irbr.flight.x_start__mutmut_2") == "spec/irbr/flight.py"


def test_a_readings_table_leaves_out_what_is_not_part_of_a_reading():
    """Fields outside a reading's equality (where the catalogue checks it: IRBR's runs, spark and
    note) are no columns of the docs' table; the choices are."""
    @attrs.frozen
    class Choice:
        rule: str = "a"
        runs: tuple = attrs.field(default=(), eq=False)

    readings = [Choice("a", ("PublishRun",)), Choice("b", ("FlightRun",))]
    assert docs.reading_fields(readings, ["", ""]) == ["rule"]
