"""The Spark runner: same answers as a plain loop, for any partitioning, resumable, and on a real
standalone cluster (a master and a worker started on 127.0.0.1 and stopped afterwards)."""

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import numpy as np
import pytest

from checks.algorithms import lbdd as C
from spark_validation.lbdd import LbddJob, shrink
from spark_validation.runner import evaluate_locally, summarize, validate

pytestmark = pytest.mark.spark
JOB = LbddJob()


def without_config(summary):
    """The aggregated results alone (not the run's configuration, timing or file paths)."""
    return {k: v for k, v in summary.items() if k in ("algorithm", "cases", "checks", "witnesses", "metrics")}


def test_spark_agrees_with_the_single_process_loop_for_any_partitioning(spark, tmp_path):
    expected = summarize(evaluate_locally(JOB, np.arange(600)), JOB)
    for partitions, segment in ((1, 600), (5, 250)):
        info = validate(JOB, 600, tmp_path / f"p{partitions}", spark=spark, partitions=partitions, segment=segment)
        assert without_config(info.summary) == expected
    assert expected["checks"]["literal:every_subscriber_reached"]["violations"] == 600
    assert expected["checks"]["corrected:every_subscriber_reached"]["violations"] == 0
    assert expected["witnesses"]["corrected:every_subscriber_reached:witness"] > 0


def test_finished_segments_are_kept_and_reused(spark, tmp_path):
    first = validate(JOB, 500, tmp_path, spark=spark, segment=250)
    again = validate(JOB, 750, tmp_path, spark=spark, segment=250)
    assert (first.segments_run, again.segments_reused, again.segments_run) == (2, 2, 1)
    assert again.summary["cases"] == 750
    assert json.loads((tmp_path / "summary.json").read_text())["cases"] == 750
    assert list(tmp_path.glob("segment-*/*.parquet"))


@pytest.mark.parametrize("n", [0, -5])
def test_a_non_positive_topology_count_is_refused(spark, tmp_path, n):
    with pytest.raises(ValueError, match="positive integer"):
        validate(JOB, n, tmp_path, spark=spark)


def test_a_spark_counterexample_is_shrunk_and_replays():
    shrunk = JOB.shrunk("literal:every_subscriber_reached", 2)
    assert len(shrunk.view.subscribers) == 1 and shrunk.original_subscribers == 17
    doc = C.ALGORITHM.spark.document(JOB, "literal:every_subscriber_reached", 2)
    assert len(doc["subscribers"]) == 1 and doc["seed"] == 2 and doc["method"] == "spark"
    assert C.replay(doc, say=lambda line: None).reproduced


def test_the_job_a_summary_names_is_the_job_that_made_it():
    assert C.ALGORITHM.spark.from_config(JOB.config()) == JOB
    assert C.ALGORITHM.spark.job() == JOB


def test_shrink_returns_a_one_minimal_failing_sublist():
    assert shrink(list(range(40)), lambda xs: 7 in xs and 30 in xs) == [7, 30]


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _cmdline(proc: Path) -> bytes:
    try:
        return (proc / "cmdline").read_bytes()
    except OSError:
        return b""


@pytest.mark.long(130)
@pytest.mark.cluster
def test_a_standalone_cluster_gives_the_local_answer(tmp_path):
    import pyspark

    spark_class = Path(pyspark.__file__).parent / "bin" / "spark-class"
    port, ui, worker_ui = _free_port(), _free_port(), _free_port()
    env = {**os.environ, "SPARK_HOME": str(spark_class.parent.parent), "PYSPARK_PYTHON": sys.executable,
           "SPARK_LOCAL_IP": "127.0.0.1", "SPARK_LOG_DIR": str(tmp_path), "SPARK_WORKER_DIR": str(tmp_path / "work")}
    logs = open(tmp_path / "cluster.log", "w")
    master = subprocess.Popen([str(spark_class), "org.apache.spark.deploy.master.Master", "--host", "127.0.0.1",
                               "--port", str(port), "--webui-port", str(ui)], env=env, stdout=logs, stderr=logs)
    worker = None
    try:
        url = f"spark://127.0.0.1:{port}"
        worker = subprocess.Popen([str(spark_class), "org.apache.spark.deploy.worker.Worker", url,
                                   "--host", "127.0.0.1", "--cores", "2", "--memory", "2g",
                                   "--webui-port", str(worker_ui)], env=env, stdout=logs, stderr=logs)
        deadline = time.time() + 90
        while time.time() < deadline:
            try:
                state = json.load(urllib.request.urlopen(f"http://127.0.0.1:{ui}/json", timeout=2))
                if any(w["state"] == "ALIVE" for w in state.get("workers", [])):
                    break
            except OSError:
                pass
            time.sleep(1)
        else:
            pytest.fail("the standalone worker did not register: " + (tmp_path / "cluster.log").read_text()[-2000:])
        # one driver (each costs a JVM's start): once the first segment is written, the executor's
        # JVM is killed mid-job; the worker starts another, Spark retries the lost tasks, and the
        # summary is the one a plain loop gives, its counterexamples written
        killed = tmp_path / "killed"
        job = subprocess.Popen([sys.executable, "-m", "checks.cli", "validate", "lbdd", "--instances", "10000",
                                "--master", url, "--out", str(killed), "--json", str(tmp_path / "killed.json"),
                                "--counterexamples", str(tmp_path / "cx2")],
                               env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        deadline = time.time() + 240
        while not list(killed.glob("segment-*/_SUCCESS")) and time.time() < deadline and job.poll() is None:
            time.sleep(0.2)
        executors = [int(p.name) for p in Path("/proc").iterdir() if p.name.isdigit()
                     and b"CoarseGrainedExecutorBackend" in _cmdline(p)]
        assert executors, "no executor to kill"
        for pid in executors:
            os.kill(pid, signal.SIGKILL)
        out_text, err_text = job.communicate(timeout=300)
        assert job.returncode == 0, out_text[-2000:] + err_text[-2000:]
        after_kill = json.loads((tmp_path / "killed.json").read_text())
        assert without_config(after_kill) == summarize(evaluate_locally(JOB, np.arange(10000)), JOB)
        assert list((tmp_path / "cx2" / "lbdd").glob("spark-literal-*.json"))
    finally:
        for proc in (worker, master):
            if proc is not None:
                proc.terminate()
                try:
                    proc.wait(timeout=20)
                except subprocess.TimeoutExpired:
                    proc.kill()
        logs.close()


@pytest.mark.long(20)
def test_results_of_other_code_are_not_resumed(spark, tmp_path, monkeypatch):
    import spark_validation.runner as runner

    validate(JOB, 300, tmp_path, spark=spark, segment=300)
    monkeypatch.setattr(runner, "code_fingerprint", lambda job=None: "changed")
    assert validate(JOB, 300, tmp_path, spark=spark, segment=300).segments_run == 1


def test_the_summary_gives_the_first_violation_at_a_size_the_paper_evaluates_and_its_shrunk_document():
    table = evaluate_locally(JOB, np.arange(400))
    outcome = summarize(table, JOB)["checks"]["corrected:buckets_at_most_log2_n"]
    n, bad = table.column("n").to_numpy(), ~table.column("corrected:buckets_at_most_log2_n").to_numpy(zero_copy_only=False)
    seeds = table.column("seed").to_numpy()
    least = min((int(n[i]), int(seeds[i])) for i in np.flatnonzero(bad & (n >= 100)))
    assert outcome["evaluated_from"] == 100 and outcome["first"]["n"] < 100
    assert (outcome["first_evaluated"]["n"], outcome["first_evaluated"]["seed"]) == least
    # a claim the paper evaluates at every size has no such entry
    assert "first_evaluated" not in summarize(table, JOB)["checks"]["corrected:no_cycle"]
    shrunk = JOB.shrunk("corrected:buckets_at_most_log2_n", least[1], at_least=100)
    assert len(shrunk.view.subscribers) == 100


def test_a_job_records_its_columns_the_same_whether_or_not_it_can_be_hashed():
    """record() names a job's columns once per reading (a frozen job is hashed to keep them); a
    plug-in's job that cannot be hashed (attrs.define) records the same rows."""
    import attrs

    from spark_validation.job import JudgedJob

    @attrs.define
    class Unhashable(JudgedJob):
        KNOWN = LbddJob.KNOWN
        readings: tuple = ("corrected",)
        algorithm: str = "lbdd"

        def properties_of(self, reading):
            return JOB.properties_of(reading)

    verdicts = {p.name: i % 2 == 0 for i, p in enumerate(JOB.properties_of("corrected"))}
    seen = {p.name: i % 3 == 0 for i, p in enumerate(JOB.properties_of("corrected"))}
    rows = [{c: [] for c in job.check_columns() + job.witness_columns()} for job in (JOB, Unhashable())]
    for job, r in zip((JOB, Unhashable()), rows):
        job.record(r, "corrected", verdicts, seen)
    assert rows[1] == {c: v for c, v in rows[0].items() if c in rows[1]}
    assert rows[1]["corrected:" + next(iter(verdicts))] == [True]
    assert any(v == [False] for v in rows[1].values()) and any(v == [True] for v in rows[1].values())
