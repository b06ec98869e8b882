"""IRBR, sec. 3.1: filters (conjunctions of equality and range constraints), covering, decided
exactly, and the claim that covering is decided right."""

from __future__ import annotations

import functools
import itertools
import re

import attrs

from spec.irbr.routing import ALGORITHM
from spec.registry import Property, register


# --------------------------------------------------------------------------------------------
# Filters and covering (sec. 3.1)
# --------------------------------------------------------------------------------------------

@attrs.frozen(order=True, cache_hash=True)   # hashed with a network's every entry, millions of times in a search
class Constraint:
    attribute: str
    low: int | str
    high: int | str

    def __attrs_post_init__(self) -> None:
        if not isinstance(self.attribute, str) or not self.attribute:
            raise TypeError(f"a constraint's attribute must be a non-empty str, not {self.attribute!r}")
        if type(self.low) is not type(self.high) or type(self.low) not in (int, str):
            raise TypeError(f"bounds of {self.attribute!r} must be two integers or two strings, "
                            f"not {self.low!r} and {self.high!r}")

    def admits(self, value) -> bool:
        return type(value) is type(self.low) and self.low <= value <= self.high


@attrs.frozen(order=True, cache_hash=True)
class Filter:
    """A conjunction of constraints, at most one per attribute (sorted): an event matches when
    every constrained attribute is present and within its bounds."""

    constraints: tuple[Constraint, ...]

    def __attrs_post_init__(self) -> None:
        if not isinstance(self.constraints, tuple) or not all(isinstance(c, Constraint) for c in self.constraints):
            raise TypeError(f"constraints must be a tuple of Constraint, not {self.constraints!r}")
        attributes = [c.attribute for c in self.constraints]
        if len(set(attributes)) != len(attributes):  # a second bound on one attribute would be ignored
            raise ValueError(f"a filter constrains each attribute at most once, not {attributes!r}")

    def matches(self, event: dict) -> bool:
        for c in self.constraints:   # a loop, not all(...): exhaustive search asks millions of times
            if c.attribute not in event or not c.admits(event[c.attribute]):
                return False
        return True

    def is_empty(self) -> bool:
        return any(c.low > c.high for c in self.constraints)

    def __str__(self) -> str:
        return _text(self)


@functools.lru_cache(maxsize=4096)   # widenings sort subscriptions by their text, millions of times a search
def _text(f: Filter) -> str:
    return " & ".join(f"{c.attribute}={c.low!r}" if c.low == c.high else f"{c.attribute} in {c.low!r}..{c.high!r}"
                      for c in f.constraints) or "true"


def make_filter(**bounds) -> Filter:
    """make_filter(price=(10, 20), symbol="IBM"): a range per (low, high) pair, else equality."""
    cs = []
    for attribute, b in sorted(bounds.items()):
        if isinstance(b, tuple) and len(b) != 2:
            raise ValueError(f"bounds of {attribute!r} must be a value or a (low, high) pair, not {b!r}")
        low, high = b if isinstance(b, tuple) else (b, b)
        if type(low) is not type(high) or not isinstance(low, (int, str)) or isinstance(low, bool):
            raise ValueError(f"bounds of {attribute!r} must be two integers or two strings, not {b!r}")
        cs.append(Constraint(attribute, low, high))
    return Filter(tuple(cs))


_TERM = re.compile(r"^\s*([A-Za-z_]\w*)\s*(==|=|>=|<=|\bin\b)\s*(.+?)\s*$")


def parse_filter(text: str) -> Filter:
    """'symbol = "IBM" & price in 10..20 & volume >= 100': conjunctions joined by '&' of
    'a = v', 'a >= v', 'a <= v' or 'a in lo..hi', values integers or double-quoted strings.
    A range with lo > hi is a valid empty filter: it matches nothing, and says so (is_empty)."""
    if not isinstance(text, str):
        raise TypeError(f"a filter is text such as 'price in 10..20', not {text!r}")
    if not text.strip():
        raise ValueError("a filter needs at least one constraint, e.g. 'price in 10..20'")
    bounds: dict[str, list] = {}

    def value(raw: str):
        raw = raw.strip()
        if re.fullmatch(r"-?\d+", raw):
            return int(raw)
        if re.fullmatch(r'"[^"]*"', raw):
            return raw[1:-1]
        raise ValueError(f"{raw!r} is neither an integer nor a double-quoted string")

    for term in text.split("&"):
        m = _TERM.match(term)
        if not m:
            raise ValueError(f"cannot read the constraint {term.strip()!r}; write 'a = v', 'a >= v', 'a <= v' "
                             "or 'a in lo..hi'")
        attribute, op, rest = m.groups()
        low, high = bounds.get(attribute, [None, None])
        # each bound once: 'x >= 1 & x <= 5' is a range, 'x = 1 & x = 2' would keep only the last
        if (op in ("=", "==", "in") and (low, high) != (None, None)) or (op == ">=" and low is not None) \
                or (op == "<=" and high is not None):
            raise ValueError(f"{attribute!r} is bounded twice in {text!r}; give each bound once")
        if op in ("=", "=="):
            low = high = value(rest)
        elif op == "in":
            if ".." not in rest:
                raise ValueError(f"a range is written 'lo..hi', not {rest!r}")
            low, high = (value(v) for v in rest.split("..", 1))
        elif op == ">=":
            low = value(rest)
        else:
            high = value(rest)
        bounds[attribute] = [low, high]
    cs = []
    for attribute, (low, high) in sorted(bounds.items()):
        if low is None or high is None:
            raise ValueError(f"{attribute!r} needs both bounds (open ranges are not supported): write "
                             f"'{attribute} in lo..hi'")
        if type(low) is not type(high):
            raise ValueError(f"{attribute!r} mixes an integer and a string bound")
        cs.append(Constraint(attribute, low, high))
    return Filter(tuple(cs))


def covers(f1: Filter, f2: Filter) -> bool:
    """f1 covers f2 (E_f1 contains E_f2): f2 matches nothing, or every attribute f1 constrains
    is constrained by f2 to a sub-interval of the same type."""
    if f2.is_empty():
        return True
    mine = {c.attribute: c for c in f2.constraints}
    for c in f1.constraints:
        d = mine.get(c.attribute)
        if d is None or type(d.low) is not type(c.low) or not (c.low <= d.low and d.high <= c.high):
            return False
    return True


def _check_filter(f, what: str = "f") -> Filter:
    if not isinstance(f, Filter):
        raise TypeError(f"{what} must be a spec.irbr.Filter (see make_filter, parse_filter), not {f!r}")
    return f


def check_event(event) -> dict:
    """An event: a dict from attribute names to integers or strings (an empty one matches only
    filters without constraints)."""
    if not isinstance(event, dict):
        raise TypeError(f"event must be a dict of attribute values, not {event!r}")
    for a, v in event.items():
        if not isinstance(a, str) or type(v) not in (int, str):
            raise TypeError(f"event attribute {a!r} must be a str with an integer or string value, not {v!r}")
    return event


@attrs.frozen
class CoveringQuestion:
    """Two filters: does `covers(f1, f2)` say what the events say?"""

    f1: Filter
    f2: Filter

    def __attrs_post_init__(self) -> None:
        _check_filter(self.f1, "f1")
        _check_filter(self.f2, "f2")


def deciding_events(f1: Filter, f2: Filter) -> list[dict]:
    """Events enough to tell whether f1 covers f2: every attribute of either filter absent or at a
    bound, one past a bound, of either filter (an event of f2 outside f1 can be moved to one of
    these without leaving f2 or entering f1)."""
    _check_filter(f1, "f1")
    _check_filter(f2, "f2")
    attributes = sorted({c.attribute for c in f1.constraints + f2.constraints})
    choices = []
    for a in attributes:
        values = {None}
        for c in f1.constraints + f2.constraints:
            if c.attribute == a:
                values |= {c.low, c.high}
                if isinstance(c.low, int):
                    values |= {c.low - 1, c.high + 1}
        choices.append(sorted(values, key=lambda v: (v is not None, type(v).__name__, v if v is not None else 0)))
    return [{a: v for a, v in zip(attributes, combo) if v is not None} for combo in itertools.product(*choices)]


def covers_decides_covering(q: CoveringQuestion) -> bool:
    semantic = all(q.f1.matches(e) for e in deciding_events(q.f1, q.f2) if q.f2.matches(e))
    return covers(q.f1, q.f2) == semantic


def a_strict_cover(q: CoveringQuestion) -> bool:
    return covers(q.f1, q.f2) and not covers(q.f2, q.f1)


register(Property(
    ALGORITHM, "covers_decides_covering", covers_decides_covering,
    "sec. 3.1: f1 covers f2 iff E_f1 contains E_f2 (the decision procedure the covering optimization uses)",
    witness=a_strict_cover, scope="sizes", subject="CoveringQuestion",
    question="the paper defines covering (sec. 3.1) and gives no procedure for it; whether spec.irbr.covers, "
             "which the covering rule uses, decides it is this project's question about its own spec"))
