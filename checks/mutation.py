"""`make mutation`: mutmut over reference/ and spec/, the score per module, recorded in
reports/bench.json under "mutation".

mutmut (configured in pyproject.toml's [tool.mutmut]) copies the sources into mutants/ and runs
the tests against each mutant, only those tests that call the mutated function. Which test files
take part is found by convention, so that a new algorithm edits no shared list: every
tests/test_<algorithm>*.py of a discovered algorithm (its spec, reference, checks, behaviour and
drawing tests), and the conformance tests that hold every algorithm (CONFORMANCE). All 12,000-odd mutants (five algorithms) take many hours on a 2-core machine, so by default a
seeded sample of each module is run (the same names every time for the same sources) and its
score is an estimate with a 95% Wilson interval; `--all` runs every mutant and the score is exact.
A timeout or a crash counts as a kill (the tests noticed), a mutant that no test calls as a
survivor (nothing noticed).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

from checks import plugin
from checks.files import write_atomically
from checks.interval import estimate

# mutmut 3.8's exit codes of a mutant's test run (mutmut.stats.status_by_exit_code), restated so
# that scores can be read without mutmut installed; any other code is "suspicious"
STATUS = {1: "killed", 3: "killed", 0: "survived", 5: "no tests", 33: "no tests", 34: "skipped",
          35: "suspicious", 36: "timeout", 24: "timeout", -24: "timeout", 152: "timeout", 255: "timeout",
          37: "caught by type check", -11: "segfault", -9: "segfault", 2: "interrupted", None: "not checked"}
KILLED = {"killed", "timeout", "caught by type check", "segfault"}
SURVIVED = {"survived", "no tests", "suspicious"}
NOTHING_MATCHES = "no.mutant.is.named.this"
# the test files that hold every algorithm's spec and reference to what they must do, whichever
# algorithm: the pinned seeds, the API's bad input, the shared generators
CONFORMANCE = ("test_seeds.py", "test_bad_input_api.py", "test_generators.py")
# how the selection reaches tests/conftest.py inside mutmut's pytest runs
SELECTION_VARIABLE = "PUBSUB_PROOFS_MUTATION_TESTS"


def selected_tests(tests: Path, algorithms: list[str]) -> list[str]:
    """The test files (names in `tests`) a mutant is run against: each algorithm's own,
    tests/test_<algorithm>*.py, and the conformance tests."""
    own = {p.name for name in algorithms for p in tests.glob(f"test_{name}*.py")}
    return sorted(own | {name for name in CONFORMANCE if (tests / name).exists()})


def module_of(mutant: str) -> str:
    """'reference.lbdd.x_build__mutmut_3' -> 'reference/lbdd.py'; 'spec.irbr.flight.x_start__mutmut_1'
    -> 'spec/irbr/flight.py' (a mutant's name is its module's, then the mutated function's)."""
    return mutant.rsplit(".", 1)[0].replace(".", "/") + ".py"


def mutants(root: Path) -> dict[str, int | None]:
    """Every generated mutant with its exit code (None: not run yet), from mutmut's meta files."""
    found: dict[str, int | None] = {}
    for meta in sorted((root / "mutants").rglob("*.py.meta")):
        found.update(json.loads(meta.read_text())["exit_code_by_key"])
    return found


def sample(names: list[str], per_module: int, seed: int) -> list[str]:
    """`per_module` names of each module, drawn with `seed` (all of a smaller module)."""
    by_module: dict[str, list[str]] = {}
    for name in sorted(names):
        by_module.setdefault(module_of(name), []).append(name)
    chosen = []
    for module, group in sorted(by_module.items()):
        chosen += group if len(group) <= per_module else random.Random(f"{seed}:{module}").sample(group, per_module)
    return sorted(chosen)


def score(codes: dict[str, int | None], names: list[str]) -> dict[str, Any]:
    """Per module: killed, survived, the survivors' names and the score (with a 95% interval
    when the names are a sample of the module's mutants)."""
    total = Counter(module_of(name) for name in codes)
    out: dict[str, Any] = {}
    for module in sorted({module_of(name) for name in names}):
        statuses = {name: STATUS.get(codes[name], "suspicious") for name in names if module_of(name) == module}
        killed = sum(s in KILLED for s in statuses.values())
        survivors = sorted(n for n, s in statuses.items() if s in SURVIVED)
        judged = killed + len(survivors)
        entry: dict[str, Any] = {"mutants": total[module], "run": len(statuses), "killed": killed,
                                 "survived": len(survivors),
                                 "score": round(killed / judged, 3) if judged else None,
                                 "survivors": survivors}
        if judged and len(statuses) < total[module]:
            interval = estimate(killed, judged)
            entry["interval95"] = [round(interval.low, 3), round(interval.high, 3)]
        out[module] = entry
    return out


def record(bench_path: Path, result: dict[str, Any]) -> None:
    """Put `result` under "mutation" in bench.json, keeping the other figures."""
    figures = json.loads(bench_path.read_text()) if bench_path.exists() else {}
    figures["mutation"] = result
    bench_path.parent.mkdir(parents=True, exist_ok=True)
    write_atomically(bench_path, json.dumps(figures, indent=1) + "\n")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m checks.mutation", description=__doc__.split("\n\n")[0])
    parser.add_argument("--per-module", type=int, default=60, help="mutants sampled per module (default 60)")
    parser.add_argument("--all", action="store_true", help="run every mutant (12,000-odd: many hours on 2 cores)")
    parser.add_argument("--seed", type=int, default=0, help="the sample's seed (default 0)")
    parser.add_argument("--bench", default="reports/bench.json", help="where the scores are recorded")
    parser.add_argument("--max-children", type=int, default=None, help="parallel mutants (default: every core)")
    args = parser.parse_args(argv)
    if args.per_module < 1:
        parser.error(f"--per-module must be at least 1, not {args.per_module}")
    root = Path.cwd()
    os.environ[SELECTION_VARIABLE] = ",".join(selected_tests(root / "tests", sorted(plugin.algorithms())))
    mutmut = [sys.executable, "-m", "mutmut", "run"] + (
        ["--max-children", str(args.max_children)] if args.max_children else [])
    # Generation and the test-to-function map come first; they are cached in mutants/.
    if not mutants(root):
        subprocess.run(mutmut + [NOTHING_MATCHES], check=False)
    names = sorted(mutants(root))
    if not names:
        print("mutation: mutmut generated no mutants (see its output above)", file=sys.stderr)
        return 2
    chosen = names if args.all else sample(names, args.per_module, args.seed)
    run = subprocess.run(mutmut + chosen, stdout=subprocess.DEVNULL, check=False)
    if run.returncode not in (0, 1):
        print(f"mutation: mutmut run failed (exit {run.returncode})", file=sys.stderr)
        return 2
    codes = mutants(root)
    if all(codes.get(name) is None for name in chosen):  # e.g. the clean test run failed
        print("mutation: mutmut ran no mutant (its output above says why); nothing recorded", file=sys.stderr)
        return 2
    scores = score(codes, chosen)
    result = {"sample": None if args.all else {"per_module": args.per_module, "seed": args.seed},
              "modules": scores}
    record(Path(args.bench), result)
    for module, s in scores.items():
        interval = f" (95% {s['interval95'][0]:.0%}..{s['interval95'][1]:.0%})" if "interval95" in s else ""
        shown = "n/a" if s["score"] is None else f"{s['score']:.0%}"
        print(f"{module:24} {shown:>5}{interval}  killed {s['killed']} of {s['killed'] + s['survived']} "
              f"run ({s['mutants']} mutants)")
    print(f"recorded in {args.bench}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
