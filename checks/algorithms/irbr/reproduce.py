"""Reproduction of IRBR's evaluation (sec. 4, Fig. 4) with the IRBR reference and its Scribe baseline.

Paper: Wang, Jin & Li, "Building Reliable Content-Based Routing Protocol over Structured P2P
Networks", Journal of Software 17(5), 2006, sec. 4.

    Fig. 4(a)  1,000 nodes, 0.5% to 10% of them failing at once: event loss rate (the share of
               interested live nodes that miss an event) of IRBR (paper: 0.11% to 0.28%) and of
               the Scribe-based protocol with one rendezvous node (paper: 1.35% to 20.27%)
    Fig. 4(b)  messages per event against the number of interested nodes (no failures)
    sec. 3.3   subscribe messages with the covering rule (as printed, and covering-ordered) and
               without it, as subscriptions grow: 1,000 subscribes of Fig. 4's filters by random
               nodes of its network, in batches (no number is given; the sentences are judged
               by checks/algorithms/irbr/inventory.py)

What the paper leaves open, chosen here and named:
  identifiers   FreePastry's: base 16 (b = 4); 8 digits here (32-bit identifiers, random);
                each node's table names its own member of a range (`per-node`), as proximity does
  workload      200 subscribers (a random fifth of the nodes), each with one filter
                `x in lo..lo+w` (lo uniform in 0..99, w uniform in 0..39); events `x` uniform
                in 0..99 from random live publishers
  timing        loss happens only to events published after the failures and before repair
                (IRBR's tables, Scribe's tree); `window` is the share of events published in
                that interval, an explicit parameter. Loss(window) = window x loss before repair.
  IRBR's tables before repair: `stale` (a copy to a failed representative is lost) or
                `stale-alternates` (the sender uses another live node of the range at once, as
                sec. 3.2 allows: "a message only needs to reach any node of the target range").
Numbers are pure functions of the seeds; the JSON is cached against a fingerprint of the code.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np

from checks import figures
from reference import irbr as R
from reference.generators import rng_for

ROOT = Path(__file__).resolve().parents[3]
REPRODUCTION_JSON = ROOT / "reports" / "irbr-reproduction.json"
FIGURE = "irbr-fig4.png"
NODES, K, L = 1000, 16, 8
SUBSCRIBERS = 200
FAILURE_SHARES = (0.005, 0.01, 0.02, 0.05, 0.10)
PAPER = {"irbr_loss": {"0.005": 0.0011, "0.1": 0.0028}, "scribe_loss": {"0.005": 0.0135, "0.1": 0.2027}}


def workload(seed: int) -> tuple[list[str], list[tuple[str, str]]]:
    rng = rng_for("irbr-fig4", seed)
    ids = sorted({format(int(v), f"0{L}x") for v in rng.choice(K ** L, size=NODES, replace=False)})
    subs = [ids[int(i)] for i in rng.choice(len(ids), size=SUBSCRIBERS, replace=False)]
    filters = []
    for s in subs:
        lo, width = int(rng.integers(0, 100)), int(rng.integers(0, 40))
        filters.append((s, f"x in {lo}..{lo + width}"))
    return ids, filters


def built(ids, filters, tables: str):
    # before repair no node has detected the failures, so none has withdrawn a failed subscriber's
    # entries either (keep-failed): the filter tables stay as the failures left them
    net = R.Network(K, L, ids, representative="per-node", tables_after_failure=tables, failure="keep-failed")
    for s, f in filters:
        net.subscribe(s, f)
    return net


def scribe(ids, filters):
    sc = R.Scribe(K, L, ids)
    for s, f in filters:
        sc.subscribe(s, f)
    return sc


def events(rng, live: list[str], count: int) -> list[tuple[str, dict]]:
    return [(live[int(rng.integers(len(live)))], {"x": int(rng.integers(0, 100))}) for _ in range(count)]


def loss_before_repair(seed: int, draws: int, count: int) -> dict[str, dict[str, float]]:
    """Per failure share: each protocol's share of (event, interested live node) pairs missed
    before repair, pooled over `draws` random failure sets of one network and workload."""
    import copy

    ids, filters = workload(seed)
    base = {"irbr-stale": built(ids, filters, "stale"), "irbr-alternates": built(ids, filters, "stale-alternates"),
            "scribe": scribe(ids, filters)}
    parsed = {s: R.parse_filter(f) for s, f in filters}
    out = {}
    for share in FAILURE_SHARES:
        rng = rng_for(f"irbr-fig4-failures-{share}", seed)
        missed = {name: 0 for name in base}
        wanted = 0
        for _ in range(draws):
            failed = {ids[int(i)] for i in rng.choice(len(ids), size=max(1, round(share * len(ids))), replace=False)}
            protocols = {name: copy.deepcopy(p) for name, p in base.items()}
            for p in protocols.values():
                p.fail(failed)
            live = sorted(set(ids) - failed)
            for publisher, event in events(rng, live, count):
                want = {s for s, f in parsed.items() if s not in failed and f.matches(event)}
                wanted += len(want)
                for name, p in protocols.items():
                    missed[name] += len(want - set(dict(p.publish(publisher, event).notified)))
        out[f"{share:g}"] = {name: m / wanted if wanted else 0.0 for name, m in missed.items()} | {"pairs": wanted}
    return out


def messages_by_interest(seed: int, count: int) -> dict[str, Any]:
    """Fig. 4(b): messages per event of IRBR and Scribe against the number of interested nodes."""
    ids, filters = workload(seed)
    net, sc = built(ids, filters, "repaired"), scribe(ids, filters)
    rng = rng_for("irbr-fig4b", seed)
    parsed = [(s, R.parse_filter(f)) for s, f in filters]
    rows = []
    for publisher, event in events(rng, ids, count):
        interested = sum(1 for _, f in parsed if f.matches(event))
        rows.append((interested, net.publish(publisher, event).messages, sc.publish(publisher, event).messages))
    bins: dict[int, list] = {}
    for interested, a, b in rows:
        bins.setdefault(10 * (interested // 10), []).append((a, b))
    return {"bins": [{"interested_from": k, "events": len(v), "irbr_messages": float(np.mean([a for a, _ in v])),
                      "scribe_messages": float(np.mean([b for _, b in v]))} for k, v in sorted(bins.items())]}


SUBSCRIBES, SUBSCRIBE_BATCHES, SUBSCRIBE_SEEDS = 1000, 5, (0, 1, 2, 3)
COVERING_RULES = ("covering", "covering-ordered", "no-covering")


def subscribe_messages(seed: int) -> dict[str, list[float]]:
    """Sec. 3.3: per covering rule, the mean messages per subscribe in each batch of
    SUBSCRIBES / SUBSCRIBE_BATCHES subscribes, in the order they are made."""
    ids, _ = workload(seed)
    rng = rng_for("irbr-subscriptions", seed)
    subscriptions = []
    for _ in range(SUBSCRIBES):
        s, lo, width = ids[int(rng.integers(len(ids)))], int(rng.integers(0, 100)), int(rng.integers(0, 40))
        subscriptions.append((s, f"x in {lo}..{lo + width}"))
    size = SUBSCRIBES // SUBSCRIBE_BATCHES
    out = {}
    for covering in COVERING_RULES:
        net = R.Network(K, L, ids, representative="per-node", covering=covering)
        sent = [net.subscribe(s, f) for s, f in subscriptions]
        out[covering] = [float(np.mean(sent[i * size:(i + 1) * size])) for i in range(SUBSCRIBE_BATCHES)]
    return out


def fit_window(before: dict[str, float], paper: dict[str, float]) -> float | None:
    """The window that makes window x loss-before-repair closest to the paper's two points (the
    mean of the two ratios paper / model)."""
    pairs = [(before[s], paper[s]) for s in paper if before.get(s)]
    return float(sum(p / b for b, p in pairs) / len(pairs)) if pairs else None  # None: the model loses nothing


def fingerprint() -> str:
    """The code that can change these numbers: this module, the IRBR spec and reference, and the
    seeded generators (comments and docstrings left out, checks.docs.source_fingerprint)."""
    from checks.docs import source_fingerprint

    return source_fingerprint(Path(__file__), "spec.irbr", "reference.irbr", "reference.generators")


def irbr_fig_4(events_per_point: int = 50, draws: int = 10, seeds: tuple[int, ...] = (0, 1),
               out: Path | str | None = REPRODUCTION_JSON, reuse: bool = True) -> dict[str, Any]:
    key = {"fingerprint": fingerprint(), "events": events_per_point, "draws": draws, "seeds": list(seeds)}
    if reuse and out is not None and Path(out).exists():
        stored = json.loads(Path(out).read_text())
        if stored.get("key") == key:
            return stored
    runs = [loss_before_repair(s, draws, events_per_point) for s in seeds]
    before = {share: {k: float(np.mean([r[share][k] for r in runs])) for k in runs[0][share]} for share in runs[0]}
    windows = {name: fit_window({s: before[s][name] for s in before}, PAPER[paper_key])
               for name, paper_key in (("scribe", "scribe_loss"), ("irbr-stale", "irbr_loss"),
                                       ("irbr-alternates", "irbr_loss"))}
    result = {"key": key, "paper": PAPER, "nodes": NODES, "subscribers": SUBSCRIBERS, "loss_before_repair": before,
              "window_fitting_paper": windows,
              "fig_4b": messages_by_interest(seeds[0], 6 * events_per_point)}
    per_seed = [subscribe_messages(s) for s in SUBSCRIBE_SEEDS]
    result["subscribe_messages"] = {
        "subscribes": SUBSCRIBES, "batches": SUBSCRIBE_BATCHES, "seeds": list(SUBSCRIBE_SEEDS),
        "per_batch": {c: [float(np.mean([r[c][i] for r in per_seed])) for i in range(SUBSCRIBE_BATCHES)]
                      for c in COVERING_RULES}}
    if out is not None:
        Path(out).parent.mkdir(parents=True, exist_ok=True)
        Path(out).write_text(json.dumps(result, indent=1) + "\n")
    return result


def draw_figure(rep: dict[str, Any], folder: Path | str) -> str:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    fig, (a, b) = plt.subplots(1, 2, figsize=(11, 4.2))
    shares = list(rep["loss_before_repair"])
    x = [100 * float(s) for s in shares]
    window = rep["window_fitting_paper"]["scribe"] or 1.0
    colours = {"scribe": "#c44e52", "irbr-stale": "#4c72b0", "irbr-alternates": "#55a868"}
    for name, colour in colours.items():
        a.plot(x, [100 * window * rep["loss_before_repair"][s][name] for s in shares], "o-", color=colour,
               label=f"{name}, window {window:.2f}")
    for name, key, colour in (("paper IRBR", "irbr_loss", "#4c72b0"), ("paper Scribe", "scribe_loss", "#c44e52")):
        pts = rep["paper"][key]
        a.plot([100 * float(s) for s in pts], [100 * v for v in pts.values()], "x--", color=colour, label=name)
    a.set_xlabel("nodes failing at once (%)")
    a.set_ylabel("event loss rate (%)")
    a.set_title("Fig. 4(a): loss with the window that fits Scribe")
    a.grid(alpha=0.3)
    a.legend(fontsize=7)
    bins = rep["fig_4b"]["bins"]
    b.plot([r["interested_from"] for r in bins], [r["irbr_messages"] for r in bins], "o-", color="#4c72b0", label="IRBR")
    b.plot([r["interested_from"] for r in bins], [r["scribe_messages"] for r in bins], "o-", color="#c44e52",
           label="Scribe-based")
    b.set_xlabel("interested nodes (bins of 10)")
    b.set_ylabel("messages per event")
    b.set_title("Fig. 4(b): forwarding cost, no failures")
    b.grid(alpha=0.3)
    b.legend(fontsize=8)
    figures.save(fig, folder / FIGURE, 110, tight=True)
    return str(folder / FIGURE)
