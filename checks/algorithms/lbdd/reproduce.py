"""Reproduction of the paper's experiments with the numpy reference, under the corrected reading.

Paper: Li, Wang, Yin & Yuan, "Load-balancing data distribution in publish/subscribe mode",
J. Southeast Univ. 30(4), 2014.

    sec. 4.2   the 12-PC testbed: addresses 10.3.17.{74, 97, 234, 90, 98, 64, 61, 184, 72, 88, 44, 68}
               and "one PC acting as publisher" (sec. 4.1), without saying which one
    sec. 4.3   random IPv4 addresses, n = 100..500: tree depth in [5, 9] (Tab. 1), subscribers in
               buckets 24 to 32 at n = 500, exactly n copies, contribution rates (Fig. 4)
    sec. 3.5.2 Theorem 2: average out-degree 2

The paper does not give its random generator or its number of trials; here every topology is a
pure function of (n, seed) through reference.generators, so the numbers are the same on every run.
Tab. 1 and Fig. 4 did not survive the text extraction of the paper, so the comparison is with the
sentences of sec. 4.3 only.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np

from checks import figures
from reference import lbdd as R
from reference.generators import distinct_uint32, dotted, rng_for
from spec import lbdd as L
from spec.lbdd import DIGEST_BITS

ROOT = Path(__file__).resolve().parents[3]
FIGURES_DIR = ROOT / "docs" / "figures"
REPRODUCTION_JSON = ROOT / "reports" / "lbdd-reproduction.json"
DEPTH_FIGURE = "lbdd-depth.png"
CONTRIBUTION_FIGURE = "lbdd-contribution.png"

READING = "corrected"
SIZES = tuple(range(100, 501, 50))
PAPER_DEPTH_BAND = (5, 9)           # sec. 4.3, Tab. 1
PAPER_BUCKETS_AT_500 = (24, 32)     # sec. 4.3
PAPER_MEAN_OUT_DEGREE = 2           # sec. 3.5.2, Theorem 2
TESTBED_PREFIX = "10.3.17."
TESTBED_HOSTS = (74, 97, 234, 90, 98, 64, 61, 184, 72, 88, 44, 68)  # sec. 4.2, in the paper's order


def random_addresses(n: int, seed: int) -> tuple[str, list[str]]:
    """(publisher, n subscribers): distinct random IPv4 addresses, the first one publishing."""
    addresses = dotted(distinct_uint32(rng_for(f"lbdd-sec4.3-n{n}", seed), n + 1))
    return addresses[0], addresses[1:]


def is_tree(tree: R.Tree) -> bool:
    """Theorem 1's tree: the spec's own predicates, on the reference's copy graph."""
    run = R.as_dissemination(tree)
    return L.every_subscriber_has_one_parent(run) and L.every_subscriber_reached(run) and L.no_cycle(run)


def tree_metrics(tree: R.Tree) -> dict[str, Any]:
    copies = R.copies_sent(tree)
    buckets = R.occupied_buckets(tree)
    run = R.as_dissemination(tree)
    return {"tree": is_tree(tree), "depth": L.tree_depth(run), "lowest_bucket": buckets[0],
            "depth_in_paper_band": L.depth_between_5_and_9(run),
            "in_paper_buckets_at_500": L.buckets_24_to_32_at_500(run),
            "highest_bucket": buckets[-1], "publisher_copies": int(copies[0]),
            "max_subscriber_copies": int(copies[1:].max()), "copies": int(copies.sum()),
            "senders": int((copies > 0).sum())}


def expected_occupied_buckets(n: int) -> float:
    """E[number of occupied buckets] for n uniform 32-bit distances: bucket m holds 2^(m-1) of them.

    Each bucket sends only to the next occupied one, so this is also the expected tree depth.
    """
    space = 2 ** DIGEST_BITS
    return sum(1 - (1 - 2 ** (m - 1) / space) ** n for m in range(1, DIGEST_BITS + 1))


def probability_all_in_buckets_from(low_bucket: int, n: int) -> float:
    """P(no subscriber below bucket low_bucket): every distance is at least 2^(low_bucket-1)."""
    return (1 - 2 ** (low_bucket - 1) / 2 ** DIGEST_BITS) ** n


def histogram(values: list[int]) -> dict[str, int]:
    """value -> count, keys as strings so the dict survives a JSON round trip unchanged."""
    keys, counts = np.unique(values, return_counts=True)
    return {str(k): int(c) for k, c in zip(keys.tolist(), counts.tolist())}


def size_statistics(n: int, seeds_per_n: int) -> dict[str, Any]:
    runs = [tree_metrics(R.build(subs, pub, READING))
            for pub, subs in (random_addresses(n, seed) for seed in range(seeds_per_n))]
    depth = np.array([r["depth"] for r in runs])
    lowest = [r["lowest_bucket"] for r in runs]
    publisher_rate = np.array([r["publisher_copies"] for r in runs]) / n
    # every subscriber's copies sum to n - publisher copies, so their mean rate needs no per-node data
    subscriber_mean_rate = (1 - publisher_rate) / n
    subscriber_max_rate = np.array([r["max_subscriber_copies"] for r in runs]) / n
    sender_degree = np.array([r["copies"] / r["senders"] for r in runs])
    return {
        "n": n, "trees": len(runs), "not_trees": sum(not r["tree"] for r in runs),
        "exactly_n_copies": sum(r["copies"] == n for r in runs),
        "depth": {"min": int(depth.min()), "mean": float(depth.mean()), "max": int(depth.max()),
                  "fraction_in_paper_band": float(np.mean([r["depth_in_paper_band"] for r in runs])),
                  "expected": expected_occupied_buckets(n), "histogram": histogram(depth.tolist())},
        "lowest_bucket": {"min": min(lowest), "mean": float(np.mean(lowest)), "max": max(lowest)},
        "highest_bucket": {"min": min(r["highest_bucket"] for r in runs),
                           "max": max(r["highest_bucket"] for r in runs)},
        "lowest_bucket_histogram": histogram(lowest),
        "fraction_in_paper_buckets_at_500": float(np.mean([r["in_paper_buckets_at_500"] for r in runs])),
        "contribution": {
            "publisher_mean": float(publisher_rate.mean()), "publisher_min": float(publisher_rate.min()),
            "publisher_max": float(publisher_rate.max()),
            "publisher_copies_mean": float(publisher_rate.mean() * n),
            "subscriber_mean": float(subscriber_mean_rate.mean()),
            "subscriber_max_mean": float(subscriber_max_rate.mean()),
            "subscriber_max": float(subscriber_max_rate.max()),
            "point_to_point_publisher": float(R.contribution_rates(R.point_to_point(n))[0]),
        },
        "sender_out_degree": {"mean": float(sender_degree.mean()), "min": float(sender_degree.min()),
                              "max": float(sender_degree.max()),
                              # Theorem 2 states an expectation: the spread gives the mean's interval
                              "sd": float(sender_degree.std(ddof=1)) if len(runs) > 1 else None},
        # Theorem 2 read over every node: a tree has n edges over n + 1 nodes, so this is n / (n + 1)
        "all_node_out_degree_mean": n / (n + 1),
    }


def testbed(reading: str = READING) -> dict[str, Any]:
    """Sec. 4.2's twelve PCs, once with each of them as the publisher."""
    hosts = [f"{TESTBED_PREFIX}{h}" for h in TESTBED_HOSTS]
    choices = []
    for publisher in hosts:
        subscribers = [h for h in hosts if h != publisher]
        tree = R.build(subscribers, publisher, reading)
        literal = R.build(subscribers, publisher, "literal")
        names = [publisher] + subscribers
        metrics = tree_metrics(tree)
        choices.append({
            "publisher": publisher, **metrics,
            "publisher_contribution": metrics["publisher_copies"] / len(subscribers),
            "buckets": {names[i]: int(b) for i, b in enumerate(tree.buckets.tolist())},
            "parent": {names[r]: names[s] for s, r in sorted(zip(tree.senders.tolist(), tree.receivers.tolist()),
                                                              key=lambda e: e[1])},
            # the paper's literal pseudocode on its own testbed, for comparison
            "literal": {"tree": is_tree(literal), "copies": int(len(literal.senders)),
                        "reached": len(R.as_dissemination(literal).depths) - 1},
        })
    return {
        "hosts": hosts,
        "note": "sec. 4.1 says one PC is the publisher but not which; the first listed (" + hosts[0]
                + ") is taken as the publisher, and every other choice is reported too",
        "assumed_publisher": hosts[0],
        "choices": choices,
    }


def lbdd_section_4_3(seeds_per_n: int = 200, figures_dir: Path | str = FIGURES_DIR,
                     out: Path | str | None = REPRODUCTION_JSON) -> dict[str, Any]:
    """Reproduce sec. 4.2-4.3 and Theorem 2; write the figures and (unless `out` is None) the JSON."""
    if seeds_per_n < 1:
        raise ValueError(f"seeds_per_n must be at least 1, not {seeds_per_n}")
    sizes = [size_statistics(n, seeds_per_n) for n in SIZES]
    at_500 = next(s for s in sizes if s["n"] == 500)
    low_bucket, _ = PAPER_BUCKETS_AT_500
    total_copies = sum(s["contribution"]["publisher_copies_mean"] for s in sizes)
    result = {
        "reading": READING,
        "seeds_per_n": seeds_per_n,
        "generator": "reference.generators.rng_for('lbdd-sec4.3-n<n>', seed), seed = 0..seeds_per_n-1; "
                     "n + 1 distinct random IPv4 addresses, the first is the publisher",
        "paper": {"depth_band": list(PAPER_DEPTH_BAND), "buckets_at_500": list(PAPER_BUCKETS_AT_500),
                  "mean_out_degree": PAPER_MEAN_OUT_DEGREE},
        "sizes": sizes,
        "at_500": {
            "fraction_all_in_paper_buckets": at_500["fraction_in_paper_buckets_at_500"],
            "expected_fraction_all_in_paper_buckets": probability_all_in_buckets_from(low_bucket, 500),
            "lowest_bucket_histogram": at_500["lowest_bucket_histogram"],
        },
        "publisher_copies_mean_over_sizes": total_copies / len(sizes),
        "testbed": testbed(),
        "figures": [DEPTH_FIGURE, CONTRIBUTION_FIGURE],
    }
    draw_figures(result, Path(figures_dir))
    if out is not None:
        Path(out).parent.mkdir(parents=True, exist_ok=True)
        Path(out).write_text(json.dumps(result, indent=1) + "\n")
    return result


def draw_figures(result: dict[str, Any], folder: Path) -> None:
    """Depth vs n against the paper's band, and Fig. 4's contribution rates against point-to-point."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    folder.mkdir(parents=True, exist_ok=True)
    sizes = result["sizes"]
    n = [s["n"] for s in sizes]
    seeds = result["seeds_per_n"]

    fig, ax = plt.subplots(figsize=(7, 4.2))
    low, high = PAPER_DEPTH_BAND
    ax.axhspan(low, high, color="#dd8452", alpha=0.18, label=f"paper, sec. 4.3: depth in [{low}, {high}]")
    ax.fill_between(n, [s["depth"]["min"] for s in sizes], [s["depth"]["max"] for s in sizes],
                    color="#4c72b0", alpha=0.25, label=f"LBDD min..max over {seeds} topologies")
    ax.plot(n, [s["depth"]["mean"] for s in sizes], "o-", color="#4c72b0", label="LBDD mean depth")
    ax.plot(n, [s["depth"]["expected"] for s in sizes], "--", color="#55a868",
            label="expected occupied buckets (uniform digests)")
    ax.set_xlabel("subscribers n")
    ax.set_ylabel("tree depth (hops)")
    ax.set_title("LBDD tree depth vs n (corrected reading)")
    ax.set_ylim(0, max(s["depth"]["max"] for s in sizes) + 2)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8, loc="lower right")
    figures.save(fig, folder / DEPTH_FIGURE, 110, tight=True)

    fig, ax = plt.subplots(figsize=(7, 4.2))
    ax.plot(n, [s["contribution"]["point_to_point_publisher"] for s in sizes], "s-", color="#c44e52",
            label="point-to-point: publisher")
    ax.fill_between(n, [s["contribution"]["publisher_min"] for s in sizes],
                    [s["contribution"]["publisher_max"] for s in sizes], color="#4c72b0", alpha=0.25,
                    label="LBDD publisher, min..max")
    ax.plot(n, [s["contribution"]["publisher_mean"] for s in sizes], "o-", color="#4c72b0",
            label="LBDD publisher, mean")
    ax.plot(n, [s["contribution"]["subscriber_max_mean"] for s in sizes], "^-", color="#55a868",
            label="LBDD busiest subscriber, mean")
    ax.set_yscale("log")
    ax.set_xlabel("subscribers n")
    ax.set_ylabel("contribution rate = copies sent / n")
    ax.set_title("Contribution rates (sec. 4.3, Fig. 4), corrected reading")
    ax.grid(alpha=0.3, which="both")
    ax.set_ylim(top=3)  # room above the point-to-point line for the legend
    ax.legend(fontsize=8, loc="upper right", ncol=2)
    figures.save(fig, folder / CONTRIBUTION_FIGURE, 110, tight=True)
