"""Shared Z3 helpers: prove a set of named lemmas and turn the outcome into a typed verdict.

A lemma is proved when its negation is unsat. The first lemma whose negation is sat makes the
verdict `violated`, with the model described by the caller; a timeout or `unknown` answer makes
it `unknown`, never a pass.
"""

from __future__ import annotations

from typing import Any, Callable

import z3

from checks.verdict import Verdict


def prove_lemmas(lemmas: dict[str, z3.BoolRef], describe: Callable[[z3.ModelRef, str], dict[str, Any]],
                 timeout_ms: int = 20000, minimize: z3.ArithRef | None = None) -> dict[str, Any]:
    """With `minimize`, a counterexample is one that makes that term smallest (the smallest
    instance to read), found with z3.Optimize once the lemma is known to fail."""
    results: dict[str, str] = {}
    model = None
    for name, lemma in lemmas.items():
        solver = z3.Solver()
        solver.set("timeout", timeout_ms)
        solver.add(z3.Not(lemma))
        status = solver.check()
        results[name] = str(status)
        if status == z3.sat and model is None:
            found = solver.model()
            if minimize is not None:
                opt = z3.Optimize()
                opt.set("timeout", timeout_ms)
                opt.add(z3.Not(lemma))
                opt.minimize(minimize)
                if opt.check() == z3.sat:
                    found = opt.model()
            model = {"lemma": name, **describe(found, name)}
    if model is not None:
        return {"verdict": Verdict.VIOLATED, "lemmas": results, "model": model}
    if all(v == "unsat" for v in results.values()):
        return {"verdict": Verdict.PROVED, "lemmas": results}
    return {"verdict": Verdict.UNKNOWN, "lemmas": results}
