"""Reproduction of OctopiS's evaluation (sec. 7) with the SCOT reference.

Paper: "Content-based Dynamic Routing in Structured Overlay Networks" (OctopiS), sec. 7.

    sec. 7.1  the SCOT: a 15-vertex factor tree with 5 inner and 10 edge vertices times K_5 (75
              brokers). Only those counts are given, so every such tree is a candidate (482 of them).
    sec. 7.3  subscriber scalability: subscription-broadcast messages clustered vs unclustered
              ("89% less"; "almost 80%" of unclustered messages discard duplicates), subscription
              trees "14% less" long than PADRES's, notification messages SNR vs BID (12% and 36.4%
              fewer for SNR) with 500..10,000 subscribers, 100 publishers, 2% selectivity;
              the burst scenario (stability analysis): a high rate publisher (HRP) at 60K, 80K and
              100K notifications per minute over 100 background publishers at 60 per minute,
              queue lengths, delays, messages and how soon the system drains under SNR, DNR, BID.

Three things the model must choose, named here and in docs/scot.md:
  link delays    equal delays make flooding's first copies follow shortest paths, so BID's trees
                 are as short as Algorithm 1's; `scot_tree_lengths` draws each link's delay
                 uniformly in [1, 1 + spread] and reports the spread at which the paper's 14% appears.
  time           a tick is a millisecond and a link sends one notification per tick (1,000/s);
                 the HRP rates become 1.0, 1.33 and 1.67 notifications per tick, the background
                 0.1 per tick. The HRP sends 3,000 notifications, not the paper's 100,000 (a
                 Python simulation), so the burst lasts 1.8-3 s rather than 60-100 s.
  congestion     Eq. 3's rule is reconstructed two ways (reference.scot.CONGESTION_RULES); the
                 window tau is 10 ticks (the paper's "10"; its other value, 50 ms, has lost its
                 symbol and is not used).
Every number is a pure function of the seeds; the JSON is cached against a fingerprint of the
code that computes it, so `pubsub-proofs docs` recomputes only after a change.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np

from checks import figures
from reference import scot as RS
from reference.generators import rng_for

ROOT = Path(__file__).resolve().parents[3]
REPRODUCTION_JSON = ROOT / "reports" / "scot-reproduction.json"

SCOT_TREE_VERTICES, SCOT_INNER, SCOT_EDGE, SCOT_M = 15, 5, 10, 5   # sec. 7.1
SCOT_SUBSCRIBERS = (500, 1000, 2500, 5000, 10000)                  # sec. 7.3, subscriber scalability
SCOT_PUBLISHERS, SCOT_SELECTIVITY = 100, 0.02
PAPER = {"fewer_sbp_messages": 0.89, "duplicate_share": 0.80, "bid_more_notification_messages": 0.364,
         "snr_fewer_notification_messages": 0.12, "shorter_subscription_trees": 0.14,
         "subscription_delay_less": 0.77,
         # stability analysis (burst), averaged over the three HRP rates where the paper averages
         "dnr_queue_less_than_snr": 0.48, "dnr_queue_less_than_bid": 0.59,
         "dnr_delay_less_than_snr": {"60000": 0.11, "80000": 0.121, "100000": 0.13},
         "dnr_delay_less_than_bid": {"60000": 0.492, "80000": 0.53, "100000": 0.58},
         "dnr_more_messages_than_snr": 0.0032, "dnr_fewer_messages_than_bid": 0.172,
         "delivered_within_1s": {"dnr": 0.442, "snr": 0.39, "bid": 0.28}}
SPREADS = (0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 8.0)
HRP_RATES_NPM = (60_000, 80_000, 100_000)
TICKS_PER_MINUTE = 60_000                 # a tick is a millisecond
BURST_SUBSCRIBERS, HRP_SHARE = 5000, 0.002  # 0.2% of 5,000 subscribers follow the HRP
BACKGROUND_PERIOD = 1000                  # 60 notifications per minute each


def paper_scot_trees() -> list:
    """Every 15-vertex tree with 5 inner (degree >= 2) and 10 edge vertices: the paper names only
    these counts, so each of them is a candidate for its acyclic factor."""
    import networkx as nx

    return [t for t in nx.nonisomorphic_trees(SCOT_TREE_VERTICES)
            if sum(1 for v in t if t.degree(v) == 1) == SCOT_EDGE]


def extreme_trees(candidates: list) -> dict[str, Any]:
    import networkx as nx

    diameters = [nx.diameter(t) for t in candidates]
    return {"least diameter": candidates[diameters.index(min(diameters))],
            "greatest diameter": candidates[diameters.index(max(diameters))]}


# --------------------------------------------------------------------------------------------
# Message counts and tree lengths
# --------------------------------------------------------------------------------------------

def scot_notification_messages(tree, subscribers: int, notifications: int, seed: int,
                               spread: float = 0.0) -> dict[str, float]:
    """Mean inter-broker messages per notification under SNR and BID on SCOT(tree, K_5):
    subscribers on uniformly random brokers, 100 publishers, each subscription matching a
    notification with probability 2% (sec. 7.1's selectivity). BID routes on flooding trees,
    built with link delays uniform in [1, 1 + spread]."""
    scot = RS.build(tree, SCOT_M)
    brokers = scot.brokers()
    rng = rng_for(f"scot-sec7-{subscribers}", seed)
    hosts_of = rng.integers(0, len(brokers), size=subscribers)
    publishers = rng.integers(0, len(brokers), size=SCOT_PUBLISHERS)
    delays = RS.random_link_delays(scot, rng_for("scot-delays", seed), spread) if spread else None
    sbp_trees = {b: RS.subscription_tree(scot, b) for b in brokers}
    flood_trees = {b: (RS.flooding_tree_with_delays(scot, b, delays)[0] if delays else RS.flooding_tree(scot, b))
                   for b in brokers}
    totals = {"snr": 0, "bid": 0, "snr_hops": 0, "bid_hops": 0, "deliveries": 0}
    for k in range(notifications):
        publisher = brokers[int(publishers[k % SCOT_PUBLISHERS])]
        matching = hosts_of[rng.random(subscribers) < SCOT_SELECTIVITY]
        hosts = sorted({brokers[int(i)] for i in matching}, key=repr)
        if not hosts:
            continue
        snr = RS.snr(scot, publisher, hosts, sbp_trees)
        bid = RS.bid(scot, publisher, hosts, flood_trees)
        totals["snr"] += snr.messages
        totals["bid"] += bid.messages
        totals["snr_hops"] += sum(h for _, h in snr.hops)
        totals["bid_hops"] += sum(h for _, h in bid.hops)
        totals["deliveries"] += len(hosts)
    return {"snr_messages": totals["snr"] / notifications, "bid_messages": totals["bid"] / notifications,
            "snr_mean_hops": totals["snr_hops"] / max(totals["deliveries"], 1),
            "bid_mean_hops": totals["bid_hops"] / max(totals["deliveries"], 1)}


def tree_lengths(tree, spread: float, seed: int) -> dict[str, float]:
    """Mean path length (hops from a broker to the host) of the subscription trees from every
    host, and the subscription delay (when the last broker gets its first copy), for Algorithm 1
    and for flooding, both under the same link delays uniform in [1, 1 + spread]."""
    scot = RS.build(tree, SCOT_M)
    delays = RS.random_link_delays(scot, rng_for("scot-delays", seed), spread)
    order = {b: k for k, b in enumerate(scot.brokers())}

    def link(a, b):
        return delays[(a, b) if order[a] < order[b] else (b, a)]

    sbp_len = flood_len = sbp_delay = flood_delay = 0.0
    for host in scot.brokers():
        sbp = RS.subscription_tree(scot, host)
        flood, arrival = RS.flooding_tree_with_delays(scot, host, delays)
        sbp_len += np.mean([depth(sbp, b, host) for b in sbp])
        flood_len += np.mean([depth(flood, b, host) for b in flood])
        sbp_delay += max(path_delay(sbp, b, host, link) for b in sbp)
        flood_delay += max(arrival.values())
    n = len(scot.brokers())
    return {"sbp_mean_length": sbp_len / n, "flooding_mean_length": flood_len / n,
            "sbp_subscription_delay": sbp_delay / n, "flooding_subscription_delay": flood_delay / n}


def depth(parents: dict, b, host) -> int:
    hops = 0
    while b != host:
        b, hops = parents[b], hops + 1
    return hops


def path_delay(parents: dict, b, host, link) -> float:
    t = 0.0
    while b != host:
        t, b = t + link(b, parents[b]), parents[b]
    return t


def scot_tree_lengths(candidates: list, trees_sampled: int = 12, seed: int = 0) -> dict[str, Any]:
    """Per spread: how much shorter Algorithm 1's trees are than flooding's, over a fixed sample
    of candidate factor trees (the two extremes of diameter and an evenly spaced sample), with
    the spread at which 14% is reached (linear interpolation of the mean)."""
    picks = sorted(set(np.linspace(0, len(candidates) - 1, trees_sampled).round().astype(int).tolist()))
    sample = list(extreme_trees(candidates).values()) + [candidates[i] for i in picks]
    rows = []
    for spread in SPREADS:
        per_tree = [tree_lengths(t, spread, seed) for t in sample]
        shorter = [1 - r["sbp_mean_length"] / r["flooding_mean_length"] for r in per_tree]
        faster = [1 - r["flooding_subscription_delay"] / r["sbp_subscription_delay"] for r in per_tree]
        rows.append({"spread": spread, "shorter_mean": float(np.mean(shorter)), "shorter_min": float(min(shorter)),
                     "shorter_max": float(max(shorter)),
                     "sbp_mean_length": float(np.mean([r["sbp_mean_length"] for r in per_tree])),
                     "flooding_mean_length": float(np.mean([r["flooding_mean_length"] for r in per_tree])),
                     "flooding_subscription_delay_less": float(np.mean(faster))})
    xs, ys = [r["spread"] for r in rows], [r["shorter_mean"] for r in rows]
    target = PAPER["shorter_subscription_trees"]
    at = next((xs[k - 1] + (target - ys[k - 1]) * (xs[k] - xs[k - 1]) / (ys[k] - ys[k - 1])
               for k in range(1, len(xs)) if ys[k - 1] < target <= ys[k]), None)
    return {"trees": len(sample), "by_spread": rows, "spread_for_paper_14_percent": at}


# --------------------------------------------------------------------------------------------
# The burst scenario (queue simulation)
# --------------------------------------------------------------------------------------------

def burst_publications(scot, rate_npm: int, hrp_notifications: int, seed: int) -> list[RS.Publication]:
    """Sec. 7.3's stability workload: 5,000 subscribers on random brokers, 0.2% of them (10)
    following the HRP on brokers other than the HRP's and in every cluster ("all clusters are
    targets"); 100 background publishers at 60 per minute whose notifications match 2% of the
    other subscribers; the HRP at `rate_npm` from tick 0. Background runs for twice the burst."""
    brokers = scot.brokers()
    rng = rng_for(f"scot-burst-{rate_npm}", seed)
    hrp = brokers[int(rng.integers(len(brokers)))]
    followers = [brokers[int(rng.choice([k for k, b in enumerate(brokers) if b[1] == c and b != hrp]))]
                 for c in range(scot.m)]
    others = [k for k, b in enumerate(brokers) if b != hrp]
    while len(followers) < int(BURST_SUBSCRIBERS * HRP_SHARE):
        followers.append(brokers[int(rng.choice(others))])
    per_tick = rate_npm / TICKS_PER_MINUTE
    pubs = [RS.Publication(int(i / per_tick), hrp, frozenset(followers), True) for i in range(hrp_notifications)]
    background_hosts = rng.integers(len(brokers), size=BURST_SUBSCRIBERS - len(followers))
    horizon = 2 * int(hrp_notifications / per_tick)
    for publisher in rng.integers(len(brokers), size=SCOT_PUBLISHERS):
        for tick in range(int(rng.integers(BACKGROUND_PERIOD)), horizon, BACKGROUND_PERIOD):
            matched = background_hosts[rng.random(len(background_hosts)) < SCOT_SELECTIVITY]
            pubs.append(RS.Publication(tick, brokers[int(publisher)], frozenset(brokers[int(i)] for i in matched)))
    return pubs


def burst_measures(run: RS.QueueRun) -> dict[str, float]:
    burst_delays = [d for b, d in run.delays if b]
    return {"messages": run.messages, "missed": run.missed, "wrong_deliveries": run.wrong_deliveries,
            "mean_burst_delay": float(np.mean(burst_delays)) if burst_delays else 0.0,
            "max_burst_delay": int(max(burst_delays, default=0)),
            "mean_delay": float(np.mean([d for _, d in run.delays])) if run.delays else 0.0,
            "mean_burst_hops": float(np.mean([h for b, h in run.hops if b])) if burst_delays else 0.0,
            "mean_target_queue": float(np.mean(run.queue_samples)) if run.queue_samples else 0.0,
            "max_queue": run.max_queue, "drain_ticks": max(run.last_burst_delivery - run.burst_end, 0),
            "delivered_within_1s": float(np.mean([d < 1000 for _, d in run.delays])) if run.delays else 0.0,
            "congested_copies": run.congested_copies}


def scot_burst(tree, hrp_notifications: int = 3000, seeds: tuple[int, ...] = (0, 1, 2),
               rules=RS.CONGESTION_RULES) -> dict[str, Any]:
    """Every HRP rate x congestion rule x router, averaged over the seeds (the same workload for
    every router of a seed)."""
    scot = RS.build(tree, SCOT_M)
    out: dict[str, Any] = {}
    for rate in HRP_RATES_NPM:
        workloads = [burst_publications(scot, rate, hrp_notifications, s) for s in seeds]
        for rule in rules:
            cell = {}
            for router in RS.ROUTERS:
                if router in ("snr", "bid") and rule != rules[0]:  # static routers ignore congestion
                    cell[router] = out[f"{rate}"][rules[0]][router]
                    continue
                runs = [burst_measures(RS.simulate(scot, w, router, congestion_rule=rule)) for w in workloads]
                cell[router] = {k: float(np.mean([r[k] for r in runs])) for k in runs[0]}
            out.setdefault(f"{rate}", {})[rule] = cell
    # Fig. 11's view of one run: the highest rate, the first rule and seed, over time
    series = {}
    for router in RS.ROUTERS:
        run = RS.simulate(scot, burst_publications(scot, HRP_RATES_NPM[-1], hrp_notifications, seeds[0]), router,
                          congestion_rule=rules[0])
        delays = [d for b, d in run.delays if b]
        series[router] = {"target_queue_per_window": run.queue_samples,
                          "max_delay_per_100_burst_deliveries": [max(delays[i:i + 100])
                                                                  for i in range(0, len(delays), 100)]}
    return {"hrp_notifications": hrp_notifications, "seeds": list(seeds), "by_rate": out,
            "series": {"rate_npm": HRP_RATES_NPM[-1], "rule": rules[0], "seed": seeds[0], "window_ticks": 10,
                       "routers": series}}


# --------------------------------------------------------------------------------------------
# All of sec. 7, cached
# --------------------------------------------------------------------------------------------

def fingerprint() -> str:
    """The code that can change these numbers: this module, the SCOT spec and reference, and the
    seeded generators (comments and docstrings left out, checks.docs.source_fingerprint)."""
    from checks.docs import source_fingerprint

    return source_fingerprint(Path(__file__), "spec.scot", "reference.scot", "reference.generators")


def scot_section_7(notifications: int = 200, hrp_notifications: int = 3000, burst_seeds: tuple[int, ...] = (0, 1, 2),
                   trees_sampled: int = 12, out: Path | str | None = REPRODUCTION_JSON,
                   reuse: bool = True) -> dict[str, Any]:
    """Sec. 7.3 reproduced: message counts on every candidate tree (SBP), tree lengths under
    uneven link delays, notifications SNR vs BID on the trees of least and greatest diameter
    (equal delays, and the spread that gives the paper's 14%), and the burst simulation on the
    tree of least diameter. A stored result of the same code and parameters is returned as is."""
    import networkx as nx

    key = {"fingerprint": fingerprint(), "notifications": notifications, "hrp_notifications": hrp_notifications,
           "burst_seeds": list(burst_seeds), "trees_sampled": trees_sampled}
    if reuse and out is not None and Path(out).exists():
        stored = json.loads(Path(out).read_text())
        if stored.get("key") == key:
            return stored
    candidates = paper_scot_trees()
    sbp = {"trees": len(candidates), "brokers": SCOT_TREE_VERTICES * SCOT_M}
    per_tree = [(RS.sbp_messages(RS.build(t, SCOT_M)), RS.flooding_messages(RS.build(t, SCOT_M))) for t in candidates]
    sbp["clustered_messages"] = sorted({c for c, _ in per_tree})
    sbp["flooding_messages"] = sorted({f for _, f in per_tree})
    clustered, flooding = per_tree[0]
    sbp["fewer_messages"] = 1 - clustered / flooding
    sbp["duplicate_share_of_flooding"] = (flooding - clustered) / flooding
    lengths = scot_tree_lengths(candidates, trees_sampled)
    spread = round(lengths["spread_for_paper_14_percent"] or SPREADS[-1])
    notif = {}
    for label, tree in extreme_trees(candidates).items():
        notif[label] = {"diameter": nx.diameter(tree), "by_subscribers": {
            str(n): {"equal delays": scot_notification_messages(tree, n, notifications, seed=0),
                     f"spread {spread}": scot_notification_messages(tree, n, notifications, seed=0, spread=spread)}
            for n in SCOT_SUBSCRIBERS}}
    result = {"key": key, "paper": PAPER, "sbp": sbp,
              "diameters": sorted({nx.diameter(t) for t in candidates}), "notifications_per_point": notifications,
              "tree_lengths": lengths, "delay_spread_used": spread, "notifications": notif,
              "burst": scot_burst(extreme_trees(candidates)["least diameter"], hrp_notifications, burst_seeds)}
    if out is not None:
        Path(out).parent.mkdir(parents=True, exist_ok=True)
        Path(out).write_text(json.dumps(result, indent=1) + "\n")
    return result


BURST_FIGURE, LENGTHS_FIGURE = "scot-burst.png", "scot-tree-lengths.png"


def draw_figures(rep: dict[str, Any], folder: Path | str) -> list[str]:
    """Fig. 11's view of the burst (target-queue length and the highest delay per 100 HRP
    deliveries, per router) and the tree-length gap against the link-delay spread."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    series = rep["burst"]["series"]
    colours = {"snr": "#4c72b0", "bid": "#c44e52", "dnr-icols-only": "#55a868", "dnr-skip-congested-acols": "#8172b2",
               "dnr-two-copies": "#dd8452"}
    spare = iter(["#937860", "#da8bc3", "#8c8c8c", "#ccb974", "#64b5cd"])  # a router added later still draws
    colours.update({r: next(spare, "#000000") for r in series["routers"] if r not in colours})
    fig, (top, bottom) = plt.subplots(2, 1, figsize=(7.5, 6.5))
    for router, s in series["routers"].items():
        ticks = [series["window_ticks"] * (k + 1) / 1000 for k in range(len(s["target_queue_per_window"]))]
        top.plot(ticks, s["target_queue_per_window"], color=colours[router], label=router)
        bottom.plot(range(1, len(s["max_delay_per_100_burst_deliveries"]) + 1),
                    [d / 1000 for d in s["max_delay_per_100_burst_deliveries"]], color=colours[router], label=router)
    top.set_xlabel("time (s; a tick is 1 ms)")
    top.set_ylabel("copies queued on HRP target links")
    top.set_title(f"Burst: HRP at {series['rate_npm'] // 1000}K npm, {rep['burst']['hrp_notifications']} "
                  f"notifications, rule {series['rule']}, seed {series['seed']}")
    bottom.set_xlabel("HRP deliveries, in blocks of 100 (in order of arrival)")
    bottom.set_ylabel("highest delay in the block (s)")
    for ax in (top, bottom):
        ax.grid(alpha=0.3)
        ax.legend(fontsize=8)
    figures.save(fig, folder / BURST_FIGURE, 110, tight=True)

    rows = rep["tree_lengths"]["by_spread"]
    fig, ax = plt.subplots(figsize=(7, 4))
    spreads = [r["spread"] for r in rows]
    ax.fill_between(spreads, [100 * r["shorter_min"] for r in rows], [100 * r["shorter_max"] for r in rows],
                    alpha=0.25, color="#4c72b0", label=f"min..max over {rep['tree_lengths']['trees']} factor trees")
    ax.plot(spreads, [100 * r["shorter_mean"] for r in rows], "o-", color="#4c72b0",
            label="Algorithm 1's trees shorter than flooding's (mean)")
    ax.axhline(100 * PAPER["shorter_subscription_trees"], ls="--", color="#dd8452", label="paper: 14%")
    ax.set_xlabel("link delays uniform in [1, 1 + spread]")
    ax.set_ylabel("% shorter mean path to the host")
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)
    figures.save(fig, folder / LENGTHS_FIGURE, 110, tight=True)
    return [str(folder / BURST_FIGURE), str(folder / LENGTHS_FIGURE)]
