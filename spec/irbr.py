"""IRBR over Pastry: identifier-range based content routing, as an executable specification.

Paper: Wang Jin-Ling, Jin Bei-Hong, Li Jing, "Building Reliable Content-Based Routing Protocol
over Structured P2P Networks", Journal of Software 17(5):1107-1114, 2006
(../shared/seeds/001_c5512f168a17e74d.txt).

    sec. 2     identifiers of L digits in base k; Pastry routing tables RT^n by prefix (Table 1),
               one live "representative" per prefix range; the per-source spanning tree by
               delegation of identifier ranges ("source based forwarding")
    sec. 3.1   filters, covering (f1 covers f2 iff E_f1 contains E_f2), the filter table
               FT^n = {(prefix, filter)}
    sec. 3.2   publish: the event follows the publisher's delegation tree, pruned where no entry
               of the range matches (Fig. 2)
    sec. 3.3   subscribe: broadcast on the subscriber's delegation tree; with the covering
               optimization, only inside the smallest range around the subscriber that an entry
               covering the filter already stands for (Fig. 3)
    abstract   exactly-once delivery to every interested subscriber "as long as the message from
               publisher to subscriber is arrivable"
    sec. 3.4   unsubscribe, with a named design for its "special handling"
    sec. 3.5   (1) ordering by Lamport-like clocks, (2) the concurrency rule after an unsubscribe,
               (3) join and leave: each left open by the paper, each a named reading here

The file reads in the paper's order: identifiers and routing (sec. 2), filters and covering
(sec. 3.1, with its claim), then the readings (every rule the paper leaves open, one `Reading`
type, and `READINGS`, the catalogue of the readings this project checks), then two models, each
in its own section with its state, its actions and the claims judged on its runs:

  I.  Operations one at a time: a subscribe, unsubscribe, failure, join or leave completes before
      the next starts; routing tables are repaired after failures (what "arrivable" means here:
      every live node's table names a live representative for every range that still has a live
      node), stale, or stale with alternates. Its claims judge a `PublishRun`.
  II. Messages in flight: a script of concurrent operations whose messages are delivered in any
      order, with crashes at any moment, under the ordering, concurrency and forwarding reading. It
      reuses model I's state and handlers; its claims judge a `FlightRun`.

The readings this project chose as corrections are the defaults: covering-ordered (the literal
covering rule lets two equal filters count on each other), resubscribe-uncovered, copy-closest
joins, lamport, widen-then-withdraw and retry-alternate; each literal or weaker alternative stays
selectable, and docs/irbr.md gives the verdict of each. The Scribe baseline (sec. 4) is in
reference/irbr.py.

Filters are conjunctions of equality and range constraints on named attributes (integers or
strings); `covers` decides covering exactly (checks/algorithms/irbr cross-checks it with Z3). The
filter table keeps each entry's subscriber beside (prefix, filter), so that an unsubscribe can
remove exactly its own entries; the paper's FT is the projection on (prefix, filter).
"""

from __future__ import annotations

import itertools
import re
import zlib
from typing import Iterable

import attrs

from spec.registry import Property, register

ALGORITHM = "irbr"
DIGITS = "0123456789abcdefghijklmnopqrstuvwxyz"


# --------------------------------------------------------------------------------------------
# Identifiers and Pastry routing (sec. 2, Table 1)
# --------------------------------------------------------------------------------------------

@attrs.frozen
class Space:
    """Identifiers of L digits in base k (digits 0-9 then a-z)."""

    k: int
    L: int

    def __attrs_post_init__(self) -> None:
        for name, value in (("the base k", self.k), ("the identifier length L", self.L)):
            if not isinstance(value, int) or isinstance(value, bool):
                raise TypeError(f"{name} must be an integer, not {value!r}")
        if not 2 <= self.k <= len(DIGITS):
            raise ValueError(f"the base k must be an integer in 2..{len(DIGITS)}, not {self.k!r}")
        if self.L < 1:
            raise ValueError(f"the identifier length L must be a positive integer, not {self.L!r}")

    @property
    def digits(self) -> str:
        return DIGITS[:self.k]

    def check(self, node_id) -> str:
        if not isinstance(node_id, str) or len(node_id) != self.L:
            raise ValueError(f"identifier {node_id!r} must be a string of {self.L} digits")
        bad = sorted(set(node_id) - set(self.digits))
        if bad:
            raise ValueError(f"identifier {node_id!r} has digit(s) {bad} outside base {self.k} ({self.digits})")
        return node_id

    def identifiers(self) -> list[str]:
        out = [""]
        for _ in range(self.L):
            out = [p + d for p in out for d in self.digits]
        return out


def common_prefix_length(a: str, b: str) -> int:
    n = 0
    while n < min(len(a), len(b)) and a[n] == b[n]:
        n += 1
    return n


def choose_representative(n: str, prefix: str, members: list[str], representative: str) -> str:
    """`members`: the range's nodes, sorted."""
    if not members:
        raise ValueError(f"the range {prefix!r} has no members to choose a representative from")
    check_choice("representative choice", representative, REPRESENTATIVES)
    if representative == "smallest":
        return members[0]
    if representative == "largest":
        return members[-1]
    return members[zlib.crc32(f"{n}/{prefix}".encode()) % len(members)]


def routing_table(space: Space, n: str, live: Iterable[str], representative: str = "smallest") -> dict[str, str]:
    """RT^n as {prefix: representative}: for each level l and digit d != n[l], the range of
    identifiers starting n[:l] + d, if a live node lies in it (Table 1)."""
    if not isinstance(space, Space):
        raise TypeError(f"space must be a spec.irbr.Space, not {space!r}")
    space.check(n)
    if isinstance(live, (str, bytes)):
        raise TypeError(f"live must be a collection of identifiers, not {live!r}")
    check_choice("representative choice", representative, REPRESENTATIVES)
    ranges: dict[str, list[str]] = {}
    for other in live:
        if other != n:
            ranges.setdefault(other[:common_prefix_length(n, other) + 1], []).append(other)
    return {prefix: choose_representative(n, prefix, sorted(members), representative)
            for prefix, members in sorted(ranges.items())}


def delegated_ranges(n: str, table: dict[str, str], level: int) -> list[tuple[str, str]]:
    """A node responsible for the range n[:level] delegates each sub-range of its table at levels
    >= level to that range's representative (source based forwarding, sec. 2)."""
    return [(prefix, rep) for prefix, rep in table.items() if len(prefix) > level]


# --------------------------------------------------------------------------------------------
# Filters and covering (sec. 3.1)
# --------------------------------------------------------------------------------------------

@attrs.frozen(order=True)
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


@attrs.frozen(order=True)
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
        return all(c.attribute in event and c.admits(event[c.attribute]) for c in self.constraints)

    def is_empty(self) -> bool:
        return any(c.low > c.high for c in self.constraints)

    def __str__(self) -> str:
        return " & ".join(f"{c.attribute}={c.low!r}" if c.low == c.high else f"{c.attribute} in {c.low!r}..{c.high!r}"
                          for c in self.constraints) or "true"


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
    witness=a_strict_cover, scope="sizes", subject="CoveringQuestion"))


# --------------------------------------------------------------------------------------------
# Readings: every rule the paper leaves open, gathered before the actions that follow them
# --------------------------------------------------------------------------------------------
# Each rule is a tuple of named choices, the first this project's default. The first five are
# read by both models; ordering, concurrency and forwarding only by messages in flight (model II).

REPRESENTATIVES = ("smallest", "largest", "per-node")
# Which live node of a range a routing table names: Pastry picks by network proximity, which the
# paper does not model; any node of the range serves (sec. 3.2). smallest / largest: every node
# names the same one; per-node: each node names its own, a fixed pseudo-random member of the
# range (crc32 of the node and the prefix), standing in for proximity.

TABLE_READINGS = ("repaired", "stale", "stale-alternates")
# repaired: after failures every live node's table is rebuilt from the live nodes (Pastry's table
#   repair; what "arrivable" means here). stale: tables keep failed representatives, and a copy
#   sent to one is lost. stale-alternates: tables are not rebuilt, but a sender whose
#   representative has failed sends to another live node of the range at once (sec. 3.2: "a
#   message only needs to reach any node of the target range").

COVERING = ("covering-ordered", "covering", "no-covering")
# Sec. 3.3 lets a subscription go less far when an entry's filter covers it. covering (the text
# read literally): any other subscription whose filter covers f counts, an equal filter of another
# node or another of n's own included. Two equal filters can then each count on the other: after
# the filter covering both is withdrawn, neither is sent on (exhaustive search, 4 operations).
# covering-ordered (this project's correction): a filter that covers f and is covered by it (an
# equal one) counts only if its subscriber's identifier is smaller than n's, so "counts on" is a
# strict order and has no cycles.

UNSUBSCRIBE = ("resubscribe-uncovered", "remove-only")
# Sec. 3.4 says an unsubscribed filter "may have covered" other nodes' filters, which then "need
# special handling", and no more. remove-only: every node drops the unsubscriber's entries for the
# filter, nothing else. resubscribe-uncovered (this project's design): in addition, every node
# that gets the unsubscribe re-evaluates each of its own subscriptions; one that had been sent
# less far than the covering rule now allows is sent on to the ranges it had skipped.

JOINS = ("copy-closest", "ask-subscribers")
# Sec. 3.5 (3): a joining node "initializes its filter table from other nodes' information", no
# more. Both designs first let Pastry's join put the node into every table (tables are rebuilt
# from the known identifiers: under the stale readings failed nodes stay known).
# copy-closest (the sentence read literally): n copies the filter table of the live node m
# sharing the longest prefix with it (where Pastry's join ends), each entry re-aimed at n's range
# toward its subscriber, m's own subscriptions included. ask-subscribers (a tighter design this
# project tried): n asks each subscriber named in m's table whether its subscription was sent as
# far as n (cpl(n, s) >= the level it was sent from) and records just those; a failed subscriber
# cannot answer, so its entry, on which another subscription may still count, is not copied, and
# exhaustive search finds the event that is lost for it (4 operations).

# Messages in flight (model II) add three rules the paper names but leaves open (sec. 3.5):

ORDERINGS = ("lamport", "arrival")
# Sec. 3.5 (1): an unsubscribe may overtake the subscribe it withdraws; IRBR uses "a mechanism
# like Lamport's clocks". lamport (this project's reading): every subscribe and unsubscribe
# carries its subscriber's clock (here its script position; subscriptions made beforehand: -1),
# every node keeps the latest clock it has seen per (subscriber, filter), a withdrawn one too,
# and drops a message older than that. arrival: messages take effect in the order they arrive.

CONCURRENCY = ("widen-then-withdraw", "withdraw-at-once", "widen-then-withdraw-settled")
# Sec. 3.5 (2): after an unsubscribe a node "monitors the messages arriving for a while and takes
# measures against inconsistency". withdraw-at-once: the unsubscribe removes entries as it
# spreads, and the widenings it triggers follow (the one-at-a-time operation's steps as
# messages). widen-then-withdraw (this project's design): an "uncover" notice spreads first;
# each receiver stops counting on the withdrawn entries and widens its own subscriptions, the
# entries staying in place for forwarding; once no notice nor widening is in flight (the
# acknowledgements, abstracted to that condition), the withdrawal itself spreads.
# widen-then-withdraw-settled (this project's repair for operations at different nodes, issue
# 10): as widen-then-withdraw, and a subscription counts on a covering entry only once that
# entry's subscription has settled (no subscribe or widening of it in flight, acknowledgements
# abstracted likewise); otherwise a subscription can count on a covering one still on its way
# while the entry it counted on before is withdrawn, and a steady subscriber misses an event.

FORWARDING = ("retry-alternate", "fire-and-forget")
# A message to a node that has crashed: fire-and-forget loses it. retry-alternate (this project's
# design, after sec. 3.2: "a message only needs to reach any node of the target range"): the
# sender sees the failure and re-sends the message to the smallest live node of the same range,
# if there is one. Handlers are atomic, so the crashed node had not passed the message on and
# the retry duplicates nothing.


def check_choice(what: str, value: str, known: tuple) -> None:
    if value not in known:
        raise ValueError(f"unknown {what} {value!r}; known: {', '.join(known)}")


# The choices that are not the printed text: sec. 3.3's covering rule ordered by subscriber is this
# project's repair, and so is counting only on settled subscriptions (sec. 3.5 with operations at
# two nodes); no covering, tables never repaired (the paper relies on the P2P layer's repair) and
# sec. 3.5 without its monitoring, clocks or retries take a rule of the paper out.
ORIGIN_OF_CHOICE = {"covering-ordered": "repair", "widen-then-withdraw-settled": "repair",
                    "no-covering": "ablation", "stale": "ablation", "stale-alternates": "ablation",
                    "withdraw-at-once": "ablation", "arrival": "ablation", "fire-and-forget": "ablation"}


@attrs.frozen
class Reading:
    """One choice per rule above. Named covering/tables/representative/unsubscribe, then each of
    join, ordering, concurrency and forwarding that is not its default, in that order; model I
    follows the first five fields, model II all eight."""

    covering: str = "covering-ordered"
    tables: str = "repaired"
    representative: str = "smallest"
    unsubscribe: str = "resubscribe-uncovered"
    join: str = "copy-closest"
    ordering: str = "lamport"
    concurrency: str = "widen-then-withdraw"
    forwarding: str = "retry-alternate"

    def __attrs_post_init__(self) -> None:
        for what, value, known in (("covering reading", self.covering, COVERING),
                                   ("table reading", self.tables, TABLE_READINGS),
                                   ("representative choice", self.representative, REPRESENTATIVES),
                                   ("unsubscribe handling", self.unsubscribe, UNSUBSCRIBE),
                                   ("join design", self.join, JOINS),
                                   ("ordering", self.ordering, ORDERINGS),
                                   ("concurrency rule", self.concurrency, CONCURRENCY),
                                   ("forwarding", self.forwarding, FORWARDING)):
            check_choice(what, value, known)

    @property
    def name(self) -> str:
        optional = [v for v, known in ((self.join, JOINS), (self.ordering, ORDERINGS),
                                       (self.concurrency, CONCURRENCY), (self.forwarding, FORWARDING))
                    if v != known[0]]
        return "/".join([self.covering, self.tables, self.representative, self.unsubscribe] + optional)

    def network(self, space: Space, ids: Iterable[str]) -> "Network":
        return network(space, ids, self.representative, self.tables)

    @property
    def origin(self) -> str:
        """Where the reading stands to the printed text (checks.plugin.ORIGINS), from its choices
        (ORIGIN_OF_CHOICE): an ablation if it takes out one of the paper's rules, else a repair if it
        repairs a printed rule, else printed (the printed rules, and a choice where the text is
        silent: which member represents a range, the unsubscribe's unspecified special handling,
        sec. 3.5's rules that the paper names but does not give)."""
        origins = {ORIGIN_OF_CHOICE.get(value, "printed") for value in attrs.astuple(self)}
        return next((o for o in ("ablation", "repair") if o in origins), "printed")


@attrs.frozen
class Checked:
    """A reading in the catalogue: the runs it is judged on (the `subject` of the properties that
    judge it: "PublishRun", model I; "FlightRun", model II), whether the Spark job also replays
    the reference under it, and in one line what it is."""

    reading: Reading
    runs: tuple[str, ...]
    spark: bool
    note: str

    @property
    def name(self) -> str:
        return self.reading.name


# The catalogue: every reading this project checks, by name. Exhaustive search and hypothesis
# judge model I under each reading with "PublishRun", exhaustive search model II under each with
# "FlightRun", and the Spark job replays the reference under each with spark=True.
READINGS: dict[str, Checked] = {c.name: c for c in (
    Checked(Reading(), ("PublishRun", "FlightRun"), True,
            "this project's corrections: covering-ordered, repaired tables, resubscribe-uncovered, copy-closest "
            "joins; in flight lamport, widen-then-withdraw, retry-alternate"),
    Checked(Reading("covering"), ("PublishRun",), True,
            "sec. 3.3 read literally: any covering entry counts, an equal filter too (with this project's "
            "resubscribe-uncovered unsubscribe)"),
    Checked(Reading("covering", unsubscribe="remove-only"), ("PublishRun",), False,
            "sec. 3.3 and 3.4 as printed: any covering entry counts, and an unsubscribe only removes entries "
            "(the special handling sec. 3.4 asks for is not given)"),
    Checked(Reading("no-covering"), ("PublishRun",), True, "no covering optimization: every subscription goes "
            "everywhere"),
    Checked(Reading(tables="stale-alternates"), ("PublishRun",), True,
            "tables not repaired; a sender whose representative failed uses another live node of the range"),
    Checked(Reading(tables="stale"), ("PublishRun",), True,
            "tables not repaired; a copy to a failed representative is lost (negative control)"),
    Checked(Reading(representative="largest"), ("PublishRun",), False,
            "every table names the largest live node of a range"),
    Checked(Reading(representative="per-node"), ("PublishRun",), False,
            "each node names its own member of a range, standing in for proximity"),
    Checked(Reading(unsubscribe="remove-only"), ("PublishRun", "FlightRun"), True,
            "sec. 3.4 without its special handling: an unsubscribe only removes entries"),
    Checked(Reading("no-covering", unsubscribe="remove-only"), ("PublishRun",), False,
            "remove-only where nothing counts on another entry"),
    Checked(Reading(join="ask-subscribers"), ("PublishRun",), False,
            "a joining node copies only the entries whose subscribers say they reach it"),
    Checked(Reading(concurrency="withdraw-at-once"), ("FlightRun",), False,
            "sec. 3.5 (2) without monitoring: an unsubscribe withdraws entries as it spreads"),
    Checked(Reading(ordering="arrival"), ("FlightRun",), False,
            "sec. 3.5 (1) without clocks: messages take effect in the order they arrive"),
    Checked(Reading(forwarding="fire-and-forget"), ("FlightRun",), False,
            "a message to a crashed node is lost"),
    Checked(Reading("no-covering", concurrency="withdraw-at-once"), ("FlightRun",), False,
            "withdraw-at-once where no subscription waits on a widening"),
    Checked(Reading(concurrency="widen-then-withdraw-settled"), ("FlightRun",), False,
            "widen-then-withdraw, counting only on covering subscriptions that have settled (the repair for "
            "operations at different nodes)"),
)}


# ============================================================================================
# Model I: operations one at a time
# ============================================================================================
# A subscribe, unsubscribe, failure, join or leave completes before the next starts. The
# readings it follows: covering, tables, representative, unsubscribe, join.

# --------------------------------------------------------------------------------------------
# State: the network (live nodes, routing tables, filter tables)
# --------------------------------------------------------------------------------------------

@attrs.frozen(cache_hash=True)
class Network:
    space: Space
    live: frozenset
    tables: tuple          # sorted (node, ((prefix, representative), ...)) for every live node
    filters: frozenset     # (node, prefix, filter, subscriber): FT^node holds (prefix, filter)
    reach: frozenset = frozenset()  # (subscriber, filter, level): how far each subscription was sent
    representative: str = "smallest"
    tables_after_failure: str = "repaired"
    known: frozenset = frozenset()  # the identifiers the tables were built from (stale: failed ones too)
    withdrawn: frozenset = frozenset()  # (node, subscriber, filter): entries kept, no longer counted on

    def table(self, n: str) -> dict[str, str]:
        try:
            return dict(dict(self.tables)[n])
        except (KeyError, TypeError):
            raise ValueError(f"{n!r} is not a live node") from None

    def ft(self, n: str) -> list[tuple[str, Filter, str]]:
        if n not in self.live:  # a failed node's table went with it; a typo has none either
            raise ValueError(f"{n!r} is not a live node")
        return sorted((p, f, s) for m, p, f, s in self.filters if m == n)


def tables_for(space: Space, live: frozenset, representative: str, known: frozenset | None = None) -> tuple:
    """Every live node's table, built from the `known` identifiers (the live ones by default)."""
    known = live if known is None else known
    return tuple((n, tuple(routing_table(space, n, known, representative).items())) for n in sorted(live))


def checked_ids(space: Space, ids: Iterable[str]) -> list[str]:
    """The identifiers, each checked against the space; duplicates and no nodes are refused."""
    if not isinstance(space, Space):
        raise TypeError(f"space must be a spec.irbr.Space, not {space!r}")
    if isinstance(ids, (str, bytes)) or not isinstance(ids, Iterable):  # a str's digits are no nodes
        raise TypeError(f"ids must be a collection of identifiers, not {ids!r}")
    ids = list(ids)
    seen, duplicates = set(), set()
    for n in ids:
        (duplicates if space.check(n) in seen else seen).add(n)
    if duplicates:
        raise ValueError(f"duplicate node identifiers: {sorted(duplicates)[:10]}")
    if not ids:
        raise ValueError("a network needs at least one node")
    return ids


def check_failures(live, nodes: set) -> None:
    unknown = sorted(nodes - set(live))
    if unknown:
        raise ValueError(f"cannot fail {unknown[:10]}: not live nodes")
    if nodes >= set(live):
        raise ValueError("every node would have failed")


def network(space: Space, ids: Iterable[str], representative: str = "smallest",
            tables_after_failure: str = "repaired") -> Network:
    ids = checked_ids(space, ids)
    check_choice("representative choice", representative, REPRESENTATIVES)
    check_choice("table reading", tables_after_failure, TABLE_READINGS)
    live = frozenset(ids)
    return Network(space, live, tables_for(space, live, representative), frozenset(), frozenset(),
                   representative, tables_after_failure, live)


# --------------------------------------------------------------------------------------------
# Actions: subscribe (sec. 3.3), unsubscribe (sec. 3.4), fail, leave and join (sec. 3.5 (3)),
# publish (sec. 3.2)
# --------------------------------------------------------------------------------------------

@attrs.frozen
class Spread:
    """Where one broadcast went: each (sender, receiver, range delegated) message, in order."""

    messages: tuple
    lost: tuple = ()  # messages addressed to a failed representative


def broadcast(net: Network, origin: str, from_level: int, forward=lambda node, prefix: True) -> Spread:
    """Source based forwarding from `origin`: delegate every range of its table at levels >=
    from_level, and so on down; `forward(node, prefix)` prunes. Breadth first, deterministic."""
    if origin not in net.live:
        raise ValueError(f"{origin!r} is not a live node")
    if not isinstance(from_level, int) or isinstance(from_level, bool) or not 0 <= from_level <= net.space.L:
        raise ValueError(f"from_level must be an integer in 0..{net.space.L}, not {from_level!r}")
    sent, lost = [], []
    frontier = [(origin, from_level)]
    while frontier:
        nxt = []
        for node, level in frontier:
            for prefix, rep in delegated_ranges(node, net.table(node), level):
                if not forward(node, prefix):
                    continue
                if rep not in net.live and net.tables_after_failure == "stale-alternates":
                    rep = min((m for m in net.live if m.startswith(prefix)), default=rep)
                if rep not in net.live:
                    lost.append((node, rep, prefix))
                    continue
                sent.append((node, rep, prefix))
                nxt.append((rep, len(prefix)))
        frontier = nxt
    return Spread(tuple(sent), tuple(lost))


def counts_on(f2: Filter, subscriber: str, f: Filter, n: str, covering: str = "covering-ordered") -> bool:
    """Whether n's subscription f may count on the entry (f2, subscriber) to go less far."""
    if covering == "no-covering" or not covers(f2, f):
        return False
    if covering == "covering":
        return (f2, subscriber) != (f, n)  # a subscription does not cover itself
    return not covers(f, f2) or subscriber < n


def subscribe_level(net: Network, n: str, f: Filter, covering: str = "covering-ordered") -> int:
    """How far n's subscription must go (sec. 3.3): 0 is everywhere. An entry (q, f2) of FT^n that
    f may count on stands, for every node outside the range n and q share, for interest in f2
    there, so n sends only inside the longest such shared range (L: nowhere, when n itself has f2)."""
    best = 0
    for q, f2, subscriber in net.ft(n):
        if counts_on(f2, subscriber, f, n, covering) and (n, subscriber, f2) not in net.withdrawn:
            best = max(best, common_prefix_length(q, n))
    return best


def subscribe(net: Network, n: str, f: Filter, covering: str = "covering-ordered") -> tuple[Network, Spread]:
    """n's own entry (n, f), then every receiver m records (its prefix toward n, f). An empty
    filter (a range lo > hi) is a valid subscription that no event matches."""
    if n not in net.live:
        raise ValueError(f"{n!r} is not a live node")
    _check_filter(f)
    check_choice("covering reading", covering, COVERING)
    level = subscribe_level(net, n, f, covering)
    spread = broadcast(net, n, level)
    return record(net, n, f, spread, level), spread


def record(net: Network, n: str, f: Filter, spread: Spread, level: int) -> Network:
    entries = {(n, n, f, n)} | {(m, n[:common_prefix_length(m, n) + 1], f, n) for _, m, _ in spread.messages}
    reach = {(s, g, lvl) for s, g, lvl in net.reach if (s, g) != (n, f)}
    before = min((lvl for s, g, lvl in net.reach if (s, g) == (n, f)), default=net.space.L)
    return attrs.evolve(net, filters=net.filters | entries, reach=frozenset(reach | {(n, f, min(level, before))}))


def unsubscribe(net: Network, n: str, f: Filter, handling: str = "resubscribe-uncovered",
                covering: str = "covering-ordered") -> tuple[Network, Spread]:
    """n withdraws f: the unsubscribe goes over n's whole delegation tree (the subscription may
    have gone anywhere a later widening sent it) and each receiver drops (., f, n)."""
    if n not in net.live:
        raise ValueError(f"{n!r} is not a live node")
    _check_filter(f)
    check_choice("covering reading", covering, COVERING)
    if (n, n, f, n) not in net.filters:
        raise ValueError(f"{n!r} has no subscription {f}")
    check_choice("unsubscribe handling", handling, UNSUBSCRIBE)
    spread = broadcast(net, n, 0)
    heard = {n} | {m for _, m, _ in spread.messages}  # a lost message leaves its range's entries
    net = attrs.evolve(net, filters=frozenset(e for e in net.filters if e[0] not in heard or (e[2], e[3]) != (f, n)),
                       reach=frozenset(r for r in net.reach if r[:2] != (n, f)))
    if handling == "resubscribe-uncovered":
        for m in sorted(heard):
            for s, g, sent in sorted(net.reach, key=lambda r: (r[0], str(r[1]))):
                if s != m or s not in net.live:
                    continue
                needed = subscribe_level(net, s, g, covering)
                if needed < sent:  # widen: the skipped ranges, levels needed .. sent - 1
                    wider = broadcast(net, s, needed, lambda node, prefix, s=s, sent=sent:
                                      node != s or len(prefix) <= sent)
                    net = record(net, s, g, wider, needed)
    return net, spread


def fail(net: Network, nodes: Iterable[str]) -> Network:
    """Nodes crash at once; their filter tables go with them. Under `repaired` every live node's
    table is rebuilt from the live nodes; under `stale` tables still name the failed nodes."""
    if isinstance(nodes, (str, bytes)) or not isinstance(nodes, Iterable):  # fail("01") is not fail(["0", "1"])
        raise TypeError(f"nodes must be a collection of identifiers, not {nodes!r}")
    nodes = set(nodes)
    check_failures(net.live, nodes)
    live = net.live - nodes
    filters = frozenset(e for e in net.filters if e[0] in live)
    reach = frozenset(r for r in net.reach if r[0] in live)
    known = live if net.tables_after_failure == "repaired" else net.known or net.live
    tables = tables_for(net.space, live, net.representative) if net.tables_after_failure == "repaired" else \
        tuple((n, t) for n, t in net.tables if n in live)
    return attrs.evolve(net, live=live, tables=tables, filters=filters, reach=reach, known=known)


def leave(net: Network, n: str, handling: str = "resubscribe-uncovered",
          covering: str = "covering-ordered") -> Network:
    """Sec. 3.5 (3): a node leaving "should affect the propagation of messages as little as
    possible". This project's design: it unsubscribes each of its filters (so the subscriptions
    they covered are widened first), then departs as a failure would (tables as the reading has
    them after a failure)."""
    if n not in net.live:
        raise ValueError(f"{n!r} is not a live node")
    check_choice("unsubscribe handling", handling, UNSUBSCRIBE)  # even with no filter to withdraw
    check_choice("covering reading", covering, COVERING)
    for _, f, _ in [e for e in net.ft(n) if e[0] == n and e[2] == n]:
        net, _ = unsubscribe(net, n, f, handling, covering)
    return fail(net, [n])


def join(net: Network, n: str, design: str = "copy-closest") -> tuple[Network, int]:
    """Node n joins (a fresh node: an identifier that is not live). Returns the network and the
    messages the filter-table initialization took (the Pastry join itself is not counted)."""
    net.space.check(n)
    check_choice("join design", design, JOINS)
    if n in net.live:
        raise ValueError(f"{n!r} is already a live node")
    live = net.live | {n}
    known = live if net.tables_after_failure == "repaired" else (net.known or net.live) | {n}
    closest = min(net.live, key=lambda m: (-common_prefix_length(n, m), m))
    # entries naming n were left by an earlier node with n's identifier: not the newcomer's
    copied = [(f, s) for m, _, f, s in net.filters if m == closest and s != n]
    if design == "copy-closest":
        entries = {(n, s[:common_prefix_length(n, s) + 1], f, s) for f, s in copied}
        messages = 1
    else:
        subscribers = {s for _, s in copied}
        entries = {(n, s[:common_prefix_length(n, s) + 1], f, s) for s, f, level in net.reach
                   if s in subscribers and common_prefix_length(n, s) >= level}
        messages = 1 + 2 * len(subscribers)
    net = attrs.evolve(net, live=live, known=known, tables=tables_for(net.space, live, net.representative, known),
                       filters=net.filters | entries)
    return net, messages


def operate(net: Network, op: tuple, reading: Reading = Reading()) -> tuple[Network, str]:
    """One operation, ("subscribe" | "unsubscribe", node, filter) or ("fail" | "leave" |
    "join", node), under the reading; returns the network and a line saying what it did."""
    if not isinstance(reading, Reading):
        raise TypeError(f"reading must be a spec.irbr.Reading, not {reading!r}")
    if not isinstance(op, tuple) or len(op) < 2 or (op[0] in ("subscribe", "unsubscribe") and len(op) < 3):
        raise ValueError(f"an operation is (kind, node) or (subscribe | unsubscribe, node, filter), not {op!r}")
    kind, node = op[0], op[1]
    if kind == "subscribe":
        net, spread = subscribe(net, node, op[2], reading.covering)
        return net, (f"{node} subscribes {op[2]}: {len(spread.messages)} messages "
                     f"{[(a, b) for a, b, _ in spread.messages]}" + (f", lost {list(spread.lost)}" if spread.lost else ""))
    if kind == "unsubscribe":
        net, spread = unsubscribe(net, node, op[2], reading.unsubscribe, reading.covering)
        return net, f"{node} unsubscribes {op[2]}: {len(spread.messages)} messages"
    if kind == "fail":
        return fail(net, [node]), f"{node} fails"
    if kind == "leave":
        return leave(net, node, reading.unsubscribe, reading.covering), \
            f"{node} leaves (unsubscribes its filters, then departs)"
    if kind == "join":
        net, messages = join(net, node, reading.join)
        return net, (f"{node} joins ({reading.join}, {messages} messages); its filter table "
                     f"{[(p, str(f), s) for p, f, s in net.ft(node)]}")
    raise ValueError(f"unknown operation {kind!r} (subscribe, unsubscribe, fail, leave, join)")


@attrs.frozen
class Publication:
    """One event published: who was notified (node -> times), messages, what was lost."""

    publisher: str
    event: tuple             # sorted (attribute, value) pairs
    notified: tuple          # sorted (node, times)
    received: tuple          # sorted (node, copies received from other nodes)
    messages: int
    lost: tuple = ()


def interested(net: Network, event: dict) -> list[str]:
    check_event(event)
    return sorted({s for m, p, f, s in net.filters if m == s == p and s in net.live and f.matches(event)})


def publish(net: Network, publisher: str, event: dict) -> Publication:
    """The event follows the publisher's delegation tree, into a range only if an entry of the
    sender's FT for that range matches (Fig. 2); a node notifies its application if one of its
    own filters matches."""
    check_event(event)
    if publisher not in net.live:
        raise ValueError(f"{publisher!r} is not a live node")
    matching = {(m, p) for m, p, f, _ in net.filters if f.matches(event)}
    spread = broadcast(net, publisher, 0, lambda node, prefix: (node, prefix) in matching)
    notified: dict[str, int] = {}
    received: dict[str, int] = {}
    for node in [publisher] + [m for _, m, _ in spread.messages]:
        if (node, node) in matching:
            notified[node] = notified.get(node, 0) + 1
    for _, m, _ in spread.messages:
        received[m] = received.get(m, 0) + 1
    return Publication(publisher, tuple(sorted(event.items())), tuple(sorted(notified.items())),
                       tuple(sorted(received.items())), len(spread.messages), tuple(sorted(spread.lost)))


# --------------------------------------------------------------------------------------------
# Claims on a PublishRun: one event published on a network of model I
# --------------------------------------------------------------------------------------------

@attrs.frozen
class PublishRun:
    """One event published, as the claims see it, whichever implementation produced it: the
    publication, the live subscribers whose subscription matches the event, the live nodes, and
    the (sender, receiver) pairs of the unpruned delegation tree from the publisher, sorted."""

    publication: Publication
    interested: frozenset
    live: frozenset
    spanning: tuple


def publish_run(net: Network, publisher: str, event: dict) -> PublishRun:
    return PublishRun(publish(net, publisher, event), frozenset(interested(net, event)), net.live,
                      tuple(sorted((a, b) for a, b, _ in broadcast(net, publisher, 0).messages)))


def every_interested_subscriber_notified_exactly_once(run: PublishRun) -> bool:
    """Abstract: "the subscribing nodes always receive the interested events exactly once as long
    as the message from publishing nodes to subscribing nodes is arrivable"."""
    want = set(run.interested)
    got = dict(run.publication.notified)
    return set(got) == want and all(c == 1 for c in got.values())


def no_node_receives_an_event_twice(run: PublishRun) -> bool:
    return all(c == 1 for _, c in run.publication.received) and \
        run.publication.publisher not in dict(run.publication.received)


def delegation_reaches_every_live_node_once(run: PublishRun) -> bool:
    """Sec. 2: the delegation tree of every node spans the live nodes (no pruning). A copy lost
    to a range with no live node left harms no one; a live node missed or reached twice does."""
    return sorted(m for _, m in run.spanning) == sorted(run.live - {run.publication.publisher})


def a_remote_subscriber_is_interested(run: PublishRun) -> bool:
    return any(s != run.publication.publisher for s in run.interested)


def relays_through_a_node(run: PublishRun) -> bool:
    """Some copy went through a node other than the publisher (a two-level delegation)."""
    return any(m != run.publication.publisher for m, _ in run.spanning)


# A group the checks name (by this name: grep a property, then its group): what one publication of
# model I is held to.
PUBLISH_PROPERTIES = [register(p) for p in (
    Property(ALGORITHM, "every_interested_subscriber_notified_exactly_once",
             every_interested_subscriber_notified_exactly_once,
             "abstract, sec. 3: every interested subscriber receives each event exactly once as long as it is "
             "arrivable from the publisher", witness=a_remote_subscriber_is_interested, subject="PublishRun"),
    Property(ALGORITHM, "no_node_receives_an_event_twice", no_node_receives_an_event_twice,
             "sec. 2, 3.2: an event travels the publisher's delegation tree, so no node gets it twice",
             witness=a_remote_subscriber_is_interested, subject="PublishRun"),
    Property(ALGORITHM, "delegation_reaches_every_live_node_once", delegation_reaches_every_live_node_once,
             "sec. 2: delegating identifier ranges builds a spanning tree rooted at each node",
             witness=relays_through_a_node, subject="PublishRun"),
)]


# ============================================================================================
# Model II: messages in flight (sec. 3.5): concurrent operations, any delivery order, crashes
# ============================================================================================
# A script of operations; a node starts its own operations in script order, different nodes'
# in any order. Each operation sends its messages hop by hop over the delegation tree, and any
# message in flight may be delivered next (messages from one node to another can overtake each
# other: "messages may arrive along different paths"). A crash removes a node. Handlers are the
# atomic operations' steps of model I, applied at the receiver when the message arrives, with
# the receiver's tables at that moment. It follows all eight fields of a Reading: ordering,
# concurrency and forwarding besides model I's.

# --------------------------------------------------------------------------------------------
# State: a network with operations under way
# --------------------------------------------------------------------------------------------

@attrs.frozen(cache_hash=True)
class Flight:
    """A network with operations under way: `started` script indices, messages in flight as
    (kind, origin, item, sender, receiver, range prefix, clock), notifications (event index,
    node, times), clocks seen (node, subscriber, filter, clock), unsubscribes whose withdrawal
    waits for their widenings (`pending`)."""

    net: Network
    started: frozenset = frozenset()
    flight: frozenset = frozenset()
    notified: tuple = ()
    crashes: int = 0
    clocks: frozenset = frozenset()
    pending: frozenset = frozenset()
    reordered: bool = False  # a subscribe or unsubscribe arrived after a newer one of its subscription
    collided: bool = False   # a message was sent while an identical one was in flight (a duplicate)


# --------------------------------------------------------------------------------------------
# Actions: an operation starts, a message arrives, a withdrawal spreads, a node crashes
# --------------------------------------------------------------------------------------------

def _post(state: Flight, messages: set) -> Flight:
    """Put messages in flight; one identical to a message already in flight would merge with it
    in the set, so it is recorded as a duplicate (the claims count it against exactly-once)."""
    return attrs.evolve(state, flight=state.flight | messages, collided=state.collided or bool(state.flight & messages))


def _send(kind: str, origin: str, item, node: str, net: Network, level: int, clock: int, forward=None) -> set:
    return {(kind, origin, item, node, rep, prefix, clock) for prefix, rep in delegated_ranges(node, net.table(node), level)
            if forward is None or forward(node, prefix)}


def _event_forward(net: Network, event: dict):
    matching = {(m, p) for m, p, f, _ in net.filters if f.matches(event)}
    return lambda node, prefix: (node, prefix) in matching


def _notify(state: Flight, k: int, node: str, event: dict) -> tuple:
    if any(m == s == p == node and f.matches(event) for m, p, f, s in state.net.filters):
        counts = dict(((e, n), c) for e, n, c in state.notified)
        counts[(k, node)] = counts.get((k, node), 0) + 1
        return tuple(sorted((e, n, c) for (e, n), c in counts.items()))
    return state.notified


def _clock_of(state: Flight, node: str, subscriber: str, f: Filter) -> int:
    return max((c for m, s, g, c in state.clocks if (m, s, g) == (node, subscriber, f)), default=-1)


def _see(state: Flight, node: str, subscriber: str, f: Filter, clock: int) -> Flight:
    kept = frozenset(e for e in state.clocks if e[:3] != (node, subscriber, f))
    return attrs.evolve(state, clocks=kept | {(node, subscriber, f, clock)})


def _counted(state: Flight, node: str, reading: Reading) -> Network:
    """The network as `node` may count on it: under widen-then-withdraw-settled, not on an entry
    whose subscription is still on its way (a subscribe or widening of it in flight)."""
    if reading.concurrency != "widen-then-withdraw-settled":
        return state.net
    unsettled = {(node, m[1], m[2]) for m in state.flight if m[0] in ("sub", "widen")}
    return attrs.evolve(state.net, withdrawn=state.net.withdrawn | unsettled)


def _widen_uncovered(state: Flight, node: str, reading: Reading) -> Flight:
    """At one node: its own subscriptions the covering rule now sends farther go on to the ranges
    they had skipped (as in `unsubscribe`, here as "widen" messages)."""
    net, sent = state.net, set()
    for s, g, reached in sorted(net.reach, key=lambda r: (r[0], str(r[1]))):
        needed = subscribe_level(_counted(attrs.evolve(state, net=net), node, reading), s, g, reading.covering) \
            if s == node else reached
        if needed < reached:
            net = record(net, s, g, Spread(()), needed)
            sent |= _send("widen", s, g, s, net, needed, _clock_of(state, s, s, g),
                          lambda n, prefix, reached=reached: len(prefix) <= reached)
    return _post(attrs.evolve(state, net=net), sent)


def _drop_entries(net: Network, node: str, f: Filter, subscriber: str) -> Network:
    return attrs.evolve(net, filters=frozenset(e for e in net.filters if not (e[0] == node and e[2:] == (f, subscriber))),
                        withdrawn=net.withdrawn - {(node, subscriber, f)})


def start(state: Flight, script: tuple, k: int, reading: Reading = Reading()) -> Flight:
    """Operation k of the script begins at its node (nothing happens at a crashed node)."""
    _check_script_index(script, k)
    if k in state.started:
        raise ValueError(f"operation {k} of the script has already started")
    kind, node, item = script[k]
    state = attrs.evolve(state, started=state.started | {k})
    net = state.net
    if node not in net.live:
        return state
    if kind == "subscribe":
        if (node, node, item, node) in net.filters:
            return state
        level = subscribe_level(_counted(state, node, reading), node, item, reading.covering)
        state = _see(attrs.evolve(state, net=record(net, node, item, Spread(()), level)), node, node, item, k)
        return _post(state, _send("sub", node, item, node, state.net, level, k))
    if kind == "unsubscribe":
        if (node, node, item, node) not in net.filters:
            return state
        net = attrs.evolve(_drop_entries(net, node, item, node), reach=frozenset(r for r in net.reach if r[:2] != (node, item)))
        state = _see(attrs.evolve(state, net=net), node, node, item, k)
        if reading.concurrency != "withdraw-at-once":
            state = _post(attrs.evolve(state, pending=state.pending | {k}), _send("uncover", node, item, node, net, 0, k))
        else:
            state = _post(state, _send("unsub", node, item, node, net, 0, k))
        return _widen_uncovered(state, node, reading) if reading.unsubscribe == "resubscribe-uncovered" else state
    event = dict(item)
    state = attrs.evolve(state, notified=_notify(state, k, node, event))
    return _post(state, _send("event", node, k, node, net, 0, k, _event_forward(net, event)))


def _check_script_index(script, k) -> None:
    if not isinstance(script, tuple):
        raise TypeError(f"script must be a tuple of (kind, node, item) operations, not {script!r}")
    if not isinstance(k, int) or isinstance(k, bool):
        raise TypeError(f"k must be an integer index into the script, not {k!r}")
    if not 0 <= k < len(script):
        raise ValueError(f"k must be an operation of the script, 0..{len(script) - 1}, not {k}")


def can_withdraw(state: Flight, k: int) -> bool:
    """widen-then-withdraw: operation k's withdrawal may spread once its notices and every
    widening have arrived."""
    return k in state.pending and not any(m[0] == "widen" or (m[0] == "uncover" and m[6] == k) for m in state.flight)


def withdraw(state: Flight, script: tuple, k: int) -> Flight:
    _check_script_index(script, k)
    if k not in state.pending:
        raise ValueError(f"operation {k} has no withdrawal waiting")
    _, node, item = script[k]
    state = attrs.evolve(state, pending=state.pending - {k})
    if node not in state.net.live:
        return state
    return _post(state, _send("unsub", node, item, node, state.net, 0, k))


def deliver(state: Flight, script: tuple, message: tuple, reading: Reading = Reading()) -> Flight:
    """One message arrives. At a crashed receiver it is lost, or re-sent by its sender to another
    node of the range (retry-alternate); under lamport an outdated subscribe or unsubscribe is
    dropped."""
    if message not in state.flight:  # else a made-up message would take effect
        raise ValueError(f"message {message!r} is not in flight")
    kind, origin, item, sender, receiver, prefix, clock = message
    state = attrs.evolve(state, flight=state.flight - {message})
    net = state.net
    if receiver not in net.live:
        if reading.forwarding == "retry-alternate" and sender in net.live:
            alternate = min((m for m in net.live if m.startswith(prefix)), default=None)
            if alternate is not None:
                state = _post(state, {message[:4] + (alternate,) + message[5:]})
        return state
    level = len(prefix)
    if kind == "event":
        event = dict(script[item][2])
        state = attrs.evolve(state, notified=_notify(state, item, receiver, event))
        return _post(state, _send("event", origin, item, receiver, net, level, clock,
                                                               _event_forward(net, event)))
    if kind == "uncover":  # about what may be counted on, not about the entry: never outdated
        state = attrs.evolve(state, net=attrs.evolve(net, withdrawn=net.withdrawn | {(receiver, origin, item)}))
        state = _post(state, _send(kind, origin, item, receiver, state.net, level, clock))
        return _widen_uncovered(state, receiver, reading) if reading.unsubscribe == "resubscribe-uncovered" else state
    if kind == "unsub":  # the notice it ends is over, whatever the clocks say
        net = attrs.evolve(net, withdrawn=net.withdrawn - {(receiver, origin, item)})
        state = attrs.evolve(state, net=net)
    if clock < _clock_of(state, receiver, origin, item):  # older than one already seen here
        state = attrs.evolve(state, reordered=True)
        if reading.ordering == "lamport":  # not applied
            if kind == "unsub":  # but passed on, to end the notice everywhere it went
                state = _post(state, _send(kind, origin, item, receiver, net, level, clock))
            return state
    else:
        state = _see(state, receiver, origin, item, clock)
    if kind in ("sub", "widen"):
        entry = (receiver, origin[:common_prefix_length(receiver, origin) + 1], item, origin)
        state = attrs.evolve(state, net=attrs.evolve(net, filters=net.filters | {entry}))
        return _post(state, _send(kind, origin, item, receiver, state.net, level, clock))
    state = _post(attrs.evolve(state, net=_drop_entries(net, receiver, item, origin)),
                  _send("unsub", origin, item, receiver, net, level, clock))
    if reading.concurrency == "withdraw-at-once" and reading.unsubscribe == "resubscribe-uncovered":
        return _widen_uncovered(state, receiver, reading)
    return state


def crash(state: Flight, node: str) -> Flight:
    return attrs.evolve(state, net=fail(state.net, [node]), crashes=state.crashes + 1)


# --------------------------------------------------------------------------------------------
# Claims on a FlightRun: a script's run once all is quiet
# --------------------------------------------------------------------------------------------

@attrs.frozen
class FlightRun:
    """A quiescent state (every operation started, nothing in flight, no withdrawal waiting) of
    a script, and the subscriptions that held from before the script to its end (the ones a
    claim can count on)."""

    state: Flight = attrs.field(eq=False)
    script: tuple
    steady: frozenset  # (node, filter) subscribed before the script, not withdrawn, node never crashed


def steady_subscribers_notified_exactly_once(run: FlightRun) -> bool:
    """Sec. 3.5 with the abstract's claim: concurrent operations and reordered messages do not
    cost a steady subscriber an event, nor give anyone an event twice."""
    got = {(e, n): c for e, n, c in run.state.notified}
    for k, (kind, node, item) in enumerate(run.script):
        if kind != "publish" or node not in run.state.net.live:
            continue
        event = dict(item)
        for s, f in run.steady:
            if f.matches(event) and got.get((k, s), 0) != 1:
                return False
    return all(c == 1 for c in got.values()) and not run.state.collided


def settled_network_delivers_exactly_once(run: FlightRun) -> bool:
    """Sec. 3.5 (1): once everything has arrived, the filter tables serve the subscriptions then
    held: each event of the script, published again from every live node, reaches every
    interested subscriber exactly once (reordered messages must not leave a "wrong state")."""
    net = run.state.net
    return all(every_interested_subscriber_notified_exactly_once(publish_run(net, p, dict(item)))
               for kind, _, item in run.script if kind == "publish" for p in sorted(net.live))


def no_entry_outlives_its_subscription(run: FlightRun) -> bool:
    """Sec. 3.5 (1): once everything has arrived, no filter table keeps an entry of a live node's
    subscription that node has withdrawn."""
    f = run.state.net.filters
    return all((s, s, g, s) in f for m, _, g, s in f if s in run.state.net.live)


def a_steady_subscriber_is_remote_and_interested(run: FlightRun) -> bool:
    """A publish from a node live at the end, whose event a steady subscriber elsewhere wants."""
    return any(kind == "publish" and node in run.state.net.live and
               any(s != node and f.matches(dict(item)) for s, f in run.steady) for kind, node, item in run.script)


def messages_arrived_out_of_order(run: FlightRun) -> bool:
    return run.state.reordered


# A group the checks name: what a run of model II (messages in flight) is held to.
FLIGHT_PROPERTIES = [register(p) for p in (
    Property(ALGORITHM, "steady_subscribers_notified_exactly_once", steady_subscribers_notified_exactly_once,
             "abstract, sec. 3.5: with concurrent operations and messages arriving out of order, every subscriber "
             "whose subscription holds throughout receives each event exactly once",
             witness=a_steady_subscriber_is_remote_and_interested, subject="FlightRun"),
    Property(ALGORITHM, "settled_network_delivers_exactly_once", settled_network_delivers_exactly_once,
             "sec. 3.5 (1): a subscribe and an unsubscribe arriving out of order leave no wrong state: once all "
             "has arrived, every interested subscriber receives each event exactly once",
             witness=messages_arrived_out_of_order, subject="FlightRun"),
    Property(ALGORITHM, "no_entry_outlives_its_subscription", no_entry_outlives_its_subscription,
             "sec. 3.5 (1): once all has arrived, no filter table keeps an entry of a withdrawn subscription",
             witness=messages_arrived_out_of_order, subject="FlightRun"),
)]
