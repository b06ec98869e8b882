"""The registry of paper claims: every property of every algorithm, defined once.

A `Property` is a plain predicate over a concrete run of its algorithm (a spec object), the paper
sentence it formalizes, and a reachability witness: a predicate that must hold on at least one
explored run, so that an invariant cannot pass because nothing interesting was ever reached
(Stateright's `always`/`sometimes` pairs). Exhaustive search, hypothesis tests and the Spark jobs
all look properties up here; none of them defines its own.
"""

from __future__ import annotations

from typing import Any, Callable

import attrs

Predicate = Callable[[Any], bool]


@attrs.frozen
class Property:
    algorithm: str
    name: str
    predicate: Predicate
    claim: str
    witness: Predicate | None = None
    # "every run": an invariant of every run, checked exhaustively; "large random runs": a
    # statistical statement about big random instances (only Spark and the reproduction reach it);
    # "sizes": a statement over bucket sizes rather than runs.
    scope: str = "every run"


_REGISTRY: dict[tuple[str, str], Property] = {}


def register(prop: Property) -> Property:
    key = (prop.algorithm, prop.name)
    if key in _REGISTRY and _REGISTRY[key] is not prop:
        raise ValueError(f"property {prop.algorithm}.{prop.name} is registered twice")
    _REGISTRY[key] = prop
    return prop


def properties(algorithm: str | None = None) -> list[Property]:
    _load_specs()
    return [p for (a, _), p in _REGISTRY.items() if algorithm in (None, a)]


def get(algorithm: str, name: str) -> Property:
    _load_specs()
    try:
        return _REGISTRY[(algorithm, name)]
    except KeyError:
        raise ValueError(f"no property {name!r} for algorithm {algorithm!r}") from None


ALGORITHMS = ("lbdd", "scot", "irbr")


def _load_specs() -> None:
    import importlib

    for algorithm in ALGORITHMS:
        importlib.import_module(f"spec.{algorithm}")
