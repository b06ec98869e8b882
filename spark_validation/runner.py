"""The Spark runner every algorithm's validation job shares.

`spark.range(N)` of seeds, split into segments; each segment is evaluated by `mapInArrow` over
Arrow batches (the job turns a batch of seeds into one row per topology: a boolean per checked
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
import sys
import time
from pathlib import Path
from typing import Any, Callable, Iterator, Protocol

import attrs
import numpy as np
import pyarrow as pa


class Job(Protocol):
    algorithm: str
    readings: tuple[str, ...]

    def check_columns(self) -> list[str]: ...          # boolean: True when the property holds
    def witness_columns(self) -> list[str]: ...        # boolean: True when the witness is seen
    def metric_columns(self) -> list[str]: ...         # int64 metrics of each topology
    def evaluate(self, seeds: np.ndarray) -> pa.RecordBatch: ...
    def config(self) -> dict[str, Any]: ...


def arrow_schema(job: Job) -> pa.Schema:
    return pa.schema([("seed", pa.int64()), ("n", pa.int64())]
                     + [(c, pa.bool_()) for c in job.check_columns() + job.witness_columns()]
                     + [(c, pa.int64()) for c in job.metric_columns()])


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
    lowest seed); per witness: how often seen; per metric: min, max, sum. Integers only."""
    checks, witnesses, metrics = job.check_columns(), job.witness_columns(), job.metric_columns()
    if spark_df:
        from pyspark.sql import functions as F

        aggs = [F.count(F.lit(1)).alias("__cases")]
        for c in checks:
            aggs.append(F.sum(F.when(~F.col(c), 1).otherwise(0)).alias(f"{c}__violations"))
            aggs.append(F.min(F.when(~F.col(c), F.struct("n", "seed"))).alias(f"{c}__first"))
        for c in witnesses:
            aggs.append(F.sum(F.when(F.col(c), 1).otherwise(0)).alias(f"{c}__seen"))
        for c in metrics:
            aggs += [F.min(c).alias(f"{c}__min"), F.max(c).alias(f"{c}__max"), F.sum(c).alias(f"{c}__sum")]
        row = table_or_df.agg(*aggs).collect()[0].asDict(recursive=True)
    else:
        t = table_or_df
        seed, n = t.column("seed").to_numpy(), t.column("n").to_numpy()
        row = {"__cases": t.num_rows}
        for c in checks:
            bad = ~t.column(c).to_numpy(zero_copy_only=False)
            row[f"{c}__violations"] = int(bad.sum())
            if bad.any():
                idx = np.flatnonzero(bad)
                k = idx[np.lexsort((seed[idx], n[idx]))[0]]
                row[f"{c}__first"] = {"n": int(n[k]), "seed": int(seed[k])}
            else:
                row[f"{c}__first"] = None
        for c in witnesses:
            row[f"{c}__seen"] = int(t.column(c).to_numpy(zero_copy_only=False).sum())
        for c in metrics:
            v = t.column(c).to_numpy()
            row[f"{c}__min"], row[f"{c}__max"], row[f"{c}__sum"] = (int(v.min()), int(v.max()), int(v.sum())) \
                if len(v) else (None, None, 0)
    cases = int(row["__cases"])
    return {
        "algorithm": job.algorithm,
        "cases": cases,
        "checks": {c: {"violations": int(row[f"{c}__violations"] or 0), "first": row[f"{c}__first"]}
                   for c in checks},
        "witnesses": {c: int(row[f"{c}__seen"] or 0) for c in witnesses},
        "metrics": {c: {"min": _int(row[f"{c}__min"]), "max": _int(row[f"{c}__max"]),
                        "sum": _int(row[f"{c}__sum"]) or 0} for c in metrics},
    }


def _int(v):
    return None if v is None else int(v)


def spark_session(master: str = "local[*]", app: str = "pubsub-proofs"):
    from pyspark.sql import SparkSession

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


def code_fingerprint() -> str:
    """A hash of every module that can change a verdict (spec, reference, the Spark jobs)."""
    import hashlib

    root = Path(__file__).resolve().parent.parent
    h = hashlib.sha256()
    for package in ("spec", "reference", "spark_validation"):
        for path in sorted((root / package).glob("*.py")):
            h.update(path.name.encode() + path.read_bytes())
    return h.hexdigest()[:16]


@attrs.define
class RunInfo:
    summary: dict[str, Any]
    seconds: float
    segments_reused: int
    segments_run: int


def validate(job: Job, topologies: int, out_dir: str | Path, master: str = "local[*]",
             partitions: int | None = None, segment: int = 250_000, batch: int = 500,
             spark=None, progress: Callable[[int, int], None] | None = None, resume: bool = True) -> RunInfo:
    """Evaluate `topologies` seeds 0..N-1 on Spark and aggregate. Raises on N <= 0."""
    if not isinstance(topologies, int) or topologies <= 0:
        raise ValueError(f"the number of topologies must be a positive integer, not {topologies!r}")
    if partitions is not None and partitions <= 0:
        raise ValueError(f"partitions must be positive, not {partitions}")
    out = Path(out_dir)
    # resuming is only sound for the same job on the same code: a fixed bug must not be reused
    stamp = json.dumps({"job": job.config(), "segment": segment, "code": code_fingerprint()}, sort_keys=True)
    if out.exists() and (out / "config.json").exists() and (out / "config.json").read_text() != stamp:
        shutil.rmtree(out)  # another configuration's results: not resumable
    out.mkdir(parents=True, exist_ok=True)
    (out / "config.json").write_text(stamp)

    own = spark is None
    spark = spark or spark_session(master)
    partitions = partitions or max(2, spark.sparkContext.defaultParallelism * 2)
    spark.conf.set("spark.sql.execution.arrow.maxRecordsPerBatch", str(batch))
    schema = spark_schema(job)
    start = time.perf_counter()
    reused = ran = 0
    try:
        for lo in range(0, topologies, segment):
            hi = min(lo + segment, topologies)
            path = out / f"segment-{lo:012d}-{hi:012d}"
            if resume and (path / "_SUCCESS").exists():
                reused += 1
            else:
                def evaluate_batches(batches: Iterator[pa.RecordBatch], job=job) -> Iterator[pa.RecordBatch]:
                    for b in batches:
                        yield job.evaluate(b.column(0).to_numpy())

                (spark.range(lo, hi, numPartitions=partitions)
                 .mapInArrow(evaluate_batches, schema)
                 .write.mode("overwrite").parquet(str(path)))
                ran += 1
            if progress:
                progress(hi, topologies)
        # only this run's segments: a larger earlier run in the same folder is not counted
        wanted = [str(out / f"segment-{lo:012d}-{min(lo + segment, topologies):012d}")
                  for lo in range(0, topologies, segment)]
        summary = summarize(spark.read.parquet(*wanted), job, spark_df=True)
    finally:
        if own:
            spark.stop()
    summary["config"] = job.config()
    (out / "summary.json").write_text(json.dumps(summary, indent=2, sort_keys=True))
    return RunInfo(summary, time.perf_counter() - start, reused, ran)
