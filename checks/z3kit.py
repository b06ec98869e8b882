"""Shared Z3 helpers: prove a set of named lemmas and turn the outcome into a typed verdict.

A lemma is proved when its negation is unsat. The first lemma whose negation is sat makes the
verdict `violated`, with the model described by the caller; a timeout or `unknown` answer makes
it `unknown`, never a pass.
"""

from __future__ import annotations

from typing import Any, Callable, Iterator

import z3

from checks.verdict import Verdict


def prove_lemmas(lemmas: dict[str, z3.BoolRef], describe: Callable[[z3.ModelRef, str], dict[str, Any]],
                 timeout_ms: int = 20000, minimize: z3.ArithRef | None = None) -> dict[str, Any]:
    """With `minimize`, a counterexample is one that makes that term smallest (the smallest
    instance to read), found with z3.Optimize once the lemma is known to fail. Either way the
    counterexample is made canonical (see `canonical_model`), so that every process writes the
    same one: a solver's first model can differ between runs."""
    results: dict[str, str] = {}
    model = None
    for name, lemma in lemmas.items():
        solver = z3.Solver()
        solver.set("timeout", timeout_ms)
        solver.add(z3.Not(lemma))
        status = solver.check()
        results[name] = str(status)
        if status == z3.sat and model is None:
            found = canonical_model(z3.Not(lemma), minimize, timeout_ms) or solver.model()
            model = {"lemma": name, **describe(found, name)}
    if model is not None:
        return {"verdict": Verdict.VIOLATED, "lemmas": results, "model": model}
    if all(v == "unsat" for v in results.values()):
        return {"verdict": Verdict.PROVED, "lemmas": results}
    return {"verdict": Verdict.UNKNOWN, "lemmas": results}


def constants(term: z3.ExprRef) -> Iterator[z3.ExprRef]:
    """The uninterpreted constants (free variables) of `term`, each once, in the order met."""
    seen, stack = set(), [term]
    while stack:
        t = stack.pop()
        if t.get_id() in seen:
            continue
        seen.add(t.get_id())
        if z3.is_const(t) and t.decl().kind() == z3.Z3_OP_UNINTERPRETED:
            yield t
        stack.extend(reversed(t.children()))


def canonical_model(formula: z3.BoolRef, minimize: z3.ArithRef | None = None,
                    timeout_ms: int = 20000) -> z3.ModelRef | None:
    """A model of `formula` fixed by the formula alone: `minimize` smallest first, then the free
    integer, bit-vector and Boolean constants, by name, each as small as it can be (an integer
    by its size, then not negative; a Boolean false first). None when the optimizer gives up."""
    opt = z3.Optimize()
    opt.set("timeout", timeout_ms)
    opt.set("priority", "lex")
    opt.add(formula)
    if minimize is not None:
        opt.minimize(minimize)
    for c in sorted(constants(formula), key=lambda c: str(c)):
        if z3.is_bool(c):
            opt.minimize(z3.If(c, 1, 0))
        elif z3.is_int(c):
            opt.minimize(z3.If(c >= 0, c, -c))
            opt.minimize(z3.If(c < 0, 1, 0))
        elif z3.is_bv(c):
            opt.minimize(c)
    return opt.model() if opt.check() == z3.sat else None
