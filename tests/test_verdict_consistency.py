"""Sentence verdicts no stronger and no weaker than their checks (issue 21).

Two parts. `judge`, the rule that turns a claim's verdict under each reading into one verdict, on
small tables that a mutant of the rule would get wrong. Then an audit of what is committed: every
algorithm's inventory and reading notes against reports/check.json, and the docs' wording, so that
a note saying a reading holds where the report has it violated (the stale IRBR note of issue 21),
two verdicts for one claim on one page, "holds" for a test that only failed to reject, or "proved"
for less than a property proved for all sizes, fails the suite.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import attrs
import pytest

from checks import claims, plugin

ROOT = Path(__file__).resolve().parents[1]
REPORT = ROOT / "reports" / "check.json"
V, H, P, U = claims.FAILS, claims.BOUNDED, claims.PROVED, claims.UNKNOWN


# --------------------------------------------------------------------------------------------
# The rule
# --------------------------------------------------------------------------------------------

def test_a_printed_reading_that_fails_makes_the_claim_violated_whatever_a_repair_does():
    judged = claims.judge({"literal": V, "fixed": H, "other-fix": V}, {"literal": "printed", "fixed": "repair",
                                                                        "other-fix": "repair"})
    assert judged["verdict"] == V and judged["origin"] == "printed" and judged["deciding"] == ["literal"]
    assert judged["beside"] == {"fixed": ("repair", H), "other-fix": ("repair", V)}
    note = claims.judgement_note(judged, {"literal": V, "fixed": H, "other-fix": V})
    assert note == "violated under the printed reading `literal`; reading with this project's repairs `fixed` holds (1 more violated)"


def test_a_printed_reading_that_holds_decides_over_a_repair_that_fails():
    assert claims.judge({"literal": P, "fixed": V}, {"literal": "printed", "fixed": "repair"})["verdict"] == "holds"


def test_readings_of_one_standing_that_disagree_are_ambiguous_and_the_note_says_which():
    by_reading = {"a": V, "b": H}
    judged = claims.judge(by_reading, {"a": "open", "b": "open"})
    assert judged["verdict"] == "ambiguous"
    assert claims.judgement_note(judged, by_reading) == "depends on the open readings: violated under `a`; holds under `b`"
    # two printed readings that differ where the text is silent disagree too
    assert claims.judge({"a": V, "b": H}, {"a": "printed", "b": "printed"})["verdict"] == "ambiguous"


def test_repairs_decide_only_where_no_printed_or_open_reading_reaches_the_claim():
    origins = {"p": "printed", "o": "open", "r": "repair", "x": "ablation", "b": "baseline"}
    assert claims.judge({"o": H, "r": V}, origins)["verdict"] == "holds"
    assert claims.judge({"r": V, "x": H}, origins)["verdict"] == V
    assert claims.judge({"x": V, "b": H}, origins)["origin"] == "ablation"
    assert claims.judge({"b": V}, origins)["verdict"] == V
    # an unknown printed reading decides nothing, but it still decides which origin speaks
    assert claims.judge({"p": U, "r": H}, origins)["verdict"] == U


def test_a_sentence_names_the_printed_readings_of_its_part_and_the_readings_it_speaks_of():
    origins = {"literal": "printed", "part-printed": "repair", "fixed": "repair", "baseline": "baseline"}
    by_reading = {"literal": V, "part-printed": H, "fixed": H, "baseline": V}
    judged = claims.judge(by_reading, origins, printed=("part-printed",))
    assert judged["verdict"] == "holds" and judged["deciding"] == ["part-printed"] and judged["this_part"]
    assert claims.judgement_note(judged, by_reading).startswith("holds under the readings that run this part as printed `part-printed`")
    # a printed override that reaches nothing falls back on the catalogue's origins
    assert claims.judge({"literal": V}, origins, printed=("absent",))["verdict"] == V
    assert claims.judge(by_reading, origins, about=("fixed", "baseline"))["deciding"] == ["fixed"]
    assert claims.judge(by_reading, origins, about=("none",))["verdict"] == "not checked"


def test_a_sentence_is_violated_under_a_reading_where_any_property_judging_it_is():
    entries = [{"readings": {"a": {"verdict": H}, "b": {"verdict": H}, "c": {"verdict": U}}},
               {"readings": {"a": {"verdict": V}, "b": {"verdict": P}}}]
    assert claims.sentence_readings(entries) == {"a": V, "b": "holds", "c": U}


def test_a_reading_a_property_was_not_checked_under_takes_the_verdict_of_the_one_that_answers_for_it():
    """The ring checks a part only under the readings that resolve its fields differently: a
    sentence over two parts is violated under a reading where the part it was not run on fails
    under the reading that runs that part alike (issue 24's abstract: `literal/both-tell`)."""
    catalogue = plugin.Catalogue({n: n for n in ("a", "b", "c")},
                                 stand_in=lambda prop, reading: "a" if prop == "link" and reading == "b" else None)
    entries = [{"property": "node", "readings": {"a": {"verdict": H, "summary": "s"}, "b": {"verdict": H, "summary": "t"},
                                                 "c": {"verdict": H, "summary": "u"}}},
               {"property": "link", "readings": {"a": {"verdict": V, "summary": "w"}}}, {}]
    filled = claims.with_stand_ins(catalogue, entries)
    assert filled[1]["readings"]["b"] == {"verdict": V, "as_under": "a", "summary": "as under `a`, which resolves what `link` reads "
                                                                  "alike: w"}
    assert "c" not in filled[1]["readings"] and filled[0] is entries[0] and filled[2] == {}
    assert claims.sentence_readings(filled) == {"a": V, "b": V, "c": "holds"}
    assert claims.sentence_readings(entries) == {"a": V, "b": "holds", "c": "holds"}   # what it said before
    claim = plugin.Sentence("sec. 1", "both parts", checked_by=("node", "link"), printed=("a",))
    _, note, _ = claims.judge_sentence(claim, filled[:2], {"a": "printed", "b": "open", "c": "open"})
    assert note.endswith("`b` not run on `link`: there it is `a`, which resolves what they read alike")
    ring = ALGORITHMS["chordal_ring"].readings.stand_in
    assert ring("link_failure_concluded", "literal/both-tell") == "literal"
    assert ring("node_failure_confirmed", "literal/b-always-queries") == "literal"
    assert ring("node_failure_confirmed", "literal/both-tell") == "literal/both-tell"
    assert ring("pointers_agree", "corrected") == "corrected" and ring("no_such", "literal") is None


def test_an_unknown_origin_is_refused():
    with pytest.raises(ValueError, match="origin must be one of"):
        plugin.origin_of(attrs.make_class("R", {"name": attrs.field(default="r"),
                                                "origin": attrs.field(default="guessed")})())


# --------------------------------------------------------------------------------------------
# What is committed
# --------------------------------------------------------------------------------------------

ALGORITHMS = plugin.algorithms()
NEGATIONS = re.compile(r"\b(not|never|lose|loses|lost|miss|misses|fail|fails|break|breaks|violat\w*|"
                       r"duplicates|twice)\b")


def clauses(text: str) -> list[str]:
    return [c for c in re.split(r"[;.](?:\s|$)", text) if c.strip()]


def readings_named(token: str, catalogue: plugin.Catalogue) -> list[str]:
    """The readings a note means by `token`: the one of that name, else every reading one of whose
    choices (an attrs field) has that value."""
    if token in catalogue:
        return [token]
    return [name for name, r in catalogue.readings.items()
            if attrs.has(type(r)) and token in [v for v in attrs.astuple(r) if isinstance(v, str)]]


@pytest.fixture(scope="module")
def sentences():
    return claims.sentences_table(REPORT)


@pytest.fixture(scope="module")
def table():
    return {(e["algorithm"], e["property"]): e for e in claims.properties_table(REPORT)}


@pytest.mark.parametrize("name", sorted(ALGORITHMS))
def test_reading_notes_that_say_a_reading_holds_agree_with_the_report(name, sentences, table):
    """A note's clause that names a reading (or one of its choices) and says it holds is false when
    the sentence is violated under every such reading with a record (a property that judges it is)."""
    catalogue, wrong = ALGORITHMS[name].readings, []
    tokens = set(catalogue.names()) | {v for r in catalogue.readings.values() if attrs.has(type(r))
                                       for v in attrs.astuple(r) if isinstance(v, str) and "-" in v}
    for row in (r for r in sentences if r["algorithm"] == name and r["checked_by"]):
        for clause in clauses(row["reading"]):
            if not re.search(r"\bholds?\b", clause) or NEGATIONS.search(clause):
                continue
            for token in sorted(t for t in tokens if re.search(rf"(?<![\w/-]){re.escape(t)}(?![\w/-])", clause)):
                under = claims.sentence_readings(claims.with_stand_ins(
                    catalogue, [table.get((name, p), {}) for p in row["checked_by"]]))
                verdicts = [under[r] for r in readings_named(token, catalogue) if r in under]
                if verdicts and all(v == V for v in verdicts):
                    wrong.append(f"{row['section']}: {token!r} said to hold in {clause.strip()!r}")
    assert not wrong, "\n".join(wrong)


def test_the_stale_irbr_note_of_issue_21_would_have_failed():
    catalogue = ALGORITHMS["irbr"].readings
    assert "covering-ordered/repaired/smallest/resubscribe-uncovered" in readings_named("widen-then-withdraw", catalogue)
    assert readings_named("dnr-icols-only", ALGORITHMS["scot"].readings) == ["dnr-icols-only"]
    assert clauses("a holds; b (c) loses. d.") == ["a holds", "b (c) loses", "d"]
    old = ("the rule is unspecified: this project's widen-then-withdraw (an 'uncover' notice spreads first, and "
           "the withdrawal only when no notice or widening is in flight) holds in the explored scopes")
    assert [c for c in clauses(old) if re.search(r"\bholds?\b", c) and not NEGATIONS.search(c)] == [old]


@pytest.mark.parametrize("name", sorted(ALGORITHMS))
def test_an_ambiguous_sentence_hides_no_printed_reading(name, sentences):
    """"ambiguous" is said only where the deciding readings are open choices or printed readings
    that differ where the text is silent: never where every printed reading is violated."""
    for row in (r for r in sentences if r["algorithm"] == name and r["verdict"] == "ambiguous"):
        assert row["note"].startswith(("depends on the printed reading", "depends on the open reading", "depends on the readings that run", "depends on this project", "the sentence read")), row


@pytest.mark.parametrize("name", sorted(ALGORITHMS))
def test_a_sentence_and_the_one_property_that_checks_it_give_one_verdict(name, sentences, table):
    """`claims` and `claims --sentences` must not judge one claim two ways (the ring's link-failure
    sentences were ambiguous while their property's row said violated): a sentence that one
    property alone checks, over every reading, has that property's overall verdict, wherever the
    sentences that property alone checks agree on which readings run their part as printed."""
    inventory = ALGORITHMS[name].inventory() if ALGORITHMS[name].inventory else ()
    own = {}
    for claim in inventory:
        if len(claim.checked_by) == 1 and not (claim.about or claim.warns or claim.alternatives):
            own.setdefault(claim.checked_by[0], set()).add((claim.printed, claim.open_choices))
    compared, wrong = 0, []
    for claim, row in zip(inventory, (r for r in sentences if r["algorithm"] == name)):
        assert row["text"] == claim.text
        prop = claim.checked_by[0] if len(claim.checked_by) == 1 else None
        if prop is None or claim.about or claim.warns or claim.alternatives or len(own[prop]) != 1:
            continue
        compared += 1
        if row["verdict"] != table[(name, prop)]["overall"]:
            wrong.append(f"{row['section']} {row['text'][:60]!r}: {row['verdict']}, {prop}: {table[(name, prop)]['overall']}")
    assert compared and not wrong, "\n".join(wrong)


def test_a_property_is_judged_by_the_printed_readings_its_own_sentences_name():
    verdicts = {"literal": V, "literal/other": H}
    origins = {"literal": "printed", "literal/other": "open"}
    declaration = attrs.evolve(ALGORITHMS["chordal_ring"], inventory=lambda: [
        plugin.Sentence("sec. 1", "one", checked_by=("p",), printed=("literal", "literal/other")),
        plugin.Sentence("sec. 2", "two", checked_by=("p", "q"), printed=("literal",)),   # not its alone
        plugin.Sentence("sec. 3", "three", checked_by=("q",), printed=("literal",)),
        plugin.Sentence("sec. 4", "four", checked_by=("q",), printed=("literal", "literal/other")),
        plugin.Sentence("sec. 5", "five", checked_by=("r",), printed=("literal/other",), about=("literal/other",))])
    assert claims.own_printed(declaration, "p") == (("literal", "literal/other"), ())
    assert claims.judge(verdicts, origins, *claims.own_printed(declaration, "p"))["verdict"] == "ambiguous"
    # its sentences disagree, or say something narrower: the catalogue's origins decide
    for prop in ("q", "r", "s"):
        assert claims.own_printed(declaration, prop) == ((), ())
        assert claims.judge(verdicts, origins, *claims.own_printed(declaration, prop))["verdict"] == V
    assert claims.own_printed(None, "p") == ((), ())
    # a property no sentence checks alone takes the printed readings of those it shares, where they agree
    shared = attrs.evolve(declaration, inventory=lambda: [
        plugin.Sentence("sec. 1", "one", checked_by=("p", "q"), printed=("literal",)),
        plugin.Sentence("sec. 2", "two", checked_by=("q", "p"), printed=("literal",)),
        plugin.Sentence("sec. 3", "three", checked_by=("q", "r"), printed=("literal",)),
        plugin.Sentence("sec. 4", "four", checked_by=("r",), printed=("literal/other",))])
    assert claims.own_printed(shared, "p") == (("literal",), ())
    assert claims.own_printed(shared, "r") == (("literal/other",), ())    # its own sentence first


@pytest.mark.parametrize("page", sorted((ROOT / "docs").glob("*.md")), ids=lambda p: p.name)
def test_one_verdict_per_sentence_and_per_property_on_a_page(page):
    text, seen = page.read_text(), {}
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 4 and cells[2].startswith("**") and cells[2].endswith("**"):   # sentences: where, text, verdict
            key = (cells[0], cells[1])
            assert seen.setdefault(key, cells[2]) == cells[2], f"{page.name}: two verdicts for {key}"


@pytest.mark.parametrize("page", [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))], ids=lambda p: p.name)
def test_no_page_calls_a_failure_to_reject_holds(page):
    text = " ".join(page.read_text().split())
    found = re.findall(r"lies inside [^.]{0,120}\b(?:so|thus|hence)\b[^.]{0,60}\bholds\b", text)
    assert not found, found


def test_proved_only_for_a_property_proved_for_all_sizes():
    records = json.loads(REPORT.read_text())["results"]
    proved = [r for r in records if r["verdict"] == "proved"]
    assert proved, "no proof in the report: the audit would pass vacuously"
    for r in proved:
        assert r["method"] == "z3" and "lemmas:" not in r["scope"], r


def test_a_sentence_judged_by_a_reproduction_takes_its_verdict_and_evidence():
    from checks.algorithms.scot import inventory

    verdict, evidence = inventory.fewer_sbp_messages()
    assert verdict == V and "79.8% fewer, not 89%" in evidence and "482 candidate" in evidence
    assert inventory.fewer_sbp_messages(claimed=0.798)[0] == "holds"
    with pytest.raises(ValueError, match="needs one of checked_by, why or reproduced"):
        plugin.Sentence("sec. 1", "text", why="no", reproduced=lambda: ("holds", ""))


def test_every_reproduced_sentence_names_its_evidence(sentences):
    reproduced = [r for r in sentences if r["note"].startswith(("violated by the reproduction",
                                                                "holds by the reproduction"))]
    scot = [r for r in reproduced if r["algorithm"] == "scot"]
    assert sorted((r["verdict"], "89%" in r["text"] or "80%" in r["text"]) for r in scot) == [
        ("holds", True), (V, True), (V, True)]
    irbr = {r["section"] + ": " + r["text"][:30]: (r["verdict"], r["note"]) for r in reproduced if r["algorithm"] == "irbr"}
    assert {k: v for k, (v, _) in irbr.items()} == {
        "sec. 2 Table 1: For k = 4, L = 3 the routing t": "holds",           # the worked examples, exactly
        "sec. 2: Node 213 sending a message to ": "holds",
        "sec. 3.3 Fig. 3: Initially node 210 has defined": "holds",
        "sec. 3.1: For each node of a structured ": V,                       # entries come and go (sec. 2)
        "sec. 3.3: As the number of subscriptions": "holds"}
    notes = {k: note for k, (_, note) in irbr.items()}
    assert "213 -> 202 -> 201" in notes["sec. 2: Node 213 sending a message to "]
    assert "has 9 entries" in notes["sec. 3.1: For each node of a structured "] and "leaves it 8" in \
        notes["sec. 3.1: For each node of a structured "]
    assert " -> " in notes["sec. 3.3: As the number of subscriptions"]


def test_irbr_worked_examples_fail_when_the_spec_changes(monkeypatch):
    """The reproductions compare with the paper's printed tables: a routing table built one level
    off, or a covered subscribe sent everywhere, is caught."""
    from checks.algorithms.irbr import inventory
    from spec import irbr as I

    real_table, real_level = I.routing_table, I.subscribe_level
    monkeypatch.setattr(I, "routing_table", lambda space, n, live, representative="smallest":
                        {p: m for p, m in real_table(space, n, live, representative).items() if len(p) > 1})
    assert inventory.table_1_reproduced()[0] == inventory.route_213_to_201_reproduced()[0] == V
    monkeypatch.setattr(I, "routing_table", real_table)
    from spec.irbr import operations as model
    monkeypatch.setattr(model, "subscribe_level", lambda net, n, f, covering="covering-ordered": 0)
    assert inventory.fig_3_reproduced()[0] == V
    monkeypatch.setattr(model, "subscribe_level", real_level)
    assert inventory.fig_3_reproduced()[0] == "holds"


def test_list_labels_this_projects_questions(capsys):
    from checks import cli

    assert cli.main(["list", "scot"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "dnr_costs_no_more_messages_than_snr" in out and "this project's question, not a paper claim" in out


@pytest.mark.parametrize("name", sorted(ALGORITHMS))
def test_every_erratum_links_its_picture_and_no_picture_is_left_over(name):
    page = (ROOT / "docs" / f"{name}.md").read_text()
    errata = page[page.index("<!-- generated:errata -->"):page.index("<!-- /generated:errata -->")]
    replays = re.findall(r"Replay: `pubsub-proofs replay ([^`]+)`\.(?: Picture: \[[^\]]+\]\(([^)]+)\)\.)?", errata)
    assert replays, f"{name}: no erratum with a counterexample"
    missing = [cx for cx, picture in replays if not picture]
    assert not missing, f"{name}: errata without a picture: {missing}"
    linked = {(ROOT / "docs" / picture).resolve() for _, picture in replays}
    assert all(p.exists() and p.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" for p in linked)
    assert set((ROOT / "docs" / "figures" / "counterexamples" / name).glob("*.png")) == linked


def test_a_spark_share_is_given_among_the_instances_the_claim_speaks_of():
    """depth_between_5_and_9 speaks of 100 <= n <= 500 only: its share of holding topologies is
    counted among those (its witness), not among every topology, where it holds vacuously."""
    from checks.verdict import spark_verdicts

    def summary(column):
        return {"algorithm": "lbdd", "cases": 100, "witnesses": {f"{column}:witness": 10},
                "checks": {column: {"violations": 3, "first": {"seed": 1, "n": 120}}}}

    def made(prop, method, reading, verdict, scope, **fields):
        return fields["probability"]

    domain = spark_verdicts(summary("corrected:depth_between_5_and_9"), lambda *a, **k: {}, "s",
                            lambda doc: "cx.json", "topologies", "subscribers", made)
    assert domain == ["holds on 0.700 [0.396, 0.893] at 95% of the 10 topologies the claim speaks of"]
    everywhere = spark_verdicts(summary("corrected:no_cycle"), lambda *a, **k: {}, "s",
                                lambda doc: "cx.json", "topologies", "subscribers", made)
    assert everywhere == ["holds on 0.970 [0.915, 0.990] at 95% of the topologies"]


def entry(name: str, **verdicts: str) -> dict:
    return {"property": name, "readings": {r.replace("_", "-"): {"verdict": v, "summary": f"{r} scope"}
                                           for r, v in verdicts.items()}}


def test_a_sentence_with_alternative_readings_of_its_words_is_ambiguous_where_they_disagree():
    claim = plugin.Sentence("s", "at most one copy", checked_by=("per_broker", "per_copy"), alternatives=True)
    origins = {"a": "open", "b": "open"}
    verdict, note, each = claims.judge_sentence(claim, [entry("per_broker", a=V, b=H), entry("per_copy", a=H, b=H)],
                                               origins)
    assert (verdict, each) == ("ambiguous", {"per_broker": "ambiguous", "per_copy": "holds"})
    assert note.startswith("the sentence read as `per_broker`: depends on the open readings")
    together = plugin.Sentence("s", "both", checked_by=("per_broker", "per_copy"))
    assert claims.judge_sentence(together, [entry("per_broker", a=V, b=H), entry("per_copy", a=H, b=V)],
                                 origins)[0] == V


def test_a_hazard_the_paper_warns_of_holds_where_its_property_fails():
    claim = plugin.Sentence("s", "this may go wrong", checked_by=("ok",), warns=True, about=("without-rule",))
    verdict, note, _ = claims.judge_sentence(claim, [entry("ok", without_rule=V, with_rule=H)],
                                             {"without-rule": "ablation", "with-rule": "open"})
    assert verdict == "holds" and note.startswith("holds under the ablation reading `without-rule`")
    assert "checked: `ok` under `without-rule`: without_rule scope" in note


def test_open_choices_decide_where_the_text_of_a_part_is_silent():
    claim = plugin.Sentence("s", "a rule named, not given", checked_by=("ok",), open_choices=("design", "fixed"))
    verdict, note, _ = claims.judge_sentence(claim, [entry("ok", design=V, fixed=H, literal=V)],
                                             {"design": "repair", "fixed": "repair", "literal": "printed"})
    assert verdict == "ambiguous"
    assert note.startswith("depends on this project's choices where this part's text is silent")
