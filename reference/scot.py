"""SCOT reference: closed-form subscription trees and fast message counts, at scale.

Paper: "Content-based Dynamic Routing in Structured Overlay Networks" (OctopiS), sec. 3-6.2, 7.

The spec (spec/scot.py) runs the Subscription Broadcast Process message by message, which is what
exhaustive search needs; here Algorithm 1's tree is written down directly (the Z3 proof in
checks/algorithms/scot/proofs.py shows why it is the shortest-path tree): in the host cluster c a
broker's parent is its tree neighbour toward the host's vertex x0, and any other broker B(y, j)
hangs off B(y, c).
Flooding with equally fast links (the BID baseline's SBP) gives a breadth-first tree of the whole
SCOT. tests/test_scot_reference.py holds both to the spec's broadcasts. SNR, BID and DNR routing
are the spec's own functions, fed these trees.
"""

from __future__ import annotations

from collections import deque

import attrs
import networkx as nx
import numpy as np

from reference.generators import log_uniform_int, rng_for
from spec import scot as S
from spec.scot import Broker, Scot, build  # noqa: F401  (the public surface: reference.scot.build)
from spec.scot import check_broker, check_protocol


def tree_parents_toward(tree: nx.Graph, root) -> dict:
    """Every tree vertex's neighbour on the way to `root` (breadth first)."""
    if not isinstance(tree, nx.Graph):
        raise TypeError(f"tree must be a networkx.Graph, not {tree!r}")
    if root not in tree:
        raise ValueError(f"root {root!r} is not a vertex of the tree")
    parent = {root: None}
    queue = deque([root])
    while queue:
        u = queue.popleft()
        for v in tree.neighbors(u):
            if v not in parent:
                parent[v] = u
                queue.append(v)
    return parent


def subscription_tree(scot: Scot, host: Broker) -> dict[Broker, Broker]:
    """Algorithm 1's tree: every broker but the host mapped to its parent (its saved last hop)."""
    check_broker(scot, host)
    x0, c = host
    toward = tree_parents_toward(scot.tree, x0)
    parents: dict[Broker, Broker] = {}
    for y, up in toward.items():
        if up is not None:
            parents[(y, c)] = (up, c)
        for j in range(scot.m):
            if j != c:
                parents[(y, j)] = (y, c)
    return parents


def flooding_tree(scot: Scot, host: Broker, until: Broker | None = None) -> dict[Broker, Broker]:
    """The first-in-first-out flooding tree: breadth first over the SCOT, neighbours in the
    order the spec sends them (sorted), so it equals spec.scot.subscription_tree(..., "flood").
    With `until`, it stops once that broker has its parent: every broker on its path to the host
    is nearer the host, so already has its own (all BID routing toward the host needs)."""
    check_broker(scot, host)
    if until is not None:
        check_broker(scot, until, "broker until")
    parents: dict[Broker, Broker] = {}
    queue = deque([host])
    while queue and until not in parents:
        u = queue.popleft()
        for v in scot.neighbours(u):
            if v not in parents and v != host:
                parents[v] = u
                queue.append(v)
    return parents


def flooding_tree_with_delays(scot: Scot, host: Broker, delay: dict) -> tuple[dict, dict]:
    """Flooding when links are not equally fast: every broker keeps the copy that arrives first,
    so its parent is its predecessor on a quickest path (Dijkstra; equal times go to the sender
    sorted first). `delay[(u, v)]` is the link's delay, for u < v in the sorted order.
    Returns (parents, arrival time of the first copy at each broker)."""
    import heapq

    check_broker(scot, host)
    if not isinstance(delay, dict):
        raise TypeError(f"delay must be a dict from link (u, v) to its delay, not {delay!r}")
    if any(not d >= 0 for d in delay.values()):  # Dijkstra's quickest paths need no negative (or NaN) delay
        raise ValueError(f"link delays must be >= 0, not {min(delay.values(), key=lambda d: d >= 0)!r}")
    arrival = {host: 0.0}
    parents: dict[Broker, Broker] = {}
    order = {b: k for k, b in enumerate(scot.brokers())}
    heap = [(0.0, order[host], host, None)]
    done = set()
    while heap:
        t, _, u, parent = heapq.heappop(heap)
        if u in done:
            continue
        done.add(u)
        if parent is not None:
            parents[u] = parent
        for v in scot.neighbours(u):
            if v in done:
                continue
            link = (u, v) if order[u] < order[v] else (v, u)
            if link not in delay:
                raise ValueError(f"delay has no delay for the link {link!r}")
            tv = t + delay[link]
            if tv < arrival.get(v, float("inf")):
                arrival[v] = tv
                heapq.heappush(heap, (tv, order[u], v, u))
    return parents, arrival


def random_link_delays(scot: Scot, rng: np.random.Generator, spread: float) -> dict:
    """Every link's delay uniform in [1, 1 + spread] (spread 0: all links equally fast)."""
    _check_scot(scot)
    if not isinstance(rng, np.random.Generator):
        raise TypeError(f"rng must be a numpy.random.Generator, not {rng!r}")
    if isinstance(spread, bool) or not isinstance(spread, (int, float)) or not spread >= 0:
        raise (TypeError if isinstance(spread, bool) or not isinstance(spread, (int, float)) else ValueError)(
            f"spread must be a number >= 0, not {spread!r}")
    order = {b: k for k, b in enumerate(scot.brokers())}
    links = sorted(((u, v) if order[u] < order[v] else (v, u) for u in scot.brokers() for v in scot.neighbours(u)
                    if order[u] < order[v]), key=lambda link: (order[link[0]], order[link[1]]))
    return dict(zip(links, 1.0 + spread * rng.random(len(links))))


def broadcast(scot: Scot, host: Broker, protocol: str = "sbp") -> S.Broadcast:
    """A subscription broadcast run to its end, first in first out, with plain dictionaries:
    the final state spec.scot.broadcast_to_the_end reaches (tests hold the two equal), in time
    linear in the messages sent rather than quadratic."""
    check_broker(scot, host)
    check_protocol(protocol)
    forward = S.FORWARDING[protocol]
    # the spec sorts each broker's new messages; flooding already sends them in that order, and
    # Algorithm 1 ends in the same state in every order (exhaustive search), so no sort here
    fifo = deque(forward(scot, host, None, S.PRIMARY))
    messages = len(fifo)
    received = {host: 0}
    last_hop: dict[Broker, Broker] = {}
    while fifo:
        sender, receiver, state = fifo.popleft()
        if receiver in received:
            received[receiver] += 1  # a duplicate: discarded
            continue
        received[receiver] = 1
        last_hop[receiver] = sender
        out = forward(scot, receiver, sender, state)
        messages += len(out)
        fifo.extend(out)
    return S.Broadcast(host, frozenset(), tuple(sorted(last_hop.items(), key=repr)),
                       tuple(sorted(received.items(), key=repr)), messages)


def sbp_messages(scot: Scot) -> int:
    """Algorithm 1 sends each broker but the host exactly one copy."""
    _check_scot(scot)
    return scot.broker_count() - 1


def flooding_messages(scot: Scot) -> int:
    """The host sends to every neighbour, every other broker to all but its sender: 2|E| - |V| + 1."""
    _check_scot(scot)
    return 2 * scot.link_count() - scot.broker_count() + 1


def _check_scot(scot) -> Scot:
    if not isinstance(scot, Scot):
        raise TypeError(f"scot must be a spec.scot.Scot (see build), not {scot!r}")
    return scot


def _hosts(scot: Scot, publisher: Broker, subscriber_hosts) -> list:
    """Checked before any tree is built: the publisher and every host a broker of this SCOT."""
    check_broker(scot, publisher, "publisher")
    return sorted(set(S.check_hosts(scot, subscriber_hosts)), key=repr)


def snr(scot: Scot, publisher: Broker, subscriber_hosts, trees=None) -> S.Routing:
    """No subscriber hosts is a valid corner case: a routing with no delivery and no message."""
    hosts = _hosts(scot, publisher, subscriber_hosts)
    trees = trees or {h: subscription_tree(scot, h) for h in hosts}
    return S.snr(scot, publisher, hosts, trees)


def bid(scot: Scot, publisher: Broker, subscriber_hosts, trees=None) -> S.Routing:
    hosts = _hosts(scot, publisher, subscriber_hosts)
    trees = trees or {h: flooding_tree(scot, h) for h in hosts}
    return S.bid_routing(scot, publisher, hosts, trees)


def dnr(scot: Scot, publisher: Broker, subscriber_hosts, congested=frozenset(), reading="dnr-icols-only",
        trees=None) -> S.DnrRouting:
    hosts = _hosts(scot, publisher, subscriber_hosts)
    if isinstance(congested, (str, bytes)):
        raise TypeError(f"congested must be a set of (broker, broker) links, not {congested!r}")
    trees = trees or {h: subscription_tree(scot, h) for h in hosts}
    return S.dnr(scot, publisher, hosts, trees, frozenset(congested), reading)


# --------------------------------------------------------------------------------------------
# Random scenarios (the Spark validation's input): a pure function of the seed
# --------------------------------------------------------------------------------------------

ALGORITHM_SALT = "scot"
MAX_RANDOM_TREE, MAX_RANDOM_M, MAX_RANDOM_SUBSCRIBERS = 60, 8, 16


@attrs.frozen
class Scenario:
    """One notification to route: a SCOT, a publisher's broker, the subscribers' brokers and the
    output queues (directed links) that are congested."""

    scot: Scot = attrs.field(eq=False)
    publisher: Broker
    subscriber_hosts: tuple
    congested: frozenset
    congestion: float  # the probability each candidate queue was congested with


def random_tree(rng: np.random.Generator, n: int) -> nx.Graph:
    """A uniformly random labelled tree on 0..n-1 (a random Pruefer sequence)."""
    if not isinstance(rng, np.random.Generator):
        raise TypeError(f"rng must be a numpy.random.Generator, not {rng!r}")
    if not isinstance(n, (int, np.integer)) or isinstance(n, bool):
        raise TypeError(f"n must be an integer >= 1, not {n!r}")
    if n < 1:
        raise ValueError(f"a tree needs at least one vertex, not {n}")
    if n <= 2:
        tree = nx.Graph()
        tree.add_nodes_from(range(n))
        tree.add_edges_from([(0, 1)] if n == 2 else [])
        return tree
    return nx.from_prufer_sequence(rng.integers(0, n, size=n - 2).tolist())


def random_scenario(seed: int, max_tree: int = MAX_RANDOM_TREE, max_m: int = MAX_RANDOM_M,
                    max_subscribers: int = MAX_RANDOM_SUBSCRIBERS) -> Scenario:
    """Tree vertices log-uniform in 1..max_tree, m uniform in 1..max_m, a uniform publisher
    broker, 1..max_subscribers distinct subscriber brokers (log-uniform count), and, with a
    congestion level q uniform in [0, 1], each output queue between brokers of the regions the
    notification can cross (those on the tree paths from the publisher's region to the
    subscribers') congested with probability q. Queues elsewhere cannot change a route."""
    for name, value in (("max_tree", max_tree), ("max_m", max_m), ("max_subscribers", max_subscribers)):
        if not isinstance(value, int) or isinstance(value, bool):
            raise TypeError(f"{name} must be an integer >= 1, not {value!r}")
    if min(max_tree, max_m, max_subscribers) < 1:
        raise ValueError("max_tree, max_m and max_subscribers must all be at least 1")
    rng = rng_for(ALGORITHM_SALT, seed)
    n = log_uniform_int(rng, 1, max_tree)
    m = int(rng.integers(1, max_m + 1))
    scot = build(random_tree(rng, n), m)
    brokers = scot.brokers()
    publisher = brokers[int(rng.integers(len(brokers)))]
    k = log_uniform_int(rng, 1, min(max_subscribers, len(brokers)))
    hosts = tuple(sorted((brokers[int(i)] for i in rng.choice(len(brokers), size=k, replace=False)), key=repr))
    toward = tree_parents_toward(scot.tree, publisher[0])
    regions = {publisher[0]}
    for x, _ in hosts:
        while x not in regions:
            regions.add(x)
            x = toward[x]
    candidates = []  # in a fixed order (tree vertices here are integers)
    for x in sorted(regions):
        near = sorted(y for y in scot.tree.neighbors(x) if y in regions)
        for i in range(m):
            candidates += [((x, i), (y, i)) for y in near] + [((x, i), (x, j)) for j in range(m) if j != i]
    q = float(rng.random())
    congested = frozenset(link for link, r in zip(candidates, rng.random(len(candidates))) if r < q)
    return Scenario(scot, publisher, hosts, congested, q)


# --------------------------------------------------------------------------------------------
# Discrete-time queue simulation (sec. 6.3 congestion element and link status table; the burst
# scenario of sec. 7.3)
# --------------------------------------------------------------------------------------------
# Time moves in ticks. Every directed link has a first-in-first-out output queue that sends
# `capacity` notifications per tick; a sent copy arrives one tick later and the receiving broker
# routes it at once, with the same per-broker functions the spec's routing uses
# (spec.scot.snr_next_hops, bid_next_hops, dnr_next_hops). Every `window` ticks (the paper's tau)
# each broker's link status table takes the notifications that entered (n_in) and left (n_out)
# each of its output queues in that window; the congestion element is CE = n_in / n_out (Eq. 3,
# reconstructed; 0/0 reads as 1, n/0 as infinite). Which queues count as congested is a reading:
CONGESTION_RULES = ("ce-above-1", "not-free")
# ce-above-1: congested when the queue grew in the last window (CE > 1) and is not empty;
# not-free:   congested unless congestion-free in the text's words, "CE is 1 and the queue length is 0".
# A router whose copies can circulate for ever (spec.scot.route_repeats: DNR with target_icols
# "trees") is not simulated: a queue would never drain.
ROUTERS = tuple(r for r in S.ROUTERS if S.route_repeats(r) is None)


@attrs.frozen
class Publication:
    tick: int
    publisher: Broker
    hosts: frozenset  # the brokers of the subscribers it matches
    burst: bool = False  # sent by the high rate publisher


@attrs.define
class QueueRun:
    """What one simulation measured (ticks, copies, queue lengths)."""

    router: str
    messages: int = 0
    deliveries: int = 0
    wrong_deliveries: int = 0         # a host got a copy it did not match, or a second copy
    missed: int = 0                   # matched hosts never reached
    delays: list = attrs.Factory(list)       # per delivery: (burst?, ticks from publication)
    hops: list = attrs.Factory(list)         # per delivery: (burst?, hops)
    queue_samples: list = attrs.Factory(list)  # per window: summed lengths of the queues burst copies used
    burst_links: set = attrs.Factory(set)
    max_queue: int = 0
    last_burst_delivery: int = 0
    burst_end: int = 0
    congested_copies: int = 0         # copies put into queues congested at the time


def simulate(scot: Scot, publications: list[Publication], router: str, window: int = 10, capacity: int = 1,
             congestion_rule: str = "ce-above-1", max_ticks: int = 10_000_000) -> QueueRun:
    """Run every publication through per-link output queues until all copies have arrived."""
    if router in S.ROUTERS and router not in ROUTERS:
        raise ValueError(f"router {router!r} is not simulated: its copies can circulate for ever, so the queues "
                         f"would never drain; simulated: {', '.join(ROUTERS)}")
    if router not in ROUTERS:
        raise ValueError(f"unknown router {router!r}; known: {', '.join(ROUTERS)}")
    if congestion_rule not in CONGESTION_RULES:
        raise ValueError(f"unknown congestion rule {congestion_rule!r}; known: {', '.join(CONGESTION_RULES)}")
    _check_scot(scot)
    for name, value in (("window", window), ("capacity", capacity), ("max_ticks", max_ticks)):
        if not isinstance(value, int) or isinstance(value, bool):
            raise TypeError(f"{name} must be an integer, not {value!r}")
    if max_ticks < 0:
        raise ValueError(f"max_ticks must be >= 0, not {max_ticks}")
    if isinstance(publications, (str, bytes)) or not isinstance(publications, (list, tuple)):
        raise TypeError(f"publications must be a list of Publication, not {publications!r}")
    for p in publications:  # once, before any tick: a broker that does not exist would just be missed
        if not isinstance(p, Publication):
            raise TypeError(f"publications must hold Publication values, not {p!r}")
        if not isinstance(p.tick, int) or isinstance(p.tick, bool) or p.tick < 0:
            raise ValueError(f"a publication's tick must be an integer >= 0, not {p.tick!r}")
        check_broker(scot, p.publisher, "publisher")
        S.check_hosts(scot, p.hosts)
    if window < 1 or capacity < 1:
        raise ValueError(f"window and capacity must be at least 1 tick / 1 copy, not {window}, {capacity}")
    hosts_all = {h for p in publications for h in p.hosts}
    trees = {h: (flooding_tree(scot, h) if router == "bid" else subscription_tree(scot, h)) for h in hosts_all}
    out = QueueRun(router, burst_end=max((p.tick for p in publications if p.burst), default=0))
    queues: dict[tuple, deque] = {}
    entered: dict[tuple, int] = {}
    left: dict[tuple, int] = {}
    ce: dict[tuple, float] = {}
    congested: set = set()  # updated in place each window: every step reads the current table
    got: list[dict] = [{} for _ in publications]

    def least_ce(at: Broker):
        return lambda candidates: min(candidates, key=lambda n: ce.get((at, n), 1.0))

    starts = [S.router_step(router, p.publisher, p.hosts, trees, congested, least_ce) for p in publications]

    def arrive(k: int, at: Broker, came_from, payload, hops: int, tick: int) -> None:
        deliver, sends = starts[k][1](at, came_from, payload)
        pub = publications[k]
        if deliver:
            got[k][at] = got[k].get(at, 0) + 1
            out.deliveries += 1
            out.delays.append((pub.burst, tick - pub.tick))
            out.hops.append((pub.burst, hops))
            if pub.burst:
                out.last_burst_delivery = max(out.last_burst_delivery, tick)
        for n, carried in sends:
            link = (at, n)
            q = queues.setdefault(link, deque())
            q.append((k, n, at, carried, hops + 1))
            busy[link] = None
            entered[link] = entered.get(link, 0) + 1
            out.messages += 1
            out.congested_copies += link in congested
            if pub.burst:
                out.burst_links.add(link)
            out.max_queue = max(out.max_queue, len(q))

    pending = sorted(range(len(publications)), key=lambda k: publications[k].tick)
    next_pub = 0
    in_transit: list[tuple] = []
    tick = 0
    busy: dict = {}  # links whose queue is not empty, in the order they became so (deterministic)
    while next_pub < len(pending) or in_transit or busy:
        if tick > max_ticks:
            raise RuntimeError(f"the simulation did not drain within {max_ticks} ticks")
        for k, at, came_from, payload, hops in in_transit:  # copies sent last tick arrive
            arrive(k, at, came_from, payload, hops, tick)
        in_transit = []
        while next_pub < len(pending) and publications[pending[next_pub]].tick <= tick:
            k = pending[next_pub]
            arrive(k, publications[k].publisher, None, starts[k][0], 0, tick)
            next_pub += 1
        for link in list(busy):  # every link sends up to its capacity
            q = queues[link]
            for _ in range(min(capacity, len(q))):
                in_transit.append(q.popleft())
                left[link] = left.get(link, 0) + 1
            if not q:
                del busy[link]
        if tick % window == window - 1:  # the link status table is refreshed
            for link in set(entered) | set(left) | set(ce):
                n_in, n_out = entered.get(link, 0), left.get(link, 0)
                ce[link] = 1.0 if n_in == n_out else (n_in / n_out if n_out else float("inf"))
            congested.clear()
            if congestion_rule == "not-free":
                congested.update(link for link, c in ce.items() if c != 1 or queues.get(link))
            else:
                congested.update(link for link, c in ce.items() if c > 1 and queues.get(link))
            entered.clear()
            left.clear()
            out.queue_samples.append(sum(len(queues.get(link, ())) for link in out.burst_links))
        tick += 1
    for k, pub in enumerate(publications):
        out.missed += sum(1 for h in pub.hosts if h not in got[k])
        out.wrong_deliveries += sum(c - (h in pub.hosts) for h, c in got[k].items())
    return out
