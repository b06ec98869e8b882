"""The engine: runs the checks an algorithm declares and turns what they found into verdicts.

It owns the loops (every check at a scope, in declaration order, filtered by method and by key),
the timing, the progress display, the verdicts (checks.verdict.search_verdict: a violation stands,
a search cut short or never reaching its witness is unknown) and the counterexample files (through
`Context.write(doc) -> path`). It never names an algorithm: everything it knows comes from
the `Algorithm` declaration (checks.plugin).
"""

from __future__ import annotations

import os
import threading
import time
from fractions import Fraction
from typing import Any, Callable, Iterable

from checks import plugin, smt
from checks.explorer import explore
from checks.verdict import CheckResult, Verdict, hypothesis_find, search_verdict, spark_verdicts

Writer = Callable[[dict[str, Any]], str]

# Set by the CLI's Ctrl-C handler. A KeyboardInterrupt raised inside a finalizer (a Z3 object's
# __del__, say) is swallowed by Python, so the request is also kept here, and the engines look at
# it between checks and before they commit anything.
INTERRUPTED = threading.Event()


def stop_if_interrupted() -> None:
    if INTERRUPTED.is_set():
        raise KeyboardInterrupt


class Context:
    """What one algorithm's run shares: its declaration, the scope's name, the counterexample
    writer, the progress display (a function of a label giving a state-count callback) and the
    processes each exploration's search is split over (checks.explorer.partitioned)."""

    def __init__(self, algorithm: plugin.Algorithm, scope: str, write: Writer, progress=None, split: int = 1):
        self.algorithm = algorithm
        self.scope = scope
        self.write = write
        self.progress = progress
        self.split = split
        self._claims = {p.name: p for p in algorithm.properties()}

    def property(self, name: str):
        try:
            return self._claims[name]
        except KeyError:
            raise ValueError(f"{self.algorithm.name} declares a check of {name!r}, which its spec does not "
                             f"register") from None

    def result(self, prop: str, method: str, reading: str, verdict: Verdict, scope: str, **fields) -> CheckResult:
        """A record whose claim text comes from the spec's property, never retyped."""
        return CheckResult(self.algorithm.name, prop, self.property(prop).claim, method, verdict, scope,
                           reading=reading, **fields)


def run_check(check: plugin.Check, ctx: Context) -> list[CheckResult]:
    runner = {plugin.Proof: _proof, plugin.Exploration: _exploration, plugin.Enumeration: _enumeration,
              plugin.Search: _search, plugin.Chance: _chance}[type(check)]
    return runner(check, ctx)


def run_algorithm(algorithm: plugin.Algorithm, scope: str, write: Writer, methods: Iterable[str] | None = None,
                  keys: set[tuple[str, str, str]] | None = None, spark_summary: dict | None = None,
                  progress=None, split: int = 1) -> list[CheckResult]:
    """Every declared check at `scope` whose method is in `methods` (all when None) and, when
    `keys` is given, that produces one of those (property, reading, method) keys; then the Spark
    verdicts from `spark_summary` (the job's summary, run by the caller). Each exploration's
    search is split over `split` processes."""
    ctx = Context(algorithm, scope, write, progress, split)
    results: list[CheckResult] = []
    for check in selected_checks(algorithm, scope, methods, keys):
        stop_if_interrupted()
        results += run_check(check, ctx)
    return results + spark_part(algorithm, spark_summary, methods, ctx)


def selected_checks(algorithm: plugin.Algorithm, scope: str, methods: Iterable[str] | None = None,
                    keys: set[tuple[str, str, str]] | None = None) -> list[plugin.Check]:
    """The declared checks at `scope`, in declaration order, whose method is in `methods` (all when
    None) and, when `keys` is given, that produce one of those keys."""
    wanted = None if methods is None else set(methods)
    return [check for check in algorithm.checks(algorithm.scope(scope))
            if (wanted is None or check.method in wanted) and (keys is None or keys.intersection(check.keys()))]


def spark_part(algorithm: plugin.Algorithm, spark_summary: dict | None, methods: Iterable[str] | None,
               ctx: Context) -> list[CheckResult]:
    """The Spark verdicts from the job's summary (run by the caller), where Spark is asked for."""
    stop_if_interrupted()
    if spark_summary is None or algorithm.spark is None or (methods is not None and "spark" not in set(methods)):
        return []
    return spark_results(algorithm, spark_summary, ctx)


# --------------------------------------------------------------------------------------------
# Checks side by side: one process per core
# --------------------------------------------------------------------------------------------

# The checks a pool's processes run, set before they are forked (so nothing is pickled but an index
# and a result): (algorithm, scope, check) in the order they are handed out.
_UNITS: list[tuple[plugin.Algorithm, str, plugin.Check]] = []


def _worker_start(parent: int) -> None:
    import signal

    # the parent owns Ctrl-C and SIGTERM: it stops the pool and leaves every file as it was
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    # a parent killed outright (kill -9, a CI's hard timeout) takes its processes with it: they
    # hold its report lock's descriptor, and would keep the report locked after it (Linux only)
    try:
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)     # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass
    if os.getppid() != parent:        # it died before the request took effect
        os._exit(1)


def _run_unit(index: int, write_root: str, staged_root: str) -> list[CheckResult]:
    import pickle
    from pathlib import Path

    from checks import counterexample

    algorithm, scope, check = _UNITS[index]
    ctx = Context(algorithm, scope, lambda doc: counterexample.store(doc, Path(write_root), staged=Path(staged_root)))
    try:
        return run_check(check, ctx)
    except Exception as e:
        try:        # the error travels to the parent pickled: one that cannot be rebuilt there says what it was
            pickle.loads(pickle.dumps(e))
        except Exception:
            raise RuntimeError(f"{type(e).__name__}: {e}") from None
        raise


class SideBySide:
    """Independent checks run by `processes` forked processes, their results given back per
    algorithm in declaration order, so that a report is the same as one process makes. Checks are
    handed out longest first by `rank` (a number per check, larger first). Counterexamples are
    written as `Context.write` would into (folder, staged) (checks.runner.Staging). The checks of
    one algorithm are independent: each builds what it explores from the declaration."""

    def __init__(self, processes: int, plan: list[tuple[plugin.Algorithm, str, list[plugin.Check]]],
                 folder, staged, rank: Callable[[plugin.Algorithm, plugin.Check], float] = lambda a, c: 0.0):
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor

        global _UNITS
        _UNITS = [(algorithm, scope, check) for algorithm, scope, checks in plan for check in checks]
        self._of: dict[str, list[int]] = {}
        for index, (algorithm, _, _) in enumerate(_UNITS):
            self._of.setdefault(algorithm.name, []).append(index)
        order = sorted(range(len(_UNITS)), key=lambda i: -rank(_UNITS[i][0], _UNITS[i][2]))
        before = set(multiprocessing.active_children())
        self._pending, self._processes, self._executor = {}, [], None
        if not _UNITS:
            return
        try:
            # an executor, not a multiprocessing.Pool: a process that dies (killed for memory, say)
            # breaks every pending check with an error instead of leaving the run waiting for ever
            self._executor = ProcessPoolExecutor(min(processes, len(_UNITS)),
                                                 mp_context=multiprocessing.get_context("fork"),
                                                 initializer=_worker_start, initargs=(os.getpid(),))
            self._pending = {i: self._executor.submit(_run_unit, i, str(folder), str(staged)) for i in order}
        finally:
            # forked now, all of them (a fork context starts every process at the first submit)
            self._processes = [p for p in multiprocessing.active_children() if p not in before]
            if len(self._pending) < len(_UNITS):     # interrupted while handing out: nothing is left running
                self.close()

    def results(self, algorithm: plugin.Algorithm) -> list[CheckResult]:
        """The results of `algorithm`'s checks, waiting for them; Ctrl-C (INTERRUPTED) stops the wait."""
        from concurrent.futures import wait
        from concurrent.futures.process import BrokenProcessPool

        out: list[CheckResult] = []
        for index in self._of.get(algorithm.name, []):
            pending = self._pending[index]
            while not pending.done():
                stop_if_interrupted()
                wait([pending], timeout=0.1)
            try:
                out += pending.result()        # a check's error is raised here, as in one process
            except BrokenProcessPool:     # which check it ran is lost with it
                stop_if_interrupted()     # a SIGTERM to the whole process group: an interrupt, not an error
                raise ValueError("a process running the checks died (killed, or out of memory), so the run "
                                 "stopped; rerun with --jobs 1 to see which check in this process") from None
        return out

    def close(self) -> None:
        """Stop every process at once (their staged files are the caller's to discard)."""
        if self._executor is not None:
            # the executor's own table too: it may start a process after the fork above was counted
            started = list((getattr(self._executor, "_processes", None) or {}).values())
            self._processes += [p for p in started if p not in self._processes]
            self._executor.shutdown(wait=False, cancel_futures=True)
        for p in self._processes:
            p.terminate()
        for p in self._processes:
            p.join()


# --------------------------------------------------------------------------------------------
# One runner per kind of check
# --------------------------------------------------------------------------------------------

def _proof(check: plugin.Proof, ctx: Context) -> list[CheckResult]:
    import z3

    # Z3 turns Ctrl-C into an "unknown" answer and goes on, which would record a verdict the
    # check never reached; with its handler off, Ctrl-C interrupts the run like any other step.
    z3.set_param("ctrl_c", False)
    start = time.perf_counter()
    with smt.fresh_context(), smt.recording() as asked:
        outcome = check.prove()
    # every answer the verdict rests on, asked again of a second solver (checks.smt)
    queries, problem = smt.second_opinion(asked)
    seconds = time.perf_counter() - start
    verdict, scope, detail = outcome.verdict, check.scope, outcome.detail
    if verdict is Verdict.PROVED and check.unproved_step:
        # the lemmas hold for all sizes; the property only as far as the step to it was checked
        verdict, scope = Verdict.HOLDS, f"lemmas: {check.scope}; the step to the property: {check.unproved_step}"
        detail = "lemmas proved for all sizes, the property within the step's bound" + (f"; {detail}" if detail else "")
    if problem is not None and verdict is not Verdict.UNKNOWN:
        verdict, detail = Verdict.UNKNOWN, f"{problem} (Z3 alone: {verdict.value}{'; ' + detail if detail else ''})"
    path = ctx.write(outcome.document) if verdict is Verdict.VIOLATED and outcome.document else None
    return [ctx.result(check.property, check.method, check.reading, verdict, scope,
                       cases=outcome.cases, seconds=seconds, counterexample=path, detail=detail,
                       second_solver=smt.summary(queries) if queries else None, queries=tuple(queries))]


def _exploration(check: plugin.Exploration, ctx: Context) -> list[CheckResult]:
    deadline = ctx.algorithm.deadline_seconds
    totals = {"states": 0, "transitions": 0, "initial": 0, "seconds": 0.0}
    complete = True
    witnessed = {p: False for p in check.properties}
    found: dict[str, tuple[Any, Any, list]] = {}   # property -> (rank, label, trace)
    for index, (label, system) in enumerate(check.systems()):
        progress = ctx.progress(f"explore {check.reading} {label}") if ctx.progress else None
        invariants = check.invariants(label)
        witnesses = check.witnesses(label)
        ex = explore(system, {p: invariants[p] for p in check.properties},
                     {p: witnesses[p] for p in check.properties if p in witnesses},
                     deadline_seconds=deadline, progress=progress, stop=INTERRUPTED.is_set, processes=ctx.split)
        complete &= ex.complete
        for k in ("states", "transitions", "initial"):
            totals[k] += getattr(ex, k)
        totals["seconds"] += ex.seconds
        for p, trace in ex.violations.items():
            rank = check.prefer(label, trace) if check.prefer else index
            if p not in found or rank < found[p][0]:
                found[p] = (rank, label, trace)
        for p, seen in ex.witnessed.items():
            witnessed[p] |= seen
    out = []
    for p in check.properties:
        verdict, detail = search_verdict(p in found, witnessed[p], complete, deadline)
        path, detail = None, detail or f"{totals['transitions']} transitions"
        if verdict is Verdict.VIOLATED:
            _, label, trace = found[p]
            path = ctx.write(check.document(p, label, trace))
            detail = f"shortest trace: {len(trace) - 1} {check.steps}"
            if check.where is not None:
                detail += f" on {check.where(label)}"
        out.append(ctx.result(p, check.method, check.reading, verdict, check.scope, cases=totals["initial"],
                              states=totals["states"], seconds=totals["seconds"], counterexample=path,
                              detail=detail))
    return out


def _enumeration(check: plugin.Enumeration, ctx: Context) -> list[CheckResult]:
    start = time.perf_counter()
    claims = [ctx.property(p) for p in check.properties]
    failures: dict[str, tuple[str, Any]] = {}
    seen = {p.name: False for p in claims}
    counts: dict[str, int] = {}
    cases = 0
    for case in check.cases():
        stop_if_interrupted()
        cases += 1
        for k, v in case.counts.items():
            counts[k] = counts.get(k, 0) + v
        for p in claims:
            if not seen[p.name] and p.witness is not None and p.witness(case.subject):
                seen[p.name] = True
            if p.name not in failures and not p.predicate(case.subject):
                failures[p.name] = (case.describe(), case.document(p.name))
    seconds = time.perf_counter() - start
    out = []
    for p in claims:
        verdict, _ = search_verdict(p.name in failures, seen[p.name])
        path = detail = None
        if p.name in failures:
            detail, document = failures[p.name]
            path = ctx.write(document) if document else None
        out.append(ctx.result(p.name, check.method, check.reading, verdict, check.scope, cases=cases,
                              seconds=seconds, counterexample=path,
                              detail=detail if detail is not None else check.detail.format(**counts)))
    return out


def _search(check: plugin.Search, ctx: Context) -> list[CheckResult]:
    start = time.perf_counter()
    def judge(example):
        stop_if_interrupted()
        return check.judge(example)

    cases, found, witnessed = hypothesis_find(check.strategy(), judge, check.examples)
    seconds = time.perf_counter() - start
    verdict, why = search_verdict(found is not None, bool(witnessed),
                                  vacuous="vacuous: no case reached the witness")
    path, detail = None, why or ""
    if found is not None:
        path = ctx.write(check.document(found))
        detail = check.describe(found) if check.describe else ""
    elif not why and check.describe is not None:
        detail = f"{witnessed} examples reached the witness"
    return [ctx.result(check.property, check.method, check.reading, verdict, check.scope, cases=cases,
                       seconds=seconds, counterexample=path, detail=detail)]


def _chance(check: plugin.Chance, ctx: Context) -> list[CheckResult]:
    """The exact probability of reaching the target, held to the claimed bound; a chain explored
    only in part (a state limit or the deadline) gives proven bounds, and a verdict only where
    both bounds fall on one side of the claim. The spec's property judges the probability."""
    from checks.markov import reach_probability, storm_probability

    start = time.perf_counter()
    outcome = reach_probability(check.chain(), partial=True, deadline_seconds=ctx.algorithm.deadline_seconds)
    low, high = outcome.probability, outcome.upper
    claim = ctx.property(check.property)

    def meets(p: Fraction) -> bool:
        within = (check.at_least is None or p >= check.at_least) and (check.at_most is None or p <= check.at_most)
        return within and claim.predicate(p)

    bound = " and ".join(f"{word} {value}" for word, value in (("at least", check.at_least),
                                                               ("at most", check.at_most)) if value is not None)
    path = None
    if outcome.complete:
        verdict = Verdict.HOLDS if meets(low) else Verdict.VIOLATED
        probability, detail = str(low), f"exact probability {low} ({float(low):.6g}); claimed {bound}"
        storm = storm_probability(check.chain())   # the same chain in Storm, an independent checker
        if abs(storm - float(low)) > 1e-9:
            verdict, detail = Verdict.UNKNOWN, f"the exact sum {low} and Storm's {storm!r} disagree"
        else:
            detail += f"; Storm agrees ({storm:.6g})"
        document = check.document(low) if verdict is Verdict.VIOLATED else None
        path = ctx.write(document) if document else None
    else:  # the probability lies in [low, high]: a verdict only where the whole interval agrees
        below = check.at_least is not None and high < check.at_least
        above = check.at_most is not None and low > check.at_most
        verdict = (Verdict.VIOLATED if below or above else
                   Verdict.HOLDS if meets(low) and meets(high) else Verdict.UNKNOWN)
        probability = f"[{low}, {high}]"
        detail = (f"explored in part ({outcome.states} states): the probability lies in [{float(low):.6g}, "
                  f"{float(high):.6g}]; claimed {bound}")
    return [ctx.result(check.property, check.method, check.reading, verdict, check.scope, cases=outcome.transitions,
                       states=outcome.states, seconds=time.perf_counter() - start, counterexample=path,
                       probability=probability, detail=detail)]


def spark_results(algorithm: plugin.Algorithm, summary: dict[str, Any], ctx: Context) -> list[CheckResult]:
    declared = algorithm.spark
    config = {k: v for k, v in summary["config"].items() if k != "algorithm"}
    job = declared.from_config(config)
    return spark_verdicts(summary, lambda column, seed, at_least=0: declared.document(job, column, seed, at_least),
                          declared.scope(summary, job), ctx.write, unit=declared.unit, size=declared.size,
                          result=ctx.result)
