"""CRAWL's figures for reports/bench.json (checks.bench adds the Spark job's).

    crawl_reference    walks per second of the reference (reference.crawl.walk) on lower layers of
                       10^4, 10^5 and 10^6 nodes (views of 10, an entry point at 1% of the nodes,
                       k = 4, budget 10: sec. 5's parameters), and at 10^4 the spec's replay of the
                       same walks (every move checked against its choices) beside it, as a ratio
    crawl_exhaustive   under the printed reading at the default scope, the atlas's search over the
                       walk's states (every random choice of every walk): walks judged per second for
                       the Trace's properties, sources per second for how every walk ends
    crawl_z3           seconds of each Z3 proof of the walk's budget
"""

from __future__ import annotations

import numpy as np

from checks import plugin
from checks.bench import run_checks, timed

SIZES = (10_000, 100_000, 1_000_000)
VIEW, K, BUDGET, ENTRY_SHARE = 10, 4, 10, 0.01


def figures() -> dict:
    return {"crawl_reference": reference_figures(), "crawl_exhaustive": exhaustive_figures(),
            "crawl_z3": z3_figures()}


def reference_figures(walks: int = 2_000) -> dict:
    from reference import crawl as R
    from spec import crawl as C

    out = {}
    for n in SIZES:
        rng = np.random.default_rng(n)
        views, build_secs = timed(lambda: R.random_views(n, VIEW, rng))
        entries = frozenset(int(v) for v in rng.choice(n, size=max(1, int(n * ENTRY_SHARE)), replace=False))
        sources = [int(s) for s in rng.integers(n, size=walks)]
        made, secs = timed(lambda: [R.walk(views, s, entries, K, BUDGET, rng) for s in sources])
        figure = {"build_seconds": round(build_secs, 2), "walks": walks, "walks_per_second": round(walks / secs),
                  "found": sum(m[-1][0] == "found" for m in made),
                  "messages_per_walk": round(sum(len(m) for m in made) / walks, 2)}
        if n == SIZES[0]:
            graph = C.Graph(tuple(tuple(v) for v in views))
            _, spec_secs = timed(lambda: [C.replay_walk(C.WalkParameters(graph, s, entries, K, BUDGET), C.DEFAULT, m)
                                          for s, m in zip(sources, made)])
            figure["spec_replays_per_second"] = round(walks / spec_secs)
            figure["reference_over_spec"] = round(spec_secs / secs, 1)
        out[str(n)] = figure
        del views
    return out


def exhaustive_figures() -> dict:
    from checks.algorithms.crawl import ALGORITHM, ENDING_PROPERTIES, TRACE_PROPERTIES

    out = {}
    for name, unit, properties in (("trace_previous_kept_default", "walks", TRACE_PROPERTIES),
                                   ("atlas_previous_kept_default", "sources", ENDING_PROPERTIES)):
        for check, results, seconds in run_checks(ALGORITHM, lambda c: isinstance(c, plugin.Enumeration)
                                                  and c.reading == "previous/kept" and c.properties == properties):
            cases = results[0].cases
            out[name] = {unit: cases, "seconds": round(seconds, 2), f"{unit}_per_second": round(cases / seconds)}
    return out


def z3_figures() -> dict:
    from checks.algorithms.crawl import ALGORITHM

    return {f"{check.property}:{check.reading}": {"verdict": results[0].verdict.value, "seconds": round(seconds, 3)}
            for check, results, seconds in run_checks(ALGORITHM, lambda c: isinstance(c, plugin.Proof))}
