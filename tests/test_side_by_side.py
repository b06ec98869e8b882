"""`check --jobs N` (engine.SideBySide): the checks run in N forked processes, Spark's jobs in the
parent meanwhile, and the report, the counterexamples and the verdicts are those of one process;
`check --split N` (checks.explorer.partitioned): each exploration's search split over N processes,
the same again. Ctrl-C during such a run: tests/test_interrupts.py."""

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest

import tokenring
from checks import engine, plugin, runner

ROOT = Path(__file__).resolve().parents[1]
METHODS = {"z3", "exhaustive", "hypothesis"}


def files(folder: Path) -> dict[str, str | bytes]:
    """Every file under `folder` but the timings (measured), with the folder's own name taken out
    (the counterexamples' replay commands name it); the published queries (xz) as bytes."""
    return {str(p.relative_to(folder)): p.read_bytes() if p.suffix == ".xz" else
            p.read_text().replace(str(folder), "<folder>")
            for p in sorted(folder.rglob("*")) if p.is_file() and p.name != "timings.json"}


@pytest.mark.long(20)
def test_checks_side_by_side_give_the_report_and_counterexamples_of_one_process(tmp_path):
    algorithms = [tokenring.ALGORITHM, plugin.algorithm("lbdd")]
    # every token-ring reading and LBDD's literal one (16 fast checks, of each method, violated ones
    # among them): LBDD's other 12 readings would only run the same engines again, three times over
    readings = set(tokenring.ALGORITHM.readings.readings) | {"literal"}
    runs = {}
    for jobs, split in ((1, 1), (2, 1), (1, 2)):
        folder = tmp_path / f"jobs{jobs}-split{split}"
        results, problems = runner.run(algorithms, report=folder / "check.json", methods=METHODS,
                                       runtime="fast", jobs=jobs, split=split, readings=readings)
        assert problems == []
        runs[jobs, split] = ([(r.key, r.verdict, r.cases, r.states, r.detail, r.probability) for r in results],
                             files(folder))
    assert runs[1, 1] == runs[2, 1] == runs[1, 2]
    records, written = runs[2, 1]
    assert any(name.startswith("counterexamples/lbdd/") for name in written)   # something to compare
    assert any(name.startswith("smt/lbdd/") for name in written)
    assert {key.split("/")[0] for key, *_ in records} == {"tokenring", "lbdd"}


def test_an_error_in_a_check_run_side_by_side_is_raised_and_nothing_is_written(tmp_path, monkeypatch):
    def planted(check, ctx):
        raise ValueError("planted: a declaration's bad case")

    monkeypatch.setattr(engine, "_search", planted)     # the forked processes inherit it
    report = tmp_path / "check.json"
    with pytest.raises(ValueError, match="planted: a declaration's bad case"):
        runner.run([tokenring.ALGORITHM], report=report, methods=METHODS, jobs=2)
    assert not report.exists() and not [p for p in tmp_path.rglob("*") if p.is_file()]


@pytest.mark.parametrize("jobs", [0, -1, True, 1.5, "2"])
def test_a_number_of_processes_that_is_not_a_whole_number_from_1_is_refused(jobs, tmp_path):
    with pytest.raises(ValueError, match=r"jobs must be a whole number >= 1"):
        runner.run([tokenring.ALGORITHM], report=tmp_path / "check.json", methods={"z3"}, jobs=jobs)
    assert not (tmp_path / "check.json").exists()


def test_checks_side_by_side_and_a_split_search_together_are_refused(tmp_path):
    with pytest.raises(ValueError, match=r"jobs \(2\) and split \(2\) each use every core: give one of them"):
        runner.run([tokenring.ALGORITHM], report=tmp_path / "check.json", methods={"exhaustive"}, jobs=2, split=2)
    with pytest.raises(ValueError, match=r"split must be a whole number >= 1"):
        runner.run([tokenring.ALGORITHM], report=tmp_path / "check.json", methods={"exhaustive"}, split=0)
    done = subprocess.run([sys.executable, "-m", "checks.cli", "check", "lbdd", "--methods", "exhaustive", "--jobs",
                           "2", "--split", "2", "--report", str(tmp_path / "check.json")], cwd=ROOT,
                          capture_output=True, text=True)
    assert done.returncode == 2 and "each use every core" in done.stderr and "Traceback" not in done.stderr
    assert not (tmp_path / "check.json").exists()


@pytest.mark.parametrize("text, says", [("0", "give 1 to 256 processes, not 0"), ("two", "not an integer: 'two'"),
                                        ("999", "give 1 to 256 processes, not 999")])
def test_the_cli_refuses_a_bad_jobs_with_one_line(text, says, tmp_path):
    done = subprocess.run([sys.executable, "-m", "checks.cli", "check", "lbdd", "--methods", "z3", "--jobs", text,
                           "--report", str(tmp_path / "check.json")], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 2 and says in done.stderr and "Traceback" not in done.stderr, done.stderr
    assert not (tmp_path / "check.json").exists()


def test_a_process_that_dies_ends_the_run_with_an_error_not_a_wait(tmp_path, monkeypatch):
    import os
    import signal

    def killed(check, ctx):
        os.kill(os.getpid(), signal.SIGKILL)     # as the kernel kills a process out of memory

    monkeypatch.setattr(engine, "_search", killed)
    report = tmp_path / "check.json"
    with pytest.raises(ValueError, match=r"a process running the checks died \(killed, or out of memory\), so the run stopped; rerun with --jobs 1"):
        runner.run([tokenring.ALGORITHM], report=report, methods=METHODS, jobs=2)
    assert not report.exists()


def test_a_hypothesis_search_does_not_depend_on_the_modules_loaded_before_it(tmp_path, monkeypatch):
    """Hypothesis would draw some values from the constants of the local modules loaded so far, so a
    check run in another process, or after other checks, could try other examples (and write
    another report) than `make check` in one process: checks.verdict.hypothesis_find turns that off."""
    import importlib
    from hypothesis import strategies as st

    from checks.verdict import hypothesis_find

    def tried() -> list[int]:
        seen = []

        def judge(x):
            seen.append(x)
            return True, False
        hypothesis_find(st.integers(0, 10 ** 9), judge, 300)
        return seen

    before = tried()
    (tmp_path / "many_constants.py").write_text("VALUES = [" + ", ".join(str(7919 * k + 13) for k in range(500)) + "]\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    importlib.import_module("many_constants")
    assert tried() == before


def test_results_come_back_in_declaration_order_whatever_order_the_checks_are_handed_out(tmp_path):
    """SideBySide hands checks out by rank (here the reverse of the declaration) and gives each
    algorithm's results back in declaration order: the same list as one process."""
    import multiprocessing

    from checks.runner import Staging

    algorithm = tokenring.ALGORITHM
    checks = engine.selected_checks(algorithm, "default", METHODS)
    position = {id(c): k for k, c in enumerate(checks)}
    staging = Staging(tmp_path / "counterexamples")
    one = engine.run_algorithm(algorithm, "default", staging.write, METHODS)
    side = engine.SideBySide(2, [(algorithm, "default", checks)], tmp_path / "counterexamples", staging.root,
                             rank=lambda a, c: position[id(c)])
    try:
        got = side.results(algorithm)
    finally:
        side.close()
    assert [(r.key, r.verdict, r.cases, r.states, r.detail) for r in got] == \
        [(r.key, r.verdict, r.cases, r.states, r.detail) for r in one]
    # close() leaves no process behind (one still being reaped by the executor's own thread gets
    # a few seconds: a process never terminated would stay)
    deadline = time.monotonic() + 5
    while multiprocessing.active_children() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not multiprocessing.active_children()
    staging.discard()


def test_an_error_that_cannot_travel_between_processes_is_said_in_words(tmp_path, monkeypatch):
    class Odd(Exception):
        def __init__(self, a, b):          # pickled with one argument, it cannot be rebuilt
            super().__init__(f"{a} and {b}")

    def planted(check, ctx):
        raise Odd("an odd error", "its second part")

    monkeypatch.setattr(engine, "_search", planted)
    with pytest.raises(RuntimeError, match="Odd: an odd error and its second part"):
        runner.run([tokenring.ALGORITHM], report=tmp_path / "check.json", methods=METHODS, jobs=2)


def test_the_bench_splits_each_algorithms_largest_default_search_and_finds_the_same_records():
    from checks import bench

    figures = bench.split_figures([tokenring.ALGORITHM])["tokenring"]
    assert figures["same_records"] is True and 0 < figures["states"] <= bench.SPLIT_STATES
    assert set(figures) == {"reading", "states", "one_process_seconds", "2_processes_seconds", "parallel_efficiency",
                            "same_records"}
