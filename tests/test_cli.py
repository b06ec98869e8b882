"""The command line: every subcommand works, and bad input ends in one clear line, exit 2."""

import json
import subprocess
import sys

import pytest

from checks import cli, counterexample
from checks.algorithms import lbdd as C
from spec import lbdd as L


def run_cli(*args):
    return subprocess.run([sys.executable, "-m", "checks.cli", *args], capture_output=True, text=True, timeout=120)


def test_replay_prints_each_step_and_reproduces(tmp_path):
    view = L.abstract_view(0, [2, 3, 4])
    doc = C.view_document("every_subscriber_reached", "literal-path-update", "test", view,
                          events=[{"fail": "s2"}])
    path = counterexample.store(doc, tmp_path)
    out = run_cli("replay", path, "--png", str(tmp_path / "cx.png"))
    assert out.returncode == 0, out.stdout + out.stderr
    assert "step 1: subscriber s2 fails" in out.stdout and "reproduced" in out.stdout
    assert (tmp_path / "cx.png").exists()


def test_replay_of_a_violation_that_does_not_happen_exits_1(tmp_path):
    doc = C.view_document("every_subscriber_reached", "corrected", "test", L.abstract_view(0, [2, 3, 4]))
    assert run_cli("replay", counterexample.store(doc, tmp_path)).returncode == 1


@pytest.mark.parametrize("args, message", [
    (["replay", "/nonexistent.json"], "no counterexample file"),
    (["check", "nosuchalgo", "--methods", "z3"], "unknown algorithm 'nosuchalgo'"),
    (["check", "lbdd", "--methods", "smt"], "--methods 'smt'"),
    (["validate", "nosuchalgo", "--instances", "10"], "unknown algorithm"),
    (["validate", "scot", "--instances", "10", "--readings", "snr,nosuch"], "unknown reading(s) ['nosuch']"),
    (["validate", "irbr", "--instances", "10", "--readings", "covering/typo"], "unknown reading(s) ['covering/typo']"),
    (["validate", "lbdd", "--instances", "10", "--readings", "typo"], "unknown reading(s) ['typo']"),
    (["claims", "--report", "/nonexistent/check.json"], "run `make check` first"),
])
def test_bad_input_is_one_clear_line_with_exit_2(args, message):
    out = run_cli(*args)
    assert out.returncode == 2, out.stdout + out.stderr
    assert message in out.stdout + out.stderr and "Traceback" not in out.stdout + out.stderr


@pytest.mark.parametrize("flag", ["--instances", "--topologies"])
@pytest.mark.parametrize("count", ["0", "-3", "many"])
def test_a_bad_instance_count_is_refused_by_the_parser(count, flag):
    out = run_cli("validate", "lbdd", flag, count)
    assert out.returncode == 2 and "Traceback" not in out.stderr and flag in out.stderr


@pytest.mark.parametrize("old, new, argv", [
    ("--topologies", "--instances", ["validate", "lbdd", "--topologies", "5", "--readings", "typo"]),
    ("--spark-topologies", "--spark-instances", ["check", "lbdd", "--spark-topologies", "5"]),
    ("--topologies", "--instances", ["bench", "--topologies", "5", "--out", "/proc/no/such.json"]),
])
def test_an_old_spelling_still_works_with_a_note_naming_the_new_one(old, new, argv, capsys):
    args = cli.parser().parse_args(argv)
    assert getattr(args, new.lstrip("-").replace("-", "_")) == 5
    assert f"note: {old} is now spelled {new}" in capsys.readouterr().err


def test_check_writes_the_report_and_claims_reads_it(tmp_path):
    report = tmp_path / "check.json"
    status = cli.main(["check", "lbdd", "--methods", "z3", "--report", str(report)])
    assert status == 0
    records = json.loads(report.read_text())["results"]
    assert {r["method"] for r in records} == {"z3"}
    assert all(set(r) >= {"algorithm", "property", "claim", "method", "verdict", "scope", "cases", "states",
                          "runtime", "counterexample"} for r in records)
    assert not any("seconds" in r for r in records)     # measured time goes to timings.json, not committed
    out = run_cli("claims", "--json", "--report", str(report))
    table = json.loads(out.stdout)
    assert any(entry["property"] == "schedule_partitions_targets" for entry in table)


def test_updating_the_manifest_drops_checks_that_no_longer_exist(tmp_path):
    import attrs

    from checks import runner
    from checks.verdict import CheckResult

    algorithm = attrs.evolve(C.ALGORITHM, manifest=tmp_path / "manifest.json")
    old = CheckResult("lbdd", "p", "claim", "exhaustive", "holds", "s", reading="renamed-away", states=3)
    kept = CheckResult("lbdd", "p", "claim", "z3", "proved", "s")
    runner.update_manifest(algorithm, [old, kept], "default")
    new = CheckResult("lbdd", "p", "claim", "exhaustive", "holds", "s", reading="new-name", states=4)
    runner.update_manifest(algorithm, [new], "default")  # only exhaustive ran: the z3 entry stays
    assert set(runner.load_manifest(algorithm)["default"]) == {new.key, kept.key}
