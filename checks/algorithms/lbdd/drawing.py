"""Pictures of LBDD counterexamples: the copy graph of a run, and Algorithm 2's partition.

`pubsub-proofs replay FILE --png OUT` draws through the replay (checks.algorithms.lbdd.replay):

  a tree      (a view, then failures and joins) draws the final copy graph: one column per
              occupied bucket, left to right, its nodes top to bottom in Algorithm 2's order
              (digest, then address), so that a sender's share of the next bucket is a run of
              consecutive nodes there. The nodes that matter are coloured and named: a subscriber
              with no parent or several, a node on a cycle, one the publisher does not reach, the
              node an event failed (a ghost at the foot of its bucket's column, with the copies it
              was sending) or joined (ringed); and what the property itself points at (copies
              going to a bucket that is not higher, a deepest path, buckets out of the claimed
              range).
  a schedule  (Algorithm 2 alone, S senders and T targets) draws the partition as a grid: one
              row per rank, one column per target index 1..T, a cell filled where the rank owns
              the index; an index owned by no rank or by several is red.

The headline says what went wrong: the property, the paper's claim, and the property's own
one-sentence explanation (spec.registry's `explain`) applied to the run.

Views run from 0 to 500 subscribers in the committed files, so a picture chooses its scale from
the view: full addresses beside every node up to SMALL_VIEW nodes; above it smaller nodes, index
labels (#k, the k-th member: 0 the publisher, then the subscribers by digest), big buckets
folded into several sub-columns, and the marked nodes' full addresses in a side note.

Everything is decided first (`tree_picture`, `schedule_grid`: plain data the tests read), then
drawn (`tree_figure`, `schedule_figure`) with matplotlib's Agg backend at fixed positions, and
saved without a timestamp or version (`save`), so the same counterexample gives the same bytes.
"""

from __future__ import annotations

import math
import textwrap
from fractions import Fraction
from typing import Any, Iterable

import attrs

from checks import figures
from spec import lbdd as L
from spec.registry import get

DPI = 100

# Fill colours, one per node (the first role that applies, in this order).
PUBLISHER = "#4c72b0"
NO_PARENT = "#d62728"
SEVERAL_PARENTS = "#ff7f0e"
ON_CYCLE = "#9467bd"
UNREACHED = "#f7b6d2"      # one parent, but cut off from the publisher
ONE_PARENT = "#59a14f"
FAILED = "#bbbbbb"         # a ghost: where a failed node stood
RED = "#d62728"            # what the property names: an edge, a bucket, a target index
OWNED = "#4c72b0"          # a schedule cell a rank owns

ROLE_COLOURS = {
    "publisher": PUBLISHER, "no parent": NO_PARENT, "several parents": SEVERAL_PARENTS,
    "on a cycle": ON_CYCLE, "unreached": UNREACHED, "one parent": ONE_PARENT,
}

# Up to this many nodes every node carries its full address; above, index labels (up to
# INDEXED_VIEW nodes) or none, and the marked nodes are listed in the side note.
SMALL_VIEW = 30
INDEXED_VIEW = 150
# Up to this many marked nodes carry their full address in the picture itself.
NAMED_IN_PICTURE = 12
# Inches above the first row of nodes, for the bucket headers (and, in small views, the first
# row's addresses).
TOP, SMALL_TOP = 0.5, 0.8


def save(fig, path: str) -> None:
    """Write a figure as PNG with nothing that varies between runs (no Software, no date)."""
    figures.save(fig, path, DPI, metadata=figures.NO_STAMP)


def _pyplot():
    return figures.pyplot()


def _bold_width(line: str) -> float:
    """Inches a headline's first line (10 pt bold) takes, with the margins, at most."""
    return 0.3 + 0.088 * len(line)


def _headline(sentence: str, width: int, lines: int = 2) -> list[str]:
    """A sentence wrapped to `width` characters, cut to `lines` lines with an ellipsis."""
    width = max(width, 30)
    wrapped = textwrap.wrap(sentence, width=width)
    if len(wrapped) > lines:
        wrapped = wrapped[:lines - 1] + [wrapped[lines - 1][:width - 2].rstrip() + " …"]
    return wrapped


def _spans(indices: list[int], prefix: str = "", limit: int = 8) -> str:
    """[1, 2, 3, 7] -> "1..3, 7" (each number after `prefix`), cut after `limit` spans."""
    spans, start = [], None
    for i, j in enumerate(indices):
        if start is None:
            start = j
        if i + 1 == len(indices) or indices[i + 1] != j + 1:
            spans.append(f"{prefix}{start}" if start == j else f"{prefix}{start}..{prefix}{j}")
            start = None
    return ", ".join(spans[:limit]) + (f" and {len(spans) - limit} more" if len(spans) > limit else "")


# --------------------------------------------------------------------------------------------
# Trees: what the picture of a copy graph shows
# --------------------------------------------------------------------------------------------

@attrs.frozen
class Event:
    """A failure or a join of the counterexample: the node, the bucket it is (or was) in, and
    for a failure the nodes it sent copies to just before (the copies lost with it)."""

    step: int
    kind: str          # "fail" or "join"
    node: L.Node
    bucket: int
    sent_to: tuple[str, ...] = ()

    def describe(self) -> str:
        verb = "fails" if self.kind == "fail" else "joins"
        return f"step {self.step}: {self.node.address} (digest {self.node.digest}, bucket {self.bucket}) {verb}"


def replay_events(doc: dict[str, Any]) -> tuple[tuple[Event, ...], L.State]:
    """The document's failures and joins as Events, and the state they end in (the view, then
    every event through Algorithm 3, as the replay runs them): where the picture reads which
    node failed or joined, what a failed node was sending, and each node's digest and rank."""
    reading = L.reading_named(doc["reading"])
    view = L.View(L.Node(doc["publisher"]["digest"], doc["publisher"]["address"]),
                  tuple(L.Node(s["digest"], s["address"]) for s in doc["subscribers"]))
    state = L.initial_state(view, reading)
    events = []
    for step, event in enumerate(doc.get("events", []), start=1):
        if "fail" in event:
            node = next(s for s in state.view.subscribers if s.address == event["fail"])
            events.append(Event(step, "fail", node, L.bucket_of(node, state.view, reading),
                                state.schedule(node.address).targets))
            state = L.fail(state, node.address, reading)
        else:
            node = L.Node(event["join"]["digest"], event["join"]["address"])
            state = L.join(state, node, reading)
            events.append(Event(step, "join", node, L.bucket_of(node, state.view, reading)))
    return tuple(events), state


def cycle_nodes(run: L.Dissemination) -> frozenset[int]:
    """The nodes on a directed cycle of the copy graph (a strongly connected component of two or
    more nodes, or a node sending to itself)."""
    import networkx as nx

    g = nx.DiGraph()
    g.add_nodes_from(range(len(run.addresses)))
    g.add_edges_from(run.edges)
    on_cycle = {v for part in nx.strongly_connected_components(g) if len(part) > 1 for v in part}
    return frozenset(on_cycle | {s for s, r in run.edges if s == r})


def deepest_path(run: L.Dissemination) -> tuple[int, ...]:
    """A path from the publisher to a deepest node (the lowest-numbered one, through the
    lowest-numbered parent at each hop): what `depth_between_5_and_9` measures."""
    depth = run.depths
    deepest = max(depth.values())
    node = min(v for v, d in depth.items() if d == deepest)
    path = [node]
    while depth[node] > 0:
        node = min(s for s, r in run.edges if r == node and depth.get(s) == depth[node] - 1)
        path.append(node)
    return tuple(reversed(path))


def node_role(v: int, run: L.Dissemination, on_cycle: frozenset[int]) -> str:
    """What node v's fill colour says (a key of ROLE_COLOURS): the first that applies."""
    count = run.parent_counts[v]
    if v == 0:
        return "publisher"
    if count == 0:
        return "no parent"
    if count > 1:
        return "several parents"
    if v in on_cycle:
        return "on a cycle"
    if v not in run.depths:
        return "unreached"
    return "one parent"


# Why a node is marked, as (order in the side note, text); the note groups nodes by text.
Reason = tuple[int, str]


@attrs.frozen
class TreePicture:
    """Everything the copy-graph picture shows, decided before anything is drawn.

    Node v is run.addresses[v] (0 the publisher, then the subscribers by digest). `columns` are
    the buckets left to right; positions are in inches from the top left of the graph area, x to
    the right and y down.
    """

    run: L.Dissemination
    prop: str | None
    violated: bool | None                 # None where no property was named
    explanation: str                      # the property's explain on this run, "" if none
    columns: tuple[int, ...]
    column_x: dict[int, float]            # bucket -> x of its first sub-column
    column_width: dict[int, float]        # bucket -> width its sub-columns span
    positions: dict[int, tuple[float, float]]
    roles: dict[int, str]                 # node -> key of ROLE_COLOURS
    marked: dict[int, tuple[Reason, ...]]  # node -> why it matters (drawn larger, labelled, listed)
    ghosts: tuple[tuple[Event, tuple[float, float]], ...]   # failed nodes, where they stood
    joined: frozenset[int]                # nodes an event joined (ringed)
    named_edges: frozenset[tuple[int, int]]  # edges the property points at (drawn red)
    named_buckets: frozenset[int]         # buckets the property points at (shaded red)
    bucket_note: str                      # what the shaded buckets break, "" if none
    events: tuple[Event, ...]
    details: dict[int, str]               # small views: "digest d, rank r" under the address
    small: bool                           # full addresses beside every node
    node_size: float                      # points^2, unmarked nodes
    width: float                          # inches of the graph area
    height: float

    def label(self, v: int) -> str:
        """The text beside node v."""
        if self.small:
            return self.run.addresses[v]
        if v in self.marked and len(self.marked) <= NAMED_IN_PICTURE:
            return f"#{v} {self.run.addresses[v]}"
        if v in self.marked or len(self.run.addresses) <= INDEXED_VIEW:
            return f"#{v}"
        return ""


def tree_picture(run: L.Dissemination, prop: str | None = None, events: Iterable[Event] = (),
                 state: L.State | None = None) -> TreePicture:
    """Decide the picture of `run`: its layout, which nodes matter and why, what the property
    `prop` points at, and the events' failed and joined nodes; `state` (the run's, if given)
    adds each node's digest and rank under its address in small views."""
    events = tuple(events)
    size = len(run.addresses)
    small = size <= SMALL_VIEW
    on_cycle = cycle_nodes(run)
    roles = {v: node_role(v, run, on_cycle) for v in range(size)}
    name = (lambda v: run.addresses[v]) if small else (lambda v: f"#{v}")   # as the labels call node v

    violated = None if prop is None else not L.evaluate(run)[prop]
    explain = get(L.ALGORITHM, prop).explain if prop else None
    explanation = explain(run) if violated and explain else ""

    # Why each node matters: what breaks a tree anywhere, then what the property points at.
    marked: dict[int, list[Reason]] = {}
    for v in range(size):
        count = run.parent_counts[v]
        if v == 0 and count:
            marked.setdefault(v, []).append((0, f"the publisher gets {count} cop{'y' if count == 1 else 'ies'}"))
        elif v and count != 1:
            marked.setdefault(v, []).append((5, "no parent") if count == 0 else (3, f"{count} parents"))
        if v in on_cycle:
            marked.setdefault(v, []).append((4, "on a cycle"))
        if prop == "every_subscriber_reached" and v and count == 1 and v not in run.depths and v not in on_cycle:
            marked.setdefault(v, []).append((6, "one parent, but unreached"))

    named_edges: set[tuple[int, int]] = set()
    named_buckets: set[int] = set()
    bucket_note = ""
    if prop == "one_way_dissemination":
        named_edges = {(s, r) for s, r in run.edges if run.buckets[s] >= run.buckets[r]}
        for s, r in sorted(named_edges):
            marked.setdefault(s, []).append((1, f"sends to {name(r)}, bucket {run.buckets[r]}, not higher"))
    elif prop == "depth_between_5_and_9" and violated:
        path = deepest_path(run)
        named_edges = set(zip(path, path[1:]))
        marked.setdefault(path[-1], []).append(
            (1, f"deepest node, depth {len(path) - 1}" if len(path) > 1 else "the publisher sends no copy (depth 0)"))
    elif prop == "buckets_at_most_log2_n" and run.n:
        limit = math.log2(run.n)
        named_buckets = {b for b in run.buckets[1:] if b > limit}
        bucket_note = f"above log2 n = {limit:.2f}"
    elif prop == "buckets_24_to_32_at_500" and run.n == 500:
        named_buckets = {b for b in run.buckets[1:] if not 24 <= b <= 32}
        bucket_note = "outside 24..32"
    in_named = [v for v in range(1, size) if run.buckets[v] in named_buckets]
    if len(in_named) <= NAMED_IN_PICTURE:   # a few nodes out of range: name them; many: the shading says it
        for v in in_named:
            marked.setdefault(v, []).append((7, f"in a bucket {bucket_note}"))

    live = {a: v for v, a in enumerate(run.addresses)}
    joined = frozenset(live[e.node.address] for e in events if e.kind == "join" and e.node.address in live)
    for e in events:
        if e.node.address in live:
            marked.setdefault(live[e.node.address], []).append(
                (2, f"{'failed' if e.kind == 'fail' else 'joined'} at step {e.step}"))
    # a failed node that is gone stands once, where it last failed
    last_failure = {e.node.address: e for e in events if e.kind == "fail" and e.node.address not in live}
    failed = [e for e in events if last_failure.get(e.node.address) is e]

    details = {}
    if small and state is not None:
        digests = {n.address: n.digest for n in state.view.members()}
        details = {v: f"digest {digests[a]}, rank {state.schedule(a).rank}" for v, a in enumerate(run.addresses)}

    # Layout: occupied buckets (and failed nodes' buckets) left to right; a bucket taller than
    # `rows` rows is folded into sub-columns, filled like text (left to right, then down) so that
    # a sender's run of consecutive targets stays together.
    columns = tuple(sorted(set(run.buckets) | {e.bucket for e in failed}))
    rows = max(14, math.ceil(1.8 * math.sqrt(size)))
    top = SMALL_TOP if small else TOP
    if small:
        row_pitch, sub_pitch, column_gap, node_size = 0.72, 1.6, 1.8, 220.0
    else:
        row_pitch, sub_pitch, column_gap, node_size = 0.24, 0.42, 0.75, 28.0 if size > INDEXED_VIEW else 40.0
    positions: dict[int, tuple[float, float]] = {}
    ghosts = []
    column_x, column_width = {}, {}
    x, tallest = 0.5, 1
    for b in columns:
        slots = [v for v in range(size) if run.buckets[v] == b] + [e for e in failed if e.bucket == b]
        folds = max(1, math.ceil(len(slots) / rows))
        tallest = max(tallest, math.ceil(len(slots) / folds) + (folds - 1) / folds)
        column_x[b], column_width[b] = x, sub_pitch * (folds - 1)
        for i, item in enumerate(slots):
            # each sub-column a little lower than the one before: no copy's line runs straight
            # through a node it does not reach, and y still grows in Algorithm 2's order
            at = (x + sub_pitch * (i % folds), top + row_pitch * (i // folds + (i % folds) / folds))
            if isinstance(item, Event):
                ghosts.append((item, at))
            else:
                positions[item] = at
        x += column_width[b] + column_gap
    # the last column's labels need room on the right: an address centred over a node, an index,
    # or an index and a full address beside a marked node
    width = x - column_gap + (0.8 if small else 1.3 if len(marked) <= NAMED_IN_PICTURE else 0.6)
    return TreePicture(
        run=run, prop=prop, violated=violated, explanation=explanation, columns=columns,
        column_x=column_x, column_width=column_width, positions=positions, roles=roles,
        marked={v: tuple(sorted(why)) for v, why in sorted(marked.items())}, ghosts=tuple(ghosts),
        joined=joined, named_edges=frozenset(named_edges), named_buckets=frozenset(named_buckets),
        bucket_note=bucket_note, events=events, details=details, small=small, node_size=node_size,
        width=max(width, 2.0), height=top + row_pitch * (tallest - 0.5))


# --------------------------------------------------------------------------------------------
# Trees: drawing the picture
# --------------------------------------------------------------------------------------------

NOTE_WIDTH = 3.4       # inches, the side note and the legend
NOTE_CHARACTERS = 54   # 7 pt monospace across it
LINE = 0.145           # inches per line of the side note
NOTE_LINES = 60        # the most lines a note may make a small graph's figure grow to


def tree_headline(picture: TreePicture, title: str, width: int) -> list[tuple[str, dict]]:
    """The lines above the picture (`width` characters at most): what was checked, the paper's
    claim, and what went wrong on this run (the property's explain, cut to two lines)."""
    if picture.prop is None:
        return [(title, {"fontsize": 10, "fontweight": "bold"})]
    verdict = ("violated on this run" if picture.violated
               else "holds on this run: the recorded violation did not reproduce")
    lines = [(f"{title or picture.prop} — {verdict}", {"fontsize": 10, "fontweight": "bold"})]
    lines += [(text, {"fontsize": 8}) for text in _headline("Paper, " + get(L.ALGORITHM, picture.prop).claim, width)]
    return lines + [(text, {"fontsize": 8, "color": "#8b0000"}) for text in _headline(picture.explanation, width)]


def tree_note(picture: TreePicture, lines: int) -> str:
    """The side note: the run in numbers, the events, and the marked nodes grouped by why they
    matter, each with its full address where the group is small (index spans where it is big),
    cut to `lines` lines."""
    run = picture.run
    occupied = sorted(set(run.buckets[1:]))
    text = [f"n = {run.n} subscriber{'s' if run.n != 1 else ''}, {len(run.edges)} "
            f"cop{'y' if len(run.edges) == 1 else 'ies'}",
            (f"buckets {', '.join(map(str, occupied)) if len(occupied) <= 8 else f'{occupied[0]}..{occupied[-1]}'}"
             if occupied else "no subscriber bucket")]
    if picture.events:
        text += ["", "events, in order:"] + [f" {e.describe()}" for e in picture.events]
    groups: dict[Reason, list[int]] = {}
    for v, reasons in picture.marked.items():
        for reason in reasons:
            groups.setdefault(reason, []).append(v)
    if groups:
        text += ["", "marked nodes" + ("" if picture.small else " (#k: member k, 0 the publisher,"),
                 *([] if picture.small else ["  then the subscribers by digest)"])]

    def full(v: int) -> str:
        return (f"{run.addresses[v]}, bucket {run.buckets[v]}" if picture.small
                else f"#{v} {run.addresses[v]}, bucket {run.buckets[v]}")

    for (_, why), nodes in sorted(groups.items()):
        if len(nodes) == 1:
            text.append(f" {why}: {full(nodes[0])}")
        elif len(nodes) <= 6:
            text += [f" {why} ({len(nodes)}):"] + [f"   {full(v)}" for v in nodes]
        else:
            spans = (", ".join(run.addresses[v] for v in nodes) if picture.small
                     else _spans(nodes, prefix="#", limit=len(nodes)))
            text += [f" {why} ({len(nodes)}):"] + textwrap.wrap(spans, NOTE_CHARACTERS - 3,
                                                               initial_indent="   ", subsequent_indent="   ")
    text = [part for line in text for part in
            (textwrap.wrap(line, NOTE_CHARACTERS, subsequent_indent=" " * (len(line) - len(line.lstrip()) + 2))
             or [""])]
    if len(text) > lines:
        text = text[:max(lines - 1, 2)] + [" … (the replay prints every node)"]
    return "\n".join(text)


def tree_figure(picture: TreePicture, title: str = ""):
    """The copy graph as a matplotlib figure (nothing saved). Node scatters carry the gid
    "nodes:<role>" (their points in node order), ghosts "failed", rings "joined", red edges
    "named-edge", shaded buckets "named-bucket:<b>", so that a test can read what was drawn."""
    plt = _pyplot()
    from matplotlib.collections import LineCollection
    from matplotlib.lines import Line2D
    from matplotlib.patches import FancyArrowPatch, Patch, Rectangle

    run, pos = picture.run, picture.positions
    legend = legend_entries(picture)
    legend_h = 0.3 + 0.2 * len(legend)
    fig_w = max(picture.width + NOTE_WIDTH + 0.3, 7.0, _bold_width(tree_headline(picture, title, 200)[0][0]))
    headline = tree_headline(picture, title, int(fig_w * 16))
    head_h = 0.2 + 0.19 * len(headline)
    # tall enough for the graph, or for the note (up to NOTE_LINES lines) above the legend
    note_lines = min(tree_note(picture, NOTE_LINES).count("\n") + 1, NOTE_LINES)
    graph_h = max(picture.height + 0.15, legend_h + LINE * note_lines + 0.2)
    fig_h = head_h + graph_h + 0.1
    fig = plt.figure(figsize=(fig_w, fig_h))

    def axes_at(left: float, bottom: float, width: float, height: float):
        return fig.add_axes((left / fig_w, bottom / fig_h, width / fig_w, height / fig_h))

    for i, (text, style) in enumerate(headline):
        fig.text(0.12 / fig_w, 1 - (0.18 + 0.19 * i) / fig_h, text, va="top", ha="left", **style)

    ax = axes_at(0.1, 0.1, picture.width, graph_h)   # 1 unit = 1 inch, y down
    ax.set_xlim(0, picture.width)
    ax.set_ylim(graph_h, 0)
    ax.axis("off")

    # buckets: a header over each column, red shading over the buckets the property names
    for b in picture.columns:
        middle = picture.column_x[b] + picture.column_width[b] / 2
        named = b in picture.named_buckets
        if named:
            left = picture.column_x[b] - (0.35 if picture.small else 0.3)
            right = picture.column_x[b] + picture.column_width[b] + (0.35 if picture.small else 0.3)
            ax.add_patch(Rectangle((left, 0.02), right - left, graph_h - 0.04, facecolor=RED, alpha=0.10,
                                   edgecolor="none", zorder=0, gid=f"named-bucket:{b}"))
        size = sum(1 for v in range(len(run.addresses)) if run.buckets[v] == b)
        ax.text(middle, 0.1, f"bucket {b}", ha="center", va="center", fontsize=8 if picture.small else 7,
                fontweight="bold", color=RED if named else "black")
        ax.text(middle, 0.24, f"{size} node{'s' if size != 1 else ''}", ha="center", va="center",
                fontsize=6.5, color=RED if named else "#555555")

    # copies: arrows where they are few or matter, thin grey lines for the bulk of a big tree
    big = picture.node_size if picture.small else picture.node_size * 2.6
    radius = {v: math.sqrt(big if v in picture.marked or v == 0 else picture.node_size) / 2 + 1 for v in pos}
    for v in picture.joined:
        radius[v] = math.sqrt(big * 2.2) / 2 + 1
    column_of = {b: i for i, b in enumerate(picture.columns)}
    plain = []
    for s, r in sorted(set(run.edges)):
        named = (s, r) in picture.named_edges
        same_column = run.buckets[s] == run.buckets[r]
        # a copy within a bucket bows out of its column; in small views one that passes over a
        # column arches 0.36 in over it, above the addresses on the way (a quadratic curve peaks
        # at half its control point's offset, rad times the chord)
        skips = picture.small and abs(column_of[run.buckets[r]] - column_of[run.buckets[s]]) > 1
        chord = math.dist(pos[s], pos[r])
        bend = 0.45 if same_column else -0.72 / chord if skips else 0.06
        if picture.small or named or same_column or r in picture.marked:
            ax.add_patch(FancyArrowPatch(
                pos[s], pos[r], arrowstyle="-|>", mutation_scale=10 if picture.small else 7,
                shrinkA=radius[s], shrinkB=radius[r], connectionstyle=f"arc3,rad={bend}",
                color=RED if named else "#444444", linewidth=1.8 if named else 0.8 if picture.small else 0.6,
                zorder=2 if named else 1, gid="named-edge" if named else None))
        else:
            plain.append((pos[s], pos[r]))
    if plain:
        ax.add_collection(LineCollection(plain, colors="#9a9a9a", linewidths=0.45, alpha=0.6, zorder=1))
    live = {a: v for v, a in enumerate(run.addresses)}
    for event, at in picture.ghosts:   # the copies a failed node sent just before: lost with it
        for target in event.sent_to:
            if target in live:
                ax.add_patch(FancyArrowPatch(
                    at, pos[live[target]], arrowstyle="-|>", mutation_scale=8, linestyle="--",
                    shrinkA=radius[0] * 0.8, shrinkB=radius[live[target]], connectionstyle="arc3,rad=0.06",
                    color="#888888", linewidth=0.8, zorder=1, gid="lost-copy"))

    # nodes: one scatter per role, the marked ones larger
    for role, colour in ROLE_COLOURS.items():
        nodes = [v for v in sorted(pos) if picture.roles[v] == role]
        if nodes:
            ax.scatter([pos[v][0] for v in nodes], [pos[v][1] for v in nodes], c=colour,
                       s=[big if v in picture.marked or v == 0 else picture.node_size for v in nodes],
                       edgecolors="black" if picture.small else "white", linewidths=0.6, zorder=3,
                       gid=f"nodes:{role}")
    if picture.joined:
        joined = sorted(picture.joined)
        ax.scatter([pos[v][0] for v in joined], [pos[v][1] for v in joined], s=big * 2.2,
                   facecolors="none", edgecolors="black", linewidths=1.6, zorder=4, gid="joined")
    if picture.ghosts:
        ax.scatter([at[0] for _, at in picture.ghosts], [at[1] for _, at in picture.ghosts], marker="X",
                   s=big * 1.2, c=FAILED, edgecolors="black", linewidths=0.6, zorder=3, gid="failed")

    # labels: the full address in small views (digest and rank below it); indices in big ones,
    # the marked nodes in bold
    box = dict(facecolor="white", alpha=0.75, edgecolor="none", pad=0.4)
    for v in sorted(pos):
        text = picture.label(v)
        if not text:
            continue
        marked = v in picture.marked
        (x, y), clear = pos[v], radius[v] / 72     # inches from the centre to the node's rim
        if picture.small:   # above the node and below it, clear of the copies leaving it
            ax.text(x, y - clear - 0.02, text, ha="center", va="bottom", zorder=5, fontsize=7.5,
                    fontweight="bold" if marked else "normal", bbox=box)
            if v in picture.details:
                ax.text(x, y + clear + 0.02, picture.details[v], ha="center", va="top", zorder=5,
                        fontsize=6, color="#555555", bbox=box)
        else:               # beside it, over the grey lines
            ax.text(x + clear + 0.04, y, text, ha="left", va="center", zorder=5, fontsize=6.5 if marked else 5,
                    fontweight="bold" if marked else "normal", color="black" if marked else "#333333",
                    bbox=box if marked else dict(box, pad=0.1))
    for event, at in picture.ghosts:
        ax.text(at[0] + math.sqrt(big * 1.2) / 144 + 0.05, at[1],
                f"{event.node.address} failed (step {event.step})", ha="left", va="center",
                fontsize=7 if picture.small else 6.5, fontstyle="italic", zorder=5, bbox=box)

    # the side note and the legend, right of the graph
    note = axes_at(picture.width + 0.2, 0.1, NOTE_WIDTH, graph_h)
    note.axis("off")
    note.text(0, 1, tree_note(picture, int((graph_h - legend_h - 0.2) / LINE)), va="top", ha="left",
              fontsize=7, family="monospace", transform=note.transAxes)
    handles = []
    for label, kind, colour in legend:
        if kind == "node":
            handles.append(Line2D([], [], marker="o", linestyle="", markerfacecolor=colour,
                                  markeredgecolor="white", markersize=8, label=label))
        elif kind == "ring":
            handles.append(Line2D([], [], marker="o", linestyle="", markerfacecolor="none",
                                  markeredgecolor="black", markeredgewidth=1.6, markersize=9, label=label))
        elif kind == "ghost":
            handles.append(Line2D([], [], marker="X", linestyle="", markerfacecolor=FAILED,
                                  markeredgecolor="black", markersize=8, label=label))
        elif kind == "lost":
            handles.append(Line2D([], [], color=colour, linewidth=0.8, linestyle="--", label=label))
        elif kind == "edge":
            handles.append(Line2D([], [], color=colour, linewidth=1.8 if colour == RED else 0.8, label=label))
        else:
            handles.append(Patch(facecolor=RED, alpha=0.15, label=label))
    note.legend(handles=handles, loc="lower left", fontsize=7, frameon=False, borderaxespad=0)
    return fig


def legend_entries(picture: TreePicture) -> list[tuple[str, str, str]]:
    """(label, kind, colour) for what this picture shows, with counts."""
    counts: dict[str, int] = {}
    for v in picture.positions:
        counts[picture.roles[v]] = counts.get(picture.roles[v], 0) + 1
    meaning = {"publisher": "publisher", "no parent": "no parent (gets no copy)",
               "several parents": "several parents (duplicate copies)", "on a cycle": "on a cycle",
               "unreached": "one parent, but not reached from the publisher", "one parent": "one parent"}
    entries = [(f"{meaning[role]}: {counts[role]}", "node", colour)
               for role, colour in ROLE_COLOURS.items() if counts.get(role)]
    if picture.joined:
        entries.append((f"joined by an event: {len(picture.joined)}", "ring", "black"))
    if picture.ghosts:
        entries.append((f"failed by an event (gone): {len(picture.ghosts)}", "ghost", FAILED))
        if any(e.sent_to for e, _ in picture.ghosts):
            entries.append(("a copy it sent before it failed (lost)", "lost", "#888888"))
    entries.append(("a copy (sent left to right)", "edge", "#777777"))
    if picture.named_edges:
        what = ("copy to a bucket that is not higher" if picture.prop == "one_way_dissemination"
                else "a deepest path")
        entries.append((f"{what}: {len(picture.named_edges)} cop{'y' if len(picture.named_edges) == 1 else 'ies'}",
                        "edge", RED))
    if picture.named_buckets:
        entries.append((f"bucket {picture.bucket_note}: {len(picture.named_buckets)}", "bucket", RED))
    return entries


def draw_copy_graph(run: L.Dissemination, path: str, title: str = "", prop: str | None = None,
                    events: Iterable[Event] = (), state: L.State | None = None) -> TreePicture:
    """A copy graph as a PNG at `path`, one column per bucket (left to right), with what `prop`
    points at and the `events`' nodes marked; returns what was drawn."""
    picture = tree_picture(run, prop, events, state)
    save(tree_figure(picture, title), path)
    return picture


def draw_tree(doc: dict[str, Any], run: L.Dissemination, path: str, title: str = "") -> TreePicture:
    """The final copy graph `run` of a tree counterexample (a view and its events), with its
    property and its events marked."""
    events, state = replay_events(doc)
    return draw_copy_graph(run, path, title, doc["property"], events, state)


# --------------------------------------------------------------------------------------------
# Schedules: Algorithm 2's partition of T target indices among S ranks
# --------------------------------------------------------------------------------------------

def bounds(rank: int, s: int, t: int, reading: L.Reading) -> tuple[int, int]:
    """Algorithm 2's [LowBound, UpBound] for `rank` under the reading's arithmetic, before it is
    clipped to 1..T (spec.lbdd.owned_indices keeps range(max(low, 1), min(up, T) + 1)); shown so
    that a rank owning nothing shows why."""
    if reading.ratio == "integer":
        ratio = t // s
        return ratio * (rank - 1) + 1, ratio * rank
    if reading.ratio == "ceil":
        ratio = -(-t // s)
        return ratio * (rank - 1) + 1, ratio * rank
    ratio = Fraction(t, s)
    if reading.ratio == "real":
        return math.ceil(ratio * (rank - 1) + 1), math.floor(ratio * rank)
    return math.floor(ratio * (rank - 1)) + 1, math.floor(ratio * rank)


def ratio_rule(s: int, t: int, reading: L.Reading) -> str:
    """The reading's ratio and interval rule, with this S and T filled in."""
    exact = Fraction(t, s)
    ratio = {"integer": f"ratio = T div S = {t // s}", "ceil": f"ratio = ceil(T/S) = {-(-t // s)}",
             "real": f"ratio = T/S = {exact}", "floored": f"ratio = T/S = {exact}"}[reading.ratio]
    interval = {"integer": "[ratio(r-1)+1, ratio r]", "ceil": "[ratio(r-1)+1, ratio r]",
                "real": "[ceil(ratio(r-1)+1), floor(ratio r)]",
                "floored": "[floor(ratio(r-1))+1, floor(ratio r)]"}[reading.ratio]
    last = reading.rank_base + s - 1
    return (f"{reading.ratio} ratio: {ratio}; rank r = {reading.rank_base}..{last} owns {interval}, "
            f"indices outside 1..{t} dropped")


@attrs.frozen
class ScheduleGrid:
    """Algorithm 2 for S senders and T targets: which rank owns which target index."""

    s: int
    t: int
    reading: L.Reading
    ranks: tuple[int, ...]
    owned: dict[int, tuple[int, ...]]     # rank -> the target indices it owns
    owners: dict[int, tuple[int, ...]]    # target index 1..T -> the ranks owning it

    @property
    def faulty(self) -> tuple[int, ...]:
        """The target indices owned by no rank or by several (red in the picture)."""
        return tuple(j for j, rs in self.owners.items() if len(rs) != 1)

    def explanation(self) -> str:
        """What goes wrong, in one sentence ("" where every index has one owner)."""
        none = [j for j in self.faulty if not self.owners[j]]
        several = [j for j in self.faulty if self.owners[j]]
        parts = []
        if none:
            parts.append(f"target {'indices' if len(none) > 1 else 'index'} {_spans(none)} "
                         f"{'are' if len(none) > 1 else 'is'} owned by no rank (no copy)")
        if several:
            parts.append(f"target {'indices' if len(several) > 1 else 'index'} {_spans(several)} "
                         f"{'are' if len(several) > 1 else 'is'} owned by several ranks (duplicate copies)")
        return ("; ".join(parts)[:1].upper() + "; ".join(parts)[1:] + ".") if parts else ""


def schedule_grid(s: int, t: int, reading: L.Reading) -> ScheduleGrid:
    ranks = tuple(range(reading.rank_base, reading.rank_base + s))
    owned = {r: tuple(L.owned_indices(r, s, t, reading)) for r in ranks}
    owners = {j: tuple(r for r in ranks if j in owned[r]) for j in range(1, t + 1)}
    return ScheduleGrid(s, t, reading, ranks, owned, owners)


def schedule_figure(grid: ScheduleGrid, title: str = ""):
    """The partition as a grid: ranks down, target indices 1..T across, a blue cell where the
    rank owns the index, a bottom row counting each index's owners, red where that count is not
    1 (the column shaded too). Cells carry the gid "cell:<rank>:<index>", the counts
    "owners:<index>"."""
    plt = _pyplot()
    from matplotlib.patches import Rectangle

    s, t, reading = grid.s, grid.t, grid.reading
    # cells shrink with T across (down to 0.06 in) and with S down (down to 0.2 in, so that a
    # rank's label stays readable)
    cell_w = min(0.45, max(0.06, 9.0 / max(t, 1)))
    cell_h = min(0.45, max(0.2, 6.0 / s))
    label_w = 2.3
    grid_w, grid_h = cell_w * max(t, 1), cell_h * (s + 1)   # + the owners row
    holds = not grid.faulty
    prop = L.PARTITION.name
    first = (f"{title or prop} — {'holds' if holds else 'violated'} for S = {s} sender{'s' if s != 1 else ''}, "
             f"T = {t} target{'s' if t != 1 else ''}")
    fig_w = max(label_w + grid_w + 0.6, 8.5, _bold_width(first))
    width = int(fig_w * 16)
    head = [(first, {"fontsize": 10, "fontweight": "bold"})]
    head += [(text, {"fontsize": 8}) for text in
             _headline(f"Algorithm 2 under reading {reading.name!r}: {ratio_rule(s, t, reading)}.", width)]
    head += [(text, {"fontsize": 8}) for text in _headline("Paper, " + L.PARTITION.claim + ".", width)]
    head += [(text, {"fontsize": 8, "color": "#8b0000"}) for text in _headline(grid.explanation(), width)]
    head_h = 0.2 + 0.19 * len(head)
    fig_h = head_h + grid_h + 0.75
    fig = plt.figure(figsize=(fig_w, fig_h))
    for i, (text, style) in enumerate(head):
        fig.text(0.12 / fig_w, 1 - (0.18 + 0.19 * i) / fig_h, text, va="top", ha="left", **style)

    ax = fig.add_axes((0, 0, 1, (fig_h - head_h) / fig_h))
    ax.set_xlim(-label_w, fig_w - label_w)
    ax.set_ylim(fig_h - head_h, 0)
    ax.axis("off")
    top = 0.35
    font = 8 if cell_w >= 0.25 else 6
    every = 1 if cell_w >= 0.25 else math.ceil(0.3 / cell_w)   # index labels that fit across
    for j in range(1, t + 1):
        x = (j - 1) * cell_w
        if j in grid.faulty:
            ax.add_patch(Rectangle((x, top), cell_w, cell_h * s, facecolor=RED, alpha=0.18, edgecolor="none",
                                   zorder=0))
        if j == 1 or j % every == 0:
            ax.text(x + cell_w / 2, top - 0.08, str(j), ha="center", va="bottom", fontsize=font,
                    color=RED if j in grid.faulty else "black", fontweight="bold" if j in grid.faulty else "normal")
    ax.text(-0.1, top - 0.08, "target index", ha="right", va="bottom", fontsize=8)
    for i, r in enumerate(grid.ranks):
        y = top + i * cell_h
        low, up = bounds(r, s, t, reading)
        owns = grid.owned[r]
        got = f"{owns[0]}..{owns[-1]}" if len(owns) > 1 else str(owns[0]) if owns else "nothing"
        ax.text(-0.1, y + cell_h / 2, f"rank {r}: [{low}, {up}] → {got}", ha="right", va="center",
                fontsize=8 if cell_h >= 0.3 else 6.5, family="monospace")
        for j in range(1, t + 1):
            ax.add_patch(Rectangle(((j - 1) * cell_w, y), cell_w, cell_h, facecolor=OWNED if j in owns else "none",
                                   edgecolor="#999999", linewidth=0.5, zorder=1, gid=f"cell:{r}:{j}"))
    y = top + s * cell_h
    ax.text(-0.1, y + cell_h / 2, "owners", ha="right", va="center", fontsize=8, fontweight="bold")
    for j, rs in grid.owners.items():
        bad = j in grid.faulty
        ax.add_patch(Rectangle(((j - 1) * cell_w, y), cell_w, cell_h, facecolor=RED if bad else "#e8e8e8",
                               edgecolor="#999999", linewidth=0.5, zorder=1, gid=f"owners:{j}"))
        if cell_w >= 0.2:
            ax.text((j - 1) * cell_w + cell_w / 2, y + cell_h / 2, str(len(rs)), ha="center", va="center",
                    fontsize=font, color="white" if bad else "black", fontweight="bold", zorder=2)
    if t == 0:
        ax.text(0, top + cell_h * s / 2, "T = 0: no target index to own", ha="left", va="center", fontsize=8)
    ax.text(-label_w + 0.12, y + cell_h + 0.3,
            "blue: the rank owns the index; red: an index owned by no rank or by several "
            "(each target needs exactly one sender)", ha="left", va="center", fontsize=7, color="#333333")
    return fig


def draw_schedule(doc: dict[str, Any], path: str, title: str = "") -> ScheduleGrid:
    """A schedule counterexample (S senders, T targets) as a PNG at `path`; returns the grid."""
    grid = schedule_grid(doc["S"], doc["T"], L.reading_named(doc["reading"]))
    save(schedule_figure(grid, title), path)
    return grid
