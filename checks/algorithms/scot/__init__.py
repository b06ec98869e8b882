"""OctopiS on SCOT (SBP, SNR, BID, DNR): the declaration the engines read.

Paper: "Content-based Dynamic Routing in Structured Overlay Networks", sec. 3-6.3.

Readings: the spec's catalogue (spec.scot.READINGS), by kind. The checks at a scope:
  Z3 (proofs.py)       the lemmas shortest subscription trees rest on, for every distance
                       (flooding's parent rule refuted); Algorithm 4's decision at one broker as five
                       counts, any numbers of target links, per DNR reading. The steps from these
                       lemmas to the claims are checked within bounds, so they record holds.
  every delivery order a subscription broadcast message by message, every interleaving of the
                       messages in flight, on every tree up to a few vertices times K_m and every
                       host (protocol readings: Algorithm 1 and the uncontrolled flooding of sec. 6.1).
  every topology       Algorithm 1 first in first out on every tree up to the bound times K_m,
                       every host (it ends in the same tree in every order, which the explorations
                       show on the small SCOTs).
  every routing        SNR and BID from every publisher to every set of at most two subscriber brokers.
  every DNR run        Algorithm 4 under each DNR reading: every publisher of cluster 0, subscriber
                       set, set of congested queues and tie-break (search.every_decision); at the
                       large scope, for the reading whose copies can loop (dnr-tree-icols), every
                       set of at most one congested queue (Notifications.looping_congested).
  Spark                the same predicates on random scenarios (spark_validation/scot.py).
"""

from __future__ import annotations

import functools
import itertools
from typing import Any, Iterator

import attrs

from checks import plugin
from checks.algorithms.scot import documents as D
from checks.algorithms.scot import proofs
from checks.algorithms.scot.search import BroadcastState, broadcast_system, every_decision, small_scots
from spec import scot as S

NAME = S.ALGORITHM


# --------------------------------------------------------------------------------------------
# Scopes
# --------------------------------------------------------------------------------------------

@attrs.frozen
class Trees:
    """Every non-isomorphic tree of at most `vertices` vertices times K_m, for every m <= `m`."""

    vertices: int
    m: int

    def describe(self) -> str:
        return f"every tree of <= {self.vertices} vertices x K_m, m <= {self.m}, every host"


@attrs.frozen
class Notifications:
    """Notifications routed on every SCOT of `trees`: from every publisher to every set of at
    most `subscribers` subscriber brokers (None: every set) and, for DNR, with every set of at most
    `congested` congested output queues (None: every set). `looping_congested` (None: as
    `congested`) bounds the congested queues instead for a DNR reading whose copies can circulate
    for ever (spec.scot.route_repeats: target_icols "trees"), where a run asks about every queue its
    loops pass and the runs multiply with every subscriber."""

    trees: Trees
    subscribers: int | None
    congested: int | None = None
    looping_congested: int | None = None

    def for_reading(self, name: str) -> "Notifications":
        """The bound DNR reading `name` is explored to."""
        if self.looping_congested is None or S.route_repeats(name) is None:
            return self
        return attrs.evolve(self, congested=self.looping_congested, looping_congested=None)


@attrs.frozen
class Scope:
    sbp_orders: Trees           # Algorithm 1, every delivery order
    flooding_orders: Trees      # uncontrolled flooding, every delivery order (its duplicates explode)
    sbp_trees: Trees            # Algorithm 1 first in first out
    routing: Notifications      # SNR and BID
    dnr: Notifications          # DNR, every tie-break

    def describe(self, kind: str, dnr: Notifications | None = None) -> str:
        if kind in ("sbp_orders", "flooding_orders"):
            return getattr(self, kind).describe() + ", every delivery order"
        if kind == "sbp_trees":
            return self.sbp_trees.describe()
        if kind == "routing":
            return self.routing.trees.describe() + \
                f", every publisher, every set of <= {self.routing.subscribers} subscriber brokers"
        d = dnr or self.dnr
        return (d.trees.describe() + ", every publisher (cluster 0, by symmetry), every "
                + ("set of subscriber brokers" if d.subscribers is None
                   else f"set of <= {d.subscribers} subscriber brokers")
                + (", every set of congested output queues" if d.congested is None
                   else f", every set of <= {d.congested} congested output queues") + ", every tie-break")


SCOPES = {
    "default": Scope(sbp_orders=Trees(vertices=3, m=3), flooding_orders=Trees(vertices=2, m=3),
                     sbp_trees=Trees(vertices=7, m=4),
                     routing=Notifications(Trees(vertices=6, m=3), subscribers=2),
                     dnr=Notifications(Trees(vertices=4, m=3), subscribers=2, congested=None)),
    "large": Scope(sbp_orders=Trees(vertices=4, m=3), flooding_orders=Trees(vertices=3, m=3),
                   sbp_trees=Trees(vertices=9, m=4),
                   routing=Notifications(Trees(vertices=9, m=4), subscribers=2),
                   # dnr-tree-icols with every congested set and <= 4 subscribers would be hours
                   dnr=Notifications(Trees(vertices=4, m=3), subscribers=4, congested=None, looping_congested=1)),
}


# --------------------------------------------------------------------------------------------
# The checks at a scope
# --------------------------------------------------------------------------------------------

@attrs.frozen
class Scots:
    """The SCOTs one exploration runs over (its label), listed once, when first explored."""

    trees: Trees
    protocol: str
    _made: list = attrs.field(factory=list, eq=False, repr=False, init=False)

    @property
    def scots(self) -> list[S.Scot]:
        if not self._made:
            self._made.extend(small_scots(self.trees.vertices, self.trees.m))
        return self._made

    def run(self, state: BroadcastState) -> S.BroadcastRun:
        """An exploration's state as the run the properties judge."""
        return S.BroadcastRun(self.scots[state.scot], state.broadcast)

    def __str__(self) -> str:
        return f"trees <= {self.trees.vertices} x K_m, m <= {self.trees.m}"


def exploration(reading: S.Reading, scope: Scope) -> plugin.Exploration:
    """Every delivery order of a subscription broadcast under a protocol reading."""
    kind = "sbp_orders" if reading.protocol == "sbp" else "flooding_orders"
    scots = Scots(getattr(scope, kind), reading.protocol)
    props = S.SBP_PROPERTIES
    return plugin.Exploration(
        reading.name, tuple(p.name for p in props), scope.describe(kind),
        systems=lambda: [(scots, broadcast_system(scots.scots, scots.protocol))],
        invariants=lambda label: {p.name: (lambda s, p=p: p.predicate(label.run(s))) for p in props},
        witnesses=lambda label: {p.name: (lambda s, p=p: p.witness(label.run(s))) for p in props},
        document=lambda prop, label, trace: D.trace_document(prop, reading.name, label.scots[trace[0].state.scot],
                                                             trace),
        steps="deliveries")


# What a case says about itself, and its replay document, as named functions a Case binds with
# functools.partial (the case's values, then the property the document is for).

def tree_text(scot: S.Scot) -> str:
    return f"tree {sorted(scot.tree.edges)}, m = {scot.m}"


def broadcast_case_text(scot: S.Scot, host: S.Broker) -> str:
    return f"{tree_text(scot)}, host B{host}"


def broadcast_case_document(scot: S.Scot, host: S.Broker, log: list, prop: str):
    return D.broadcast_document(prop, "octopis-sbp", scot, host, log)


def routing_case_text(scot: S.Scot, publisher: S.Broker, hosts: tuple, routing) -> str:
    return f"{tree_text(scot)}, publisher B{publisher}, subscribers at {list(hosts)}: {routing}"


def routing_case_document(reading: S.Reading, scot: S.Scot, publisher: S.Broker, hosts: tuple, prop: str):
    return D.routing_document(prop, reading.router, reading.name, scot, publisher, hosts)


def dnr_case_text(scot: S.Scot, publisher: S.Broker, hosts: tuple, congested, decisions, routing,
                  snr_messages: int) -> str:
    return (f"{tree_text(scot)}, publisher B{publisher}, subscribers at {list(hosts)}, congested "
            f"{sorted(congested, key=repr)}, tie-breaks {decisions.ties}: {routing.messages} messages (SNR "
            f"{snr_messages}), deliveries {dict(routing.deliveries)}, copies into congested queues "
            f"{dict(routing.congested_copies)}")


def dnr_case_document(reading: S.Reading, scot: S.Scot, publisher: S.Broker, hosts: tuple, congested, decisions,
                      prop: str):
    return D.routing_document(prop, "dnr", reading.name, scot, publisher, hosts, congested, decisions.ties)


def topology_cases(trees: Trees) -> Iterator[plugin.Case]:
    """Algorithm 1 first in first out on every SCOT and every host; a failure replays as an
    octopis-sbp broadcast."""
    for scot in small_scots(trees.vertices, trees.m):
        for host in scot.brokers():
            log: list = []
            yield plugin.Case(
                S.BroadcastRun(scot, S.broadcast_to_the_end(scot, host, log=log)),
                functools.partial(broadcast_case_text, scot, host),
                functools.partial(broadcast_case_document, scot, host, log))


def routing_cases(reading: S.Reading, bound: Notifications) -> Iterator[plugin.Case]:
    """SNR or BID on the trees of the reading's protocol (first in first out), from every
    publisher to every set of at most `bound.subscribers` subscriber brokers."""
    route = {"snr": S.snr, "bid": S.bid_routing}[reading.router]
    for scot in small_scots(bound.trees.vertices, bound.trees.m):
        trees = {h: S.subscription_tree(scot, h, reading.protocol) for h in scot.brokers()}
        brokers = scot.brokers()
        for publisher in brokers:
            for k in range(1, bound.subscribers + 1):
                for hosts in itertools.combinations(brokers, k):
                    routing = route(scot, publisher, hosts, trees)
                    yield plugin.Case(
                        S.RoutingRun(scot, publisher, hosts, routing),
                        functools.partial(routing_case_text, scot, publisher, hosts, routing),
                        functools.partial(routing_case_document, reading, scot, publisher, hosts),
                        counts={"messages": routing.messages})


def dnr_cases(reading: S.Reading, bound: Notifications) -> Iterator[plugin.Case]:
    """Algorithm 4 under a DNR reading, against SNR's message count: every publisher of cluster 0
    (a permutation of the cluster indices is an automorphism of the SCOT that Algorithm 4
    respects, so other publishers add no behaviour), every subscriber set, every set of congested
    queues and every tie-break. Congestion is decided lazily (search.every_decision): a queue's
    status is branched on when the run first asks about it, so each run stands for every
    congested set that agrees on the queues it asked about, and each run is one case."""
    for scot in small_scots(bound.trees.vertices, bound.trees.m):
        trees = {h: S.subscription_tree(scot, h) for h in scot.brokers()}
        brokers = scot.brokers()
        most = len(brokers) if bound.subscribers is None else bound.subscribers
        for publisher in (b for b in brokers if b[1] == 0):
            for k in range(1, most + 1):
                for hosts in itertools.combinations(brokers, k):
                    snr_messages = S.snr(scot, publisher, hosts, trees).messages
                    for d, routing in every_decision(lambda d: S.dnr(
                            scot, publisher, hosts, trees, d, reading.name, d.choose), bound.congested):
                        congested = d.congested()
                        yield plugin.Case(
                            S.RoutingRun(scot, publisher, hosts, routing, congested, snr_messages),
                            functools.partial(dnr_case_text, scot, publisher, hosts, congested, d, routing,
                                              snr_messages),
                            functools.partial(dnr_case_document, reading, scot, publisher, hosts, congested, d))


def checks(scope: Scope) -> Iterator[plugin.Check]:
    """Every SCOT check at `scope`, in the order the report lists them."""
    readings = S.READINGS.values()
    for r in readings:
        if r.kind == "protocol":
            yield plugin.Proof("subscription_tree_is_shortest", r.name, proofs.SHORTEST_SCOPE,
                               lambda r=r: proofs.prove_shortest(r.name), unproved_step=proofs.SHORTEST_STEP)
    for r in readings:
        if r.kind == "dnr":
            for prop in proofs.STEP_LEMMAS:
                yield plugin.Proof(prop, r.name, proofs.STEP_SCOPE,
                                   lambda r=r, prop=prop: proofs.prove_dnr_step(r.name, prop),
                                   unproved_step=proofs.STEP_REDUCTION)
    for r in readings:
        if r.kind == "protocol":
            yield exploration(r, scope)
    for r in readings:
        held_to = tuple(p.name for p in S.properties_of(r.name))
        if r.kind == "topology":
            yield plugin.Enumeration(r.name, held_to, scope.describe("sbp_trees"),
                                     lambda: topology_cases(scope.sbp_trees))
        elif r.kind == "router":
            yield plugin.Enumeration(r.name, held_to, scope.describe("routing"),
                                     lambda r=r: routing_cases(r, scope.routing),
                                     detail="{messages} inter-broker messages in all")
        elif r.kind == "dnr":
            bound = scope.dnr.for_reading(r.name)
            yield plugin.Enumeration(r.name, held_to, scope.describe("dnr", bound),
                                     lambda r=r, bound=bound: dnr_cases(r, bound),
                                     detail="runs: one per distinct congestion of the queues asked about and "
                                            "tie-break")


# --------------------------------------------------------------------------------------------
# Spark
# --------------------------------------------------------------------------------------------

def spark_scope(summary: dict[str, Any], job) -> str:
    return (f"{summary['cases']} random scenarios: trees of 1..{job.max_tree} vertices x K_m, m <= {job.max_m}, "
            f"1..{job.max_subscribers} subscriber brokers, random congested queues and tie-breaks, broadcasts "
            "first in first out (equal link delays)")


# --------------------------------------------------------------------------------------------
# The declaration
# --------------------------------------------------------------------------------------------

ALGORITHM = plugin.Algorithm(
    name=NAME,
    title="OctopiS on SCOT (Content-based Dynamic Routing in Structured Overlay Networks)",
    spec="spec.scot",
    readings=plugin.Catalogue(S.READINGS, describe=lambda reading: reading.summary),
    scopes=SCOPES,
    checks=checks,
    spark=plugin.SparkJob.of("spark_validation.scot",
                             scope=spark_scope, unit="scenarios", size="brokers",
                             counterexample=D.spark_document),
    replay=D.replay,
    **plugin.beside(__name__),
)
