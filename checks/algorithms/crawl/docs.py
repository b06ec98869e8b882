"""CRAWL's own section of docs/crawl.md (checks.docs fills the generic ones).

    spark   the committed million-walk validation (`make validate`, reports/validate/crawl.json):
            each walk claim's share per reading, and the share of walks that reached an entry
            point set beside the exact chance of the same instances, with its interval
"""

from __future__ import annotations

import json
import math
from statistics import NormalDist
from typing import Any

from checks.docs import DocsContext, table
from checks.interval import estimate

VALIDATION = "reports/validate/crawl.json"


def sections(ctx: DocsContext) -> dict[str, str]:
    return {"spark": spark_section(ctx)}


def chance_against_estimate(metrics: dict[str, Any], confidence: float = 0.95) -> dict[str, Any] | None:
    """The walks of the instances solved exactly: how many reached an entry point, against the sum of
    their exact chances. Each walk is an independent trial with its own chance p_i, so the count found
    has mean sum p_i and variance sum p_i (1 - p_i); the interval is that mean's at `confidence`
    (normal), and the count must lie inside it where the reference walks as the spec's chances say.
    None where the summary has no such instances."""
    cases = metrics.get("exact_cases", {}).get("sum", 0)
    if cases < 2:
        return None
    ppm, found = metrics["exact_ppm"], metrics["found_exact"]["sum"]
    mean = ppm["sum"] / 1e6
    variance = mean - ppm["squares"] / 1e12
    half = NormalDist().inv_cdf(0.5 + confidence / 2) * math.sqrt(max(variance, 0.0))
    return {"cases": cases, "found": found, "expected": mean, "low": mean - half, "high": mean + half,
            "inside": mean - half <= found <= mean + half, "wilson": estimate(found, cases, confidence)}


def spark_section(ctx: DocsContext) -> str:
    path = ctx.resolve(VALIDATION)
    if not path.exists():
        return ("No million-walk validation is committed yet (`make validate` writes "
                f"`{VALIDATION}`); `make check` runs the same job on its default scope.")
    report = json.loads(path.read_text())
    shown = ctx.source(path)
    config = report.get("config", {})
    checks = report.get("checks", {})
    witnesses = report.get("witnesses", {})
    rows = []
    for column, c in checks.items():
        reading, prop = column.split(":")[:2]
        held = report["cases"] - c["violations"]
        seen = witnesses.get(f"{column}:witness")
        rows.append([f"`{prop}`", f"`{reading}`", f"{held:,} of {report['cases']:,}", str(estimate(held, report["cases"])),
                     "" if seen is None else f"{seen:,}"])
    lines = [f"**Spark, {report['cases']:,} random walks per reading** (`make validate`, `{shown}`; lower layers of "
             f"2..{config.get('max_nodes')} nodes, views of 1..{config.get('max_view')} random others, k "
             f"1..{config.get('max_k')}, budget 1..{config.get('max_budget')}; the reference's seeded walk replayed "
             "on the spec, every move one of its choices, and judged by the spec's predicates):", "",
             table(["claim", "reading", "walks it holds on", "share, 95% interval", "walks that reached its witness"],
                   rows), "",
             "The shares are estimates over this project's own sampling (sizes log-uniform, random views that may "
             "leave a layer disconnected, 0..n/4 entry points), not over every lower layer CRAWL could run on; each "
             "claim's witness (a walk that restarted, or one longer than its Trace) says how many walks the claim was "
             "about, and the interval's bounds are rounded outwards to three places."]
    compared = chance_against_estimate(report.get("metrics", {}))
    if compared:
        c = compared
        lines += ["", f"**The estimate beside the exact chance.** On the {c['cases']:,} instances small enough to "
                  f"solve exactly (at most 6 nodes, budget at most 8), reading `{config.get('readings', ['?'])[0]}`, "
                  f"{c['found']:,} walks reached an entry point ({c['wilson']}); the exact chances of the same "
                  f"instances sum to {c['expected']:,.1f}, so the count expected lies in [{c['low']:,.1f}, "
                  f"{c['high']:,.1f}] at 95%. "
                  + ("The count found lies inside it: consistent with the spec's chances (one aggregate test "
                     "that fails to reject, not a verdict)." if c["inside"] else
                     "The count found lies outside it: the reference's walks and the spec's chances disagree.")]
    return "\n".join(lines)
