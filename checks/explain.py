"""One property on one screen: `pubsub-proofs explain ALGO [PROPERTY]`.

For a property, everything a reader would otherwise follow through a dozen files: the paper
sentences it judges (the inventory, with their verdicts), its predicate and witness (file:line and
docstring), the readings it is judged under (with their origin), every check that judges it at the
default scope (method, reading, where the declaration sets it up, what the manifest expects), the
report's records (verdict, counts, runtime class), the counterexamples with their replay and
picture commands, and where docs/ shows it. For an algorithm, its properties with one line each.
Generic: it reads the declaration, the registry, the manifest, the report and the docs page.
"""

from __future__ import annotations

import inspect
import json
from pathlib import Path
from typing import Any, Callable

from checks import claims, plugin, runner
from checks.docs import page_path
from spec.registry import Key

ROOT = Path.cwd()


def where(function: Callable[..., Any] | None) -> dict[str, str] | None:
    """A function as `file:line` (relative to the current folder where it lies inside) and the
    first paragraph of its docstring."""
    if function is None:
        return None
    function = inspect.unwrap(function)
    try:
        file = Path(inspect.getsourcefile(function) or "?")
        line = inspect.getsourcelines(function)[1]
    except (OSError, TypeError):
        return {"at": getattr(function, "__qualname__", repr(function)), "doc": ""}
    doc = (inspect.getdoc(function) or "").split("\n\n")[0].replace("\n", " ")
    return {"at": f"{shown(file)}:{line}", "name": function.__qualname__, "doc": doc}


def shown(path: str | Path) -> str:
    p = Path(path).resolve()
    try:
        return p.relative_to(ROOT.resolve()).as_posix()
    except ValueError:
        return str(path)


def shown_at(at: str) -> str:
    """A `file:line` with the file shown as `shown` does."""
    file, _, line = at.rpartition(":")
    return f"{shown(file)}:{line}" if file else at


def spark_job_at(job: plugin.SparkJob) -> str:
    """The Spark job's module file and function (a SparkJob.of job names them lazily)."""
    import importlib.util

    module, _, function = getattr(job.job, "__qualname__", "").partition(":")
    found = importlib.util.find_spec(module) if function else None
    if found is None or not found.origin:
        located = where(job.job)
        return located["at"] if located else ""
    return f"{shown(found.origin)} ({function})"


def _property(algorithm: plugin.Algorithm, name: str):
    return plugin.lookup({p.name: p for p in algorithm.properties()}, name, "property", of=algorithm.name)


def _records(report_path: Path, algorithm: str) -> list[dict[str, Any]]:
    if not report_path.exists():
        return []
    return [r for r in claims.load_report(report_path)["results"] if r["algorithm"] == algorithm]


def summary(algorithm_name: str, report_path: str | Path = "reports/check.json") -> dict[str, Any]:
    """An algorithm's properties, one line each: its claim and its verdict across readings."""
    algorithm = plugin.algorithm(algorithm_name)
    path = Path(report_path)
    table = ({e["property"]: e for e in claims.properties_table(path, [algorithm])} if path.exists() else {})
    return {"algorithm": algorithm.name, "title": algorithm.title,
            "properties": [{"property": p.name, "claim": p.claim,
                            "verdict": table.get(p.name, {}).get("overall", "not checked"),
                            **({"question": p.question} if p.question else {})}
                           for p in algorithm.properties()]}


def explain(algorithm_name: str, prop: str, report_path: str | Path = "reports/check.json",
            scope: str = "default") -> dict[str, Any]:
    """Everything about one property of one algorithm (see the module's docstring)."""
    algorithm = plugin.algorithm(algorithm_name)
    p = _property(algorithm, prop)
    path = Path(report_path)
    origins = algorithm.readings.origins()

    sentences = []
    if algorithm.inventory is not None:
        rows = {(r["section"], r["text"]): r for r in claims.sentences_table(path, [algorithm])} \
            if path.exists() else {}
        for claim in algorithm.inventory():
            if prop in claim.checked_by:
                row = rows.get((claim.section, claim.text), {})
                sentences.append({"section": claim.section, "text": claim.text,
                                  "verdict": row.get("verdict", "not checked"), "reading": claim.reading})

    manifest = runner.load_manifest(algorithm).get(scope, {})
    checks = []
    for check in algorithm.checks(algorithm.scope(scope)):
        for name, reading, method in check.keys():
            if name == prop:
                key = str(Key(algorithm.name, name, reading, method))
                checks.append({"method": method, "reading": reading, "kind": type(check).__name__,
                               "declared_at": shown_at(check.declared_at), "expected": manifest.get(key)})
    if algorithm.spark is not None:
        for key, entry in manifest.items():
            k = Key.parse(key)
            if (k.algorithm, k.property, k.method) == (algorithm.name, prop, "spark"):
                checks.append({"method": "spark", "reading": k.reading, "kind": "SparkJob",
                               "declared_at": spark_job_at(algorithm.spark), "expected": entry})

    records = []
    for r in _records(path, algorithm.name):
        if r["property"] != prop:
            continue
        record = {k: r.get(k) for k in ("method", "reading", "verdict", "scope", "cases", "states", "runtime",
                                         "detail", "probability", "counterexample")}
        record["origin"] = origins.get(r["reading"], "open")
        if r.get("counterexample"):
            stem = Path(r["counterexample"]).stem
            record["replay"] = f"pubsub-proofs replay {r['counterexample']}"
            record["picture"] = f"pubsub-proofs replay {r['counterexample']} --png {stem}.png"
        records.append(record)

    docs = []
    page = page_path(Path("docs"), algorithm)
    if page.exists():
        section = ""
        for number, line in enumerate(page.read_text().splitlines(), start=1):
            if line.startswith("<!-- generated:"):
                section = line[len("<!-- generated:"):-len(" -->")]
            elif line.startswith("#"):
                section = line.lstrip("# ").strip()
            if f"`{prop}`" in line or f"`{algorithm.name}.{prop}`" in line:   # the verdicts section names it so
                docs.append({"at": f"{page.as_posix()}:{number}", "section": section})

    return {"algorithm": algorithm.name, "property": p.name, "claim": p.claim,
            **({"question": p.question} if p.question else {}),
            "subject": p.subject, "scope": p.scope,
            "predicate": where(p.predicate), "witness": where(p.witness),
            "sentences": sentences,
            "readings": {r: origins.get(r, "open") for r in dict.fromkeys(x["reading"] for x in records)},
            "checks": checks, "records": records, "docs": docs}


def render(found: dict[str, Any], console) -> None:
    """One screen: the property's story from the paper's sentence to the docs."""
    from rich.markup import escape

    say = lambda text="": console.print(text, highlight=False)   # noqa: E731
    if "properties" in found:
        say(f"[bold]{found['algorithm']}[/]: {escape(found['title'])}")
        for p in found["properties"]:
            extra = " [italic](this project's question)[/]" if p.get("question") else ""
            say(f"  [bold]{p['property']}[/] ({p['verdict']}){extra}: {escape(p['claim'])}")
        say(f"\nexplain one: pubsub-proofs explain {found['algorithm']} PROPERTY")
        return
    say(f"[bold]{found['algorithm']}.{found['property']}[/]: {escape(found['claim'])}")
    if found.get("question"):
        say(f"  [italic]this project's question, not a paper claim: {escape(found['question'])}[/]")
    say("[bold]paper sentences[/]" + ("" if found["sentences"] else ": none cites it"))
    for s in found["sentences"]:
        say(f"  {s['section']} ({s['verdict']}): {escape(s['text'][:150])}")
    for what in ("predicate", "witness"):
        w = found[what]
        say(f"[bold]{what}[/]: " + (f"{w['at']} {w.get('name', '')}: {escape(w['doc'])}" if w else "none"))
    say("[bold]readings[/]: " + (", ".join(f"{r} ({o})" for r, o in found["readings"].items()) or "none"))
    say(f"[bold]checks at the default scope[/] ({len(found['checks'])})")
    for c in found["checks"]:
        e = c["expected"] or {}
        counts = ", ".join(f"{k} {e[k]}" for k in ("states", "cases") if e.get(k) is not None)
        say(f"  {c['method']:<10} {c['reading']:<44} {c['declared_at']}  expects {e.get('verdict', '?')}"
            + (f" ({counts})" if counts else ""))
    say(f"[bold]records[/] ({len(found['records'])})")
    for r in found["records"]:
        counts = ", ".join(f"{r[k]} {k}" for k in ("cases", "states") if r.get(k))
        say(f"  {r['method']:<10} {r['reading']:<44} {r['verdict']}" + (f" ({counts}, {r['runtime']})" if counts else
                                                                         f" ({r['runtime']})"))
        if r.get("replay"):
            say(f"    {r['picture']}")
    say("[bold]docs[/]: " + (", ".join(f"{d['at']} ({d['section']})" for d in found["docs"]) or "not shown"))


def to_json(found: dict[str, Any]) -> str:
    return json.dumps(found, indent=1)
