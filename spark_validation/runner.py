"""The Spark runner every algorithm's validation job shares.

`spark.range(N)` of seeds, split into segments; each segment is evaluated by `mapInArrow` over
Arrow batches (the job turns a batch of seeds into one row per instance: a boolean per checked
property and reading, and integer metrics) and written as Parquet under the output folder with a
marker file, so a long run that is stopped keeps every finished segment and a rerun with the same
parameters resumes after it. The summary is aggregated from the Parquet with integer sums and
minima only, so it is identical for any partition count, any segment size and any machine.

The same `Job.evaluate` runs in a plain loop (`evaluate_locally`) for the benchmark baseline and
for tests that hold Spark's answer to the single-process one.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import sys
import threading
import time
from pathlib import Path
from typing import Any, Callable, Iterator

import attrs
import numpy as np
import pyarrow as pa

from spark_validation.collector import collect_less
from spark_validation.job import Job, arrow_schema


def spark_schema(job: Job):
    """The same columns as a Spark StructType (mapInArrow takes Spark types)."""
    from pyspark.sql import types as T

    kinds = {pa.int64(): T.LongType(), pa.bool_(): T.BooleanType()}
    return T.StructType([T.StructField(f.name, kinds[f.type], nullable=False) for f in arrow_schema(job)])


def evaluate_locally(job: Job, seeds: np.ndarray, batch: int = 1000) -> pa.Table:
    """The single-process loop over the same seeds: the baseline for Spark."""
    return pa.Table.from_batches([job.evaluate(seeds[i:i + batch]) for i in range(0, len(seeds), batch)],
                                 schema=arrow_schema(job))


def summarize(table_or_df, job: Job, spark_df: bool = False) -> dict[str, Any]:
    """Per check column: cases, violations, the first counterexample (fewest subscribers, then
    lowest seed) and, where the job names the smallest size the paper evaluates the column's claim
    at (`evaluated_from(column)`), the first one of at least that size; per witness: how often
    seen; per metric: min, max, sum and sum of squares (an estimate's interval needs it). Integers
    only, so the summary is the same for any partitioning."""
    checks, witnesses, metrics = job.check_columns(), job.witness_columns(), job.metric_columns()
    sizes = {c: job.evaluated_from(c) for c in checks} if hasattr(job, "evaluated_from") else {}
    sizes = {c: n for c, n in sizes.items() if n}
    if spark_df:
        from pyspark.sql import functions as F

        aggs = [F.count(F.lit(1)).alias("__cases")]
        for c in checks:
            aggs.append(F.sum(F.when(~F.col(c), 1).otherwise(0)).alias(f"{c}__violations"))
            aggs.append(F.min(F.when(~F.col(c), F.struct("n", "seed"))).alias(f"{c}__first"))
            if c in sizes:
                aggs.append(F.min(F.when(~F.col(c) & (F.col("n") >= sizes[c]), F.struct("n", "seed")))
                            .alias(f"{c}__evaluated"))
        for c in witnesses:
            aggs.append(F.sum(F.when(F.col(c), 1).otherwise(0)).alias(f"{c}__seen"))
        for c in metrics:
            aggs += [F.min(c).alias(f"{c}__min"), F.max(c).alias(f"{c}__max"), F.sum(c).alias(f"{c}__sum"),
                     F.sum(F.col(c).cast("long") * F.col(c).cast("long")).alias(f"{c}__squares")]
        row = table_or_df.agg(*aggs).collect()[0].asDict(recursive=True)
    else:
        t = table_or_df
        seed, n = t.column("seed").to_numpy(), t.column("n").to_numpy()
        row = {"__cases": t.num_rows}
        for c in checks:
            bad = ~t.column(c).to_numpy(zero_copy_only=False)
            row[f"{c}__violations"] = int(bad.sum())
            row[f"{c}__first"] = _first(bad, n, seed)
            if c in sizes:
                row[f"{c}__evaluated"] = _first(bad & (n >= sizes[c]), n, seed)
        for c in witnesses:
            row[f"{c}__seen"] = int(t.column(c).to_numpy(zero_copy_only=False).sum())
        for c in metrics:
            v = t.column(c).to_numpy()
            row[f"{c}__min"], row[f"{c}__max"], row[f"{c}__sum"] = (int(v.min()), int(v.max()), int(v.sum())) \
                if len(v) else (None, None, 0)
            row[f"{c}__squares"] = sum(int(x) * int(x) for x in v.tolist())
    cases = int(row["__cases"])
    return {
        "algorithm": job.algorithm,
        "cases": cases,
        "checks": {c: {"violations": int(row[f"{c}__violations"] or 0), "first": row[f"{c}__first"],
                       **({"evaluated_from": sizes[c], "first_evaluated": row[f"{c}__evaluated"]}
                          if c in sizes else {})}
                   for c in checks},
        "witnesses": {c: int(row[f"{c}__seen"] or 0) for c in witnesses},
        "metrics": {c: {"min": _int(row[f"{c}__min"]), "max": _int(row[f"{c}__max"]),
                        "sum": _int(row[f"{c}__sum"]) or 0, "squares": _int(row[f"{c}__squares"]) or 0}
                    for c in metrics},
    }


def _first(bad: np.ndarray, n: np.ndarray, seed: np.ndarray) -> dict[str, int] | None:
    """The violation with the fewest subscribers, then the lowest seed; None if none."""
    if not bad.any():
        return None
    idx = np.flatnonzero(bad)
    k = idx[np.lexsort((seed[idx], n[idx]))[0]]
    return {"n": int(n[k]), "seed": int(seed[k])}


def _int(v):
    return None if v is None else int(v)


def spark_session(master: str = "local[*]", app: str = "pubsub-proofs"):
    import shutil

    from pyspark.sql import SparkSession

    for variable in ("PYSPARK_PYTHON", "PYSPARK_DRIVER_PYTHON"):
        given = os.environ.get(variable)
        if given and not shutil.which(given):
            raise ValueError(f"{variable}={given!r} is no executable Python; unset it or name one")
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    os.environ.setdefault("PYSPARK_DRIVER_PYTHON", sys.executable)
    builder = (SparkSession.builder.master(master).appName(app)
               .config("spark.ui.enabled", "false")
               .config("spark.ui.showConsoleProgress", "false")
               .config("spark.sql.shuffle.partitions", "8")
               .config("spark.driver.host", "127.0.0.1")
               .config("spark.driver.bindAddress", "127.0.0.1")
               .config("spark.executorEnv.PYSPARK_PYTHON", sys.executable)
               .config("spark.python.worker.reuse", "true"))
    spark = builder.getOrCreate()
    spark.sparkContext.setLogLevel("ERROR")
    return spark


def code_fingerprint(job: Job | None = None) -> str:
    """A hash of every module that can change a verdict: spec, reference, the Spark jobs, and the
    job's own package where it lives elsewhere (a plug-in's job)."""
    import hashlib
    import inspect

    root = Path(__file__).resolve().parent.parent
    files = [p for package in ("spec", "reference", "spark_validation") for p in sorted((root / package).rglob("*.py"))]
    if job is not None:
        source = inspect.getsourcefile(type(job))
        if source and Path(source).resolve().parent not in {(root / p).resolve() for p in
                                                            ("spec", "reference", "spark_validation")}:
            files += sorted(Path(source).resolve().parent.glob("*.py"))
    h = hashlib.sha256()
    for path in files:
        h.update(path.name.encode() + path.read_bytes())
    return h.hexdigest()[:16]


@attrs.define
class RunInfo:
    summary: dict[str, Any]
    seconds: float
    segments_reused: int
    segments_run: int


class Interrupted(KeyboardInterrupt):
    """Ctrl-C during a validation: what was kept, in one line."""


SEGMENT_SECONDS = 30.0            # a segment of about this long once the speed is known
FIRST_SEGMENT, LARGEST_SEGMENT = 1_000, 250_000


def finished_segments(out: Path, instances: int) -> dict[int, int]:
    """The finished segments [lo, hi) inside 0..instances, by their first seed."""
    done = {}
    for path in out.glob("segment-*-*"):
        try:
            lo, hi = (int(x) for x in path.name.split("-")[1:3])
        except ValueError:
            continue
        if (path / "_SUCCESS").exists() and 0 <= lo < hi <= instances:
            done[lo] = max(hi, done.get(lo, hi))
    return done


def validate(job: Job, instances: int, out_dir: str | Path, master: str = "local[*]",
             partitions: int | None = None, segment: int | None = None, batch: int = 500,
             spark=None, progress: Callable[[int, int], None] | None = None, resume: bool = True,
             stop: Callable[[], bool] | None = None) -> RunInfo:
    """Evaluate `instances` seeds 0..N-1 on Spark and aggregate. Raises on N <= 0.

    The seeds are evaluated in segments, each written as Parquet with a marker when it is
    finished; a rerun of the same job on the same code reuses every finished segment and runs the
    rest. Without `segment`, the first segment is small and the next ones are sized from the
    speed measured so far to take about SEGMENT_SECONDS, so that an interrupted run loses at most
    about that much. `stop()` is asked after each segment (the CLI's Ctrl-C). The summary is the same for any segmentation (integer sums and minima).
    """
    if not isinstance(instances, int) or isinstance(instances, bool) or instances <= 0:
        raise ValueError(f"the number of instances must be a positive integer, not {instances!r}")
    if partitions is not None and (not isinstance(partitions, int) or partitions <= 0):
        raise ValueError(f"partitions must be a positive integer, not {partitions!r}")
    if segment is not None and (not isinstance(segment, int) or segment <= 0):
        raise ValueError(f"segment must be a positive integer, not {segment!r}")
    out = Path(out_dir)
    # resuming is only sound for the same job on the same code: a fixed bug must not be reused
    stamp = json.dumps({"job": job.config(), "code": code_fingerprint(job)}, sort_keys=True)
    if out.exists() and any(out.iterdir()):
        ours = all(p.name in ("config.json", "summary.json", "counterexamples") or p.name.startswith(("segment-", "."))
                   for p in out.iterdir())
        if not ours or not (out / "config.json").exists():
            raise ValueError(f"{out} holds files that are not a validation's segments; give an empty or new folder")
        if (out / "config.json").read_text() != stamp:
            try:
                theirs = json.loads((out / "config.json").read_text()).get("job")
            except (ValueError, AttributeError):
                theirs = None
            if theirs != job.config():   # another run's results: never this run's to delete
                raise ValueError(f"{out} holds the results of another validation ({json.dumps(theirs)}); give "
                                 "this one another --out, or remove that folder yourself")
            for p in out.iterdir():   # this job's results on older code: not resumable, so replaced
                shutil.rmtree(p) if p.is_dir() else p.unlink()
    out.mkdir(parents=True, exist_ok=True)
    (out / ".config.json.tmp").write_text(stamp)
    os.replace(out / ".config.json.tmp", out / "config.json")
    done = finished_segments(out, instances) if resume else {}

    own = spark is None
    if own:
        # PySpark installs a Ctrl-C handler that cancels every job and raises inside py4j; the
        # caller's handler (the CLI's stops after the current segment) is put back
        handler = signal.getsignal(signal.SIGINT)
        spark = spark_session(master)
        if threading.current_thread() is threading.main_thread() and handler is not None:
            signal.signal(signal.SIGINT, handler)
    partitions = partitions or max(2, spark.sparkContext.defaultParallelism * 2)
    spark.conf.set("spark.sql.execution.arrow.maxRecordsPerBatch", str(batch))
    schema = spark_schema(job)
    start = time.perf_counter()
    reused = ran = 0
    wanted: list[str] = []
    size, evaluated, evaluating = segment or FIRST_SEGMENT, 0, 0.0
    lo = 0
    try:
        while lo < instances:
            if lo in done:
                hi = done[lo]
                reused += 1
            else:
                following = min([b for b in done if b > lo], default=instances)
                hi = min(lo + size, following)
                path = out / f"segment-{lo:012d}-{hi:012d}"

                def evaluate_batches(batches: Iterator[pa.RecordBatch], job=job) -> Iterator[pa.RecordBatch]:
                    collect_less()     # in the worker: its process is Spark's, not the CLI's
                    for b in batches:
                        yield job.evaluate(b.column(0).to_numpy())

                began = time.perf_counter()
                (spark.range(lo, hi, numPartitions=partitions)
                 .mapInArrow(evaluate_batches, schema)
                 .write.mode("overwrite").parquet(str(path)))
                ran += 1
                evaluated += hi - lo
                evaluating += time.perf_counter() - began
                if segment is None:  # about SEGMENT_SECONDS at the speed seen so far, growing at most 4-fold
                    rate = evaluated / max(evaluating, 1e-3)
                    size = int(min(LARGEST_SEGMENT, 4 * size, max(FIRST_SEGMENT, rate * SEGMENT_SECONDS)))
            wanted.append(str(out / f"segment-{lo:012d}-{hi:012d}"))
            lo = hi
            if progress:
                progress(hi, instances)
            if stop is not None and stop():   # Ctrl-C: stop after a finished segment, the last one too
                raise KeyboardInterrupt
        summary = summarize(spark.read.parquet(*wanted), job, spark_df=True)
        if stop is not None and stop():
            raise KeyboardInterrupt
    except KeyboardInterrupt:
        kept = len(finished_segments(out, instances))
        raise Interrupted(f"interrupted: {kept} finished segment(s) of {out} are kept; the same command "
                          f"resumes after them") from None
    finally:
        if own:
            spark.stop()
    summary["config"] = job.config()
    tmp = out / ".summary.json.tmp"
    tmp.write_text(json.dumps(summary, indent=2, sort_keys=True))
    os.replace(tmp, out / "summary.json")
    return RunInfo(summary, time.perf_counter() - start, reused, ran)
