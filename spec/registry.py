"""The registry of properties: every paper claim of every algorithm as a named predicate, defined once.

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
    # what the predicate takes, stated on the property (a spec type's name, e.g. "PublishRun" or
    # "FlightRun"), so that a checker picks the properties of the runs it makes by this field and
    # not by which list a property was appended to; "" where an algorithm has one kind of run
    subject: str = ""
    # what goes wrong, in one sentence, on a subject that violates the predicate (the docs' errata
    # use it); None where the predicate's name says enough
    explain: Callable[[Any], str] | None = None
    # A refutation by counting: a sentence showing that the claim fails on every subject where the
    # property `premise` holds (e.g. a tree of n + 1 nodes has n edges, so no mean out-degree over
    # all nodes is 2). Claims and docs give it instead of a pile of failing instances, under the
    # readings where the premise was shown to hold.
    refutation: str | None = None
    premise: str | None = None
    # The smallest size the paper evaluates the claim at (e.g. n >= 100 in LBDD's sec. 4.3): where
    # the minimal counterexample is smaller, the smallest one found at this size follows it.
    evaluated_from: int | None = None
    # Where the paper never states the property (this project asks it, e.g. per notification where
    # the paper compares averages or worked cases): what the paper does say. Claims and docs label
    # it "this project's question", and a violation is never listed as an erratum of the paper.
    question: str | None = None
    # Where the witness names exactly the subjects the claim speaks of (the predicate holds
    # vacuously on the others: "for n = 100..500 the depth is in [5, 9]"): a share of random
    # instances on which the property holds is then given among the witnessed ones, with their count.
    witness_is_domain: bool = False


# --------------------------------------------------------------------------------------------
# Keys: the one spelling of "this property, under this reading, by this method"
# --------------------------------------------------------------------------------------------

@attrs.frozen
class Key:
    """A check's identity, shared by the manifest, the report, the timings and the docs:
    'algorithm/property/reading/method' (a reading may itself hold '/', the other parts never do).
    Built and parsed here only."""

    algorithm: str
    property: str
    reading: str
    method: str

    def __str__(self) -> str:
        return f"{self.algorithm}/{self.property}/{self.reading}/{self.method}"

    @classmethod
    def parse(cls, text: str) -> "Key":
        parts = text.split("/", 2)
        if len(parts) < 3 or "/" not in parts[2]:
            raise ValueError(f"not a check key (algorithm/property/reading/method): {text!r}")
        reading, method = parts[2].rsplit("/", 1)
        return cls(parts[0], parts[1], reading, method)

    @classmethod
    def method_of(cls, text: str) -> str:
        return cls.parse(text).method


@attrs.frozen
class Column:
    """A Spark job's column: 'reading:property' holds whether the property held on an instance,
    'reading:property:witness' whether its witness did. Built and parsed here only."""

    reading: str
    property: str
    witness: bool = False

    def __str__(self) -> str:
        return f"{self.reading}:{self.property}" + (":witness" if self.witness else "")

    @classmethod
    def parse(cls, text: str) -> "Column":
        parts = text.split(":")
        if len(parts) not in (2, 3) or (len(parts) == 3 and parts[2] != "witness"):
            raise ValueError(f"not a Spark column (reading:property[:witness]): {text!r}")
        return cls(parts[0], parts[1], len(parts) == 3)

    def of_witness(self) -> "Column":
        return attrs.evolve(self, witness=True)

    @staticmethod
    def distinguished(reading: str) -> str:
        """The reading-level witness column: an instance on which `reading` can differ from the
        job's other readings (a holds there is not vacuous)."""
        return f"{reading}:distinguished"


# --------------------------------------------------------------------------------------------
# The registry
# --------------------------------------------------------------------------------------------

_REGISTRY: dict[tuple[str, str], Property] = {}


def register(prop: Property) -> Property:
    key = (prop.algorithm, prop.name)
    if key in _REGISTRY and _REGISTRY[key] is not prop:
        raise ValueError(f"property {prop.algorithm}.{prop.name} is registered twice")
    _REGISTRY[key] = prop
    return prop


def properties(algorithm: str | None = None, subject: str | None = None) -> list[Property]:
    """The registered properties, of one algorithm and of one subject if given, in the order the
    spec defines them (asking for one algorithm imports only its spec)."""
    _load_specs(algorithm)
    if algorithm is not None and not any(a == algorithm for a, _ in _REGISTRY):
        known = sorted({a for a, _ in _REGISTRY})
        raise ValueError(f"no algorithm {algorithm!r} has registered properties; known: {', '.join(known)}")
    return [p for (a, _), p in _REGISTRY.items() if algorithm in (None, a) and subject in (None, p.subject)]


def get(algorithm: str, name: str) -> Property:
    _load_specs(algorithm)
    try:
        return _REGISTRY[(algorithm, name)]
    except KeyError:
        raise ValueError(f"no property {name!r} for algorithm {algorithm!r}") from None


def _load_specs(algorithm: str | None = None) -> None:
    """Import the spec modules, so that each registers its properties: only `algorithm`'s where
    the package has a module of that name, else every one (no list of algorithms: a new spec
    module is found by being in the package; a spec outside it, such as the test suite's fixture,
    registers when its declaration imports it)."""
    import importlib
    import pkgutil

    import spec

    names = [m.name for m in pkgutil.iter_modules(spec.__path__) if m.name != "registry"]
    for name in [algorithm] if algorithm in names else names:
        importlib.import_module(f"spec.{name}")
