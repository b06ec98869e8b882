"""Typed verdicts and the record every check writes to reports/check.json.

proved    the property holds for all sizes (an unbounded Z3 proof of the property itself)
holds     it holds up to the stated scope; `cases` and `states` say how much was explored
violated  a counterexample was found (its JSON path is in `counterexample`)
unknown   the check ran out of time or resources, an encoding disagreed with the spec, or it passed
          vacuously (its witness was never reached); never a pass
"""

from __future__ import annotations

import enum
from contextlib import contextmanager
from typing import Any

import attrs

from checks.interval import estimate
from spec.registry import Column, Key, properties


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
    reading: str = ""
    cases: int = 0
    states: int | None = None
    seconds: float = 0.0             # measured: in the summary and the timings file, never in the report
    # the runtime class the manifest pins for this check (None where it pins none): what the
    # report records in place of the measured seconds, so that a rerun changes no committed file
    runtime: str | None = None
    counterexample: str | None = None
    # where the minimal counterexample is smaller than any size the paper evaluates the claim at,
    # the smallest one found at such a size
    evaluated_counterexample: str | None = None
    expected: str | None = None
    detail: str = ""
    # where behaviour is random: the exact probability ("p/q"), or an estimate with its
    # confidence interval ("0.71 [0.69, 0.73] at 95%"); None for a deterministic check
    probability: str | None = None
    # a Z3 check's queries asked again of a second solver (checks.smt.summary): how many, how many
    # it confirmed; None for the other methods
    second_solver: dict[str, Any] | None = None
    # the queries themselves (text, both answers, both times): published beside the report and
    # timed in the timings file, never in the report
    queries: tuple = attrs.field(default=(), eq=False, repr=False)

    def __attrs_post_init__(self) -> None:
        if self.method not in METHODS:
            raise ValueError(f"unknown method {self.method!r}")
        self.verdict = Verdict(self.verdict)

    @property
    def key(self) -> str:
        return str(Key(self.algorithm, self.property, self.reading, self.method))

    def as_json(self) -> dict[str, Any]:
        """The report's record: every field but the measured `seconds` (checks.runner writes
        those to the timings file beside the report)."""
        d = attrs.asdict(self, filter=lambda a, _: a.name != "queries")
        d["verdict"] = self.verdict.value
        del d["seconds"]
        for optional in ("probability", "second_solver"):
            if d[optional] is None:
                del d[optional]
        return d

    @property
    def matches_expectation(self) -> bool:
        return self.expected is None or self.expected == self.verdict.value


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


def spark_verdicts(summary: dict[str, Any], counterexample, scope: str, write_counterexample, unit: str, size: str,
                   result) -> list[CheckResult]:
    """One result per (reading, property) column of a Spark job's summary: violated with the
    job's shrunk counterexample of the first failing seed, unknown if no case reached the
    property's witness (or, where the job counts one, no case where the reading can differ from
    the others: witness `<reading>:distinguished`), else holds. `counterexample(column, seed)`
    gives the replay document of a failing seed; `result(...)` makes the record. Each record
    carries the estimated share of random instances on which the property holds, with its 95%
    Wilson interval: a statement about the job's sampler, not about every instance."""
    out = []
    for column, outcome in summary["checks"].items():
        col = Column.parse(column)
        reading, prop = col.reading, col.property
        verdict, why = search_verdict(bool(outcome["violations"]), bool(summary["witnesses"].get(str(col.of_witness()))),
                                      vacuous=f"vacuous: no one of the {unit} reached the witness")
        if verdict is Verdict.HOLDS and not summary["witnesses"].get(Column.distinguished(reading), 1):
            verdict, why = Verdict.UNKNOWN, (f"vacuous: no one of the {unit} where {reading!r} can differ from the "
                                             "other readings")
        detail, path, evaluated_path = why or f"{outcome['violations']} of {summary['cases']} {unit} violate", None, None
        if verdict is Verdict.VIOLATED:
            path = write_counterexample(counterexample(column, outcome["first"]["seed"]))
            detail += f"; first: seed {outcome['first']['seed']} with {outcome['first']['n']} {size}"
            least, evaluated = outcome.get("evaluated_from"), outcome.get("first_evaluated")
            if least and outcome["first"]["n"] < least:
                if evaluated:
                    evaluated_path = write_counterexample(counterexample(column, evaluated["seed"], at_least=least))
                    detail += (f"; smallest at a size the paper evaluates (>= {least} {size}): seed "
                               f"{evaluated['seed']} with {evaluated['n']} {size}")
                else:
                    detail += f"; no violation at a size the paper evaluates (>= {least} {size})"
        among, what = summary["cases"], unit
        if domain_of(summary.get("algorithm"), prop):   # the share among the instances the claim speaks of
            among = summary["witnesses"].get(str(col.of_witness()), 0)
            what = f"{among:,} {unit} the claim speaks of"
        share = estimate(among - outcome["violations"], among) if among else None
        out.append(result(prop, "spark", reading, verdict, scope, cases=summary["cases"],
                          seconds=summary.get("seconds", 0.0), counterexample=path,
                          evaluated_counterexample=evaluated_path, detail=detail,
                          probability=f"holds on {share.text} of the {what}" if share else None))
    return out


def domain_of(algorithm: str | None, prop: str) -> bool:
    """Whether the property's witness names the instances its claim speaks of (spec.registry
    Property.witness_is_domain)."""
    return any(p.algorithm == algorithm and p.name == prop and p.witness_is_domain for p in properties()) \
        if algorithm else False


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
        with _without_local_constants():
            found = find(strategy, violates, settings=config)
    except NoSuchExample:
        found = None
    return counts["cases"], found, counts["witnessed"]


@contextmanager
def _without_local_constants():
    """Hypothesis draws about 5% of its values from the constants of the project modules loaded at
    the time (its "local constants"), which depend on what the process did before: a partial run,
    or a check run in another process (check --jobs), would try other examples than `make check`.
    Without them, a search depends on its strategy alone (its derandomized seed included). Hypothesis
    has no setting for this: its provider's module function is replaced for the search."""
    from hypothesis.internal.conjecture import providers

    saved = providers._get_local_constants
    providers._get_local_constants = providers.Constants
    providers.CONSTANTS_CACHE.cache.clear()
    try:
        yield
    finally:
        providers._get_local_constants = saved
        providers.CONSTANTS_CACHE.cache.clear()
