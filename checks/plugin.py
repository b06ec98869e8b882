"""The declaration an algorithm gives, and how the engines find it.

An algorithm is one `Algorithm` value: its readings, its scopes (named fields, a default and a
large one), the checks to run at a scope, its Spark job, how to replay and draw a counterexample,
its docs sections and its benchmark figures. The engines (checks.engine for the checks,
checks.runner for the report and the manifest, checks.docs, checks.claims, checks.bench, the CLI)
read these values and never name an algorithm; as in Stateright, where every checker takes any
`Model`, adding an algorithm adds files and touches no shared module.

Discovery: every module of the package `checks.algorithms` that defines `ALGORITHM` is one
algorithm. More modules can be named in the environment variable PUBSUB_PROOFS_PLUGINS
(comma-separated module names; the test suite's fixture algorithm comes in that way).

The checks an algorithm declares are data: the engine runs them, times them, turns what they found
into a typed verdict (checks.verdict) and writes the counterexample files.

- `Proof` (method z3): a Z3 query run by `prove()`, which returns a `ProofOutcome`.
- `Exploration` (method exhaustive): transition systems explored breadth first
  (checks.explorer), invariants and witnesses judged on every state, shortest traces.
- `Enumeration` (method exhaustive): every case of a finite family, each judged by the spec's
  properties.
- `Search` (method hypothesis): hypothesis draws examples and shrinks a failure.
- `Chance` (method exhaustive, or any other): a Markov chain explored with exact probabilities
  (checks.markov); the verdict carries the probability.
- The Spark job (method spark) is `Algorithm.spark`, a `SparkJob`.
"""

from __future__ import annotations

import importlib
import os
import pkgutil
from fractions import Fraction
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping, Sequence

import attrs

from checks.verdict import Verdict

Document = dict[str, Any]


def lookup(known: Mapping[str, Any], name: Any, what: str, of: str = "") -> Any:
    """known[name], or a ValueError naming the value and what is accepted."""
    try:
        return known[name]
    except (KeyError, TypeError):
        raise ValueError(f"unknown {what} {name!r}{f' for {of}' if of else ''}; known: {', '.join(known)}") from None


def in_words(n: int) -> str:
    """A small count as a scope's description says it ("three attributes"), else its digits."""
    return {1: "one", 2: "two", 3: "three", 4: "four"}.get(n, str(n))


# --------------------------------------------------------------------------------------------
# Readings and scopes
# --------------------------------------------------------------------------------------------

# Where a reading stands to the paper's text (its `origin`), in the order in which they decide a
# sentence's verdict (checks.claims.judge):
#   printed   does what the printed text does, line by line; where the text leaves a choice open,
#             one printed reading per choice
#   open      a choice where the text is silent or lost, so that no reading is the printed one
#   repair    this project's fix of a printed line that fails: named beside the printed reading,
#             never deciding a sentence a printed reading reaches
#   ablation  the paper's algorithm with one of its rules taken out, to show what the rule is for
#   baseline  another algorithm the paper compares with
ORIGINS = ("printed", "open", "repair", "ablation", "baseline")


def origin_of(reading: Any) -> str:
    """A reading's origin as its spec states it (`reading.origin`); "open" where it states none."""
    origin = getattr(reading, "origin", "open")
    if origin not in ORIGINS:
        raise ValueError(f"reading {getattr(reading, 'name', reading)!r}: origin must be one of {ORIGINS}, "
                         f"not {origin!r}")
    return origin


@attrs.frozen
class Catalogue:
    """An algorithm's readings by name. A reading is any value with a `name`; `describe` says in
    one line what it does (the docs' table of readings); `origin` where it stands to the paper's
    text (one of ORIGINS; by default the reading's own `origin` attribute)."""

    readings: Mapping[str, Any]
    describe: Callable[[Any], str] = attrs.field(default=lambda reading: "")
    # the readings the docs compare side by side (a corrected and a literal one, say)
    key: tuple[str, ...] = ()
    origin: Callable[[Any], str] = origin_of
    # (property, reading) -> the reading whose checks answer for `reading` on `property`, where an
    # algorithm checks a property only under the readings that resolve the fields it reads
    # differently (a reading left out gives the runs of the one that resolves them alike); None
    # where no other reading answers for it
    stand_in: Callable[[str, str], str | None] = lambda prop, reading: None

    def __attrs_post_init__(self) -> None:
        unknown = [r for r in self.key if r not in self.readings]
        if unknown:
            raise ValueError(f"key readings {unknown} are not in the catalogue")

    def __getitem__(self, name: str) -> Any:
        return lookup(self.readings, name, "reading")

    def __iter__(self):
        return iter(self.readings)

    def __contains__(self, name: object) -> bool:
        return name in self.readings

    def names(self) -> list[str]:
        return list(self.readings)

    def origins(self) -> dict[str, str]:
        """Every reading's origin, by name."""
        return {name: self.origin(reading) for name, reading in self.readings.items()}


# --------------------------------------------------------------------------------------------
# The checks an algorithm declares
# --------------------------------------------------------------------------------------------

def declared_at() -> str:
    """`file:line` of the declaration that built a check: the first caller outside this module
    (and attrs' generated __init__), so that `pubsub-proofs explain` can point to it."""
    import sys

    frame = sys._getframe(1)
    while frame is not None and (frame.f_code.co_filename == __file__ or frame.f_code.co_filename.startswith("<")):
        frame = frame.f_back
    return f"{frame.f_code.co_filename}:{frame.f_lineno}" if frame is not None else ""


@attrs.frozen
class ProofOutcome:
    """What one Z3 check found: its verdict, the number of queries or lemmas, a line of detail,
    and for a violation the replayable counterexample document (if the algorithm has one)."""

    verdict: Verdict
    cases: int = 0
    detail: str = ""
    document: Document | None = None


@attrs.frozen
class Proof:
    """A Z3 check. Where its lemmas are not the property itself (an abstraction of the spec's
    predicate, or parts of a theorem), `unproved_step` says how the step from the lemmas to the
    property was checked, within a bound: the lemmas being proved then makes the property `holds`
    within that bound, never `proved` (a verdict says no more than its check showed). `prove`
    builds its Z3 terms itself: it runs in a fresh Z3 context, and every query it asks is asked
    again of a second solver (checks.smt)."""

    property: str
    reading: str
    scope: str
    prove: Callable[[], ProofOutcome]
    method: str = "z3"
    unproved_step: str | None = None
    declared_at: str = attrs.field(factory=declared_at, eq=False, repr=False)

    def keys(self) -> list[tuple[str, str, str]]:
        return [(self.property, self.reading, self.method)]


@attrs.frozen
class Exploration:
    """One or more transition systems explored as one check per property: counts are summed over
    the systems, a property is violated if any system violates it (the counterexample is the
    violating trace that `prefer` ranks first, by default the first system's) and witnessed if any
    system reaches its witness."""

    reading: str
    properties: tuple[str, ...]
    scope: str
    systems: Callable[[], Iterable[tuple[Any, Any]]]                 # (label, TransitionSystem)
    invariants: Callable[[Any], Mapping[str, Callable[[Any], bool]]]  # label -> name -> state predicate
    witnesses: Callable[[Any], Mapping[str, Callable[[Any], bool]]]
    document: Callable[[str, Any, list], Document]                   # (property, label, trace)
    steps: str = "steps"                                             # what a trace's steps are called
    prefer: Callable[[Any, list], Any] | None = None                 # (label, trace) -> rank, lowest first
    where: Callable[[Any], str] | None = None                        # names a system in a violation's detail
    method: str = "exhaustive"
    declared_at: str = attrs.field(factory=declared_at, eq=False, repr=False)

    def keys(self) -> list[tuple[str, str, str]]:
        return [(p, self.reading, self.method) for p in self.properties]


@attrs.frozen
class Case:
    """One case of an enumeration: the subject the properties judge (a spec run), what to say
    about it and the replay document should it be a property's first failure, and counts that
    are summed over the enumeration for the detail line."""

    subject: Any
    describe: Callable[[], str]
    document: Callable[[str], Document | None]
    counts: Mapping[str, int] = attrs.Factory(dict)


@attrs.frozen
class Enumeration:
    """Every case of a finite family judged by the spec's properties. `detail` is the detail of a
    property that holds, formatted with the summed counts."""

    reading: str
    properties: tuple[str, ...]
    scope: str
    cases: Callable[[], Iterable[Case]]
    detail: str = ""
    method: str = "exhaustive"
    declared_at: str = attrs.field(factory=declared_at, eq=False, repr=False)

    def keys(self) -> list[tuple[str, str, str]]:
        return [(p, self.reading, self.method) for p in self.properties]


@attrs.frozen
class Search:
    """Hypothesis search for an example that violates `property`, shrunk, derandomized.
    `judge(example)` gives (holds, witness reached); `document(example)` the replay file."""

    property: str
    reading: str
    scope: str
    strategy: Callable[[], Any]
    judge: Callable[[Any], tuple[bool, bool]]
    document: Callable[[Any], Document]
    examples: int
    describe: Callable[[Any], str] | None = None   # the detail of a violation
    method: str = "hypothesis"
    declared_at: str = attrs.field(factory=declared_at, eq=False, repr=False)

    def keys(self) -> list[tuple[str, str, str]]:
        return [(self.property, self.reading, self.method)]


@attrs.frozen
class Chance:
    """The exact probability that a Markov chain (checks.markov.Chain) reaches a target, held to a
    claimed bound: `at_least` (or `at_most`) as a Fraction. The verdict is holds (the exact
    probability meets the bound on this finite chain) or violated, and carries the probability.
    `document(probability)` is the replay file of a violation."""

    property: str
    reading: str
    scope: str
    chain: Callable[[], Any]
    at_least: Fraction | None = None
    at_most: Fraction | None = None
    document: Callable[[Fraction], Document | None] = lambda probability: None
    method: str = "exhaustive"
    declared_at: str = attrs.field(factory=declared_at, eq=False, repr=False)

    def keys(self) -> list[tuple[str, str, str]]:
        return [(self.property, self.reading, self.method)]


Check = Proof | Exploration | Enumeration | Search | Chance


@attrs.frozen
class SparkJob:
    """The Spark validation: `job()` the job at its default configuration (a sampler from a seed
    and a judge, spark_validation.runner.Job), `from_config(config)` the job a summary was made
    with, `scope(summary, job)` the scope text; `unit` and `size` name a case and its size."""

    job: Callable[[], Any]
    from_config: Callable[[Mapping[str, Any]], Any]
    scope: Callable[[Mapping[str, Any], Any], str]
    unit: str = "scenarios"
    size: str = "nodes"
    # random instances per scope (make check's default scope, the large one, and `validate`'s own
    # count where --instances is not given: make validate's)
    instances: Mapping[str, int] = attrs.Factory(lambda: {"default": 20_000, "large": 200_000,
                                                          "validate": 1_000_000})
    # (job, column, seed[, at_least=n]) -> the replay document of the shrunk failing instance
    # (kept at n or more instances where the claim is only evaluated from n on); by default the
    # job's own `counterexample(column, seed)`. spark_validation never imports checks, so a
    # document that checks' replay reads is made here when the job gives spec-level data.
    counterexample: Callable[..., Document] | None = None

    @classmethod
    def of(cls, module: str, **fields: Any) -> "SparkJob":
        """The job of a spark_validation module by its conventional names: `default_job()` and
        `from_config(config)`, imported when first used (starting no Spark before it is needed)."""
        return cls(job=lazy(f"{module}:default_job"), from_config=lazy(f"{module}:from_config"), **fields)

    def document(self, job: Any, column: str, seed: int, at_least: int = 0) -> Document:
        extra = {"at_least": at_least} if at_least else {}
        if self.counterexample is not None:
            return self.counterexample(job, column, seed, **extra)
        return job.counterexample(column, seed, **extra)


@attrs.frozen
class Replayed:
    """A replayed counterexample: whether the recorded violation reproduced, and a drawing of it
    (`draw(png_path, title)`) where the algorithm can draw this kind of counterexample."""

    reproduced: bool
    draw: Callable[[str, str], None] | None = None


@attrs.frozen
class Sentence:
    """One sentence of the paper that states a fact, a number, a theorem, a figure or a property
    of the algorithm: judged by the verdicts of the spec properties that check it, or not
    checkable, with why (lost from the extracted text, a measurement of a testbed this project
    does not have). `reading` says how a check reads the sentence where the sentence alone does
    not fix it (a band or threshold chosen here, an average read per instance)."""

    section: str                        # "sec. 3.5.1 Theorem 1"
    text: str                           # the sentence, as printed (translated where the paper is Chinese)
    checked_by: tuple[str, ...] = ()    # spec property names
    why: str | None = None              # not checkable: why
    reading: str = ""
    # judged by a computed reproduction instead of spec properties (a count over every candidate
    # topology, say): returns (verdict, evidence), the verdict "holds" or "violated", or "ambiguous"
    # where it ran under readings the text allows and they disagree (the evidence names each outcome)
    reproduced: Callable[[], tuple[str, str]] | None = None
    # the readings the sentence speaks of (an SNR sentence: the reading "snr"); by default every
    # reading that is not an ablation or a baseline
    about: tuple[str, ...] = ()
    # the readings that do what the printed text of this sentence's part of the algorithm does,
    # where they differ from the catalogue's `printed` ones (a sentence on LBDD's Algorithm 3 is
    # judged under every reading that runs the printed Algorithm 3, whatever they repair elsewhere)
    printed: tuple[str, ...] = ()
    # where the text of this sentence's part is silent (a rule it names but does not give): the
    # readings that are this project's choices for it, which decide as open choices
    open_choices: tuple[str, ...] = ()
    # the properties are readings of the sentence itself that its words allow ("at most one copy"
    # per broker, or per copy handled), not parts of it: each is judged, and where they disagree
    # the sentence is ambiguous
    alternatives: bool = False
    # the sentence warns of a failure (a hazard the paper names): it holds where its properties
    # are violated, under the readings it speaks of (`about`: the protocol without the rule)
    warns: bool = False

    def __attrs_post_init__(self) -> None:
        if sum(map(bool, (self.checked_by, self.why, self.reproduced))) != 1:
            raise ValueError(f"sentence {self.section}: {self.text[:60]!r} needs one of checked_by, why or "
                             "reproduced")


# --------------------------------------------------------------------------------------------
# The algorithm
# --------------------------------------------------------------------------------------------

@attrs.frozen
class Algorithm:
    name: str
    title: str                                   # "LBDD (Li, Wang, Yin & Yuan 2014)"
    spec: str                                    # the spec module, whose properties are registered
    readings: Catalogue
    scopes: Mapping[str, Any]                    # "default", "large" -> a scope with named fields
    checks: Callable[[Any], Iterable[Check]]     # the checks at a scope (cheap: nothing runs yet)
    replay: Callable[[Document, Callable[[str], None]], Replayed]
    manifest: Path                               # this algorithm's manifest file
    spark: SparkJob | None = None
    deadline_seconds: float = 120.0              # an exploration stopped here is unknown, never a pass
    docs: Callable[[Any], Mapping[str, str]] | None = None    # DocsContext -> marker -> text
    docs_page: str | None = None                 # docs/<file>.md, default docs/<name>.md
    bench: Callable[[], Mapping[str, Any]] | None = None      # figures for reports/bench.json
    unreached: Sequence[Any] = ()                # properties no check reaches, with why (issue 10)
    inventory: Callable[[], Sequence[Sentence]] | None = None  # every claim sentence of the paper

    def __attrs_post_init__(self) -> None:
        if "default" not in self.scopes:
            raise ValueError(f"{self.name}: a declaration needs at least a 'default' scope")

    def scope(self, name: str) -> Any:
        return lookup(self.scopes, name, "scope", of=self.name)

    def properties(self) -> list[Any]:
        from spec.registry import properties

        importlib.import_module(self.spec)
        return properties(self.name)


def lazy(target: str) -> Callable[..., Any]:
    """`"package.module:function"` as a function that imports its module when first called, so
    that a declaration can name its docs, bench or Spark code without importing it (and Spark)."""
    module_name, _, attribute = target.partition(":")

    def call(*args: Any, **kwargs: Any) -> Any:
        return getattr(importlib.import_module(module_name), attribute)(*args, **kwargs)

    call.__qualname__ = call.__name__ = target
    return call


def beside(package: str) -> dict[str, Any]:
    """What a declaration package holds by convention, as Algorithm fields: its `manifest.json`,
    and its `docs.sections`, `bench.figures` and `inventory.sentences` where those modules exist. A
    declaration writes `**plugin.beside(__name__)` instead of naming them again."""
    import importlib.util

    found = importlib.util.find_spec(package)
    if found is None or not found.submodule_search_locations:
        raise ValueError(f"{package!r} is not a package: its manifest, docs and bench go beside its __init__.py")
    folder = Path(list(found.submodule_search_locations)[0])
    fields: dict[str, Any] = {"manifest": folder / "manifest.json"}
    for field, module, function in (("docs", "docs", "sections"), ("bench", "bench", "figures"),
                                    ("inventory", "inventory", "sentences")):
        if (folder / f"{module}.py").exists():
            fields[field] = lazy(f"{package}.{module}:{function}")
    return fields


PLUGINS_VARIABLE = "PUBSUB_PROOFS_PLUGINS"


ALGORITHMS_FOLDER = Path(__file__).with_name("algorithms")


def _modules() -> list[str]:
    # by path, not by importing the package: the engines import no declaration (a layer contract)
    names = [f"checks.algorithms.{m.name}" for m in pkgutil.iter_modules([str(ALGORITHMS_FOLDER)])]
    extra = [m.strip() for m in os.environ.get(PLUGINS_VARIABLE, "").split(",") if m.strip()]
    return sorted(names) + extra


def algorithms() -> dict[str, Algorithm]:
    """Every declared algorithm by name, in discovery order (the package's, then the variable's)."""
    found: dict[str, Algorithm] = {}
    for module_name in _modules():
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as e:
            if e.name == module_name or module_name.startswith(f"{e.name}."):
                raise ValueError(f"{PLUGINS_VARIABLE} names {module_name!r}, which cannot be imported") from None
            if module_name.startswith("checks.algorithms."):
                raise
            raise ValueError(f"{PLUGINS_VARIABLE} names {module_name!r}, which fails to import: {e}") from None
        except Exception as e:
            if module_name.startswith("checks.algorithms."):   # this project's own: a bug, with its traceback
                raise
            raise ValueError(f"{PLUGINS_VARIABLE} names {module_name!r}, which fails to import "
                             f"({type(e).__name__}: {e})") from None
        declaration = getattr(module, "ALGORITHM", None)
        if isinstance(declaration, Algorithm):
            if declaration.name in found:
                raise ValueError(f"two declarations of algorithm {declaration.name!r}")
            found[declaration.name] = declaration
    return found


def algorithm(name: str) -> Algorithm:
    """The declaration of `name`: its own module first (so that one broken sibling does not stop
    another algorithm's check or replay), else every module discovered."""
    if isinstance(name, str) and name.isidentifier() and (ALGORITHMS_FOLDER / name).exists():
        declaration = getattr(importlib.import_module(f"checks.algorithms.{name}"), "ALGORITHM", None)
        if isinstance(declaration, Algorithm) and declaration.name == name:
            return declaration
    return lookup(algorithms(), name, "algorithm")
