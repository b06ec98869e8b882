"""Pictures of IRBR counterexamples (`pubsub-proofs replay FILE --png OUT`), one per model.

Model I (operations one at a time, operations.replay): the Pastry ring, every identifier that was
ever live placed on a circle in identifier order (to scale in the identifier space where nodes are
far enough apart, else nudged apart or evenly spaced), live nodes filled and failed or departed
ones grey; the final publish's event travelling the publisher's delegation tree as arrows labelled
with the range each copy is delegated (blue: a copy sent, grey dashed: a range pruned because no
entry of the sender's filter table matches, red: a copy lost to a failed representative); beside
it the operations in order as the replay prints them, the filter tables the event met, and what
went wrong, the subscriber that misses the event (or gets it twice, or the node the delegation
tree never reaches) drawn in red.

Model II (messages in flight, flight.replay): a message-sequence chart, one vertical lifeline per
node and one row per recorded step; each message is an arrow from the step that sent it to the
step that delivered it, labelled with the step's number, the message's kind and what it carries
(overtaking shows as crossing arrows); an operation starting, a withdrawal spreading, a failed
node's entries dropped and a crash are marked on their node's lifeline, notifications with a
star; beside it the numbered steps as
the replay prints them and what went wrong once all was quiet, the subscriber that missed an
event (or got it twice, or the node keeping an entry of a withdrawn subscription or a failed
subscriber) in red.

The replays return what they computed (`OperationsReplay`, `FlightReplay`), so a picture shows
exactly what the spec's replay found. Positions follow from the structure alone and PNGs are
saved without a timestamp or version, so drawing one twice gives identical bytes.
"""

from __future__ import annotations

import math
import textwrap
from collections import Counter
from typing import Any

import attrs

from checks import figures
from spec import irbr as I
from spec.registry import Property

DPI = 100
LINE_INCHES = 0.19       # one line of the text panel
PANEL_CHARACTERS = 84    # where the text panel wraps
RED, GREEN, BLUE, GREY = "#c44e52", "#55a868", "#4c72b0", "#808080"
MESSAGE_COLOURS = {"sub": "#1f77b4", "widen": "#17becf", "uncover": "#9467bd", "unsub": "#ff7f0e",
                   "event": "#2ca02c"}


# --------------------------------------------------------------------------------------------
# What a replay computed, as a drawing needs it
# --------------------------------------------------------------------------------------------

@attrs.frozen
class OperationsReplay:
    """A model I replay: the network it starts from, each operation done with the line the replay
    printed for it, the network the final event is published on, its PublishRun and the verdict."""

    reproduced: bool      # the property fails again
    prop: Property
    reading: I.Reading
    first: I.Network
    operations: tuple     # (operation as spec.irbr.operate takes it, line printed)
    net: I.Network
    run: I.PublishRun
    publish_line: str

    def draw(self, path: str, title: str = "") -> None:
        draw_operations(self, path, title)


@attrs.frozen
class FlightReplay:
    """A model II replay: the subscriptions made beforehand, the script, the state it starts from,
    each step (line printed, action, state after), the quiet run at the end and the verdict."""

    reproduced: bool
    prop: Property
    reading: I.Reading
    subscriptions: tuple  # (node, filter text) subscribed beforehand
    script: tuple         # (kind, node, filter or event items)
    first: I.Flight
    steps: tuple          # (line printed, action, Flight after it)
    run: I.FlightRun

    def draw(self, path: str, title: str = "") -> None:
        draw_flight(self, path, title)


# --------------------------------------------------------------------------------------------
# What went wrong: the nodes a picture marks in red, each with why
# --------------------------------------------------------------------------------------------

def _times(count: int) -> str:
    return {0: "never", 1: "once", 2: "twice"}.get(count, f"{count} times")


def _notified(count: int) -> str:
    return "never notified" if count == 0 else f"notified {_times(count)}"


def publish_marks(prop_name: str, run: I.PublishRun, net: I.Network | None = None) -> dict[str, str]:
    """The nodes that make `prop_name` fail on a publish of model I (or on the network `net` it is
    published on), each with why: an interested subscriber not notified exactly once, a node
    receiving the event twice, a live node the delegation tree does not reach exactly once, a node
    whose filter table names a range its routing table does not have. Empty where the property
    holds."""
    pub = run.publication
    marks: dict[str, str] = {}
    if prop_name == "every_entry_prefix_in_the_routing_table" and net is not None:
        stray: dict[str, list[str]] = {}
        for m, p, f, s in I.stray_entries(net):
            stray.setdefault(m, []).append(f"[{p}* {f} of {s}{'' if s in net.live else ', failed'}]")
        for m, entries in stray.items():
            marks[m] = f"keeps {' '.join(entries)}, a range its routing table does not have"
    elif prop_name == "no_copy_enters_a_range_without_interest" and net is not None:
        ranges: dict[str, list[str]] = {}
        for sender, _, prefix in I.copies_into_ranges_without_interest(net, run):
            ranges.setdefault(sender, []).append(f"{prefix}*")
        for sender, prefixes in ranges.items():
            marks[sender] = f"sends the event into {', '.join(prefixes)}, where no live node is interested"
    elif prop_name in ("every_interested_subscriber_notified_exactly_once", "changes_after_subscribing_lose_no_event"):
        got = dict(pub.notified)
        for s in sorted(set(run.interested) | set(got)):
            if s not in run.interested:
                marks[s] = "notified though not interested"
            elif got.get(s, 0) != 1:
                marks[s] = "interested, " + _notified(got.get(s, 0))
    elif prop_name == "no_node_receives_an_event_twice":
        for node, count in pub.received:
            if count > 1:
                marks[node] = f"receives the event {_times(count)}"
        if pub.publisher in dict(pub.received):
            marks[pub.publisher] = "the publisher receives its own event back"
    elif prop_name == "delegation_reaches_every_live_node_once":
        reached = Counter(m for _, m in run.spanning)
        for node in sorted(run.live - {pub.publisher}):
            if reached[node] != 1:
                marks[node] = ("live, never reached by the delegation tree" if reached[node] == 0 else
                               f"live, reached {_times(reached[node])} by the delegation tree")
        if reached[pub.publisher]:
            marks[pub.publisher] = "the publisher is reached by its own delegation tree"
    return marks


def _event_text(items) -> str:
    return ", ".join(f"{a}={v!r}" for a, v in items)


def flight_marks(prop_name: str, run: I.FlightRun) -> dict[str, list[str]]:
    """The nodes that make `prop_name` fail once all is quiet in model II, each with why: a steady
    subscriber not notified exactly once of an event (or anyone notified twice); a subscriber an
    event published again on the settled tables does not reach exactly once; a node keeping an
    entry of a subscription its live subscriber has withdrawn, or of a failed subscriber. Empty
    where the property holds."""
    marks: dict[str, list[str]] = {}
    state = run.state
    live = state.net.live
    if prop_name == "steady_subscribers_notified_exactly_once":
        got = {(e, n): c for e, n, c in state.notified}
        told = set()  # (event, node) already marked
        for k, (kind, node, item) in enumerate(run.script):
            if kind != "publish" or node not in live:
                continue
            for s, f in sorted(run.steady, key=repr):
                if f.matches(dict(item)) and got.get((k, s), 0) != 1:
                    marks.setdefault(s, []).append(f"steady subscriber of {f}: {_notified(got.get((k, s), 0))} "
                                                   f"of event {k} ({_event_text(item)})")
                    told.add((k, s))
        for (k, node), count in sorted(got.items()):
            if count > 1 and (k, node) not in told:
                marks.setdefault(node, []).append(f"{_notified(count)} of event {k}")
    elif prop_name == "settled_network_delivers_exactly_once":
        for k, (kind, _, item) in enumerate(run.script):
            if kind != "publish":
                continue
            wrong: dict[tuple[str, int], list[str]] = {}
            for p in sorted(live):
                publish = I.publish_run(state.net, p, dict(item))
                got = dict(publish.publication.notified)
                for s in sorted(set(publish.interested) | set(got)):
                    if s not in publish.interested or got.get(s, 0) != 1:
                        wrong.setdefault((s, got.get(s, 0)), []).append(p)
            for (s, count), publishers in sorted(wrong.items()):
                marks.setdefault(s, []).append(f"interested in event {k} ({_event_text(item)}), {_notified(count)} "
                                               f"when it is published again (by {', '.join(publishers)}) on the "
                                               "settled tables")
    elif prop_name == "no_entry_outlives_its_subscription":
        filters = state.net.filters
        for m, p, g, s in sorted(filters, key=repr):
            if s in live and (s, s, g, s) not in filters:
                marks.setdefault(m, []).append(f"keeps the entry [{p}* {g}] of {s}'s withdrawn subscription")
    elif prop_name == "no_entry_outlives_its_subscriber":
        for m, p, g, s in sorted(state.net.filters, key=repr):
            if s not in live:
                marks.setdefault(m, []).append(f"keeps the entry [{p}* {g}] of failed {s}")
    return marks


def explanation(prop: Property, run: Any) -> str | None:
    """The property's own one-sentence account of the failure (spec.registry's `explain`), where it
    has one."""
    return prop.explain(run) if prop.explain is not None else None


# --------------------------------------------------------------------------------------------
# Common pieces: the figure, the text panel, saving
# --------------------------------------------------------------------------------------------

def _pyplot():
    return figures.pyplot()


def _wrapped(text: str, indent: str = "", width: int = PANEL_CHARACTERS) -> list[str]:
    return textwrap.wrap(text, width, initial_indent=indent, subsequent_indent=indent + "    ",
                         break_on_hyphens=False) or [indent]


@attrs.frozen
class Line:
    """One line of the text panel."""

    text: str
    colour: str = "black"
    weight: str = "normal"


def _block(text: str, colour: str = "black", weight: str = "normal", indent: str = "") -> list[Line]:
    return [Line(t, colour, weight) for t in _wrapped(text, indent)]


def _text_panel(ax, lines: list[Line], rows: float) -> None:
    """Lines top-down, one per LINE_INCHES whatever the panel's height (`rows` lines fit)."""
    ax.set_xlim(0, 1)
    ax.set_ylim(-rows, 0.5)
    ax.axis("off")
    for i, line in enumerate(lines):
        ax.text(0, -i, line.text, va="center", ha="left", fontsize=8.5, family="DejaVu Sans Mono",
                color=line.colour, fontweight=line.weight)


def _figure(plt, diagram_inches: tuple[float, float], lines: list[Line], header_lines: int):
    """A figure with the diagram on the left and the text panel on the right, tall enough for
    both; returns (fig, diagram axes, panel axes)."""
    width, height = diagram_inches
    panel_width = PANEL_CHARACTERS * 0.072 + 0.4
    header = 0.28 * header_lines + 0.3
    body = max(height, LINE_INCHES * (len(lines) + 1))
    fig = plt.figure(figsize=(width + panel_width, body + header))
    total_w, total_h = width + panel_width, body + header
    diagram = fig.add_axes((0.1 / total_w, 0.1 / total_h, (width - 0.2) / total_w, (body - 0.2) / total_h))
    panel = fig.add_axes(((width + 0.1) / total_w, 0.1 / total_h, (panel_width - 0.2) / total_w,
                          (body - 0.2) / total_h))
    _text_panel(panel, lines, (body - 0.2) / LINE_INCHES)
    return fig, diagram, panel


def _title(fig, lines: list[tuple[str, str, str]]) -> None:
    """Title lines at the top of the figure: (text, colour, weight)."""
    height = fig.get_figheight()
    for i, (text, colour, weight) in enumerate(lines):
        fig.text(0.01, 1 - (0.2 + 0.28 * i) / height, text, ha="left", va="center",
                 fontsize=11 if i == 0 else 9.5, color=colour, fontweight=weight)


def _save(fig, path: str) -> None:
    figures.save(fig, path, DPI, metadata=figures.NO_STAMP)


def _verdict_title(title: str, prop: Property, reproduced: bool, summary: str, run: Any) -> list[tuple[str, str, str]]:
    lines = [(title or f"irbr: {prop.name}", "black", "bold"),
             (f"{prop.name}: " + ("VIOLATED" if reproduced else "holds") + (f"; {summary}" if summary else ""),
              RED if reproduced else GREEN, "bold")]
    explained = explanation(prop, run)
    if explained:
        lines += [(t, "black", "normal") for t in textwrap.wrap(explained, 150)]
    return lines


def _verdict_heading(reproduced: bool) -> Line:
    return Line("What went wrong:", RED, "bold") if reproduced else Line("Verdict:", GREEN, "bold")


def _claim_lines(prop: Property) -> list[Line]:
    return [Line("")] + _block("The claim: " + prop.claim, "#444444")


# --------------------------------------------------------------------------------------------
# Model I: the Pastry ring and the final publish's delegation tree
# --------------------------------------------------------------------------------------------

def node_fates(replayed: OperationsReplay) -> dict[str, str]:
    """Every identifier that was ever live, with its state when the event is published: "live",
    or how it went ("failed at 3", "left at 2")."""
    fates = {n: "live" for n in replayed.first.live}
    for number, (op, _) in enumerate(replayed.operations, start=1):
        kind, node = op[0], op[1]
        if kind == "join":
            fates[node] = "live"
        elif kind == "fail":
            fates[node] = f"failed at {number}"
        elif kind == "leave":
            fates[node] = f"left at {number}"
    return {n: fates[n] for n in sorted(fates)}


def _value(space: I.Space, node: str) -> int:
    return sum(space.digits.index(d) * space.k ** (space.L - 1 - i) for i, d in enumerate(node))


MIN_GAP = 45 / 360  # the least arc between two nodes on the ring, as a fraction of the circle

TO_SCALE, NUDGED, EVEN = "to scale", "nudged apart where crowded", "evenly spaced"


def ring_positions(space: I.Space, nodes: list[str]) -> tuple[dict[str, tuple[float, float]], str]:
    """Nodes on the unit circle in identifier order, clockwise from the top, at their place in the
    identifier space (TO_SCALE); where two are closer than MIN_GAP, neighbours are pushed apart
    symmetrically until none is (NUDGED, still in order and near their place); where that cannot
    fit, evenly spaced in identifier order (EVEN). Returns the positions and which of the three."""
    size = space.k ** space.L
    ordered = sorted(nodes, key=lambda n: _value(space, n))
    fractions = [_value(space, n) / size for n in ordered]
    placement = TO_SCALE
    if len(ordered) * MIN_GAP > 1:
        fractions, placement = [i / len(ordered) for i in range(len(ordered))], EVEN
    elif len(ordered) > 1:
        for _ in range(1000):
            crowded = False
            for i in range(len(ordered)):
                j = (i + 1) % len(ordered)
                gap = (fractions[j] - fractions[i]) % 1.0
                if gap < MIN_GAP - 1e-9:
                    push = (MIN_GAP - gap) / 2 + 1e-6
                    fractions[i] -= push
                    fractions[j] += push
                    crowded = True
                    placement = NUDGED
            if not crowded:
                break
    return {n: (math.sin(2 * math.pi * f), math.cos(2 * math.pi * f)) for n, f in zip(ordered, fractions)}, placement


def _curve_middle(a, b, rad: float) -> tuple[float, float]:
    """The middle of matplotlib's arc3 curve from a to b (equal aspect)."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    return (a[0] + b[0]) / 2 + 0.5 * rad * dy, (a[1] + b[1]) / 2 - 0.5 * rad * dx


def _inward(a, b, rad: float) -> float:
    """arc3's `rad` with the sign that bends the chord from a to b toward the ring's centre (off
    the ring, where a short chord would hide)."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    outward = dy * (a[0] + b[0]) - dx * (a[1] + b[1])  # the bulge direction (dy, -dx) against the middle
    return -rad if outward > 0 else rad


def _filter_table_lines(net: I.Network) -> list[Line]:
    lines = []
    for node in sorted(net.live):
        entries = [f"[{p}* {f} of {s}]" for p, f, s in sorted(net.ft(node), key=repr)]
        lines += _block(f"{node}: " + (" ".join(entries) if entries else "(empty)"), indent="  ")
    return lines


def _operations_panel(replayed: OperationsReplay, fates: dict[str, str], marks: dict[str, str]) -> list[Line]:
    space = replayed.first.space
    lines = _block(f"Identifiers of {space.L} digits in base {space.k}; live at the start: "
                   f"{', '.join(sorted(replayed.first.live))}", weight="bold")
    lines += [Line(""), Line("Operations, in order:", weight="bold")]
    for number, (_, said) in enumerate(replayed.operations, start=1):
        lines += _block(f"{number}. {said}", indent="  ")
    if not replayed.operations:
        lines += [Line("  (none)")]
    lines += [Line(""), Line("Then the publish the property judges:", weight="bold")]
    lines += _block(replayed.publish_line, indent="  ")
    lines += [Line(""), Line("Filter tables it meets (range*, filter, subscriber):", weight="bold")]
    lines += _filter_table_lines(replayed.net)
    gone = {n: fate for n, fate in fates.items() if fate != "live"}
    if gone:
        lines += [Line("")] + _block("Gone: " + ", ".join(f"{n} ({fate})" for n, fate in gone.items()),
                                     colour="#555555")
    lines += [Line(""), _verdict_heading(replayed.reproduced)]
    lines += [Line(t, RED) for n, why in marks.items() for t in _wrapped(f"{n}: {why}", "  ")] or \
        [Line("  nothing: the property holds on this run", GREEN)]
    return lines + _claim_lines(replayed.prop)


def draw_operations(replayed: OperationsReplay, path: str, title: str = "") -> None:
    """A model I counterexample as a PNG: the ring with the final publish's delegation tree
    (sent, pruned and lost copies), nodes coloured by role and fate, the nodes that break the
    property in red; the operations, filter tables and verdict beside it."""
    from matplotlib.lines import Line2D
    from matplotlib.patches import Circle, FancyArrowPatch, Wedge

    plt = _pyplot()
    net, run = replayed.net, replayed.run
    space, publisher, event = net.space, run.publication.publisher, dict(run.publication.event)
    marks = publish_marks(replayed.prop.name, run, net)
    fates = node_fates(replayed)
    copies = I.event_spread(net, publisher, event)
    tree = I.broadcast(net, publisher, 0)  # unpruned: every range the publisher's tree delegates
    for _, receiver, _ in copies.messages + copies.lost + tree.messages + tree.lost:
        fates.setdefault(receiver, "live" if receiver in net.live else "failed")
    positions, placement = ring_positions(space, list(fates))

    lines = _operations_panel(replayed, fates, marks)
    summary = "; ".join(f"{n} {why}" for n, why in marks.items())
    header = _verdict_title(title, replayed.prop, replayed.reproduced, textwrap.shorten(summary, 110), run)
    fig, ax, _ = _figure(plt, (9.4, 7.6), lines, len(header))
    _title(fig, header)
    ax.set_aspect("equal")
    ax.set_xlim(-2.35, 2.35)
    ax.set_ylim(-2.2, 1.6)
    ax.axis("off")

    # the identifier ring, with its first-digit ranges shaded where the nodes stand at their place
    ax.add_patch(Circle((0, 0), 1.0, fill=False, color="#bbbbbb", lw=1.5, zorder=1))
    if placement == TO_SCALE and space.k <= 8:
        for d, digit in enumerate(space.digits):
            start, end = 90 - 360 * (d + 1) / space.k, 90 - 360 * d / space.k
            ax.add_patch(Wedge((0, 0), 1.06, start, end, width=0.12, color="#eeeeee" if d % 2 else "#dddddd",
                               zorder=0))
            middle = math.radians((start + end) / 2)
            ax.text(0.7 * math.cos(middle), 0.7 * math.sin(middle), f"{digit}*", ha="center", va="center",
                    fontsize=8, color="#888888", style="italic")
    if placement != TO_SCALE:
        ax.text(0, -1.45, f"(nodes in identifier order, {placement}: not to scale)", ha="center", fontsize=8,
                color="#777777")

    own = {}
    for m, p, f, s in sorted(net.filters, key=repr):
        if m == p == s:
            own.setdefault(m, []).append(str(f))
    circles = {}
    for node, (x, y) in positions.items():
        fate = fates[node]
        colour = RED if node in marks else BLUE if node == publisher else "#dddddd" if fate != "live" \
            else GREEN if node in run.interested else "white"
        circles[node] = Circle((x, y), 0.12, facecolor=colour, edgecolor="#333333" if fate == "live" else GREY,
                               lw=1.5, linestyle="-" if fate == "live" else "--", zorder=3)
        ax.add_patch(circles[node])
        ax.text(x, y, node, ha="center", va="center", fontsize=8 if len(node) <= 3 else 7, zorder=4,
                color="white" if colour in (RED, BLUE) else "black", fontweight="bold")
        notes = (["publisher"] if node == publisher else []) + (["holds " + f for f in own.get(node, [])]) + \
            ([fate] if fate != "live" else []) + ([marks[node]] if node in marks else [])
        if notes:
            ha = "center" if abs(x) < 0.3 else "left" if x > 0 else "right"
            va = "bottom" if y > 0.3 else "top" if y < -0.3 else "center"
            ax.text(1.22 * x, 1.22 * y, "\n".join(textwrap.fill(n, 30) for n in notes), ha=ha, va=va, fontsize=8,
                    color=RED if node in marks else "#222222", zorder=4,
                    bbox=dict(boxstyle="round,pad=0.2", facecolor="white", edgecolor="none", alpha=0.85))

    def arrow(sender, receiver, prefix, colour, style, width, label):
        a, b = positions[sender], positions[receiver]
        rad = _inward(a, b, 0.2)
        ax.add_patch(FancyArrowPatch(a, b, patchA=circles[sender], patchB=circles[receiver], shrinkA=2, shrinkB=2,
                                     arrowstyle="-|>", mutation_scale=16, color=colour, lw=width, linestyle=style,
                                     connectionstyle=f"arc3,rad={rad}", zorder=2))
        mx, my = _curve_middle(a, b, rad)
        ax.text(mx, my, label, ha="center", va="center", fontsize=8.5, color=colour, zorder=4,
                bbox=dict(boxstyle="round,pad=0.15", facecolor="white", edgecolor="none", alpha=0.9))

    sent = {(s, r) for s, r, _ in copies.messages}
    for s, r, prefix in tree.messages:
        if (s, r) not in sent:
            arrow(s, r, prefix, GREY, "--", 1.2, f"{prefix}*")
    for s, r, prefix in tree.lost:
        if (s, r, prefix) not in copies.lost:
            arrow(s, r, prefix, RED, ":", 1.2, f"{prefix}* lost")
    for s, r, prefix in copies.lost:
        arrow(s, r, prefix, RED, "--", 2.0, f"{prefix}* lost")
    for s, r, prefix in copies.messages:
        arrow(s, r, prefix, BLUE, "-", 2.4, f"{prefix}*")

    legend = [Line2D([], [], marker="o", ls="", markersize=10, markerfacecolor=c, markeredgecolor=e, label=t)
              for c, e, t in ((BLUE, "#333333", "publisher"), (GREEN, "#333333", "interested, notified once"),
                              (RED, "#333333", "breaks the property"), ("white", "#333333", "other live node"),
                              ("#dddddd", GREY, "failed or left"))]
    legend += [Line2D([], [], color=BLUE, lw=2.4, label="a copy of the event (range* delegated)"),
               Line2D([], [], color=GREY, lw=1.2, ls="--", label="range* pruned: no entry there matches"),
               Line2D([], [], color=RED, lw=2.0, ls="--", label="lost: that representative has failed")]
    ax.legend(handles=legend, loc="lower center", fontsize=8, ncol=2, frameon=False, bbox_to_anchor=(0.5, 0.0))
    ax.text(0, 1.5, f"{publisher} publishes {_event_text(sorted(event.items()))}", ha="center", fontsize=10,
            fontweight="bold", color=BLUE)
    _save(fig, path)


# --------------------------------------------------------------------------------------------
# Model II: a message-sequence chart of the trace
# --------------------------------------------------------------------------------------------

def _item_text(script: tuple, kind: str, item) -> str:
    return _event_text(script[item][2]) if kind == "event" else str(item)


def _operation_text(operation: tuple) -> str:
    kind, _, item = operation
    return f"publish {_event_text(item)}" if kind == "publish" else f"{kind} {item}"


def send_steps(replayed: FlightReplay) -> dict[int, int]:
    """For each step delivering a message, the step that put it in flight (the latest, should an
    identical one have been sent twice)."""
    sent_at: dict[tuple, int] = {}
    out = {}
    before = replayed.first
    for number, (_, action, after) in enumerate(replayed.steps, start=1):
        if action[0] == "deliver" and action[1] in sent_at:
            out[number] = sent_at[action[1]]
        for message in after.flight - before.flight:
            sent_at[message] = number
        before = after
    return out


def notifications(replayed: FlightReplay) -> dict[int, list[tuple[str, int, int]]]:
    """For each step, the (node, event index, times so far) it notified."""
    out = {}
    before = dict(((e, n), c) for e, n, c in replayed.first.notified)
    for number, (_, _, after) in enumerate(replayed.steps, start=1):
        now = dict(((e, n), c) for e, n, c in after.notified)
        out[number] = [(n, e, c) for (e, n), c in sorted(now.items()) if c > before.get((e, n), 0)]
        before = now
    return out


def _flight_panel(replayed: FlightReplay, marks: dict[str, list[str]]) -> list[Line]:
    state = replayed.run.state
    held = ", ".join(f"{n} {f}" for n, f in replayed.subscriptions) or "nothing"
    lines = _block(f"Live: {', '.join(sorted(replayed.first.net.live))}; subscribed beforehand: {held}", weight="bold")
    lines += [Line(""), Line("Script (operations started in any order, each node's own in order):", weight="bold")]
    for k, (kind, node, item) in enumerate(replayed.script):
        lines += _block(f"op {k}: {node} {_operation_text((kind, node, item))}", indent="  ")
    lines += [Line(""), Line("Steps, as the replay takes them:", weight="bold")]
    for number, (said, _, _) in enumerate(replayed.steps, start=1):
        lines += _block(f"{number}. {said}", indent="  ")
    lines += [Line(""), Line("Once all is quiet:", weight="bold")]
    notified = ", ".join(f"{n} of event {e} {_times(c)}" for e, n, c in state.notified) or "nobody"
    lines += _block(f"notified: {notified}", indent="  ")
    steady = ", ".join(f"{n} {f}" for n, f in sorted(replayed.run.steady, key=repr)) or "none"
    lines += _block(f"steady subscriptions (held throughout): {steady}", indent="  ")
    if state.collided:
        lines += _block("a message was sent while an identical one was in flight (a duplicate)", RED, indent="  ")
    lines += [Line(""), _verdict_heading(replayed.reproduced)]
    lines += [Line(t, RED) for n, whys in marks.items() for why in whys for t in _wrapped(f"{n}: {why}", "  ")] \
        or ([] if state.collided else [Line("  nothing: the property holds on this run", GREEN)])
    return lines + _claim_lines(replayed.prop)


def _label_place(start, end, taken: list) -> tuple[float, float]:
    """Where along an arrow its label goes: the first of a few points, nearest the head first,
    clear of the steps' boxes and of the labels placed before (else the first)."""
    points = [(start[0] + t * (end[0] - start[0]), start[1] + t * (end[1] - start[1]))
              for t in (0.72, 0.55, 0.85, 0.4, 0.62, 0.3)]
    for x, y in points:
        if all(abs(x - bx) >= w + 0.3 or abs(y - by) >= h + 0.12 for bx, by, w, h in taken):
            return x, y
    return points[0]


def draw_flight(replayed: FlightReplay, path: str, title: str = "") -> None:
    """A model II counterexample as a PNG: a message-sequence chart of the recorded steps (one
    lifeline per node, messages as arrows from the step that sent them to the step that delivered
    them, numbered by that step), the nodes that break the property in red; the numbered steps and
    the verdict beside it."""
    from matplotlib.lines import Line2D

    plt = _pyplot()
    run, script = replayed.run, replayed.script
    nodes = sorted(replayed.first.net.live)
    column = {n: i for i, n in enumerate(nodes)}
    marks = flight_marks(replayed.prop.name, run)
    rows = len(replayed.steps)
    sent_at, notified = send_steps(replayed), notifications(replayed)

    lines = _flight_panel(replayed, marks)
    summary = "; ".join(f"{n} {whys[0]}" for n, whys in marks.items())
    header = _verdict_title(title, replayed.prop, replayed.reproduced, textwrap.shorten(summary, 110), run)
    width = 1.6 + 2.3 * len(nodes)
    boxes = {node: "\n".join(textwrap.fill(why, 34) for why in whys) for node, whys in marks.items()}
    below = 1.05 + 0.3 * max((box.count("\n") + 1 for box in boxes.values()), default=0) + 0.9  # marks, legend
    fig, ax, _ = _figure(plt, (width, 0.2 + 0.6 * (rows + below + 0.75)), lines, len(header))
    _title(fig, header)
    ax.set_xlim(-0.75, len(nodes) - 0.25)
    ax.set_ylim(-(rows + below), 0.75)
    ax.axis("off")

    crashed_at = {action[1]: number for number, (_, action, _) in enumerate(replayed.steps, start=1)
                  if action[0] == "crash"}
    held = {}
    for n, f in replayed.subscriptions:
        held.setdefault(n, []).append(f)
    for node, x in column.items():
        end = crashed_at.get(node, rows + 1)
        ax.plot([x, x], [-0.35, -end], color="#555555", lw=1.2, zorder=1)
        if end <= rows:
            ax.plot([x, x], [-end, -(rows + 1)], color="#bbbbbb", lw=1.2, ls=":", zorder=1)
        text = node + "".join(f"\nholds {f}" for f in held.get(node, []))
        ax.text(x, 0.05, text, ha="center", va="center", fontsize=9, fontweight="bold", zorder=4,
                color=RED if node in marks else "black",
                bbox=dict(boxstyle="round,pad=0.3", facecolor="#fbe3e4" if node in marks else "#f2f2f2",
                          edgecolor=RED if node in marks else "#555555", lw=1.5 if node in marks else 1))
    for number in range(1, rows + 1):
        ax.text(-0.7, -number, str(number), ha="left", va="center", fontsize=8, color="#777777")
        ax.plot([-0.55, len(nodes) - 0.3], [-number, -number], color="#f0f0f0", lw=0.8, zorder=0)

    box = dict(boxstyle="round,pad=0.2", facecolor="white", edgecolor="#555555")
    taken = [(column[script[action[1]][1]], -number, 0.45, 0.4)  # the steps' boxes: (x, y, half width, half height)
             for number, (_, action, _) in enumerate(replayed.steps, start=1) if action[0] in ("start", "withdraw")]
    taken += [(column[action[1]], -number, 0.45, 0.4)
              for number, (_, action, _) in enumerate(replayed.steps, start=1) if action[0] == "purge"]
    before = replayed.first
    for number, (_, action, after) in enumerate(replayed.steps, start=1):
        y = -number
        silent = "" if after.flight - before.flight else "\n(sends nothing)"
        if action[0] in ("start", "withdraw") and script[action[1]][1] not in before.net.live:
            silent = "\n(crashed: no effect)"
        before = after
        if action[0] == "start":
            node = script[action[1]][1]
            ax.text(column[node], y, f"{number}. start op {action[1]}:\n{_operation_text(script[action[1]])}{silent}",
                    ha="center", va="center", fontsize=7.5, zorder=5, bbox=box)
        elif action[0] == "withdraw":
            node = script[action[1]][1]
            ax.text(column[node], y, f"{number}. op {action[1]}'s\nwithdrawal spreads{silent}", ha="center",
                    va="center", fontsize=7.5, zorder=5, bbox=box)
        elif action[0] == "purge":
            ax.text(column[action[1]], y, f"{number}. every live node drops\nthe entries of failed {action[1]}",
                    ha="center", va="center", fontsize=7.5, zorder=5, bbox=box)
        elif action[0] == "crash":
            ax.plot([column[action[1]]], [y], marker="X", markersize=16, color=RED, zorder=5)
            ax.text(column[action[1]] + 0.13, y, f"{number}. {action[1]} crashes", ha="left", va="center",
                    fontsize=8, color=RED, fontweight="bold", zorder=5)
        else:
            kind, origin, item, sender, receiver, prefix, clock = action[1]
            colour = MESSAGE_COLOURS.get(kind, "black")
            start = (column[sender], -sent_at.get(number, number - 0.5))
            end = (column[receiver], y)
            ax.annotate("", xy=end, xytext=start, zorder=3,
                        arrowprops=dict(arrowstyle="-|>", color=colour, lw=1.8, mutation_scale=14,
                                        shrinkA=14 if start[1] == int(start[1]) else 0, shrinkB=4))
            lost = receiver in crashed_at and crashed_at[receiver] < number
            if lost:
                ax.plot([end[0]], [end[1]], marker="x", markersize=12, mew=2.5, color=RED, zorder=5)
            label = f"{number}. {kind} {_item_text(script, kind, item)}" \
                + (f" of {origin}" if origin != sender else "") + (" (receiver crashed)" if lost else "")
            lx, ly = _label_place(start, end, taken)
            taken.append((lx, ly, 0.55, 0.24))
            ax.text(lx, ly, label, ha="center", va="center", fontsize=7.5, color=colour, zorder=4,
                    bbox=dict(boxstyle="round,pad=0.12", facecolor="white", edgecolor="none", alpha=0.9))
        beside = 0.1 if action[0] == "deliver" else 0.36  # right of an arrowhead, or of a step's box
        for node, event, times in notified.get(number, []):
            colour = GREEN if times == 1 else RED
            ax.plot([column[node] + beside], [y], marker="*", markersize=13, zorder=6, color=colour)
            text = f"notified of event {event}" + (f" ({times}x)" if times > 1 else "")
            ax.text(column[node] + beside + 0.07, y, text, ha="left", va="center", fontsize=7.5, color=colour, zorder=6)

    for node, box in boxes.items():
        if node in column:
            ax.text(column[node], -(rows + 1.05), box, ha="center", va="top",
                    fontsize=8, color=RED, fontweight="bold", zorder=5,
                    bbox=dict(boxstyle="round,pad=0.3", facecolor="#fbe3e4", edgecolor=RED))
    legend = [Line2D([], [], color=c, lw=2, label=k) for k, c in MESSAGE_COLOURS.items()]
    legend += [Line2D([], [], marker="*", ls="", color=GREEN, markersize=11, label="notified"),
               Line2D([], [], marker="X", ls="", color=RED, markersize=11, label="crash")]
    ax.legend(handles=legend, loc="lower center", bbox_to_anchor=(0.5, 0.0), fontsize=8, ncol=4, frameon=False,
              handlelength=1.5, columnspacing=1.0)
    _save(fig, path)
