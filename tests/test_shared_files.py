"""Runs that share files lose nothing (issue 22, first part): one writer per report (a lock naming
its holder, taken over when the holder is dead), a report of another kind or scope is refused, a
killed run's staging is removed by the next, SIGTERM stops a run as Ctrl-C does, and files get
the usual permissions."""

import contextlib
import json
import os
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from checks import cli, plugin
from checks.files import Busy, Lock, write_atomically
from checks.runner import Staging

ROOT = Path(__file__).resolve().parents[1]
CLI = [sys.executable, "-m", "checks.cli"]
HOLD = ("import sys, time; from checks.files import Lock\n"
        "with Lock(sys.argv[1], sys.argv[2]):\n    print('held', flush=True); time.sleep(600)")


@contextlib.contextmanager
def held_elsewhere(path: Path, what: str):
    """Another real process holds the lock of `path` (as a running `what` would) until the block
    ends; it is then killed holding it, leaving its lock file behind."""
    holder = subprocess.Popen([sys.executable, "-c", HOLD, str(path), what], cwd=ROOT, stdout=subprocess.PIPE,
                              text=True)
    try:
        assert holder.stdout.readline().strip() == "held"
        yield holder
    finally:
        holder.kill()
        holder.wait()


def dead_pid() -> int:
    p = subprocess.Popen([sys.executable, "-c", "pass"])
    p.wait()
    return p.pid


def test_files_are_written_with_the_usual_permissions(tmp_path):
    old = os.umask(0o022)
    try:
        write_atomically(tmp_path / "r.json", "{}")
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "r.json").stat().st_mode) == 0o644


def test_a_second_writer_is_refused_naming_the_holder_and_gets_the_lock_once_it_is_released(tmp_path):
    report = tmp_path / "check.json"
    with Lock(report, "check run"):
        with pytest.raises(Busy, match=rf"another check run \(pid {os.getpid()}\) is writing .*check.json"):
            Lock(report, "check run").__enter__()
    with Lock(report, "check run"):
        pass
    assert not (tmp_path / "check.json.lock").exists()


def refused_by(holder, what: str, args: list[str]) -> None:
    """A real second process running `args` is refused in one line naming the holder of the lock."""
    second = subprocess.run(CLI + args, cwd=ROOT, capture_output=True, text=True)
    assert second.returncode == 2 and f"another {what} (pid {holder.pid}) is writing" in second.stderr
    assert "Traceback" not in second.stderr


@pytest.mark.long(15)
def test_two_real_check_processes_one_report_and_a_dead_holders_lock_taken_over(tmp_path):
    report = tmp_path / "check.json"
    with held_elsewhere(report, "check run") as holder:
        refused_by(holder, "check run", ["check", "lbdd", "--methods", "z3", "--report", str(report)])
        assert not report.exists()
    assert (tmp_path / "check.json.lock").exists()
    third = subprocess.run(CLI + ["check", "lbdd", "--methods", "z3", "--report", str(report)], cwd=ROOT,
                           capture_output=True, text=True)
    assert third.returncode == 0, third.stderr[-500:]
    assert {r["algorithm"] for r in json.loads(report.read_text())["results"]} == {"lbdd"}


def test_a_partial_run_refuses_a_report_of_another_scope(tmp_path, capsys):
    report = tmp_path / "check.json"
    report.write_text(json.dumps({"scope": "large", "mismatches": [], "results": [
        {"algorithm": "lbdd", "property": "p", "reading": "r", "method": "z3", "verdict": "holds"}]}))
    before = report.read_text()
    assert cli.main(["check", "lbdd", "--methods", "z3", "--report", str(report)]) == 2
    err = capsys.readouterr().err
    assert "holds scope 'large'" in err and "another" in err and report.read_text() == before


def test_validate_refuses_to_write_its_summary_over_a_check_report(tmp_path, capsys):
    report = tmp_path / "check.json"
    report.write_text(json.dumps({"scope": "default", "mismatches": [], "results": []}))
    before = report.read_text()
    assert cli.main(["validate", "lbdd", "--instances", "10", "--json", str(report)]) == 2
    assert "is a check report" in capsys.readouterr().err and report.read_text() == before
    other = tmp_path / "notes.json"
    other.write_text('{"mine": 1}')
    assert cli.main(["validate", "lbdd", "--instances", "10", "--json", str(other)]) == 2
    assert "not a validation summary" in capsys.readouterr().err and other.read_text() == '{"mine": 1}'


def test_the_next_run_removes_the_staging_a_killed_run_left_and_only_that(tmp_path):
    folder = tmp_path / "counterexamples"
    stale = tmp_path / f"{Staging.PREFIX}{dead_pid()}-abc"
    live = tmp_path / f"{Staging.PREFIX}{os.getpid()}-def"
    for d in (stale, live):
        (d / "lbdd").mkdir(parents=True)
        (d / "lbdd" / "cx.json").write_text("{}")
    staging = Staging(folder)
    try:
        assert not stale.exists() and live.exists() and staging.root.name.startswith(f"{Staging.PREFIX}{os.getpid()}-")
    finally:
        staging.discard()


@pytest.mark.long(30)
def test_sigterm_stops_a_check_as_ctrl_c_does_and_keeps_the_last_report(tmp_path):
    report = tmp_path / "check.json"
    # one process (side by side: tests/test_interrupts.py)
    args = ["check", "lbdd", "--methods", "z3,exhaustive", "--report", str(report), "--jobs", "1"]
    assert subprocess.run(CLI + args, cwd=ROOT, capture_output=True, text=True).returncode == 0
    before = {p.name: p.read_bytes() for p in tmp_path.rglob("*") if p.is_file()}
    p = subprocess.Popen(CLI + args, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    time.sleep(4.0)
    p.send_signal(signal.SIGTERM)
    out, err = p.communicate(timeout=300)
    assert p.returncode == 130 and "Traceback" not in err and len(err.strip().splitlines()) == 1, err[-500:]
    assert {q.name: q.read_bytes() for q in tmp_path.rglob("*") if q.is_file()} == before


def test_a_run_with_an_unknown_method_is_refused_before_it_writes(tmp_path):
    from checks import plugin, runner

    with pytest.raises(ValueError, match=r"unknown method\(s\) \['smt'\]"):
        runner.run([plugin.algorithm("lbdd")], methods={"smt"}, report=tmp_path / "check.json")
    assert not (tmp_path / "check.json").exists()


def test_a_second_validation_into_the_same_folder_is_refused(tmp_path):
    out = tmp_path / "run"
    with held_elsewhere(out, "validation") as holder:
        refused_by(holder, "validation", ["validate", "lbdd", "--instances", "10", "--out", str(out)])
        assert not (out.exists() and any(out.iterdir()))


def test_a_broken_plugin_module_is_one_clear_line(tmp_path):
    (tmp_path / "brokenplugin.py").write_text("raise RuntimeError('half written')\n")
    env = {**os.environ, "PUBSUB_PROOFS_PLUGINS": "brokenplugin",
           "PYTHONPATH": os.pathsep.join([str(tmp_path), os.environ.get("PYTHONPATH", "")])}
    done = subprocess.run(CLI + ["list"], cwd=ROOT, capture_output=True, text=True, env=env)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "brokenplugin" in done.stderr and "RuntimeError: half written" in done.stderr


def test_properties_of_an_unknown_algorithm_is_an_error():
    from spec.registry import properties

    with pytest.raises(ValueError, match="no algorithm 'nonsense' has registered properties"):
        properties("nonsense")


def test_a_report_with_a_malformed_record_is_a_clear_error(tmp_path, capsys):
    report = tmp_path / "check.json"
    report.write_text(json.dumps({"scope": "default", "results": [{"algorithm": "lbdd", "property": 3}]}))
    assert cli.main(["claims", "--report", str(report)]) == 2
    err = capsys.readouterr().err
    assert "record 0 has no 'property', 'reading', 'method', 'verdict'" in err and "Traceback" not in err


def test_a_bad_pyspark_python_is_named(tmp_path, monkeypatch):
    from spark_validation.runner import spark_session

    monkeypatch.setenv("PYSPARK_PYTHON", str(tmp_path / "no-python"))
    with pytest.raises(ValueError, match="PYSPARK_PYTHON=.*no-python.* is no executable Python"):
        spark_session("local[1]")


def test_a_scot_counterexample_too_large_to_replay_is_refused_before_work(tmp_path):
    from checks import counterexample

    doc = {"algorithm": "scot", "property": "subscription_tree_has_no_loop", "reading": "octopis-sbp",
           "method": "exhaustive", "tree_nodes": [0, 1], "tree_edges": [[0, 1]], "m": 100_000, "host": [0, 0],
           "deliveries": []}
    path = tmp_path / "cx.json"
    path.write_text(json.dumps(doc))
    with pytest.raises(ValueError, match="m = 100,000 is more clusters than a replayed SCOT may have"):
        counterexample.replay(path, say=lambda line: None)


def test_the_help_says_what_the_tool_is_lists_the_algorithms_and_every_option_has_help():
    text = cli.parser().format_help()
    listed = ", ".join(sorted(plugin.algorithms()))   # every declared algorithm, found as the engines find it
    assert "publish/subscribe" in text and f"algorithms: {listed}" in text and "crawl" in listed and "141" in text
    sub = next(a for a in cli.parser()._actions if a.dest == "command")
    for name, p in sub.choices.items():
        for action in p._actions:
            assert action.help, (name, action.dest)


def test_an_internal_error_exits_3_never_1(monkeypatch, capsys):
    def boom(args):
        raise RuntimeError("a bug")

    monkeypatch.setattr(cli, "cmd_list", boom)   # the parser binds the command when main builds it
    assert cli.main(["list"]) == 3
    assert "internal error" in capsys.readouterr().err


def test_a_run_deletes_only_the_counterexamples_the_report_it_replaces_named(tmp_path):
    from checks.runner import remove_unreferenced

    folder = tmp_path / "counterexamples"
    (folder / "lbdd").mkdir(parents=True)
    for name in ("old.json", "kept.json", "spark-of-a-validation.json"):
        (folder / "lbdd" / name).write_text("{}")
    previous = [{"counterexample": "reports/counterexamples/lbdd/old.json"},
                {"counterexample": "reports/counterexamples/lbdd/kept.json"}]
    now = [{"counterexample": "elsewhere/counterexamples/lbdd/kept.json"}]
    assert remove_unreferenced(folder, now, previous) == [folder / "lbdd" / "old.json"]
    assert sorted(p.name for p in (folder / "lbdd").iterdir()) == ["kept.json", "spark-of-a-validation.json"]


@pytest.mark.long(20)
def test_a_check_report_inside_a_validations_folder_keeps_its_spark_counterexamples(tmp_path):
    from checks import plugin, runner

    cx = tmp_path / "counterexamples" / "lbdd" / "spark-corrected-x-0123abcd.json"
    cx.parent.mkdir(parents=True)
    cx.write_text('{"algorithm": "lbdd"}')
    runner.run([plugin.algorithm("lbdd")], methods={"z3"}, report=tmp_path / "check.json")
    assert cx.exists()


def test_a_validation_never_deletes_another_validations_folder(tmp_path):
    from spark_validation.lbdd import LbddJob
    from spark_validation.runner import validate

    out = tmp_path / "run"
    (out / "segment-0-10").mkdir(parents=True)
    (out / "segment-0-10" / "part.parquet").write_text("theirs")
    other = LbddJob(readings=("literal",))
    (out / "config.json").write_text(json.dumps({"job": other.config(), "code": "x"}, sort_keys=True))
    with pytest.raises(ValueError, match="holds the results of another validation"):
        validate(LbddJob(), 10, out)
    assert (out / "segment-0-10" / "part.parquet").read_text() == "theirs"
