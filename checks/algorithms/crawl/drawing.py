"""Replay and drawing of every kind of CRAWL/CDM counterexample the declaration writes.

    walk       a walk on its graph: the source, the entry points, each move an arrow numbered in
               order, a restart dashed (dotted where the chosen node restarts from its own copy), the
               node that receives the data twice marked
    delivery   the graph, the source and the entry point, the exact chance in the title
    ending     the exact chance that the walk ends, drawn on its shortest way round for ever where
               it has one
    space      the value space, each range above it, the pieces below
    tree       the balanced tree of N virtual nodes, its depth levels
    routing    the tree with the route from the entry's virtual node to the matching one
    matching   the subscriber's counter: each arrival, the count and the rule
    rewalks    sec. 4's re-walks on the reference's overlay: each walk's budget in turn, the rule

Replay recomputes everything from the document (the walk move by move against the spec's choices,
the chance from the walk's Markov chain), so an edited file is refused or does not reproduce.
"""

from __future__ import annotations

import math
import re
from fractions import Fraction
from typing import Any, Callable

from checks import plugin
from spec import crawl as C

KINDS = ("walk", "delivery", "ending", "space", "tree", "routing", "matching", "rewalks")
MAX_NODES = 64            # a drawable, replayable graph
MAX_TREE = 1 << 16


def _int(doc: dict[str, Any], field: str, low: int, high: int) -> int:
    value = doc.get(field)
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ValueError(f"counterexample field {field!r} must be a whole number in {low}..{high}, not {value!r}")
    return value


def _params(doc: dict[str, Any]) -> C.WalkParameters:
    n = _int(doc, "n", 1, MAX_NODES)
    edges = doc.get("edges")
    if not isinstance(edges, list) or not all(isinstance(e, list) and len(e) == 2 and
                                              all(isinstance(v, int) and not isinstance(v, bool) for v in e)
                                              for e in edges):
        raise ValueError("counterexample field 'edges' must be a list of [u, v] node pairs")
    entries = doc.get("entries")
    if not isinstance(entries, list) or not all(isinstance(e, int) and not isinstance(e, bool) for e in entries):
        raise ValueError("counterexample field 'entries' must be a list of nodes")
    seen: set[tuple[int, int]] = set()
    for u, v in edges:
        if (min(u, v), max(u, v)) in seen:
            raise ValueError(f"edge ({u}, {v}) is given twice: a view names a neighbour once")
        seen.add((min(u, v), max(u, v)))
    graph = C.Graph.of([tuple(e) for e in edges], n)
    cut_off = [v for v in range(n) if graph.distance(0, [v]) is None]
    if cut_off:    # every explored lower layer is connected, as CBDLO's random graph is
        raise ValueError(f"the lower layer is not connected: node{'s' * (len(cut_off) > 1)} "
                         f"{', '.join(map(str, cut_off))} cannot be reached from node 0")
    return C.WalkParameters(graph, _int(doc, "source", 0, n - 1),
                            frozenset(entries), _int(doc, "k", 1, MAX_NODES), _int(doc, "budget", 1, 1 << 20))


def replay(doc: dict[str, Any], say: Callable[[str], None] = print) -> plugin.Replayed:
    kind = doc.get("kind")
    if kind not in KINDS:
        raise ValueError(f"unknown CRAWL counterexample kind {kind!r}; known: {', '.join(KINDS)}")
    reading = C.reading(doc.get("reading"))
    prop = doc.get("property")
    claim = plugin_property(prop)
    subject = {"walk": _walk, "delivery": _delivery, "ending": _ending, "space": _space, "tree": _tree,
               "routing": _routing, "matching": _matching, "rewalks": _rewalks}[kind](doc, reading, say)
    if claim.subject != type(subject).__name__:
        raise ValueError(f"property {prop!r} judges a {claim.subject}, not a {kind} counterexample")
    holds = claim.predicate(subject)
    say(f"{prop}: {'holds' if holds else 'VIOLATED'}" +
        (f" ({claim.explain(subject)})" if not holds and claim.explain else ""))
    return plugin.Replayed(not holds, draw=lambda path, title: DRAW[kind](subject, path, title))


def plugin_property(name: Any):
    from spec.registry import get

    if not isinstance(name, str):
        raise ValueError(f"counterexample field 'property' must be a property name, not {name!r}")
    return get(C.ALGORITHM, name)


def _walk(doc, reading, say) -> C.Walk:
    params = _params(doc)
    moves = doc.get("moves")
    if not isinstance(moves, list) or not all(isinstance(m, list) and len(m) == 2 and isinstance(m[0], str)
                                              and isinstance(m[1], int) and not isinstance(m[1], bool) for m in moves):
        raise ValueError("counterexample field 'moves' must be a list of [kind, node] pairs")
    walk = C.replay_walk(params, reading, [tuple(m) for m in moves])
    still = C.unfinished(walk)
    if still and walk.lasso is None:   # a counterexample is a whole walk: one that ended, or goes round
        raise ValueError(f"the moves stop after {len(walk.moves)} move{'s' * (len(walk.moves) != 1)} before the walk "
                         f"ends or comes back to a state; it can still make: "
                         f"{', '.join(f'{k} {t}' for k, t in still)}")
    say(f"graph of {len(params.graph)} nodes, edges {params.graph.edges()}; source {params.source}, entry points "
        f"{sorted(params.entries) or 'none'}, k = {params.k}, budget {params.budget}, reading {reading.name}")
    for i, m in enumerate(walk.moves, start=1):
        notice = f" (a notice: {m.to} restarts from the copy it kept)" if not m.carries and m.frm != m.to else ""
        say(f"move {i}: {m.kind} {m.frm} -> {m.to}{notice} (Trace {list(m.trace)}, budget {m.budget})")
    if walk.lasso is not None:
        say(f"the walk is back in the state it reached after move {walk.lasso + 1}: it can go round for ever")
    say(f"receptions: {' -> '.join(map(str, walk.receptions()))}")
    return walk


def _delivery(doc, reading, say) -> C.Delivery:
    from checks.algorithms.crawl.model import delivery

    params = _params(doc)
    d = delivery(params, reading)
    _recorded(doc, d.probability)
    say(f"graph of {len(params.graph)} nodes, edges {params.graph.edges()}; source {params.source}, entry point "
        f"{sorted(params.entries)} ({C.moves_within(params.graph, reading).distance(params.source, params.entries)} "
        f"hops away), k = {params.k}, "
        f"budget {params.budget}: the walk reaches it with probability {d.probability}")
    return d


def _recorded(doc: dict[str, Any], computed: Fraction) -> None:
    recorded = doc.get("probability")
    # an exact chance, written as the checks write it ("1/2", "0"): no float, no endless digits
    if not isinstance(recorded, str) or not re.fullmatch(r"\d{1,60}(/[1-9]\d{0,59})?", recorded):
        raise ValueError(f"counterexample field 'probability' must be an exact chance written as 'p/q' or 'p' "
                         f"(at most 60 digits each), not {str(recorded)[:40]!r}")
    if Fraction(recorded) != computed:
        raise ValueError(f"counterexample field 'probability': the file records probability {recorded}, the walk's "
                         f"chain gives {computed}")


def _ending(doc, reading, say) -> C.Ending:
    from checks.markov import reach_probability
    from checks.algorithms.crawl.model import ending_chain

    params = _params(doc)
    p = reach_probability(ending_chain(params, reading)).probability
    _recorded(doc, p)
    say(f"graph of {len(params.graph)} nodes, edges {params.graph.edges()}; source {params.source}, k = {params.k}, "
        f"budget {params.budget}, reading {reading.name}: the walk ends with probability {p}")
    return C.Ending(params, reading, p)


def _space(doc, reading, say) -> C.Space:
    low, high = _int(doc, "low", -(1 << 20), 1 << 20), _int(doc, "high", -(1 << 20), 1 << 20)
    ranges = doc.get("ranges")
    if not isinstance(ranges, list) or len(ranges) > 1000 or not all(
            isinstance(r, list) and len(r) == 2 and all(isinstance(v, int) and not isinstance(v, bool) for v in r)
            for r in ranges):
        raise ValueError("counterexample field 'ranges' must be a list of at most 1000 [low, high] pairs")
    space = C.Space(low, high, tuple(tuple(r) for r in ranges))
    say(f"value space [{low}, {high}], ranges {', '.join(f'[{a}, {b}]' for a, b in space.ranges)}: pieces "
        f"{', '.join(f'[{a}, {b}]' for a, b in C.pieces(space))}")
    return space


def _tree(doc, reading, say) -> C.Tree:
    tree = C.balanced_tree(_int(doc, "n", 1, MAX_TREE))
    say(f"a balanced tree of {len(tree)} virtual nodes has height {tree.height()}")
    return tree


def _routing(doc, reading, say) -> C.Routing:
    n = _int(doc, "n", 1, MAX_TREE)
    route = C.Routing(C.balanced_tree(n), _int(doc, "entry", 0, n - 1), _int(doc, "target", 0, n - 1))
    say(f"from virtual node {route.entry} to {route.target} in the balanced tree of {n}: {route.hops()} hops; "
        f"the tree's height is {route.tree.height()}")
    return route


def _matching(doc, reading, say) -> C.Matching:
    sub, event, arrivals = doc.get("subscription"), doc.get("event"), doc.get("arrivals")
    if not isinstance(sub, dict) or not sub or not all(
            isinstance(r, list) and len(r) == 2 and all(isinstance(v, int) and not isinstance(v, bool) for v in r)
            and r[0] <= r[1] for r in sub.values()):
        raise ValueError("counterexample field 'subscription' must map attributes to [low, high] ranges")
    if not isinstance(event, dict) or not all(isinstance(v, int) and not isinstance(v, bool) for v in event.values()):
        raise ValueError("counterexample field 'event' must map attributes to whole numbers")
    if not isinstance(arrivals, list) or not all(isinstance(a, str) for a in arrivals):
        raise ValueError("counterexample field 'arrivals' must be a list of attribute names")
    stray = [a for a in arrivals if a not in C.arrivals_of(sub, event)]
    if stray:
        raise ValueError(f"arrivals {stray} cannot reach this subscriber: no virtual node of theirs holds both "
                         "the event's value and the subscriber")
    m = C.Matching(tuple((a, tuple(r)) for a, r in sub.items()), tuple(event.items()), tuple(arrivals), reading)
    say(f"subscription {dict(m.subscription)}, event {dict(m.event)}, arrivals {list(m.arrivals)} under "
        f"{reading.acceptance} / {reading.counting}: {'accepted' if m.accepts() else 'rejected'}; the event "
        f"{'matches' if m.interested() else 'does not match'}")
    return m


def _rewalks(doc, reading, say) -> C.Rewalks:
    from checks.algorithms.crawl.model import SCENARIO_FIELDS, rewalks_of

    scenario = doc.get("scenario")
    if not isinstance(scenario, dict):
        raise ValueError("counterexample field 'scenario' must be an object (nodes, view, seed, k, budget, "
                         "subscribers, gone, source)")
    for field, (low, high) in SCENARIO_FIELDS.items():
        _int(scenario, field, low, high)
    n = scenario["nodes"]
    subs = scenario.get("subscribers")
    if (not isinstance(subs, list) or not 1 <= len(subs) <= n or len(set(subs)) != len(subs)
            or not all(isinstance(v, int) and not isinstance(v, bool) and 0 <= v < n for v in subs)):
        raise ValueError(f"counterexample field 'subscribers' must list distinct nodes of 0..{n - 1}")
    if scenario["view"] >= n or scenario["source"] >= n or scenario["gone"] > len(subs):
        raise ValueError("the scenario's view, source or number of subscribers gone does not fit its nodes")
    chain = rewalks_of(scenario, reading)
    say(f"{n} nodes (views of {scenario['view']}, seed {scenario['seed']}, k = {scenario['k']}), subscribers "
        f"{subs}, the first {scenario['gone']} leaving the topology after every APT cached an entry; an event from "
        f"node {scenario['source']} under {reading.name}: the walks' budgets {chain.describe()}")
    return chain


# --------------------------------------------------------------------------------------------
# Pictures
# --------------------------------------------------------------------------------------------

def _figure(width: float, height: float):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(width, height))
    return plt, fig, ax


def _save(plt, fig, ax, path: str, title: str, note: str = "") -> None:
    ax.set_title(title, fontsize=8, wrap=True)
    ax.axis("off")
    if note:
        fig.text(0.5, 0.02, note, ha="center", va="bottom", fontsize=7, wrap=True)
    fig.subplots_adjust(left=0.03, right=0.97, top=0.9, bottom=0.04 + 0.035 * (note.count("\n") + 1 if note else 0))
    fig.savefig(path, dpi=100)
    plt.close(fig)


def _frame(ax, pos: dict[int, tuple[float, float]]) -> None:
    """Room around the nodes for the bent arrows and their numbers (text does not stretch the axes)."""
    xs, ys = [x for x, _ in pos.values()], [y for _, y in pos.values()]
    pad = 0.3 * max(max(xs) - min(xs), max(ys) - min(ys), 1.0)
    ax.set_xlim(min(xs) - pad, max(xs) + pad)
    ax.set_ylim(min(ys) - pad, max(ys) + pad)
    ax.set_aspect("equal")


def _layout(graph: C.Graph) -> dict[int, tuple[float, float]]:
    import networkx as nx

    g = nx.Graph()
    g.add_nodes_from(range(len(graph)))
    g.add_edges_from(graph.edges())
    return nx.spring_layout(g, seed=3) if len(graph) > 2 else {0: (0.0, 0.0), 1: (1.0, 0.0)}


def _graph(ax, params: C.WalkParameters, pos, marked: set[int] = frozenset()) -> None:
    for u, v in params.graph.edges():
        ax.plot([pos[u][0], pos[v][0]], [pos[u][1], pos[v][1]], color="#bbbbbb", lw=1.5, zorder=1)
    for v, (x, y) in pos.items():
        color = "#ffd54f" if v == params.source else "#81c784" if v in params.entries else "#e3f2fd"
        edge = "#d32f2f" if v in marked else "#333333"
        ax.scatter([x], [y], s=520, color=color, edgecolors=edge, linewidths=2.5 if v in marked else 1, zorder=3)
        ax.text(x, y, str(v), ha="center", va="center", fontsize=10, zorder=4)


def draw_walk(walk: C.Walk, path: str, title: str) -> None:
    plt, fig, ax = _figure(6, 5)
    pos = _layout(walk.params.graph)
    repeat = C._first_repeat(walk)
    _graph(ax, walk.params, pos, {repeat} if repeat is not None else set())
    here: dict[int, list[int]] = {}
    for i, m in enumerate(walk.moves, start=1):   # a restart at the blocked node itself: no arrow
        if m.kind == "restart" and m.frm == m.to:
            here.setdefault(m.to, []).append(i)
    for v, numbers in here.items():
        ax.text(pos[v][0], pos[v][1] - 0.12, f"restarts here: move {', '.join(map(str, numbers))}", color="#d32f2f",
                fontsize=7, ha="center", va="top", zorder=5)
    shown = [(i, m) for i, m in enumerate(walk.moves, start=1) if m.frm != m.to]
    for i, m in shown:
        (x0, y0), (x1, y1) = pos[m.frm], pos[m.to]
        bend = 0.15 + 0.08 * (i % 3)
        style = "-" if m.kind != "restart" else "--" if m.carries else ":"
        color = "#d32f2f" if m.kind == "restart" else "#1565c0"
        ax.annotate("", xy=(x1, y1), xytext=(x0, y0), zorder=2,
                    arrowprops=dict(arrowstyle="-|>", color=color, lw=1.4, linestyle=style, shrinkA=13, shrinkB=13,
                                    connectionstyle=f"arc3,rad={bend}"))
        mx, my = (x0 + x1) / 2, (y0 + y1) / 2
        dx, dy = y1 - y0, x0 - x1
        ax.text(mx + bend * dx * 0.6, my + bend * dy * 0.6, str(i), fontsize=8, color=color, ha="center",
                va="center", bbox=dict(boxstyle="round,pad=0.1", fc="white", ec="none"), zorder=5)
    _frame(ax, pos)
    ends = [m.kind for m in walk.moves if m.kind in ("found", "exhausted", "blocked")]
    legend = ("yellow: source, green: entry point; blue arrows: forwards, numbered in order;\n" +
              ("red dashed: restart (recovery)" if walk.reading.handover == "sent" else
               "red dotted: restart (recovery), a notice: the chosen node restarts from the copy it kept") + ("; red ring: the node that receives the data twice" if repeat is not None else "")
              + ("\nviews refreshed at every hop: a forward may leave the grey links (the snapshot's)"
                 if walk.reading.views == "refreshed" else ""))
    ending = (f"comes back to a state it was in after move {walk.lasso + 1}: it can go round for ever"
              if walk.lasso is not None else f"ends {ends[-1]}" if ends else "is cut by the exploration's bound")
    _save(plt, fig, ax, path, title, f"k = {walk.params.k}, budget {walk.params.budget}; the walk {ending}\n{legend}")


def draw_delivery(d: C.Delivery, path: str, title: str) -> None:
    plt, fig, ax = _figure(5, 4.5)
    pos = _layout(d.params.graph)
    _graph(ax, d.params, pos)
    _frame(ax, pos)
    _save(plt, fig, ax, path, title, f"yellow: source {d.params.source}; green: entry point; k = {d.params.k}, budget "
          f"{d.params.budget}\nthe walk reaches the entry point with probability {d.probability} "
          f"({float(d.probability):.3g})")


def draw_ending(e: C.Ending, path: str, title: str) -> None:
    """The chance beside the walk that shows it: where the walk can go round for ever, its shortest
    lasso (the atlas's search over its states), drawn as a walk."""
    from checks.algorithms.crawl.atlas import explore, shortest_lasso

    p = e.params
    states = explore(p.graph, p.k, p.budget, e.reading)
    said = f"{title}\nthe walk ends with probability {e.probability} ({float(e.probability):.3g})"
    if states.goes_round(p.source):
        draw_walk(shortest_lasso(states, p.source), path, said + "; its shortest way round for ever:")
        return
    plt, fig, ax = _figure(5, 4)
    pos = _layout(p.graph)
    _graph(ax, p, pos)
    _frame(ax, pos)
    _save(plt, fig, ax, path, said, f"yellow: source {p.source}; no entry point; k = {p.k}, budget {p.budget}")


def draw_space(space: C.Space, path: str, title: str) -> None:
    plt, fig, ax = _figure(6, 1.5 + 0.35 * len(space.ranges))
    for i, (lo, hi) in enumerate(space.ranges):
        y = 1 + i
        ax.plot([lo - 0.4, hi + 0.4], [y, y], lw=6, color="#1565c0", solid_capstyle="butt")
        ax.text(space.high + 0.8, y, f"subscription {i + 1}: [{lo}, {hi}]", va="center", fontsize=7)
    for j, (lo, hi) in enumerate(C.pieces(space)):
        ax.add_patch(plt.Rectangle((lo - 0.45, -0.4), hi - lo + 0.9, 0.8, fc="#fff3e0" if j % 2 else "#ffe0b2",
                                   ec="#e65100"))
        ax.text((lo + hi) / 2, 0, f"VN{j + 1}", ha="center", va="center", fontsize=7)
    ax.set_xlim(space.low - 1, space.high + 5)
    ax.set_ylim(-1, len(space.ranges) + 1)
    _save(plt, fig, ax, path, title, f"blue: the subscriptions' ranges; orange: the pieces (virtual nodes). "
          f"{len(space.ranges)} ranges, {len(C.pieces(space))} pieces; the printed bound n + 2 = {len(space.ranges) + 2}")


def _tree_positions(tree: C.Tree) -> dict[int, tuple[float, float]]:
    return {i: (float(i), -float(tree.depth(i))) for i in range(len(tree))}


def draw_tree(tree: C.Tree, path: str, title: str, route: tuple[int, int] | None = None) -> None:
    n = len(tree)
    plt, fig, ax = _figure(min(2 + 0.5 * n, 12), 2 + 0.6 * tree.height())
    pos = _tree_positions(tree)
    on_route: set[int] = set()
    if route is not None:
        a, b = route
        up = lambda i: [i] + (up(tree.parent[i]) if tree.parent[i] >= 0 else [])   # noqa: E731
        ua, ub = up(a), up(b)
        common = next(x for x in ua if x in ub)
        on_route = set(ua[:ua.index(common) + 1]) | set(ub[:ub.index(common) + 1])
    for i, p in enumerate(tree.parent):
        if p >= 0:
            red = i in on_route and p in on_route
            ax.plot([pos[i][0], pos[p][0]], [pos[i][1], pos[p][1]], color="#d32f2f" if red else "#999999",
                    lw=2.5 if red else 1, zorder=1)
    labels = n <= 64
    for i, (x, y) in pos.items():
        color = ("#ffd54f" if route and i == route[0] else "#81c784" if route and i == route[1] else "#e3f2fd")
        ax.scatter([x], [y], s=300 if labels else 20, color=color, edgecolors="#333333", zorder=3)
        if labels:
            ax.text(x, y, str(i), ha="center", va="center", fontsize=7, zorder=4)
    note = f"N = {n} virtual nodes, height {tree.height()} (log2 N = {math.log2(n):.3g})"
    if route is not None:
        note += (f"; yellow: the entry's virtual node {route[0]}, green: the matching one {route[1]}, "
                 f"red: the route, {tree.distance(*route)} hops")
    ax.set_xlim(-1, n)
    ax.set_ylim(-tree.height() - 0.7, 0.7)
    _save(plt, fig, ax, path, title, note.replace("; yellow", ";\nyellow"))


def draw_routing(route: C.Routing, path: str, title: str) -> None:
    draw_tree(route.tree, path, title, (route.entry, route.target))


def draw_matching(m: C.Matching, path: str, title: str) -> None:
    plt, fig, ax = _figure(6, 2.2 + 0.3 * len(m.arrivals))
    sub = dict(m.subscription)
    lines = [f"subscription: {' and '.join(f'{a} in [{lo}, {hi}]' for a, (lo, hi) in m.subscription)} "
             f"(m = {len(sub)} attributes)",
             f"event: {', '.join(f'{a} = {v}' for a, v in m.event) or 'no attribute'} "
             f"({'matches' if m.interested() else 'does not match'})", ""]
    seen: set[str] = set()
    count = 0
    for i, a in enumerate(m.arrivals, start=1):
        new = m.reading.counting == "every-arrival" or a not in seen
        count += new
        seen.add(a)
        lines.append(f"arrival {i}: attribute {a}{'' if new else ' again (not counted)'} -> count {count}")
    rule = "count > m" if m.reading.acceptance == "exceeds" else "count >= m"
    lines += ["", f"rule ({m.reading.acceptance}): {rule}: {count} vs {len(sub)} -> "
              f"{'ACCEPTED' if m.accepts() else 'REJECTED'}"]
    for j, line in enumerate(lines):
        ax.text(0.02, 1 - j / (len(lines) + 1), line, transform=ax.transAxes, fontsize=8, va="top",
                color="#d32f2f" if j == len(lines) - 1 else "black", family="monospace")
    _save(plt, fig, ax, path, title)




def draw_rewalks(chain: C.Rewalks, path: str, title: str) -> None:
    plt, fig, ax = _figure(6.4, 3.4)
    xs = list(range(len(chain.budgets)))
    ax.bar(xs, chain.budgets, color=["#1565c0"] + ["#d32f2f"] * (len(xs) - 1), width=0.6)
    labelled = xs if len(xs) <= 10 else [0, len(xs) - 1]      # a long chain: its start and its end
    for x in labelled:
        b = chain.budgets[x]
        ax.text(x, b, str(b), ha="center", va="bottom", fontsize=9)
        ax.text(x, -0.06 * max(chain.budgets), "first walk" if x == 0 else f"re-walk {x}", ha="center", va="top",
                fontsize=7)
    ax.set_ylim(-0.15 * max(chain.budgets), 1.2 * max(chain.budgets))
    _save(plt, fig, ax, path, title, note=f"the budget of each walk in turn under {chain.reading.name}: a re-walk "
          f"gets {'half the walk before it' if chain.reading.halving == 'previous' else 'half the first walk'}"
          + ("; cut before the re-walks ended" if chain.cut else ""))


DRAW = {"walk": draw_walk, "delivery": draw_delivery, "ending": draw_ending, "space": draw_space, "tree": draw_tree,
        "routing": draw_routing, "matching": draw_matching, "rewalks": draw_rewalks}
