"""SCOT counterexample files: the documents the checks and the Spark job write, and their replay.

Two kinds: a broadcast (a SCOT, the host, every delivery in order), replayed message by message
with spec.scot.deliver; and a routing (`"kind": "routing"`: a SCOT, the publisher, the subscriber
brokers, for DNR the congested queues and the tie-breaks taken), routed again with the spec's
router, DNR broker by broker.
"""

from __future__ import annotations

from typing import Any

import networkx as nx

# by its full name: `from checks.algorithms.scot import drawing` would import the package, which imports this module
import checks.algorithms.scot.drawing as drawing
from checks import plugin
from spec import scot as S
from spec.registry import get

Document = dict[str, Any]


def broadcast_document(prop: str, reading: str, scot: S.Scot, host, deliveries,
                       method: str = "exhaustive") -> Document:
    return {"algorithm": S.ALGORITHM, "property": prop, "reading": reading, "method": method,
            "tree_edges": [list(e) for e in scot.tree.edges], "tree_nodes": list(scot.tree.nodes), "m": scot.m,
            "host": list(host), "deliveries": [[list(a[0]), list(a[1]), a[2]] for a in deliveries]}


def trace_document(prop: str, reading: str, scot: S.Scot, trace) -> Document:
    """An exploration's trace (explorer Steps of search.BroadcastStates) as a broadcast document."""
    return broadcast_document(prop, reading, scot, trace[0].state.broadcast.host, [step.action for step in trace[1:]])


def routing_document(prop: str, router: str, reading: str, scot: S.Scot, publisher, hosts, congested=(),
                     tie_breaks=(), method: str = "exhaustive") -> Document:
    return {"algorithm": S.ALGORITHM, "property": prop, "reading": reading, "method": method, "kind": "routing",
            "router": router, "tree_nodes": list(scot.tree.nodes), "tree_edges": [list(e) for e in scot.tree.edges],
            "m": scot.m, "publisher": list(publisher), "subscribers": [list(h) for h in hosts],
            "congested": [[list(u), list(v)] for u, v in sorted(congested, key=repr)], "tie_breaks": list(tie_breaks)}


# The largest SCOT a counterexample file may describe: every one this project writes is shrunk to
# a few brokers; a file asking for more (m = 100,000 is 10^10 links) is refused before any work.
MOST_M, MOST_VERTICES = 64, 10_000


def scot_of(doc: Document) -> S.Scot:
    m, nodes = doc["m"], doc["tree_nodes"]
    if isinstance(m, int) and not isinstance(m, bool) and m > MOST_M:
        raise ValueError(f"m = {m:,} is more clusters than a replayed SCOT may have (at most {MOST_M})")
    if isinstance(nodes, list) and len(nodes) > MOST_VERTICES:
        raise ValueError(f"{len(nodes):,} tree vertices are more than a replayed SCOT may have (at most {MOST_VERTICES:,})")
    tree = nx.Graph()
    tree.add_nodes_from(doc["tree_nodes"])
    tree.add_edges_from(tuple(e) for e in doc["tree_edges"])
    return S.build(tree, doc["m"])


def spark_document(job, column: str, seed: int) -> Document:
    """The Spark job's shrunk failing scenario (spark_validation.scot.ScotJob.shrink, spec data
    only: the Spark job never imports checks) as a replayable document."""
    found = job.shrink(column, seed)
    if found.host is not None:
        doc = broadcast_document(found.property, found.reading, found.scot, found.host, found.deliveries, "spark")
    else:
        doc = routing_document(found.property, found.router, found.reading, found.scot, found.publisher,
                               found.subscribers, found.congested, found.tie_breaks, "spark")
    doc["seed"] = int(seed)
    return doc


# --------------------------------------------------------------------------------------------
# Replay
# --------------------------------------------------------------------------------------------

def replay(doc: Document, say=print) -> plugin.Replayed:
    """Re-run a broadcast message by message, or a routing; reproduced if the property fails. Either
    kind can be drawn (drawing.py) from what this replay found: the broadcast's deliveries in order
    with the run judged, or the routing's run judged with the copies it sent."""
    if doc.get("kind") == "routing":
        return replay_routing(doc, say)
    if doc.get("reading") not in S.READINGS or S.READINGS[doc["reading"]].router is not None:
        known = ", ".join(n for n, r in S.READINGS.items() if r.router is None)
        raise ValueError(f"unknown SCOT broadcast reading {doc.get('reading')!r}; known: {known}")
    prop = _property(doc, "BroadcastRun", "broadcast")
    scot = scot_of(doc)
    protocol = S.READINGS[doc["reading"]].protocol
    b = S.subscribe(scot, tuple(doc["host"]), protocol)
    say(f"SCOT of a {scot.tree.number_of_nodes()}-vertex tree x K_{scot.m}; {doc['reading']} from "
        f"B{tuple(doc['host'])}")
    delivered: list[drawing.Delivery] = []
    for step, (sender, receiver, state) in enumerate(doc["deliveries"], start=1):
        message = (tuple(sender), tuple(receiver), state)
        if message not in b.in_flight:
            raise ValueError(f"step {step}: {message} is not in flight")
        first = tuple(receiver) not in dict(b.received)
        b = S.deliver(scot, b, message, protocol)
        delivered.append(drawing.Delivery(*message, first))
        say(f"step {step}: B{tuple(sender)} -> B{tuple(receiver)} ({state})"
            + ("" if first else "  duplicate, discarded"))
    run = S.BroadcastRun(scot, b)
    holds = prop.predicate(run)
    say(f"subscription tree: {dict(b.last_hop)}; {b.messages} messages")
    say(f"{prop.name}: {'holds' if holds else 'VIOLATED'}")
    return plugin.Replayed(not holds, draw=lambda png, title: drawing.draw_broadcast(
        run, delivered, prop, holds, png, title))


def replay_routing(doc: Document, say=print) -> plugin.Replayed:
    """Route one notification again (DNR step by step); reproduced if the property fails."""
    router = doc.get("router")
    if router not in ("snr", "bid", "dnr"):
        raise ValueError(f"unknown router {router!r}; known: snr, bid, dnr")
    prop = _property(doc, "RoutingRun", "routing")
    scot = scot_of(doc)
    publisher, hosts = tuple(doc["publisher"]), tuple(tuple(h) for h in doc["subscribers"])
    congested = frozenset((tuple(u), tuple(v)) for u, v in doc.get("congested", []))
    protocol = "flood" if router == "bid" else "sbp"
    trees = {h: S.subscription_tree(scot, h, protocol) for h in hosts}
    if router == "dnr":  # the recorded tie-breaks must fit the run before a line of it is printed
        choices = _TieBreaks(doc)
        S.dnr(scot, publisher, hosts, trees, congested, doc["reading"], choices, lambda line: None)
        choices.check_all_used()
    say(f"SCOT of a {scot.tree.number_of_nodes()}-vertex tree x K_{scot.m}; {router} ({doc['reading']}) from "
        f"B{publisher} to subscribers at {list(hosts)}; congested queues {sorted(congested, key=repr)}")
    snr = S.snr(scot, publisher, hosts, trees)
    if router == "dnr":
        routing = S.dnr(scot, publisher, hosts, trees, congested, doc["reading"], _TieBreaks(doc), say)
    else:
        routing = {"snr": S.snr, "bid": S.bid_routing}[router](scot, publisher, hosts, trees)
    say(f"deliveries {dict(routing.deliveries)}; {routing.messages} messages (SNR {snr.messages}); "
        f"copies into congested queues {dict(getattr(routing, 'congested_copies', ()))}")
    run = S.RoutingRun(scot, publisher, hosts, routing, congested, snr.messages)
    holds = prop.predicate(run)
    say(f"{prop.name}: {'holds' if holds else 'VIOLATED'}")

    def draw(png: str, title: str) -> None:
        # the copies in the order sent: the spec's per-broker rule, routed as the spec's router above
        # routes it (route over router_step), and checked against the run just judged
        rule = doc["reading"] if router == "dnr" else router
        copies = copies_sent(rule, publisher, hosts, trees, congested, _TieBreaks(doc), routing)
        snr_copies = copies_sent("snr", publisher, hosts, trees, frozenset(), None, snr)
        drawing.draw_routing(run, copies, router, doc["reading"], prop, holds, png, title, snr_copies)

    return plugin.Replayed(not holds, draw=draw)


class _TieBreaks:
    """DNR's least-CE choice replayed from the document: the i-th choice made takes the candidate at
    the i-th recorded index (the first candidate once they run out). An index that names no
    candidate is refused, and `check_all_used` refuses recorded choices the run never made."""

    def __init__(self, doc: Document):
        recorded = doc.get("tie_breaks", [])
        if not isinstance(recorded, list) or not all(isinstance(i, int) and not isinstance(i, bool) and i >= 0
                                                     for i in recorded):
            raise ValueError(f"tie_breaks must be a list of candidate indices (integers >= 0), not {recorded!r}")
        self.recorded, self.made = recorded, 0

    def __call__(self, candidates):
        index = self.recorded[self.made] if self.made < len(self.recorded) else 0
        self.made += 1
        if index >= len(candidates):
            raise ValueError(f"tie-break {self.made} picks candidate {index}, but there are only {len(candidates)}")
        return candidates[index]

    def check_all_used(self) -> None:
        if self.made < len(self.recorded):
            raise ValueError(f"the document records {len(self.recorded)} tie-breaks, but the routing makes "
                             f"{self.made} choices")



def copies_sent(rule: str, publisher, hosts, trees, congested, choose, judged: S.Routing) -> list[drawing.Copy]:
    """Every copy the notification's routing sends, in the order sent: `rule` (snr, bid, or a DNR
    reading) applied broker by broker, breadth first, by spec.scot.route over spec.scot.router_step,
    as the spec's routers run it, with each broker's sends recorded. Raises if the copies disagree
    with the routing the replay judged (`judged`), so that a picture never shows another run."""
    if rule != "bid":
        hosts = sorted(set(hosts), key=repr)     # as spec.scot.snr and spec.scot.dnr pass them
    payload, step = S.router_step(rule, publisher, hosts, trees, congested, (lambda at: choose) if choose else None)
    copies: list[drawing.Copy] = []

    def recorded(at, came_from, carried):
        deliver, sends = step(at, came_from, carried)
        copies.extend(drawing.Copy(at, n, c) for n, c in sends)
        return deliver, sends

    routed = S.route(publisher, payload, recorded, congested, S.route_repeats(rule))
    if (routed.messages, routed.deliveries, routed.received) != (judged.messages, judged.deliveries, judged.received):
        raise RuntimeError(f"the copies recorded for {rule} ({routed.messages} messages) are not the routing replayed "
                           f"({judged.messages} messages)")
    return copies


def _property(doc: Document, subject: str, kind: str):
    try:
        prop = get(S.ALGORITHM, doc.get("property"))
    except ValueError:
        prop = None
    if prop is None or prop.subject != subject:
        raise ValueError(f"not a replayable SCOT {kind} property: {doc.get('property')!r}")
    return prop
