"""OctopiS on SCOT: topology, subscription broadcast and notification routing as an executable spec.

Paper: "Content-based Dynamic Routing in Structured Overlay Networks" (OctopiS)
(../shared/seeds/003_26017af1ed5d6736.txt).

    sec. 3.2   SCOT = acyclic factor (a tree) x connectivity factor (the complete graph K_m), with
               the acyclic, connectivity, index and label-order properties
    sec. 4     clusters C_i (replicas of the tree), regions R_x (replicas of K_m), aCOLs and iCOLs,
               edge and inner brokers, primary and secondary neighbours, the cluster bit vector
    sec. 5     Algorithm 1, the two-step Subscription Broadcast Process (SBP)
    sec. 6.1   Algorithm 2, BID-based routing on the unclustered SCOT, after uncontrolled flooding
    sec. 6.2   Algorithm 3, Static Notification Routing (SNR)

    sec. 6.3   Algorithm 4, Dynamic Notification Routing (DNR), Cases I-III, over a given set of
               congested output queues (the congestion element of Eq. 3 decides which queues are
               congested; which one is "least" is a tie-break, a `choose` the caller passes)

Not yet modelled: the congestion element's time windows and the link status table (a queue is
congested or not, per run); see docs/scot.md.

The text lost its equations; the reconstruction used here: a broker is B(x, i) with x a tree
vertex and i in 0..m-1; B(x, i) ~ B(y, j) iff (x ~ y in the tree and i = j: an aCOL) or (x = y
and i != j: an iCOL) (Eq. 1-2, the Cartesian product). The cluster bit vector is an integer
whose bit i stands for cluster i (sec. 4.4).

Modelled: brokers and overlay links, one subscription (or one notification) at a time, every
subscriber interested in every notification (matching is not the subject here). Messages in
flight are a set, so any delivery order can be taken.

Layout, as in the paper: the readings, the topology (sec. 3-4), the state of a broadcast, the
actions (Algorithm 1, flooding, Algorithms 2-4 one broker at a time), then the claims as named
properties over concrete runs. How every delivery order, tie-break and congested set is searched
is the checkers' business (checks/algorithms/scot/), not the paper's.
"""

from __future__ import annotations

import functools
from collections import deque
from typing import Iterable

import attrs
import networkx as nx

from spec.registry import Property, register

ALGORITHM = "scot"
Broker = tuple[int, int]  # (tree vertex x, cluster index i): the paper's B(x, i)


# --------------------------------------------------------------------------------------------
# Readings: what a check is held to, one catalogue that the checks and the Spark job read
# --------------------------------------------------------------------------------------------

@attrs.frozen
class Reading:
    """One way of running the paper's algorithms that a claim is judged under.

    kind       "protocol": a subscription broadcast (sec. 5, 6.1), every delivery order;
               "topology": Algorithm 1 first in first out on every tree (the same protocol,
               a bigger family of SCOTs); "router": notification routing (sec. 6.1-6.2);
               "dnr": Algorithm 4 (sec. 6.3) over a set of congested output queues.
    protocol   the subscription broadcast whose trees the reading uses: "sbp" (Algorithm 1) or
               "flood" (the uncontrolled SBP of sec. 6.1).
    router     the notification routing: "snr" (Algorithm 3), "bid" (Algorithm 2), "dnr"; None
               for a broadcast.
    congested_acols  DNR only: what a broker does with a congested target aCOL. "copy": SNR's
               copy still goes (DNR "does not support intra-cluster dynamic routing"); "skip":
               lines 22-24 as described, a copy only for each unoverloaded target link.
    cbv_copy   DNR only: how n_CBV joins the next-destination list DL. "merged": on a link that
               already gets a plain copy, n_CBV is that copy (Fig. 7(b) counts 6 IMs for DNR,
               as for SNR, which holds only so); "separate": lines 22-33 as described, one entry
               per line that adds one, so the link carrying n_CBV may get n and n_CBV both.
    target_icols  DNR only: which iCOLs are target iCOLs (dnr_targets), a choice the text leaves
               open. "cbv": at the publisher's host those toward every target sub-cluster, at any
               other broker only those toward a cluster named in the CBV; "trees": at every broker
               the subscription trees' iCOLs toward the matching subscribers, as SNR's
               getDistinctSubs finds next destinations, whatever the CBV says (sec. 6.3: "a target
               link is part of a routing path to next destination").
    summary    one line: what the reading does.
    origin     where the reading stands to the paper's text (checks.plugin.ORIGINS): "open" for
               every reading of OctopiS, since the printed Algorithms 1-4 were lost and what
               survives is prose (sec. 5, sec. 6.3's description of Algorithm 4's lines, Cases
               I-III), which the DNR readings each follow in part and contradict in part;
               "baseline" for the traditional protocols the paper compares with (flooding, BIDs).

    Algorithm 4's printed lines were lost in the extracted text; what survives is sec. 6.3's
    line-by-line description of it and the walk-throughs of Fig. 7. Every DNR reading follows that
    description. Which iCOLs are target iCOLs is a choice the text leaves open, a field of its own
    (target_icols, above); every reading makes the same two further choices: a broker never sends a copy
    back over the link it came from (reverse path forwarding's usual rule: the description of
    Algorithm 3 names distinct next destinations only), and the else block's "least overloaded
    target iCOL" with no target iCOL at all falls back to a congested target aCOL (no SCOT network
    reaches that case: a cluster named in a CBV has subscribers, and Algorithm 1's trees give
    every broker an iCOL toward each of them). Clearing the bits of clusters a free target iCOL
    reaches is printed, in Fig. 7(b)'s walk-through ("B(b, 1) sets the index bit ... to 0").
    """

    name: str
    kind: str
    protocol: str
    router: str | None = None
    congested_acols: str | None = None
    summary: str = ""
    cbv_copy: str | None = None
    target_icols: str | None = None
    origin: str = "open"


KINDS = ("protocol", "topology", "router", "dnr")
READINGS: dict[str, Reading] = {r.name: r for r in (
    Reading("octopis-sbp", "protocol", "sbp",
            summary="Algorithm 1: the host cluster's tree, then one iCOL per region (sec. 5)"),
    Reading("bid-flooding", "protocol", "flood", origin="baseline",
            summary="the uncontrolled SBP of sec. 6.1: every broker floods to all neighbours but the sender"),
    Reading("octopis-sbp-every-tree", "topology", "sbp",
            summary="Algorithm 1 first in first out on every tree up to the bound, every host"),
    Reading("snr", "router", "sbp", "snr",
            summary="Algorithm 3: reverse path forwarding along Algorithm 1's trees (sec. 6.2)"),
    Reading("bid", "router", "flood", "bid", origin="baseline",
            summary="Algorithm 2: BIDs carried along flooding's trees (sec. 6.1)"),
    Reading("dnr-icols-only", "dnr", "sbp", "dnr", "copy", cbv_copy="merged", target_icols="cbv",
            summary="Algorithm 4 reroutes only overloaded target iCOLs; every target aCOL keeps SNR's copy"),
    Reading("dnr-skip-congested-acols", "dnr", "sbp", "dnr", "skip", cbv_copy="merged", target_icols="cbv",
            summary="Algorithm 4 lines 22-24 as described: a copy only on each unoverloaded target link, "
                    "n_CBV being the copy on the link that carries it (Cases I-III, Fig. 7(b)'s count)"),
    Reading("dnr-two-copies", "dnr", "sbp", "dnr", "skip", cbv_copy="separate", target_icols="cbv",
            summary="Algorithm 4 lines 22-33 as described, line by line: a copy on each unoverloaded target "
                    "link, and n_CBV added to DL as its own entry, even on a link that has a copy"),
    Reading("dnr-tree-icols", "dnr", "sbp", "dnr", "copy", cbv_copy="merged", target_icols="trees",
            summary="dnr-icols-only with every subscription tree's iCOL toward a matching subscriber a target "
                    "iCOL at every broker, whatever the CBV says (as SNR finds next destinations)"),
)}


def readings_of(*kinds: str) -> tuple[str, ...]:
    """The names of the readings of these kinds, in catalogue order."""
    unknown = [k for k in kinds if k not in KINDS]
    if unknown:
        raise ValueError(f"unknown reading kind {unknown[0]!r}; known: {', '.join(KINDS)}")
    return tuple(name for name, r in READINGS.items() if r.kind in kinds)


PROTOCOLS = {name: READINGS[name].protocol for name in readings_of("protocol")}  # reading -> protocol
DNR_READINGS = readings_of("dnr")
ROUTERS = readings_of("router", "dnr")


# --------------------------------------------------------------------------------------------
# The topology (sec. 3.2, 4)
# --------------------------------------------------------------------------------------------

@attrs.frozen
class Scot:
    """A clustered SCOT: the tree factor and m clusters. The product graph (`graph`, a networkx
    graph with the sec. 4 attributes) is built on first use; the properties below need only the
    two factors, which keeps judging a run at scale cheap."""

    tree: nx.Graph
    m: int
    _cache: dict = attrs.field(factory=dict, eq=False, repr=False, init=False)

    @property
    def graph(self) -> nx.Graph:
        if "graph" not in self._cache:
            self._cache["graph"] = product_graph(self.tree, self.m)
        return self._cache["graph"]

    def brokers(self) -> tuple[Broker, ...]:
        """Every broker, sorted (kept: a run asks often)."""
        if "brokers" not in self._cache:
            self._cache["brokers"] = tuple(sorted(((x, i) for x in self.tree.nodes for i in range(self.m)), key=repr))
        return self._cache["brokers"]

    def broker_count(self) -> int:
        return self.tree.number_of_nodes() * self.m

    def has_broker(self, b) -> bool:
        try:
            return isinstance(b, tuple) and len(b) == 2 and b[0] in self.tree and b[1] in range(self.m)
        except TypeError:  # an unhashable vertex label: no broker either
            return False

    def primary_neighbours(self, b: Broker) -> list[Broker]:
        x, i = b
        return [(y, i) for y in self.tree.neighbors(x)]

    def secondary_neighbours(self, b: Broker) -> list[Broker]:
        x, i = b
        return [(x, j) for j in range(self.m) if j != i]

    def neighbours(self, b: Broker) -> list[Broker]:
        """Every neighbour, in the order a broker sends to them (sorted), kept per broker."""
        key = ("neighbours", b)
        if key not in self._cache:
            self._cache[key] = sorted(self.primary_neighbours(b) + self.secondary_neighbours(b), key=repr)
        return self._cache[key]

    def link_count(self) -> int:
        n = self.tree.number_of_nodes()
        return (n - 1) * self.m + n * self.m * (self.m - 1) // 2

    def tree_distance(self, x, y) -> int:
        """d_T(x, y), one breadth-first search per source, kept."""
        key = ("d_T", y)
        if key not in self._cache:
            self._cache[key] = nx.single_source_shortest_path_length(self.tree, y)
        return self._cache[key][x]


def build(tree: nx.Graph, m: int) -> Scot:
    """SCOT(tree, K_m), with the four properties of sec. 3.2 enforced on input.

    Raises ValueError naming the problem: a factor with a cycle, a disconnected or empty factor,
    m < 1 (the index property needs clusters 0..m-1), or tree labels that are tuples (they would
    break the label-order property B(x, i) = (tree vertex, cluster index)).
    """
    if not isinstance(tree, nx.Graph):
        raise TypeError(f"the acyclic factor must be an undirected networkx.Graph, not {type(tree).__name__}")
    if tree.is_directed() or tree.is_multigraph():
        raise ValueError("the acyclic factor must be an undirected networkx.Graph")
    if tree.number_of_nodes() == 0:
        raise ValueError("the acyclic factor has no vertices")
    if not isinstance(m, int) or isinstance(m, bool) or m < 1:
        raise ValueError(f"the connectivity factor K_m needs an integer m >= 1, not {m!r}")
    if nx.number_of_selfloops(tree):
        raise ValueError("the acyclic factor has a self-loop")
    if not nx.is_connected(tree):
        raise ValueError(f"the acyclic factor is disconnected ({nx.number_connected_components(tree)} "
                         "components): the SCOT would be disconnected")
    if not nx.is_tree(tree):
        cycle = nx.find_cycle(tree)
        raise ValueError(f"the acyclic factor has a cycle: {[u for u, _ in cycle]}")
    if any(isinstance(x, tuple) for x in tree.nodes):
        raise ValueError("tree vertex labels must not be tuples (brokers are labelled (vertex, cluster))")
    return Scot(tree, m)


def product_graph(tree: nx.Graph, m: int) -> nx.Graph:
    """T x K_m as a networkx graph: brokers (x, i) with cluster, region and type, links with kind."""
    graph = nx.Graph()
    for x in tree.nodes:
        for i in range(m):
            # an edge broker has at most one primary neighbour, an inner one at least two (sec. 4.3)
            graph.add_node((x, i), cluster=i, region=x,
                           type="edge" if tree.degree(x) <= 1 else "inner")
    for x, y in tree.edges:
        for i in range(m):
            graph.add_edge((x, i), (y, i), kind="aCOL")
    for x in tree.nodes:
        for i in range(m):
            for j in range(i + 1, m):
                graph.add_edge((x, i), (x, j), kind="iCOL")
    return graph


def cluster_bit(i: int) -> int:
    """The CBV with only cluster i's bit set (bits indexed from the right, sec. 4.4)."""
    if type(i) is not int or i < 0:  # type(): a bool is no cluster index
        raise (ValueError if type(i) is int else TypeError)(f"cluster index i must be an integer >= 0, not {i!r}")
    return 1 << i


def check_broker(scot: Scot, b, what: str = "broker") -> Broker:
    """A broker of this SCOT, else a ValueError naming it (a TypeError if scot is no Scot)."""
    if not isinstance(scot, Scot):
        raise TypeError(f"scot must be a spec.scot.Scot (see build), not {scot!r}")
    if not scot.has_broker(b):
        raise ValueError(f"no {what} {b!r} in this SCOT (brokers are (tree vertex, cluster in 0..{scot.m - 1}))")
    return b


def check_protocol(protocol) -> str:
    if protocol not in FORWARDING:
        raise ValueError(f"unknown protocol {protocol!r}; known: {', '.join(FORWARDING)}")
    return protocol


def check_hosts(scot: Scot, subscriber_hosts) -> list:
    """The subscribers' brokers, each checked once; none is a valid corner case (nothing to deliver)."""
    if isinstance(subscriber_hosts, (str, bytes)) or not isinstance(subscriber_hosts, Iterable) \
            or scot.has_broker(subscriber_hosts):  # one broker, not a collection of them
        raise TypeError(f"subscriber_hosts must be a collection of brokers, not {subscriber_hosts!r}")
    hosts = list(subscriber_hosts)
    for h in hosts:
        check_broker(scot, h, "subscriber host")
    return hosts


def check_trees(trees, hosts) -> None:
    if not isinstance(trees, dict):
        raise TypeError(f"trees must be a dict from subscriber host to its subscription tree, not {trees!r}")
    missing = [h for h in hosts if h not in trees]
    if missing:
        raise ValueError(f"trees has no subscription tree for subscriber host {missing[0]!r}")


def check_links(scot: Scot, links, what: str = "congested") -> frozenset:
    """Directed links (broker, next broker) of this SCOT: an aCOL or an iCOL."""
    if isinstance(links, (str, bytes)) or not isinstance(links, Iterable):
        raise TypeError(f"{what} must be a set of (broker, broker) links, not {links!r}")
    links = frozenset(links)
    for link in links:
        if not (isinstance(link, tuple) and len(link) == 2 and scot.has_broker(link[0]) and scot.has_broker(link[1])):
            raise ValueError(f"{what} link {link!r} is not a pair of brokers of this SCOT")
        (x, i), (y, j) = link
        if not ((x == y and i != j) or (i == j and scot.tree.has_edge(x, y))):
            raise ValueError(f"{what} link {link!r} joins no neighbours: no such aCOL or iCOL")
    return links


# --------------------------------------------------------------------------------------------
# State: a broadcast in progress (messages in flight are a set: any delivery order)
# --------------------------------------------------------------------------------------------

PRIMARY, SECONDARY = "PRIMARY", "SECONDARY"


@attrs.frozen
class Broadcast:
    """One subscription's broadcast: messages in flight and what each broker has recorded.

    `in_flight`: (sender, receiver, state) triples. `last_hop`: the broker each broker saved the
    subscription from (its routing-table entry {subscription, last hop, CBV}). `received`: how
    many copies each broker got (a duplicate is discarded, but it was sent).
    """

    host: Broker
    in_flight: frozenset
    last_hop: tuple  # sorted (broker, last hop) pairs
    received: tuple  # sorted (broker, copies) pairs
    messages: int


# --------------------------------------------------------------------------------------------
# Actions: SBP (Algorithm 1), uncontrolled flooding for BID routing (sec. 6.1)
# --------------------------------------------------------------------------------------------

def sbp_forward(scot: Scot, at: Broker, sender: Broker | None, state: str) -> list[tuple]:
    """Algorithm 1 at broker `at` on receiving (or issuing) a subscription in `state`.

    Step 1: in the host cluster a PRIMARY subscription goes on to every primary neighbour but the
    sender, as in an acyclic overlay. Step 2: every broker of the host cluster sends it, now
    SECONDARY, to its secondary neighbours; a SECONDARY subscription is not forwarded.
    """
    if state == SECONDARY:
        return []
    out = [(at, n, PRIMARY) for n in scot.primary_neighbours(at) if n != sender]
    out += [(at, n, SECONDARY) for n in scot.secondary_neighbours(at)]
    return out


def flood_forward(scot: Scot, at: Broker, sender: Broker | None, state: str) -> list[tuple]:
    """Uncontrolled SBP on the unclustered SCOT: on first receipt, to every neighbour but the sender."""
    return [(at, n, state) for n in scot.neighbours(at) if n != sender]


FORWARDING = {"sbp": sbp_forward, "flood": flood_forward}


def subscribe(scot: Scot, host: Broker, protocol: str = "sbp") -> Broadcast:
    """The host broker sets its cluster bit and sends the subscription to its neighbours."""
    check_broker(scot, host)
    check_protocol(protocol)
    first = FORWARDING[protocol](scot, host, None, PRIMARY)
    return Broadcast(host, frozenset(first), (), ((host, 0),), len(first))


def deliver(scot: Scot, b: Broadcast, message: tuple, protocol: str = "sbp") -> Broadcast:
    """One message arrives. The first copy is saved and forwarded; later copies are discarded."""
    check_protocol(protocol)
    if message not in b.in_flight:  # else a made-up message would be received as if sent
        raise ValueError(f"message {message!r} is not in flight")
    sender, receiver, state = message
    received = dict(b.received)
    last_hop = dict(b.last_hop)
    first_time = receiver not in received
    received[receiver] = received.get(receiver, 0) + 1
    out: list[tuple] = []
    if first_time:
        last_hop[receiver] = sender
        out = FORWARDING[protocol](scot, receiver, sender, state)
    return Broadcast(b.host, (b.in_flight - {message}) | frozenset(out),
                     tuple(sorted(last_hop.items(), key=repr)), tuple(sorted(received.items(), key=repr)),
                     b.messages + len(out))


def broadcast_to_the_end(scot: Scot, host: Broker, protocol: str = "sbp",
                         order: Iterable[int] | None = None, log: list | None = None) -> Broadcast:
    """Deliver until nothing is in flight: first in, first out (every link equally fast), or, if
    `order` is given, the message at each index of the (sorted) set in flight. `log` collects
    the messages in the order delivered."""
    if order is not None and (isinstance(order, (str, bytes)) or not isinstance(order, Iterable)):
        raise TypeError(f"order must be a sequence of integers, not {order!r}")
    b = subscribe(scot, host, protocol)
    if order is not None:
        choices = iter(order)
        while b.in_flight:
            pending = sorted(b.in_flight, key=repr)
            message = pending[next(choices, 0) % len(pending)]
            if log is not None:
                log.append(message)
            b = deliver(scot, b, message, protocol)
        return b
    fifo = deque(sorted(b.in_flight, key=repr))
    while fifo:
        message = fifo.popleft()
        if log is not None:
            log.append(message)
        before = b.in_flight - {message}
        b = deliver(scot, b, message, protocol)
        fifo.extend(sorted(b.in_flight - before, key=repr))
    return b


def subscription_tree(scot: Scot, host: Broker, protocol: str = "sbp") -> dict[Broker, Broker]:
    """Every broker but the host mapped to its parent (the last hop it saved)."""
    return dict(broadcast_to_the_end(scot, host, protocol).last_hop)


# --------------------------------------------------------------------------------------------
# Notification routing: what one broker does with one copy (SNR, BID, DNR), and a driver that
# routes a notification to its end with every link equally fast. The queue simulation in
# reference/scot.py calls the same per-broker functions at the time each copy arrives.
# --------------------------------------------------------------------------------------------

@attrs.frozen
class Routing:
    """Deliveries (host broker of a subscriber -> copies), inter-broker messages, and how many
    copies each broker received."""

    deliveries: tuple
    messages: int
    hops: tuple  # (subscriber host, hops travelled by the copy that reached it)
    received: tuple = ()  # (broker, copies received from other brokers)


@attrs.frozen
class DnrRouting(Routing):
    congested_copies: tuple = ()  # (broker, copies it put into congested output queues)


def _tally(counts: dict, key) -> None:
    counts[key] = counts.get(key, 0) + 1


def _sorted_items(counts: dict) -> tuple:
    return tuple(sorted(counts.items(), key=repr))


# How often route() handles one arrival (broker, sender, payload) before it stops forwarding it,
# under a router whose copies can circulate for ever (route's `repeats`; route_repeats).
LOOP_REPEATS = 2


def route_repeats(router: str) -> int | None:
    """route()'s `repeats` under `router`: LOOP_REPEATS where copies can circulate for ever, DNR
    with the subscription trees' iCOLs as target iCOLs at every broker (target_icols "trees"; on
    SCOT(a 2-vertex path, K_2), publisher B(0, 0), subscribers at B(0, 0) and B(1, 1), no queue
    congested: B(0,0) -> B(0,1) -> B(1,1) -> B(1,0) -> B(0,0) -> ..., each hop on the subscription
    tree toward one of the two); None for SNR, BID and the "cbv" readings, whose runs end (every
    run the checks explore does), so that they are routed exactly as before the bound existed."""
    r = READINGS.get(router)
    return LOOP_REPEATS if r is not None and r.target_icols == "trees" else None


def route(publisher: Broker, payload, step, congested=frozenset(), repeats: int | None = None) -> DnrRouting:
    """Route one notification breadth first (first in, first out). `step(at, came_from, payload)`
    says whether `at` delivers to local subscribers and which (next broker, payload) copies it sends.

    `repeats` (None: no bound) ends a run whose copies circulate for ever: an arrival (broker,
    sender, payload) met more than `repeats` times is still received (and delivered) but not
    forwarded. A broker's step depends on its arrival alone (a tie-break `choose` taken to choose
    alike for the same arrival), so handling one arrival again repeats what it sent before; with
    `repeats` = 2 every count the routing properties judge (a broker's receipts, a host's
    deliveries, a broker's copies into congested queues) is 0, 1, or at least 2 exactly when the
    endless run's is. Only the message total is cut short: it stays a lower bound of the endless
    run's, so a run that costs more than SNR here costs more there too."""
    deliveries: dict[Broker, int] = {}
    hops: dict[Broker, int] = {}
    received: dict[Broker, int] = {}
    into_congested: dict[Broker, int] = {}
    seen: dict[tuple, list] = {}  # arrival -> [times handled, whether it delivered]
    queue = deque([(publisher, None, payload, 0)])
    messages = 0
    while queue:
        at, came_from, payload, travelled = queue.popleft()
        if came_from is not None:
            _tally(received, at)
        if repeats is not None:
            handled = seen.setdefault((at, came_from, payload), [0, False])
            if handled[0] >= repeats:  # it would send what it sent then: delivered again, not forwarded
                if handled[1]:
                    _tally(deliveries, at)
                continue
        deliver, sends = step(at, came_from, payload)
        if repeats is not None:
            handled[0] += 1
            handled[1] = deliver
        if deliver:
            _tally(deliveries, at)
            hops.setdefault(at, travelled)
        for n, carried in sends:
            messages += 1
            if (at, n) in congested:
                _tally(into_congested, at)
            queue.append((n, at, carried, travelled + 1))
    return DnrRouting(_sorted_items(deliveries), messages, _sorted_items(hops), _sorted_items(received),
                      _sorted_items(into_congested))


def snr_next_hops(at: Broker, came_from: Broker | None, publisher: Broker, hosts, trees) -> list[Broker]:
    """Algorithm 3 at one broker: the publisher's host sends one copy to each distinct last hop of
    the matching subscriptions (getDistinctSubs); any other broker forwards only inside its own
    cluster (lines 7-9), to the distinct last hops that are primary neighbours."""
    next_hops = set()
    for h in hosts:
        if h == at:
            continue
        hop = trees[h].get(at)
        if hop is None or hop == came_from:
            continue
        if at != publisher and hop[1] != at[1]:  # non-publisher brokers stay in their cluster
            continue
        next_hops.add(hop)
    return sorted(next_hops, key=repr)


def snr(scot: Scot, publisher: Broker, subscriber_hosts: Iterable[Broker],
        trees: dict[Broker, dict[Broker, Broker]]) -> Routing:
    """Algorithm 3: reverse path forwarding along the subscription trees. No subscriber hosts is a
    valid corner case: nothing delivered, no message sent."""
    check_broker(scot, publisher, "publisher")
    hosts = sorted(set(check_hosts(scot, subscriber_hosts)), key=repr)
    check_trees(trees, hosts)
    r = route(publisher, *router_step("snr", publisher, hosts, trees))
    return Routing(r.deliveries, r.messages, r.hops, r.received)


def bid_next_hops(at: Broker, bids: frozenset, trees) -> list[tuple[Broker, frozenset]]:
    """Algorithm 2 at one broker: splitBIDs groups the BIDs still carried by next hop (each host's
    last hop here) and one copy goes per group."""
    groups: dict[Broker, set] = {}
    for bid in bids - {at}:
        groups.setdefault(trees[bid][at], set()).add(bid)
    return [(hop, frozenset(group)) for hop, group in sorted(groups.items(), key=lambda kv: repr(kv[0]))]


def bid_routing(scot: Scot, publisher: Broker, subscriber_hosts: Iterable[Broker],
                trees: dict[Broker, dict[Broker, Broker]]) -> Routing:
    """Algorithm 2: the notification carries the BIDs of the matching subscriptions' hosts; a
    broker whose BID is among them delivers locally (localBID) and drops it."""
    check_broker(scot, publisher, "publisher")
    subscriber_hosts = check_hosts(scot, subscriber_hosts)
    check_trees(trees, subscriber_hosts)
    r = route(publisher, *router_step("bid", publisher, subscriber_hosts, trees))
    return Routing(r.deliveries, r.messages, r.hops, r.received)


def dnr_targets(at: Broker, came_from: Broker | None, cbv: int, publisher: Broker, hosts,
                trees, target_icols: str = "cbv") -> tuple[list[Broker], list[Broker]]:
    """Algorithm 4's target links at one broker: the last hops of the matching subscriptions inside
    its cluster (target aCOLs) and, across its region, the target iCOLs: under "cbv" those toward
    the target sub-clusters (TSCs: any, at the publisher's host; those named in the CBV elsewhere),
    under "trees" every last hop of a matching subscription that leaves the cluster, at every
    broker (the CBV then names clusters to reach, not which tree iCOLs to take)."""
    if target_icols not in ("cbv", "trees"):
        raise ValueError(f"unknown target_icols {target_icols!r}; known: cbv, trees")
    cluster = at[1]
    acols, icols = set(), set()
    for h in hosts:
        hop = trees[h].get(at)
        if h == at or hop is None or hop == came_from:
            continue
        if hop[1] == cluster:
            acols.add(hop)
        elif target_icols == "trees" or at == publisher or cbv & cluster_bit(hop[1]):
            icols.add(hop)
    return sorted(acols, key=repr), sorted(icols, key=repr)


def dnr_decide(at: Broker, acols: list[Broker], icols: list[Broker], cbv: int, congested, reading: str,
               choose) -> list[tuple[Broker, int]]:
    """Algorithm 4's decision at one broker (lines 13-33): (next broker, the CBV its copy carries)
    for each copy sent. `congested` holds the directed links (broker, next broker) whose output
    queue is congested; `choose(candidates)` picks the link with the least congestion element."""
    cluster = at[1]
    over_icols = [n for n in icols if (at, n) in congested]
    free_icols = [n for n in icols if (at, n) not in congested]
    free_acols = [n for n in acols if (at, n) not in congested]
    # lines 13-18: the CBV names the clusters still to reach, never the current one
    pending = (cbv | sum(cluster_bit(n[1]) for n in over_icols)) & ~cluster_bit(cluster)
    pending &= ~sum(cluster_bit(n[1]) for n in free_icols)
    # lines 22-24: a plain copy for each unoverloaded target link (every target aCOL under "copy")
    plain = free_icols + (acols if READINGS[reading].congested_acols == "copy" else free_acols)
    sends: dict[Broker, int] = {n: 0 for n in plain}  # next broker -> CBV its copy carries
    extra: list[tuple[Broker, int]] = []  # n_CBV as its own entry of DL ("separate")
    if pending:
        if free_icols:                                   # Case I
            carrier = choose(free_icols)
        elif free_acols:                                 # Case II
            carrier = choose(free_acols)
        elif over_icols:                                 # Case III: least loaded target iCOL
            carrier = choose(over_icols)
        else:  # no target link at all: the pending clusters go by any congested aCOL
            carrier = choose(acols) if acols else None
        if carrier is not None:
            carried = pending & ~cluster_bit(carrier[1])
            if READINGS[reading].cbv_copy == "separate" and carrier in sends:
                extra.append((carrier, carried))
            else:
                sends[carrier] = carried
    return sorted(list(sends.items()) + extra, key=lambda kv: (repr(kv[0]), kv[1]))


def dnr_next_hops(at: Broker, came_from: Broker | None, cbv: int, publisher: Broker, hosts, trees,
                  congested, reading: str, choose, say=None) -> list[tuple[Broker, int]]:
    """Algorithm 4 at one broker: its targets, then its decision."""
    acols, icols = dnr_targets(at, came_from, cbv, publisher, hosts, trees, READINGS[reading].target_icols)
    sends = dnr_decide(at, acols, icols, cbv, congested, reading, choose)
    if say:
        over = [n for n in icols if (at, n) in congested]
        say(f"B{at} (from {'-' if came_from is None else f'B{came_from}'}, CBV {cbv:b}): target aCOLs "
            f"{acols}, target iCOLs {icols}, overloaded iCOLs {over}; sends "
            + (", ".join(f"B{n}" + (f" with CBV {c:b}" if c else "") + (" (congested)" if (at, n) in congested
                                                                        else "") for n, c in sends)
               or "nothing"))
    return sends


def router_step(router: str, publisher: Broker, hosts, trees, congested=frozenset(), choose_at=None, say=None):
    """(the payload the publisher starts with, step) for one notification under `router`, where
    step(at, came_from, payload) says whether `at` delivers to local subscribers and which
    (next broker, payload) copies it sends: the per-broker rule that `route` below and the queue
    simulation (reference.scot.simulate) both apply. `choose_at(at)` is DNR's least-CE choice at
    broker `at` (default: the first candidate)."""
    if router == "snr":
        return None, lambda at, came_from, _: (
            at in hosts, [(n, None) for n in snr_next_hops(at, came_from, publisher, hosts, trees)])
    if router == "bid":
        return frozenset(hosts), lambda at, came_from, bids: (at in bids, bid_next_hops(at, bids, trees))
    if router not in DNR_READINGS:
        raise ValueError(f"unknown router {router!r}; known: {', '.join(ROUTERS)}")
    first = (lambda candidates: candidates[0])
    return 0, lambda at, came_from, cbv: (at in hosts, dnr_next_hops(
        at, came_from, cbv, publisher, hosts, trees, congested, router, choose_at(at) if choose_at else first, say))


def dnr(scot: Scot, publisher: Broker, subscriber_hosts: Iterable[Broker],
        trees: dict[Broker, dict[Broker, Broker]], congested: frozenset, reading: str = "dnr-icols-only",
        choose=None, say=None) -> DnrRouting:
    """Algorithm 4 for one notification over a given set of congested output queues; `say`
    receives one line per broker."""
    if reading not in DNR_READINGS:
        raise ValueError(f"unknown DNR reading {reading!r}; known: {', '.join(DNR_READINGS)}")
    check_broker(scot, publisher, "publisher")
    hosts = sorted(set(check_hosts(scot, subscriber_hosts)), key=repr)
    check_trees(trees, hosts)
    if isinstance(congested, (set, frozenset, str, bytes)):  # a lazy decider (checks' search) only answers `in`
        check_links(scot, congested)
    return route(publisher, *router_step(reading, publisher, hosts, trees, congested,
                                         (lambda at: choose) if choose else None, say), congested,
                 route_repeats(reading))


# One broker's decision on its own, for any numbers of target links: what the per-broker DNR
# claims below judge (and what the Z3 encoding of Algorithm 4's decision is checked against).

@attrs.frozen
class DnrStep:
    """One broker's Algorithm 4 decision, what the per-broker DNR claims judge: its target links,
    the congested queues among its links, the CBV it received and the copies it sends."""

    at: Broker
    acols: tuple
    icols: tuple
    cbv: int
    congested: frozenset
    reading: str
    sends: tuple  # (next broker, CBV carried)


def dnr_step(at: Broker, acols, icols, cbv: int, congested, reading: str, choose=None) -> DnrStep:
    """Algorithm 4's decision at broker `at` with these target links, congested queues and CBV."""
    if reading not in DNR_READINGS:  # any other reading has no rule for congested aCOLs
        raise ValueError(f"unknown DNR reading {reading!r}; known: {', '.join(DNR_READINGS)}")
    if type(cbv) is not int or cbv < 0:
        raise (ValueError if type(cbv) is int else TypeError)(
            f"cbv must be an integer >= 0 (a bit per cluster), not {cbv!r}")
    for what, links in (("acols", acols), ("icols", icols)):
        if isinstance(links, (str, bytes)) or not all(isinstance(n, tuple) and len(n) == 2 for n in links):
            raise TypeError(f"{what} must be a list of brokers (vertex, cluster), not {links!r}")
    choose = choose or (lambda candidates: candidates[0])
    mine = frozenset(link for link in congested if link[0] == at)
    return DnrStep(at, tuple(acols), tuple(icols), cbv, mine, reading,
                   tuple(dnr_decide(at, list(acols), list(icols), cbv, mine, reading, choose)))


def copies_into_congested(step: DnrStep, icols_only: bool = False) -> int:
    return sum(1 for n, _ in step.sends if (step.at, n) in step.congested and (not icols_only or n[0] == step.at[0]))


# --------------------------------------------------------------------------------------------
# Claims, as properties of concrete runs
# --------------------------------------------------------------------------------------------

@attrs.frozen
class BroadcastRun:
    """A finished (or stuck) broadcast on its SCOT, what the SBP properties judge."""

    scot: Scot = attrs.field(eq=False)
    broadcast: Broadcast


def distance(scot: Scot, a: Broker, b: Broker) -> int:
    """The lemma the shortest-tree claim rests on: in T x K_m, d((x,i),(y,j)) = d_T(x,y) + [i != j]."""
    check_broker(scot, a, "broker a")
    check_broker(scot, b, "broker b")
    return scot.tree_distance(a[0], b[0]) + (a[1] != b[1])


def every_broker_receives_the_subscription_once(run: BroadcastRun) -> bool:
    received = dict(run.broadcast.received)
    return (not run.broadcast.in_flight and received.get(run.broadcast.host) == 0
            and all(received.get(b) == 1 for b in run.scot.brokers() if b != run.broadcast.host))


def subscription_tree_has_no_loop(run: BroadcastRun) -> bool:
    """Following last hops from any broker reaches the host without revisiting a broker."""
    parent = dict(run.broadcast.last_hop)
    reaches = {run.broadcast.host}  # brokers already shown to reach the host
    for b in parent:
        path = []
        while b not in reaches:
            if b is None or b in path:
                return False
            path.append(b)
            b = parent.get(b)
        reaches.update(path)
    return True


def subscription_tree_is_shortest(run: BroadcastRun) -> bool:
    """Every broker's path to the host in the subscription tree is a shortest SCOT path."""
    parent = dict(run.broadcast.last_hop)
    if not subscription_tree_has_no_loop(run) or len(parent) != run.scot.broker_count() - 1:
        return False
    # with no loop, depth(b) = depth(parent) + 1 along every path to the host, so every depth is
    # the distance exactly when every broker is one link farther from the host than its parent
    host = run.broadcast.host
    return all(distance(run.scot, b, host) == distance(run.scot, p, host) + 1 for b, p in parent.items())


def subscription_tree_links_are_host_acols_and_icols(run: BroadcastRun) -> bool:
    """Sec. 5: the tree holds the host cluster's aCOLs and, per region, the iCOLs from the host
    cluster's broker (m - 1 per region)."""
    host_cluster = run.broadcast.host[1]
    for child, parent in run.broadcast.last_hop:
        if child[1] == host_cluster:
            if not (parent[1] == host_cluster and run.scot.tree.has_edge(child[0], parent[0])):
                return False
        elif parent != (child[0], host_cluster):
            return False
    return True


def subscription_tree_has_all_icols(run: BroadcastRun) -> bool:
    """Sec. 5 read literally: "In this step, all iCOLs are added to the subscription-tree"."""
    parent = dict(run.broadcast.last_hop)
    return all(parent.get((x, i)) == (x, j) or parent.get((x, j)) == (x, i)
               for x in run.scot.tree.nodes for i in range(run.scot.m) for j in range(i + 1, run.scot.m))


def no_duplicate_subscription_messages(run: BroadcastRun) -> bool:
    """Sec. 5: "This pattern of subscription broadcast does not generate duplicates"."""
    return run.broadcast.messages == run.scot.broker_count() - 1


def is_finished(run: BroadcastRun) -> bool:
    return not run.broadcast.in_flight


def spans_two_clusters_and_three_regions(run: BroadcastRun) -> bool:
    return run.scot.m >= 2 and run.scot.tree.number_of_nodes() >= 3 and is_finished(run)


def relays_through_a_broker(run: BroadcastRun) -> bool:
    """Some broker got the subscription from a broker other than the host: a loop was possible."""
    return is_finished(run) and any(parent != run.broadcast.host for _, parent in run.broadcast.last_hop)


def has_three_clusters(run: BroadcastRun) -> bool:
    return run.scot.m >= 3 and is_finished(run)


def _finished_only(predicate):
    """SBP claims are about a broadcast that has ended; a run in progress satisfies them."""
    @functools.wraps(predicate)   # name, docstring and __wrapped__: explain points to the predicate
    def judged(run: BroadcastRun) -> bool:
        return not is_finished(run) or predicate(run)
    return judged


@attrs.frozen
class RoutingRun:
    """One notification routed; for DNR, the congested queues and SNR's message count beside it."""

    scot: Scot = attrs.field(eq=False)
    publisher: Broker
    subscriber_hosts: tuple
    routing: Routing
    congested: frozenset = frozenset()
    snr_messages: int | None = None


def notification_delivered_exactly_once(run: RoutingRun) -> bool:
    got = dict(run.routing.deliveries)
    return all(got.get(h, 0) == 1 for h in run.subscriber_hosts) and set(got) <= set(run.subscriber_hosts)


def notification_takes_shortest_paths(run: RoutingRun) -> bool:
    """SNR routes along shortest subscription trees, so each copy travels a shortest path."""
    return all(hops == distance(run.scot, run.publisher, h) for h, hops in run.routing.hops)


def no_broker_receives_a_notification_twice(run: RoutingRun) -> bool:
    """No loop and no duplicate message: no broker gets a second copy."""
    return all(c == 1 for _, c in run.routing.received) and run.publisher not in dict(run.routing.received)


def at_most_one_copy_into_congested_queues(run: RoutingRun) -> bool:
    return all(c <= 1 for _, c in getattr(run.routing, "congested_copies", ()))


def dnr_costs_no_more_messages_than_snr(run: RoutingRun) -> bool:
    return run.snr_messages is None or run.routing.messages <= run.snr_messages


def congestion_was_met(run: RoutingRun) -> bool:
    return bool(run.congested) and routes_across_clusters(run) and bool(
        getattr(run.routing, "congested_copies", ()) or run.routing.messages)


def routes_across_clusters(run: RoutingRun) -> bool:
    return any(h[1] != run.publisher[1] for h in run.subscriber_hosts) and len(run.subscriber_hosts) >= 2


SBP_PROPERTIES = [register(p) for p in (
    Property(ALGORITHM, "every_broker_receives_the_subscription_once",
             _finished_only(every_broker_receives_the_subscription_once),
             "sec. 5: a subscription reaches every broker; no loops occur and no duplicates appear",
             witness=spans_two_clusters_and_three_regions, subject="BroadcastRun"),
    Property(ALGORITHM, "subscription_tree_has_no_loop", subscription_tree_has_no_loop,
             "sec. 5: no loops occur, as the host cluster is a replica of an acyclic factor",
             witness=relays_through_a_broker, subject="BroadcastRun"),
    Property(ALGORITHM, "subscription_tree_is_shortest", _finished_only(subscription_tree_is_shortest),
             "sec. 1, 5: OctopiS generates subscription-trees of shortest lengths",
             witness=spans_two_clusters_and_three_regions, subject="BroadcastRun"),
    Property(ALGORITHM, "subscription_tree_links_are_host_acols_and_icols",
             _finished_only(subscription_tree_links_are_host_acols_and_icols),
             "sec. 5: aCOLs of the host cluster, then iCOLs from it, form the subscription-tree",
             witness=spans_two_clusters_and_three_regions, subject="BroadcastRun"),
    Property(ALGORITHM, "subscription_tree_has_all_icols", _finished_only(subscription_tree_has_all_icols),
             "sec. 5, read literally: in the second step all iCOLs are added to the subscription-tree",
             witness=has_three_clusters, subject="BroadcastRun"),
    Property(ALGORITHM, "no_duplicate_subscription_messages", _finished_only(no_duplicate_subscription_messages),
             "sec. 5, 7.3: the clustered SBP generates no duplicates and no extra inter-broker messages",
             witness=spans_two_clusters_and_three_regions, subject="BroadcastRun"),
)]
ROUTING_PROPERTIES = [register(p) for p in (
    Property(ALGORITHM, "notification_delivered_exactly_once", notification_delivered_exactly_once,
             "sec. 6.1-6.2: each interested subscriber's broker receives the notification once, no loop",
             witness=routes_across_clusters, subject="RoutingRun"),
    Property(ALGORITHM, "notification_takes_shortest_paths", notification_takes_shortest_paths,
             "sec. 6.2: SNR uses subscription-trees of shortest lengths", witness=routes_across_clusters,
             subject="RoutingRun"),
    Property(ALGORITHM, "no_broker_receives_a_notification_twice", no_broker_receives_a_notification_twice,
             "sec. 6.1-6.3: no loops appear and only one copy is forwarded onto a next destination",
             witness=routes_across_clusters, subject="RoutingRun"),
    Property(ALGORITHM, "at_most_one_copy_into_congested_queues", at_most_one_copy_into_congested_queues,
             "sec. 6.3: DNR adds at most one copy of a notification in the congested output queues of "
             "a target link at a broker", witness=congestion_was_met, subject="RoutingRun"),
    Property(ALGORITHM, "dnr_costs_no_more_messages_than_snr", dnr_costs_no_more_messages_than_snr,
             "sec. 6.3, Cases I-III (Fig. 7): DNR generates no more inter-broker messages than SNR "
             "(6 vs 6, 4 vs 6, 5 vs 6)", witness=congestion_was_met, subject="RoutingRun",
             question="the paper counts messages in three worked cases (Fig. 7: 6 vs 6, 4 vs 6, 5 vs 6) and "
                      "reports DNR sending 0.32% more than SNR on average in its burst experiment (sec. 7.3); it "
                      "never says DNR costs no more per notification"),
)]



def step_one_copy_into_congested_icol_queues(step: DnrStep) -> bool:
    return copies_into_congested(step, icols_only=True) <= 1


def step_one_copy_into_congested_queues(step: DnrStep) -> bool:
    return copies_into_congested(step) <= 1


def step_keeps_every_target(step: DnrStep) -> bool:
    """Every target aCOL gets a copy, and every target iCOL's cluster gets one or is named in the
    CBV of a copy sent (so a later broker sends it there)."""
    sent = dict(step.sends)
    carried = 0
    for n, c in step.sends:
        carried |= c
    return all(a in sent for a in step.acols) and all(i in sent or carried & cluster_bit(i[1]) for i in step.icols)


def step_meets_congestion(step: DnrStep) -> bool:
    return any((step.at, n) in step.congested for n in step.acols + step.icols)


def step_has_congested_acols_and_icols(step: DnrStep) -> bool:
    return any((step.at, n) in step.congested for n in step.acols) and \
        any((step.at, n) in step.congested for n in step.icols)


DNR_STEP_PROPERTIES = [register(p) for p in (
    Property(ALGORITHM, "step_one_copy_into_congested_icol_queues", step_one_copy_into_congested_icol_queues,
             "sec. 6.3: DNR adds at most one copy of a notification in the congested output queues of a target "
             "link at a broker, read for target iCOLs (the links DNR reroutes), per copy the broker handles",
             witness=step_meets_congestion, subject="DnrStep"),
    Property(ALGORITHM, "step_one_copy_into_congested_queues", step_one_copy_into_congested_queues,
             "sec. 6.3: the same sentence read for every target link (aCOLs too), per copy the broker handles",
             witness=step_has_congested_acols_and_icols, subject="DnrStep"),
    Property(ALGORITHM, "step_keeps_every_target", step_keeps_every_target,
             "sec. 6.3: DNR routes to the TSCs of overloaded iCOLs by the CBV and keeps the subscription-trees' "
             "targets, so no subscriber is dropped at a broker", witness=step_meets_congestion,
             subject="DnrStep"),
)]

PROPERTIES = SBP_PROPERTIES + ROUTING_PROPERTIES + DNR_STEP_PROPERTIES
# Which routing claims each router is held to: DNR leaves shortest paths on purpose (sec. 6.3).
ROUTER_PROPERTIES = {
    "snr": ("notification_delivered_exactly_once", "notification_takes_shortest_paths",
            "no_broker_receives_a_notification_twice"),
    "bid": ("notification_delivered_exactly_once", "notification_takes_shortest_paths",
            "no_broker_receives_a_notification_twice"),
    "dnr": ("notification_delivered_exactly_once", "no_broker_receives_a_notification_twice",
            "at_most_one_copy_into_congested_queues", "dnr_costs_no_more_messages_than_snr"),
}


def properties_of(reading: str) -> list[Property]:
    """The claims a reading's runs are held to: the SBP claims for a broadcast, its router's
    routing claims for a notification."""
    if not isinstance(reading, str):
        raise TypeError(f"reading must be a SCOT reading's name, not {reading!r}")
    r = READINGS.get(reading)
    if r is None:
        raise ValueError(f"unknown SCOT reading {reading!r}; known: {', '.join(READINGS)}")
    if r.router is None:
        return list(SBP_PROPERTIES)
    return [p for p in ROUTING_PROPERTIES if p.name in ROUTER_PROPERTIES[r.router]]
