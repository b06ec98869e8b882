"""Pictures of the chordal ring's counterexamples: the ring after each operation, one panel each.

Brokers sit on a circle in identifier order (ties, which only a faulty join makes, by handle),
each labelled with its handle and identifier. Each broker's Right is an arrow just outside the
circle and its Left one just inside; Leftleft and Rightright are thin arcs across. A pointer that
is not what sec. 3.3.1 defines for the ring as its identifiers order it is red, an unset one is
listed under the panel; failed brokers are crossed, a failed link dashed red, a query's (or an
event's) path olive; an event's links of its kind purple.
"""

from __future__ import annotations

import functools
import math
import textwrap
from typing import Sequence

from spec import chordal_ring as C

POINTER_STYLE = {"right": ("tab:blue", 1.08, 1.4), "left": ("tab:green", 0.92, 1.4),
                 "rightright": ("0.6", 1.0, 0.6), "leftleft": ("0.6", 1.0, 0.6)}


def _figure(panels: int):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    cols = min(panels, 4)
    rows = math.ceil(panels / cols)
    fig, axes = plt.subplots(rows, cols, figsize=(3.8 * cols, 4.0 * rows), squeeze=False)
    fig.subplots_adjust(top=0.8, wspace=0.3)
    for ax in axes.flat:
        ax.set_axis_off()
    return plt, fig, list(axes.flat)


def _positions(ring: C.Ring) -> dict[int, tuple[float, float]]:
    order = sorted(range(len(ring)), key=lambda h: (ring[h].id, h))     # failed brokers too, crossed
    n = max(len(order), 1)
    return {h: (math.cos(math.pi / 2 - 2 * math.pi * i / n), math.sin(math.pi / 2 - 2 * math.pi * i / n))
            for i, h in enumerate(order)}


def draw_ring(ax, ring: C.Ring, caption: str, failed=frozenset(), link=None, path=(), pointers=True) -> None:
    """One panel: the ring, its pointers (unless left out), failures and a query's path."""
    pos = _positions(ring)
    live = [h for h in C.in_id_order(ring) if h not in failed]
    n = len(live)
    # what sec. 3.3.1 defines among the live brokers, in identifier order
    right = {h: (live[(i - 1) % n], live[(i + 1) % n], live[(i - 2) % n], live[(i + 2) % n])
             for i, h in enumerate(live)}
    unset = []
    for h, b in enumerate(ring.brokers):
        if h in failed or not pointers:
            continue
        for k, name in enumerate(C.POINTERS):
            target = b.pointers()[k]
            if target is None:
                unset.append(f"{name}({h})")
                continue
            colour, scale, width = POINTER_STYLE[name]
            if target != right[h][k]:
                colour = "red"
            (x0, y0), (x1, y1) = pos[h], pos[target]
            if h == target:
                continue
            ax.annotate("", xy=(x1 * scale, y1 * scale), xytext=(x0 * scale, y0 * scale),
                        arrowprops=dict(arrowstyle="->", color=colour, lw=width,
                                        connectionstyle="arc3,rad=0.15"))
    if link is not None:
        (x0, y0), (x1, y1) = pos[link[0]], pos[link[1]]
        ax.plot([x0, x1], [y0, y1], color="red", ls="--", lw=1.5)
    for x, y in zip(path, path[1:]):
        ax.plot([pos[x][0], pos[y][0]], [pos[x][1], pos[y][1]], color="tab:olive", lw=2.5, alpha=0.7)
    for h, (x, y) in pos.items():
        ax.plot([x], [y], "o", ms=9, color="white" if h not in failed else "0.8", mec="black")
        if h in failed:
            ax.plot([x], [y], "x", ms=12, color="red", mew=2)
        ax.text(x * 1.32, y * 1.32, f"{h}\n{ring[h].id}", ha="center", va="center", fontsize=6)
    ax.set_xlim(-1.7, 1.7)
    ax.set_ylim(-1.9, 1.7)
    ax.set_aspect("equal")
    ax.set_title(textwrap.fill(caption, 48), fontsize=7)
    if unset:
        ax.text(0, -1.8, "unset: " + ", ".join(unset[:6]) + (" ..." if len(unset) > 6 else ""),
                ha="center", fontsize=6, color="red")


def draw_joins(runs: Sequence[C.JoinRun], png: str, title: str) -> None:
    shown = list(runs)[-8:]
    plt, fig, axes = _figure(len(shown))
    start = len(runs) - len(shown)
    for ax, (k, run) in zip(axes, enumerate(shown, start=start)):
        what = (f"broker {run.new} (id {run.after[run.new].id}) via {run.contact}"
                if run.outcome == C.JOINED else f"via {run.contact}: {run.outcome}")
        failed = f" ({', '.join(map(str, sorted(run.after.failed)))} failed)" if run.after.failed else ""
        draw_ring(ax, run.after, f"join {k}: {what}{failed}", failed=run.after.failed)
    fig.suptitle(title, fontsize=8)
    fig.savefig(png, dpi=90)
    plt.close(fig)


def draw_failure(run, png: str, title: str) -> None:
    if isinstance(run, C.LinkRun):
        plt, fig, axes = _figure(1)
        failed = frozenset({run.b}) if run.b_failed else frozenset()
        draw_ring(axes[0], run.ring, f"link {run.a}-{run.b} ({run.kind}) fails"
                  + (f" with broker {run.b}" if run.b_failed else "") + f": {run.outcome}",
                  link=(run.a, run.b), path=run.path, failed=failed)
    else:
        plt, fig, axes = _figure(2)
        draw_ring(axes[0], run.before, f"brokers {sorted(run.failed)} fail", failed=run.failed)
        outcomes = ", ".join(f"{h.failed}: {h.outcome}" for h in run.handlings)
        draw_ring(axes[1], run.after, f"after handling ({outcomes})", failed=run.failed)
    fig.suptitle(title, fontsize=8)
    fig.savefig(png, dpi=90)
    plt.close(fig)


def draw_event(route: C.EventRoute, png: str, title: str) -> None:
    """An express or secure event: every normal link grey, its kind's links (sec. 3.3's Eu or
    Es, with Ec where the reading adds it) in purple, the path it took in olive, the source and
    destination filled."""
    plt, fig, axes = _figure(1)
    ax = axes[0]
    pos = _positions(route.graph.ring)
    for a, b in sorted(route.graph.normal()):
        ax.plot([pos[a][0], pos[b][0]], [pos[a][1], pos[b][1]], color="0.85", lw=0.8)
    for a, b in sorted(route.graph.links(route.kind, route.reading)):
        ax.plot([pos[a][0], pos[b][0]], [pos[a][1], pos[b][1]], color="tab:purple", lw=2)
    draw_ring(ax, route.graph.ring, f"{route.kind} event {route.source} -> {route.to}: {route.outcome} "
              f"(purple: its links; grey: the other normal links)", path=route.path, pointers=False)
    for h, colour in ((route.source, "tab:orange"), (route.to, "tab:purple")):
        ax.plot([pos[h][0]], [pos[h][1]], "o", ms=9, color=colour, mec="black")
    fig.suptitle(title, fontsize=8)
    fig.savefig(png, dpi=90)
    plt.close(fig)


def draw_z3(states: Sequence[dict], png: str, title: str) -> None:
    """A Z3 run: each state's members on a circle in the btw order, with their pointers."""
    plt, fig, axes = _figure(len(states))
    for k, (ax, state) in enumerate(zip(axes, states)):
        names = state["universe"]["Node"]
        btw = {tuple(t) for t in state["relations"]["btw"]}
        # the ring order btw gives, from the first element: x before y when btw(first, x, y)
        first = names[0]
        order = [first] + sorted(names[1:], key=functools.cmp_to_key(
            lambda x, y: -1 if (first, x, y) in btw else 1))
        members = {m[0] for m in state["relations"]["member"]}
        handle = {x: i for i, x in enumerate(order)}
        brokers = []
        for x in order:
            pointers = {p: next((handle[b] for a, b in state["relations"][p] if a == x), None) for p in C.POINTERS}
            brokers.append(C.Broker(handle[x], pointers["left"], pointers["right"], pointers["leftleft"],
                                    pointers["rightright"]))
        ring = C.Ring(32, tuple(brokers))
        gone = frozenset(handle[x] for x in order if x not in members)
        draw_ring(ax, ring, f"state {k}: members {sorted(handle[m] for m in members)} (crossed: not joined yet)",
                  failed=gone)
    fig.suptitle(title, fontsize=8)
    fig.savefig(png, dpi=90)
    plt.close(fig)
