"""Every bad input to the CLI is one clear line on stderr naming the value, exit status 2, no
traceback and nothing on stdout; checked before any long work starts. (Issue 15's table; the
public functions of spec/ and reference/ have their own bad-input tests beside each algorithm.)"""

import json
import os
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

import discovered
from checks import cli, counterexample, plugin

ROOT = Path(__file__).resolve().parents[1]
LBDD_CX = sorted((ROOT / "reports" / "counterexamples" / "lbdd").glob("exhaustive-*.json"))[0]
LBDD_SPARK_CX = sorted((ROOT / "reports" / "validate" / "lbdd").glob("spark-corrected-*.json"))[0]
SCOT_DNR_CX = ROOT / "reports" / "counterexamples" / "scot" / \
    "exhaustive-dnr-icols-only-at_most_one_copy_into_congested_queues-039b67e6.json"
CRAWL_WALK_CX = ROOT / "reports" / "counterexamples" / "crawl" / "exhaustive-original+cleared-recovery_ends-327b7344.json"
CRAWL_MATCHING_CX = ROOT / "reports" / "counterexamples" / "crawl" / \
    "exhaustive-every-arrival-subscriber_accepts_exactly_the_matching_events-2c64c0bb.json"
# CRAWL counterexamples edited field by field: each names what is wrong (issue 22)
CRAWL_WALK_EDITS = {
    "n0": ({"n": 0}, "'n' must be a whole number in 1..64, not 0"), "nhuge": ({"n": 10 ** 9}, "not 1000000000"),
    "ntext": ({"n": "2"}, "not '2'"), "nbool": ({"n": True}, "not True"),
    "edgeself": ({"edges": [[0, 0]]}, "edge (0, 0)"), "edgeout": ({"edges": [[0, 5]]}, "edge (0, 5)"),
    "edgeneg": ({"edges": [[0, -1]]}, "edge (0, -1)"), "edgeshort": ({"edges": [[0]]}, "'edges'"),
    "edgesdict": ({"edges": {"0": 1}}, "'edges'"), "edgetwice": ({"edges": [[0, 1], [1, 0]]}, "given twice"),
    "cutoff": ({"n": 3}, "node 2 cannot be reached"), "sourceout": ({"source": 7}, "'source'"),
    "sourcefloat": ({"source": 0.0}, "not 0.0"), "entryout": ({"entries": [9]}, "not nodes of 0..1"),
    "entriestext": ({"entries": "1"}, "'entries'"), "k0": ({"k": 0}, "'k'"), "khuge": ({"k": 10 ** 12}, "'k'"),
    "budget0": ({"budget": 0}, "'budget'"), "budgethuge": ({"budget": 10 ** 15}, "'budget'"),
    "budgetfloat": ({"budget": 4.5}, "not 4.5"), "teleport": ({"moves": [["teleport", 1]]}, "teleport 1"),
    "movenode": ({"moves": [["forward", 5]]}, "forward 5"), "moveback": ({"moves": [["forward", 0]]}, "forward 0"),
    "nomoves": ({"moves": []}, "stop after 0 moves"), "moveshort": ({"moves": [["forward"]]}, "'moves'"),
    "movestext": ({"moves": "forward"}, "'moves'"),
    "halfwalk": ({"moves": [["forward", 1], ["restart", 0]]}, "stop after 2 moves"),
    "kindbad": ({"kind": "nope"}, "kind 'nope'"), "crawlreading": ({"reading": "halved/kept"}, "'halved/kept'"),
    "walkasmatching": ({"kind": "matching"}, "'subscription'"),
}
CRAWL_OTHER_EDITS = {   # (a committed counterexample of this kind, its edit, what the error names)
    "probtext": ("delivery", {"probability": "half"}, "exact chance"),
    "probfloat": ("delivery", {"probability": 0.5}, "not '0.5'"),
    "probzero": ("delivery", {"probability": "1/0"}, "not '1/0'"),
    "probdigits": ("delivery", {"probability": "1/" + "9" * 5000}, "at most 60 digits"),
    "probwrong": ("delivery", {"probability": "1/3"}, "the walk's chain gives 1/2"),
    "endnegative": ("ending", {"probability": "-1"}, "not '-1'"),
    "endbudget": ("ending", {"budget": 2}, "the walk's chain gives 1"),
    "spaceinverted": ("space", {"low": 5, "high": 0}, "[5, 0]"),
    "rangeoutside": ("space", {"ranges": [[1, 9]]}, "[1, 9] leaves"),
    "rangeinverted": ("space", {"ranges": [[3, 1]]}, "[3, 1]"),
    "rangesmany": ("space", {"ranges": [[0, 0]] * 100_000}, "at most 1000"),
    "rangefloat": ("space", {"ranges": [[1.5, 2]]}, "'ranges'"),
    "spacehuge": ("space", {"high": 10 ** 12}, "'high'"),
    "treeempty": ("tree", {"n": 0}, "'n'"), "treehuge": ("tree", {"n": 10 ** 9}, "not 1000000000"),
    "routeentry": ("routing", {"entry": 5}, "'entry'"), "routetarget": ("routing", {"target": -1}, "'target'"),
    "routeentrybool": ("routing", {"entry": True}, "not True"),
}
CRAWL_MATCHING_EDITS = {
    "subnumber": ({"subscription": {"y": 5}}, "'subscription'"), "subreversed": ({"subscription": {"y": [3, 0]}},
                                                                                 "'subscription'"),
    "subempty": ({"subscription": {}}, "'subscription'"), "eventtext": ({"event": {"y": "a"}}, "'event'"),
    "arrivalunknown": ({"arrivals": ["z"]}, "cannot reach this subscriber"),
    "arrivalstext": ({"arrivals": "y"}, "'arrivals'"),
}


def files(tmp: Path) -> dict[str, Path]:
    """Bad files of every kind, made fresh for each case."""
    (tmp / "folder").mkdir()
    (tmp / "notjson.json").write_text("{not json")
    (tmp / "list.json").write_text("[1, 2]")
    (tmp / "noalgo.json").write_text(json.dumps({"property": "x"}))
    (tmp / "unknownalgo.json").write_text(json.dumps({"algorithm": "nosuch", "property": "p", "reading": "r",
                                                      "method": "z3"}))
    doc = json.loads(LBDD_CX.read_text())
    for name, change in {"badreading": {"reading": "no-such-reading"}, "badprop": {"property": "no_such"},
                         "propnum": {"property": 7}, "nosubs": {"subscribers": "none"},
                         "baddigest": {"publisher": {"address": "p", "digest": 2 ** 40}},
                         "badevent": {"events": [{"explode": 1}]}}.items():
        (tmp / f"{name}.json").write_text(json.dumps({**doc, **change}))
    # edited to be inconsistent with the model: each derived field is recomputed on replay (issue 22)
    spark = json.loads(LBDD_SPARK_CX.read_text())
    publisher, first, second = spark["publisher"], spark["subscribers"][0], spark["subscribers"][1]
    for name, change in {
            "md5": {"publisher": {**publisher, "digest": (publisher["digest"] + 1) % 2 ** 32}},
            "md5sub": {"subscribers": [{**first, "digest": second["digest"]}] + spark["subscribers"][1:]},
            "md5join": {"events": [{"join": {"address": "10.0.0.1", "digest": 7}}]},
            "twice": {"subscribers": [first, first] + spark["subscribers"][2:]},
            "pubtwice": {"subscribers": [publisher] + spark["subscribers"][1:]},
            "failabsent": {"events": [{"fail": "10.9.9.9"}]},
            "failpublisher": {"events": [{"fail": publisher["address"]}]},
            "failtwice": {"events": [{"fail": first["address"]}, {"fail": first["address"]}]},
            "joinpresent": {"events": [{"join": first}]},
            "eventsdict": {"events": {"fail": first["address"]}}}.items():
        (tmp / f"{name}.json").write_text(json.dumps({**spark, **change}))
    dnr = json.loads(SCOT_DNR_CX.read_text())
    for name, ties in {"tieneg": [-1], "tiebig": [5], "tieextra": [0, 0, 0], "tietext": ["0"], "tiebool": [True],
                       "tiedict": {"0": 0}, "tiefloat": [0.0]}.items():
        (tmp / f"{name}.json").write_text(json.dumps({**dnr, "tie_breaks": ties}))
    # a counterexample its algorithm cannot draw: the test fixture plug-in's round-trip probability
    # (every committed algorithm draws all of its own)
    (tmp / "undrawable.json").write_text(json.dumps({"algorithm": "tokenring", "property": "round_trip_likely",
                                                     "reading": "lossy", "method": "exhaustive", "n": 4,
                                                     "probability": "256/625"}))
    os.mkfifo(tmp / "fifo.json")                     # a reader would block for ever
    (tmp / "deep.json").write_text("[" * 100_000 + "]" * 100_000)
    report = tmp / "report-noresults.json"
    report.write_text(json.dumps({"scope": "default"}))
    # records a check never writes: an edited or damaged report is refused, never shown as a verdict
    record = {"algorithm": "lbdd", "property": "no_cycle", "reading": "corrected", "method": "z3",
              "verdict": "holds", "cases": 3}
    for name, results in {"badverdict": [{**record, "verdict": "fine"}], "badmethod": [{**record, "method": "smt"}],
                          "negcount": [{**record, "cases": -1}], "boolcount": [{**record, "states": True}],
                          "textcount": [{**record, "cases": "3"}], "duprecord": [record, {**record, "verdict": "violated"}]
                          }.items():
        (tmp / f"report-{name}.json").write_text(json.dumps({"scope": "default", "results": results}))
    (tmp / "afile").write_text("x")
    for base, edits in ((CRAWL_WALK_CX, CRAWL_WALK_EDITS), (CRAWL_MATCHING_CX, CRAWL_MATCHING_EDITS)):
        doc = json.loads(base.read_text())
        for name, (change, _) in edits.items():
            (tmp / f"crawl-{name}.json").write_text(json.dumps({**doc, **change}))
    by_kind = {}
    for path in sorted((ROOT / "reports" / "counterexamples" / "crawl").glob("exhaustive-*.json")):
        by_kind.setdefault(json.loads(path.read_text())["kind"], json.loads(path.read_text()))
    for name, (kind, change, _) in CRAWL_OTHER_EDITS.items():
        (tmp / f"crawl-{name}.json").write_text(json.dumps({**by_kind[kind], **change}))
    return {p.stem: p for p in tmp.iterdir()}


# (arguments, a text the error line must contain); {name} is a path from files()
CASES = [
    # check: the algorithm, methods, scope, runtime, report, master, Spark size
    (["check", "nosuch"], "nosuch"), (["check", "LBDD"], "LBDD"), (["check", "../lbdd"], "../lbdd"),
    (["check", ""], "''"), (["check", "lbdd", "--methods", ""], "--methods"),
    (["check", "lbdd", "--methods", ","], "--methods"), (["check", "lbdd", "--methods", "z3,,exhaustive"], "--methods"),
    (["check", "lbdd", "--methods", "smt"], "smt"), (["check", "lbdd", "--methods", "Z3"], "Z3"),
    (["check", "lbdd", "--methods", " "], "--methods"), (["check", "lbdd", "--methods", "z3;rm"], "z3;rm"),
    (["check", "lbdd", "--scope", "huge"], "huge"), (["check", "lbdd", "--scope", ""], "--scope"),
    (["check", "lbdd", "--runtime", "quick"], "quick"), (["check", "lbdd", "--runtime", "fast", "--update-manifest",
                                                          "--report", "{folder}/r.json"], "--runtime"),
    (["check", "lbdd", "--properties", "no_such"], "no_such"), (["check", "lbdd", "--properties", ","], "--properties"),
    (["check", "lbdd", "--properties", "x,,y"], "--properties"),
    (["check", "lbdd", "--readings", "no-such"], "no-such"), (["check", "lbdd", "--readings", ","], "--readings"),
    (["queries", "nosuch"], "nosuch"), (["queries", "--solver", "yices"], "yices"),
    (["queries", "--report", "{folder}/r.json"], "no published queries"),
    (["queries", "--certify", "--solver", "z3"], "--certify"),
    (["check", "lbdd", "--properties", "no_such", "--update-manifest", "--report", "{folder}/r.json"], "--properties"),
    (["check", "lbdd", "--methods", "z3", "--report", "{folder}"], "folder"),
    (["check", "lbdd", "--methods", "z3", "--report", "/proc/no/such/report.json"], "cannot be written"),
    (["check", "lbdd", "--methods", "z3", "--report", "{afile}/sub/report.json"], "cannot be written"),
    (["check", "lbdd", "--methods", "z3", "--report", "{notjson}"], "invalid JSON"),
    (["check", "lbdd", "--methods", "z3", "--report", "{report-noresults}"], "not a check report"),
    (["check", "lbdd", "--master", "yarn"], "yarn"), (["check", "lbdd", "--master", "spark://"], "spark://"),
    (["check", "lbdd", "--master", "spark://127.0.0.1:1"], "does not answer"),
    (["check", "lbdd", "--master", "local[0]"], "local[0]"), (["check", "lbdd", "--master", "local[-1]"], "local[-1]"),
    (["check", "lbdd", "--master", "local[x]"], "local[x]"), (["check", "lbdd", "--master", ""], "--master"),
    (["check", "lbdd", "--spark-topologies", "0"], "0"), (["check", "lbdd", "--spark-topologies", "-1"], "-1"),
    (["check", "lbdd", "--spark-topologies", "abc"], "abc"), (["check", "lbdd", "--spark-topologies", "1e3"], "1e3"),
    (["check", "lbdd", "--spark-topologies", "10000000000"], "10000000000"),
    (["check", "lbdd", "--spark-topologies", ""], "''"),
    # validate: the algorithm, size, partitions, master, output paths, readings
    (["validate", "nosuch"], "nosuch"), (["validate", ""], "''"), (["validate", "lbdd", "--topologies", "0"], "0"),
    (["validate", "lbdd", "--topologies", "-5"], "-5"), (["validate", "lbdd", "--topologies", "x"], "'x'"),
    (["validate", "lbdd", "--topologies", "2.5"], "2.5"), (["validate", "lbdd", "--topologies", ""], "''"),
    (["validate", "lbdd", "--topologies", "10000000000"], "10000000000"),
    (["validate", "lbdd", "--topologies", "100", "--partitions", "0"], "0"),
    (["validate", "lbdd", "--topologies", "100", "--partitions", "-2"], "-2"),
    (["validate", "lbdd", "--topologies", "100", "--partitions", "many"], "many"),
    (["validate", "lbdd", "--topologies", "100", "--master", "mesos://x"], "mesos://x"),
    (["validate", "lbdd", "--topologies", "100", "--master", "spark://127.0.0.1:1"], "does not answer"),
    (["validate", "lbdd", "--topologies", "100", "--json", "{folder}"], "folder"),
    (["validate", "lbdd", "--topologies", "100", "--json", "/proc/no/such.json"], "cannot be written"),
    (["validate", "lbdd", "--topologies", "100", "--out", "{afile}"], "afile"),
    (["validate", "lbdd", "--topologies", "100", "--readings", "no-such"], "no-such"),
    (["validate", "lbdd", "--topologies", "100", "--readings", ""], "--readings"),
    (["validate", "lbdd", "--topologies", "100", "--readings", "corrected,,literal"], "--readings"),
    (["validate", "scot", "--topologies", "100", "--readings", "lbdd-corrected"], "lbdd-corrected"),
    (["validate", "irbr", "--topologies", "100", "--readings", "covering"], "covering"),
    (["validate", "irbr", "--topologies", "100", "--readings", "covering/repaired/smallest/widen-covered"],
     "does not run"),
    (["bench", "--out", "/dev/null"], "not a regular file"),
    (["check", "lbdd", "--methods", "z3", "--report", "/dev/null"], "not a regular file"),
    (["validate", "lbdd", "--topologies", "100", "--json", "/dev/null"], "not a regular file"),
    (["replay", str(LBDD_CX), "--png", "/dev/null"], "no .png file name"),
    (["validate", "irbr", "--topologies", "100000000", "--master", "local[1]"], "--yes"),
    # replay: the file, its fields, the picture
    (["replay", "/no/such/file.json"], "/no/such/file.json"), (["replay", "{folder}"], "folder"),
    (["replay", "{notjson}"], "not JSON"), (["replay", "{list}"], "not a counterexample"),
    (["replay", "{noalgo}"], "not a counterexample"), (["replay", "{unknownalgo}"], "nosuch"),
    (["replay", "{badreading}"], "no-such-reading"), (["replay", "{badprop}"], "no_such"),
    (["replay", "{propnum}"], "property"), (["replay", "{nosubs}"], "subscribers"),
    (["replay", "{baddigest}"], "publisher"), (["replay", "{badevent}"], "explode"),
    (["replay", str(LBDD_CX), "--png", "{folder}"], "folder"),
    (["replay", str(LBDD_CX), "--png", "/proc/no/such.png"], "cannot be written"),
    (["replay", "{undrawable}", "--png", "{folder}/cx.png"], "cannot draw"),
    # claims, docs, list, bench
    (["claims", "--report", "/no/such/report.json"], "/no/such/report.json"),
    (["claims", "--report", "{notjson}"], "notjson"), (["claims", "--report", "{folder}"], "folder"),
    (["claims", "--report", "{report-noresults}"], "results"),
    (["docs", "--report", "/no/such/report.json"], "/no/such/report.json"), (["docs", "--report", "{notjson}"], "notjson"),
    (["list", "nosuch"], "nosuch"), (["list", ""], "''"),
    (["bench", "--topologies", "0"], "0"), (["bench", "--topologies", "ten"], "ten"),
    (["bench", "--out", "{folder}"], "folder"),
    # special files, absurd nesting, empty and odd paths, repeated readings (issue 22)
    (["replay", "{fifo}"], "not a regular file"), (["replay", "{deep}"], "nested too deeply"),
    (["claims", "--report", "{fifo}"], "not a regular file"), (["claims", "--report", "{deep}"], "nested too deeply"),
    (["replay", str(LBDD_CX), "--png", ""], "--png"), (["replay", str(LBDD_CX), "--png", "noext"], "noext"),
    (["validate", "lbdd", "--instances", "100", "--json", ""], "--json"),
    (["validate", "lbdd", "--instances", "100", "--out", ""], "--out"),
    (["validate", "lbdd", "--instances", "100", "--counterexamples", ""], "--counterexamples"),
    (["validate", "lbdd", "--instances", "100", "--readings", "corrected,literal,corrected"], "more than once"),
    (["check", "lbdd", "--methods", "z3", "--report", "newdir/"], "names a folder"),
    (["check", "lbdd", "--methods", "z3", "--report", ""], "--report"),
    (["claims", "--report", ""], "--report"), (["docs", "--report", "x/"], "names a folder"),
    (["explain", "lbdd", "--report", ""], "--report"), (["bench", "--out", ""], "--out"),
    # reports whose records no check writes (issue 22)
    (["claims", "--report", "{report-badverdict}"], "verdict 'fine'"),
    (["claims", "--report", "{report-badmethod}"], "method 'smt'"),
    (["claims", "--report", "{report-negcount}"], "cases -1"), (["claims", "--report", "{report-boolcount}"], "states True"),
    (["claims", "--report", "{report-textcount}"], "cases '3'"),
    (["claims", "--report", "{report-duprecord}"], "repeats record 0"),
    (["explain", "lbdd", "no_cycle", "--report", "{report-badverdict}"], "verdict 'fine'"),
    (["explain", "lbdd", "--report", "/no/such/report.json"], "no report at /no/such/report.json"),
    (["check", "lbdd", "--methods", "z3", "--report", "{report-duprecord}"], "repeats record 0"),
    # counterexamples edited to disagree with the model they replay on (issue 22)
    (["replay", "{md5}"], "not the MD5 digest"), (["replay", "{md5sub}"], "not the MD5 digest"),
    (["replay", "{md5join}"], "10.0.0.1"), (["replay", "{twice}"], "appears twice"),
    (["replay", "{pubtwice}"], "appears twice"), (["replay", "{failabsent}"], "10.9.9.9"),
    (["replay", "{failpublisher}"], "not a live subscriber"), (["replay", "{failtwice}"], "not a live subscriber"),
    (["replay", "{joinpresent}"], "already present"), (["replay", "{eventsdict}"], "events must be a list"),
    (["replay", "{tieneg}"], "tie_breaks"), (["replay", "{tiebig}"], "picks candidate 5"),
    (["replay", "{tieextra}"], "records 3 tie-breaks"), (["replay", "{tietext}"], "tie_breaks"),
    (["replay", "{tiebool}"], "tie_breaks"), (["replay", "{tiedict}"], "tie_breaks"),
    (["replay", "{tiefloat}"], "tie_breaks"),
    # CRAWL counterexamples edited to disagree with the model (issue 22)
    *[(["replay", f"{{crawl-{name}}}"], names) for edits in (CRAWL_WALK_EDITS, CRAWL_MATCHING_EDITS)
      for name, (_, names) in edits.items()],
    *[(["replay", f"{{crawl-{name}}}"], names) for name, (_, _, names) in CRAWL_OTHER_EDITS.items()],
    # the CRAWL Spark job: its readings, and sizes it refuses before Spark starts
    (["validate", "crawl", "--instances", "100", "--readings", "every-arrival"], "every-arrival"),
    (["validate", "crawl", "--instances", "100", "--readings", "previous/kept,previous/kept"], "more than once"),
    (["validate", "crawl", "--instances", "0"], "0"),
    (["explain", "crawl", "no_such_claim"], "no_such_claim"),
    # no command, unknown command, unknown option
    ([], "command"), (["prove"], "prove"), (["check", "--frobnicate"], "--frobnicate"),
]


@pytest.mark.parametrize("args, names", CASES, ids=[" ".join(a) or "(none)" for a, _ in CASES])
def test_bad_input_is_one_clear_line_on_stderr_with_exit_2(args, names, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)   # nothing a bad run might write lands in the project
    if "{undrawable}" in args:    # found as a plug-in, as a user's would be
        monkeypatch.setenv(plugin.PLUGINS_VARIABLE, "tokenring")
    paths = files(tmp_path)
    argv = [a.format(**{k: str(v) for k, v in paths.items()}) for a in args]
    names = names.format(**{k: str(v) for k, v in paths.items()})
    assert_one_clear_error(argv, names, capsys)


def assert_one_clear_error(argv: list[str], names: str, capsys) -> None:
    """The CLI refuses `argv` with status 2 and one error line naming `names`, no traceback, no output."""
    try:
        code = cli.main(argv)
    except SystemExit as e:   # argparse's own refusals: usage line plus one error line
        code = e.code
    out, err = capsys.readouterr()
    assert code == 2, (argv, code, out[-300:], err[-300:])
    assert "Traceback" not in err and out == ""
    error_lines = [line for line in err.splitlines() if "error:" in line]
    assert len(error_lines) == 1 and names in error_lines[0], err


def test_there_are_at_least_75_cli_cases():
    assert len(CASES) >= 75


def per_algorithm_cases() -> list[tuple[list[str], str]]:
    """The bad inputs every algorithm gets, the fixture included, from discovery: a new algorithm
    is tested here by being declared."""
    cases = []
    for name, algorithm in discovered.algorithms().items():
        cases += [(["check", name, "--scope", "huge"], "huge"), (["check", name, "--methods", "smt"], "smt"),
                  (["check", name.upper()], name.upper()), (["explain", name, "no_such_property"], "no_such_property")]
        if algorithm.spark is not None:
            cases += [(["validate", name, "--topologies", "100", "--readings", "no-such-reading"], "no-such-reading"),
                      (["validate", name, "--topologies", "0"], "0")]
        committed = sorted((ROOT / "reports" / "counterexamples" / name).glob("*.json"))
        if committed:   # its own counterexample, read under a reading and a property it does not have
            cases += [(["replay", f"{committed[0]}|reading"], "no-such-reading"),
                      (["replay", f"{committed[0]}|property"], "no_such_property")]
    return cases


def altered(arg: str, tmp: Path) -> str:
    """'PATH|FIELD': a copy of the counterexample at PATH with FIELD set to a name it does not have."""
    if "|" not in arg:
        return arg
    path, field = arg.split("|")
    doc = json.loads(Path(path).read_text())
    doc[field] = {"reading": "no-such-reading", "property": "no_such_property"}[field]
    copy = tmp / f"altered-{field}.json"
    copy.write_text(json.dumps(doc))
    return str(copy)


PER_ALGORITHM = per_algorithm_cases()


@pytest.mark.parametrize("args, names", PER_ALGORITHM, ids=[" ".join(a) for a, _ in PER_ALGORITHM])
def test_every_algorithms_bad_input_is_one_clear_line(args, names, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv(plugin.PLUGINS_VARIABLE, ",".join(discovered.FIXTURES))
    assert_one_clear_error([altered(a, tmp_path) for a in args], names, capsys)


def test_every_discovered_algorithm_and_the_fixture_get_the_per_algorithm_cases():
    assert {args[1] for args, _ in PER_ALGORITHM if args[0] == "check"} >= set(discovered.names()) >= {"tokenring"}


JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=8),
                    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
                    max_leaves=12)
FIELDS = ["kind", "S", "T", "publisher", "subscribers", "events", "steps", "n", "passes", "k", "L", "live",
          "operations", "script", "subscriptions", "crashes", "tree", "m", "host", "hosts", "publisher", "trace"]


ALGORITHMS = discovered.algorithms()


def real_looking(draw_from):
    """A document of a discovered algorithm (the fixture included), with one of its readings and
    properties or not, and random fields."""
    return st.fixed_dictionaries(
        {"algorithm": st.sampled_from(sorted(ALGORITHMS)),
         "property": st.sampled_from(sorted({p.name for a in ALGORITHMS.values() for p in a.properties()})
                                     + ["no_such"]),
         "reading": st.sampled_from(sorted({r for a in ALGORITHMS.values() for r in a.readings.names()}) + ["x"]),
         "method": st.sampled_from(["z3", "exhaustive", "hypothesis", "spark"])},
        optional={f: draw_from for f in FIELDS})


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.binary(max_size=200), JSON, real_looking(JSON)))
def test_the_counterexample_reader_refuses_malformed_files_with_a_value_error(tmp_path_factory, content):
    path = tmp_path_factory.mktemp("fuzz") / "cx.json"
    path.write_bytes(content if isinstance(content, bytes) else json.dumps(content).encode())
    try:
        counterexample.replay(path, say=lambda line: None)
    except ValueError:
        pass   # a clear error; anything else (KeyError, TypeError, a traceback) fails the test


def one_reply_server(reply: bytes) -> int:
    """A local port that takes one connection and answers `reply` (b"": says nothing, reads what
    it is sent and closes, as a Spark master's RPC port does with a frame it cannot read)."""
    import socket
    import threading

    srv = socket.socket()
    srv.bind(("127.0.0.1", 0))
    srv.listen(1)

    def serve():
        with srv:
            connection, _ = srv.accept()
            with connection:
                if reply:
                    connection.sendall(reply)
                else:
                    connection.recv(64)

    threading.Thread(target=serve, daemon=True).start()
    return srv.getsockname()[1]


@pytest.mark.parametrize("command", [["check", "lbdd"], ["validate", "lbdd", "--topologies", "100"]])
@pytest.mark.parametrize("reply, names", [(b"HTTP/1.1 400 Bad Request\r\n\r\n", "web server"),
                                          (b"SSH-2.0-OpenSSH_9.6\r\n", "SSH server"),
                                          (b"\x00\x07hello", "not as a Spark master")])
def test_a_port_that_answers_but_is_no_spark_master_is_refused_at_once(command, reply, names, capsys, tmp_path,
                                                                      monkeypatch):
    """Issue 22: Spark itself retries such a port for a minute; the CLI names it in seconds."""
    monkeypatch.chdir(tmp_path)
    assert_one_clear_error(command + ["--master", f"spark://127.0.0.1:{one_reply_server(reply)}"], names, capsys)


def test_a_port_that_says_nothing_and_closes_passes_as_a_spark_master():
    """What a Spark master's RPC port does with the probe (checked against a standalone master
    of the pinned pyspark: it sends nothing and closes)."""
    master = f"spark://127.0.0.1:{one_reply_server(b'')}"
    assert cli.check_master(master) == master
