"""Every paper claim with one combined verdict per reading, from reports/check.json.

The claims are the properties each algorithm's spec registers (spec/registry.py, found through
the algorithm's declaration, checks.plugin), each quoting its paper section, and the claims a
declaration lists as reached by no check (`Algorithm.unreached`, with why). Per reading, the records
of all methods are combined:

    violated          some method found a violation; the counterexample shown is the most
                      convincing one (z3, then exhaustive, then hypothesis, then spark)
    proved            Z3 proved the property itself for all sizes and nothing violated it (lemmas
                      proved with the step to the property checked only within a bound give holds)
    holds             it held up to the bounds each method states, and no proof exists
    unknown           nothing decided it (timeouts); "unknown (vacuous)" where a check never
                      reached the property's witness

These are the verdict words of the README, `check` and the docs.

Across readings, `judge` gives one verdict: the printed readings decide where they reach the
claim ("violated" when they fail, with any repair that holds named beside it); "ambiguous" only
where readings of the same standing (open choices of a text that is silent or lost) disagree.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Iterable

from checks import plugin, smt
from checks.files import read_json_file
from checks.verdict import METHODS, Verdict
from spec.registry import properties

FAILS, PROVED, BOUNDED, UNKNOWN, VACUOUS = "violated", "proved", "holds", "unknown", "unknown (vacuous)"
COLOURS = {FAILS: "red", PROVED: "bold green", BOUNDED: "green", UNKNOWN: "yellow", VACUOUS: "yellow"}


RECORD_FIELDS = ("algorithm", "property", "reading", "method", "verdict")


def load_report(report_path: str | Path) -> dict[str, Any]:
    path = Path(report_path)
    if not path.exists():
        raise ValueError(f"no report at {path}: run `make check` first")
    try:
        report = read_json_file(path, "check report")
    except json.JSONDecodeError as e:
        raise ValueError(f"{path} is not a check report (invalid JSON: {e})") from None
    if not isinstance(report, dict) or not isinstance(report.get("results"), list):
        raise ValueError(f"{path} is not a check report (no 'results' list)")
    for i, record in enumerate(report["results"]):
        missing = [k for k in RECORD_FIELDS if not isinstance(record, dict) or not isinstance(record.get(k), str)]
        if missing:
            raise ValueError(f"{path} is not a check report: record {i} has no {', '.join(map(repr, missing))} "
                             "(a text each)")
        _check_record(path, i, record)
    seen: dict[tuple, int] = {}
    for i, record in enumerate(report["results"]):
        key = tuple(record[k] for k in ("algorithm", "property", "reading", "method"))
        if key in seen:  # one verdict per check: which of two would a reader believe?
            raise ValueError(f"{path} is not a check report: record {i} repeats record {seen[key]} "
                             f"({', '.join(key)})")
        seen[key] = i
    return report


def _check_record(path: Path, i: int, record: dict[str, Any]) -> None:
    """A record's verdict, method and counts are what a check writes (checks.verdict), or the
    report was edited or damaged: refused, never shown as some verdict."""
    known = [v.value for v in Verdict]
    if record["verdict"] not in known:
        raise ValueError(f"{path} is not a check report: record {i} has verdict {record['verdict']!r}; "
                         f"known: {', '.join(known)}")
    if record["method"] not in METHODS:
        raise ValueError(f"{path} is not a check report: record {i} has method {record['method']!r}; "
                         f"known: {', '.join(METHODS)}")
    for field in ("cases", "states"):
        value = record.get(field)
        if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 0):
            raise ValueError(f"{path} is not a check report: record {i} has {field} {value!r} "
                             "(a count: a whole number >= 0)")


def bounds(record: dict[str, Any]) -> str:
    """How far a method looked: its scope and, where counted, cases and states."""
    sizes = []
    if record.get("cases"):
        sizes.append(f"{record['cases']} cases")
    if record.get("states"):
        sizes.append(f"{record['states']} states")
    return record["scope"] + (f" ({', '.join(sizes)})" if sizes else "")


def solvers(records: list[dict[str, Any]], certified=lambda record: False) -> str:
    """Who answered the queries of these Z3 records: "Z3 and cvc5" where a second solver
    (checks.smt) confirmed every answer of every one, with "certified" where cvc5's own proof and
    model checkers accepted every answer too (`certified`, from `queries --certify`), else what
    else it is."""
    z3_records = [r for r in records if r["method"] == "z3"]
    seconds = [r.get("second_solver") for r in z3_records]
    if not seconds:
        return ""
    if any(s is None or not s.get("answered_by_z3") for s in seconds):
        return "Z3 alone"
    if all(s["agreed"] == s["answered_by_z3"] for s in seconds):
        both = f"Z3 and {seconds[0]['solver']}"
        return both + (", certified" if all(certified(r) for r in z3_records) else "")
    return f"{seconds[0]['solver']} did not confirm Z3"


def method_rank(record: dict[str, Any]) -> int:
    return METHODS.index(record["method"]) if record["method"] in METHODS else len(METHODS)


def combine(records: list[dict[str, Any]], certified=lambda record: False) -> dict[str, Any]:
    """The combined verdict of every method's record for one (property, reading); `certified`
    says of a Z3 record whether cvc5's own checkers accepted its answers (`solvers`)."""
    records = sorted(records, key=method_rank)
    by_verdict = {v: [r for r in records if r["verdict"] == v] for v in ("proved", "holds", "violated", "unknown")}
    evidence = [{k: r.get(k) for k in ("method", "verdict", "scope", "cases", "states", "runtime",
                                       "counterexample", "detail")} for r in records]
    entry: dict[str, Any] = {"verdict": UNKNOWN, "counterexample": None, "counterexample_method": None,
                             "replay": None, "methods": evidence}
    if by_verdict["violated"]:
        # a violation with a replayable file beats one without, then the preferred method wins
        chosen = min(by_verdict["violated"], key=lambda r: (r.get("counterexample") is None, method_rank(r)))
        entry.update(verdict=FAILS, counterexample=chosen.get("counterexample"),
                     counterexample_method=chosen["method"],
                     summary="violated by " + ", ".join(r["method"] for r in by_verdict["violated"]))
        if chosen.get("counterexample"):
            entry["replay"] = f"pubsub-proofs replay {chosen['counterexample']}"
        evaluated = next((r for r in by_verdict["violated"] if r.get("evaluated_counterexample")), None)
        if evaluated:  # the minimal counterexample is below every size the paper evaluates
            entry["evaluated_replay"] = f"pubsub-proofs replay {evaluated['evaluated_counterexample']}"
    elif any(r["method"] == "z3" for r in by_verdict["proved"]):
        proved = [r for r in by_verdict["proved"] if r["method"] == "z3"]
        entry.update(verdict=PROVED, solvers=solvers(proved, certified),
                     summary=f"z3 ({solvers(proved, certified)}): " + "; ".join(r["scope"] for r in by_verdict["proved"]))
    elif by_verdict["holds"]:
        entry.update(verdict=BOUNDED, summary="; ".join(
            f"{r['method']}{' (' + solvers([r], certified) + ')' if r['method'] == 'z3' else ''}: {bounds(r)}"
            for r in by_verdict["holds"]))
    else:
        entry["summary"] = "; ".join(f"{r['method']}: {r.get('detail') or r['verdict']}" for r in records) \
            or "no check ran"
        if records and all(str(r.get("detail", "")).startswith("vacuous") for r in by_verdict["unknown"]):
            entry["verdict"] = VACUOUS
    vacuous = [r["method"] for r in by_verdict["unknown"] if str(r.get("detail", "")).startswith("vacuous")]
    if vacuous and entry["verdict"] in (PROVED, BOUNDED):   # a pass elsewhere does not hide a vacuous check
        entry["summary"] += f"; vacuous (witness never reached): {', '.join(vacuous)}"
    return entry


PASSES = (PROVED, BOUNDED)


def judge(by_reading: dict[str, str], origins: dict[str, str], printed: tuple[str, ...] = (),
          about: tuple[str, ...] = (), open_choices: tuple[str, ...] = ()) -> dict[str, Any]:
    """One verdict for a claim from its verdict under each reading, as the README's rule says: the
    readings of the first origin that reaches the claim decide (printed, then open, then repair;
    ablations and baselines only where nothing else does, checks.plugin.ORIGINS):

        violated    every deciding reading that decided is violated (a printed line fails; a
                    repair that holds is named beside it, never in its place)
        holds       every deciding reading that decided holds (or is proved)
        ambiguous   they disagree: the text allows readings (open choices, or printed readings
                    that differ where it is silent) of which some fail and some hold
        unknown     none of them decided (timeouts, vacuous passes)

    `printed` names the readings that do what the printed text of the claim's part does, where a
    sentence needs other ones than the catalogue's, and `open_choices` the readings that are choices
    where that part's text is silent (deciding when no printed one reaches); `about` restricts the readings to those the
    claim speaks of. Returns the verdict, the deciding origin and readings, and the others
    (reading -> (origin, verdict)) to name beside it."""
    known = {r: v for r, v in by_reading.items() if v != "not checked" and (not about or r in about)}
    if not known:
        return {"verdict": "not checked", "origin": None, "deciding": [], "beside": {}}
    deciding = [r for r in known if r in printed]
    chosen = "printed"
    if not deciding:
        deciding, chosen = [r for r in known if r in open_choices], "open"
    this_part = bool(deciding)
    if not deciding:
        chosen = min({origins.get(r, "open") for r in known}, key=plugin.ORIGINS.index)
        deciding = [r for r in known if origins.get(r, "open") == chosen]
    decided = {known[r] for r in deciding} - {UNKNOWN, VACUOUS}
    if not decided:
        verdict = UNKNOWN
    elif decided == {FAILS}:
        verdict = FAILS
    elif FAILS not in decided:
        verdict = "holds"
    else:
        verdict = "ambiguous"
    return {"verdict": verdict, "origin": chosen, "deciding": deciding, "this_part": this_part,
            "beside": {r: (origins.get(r, "open"), v) for r, v in known.items() if r not in deciding}}


# a reading whose origin is "repair" may still run a given sentence's part as printed (it repairs
# another part): named for what it has, not for what it is
READING_LABELS = {"repair": "reading{s} with this project's repairs"}


def judgement_note(judged: dict[str, Any], by_reading: dict[str, str]) -> str:
    """In one line, which readings decided a verdict and what the others say beside it."""
    if not judged["deciding"]:
        return ""
    def names(readings):
        return ", ".join(f"`{r}`" for r in readings)
    deciding = judged["deciding"]
    # which readings decided: a sentence's own (the readings that run its part as printed, or this
    # project's choices where that part's text is silent), else the catalogue's by origin
    if judged.get("this_part"):
        who = ("the readings that run this part as printed" if judged["origin"] == "printed"
               else "this project's choices where this part's text is silent")
    else:
        who = "the " + READING_LABELS.get(judged["origin"], f"{judged['origin']} reading{{s}}").format(
            s="s" if len(deciding) > 1 else "")
    if judged["verdict"] == "ambiguous":
        groups: dict[str, list[str]] = {}
        for r in deciding:
            groups.setdefault("violated" if by_reading[r] == FAILS else "holds" if by_reading[r] in PASSES
                              else by_reading[r], []).append(r)
        head = f"depends on {who}: " + "; ".join(f"{v} under {names(rs)}" for v, rs in groups.items())
    else:
        head = f"{judged['verdict']} under {who} {names(deciding)}"
    beside: dict[str, dict[str, list[str]]] = {}
    for r, (origin, v) in judged["beside"].items():
        word = "violated" if v == FAILS else "holds" if v in PASSES else v
        beside.setdefault(origin, {}).setdefault(word, []).append(r)
    for origin, words in beside.items():   # name the readings that hold beside a failure, count the rest
        named = "holds" if judged["verdict"] != "holds" and "holds" in words else next(iter(words))
        rest = ", ".join(f"{len(rs)} more {word}" for word, rs in words.items() if word != named)
        label = READING_LABELS.get(origin, f"{origin} reading{{s}}").format(s="s" if len(words[named]) > 1 else "")
        if judged.get("this_part") and origin in ("printed", "open"):
            label += " of the whole protocol"
        head += (f"; {label} {names(words[named])} {named}"
                 + (f" ({rest})" if rest else ""))
    return head


def _field(item: Any, *names: str) -> Any:
    """A field of a declared claim, which may be a mapping or an object."""
    for name in names:
        value = item.get(name) if isinstance(item, dict) else getattr(item, name, None)
        if value is not None:
            return value
    return None


def registered(algorithm: str, declared: dict[str, plugin.Algorithm]) -> list[dict[str, Any]]:
    """An algorithm's properties in its spec's order (through its declaration, which imports its
    spec), then those it declares that no check reaches."""
    declaration = declared.get(algorithm)
    # a report may name an algorithm declared nowhere now: its records stand alone, with no properties
    props = declaration.properties() if declaration is not None else [p for p in properties() if p.algorithm == algorithm]
    out = [{"property": p.name, "claim": p.claim, **({"question": p.question} if p.question else {})}
           for p in props]
    for item in declaration.unreached if declaration is not None else ():
        name = _field(item, "property", "name")
        entry = next((e for e in out if e["property"] == name), None)
        if entry is None:
            entry = {"property": name, "claim": _field(item, "claim") or ""}
            out.append(entry)
        entry["why"] = _field(item, "why", "reason")
    return out


def own_printed(declaration: plugin.Algorithm | None, prop: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The printed and open-choice readings of the sentences that a property alone checks, where
    they name their own and all agree: the property quotes that part of the paper, so its overall
    verdict is judged as those sentences are (else `claims` and `claims --sentences` would give
    one claim two verdicts). A property that no sentence checks alone takes those of the sentences
    it checks with others, where they agree (IRBR's no_entry_outlives_its_subscriber: failures as
    printed, keep-failed, is the printed reading of the one sentence that checks it, not a repair).
    Sentences restricted to some readings (`about`), hazards and alternatives say something
    narrower than the property's row, which lists every reading."""
    sentences = [s for s in (declaration.inventory() if declaration is not None and declaration.inventory else ())
                 if prop in s.checked_by and not (s.about or s.warns or s.alternatives)]
    alone = [s for s in sentences if s.checked_by == (prop,)]
    own = {(s.printed, s.open_choices) for s in (alone or sentences)}
    return own.pop() if len(own) == 1 else ((), ())


def properties_table(report_path: str | Path, algorithms: Iterable[plugin.Algorithm] | None = None) -> list[dict[str, Any]]:
    """One entry per (algorithm, property): its claim, a combined verdict per reading, and overall.

    Registered properties with no record in the report are listed as "not checked" (with why,
    where the declaration says), so a claim that no method covers is visible rather than missing.
    The algorithms are those of the report, then those given in `algorithms`.
    """
    declared = plugin.algorithms() if algorithms is None else {a.name: a for a in algorithms}

    def catalogue_order(record: dict[str, Any]) -> int:   # readings as the algorithm lists them
        names = declared[record["algorithm"]].readings.names() if record["algorithm"] in declared else []
        return names.index(record["reading"]) if record["reading"] in names else len(names)

    records = sorted(load_report(report_path)["results"], key=lambda r: (r["algorithm"], catalogue_order(r)))

    def certified(record: dict[str, Any]) -> bool:
        return smt.certified(Path(report_path), record["algorithm"], record["property"], record["reading"])
    groups: dict[tuple[str, str], dict[str, Any]] = {}
    for r in records:
        group = groups.setdefault((r["algorithm"], r["property"]), {"claim": r["claim"], "readings": {}})
        group["readings"].setdefault(r["reading"], []).append(r)
    names = list(dict.fromkeys([r["algorithm"] for r in records] + list(declared if algorithms is not None else ())))
    claims = {(a, c["property"]): c for a in names for c in registered(a, declared)}
    order = list(claims) + [k for k in groups if k not in claims]
    table = []
    for algorithm, prop in order:
        claim = claims.get((algorithm, prop), {})
        group = groups.get((algorithm, prop), {"claim": claim.get("claim", ""), "readings": {}})
        readings = {name: combine(rs, certified) for name, rs in group["readings"].items()}
        by_counting(declared.get(algorithm), prop, readings,
                              lambda premise, reading: groups.get((algorithm, premise), {}).get("readings", {}).get(reading))
        origins = declared[algorithm].readings.origins() if algorithm in declared else {}
        verdicts = {r: c["verdict"] for r, c in readings.items()}
        judged = (judge(verdicts, origins, *own_printed(declared.get(algorithm), prop)) if readings
                  else {"verdict": "not checked", "deciding": []})
        entry = {"algorithm": algorithm, "property": prop, "claim": group["claim"],
                 "overall": judged["verdict"], "overall_note": judgement_note(judged, verdicts) if readings else "",
                 "readings": readings}
        if claim.get("why"):
            entry["why"] = claim["why"]
        if claim.get("question"):
            entry["question"] = claim["question"]
        table.append(entry)
    return table


NOT_CHECKABLE = "not checkable"


def sentence_readings(entries: list[dict[str, Any]]) -> dict[str, str]:
    """A sentence's verdict under each reading: violated where any property that judges it is
    violated under that reading, holds where every one with a record holds, else unknown."""
    out: dict[str, str] = {}
    for entry in entries:
        for reading, combined in entry.get("readings", {}).items():
            v, before = combined["verdict"], out.get(reading)
            if v == FAILS or before == FAILS:
                out[reading] = FAILS
            elif v in PASSES and before in (None, "holds"):
                out[reading] = "holds"
            else:
                out[reading] = UNKNOWN
    return out


def with_stand_ins(catalogue: plugin.Catalogue, entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The entries of one sentence's properties, each given, for a reading another of them was
    checked under but it was not, the record of the reading that answers for it there
    (`Catalogue.stand_in`), so that the sentence's verdict under a reading is the conjunction of
    every part it speaks of, not of the parts that happen to tell that reading apart."""
    named = [name for e in entries for name in e.get("readings", {})]
    out = []
    for entry in entries:
        readings = dict(entry.get("readings", {}))
        for name in dict.fromkeys(named):
            answer = catalogue.stand_in(entry["property"], name) if name not in readings and readings else None
            if answer in readings:
                record = readings[answer]
                readings[name] = {**record, "as_under": answer,
                                  "summary": f"as under `{answer}`, which resolves what "
                                             f"`{entry['property']}` reads alike: {record['summary']}"}
        out.append({**entry, "readings": readings} if readings != entry.get("readings", {}) else entry)
    return out


def scope_of(entries: list[dict[str, Any]], readings: list[str]) -> str:
    """How far the checks of a sentence looked, under the first deciding reading that has them."""
    parts = []
    for entry in entries:
        reading = next((r for r in readings if r in entry.get("readings", {})), None)
        if reading is not None:
            parts.append(f"`{entry['property']}` under `{reading}`: {entry['readings'][reading]['summary']}")
    return "; ".join(parts)


def _hazard(verdict: str) -> str:
    """A sentence that warns of a failure holds where its property is violated, and back."""
    return {FAILS: "holds", "holds": FAILS}.get(verdict, verdict)


def judge_sentence(claim: plugin.Sentence, entries: list[dict[str, Any]],
                   origins: dict[str, str]) -> tuple[str, str, dict[str, str]]:
    """A checked sentence's verdict, its note and each judging property's verdict under the
    readings the sentence speaks of. The sentence's verdict under a reading is the conjunction of
    its properties (sentence_readings), judged across readings by `judge` with the sentence's own
    printed, open-choice and about readings; a hazard the paper warns of (`warns`) holds where its
    property fails; properties that are readings of the sentence's own words (`alternatives`) are
    judged each, and the sentence is ambiguous where they disagree."""
    def judged_by(judging: list[dict[str, Any]]) -> tuple[dict[str, Any], dict[str, str]]:
        by_reading = sentence_readings(judging)
        if claim.warns:
            by_reading = {r: _hazard(v) for r, v in by_reading.items()}
        return judge(by_reading, origins, claim.printed, claim.about, claim.open_choices), by_reading

    each = {name: judged_by([e]) for name, e in zip(claim.checked_by, entries)}
    # each property's own verdict: for a hazard, violated where the sentence holds
    per_property = {name: _hazard(j["verdict"]) if claim.warns else j["verdict"] for name, (j, _) in each.items()}
    if claim.alternatives:
        verdicts = set(per_property.values())
        verdict = verdicts.pop() if len(verdicts) == 1 else "ambiguous"
        note = "the sentence read " + "; read ".join(f"as `{name}`: {judgement_note(j, by)}"
                                                     for name, (j, by) in each.items())
    else:
        judged, by_reading = judged_by(entries)
        verdict, note = judged["verdict"], judgement_note(judged, by_reading)
        if verdict == "holds":
            note += "; checked: " + scope_of(entries, judged["deciding"])
    answered = {}     # the readings a property was not run under, and who answers for them there
    for e in entries:
        for name, combined in e.get("readings", {}).items():
            if combined.get("as_under"):
                answered.setdefault((name, combined["as_under"]), []).append(f"`{e['property']}`")
    if answered:
        note += "; " + "; ".join(f"`{name}` not run on {', '.join(props)}: there it is `{under}`, which resolves "
                                 f"what they read alike" for (name, under), props in answered.items())
    return verdict, note, per_property


def sentences_table(report_path: str | Path, algorithms: Iterable[plugin.Algorithm] | None = None) -> list[dict[str, Any]]:
    """Every claim sentence of each paper (its declaration's `inventory`) with one verdict: by the
    properties that check it (judge_sentence), by a reproduction, or "not checkable" with why."""
    declared = list(plugin.algorithms().values()) if algorithms is None else list(algorithms)
    table = {(e["algorithm"], e["property"]): e for e in properties_table(report_path, declared)}
    out = []
    for algorithm in declared:
        origins = algorithm.readings.origins()
        for claim in (algorithm.inventory() if algorithm.inventory else ()):
            entries = with_stand_ins(algorithm.readings,
                                     [table.get((algorithm.name, name), {}) for name in claim.checked_by])
            unchecked = [name for name, e in zip(claim.checked_by, entries) if not e.get("readings")]
            row = {"algorithm": algorithm.name, "section": claim.section, "text": claim.text,
                   "verdict": NOT_CHECKABLE, "note": "", "checked_by": {}, "why": claim.why,
                   "reading": claim.reading}
            if claim.reproduced is not None:
                verdict, evidence = claim.reproduced()
                # ambiguous: the reproduction ran under readings the text allows and they disagree (its
                # evidence names each one's outcome)
                if verdict not in (FAILS, "holds", "ambiguous"):
                    raise ValueError(f"{algorithm.name} {claim.section}: a reproduction judges holds, violated or "
                                     f"ambiguous, not {verdict!r}")
                row.update(verdict=verdict, note=f"depends on the open readings the reproduction ran: {evidence}"
                           if verdict == "ambiguous" else f"{verdict} by the reproduction: {evidence}")
            elif claim.checked_by:
                verdict, note, per_property = judge_sentence(claim, entries, origins)
                row.update(verdict="not checked" if unchecked else verdict, note=note,
                           checked_by={n: "not checked" if n in unchecked else v for n, v in per_property.items()})
            out.append(row)
    return out


def print_sentences(rows: list[dict[str, Any]], console) -> None:
    """A rich table: one row per paper sentence, its verdict and what judged it."""
    from rich.markup import escape
    from rich.table import Table

    colours = {**COLOURS, "ambiguous": "magenta", NOT_CHECKABLE: "dim", "not checked": "yellow"}
    t = Table(title="Every claim sentence of the papers, one verdict each", show_lines=True)
    for column in ("where", "the paper says", "verdict", "judged by"):
        t.add_column(column, overflow="fold", no_wrap=column == "verdict")
    for row in rows:
        judged = ("; ".join(f"{name} ({verdict})" for name, verdict in row["checked_by"].items())
                  if row["checked_by"] else row["why"] or "")
        if row["note"]:
            judged += f"\n{row['note']}"
        if row["reading"]:
            judged += f"\nread as: {row['reading']}"
        t.add_row(f"{row['algorithm']} {row['section']}", escape(row["text"]),
                  f"[{colours.get(row['verdict'], 'white')}]{row['verdict']}[/]", escape(judged))
    console.print(t)


def by_counting(declaration: plugin.Algorithm | None, prop: str, readings: dict[str, dict[str, Any]],
                premise_records) -> None:
    """Where a claim has a refutation by counting (spec Property.refutation), state it first under
    each reading where the claim is violated and its premise was shown to hold: the claim then
    fails on every instance, not only on the ones listed."""
    found = [p for p in declaration.properties() if p.name == prop] if declaration is not None else []
    if not found or not found[0].refutation:
        return
    refuted = found[0]
    for reading, combined in readings.items():
        records = premise_records(refuted.premise, reading) if refuted.premise else None
        premise = combine(records) if records else None
        if combined["verdict"] != FAILS or (refuted.premise and (premise is None or premise["verdict"] not in
                                                                   (PROVED, BOUNDED))):
            continue
        where = (f" wherever {refuted.premise} holds ({premise['verdict']} under this reading: see its row)"
                 if premise else "")
        combined["counting"] = refuted.refutation
        combined["summary"] = f"violated by counting{where}: {refuted.refutation}. Found: {combined['summary']}"


def shown(combined: dict[str, Any]) -> str:
    """A reading's verdict as the tables show it: a proof with who confirmed it, "proved (Z3 and
    cvc5)"."""
    return f"{combined['verdict']} ({combined['solvers']})" if combined.get("solvers") else combined["verdict"]


def print_properties(table: list[dict[str, Any]], console) -> None:
    """A rich table: one row per (claim, reading), the counterexample's replay command on failures."""
    from rich.table import Table

    t = Table(title="Paper claims: combined verdict per reading", show_lines=True)
    t.add_column("claim")
    t.add_column("reading")
    t.add_column("verdict", no_wrap=True)
    t.add_column("evidence", overflow="fold")
    for entry in table:
        head = (f"[bold]{entry['algorithm']}.{entry['property']}[/] ({entry['overall']})\n"
                f"[dim]{entry['claim']}[/]")
        if entry.get("question"):
            head += f"\n[italic]this project's question, not a paper claim: {entry['question']}[/]"
        if not entry["readings"]:
            t.add_row(head, "-", "[yellow]not checked[/]", entry.get("why") or "no record in this report")
            continue
        for i, (reading, combined) in enumerate(entry["readings"].items()):
            evidence = combined["summary"]
            if combined["replay"]:
                evidence += f"\n{combined['replay']}"
            if combined.get("evaluated_replay"):
                evidence += f"\nsmallest at a size the paper evaluates: {combined['evaluated_replay']}"
            t.add_row(head if i == 0 else "", reading,
                      f"[{COLOURS[combined['verdict']]}]{shown(combined)}[/]", evidence)
    console.print(t)
