"""`make check`: run every registered check, hold the verdicts to the manifest, write the report.

The manifest (checks/manifest.json) records, per scope, the expected verdict of every
(algorithm, property, reading, method) and, for exhaustive checks, the exact number of distinct
states explored: a change to a model that changes a verdict or a state count fails `make check`
until the manifest is updated on purpose (`pubsub-proofs check --update-manifest`), as the
tlaplus/Examples manifests do for TLC.
"""

from __future__ import annotations

import importlib
import importlib.util
import json
import time
from pathlib import Path
from typing import Any

from checks import counterexample
from checks.verdict import CheckResult, Verdict

MANIFEST = Path(__file__).with_name("manifest.json")
ALGORITHMS = ("lbdd", "scot", "irbr")
SPARK_TOPOLOGIES = {"default": 20_000, "large": 200_000, "validate": 1_000_000}


def load_manifest() -> dict[str, Any]:
    return json.loads(MANIFEST.read_text()) if MANIFEST.exists() else {}


def compare(results: list[CheckResult], manifest: dict[str, Any], scope: str) -> list[str]:
    """Every difference between results and the manifest's expectations at this scope."""
    problems = []
    for r in results:
        expected = manifest.get(r.algorithm, {}).get(scope, {}).get(r.key)
        if expected is None:
            problems.append(f"{r.key}: not in the manifest (got {r.verdict.value})")
            continue
        r.expected = expected["verdict"]
        if expected["verdict"] != r.verdict.value:
            problems.append(f"{r.key}: expected {expected['verdict']}, got {r.verdict.value}")
        if expected.get("states") is not None and expected["states"] != r.states:
            problems.append(f"{r.key}: expected {expected['states']} states, explored {r.states}")
        if expected.get("cases") is not None and expected["cases"] != r.cases:
            problems.append(f"{r.key}: expected {expected['cases']} cases, enumerated {r.cases}")
    return problems


def expected_entry(r: CheckResult) -> dict[str, Any]:
    """What the manifest pins: the verdict, and the exact count an exhaustive check explored
    (distinct states, or for an enumeration without states its cases)."""
    entry: dict[str, Any] = {"verdict": r.verdict.value}
    if r.states is not None:
        entry["states"] = r.states
    elif r.method == "exhaustive" and r.cases is not None:
        entry["cases"] = r.cases
    return entry


def update_manifest(results: list[CheckResult], scope: str) -> None:
    """Record the results as expected; a check of an (algorithm, method) that ran but no longer
    exists (a renamed reading or property) is dropped from the scope."""
    manifest = load_manifest()
    ran = {(r.algorithm, r.method) for r in results}
    produced = {r.key for r in results}
    for algorithm, method in ran:
        entries = manifest.get(algorithm, {}).get(scope, {})
        for key in [k for k in entries if k.rsplit("/", 1)[1] == method and k not in produced]:
            del entries[key]
    for r in results:
        manifest.setdefault(r.algorithm, {}).setdefault(scope, {})[r.key] = expected_entry(r)
    for algorithm in manifest:
        for s in manifest[algorithm]:
            manifest[algorithm][s] = dict(sorted(manifest[algorithm][s].items()))
    MANIFEST.write_text(json.dumps(manifest, indent=1, sort_keys=True) + "\n")


def spark_summary(algorithm: str, topologies: int, master: str, out_root: Path, console=None) -> dict[str, Any]:
    from spark_validation.runner import validate

    job = importlib.import_module(f"spark_validation.{algorithm}").default_job()
    info = validate(job, topologies, out_root / "spark" / algorithm, master=master,
                    progress=_progress(console, f"spark {algorithm}"))
    summary = info.summary
    summary["seconds"] = info.seconds
    return summary


def _progress(console, label):
    if console is None:
        return None
    return lambda done, total: console.print(f"  {label}: {done}/{total} topologies", highlight=False)


class _progress_bar:
    """A rich progress display for explorations; `bar(label)` gives a task's update callback."""

    def __init__(self, console):
        self.display = None
        if console is not None:
            from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

            self.display = Progress(SpinnerColumn(), TextColumn("{task.description}"),
                                    TextColumn("{task.completed} states"), TimeElapsedColumn(),
                                    console=console, transient=True)

    def __enter__(self):
        if self.display is None:
            return None
        self.display.__enter__()
        return self.task

    def __exit__(self, *exc):
        if self.display is not None:
            self.display.__exit__(*exc)

    def task(self, label: str):
        task = self.display.add_task(label, total=None)
        return lambda states: self.display.update(task, completed=states)


def run(algorithms=ALGORITHMS, scope: str = "default", report: str = "reports/check.json",
        methods: set[str] | None = None, master: str = "local[*]", spark_topologies: int | None = None,
        update: bool = False, console=None) -> tuple[list[CheckResult], list[str]]:
    out_root = Path(report).parent
    folder = out_root / "counterexamples"
    results: list[CheckResult] = []
    started = time.perf_counter()
    for algorithm in algorithms:
        if algorithm not in ALGORITHMS:
            raise ValueError(f"unknown algorithm {algorithm!r}; known: {', '.join(ALGORITHMS)}")
        module = importlib.import_module(f"checks.{algorithm}")
        for method in methods or ("z3", "exhaustive", "hypothesis", "spark"):
            for stale in (folder / algorithm).glob(f"{method}-*.json"):  # files are named by content
                stale.unlink()
        summary = None
        has_spark_job = importlib.util.find_spec(f"spark_validation.{algorithm}") is not None
        if has_spark_job and (methods is None or "spark" in methods):
            n = spark_topologies or SPARK_TOPOLOGIES[scope]
            if console:
                console.print(f"[bold]{algorithm}[/]: Spark validation of {n} topologies on {master}")
            summary = spark_summary(algorithm, n, master, out_root, console)
        if console:
            console.print(f"[bold]{algorithm}[/]: Z3, exhaustive and hypothesis checks at scope {scope!r}")
        with _progress_bar(console) as bar:
            results += module.run_checks(scope, lambda doc: counterexample.store(doc, folder),
                                         spark_summary=summary, only=methods, progress=bar)
    spark_scope = scope if spark_topologies in (None, SPARK_TOPOLOGIES[scope]) else None
    if update:
        update_manifest(results, scope)
    manifest = load_manifest()
    judged = [r for r in results if r.method != "spark" or spark_scope]
    problems = compare(judged, manifest, scope)
    ran = {r.key for r in judged}
    for algorithm in algorithms:  # a check in the manifest that no longer runs is a failure too
        for key in manifest.get(algorithm, {}).get(scope, {}):
            method = key.rsplit("/", 1)[1]
            expected_to_run = (methods is None or method in methods) and (method != "spark" or spark_scope)
            if expected_to_run and key not in ran:
                problems.append(f"{key}: in the manifest but produced no result")
    Path(report).parent.mkdir(parents=True, exist_ok=True)
    Path(report).write_text(json.dumps({
        "scope": scope, "seconds": round(time.perf_counter() - started, 1),
        "mismatches": problems, "results": [r.as_json() for r in results]}, indent=1) + "\n")
    return results, problems


def table(results: list[CheckResult], console) -> None:
    """One row per (property, reading); a column per method."""
    from rich.table import Table

    colour = {Verdict.PROVED: "bold green", Verdict.HOLDS: "green", Verdict.VIOLATED: "red",
              Verdict.UNKNOWN: "yellow"}
    methods = [m for m in ("z3", "exhaustive", "hypothesis", "spark") if any(r.method == m for r in results)]
    t = Table(title="pubsub-proofs: verdicts (expected in the manifest unless marked !)")
    t.add_column("algorithm")
    t.add_column("property")
    t.add_column("reading")
    for m in methods:
        t.add_column(m)
    rows: dict[tuple, dict[str, CheckResult]] = {}
    for r in results:
        rows.setdefault((r.algorithm, r.property, r.reading), {})[r.method] = r
    for (algorithm, prop, reading), by_method in rows.items():
        cells = []
        for m in methods:
            r = by_method.get(m)
            if r is None:
                cells.append("")
                continue
            size = f" {r.states} st" if r.states else (f" {r.cases}" if r.method != "z3" else "")
            mark = "" if r.matches_expectation else " !"
            cells.append(f"[{colour[r.verdict]}]{r.verdict.value}[/]{size}{mark}")
        t.add_row(algorithm, prop, reading, *cells)
    console.print(t)
