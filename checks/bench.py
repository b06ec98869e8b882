"""`make bench`: throughput figures measured side by side in one run, written to reports/bench.json.

- Spark: topologies per second on local[2] (session started and warmed first) beside a plain
  single-process loop over the same seeds; parallel efficiency = spark rate / (2 x loop rate).
- Spark, SCOT: the same for the SCOT job's random scenarios (a quarter as many: each costs more);
  IRBR: the same for its random workloads (a tenth as many).
- Exhaustive: distinct states per second of the LBDD, SCOT and IRBR explorers at the default
  scope, and cases per second of the SCOT routing enumerations.
- Z3: the time of each proof (LBDD and SCOT).
- Reference: LBDD tree build time at 10^4, 10^5 and 10^6 subscribers (MD5 included); SCOT
  subscription trees and SNR at 10^3, 10^4 and 10^5 brokers; IRBR subscribe, publish, join and
  leave throughput on 10^4 and 10^5 nodes.
Targets from the foundation issue are recorded beside each figure; a figure that misses its
target is reported as such, not hidden.
"""

from __future__ import annotations

import json
import platform
import time
from pathlib import Path

import numpy as np

TARGETS = {"spark_million_seconds": 600, "parallel_efficiency": 0.85, "states_per_second": 100_000}


def _timed(fn):
    start = time.perf_counter()
    value = fn()
    return value, time.perf_counter() - start


def spark_figures(job, topologies: int, console=None) -> dict:
    """One validation job's topologies (or scenarios) per second: a plain loop, then Spark
    local[2] on the same seeds after a warm-up, and whether the two summaries are equal."""
    import tempfile

    from spark_validation.runner import evaluate_locally, spark_session, summarize, validate

    seeds = np.arange(topologies)
    loop_summary, loop_seconds = _timed(lambda: summarize(evaluate_locally(job, seeds), job))
    spark = spark_session("local[2]", app="pubsub-proofs-bench")
    try:
        with tempfile.TemporaryDirectory() as tmp:
            validate(job, 200, Path(tmp) / "warm", spark=spark, partitions=2)  # JVM and workers up
            info, spark_seconds = _timed(lambda: validate(job, topologies, Path(tmp) / "run", spark=spark,
                                                          partitions=8, segment=topologies))
    finally:
        spark.stop()
    same = {k: v for k, v in info.summary.items() if k != "config"} == loop_summary
    loop_rate, spark_rate = topologies / loop_seconds, topologies / spark_seconds
    return {
        "topologies": topologies, "readings": list(job.readings),
        "loop_seconds": round(loop_seconds, 2), "loop_topologies_per_second": round(loop_rate, 1),
        "spark_local2_seconds": round(spark_seconds, 2), "spark_topologies_per_second": round(spark_rate, 1),
        "parallel_efficiency": round(spark_rate / (2 * loop_rate), 3),
        "projected_million_seconds_local2": round(1_000_000 / spark_rate, 0),
        "spark_equals_loop": same,
    }


def exhaustive_figures() -> dict:
    from checks import lbdd as C
    from spec import lbdd as L

    out = {}
    for name in ("corrected", "literal-path-update"):
        states = seconds = 0.0
        for scope in C.SCOPES["default"]:
            ex = C.explore_reading(scope, L.READINGS[name], C.TREE_PROPERTIES)
            states += ex.states
            seconds += ex.seconds
        out[name] = {"states": int(states), "seconds": round(seconds, 3),
                     "states_per_second": round(states / seconds, 0)}
    return out


def z3_figures() -> dict:
    from checks import lbdd as C
    from spec import lbdd as L

    out = {}
    for name in ("corrected", "literal", "ceil-ratio"):
        res, secs = _timed(lambda: C.prove_partition(L.READINGS[name]))
        out[f"schedule_partitions_targets/{name}"] = {"verdict": res["verdict"].value, "seconds": round(secs, 3)}
    res, secs = _timed(C.prove_one_way)
    out["one_way_dissemination"] = {"verdict": res["verdict"].value, "seconds": round(secs, 3)}
    return out


def scot_exhaustive_figures() -> dict:
    """States per second of the SCOT explorer (every delivery order) and cases per second of the
    enumerations, at the default scope."""
    from checks import scot as C

    sc = C.SCOPES["default"]
    out = {}
    for reading in C.PROTOCOLS:
        ex, _ = C.explore_protocol(sc, reading)
        out[f"explore/{reading}"] = {"states": ex.states, "seconds": round(ex.seconds, 3),
                                     "states_per_second": round(ex.states / ex.seconds, 0)}
    for name, fn in (("routing", C.routing_checks), ("dnr", C.dnr_checks)):
        results, secs = _timed(lambda: fn(sc))
        cases = sum({r.reading: r.cases for r in results}.values())
        out[name] = {"cases": cases, "seconds": round(secs, 3), "cases_per_second": round(cases / secs, 0)}
    return out


def scot_z3_figures() -> dict:
    from checks import scot as C

    out = {}
    for reading in C.PROTOCOLS:
        res, secs = _timed(lambda: C.prove_shortest(reading))
        out[f"subscription_tree_is_shortest/{reading}"] = {"verdict": res["verdict"].value, "seconds": round(secs, 3)}
    return out


def reference_figures() -> dict:
    from reference import lbdd as R
    from reference.generators import distinct_uint32, dotted, rng_for

    out = {}
    for n in (10 ** 4, 10 ** 5, 10 ** 6):
        addresses = dotted(distinct_uint32(rng_for("bench", n), n + 1))
        tree, secs = _timed(lambda: R.build(addresses[1:], addresses[0]))
        _, p2p = _timed(lambda: R.point_to_point(n))
        out[str(n)] = {"build_seconds": round(secs, 3), "depth": R.depth(tree),
                       "publisher_copies": int(R.copies_sent(tree)[0]), "point_to_point_seconds": round(p2p, 4)}
    return out


def scot_reference_figures() -> dict:
    """Algorithm 1's tree, flooding's tree and one SNR routing (20 subscriber brokers) on random
    SCOTs of 10^3, 10^4 and 10^5 brokers (a random labelled tree x K_10)."""
    import networkx as nx

    from reference import scot as RS

    out = {}
    for vertices in (100, 1000, 10_000):
        tree = nx.random_labeled_tree(vertices, seed=vertices)
        scot, build_secs = _timed(lambda: RS.build(tree, 10))
        brokers = scot.brokers()
        rng = np.random.default_rng(vertices)
        hosts = [brokers[i] for i in rng.choice(len(brokers), size=20, replace=False)]
        trees, sbp_secs = _timed(lambda: {h: RS.subscription_tree(scot, h) for h in hosts})
        _, flood_secs = _timed(lambda: RS.flooding_tree(scot, hosts[0]))
        routing, snr_secs = _timed(lambda: RS.snr(scot, brokers[0], hosts, trees))
        out[str(len(brokers))] = {"build_seconds": round(build_secs, 3),
                                  "sbp_tree_seconds_each": round(sbp_secs / len(hosts), 4),
                                  "flooding_tree_seconds": round(flood_secs, 4),
                                  "snr_seconds_20_subscribers": round(snr_secs, 4), "snr_messages": routing.messages}
    return out


def irbr_reference_figures(operations: int = 20) -> dict:
    """Subscribe and publish throughput of reference.irbr.Network on 10^4 and 10^5 nodes (k = 16,
    L = 8, random identifiers; filters x in lo..lo+10, events x uniform in 0..99)."""
    from reference import irbr as R
    from spec import irbr as I

    out = {}
    for n in (10_000, 100_000):
        rng = np.random.default_rng(n)
        ids = [format(int(v), "08x") for v in rng.choice(16 ** 8, size=n, replace=False)]
        net, build_secs = _timed(lambda: R.Network(16, 8, ids))
        subscribers = [ids[int(i)] for i in rng.integers(len(ids), size=operations)]
        lows = rng.integers(0, 90, size=operations)
        sub_msgs, sub_secs = _timed(lambda: sum(net.subscribe(s, I.make_filter(x=(int(lo), int(lo) + 10)))
                                                for s, lo in zip(subscribers, lows)))
        publishers = [ids[int(i)] for i in rng.integers(len(ids), size=operations)]
        pubs, pub_secs = _timed(lambda: [net.publish(p, {"x": int(x)})
                                         for p, x in zip(publishers, rng.integers(0, 100, size=operations))])
        fresh = [format(int(v), "08x") for v in rng.choice(16 ** 8, size=4 * operations, replace=False)]
        fresh = [x for x in fresh if x not in net.live][:operations]
        join_msgs, join_secs = _timed(lambda: sum(net.join(x) for x in fresh))
        leavers = [s for s in dict.fromkeys(subscribers) if s in net.live][:operations // 2]
        _, leave_secs = _timed(lambda: [net.leave(x) for x in leavers])
        out[str(n)] = {"build_seconds": round(build_secs, 3),
                       "subscribes_per_second": round(operations / sub_secs, 2),
                       "messages_per_subscribe": sub_msgs / operations,
                       "publishes_per_second": round(operations / pub_secs, 1),
                       "messages_per_publish": sum(p.messages for p in pubs) / operations,
                       "joins_per_second": round(len(fresh) / join_secs, 1),
                       "messages_per_join": join_msgs / len(fresh),
                       "leaves_per_second": round(len(leavers) / leave_secs, 2)}
    return out


def irbr_exhaustive_figures() -> dict:
    """Distinct states per second of the IRBR explorers: one operation at a time on (k=2, L=2) with
    <= 4 operations, and messages in flight at the default scope, both under the default reading."""
    from checks import irbr as C

    ex = C.explore_reading(C.Scope(((2, 2, 4),)), C.Reading())[0][1]
    flight = C.explore_flight(C.FLIGHT_SCOPES["default"], C.I.Rules())
    return {name: {"states": e.states, "seconds": round(e.seconds, 2), "states_per_second": round(e.states / e.seconds)}
            for name, e in (("one_at_a_time_2_2_4", ex), ("messages_in_flight_default", flight))}


def run(out_path: str = "reports/bench.json", topologies: int = 40_000, console=None) -> dict:
    say = console.print if console else print
    figures = {"machine": {"cpus": __import__("os").cpu_count(), "python": platform.python_version(),
                           "platform": platform.platform()}, "targets": TARGETS}
    from spark_validation.irbr import IrbrJob
    from spark_validation.lbdd import LbddJob
    from spark_validation.scot import ScotJob

    for name, fn in (("reference", reference_figures), ("scot_reference", scot_reference_figures),
                     ("irbr_reference", irbr_reference_figures),
                     ("z3", z3_figures), ("scot_z3", scot_z3_figures), ("exhaustive", exhaustive_figures),
                     ("scot_exhaustive", scot_exhaustive_figures),
                     ("spark", lambda: spark_figures(LbddJob(), topologies, console)),
                     ("irbr_exhaustive", irbr_exhaustive_figures),
                     ("scot_spark", lambda: spark_figures(ScotJob(), max(topologies // 4, 1000), console)),
                     ("irbr_spark", lambda: spark_figures(IrbrJob(), max(topologies // 10, 1000), console))):
        say(f"bench: {name} ...")
        figures[name] = fn()
        say(json.dumps(figures[name]))
    best_states = max(v["states_per_second"] for v in figures["exhaustive"].values())
    figures["against_targets"] = {
        "spark_million_seconds": figures["spark"]["projected_million_seconds_local2"],
        "spark_million_within_target": figures["spark"]["projected_million_seconds_local2"] <= TARGETS["spark_million_seconds"],
        "parallel_efficiency_met": figures["spark"]["parallel_efficiency"] >= TARGETS["parallel_efficiency"],
        "scot_parallel_efficiency_met": figures["scot_spark"]["parallel_efficiency"] >= TARGETS["parallel_efficiency"],
        "irbr_parallel_efficiency_met": figures["irbr_spark"]["parallel_efficiency"] >= TARGETS["parallel_efficiency"],
        "states_per_second_met": best_states >= TARGETS["states_per_second"],
    }
    Path(out_path).parent.mkdir(parents=True, exist_ok=True)
    Path(out_path).write_text(json.dumps(figures, indent=1) + "\n")
    say(f"wrote {out_path}")
    return figures
