"""Verdicts no stronger than their checks (issue 10, part 3): Z3 lemmas whose step to the property is
not proved record holds, never proved; this project's own questions are labelled and never listed
as errata; Theorem 2 is judged as an expectation from the Spark run's numbers."""

import json
from pathlib import Path

import pytest
import z3

import discovered
from checks import claims, docs, engine, plugin, runner
from checks.algorithms.lbdd import docs as lbdd_docs
from checks.algorithms.scot import proofs as scot_proofs
from checks.algorithms.scot import reproduce as scot_reproduce
from checks.verdict import Verdict
from spec import scot as S
from spec.registry import Key, Property, register

HERE = Path(__file__).resolve().parent


def run(check, algorithm):
    return engine.run_check(check, engine.Context(algorithm, "default", lambda doc: "cx.json"))


# --------------------------------------------------------------------------------------------
# proved only for the property itself
# --------------------------------------------------------------------------------------------

def outcome(verdict):
    def prove() -> plugin.ProofOutcome:
        solver = z3.Solver()        # a query, as every Z3 check asks, for the second solver to confirm
        solver.add(z3.Int("x") > z3.Int("x") + 1)
        solver.check()
        return plugin.ProofOutcome(verdict, cases=2, detail="two lemmas")
    return prove


@pytest.mark.parametrize("verdict, step, expected", [
    (Verdict.PROVED, None, Verdict.PROVED),                          # the property itself: proved
    (Verdict.PROVED, "checked on 10 small cases", Verdict.HOLDS),    # lemmas only: holds, within the step
    (Verdict.VIOLATED, "checked on 10 small cases", Verdict.VIOLATED),
    (Verdict.UNKNOWN, "checked on 10 small cases", Verdict.UNKNOWN),
])
def test_a_proof_of_lemmas_records_holds_within_the_steps_bound(verdict, step, expected):
    algorithm = plugin.algorithm("scot")
    [result] = run(plugin.Proof("subscription_tree_is_shortest", "octopis-sbp", "all distances",
                                outcome(verdict), unproved_step=step), algorithm)
    assert result.verdict is expected
    if step and verdict is Verdict.PROVED:
        assert result.scope == "lemmas: all distances; the step to the property: checked on 10 small cases"
        assert result.detail == "lemmas proved for all sizes, the property within the step's bound; two lemmas"
    else:
        assert (result.scope, result.detail) == ("all distances", "two lemmas")


def proofs_of(name):
    algorithm = plugin.algorithm(name)
    return {(c.property, c.reading): c for c in algorithm.checks(algorithm.scope("default"))
            if isinstance(c, plugin.Proof)}


@pytest.mark.parametrize("name", discovered.names())
def test_only_a_proof_of_the_property_itself_may_say_proved(name):
    """The audit of every algorithm's Z3 checks, the fixture's included: a verdict pinned as proved
    comes from a Proof with no unproved step (its lemmas are the property), and every Proof judges
    a property its spec registers. (Which proofs are of the property itself is each algorithm's
    own test: tests/test_<algorithm>*.py.)"""
    algorithm = discovered.algorithms()[name]
    registered = {p.name for p in algorithm.properties()}
    for scope, entries in runner.load_manifest(algorithm).items():
        checks = {key: c for c in algorithm.checks(algorithm.scope(scope)) for key in c.keys()}
        assert all(c.property in registered for c in checks.values() if isinstance(c, plugin.Proof))
        for key, entry in entries.items():
            if entry["verdict"] == Verdict.PROVED.value:
                k = Key.parse(key)
                check = checks[(k.property, k.reading, k.method)]
                assert isinstance(check, plugin.Proof) and check.unproved_step is None, (scope, key)


def test_the_lbdd_one_way_record_through_the_engine_says_holds():
    check = proofs_of("lbdd")[("one_way_dissemination", "corrected")]
    [result] = run(check, plugin.algorithm("lbdd"))
    assert result.verdict is Verdict.HOLDS and not result.detail.startswith("; ")
    assert "; ;" not in result.detail


def test_the_dnr_reduction_is_checked_on_every_small_decision():
    # 3 aCOLs and 3 iCOLs at most: sum over a, i of 2^(a+i) congested sets times 2^(i+1) CBVs
    assert scot_proofs.step_decisions() == 2550
    assert scot_proofs.step_decisions(1) == 2 + 4 + 8 + 16


def test_the_exhaustive_reduction_check_catches_an_encoding_that_forgets_n_cbvs_own_copy(monkeypatch):
    original = scot_proofs.z3_dnr_step

    def forgetful(reading, *counts):  # as if "separate" added no message
        return original("dnr-skip-congested-acols", *counts)

    monkeypatch.setattr(scot_proofs, "z3_dnr_step", forgetful)
    scot_proofs.cross_check_dnr_step_exhaustively.cache_clear()
    try:
        assert scot_proofs.cross_check_dnr_step_exhaustively("dnr-two-copies", bound=1) > 0
        assert scot_proofs.cross_check_dnr_step_exhaustively("dnr-skip-congested-acols", bound=1) == 0
    finally:
        scot_proofs.cross_check_dnr_step_exhaustively.cache_clear()


def test_every_dnr_reading_agrees_with_its_encoding_on_every_small_decision():
    scot_proofs.cross_check_dnr_step_exhaustively.cache_clear()
    assert all(scot_proofs.cross_check_dnr_step_exhaustively(r, bound=2) == 0 for r in S.DNR_READINGS)


# --------------------------------------------------------------------------------------------
# this project's questions are not the paper's errata
# --------------------------------------------------------------------------------------------

register(Property("honestyfixture", "paper_bound", lambda n: n < 3, "sec. 1: the counter stays below 3"))
register(Property("honestyfixture", "beats_the_baseline", lambda n: n < 2, "sec. 2 (worked cases): no worse",
                  question="the paper shows two worked cases and an average"))


def honesty_algorithm(tmp_path):
    return plugin.Algorithm(
        name="honestyfixture", title="Honesty fixture", spec=__name__,
        readings=plugin.Catalogue({"plain": "plain"}, describe=lambda r: "plain"),
        scopes={"default": None}, checks=lambda scope: [], replay=lambda doc, say: plugin.Replayed(True),
        manifest=tmp_path / "honestyfixture-manifest.json")


def test_a_question_is_labelled_and_never_listed_as_an_erratum(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    rec = {"algorithm": "honestyfixture", "method": "exhaustive", "verdict": "violated", "scope": "s",
           "reading": "plain", "cases": 3, "states": None, "seconds": 0.1, "counterexample": None,
           "expected": None, "detail": "a counterexample"}
    report = Path("reports/check.json")
    report.parent.mkdir()
    report.write_text(json.dumps({"scope": "default", "seconds": 1.0, "mismatches": [], "results": [
        {**rec, "property": "paper_bound", "claim": "sec. 1: the counter stays below 3"},
        {**rec, "property": "beats_the_baseline", "claim": "sec. 2 (worked cases): no worse"}]}))
    algorithm = honesty_algorithm(tmp_path)
    table = {e["property"]: e for e in claims.properties_table(report, [algorithm])}
    assert table["beats_the_baseline"]["question"] == "the paper shows two worked cases and an average"
    assert "question" not in table["paper_bound"]
    docs.generate(str(report), algorithms=[algorithm])
    text = (tmp_path / "docs" / "honestyfixture.md").read_text()
    errata = text.split(docs.markers("errata")[0])[1].split(docs.markers("errata")[1])[0]
    assert "#### `paper_bound`" in errata and "#### `beats_the_baseline`" not in errata
    assert ("This project's questions, not the paper's claims (a violation here is no erratum): "
            "`beats_the_baseline` is violated (the paper shows two worked cases and an average).") in errata
    assert ("sec. 2 (worked cases): no worse (*this project's question, not a paper claim*: the paper shows two "
            "worked cases and an average)") in text


def test_scots_per_notification_message_count_is_this_projects_question():
    questions = [p.name for p in plugin.algorithm("scot").properties() if p.question]
    assert questions == ["dnr_costs_no_more_messages_than_snr"]


# --------------------------------------------------------------------------------------------
# Theorem 2 as an expectation, from the Spark run's sums
# --------------------------------------------------------------------------------------------

class Ctx:
    def __init__(self, root):
        self.root, self.sources = root, []

    def resolve(self, path):
        return self.root / path

    def source(self, path):
        self.sources.append(str(Path(path).relative_to(self.root)))
        return self.sources[-1]


def write_validation(root, values, paper=None, readings=("corrected", "literal")):
    paper = [1] * len(values) if paper is None else paper
    kept = [v for v, p in zip(values, paper) if p]
    path = root / lbdd_docs.VALIDATION
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"config": {"readings": list(readings)}, "metrics": {
        "at_paper_sizes": {"min": 0, "max": 1, "sum": sum(paper), "squares": sum(paper)},
        "sender_degree_milli_at_paper_sizes": {"min": 0, "max": max(values), "sum": sum(kept),
                                               "squares": sum(v * v for v in kept)}}}))


def test_theorem_2_from_the_spark_run_gives_the_mean_and_its_interval(tmp_path):
    write_validation(tmp_path, [1900, 2000, 2100, 2000])  # mean 2.0, sd 0.08165, half 1.96 sd / 2
    ctx = Ctx(tmp_path)
    text = lbdd_docs.spark_expectation(ctx, 2)
    assert "over the 4 random topologies with 100 <= n <= 500" in text and "reading `corrected`" in text
    assert "is 2.0000, 95% interval [1.9200, 2.0800]" in text
    assert "2 lies inside it: this run cannot tell the expectation from 2" in text
    assert "holds" not in text.split("lies inside it")[1].replace("that it holds", "")   # a non-rejection is no "holds"
    assert ctx.sources == [lbdd_docs.VALIDATION]


def test_theorem_2_outside_the_interval_is_said_to_fail_under_that_reading(tmp_path):
    write_validation(tmp_path, [2100, 2120, 2080, 2100, 0], paper=[1, 1, 1, 1, 0], readings=("literal",))
    text = lbdd_docs.spark_expectation(Ctx(tmp_path), 2)
    assert "over the 4 random topologies" in text and "reading `literal`" in text and "is 2.1000" in text
    assert "2 lies outside it, 0.1000 away: read so, the expectation is not 2" in text


def test_theorem_2_from_spark_is_left_out_without_the_metric(tmp_path):
    assert lbdd_docs.spark_expectation(Ctx(tmp_path), 2) is None            # no report
    path = tmp_path / lbdd_docs.VALIDATION
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps({"metrics": {"depth": {"min": 1, "max": 2, "sum": 3}}}))
    assert lbdd_docs.spark_expectation(Ctx(tmp_path), 2) is None            # an older report
    write_validation(tmp_path, [2000])
    assert lbdd_docs.spark_expectation(Ctx(tmp_path), 2) is None            # one topology: no interval


# --------------------------------------------------------------------------------------------
# every router draws in the SCOT burst figure
# --------------------------------------------------------------------------------------------

def test_the_burst_figure_draws_every_router(tmp_path):
    routers = {r: {"target_queue_per_window": [1, 2], "max_delay_per_100_burst_deliveries": [1000, 2000]}
               for r in S.ROUTERS + ("a-router-added-later",)}
    rep = {"burst": {"hrp_notifications": 10, "series": {"routers": routers, "window_ticks": 10, "rate_npm": 60000,
                                                          "rule": "ce-above-1", "seed": 0}},
           "tree_lengths": {"trees": 1, "by_spread": [{"spread": 0, "shorter_min": 0.0, "shorter_max": 0.2,
                                                       "shorter_mean": 0.1}]}}
    names = scot_reproduce.draw_figures(rep, tmp_path)
    assert names == [str(tmp_path / scot_reproduce.BURST_FIGURE), str(tmp_path / scot_reproduce.LENGTHS_FIGURE)]
    assert all(Path(name).stat().st_size > 0 for name in names)
