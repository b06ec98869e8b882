"""The `pubsub-proofs` command.

    pubsub-proofs list [ALGO] [--names]
    pubsub-proofs check [ALGO] [--scope default|large] [--methods z3,exhaustive,...] [--properties p,q]
    pubsub-proofs validate ALGO --instances N [--master URL] [--partitions P] [--readings a,b]
    pubsub-proofs replay FILE [--png OUT.png]
    pubsub-proofs claims [--sentences] [--json]
    pubsub-proofs explain ALGO [PROPERTY] [--json]
    pubsub-proofs docs
    pubsub-proofs bench

Bad input (an unknown algorithm, N <= 0, a malformed file) ends with one line naming the
problem and exit status 2, never a traceback.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

from rich.console import Console

from checks.files import Lock, write_atomically
from checks.verdict import METHODS
from spark_validation.collector import collect_less

console = Console(stderr=False, highlight=False, width=160)
errors = Console(stderr=True, highlight=False, width=160)


MOST_INSTANCES = 10 ** 9   # a billion random instances is days of work on any cluster this targets


def _file_path(text: str) -> str:
    """A path option that names a file: not empty, not ending in a folder separator."""
    if not text.strip():
        raise argparse.ArgumentTypeError(f"needs a file path, not {text!r}")
    if text.endswith(("/", os.sep)):
        raise argparse.ArgumentTypeError(f"{text!r} names a folder; give a file path")
    return text


def _folder_path(text: str) -> str:
    if not text.strip():
        raise argparse.ArgumentTypeError(f"needs a folder path, not {text!r}")
    return text


def _png_path(text: str) -> str:
    text = _file_path(text)
    if not text.lower().endswith(".png"):
        raise argparse.ArgumentTypeError(f"{text!r} is no .png file name; give one ending in .png")
    return text


MOST_PARTITIONS = 100_000   # far beyond any cluster's cores; more only schedules empty tasks


def _partitions(text: str) -> int:
    value = _positive(text)
    if value > MOST_PARTITIONS:
        raise argparse.ArgumentTypeError(f"{value:,} partitions are more than {MOST_PARTITIONS:,}")
    return value


def _integer(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an integer: {text!r}") from None


def _positive(text: str) -> int:
    value = _integer(text)
    if value <= 0:
        raise argparse.ArgumentTypeError(f"must be positive, not {value}")
    if value > MOST_INSTANCES:
        raise argparse.ArgumentTypeError(f"{value} is more than {MOST_INSTANCES:,}; split the run")
    return value


def _cores() -> int:
    """The cores this process may run on (its affinity, where the system tells)."""
    try:
        return max(len(os.sched_getaffinity(0)), 1)
    except AttributeError:
        return os.cpu_count() or 1


def _jobs(text: str) -> int:
    value = _integer(text)
    if not 1 <= value <= 256:
        raise argparse.ArgumentTypeError(f"give 1 to 256 processes, not {value}")
    return value


def check_master(master: str) -> str:
    """local, local[N], local[*] or a spark://host:port that answers within seconds."""
    import re
    import socket

    if re.fullmatch(r"local(\[(\*|[1-9][0-9]*)\])?", master):
        return master
    m = re.fullmatch(r"spark://([^:/]+):([0-9]{1,5})", master)
    if not m:
        raise ValueError(f"--master {master!r}: give local, local[N], local[*] or spark://HOST:PORT")
    try:
        connection = socket.create_connection((m.group(1), int(m.group(2))), timeout=5)
    except OSError as e:
        raise ValueError(f"--master {master!r} does not answer within 5 s ({e.strerror or e})") from None
    with connection:
        reply = _first_bytes(connection)
    if reply:
        # a Spark master's RPC port sends nothing first and answers a bad frame by closing; Spark
        # itself would retry such a port for a minute before giving up
        looks = ("a web server (a master's web UI is usually port 8080, its RPC port 7077)" if reply.startswith(b"HTTP/")
                 else "an SSH server" if reply.startswith(b"SSH-") else f"something else (it sent {reply[:16]!r})")
        raise ValueError(f"--master {master!r} answers, but not as a Spark master: it looks like {looks}")
    return master


def _first_bytes(connection, wait: float = 2.0) -> bytes:
    """What a server says first, or in answer to a line of HTTP (a Spark master says nothing and
    closes); b"" where it says nothing within `wait` seconds."""
    connection.settimeout(wait)
    try:
        connection.sendall(b"GET / HTTP/1.0\r\n\r\n")
        return connection.recv(64)
    except OSError:   # a timeout too
        return b""


def _methods(text: str | None) -> set[str] | None:
    if text is None:
        return None
    methods = {m.strip() for m in text.split(",")}
    if "" in methods or methods - set(METHODS):
        raise ValueError(f"--methods {text!r}: give a comma-separated subset of {','.join(METHODS)}")
    return methods


def _names(text: str | None, option: str, what: str) -> set[str] | None:
    if text is None:
        return None
    names = {p.strip() for p in text.split(",")}
    if "" in names:
        raise ValueError(f"{option} {text!r}: give a comma-separated list of {what} names (see `list`)")
    return names


def _algorithms(name: str | None) -> list:
    from checks import plugin

    return [plugin.algorithm(name)] if name is not None else list(plugin.algorithms().values())


def cmd_check(args) -> int:
    from checks import counterexample, runner

    algorithms = _algorithms(args.algorithm)
    methods = _methods(args.methods)
    counterexample.check_output_path(args.report, "--report")
    if methods is None or "spark" in methods:
        check_master(args.master)
    results, problems = runner.run(algorithms, args.scope, args.report, methods, args.master,
                                   args.spark_instances, args.update_manifest, console, runtime=args.runtime,
                                   properties=_names(args.properties, "--properties", "property"),
                                   jobs=args.jobs if args.jobs is not None else (1 if args.split > 1 else _cores()),
                                   readings=_names(args.readings, "--readings", "reading"), split=args.split)
    runner.summary(results, problems, console)
    if args.table:
        runner.table(results, console)
    console.print(f"report: {args.report}; {len(results)} checks run (seconds: "
                  f"{runner.timings_path(Path(args.report))})", highlight=False)
    notes = runner.runtime_notes(results)
    if notes:
        console.print(f"[yellow]note: {len(notes)} check(s) took more than one runtime class away from the "
                      "manifest's (not a mismatch: timing depends on the machine and its load; "
                      "--update-manifest records a reviewed change):[/]")
        for n in notes:
            console.print(f"  {n}", markup=False, highlight=False)
    if problems:
        console.print(f"[red]{len(problems)} result(s) differ from the manifests:[/]")
        for p in problems:
            console.print(f"  {p}", markup=False)
        return 1
    console.print("[green]every verdict and count matches the manifests[/]")
    return 0


LONGEST_UNASKED_SECONDS = 3600


def refuse_if_too_long(job, instances: int, master: str, unit: str) -> None:
    """Time a small sample in this process and refuse, with the estimate, a local run that would
    take more than an hour unless --yes says it is meant."""
    import os
    import time

    import numpy as np

    sample = min(instances, 200)
    start = time.perf_counter()
    job.evaluate(np.arange(sample))
    per_second = sample / max(time.perf_counter() - start, 1e-6)
    inside = master[len("local["):-1] if master.startswith("local[") else "1"
    cores = (os.cpu_count() or 1) if inside == "*" else int(inside)
    seconds = instances / (per_second * cores)
    if seconds > LONGEST_UNASKED_SECONDS:
        raise ValueError(f"{instances:,} {unit} would take about {seconds / 3600:.1f} h on {master} here "
                         f"({per_second:.0f}/s per core measured, {cores} core(s)); add --yes to start it, "
                         "or run it on a cluster with --master spark://HOST:PORT")


def refuse_another_kind(path: Path, option: str) -> None:
    """A validation summary replaces only a validation summary: a file there of another kind (a
    check report, anything else) is an error, never overwritten."""
    if not path.exists():
        return
    try:
        existing = json.loads(path.read_text())
    except (OSError, UnicodeDecodeError, json.JSONDecodeError):
        existing = None
    if not (isinstance(existing, dict) and "results" not in existing and {"algorithm", "checks", "config"} <= set(existing)):
        kind = "a check report" if isinstance(existing, dict) and "results" in existing else "not a validation summary"
        raise ValueError(f"{option} {path} is {kind}; a validation writes only over its own summary: give {option} "
                         "another path")


def cmd_validate(args) -> int:
    from checks import counterexample, engine, plugin
    from spark_validation.runner import validate

    algorithm = plugin.algorithm(args.algorithm)
    if algorithm.spark is None:
        raise ValueError(f"{args.algorithm!r} has no Spark validation job")
    check_master(args.master)
    for option, path in (("--json", args.json), ("--out", args.out and Path(args.out) / "summary.json")):
        if path:
            counterexample.check_output_path(path, option)
    if args.json:
        refuse_another_kind(Path(args.json), "--json")
    job = algorithm.spark.job()
    if args.instances is None:
        args.instances = algorithm.spark.instances["validate"]
    if args.readings is not None:
        import attrs

        wanted = args.readings.split(",")
        if "" in wanted:
            raise ValueError(f"--readings {args.readings!r}: give a comma-separated list of reading names")
        repeated = sorted({r for r in wanted if wanted.count(r) > 1})
        if repeated:
            raise ValueError(f"--readings names {', '.join(repeated)} more than once; give each reading once")
        unknown = [r for r in wanted if r not in algorithm.readings]
        if unknown:
            raise ValueError(f"--readings: unknown reading(s) {unknown}; known: {', '.join(algorithm.readings)}")
        not_run = [r for r in wanted if r not in job.KNOWN]
        if not_run:   # a reading of the catalogue that the Spark job does not replay
            raise ValueError(f"--readings: {args.algorithm}'s Spark job does not run {not_run} (checked by the other "
                             f"methods only); it runs: {', '.join(job.KNOWN)}")
        job = attrs.evolve(job, readings=tuple(wanted))
    readings = f"-{'+'.join(job.readings)}" if args.readings else ""
    if args.master.startswith("local") and not args.yes:
        refuse_if_too_long(job, args.instances, args.master, algorithm.spark.unit)
    out = Path(args.out or f"reports/spark/{args.algorithm}-{args.instances}{readings.replace('/', '_')}")
    try:
        with Lock(out, "validation"):   # one run per folder: a second one into it is refused
            info = validate(job, args.instances, out, master=args.master, partitions=args.partitions,
                            progress=lambda d, t: console.print(f"  {d}/{t} {algorithm.spark.unit}"),
                            stop=engine.INTERRUPTED.is_set)
    except (ValueError, TypeError, OSError, KeyboardInterrupt):
        raise
    except Exception as e:  # Py4J and PySpark errors: say what failed in one line
        first = str(e).strip().splitlines()[0] if str(e).strip() else ""
        raise ValueError(f"the Spark job failed on master {args.master!r} ({type(e).__name__}): {first[:300]}") from e
    s = info.summary
    console.print(f"{s['cases']} {algorithm.spark.unit} in {info.seconds:.1f} s "
                  f"({s['cases'] / info.seconds:.0f}/s; {info.segments_reused} segment(s) reused); "
                  f"Parquet and summary.json in {out}")
    from rich.table import Table
    t = Table(title=f"{args.algorithm}: violations per reading and property")
    for c in ("check", "violations", "first counterexample (n, seed)"):
        t.add_column(c)
    for column, o in s["checks"].items():
        first = f"n={o['first']['n']}, seed {o['first']['seed']}" if o["first"] else "-"
        t.add_row(column, f"[{'red' if o['violations'] else 'green'}]{o['violations']}[/]", first)
    console.print(t)
    folder = Path(args.counterexamples) if args.counterexamples else out / "counterexamples"
    documents = {}
    for column, o in s["checks"].items():   # shrinking takes a while: Ctrl-C is honoured between columns
        if engine.INTERRUPTED.is_set():
            break
        if o["violations"]:
            documents[column] = algorithm.spark.document(job, column, o["first"]["seed"])
    if engine.INTERRUPTED.is_set():   # nothing written: the segments are kept, and a rerun reuses them all
        raise KeyboardInterrupt(f"interrupted while shrinking counterexamples: every segment of {out} is finished "
                                "and kept, no counterexample or --json was written; the same command finishes")
    written = {column: counterexample.store(doc, folder) for column, doc in documents.items()}
    for column, path in written.items():
        console.print(f"  {column}: pubsub-proofs replay {path}", markup=False)
    if args.json:
        Path(args.json).parent.mkdir(parents=True, exist_ok=True)
        write_atomically(args.json, json.dumps({**s, "seconds": info.seconds, "segments_reused": info.segments_reused,
                                               "segments_run": info.segments_run, "counterexamples": written},
                                              indent=1))
    return 0


def cmd_list(args) -> int:
    """The declared algorithms, with their readings, scopes and properties."""
    from checks import plugin

    found = plugin.algorithms()
    if args.names:
        for name, a in found.items():
            if a.spark is not None or not args.spark:
                print(name)
        return 0
    for name in ([args.algorithm] if args.algorithm is not None else found):
        a = plugin.algorithm(name)
        console.print(f"[bold]{a.name}[/]: {a.title}")
        console.print(f"  readings: {', '.join(a.readings.names())}", markup=False)
        console.print(f"  scopes: {', '.join(a.scopes)}; Spark job: {'yes' if a.spark else 'no'}", markup=False)
        if a.spark is not None:
            console.print(f"  Spark job's readings (validate --readings): {', '.join(a.spark.job().KNOWN)}",
                          markup=False)
        for p in a.properties():
            question = f" (this project's question, not a paper claim: {p.question})" if p.question else ""
            console.print(f"  {p.name}: {p.claim}{question}", markup=False)
    return 0


def cmd_explain(args) -> int:
    from checks import explain

    if args.report is None:
        args.report = "reports/check.json"  # a clone before its first `make check` explains without verdicts
    elif not Path(args.report).exists():
        raise ValueError(f"no report at {args.report}: run `make check` first, or leave out --report")
    found = (explain.explain(args.algorithm, args.property, args.report) if args.property
             else explain.summary(args.algorithm, args.report))
    if args.json:
        print(explain.to_json(found))
    else:
        explain.render(found, console)
    return 0


def cmd_replay(args) -> int:
    from checks import counterexample

    reproduced = counterexample.replay(args.file, say=lambda line: console.print(line, markup=False),
                                       png=args.png)
    console.print("reproduced" if reproduced else "[red]did not reproduce[/]")
    return 0 if reproduced else 1


def cmd_queries(args) -> int:
    from checks import smt

    if args.certify and args.solver != "cvc5":
        raise ValueError("--certify: only cvc5 checks its own proofs and models here; leave out --solver z3")
    names = [a.name for a in _algorithms(args.algorithm)] if args.algorithm else None
    folder = smt.query_folder(Path(args.report))
    if not folder.is_dir():
        raise ValueError(f"no published queries at {folder}: run `pubsub-proofs check --methods z3` first")
    asked, wrong, certificates = smt.rerun(folder, names, args.solver, certify=args.certify,
                                           say=lambda line: console.print(line, markup=False, highlight=False))
    for line in wrong:
        console.print(f"[red]{line}[/]", highlight=False)
    console.print(f"{asked} queries asked of {args.solver}: {asked - len(wrong)} gave the recorded answer"
                  + (" and had it checked by cvc5's own proof or model checker" if args.certify else ""))
    if args.certify:
        out = smt.certificates_path(Path(args.report))
        kept = json.loads(out.read_text()).get("files", {}) if out.is_file() and names is not None else {}
        write_atomically(out, json.dumps({"solver": smt.version(), "checked": "cvc5 --check-proofs (unsat), "
                                          "--check-models (sat)", "files": {**kept, **certificates}},
                                         indent=1, sort_keys=True) + "\n")
        console.print(f"wrote {out}")
    return 1 if wrong or not asked else 0


def cmd_claims(args) -> int:
    from checks import claims

    if args.sentences:
        rows = claims.sentences_table(args.report)
        if args.json:
            print(json.dumps(rows, indent=1))
        else:
            claims.print_sentences(rows, console)
        return 0
    table = claims.properties_table(args.report)
    if args.json:
        print(json.dumps(table, indent=1))
    else:
        claims.print_sentences(claims.sentences_table(args.report), console)
        claims.print_properties(table, console)
    return 0


def cmd_docs(args) -> int:
    from checks import docs

    for path in docs.generate(args.report):
        console.print(f"wrote {path}")
    return 0


def cmd_bench(args) -> int:
    from checks import bench, counterexample

    counterexample.check_output_path(args.out, "--out")
    bench.run(args.out, instances=args.instances, console=console)
    return 0


EXIT_CODES = """exit status: 0 every verdict and count as expected; 1 a verdict differs (check: from the
manifests; replay: the file's violation does not reproduce) and nothing else means 1; 2 bad input,
said in one line on stderr; 3 an internal error (with its traceback); 130 interrupted (Ctrl-C or
SIGTERM; the last complete report kept); 141 the output pipe closed."""


def _algorithm_names() -> list[str]:
    """The declared algorithms' names, found without importing them (help must stay quick)."""
    import pkgutil

    from checks import plugin

    extra = [m.strip().rsplit(".", 1)[-1] for m in os.environ.get(plugin.PLUGINS_VARIABLE, "").split(",") if m.strip()]
    return sorted(m.name for m in pkgutil.iter_modules([str(plugin.ALGORITHMS_FOLDER)])) + extra


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="pubsub-proofs", formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Checks whether publish/subscribe overlay routing algorithms do what their papers claim: "
                    "Z3 proofs, exhaustive small-scope search, hypothesis and Spark validation of every paper "
                    "claim, each under every named reading of the paper's text.",
        epilog=f"algorithms: {', '.join(_algorithm_names())}\n{EXIT_CODES}")
    sub = p.add_subparsers(dest="command", required=True)

    c = sub.add_parser("check", help="run every check and compare with the manifest")
    c.add_argument("algorithm", nargs="?", help="one algorithm (default: every one; see `list`)")
    c.add_argument("--scope", choices=["default", "large"], default="default",
                   help="the bounds to explore (default: default; large takes hours)")
    c.add_argument("--methods", help="comma-separated subset of z3,exhaustive,hypothesis,spark")
    c.add_argument("--runtime", choices=["fast", "medium", "slow"],
                   help="only the checks of this runtime class in the manifests")
    c.add_argument("--properties", help="comma-separated: only the checks that judge one of these properties "
                   "(see `list`); Spark's job judges every property at once and runs only without it")
    c.add_argument("--readings", help="comma-separated: only the checks under one of these readings (see `list "
                   "ALGO`), so that a long search can run one reading per command; Spark's job runs only without it")
    c.add_argument("--table", action="store_true", help="after the summary, every check's verdict")
    c.add_argument("--master", default="local[*]", help="Spark master for the Spark checks (default local[*])")
    c.add_argument("--spark-instances", type=_positive,
                   help="random instances for the Spark checks (default: the scope's count)")
    _renamed(c, "--spark-topologies", "--spark-instances")
    c.add_argument("--report", default="reports/check.json", type=_file_path,
                   help="the report (merged into by key); each check's measured seconds go beside it, to "
                        "timings.json (timings-<stem>.json for another name)")
    c.add_argument("--update-manifest", action="store_true",
                   help="record this run's verdicts and state counts as the expected ones")
    c.add_argument("--jobs", type=_jobs, default=None,
                   help="processes that run the checks side by side, Spark's jobs running in this one meanwhile "
                        f"(default: one per core, here {_cores()}, or 1 with --split; 1: one after another in this "
                        "process); the report is the same for any number")
    c.add_argument("--split", type=_jobs, default=1,
                   help="processes each exhaustive exploration's search is split over, by state hash, the checks "
                        "run one after another (for a few long searches, such as a large scope's; default 1); "
                        "the report is the same for any number")
    c.set_defaults(func=cmd_check)

    v = sub.add_parser("validate", help="validate every property on random instances with Spark")
    v.add_argument("algorithm", help="the algorithm whose Spark job runs (see `list`)")
    v.add_argument("--instances", type=_positive,
                   help="random instances, seeds 0..N-1 (an algorithm's topologies, scenarios or workloads; "
                   "default: the algorithm's own count, 1,000,000 unless its declaration says otherwise)")
    _renamed(v, "--topologies", "--instances")
    v.add_argument("--master", default="local[*]", help="Spark master: local[N] or spark://HOST:PORT (default local[*])")
    v.add_argument("--partitions", type=_partitions, help="Spark partitions per segment (default: the job's)")
    v.add_argument("--readings", help="comma-separated readings of the Spark job (default: all of them; see `list ALGO`)")
    v.add_argument("--out", type=_folder_path,
                   help="folder for the Parquet segments and summary.json (a rerun resumes there)")
    v.add_argument("--json", type=_file_path, help="also write the summary here")
    v.add_argument("--yes", action="store_true", help="start a local run even if it would take over an hour")
    v.add_argument("--counterexamples", type=_folder_path, help="folder for the shrunk counterexamples, one folder per algorithm "
                                             "(default: beside the run's Parquet, outside the committed results; "
                                             "make validate names reports/validate)")
    v.set_defaults(func=cmd_validate)

    ls = sub.add_parser("list", help="the algorithms, their readings, scopes and properties")
    ls.add_argument("algorithm", nargs="?", help="one algorithm (default: every one)")
    ls.add_argument("--names", action="store_true", help="only the algorithms' names, one a line")
    ls.add_argument("--spark", action="store_true", help="with --names: only those with a Spark job")
    ls.set_defaults(func=cmd_list)

    e = sub.add_parser("explain", help="one property on one screen: its paper sentences, predicate, readings, "
                                       "checks, records, counterexamples and docs (or an algorithm's properties)")
    e.add_argument("algorithm", help="an algorithm (see `list`)")
    e.add_argument("property", nargs="?", help="one of its properties (default: list them, one line each)")
    e.add_argument("--json", action="store_true", help="the same, as JSON")
    e.add_argument("--report", type=_file_path,
                   help="the check report read (default reports/check.json; without it, every property 'not checked')")
    e.set_defaults(func=cmd_explain)

    q = sub.add_parser("queries", help="rerun the published SMT-LIB queries behind the Z3 verdicts with a solver")
    q.add_argument("algorithm", nargs="?", help="one algorithm (default: every one)")
    q.add_argument("--solver", choices=["cvc5", "z3"], default="cvc5", help="who answers them (default cvc5)")
    q.add_argument("--certify", action="store_true",
                   help="cvc5 checks each answer with its own proof checker (unsat) or model checker (sat); "
                        "which were accepted goes to certificates.json beside the report (minutes)")
    q.add_argument("--report", default="reports/check.json", type=_file_path,
                   help="the report whose queries are rerun (reports/check.json's are under reports/smt/)")
    q.set_defaults(func=cmd_queries)
    r = sub.add_parser("replay", help="replay a counterexample file step by step")
    r.add_argument("file", help="a counterexample file (reports/counterexamples/ALGO/*.json)")
    r.add_argument("--png", type=_png_path, help="draw the counterexample to this PNG (every kind each algorithm writes)")
    r.set_defaults(func=cmd_replay)

    cl = sub.add_parser("claims", help="every claim sentence of the papers with one verdict, then each "
                                         "checked claim's verdict per reading")
    cl.add_argument("--json", action="store_true", help="the per-reading table (with --sentences: the sentences) as JSON")
    cl.add_argument("--sentences", action="store_true", help="only the paper's sentences, one verdict each")
    cl.add_argument("--report", default="reports/check.json", type=_file_path, help="the check report read")
    cl.set_defaults(func=cmd_claims)

    d = sub.add_parser("docs", help="regenerate docs/ from reports/")
    d.add_argument("--report", default="reports/check.json", type=_file_path, help="the check report read")
    d.set_defaults(func=cmd_docs)

    b = sub.add_parser("bench", help="measure and write reports/bench.json")
    b.add_argument("--out", default="reports/bench.json", type=_file_path, help="where the figures go")
    b.add_argument("--instances", type=_positive, default=100_000, help="at most this many random instances per job")
    _renamed(b, "--topologies", "--instances")
    b.set_defaults(func=cmd_bench)
    return p


class _Renamed(argparse.Action):
    """An old spelling of an option, still accepted, with a note on stderr naming the new one."""

    def __init__(self, option_strings, dest, new: str, **kwargs):
        super().__init__(option_strings, dest, **kwargs)
        self.new = new

    def __call__(self, parser, namespace, values, option_string=None) -> None:
        errors.print(f"note: {option_string} is now spelled {self.new}; the old spelling still works")
        setattr(namespace, self.dest, values)


def _renamed(parser: argparse.ArgumentParser, old: str, new: str) -> None:
    """Accept `old` for the option `new` (same type, same destination), hidden from --help."""
    target = next(a for a in parser._actions if new in a.option_strings)
    parser.add_argument(old, dest=target.dest, type=target.type, action=_Renamed, new=new, help=argparse.SUPPRESS)


def _on_ctrl_c(signum, frame) -> None:
    """The first Ctrl-C asks the engines to stop at their next step boundary (a check, 256
    explored states, a case, an example, a Spark segment, a shrunk counterexample): raising here
    could land inside a solver's callback or a finalizer, where Python loses or garbles it. A
    second one ends the process at once with one line (files are written atomically, and a stale
    lock or staging folder of a dead process is taken over or removed by the next run)."""
    from checks import engine

    if engine.INTERRUPTED.is_set():   # raised now, it would surface inside Spark's or a solver's threads
        _kill_descendants()           # Spark's JVM and its Python workers would go on writing to stderr
        os.write(2, b"interrupted twice: stopped at once; finished work (reports, segments) is as it was, and the "
                    b"next run removes what this one left half-done\n")
        os._exit(130)
    engine.INTERRUPTED.set()


def _kill_descendants() -> None:
    """SIGKILL every process this one started, and theirs (where /proc tells: Linux)."""
    import signal

    try:
        parents = {}
        for entry in os.listdir("/proc"):
            if entry.isdigit():
                try:
                    with open(f"/proc/{entry}/stat") as f:
                        parents[int(entry)] = int(f.read().rsplit(")", 1)[1].split()[1])
                except (OSError, ValueError, IndexError):
                    continue
    except OSError:
        return
    found, frontier = [], [os.getpid()]
    while frontier:
        children = [pid for pid, parent in parents.items() if parent in frontier]
        found += children
        frontier = children
    for pid in found:
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass


def _quiet_interrupted_finalizers(unraisable) -> None:
    """An interrupt that lands in a finalizer is already recorded (engine.INTERRUPTED): no trace."""
    if not issubclass(unraisable.exc_type, KeyboardInterrupt):
        sys.__unraisablehook__(unraisable)


def main(argv: list[str] | None = None) -> int:
    import signal

    args = parser().parse_args(argv)
    collect_less()
    if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
        signal.signal(signal.SIGINT, _on_ctrl_c)
        sys.unraisablehook = _quiet_interrupted_finalizers
    if signal.getsignal(signal.SIGTERM) == signal.SIG_DFL:   # a terminated run stops as an interrupted one does
        signal.signal(signal.SIGTERM, _on_ctrl_c)
    try:
        return args.func(args)
    except (ValueError, TypeError, OSError) as e:  # bad input, as the spec and reference reject it
        errors.print(f"error: {e}", markup=False, soft_wrap=True)
        return 2
    except KeyboardInterrupt as e:
        errors.print(str(e) if str(e) else "interrupted; the last complete report and its files are as they were",
                     markup=False, soft_wrap=True)
        return 130
    except BrokenPipeError:   # `pubsub-proofs claims | head`: the reader has gone; nothing more to say
        try:
            sys.stdout = open(os.devnull, "w")
        except OSError:
            pass
        return 141
    except Exception:   # a bug of this project, not a verdict: its own status, never 1
        import traceback

        traceback.print_exc()
        errors.print("error: internal error (the traceback above); please report it", markup=False)
        return 3


if __name__ == "__main__":
    sys.exit(main())
