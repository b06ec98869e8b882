"""What the CRAWL declaration, its Z3 proof and its replay share: a walk's replay document, a walk
as a Markov chain and its exact chance of reaching an entry point (a leaf module, so that none of
them imports another)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from spec import crawl as C

NAME = C.ALGORITHM


def walk_document(prop: str, reading: str, method: str, walk: C.Walk) -> dict[str, Any]:
    p = walk.params
    return {"algorithm": NAME, "property": prop, "reading": reading, "method": method, "kind": "walk",
            "n": len(p.graph), "edges": [list(e) for e in p.graph.edges()], "source": p.source,
            "entries": sorted(p.entries), "k": p.k, "budget": p.budget,
            "moves": [[m.kind, m.to] for m in walk.moves]}


def chain(params: C.WalkParameters, reading: C.Reading):
    """The walk as a Markov chain: its states, each choice's probability, the target an entry point."""
    from checks.markov import Chain

    return Chain(initial=lambda: [(Fraction(1), None)],
                 transitions=lambda s: [(pr, nxt) for pr, _, nxt in C.successors(params, s, reading)],
                 target=lambda s: s is not None and s.ended == "found")


def ending_chain(params: C.WalkParameters, reading: C.Reading):
    """The same walk, its target any end (found, exhausted or blocked): the chance that it ends."""
    from checks.markov import Chain

    return Chain(initial=lambda: [(Fraction(1), None)],
                 transitions=lambda s: [(pr, nxt) for pr, _, nxt in C.successors(params, s, reading)],
                 target=lambda s: s is not None and s.ended in ("found", "exhausted", "blocked"))


def chance_document(prop: str, reading: str, params: C.WalkParameters, probability: Fraction) -> dict[str, Any]:
    return {"algorithm": NAME, "property": prop, "reading": reading, "method": "exhaustive", "kind": "ending",
            "n": len(params.graph), "edges": [list(e) for e in params.graph.edges()], "source": params.source,
            "entries": sorted(params.entries), "k": params.k, "budget": params.budget, "probability": str(probability)}


def delivery(params: C.WalkParameters, reading: C.Reading) -> C.Delivery:
    from checks.markov import reach_probability

    return C.Delivery(params, reading, reach_probability(chain(params, reading)).probability)
