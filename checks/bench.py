"""`make bench`: throughput figures measured side by side in one run, written to reports/bench.json.

For every declared algorithm (checks.plugin), in discovery order:
- its own figures, `Algorithm.bench()` (for the three papers: the reference's throughput at large
  sizes, the time of Z3 proofs, the states per second of exhaustive search), each under the key
  the algorithm gives it;
- for an algorithm with a Spark job (`Algorithm.spark.job()`): cases per second on Spark local[2]
  (session started and warmed first) beside a plain single-process loop over the same seeds
  (spark_validation.runner.evaluate_locally), whether the two summaries are equal, and the
  parallel efficiency = spark rate / (2 x loop rate), under `<algorithm>_spark`. Each job gets as
  many cases as its loop runs in about LOOP_SECONDS (at most `instances`, at least 1000), so a
  costly job does not take minutes.
Targets from the foundation issue are recorded beside the figures (`against_targets`); a figure
that misses its target is reported as such, not hidden.

Algorithms' figures may use `run_checks` to time their declared checks through the engine.
"""

from __future__ import annotations

import json
import os
import platform
import time
from pathlib import Path
from typing import Any, Callable, Iterable

import numpy as np

from checks.files import write_atomically
from checks import engine, plugin, smt

TARGETS = {"spark_million_seconds": 600, "parallel_efficiency": 0.85, "states_per_second": 100_000}
# how long a Spark job's single loop should take, to size its run: 60 s of one core is about 30 s
# of Spark on local[2], the size of one segment of a real validation (spark_validation.runner's
# SEGMENT_SECONDS), each a Spark job with a fixed cost of about 3 s (its tasks' start, the Parquet
# write). Sized at a 30 s loop the bench ran half a segment and paid that cost twice as heavily:
# CRAWL's job measured 0.797 at a 27 s loop and 0.876 at a 52 s loop on one quiet machine
LOOP_SECONDS = 60.0
CALIBRATION_CASES = 200


def timed(fn: Callable[[], Any]) -> tuple[Any, float]:
    start = time.perf_counter()
    value = fn()
    return value, time.perf_counter() - start


def run_checks(algorithm: plugin.Algorithm, select: Callable[[plugin.Check], bool] = lambda check: True,
               scope: Any = "default", split: int = 1) -> list[tuple[plugin.Check, list, float]]:
    """The declared checks at `scope` (a scope's name, or a scope) that `select` picks, run
    through the engine with their counterexamples discarded (each exploration split over `split`
    processes): each with its records and its wall-clock seconds."""
    ctx = engine.Context(algorithm, scope if isinstance(scope, str) else "bench", write=lambda doc: None, split=split)
    out = []
    for check in algorithm.checks(algorithm.scope(scope) if isinstance(scope, str) else scope):
        if select(check):
            results, seconds = timed(lambda: engine.run_check(check, ctx))
            out.append((check, results, seconds))
    return out


def cases_for(job, instances: int) -> int:
    """As many cases as the job's single loop runs in about LOOP_SECONDS, between 1000 and
    `instances`, rounded to a thousand. Timed on the second CALIBRATION_CASES seeds, after the
    first have warmed the job up (its imports and caches): timing the cold run sized a job's loop
    at a third of LOOP_SECONDS, where Spark's fixed cost then weighed on its efficiency."""
    from spark_validation.runner import evaluate_locally

    evaluate_locally(job, np.arange(CALIBRATION_CASES))
    _, seconds = timed(lambda: evaluate_locally(job, np.arange(CALIBRATION_CASES, 2 * CALIBRATION_CASES)))
    wanted = CALIBRATION_CASES / max(seconds, 1e-9) * LOOP_SECONDS
    return int(min(instances, max(1000, round(wanted, -3))))


def spark_figures(job, instances: int, console=None) -> dict[str, Any]:
    """One validation job's cases per second: a plain loop, then Spark local[2] on the same
    seeds after a warm-up, and whether the two summaries are equal."""
    import tempfile

    from spark_validation.runner import evaluate_locally, spark_session, summarize, validate

    seeds = np.arange(instances)
    loop_summary, loop_seconds = timed(lambda: summarize(evaluate_locally(job, seeds), job))
    spark = spark_session("local[2]", app="pubsub-proofs-bench")
    try:
        with tempfile.TemporaryDirectory() as tmp:
            validate(job, 200, Path(tmp) / "warm", spark=spark, partitions=2)  # JVM and workers up
            info, spark_seconds = timed(lambda: validate(job, instances, Path(tmp) / "run", spark=spark,
                                                         partitions=8, segment=instances))
    finally:
        spark.stop()
    same = {k: v for k, v in info.summary.items() if k != "config"} == loop_summary
    loop_rate, spark_rate = instances / loop_seconds, instances / spark_seconds
    return {
        "topologies": instances, "readings": list(job.readings),  # keys as bench.json has always had them
        "loop_seconds": round(loop_seconds, 2), "loop_topologies_per_second": round(loop_rate, 1),
        "spark_local2_seconds": round(spark_seconds, 2), "spark_topologies_per_second": round(spark_rate, 1),
        "parallel_efficiency": round(spark_rate / (2 * loop_rate), 3),
        "projected_million_seconds_local2": round(1_000_000 / spark_rate, 0),
        "spark_equals_loop": same,
    }


def _values(figures: Any, key: str) -> list[float]:
    """Every number stored under `key` anywhere in nested figures."""
    if isinstance(figures, dict):
        found = [v for k, v in figures.items() if k == key and isinstance(v, (int, float))]
        return found + [x for v in figures.values() for x in _values(v, key)]
    return []


def against_targets(figures: dict[str, Any], spark_keys: dict[str, str]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name, key in spark_keys.items():
        spark = figures[key]
        out[f"{name}_spark_million_seconds"] = spark["projected_million_seconds_local2"]
        out[f"{name}_spark_million_within_target"] = \
            spark["projected_million_seconds_local2"] <= TARGETS["spark_million_seconds"]
        out[f"{name}_parallel_efficiency_met"] = spark["parallel_efficiency"] >= TARGETS["parallel_efficiency"]
    rates = _values({k: v for k, v in figures.items() if k not in ("targets", "machine")}, "states_per_second")
    out["best_states_per_second"] = max(rates) if rates else None
    out["states_per_second_met"] = bool(rates) and max(rates) >= TARGETS["states_per_second"]
    return out


# figures that other commands record in the same file (make mutation), kept when bench rewrites it
KEPT = ("mutation",)


def kept_from(path: Path) -> dict[str, Any]:
    try:
        previous = json.loads(path.read_text())
    except (OSError, ValueError):
        return {}
    return {k: previous[k] for k in KEPT if isinstance(previous, dict) and k in previous}


def solver_figures(algorithms: Iterable[plugin.Algorithm]) -> dict[str, Any]:
    """Each algorithm's Z3 checks, run through the engine: Z3's and the second solver's seconds
    over the same queries (checks.smt), side by side."""
    out = {}
    for algorithm in algorithms:
        queries = [q for _, results, _ in run_checks(algorithm, lambda c: isinstance(c, plugin.Proof))
                   for r in results for q in r.queries]
        if not queries:
            continue
        z3_seconds, second = sum(q.z3_seconds for q in queries), sum(q.second_seconds for q in queries)
        out[algorithm.name] = {"queries": len(queries), "z3_seconds": round(z3_seconds, 3),
                               f"{smt.SECOND}_seconds": round(second, 3),
                               "z3_ms_per_query": round(1000 * z3_seconds / len(queries), 2),
                               f"{smt.SECOND}_ms_per_query": round(1000 * second / len(queries), 2),
                               f"{smt.SECOND}_over_z3": round(second / z3_seconds, 2) if z3_seconds else None}
    return {"solver": smt.version(), "by_algorithm": out}


SPLIT_STATES = 60_000     # the largest default-scope search, up to this many states, is split for the bench


def split_figures(algorithms: Iterable[plugin.Algorithm], processes: int = 2) -> dict[str, Any]:
    """Each algorithm's largest default-scope exploration of at most SPLIT_STATES states (its
    manifest's pinned count), searched in one process and split over `processes`
    (checks.explorer.partitioned): both times, whether the records are equal, and the parallel
    efficiency t1 / (processes x t2)."""
    from checks import runner

    out = {}
    for algorithm in algorithms:
        pinned = {}
        for key, entry in runner.load_manifest(algorithm).get("default", {}).items():
            k = runner.Key.parse(key)
            pinned[k.property, k.reading, k.method] = entry
        sizes = {}
        for check in algorithm.checks(algorithm.scope("default")):
            if isinstance(check, plugin.Exploration):
                states = [pinned.get(k, {}).get("states") or 0 for k in check.keys()]
                if 0 < max(states) <= SPLIT_STATES:
                    sizes[id(check)] = (max(states), check)
        if not sizes:
            continue
        states, check = max(sizes.values(), key=lambda x: x[0])
        records = {}
        for n in (1, processes):
            [(_, results, seconds)] = run_checks(algorithm, lambda c: isinstance(c, plugin.Exploration)
                                                 and c.keys() == check.keys(), split=n)
            records[n] = ([(r.property, r.verdict, r.states, r.cases, r.detail) for r in results], seconds)
        one, split = records[1][1], records[processes][1]
        out[algorithm.name] = {"reading": check.reading, "states": states, "one_process_seconds": round(one, 2),
                               f"{processes}_processes_seconds": round(split, 2),
                               "parallel_efficiency": round(one / (processes * split), 3),
                               "same_records": records[1][0] == records[processes][0]}
    return out


def run(out_path: str | Path = "reports/bench.json", instances: int = 100_000, console=None,
        algorithms: Iterable[plugin.Algorithm] | None = None, spark: bool = True) -> dict[str, Any]:
    """Every algorithm's own figures, then the Spark figures of each Spark job; written to
    `out_path` (relative to the current directory) and returned."""
    say = console.print if console else print
    algorithms = list(algorithms if algorithms is not None else plugin.algorithms().values())
    figures: dict[str, Any] = {"machine": {"cpus": os.cpu_count(), "python": platform.python_version(),
                                           "platform": platform.platform()}, "targets": TARGETS}

    def record(key: str, value: Any, owner: str) -> None:
        if key in figures:
            raise ValueError(f"{owner}'s bench figure {key!r} is already taken")
        figures[key] = value
        say(f"bench: {key}: {json.dumps(value)}")

    for algorithm in algorithms:
        if algorithm.bench is not None:
            say(f"bench: {algorithm.name} ...")
            for key, value in algorithm.bench().items():
                record(key, value, algorithm.name)
    say("bench: each algorithm's largest default search in one process and split over two ...")
    record("split_search", split_figures(algorithms), "checks.explorer")
    say("bench: each Z3 check's queries, Z3 and the second solver ...")
    record("second_solver", solver_figures(algorithms), "checks.smt")
    spark_keys = {}
    for algorithm in algorithms:
        if spark and algorithm.spark is not None:
            job = algorithm.spark.job()
            n = cases_for(job, instances)
            say(f"bench: {algorithm.name} Spark job, {n} {algorithm.spark.unit} ...")
            spark_keys[algorithm.name] = f"{algorithm.name}_spark"
            record(spark_keys[algorithm.name], spark_figures(job, n, console), algorithm.name)
    figures["against_targets"] = against_targets(figures, spark_keys)
    out_path = Path(out_path)
    figures.update(kept_from(out_path))
    out_path.parent.mkdir(parents=True, exist_ok=True)
    write_atomically(out_path, json.dumps(figures, indent=1) + "\n")
    say(f"wrote {out_path}")
    return figures
