"""Every paper claim with one combined verdict per reading, from reports/check.json.

The claims are the properties each algorithm's spec registers (spec/registry.py, found through
the algorithm's declaration, checks.plugin), each quoting its paper section, and the claims a
declaration lists as reached by no check (`Algorithm.claims`, with why). Per reading, the records
of all methods are combined:

    violated          some method found a violation; the counterexample shown is the most
                      convincing one (z3, then exhaustive, then hypothesis, then spark)
    proved            Z3 proved the property itself for all sizes and nothing violated it (lemmas
                      proved with the step to the property checked only within a bound give holds)
    holds             it held up to the bounds each method states, and no proof exists
    unknown           nothing decided it (timeouts); "unknown (vacuous)" where a check never
                      reached the property's witness

These are the verdict words of the README, `check` and the docs.

A claim that fails under some readings and holds under others is "ambiguous": what the paper
claims depends on how its pseudocode is read.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Iterable

from checks import plugin
from checks.verdict import METHODS
from spec.registry import properties

FAILS, PROVED, BOUNDED, UNKNOWN, VACUOUS = "violated", "proved", "holds", "unknown", "unknown (vacuous)"
COLOURS = {FAILS: "red", PROVED: "bold green", BOUNDED: "green", UNKNOWN: "yellow", VACUOUS: "yellow"}


def load_report(report_path: str | Path) -> dict[str, Any]:
    path = Path(report_path)
    if not path.exists():
        raise ValueError(f"no report at {path}: run `make check` first")
    try:
        report = json.loads(path.read_text())
    except json.JSONDecodeError as e:
        raise ValueError(f"{path} is not a check report (invalid JSON: {e})") from None
    if not isinstance(report, dict) or not isinstance(report.get("results"), list):
        raise ValueError(f"{path} is not a check report (no 'results' list)")
    return report


def bounds(record: dict[str, Any]) -> str:
    """How far a method looked: its scope and, where counted, cases and states."""
    sizes = []
    if record.get("cases"):
        sizes.append(f"{record['cases']} cases")
    if record.get("states"):
        sizes.append(f"{record['states']} states")
    return record["scope"] + (f" ({', '.join(sizes)})" if sizes else "")


def method_rank(record: dict[str, Any]) -> int:
    return METHODS.index(record["method"]) if record["method"] in METHODS else len(METHODS)


def combine(records: list[dict[str, Any]]) -> dict[str, Any]:
    """The combined verdict of every method's record for one (property, reading)."""
    records = sorted(records, key=method_rank)
    by_verdict = {v: [r for r in records if r["verdict"] == v] for v in ("proved", "holds", "violated", "unknown")}
    evidence = [{k: r.get(k) for k in ("method", "verdict", "scope", "cases", "states", "seconds",
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
        entry.update(verdict=PROVED, summary="z3: " + "; ".join(r["scope"] for r in by_verdict["proved"]))
    elif by_verdict["holds"]:
        entry.update(verdict=BOUNDED,
                     summary="; ".join(f"{r['method']}: {bounds(r)}" for r in by_verdict["holds"]))
    else:
        entry["summary"] = "; ".join(f"{r['method']}: {r.get('detail') or r['verdict']}" for r in records) \
            or "no check ran"
        if records and all(str(r.get("detail", "")).startswith("vacuous") for r in by_verdict["unknown"]):
            entry["verdict"] = VACUOUS
    vacuous = [r["method"] for r in by_verdict["unknown"] if str(r.get("detail", "")).startswith("vacuous")]
    if vacuous and entry["verdict"] in (PROVED, BOUNDED):   # a pass elsewhere does not hide a vacuous check
        entry["summary"] += f"; vacuous (witness never reached): {', '.join(vacuous)}"
    return entry


def overall(readings: dict[str, dict[str, Any]]) -> str:
    """holds / violated / ambiguous across readings (unknown readings decide nothing)."""
    verdicts = {r["verdict"] for r in readings.values()}
    if not verdicts:
        return "not checked"
    fails, passes = FAILS in verdicts, bool(verdicts & {PROVED, BOUNDED})
    if fails and passes:
        return "ambiguous"
    return FAILS if fails else "holds" if passes else UNKNOWN


def _field(item: Any, *names: str) -> Any:
    """A field of a declared claim, which may be a mapping or an object."""
    for name in names:
        value = item.get(name) if isinstance(item, dict) else getattr(item, name, None)
        if value is not None:
            return value
    return None


def registered(algorithm: str, declared: dict[str, plugin.Algorithm]) -> list[dict[str, Any]]:
    """An algorithm's claims in its spec's order: its registered properties (through its
    declaration, which imports its spec), then the claims it declares that no check reaches."""
    declaration = declared.get(algorithm)
    props = declaration.properties() if declaration is not None else properties(algorithm)
    out = [{"property": p.name, "claim": p.claim, **({"question": p.question} if p.question else {})}
           for p in props]
    for item in declaration.claims if declaration is not None else ():
        name = _field(item, "property", "name")
        entry = next((e for e in out if e["property"] == name), None)
        if entry is None:
            entry = {"property": name, "claim": _field(item, "claim") or ""}
            out.append(entry)
        entry["why"] = _field(item, "why", "reason")
    return out


def claims_table(report_path: str | Path, algorithms: Iterable[plugin.Algorithm] | None = None) -> list[dict[str, Any]]:
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
        readings = {name: combine(rs) for name, rs in group["readings"].items()}
        by_counting(declared.get(algorithm), prop, readings,
                              lambda premise, reading: groups.get((algorithm, premise), {}).get("readings", {}).get(reading))
        entry = {"algorithm": algorithm, "property": prop, "claim": group["claim"],
                 "overall": overall(readings), "readings": readings}
        if claim.get("why"):
            entry["why"] = claim["why"]
        if claim.get("question"):
            entry["question"] = claim["question"]
        table.append(entry)
    return table


NOT_CHECKABLE = "not checkable"


def sentence_verdict(overalls: list[str]) -> str:
    """One verdict for a sentence judged by several properties: violated if every one of them
    fails, holds if every one holds, ambiguous where they disagree or one depends on the reading,
    unknown where nothing decided, not checked where a property has no record."""
    found = set(overalls)
    if not found or "not checked" in found:
        return "not checked"
    if found == {FAILS}:
        return FAILS
    if found == {"holds"}:
        return "holds"
    if "ambiguous" in found or {FAILS, "holds"} <= found:
        return "ambiguous"
    return FAILS if FAILS in found else "holds" if "holds" in found else UNKNOWN


def inventory_table(report_path: str | Path, algorithms: Iterable[plugin.Algorithm] | None = None) -> list[dict[str, Any]]:
    """Every claim sentence of each paper (its declaration's `inventory`) with one verdict: that
    of the properties that check it, combined over readings (holds, violated, ambiguous,
    unknown), or "not checkable" with why."""
    declared = list(plugin.algorithms().values()) if algorithms is None else list(algorithms)
    table = {(e["algorithm"], e["property"]): e for e in claims_table(report_path, declared)}
    out = []
    for algorithm in declared:
        for claim in (algorithm.inventory() if algorithm.inventory else ()):
            overalls = {name: table.get((algorithm.name, name), {}).get("overall", "not checked")
                        for name in claim.checked_by}
            out.append({"algorithm": algorithm.name, "section": claim.section, "text": claim.text,
                        "verdict": sentence_verdict(list(overalls.values())) if claim.checked_by else NOT_CHECKABLE,
                        "checked_by": overalls, "why": claim.why, "reading": claim.reading})
    return out


def print_inventory(rows: list[dict[str, Any]], console) -> None:
    """A rich table: one row per paper sentence, its verdict and what judged it."""
    from rich.markup import escape
    from rich.table import Table

    colours = {**COLOURS, "ambiguous": "magenta", NOT_CHECKABLE: "dim", "not checked": "yellow"}
    t = Table(title="Every claim sentence of the papers, one verdict each", show_lines=True)
    for column in ("where", "the paper says", "verdict", "judged by"):
        t.add_column(column, overflow="fold", no_wrap=column == "verdict")
    for row in rows:
        judged = ("; ".join(f"{name} ({verdict})" for name, verdict in row["checked_by"].items())
                  if row["checked_by"] else row["why"])
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


def print_claims(table: list[dict[str, Any]], console) -> None:
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
                      f"[{COLOURS[combined['verdict']]}]{combined['verdict']}[/]", evidence)
    console.print(t)
