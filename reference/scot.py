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

import networkx as nx

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
    if host not in scot.graph:
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


def flooding_tree(scot: Scot, host: Broker) -> dict[Broker, Broker]:
    """The first-in-first-out flooding tree: breadth first over the SCOT, neighbours in the
    order the spec sends them (sorted), so it equals spec.scot.subscription_tree(..., "flood")."""
    parents: dict[Broker, Broker] = {}
    queue = deque([host])
    seen = {host}
    while queue:
        u = queue.popleft()
        for v in sorted(scot.graph.neighbors(u), key=repr):
            if v not in seen:
                seen.add(v)
                parents[v] = u
                queue.append(v)
    return parents


def sbp_messages(scot: Scot) -> int:
    """Algorithm 1 sends each broker but the host exactly one copy."""
    return scot.graph.number_of_nodes() - 1


def flooding_messages(scot: Scot) -> int:
    """The host sends to every neighbour, every other broker to all but its sender: 2|E| - |V| + 1."""
    return 2 * scot.graph.number_of_edges() - scot.graph.number_of_nodes() + 1


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
