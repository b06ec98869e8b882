"""Pictures of SCOT counterexamples: the broker network with its clusters, and what a replay found.

Both kinds of counterexample (documents.py) are drawn on the same picture of the SCOT, laid out as
the paper draws one (sec. 4, Fig. 3): each cluster C_i is a horizontal layer, a copy of the tree
factor in one row; each region R_x is a vertical layer, the column of the m brokers B(x, 0..m-1).
aCOLs (links inside a cluster) are solid, iCOLs (links across clusters, inside a region) dashed.

- A broadcast (Algorithm 1 or flooding, sec. 5, 6.1): every delivery of the subscription as an
  arrow numbered by its step; the first copy a broker gets (a subscription-tree link) dark, a
  duplicate it discards grey and dashed; the host broker and its cluster outlined.
- A routing (SNR, BID or DNR, sec. 6): every copy of the notification as an arrow numbered in the
  order it is sent (breadth first, as spec.scot.route sends them); the publisher and the
  subscribers' brokers named inside their nodes; each congested output queue a thick red stroke on
  its link next to the broker that sends into it.

What makes the property fail is red: the brokers (a red ring and a short tag, "got 2" or "got
none"), the messages, the links (a tree link that should not be there, an iCOL missing from the
tree). `broadcast_marks` and `routing_marks` pick them from the replayed run with the spec's own
definitions; the title gives the property, its claim (or the spec's `explain` where the property has
one) and the reading; the caption says in words what went wrong and lists every message.

The layout is computed from the structure alone (no randomness), and a PNG is saved without the
software version in its metadata, so the same counterexample always gives the same bytes.
"""

from __future__ import annotations

import math
import textwrap
from typing import Any, Sequence

import attrs
import networkx as nx

from checks import figures
from spec import scot as S
from spec.registry import Property

Broker = S.Broker

# --------------------------------------------------------------------------------------------
# What a replay hands over
# --------------------------------------------------------------------------------------------


@attrs.frozen
class Delivery:
    """One step of a replayed broadcast: the subscription message delivered, and whether it was
    the receiver's first copy (saved as its last hop and forwarded) or a duplicate (discarded)."""

    sender: Broker
    receiver: Broker
    state: str
    first: bool


@attrs.frozen
class Copy:
    """One inter-broker message of a routed notification, in the order it was sent. `payload` is
    what the copy carries: DNR's CBV (an int), BID routing's set of BIDs, None for SNR."""

    sender: Broker
    receiver: Broker
    payload: Any = None


@attrs.frozen
class Marks:
    """What a picture draws in red, and why.

    brokers    broker -> a short tag written inside its node ("got 2", "got none")
    links      (broker, broker) -> why that link is wrong (a link of the run that breaks the
               property, or an iCOL missing from the subscription tree)
    messages   indices (into the deliveries or copies) of the messages drawn red
    findings   one sentence per thing that went wrong, for the caption
    """

    brokers: dict = attrs.field(factory=dict)
    links: dict = attrs.field(factory=dict)
    messages: frozenset = frozenset()
    findings: tuple = ()


def name(b: Broker) -> str:
    """The paper's name of a broker, B(x,i), kept short for the node labels."""
    return f"B({b[0]},{b[1]})"


def arrow(u: Broker, v: Broker) -> str:
    return f"{name(u)}\u2192{name(v)}"


def listed(items: Sequence[str], separator: str, at_most: int = 40) -> str:
    """Items joined, the first `at_most` of a longer list and how many more (the replay prints all)."""
    shown = separator.join(items[:at_most])
    return shown + (f"{separator}\u2026 {len(items) - at_most} more" if len(items) > at_most else "")


def times(n: int) -> str:
    return "once" if n == 1 else "twice" if n == 2 else f"{n} times"


# --------------------------------------------------------------------------------------------
# What went wrong: the brokers, links and messages a property's failure is about
# --------------------------------------------------------------------------------------------

def _first_copy_into(deliveries: Sequence[Delivery], broker: Broker) -> int | None:
    """The step (0-based) that gave `broker` its first copy: the subscription-tree link into it."""
    return next((k for k, d in enumerate(deliveries) if d.receiver == broker and d.first), None)


def _tree_hops(parent: dict, b: Broker, host: Broker) -> int | None:
    """Hops from b to the host along saved last hops; None if the path loops or breaks off."""
    hops, seen = 0, set()
    while b != host:
        if b in seen or b not in parent:
            return None
        seen.add(b)
        b, hops = parent[b], hops + 1
    return hops


def broadcast_marks(run: S.BroadcastRun, deliveries: Sequence[Delivery], prop: str) -> Marks:
    """The brokers, links and deliveries that make `prop` fail on this finished broadcast.

    Each branch reads the property's predicate in spec/scot.py and names what it objects to:
    the brokers that did not get exactly one copy (the host none), the duplicate deliveries, the
    last hops that loop, that are no shortest path, that are neither a host-cluster aCOL nor the
    iCOL from the region's host-cluster broker, or the iCOLs missing from the tree.
    """
    scot, b = run.scot, run.broadcast
    host, received, parent = b.host, dict(b.received), dict(b.last_hop)
    duplicates = [k for k, d in enumerate(deliveries) if not d.first]
    brokers: dict = {}
    links: dict = {}
    messages: set = set()
    findings: list[str] = []
    n = scot.broker_count()
    if prop == "every_broker_receives_the_subscription_once":
        for x in scot.brokers():
            got, want = received.get(x, 0), 0 if x == host else 1
            if got != want:
                brokers[x] = "got none" if got == 0 else f"got {got}"
                findings.append(f"{name(x)} (the host) got its own subscription back {times(got)}" if x == host
                                else f"{name(x)} never received the subscription" if got == 0
                                else f"{name(x)} received the subscription {times(got)}")
        messages.update(duplicates)
    elif prop == "no_duplicate_subscription_messages" and b.messages > n - 1:
        messages.update(duplicates)
        for k in duplicates:
            brokers[deliveries[k].receiver] = "duplicate"
        findings.append(f"{b.messages} subscription messages for {n} brokers: {b.messages - (n - 1)} more than "
                        f"the {n - 1} links of a tree; the duplicates are steps "
                        + listed([str(k + 1) for k in duplicates], ", "))
    elif prop == "subscription_tree_has_no_loop":
        for x in parent:
            if _tree_hops(parent, x, host) is None:
                brokers[x] = "loop"
                links[(parent[x], x)] = "on a loop"
                k = _first_copy_into(deliveries, x)
                if k is not None:
                    messages.add(k)
        if brokers:
            findings.append("following last hops from " + ", ".join(name(x) for x in brokers)
                            + f" never reaches the host {name(host)}")
    elif prop == "subscription_tree_is_shortest":
        for x in scot.brokers():
            if x == host:
                continue
            if x not in parent:
                brokers[x] = "not in tree"
                findings.append(f"{name(x)} is not in the subscription tree")
                continue
            hops, shortest = _tree_hops(parent, x, host), S.distance(scot, x, host)
            if S.distance(scot, x, host) != S.distance(scot, parent[x], host) + 1:
                brokers[x] = f"{hops} hops" if hops is not None else "loop"
                links[(parent[x], x)] = "not on a shortest path"
                k = _first_copy_into(deliveries, x)
                if k is not None:
                    messages.add(k)
                findings.append(f"{name(x)} saved last hop {name(parent[x])}: its tree path to the host {name(host)} "
                                f"has {hops} hops, the shortest SCOT path {shortest}")
    elif prop == "subscription_tree_links_are_host_acols_and_icols":
        c = host[1]
        for x, p in b.last_hop:
            expected = None if x[1] == c else (x[0], c)
            if (x[1] == c and not (p[1] == c and scot.tree.has_edge(x[0], p[0]))) or \
                    (x[1] != c and p != expected):
                brokers[x] = "wrong hop"
                links[(p, x)] = "not in Algorithm 1's tree"
                k = _first_copy_into(deliveries, x)
                if k is not None:
                    messages.add(k)
                findings.append(f"{name(x)} saved last hop {name(p)}: "
                                + ("not a host-cluster aCOL" if x[1] == c
                                   else f"not the iCOL from {name(expected)}, its region's broker in the host cluster"))
    elif prop == "subscription_tree_has_all_icols":
        for x in scot.tree.nodes:
            for i in range(scot.m):
                for j in range(i + 1, scot.m):
                    u, v = (x, i), (x, j)
                    if parent.get(u) != v and parent.get(v) != u:
                        links[(u, v)] = "missing"
                        findings.append(f"the iCOL {name(u)}\u2013{name(v)} is not in the subscription tree")
    return Marks(brokers, links, frozenset(messages), tuple(findings))


def _copies_into(copies: Sequence[Copy], broker: Broker) -> list[int]:
    return [k for k, c in enumerate(copies) if c.receiver == broker]


def _extra_copies(copies: Sequence[Copy], baseline: Sequence[Copy]) -> list[int]:
    """The copies (indices) over links the baseline does not use as often: what DNR sends beyond SNR."""
    left: dict = {}
    for c in baseline:
        left[(c.sender, c.receiver)] = left.get((c.sender, c.receiver), 0) + 1
    extra = []
    for k, c in enumerate(copies):
        key = (c.sender, c.receiver)
        if left.get(key, 0):
            left[key] -= 1
        else:
            extra.append(k)
    return extra


def routing_marks(run: S.RoutingRun, copies: Sequence[Copy], prop: str,
                  snr_copies: Sequence[Copy] | None = None) -> Marks:
    """The brokers, links and copies that make `prop` fail on this routed notification.

    Read from the run the spec judged: its deliveries per subscriber broker, the copies each broker
    received, the copies each DNR broker put into congested queues, the hops each delivery took;
    for the message count against SNR, the copies SNR would not send (`snr_copies`).
    """
    got, received = dict(run.routing.deliveries), dict(run.routing.received)
    brokers: dict = {}
    links: dict = {}
    messages: set = set()
    findings: list[str] = []
    if prop == "notification_delivered_exactly_once":
        for h in run.subscriber_hosts:
            n = got.get(h, 0)
            if n != 1:
                brokers[h] = "got none" if n == 0 else f"got {n}"
                messages.update(_copies_into(copies, h)[1:])
                findings.append(f"subscriber broker {name(h)} " + ("never receives the notification" if n == 0
                                                                     else f"delivers the notification {times(n)}"))
        for h, n in run.routing.deliveries:
            if h not in run.subscriber_hosts:
                brokers[h] = "not subscribed"
                findings.append(f"{name(h)} has no subscriber but delivers the notification")
    elif prop == "no_broker_receives_a_notification_twice":
        for x, n in run.routing.received:
            if n > 1:
                brokers[x] = f"got {n}"
                messages.update(_copies_into(copies, x)[1:])
                findings.append(f"{name(x)} receives {n} copies of the notification")
        if run.publisher in received:
            brokers[run.publisher] = "got it back"
            messages.update(_copies_into(copies, run.publisher))
            findings.append(f"the publisher's broker {name(run.publisher)} receives its own notification back")
    elif prop == "at_most_one_copy_into_congested_queues":
        for x, n in getattr(run.routing, "congested_copies", ()):
            if n > 1:
                brokers[x] = f"{n} queued"
                into = [k for k, c in enumerate(copies) if c.sender == x and (x, c.receiver) in run.congested]
                messages.update(into)
                findings.append(f"{name(x)} puts {n} copies into congested output queues: "
                                + ", ".join(arrow(x, copies[k].receiver) for k in into))
    elif prop == "dnr_costs_no_more_messages_than_snr" and run.snr_messages is not None \
            and run.routing.messages > run.snr_messages:
        extra = _extra_copies(copies, snr_copies or ())
        messages.update(extra)
        findings.append(f"DNR sends {run.routing.messages} inter-broker messages, SNR {run.snr_messages}")
        if snr_copies is not None:
            snr_sends = ", ".join(arrow(c.sender, c.receiver) for c in snr_copies) or "nothing"
            findings.append(f"SNR would send {snr_sends}; red: the copies DNR sends beyond those")
    elif prop == "notification_takes_shortest_paths":
        for h, hops in run.routing.hops:
            shortest = S.distance(run.scot, run.publisher, h)
            if hops != shortest:
                brokers[h] = f"{hops} hops"
                findings.append(f"the copy that reaches {name(h)} travels {hops} hops; "
                                f"the shortest path is {shortest}")
    return Marks(brokers, links, frozenset(messages), tuple(findings))


# --------------------------------------------------------------------------------------------
# Layout: clusters in rows, regions in columns (sec. 4, Fig. 3)
# --------------------------------------------------------------------------------------------

COLUMN_GAP = 2.5        # layout units between regions
ROW_GAP = 2.4           # layout units between clusters
NODE_RADIUS = 0.44
LANE = 0.32             # how far beside its link a message arrow runs, at the link's middle
ARC = 1.0               # how far an arc around a broker in the way bulges (links between non-neighbours)
INCH = 0.8              # inches per layout unit
DPI = 110

CLUSTER_COLOURS = ("#4c72b0", "#dd8452", "#55a868", "#8172b3", "#937860", "#da8bc3", "#8c8c8c", "#ccb974",
                   "#64b5cd")
MESSAGE = "#1f3b73"
DUPLICATE = "#8c8c8c"
RED = "#d62728"
LINK = "#9a9a9a"
OUTLINED_ROLES = ("host", "publisher", "pub + sub")   # brokers drawn with a thick black outline


def region_order(tree: nx.Graph) -> list:
    """The tree's vertices left to right: depth first from a peripheral vertex (so a path is one
    straight row), smaller subtrees first, ties by label. Drawn as arcs above one row, tree edges in
    this order never cross (a child's subtree comes right after it)."""
    if tree.number_of_nodes() == 1:
        return list(tree.nodes)
    root = min(nx.periphery(tree), key=repr)
    size: dict = {}
    for v in nx.dfs_postorder_nodes(tree, root):
        size[v] = 1 + sum(size[c] for c in tree.neighbors(v) if c in size)
    order, stack, seen = [], [root], set()
    while stack:
        v = stack.pop()
        if v in seen:
            continue
        seen.add(v)
        order.append(v)
        children = sorted((c for c in tree.neighbors(v) if c not in seen), key=lambda c: (size[c], repr(c)))
        stack.extend(reversed(children))
    return order


def layout(scot: S.Scot) -> dict[Broker, tuple[float, float]]:
    """B(x, i) at column (x's place in region_order) and row i, cluster 0 on top."""
    column = {x: k for k, x in enumerate(region_order(scot.tree))}
    return {(x, i): (column[x] * COLUMN_GAP, -i * ROW_GAP) for x in scot.tree.nodes for i in range(scot.m)}


def link_kind(u: Broker, v: Broker) -> str:
    return "iCOL" if u[0] == v[0] else "aCOL"


def canonical(u: Broker, v: Broker, pos) -> tuple[Broker, Broker]:
    """A link's direction of reference: left to right for an aCOL, top to bottom for an iCOL."""
    (xu, yu), (xv, yv) = pos[u], pos[v]
    return (u, v) if (xu, -yu) < (xv, -yv) else (v, u)


def link_bend(u: Broker, v: Broker, pos) -> float:
    """The arc3 curvature of the link (u, v) drawn from u to v. Neighbouring brokers are joined
    straight; a link that would pass over brokers between its ends (an aCOL between columns that
    are not next to each other, an iCOL between clusters that are not) bulges around them, farther
    for longer links: aCOLs upward, iCOLs to the right (never as far as the next region's column,
    so each region stays one vertical layer)."""
    a, b = canonical(u, v, pos)
    (xa, ya), (xb, yb) = pos[a], pos[b]
    length = math.hypot(xb - xa, yb - ya)
    steps = round(abs(xb - xa) / COLUMN_GAP) if link_kind(a, b) == "aCOL" else round(abs(yb - ya) / ROW_GAP)
    if steps <= 1:
        return 0.0
    bulge = ARC + 0.3 * min(steps - 2, 2)
    rad = -2 * bulge / length          # left to right: bulges up; top to bottom: bulges right
    return rad if (u, v) == (a, b) else -rad


def curve_point(p, q, rad: float, t: float) -> tuple[float, float]:
    """The point at parameter t of matplotlib's arc3 curve from p to q (a quadratic Bezier whose
    control point is the chord's middle moved by rad times the chord turned clockwise); in data
    units, which the drawing's equal aspect makes the same as display units."""
    (x1, y1), (x2, y2) = p, q
    cx, cy = (x1 + x2) / 2 + rad * (y2 - y1), (y1 + y2) / 2 - rad * (x2 - x1)
    s = 1 - t
    return s * s * x1 + 2 * s * t * cx + t * t * x2, s * s * y1 + 2 * s * t * cy + t * t * y2


@attrs.frozen
class Arrow:
    """One message drawn: from, to, its arc3 curvature, its number label, colour and line style."""

    sender: Broker
    receiver: Broker
    rad: float
    label: str
    colour: str
    style: str = "solid"


def message_arrows(messages: Sequence[tuple[Broker, Broker]], labels: Sequence[str], colours: Sequence[str],
                   styles: Sequence[str], pos) -> list[Arrow]:
    """Each message beside its link, in its own lane, so that no two arrows or numbers of one link
    lie on each other. On a straight link the messages in its reference direction run on one side,
    those against it on the other, a second one the same way a lane farther out; on an arc, which
    bulges around a broker, every message runs outside the arc, one lane farther out each."""
    lanes: dict = {}
    arrows = []
    for (u, v), label, colour, style in zip(messages, labels, colours, styles):
        a, b = canonical(u, v, pos)
        bend = link_bend(a, b, pos)
        key = (a, b) if bend else (u, v)
        lane = lanes[key] = lanes.get(key, 0) + 1
        length = math.hypot(pos[b][0] - pos[a][0], pos[b][1] - pos[a][1])
        offset = 2 * LANE * lane / length          # arc3 curvature that moves the middle by LANE * lane
        if bend:
            reference = bend + math.copysign(offset, bend)
        else:
            reference = offset if (u, v) == (a, b) else -offset
        arrows.append(Arrow(u, v, reference if (u, v) == (a, b) else -reference, label, colour, style))
    return arrows


# --------------------------------------------------------------------------------------------
# Drawing
# --------------------------------------------------------------------------------------------

def _tint(colour: str, amount: float) -> tuple[float, float, float]:
    """The colour mixed with white: amount 0 the colour, 1 white."""
    r, g, b = (int(colour[k:k + 2], 16) / 255 for k in (1, 3, 5))
    return r + (1 - r) * amount, g + (1 - g) * amount, b + (1 - b) * amount


def cluster_colour(i: int) -> str:
    return CLUSTER_COLOURS[i % len(CLUSTER_COLOURS)]


def _wrap(lines: Sequence[str], width: int) -> list[str]:
    out = []
    for line in lines:
        out.extend(textwrap.wrap(line, width, subsequent_indent="    ") or [""])
    return out


@attrs.frozen
class Picture:
    """Everything one picture shows, whatever the kind of counterexample."""

    scot: S.Scot
    arrows: tuple                    # Arrow
    roles: dict                      # broker -> "host" / "publisher" / "subscriber" / "pub + sub"
    marks: Marks
    congested: frozenset = frozenset()
    title: tuple = ()                # lines above the picture
    caption: tuple = ()              # lines below, after the findings
    outlined_cluster: int | None = None   # the host cluster of a broadcast
    legend: tuple = ()               # "broadcast" or "routing", and "duplicate", "congested" where they appear


def draw_broadcast(run: S.BroadcastRun, deliveries: Sequence[Delivery], prop: Property, holds: bool,
                   path: str, title: str = "") -> None:
    """A replayed subscription broadcast as a PNG: the SCOT, every delivery numbered by its step
    (duplicates grey and dashed), the host and its cluster outlined, and what breaks `prop` in red."""
    marks = broadcast_marks(run, deliveries, prop.name)
    red = marks.messages
    arrows = message_arrows(
        [(d.sender, d.receiver) for d in deliveries],
        [str(k + 1) for k in range(len(deliveries))],
        [RED if k in red else MESSAGE if d.first else DUPLICATE for k, d in enumerate(deliveries)],
        ["solid" if d.first else "dashed" for d in deliveries], layout(run.scot))
    b = run.broadcast
    steps = listed([f"{k + 1}: {arrow(d.sender, d.receiver)} {d.state}"
                    + ("" if d.first else ", a duplicate, discarded") for k, d in enumerate(deliveries)], "; ")
    tree = ", ".join(f"{name(x)}\u2190{name(p)}" for x, p in b.last_hop) or "empty"
    legend = ["broadcast"] + (["duplicate"] if any(not d.first for d in deliveries) else [])
    _render(Picture(
        run.scot, tuple(arrows), {b.host: "host"}, marks,
        title=_title_lines(title, prop, holds, run) + (
            f"broadcast of a subscription from host {name(b.host)} on a SCOT of a "
            f"{run.scot.tree.number_of_nodes()}-vertex tree \u00d7 K_{run.scot.m}; arrows numbered by delivery step",),
        caption=(f"subscription tree (broker \u2190 saved last hop): {tree}; {b.messages} messages sent"
                 + (f", {len(b.in_flight)} still in flight (the broadcast has not ended)" if b.in_flight else ""),
                 "steps: " + (steps or "none")),
        outlined_cluster=b.host[1], legend=tuple(legend)), path)


def draw_routing(run: S.RoutingRun, copies: Sequence[Copy], router: str, reading: str, prop: Property,
                 holds: bool, path: str, title: str = "", snr_copies: Sequence[Copy] | None = None) -> None:
    """A replayed notification routing as a PNG: the SCOT, every copy numbered in the order it is
    sent, the publisher and subscribers named, congested output queues as thick red strokes at the
    sending broker, and what breaks `prop` in red."""
    marks = routing_marks(run, copies, prop.name, snr_copies)
    roles: dict = {h: "subscriber" for h in run.subscriber_hosts}
    roles[run.publisher] = "pub + sub" if run.publisher in roles else "publisher"
    arrows = message_arrows([(c.sender, c.receiver) for c in copies], [str(k + 1) for k in range(len(copies))],
                            [RED if k in marks.messages else MESSAGE for k in range(len(copies))],
                            ["solid"] * len(copies), layout(run.scot))

    def carried(c: Copy) -> str:
        if isinstance(c.payload, int) and not isinstance(c.payload, bool) and c.payload:
            return f" carrying CBV {c.payload:0{run.scot.m}b}"
        if isinstance(c.payload, frozenset):
            return " carrying BIDs " + ", ".join(name(h) for h in sorted(c.payload, key=repr))
        return ""

    sent = listed([f"{k + 1}: {arrow(c.sender, c.receiver)}{carried(c)}"
                   + (" (into a congested queue)" if (c.sender, c.receiver) in run.congested else "")
                   for k, c in enumerate(copies)], "; ") or "none"
    delivered = ", ".join(f"at {name(h)} {times(n)}" for h, n in run.routing.deliveries) or "nowhere"
    subscribers = ", ".join(name(h) for h in run.subscriber_hosts) or "none"
    congested = ", ".join(arrow(u, v) for u, v in sorted(run.congested, key=repr))
    repeats = S.route_repeats(reading)
    arrivals: dict = {}
    for c in copies:
        arrivals[(c.receiver, c.sender, c.payload)] = arrivals.get((c.receiver, c.sender, c.payload), 0) + 1
    cut = repeats is not None and any(n > repeats for n in arrivals.values())
    _render(Picture(
        run.scot, tuple(arrows), roles, marks, frozenset(run.congested),
        title=_title_lines(title, prop, holds, run) + (
            f"{router.upper()}{f' ({reading})' if reading != router else ''} routes one notification from "
            f"publisher {name(run.publisher)} to the subscribers' "
            f"brokers {subscribers}" + (f"; congested output queues {congested}" if congested else "")
            + "; arrows numbered in the order the copies are sent",),
        caption=(f"delivered {delivered}; {run.routing.messages} inter-broker messages"
                 + (f" (SNR: {run.snr_messages})" if run.snr_messages is not None and router == "dnr" else ""),
                 f"copies sent: {sent}")
        + ((f"the notification circulates for ever: a copy arriving from the same broker with the same CBV as "
            f"one already handled {times(repeats)} is only counted, not forwarded (spec.scot.route_repeats), so "
            "the routing ends here",)
           if cut else ()),
        legend=("routing",) + (("congested",) if run.congested else ())), path)


def _title_lines(title: str, prop: Property, holds: bool, run) -> tuple[str, ...]:
    """The property and its verdict; the spec's explanation of the failure where the property
    has one, else the claim it checks (marked when it is this project's question, not the paper's)."""
    head = f"{title or f'scot: {prop.name}'}: {'holds (not reproduced)' if holds else 'VIOLATED'}"
    if prop.explain is not None and not holds:
        why = f"what goes wrong: {prop.explain(run)}"
    else:
        why = f"claim ({prop.claim})" if not prop.question else f"this project's question ({prop.claim})"
    return head, why


def _render(picture: Picture, path: str) -> None:
    """Lay the picture out in inches (the drawing at INCH per layout unit, the legend beside it, the
    title above, the caption below) and save it as a PNG with no version in its metadata."""
    plt = figures.pyplot()
    from matplotlib.lines import Line2D
    from matplotlib.patches import Circle, FancyArrowPatch, Patch, Rectangle

    scot = picture.scot
    pos = layout(scot)
    xs = [x for x, _ in pos.values()]
    ys = [y for _, y in pos.values()]
    # the extent of everything drawn: nodes, arcs bulging around brokers, lanes beside links
    points = [(x, y) for x, y in pos.values()]
    for u, v in scot.graph.edges:
        points.append(curve_point(pos[u], pos[v], link_bend(u, v, pos), 0.5))
    for a in picture.arrows:
        points.append(curve_point(pos[a.sender], pos[a.receiver], a.rad, 0.5))
    names_x = min(min(x for x, _ in points) - 0.2, min(xs) - NODE_RADIUS) - 0.35   # the cluster names end here
    left = names_x - 1.85
    right = max(max(x for x, _ in points) + 0.9, max(xs) + NODE_RADIUS + 0.9)
    top = max(max(y for _, y in points) + 0.55, max(ys) + 0.95)
    bottom = min(min(y for _, y in points) - 0.55, min(ys) - 1.2)   # room for the region names
    drawing_w, drawing_h = (right - left) * INCH, (top - bottom) * INCH

    legend_entries = _legend_entries(picture, Line2D, Patch)
    legend_w = 3.3
    legend_h = 0.2 * len(legend_entries) + 0.2      # 8-point rows, as matplotlib spaces them
    fig_w = max(0.2 + drawing_w + 0.3 + legend_w + 0.2, 8.0)
    chars = int((fig_w - 0.4) * 72 / (9 * 0.55))
    head_lines = _wrap(picture.title[:1], int(chars * 0.8))       # bold, 10 points
    title_lines = _wrap(picture.title[1:], chars)
    # an ASCII mark: the dingbat cross (U+2716) was drawn from another font on another machine,
    # so that the committed pictures' bytes depended on the machine that made them
    caption_lines = _wrap([f"X {f}" for f in picture.marks.findings], int(chars * 0.88))   # bold is wider
    note_lines = _wrap(picture.caption, chars)
    line_h = 9 * 1.25 / 72
    title_h = 0.2 + line_h * (len(head_lines) * 1.15 + len(title_lines) + 0.4)
    caption_h = 0.2 + line_h * (len(caption_lines) + len(note_lines) + 0.6)
    body_h = max(drawing_h, legend_h)
    fig_h = title_h + body_h + caption_h

    fig = plt.figure(figsize=(fig_w, fig_h))
    # the drawing at the left, centred in height beside the legend where that is taller
    ax = fig.add_axes([0.2 / fig_w, (caption_h + (body_h - drawing_h) / 2) / fig_h, drawing_w / fig_w,
                       drawing_h / fig_h])
    ax.set_xlim(left, right)
    ax.set_ylim(bottom, top)
    ax.set_aspect("equal")
    ax.axis("off")
    node_pt = NODE_RADIUS * INCH * 72

    # clusters: a tinted band per row, named on the left; regions named under their column
    for i in range(scot.m):
        y = -i * ROW_GAP
        outlined = picture.outlined_cluster == i
        ax.add_patch(Rectangle((left + 0.1, y - 0.75), right - left - 0.2, 1.5, linewidth=2, zorder=0,
                               facecolor=_tint(cluster_colour(i), 0.88),
                               edgecolor=cluster_colour(i) if outlined else "none"))
        ax.text(names_x, y, f"cluster C{i}" + ("\nhost cluster" if outlined else ""),
                ha="right", va="center", fontsize=9, color=cluster_colour(i),
                fontweight="bold" if outlined else "normal", zorder=1)
    for x in scot.tree.nodes:
        cx = pos[(x, 0)][0]
        ax.text(cx, min(ys) - NODE_RADIUS - 0.45, f"region R{x}", ha="center", va="top", fontsize=9, color="#444444")

    # the links: aCOLs solid, iCOLs dashed; a red one is wrong or missing
    for u, v in sorted(scot.graph.edges, key=repr):
        a, b = canonical(u, v, pos)
        wrong = picture.marks.links.get((a, b)) or picture.marks.links.get((b, a))
        ax.add_patch(FancyArrowPatch(pos[a], pos[b], connectionstyle=f"arc3,rad={link_bend(a, b, pos)}",
                                     arrowstyle="-", linewidth=2.4 if wrong else 1.6,
                                     linestyle=(0, (2, 2)) if wrong == "missing" else
                                     "solid" if link_kind(a, b) == "aCOL" else (0, (5, 3)),
                                     color=RED if wrong else LINK, shrinkA=node_pt, shrinkB=node_pt, zorder=1))

    # congested output queues: a thick red stroke on the link, next to the broker that sends into it
    for u, v in sorted(picture.congested, key=repr):
        rad = link_bend(u, v, pos)
        length = math.hypot(pos[v][0] - pos[u][0], pos[v][1] - pos[u][1])
        start = (NODE_RADIUS + 0.08) / length
        stroke = [curve_point(pos[u], pos[v], rad, start + (0.5 / length) * s / 8) for s in range(9)]
        ax.plot([p[0] for p in stroke], [p[1] for p in stroke], color=RED, linewidth=6, solid_capstyle="butt",
                zorder=2)

    # the messages, each in its lane, numbered at its middle
    for a in picture.arrows:
        ax.add_patch(FancyArrowPatch(pos[a.sender], pos[a.receiver], connectionstyle=f"arc3,rad={a.rad}",
                                     arrowstyle="-|>", mutation_scale=13, linewidth=1.6, color=a.colour,
                                     linestyle="solid" if a.style == "solid" else (0, (4, 2)),
                                     shrinkA=node_pt + 1, shrinkB=node_pt + 2, zorder=3))
        x, y = curve_point(pos[a.sender], pos[a.receiver], a.rad, 0.5)
        ax.text(x, y, a.label, ha="center", va="center", fontsize=8, color=a.colour, fontweight="bold", zorder=5,
                bbox=dict(boxstyle="round,pad=0.18", facecolor="white", edgecolor=a.colour, linewidth=0.8))

    # the brokers: filled with their cluster's colour, named inside with their role and what went wrong
    for broker in sorted(pos, key=repr):
        x, y = pos[broker]
        role = picture.roles.get(broker)
        tag = picture.marks.brokers.get(broker)
        outlined = role in OUTLINED_ROLES
        ax.add_patch(Circle((x, y), NODE_RADIUS, facecolor=_tint(cluster_colour(broker[1]), 0.55), zorder=4,
                            edgecolor="black" if outlined else cluster_colour(broker[1]),
                            linewidth=2.6 if outlined else 1.4))
        if tag is not None:
            ax.add_patch(Circle((x, y), NODE_RADIUS + 0.09, facecolor="none", edgecolor=RED, linewidth=2.6, zorder=4))
        lines = [(name(broker), 8.5, "black", "bold")]
        if role:
            lines.append((role, 7, "black", "normal"))
        if tag:
            lines.append((tag, 7, RED, "bold"))
        step = 0.19
        for k, (text, size, colour, weight) in enumerate(lines):
            ax.text(x, y + step * ((len(lines) - 1) / 2 - k), text, ha="center", va="center", fontsize=size,
                    color=colour, fontweight=weight, zorder=6)

    # the title above, the legend on the right, what went wrong and every message below
    fig.text(0.2 / fig_w, 1 - 0.12 / fig_h, "\n".join(head_lines), ha="left", va="top", fontsize=10,
             fontweight="bold", linespacing=1.25)
    fig.text(0.2 / fig_w, 1 - (0.12 + line_h * 1.15 * len(head_lines)) / fig_h, "\n".join(title_lines), ha="left",
             va="top", fontsize=9, linespacing=1.25)
    legend_ax = fig.add_axes([(0.2 + drawing_w + 0.3) / fig_w, (caption_h + body_h - legend_h) / fig_h,
                              legend_w / fig_w, legend_h / fig_h])
    legend_ax.axis("off")
    legend_ax.legend(handles=[h for h, _ in legend_entries], labels=[label for _, label in legend_entries],
                     loc="upper left", fontsize=8, frameon=True, handlelength=2.6, borderaxespad=0)
    y = (caption_h - 0.12) / fig_h
    if caption_lines:
        fig.text(0.2 / fig_w, y, "\n".join(caption_lines), ha="left", va="top", fontsize=9, color=RED,
                 linespacing=1.25, fontweight="bold")
        y -= line_h * (len(caption_lines) + 0.3) / fig_h
    fig.text(0.2 / fig_w, y, "\n".join(note_lines), ha="left", va="top", fontsize=9, linespacing=1.25)
    figures.save(fig, path, DPI, metadata=figures.NO_STAMP)


def _legend_entries(picture: Picture, Line2D, Patch) -> list[tuple[Any, str]]:
    """The legend: the clusters' colours, the kinds of link the SCOT has, and only the marks that appear."""
    entries: list[tuple[Any, str]] = [
        (Patch(facecolor=_tint(cluster_colour(i), 0.55), edgecolor=cluster_colour(i)),
         f"cluster C{i}" + (" (host cluster)" if picture.outlined_cluster == i else ""))
        for i in range(picture.scot.m)]
    if picture.scot.tree.number_of_edges():
        entries.append((Line2D([], [], color=LINK, linewidth=1.6), "aCOL: link inside a cluster"))
    if picture.scot.m > 1:
        entries.append((Line2D([], [], color=LINK, linewidth=1.6, linestyle=(0, (5, 3))), "iCOL: link across clusters"))
    arrow_handle = dict(marker=">", markersize=6, linewidth=1.6)
    if picture.arrows:
        entries.append((Line2D([], [], color=MESSAGE, markerfacecolor=MESSAGE, **arrow_handle),
                        "copy of the notification, by order sent" if "routing" in picture.legend
                        else "first copy, by delivery step" if "duplicate" in picture.legend
                        else "subscription, by delivery step"))
    if "duplicate" in picture.legend:
        entries.append((Line2D([], [], color=DUPLICATE, markerfacecolor=DUPLICATE, linestyle=(0, (4, 2)),
                               **arrow_handle), "duplicate copy, discarded"))
    if picture.marks.messages:
        entries.append((Line2D([], [], color=RED, markerfacecolor=RED, **arrow_handle),
                        "message where the property fails"))
    if "congested" in picture.legend:
        entries.append((Line2D([], [], color=RED, linewidth=6, solid_capstyle="butt"),
                        "congested output queue (at the sender)"))
    if any(r != "missing" for r in picture.marks.links.values()):
        entries.append((Line2D([], [], color=RED, linewidth=2.4), "link where the property fails"))
    if "missing" in picture.marks.links.values():
        entries.append((Line2D([], [], color=RED, linewidth=2.4, linestyle=(0, (2, 2))),
                        "iCOL missing from the subscription tree"))
    if any(r in OUTLINED_ROLES for r in picture.roles.values()):
        entries.append((Line2D([], [], linestyle="none", marker="o", markersize=11, markerfacecolor="white",
                               markeredgecolor="black", markeredgewidth=2.4),
                        "host broker" if "host" in picture.roles.values() else "publisher's broker"))
    if picture.marks.brokers:
        entries.append((Line2D([], [], linestyle="none", marker="o", markersize=12, markerfacecolor="white",
                               markeredgecolor=RED, markeredgewidth=2.4), "broker where the property fails"))
    return entries
