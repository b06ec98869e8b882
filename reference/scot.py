"""SCOT reference: closed-form subscription trees and fast message counts, at scale.

Paper: "Content-based Dynamic Routing in Structured Overlay Networks" (OctopiS), sec. 3-6.2, 7.

The spec (spec/scot.py) runs the Subscription Broadcast Process message by message, which is what
exhaustive search needs; here Algorithm 1's tree is written down directly (the Z3 proof in
checks/scot.py shows why it is the shortest-path tree): in the host cluster c a broker's parent is
its tree neighbour toward the host's vertex x0, and any other broker B(y, j) hangs off B(y, c).
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


def tree_parents_toward(tree: nx.Graph, root) -> dict:
    """Every tree vertex's neighbour on the way to `root` (breadth first)."""
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
    if not scot.has_broker(host):
        raise ValueError(f"no broker {host!r} in this SCOT")
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
    parents: dict[Broker, Broker] = {}
    queue = deque([host])
    while queue and until not in parents:
        u = queue.popleft()
        for v in scot.neighbours(u):
            if v not in parents and v != host:
                parents[v] = u
                queue.append(v)
    return parents


def broadcast(scot: Scot, host: Broker, protocol: str = "sbp") -> S.Broadcast:
    """A subscription broadcast run to its end, first in first out, with plain dictionaries:
    the final state spec.scot.broadcast_to_the_end reaches (tests hold the two equal), in time
    linear in the messages sent rather than quadratic."""
    if not scot.has_broker(host):
        raise ValueError(f"no broker {host!r} in this SCOT")
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
    return scot.broker_count() - 1


def flooding_messages(scot: Scot) -> int:
    """The host sends to every neighbour, every other broker to all but its sender: 2|E| - |V| + 1."""
    return 2 * scot.link_count() - scot.broker_count() + 1


def snr(scot: Scot, publisher: Broker, subscriber_hosts, trees=None) -> S.Routing:
    hosts = sorted(set(subscriber_hosts), key=repr)
    trees = trees or {h: subscription_tree(scot, h) for h in hosts}
    return S.snr(scot, publisher, hosts, trees)


def bid(scot: Scot, publisher: Broker, subscriber_hosts, trees=None) -> S.Routing:
    hosts = sorted(set(subscriber_hosts), key=repr)
    trees = trees or {h: flooding_tree(scot, h) for h in hosts}
    return S.bid_routing(scot, publisher, hosts, trees)


def dnr(scot: Scot, publisher: Broker, subscriber_hosts, congested=frozenset(), reading="dnr-icols-only",
        trees=None) -> S.DnrRouting:
    hosts = sorted(set(subscriber_hosts), key=repr)
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
