"""Sec. 3.4's costs against the ring's size: the messages of one node failure's handling (sec.
3.4.1, "bounded by O(degree(B)) ... O(log n)") and the hops and messages of a failed chord's query
(sec. 3.4.2, "the process takes O(log n) time"), measured on rings of 8 to 1,024 brokers built
by the corrected join, with the chords of this project's choice (k = 4, 8, 16, ...) and without.

And how the identifier space fills (sec. 3.3: "any new broker generated is inserted"): brokers
join through random brokers until the first join that does not insert, under every reading the
join tells apart, in spaces of 2^2 to 2^10 identifiers (the reference's joins, which the tests hold
to the spec's).

Every broker's failure is handled on rings of up to 64 brokers, 64 evenly spaced ones above; every
chord of 16 evenly spaced brokers is failed in turn (both brokers up, B sending link-down: the
repaired reading). The numbers are pure functions of the code: the JSON is cached beside the
report against a fingerprint of spec.chordal_ring, the declaration's __init__.py (its ring_of) and
this module, so a run that changes none of them recomputes nothing.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

from spec import chordal_ring as C

SIZES = (8, 16, 32, 64, 128, 256, 512, 1024)
COMPARED = (6, 8, 12, 16, 32, 64)   # ring sizes where sec. 3.1's degree-3 ring is set beside the degree-4 one
FILL_BITS = (2, 4, 6, 8, 10)   # identifier spaces filled by random joins ...
FILL_ORDERS = 200              # ... in this many seeded orders each, under every reading the join tells apart
FAILED_SAMPLE = 64          # brokers failed one at a time per ring (every one up to this size)
CHORD_SAMPLE = 16           # brokers whose every chord is failed in turn
FIGURE = "chordal_ring-costs.png"


def fingerprint() -> str:
    from checks.docs import source_fingerprint

    # the declaration's own module too, for its ring_of (not the package: its inventory and docs
    # make no number)
    return source_fingerprint(Path(__file__), Path(__file__).with_name("__init__.py"), "spec.chordal_ring")


def _spaced(n: int, count: int) -> list[int]:
    return list(range(n)) if n <= count else [i * n // count for i in range(count)]


def _stats(values: list[int]) -> dict[str, float]:
    return {"mean": round(sum(values) / len(values), 3), "max": max(values)} if values else {"mean": None, "max": None}


def point(n: int, rule: str) -> dict[str, Any]:
    from checks.algorithms.chordal_ring import ring_of

    ring = ring_of(n)
    links = C.neighsets(ring, rule)
    node = [len(C.node_failure(ring, [b], C.CORRECTED, rule).handlings[0].messages) for b in _spaced(n, FAILED_SAMPLE)]
    hops, messages = [], []
    if rule != "none":
        for a in _spaced(n, CHORD_SAMPLE):
            me = ring[a]
            for b in sorted(links[a] - {me.left, me.right, me.leftleft, me.rightright}):
                run = C.link_failure(ring, a, b, C.CORRECTED, rule)
                hops.append(len(run.path) - 1)
                messages.append(len(run.messages))
    return {"log2_n": round(math.log2(n), 3), "degree": _stats([len(v) for v in links.values()]),
            "node_failure_messages": _stats(node), "chord_query_hops": _stats(hops),
            "chord_messages": _stats(messages), "failures": len(node), "chords": len(hops)}


def filling(reading: str, bits: int) -> dict[str, Any]:
    """Joins through brokers drawn at random (reference.chordal_ring.Ring.join_random, seeds
    0..FILL_ORDERS - 1) until the first that does not insert, in a space of 2^bits identifiers:
    how many brokers joined (least, mean, most), how many distinct identifiers they hold, and how
    the first join that did not insert ended."""
    from reference.chordal_ring import Ring

    joined, distinct, ends = [], [], {}
    for seed in range(FILL_ORDERS):
        ring = Ring(reading, bits)
        for outcome in ring.join_random(2 ** bits + 1, seed):
            if outcome != C.JOINED:
                ends[outcome] = ends.get(outcome, 0) + 1
                break
        joined.append(len(ring))
        distinct.append(len(set(ring.ids)))
    return {"joined": {"min": min(joined), "mean": round(sum(joined) / len(joined), 2), "max": max(joined)},
            "distinct_ids_min": min(distinct), "ends": dict(sorted(ends.items()))}


def compared(n: int) -> dict[str, Any]:
    """Sec. 3.1's degree-3 chordal ring (every odd c from 3 to n - 3) beside sec. 3.2's degree-4
    ring C_n(1, 2), with and without this project's chords: degree, vertex connectivity (one less
    is the number of failed nodes every set of which leaves the rest connected) and diameter."""
    import networkx as nx

    from checks.algorithms.chordal_ring import ring_of

    def measured(links: dict[int, frozenset[int]]) -> dict[str, int]:
        g = nx.Graph([(a, b) for a, others in links.items() for b in others])
        return {"degree": max(len(v) for v in links.values()), "connectivity": nx.node_connectivity(g),
                "diameter": nx.diameter(g)}

    third = {str(c): measured(C.third_degree_links(n, c)) for c in range(3, n - 2, 2)}
    ring = ring_of(n)
    return {"third_degree": third, "degree_4": measured(C.neighsets(ring, "none")),
            "with_chords": measured(C.neighsets(ring, "doubling"))}


def costs(out: Path | str | None = None, reuse: bool = True) -> dict[str, Any]:
    from checks.algorithms.chordal_ring import JOIN_READINGS

    key = {"fingerprint": fingerprint(), "sizes": list(SIZES), "failed": FAILED_SAMPLE, "chords": CHORD_SAMPLE,
           "fill_bits": list(FILL_BITS), "fill_orders": FILL_ORDERS, "compared": list(COMPARED)}
    if reuse and out is not None and Path(out).exists():
        stored = json.loads(Path(out).read_text())
        if stored.get("key") == key:
            return stored
    result = {"key": key, **{rule: {str(n): point(n, rule) for n in SIZES} for rule in C.CHORD_RULES},
              "filling": {name: {str(bits): filling(name, bits) for bits in FILL_BITS} for name in JOIN_READINGS},
              "compared": {str(n): compared(n) for n in COMPARED}}
    if out is not None:
        Path(out).parent.mkdir(parents=True, exist_ok=True)
        tmp = Path(out).with_suffix(".tmp")
        tmp.write_text(json.dumps(result, indent=1) + "\n")
        tmp.replace(out)
    return result


def draw_figure(rep: dict[str, Any], folder: Path | str) -> str:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from checks import figures

    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    fig, ax = plt.subplots(figsize=(7, 4.2))
    xs = list(SIZES)
    for rule, style in (("doubling", "-"), ("none", "--")):
        r = rep[rule]
        ax.plot(xs, [r[str(n)]["node_failure_messages"]["max"] for n in xs], "o" + style, color="#c44e52",
                label=f"node failure, messages (max; chords: {rule})")
        ax.plot(xs, [r[str(n)]["degree"]["max"] for n in xs], "s" + style, color="#4c72b0",
                label=f"degree (max; chords: {rule})")
    r = rep["doubling"]
    ax.plot(xs, [r[str(n)]["chord_messages"]["max"] for n in xs], "^-", color="#55a868",
            label="failed chord, messages (max)")
    ax.plot(xs, [r[str(n)]["chord_query_hops"]["max"] for n in xs], "v-", color="#8172b2",
            label="failed chord, query hops (max)")
    ax.plot(xs, [math.log2(n) for n in xs], "k:", label="log2 n")
    ax.set_xscale("log", base=2)
    ax.set_xlabel("brokers n")
    ax.set_ylabel("count")
    ax.set_title("Sec. 3.4's costs against n (rings by the corrected join)", fontsize=9)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=7)
    figures.save(fig, folder / FIGURE, 90, tight=True)
    return str(folder / FIGURE)


def table(rep: dict[str, Any]) -> str:
    rows = ["| n | log2 n | chords | degree (mean / max) | node failure: messages (mean / max) | failed chord: query "
            "hops (mean / max) | failed chord: messages (mean / max) |", "|---|---|---|---|---|---|---|"]

    def pair(s: dict[str, Any]) -> str:
        return "-" if s["max"] is None else f"{s['mean']:g} / {s['max']}"

    for n in SIZES:
        for rule in C.CHORD_RULES:
            p = rep[rule][str(n)]
            rows.append(f"| {n:,} | {p['log2_n']:g} | {rule} | {pair(p['degree'])} | {pair(p['node_failure_messages'])}"
                        f" | {pair(p['chord_query_hops'])} | {pair(p['chord_messages'])} |")
    return "\n".join(rows)


def filling_table(rep: dict[str, Any]) -> str:
    rows = ["| reading | " + " | ".join(f"2^{b} ids" for b in FILL_BITS) + " |",
            "|---|" + "---|" * len(FILL_BITS)]
    for name, cells in rep["filling"].items():
        shown = []
        for bits in FILL_BITS:
            c = cells[str(bits)]
            j = c["joined"]
            ends = ", ".join(f"{k} {v}" for k, v in c["ends"].items()) or "none"
            twice = "" if c["distinct_ids_min"] == j["min"] else f"; as few as {c['distinct_ids_min']} distinct ids"
            shown.append(f"{j['min']} / {j['mean']:g} / {j['max']} ({ends}{twice})")
        rows.append(f"| `{name}` | " + " | ".join(shown) + " |")
    return "\n".join(rows)


def compared_table(rep: dict[str, Any]) -> str:
    rows = ["| n | degree 3, sec. 3.1 (best c: diameter; connectivity over every odd c) | degree 4, C_n(1, 2): "
            "connectivity, diameter | degree 4 with this project's chords: degree, connectivity, diameter |",
            "|---|---|---|---|"]
    for n in COMPARED:
        p = rep["compared"][str(n)]
        third = p["third_degree"]
        best = min(third, key=lambda c: (third[c]["diameter"], int(c)))
        conn = sorted({v["connectivity"] for v in third.values()})
        d4, ch = p["degree_4"], p["with_chords"]
        rows.append(f"| {n} | c = {best}: diameter {third[best]['diameter']}; connectivity "
                    f"{'/'.join(map(str, conn))} | {d4['connectivity']}, {d4['diameter']} | "
                    f"{ch['degree']}, {ch['connectivity']}, {ch['diameter']} |")
    return "\n".join(rows)
