"""Chordal reliability rings: the ring's identifiers and pointers under joins, as an executable
specification.

Paper: Madhu Kumar S D, Umesh Bellur, V. K. Govindan, "Chordal Reliability Rings"
(../shared/seeds/002_3977b8611e3c56f0.txt).

    sec. 3.2    the degree-4 chordal ring (i +- 1, i +- 2) plus log n chords; identifiers in a space
                of 2^32: the first node 0, the second 2^16 - 1, then the midpoint between neighbours
    sec. 3.3.1  the broker's nine-tuple, with Left, Right, Leftleft and Rightright
    sec. 3.3    join-overlay and Process-join-request; "only four nodes ... require link and data
                updations"; "any new broker generated is inserted into the Chordal reliability ring"
    sec. 3.4.1  node failure: test-neighbour, test-acknowledgement, failed(B), divide-Neighbour
    sec. 3.4.2  link failure: a ring link (through the neighbour's neighbour) and a chord (a query
                routed to B, link-down back)

Modelled: the ring of brokers as the join leaves it, each broker's identifier and four pointers.
A broker is named by its handle, the order it joined in, not by its identifier: the printed join
can give two brokers one identifier, and the pseudocode's `broker b` is a broker, not a number.
The request is processed by one broker at a time and the ring does not change while it is
forwarded (joins one after another). Abstracted away: ping delays (every live broker may be the
contacted one), clients, routing tables, Pow, links other than the ring's, and
Modify-routing-table-backups, whose five arguments are recorded but whose body is not given.

The literal reading runs join-overlay and Process-join-request line by line; reading the printed
text needed only the repairs listed in PARSE_REPAIRS. Every semantic repair is a field of
`Reading`, and READINGS names the literal reading, the corrected one, and each single repair taken
back from the corrected one, so that a check can say which printed line breaks which claim.

Layout, as in the paper: readings, the identifier space, state, the join (sec. 3.2 and 3.3), then
the claims as named properties over a ring (an invariant) or one join (a step).
"""

from __future__ import annotations

import functools
import heapq
import numbers
from fractions import Fraction
from typing import Iterable, Iterator

import attrs

from spec.registry import Property, register

ALGORITHM = "chordal_ring"
PAPER_BITS = 32                       # sec. 3.2: "the maximum number of nodes or the node id space is 2^32"

# What reading the printed pseudocode took, each a repair of spelling or parentheses only; the
# literal reading's lines are these.
PARSE_REPAIRS = (
    "`(id[y]->right-id[y]) mod Maxnodes` read as `(id[y->Right] - id[y]) mod Maxnodes`, as the "
    "left branch writes `id[y->Left]`",
    "`id[B] = id[y] + (id[y->Right])-id[y])/2) mod Maxnodes` (one parenthesis unopened) read as "
    "`b->id = id[y] + ((id[y->Right] - id[y])/2) mod Maxnodes`: `B` is the new broker `b`",
    "`send-join-request(y->Righright, broker b)` read as `y->Rightright`",
    "the comment `/* there is no id space ... neighbour's neighbour` never closed: closed before "
    "`send-join-request`",
    "sec. 3.3.1's 'Left, Right, Leftleft and Rightright are pointers to the left neighbour, left neighbour's "
    "left neighbour, right neighbour, and right neighbour's right neighbour respectively' pairs the names "
    "and the neighbours out of order: read by the names (Leftleft the left neighbour's left neighbour, Right "
    "the right neighbour), as the join's lines use them",
)

# What the text leaves open and this project chose, in every reading alike (a choice, never the
# paper's text; docs/chordal_ring.md lists them). Those the checks vary are Reading fields below.
CHOICES = (
    "arithmetic: identifiers, their differences and sums taken mod 2^32, `/` rounding down "
    "(`Maxnodes` is 2^32, which no 32-bit integer holds, and C's `%` binds before `+`: 64-bit or "
    "signed arithmetic would give other identifiers)",
    "the second broker takes sec. 3.2's identifier 2^16 - 1 and not Process-join-request's (which "
    "would give it 0 again); the pointers of rings of one and two brokers are the only ones that "
    "fit sec. 3.3.1's definitions",
    "the contacted broker is any live one (ping-broker's delays are not modelled); exhaustive search "
    "tries every one, hypothesis's join search only the first eight (newcomers pinging a few "
    "well-known brokers), Spark's any",
    "a failure is detected by B's Left, A (sec. 3.4.1 tells the story from A's side only), and A "
    "waits for ever when its neighbour's neighbour C has failed too (no timeout is given on A's side)",
    "several brokers failing together: each handling in two steps, detect (A reads Left(B) and "
    "Rightright(A), sends test-neighbour) and confirm (the rest, the splice's writes at once); the "
    "steps of different handlings in any order (node_failure's schedule; by default one handling "
    "after another in identifier order)",
    "chords: k = 4, 8, 16, ... (floor(log2 n) of them where they fit in 3..n - 2) for sec. 3.2's "
    "'any (log n) nodes numbered (i + k) mod n', or none; on rings whose size is a power of two this makes "
    "every broker's degree the same, where sec. 3.2 proposes an 'irregular' ring",
    "backups: with j < 4 holders, the first j of Left, Right, Leftleft, Rightright",
    "a ring link two apart is tested through the broker between them",
    "sec. 3.2's three ways of sharing a failed broker's tasks, each checked: 'the neighbouring node' is A, "
    "told failed(B), which takes them all; 'the next neighbours' are B's live backup holders (Left, Right, "
    "Leftleft, Rightright, which hold its data, sec. 3.5), in equal shares; 'another broker set up' joins "
    "through A (the reading's join, on the ring as the handling left it) and takes them all",
    "an express or secure event takes its kind's links only (sec. 3 routes secure events 'through secure "
    "links'; for express events, whose links 'can be used', this is this project's choice), on the path of "
    "least total weight, W read as a cost (weights 1 where W gives none), of equal weights the one whose "
    "identifiers come first: the paper names no routing algorithm ('we are developing an adaptive content "
    "based routing algorithm'), and weighs links 'by their bandwidth', a capacity rather than a cost; which "
    "path is taken does not decide whether one exists, which is what the checks judge",
    "divide-Neighbour: each of B's other neighbours told once, by A or by C in turn (the reading "
    "field `divide`; 'both' is the other reading the words allow)",
    "the chord query's next hop: the link with the smallest absolute difference of identifiers to B's "
    "(the reading field `nearest`; 'round', either way round the ring, is the other)",
    "B, which detects a failed chord too, queries A only if it does so before A's query arrives "
    "(the reading field `b_queries`; 'always', also after, is the other); both orders are enumerated",
    "failures and failed links are checked on rings built by the corrected join, whatever the reading "
    "of the failure handling (the printed join cannot build them: its Leftleft and Rightright go wrong "
    "from the third broker on, and sec. 3.4.1's C is A's Rightright)",
)


# --------------------------------------------------------------------------------------------
# Readings of what the printed join does and what it leaves open
# --------------------------------------------------------------------------------------------

@attrs.frozen(cache_hash=True)
class Reading:
    """One resolution of every choice in Process-join-request (sec. 3.3) and in failure handling
    (sec. 3.4).

    left_id      the identifier a broker joining on y's left gets: "printed",
                 `id[y] + (id[y] - id[y->Left])/2`, half the left gap counted from y upwards, which
                 lands on y's right side unless the left gap is above two thirds of the space;
                 "midpoint", `id[y->Left] + (id[y] - id[y->Left])/2`, mid-way between the new
                 broker's neighbours as sec. 3.2 says.
    pointers     which pointers a join writes: "printed", the eight assignments of each branch (the
                 left branch saves LLy, the right branch RRy, and passes it only to
                 Modify-routing-table-backups, whose body is not given, so the new broker's
                 Leftleft, or its Rightright, stays unset and LLy's Rightright, or RRy's Leftleft,
                 keeps pointing past it); "complete", the eight and the two missing ones (this
                 project's repair, wherever the paper meant them to be written).
    space_test   when a branch may insert: "printed", the left branch whenever its gap is at least
                 the right one (no test that it holds a free identifier) and the right branch when
                 `id[y->Right] > (id[y] + 1) mod Maxnodes`, a comparison of raw identifiers that
                 fails across the wrap from 2^32 - 1 to 0; "modular", each branch when its gap,
                 taken mod 2^32, is at least 2, so that its midpoint is a free identifier.
    when_full    what the request does once it has gone round without finding a free identifier:
                 "printed", forwarded to Rightright for ever (the text has no stop); "refuse", the
                 join is refused when the request is back at the broker first contacted.

    And of sec. 3.4.1's node failure handling:

    splice       what becomes of the ring pointers once failed(B) is confirmed: "printed", nothing
                 (the text has A and C tell B's neighbours to route B's messages to them, and never
                 writes Left, Right, Leftleft or Rightright); "four", A and C become neighbours and
                 the four brokers around the gap take their new Leftleft and Rightright.
    divide       who tells B's neighbours (divide-Neighbour(B), "send messages to all the neighbours
                 of B"): "split", each neighbour told once, by A or by C; "both", every neighbour
                 told by A and by C. The text allows both; neither is printed more than the other,
                 so "split" is this project's choice for the literal and corrected readings.

    And of sec. 3.4.2's chord failure:

    nearest      how the query to B picks its next hop, "the node with id nearest to the id of B"
                 among the relay's links: "absolute", the smallest |id - id(B)|; "round", the
                 smallest distance either way round the ring of identifiers. The text allows
                 both; "absolute" is this project's choice for the literal and corrected readings.
    link_down    when B, up, answers A's query with link-down: "printed", "unless it has not
                 already sent a query message similar to A", so only when B has already sent A a
                 query of its own (the double negative as printed); "unless-queried", unless B has
                 already sent its own query (then A learns from B's query instead), this project's
                 repair of the double negative.
    b_queries    whether B, which detects the failure too, queries A: "if-first", only where it has
                 done so before A's query arrives (after it, B has concluded: "Node B also concludes
                 that the link failed on receiving A's query"); "always", also after A's query has
                 arrived. The text allows both; "if-first" is this project's choice for the literal
                 and corrected readings.

    And of sec. 3.3's multigraph:

    special_links which links an express or a secure event may take: "printed", Eu (Es), which
                 sec. 3.3.3-3.3.4 require only to be a subset of En, so that two brokers may have no
                 express (secure) path between them; "ring", Eu (Es) and the chordal ring's links Ec
                 (this project's repair: the ring every broker is on is express and secure too).
    """

    name: str
    left_id: str = "midpoint"
    pointers: str = "complete"
    space_test: str = "modular"
    when_full: str = "refuse"
    splice: str = "four"
    divide: str = "split"
    nearest: str = "absolute"
    link_down: str = "unless-queried"
    b_queries: str = "if-first"
    special_links: str = "ring"

    def __attrs_post_init__(self) -> None:
        allowed = {
            "left_id": ("printed", "midpoint"),
            "pointers": ("printed", "complete"),
            "space_test": ("printed", "modular"),
            "when_full": ("printed", "refuse"),
            "splice": ("printed", "four"),
            "divide": ("split", "both"),
            "nearest": ("absolute", "round"),
            "link_down": ("printed", "unless-queried"),
            "b_queries": ("if-first", "always"),
            "special_links": ("printed", "ring"),
        }
        for field, values in allowed.items():
            if getattr(self, field) not in values:
                raise ValueError(f"reading {self.name!r}: {field} must be one of {values}, "
                                 f"not {getattr(self, field)!r}")

    @property
    def origin(self) -> str:
        """Where the reading stands to the printed text (checks.plugin.ORIGINS): the literal one is
        printed, one that differs from it or from the corrected one only in an open choice is
        open, any other carries a repair."""
        plain = attrs.evolve(self, name="literal")
        if plain == LITERAL:
            return "printed"
        if attrs.evolve(plain, divide=LITERAL.divide, nearest=LITERAL.nearest, b_queries=LITERAL.b_queries) == LITERAL:
            return "open"
        return "repair"


CORRECTED = Reading("corrected")
LITERAL = Reading("literal", left_id="printed", pointers="printed", space_test="printed", when_full="printed",
                  splice="printed", link_down="printed", special_links="printed")

READINGS: dict[str, Reading] = {r.name: r for r in (
    LITERAL,
    CORRECTED,
    attrs.evolve(CORRECTED, name="printed-left-id", left_id="printed"),
    attrs.evolve(CORRECTED, name="printed-pointers", pointers="printed"),
    attrs.evolve(CORRECTED, name="printed-space-test", space_test="printed"),
    attrs.evolve(CORRECTED, name="forwards-when-full", when_full="printed"),
    attrs.evolve(CORRECTED, name="no-splice", splice="printed"),
    attrs.evolve(CORRECTED, name="printed-link-down", link_down="printed"),
    attrs.evolve(CORRECTED, name="printed-special-links", special_links="printed"),
    attrs.evolve(LITERAL, name="literal/both-tell", divide="both"),
    attrs.evolve(LITERAL, name="literal/round-nearest", nearest="round"),
    attrs.evolve(LITERAL, name="literal/b-always-queries", b_queries="always"),
)}


# Which fields each part of the model reads (the join, node failure handling, link failure
# handling): two readings that resolve a part's fields alike give it the same runs
PART_FIELDS = {"join": ("left_id", "pointers", "space_test", "when_full"), "failure": ("splice", "divide"),
               "link": ("nearest", "link_down", "b_queries"), "event": ("special_links",)}


def telling_apart(fields) -> tuple[str, ...]:
    """The key readings, and one more for each other way of resolving `fields`: a check that reads
    only those fields gives every other reading the answer of the one kept with its resolution."""
    kept = {"literal", "corrected"}
    seen = {tuple(getattr(READINGS[name], f) for f in fields) for name in kept}
    for name, reading in READINGS.items():
        projection = tuple(getattr(reading, f) for f in fields)
        if projection not in seen:
            seen.add(projection)
            kept.add(name)
    return tuple(name for name in READINGS if name in kept)


PART_READINGS = {part: telling_apart(fields) for part, fields in PART_FIELDS.items()}


def reading_named(name: str) -> Reading:
    if not isinstance(name, str):
        raise TypeError(f"reading name must be a str, not {name!r}")
    try:
        return READINGS[name]
    except KeyError:
        raise ValueError(f"unknown chordal ring reading {name!r}; known: {', '.join(READINGS)}") from None


def check_reading(reading) -> Reading:
    if not isinstance(reading, Reading):
        raise TypeError(f"reading must be a spec.chordal_ring.Reading (see reading_named), not {reading!r}")
    return reading


# --------------------------------------------------------------------------------------------
# The identifier space (sec. 3.2)
# --------------------------------------------------------------------------------------------

def _is_int(value) -> bool:
    return isinstance(value, numbers.Integral) and not isinstance(value, bool)


def check_bits(bits) -> int:
    """The identifier space's width: an even number of bits from 2 to 64 (the paper's is 32; a
    smaller one lets a search fill the space)."""
    if not _is_int(bits) or bits < 2 or bits > 64 or bits % 2:
        raise ValueError(f"bits must be an even integer from 2 to 64, not {bits!r}")
    return int(bits)


def space(bits: int) -> int:
    """Maxnodes: 2^bits identifiers, 0 .. 2^bits - 1."""
    return 1 << bits


def second_id(bits: int) -> int:
    """sec. 3.2: "the second node is assigned the id 2^16 - 1" (2^(bits/2) - 1 in a space of 2^bits)."""
    return (1 << (bits // 2)) - 1


def gap(low: int, high: int, bits: int) -> int:
    """The identifiers from `low` up to `high` round the ring, mod 2^bits: (high - low) mod Maxnodes."""
    return (high - low) % space(bits)


def midpoint(low: int, high: int, bits: int) -> int:
    """Mid-way from `low` up to `high` round the ring, rounded down."""
    return (low + gap(low, high, bits) // 2) % space(bits)


# --------------------------------------------------------------------------------------------
# State: the brokers, by handle (sec. 3.3.1)
# --------------------------------------------------------------------------------------------

@attrs.frozen(cache_hash=True)
class Broker:
    """The part of sec. 3.3.1's nine-tuple the join writes: the identifier and the four ring
    pointers, as handles of other brokers (None where no assignment ever set one)."""

    id: int
    left: int | None
    right: int | None
    leftleft: int | None
    rightright: int | None

    def pointers(self) -> tuple:
        return (self.left, self.right, self.leftleft, self.rightright)


@attrs.frozen(cache_hash=True)
class Ring:
    """Every broker that joined, by handle (its join order), in a space of 2^bits identifiers, and
    those that have failed since (they keep their handles and their last pointers; no message
    reaches them)."""

    bits: int
    brokers: tuple[Broker, ...] = ()
    failed: frozenset = frozenset()

    def __len__(self) -> int:
        return len(self.brokers)

    def __getitem__(self, handle: int) -> Broker:
        return self.brokers[handle]

    def ids(self) -> list[int]:
        return [b.id for b in self.brokers]

    def live(self) -> list[int]:
        """The handles of the brokers that have not failed."""
        if not self.failed:
            return list(range(len(self.brokers)))
        return [h for h in range(len(self.brokers)) if h not in self.failed]


def empty(bits: int = PAPER_BITS) -> Ring:
    return Ring(check_bits(bits))


POINTERS = ("left", "right", "leftleft", "rightright")


def in_id_order(ring: Ring) -> list[int]:
    """The live brokers' handles in the ring order the identifiers give (ties, which only a faulty
    join makes, by handle): the order sec. 3.2 means by 'left and right neighbours'."""
    return sorted(ring.live(), key=lambda h: (ring[h].id, h))


def correct_pointers(ring: Ring) -> dict[int, tuple[int, int, int, int]]:
    """Each broker's (Left, Right, Leftleft, Rightright) as sec. 3.3.1 defines them over the ring
    order of the identifiers."""
    order = in_id_order(ring)
    n = len(order)
    return {h: (order[(i - 1) % n], order[(i + 1) % n], order[(i - 2) % n], order[(i + 2) % n])
            for i, h in enumerate(order)}


def free_gap_exists(ring: Ring) -> bool:
    """Whether some pair of neighbours in identifier order has a free identifier between them
    (a gap of at least 2); in an empty ring or a ring of one, every identifier but one is free."""
    if len(ring.live()) < 2:
        return True
    order = in_id_order(ring)
    ids = [ring[h].id for h in order]
    return any(gap(a, b, ring.bits) >= 2 for a, b in zip(ids, ids[1:] + ids[:1]))


# --------------------------------------------------------------------------------------------
# The join (sec. 3.2, 3.3)
# --------------------------------------------------------------------------------------------

JOINED, REFUSED, NEVER_ENDS, DANGLING = "joined", "refused", "forwarded for ever", "dangling pointer"
LOST = "sent to a failed broker"


@attrs.frozen
class JoinRun:
    """One join-overlay: the ring before and after, the broker first contacted (None for the first
    broker), the brokers that processed the request in order, the side taken, the new broker's
    handle, the brokers whose pointers the join assigned, and the five brokers named to
    Modify-routing-table-backups."""

    before: Ring
    contact: int | None
    after: Ring
    outcome: str
    visited: tuple[int, ...] = ()
    side: str | None = None
    new: int | None = None
    written: frozenset = frozenset()
    backups: tuple[int, ...] = ()
    forwards: int = 0                   # how many times send-join-request passed the request on


class UnknownBroker(ValueError):
    """A join through a broker that never joined."""


def process_join_request(ring: Ring, y: int, reading: Reading) -> tuple[str, int | None, int | None]:
    """Process-join-request(y, b) at broker y: ("left", id) or ("right", id), the side the new
    broker joins on and its identifier, or ("forward", Rightright[y]) when y's gaps hold no room;
    ("dangling", None) where a pointer it reads was never set."""
    bits = ring.bits
    me = ring[y]
    if me.left is None or me.right is None:
        return "dangling", None
    left_gap = gap(ring[me.left].id, me.id, bits)          # (id[y] - id[y->Left]) mod Maxnodes
    right_gap = gap(me.id, ring[me.right].id, bits)        # (id[y->Right] - id[y]) mod Maxnodes
    left_room = left_gap >= right_gap and (reading.space_test == "printed" or left_gap >= 2)
    if left_room:
        if reading.left_id == "printed":
            return "left", (me.id + left_gap // 2) % space(bits)
        return "left", midpoint(ring[me.left].id, me.id, bits)
    if reading.space_test == "printed":
        right_room = ring[me.right].id > (me.id + 1) % space(bits)
    else:
        right_room = right_gap >= 2
    if right_room:
        return "right", (me.id + right_gap // 2) % space(bits)
    return "forward", me.rightright


# Each branch's assignments in the printed order, as (broker, pointer, value) over the branch's
# names: y, b, Ly, Ry and `far` (LLy on the left, RRy on the right); MISSING_LINES are the two
# the printed branch leaves out, which the "complete" pointers add. The spec, the reference and the
# Z3 encoding all run these tables.
BRANCH_LINES = {
    "left": (("y", "left", "b"), ("b", "right", "y"), ("b", "left", "ly"), ("ry", "leftleft", "b"),
             ("y", "leftleft", "ly"), ("b", "rightright", "ry"), ("ly", "right", "b"), ("ly", "rightright", "y")),
    "right": (("y", "right", "b"), ("b", "left", "y"), ("b", "right", "ry"), ("ly", "rightright", "b"),
              ("y", "rightright", "ry"), ("b", "leftleft", "ly"), ("ry", "left", "b"), ("ry", "leftleft", "y")),
}
MISSING_LINES = {"left": (("b", "leftleft", "far"), ("far", "rightright", "b")),
                 "right": (("b", "rightright", "far"), ("far", "leftleft", "b"))}
FAR = {"left": "leftleft", "right": "rightright"}          # the pointer of y the branch saves as `far`


def branch_lines(side: str, reading: Reading) -> tuple[tuple[str, str, str], ...]:
    """The lines a branch runs under the reading."""
    return BRANCH_LINES[side] + (MISSING_LINES[side] if reading.pointers == "complete" else ())


def _insert(ring: Ring, y: int, side: str, new_id: int, reading: Reading) -> tuple[Ring, set[int], tuple[int, ...]]:
    """The branch's assignments, as printed (and the two missing ones under "complete")."""
    brokers = list(ring.brokers) + [Broker(new_id, None, None, None, None)]
    b = len(ring)
    me = ring[y]
    names = {"y": y, "b": b, "ly": me.left, "ry": me.right, "far": getattr(me, FAR[side])}
    # each printed assignment such as `Left[y] = b`, in the printed order: where LLy, Ry or Ly are
    # the same broker (rings of 2 or 3) a later line overwrites an earlier one; every value is a
    # name fixed before the first line, so gathering each broker's lines changes nothing
    lines: dict[int, dict[str, int]] = {b: {}}
    for at, field, value in branch_lines(side, reading):
        if names[at] not in ring.failed:            # a failed broker's lines are messages that do not arrive
            lines.setdefault(names[at], {})[field] = names[value]
    for handle, fields in lines.items():
        brokers[handle] = attrs.evolve(brokers[handle], **fields)
    written = set(lines)
    # Modify-routing-table-backups(Ry, y, b, Ly, LLy) on the left, (Ly, y, b, Ry, RRy) on the right
    near, other = ("ry", "ly") if side == "left" else ("ly", "ry")
    backups = (names[near], y, b, names[other], names["far"])
    return Ring(ring.bits, tuple(brokers), ring.failed), written, backups


def join_overlay(ring: Ring, contact: int | None, reading: Reading) -> JoinRun:
    """join-overlay(b): the new broker sends its join request to `contact` (first(ping-broker()),
    any live broker), which runs Process-join-request and forwards it to its Rightright while it
    has no room. The first broker gets 0 and the second 2^(bits/2) - 1 (sec. 3.2), each pointer of
    a ring of one or two brokers naming the only broker that fits."""
    check_reading(reading)
    n = len(ring)
    if n == 0:
        if contact is not None:
            raise UnknownBroker(f"the first broker joins with no contact, not through {contact!r}")
        after = Ring(ring.bits, (Broker(0, 0, 0, 0, 0),))
        return JoinRun(ring, None, after, JOINED, (), "first", 0, frozenset({0}))
    if not _is_int(contact) or not 0 <= contact < n:
        raise UnknownBroker(f"no broker {contact!r} to contact; the ring has brokers 0..{n - 1}")
    if contact in ring.failed:
        raise UnknownBroker(f"broker {contact} has failed: a new broker pings live ones only")
    if n == 1:
        # sec. 3.2's own rule for the second broker; Process-join-request on a ring of one would
        # find both gaps 0 and give it identifier 0 again
        after = Ring(ring.bits, (Broker(ring[0].id, 1, 1, 0, 0), Broker(second_id(ring.bits), 0, 0, 1, 1)))
        return JoinRun(ring, contact, after, JOINED, (contact,), "second", 1, frozenset({0, 1}))
    visited: list[int] = []
    y: int | None = contact
    while True:
        # each broker visited passed the request on: to y, which never takes it
        if y is None:
            return JoinRun(ring, contact, ring, DANGLING, tuple(visited), forwards=len(visited))
        if reading.when_full == "refuse" and visited and y == contact:
            return JoinRun(ring, contact, ring, REFUSED, tuple(visited), forwards=len(visited))
        if y in visited:                                # the ring is unchanged: the same brokers for ever
            return JoinRun(ring, contact, ring, NEVER_ENDS, tuple(visited), forwards=len(visited))
        if y in ring.failed:                            # Rightright names a failed broker: no one answers
            return JoinRun(ring, contact, ring, LOST, tuple(visited), forwards=len(visited))
        visited.append(y)
        side, value = process_join_request(ring, y, reading)
        if side == "dangling":
            return JoinRun(ring, contact, ring, DANGLING, tuple(visited), forwards=len(visited) - 1)
        if side == "forward":
            y = value
            continue
        after, written, backups = _insert(ring, y, side, value, reading)
        return JoinRun(ring, contact, after, JOINED, tuple(visited), side, n, frozenset(written), backups,
                       forwards=len(visited) - 1)


def run_joins(contacts: Iterable[int | None], reading: Reading, bits: int = PAPER_BITS) -> list[JoinRun]:
    """Joins one after another from an empty ring, each through the contact given (None for the
    first); a join that does not insert leaves the ring as it was."""
    ring = empty(bits)
    runs = []
    for contact in contacts:
        run = join_overlay(ring, contact, reading)
        runs.append(run)
        ring = run.after
    return runs


def order(ring: Ring) -> list[int]:
    """The handles met following Right from the first live broker, until one repeats or a
    pointer is unset: the ring as its pointers have it."""
    seen: list[int] = []
    met: set[int] = set()       # `h not in seen` on the list made this quadratic in the brokers
    live = ring.live()
    h = live[0] if live else None
    while h is not None and h not in met:
        seen.append(h)
        met.add(h)
        h = ring[h].right
    return seen


# --------------------------------------------------------------------------------------------
# The overlay around the ring (sec. 3.2, 3.3.1): Neighset
# --------------------------------------------------------------------------------------------

CHORD_RULES = ("doubling", "none")


def chord_lengths(n: int, rule: str = "doubling") -> tuple[int, ...]:
    """sec. 3.2: "links to any (log n) nodes numbered (i + k) mod n where k may vary between 3 and
    n - 2". Which k the text does not say: "doubling" takes k = 4, 8, 16, ... up to floor(log2 n)
    of them, those that fit in 3..n - 2 (this project's choice, Chord's fingers); "none" leaves
    the degree-4 ring of sec. 3.2 alone."""
    if rule not in CHORD_RULES:
        raise ValueError(f"chord rule must be one of {CHORD_RULES}, not {rule!r}")
    if rule == "none" or n < 5:
        return ()
    wanted = max(n.bit_length() - 1, 0)                  # floor(log2 n)
    return tuple(k for k in (1 << j for j in range(2, 2 + wanted)) if 3 <= k <= n - 2)


def neighsets(ring: Ring, rule: str = "doubling") -> dict[int, frozenset[int]]:
    """Each broker's Neighset: its ring links (i +- 1, i +- 2 in identifier order: Left, Right,
    Leftleft, Rightright of a correct ring) and its chords both ways (a link is bi-directional,
    sec. 3.3.2), by handle."""
    order = in_id_order(ring)
    n = len(order)
    lengths = (1, 2) + chord_lengths(n, rule)
    links: dict[int, set[int]] = {h: set() for h in order}
    for i, h in enumerate(order):
        for k in lengths:
            other = order[(i + k) % n]
            if other != h:
                links[h].add(other)
                links[other].add(h)
    return {h: frozenset(v) for h, v in links.items()}


def third_degree_links(n: int, c: int) -> dict[int, frozenset[int]]:
    """sec. 3.1's chordal ring of third degree, for comparison ([15], not this paper's overlay): "an
    even number of nodes labelled 0, 1, 2, ..., n - 1 and each even node i is connected to nodes
    (i +- 1) mod n and (i - c) mod n, for some odd integer c"; a link is bi-directional, so odd
    node j is linked to j + c. Nodes by their numbers."""
    if not (_is_int(n) and n >= 4 and n % 2 == 0):
        raise ValueError(f"a third degree chordal ring has an even number of nodes, at least 4, not {n!r}")
    if not (_is_int(c) and c % 2 == 1):
        raise ValueError(f"the chord length c is an odd integer, not {c!r}")
    links: dict[int, set[int]] = {i: set() for i in range(n)}
    for i in range(0, n, 2):
        for other in ((i + 1) % n, (i - 1) % n, (i - c) % n):
            if other != i:
                links[i].add(other)
                links[other].add(i)
    return {i: frozenset(v) for i, v in links.items()}


# --------------------------------------------------------------------------------------------
# Node failure (sec. 3.4.1)
# --------------------------------------------------------------------------------------------

CONFIRMED, STALLED, UNDETECTED = "confirmed", "stalled", "no live left neighbour"


@attrs.frozen
class Message:
    kind: str            # test-neighbour, test-acknowledgement, failed, divide-neighbour
    sender: int
    to: int
    delivered: bool      # False where the receiver has failed: a message that does not come back


@attrs.frozen
class Handling:
    """One failed broker B's handling: A (B's Left, which detects the failure of link AB), C (A's
    Rightright, B's Right), the messages, and how it ended."""

    failed: int
    a: int | None
    c: int | None
    messages: tuple[Message, ...]
    outcome: str


@attrs.frozen
class FailureRun:
    """Brokers that fail together, each then handled as sec. 3.4.1 says, the handlings' steps in
    the order of `schedule`, each on the pointers as the steps before it left them."""

    before: Ring
    failed: frozenset
    handlings: tuple[Handling, ...]
    after: Ring
    degrees: tuple[tuple[int, int], ...]        # (failed broker, its degree) in the overlay
    rule: str = "doubling"
    backups: int = 4                            # sec. 3.2: "backed up in one, two, three or four neighbouring nodes"
    schedule: tuple[int, ...] = ()              # the order of the handlings' steps (node_failure)
    reading: Reading | None = None              # the reading the handling ran under


# sec. 3.5 names the four holders "Left, Right, Leftleft and Rightright"; which j of them hold the
# backups when j < 4 the text does not say: this project takes them in that order
BACKUP_ORDER = ("left", "right", "leftleft", "rightright")


def backup_holders(ring: Ring, broker: int, backups: int) -> tuple[int, ...]:
    """The brokers holding `broker`'s data: the first `backups` of its Left, Right, Leftleft and
    Rightright (as the ring was before any failure)."""
    if not (_is_int(backups) and 1 <= backups <= 4):
        raise ValueError(f"a broker's data is backed up in 1 to 4 neighbours, not {backups!r}")
    return tuple(getattr(ring[broker], name) for name in BACKUP_ORDER[:backups])


def _splice(brokers: list[Broker], a: int, c: int, down: frozenset = frozenset()) -> None:
    """A and C become neighbours; Left(A) and Right(C) take their new Rightright and Leftleft
    (where they have failed, the message does not arrive)."""
    la, rc = brokers[a].left, brokers[c].right
    brokers[a] = attrs.evolve(brokers[a], right=c, rightright=rc)
    brokers[c] = attrs.evolve(brokers[c], left=a, leftleft=la)
    if la not in down:
        brokers[la] = attrs.evolve(brokers[la], rightright=c)
    if rc not in down:
        brokers[rc] = attrs.evolve(brokers[rc], leftleft=a)


def node_failure(ring: Ring, failed: Iterable[int], reading: Reading, rule: str = "doubling",
                 backups: int = 4, schedule: Iterable[int] | None = None) -> FailureRun:
    """The brokers `failed` (handles) fail at once; each is handled in sec. 3.4.1's two steps.
    Detect: A = Left(B) sends test-neighbour(B) to its neighbour's neighbour C = Rightright(A).
    Confirm: C sends test-acknowledgement to B and, with no reply, failed(B) to A; A and C send
    divide-Neighbour(B) to B's other neighbours (and, under the splice, become neighbours). A
    failed A detects nothing (no rule is given for B's right side), a failed C never answers (A
    waits: the text gives no timeout on A's side). Brokers that failed before (the ring's
    `failed`) answer no one either. `schedule` orders the steps of all the handlings: each failed
    broker twice, the first its detect, the second its confirm; by default one handling after
    another in identifier order (each step reads the pointers as the steps before it left them)."""
    check_reading(reading)
    backup_holders(ring, 0, backups) if len(ring) else None       # names a bad count before any work
    dead = frozenset(failed)
    unknown = [h for h in dead if not (_is_int(h) and 0 <= h < len(ring))]
    if unknown:
        raise UnknownBroker(f"no broker {unknown[0]!r} to fail; the ring has brokers 0..{len(ring) - 1}")
    if dead & ring.failed:
        raise ValueError(f"broker {min(dead & ring.failed)} has already failed")
    if len(dead) >= len(ring.live()):
        raise ValueError("at least one broker must stay up")
    in_order = sorted(dead, key=lambda h: (ring[h].id, h))
    schedule = tuple(h for b in in_order for h in (b, b)) if schedule is None else tuple(schedule)
    if sorted(schedule) != sorted(in_order * 2):
        raise ValueError(f"a schedule names each failed broker twice, not {list(schedule)!r}")
    down = dead | ring.failed
    links = neighsets(ring, rule)
    brokers = list(ring.brokers)
    detected: dict[int, tuple[int, int, list[Message]]] = {}
    done: dict[int, Handling] = {}
    for b in schedule:
        if b in done:
            continue                    # it ended at its detect step: its confirm step does nothing
        if b not in detected:           # detect
            a = brokers[b].left
            if a is None or a in down:
                done[b] = Handling(b, a, None, (), UNDETECTED)
                continue
            c = brokers[a].rightright
            sent = [Message("test-neighbour", a, c, c is not None and c not in down)]
            if not sent[-1].delivered:
                done[b] = Handling(b, a, c, tuple(sent), STALLED)
                continue
            detected[b] = (a, c, sent)
            continue
        a, c, sent = detected.pop(b)    # confirm
        sent.append(Message("test-acknowledgement", c, b, False))
        sent.append(Message("failed", c, a, True))
        others = sorted(links[b] - {a, c}, key=lambda h: (ring[h].id, h))
        for i, n in enumerate(others):
            senders = (a, c) if reading.divide == "both" else ((a, c)[i % 2],)
            sent.extend(Message("divide-neighbour", x, n, n not in down) for x in senders)
        if reading.splice == "four":
            _splice(brokers, a, c, down)
        done[b] = Handling(b, a, c, tuple(sent), CONFIRMED)
    after = Ring(ring.bits, tuple(brokers), down)
    return FailureRun(ring, dead, tuple(done[b] for b in in_order), after,
                      tuple((b, len(links[b])) for b in sorted(dead)), rule, backups, schedule, reading)


def schedules(failed: Iterable[int]) -> Iterator[tuple[int, ...]]:
    """Every order of the handlings' steps (each failed broker twice: detect, then confirm)."""
    def orders(left: dict[int, int]) -> Iterator[tuple[int, ...]]:
        if not any(left.values()):
            yield ()
            return
        for b in sorted(left):
            if left[b]:
                left[b] -= 1
                for rest in orders(left):
                    yield (b,) + rest
                left[b] += 1

    yield from orders({b: 2 for b in failed})


def live_pointers_agree(ring: Ring, failed: frozenset) -> bool:
    """pointers_agree over the live brokers: every pointer of a live broker set and live, the
    four consistent, and Right going round every live broker once."""
    live = [h for h in range(len(ring)) if h not in failed]
    for h in live:
        b = ring[h]
        if any(p is None or p in failed for p in b.pointers()):
            return False
        if ring[b.right].left != h or ring[b.left].right != h:
            return False
        if b.leftleft != ring[b.left].left or b.rightright != ring[b.right].right:
            return False
    seen, h = set(), live[0] if live else None
    while h is not None and h not in seen:
        seen.add(h)
        h = ring[h].right
    return seen == set(live)


# --------------------------------------------------------------------------------------------
# Load sharing (sec. 3.2): who takes a failed broker's tasks
# --------------------------------------------------------------------------------------------

# sec. 3.2: "When a node fails, the neighbouring node can share the tasks of the broken node, share
# the tasks with next neighbours, or request another broker to be set up." Who each is, is a choice
# (CHOICES); every option is checked.
SHARING = ("neighbour", "next-neighbours", "new-broker")


@attrs.frozen
class Takeover:
    """Who took failed broker B's tasks under one sharing option: live brokers and their shares
    (empty where no one did: B's failure was never confirmed, or the new broker did not join)."""

    failed: int
    option: str
    shares: tuple[tuple[int, Fraction], ...]
    joined: JoinRun | None = None               # new-broker: the new broker's join


def share_tasks(run: FailureRun, option: str) -> tuple[Takeover, ...]:
    """Each failed broker's tasks, handed on under `option` once its failure is confirmed (A and C
    know of it only then): to A; to its live backup holders in equal shares; or to a new broker
    that joins through A (on the ring as the handling left it, one after another)."""
    if option not in SHARING:
        raise ValueError(f"unknown way of sharing a failed broker's tasks {option!r}; known: {', '.join(SHARING)}")
    ring, out = run.after, []
    for h in run.handlings:
        shares: tuple[tuple[int, Fraction], ...] = ()
        joined = None
        if h.outcome == CONFIRMED:
            if option == "neighbour":
                shares = ((h.a, Fraction(1)),)
            elif option == "next-neighbours":
                holders = sorted({x for x in backup_holders(run.before, h.failed, 4) if x not in ring.failed})
                shares = tuple((x, Fraction(1, len(holders))) for x in holders)
            else:
                joined = join_overlay(ring, h.a, run.reading or CORRECTED)
                if joined.outcome == JOINED:
                    ring = joined.after
                    shares = ((joined.new, Fraction(1)),)
        out.append(Takeover(h.failed, option, shares, joined))
    return tuple(out)


# --------------------------------------------------------------------------------------------
# Link failure (sec. 3.4.2)
# --------------------------------------------------------------------------------------------

RING_LINK, CHORD = "ring link", "chord"
LINK_DOWN, LOOPS, NO_ROUTE = "link down", "the query goes round", "no route"
SILENCE = "A hears neither B's query nor link-down"
NEW_ROUTE = "a new route from a neighbour of the failed B"


@attrs.frozen
class LinkRun:
    """Link A-B fails: which kind of link it is, the messages, the path A's query took for a chord
    (A first, B last where it was sent on to B), whether B had already sent A a query of its own
    (`b_queried`: B detects the failure too) and the path that one took (`back`), and what A
    concluded. Where B has failed with the chord (`b_failed`), `failure` is B's node failure as
    sec. 3.4.1 handles it, whose divide-Neighbour messages are the new route A waits for."""

    ring: Ring
    a: int
    b: int
    kind: str
    messages: tuple[Message, ...]
    path: tuple[int, ...]
    outcome: str
    rule: str = "doubling"
    b_queried: bool = False
    back: tuple[int, ...] = ()
    b_failed: bool = False
    failure: FailureRun | None = None


def _distance(x: int, y: int, bits: int, nearest: str) -> int:
    d = abs(x - y)
    return d if nearest == "absolute" else min(d, space(bits) - d)


def _route(ring: Ring, links: dict[int, frozenset[int]], source: int, to: int, nearest: str) -> tuple[tuple[int, ...], str | None]:
    """A query from `source` to `to` over a failed link between them: each broker passes it to its
    link with the identifier nearest `to`'s (the failed link not among the source's). Returns the
    path and None where it arrived, else why it stopped (LOOPS, NO_ROUTE)."""
    path, at = [source], source
    target = ring[to].id
    while at != to:
        options = sorted(links[at] - ({to} if at == source else set()),
                         key=lambda h: (_distance(ring[h].id, target, ring.bits, nearest), h))
        if not options:
            return tuple(path), NO_ROUTE
        at = options[0]
        path.append(at)
        if at in path[:-1]:
            return tuple(path), LOOPS
    return tuple(path), None


def link_failure(ring: Ring, a: int, b: int, reading: Reading, rule: str = "doubling",
                 b_queried: bool = False, b_failed: bool = False) -> LinkRun:
    """Link A-B fails. A ring link (B is A's Right or Rightright, or its Left or Leftleft): A sends
    test-neighbour(B) to its neighbour's neighbour C beyond B's side, C test-acknowledgement to B,
    B answers, C tells A that B is up, and A routes B's messages through C. A chord: A routes a
    query to B (_route); B, up, answers with link-down back along its path as `reading.link_down`
    says, given whether it had already sent A a query of its own (`b_queried`, routed the same way
    to A); A concludes the link is down when B's query or link-down reaches it. A chord whose B has
    failed with it (`b_failed`): A's query is relayed towards B and lost at its last hop, B's
    failure is handled as sec. 3.4.1 says (node_failure), and A hears of it where a
    divide-Neighbour(B) message reaches it ("it waits and ultimately gets a new route message from
    the neighbour of the failed node B")."""
    check_reading(reading)
    links = neighsets(ring, rule)
    for h in (a, b):
        if not (_is_int(h) and 0 <= h < len(ring)):
            raise UnknownBroker(f"no broker {h!r}; the ring has brokers 0..{len(ring) - 1}")
    if ring.failed & {a, b}:
        raise ValueError(f"broker {min(ring.failed & {a, b})} has already failed; a link failure is between "
                         "live brokers (b_failed fails B with the link)")
    if b not in links[a]:
        raise ValueError(f"brokers {a} and {b} have no link between them")
    me = ring[a]
    if b_failed and b in me.pointers():
        raise ValueError(f"broker {b} is on A's ring links: a ring link to a failed broker is sec. 3.4.1's node "
                         "failure (node_failure), not a failed chord")
    if b_failed and b_queried:
        raise ValueError("a failed B sends no query of its own (b_queried and b_failed exclude each other)")
    if b in me.pointers():
        # the neighbour's neighbour beyond B where B is adjacent (as the text says); where B is two
        # away the text names no one: this project takes the broker between them, linked to both
        c = {me.right: me.rightright, me.left: me.leftleft, me.rightright: me.right, me.leftleft: me.left}[b]
        sent = (Message("test-neighbour", a, c, True), Message("test-acknowledgement", c, b, True),
                Message("reply", b, c, True), Message("up", c, a, True))
        return LinkRun(ring, a, b, RING_LINK, sent, (a, c, b), LINK_DOWN, rule, b_queried)
    back: tuple[int, ...] = ()
    messages: list[Message] = []

    def query(source: int, to: int) -> tuple[tuple[int, ...], str | None]:
        """A query routed from `source` to `to` (_route), its messages sent."""
        path, stopped = _route(ring, links, source, to, reading.nearest)
        messages.extend(Message("query", x, y, True) for x, y in zip(path, path[1:]))
        return path, stopped

    if b_failed:
        path, stopped = _route(ring, links, a, b, reading.nearest)
        messages.extend(Message("query", x, y, y != b) for x, y in zip(path, path[1:]))
        failure = node_failure(ring, {b}, reading, rule)
        told = any(m.kind == "divide-neighbour" and m.to == a and m.delivered
                   for h in failure.handlings for m in h.messages)
        return LinkRun(ring, a, b, CHORD, tuple(messages), path,
                       NEW_ROUTE if told else stopped or SILENCE, rule, False, (), True, failure)
    heard = False
    if b_queried:                       # B's own query, sent before A's arrives
        back, stopped = query(b, a)
        heard = stopped is None
    path, stopped = query(a, b)
    if stopped is not None:
        return LinkRun(ring, a, b, CHORD, tuple(messages), path, LINK_DOWN if heard else stopped, rule, b_queried,
                       back)
    # "it sends a link-down message back via the incoming path, unless it has not already sent a
    # query message similar to A"
    if b_queried == (reading.link_down == "printed"):
        messages += [Message("link-down", y, x, True) for x, y in reversed(list(zip(path, path[1:])))]
        heard = True
    if not b_queried and reading.b_queries == "always":     # B's own query, after A's has arrived
        back, stopped = query(b, a)
        heard = heard or stopped is None
    return LinkRun(ring, a, b, CHORD, tuple(messages), path, LINK_DOWN if heard else SILENCE, rule, b_queried, back)


# --------------------------------------------------------------------------------------------
# The weighted multigraph (sec. 3, 3.3): normal, express and secure links
# --------------------------------------------------------------------------------------------

NORMAL, EXPRESS, SECURE = "normal", "express", "secure"
KINDS = (NORMAL, EXPRESS, SECURE)
DELIVERED, NO_PATH = "delivered", "no path"


def link(a: int, b: int) -> tuple[int, int]:
    """A bi-directional link, named by its two brokers in handle order."""
    return (a, b) if a < b else (b, a)


def ring_edges(ring: Ring) -> frozenset:
    """sec. 3.3: Ec = U_b {(b, Left(b)), (b, Leftleft(b))}, the chordal ring's links, from the
    pointers (a link is bi-directional, so Right and Rightright add none)."""
    return frozenset(link(h, p) for h, b in enumerate(ring.brokers) for p in (b.left, b.leftleft)
                     if p is not None and p != h)


@attrs.frozen
class Multigraph:
    """sec. 3.3's weighted multigraph over a ring: En, the normal links (the overlay's Neighsets:
    the ring links and the chords); Eu, the express links, and Es, the secure ones, each a subset
    of En as sec. 3.3.3 and 3.3.4 require (refused otherwise); W, a weight per normal link (1 where
    none is given). The links of the three kinds between one pair of brokers are the multigraph's
    parallel edges."""

    ring: Ring
    express: frozenset = frozenset()
    secure: frozenset = frozenset()
    weights: tuple = ()                  # ((a, b), weight) pairs
    rule: str = "doubling"

    def __attrs_post_init__(self) -> None:
        normal = self.normal()
        for name in ("express", "secure"):
            outside = sorted(getattr(self, name) - normal)
            if outside:
                raise ValueError(f"{name} link {outside[0]} is not a normal link "
                                 f"(sec. 3.3: {'Eu' if name == 'express' else 'Es'} is a subset of En)")
        for pair, weight in self.weights:
            if pair not in normal or not (_is_int(weight) and weight >= 1):
                raise ValueError(f"a weight needs a normal link and a whole number >= 1, not {pair!r}: {weight!r}")

    def normal(self) -> frozenset:
        return self._normal

    @functools.cached_property
    def _normal(self) -> frozenset:
        return frozenset(link(h, x) for h, xs in neighsets(self.ring, self.rule).items() for x in xs)

    def links(self, kind: str, reading: "Reading") -> frozenset:
        """The links an event of `kind` may take: En for a normal one; Eu (Es) for an express
        (secure) one, with the chordal ring's links Ec where the reading takes them to be express
        and secure too."""
        if kind == NORMAL:
            return self.normal()
        if kind not in KINDS:
            raise ValueError(f"an event is {', '.join(KINDS)}, not {kind!r}")
        own = self.express if kind == EXPRESS else self.secure
        return own | ring_edges(self.ring) if reading.special_links == "ring" else own

    def weight(self, pair: tuple[int, int]) -> int:
        return self._weights.get(pair, 1)

    @functools.cached_property
    def _weights(self) -> dict:
        return dict(self.weights)


@attrs.frozen
class EventRoute:
    """An event of `kind` from broker `source` to broker `to`: the path it took (source first) and
    whether it was delivered, or NO_PATH where no path of its kind's links joins the two."""

    graph: Multigraph
    kind: str
    source: int
    to: int
    path: tuple[int, ...]
    outcome: str
    reading: "Reading"


def route_event(graph: Multigraph, source: int, to: int, kind: str, reading: "Reading") -> EventRoute:
    """sec. 3: "Links, which have high bandwidth, can be used for speedy delivery of urgent events.
    Events whose delivery requires high security ... are to be routed through secure links": the
    event takes the path of least total weight over its kind's links (this project's choice: the
    paper gives no routing algorithm; of equal weights, the path whose identifiers come first), or none."""
    check_reading(reading)
    n = len(graph.ring)
    for h in (source, to):
        if not (_is_int(h) and 0 <= h < n):
            raise UnknownBroker(f"no broker {h!r}; the ring has brokers 0..{n - 1}")
    allowed = graph.links(kind, reading)
    nearby: dict[int, list[int]] = {}
    for a, b in allowed:
        nearby.setdefault(a, []).append(b)
        nearby.setdefault(b, []).append(a)
    ids = graph.ring.ids()
    # Dijkstra: offers (total weight, the path's identifiers, the path's handles), least first
    offers, done = [(0, (ids[source],), (source,))], set()
    while offers:
        cost, named, path = heapq.heappop(offers)
        at = path[-1]
        if at in done:
            continue
        if at == to:
            return EventRoute(graph, kind, source, to, path, DELIVERED, reading)
        done.add(at)
        for other in nearby.get(at, ()):
            if other not in done:
                heapq.heappush(offers, (cost + graph.weight(link(at, other)), named + (ids[other],), path + (other,)))
    return EventRoute(graph, kind, source, to, (), NO_PATH, reading)


# --------------------------------------------------------------------------------------------
# The claims
# --------------------------------------------------------------------------------------------

def pointers_agree(ring: Ring) -> bool:
    """sec. 3.3.1: Left, Right, Leftleft and Rightright are the left neighbour, the right one and
    the next ones beyond in the chordal ring: every pointer set, Left(Right(x)) = x,
    Leftleft(x) = Left(Left(x)), Rightright(x) = Right(Right(x)), and Right goes round every
    broker once (every live broker, where some have failed)."""
    return live_pointers_agree(ring, ring.failed)


def ids_unique_in_ring_order(ring: Ring) -> bool:
    """sec. 3.2: identifiers are assigned one per broker, the second above the first and every
    later one between its neighbours: the identifiers are distinct and Right visits them in
    increasing order round the ring (one step down, from the largest to the smallest)."""
    live = ring.live()
    n = len(live)
    if n < 2:
        return True
    if len({ring[h].id for h in live}) != n:
        return False
    cycle = order(ring)
    if len(cycle) != n or any(h in ring.failed for h in cycle):
        return False
    ids = [ring[h].id for h in cycle]
    return sum(1 for a, b in zip(ids, ids[1:] + ids[:1]) if b < a) == 1


def new_id_midway(run: JoinRun) -> bool:
    """sec. 3.2: "every new node that joins the ring is given the id mid-way between its left and
    right neighbours" (from the third broker on): the new identifier is free and at half the gap
    (rounded either way) between the identifiers of the brokers it was put between (its Left and
    Right)."""
    if run.outcome != JOINED or run.new is None or len(run.before) < 2:
        return True
    me = run.after[run.new]
    new = me.id
    if new in {run.before[h].id for h in run.before.live()} or me.left is None or me.right is None:
        return False
    below, above = run.after[me.left].id, run.after[me.right].id
    whole = gap(below, above, run.after.bits)
    return gap(below, new, run.after.bits) in (whole // 2, (whole + 1) // 2)


def required_updates(run: JoinRun) -> set[int]:
    """The brokers whose Left, Right, Leftleft or Rightright must change for the ring to be as
    sec. 3.3.1 defines it after the join, the new broker included."""
    if run.outcome != JOINED:
        return set()
    before, after = correct_pointers(run.before), correct_pointers(run.after)
    return {h for h, p in after.items() if before.get(h) != p}


def join_updates_four_nodes(run: JoinRun) -> bool:
    """sec. 3.3: "Only four nodes in the neighbourhood, including the new node and the contacted
    broker, require link and data updations": at most four brokers' ring pointers must change, the
    contacted broker among them."""
    needed = required_updates(run)
    return len(needed) <= 4 and (run.outcome != JOINED or run.contact is None or run.contact in needed)


def contacted_broker_with_room_inserts(run: JoinRun) -> bool:
    """sec. 3.3: "The contacted node inserts the new node into the broker network if it has id space
    in its neighbourhood": where the contacted broker has a free identifier beside it (a gap of 2 or
    more, mod 2^32, on either side), it takes the request itself and the broker joins."""
    if len(run.before) < 2 or run.contact is None:
        return True
    me = run.before[run.contact]
    if me.left is None or me.right is None:
        return True                       # no neighbourhood to speak of: judged by pointers_agree
    bits = run.before.bits
    room = gap(run.before[me.left].id, me.id, bits) >= 2 or gap(me.id, run.before[me.right].id, bits) >= 2
    return not room or (run.outcome == JOINED and run.visited == (run.contact,))


def joins_the_roomier_side(run: JoinRun) -> bool:
    """sec. 3.3: "The new node is joined as its neighbour on the left or right depending on which
    side has more id space remaining": a broker joined by Process-join-request lies on the side of
    the broker that took it whose gap was the larger (the left where they are equal)."""
    if run.outcome != JOINED or run.side not in ("left", "right"):
        return True
    y = run.before[run.visited[-1]]
    left_gap = gap(run.before[y.left].id, y.id, run.before.bits)
    right_gap = gap(y.id, run.before[y.right].id, run.before.bits)
    return (run.side == "left") == (left_gap >= right_gap)


def join_ends(run: JoinRun) -> bool:
    """sec. 3.3, Process-join-request's last branch ("there is no id space as B's neighbour hence
    request neighbour's neighbour"): the request is passed on finitely often."""
    return run.outcome != NEVER_ENDS


def every_join_inserts(run: JoinRun) -> bool:
    """sec. 3.3: "In this manner, any new broker generated is inserted into the Chordal reliability
    ring": the join inserts the broker whenever a free identifier is left anywhere."""
    return run.outcome == JOINED or not free_gap_exists(run.before)


def node_failure_confirmed(run: FailureRun) -> bool:
    """sec. 3.4.1: "Suppose node B fails. ... If it receives no reply within the stipulated time, it
    confirms node failure of B and sends failed (B) message to A": a broker's failure is confirmed
    at A (the sentence speaks of one failure: runs of several are judged by
    close_failures_confirmed)."""
    return len(run.failed) != 1 or all(h.outcome == CONFIRMED for h in run.handlings)


def b_neighbours_told(run: FailureRun) -> bool:
    """sec. 3.4.1: "Nodes A and C execute a divide-Neighbour(B) and send messages to all the
    neighbours of B to request them to route messages meant for B to A or C": once one failed
    broker's failure is confirmed, every other live neighbour of B has been told (several failures
    at once: close_failures_confirmed first decides whether any is)."""
    if len(run.failed) != 1:
        return True
    links = neighsets(run.before, run.rule)
    for h in run.handlings:
        told = {m.to for m in h.messages if m.kind == "divide-neighbour" and m.delivered and m.sender in (h.a, h.c)}
        if h.outcome == CONFIRMED and not links[h.failed] - {h.a, h.c} - run.after.failed <= told:
            return False
    return True


def close_failures_confirmed(run: FailureRun) -> bool:
    """Several brokers failing together, each handled as sec. 3.4.1 says: every failure is
    confirmed at its A (this project's question; the text speaks of one failure)."""
    return all(h.outcome == CONFIRMED for h in run.handlings)


def pointers_agree_after_failures(run: FailureRun) -> bool:
    """sec. 3.2: the chordal ring is used "to increase the reliability and handle node and link
    failures"; sec. 3.5: "The broker failure will not affect the network": once every failure is
    handled, the live brokers' ring pointers agree as sec. 3.3.1 defines them."""
    return live_pointers_agree(run.after, run.after.failed | run.failed)


def one_failure_keeps_the_ring(run: FailureRun) -> bool:
    """sec. 3.5: "The broker failure will not affect the network", read as the network left as it
    was (data_survives is the other sense the words allow): once one failed broker's failure is
    handled, the live brokers' pointers make the chordal ring again (several failures at once are
    pointers_agree_after_failures', this project's question)."""
    return len(run.failed) != 1 or pointers_agree_after_failures(run)


def tasks_taken_over(run: FailureRun) -> bool:
    """sec. 3.2: "When a node fails, the neighbouring node can share the tasks of the broken node,
    share the tasks with next neighbours, or request another broker to be set up": under each of
    the three options, one failed broker's tasks end wholly with live brokers (several failures at
    once are tasks_taken_over_several's, this project's question)."""
    return len(run.failed) != 1 or tasks_taken_over_several(run)


def handed_on(t: Takeover, run: FailureRun) -> bool:
    """The failed broker's tasks ended wholly with live brokers."""
    return bool(t.shares) and sum(share for _, share in t.shares) == 1 and all(
        x not in run.after.failed for x, _ in t.shares)


def tasks_taken_over_several(run: FailureRun) -> bool:
    """Several brokers failing at once: every failed broker's tasks end wholly with live brokers,
    under each sharing option (this project's question)."""
    return all(handed_on(t, run) for option in SHARING for t in share_tasks(run, option))


def failure_messages_within_degree(run: FailureRun) -> bool:
    """sec. 3.4.1: "The complexity of this operation is bounded by O(degree(B))", read with the
    constants of the procedure itself: at most 3 + 2 degree(B) messages per failed broker (three
    for the test, at most two per neighbour of B)."""
    degree = dict(run.degrees)
    return all(len(h.messages) <= 3 + 2 * degree[h.failed] for h in run.handlings)


def link_failure_concluded(run: LinkRun) -> bool:
    """sec. 3.4.2: "Thus node A either receives the query message or the link down message and in
    either case concludes that the link to node B is down and fixes up the alternate path so
    obtained as the new routing path": with B up, A learns that a failed chord is down (B's query or
    link-down reaches it). A ring link is sec. 3.4.1's test, modelled as printed."""
    return run.kind != CHORD or run.b_failed or run.outcome == LINK_DOWN


def b_concludes_link_down(run: LinkRun) -> bool:
    """sec. 3.4.2: "Node B also concludes that the link failed on receiving A's query": A's query
    over a failed chord reaches B (B up)."""
    return run.kind != CHORD or run.b_failed or run.path[-1] == run.b


def waiting_a_gets_a_new_route(run: LinkRun) -> bool:
    """sec. 3.4.2: "If the sending node A receives neither the query message from B nor link down
    message it waits and ultimately gets a new route message from the neighbour of the failed node
    B": over a failed chord, A hears B's query or link-down, or else a divide-Neighbour(B) message
    from a neighbour of B reaches it. Where B is up and A hears neither, no one sends one."""
    return run.kind != CHORD or run.outcome in (LINK_DOWN, NEW_ROUTE)


def every_broker_has_degree_at_least_4(run: FailureRun) -> bool:
    """sec. 3.2: "Every node i has r edges, where r >= 4": in the overlay (ring links and chords)
    before the failures, every broker has at least four links."""
    return all(len(v) >= 4 for v in neighsets(run.before, run.rule).values())


def data_survives(run: FailureRun) -> bool:
    """sec. 3.5: "The broker failure will not affect the network as the routing and related
    information are backed up in four neighbouring nodes": a failed broker's data is held by a
    live backup holder (the sentence speaks of one failure; several at once are
    data_survives_several's)."""
    return len(run.failed) != 1 or data_survives_several(run)


def data_survives_several(run: FailureRun) -> bool:
    """Several brokers failing at once: every failed broker's data is held by a live backup holder
    (this project's question)."""
    return all(any(h not in run.failed for h in backup_holders(run.before, b, run.backups)) for b in run.failed)


def live_overlay_connected(run: FailureRun) -> bool:
    """The live brokers' links (ring links and chords, whatever the handling did) still connect
    them: how many failures the overlay survives (this project's question)."""
    links = neighsets(run.before, run.rule)
    live = [h for h in links if h not in run.failed]
    kept = frozenset(link(h, x) for h in live for x in links[h] if x not in run.failed)
    return len(reachable(kept, live[0])) == len(live)


def survives_three_failures(run: FailureRun) -> bool:
    """Any three failed brokers (or fewer) leave the live ones connected: the degree-4 ring
    C_n(1, 2) has vertex connectivity 4 (brokers i - 2, i - 1, i + 1, i + 2 cut off broker i),
    and chords only add links (this project's question)."""
    return len(run.failed) > 3 or live_overlay_connected(run)


def reachable(links: frozenset, source: int) -> set[int]:
    """The brokers the links join to `source`, itself included."""
    nearby: dict[int, list[int]] = {}
    for a, b in links:
        nearby.setdefault(a, []).append(b)
        nearby.setdefault(b, []).append(a)
    reached, todo = {source}, [source]
    while todo:
        for other in nearby.get(todo.pop(), ()):
            if other not in reached:
                reached.add(other)
                todo.append(other)
    return reached


def event_on_its_links(route: EventRoute) -> bool:
    """sec. 3.3.4: "the message will be delivered using secure protocols for message transfer
    throughout the path" (and sec. 3.3.3's express links alike): every hop of a routed event is a
    link of its kind, from its source to its destination; no path only where none joins them."""
    allowed = route.graph.links(route.kind, route.reading)
    if route.outcome != DELIVERED:
        return route.to not in reachable(allowed, route.source)
    p = route.path
    return p[0] == route.source and p[-1] == route.to and all(link(x, y) in allowed for x, y in zip(p, p[1:]))


def special_event_delivered(route: EventRoute) -> bool:
    """sec. 3.5: "As there are express, normal and secure links defined in the overlay, adapting to
    the event disseminations of urgent, and secure events is straightforward": an express or a
    secure event reaches its destination over links of its kind."""
    return route.kind == NORMAL or route.outcome == DELIVERED


# Witnesses: what a search must reach for each claim not to hold vacuously.

def has_four_brokers(ring: Ring) -> bool:
    """Leftleft and Rightright name brokers other than Right and Left (so they can be wrong alone)."""
    return len(ring) >= 4


def has_three_brokers(ring: Ring) -> bool:
    return len(ring) >= 3


def joins_a_ring_of_four(run: JoinRun) -> bool:
    """A join by Process-join-request into a ring where LLy (or RRy), Ly, y and Ry are four brokers."""
    return run.outcome == JOINED and len(run.before) >= 4


def joins_by_request(run: JoinRun) -> bool:
    """A third or later broker joined through Process-join-request."""
    return run.outcome == JOINED and len(run.before) >= 2


def forwarded(run: JoinRun) -> bool:
    """The request was passed on at least once (the branch whose ending is claimed)."""
    return run.forwards >= 1


def fails_a_broker_and_a_holder(run: FailureRun) -> bool:
    """A failed broker lost one of its backup holders too (the case the backups are for)."""
    return any(h in run.failed for b in run.failed for h in backup_holders(run.before, b, run.backups))


def fails_three_brokers(run: FailureRun) -> bool:
    return len(run.failed) >= 3


def handles_a_failure(run: FailureRun) -> bool:
    """A failure was confirmed and B's neighbours told (the handling ran to its end)."""
    return any(h.outcome == CONFIRMED for h in run.handlings)


def fails_two_brokers(run: FailureRun) -> bool:
    return len(run.failed) >= 2


def fails_one_broker(run: FailureRun) -> bool:
    return len(run.failed) == 1 and handles_a_failure(run)


def relays_a_chord_query(run: LinkRun) -> bool:
    """A chord failed and the query went through at least one relay."""
    return run.kind == CHORD and len(run.path) >= 3


def a_waits_for_a_failed_b(run: LinkRun) -> bool:
    """A chord failed with B, so A hears neither B's query nor link-down and waits."""
    return run.kind == CHORD and run.b_failed


def routes_a_special_event(route: EventRoute) -> bool:
    """An express or secure event between two brokers, whose kind's links leave out some normal link
    (so that keeping to them matters)."""
    return (route.kind != NORMAL and route.source != route.to
            and route.graph.links(route.kind, route.reading) != route.graph.normal())


def _names(handles: Iterable[int], ring: Ring) -> str:
    return ", ".join(f"broker {h} (id {ring[h].id})" for h in sorted(handles))


def listed(links, shown: int = 12) -> str:
    """Links as 'are a-b, c-d, ...' (the first `shown`, and how many more), or 'none'."""
    ordered = sorted(links)
    if not ordered:
        return "are none"
    more = f" and {len(ordered) - shown} more" if len(ordered) > shown else ""
    return "are " + ", ".join(f"{a}-{b}" for a, b in ordered[:shown]) + more


def _explain_pointers(ring: Ring) -> str:
    wrong = []
    for h, b in enumerate(ring.brokers):
        unset = [name.capitalize() for name, p in zip(POINTERS, b.pointers()) if p is None]
        if unset:
            wrong.append(f"{', '.join(unset)} of broker {h} unset")
            continue
        if ring[b.right].left != h:
            wrong.append(f"Right(broker {h}) is broker {b.right}, whose Left is broker {ring[b.right].left}")
        if b.leftleft != ring[b.left].left:
            wrong.append(f"Leftleft(broker {h}) is broker {b.leftleft}, Left(Left) broker {ring[b.left].left}")
        if b.rightright != ring[b.right].right:
            wrong.append(f"Rightright(broker {h}) is broker {b.rightright}, Right(Right) broker {ring[b.right].right}")
    return "; ".join(wrong) + "." if wrong else "Right does not go round every broker once."


def _explain_ids(ring: Ring) -> str:
    ids = ring.ids()
    twice = sorted({i for i in ids if ids.count(i) > 1})
    if twice:
        return "Identifier " + ", ".join(map(str, twice)) + " is held by two brokers."
    return "Following Right: " + " -> ".join(str(ring[h].id) for h in order(ring)) + ", not in increasing order round the ring."


def _explain_takeover(run: FailureRun) -> str:
    parts = []
    for option in SHARING:
        for t in share_tasks(run, option):
            if handed_on(t, run):
                continue
            handling = next(h for h in run.handlings if h.failed == t.failed)
            reason = (f"the new broker's join through {handling.a} ended: {t.joined.outcome}" if t.joined is not None
                      else f"its failure was never confirmed ({handling.outcome})")
            parts.append(f"under '{option}' no live broker took broker {t.failed}'s tasks: {reason}")
    return "; ".join(parts) + "." if parts else "Every failed broker's tasks were taken."


EXPLAIN = {
    "pointers_agree": _explain_pointers,
    "ids_unique_in_ring_order": _explain_ids,
    "new_id_midway": lambda run: (
        f"Broker {run.new} got id {run.after[run.new].id}, beside ids {sorted(run.before[h].id for h in run.before.live())} "
        f"of the {len(run.before.live())} live brokers before it: not mid-way between its neighbours."),
    "join_updates_four_nodes": lambda run: (
        f"{len(required_updates(run))} brokers need new ring pointers: "
        f"{_names(required_updates(run), run.after)}."),
    "contacted_broker_with_room_inserts": lambda run: (
        f"Broker {run.contact} had a free identifier beside it, yet the request went "
        + " -> ".join(map(str, run.visited)) + f" ({run.outcome})."),
    "joins_the_roomier_side": lambda run: f"Broker {run.new} joined on the {run.side} of broker {run.visited[-1]}, its smaller gap.",
    "every_broker_has_degree_at_least_4": lambda run: "Degrees " + ", ".join(
        f"{h}: {len(v)}" for h, v in sorted(neighsets(run.before, run.rule).items()) if len(v) < 4) + ".",
    "join_ends": lambda run: "The request goes round " + " -> ".join(map(str, run.visited)) + " for ever.",
    "every_join_inserts": lambda run: f"The join ended {run.outcome} while free identifiers were left.",
    "node_failure_confirmed": lambda run: EXPLAIN["close_failures_confirmed"](run),
    "b_neighbours_told": lambda run: "; ".join(
        f"broker {h.failed}'s neighbours {sorted(neighsets(run.before, run.rule)[h.failed] - {h.a, h.c})} were told: "
        + ", ".join(f"{m.sender}->{m.to}" for m in h.messages if m.kind == "divide-neighbour") for h in run.handlings) + ".",
    "close_failures_confirmed": lambda run: "; ".join(
        f"broker {h.failed}'s failure: {h.outcome}" + (f" (test-neighbour from {h.a} to {h.c}, which failed too)"
                                                       if h.outcome == STALLED else "")
        for h in run.handlings if h.outcome != CONFIRMED) + ".",
    "pointers_agree_after_failures": lambda run: (
        f"After brokers {sorted(run.failed)} failed and were handled, the live brokers' pointers do not agree "
        f"(Right of broker {run.handlings[0].a} is broker {run.after[run.handlings[0].a].right}).")
        if run.handlings and run.handlings[0].a is not None else "The live brokers' pointers do not agree.",
    "one_failure_keeps_the_ring": lambda run: EXPLAIN["pointers_agree_after_failures"](run),
    "failure_messages_within_degree": lambda run: "; ".join(
        f"broker {h.failed}: {len(h.messages)} messages, degree {dict(run.degrees)[h.failed]}" for h in run.handlings) + ".",
    "data_survives": lambda run: EXPLAIN["data_survives_several"](run),
    "tasks_taken_over": lambda run: _explain_takeover(run),
    "tasks_taken_over_several": lambda run: _explain_takeover(run),
    "data_survives_several": lambda run: "; ".join(
        f"broker {b}'s data was held by brokers {sorted(backup_holders(run.before, b, run.backups))}, all failed"
        for b in sorted(run.failed)
        if all(h in run.failed for h in backup_holders(run.before, b, run.backups))) + ".",
    "live_overlay_connected": lambda run: f"With brokers {sorted(run.failed)} failed the live ones are cut apart.",
    "survives_three_failures": lambda run: f"With only brokers {sorted(run.failed)} failed the live ones are cut apart.",
    "link_failure_concluded": lambda run: (
        f"The query from broker {run.a} to broker {run.b} went " + " -> ".join(map(str, run.path))
        + (f"; B's own query went " + " -> ".join(map(str, run.back)) if run.b_queried else
           "; B had sent no query of its own") + f": {run.outcome}."),
    "event_on_its_links": lambda route: (
        f"The {route.kind} event from broker {route.source} to broker {route.to} went "
        + (" -> ".join(map(str, route.path)) if route.path else "nowhere") + f" ({route.outcome}); its links "
        + listed(route.graph.links(route.kind, route.reading)) + "."),
    "special_event_delivered": lambda route: (
        f"No path of {route.kind} links joins broker {route.source} to broker {route.to}: the {route.kind} links "
        + listed(route.graph.links(route.kind, route.reading)) + "."),
    "b_concludes_link_down": lambda run: (
        f"The query from broker {run.a} to broker {run.b} went " + " -> ".join(map(str, run.path))
        + f" and never reached broker {run.b}."),
    "waiting_a_gets_a_new_route": lambda run: (
        f"The query from broker {run.a} to broker {run.b} went " + " -> ".join(map(str, run.path))
        + (f"; broker {run.b} had failed and no divide-Neighbour message reached broker {run.a}" if run.b_failed
           else f"; broker {run.b} is up, so no neighbour of a failed B sends a new route") + f": {run.outcome}."),
}

RING, JOIN, FAILURE, LINK, EVENT = "Ring", "JoinRun", "FailureRun", "LinkRun", "EventRoute"

PROPERTIES = [register(attrs.evolve(p, explain=EXPLAIN[p.name])) for p in (
    Property(ALGORITHM, "pointers_agree", pointers_agree,
             "sec. 3.3.1: Left, Right, Leftleft and Rightright are pointers to the left neighbour, "
             "left neighbour's left neighbour, right neighbour, and right neighbour's right neighbour "
             "respectively in the chordal ring", witness=has_four_brokers, subject=RING),
    Property(ALGORITHM, "ids_unique_in_ring_order", ids_unique_in_ring_order,
             "sec. 3.2: the first node gets id 0, the second 2^16 - 1, then every new node the id "
             "mid-way between its left and right neighbours (one identifier per broker, in ring order)",
             witness=has_three_brokers, subject=RING),
    Property(ALGORITHM, "new_id_midway", new_id_midway,
             "sec. 3.2: every new node that joins the ring is given the id mid-way between its left "
             "and right neighbours", witness=joins_by_request, subject=JOIN),
    Property(ALGORITHM, "join_updates_four_nodes", join_updates_four_nodes,
             "sec. 3.3: only four nodes in the neighbourhood, including the new node and the "
             "contacted broker, require link and data updations", witness=joins_a_ring_of_four, subject=JOIN),
    Property(ALGORITHM, "contacted_broker_with_room_inserts", contacted_broker_with_room_inserts,
             "sec. 3.3: the contacted node inserts the new node into the broker network if it has id space "
             "in its neighbourhood", witness=joins_by_request, subject=JOIN),
    Property(ALGORITHM, "joins_the_roomier_side", joins_the_roomier_side,
             "sec. 3.3: the new node is joined as its neighbour on the left or right depending on which "
             "side has more id space remaining", witness=joins_by_request, subject=JOIN),
    Property(ALGORITHM, "join_ends", join_ends,
             "sec. 3.3 Process-join-request: with no id space beside y the request goes to y's "
             "Rightright (read: a join is forwarded finitely often)", witness=forwarded, subject=JOIN),
    Property(ALGORITHM, "every_join_inserts", every_join_inserts,
             "sec. 3.3: in this manner, any new broker generated is inserted into the Chordal "
             "reliability ring (read: whenever a free identifier is left)", witness=forwarded, subject=JOIN),
    Property(ALGORITHM, "node_failure_confirmed", node_failure_confirmed,
             "sec. 3.4.1: C sends a test-acknowledgement to B and, with no reply, confirms the node "
             "failure of B and sends failed(B) to A", witness=fails_one_broker, subject=FAILURE),
    Property(ALGORITHM, "b_neighbours_told", b_neighbours_told,
             "sec. 3.4.1: nodes A and C execute a divide-Neighbour(B) and send messages to all the neighbours of "
             "B to request them to route messages meant for B to A or C", witness=fails_one_broker, subject=FAILURE),
    Property(ALGORITHM, "close_failures_confirmed", close_failures_confirmed,
             "sec. 3.4.1's handling, with several brokers failing together", witness=fails_two_brokers,
             subject=FAILURE,
             question="sec. 3.4.1 speaks of one failed broker; whether each of several that fail "
                      "together (side by side, say) is confirmed is this project's question"),
    Property(ALGORITHM, "pointers_agree_after_failures", pointers_agree_after_failures,
             "sec. 3.5: the broker failure will not affect the network (sec. 3.2: the chordal ring "
             "handles node and link failures)", witness=handles_a_failure, subject=FAILURE,
             question="the text never says how Left, Right, Leftleft and Rightright are rewritten after "
                      "a failure (sec. 3.5 speaks of routing information backed up); this project asks "
                      "whether they agree once the failures are handled, as the next handling, which "
                      "reads Left and Rightright, needs"),
    Property(ALGORITHM, "one_failure_keeps_the_ring", one_failure_keeps_the_ring,
             "sec. 3.5: the broker failure will not affect the network (read as: the network as it was, "
             "its ring pointers again the chordal ring)", witness=fails_one_broker, subject=FAILURE),
    Property(ALGORITHM, "failure_messages_within_degree", failure_messages_within_degree,
             "sec. 3.4.1: the complexity of this operation is bounded by O(degree(B))",
             witness=handles_a_failure, subject=FAILURE),
    Property(ALGORITHM, "every_broker_has_degree_at_least_4", every_broker_has_degree_at_least_4,
             "sec. 3.2: every node i has r edges, where r >= 4", witness=handles_a_failure, subject=FAILURE,
             question="sec. 3.2 defines the overlay so; this project asks whether the overlay it builds "
                      "(neighsets: the four ring links and the chords) keeps the definition, a check of its own "
                      "builder rather than of a claim"),
    Property(ALGORITHM, "data_survives", data_survives,
             "sec. 3.5: the broker failure will not affect the network as the routing and related "
             "information are backed up in four neighbouring nodes (Left, Right, Leftleft and Rightright)",
             witness=fails_one_broker, subject=FAILURE),
    Property(ALGORITHM, "tasks_taken_over", tasks_taken_over,
             "sec. 3.2: when a node fails, the neighbouring node can share the tasks of the broken node, share "
             "the tasks with next neighbours, or request another broker to be set up", witness=fails_one_broker,
             subject=FAILURE),
    Property(ALGORITHM, "tasks_taken_over_several", tasks_taken_over_several,
             "sec. 3.2's three ways of sharing a failed broker's tasks, with several brokers failing at once",
             witness=fails_two_brokers, subject=FAILURE,
             question="sec. 3.2 speaks of a node failing; whether each way of sharing hands on every failed "
                      "broker's tasks when several fail at once is this project's question"),
    Property(ALGORITHM, "data_survives_several", data_survives_several,
             "sec. 3.5's backups, with several brokers failing at once", witness=fails_a_broker_and_a_holder,
             subject=FAILURE,
             question="sec. 3.5 speaks of a broker failure; how many failures at once the four backups "
                      "survive is this project's question (any four, not a broker and its four holders)"),
    Property(ALGORITHM, "live_overlay_connected", live_overlay_connected,
             "sec. 3.2: the chordal ring is used to increase the reliability and handle node and link "
             "failures", witness=fails_three_brokers, subject=FAILURE,
             question="the paper gives no number of failures; this project asks which sets of failed "
                      "brokers leave the live ones connected (the degree-4 ring C_n(1, 2) is "
                      "4-connected from n = 5, so any 3 failures)"),
    Property(ALGORITHM, "survives_three_failures", survives_three_failures,
             "sec. 3.2: the chordal ring is used to increase the reliability and handle node and link "
             "failures (every node i has r edges, where r >= 4)", witness=fails_three_brokers, subject=FAILURE,
             question="the paper gives no number of failures the ring survives; with r >= 4 links per node "
                      "this project asks whether any three failed brokers leave the live ones connected "
                      "(four need not: live_overlay_connected)"),
    Property(ALGORITHM, "link_failure_concluded", link_failure_concluded,
             "sec. 3.4.2: node A either receives the query message or the link down message and in "
             "either case concludes that the link to node B is down", witness=relays_a_chord_query, subject=LINK),
    Property(ALGORITHM, "b_concludes_link_down", b_concludes_link_down,
             "sec. 3.4.2: node B also concludes that the link failed on receiving A's query",
             witness=relays_a_chord_query, subject=LINK),
    Property(ALGORITHM, "waiting_a_gets_a_new_route", waiting_a_gets_a_new_route,
             "sec. 3.4.2: if the sending node A receives neither the query message from B nor link down "
             "message it waits and ultimately gets a new route message from the neighbour of the failed "
             "node B", witness=a_waits_for_a_failed_b, subject=LINK),
    Property(ALGORITHM, "event_on_its_links", event_on_its_links,
             "sec. 3.3.4: if Es contains (b1, b2) ... the message will be delivered using secure protocols "
             "for message transfer throughout the path (sec. 3: events whose delivery requires high security "
             "... are to be routed through secure links)", witness=routes_a_special_event, subject=EVENT,
             question="the paper names no routing algorithm; this project routes an express or secure event "
                      "over its kind's links only and asks whether its router keeps to them (a check of the "
                      "model, not of a paper claim)"),
    Property(ALGORITHM, "special_event_delivered", special_event_delivered,
             "sec. 3.5: as there are express, normal and secure links defined in the overlay, adapting to "
             "the event disseminations of urgent, and secure events is straightforward",
             witness=routes_a_special_event, subject=EVENT,
             question="'straightforward' is a judgement of ease; this project asks whether an express or secure "
                      "event, kept to its kind's links, reaches every broker, as sec. 3.3 defines Eu and Es "
                      "(any subsets of En)"),
)]
RING_PROPERTIES = [p for p in PROPERTIES if p.subject == RING]
JOIN_PROPERTIES = [p for p in PROPERTIES if p.subject == JOIN]
FAILURE_PROPERTIES = [p for p in PROPERTIES if p.subject == FAILURE]
LINK_PROPERTIES = [p for p in PROPERTIES if p.subject == LINK]
EVENT_PROPERTIES = [p for p in PROPERTIES if p.subject == EVENT]
