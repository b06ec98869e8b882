"""Ctrl-C at any moment loses nothing: `check` leaves the last complete report and its
counterexamples exactly as they were, `validate` keeps its finished segments, each says so in one
line on stderr (no traceback), and the same command then gives the uninterrupted result."""

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

import tokenring
from spark_validation.runner import evaluate_locally, summarize

ROOT = Path(__file__).resolve().parents[1]
CLI = [sys.executable, "-m", "checks.cli"]


def start(args, **env):
    return subprocess.Popen(CLI + args, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, **env},
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))  # as in a terminal


def interrupt_after(seconds, args, **env):
    p = start(args, **env)
    time.sleep(seconds)
    p.send_signal(signal.SIGINT)
    out, err = p.communicate(timeout=300)
    return p.returncode, out, err


def files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def records(report: Path) -> list[tuple]:
    return [(r["property"], r["reading"], r["method"], r["verdict"], r["cases"], r["states"], r["counterexample"])
            for r in json.loads(report.read_text())["results"]]


@pytest.mark.long(90)
def test_ctrl_c_during_check_keeps_the_last_report_and_a_rerun_gives_the_same(tmp_path):
    report = tmp_path / "check.json"
    # side by side in two processes (the serial run's SIGTERM: tests/test_shared_files.py)
    args = ["check", "lbdd", "--methods", "z3,exhaustive", "--report", str(report), "--jobs", "2"]
    done = subprocess.run(CLI + args, cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    before = files(tmp_path)
    for moment in (1.5, 4.0, 8.0):
        code, out, err = interrupt_after(moment, args)
        assert code == 130, (moment, code, err[-500:])
        assert len(err.strip().splitlines()) == 1 and "Traceback" not in err, err[-500:]
        assert files(tmp_path) == before, moment        # nothing lost, nothing half-written
    again = subprocess.run(CLI + args, cwd=ROOT, capture_output=True, text=True)
    assert again.returncode == 0
    assert records(report) == records_of(before, "check.json")      # the rerun's result is the same


def records_of(snapshot: dict[str, bytes], name: str) -> list[tuple]:
    return [(r["property"], r["reading"], r["method"], r["verdict"], r["cases"], r["states"], r["counterexample"])
            for r in json.loads(snapshot[name])["results"]]


@pytest.mark.long(80)
@pytest.mark.spark
def test_ctrl_c_during_validate_keeps_finished_segments_and_resumes_to_the_same_summary(tmp_path):
    env = {"PUBSUB_PROOFS_PLUGINS": "tokenring"}
    args = ["validate", "tokenring", "--instances", "6000", "--master", "local[2]"]
    p = start(args + ["--out", str(tmp_path / "cut")], **env)
    deadline = time.monotonic() + 240
    while not list((tmp_path / "cut").glob("segment-*/_SUCCESS")) and time.monotonic() < deadline:
        time.sleep(0.2)
    p.send_signal(signal.SIGINT)        # while a later segment runs: it finishes, the rest waits
    out, err = p.communicate(timeout=300)
    last = err.strip().splitlines()[-1] if err.strip() else ""
    assert p.returncode == 130 and "finished segment(s)" in last and "Traceback" not in err, err[-800:]
    # the resumed run gives what an uninterrupted one does: the plain loop's summary of the same seeds
    # (tests/test_spark.py holds Spark's summaries to the loop's; a second run would cost a JVM's start)
    resumed = subprocess.run(CLI + args + ["--out", str(tmp_path / "cut")], cwd=ROOT, text=True, capture_output=True,
                             env={**os.environ, **env}, timeout=300)
    assert resumed.returncode == 0, resumed.stderr[-500:]
    assert "segment(s) reused" in resumed.stdout and " 0 segment(s) reused" not in resumed.stdout
    summary = json.loads((tmp_path / "cut" / "summary.json").read_text())
    job = tokenring.ALGORITHM.spark.job()
    assert {k: v for k, v in summary.items() if k != "config"} == summarize(evaluate_locally(job, np.arange(6000)), job)
    assert summary["config"] == {"algorithm": "tokenring", "readings": list(job.readings)} and summary["cases"] == 6000


@pytest.mark.long(45)
@pytest.mark.spark
def test_ctrl_c_while_counterexamples_are_shrunk_writes_nothing_and_says_so(tmp_path):
    """Late in validate (issue 22): the segments are finished and summary.json written, the
    counterexamples are being shrunk; Ctrl-C then stops the run (130, one line), no counterexample
    or --json is written, and the same command finishes from the kept segments."""
    args = ["validate", "lbdd", "--instances", "1000", "--readings", "literal", "--master", "local[2]",
            "--out", str(tmp_path / "out"), "--json", str(tmp_path / "summary.json")]
    p = start(args)
    deadline = time.monotonic() + 240
    while not (tmp_path / "out" / "summary.json").exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    p.send_signal(signal.SIGINT)
    out, err = p.communicate(timeout=300)
    last = err.strip().splitlines()[-1] if err.strip() else ""
    assert p.returncode == 130 and "while shrinking" in last and "Traceback" not in err, err[-800:]
    assert not (tmp_path / "summary.json").exists() and not (tmp_path / "out" / "counterexamples").exists()
    again = subprocess.run(CLI + args, cwd=ROOT, capture_output=True, text=True)
    assert again.returncode == 0 and "1 segment(s) reused" in again.stdout, again.stderr[-500:]
    assert json.loads((tmp_path / "summary.json").read_text())["counterexamples"]


@pytest.mark.long(15)
@pytest.mark.spark
def test_a_second_ctrl_c_ends_validate_at_once_with_one_line(tmp_path):
    env = {"PUBSUB_PROOFS_PLUGINS": "tokenring"}
    p = start(["validate", "tokenring", "--instances", "6000", "--master", "local[2]", "--out", str(tmp_path / "out")],
              **env)
    deadline = time.monotonic() + 240
    while not list((tmp_path / "out").glob("segment-*/_SUCCESS")) and time.monotonic() < deadline:
        time.sleep(0.2)
    p.send_signal(signal.SIGINT)
    time.sleep(0.3)
    p.send_signal(signal.SIGINT)
    out, err = p.communicate(timeout=60)
    lines = [line for line in err.strip().splitlines() if "WARN" not in line]
    assert p.returncode == 130 and "Traceback" not in err, err[-800:]
    assert lines and lines[-1].startswith("interrupted twice: stopped at once"), err[-800:]
    assert list((tmp_path / "out").glob("segment-*/_SUCCESS"))   # the finished segment is kept
