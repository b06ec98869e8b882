"""The `pubsub-proofs` command.

    pubsub-proofs check [ALGO] [--scope default|large] [--methods z3,exhaustive,...]
    pubsub-proofs validate ALGO --topologies N [--master URL] [--partitions P] [--readings a,b]
    pubsub-proofs replay FILE [--png OUT.png]
    pubsub-proofs claims [--json]
    pubsub-proofs docs
    pubsub-proofs bench

Bad input (an unknown algorithm, N <= 0, a malformed file) ends with one line naming the
problem and exit status 2, never a traceback.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from rich.console import Console

console = Console(stderr=False, highlight=False, width=160)


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an integer: {text!r}") from None
    if value <= 0:
        raise argparse.ArgumentTypeError(f"must be positive, not {value}")
    return value


def cmd_check(args) -> int:
    from checks import runner

    algorithms = [args.algorithm] if args.algorithm else list(runner.ALGORITHMS)
    methods = set(args.methods.split(",")) if args.methods else None
    if methods and methods - {"z3", "exhaustive", "hypothesis", "spark"}:
        raise ValueError(f"unknown method(s) {sorted(methods - {'z3', 'exhaustive', 'hypothesis', 'spark'})}")
    results, problems = runner.run(algorithms, args.scope, args.report, methods, args.master,
                                   args.spark_topologies, args.update_manifest, console)
    runner.table(results, console)
    console.print(f"report: {args.report}; {len(results)} checks")
    if problems:
        console.print(f"[red]{len(problems)} result(s) differ from checks/manifest.json:[/]")
        for p in problems:
            console.print(f"  {p}")
        return 1
    console.print("[green]every verdict and state count matches the manifest[/]")
    return 0


def cmd_validate(args) -> int:
    import importlib
    import importlib.util

    from checks import runner
    from spark_validation.runner import validate

    if args.algorithm not in runner.ALGORITHMS:
        raise ValueError(f"unknown algorithm {args.algorithm!r}; known: {', '.join(runner.ALGORITHMS)}")
    if importlib.util.find_spec(f"spark_validation.{args.algorithm}") is None:
        raise ValueError(f"{args.algorithm!r} has no Spark validation job yet (spark_validation/{args.algorithm}.py)")
    module = importlib.import_module(f"spark_validation.{args.algorithm}")
    job = module.default_job()
    if args.readings:
        import attrs
        job = attrs.evolve(job, readings=tuple(args.readings.split(",")))
    out = Path(args.out or f"reports/spark/{args.algorithm}-{args.topologies}")
    try:
        info = validate(job, args.topologies, out, master=args.master, partitions=args.partitions,
                        progress=lambda d, t: console.print(f"  {d}/{t} topologies"))
    except (ValueError, OSError, KeyboardInterrupt):
        raise
    except Exception as e:  # Py4J and PySpark errors: say what failed in one line
        first = str(e).strip().splitlines()[0] if str(e).strip() else ""
        raise ValueError(f"the Spark job failed on master {args.master!r} ({type(e).__name__}): {first[:300]}") from e
    s = info.summary
    console.print(f"{s['cases']} topologies in {info.seconds:.1f} s "
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
    from checks import counterexample

    folder = Path(args.counterexamples or "reports/validate")
    written = {column: counterexample.store(job.counterexample(column, o["first"]["seed"]), folder)
               for column, o in s["checks"].items() if o["violations"]}
    for column, path in written.items():
        console.print(f"  {column}: pubsub-proofs replay {path}")
    if args.json:
        Path(args.json).parent.mkdir(parents=True, exist_ok=True)
        Path(args.json).write_text(json.dumps({**s, "seconds": info.seconds, "segments_reused": info.segments_reused,
                                               "segments_run": info.segments_run, "counterexamples": written},
                                              indent=1))
    return 0


def cmd_replay(args) -> int:
    from checks import counterexample

    reproduced = counterexample.replay(args.file, say=lambda line: console.print(line, markup=False),
                                       png=args.png)
    console.print("reproduced" if reproduced else "[red]did not reproduce[/]")
    return 0 if reproduced else 1


def cmd_claims(args) -> int:
    from checks import claims

    table = claims.claims_table(args.report)
    if args.json:
        print(json.dumps(table, indent=1))
    else:
        claims.print_claims(table, console)
    return 0


def cmd_docs(args) -> int:
    from checks import docs

    for path in docs.generate(args.report):
        console.print(f"wrote {path}")
    return 0


def cmd_bench(args) -> int:
    from checks import bench

    bench.run(args.out, topologies=args.topologies, console=console)
    return 0


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="pubsub-proofs", description=__doc__.split("\n\n")[0])
    sub = p.add_subparsers(dest="command", required=True)

    c = sub.add_parser("check", help="run every check and compare with the manifest")
    c.add_argument("algorithm", nargs="?")
    c.add_argument("--scope", choices=["default", "large"], default="default")
    c.add_argument("--methods", help="comma-separated subset of z3,exhaustive,hypothesis,spark")
    c.add_argument("--master", default="local[*]")
    c.add_argument("--spark-topologies", type=_positive)
    c.add_argument("--report", default="reports/check.json")
    c.add_argument("--update-manifest", action="store_true",
                   help="record this run's verdicts and state counts as the expected ones")
    c.set_defaults(func=cmd_check)

    v = sub.add_parser("validate", help="validate every property on random topologies with Spark")
    v.add_argument("algorithm")
    v.add_argument("--topologies", type=_positive, default=1_000_000)
    v.add_argument("--master", default="local[*]")
    v.add_argument("--partitions", type=_positive)
    v.add_argument("--readings")
    v.add_argument("--out")
    v.add_argument("--json", help="also write the summary here")
    v.add_argument("--counterexamples", help="folder for the shrunk counterexamples "
                                             "(default reports/validate, one folder per algorithm)")
    v.set_defaults(func=cmd_validate)

    r = sub.add_parser("replay", help="replay a counterexample file step by step")
    r.add_argument("file")
    r.add_argument("--png", help="draw the final copy graph to this PNG")
    r.set_defaults(func=cmd_replay)

    cl = sub.add_parser("claims", help="every paper claim with its verdict per reading")
    cl.add_argument("--json", action="store_true")
    cl.add_argument("--report", default="reports/check.json")
    cl.set_defaults(func=cmd_claims)

    d = sub.add_parser("docs", help="regenerate docs/ from reports/")
    d.add_argument("--report", default="reports/check.json")
    d.set_defaults(func=cmd_docs)

    b = sub.add_parser("bench", help="measure and write reports/bench.json")
    b.add_argument("--out", default="reports/bench.json")
    b.add_argument("--topologies", type=_positive, default=40_000)
    b.set_defaults(func=cmd_bench)
    return p


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    try:
        return args.func(args)
    except (ValueError, OSError) as e:
        console.print(f"[red]error:[/] {e}", markup=True)
        return 2
    except KeyboardInterrupt:
        console.print("interrupted" + ("; finished Spark segments are kept and a rerun resumes after them"
                                       if args.command in ("check", "validate") else ""))
        return 130


if __name__ == "__main__":
    sys.exit(main())
