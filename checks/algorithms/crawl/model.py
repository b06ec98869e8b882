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


# sec. 4's re-walk, run on the reference's overlay: a scenario is the overlay's parameters, its
# subscribers (one attribute "a", every node caching its entry), the first `gone` of them leaving the
# topology after the APTs are filled (their entries go stale), and the publishing node
SCENARIO_FIELDS = {"nodes": (4, 64), "view": (1, 8), "seed": (0, 1 << 31), "k": (1, 8), "budget": (1, 64),
                   "gone": (0, 64), "source": (0, 63)}


def rewalks_of(scenario: dict[str, Any], reading: C.Reading) -> C.Rewalks:
    """The chain of walks the reference makes for the scenario's event (a ValueError where a
    re-walk's budget is not sec. 4's halving)."""
    from reference import crawl as R

    s = scenario
    o = R.Overlay(s["nodes"], s["view"], 1, s["seed"], s["k"], s["budget"], reading)
    for v in s["subscribers"]:
        o.subscribe(v, {"a": (0, 9)})
    o.publish(s["source"], {"a": 5})            # fills every APT with an entry of "a"
    for v in s["subscribers"][:s["gone"]]:
        o.unsubscribe(v)
    out = o.publish(s["source"], {"a": 5})
    budgets = (s["budget"],) + tuple(r["budget"] for r in out["rewalks"].get("a", []))
    return C.Rewalks(reading, budgets, cut="a" in out["cut"])


def rewalks_document(prop: str, reading: str, method: str, scenario: dict[str, Any]) -> dict[str, Any]:
    return {"algorithm": NAME, "property": prop, "reading": reading, "method": method, "kind": "rewalks",
            "scenario": scenario}
