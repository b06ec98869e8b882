"""`make check`: run every declared check, hold the verdicts to the manifests, write the report.

Each algorithm has its own manifest (the file its declaration names): per scope, the expected
verdict of every (property, reading, method), the exact number of distinct states an exploration
visited or of cases an enumeration judged, and a runtime class (fast / medium / slow, as the
tlaplus/Examples manifests record one). A change to a model that changes a verdict or a count fails
`make check`, and for the fast class `make test` too, until the manifest is updated on purpose
(`pubsub-proofs check --update-manifest`).

Reports are written whole or not at all: counterexamples go to a fresh staging folder and the
report to a temporary file, and both replace the previous ones only when the run has finished, so
an interrupted run leaves the last complete report and its counterexamples as they were. A partial
run (one algorithm, some methods) merges its records into the report by (algorithm, property,
reading, method) and keeps the rest; a counterexample file that no record names any more is
removed by the run that stops naming it.

The report holds nothing measured, so a run whose results are unchanged rewrites it byte for byte
(reports/check.json and the docs made from it are committed): each record carries the runtime class
its manifest pins, not its seconds. The measured seconds go to a timings file beside the report
(reports/timings.json, not committed; `timings_path`), written after it and merged by the same
key, and the console summary shows them. A check whose time falls more than one class away from
its pinned class is named in a note (`runtime_notes`), never a mismatch: timing depends on the
machine and its load.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
import time
from pathlib import Path
from typing import Any, Iterable

from checks import counterexample, engine, plugin, smt
from checks.files import Lock, alive, write_atomically
from checks.verdict import METHODS, CheckResult, Verdict
from spec.registry import Key

# A check (an exploration's properties count as one) is fast below FAST seconds, medium below
# MEDIUM; `make test` runs every algorithm's fast class.
FAST_SECONDS, MEDIUM_SECONDS = 2.0, 60.0
RUNTIME_CLASSES = ("fast", "medium", "slow")


def runtime_class(seconds: float) -> str:
    return "fast" if seconds < FAST_SECONDS else "medium" if seconds < MEDIUM_SECONDS else "slow"


def measured_class(r: CheckResult) -> str:
    """The runtime class of a result's measured time; a Spark job is slow by its nature."""
    return method_class(r.method, r.seconds)


def method_class(method: str, seconds: float) -> str:
    return "slow" if method == "spark" else runtime_class(seconds)


def classes_apart(a: str | None, b: str | None) -> int | None:
    """How many classes lie between two runtime classes (None if either is not one)."""
    if a not in RUNTIME_CLASSES or b not in RUNTIME_CLASSES:
        return None
    return abs(RUNTIME_CLASSES.index(a) - RUNTIME_CLASSES.index(b))


# --------------------------------------------------------------------------------------------
# Manifests
# --------------------------------------------------------------------------------------------

def load_manifest(algorithm: plugin.Algorithm) -> dict[str, Any]:
    path = algorithm.manifest
    if not path.exists():
        return {}
    try:
        return json.loads(path.read_text())
    except json.JSONDecodeError as e:
        raise ValueError(f"the manifest {path} is not JSON: {e}") from None


def compare(results: list[CheckResult], manifest: dict[str, Any], scope: str) -> list[str]:
    """Every difference between results and the manifest's expectations at this scope."""
    problems = []
    for r in results:
        expected = manifest.get(scope, {}).get(r.key)
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


def expected_entry(r: CheckResult, previous: dict[str, Any] | None = None) -> dict[str, Any]:
    """What the manifest pins: the method, the verdict, the exact count an exhaustive check
    explored (distinct states, or for an enumeration its cases) and the runtime class. A runtime
    class already recorded is kept unless the new timing is more than a class away, so that
    machine noise does not churn the manifest."""
    entry: dict[str, Any] = {"method": r.method, "verdict": r.verdict.value}
    if r.states is not None:
        entry["states"] = r.states
    elif r.method == "exhaustive" and r.cases is not None:
        entry["cases"] = r.cases
    measured = measured_class(r)
    old = (previous or {}).get("runtime")
    if r.method != "spark" and (classes_apart(old, measured) or 0) == 1:
        measured = old
    entry["runtime"] = measured
    return entry


def pin_runtimes(results: list[CheckResult], manifest: dict[str, Any], scope: str) -> None:
    """Give each result the runtime class its manifest entry pins (None where none pins one): the
    report records it instead of the measured seconds."""
    for r in results:
        pinned = manifest.get(scope, {}).get(r.key, {}).get("runtime")
        r.runtime = pinned if pinned in RUNTIME_CLASSES else None


def runtime_notes(results: list[CheckResult]) -> list[str]:
    """The checks whose measured time is more than one runtime class away from the class their
    manifest pins (the distance beyond which `--update-manifest` records the new class). A note,
    not a mismatch: the seconds depend on the machine and its load."""
    return [f"{r.key}: took {r.seconds:.1f} s ({measured_class(r)}), the manifest's class is {r.runtime}"
            for r in results if r.method != "spark" and (classes_apart(r.runtime, measured_class(r)) or 0) > 1]


def problem_key(problem: str) -> str:
    """The key a mismatch is about (a mismatch reads 'KEY: what differs')."""
    return problem.split(":", 1)[0]


def problem_about(problem: str) -> tuple[str, str] | None:
    """The (algorithm, method) a mismatch is about; None for a line that names no key."""
    try:
        key = Key.parse(problem_key(problem))
    except ValueError:
        return None
    return key.algorithm, key.method


def update_manifest(algorithm: plugin.Algorithm, results: list[CheckResult], scope: str) -> None:
    """Record the results as expected; a check of a method that ran but no longer exists (a
    renamed reading or property) is dropped from the scope."""
    manifest = load_manifest(algorithm)
    entries = manifest.setdefault(scope, {})
    ran = {r.method for r in results}
    produced = {r.key for r in results}
    for key in [k for k in entries if Key.method_of(k) in ran and k not in produced]:
        del entries[key]
    for r in results:
        entries[r.key] = expected_entry(r, entries.get(r.key))
    manifest = {s: dict(sorted(manifest[s].items())) for s in sorted(manifest)}
    write_atomically(algorithm.manifest, json.dumps(manifest, indent=1, sort_keys=True) + "\n")


def manifest_keys(algorithm: plugin.Algorithm, scope: str, runtime: str | None = None) -> set[tuple[str, str, str]]:
    """The (property, reading, method) keys pinned at `scope`, of one runtime class if given."""
    out = set()
    for key, entry in load_manifest(algorithm).get(scope, {}).items():
        if runtime is None or entry.get("runtime") == runtime:
            k = Key.parse(key)
            out.add((k.property, k.reading, k.method))
    return out


# --------------------------------------------------------------------------------------------
# Files written whole or not at all
# --------------------------------------------------------------------------------------------

class Staging:
    """Counterexamples of a run: written under a fresh hidden folder beside their final one and
    named by their final path, moved into place by `commit()`, thrown away by `discard()`."""

    PREFIX = ".staging-"

    def __init__(self, folder: Path):
        self.folder = folder
        folder.parent.mkdir(parents=True, exist_ok=True)
        self.remove_stale(folder.parent)
        self.root = Path(tempfile.mkdtemp(dir=folder.parent, prefix=f"{self.PREFIX}{os.getpid()}-"))
        self.written: list[str] = []

    @classmethod
    def remove_stale(cls, parent: Path) -> list[Path]:
        """The staging folders a killed run left (named by the pid of a process that is gone),
        removed; a live run's are left alone."""
        gone = []
        for staging in parent.glob(f"{cls.PREFIX}*"):
            pid = staging.name[len(cls.PREFIX):].split("-", 1)[0]
            if staging.is_dir() and pid.isdigit() and not alive(int(pid)):
                shutil.rmtree(staging, ignore_errors=True)
                gone.append(staging)
        return gone

    def write(self, doc: dict[str, Any]) -> str:
        final = counterexample.store(doc, self.folder, staged=self.root)
        self.written.append(final)
        return final

    def commit(self) -> None:
        for staged in sorted(self.root.rglob("*.json")):
            final = self.folder / staged.relative_to(self.root)
            final.parent.mkdir(parents=True, exist_ok=True)
            os.replace(staged, final)
        self.discard()

    def discard(self) -> None:
        shutil.rmtree(self.root, ignore_errors=True)


def merge(previous: list[dict[str, Any]], fresh: list[CheckResult], replaced: set[str],
          rerun: set[tuple[str, str]]) -> list[dict[str, Any]]:
    """The previous records, less those this run replaces (by key, and every record of an
    (algorithm, method) that this run ran whole, so a renamed check leaves nothing behind), with
    this run's records in their place, in a stable order."""
    kept = [r for r in previous if _key(r) not in replaced and (r["algorithm"], r["method"]) not in rerun]
    merged = kept + [r.as_json() for r in fresh]
    return sorted(merged, key=lambda r: (r["algorithm"], METHODS.index(r["method"]) if r["method"] in METHODS else 9,
                                         r["property"], r["reading"]))


def without_seconds(records: list[dict[str, Any]], manifests: dict[str, dict[str, Any]],
                    scope: str) -> tuple[list[dict[str, Any]], dict[str, float]]:
    """The records with no measured time: a record kept from a report written when records held
    their `seconds` has them moved out (returned by key, for the timings file) and gets, in their
    place, the runtime class its manifest pins where this run loaded that manifest (else None)."""
    out, seconds = [], {}
    for record in records:
        if "seconds" not in record:
            out.append(record)
            continue
        key = _key(record)
        seconds[key] = record["seconds"]
        pinned = manifests.get(record["algorithm"], {}).get(scope, {}).get(key, {}).get("runtime")
        upgraded = {}
        for field, value in record.items():   # the class takes the seconds' place in the record
            if field == "seconds":
                upgraded["runtime"] = pinned if pinned in RUNTIME_CLASSES else None
            elif field != "runtime":
                upgraded[field] = value
        out.append(upgraded)
    return out, seconds


def _key(record: dict[str, Any]) -> str:
    return str(Key(record["algorithm"], record["property"], record["reading"], record["method"]))


def counterexample_folder(report: Path) -> Path:
    """Each report has its own counterexamples: reports/check.json's are in
    reports/counterexamples/, another report's beside it under counterexamples-<stem>/."""
    return report.parent / ("counterexamples" if report.stem == "check" else f"counterexamples-{report.stem}")


def timings_path(report: Path) -> Path:
    """Where a report's measured seconds go: reports/check.json's to reports/timings.json (not
    committed), another report's beside it as timings-<stem>.json."""
    return report.parent / ("timings.json" if report.stem == "check" else f"timings-{report.stem}.json")


def load_timings(path: Path) -> dict[str, Any] | None:
    """The timings a run merges into, or None; a file there that is no timings file is an error
    (move it away), never overwritten."""
    if not path.exists():
        return None
    try:
        timings = json.loads(path.read_text())
    except json.JSONDecodeError as e:
        raise ValueError(f"{path} is not a timings file (invalid JSON: {e}): move it away") from None
    if not isinstance(timings, dict) or not isinstance(timings.get("results"), dict):
        raise ValueError(f"{path} is not a timings file (no 'results' mapping): move it away")
    return timings


def merge_timings(previous: dict[str, Any] | None, fresh: list[CheckResult], merged: list[dict[str, Any]],
                  scope: str, seconds: float, moved: dict[str, float] | None = None) -> dict[str, Any]:
    """The timings of the merged report's records, in its order: this run's seconds for the
    records it recomputed, the previous timings (of the same scope) for those it kept, else the
    seconds `moved` out of a kept record (`without_seconds`); a record kept from a run whose
    timings are lost has none."""
    old = previous["results"] if previous is not None and previous.get("scope") == scope else {}
    old = {**{key: {"seconds": s, "measured_runtime": method_class(Key.method_of(key), s)}
              for key, s in (moved or {}).items()}, **old}
    new = {r.key: {"seconds": round(r.seconds, 3), "measured_runtime": measured_class(r),
                   **({"solver_seconds": smt.seconds(list(r.queries))} if r.queries else {})} for r in fresh}
    results = {}
    for record in merged:
        key = _key(record)
        if key in new or key in old:
            results[key] = new.get(key) or old[key]
    return {"scope": scope, "last_run_seconds": round(seconds, 1), "results": results}


def load_previous(report: Path) -> dict[str, Any] | None:
    """The report a run merges into, or None; a file there that is no report is an error (move it
    away), never overwritten."""
    from checks.claims import load_report

    return load_report(report) if report.exists() else None


def _named(records: list[dict[str, Any]]) -> set[str]:
    """The counterexample files records name, as 'algorithm/file' (files are named by their
    content's digest under their algorithm's folder, so these two parts name a file wherever the
    run that wrote it was started)."""
    return {Path(p).parent.name + "/" + Path(p).name
            for r in records for p in (r.get("counterexample"), r.get("evaluated_counterexample")) if p}


def remove_unreferenced(folder: Path, records: list[dict[str, Any]], previous: list[dict[str, Any]]) -> list[Path]:
    """Delete the counterexample files under `folder` that the report being replaced named
    (`previous`: files this project wrote) and no record names now. Nothing else is touched: a
    file no report named (another tool's, a validation's Spark counterexamples in the same
    folder) stays, and only a folder this removal emptied is removed."""
    gone = _named(previous) - _named(records)
    removed = []
    for name in sorted(gone):
        path = folder / name
        if path.is_file():
            path.unlink()
            removed.append(path)
            if path.parent != folder and not any(path.parent.iterdir()):
                path.parent.rmdir()
    return removed


def _query_files(report: Path, records: list[dict[str, Any]]) -> set[Path]:
    return {smt.query_path(report, r["algorithm"], r["property"], r["reading"])
            for r in records if r.get("second_solver")}


def query_files(report: Path, fresh: list[CheckResult]) -> dict[Path, bytes]:
    """Each fresh Z3 check's published queries (checks.smt.published), by file; two checks that
    would share a file are an error."""
    out: dict[Path, bytes] = {}
    for r in fresh:
        if not r.queries:
            continue
        path = smt.query_path(report, r.algorithm, r.property, r.reading)
        if path in out:
            raise ValueError(f"two Z3 checks of {r.algorithm} would publish their queries to one file, {path.name}")
        out[path] = smt.published(r.key, list(r.queries))
    return out


def publish_queries(files: dict[Path, bytes]) -> list[Path]:
    """The files written (one whose queries are already those is left alone); the runner writes
    them with the counterexamples, after the last moment an interrupt leaves everything as it was."""
    written = []
    for path, data in files.items():
        if not smt.same_queries(path, data):
            write_atomically(path, data)
            written.append(path)
    return written


def remove_unnamed_queries(report: Path, records: list[dict[str, Any]], previous: list[dict[str, Any]]) -> list[Path]:
    """The query files the replaced report named that no record names now (only inside the
    report's query folder)."""
    folder = smt.query_folder(report).resolve()
    removed = []
    for path in sorted(_query_files(report, previous) - _query_files(report, records)):
        if folder not in path.resolve().parents or not path.is_file():
            continue
        path.unlink()
        removed.append(path)
        if not any(path.parent.iterdir()):
            path.parent.rmdir()
    return removed


# --------------------------------------------------------------------------------------------
# The run
# --------------------------------------------------------------------------------------------

def spark_summary(algorithm: plugin.Algorithm, instances: int, master: str, out_root: Path, console=None,
                  spark=None):
    from spark_validation.runner import validate

    info = validate(algorithm.spark.job(), instances, out_root / "spark" / algorithm.name, master=master,
                    spark=spark, progress=_progress(console, f"spark {algorithm.name}"))
    summary = info.summary
    summary["seconds"] = info.seconds
    return summary


def _progress(console, label):
    if console is None:
        return None
    return lambda done, total: console.print(f"  {label}: {done}/{total} cases", highlight=False)


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


def method_words(methods: Iterable[str]) -> str:
    names = {"z3": "Z3", "exhaustive": "exhaustive", "hypothesis": "hypothesis", "spark": "Spark"}
    ms = [names[m] for m in METHODS if m in set(methods)]
    return ", ".join(ms[:-1]) + (" and " if len(ms) > 1 else "") + ms[-1] if ms else "no"


def run(algorithms: Iterable[plugin.Algorithm] | None = None, scope: str = "default",
        report: str | Path = "reports/check.json", methods: set[str] | None = None, master: str = "local[*]",
        spark_instances: int | None = None, update: bool = False, console=None,
        runtime: str | None = None, spark=None,
        properties: set[str] | None = None, jobs: int = 1,
        readings: set[str] | None = None, split: int = 1) -> tuple[list[CheckResult], list[str]]:
    """Run the checks, compare with the manifests, merge into `report` and commit its files.
    `runtime` restricts the run to the checks of one runtime class in the manifests, `properties`
    to the checks that judge one of those properties, `readings` to the checks under one of those
    readings (so that a long search can run one reading per command, each saved when it ends); `spark` is a Spark session to use (by
    default one is started on `master` and stopped afterwards). With `jobs` > 1 the checks other
    than Spark's run side by side in that many processes (engine.SideBySide), the Spark jobs in
    this one meanwhile; the report, counterexamples and verdicts are the same as with one. With
    `split` > 1 each exploration's search is split over that many processes by state hash
    (checks.explorer.partitioned), the checks run one after another: for a few long searches,
    where `jobs` is for many short checks; the report is the same again."""
    for name, value in (("jobs", jobs), ("split", split)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise ValueError(f"{name} must be a whole number >= 1, not {value!r}")
    if jobs > 1 and split > 1:
        raise ValueError(f"jobs ({jobs}) and split ({split}) each use every core: give one of them")
    algorithms = list(algorithms if algorithms is not None else plugin.algorithms().values())
    report = Path(report)
    narrowed = runtime is not None or properties is not None or readings is not None
    if update and narrowed:
        raise ValueError("--update-manifest records whole methods: run it without --runtime, --properties or "
                         "--readings")
    unknown = sorted(set(methods or ()) - set(METHODS))
    if unknown:
        raise ValueError(f"unknown method(s) {unknown}; known: {', '.join(METHODS)}")
    for algorithm in algorithms:   # bad input is an error before anything runs
        algorithm.scope(scope)
        if algorithm.spark is not None and scope not in algorithm.spark.instances:
            raise ValueError(f"{algorithm.name}'s Spark job has no number of instances for scope {scope!r}")
    if properties is not None:
        known = {p.name for a in algorithms for p in a.properties()}
        if not properties or properties - known:
            raise ValueError(f"unknown properties {sorted(properties - known) or '(none given)'}; known: "
                             f"{', '.join(sorted(known))}")
    if readings is not None:
        known = {name for a in algorithms for name in a.readings.names()}
        if not readings or readings - known:
            raise ValueError(f"unknown readings {sorted(readings - known) or '(none given)'}; known: "
                             f"{', '.join(sorted(known))}")
    lock = Lock(report, "check run")   # read the previous report only once no other run writes it
    lock.__enter__()
    try:
        previous = load_previous(report)
        if previous is not None and previous.get("scope") != scope and (
                methods is not None or narrowed or
                {a.name for a in algorithms} != set(plugin.algorithms())):
            raise ValueError(f"{report} holds scope {previous.get('scope')!r}, and this run checks only part of "
                             f"scope {scope!r}: it would replace every record with its own; give it another "
                             f"--report, or run every algorithm and method")
        timings = timings_path(report)
        previous_timings = load_timings(timings)
        out_root = report.parent
        folder = counterexample_folder(report)
        staging = Staging(folder)
    except BaseException:
        lock.__exit__()
        raise
    results: list[CheckResult] = []
    problems: list[str] = []
    manifests: dict[str, dict[str, Any]] = {}
    started = time.perf_counter()
    side_by_side = None
    try:
        selections = {}     # algorithm -> the keys its run is restricted to (None: every key)
        for algorithm in algorithms:
            keys = manifest_keys(algorithm, scope, runtime) if runtime else None
            if properties is not None:
                judging = {k for check in algorithm.checks(algorithm.scope(scope)) for k in check.keys()
                           if k[0] in properties}
                keys = judging if keys is None else keys & judging
            if readings is not None:
                under = {k for check in algorithm.checks(algorithm.scope(scope)) for k in check.keys()
                         if k[1] in readings}
                keys = under if keys is None else keys & under
            selections[algorithm.name] = keys
        wanted = set(methods) if methods is not None else set(METHODS)
        if jobs > 1:
            plan = [(a, scope, engine.selected_checks(a, scope, wanted - {"spark"}, selections[a.name]))
                    for a in algorithms]
            side_by_side = engine.SideBySide(jobs, plan, folder, staging.root, rank=_pinned_rank(scope))

        def spark_of(algorithm: plugin.Algorithm) -> dict[str, Any] | None:
            """The Spark job's summary, where this run asks for it."""
            if not (algorithm.spark is not None and "spark" in wanted and runtime in (None, "slow")
                    and properties is None and readings is None):
                return None
            n = spark_instances or algorithm.spark.instances[scope]
            if console:
                console.print(f"[bold]{algorithm.name}[/]: Spark validation of {n} cases on {master}")
            try:
                return spark_summary(algorithm, n, master, out_root, console, spark)
            except (ValueError, OSError, KeyboardInterrupt):
                raise
            except Exception as e:  # Py4J and PySpark errors: what failed, in one line
                first = str(e).strip().splitlines()[0] if str(e).strip() else ""
                raise ValueError(f"{algorithm.name}'s Spark job failed on master {master!r} "
                                 f"({type(e).__name__}): {first[:300]}") from e

        # side by side, every Spark job runs while the processes check: none waits for another's checks
        summaries = {a.name: spark_of(a) for a in algorithms} if side_by_side is not None else {}
        for algorithm in algorithms:
            keys = selections[algorithm.name]
            summary = summaries[algorithm.name] if side_by_side is not None else spark_of(algorithm)
            # Spark verdicts are held to the manifest only at the scope's own number of instances
            spark_scope = algorithm.spark is None or spark_instances in (None, algorithm.spark.instances[scope])
            if console:
                console.print(f"[bold]{algorithm.name}[/]: {method_words(wanted - {'spark'})} checks at scope "
                              f"{scope!r}" + (f", runtime class {runtime}" if runtime else ""))
            if side_by_side is not None:
                mine = side_by_side.results(algorithm) + engine.spark_part(
                    algorithm, summary, wanted, engine.Context(algorithm, scope, staging.write))
            else:
                with _progress_bar(console) as bar:
                    mine = engine.run_algorithm(algorithm, scope, staging.write, wanted, keys, summary, bar, split)
            judged = [r for r in mine if r.method != "spark" or spark_scope]
            if update:
                update_manifest(algorithm, judged, scope)
            manifest = manifests[algorithm.name] = load_manifest(algorithm)
            pin_runtimes(mine, manifest, scope)
            problems += compare(judged, manifest, scope)
            ran = {r.key for r in judged}
            for key, entry in manifest.get(scope, {}).items():  # pinned checks that no longer run fail too
                method = Key.method_of(key)
                expected_to_run = (method in wanted and (method != "spark" or spark_scope)
                                   and (runtime is None or entry.get("runtime") == runtime)
                                   and (properties is None or (Key.parse(key).property in properties
                                                               and method != "spark"))
                                   and (readings is None or (Key.parse(key).reading in readings
                                                             and method != "spark"))
                                   and (method != "spark" or algorithm.spark is not None))
                if expected_to_run and key not in ran:
                    problems.append(f"{key}: in the manifest but produced no result")
            results += mine
        # a report holds one scope: another scope's report is replaced, not merged into
        same_scope = previous is not None and previous.get("scope") == scope
        old_records = previous["results"] if same_scope else []
        replaced = {r.key for r in results}
        rerun = set() if narrowed else {(a.name, m) for a in algorithms
                                                   for m in (set(methods) if methods is not None else set(METHODS))}
        merged, moved = without_seconds(merge(old_records, results, replaced, rerun), manifests, scope)
        keys = [r.key for r in results]
        if len(keys) != len(set(keys)):
            raise ValueError(f"two checks gave the same key: {sorted(k for k in set(keys) if keys.count(k) > 1)[:3]}")
        kept_problems = [p for p in (previous.get("mismatches", []) if same_scope else [])
                         if problem_key(p) not in replaced and problem_about(p) not in rerun]
        publishing = query_files(report, results)
        engine.stop_if_interrupted()   # the last moment an interrupt may still leave everything as it was
        staging.commit()
        publish_queries(publishing)
        write_atomically(report, json.dumps({
            "scope": scope, "mismatches": kept_problems + problems, "recomputed": len(keys),
            "kept": len(merged) - len(keys), "results": merged}, indent=1) + "\n")
        write_atomically(timings, json.dumps(merge_timings(previous_timings, results, merged, scope,
                                                           time.perf_counter() - started, moved), indent=1) + "\n")
        remove_unreferenced(folder, merged, previous["results"] if previous is not None else [])
        remove_unnamed_queries(report, merged, previous["results"] if previous is not None else [])
    finally:
        if side_by_side is not None:
            side_by_side.close()
        staging.discard()
        lock.__exit__()
    return results, problems


def _pinned_rank(scope: str):
    """A check's rank for handing out (longest first): the slowest runtime class its manifest pins
    for any of its keys (a check with none pinned counts as medium)."""
    pinned: dict[str, dict[str, Any]] = {}

    def rank(algorithm: plugin.Algorithm, check: plugin.Check) -> float:
        if algorithm.name not in pinned:
            pinned[algorithm.name] = load_manifest(algorithm).get(scope, {})
        entries = pinned[algorithm.name]
        classes = [entries.get(str(Key(algorithm.name, *k)), {}).get("runtime", "medium") for k in check.keys()]
        return max((RUNTIME_CLASSES.index(c) if c in RUNTIME_CLASSES else 1 for c in classes), default=1)
    return rank


# --------------------------------------------------------------------------------------------
# What the console shows
# --------------------------------------------------------------------------------------------

COLOUR = {Verdict.PROVED: "bold green", Verdict.HOLDS: "green", Verdict.VIOLATED: "red", Verdict.UNKNOWN: "yellow"}


def summary(results: list[CheckResult], problems: list[str], console) -> None:
    """One screen first: per algorithm and method, the count of each verdict, the mismatches
    against the manifest and the time."""
    from rich.table import Table

    t = Table(title="pubsub-proofs: summary (violated = a paper claim refuted under that reading; "
                    "mismatches = results that differ from the manifest)")
    for c in ("algorithm", "method", "checks", *[v.value for v in Verdict], "mismatches", "seconds"):
        t.add_column(c, justify="left" if c in ("algorithm", "method") else "right")
    groups: dict[tuple[str, str], list[CheckResult]] = {}
    for r in results:
        groups.setdefault((r.algorithm, r.method), []).append(r)
    for (algorithm, method), rs in sorted(groups.items(), key=lambda kv: (kv[0][0], METHODS.index(kv[0][1]))):
        mism = sum(1 for p in problems if problem_about(p) == (algorithm, method))
        seconds = _distinct_seconds(rs)
        cells = [f"[{COLOUR[v]}]{n}[/]" if (n := sum(r.verdict is v for r in rs)) else "0" for v in Verdict]
        t.add_row(algorithm, method, str(len(rs)), *cells, f"[red]{mism}[/]" if mism else "0", f"{seconds:.1f}")
    console.print(t)


def _distinct_seconds(rs: list[CheckResult]) -> float:
    """The time of a group of records: one exploration's properties share their seconds, and
    every column of one Spark job shares the job's."""
    seen = {}
    for r in rs:
        seen[("" if r.method == "spark" else r.reading, r.scope, round(r.seconds, 3), r.states, r.cases)] = r.seconds
    return sum(seen.values())


def table(results: list[CheckResult], console) -> None:
    """One row per (property, reading); a column per method."""
    from rich.table import Table

    methods = [m for m in METHODS if any(r.method == m for r in results)]
    t = Table(title="pubsub-proofs: verdicts (as in the manifest unless marked !)")
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
            cells.append(f"[{COLOUR[r.verdict]}]{r.verdict.value}[/]{size}{mark}")
        t.add_row(algorithm, prop, reading, *cells)
    console.print(t)
