"""Inductive invariants with Z3, in the style of mypyvy: a symbolic transition system, its proof by
induction for every universe size, and bounded runs (BMC) that make its failures concrete.

A `System` declares uninterpreted sorts (e.g. Node), a vocabulary of `Symbol`s (constants,
functions and relations over those sorts; immutable ones such as the ring relation `btw` are
shared by every state, mutable ones are created afresh per state), axioms over the immutable
symbols (`ring_axioms("btw")`), `init(s)`, named actions over (pre, post), the named inductive
`invariants` and the `safety` properties they are meant to imply, and `sometimes` predicates that
some run must reach (so that a proof cannot pass vacuously).

An action is either a plain callable `(pre, post) -> BoolRef`, which must say itself what stays
unchanged (`frame(pre, post, modifies)` / `unchanged(pre, post, *names)`), or an `Action(body,
modifies, params)`: `body(pre, post, **params)` with the parameters as fresh constants of the
named sorts, and every mutable symbol outside `modifies` framed automatically. Any constant an
action, or `init`, mentions that is not a state symbol is an existential parameter; its value is
reported with each step. Invariants, safety and `sometimes` predicates must quantify all their
variables (a free constant there is rejected).

`prove_inductive(system)` asks Z3 for
  initiation   axioms & init & ~inv                       per invariant
  consecution  axioms & invariants & action & ~inv'      per action and invariant
  safety       axioms & invariants & ~safe               per safety property
and, as guards against vacuity, whether init is satisfiable, whether every action is enabled in
some state satisfying the invariants, and whether every `sometimes` predicate is reachable within
`witness_steps` steps. Every query unsat (and every guard met) is PROVED: the sorts are
unbounded, so the proof holds for rings of every size. A sat initiation query is VIOLATED with the
concrete initial state. A sat consecution query is a counterexample to induction (CTI): a concrete
pre-state satisfying all invariants, the action with its parameters, and the post-state that
breaks the named invariant. A CTI alone shows the invariants are not inductive, not that the system
is wrong (its pre-state need not be reachable), so it is confirmed by BMC for `confirm_steps`
steps: a real run from init that breaks an invariant or a safety property makes the verdict
VIOLATED (the run is the counterexample); otherwise the verdict is UNKNOWN, with the CTI in the
document. The same holds for a state where the invariants hold and a safety property does not.
A timeout or `unknown` answer is UNKNOWN, never a pass.

Concrete states are plain JSON values over the model's finite universe, elements renamed
`<Sort><i>`:
  {"universe": {"Node": ["Node0", "Node1"]},
   "constants": {"leader": "Node0"},                    # Bool -> bool, Int -> int
   "relations": {"succ": [["Node0", "Node1"], ["Node1", "Node0"]]},   # the true tuples, sorted
   "functions": {"next": {"Node0": "Node1", "Node1": "Node0"}}}       # key: args joined by ","
Counterexamples are minimized: the universe of each sort, in declaration order, is made as small
as Z3 allows. `holds`, `step_holds` and `check_cti` evaluate predicates and actions on concrete
states again (for replaying a counterexample document).
"""

from __future__ import annotations

import itertools
import json
import math
import keyword
from typing import Any, Callable, Iterable, Mapping, Sequence

import attrs
import z3

from checks.verdict import Verdict

Concrete = dict[str, Any]            # a concrete state, as above
Predicate = Callable[["State"], z3.BoolRef]
BUILTIN_SORTS = {"Bool": z3.BoolSort, "Int": z3.IntSort}


class SolverUnknown(Exception):
    """Z3 answered unknown (or timed out) where a definite answer was needed."""


# --------------------------------------------------------------------------------------------
# Vocabulary
# --------------------------------------------------------------------------------------------

@attrs.frozen
class Symbol:
    """A constant (no domain), function or relation (range "Bool") of the vocabulary. Domains are
    declared uninterpreted sorts; a range is one of them, "Bool" or "Int"."""

    name: str
    domain: tuple[str, ...] = attrs.field(converter=tuple)
    range: str
    mutable: bool = True

    @property
    def arity(self) -> int:
        return len(self.domain)

    @property
    def is_relation(self) -> bool:
        return self.range == "Bool" and self.arity > 0


def relation(name: str, *domain: str, mutable: bool = True) -> Symbol:
    return Symbol(name, domain, "Bool", mutable)


def function(name: str, *domain: str, to: str, mutable: bool = True) -> Symbol:
    return Symbol(name, domain, to, mutable)


def constant(name: str, sort: str, mutable: bool = True) -> Symbol:
    return Symbol(name, (), sort, mutable)


@attrs.frozen
class Action:
    """`body(pre, post, **params)`; `params` maps each parameter to its sort; every mutable symbol
    not in `modifies` is unchanged."""

    body: Callable[..., z3.BoolRef]
    modifies: tuple[str, ...] = attrs.field(default=(), converter=tuple)
    params: Mapping[str, str] = attrs.field(factory=dict)


class State:
    """One state's symbols: `s.succ(a, b)`, `s.leader`, `s["btw"]`."""

    def __init__(self, system: "System", tag: str, symbols: dict[str, Any]):
        self.system, self.tag, self._symbols = system, tag, symbols

    def __getattr__(self, name: str) -> Any:
        symbols = self.__dict__.get("_symbols", {})
        if name in symbols:
            return symbols[name]
        raise AttributeError(f"state has no symbol {name!r}")

    def __getitem__(self, name: str) -> Any:
        return self._symbols[name]

    def __repr__(self) -> str:
        return f"State({self.tag!r})"


def unchanged(pre: State, post: State, *names: str) -> z3.BoolRef:
    """The named mutable symbols keep their value (immutable ones always do)."""
    parts = []
    for name in names:
        symbol = pre.system.symbol(name)
        if not symbol.mutable:
            continue
        if symbol.arity == 0:
            parts.append(pre[name] == post[name])
        else:
            xs = [z3.Const(f"{name}!frame{i}", pre.system.sort(d)) for i, d in enumerate(symbol.domain)]
            parts.append(z3.ForAll(xs, pre[name](*xs) == post[name](*xs)))
    return _and(parts)


def frame(pre: State, post: State, modifies: Iterable[str]) -> z3.BoolRef:
    """Every mutable symbol outside `modifies` is unchanged."""
    modifies = set(modifies)
    unknown = modifies - {s.name for s in pre.system.symbols}
    if unknown:
        raise ValueError(f"frame names unknown symbols {sorted(unknown)}")
    return unchanged(pre, post, *(s.name for s in pre.system.symbols if s.mutable and s.name not in modifies))


def ring_axioms(btw: str = "btw") -> dict[str, Predicate]:
    """The axioms of a ring order `btw(x, y, z)`: going round from x, y comes strictly before z
    (Ivy's and mypyvy's ring axioms; they imply that btw holds of distinct elements only)."""

    def q(s: State, body: Callable[..., z3.BoolRef]) -> z3.BoolRef:
        node = s.system.sort(s.system.symbol(btw).domain[0])
        w, x, y, z = (z3.Const(f"{btw}!{v}", node) for v in "wxyz")
        return z3.ForAll([w, x, y, z], body(s[btw], w, x, y, z))

    return {
        f"{btw} transitive": lambda s: q(s, lambda b, w, x, y, z: z3.Implies(z3.And(b(w, x, y), b(w, y, z)), b(w, x, z))),
        f"{btw} antisymmetric": lambda s: q(s, lambda b, w, x, y, z: z3.Implies(b(w, x, y), z3.Not(b(w, y, x)))),
        f"{btw} total": lambda s: q(s, lambda b, w, x, y, z: z3.Or(b(w, x, y), b(w, y, x), w == x, w == y, x == y)),
        f"{btw} cyclic": lambda s: q(s, lambda b, w, x, y, z: z3.Implies(b(x, y, z), b(y, z, x))),
    }


# --------------------------------------------------------------------------------------------
# The system
# --------------------------------------------------------------------------------------------

@attrs.define(eq=False)
class System:
    sorts: tuple[str, ...] = attrs.field(converter=tuple)
    symbols: tuple[Symbol, ...] = attrs.field(converter=tuple)
    init: Predicate
    actions: Mapping[str, Action | Callable[[State, State], z3.BoolRef]]
    invariants: Mapping[str, Predicate]
    safety: Mapping[str, Predicate] = attrs.field(factory=dict)
    axioms: Mapping[str, Predicate] = attrs.field(factory=dict)
    sometimes: Mapping[str, Predicate] = attrs.field(factory=dict)
    name: str = "system"
    _z3sorts: dict[str, Any] = attrs.field(init=False, factory=dict)
    _by_name: dict[str, Symbol] = attrs.field(init=False, factory=dict)
    _shared: dict[str, Any] = attrs.field(init=False, factory=dict)

    def __attrs_post_init__(self) -> None:
        for sort in self.sorts:
            if sort in BUILTIN_SORTS or not sort.isidentifier():
                raise ValueError(f"bad sort name {sort!r}")
            self._z3sorts[sort] = z3.DeclareSort(sort)
        for symbol in self.symbols:
            if not symbol.name.isidentifier() or keyword.iskeyword(symbol.name) or symbol.name in ("system", "tag"):
                raise ValueError(f"bad symbol name {symbol.name!r}")
            if symbol.name in self._by_name:
                raise ValueError(f"two symbols named {symbol.name!r}")
            for d in symbol.domain:
                if d not in self._z3sorts:
                    raise ValueError(f"{symbol.name}: domain sort {d!r} is not a declared sort")
            if symbol.range not in self._z3sorts and symbol.range not in BUILTIN_SORTS:
                raise ValueError(f"{symbol.name}: unknown range sort {symbol.range!r}")
            self._by_name[symbol.name] = symbol
            if not symbol.mutable:
                self._shared[symbol.name] = self._make(symbol, symbol.name)
        if not self.invariants:
            raise ValueError("a system needs at least one invariant")
        for name, action in self.actions.items():
            if isinstance(action, Action):
                for m in action.modifies:
                    if m not in self._by_name or not self._by_name[m].mutable:
                        raise ValueError(f"action {name!r} modifies {m!r}, which is not a mutable symbol")
                for p, sort in action.params.items():
                    if sort not in self._z3sorts and sort not in BUILTIN_SORTS:
                        raise ValueError(f"action {name!r}: parameter {p!r} has unknown sort {sort!r}")

    # -- symbols and states --

    def sort(self, name: str) -> z3.SortRef:
        if name in BUILTIN_SORTS:
            return BUILTIN_SORTS[name]()
        return self._z3sorts[name]

    def symbol(self, name: str) -> Symbol:
        return self._by_name[name]

    def _make(self, symbol: Symbol, z3name: str) -> Any:
        if symbol.arity == 0:
            return z3.Const(z3name, self.sort(symbol.range))
        return z3.Function(z3name, *(self.sort(d) for d in symbol.domain), self.sort(symbol.range))

    def state(self, tag: str) -> State:
        return State(self, tag, {s.name: self._shared[s.name] if not s.mutable else self._make(s, f"{s.name}@{tag}")
                                 for s in self.symbols})

    def _state_constants(self, *states: State) -> set[str]:
        return {st[s.name].decl().name() for st in states for s in self.symbols if s.arity == 0}

    # -- formulas --

    def axiom_formulas(self, s: State) -> list[z3.BoolRef]:
        out = []
        other = self.state(f"{s.tag}!axiom-check")
        for name, axiom in self.axioms.items():
            f = axiom(s)
            if not f.eq(axiom(other)):
                raise ValueError(f"axiom {name!r} mentions a mutable symbol")
            out.append(f)
        return out

    def predicate(self, kind: str, name: str, predicate: Predicate, s: State) -> z3.BoolRef:
        f = predicate(s)
        free = set(_free_constants(f)) - self._state_constants(s)
        if free:
            raise ValueError(f"{kind} {name!r} has free constants {sorted(free)}; quantify them")
        return f

    def initial(self, s: State) -> tuple[z3.BoolRef, dict[str, z3.ExprRef]]:
        """init(s) and its existential parameters (the constants it names that are not symbols)."""
        f = self.init(s)
        consts = _free_constants(f)
        return f, {n: c for n, c in consts.items() if n not in self._state_constants(s)}

    def transition(self, name: str, pre: State, post: State, suffix: str = "") -> tuple[z3.BoolRef, dict[str, z3.ExprRef]]:
        """The action's formula over (pre, post) and its parameters, by name. With `suffix`, every
        parameter is a constant of its own (`<param><suffix>`), as for one step of a run."""
        action = self.actions[name]
        if isinstance(action, Action):
            params = {p: z3.Const(f"{name}.{p}", self.sort(sort)) for p, sort in action.params.items()}
            f = z3.And(action.body(pre, post, **params), frame(pre, post, action.modifies))
        else:
            f = action(pre, post)
        consts = {n: c for n, c in _free_constants(f).items() if n not in self._state_constants(pre, post)}
        if suffix and consts:
            renamed = {n: z3.Const(f"{n}{suffix}", c.sort()) for n, c in consts.items()}
            f = z3.substitute(f, *[(consts[n], renamed[n]) for n in consts])
            consts = renamed
        return f, consts


def _and(parts: Sequence[z3.BoolRef]) -> z3.BoolRef:
    return z3.And(*parts) if parts else z3.BoolVal(True)


def _free_constants(f: z3.ExprRef) -> dict[str, z3.ExprRef]:
    """The uninterpreted constants of `f` outside binders, by name."""
    found: dict[str, z3.ExprRef] = {}
    seen: set[int] = set()
    stack = [f]
    while stack:
        e = stack.pop()
        if e.get_id() in seen:
            continue
        seen.add(e.get_id())
        if z3.is_quantifier(e):
            stack.append(e.body())
        elif z3.is_app(e):
            d = e.decl()
            if d.kind() == z3.Z3_OP_UNINTERPRETED and d.arity() == 0:
                found[d.name()] = e
            stack.extend(e.children())
    return found


# --------------------------------------------------------------------------------------------
# Solving and reading models
# --------------------------------------------------------------------------------------------

def _solve(assertions: Sequence[z3.BoolRef], timeout_ms: int) -> tuple[str, z3.ModelRef | None]:
    """One query: "sat" with its model, "unsat", or "unknown" (a timeout among the reasons)."""
    solver = z3.Solver()
    solver.set("timeout", int(timeout_ms))
    solver.add(*assertions)
    status = solver.check()
    return str(status), solver.model() if status == z3.sat else None


def _universe(model: z3.ModelRef, sort: z3.SortRef) -> list[z3.ExprRef]:
    found = model.get_universe(sort)
    return list(found) if found is not None else []


def _minimize(system: System, assertions: list[z3.BoolRef], model: z3.ModelRef, timeout_ms: int) -> z3.ModelRef:
    """The model with each sort's universe, in declaration order, as small as Z3 allows."""
    bounds: list[z3.BoolRef] = []
    for name in system.sorts:
        sort = system.sort(name)
        size = len(_universe(model, sort))
        if size == 0:
            continue
        x = z3.Const(f"{name}!min", sort)

        def at_most(k: int) -> z3.BoolRef:
            elems = [z3.Const(f"{name}!min{k}.{i}", sort) for i in range(k)]
            return z3.ForAll([x], z3.Or(*[x == e for e in elems]))

        for k in range(1, size):
            status, smaller = _solve([*assertions, *bounds, at_most(k)], timeout_ms)
            if status == "sat":
                model, size = smaller, k
                break
        bounds.append(at_most(size))
    return model


class _Reader:
    """Concrete values from one model; elements renamed `<Sort><i>`."""

    def __init__(self, system: System, model: z3.ModelRef):
        self.system, self.model = system, model
        self.universe: dict[str, list[z3.ExprRef]] = {}
        self.names: dict[str, str] = {}
        for sort in system.sorts:
            elems = _universe(model, system.sort(sort))
            self.universe[sort] = elems
            for i, e in enumerate(elems):
                self.names[e.sexpr()] = f"{sort}{i}"

    def value(self, e: z3.ExprRef) -> Any:
        v = self.model.eval(e, model_completion=True)
        if z3.is_bool(v):
            return z3.is_true(v)
        if z3.is_int_value(v):
            return v.as_long()
        return self.names.get(v.sexpr(), v.sexpr())

    def state(self, s: State) -> Concrete:
        out: Concrete = {"universe": {sort: [self.names[e.sexpr()] for e in elems]
                                      for sort, elems in self.universe.items()},
                         "constants": {}, "relations": {}, "functions": {}}
        for symbol in self.system.symbols:
            if symbol.arity == 0:
                out["constants"][symbol.name] = self.value(s[symbol.name])
                continue
            rows = itertools.product(*(self.universe[d] for d in symbol.domain))
            if symbol.is_relation:
                out["relations"][symbol.name] = sorted(
                    [self.names[a.sexpr()] for a in args] for args in rows if self.value(s[symbol.name](*args)))
            else:
                out["functions"][symbol.name] = {",".join(self.names[a.sexpr()] for a in args):
                                                 self.value(s[symbol.name](*args)) for args in rows}
        return out

    def params(self, params: Mapping[str, z3.ExprRef]) -> dict[str, Any]:
        return {n: self.value(c) for n, c in sorted(params.items())}


RENAMINGS_TRIED = 40_320     # 8!: beyond it a state keeps Z3's naming


def _renamed(value: Any, names: Mapping[str, str]) -> Any:
    """A concrete state (or parameters, or a step) with its elements renamed; the true tuples of
    each relation sorted again."""
    if isinstance(value, str):
        return names.get(value, value)
    if isinstance(value, list):
        return [_renamed(v, names) for v in value]
    if not isinstance(value, dict):
        return value
    if set(value) == {"universe", "constants", "relations", "functions"}:
        return {"universe": value["universe"], "constants": _renamed(value["constants"], names),
                "relations": {r: sorted(_renamed(rows, names)) for r, rows in value["relations"].items()},
                "functions": {f: {",".join(names.get(a, a) for a in key.split(",")) if key else key:
                                  _renamed(v, names) for key, v in table.items()}
                              for f, table in value["functions"].items()}}
    return {k: _renamed(v, names) for k, v in value.items()}


def canonical(universe: Mapping[str, list[str]], *values: Any) -> tuple[Any, ...]:
    """`values` (concrete states over `universe`, their parameters and steps) with each sort's
    elements renamed so that their JSON is the smallest: which element Z3 makes play which part
    depends on everything the process asked before, the renamed values on the values alone (the
    same counterexample from any process). Up to RENAMINGS_TRIED renamings in all."""
    sorts = [sort for sort, names in universe.items() if len(names) > 1]
    if math.prod(math.factorial(len(universe[s])) for s in sorts) > RENAMINGS_TRIED:
        return values
    best, best_text = values, None
    for orders in itertools.product(*(itertools.permutations(universe[s]) for s in sorts)):
        names = {old: new for s, order in zip(sorts, orders) for old, new in zip(universe[s], order)}
        candidate = tuple(_renamed(v, names) for v in values)
        text = json.dumps(candidate, sort_keys=True)
        if best_text is None or text < best_text:
            best, best_text = candidate, text
    return best


# --------------------------------------------------------------------------------------------
# Bounded runs
# --------------------------------------------------------------------------------------------

@attrs.frozen
class Trace:
    """A concrete run: `states[0]` initial, `steps[i]` ({"action", "params"}) leads from
    `states[i]` to `states[i + 1]`; `goal` names what the last state reaches or violates."""

    states: list[Concrete]
    steps: list[dict[str, Any]]
    init_params: dict[str, Any]
    goal: str

    def as_json(self) -> dict[str, Any]:
        return {"goal": self.goal, "init_params": self.init_params, "states": self.states, "steps": self.steps}


def bmc(system: System, goals: Mapping[str, Predicate], steps: int, timeout_ms: int = 20000,
        minimize: bool = True) -> tuple[str, Trace | None, int]:
    """The shortest run of init and actions, at most `steps` steps, whose last state satisfies
    one of `goals` (tried in order at each length). Returns ("found", trace, queries),
    ("none", None, queries) if no run of that length exists, or ("unknown", None, queries)."""
    solver = z3.Solver()
    solver.set("timeout", int(timeout_ms))
    states = [system.state("0")]
    init, init_params = system.initial(states[0])
    solver.add(*system.axiom_formulas(states[0]), init)
    chosen: list[list[tuple[str, z3.BoolRef, dict[str, z3.ExprRef]]]] = []
    unknown, queries = False, 0
    for depth in range(steps + 1):
        if depth > 0:
            pre, post = states[-1], system.state(str(depth))
            states.append(post)
            options = []
            for name in system.actions:
                f, params = system.transition(name, pre, post, suffix=f"@{depth}")
                fired = z3.Bool(f"step{depth}={name}")
                solver.add(z3.Implies(fired, f))
                options.append((name, fired, params))
            solver.add(z3.Or(*[fired for _, fired, _ in options]))
            chosen.append(options)
        for goal_name, goal in goals.items():
            solver.push()
            solver.add(system.predicate("goal", goal_name, goal, states[depth]))
            status = solver.check()
            queries += 1
            if status == z3.sat:
                model = solver.model()
                if minimize:
                    model = _minimize(system, list(solver.assertions()), model, timeout_ms)
                solver.pop()
                read = _Reader(system, model)
                run = []
                for options in chosen:
                    name, _, params = next(o for o in options if read.value(o[1]))
                    run.append({"action": name, "params": read.params(params)})
                found = [read.state(s) for s in states]
                found, run, params = canonical(found[0]["universe"], found, run, read.params(init_params))
                return "found", Trace(found, run, params, goal_name), queries
            unknown |= status == z3.unknown
            solver.pop()
    return ("unknown" if unknown else "none"), None, queries


def reachable(system: System, predicate: Predicate, steps: int, timeout_ms: int = 20000) -> Trace | None:
    """A shortest run of at most `steps` steps to a state satisfying `predicate`, or None if
    there is none. Raises SolverUnknown if Z3 could not decide and found none."""
    status, found, _ = bmc(system, {"reach": predicate}, steps, timeout_ms)
    if status == "unknown":
        raise SolverUnknown(f"reachability undecided within {steps} steps")
    return found


def trace(system: System, steps: int, properties: Mapping[str, Predicate] | None = None,
          timeout_ms: int = 20000) -> Trace | None:
    """A shortest run of at most `steps` steps to a state violating one of `properties` (by
    default the safety properties); `goal` names it. None if there is none; SolverUnknown if
    undecided."""
    properties = system.safety if properties is None else properties
    goals = {name: (lambda p: lambda s: z3.Not(p(s)))(p) for name, p in properties.items()}
    status, found, _ = bmc(system, goals, steps, timeout_ms)
    if status == "unknown":
        raise SolverUnknown(f"bounded check undecided within {steps} steps")
    return found


# --------------------------------------------------------------------------------------------
# Induction
# --------------------------------------------------------------------------------------------

@attrs.frozen
class Cti:
    """A counterexample to induction: `pre` satisfies every invariant (and the axioms), the action
    with `params` leads to `post`, and `post` violates `invariant`. For a safety gap, `action` is
    None, `post` is None and `pre` satisfies the invariants but not the safety property
    `invariant`."""

    action: str | None
    invariant: str
    params: dict[str, Any]
    pre: Concrete
    post: Concrete | None

    def as_json(self) -> dict[str, Any]:
        return {"action": self.action, "invariant": self.invariant, "params": self.params,
                "pre": self.pre, "post": self.post}


@attrs.frozen
class InductionResult:
    """`kind`: proved | initiation | cti | safety-gap | unknown | vacuous | trace (a CTI or a
    safety gap confirmed by a real run). `queries` maps every proof query to sat/unsat/unknown
    (and a guard to its outcome)."""

    verdict: Verdict
    kind: str
    detail: str
    queries: dict[str, str]
    cti: Cti | None = None
    initial: Concrete | None = None          # the initial state that breaks `invariant`
    initial_params: dict[str, Any] | None = None
    invariant: str | None = None             # the invariant broken at initiation
    trace: Trace | None = None               # a real run confirming a CTI or a safety gap
    witnesses: dict[str, Trace] = attrs.field(factory=dict)

    @property
    def cases(self) -> int:
        return len(self.queries)

    def document(self) -> dict[str, Any]:
        doc: dict[str, Any] = {"kind": self.kind, "verdict": self.verdict.value, "detail": self.detail,
                               "queries": self.queries}
        if self.initial is not None:
            doc.update(invariant=self.invariant, initial=self.initial, initial_params=self.initial_params)
        if self.cti is not None:
            doc["cti"] = self.cti.as_json()
        if self.trace is not None:
            doc["trace"] = self.trace.as_json()
        if self.witnesses:
            doc["witnesses"] = {n: t.as_json() for n, t in self.witnesses.items()}
        return doc


def _sizes(state: Concrete) -> str:
    return ", ".join(f"{len(v)} {k}" for k, v in state["universe"].items())


def prove_inductive(system: System, timeout_ms: int = 20000, confirm_steps: int = 2, witness_steps: int = 3,
                    minimize: bool = True) -> InductionResult:
    """Initiation, consecution and safety queries, with the vacuity guards; see the module."""
    queries: dict[str, str] = {}
    pre, post = system.state("pre"), system.state("post")
    axioms = system.axiom_formulas(pre)
    init, init_params = system.initial(pre)
    invs_pre = {n: system.predicate("invariant", n, p, pre) for n, p in system.invariants.items()}
    invs_post = {n: system.predicate("invariant", n, p, post) for n, p in system.invariants.items()}
    safe = {n: system.predicate("safety property", n, p, pre) for n, p in system.safety.items()}

    def ask(name: str, assertions: list[z3.BoolRef]) -> z3.ModelRef | None:
        status, model = _solve(assertions, timeout_ms)
        queries[name] = status
        return model

    def smallest(assertions: list[z3.BoolRef], model: z3.ModelRef) -> _Reader:
        return _Reader(system, _minimize(system, assertions, model, timeout_ms) if minimize else model)

    def result(verdict: Verdict, kind: str, detail: str, **kw: Any) -> InductionResult:
        return InductionResult(verdict, kind, detail, queries, **kw)

    status, _ = _solve([*axioms, init], timeout_ms)
    queries["init satisfiable"] = status
    initiation = None
    for name, inv in invs_pre.items():
        query = [*axioms, init, z3.Not(inv)]
        found = ask(f"initiation/{name}", query)
        if found is not None and initiation is None:
            read = smallest(query, found)
            state = read.state(pre)
            initiation = (name, *canonical(state["universe"], state, read.params(init_params)))
    cti = None
    disabled = []
    for action in system.actions:
        f, params = system.transition(action, pre, post)
        status, _ = _solve([*axioms, *invs_pre.values(), f], timeout_ms)
        queries[f"enabled/{action}"] = status
        if status == "unsat":
            disabled.append(action)
        for name, inv in invs_post.items():
            query = [*axioms, *invs_pre.values(), f, z3.Not(inv)]
            found = ask(f"consecution/{action}/{name}", query)
            if found is not None and cti is None:
                read = smallest(query, found)
                before, after = read.state(pre), read.state(post)
                cti = Cti(action, name, *canonical(before["universe"], read.params(params), before, after))
    gap = None
    for name, s in safe.items():
        query = [*axioms, *invs_pre.values(), z3.Not(s)]
        found = ask(f"safety/{name}", query)
        if found is not None and gap is None:
            state = smallest(query, found).state(pre)
            gap = Cti(None, name, {}, *canonical(state["universe"], state), None)

    if queries["init satisfiable"] == "unsat":
        return result(Verdict.UNKNOWN, "vacuous", "vacuous: no initial state satisfies init and the axioms")
    if initiation is not None:
        name, state, params = initiation
        return result(Verdict.VIOLATED, "initiation",
                      f"an initial state ({_sizes(state)}) violates invariant {name!r}",
                      initial=state, initial_params=params, invariant=name)
    if cti is not None or gap is not None:
        failure = cti if cti is not None else gap
        what = (f"not inductive: action {cti.action!r} from a state satisfying every invariant breaks "
                f"{cti.invariant!r} (CTI with {_sizes(cti.pre)})" if cti is not None else
                f"the invariants do not imply safety property {gap.invariant!r} (a state with {_sizes(gap.pre)})")
        status, run, _ = bmc(system, {**{f"safety {n}": (lambda p: lambda s: z3.Not(p(s)))(p)
                                         for n, p in system.safety.items()},
                                      **{f"invariant {n}": (lambda p: lambda s: z3.Not(p(s)))(p)
                                         for n, p in system.invariants.items()}},
                             confirm_steps, timeout_ms, minimize)
        queries[f"confirm within {confirm_steps} steps"] = status
        kind = "cti" if cti is not None else "safety-gap"
        if run is not None:
            return result(Verdict.VIOLATED, "trace",
                          f"{what}; a run of {len(run.steps)} step(s) from init violates {run.goal}",
                          cti=failure, trace=run)
        note = "undecided" if status == "unknown" else "none"
        return result(Verdict.UNKNOWN, kind, f"{what}; real run within {confirm_steps} steps: {note}", cti=failure)
    undecided = [n for n, v in queries.items() if v == "unknown"]
    if undecided:
        return result(Verdict.UNKNOWN, "unknown", f"Z3 undecided (timeout {timeout_ms} ms?): {', '.join(undecided)}")
    if disabled:
        return result(Verdict.UNKNOWN, "vacuous",
                      f"vacuous: action(s) {', '.join(disabled)} never enabled where the invariants hold")
    witnesses: dict[str, Trace] = {}
    for name, predicate in system.sometimes.items():
        status, run, _ = bmc(system, {name: predicate}, witness_steps, timeout_ms, minimize)
        queries[f"witness/{name}"] = "reached" if run is not None else status
        if run is not None:
            witnesses[name] = run
    missing = [n for n in system.sometimes if n not in witnesses]
    if missing:
        return result(Verdict.UNKNOWN, "vacuous",
                      f"vacuous: {', '.join(missing)} not reached within {witness_steps} steps", witnesses=witnesses)
    sorts = ", ".join(system.sorts) or "no sorts"
    reached = (f"; witnesses reached: {', '.join(f'{n} in {len(t.steps)} step(s)' for n, t in witnesses.items())}"
               if witnesses else "")
    return result(Verdict.PROVED, "proved",
                  f"{len(system.invariants)} invariant(s) inductive under {len(system.actions)} action(s), implying "
                  f"{len(system.safety)} safety property(-ies), for every size of {sorts}{reached}", witnesses=witnesses)


def as_outcome(result: InductionResult, document_base: Mapping[str, Any] | None = None):
    """The result as a checks.plugin.ProofOutcome: verdict, cases (the proof queries), detail and,
    unless proved, the document (`document_base`, e.g. algorithm/property/reading/method, plus the
    CTI, the initial state or the confirming run)."""
    from checks.plugin import ProofOutcome

    document = None
    if result.verdict is not Verdict.PROVED:
        document = {**(document_base or {}), **result.document()}
    return ProofOutcome(result.verdict, result.cases, result.detail, document)


# --------------------------------------------------------------------------------------------
# Concrete states again
# --------------------------------------------------------------------------------------------

def _pin(system: System, states: Sequence[Concrete]) -> tuple[list[State], list[z3.BoolRef], dict[str, z3.ExprRef]]:
    """Z3 states fixed to the concrete ones: a closed universe of distinct elements and every
    symbol's full table."""
    universe = states[0]["universe"]
    elems: dict[str, z3.ExprRef] = {}
    facts: list[z3.BoolRef] = []
    for sort in system.sorts:
        names = universe.get(sort, [])
        consts = [z3.Const(f"{sort}!elem!{n}", system.sort(sort)) for n in names]
        elems.update(zip(names, consts))
        if not consts:
            raise ValueError(f"concrete states have no element of sort {sort!r}")
        x = z3.Const(f"{sort}!closed", system.sort(sort))
        facts.append(z3.ForAll([x], z3.Or(*[x == c for c in consts])))
        if len(consts) > 1:
            facts.append(z3.Distinct(*consts))

    def value(symbol_range: str, v: Any) -> z3.ExprRef:
        if symbol_range == "Bool":
            return z3.BoolVal(bool(v))
        if symbol_range == "Int":
            return z3.IntVal(int(v))
        return elems[v]

    zstates = []
    for i, concrete in enumerate(states):
        if concrete["universe"] != universe:
            raise ValueError("concrete states of one check must share their universe")
        s = system.state(f"concrete{i}")
        zstates.append(s)
        for symbol in system.symbols:
            if not symbol.mutable and i > 0:
                if all(concrete[k].get(symbol.name) == states[0][k].get(symbol.name)
                       for k in ("constants", "relations", "functions")):
                    continue
                raise ValueError(f"immutable symbol {symbol.name!r} differs between the states")
            if symbol.arity == 0:
                facts.append(s[symbol.name] == value(symbol.range, concrete["constants"][symbol.name]))
                continue
            rows = itertools.product(*(universe[d] for d in symbol.domain))
            if symbol.is_relation:
                true = {tuple(t) for t in concrete["relations"][symbol.name]}
                for args in rows:
                    atom = _applied(s[symbol.name], [elems[a] for a in args], z3.BoolRef)
                    facts.append(atom if args in true else _negated(atom))
            else:
                table = concrete["functions"][symbol.name]
                ref = {"Bool": z3.BoolRef, "Int": z3.ArithRef}.get(symbol.range, z3.ExprRef)
                for args in rows:
                    facts.append(_applied(s[symbol.name], [elems[a] for a in args], ref)
                                 == value(symbol.range, table[",".join(args)]))
    return zstates, facts, elems


# A full table is hundreds of applications per state; z3's FuncDeclRef.__call__ coerces and checks
# each argument's sort in Python, ten times the cost of the application itself. The arguments
# here are elements of the symbol's own sorts, so the C API is called directly.
def _applied(f: z3.FuncDeclRef, args: list[z3.ExprRef], ref: type) -> z3.ExprRef:
    """f(*args) as the `ref` (z3.BoolRef, ArithRef or ExprRef) of f's range."""
    arr = (z3.Ast * len(args))(*(a.as_ast() for a in args))
    return ref(z3.Z3_mk_app(f.ctx.ref(), f.ast, len(args), arr), f.ctx)


def _negated(atom: z3.BoolRef) -> z3.BoolRef:
    return z3.BoolRef(z3.Z3_mk_not(atom.ctx.ref(), atom.as_ast()), atom.ctx)


def _decide(facts: list[z3.BoolRef], claim: z3.BoolRef, timeout_ms: int) -> bool:
    status, _ = _solve([*facts, z3.Not(claim)], timeout_ms)
    if status == "unknown":
        raise SolverUnknown("could not evaluate on the concrete states")
    return status == "unsat"


def holds(system: System, predicate: Callable[..., z3.BoolRef], *states: Concrete, timeout_ms: int = 20000) -> bool:
    """Whether `predicate(s1, s2, ...)` holds of the concrete states (whose tables fix every
    symbol, so the answer is decided; the axioms are not assumed)."""
    zstates, facts, _ = _pin(system, states)
    return _decide(facts, predicate(*zstates), timeout_ms)


def step_holds(system: System, action: str, pre: Concrete, post: Concrete, params: Mapping[str, Any],
               timeout_ms: int = 20000) -> bool:
    """Whether the action with these parameter values leads from `pre` to `post`."""
    (zpre, zpost), facts, elems = _pin(system, [pre, post])
    f, consts = system.transition(action, zpre, zpost)
    if set(params) != set(consts):
        raise ValueError(f"action {action!r} has parameters {sorted(consts)}, given {sorted(params)}")
    for n, c in consts.items():
        v = params[n]
        facts.append(c == (z3.BoolVal(v) if isinstance(v, bool) else z3.IntVal(v) if isinstance(v, int) else elems[v]))
    return _decide(facts, f, timeout_ms)


def check_cti(system: System, cti: Cti | Mapping[str, Any], timeout_ms: int = 20000) -> bool:
    """Whether a CTI (or its JSON) is one: the axioms and every invariant hold before, the action
    leads from pre to post, and the named invariant fails after."""
    c = cti if isinstance(cti, Cti) else Cti(**cti)
    before = lambda s: _and([*system.axiom_formulas(s), *(p(s) for p in system.invariants.values())])  # noqa: E731
    if not holds(system, before, c.pre, timeout_ms=timeout_ms):
        return False
    if c.action is None:
        return not holds(system, system.safety[c.invariant], c.pre, timeout_ms=timeout_ms)
    return (step_holds(system, c.action, c.pre, c.post, c.params, timeout_ms)
            and not holds(system, system.invariants[c.invariant], c.post, timeout_ms=timeout_ms))
