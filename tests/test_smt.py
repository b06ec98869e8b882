"""The second solver (checks.smt, issue 26): every Z3 answer a verdict rests on is asked again of
cvc5, a disagreement or an unconfirmed answer makes the verdict unknown, and the published
queries are the ones the encodings ask and reproduce with cvc5."""

import json
from pathlib import Path

import pytest
import z3

import tokenring
from checks import engine, plugin, runner, smt
from checks.verdict import Verdict

ROOT = Path(__file__).resolve().parents[1]
FIXTURE = tokenring.ALGORITHM


def lemma_proof(lemma) -> plugin.Proof:
    """A Proof of `lemma(x)` for all integers x, as the algorithms' proofs.py write theirs: its
    terms built when it runs (in the fresh context the engine gives it)."""
    def prove() -> plugin.ProofOutcome:
        solver = z3.Solver()
        solver.add(z3.Not(lemma(z3.Int("x"))))
        answer = solver.check()
        if answer == z3.unsat:
            return plugin.ProofOutcome(Verdict.PROVED, 1, "unsat")
        return plugin.ProofOutcome(Verdict.VIOLATED if answer == z3.sat else Verdict.UNKNOWN, 1, str(answer))
    return plugin.Proof("exactly_one_token", "correct", "every x", prove)


def run(proof: plugin.Proof):
    [r] = engine.run_check(proof, engine.Context(FIXTURE, "default", lambda doc: "cx.json"))
    return r


X = z3.Int("x")


def test_a_proof_carries_cvc5s_answer_to_every_query_z3_was_asked():
    r = run(lemma_proof(lambda x: x + 1 > x))
    assert r.verdict is Verdict.PROVED
    assert r.second_solver == {"solver": "cvc5", "version": smt.version(), "queries": 1, "answered_by_z3": 1,
                               "agreed": 1, "with finite model finding": 0,
                               "with counterexample-guided instantiation": 0}
    [q] = r.queries
    assert (q.z3, q.second, q.configuration) == ("unsat", "unsat", "default") and "(assert" in q.text
    assert "second_solver" in r.as_json() and "queries" not in r.as_json()
    violated = run(lemma_proof(lambda x: x > 0))
    assert violated.verdict is Verdict.VIOLATED and violated.queries[0].second == "sat"


def test_a_planted_disagreement_makes_the_verdict_unknown(monkeypatch):
    """The encoding changed for cvc5 only: its text asks the lemma itself, which is satisfiable."""
    real = smt.export
    monkeypatch.setattr(smt, "export", lambda assertions, assumptions=(), ctx=None: real(
        [z3.Not(a) for a in assertions], assumptions, ctx))
    r = run(lemma_proof(lambda x: x + 1 > x))
    assert r.verdict is Verdict.UNKNOWN
    assert r.detail.startswith("cvc5 disagrees on query 1 of 1: Z3 unsat, cvc5 sat (Z3 alone: proved")
    assert r.second_solver["agreed"] == 0 and r.counterexample is None


def test_a_proof_runs_in_a_fresh_z3_context_so_terms_built_before_it_are_refused():
    built_before = z3.Int("x") + 1 > z3.Int("x")
    r_error = None
    try:
        run(lemma_proof(lambda x: built_before))
    except z3.Z3Exception as e:
        r_error = e
    assert r_error is not None
    with smt.fresh_context():
        assert z3.Int("y").ctx is not built_before.ctx
    assert z3.Int("y").ctx is built_before.ctx       # the main context is back afterwards


def test_an_answer_cvc5_cannot_give_in_time_makes_the_verdict_unknown(monkeypatch):
    monkeypatch.setattr(smt, "ask_second", lambda text, timeout_ms=smt.TIMEOUT_MS: ("unknown (TIMEOUT)", 60.0, "default"))
    r = run(lemma_proof(lambda x: x + 1 > x))
    assert r.verdict is Verdict.UNKNOWN and "cvc5 could not confirm on query 1 of 1" in r.detail


def test_recording_sees_solvers_and_optimizers_and_leaves_z3_as_it_was():
    solver_check, optimize_check = z3.Solver.check, z3.Optimize.check
    with smt.recording() as asked:
        s = z3.Solver()
        s.add(X > 2)
        assert s.check(X < 1) == z3.unsat          # an assumption is part of the question
        o = z3.Optimize()
        o.add(X > 2)
        o.minimize(X)
        assert o.check() == z3.sat
    assert [q.z3 for q in asked] == ["unsat", "sat"]
    assert "(< x 1)" in asked[0].text and "minimize" not in asked[1].text
    assert (z3.Solver.check, z3.Optimize.check) == (solver_check, optimize_check)
    assert [smt.ask_second(q.text)[0] for q in asked] == ["unsat", "sat"]


def test_a_proof_that_asks_z3_nothing_is_unknown():
    def prove() -> plugin.ProofOutcome:
        return plugin.ProofOutcome(Verdict.PROVED, 1, "by hand")
    r = run(plugin.Proof("exactly_one_token", "correct", "every x", prove))
    assert r.verdict is Verdict.UNKNOWN and r.detail.startswith("Z3 gave no answer for cvc5 to confirm (0 queries")


@pytest.mark.parametrize("ask", [
    lambda s, a, b: s.assert_and_track(a > 0, b),
    lambda s, a, b: z3.Tactic("smt")(z3.And(a > 0, a < 0)),
    lambda s, a, b: z3.Tactic("simplify").apply(a > 0)])
def test_ways_of_asking_z3_that_cannot_be_exported_are_refused_while_recording(ask):
    with smt.recording():
        with pytest.raises(ValueError, match="checks.smt cannot export"):
            ask(z3.Solver(), z3.Int("a"), z3.Bool("b"))
    s = z3.Solver()
    s.assert_and_track(z3.Int("a") > 0, z3.Bool("b"))     # outside, Z3 as it was
    assert s.check() == z3.sat


def test_a_solver_of_another_context_and_a_list_of_assumptions_are_exported():
    ctx = z3.Context()
    y = z3.Int("y", ctx)
    with smt.recording() as asked:
        s = z3.Solver(ctx=ctx)
        s.add(y > 2)
        assert s.check([y < 1, y > -5]) == z3.unsat
    [q] = asked
    assert "(< y 1)" in q.text and "(> y (- 5))" in q.text and smt.ask_second(q.text)[0] == "unsat"


def test_let_names_are_numbered_in_order_outside_strings_and_quoted_symbols():
    text = '(let ((?x18 (f "?x17" |a ?x5|))) (g ?x18 $x9 ?x18 b?x4))'
    assert smt.numbered_in_order(text) == '(let ((?x1 (f "?x17" |a ?x5|))) (g ?x1 $x2 ?x1 b?x4))'


def test_an_option_cvc5_refuses_is_an_unknown_answer_not_a_crash():
    answer, _, used = smt.ask_second("(declare-fun x () Int)(assert (> x 0))(check-sat)", timeout_ms=-1)
    assert answer.startswith("unknown (") and used == smt.CONFIGURATIONS[-1][0]


def test_pseudo_boolean_constraints_are_written_as_the_sums_they_are():
    a, b, c = z3.Bools("a b c")
    for constraint in (z3.PbEq([(a, 2), (b, 3), (c, 1)], 3), z3.AtMost(a, b, c, 1), z3.AtLeast(a, b, 2),
                       z3.PbLe([(a, 2), (b, 1)], 2), z3.PbGe([(a, 2), (b, 1)], 2)):
        text = smt.export([constraint])
        assert "(_ pb" not in text and "(_ at-" not in text
        same = z3.Solver()
        same.add(constraint != smt._without_pb(constraint, {}))
        assert same.check() == z3.unsat
        assert smt.ask_second(text)[0] == "sat"


def test_cvc5_refusing_a_text_is_an_unknown_answer_naming_why():
    answer, _, used = smt.ask_second("(assert (frobnicate x))\n(check-sat)\n")
    assert answer == "unknown (RuntimeError: Symbol 'x' not declared as a variable)" and used == smt.CONFIGURATIONS[-1][0]


def test_a_published_file_reads_back_as_its_queries_and_reruns_with_cvc5(tmp_path):
    with smt.recording() as asked:
        s = z3.Solver()
        s.add(X * X < 0)
        s.check()
        s2 = z3.Solver()
        s2.add(X > 3)
        s2.check()
    data = smt.published("tokenring/p/r/z3", asked)
    assert data == smt.published("tokenring/p/r/z3", asked)      # the same bytes every time
    path = tmp_path / "q.smt2.xz"
    path.write_bytes(data)
    read = smt.read_published(path)
    assert [status for status, _ in read] == ["unsat", "sat"]
    assert [smt.ask_second(text)[0] for _, text in read] == ["unsat", "sat"]


@pytest.mark.long(20)
@pytest.mark.parametrize("name", sorted(plugin.algorithms()))     # one per algorithm: side by side on the workers
def test_every_committed_query_file_is_what_its_encoding_asks_now(monkeypatch, name):
    """Every Z3 check of this algorithm (the medium ones too, which `make test`'s fast run leaves
    out) asked again, Z3 only: its published file holds the same queries."""
    monkeypatch.setattr(smt, "ask_second", lambda text, timeout_ms=0, certify=False: ("unsat", 0.0, "stubbed"))
    committed = json.loads((ROOT / "reports" / "check.json").read_text())["results"]
    algorithm = plugin.algorithms()[name]
    proofs = [c for c in algorithm.checks(algorithm.scope("default")) if isinstance(c, plugin.Proof)]
    if not proofs:
        pytest.skip(f"{name} declares no Z3 check")      # a plug-in named in PUBSUB_PROOFS_PLUGINS, say
    ctx = engine.Context(algorithm, "default", lambda doc: "unused")
    for check in proofs:
        [r] = engine.run_check(check, ctx)
        path = ROOT / "reports" / "smt" / algorithm.name / smt.file_name(r.property, r.reading)
        stored = [(status, text) for status, text in smt.read_published(path)]
        asked = [(q.z3 if q.z3 in smt.ANSWERS else "unknown",
                  smt.parse_published(smt.published_text(r.key, [q]))[0][1]) for q in r.queries]
        assert stored == asked, f"{path}: rerun `pubsub-proofs check {algorithm.name} --methods z3`"
    assert any(r["algorithm"] == name and r["method"] == "z3" for r in committed)


def test_the_run_publishes_each_z3_checks_queries_and_removes_those_no_record_names(tmp_path):
    report = tmp_path / "check.json"
    runner.run([FIXTURE], report=report, methods={"z3"})
    folder = smt.query_folder(report) / FIXTURE.name
    files = sorted(p.name for p in folder.iterdir())
    records = [r for r in json.loads(report.read_text())["results"] if r["method"] == "z3"]
    assert files == sorted(smt.file_name(r["property"], r["reading"]) for r in records)
    assert all(r["second_solver"]["agreed"] == r["second_solver"]["answered_by_z3"] > 0 for r in records)
    timings = json.loads(runner.timings_path(report).read_text())["results"]
    assert all(set(t["solver_seconds"]) == {"z3", "cvc5"} for k, t in timings.items() if k.endswith("/z3"))
    stale = folder / smt.file_name("exactly_one_token", "gone")
    stale.write_bytes(b"")
    before = json.loads(report.read_text())
    before["results"].append({**records[0], "reading": "gone"})
    report.write_text(json.dumps(before))
    runner.run([FIXTURE], report=report, methods={"z3"})
    assert not stale.exists() and sorted(p.name for p in folder.iterdir()) == files


COMMITTED = sorted((ROOT / "reports" / "smt").rglob("*.smt2.xz"))


def test_the_committed_queries_are_the_reports_and_say_z3s_answers():
    records = {(r["algorithm"], smt.file_name(r["property"], r["reading"])): r
               for r in json.loads((ROOT / "reports" / "check.json").read_text())["results"] if r.get("second_solver")}
    assert COMMITTED and {(p.parent.name, p.name) for p in COMMITTED} == set(records)
    for path in COMMITTED:
        record = records[path.parent.name, path.name]
        assert len(smt.read_published(path)) == record["second_solver"]["queries"]
        assert record["second_solver"]["agreed"] == record["second_solver"]["answered_by_z3"]


@pytest.mark.parametrize("path", [p for p in COMMITTED if p.stat().st_size < 4000], ids=lambda p: p.name)
def test_the_small_committed_query_files_reproduce_with_cvc5(path):
    for status, text in smt.read_published(path):
        assert smt.ask_second(text)[0] == status


def test_a_certificate_counts_only_for_the_file_it_was_made_of(tmp_path):
    """`queries --certify`: cvc5's own proof checker (unsat) and model checker (sat) accept each
    answer; a certificate names the file's digest, so a regenerated file is uncertified."""
    with smt.recording() as asked:
        for constraint in (X * X < 0, X > 3):
            s = z3.Solver()
            s.add(constraint)
            s.check()
    report = tmp_path / "check.json"
    path = smt.query_folder(report) / "tokenring" / smt.file_name("exactly_one_token", "correct")
    path.parent.mkdir(parents=True)
    path.write_bytes(smt.published("tokenring/exactly_one_token/correct/z3", asked))
    asked_count, wrong, certificates = smt.rerun(smt.query_folder(report), None, "cvc5", say=lambda line: None,
                                                 certify=True)
    assert (asked_count, wrong) == (2, []) and certificates["tokenring/" + path.name]["certified"] == 2
    assert not smt.certified(report, "tokenring", "exactly_one_token", "correct")       # nothing written yet
    smt.certificates_path(report).write_text(json.dumps({"files": certificates}))
    assert smt.certified(report, "tokenring", "exactly_one_token", "correct")
    path.write_bytes(smt.published("tokenring/exactly_one_token/correct/z3", asked[:1]))
    assert not smt.certified(report, "tokenring", "exactly_one_token", "correct")
