"""IRBR's figures for reports/bench.json (checks.bench adds the Spark job's).

    irbr_reference    subscribe, publish, join and leave throughput of the reference on 10^4 and
                      10^5 nodes (a node's delegation table is built when first read: a subscribe
                      or unsubscribe with no failed identifier kept reads none, so the publishes,
                      timed after them, build the tables their trees pass through)
    irbr_exhaustive   distinct states per second of the explorers under the default reading: one
                      operation at a time on (k=2, L=2) with <= 4 operations, and messages in
                      flight at the default scope
"""

from __future__ import annotations

import attrs
import numpy as np

from checks import plugin
from checks.bench import run_checks, timed


def figures() -> dict:
    return {"irbr_reference": irbr_reference_figures(), "irbr_exhaustive": irbr_exhaustive_figures()}


def irbr_exhaustive_figures() -> dict:
    from checks.algorithms.irbr import ALGORITHM
    from checks.algorithms.irbr.operations import Bound
    from spec import irbr as I

    default = ALGORITHM.readings.names()[0]
    scope = attrs.evolve(ALGORITHM.scope("default"), one_at_a_time=(Bound(k=2, L=2, operations=4),), deeper=())
    in_flight = {p.name for p in I.FLIGHT_PROPERTIES}
    out = {}
    for check, results, _ in run_checks(ALGORITHM, lambda c: isinstance(c, plugin.Exploration)
                                        and c.reading == default, scope):
        name = "messages_in_flight_default" if set(check.properties) <= in_flight else "one_at_a_time_2_2_4"
        states, seconds = results[0].states, results[0].seconds
        out[name] = {"states": states, "seconds": round(seconds, 2), "states_per_second": round(states / seconds)}
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
        net, build_secs = timed(lambda: R.Network(16, 8, ids))
        subscribers = [ids[int(i)] for i in rng.integers(len(ids), size=operations)]
        lows = rng.integers(0, 90, size=operations)
        sub_msgs, sub_secs = timed(lambda: sum(net.subscribe(s, I.make_filter(x=(int(lo), int(lo) + 10)))
                                                for s, lo in zip(subscribers, lows)))
        publishers = [ids[int(i)] for i in rng.integers(len(ids), size=operations)]
        pubs, pub_secs = timed(lambda: [net.publish(p, {"x": int(x)})
                                         for p, x in zip(publishers, rng.integers(0, 100, size=operations))])
        fresh = [format(int(v), "08x") for v in rng.choice(16 ** 8, size=4 * operations, replace=False)]
        fresh = [x for x in fresh if x not in net.live][:operations]
        join_msgs, join_secs = timed(lambda: sum(net.join(x) for x in fresh))
        leavers = [s for s in dict.fromkeys(subscribers) if s in net.live][:operations // 2]
        _, leave_secs = timed(lambda: [net.leave(x) for x in leavers])
        out[str(n)] = {"build_seconds": round(build_secs, 3),
                       "subscribes_per_second": round(operations / sub_secs, 2),
                       "messages_per_subscribe": sub_msgs / operations,
                       "publishes_per_second": round(operations / pub_secs, 1),
                       "messages_per_publish": sum(p.messages for p in pubs) / operations,
                       "joins_per_second": round(len(fresh) / join_secs, 1),
                       "messages_per_join": join_msgs / len(fresh),
                       "leaves_per_second": round(len(leavers) / leave_secs, 2)}
    return out
