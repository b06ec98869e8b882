"""Typed verdicts and the record every check writes to reports/check.json.

proved    the property holds for all sizes (an unbounded Z3 proof)
holds     it holds up to the stated scope; `cases` and `states` say how much was explored
violated  a counterexample was found (its JSON path is in `counterexample`)
unknown   the check ran out of time or resources, an encoding disagreed with the spec, or it passed
          vacuously (its witness was never reached); never a pass
"""

from __future__ import annotations

import enum
from typing import Any

import attrs


class Verdict(str, enum.Enum):
    PROVED = "proved"
    HOLDS = "holds"
    VIOLATED = "violated"
    UNKNOWN = "unknown"


METHODS = ("z3", "exhaustive", "hypothesis", "spark")


@attrs.define
class CheckResult:
    algorithm: str
    property: str
    claim: str
    method: str
    verdict: Verdict
    scope: str
    reading: str = "corrected"
    cases: int = 0
    states: int | None = None
    seconds: float = 0.0
    counterexample: str | None = None
    expected: str | None = None
    detail: str = ""

    def __attrs_post_init__(self) -> None:
        if self.method not in METHODS:
            raise ValueError(f"unknown method {self.method!r}")
        self.verdict = Verdict(self.verdict)

    @property
    def key(self) -> str:
        return f"{self.algorithm}/{self.property}/{self.reading}/{self.method}"

    def as_json(self) -> dict[str, Any]:
        d = attrs.asdict(self)
        d["verdict"] = self.verdict.value
        d["seconds"] = round(self.seconds, 3)
        return d

    @property
    def matches_expectation(self) -> bool:
        return self.expected is None or self.expected == self.verdict.value


def property_result(algorithm: str, prop: str, method: str, reading: str, verdict: Verdict, scope: str,
                    **fields: Any) -> CheckResult:
    """A CheckResult whose claim text comes from the property registry (spec/), never retyped."""
    from spec.registry import get

    return CheckResult(algorithm, prop, get(algorithm, prop).claim, method, verdict, scope, reading=reading,
                       **fields)


def search_verdict(violated: bool, witnessed: bool, complete: bool = True, deadline_seconds: float = 0.0,
                   vacuous: str = "vacuous: the witness state was never reached") -> tuple[Verdict, str | None]:
    """The verdict of a property after a search (exploration, enumeration, random cases): a
    violation found stands even if the search stopped early; otherwise a search cut short by its
    time limit, or one that never reached the property's witness, is unknown, never a pass.
    Returns the verdict and, for unknown, why."""
    if violated:
        return Verdict.VIOLATED, None
    if not complete:
        return Verdict.UNKNOWN, f"stopped at the {deadline_seconds:.0f} s limit"
    if not witnessed:
        return Verdict.UNKNOWN, vacuous
    return Verdict.HOLDS, None


def spark_verdicts(summary: dict[str, Any], job, scope: str, write_counterexample, unit: str = "scenarios",
                   size: str = "nodes") -> list[CheckResult]:
    """One result per (reading, property) column of a Spark job's summary: violated with the
    job's shrunk counterexample of the first failing seed, unknown if no case reached the
    property's witness, else holds."""
    out = []
    for column, outcome in summary["checks"].items():
        reading, prop = column.split(":")
        verdict, why = search_verdict(bool(outcome["violations"]), bool(summary["witnesses"].get(f"{column}:witness")),
                                      vacuous=f"vacuous: no one of the {unit} reached the witness")
        detail, path = why or f"{outcome['violations']} of {summary['cases']} {unit} violate", None
        if verdict is Verdict.VIOLATED:
            path = write_counterexample(job.counterexample(column, outcome["first"]["seed"]))
            detail += f"; first: seed {outcome['first']['seed']} with {outcome['first']['n']} {size}"
        out.append(property_result(job.algorithm, prop, "spark", reading, verdict, scope, cases=summary["cases"],
                                   seconds=summary.get("seconds", 0.0), counterexample=path, detail=detail))
    return out


def exploration_verdict(ex, name: str, deadline_seconds: float, write_counterexample, document,
                        steps: str = "steps") -> tuple[Verdict, str | None, str]:
    """The verdict of property `name` after one exploration (checks.explorer.Exploration), the
    counterexample file of its shortest trace (`document(trace)` makes the replayable document),
    and the detail line."""
    verdict, detail = search_verdict(name in ex.violations, ex.witnessed[name], ex.complete, deadline_seconds)
    path, detail = None, detail or f"{ex.transitions} transitions"
    if verdict is Verdict.VIOLATED:
        trace = ex.violations[name]
        path = write_counterexample(document(trace))
        detail = f"shortest trace: {len(trace) - 1} {steps}"
    return verdict, path, detail


def hypothesis_find(strategy, judge, examples: int):
    """Hypothesis's search for an example that `judge` (example -> (holds, witness reached))
    says violates the property, shrunk; derandomized, so the same on every run. Returns (cases
    tried up to the first failure, the shrunk example or None, how many of them reached the
    witness)."""
    from hypothesis import HealthCheck, find, settings
    from hypothesis.errors import NoSuchExample

    counts = {"cases": 0, "witnessed": 0, "found": False}

    def violates(example) -> bool:
        holds, witnessed = judge(example)
        if not counts["found"]:  # the examples tried before the first failure, not the shrinking
            counts["cases"] += 1
            counts["witnessed"] += bool(witnessed)
            counts["found"] = not holds
        return not holds

    config = settings(max_examples=examples, database=None, deadline=None, derandomize=True,
                      suppress_health_check=list(HealthCheck))
    try:
        found = find(strategy, violates, settings=config)
    except NoSuchExample:
        found = None
    return counts["cases"], found, counts["witnessed"]
