"""CRAWL's own sections of docs/crawl.md (checks.docs fills the generic ones).

    reproduction  Figs. 5-9 reproduced (reproduce.py, cached beside the report against the code
                  that makes its numbers), with Simple and TERA, under every reading it runs
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
# the reproduction's columns (each Simple of reference.crawl.SIMPLE_FORWARDING has one: a new one fails here)
COLUMNS = {"crawl-routing": "CRAWL, routing", "crawl-with-deliveries": "CRAWL, with deliveries"}
SIMPLE_COLUMNS = {"flood": "Simple, flood (every copy)", "flood-once": "Simple, flood once",
                  "random-walk": "Simple, random walk", "flood-if-matched": "Simple, flood where matched"}


def sections(ctx: DocsContext) -> dict[str, str]:
    from checks.algorithms.crawl import reproduce

    out = ctx.reproduction_path()
    rep = reproduce.crawl_figs(out=out)
    ctx.wrote(reproduce.draw_figure(rep, ctx.figures_dir), out)
    return {"spark": spark_section(ctx),
            "reproduction": reproduction_section(rep, ctx.source(out), ctx.module_path(reproduce.__name__))}


def reproduction_section(rep: dict[str, Any], json_path: str, code: str) -> str:
    """Figs. 5-9 as this project's simulation gives them, every choice named; the paper's sentences
    about them are judged in the sentences table (inventory.py)."""
    from checks.algorithms.crawl.reproduce import ATTRIBUTES
    from reference.crawl import APT_FILLING, SIMPLE_FORWARDING

    events = rep["key"]["events"]
    lines = [f"**Figs. 5-9 reproduced** (`{code}`, numbers in `{json_path}`, seed {rep['key']['seed']}, {events} "
             "events per point; recomputed only when the code that makes them changes). The figures' values are not "
             "in the text: each table stands beside what the text says of it, and the sentences table above judges "
             "those sentences on these numbers. Every parameter the paper does not give is a choice:", "",
             table(["what", "chosen"], [[a, b] for a, b in rep["choices"]]), "",
             "CBDLO's messages are its two stages as the text counts them (`routing`), and, this project's question, "
             "with the deliveries to the Node Lists: "
             + "; ".join(f"`{k}`: {v}" for k, v in rep["accounting"].items()) + ". "
             "Effective cost = messages / (matched / expected), summed over the point's events (sec. 5.3's worked "
             "example fixes the formula).", "", f"![Figs. 5-9](figures/crawl-figs5-9.png)", ""]
    for filling in APT_FILLING:
        r = rep[filling]
        lines += [f"*APTs filled as `{filling}`.*", ""]
        figs = [("fig_5", "subscriptions", "Fig. 5 (budget 10, APT 100)"),
                ("fig_6", "budget", "Fig. 6 (2,000 subscriptions, APT 100)")]
        for fig, axis, title in figs:
            columns = {**COLUMNS, **{f"simple-{f}": SIMPLE_COLUMNS[f] for f in SIMPLE_FORWARDING}}
            rows = []
            for x, v in r[fig].items():
                rows.append([x] + [f"{_num(v[n]['effective'])} / {_num(v[n]['effective_events'])}" for n in columns]
                            + [f"{v['expected']:,} / {v['expected_events']:,}", f"{v['hit_rate']:.3f}"])
            lines += [f"{title}, effective cost, matched / expected counted per subscription / per event:", "",
                      table([axis, *columns.values(), "expected", "walks reaching their topology"], rows), ""]
        m, ext = r["fig_7"]["measured"], r["fig_7"]["extended"]
        lines += ["Fig. 7, messages per event (measured):", "",
                  table(["nodes", "CBDLO, routing", "CBDLO, with deliveries", "TERA", "TERA's walk",
                         "TERA events delivered"],
                        [[f"{int(n):,}", f"{v['cbdlo-routing']:.1f}", f"{v['cbdlo-with-deliveries']:,.0f}",
                          f"{v['tera']:.1f}", f"{v['tera_walk']:.2f}", f"{v['tera_found']:.0%}"] for n, v in m.items()]),
                  "", f"Fig. 7 beyond {int(list(m)[-1]):,} nodes, read off fits of the measured points (an extrapolation, not a "
                  "measurement): " + "; ".join(f"{name} = {f['intercept']:.4g} + {f['slope']:.4g} x "
                                               f"{'log2 N' if f['form'] == 'log2' else 'N'}"
                                               for name, f in ext["fits"].items()), "",
                  table(["nodes", "CBDLO, routing", "CBDLO, with deliveries", "TERA"],
                        [[f"{int(n):,}", f"{v['cbdlo-routing']:,.0f}", f"{v['cbdlo-with-deliveries']:,.0f}",
                          f"{v['tera']:,.0f}"] for n, v in ext["at"].items()]), ""]
        sizes = "members of 3,000 nodes" if filling == "node-samples" else "attributes (10 members each)"
        apts = list(next(iter(r["hit_rate"].values())))
        lines += [f"The walk's hit rate (budget 10, 3,000 nodes, view 10, {10 * events} walks per cell) against the APT's "
                  f"size, by {sizes}:", "",
                  table([sizes.split(" (")[0]] + [f"APT {a}" for a in apts],
                        [[size] + [f"{rates[a]:.3f}" for a in apts] for size, rates in r["hit_rate"].items()]), ""]
        for fig, axis in (("fig_8", "subscriptions"), ("fig_9", "attributes")):
            title = f"Fig. 8 ({ATTRIBUTES} attributes)" if fig == "fig_8" else "Fig. 9 (2,000 subscriptions)"
            lines += [f"{title}, matching cost per event (view 20, APT 20, budget 30, 3,000 nodes):", "",
                      table([axis, "CBDLO as printed x 1/8", "CBDLO summed x 1/8", "CBDLO per attribute",
                             "Simple x 0.1", "walks reaching their topology"],
                            [[x, f"{v['cbdlo-slowest']:.3g}", f"{v['cbdlo-summed']:.3g}",
                              f"{v['cbdlo-per-attribute']:.3g}", f"{v['simple']:,.0f}", f"{v['hit_rate']:.3f}"]
                             for x, v in r[fig].items()]), ""]
    return "\n".join(lines).rstrip()


def _num(value: float | None) -> str:
    from checks.algorithms.crawl.inventory import big

    return "none matched" if value is None else big(value)


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
    metrics = report.get("metrics", {})
    large = metrics.get("large", {}).get("sum", 0)
    lows = config.get("large_nodes", ["?", "?"])
    lines = [f"**Spark, {report['cases']:,} random walks per reading** (`make validate`, `{shown}`): {large:,} on "
             f"lower layers of sec. 5's sizes ({lows[0]:,}..{lows[1]:,} nodes, each node's own view of "
             f"{' or '.join(map(str, config.get('large_views', [])))} random others drawn as the walk reaches it, up "
             f"to {config.get('max_left', 0):.0%} of the nodes gone, APTs of "
             f"{'..'.join(map(str, config.get('large_apts', [])))} filled either way, 30..3,000 attributes with Zipf "
             f"subscriptions, budget {'..'.join(map(str, config.get('large_budgets', [])))}), the rest on small ones "
             f"(2..{config.get('max_nodes')} nodes, views of 1..{config.get('max_view')} random others, budget "
             f"1..{config.get('max_budget')}); k 1..{config.get('max_k')}; the reference's seeded walk (the same "
             "draws under every reading) replayed on the spec, every move one of its choices, and judged by the "
             "spec's predicates:", "",
             table(["claim", "reading", "walks it holds on", "share, 95% interval", "walks that reached its witness"],
                   rows), "",
             "The shares are estimates over this project's own sampling (above: sizes log-uniform, small layers' random "
             "views that may leave them disconnected), not over every lower layer CRAWL could run on; each "
             "claim's witness (a walk that restarted, or one longer than its Trace) says how many walks the claim was "
             "about, and the interval's bounds are rounded outwards to three places."]
    if large:
        found, restarted = metrics["found_large"]["sum"], metrics["restarted_large"]["sum"]
        lines += ["", f"**At sec. 5's sizes** ({large:,} walks under `{config.get('readings', ['?'])[0]}`): "
                  f"{found:,} reached an entry point ({estimate(found, large)}), a delivery ratio over this job's own "
                  f"spread of topologies and APTs, not one of the paper's settings; {restarted:,} walks restarted "
                  "(with views of 10 or 20 and a Trace of at most 4, a walk blocks only where churn has emptied "
                  "the views around it)."]
    compared = chance_against_estimate(metrics)
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
