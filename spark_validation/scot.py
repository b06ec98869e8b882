"""OctopiS/SCOT validation at scale: every registered SCOT property on random scenarios, on Spark.

Paper: "Content-based Dynamic Routing in Structured Overlay Networks" (OctopiS), sec. 5-6.3.

Each seed is one scenario (reference.scot.random_scenario): a random tree of 1..60 vertices
(log-uniform) times K_m, m uniform in 1..8, a random publisher broker, 1..16 random subscriber
brokers and a random set of congested output queues. Per scenario:
  octopis-sbp, bid-flooding   the subscription broadcast from the first subscriber's broker,
                              first in first out (reference.scot.broadcast), under the SBP claims;
  snr, bid                    the notification routed on Algorithm 1's trees and on the flooding
                              trees, under the routing claims;
  every DNR reading            Algorithm 4 (spec.scot.DNR_READINGS) with the scenario's congested queues and
                              a random tie-break (seeded per reading; recorded for replay), against SNR's
                              message count; dnr-tree-icols' looping runs end as spec.scot.route ends them.
The predicates are the spec's own (spec.registry), the ones exhaustive search calls; the
readings are the spec's catalogue (spec.scot.READINGS). A failing scenario is shrunk here and
handed back as spec data (`ScotJob.shrink`); the SCOT declaration (checks.algorithms.scot) makes
the replayable document of it, so this module never imports checks.
"""

from __future__ import annotations

from typing import Any

import attrs
import numpy as np
import pyarrow as pa

from reference import scot as R
from reference.generators import rng_for
from spark_validation.job import JudgedJob, judge
from spec import scot as S

# every reading a random scenario can be run under: the broadcasts and the routers (the
# topology reading is Algorithm 1 again, which the broadcast readings already run here)
DEFAULT_READINGS = S.readings_of("protocol", "router", "dnr")


@attrs.frozen
class Shrunk:
    """A failing scenario cut down, in the spec's terms: a broadcast (`host` and `deliveries` in
    order) or a routing (`publisher`, `subscribers`, and for DNR the congested queues and the
    tie-breaks taken)."""

    reading: str
    property: str
    scot: S.Scot = attrs.field(eq=False)
    host: S.Broker | None = None
    deliveries: tuple = ()
    router: str | None = None
    publisher: S.Broker | None = None
    subscribers: tuple = ()
    congested: tuple = ()
    tie_breaks: tuple = ()


@attrs.frozen
class ScotJob(JudgedJob):
    KNOWN = DEFAULT_READINGS
    readings: tuple[str, ...] = DEFAULT_READINGS
    max_tree: int = R.MAX_RANDOM_TREE
    max_m: int = R.MAX_RANDOM_M
    max_subscribers: int = R.MAX_RANDOM_SUBSCRIBERS
    algorithm: str = S.ALGORITHM

    def __attrs_post_init__(self) -> None:
        self.check_readings()
        if min(self.max_tree, self.max_m, self.max_subscribers) < 1:
            raise ValueError("max_tree, max_m and max_subscribers must all be at least 1")

    def properties_of(self, reading: str) -> list:
        return S.properties_of(reading)

    def metric_columns(self) -> list[str]:
        return ["brokers", "subscribers", "congested", "snr_messages", "bid_messages", "dnr_messages",
                "dnr_skip_messages", "snr_hops", "dnr_hops", "dnr_congested_copies", "sbp_messages",
                "flooding_messages"]

    def scenario(self, seed: int) -> R.Scenario:
        return R.random_scenario(int(seed), self.max_tree, self.max_m, self.max_subscribers)

    def runs(self, sc: R.Scenario, seed: int, readings=None) -> dict[str, tuple[Any, tuple]]:
        """reading -> (the run its properties judge, the DNR tie-breaks taken), for one scenario."""
        readings = readings or self.readings
        scot, p, hosts = sc.scot, sc.publisher, sc.subscriber_hosts
        out: dict[str, tuple[Any, tuple]] = {}
        for reading, protocol in S.PROTOCOLS.items():
            if reading in readings:
                out[reading] = (S.BroadcastRun(scot, R.broadcast(scot, hosts[0], protocol)), ())
        sbp_trees = {h: R.subscription_tree(scot, h) for h in hosts}
        snr = S.snr(scot, p, hosts, sbp_trees)
        if "snr" in readings:
            out["snr"] = (S.RoutingRun(scot, p, hosts, snr), ())
        if "bid" in readings:
            flood_trees = {h: R.flooding_tree(scot, h, until=p) for h in hosts}
            out["bid"] = (S.RoutingRun(scot, p, hosts, S.bid_routing(scot, p, hosts, flood_trees)), ())
        for reading in S.DNR_READINGS:
            if reading in readings:
                choices = tie_breaker(seed, reading)
                routing = S.dnr(scot, p, hosts, sbp_trees, sc.congested, reading, choices)
                out[reading] = (S.RoutingRun(scot, p, hosts, routing, sc.congested, snr.messages),
                                tuple(choices.taken))
        return out

    def evaluate(self, seeds: np.ndarray) -> pa.RecordBatch:
        rows = self.new_rows()
        for seed in np.asarray(seeds).tolist():
            sc = self.scenario(seed)
            runs = self.runs(sc, seed)
            rows["seed"].append(seed)
            rows["n"].append(sc.scot.broker_count())
            for reading, (run, _) in runs.items():
                self.record(rows, reading, *judge(self.properties_of(reading), run))
            every = self.runs(sc, seed, DEFAULT_READINGS) if runs.keys() != set(DEFAULT_READINGS) else runs
            metrics = {
                "brokers": sc.scot.broker_count(), "subscribers": len(sc.subscriber_hosts),
                "congested": len(sc.congested), "snr_messages": every["snr"][0].routing.messages,
                "bid_messages": every["bid"][0].routing.messages,
                "dnr_messages": every["dnr-icols-only"][0].routing.messages,
                "dnr_skip_messages": every["dnr-skip-congested-acols"][0].routing.messages,
                "snr_hops": sum(h for _, h in every["snr"][0].routing.hops),
                "dnr_hops": sum(h for _, h in every["dnr-icols-only"][0].routing.hops),
                "dnr_congested_copies": sum(c for _, c in every["dnr-icols-only"][0].routing.congested_copies),
                "sbp_messages": every["octopis-sbp"][0].broadcast.messages,
                "flooding_messages": every["bid-flooding"][0].broadcast.messages}
            for c in self.metric_columns():
                rows[c].append(int(metrics[c]))
        return self.batch(rows)

    def shrink(self, column: str, seed: int) -> Shrunk:
        """The scenario of `seed`, with subscribers and congested queues dropped one at a time while
        the column's property still fails (1-minimal in both)."""
        reading, prop = self.property_of(column)
        prop_name = prop.name
        sc = self.scenario(seed)
        if reading in S.PROTOCOLS:
            log: list = []
            S.broadcast_to_the_end(sc.scot, sc.subscriber_hosts[0], S.PROTOCOLS[reading], log=log)
            return Shrunk(reading, prop_name, sc.scot, host=sc.subscriber_hosts[0], deliveries=tuple(log))

        def fails(hosts, congested) -> tuple[bool, tuple]:
            smaller = attrs.evolve(sc, subscriber_hosts=tuple(hosts), congested=frozenset(congested))
            run, taken = self.runs(smaller, seed, (reading,))[reading]
            return not prop.predicate(run), taken

        hosts, congested = list(sc.subscriber_hosts), sorted(sc.congested, key=repr)
        for i in reversed(range(len(hosts))):
            if len(hosts) > 1 and fails(hosts[:i] + hosts[i + 1:], congested)[0]:
                hosts = hosts[:i] + hosts[i + 1:]
        for i in reversed(range(len(congested))):
            if fails(hosts, congested[:i] + congested[i + 1:])[0]:
                congested = congested[:i] + congested[i + 1:]
        _, taken = fails(hosts, congested)
        router = S.READINGS[reading].router
        return Shrunk(reading, prop_name, sc.scot, router=router, publisher=sc.publisher, subscribers=tuple(hosts),
                      congested=tuple(congested) if router == "dnr" else (), tie_breaks=tuple(taken))


class tie_breaker:
    """DNR's "least congestion element" choice among equals, drawn at random from a stream seeded
    by (seed, reading); the indices taken are kept so a replay makes the same choices."""

    def __init__(self, seed: int, reading: str):
        self.stream = (f"scot-tie-breaks-{reading}", int(seed))
        self.rng = None  # made on the first real choice: most runs never have one
        self.taken: list[int] = []

    def __call__(self, candidates):
        if len(candidates) > 1 and self.rng is None:
            self.rng = rng_for(*self.stream)
        k = int(self.rng.integers(len(candidates))) if len(candidates) > 1 else 0
        self.taken.append(k)
        return candidates[k]


def default_job() -> ScotJob:
    return ScotJob()


from_config = ScotJob.from_config
