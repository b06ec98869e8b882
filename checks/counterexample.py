"""Counterexample files: JSON written once, replayed step by step, drawn as a picture.

Every file names its algorithm; `replay` hands it to that algorithm's checks module, which
rebuilds the scenario from the spec and prints each step. `draw` lays a copy graph out by bucket
(left to right), marking subscribers with no parent or several.
"""

from __future__ import annotations

import hashlib
import importlib
import json
from pathlib import Path
from typing import Any


def store(doc: dict[str, Any], folder: Path) -> str:
    """Write `doc` under folder/<algorithm>/ with a stable name; returns the path."""
    name = "-".join(str(doc[k]) for k in ("method", "reading", "property")).replace("/", "+")  # one file, no folders
    digest = hashlib.sha1(json.dumps(doc, sort_keys=True).encode()).hexdigest()[:8]
    path = folder / doc["algorithm"] / f"{name}-{digest}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    doc = {**doc, "replay": f"pubsub-proofs replay {path}"}
    path.write_text(json.dumps(doc, indent=2) + "\n")
    return str(path)


def load(path: str | Path) -> dict[str, Any]:
    try:
        doc = json.loads(Path(path).read_text())
    except FileNotFoundError:
        raise ValueError(f"no counterexample file {path}") from None
    except json.JSONDecodeError as e:
        raise ValueError(f"{path} is not JSON: {e}") from None
    if not isinstance(doc, dict) or "algorithm" not in doc or "property" not in doc:
        raise ValueError(f"{path} is not a counterexample (needs 'algorithm' and 'property')")
    return doc


def replay(path: str | Path, say=print, png: str | None = None) -> bool:
    """Replay a counterexample; True when the recorded violation reproduces."""
    doc = load(path)
    try:
        module = importlib.import_module(f"checks.{doc['algorithm']}")
    except ModuleNotFoundError:
        raise ValueError(f"unknown algorithm {doc['algorithm']!r} in {path}") from None
    reproduced, run = module.replay_document(doc, say)
    if png and run is not None:
        draw(run, png, title=f"{doc['algorithm']} {doc['reading']}: {doc['property']}")
        say(f"drawn to {png}")
    return reproduced


def draw(run, path: str, title: str = "") -> None:
    """A copy graph (spec Dissemination) as a PNG, one column per bucket."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import networkx as nx

    g = nx.MultiDiGraph()
    g.add_nodes_from(range(len(run.addresses)))
    g.add_edges_from(run.edges)
    columns: dict[int, list[int]] = {}
    for v, b in enumerate(run.buckets):
        columns.setdefault(b, []).append(v)
    pos = {v: (b, -i) for b, vs in columns.items() for i, v in enumerate(vs)}
    counts = run.parent_counts
    colours = ["#4c72b0" if v == 0 else "#c44e52" if counts[v] == 0 else "#dd8452" if counts[v] > 1
               else "#55a868" for v in range(len(run.addresses))]
    rows = max(len(c) for c in columns.values())
    fig, ax = plt.subplots(figsize=(2 + 1.6 * len(columns), 1.6 + 0.7 * rows))
    nx.draw_networkx(g, pos, ax=ax, node_color=colours, labels=dict(enumerate(run.addresses)),
                     font_size=7, node_size=700, arrowsize=12, connectionstyle="arc3,rad=0.08")
    for b in columns:
        ax.text(b, 0.55, f"bucket {b}", ha="center", fontsize=8)
    ax.set_ylim(-rows + 0.5, 0.9)
    ax.set_title(title + "\n(blue publisher, green one parent, red none, orange several)", fontsize=9)
    ax.axis("off")
    fig.subplots_adjust(left=0.02, right=0.98, bottom=0.02, top=0.85)
    fig.savefig(path, dpi=110)
    plt.close(fig)
