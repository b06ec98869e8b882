"""Reproduction of CBDLO's evaluation (sec. 5, Figs. 5-9) with the CRAWL reference and its baselines.

Paper: Zheng & Sun 2018, sec. 5 (Peersim, event driven). The figures' values are not in the text;
what the text states beside them is judged by checks/algorithms/crawl/inventory.py.

    Fig. 5   3,000 nodes, view 10, a local cache of 100 subscriptions, budget 10: the effective
             distribution cost, messages / (matched / expected), against the number of subscriptions,
             CRAWL beside Simple
    Fig. 6   the same against the maximum hop count
    Fig. 7   messages per event of CBDLO (APT 100) and TERA (100 topics, APT 50), budget 10, against
             the number of nodes: measured up to MEASURED_NODES[-1], and the paper's range (100 to
             1,000,000,000) extended with a fit of the measured points
    Fig. 8   view 20, APT 20, budget 30, Zipf subscriptions with 8 attributes on average: the matching
             cost against the number of subscriptions, Cost(CBDLO) = |APT| x H_stage1 + 1 x H_stage2
             as printed (H the slowest attribute's) and summed over the attributes, each x 1/8 (the
             paper's axis), beside Simple's m x s per node reached (x 0.1)
    Fig. 9   the same against the number of attributes

What the paper leaves open, chosen here and named (CHOICES lists them for the docs):
  the lower layer  reference.crawl.random_views: each node picks `view` others, links known both ways
  APTs             both readings of reference.crawl.APT_FILLING, each run and reported:
                   `attribute-entries` (each node caches the entries of |APT| random attributes) and
                   `node-samples` (|APT| random other nodes, each naming the topologies it is in); a
                   walk ends at a member or at a node whose APT names the attribute's topology
  CRAWL            k = 4 (the Trace's length is not given), the walk of reference.crawl.walk under the
                   halving of the blocked walk's budget rounded down (the repair), the Trace kept
  subscriptions    at random nodes (at most 100 per node), each attribute i of A (500; Fig. 9: 125..1,000)
                   in it with the chance mu x i^-alpha, mu 0.9, alpha 0.9 (the law the prose describes; read as
                   mu x i^alpha, the other way this copy's lost superscript may go, the rarest attribute would be
                   the most common), at least one: 8.3 attributes on average (sec. 5.4: 8); A is chosen with
                   alpha so that the text's two figures hold together: 8 attributes on average and an APT of 100
                   reaching 90% of walks at 10 hops (sec. 5.3), each node caching the entries of 100 of the 500
                   attributes; each range covers a random
                   60..100% of the value space [0, 99] (a conjunction of narrow ranges matches nothing)
  events           from a random node, each attribute drawn by the subscriptions' law (8.3 on average, at
                   least one; EVENTS), values uniform in [0, 99], 200 a point: sec. 5.4's 1/8 'because the
                   average number of attributes is 8' reads the data's walks as about 8
  stage 2          the entry is a subscriber of the attribute; its virtual node is one of the pieces of
                   its range, at random; stage 2 is the route in the balanced tree to the piece that holds
                   the value, then one message per subscription of that piece's Node List
  acceptance       a subscription accepts when its count of distinct attributes reaches its attribute
                   count (the repair `reaches`: the printed `exceeds` accepts nothing, sec. 4's
                   sentence judged violated, so under it no event matches and no cost is defined)
  Simple           `flood` (every copy forwarded to every neighbour but its sender, until the hop limit),
                   `flood-once` (duplicates dropped: each node forwards once) and `random-walk` (one
                   neighbour per hop): reference.crawl.simple; the two floods are sec. 5.3's 洪泛式,
                   which prints neither way of treating copies (both decide), random-walk an alternative
  TERA             each subscription and event has one of 100 topics at random; reference.crawl.tera
Numbers are pure functions of the seeds; the JSON is cached against a fingerprint of the code.
"""

from __future__ import annotations

import json
import math
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np

from checks import figures
from reference import crawl as R
from reference.generators import rng_for
from spec import crawl as C

ROOT = Path(__file__).resolve().parents[3]
REPRODUCTION_JSON = ROOT / "reports" / "crawl-reproduction.json"
FIGURE = "crawl-figs5-9.png"
DOMAIN = 100                       # values 0..99
K = 4
MU, ALPHA = 0.9, 0.9
PER_NODE = 100                     # sec. 5.3's local cache of 100 subscriptions
TOPICS = 100
FIG_5_SUBSCRIPTIONS = (250, 500, 1000, 2000, 4000, 8000)
FIG_6_BUDGETS = (2, 4, 6, 8, 10, 15, 20, 30)
MEASURED_NODES = (100, 300, 1000, 3000, 10000, 30000)
PAPER_NODES = (100, 10 ** 3, 10 ** 4, 10 ** 5, 10 ** 6, 10 ** 7, 10 ** 8, 10 ** 9)
FIG_8_SUBSCRIPTIONS = (250, 500, 1000, 2000, 3000, 5000, 8000)
FIG_9_ATTRIBUTES = (125, 250, 500, 750, 1000)
# Figs. 5-8: the text gives no number of attributes. Sec. 5.4 says subscriptions have 8 on average and
# sec. 5.3 that an APT of 100 lets 90% of walks of 10 hops reach their topology; with attribute-entries
# APTs both hold together at 500 attributes under mu 0.9, alpha 0.9 (8.3 a subscription; each node
# caches 100 of the 500 topologies' entries, a chance of 1/5 a node, and 90-96% of Fig. 5's walks hit). At fewer
# attributes the APT of 100 caches every topology and every walk ends at its first hop (at 30 under
# alpha 0.5, 8.6 a subscription: the workload of earlier versions)
ATTRIBUTES = 500


def average_attributes(attributes: int) -> float:
    """The mean number of attributes of a subscription under the law used (before 'at least one')."""
    return sum(min(1.0, C.zipf_as_intended(i, MU, ALPHA)) for i in range(1, attributes + 1))


# an event's attributes: the text gives none for the data; sec. 5.4's 1/8 axis ("the average number of
# attributes is 8", so that Fig. 8 shows a single forwarding) reads as the data's, about 8 walks an event
EVENTS = f"each attribute by the subscriptions' law ({average_attributes(ATTRIBUTES):.2g} on average), at least one"


CHOICES = (
    ("lower layer", "each node picks `view` random others; links are known both ways"),
    ("Trace length k", f"{K} (not given)"),
    ("walk reading", "the blocked walk's budget halved and rounded down (this project's repair of the printed exact half: a walk blocks only where every live neighbour of a node, at least `view` of them before churn, is in its Trace of 4), the Trace kept (`previous/kept`)"),
    ("attributes per subscription", f"attribute i of A with the chance {MU} x i^-{ALPHA} (the law the prose "
                                    "describes; mu x i^alpha, the other way this copy's lost superscript may go, rises with i), at least one"),
    ("ranges", f"each covers a random 60..100% of the value space [0, {DOMAIN - 1}]"),
    ("subscribers", f"random nodes, at most {PER_NODE} subscriptions each"),
    ("events", f"from a random node, each value uniform in [0, {DOMAIN - 1}], each attribute drawn by the "
               f"subscriptions' law ({average_attributes(ATTRIBUTES):.2g} on average, at least one): sec. 5.4 scales "
               "CBDLO's axis by 1/8 'because the "
               "average number of attributes is 8', so that the figure shows one forwarding the source starts, which "
               "needs about 8 walks an event (whether the 8 is the data's or, as the same section's m, 'the average "
               "number of attributes in a subscription', the subscriptions', these events have it). Events of every "
               "attribute (earlier versions' choice) would start a walk for each of 500; an event matches a "
               "subscription only when it has every one of the subscription's attributes in range, so interested "
               "subscriptions are few where subscriptions are few (tens over 200 events at Fig. 5's 250), hence "
               "200 events a point"),
    ("points", "Fig. 5: 250, 500, 1,000, 2,000, 4,000, 8,000 subscriptions; Fig. 6: budgets 2, 4, 6, 8, 10, 15, 20, "
               "30 at 2,000 subscriptions; Fig. 7: 100 to 30,000 nodes, as many subscriptions as nodes; Fig. 8: 250 "
               "to 8,000 subscriptions; Fig. 9: 125 to 1,000 attributes at 2,000 subscriptions (the figures' points "
               "are lost with them)"),
    ("draws", "seed 0; every point of a figure draws its layer, APTs, subscriptions and events from streams that do "
              "not depend on the number of subscriptions: a point holds the first n subscriptions of one stream and "
              "publishes the same events as the others, so points differ in what the figure varies (common random "
              "numbers); the walks draw from a stream of their own. One draw per point: no interval is given"),
    ("words read as numbers", "'greatly', 'great advantage', 'far below': at least 5 times; 'hardly', 'changes "
                              "little', 'very stable' within 1.5 times (the most over the least); 'falls': the last "
                              "point at most 90% of the first; 'differ little': within 2 times; 'keeps rising' of a "
                              "sampled share: beyond twice its standard error (checks/algorithms/crawl/inventory.py: "
                              "GREATLY, HARDLY, FALLS, rises_beyond_noise)"),
    ("stage 2", "from a random piece of the entry subscriber's range to the piece holding the value, in the "
                "balanced tree, then one message per subscription in that piece's Node List"),
    ("acceptance", "the repair `reaches` (the printed `exceeds` accepts nothing)"),
    ("Simple", "the text's 'flooding' (洪泛式) forwarding until the hop limit, which prints no duplicate test: "
               "`flood`, every node forwards every copy it gets to every neighbour but its sender (about "
               "8.3 x 10^12 messages per event at 10 hops), and `flood-once`, duplicates dropped as floods with a message id do, "
               "each node forwarding once, are the printed flood, which leaves the choice between them open; `random-walk`, an alternative (Fig. 5's 'random forwarding', 随机转发, "
               "is also the paper's name for CRAWL's stage 1): one neighbour per hop; and `flood-if-matched`, an "
               "alternative the words allow (如果匹配则...接收数据,然后再把数据转发出去 read as one condition): every "
               "copy passed on, but only by the nodes the data matches. Each is run; the two floods "
               "decide the sentences, the others are reported beside them. None "
               "reaches the worked example's 68 of 408 with 68,605 messages (the floods every node passes on reach "
               "everyone at 10 hops, the walk and the flood where matched far fewer): the baselines are not calibrated to it. Figs. 8-9 count Simple's matching once "
               "per node reached (sec. 5.4's m x s per node); a flood's repeated copies would only add"),
    ("matched / expected", "counted per interested subscription and per event (both reported)"),
    ("TERA", f"{TOPICS} topics, each subscription's and event's topic uniform; a walk, then a spanning-tree "
             "broadcast in the topic"),
    ("APT filling", "`attribute-entries` (the entries of |APT| random attributes per node: the text's 'caches the "
                    "information of a number of upper-layer attribute topologies') and, this project's alternative, "
                    "`node-samples` (|APT| random nodes per node, each naming its topologies); both reported"),
    ("APT of Figs. 5-6", "not named there (their 本地的最大订阅缓存数 of 100, a local maximum cache of subscriptions, "
                         "may name the same table); run at 100, the APT sec. 5.3 sets for CBDLO at Fig. 7 "
                         "(入口点查询表大小被设定为100, as a hit rate of 90% at 10 hops needs at least that)"),
    ("attributes", f"{ATTRIBUTES} in Figs. 5-8, each attribute i in a subscription with the chance {MU} x i^-{ALPHA}: "
                   f"{average_attributes(ATTRIBUTES):.2g} per subscription on average (sec. 5.4 says 8). The text gives "
                   "neither the number of attributes nor mu and alpha (假定, assumed); these are chosen so that its two "
                   "figures hold together: 8 attributes a subscription, and an APT of 100 that lets about 90% of walks of "
                   "10 hops reach their topology (sec. 5.3; each node caches 100 of the 500 topologies' entries, a "
                   "chance of 1/5 a node: 90% to 96% of Fig. 5's walks hit, more with more subscriptions). With fewer attributes the APT of 100 "
                   "caches every topology and every walk ends at its first hop, which leaves CRAWL's walk unexercised "
                   "(30 attributes under alpha 0.5, 8.6 a subscription, were this project's earlier workload). The "
                   "calibration makes sec. 5.3's 'an APT of 100 reaches 90%' hold by construction here, so Figs. 5-6's "
                   "runs are not evidence for it (its sentence is judged on the hit-rate sweep instead)"),
    ("Fig. 9's attributes", "125, 250, 500, 750, 1,000 (the figure's range is lost): about A / 4 to 2A around Figs. "
                            "5-8's 500"),
    ("Fig. 8-9 nodes", "3,000 (not given)"),
    ("Figs. 8-9's H_stage2", "as sec. 5.4's cost model prints it, the height of the attribute's tree (第二部分是树的高度), "
                             "which decides the slowest attribute and the printed cost; beside, the hops of the route the "
                             "runs make in the tree, from the entry's piece to the value's (sec. 5.3's and sec. 5.4's "
                             "sentences that the two are equal are judged violated)"),
)


class Workload:
    """A lower layer, its APTs and subscriptions, and what CDM keeps per attribute (its pieces,
    tree and the subscriptions of each piece). Every point of a figure draws its layer, its APTs,
    its subscriptions and its events from streams that do not depend on the number of
    subscriptions: a point of n subscriptions holds the first n of one stream (each point's set
    within the next one's) and every point publishes the same events, so that the points differ in
    what the figure varies, not in a fresh draw (one independent draw a point let a few
    subscriptions of one or two common attributes swing the matches from point to point). The
    walks draw from a stream of their own (`rng`)."""

    def __init__(self, nodes: int, view: int, apt: int, subscriptions: int, attributes: int, seed: int,
                 apt_filling: str = "node-samples"):
        layer = rng_for(f"crawl-evaluation-{nodes}-{view}-{apt}-{attributes}-{apt_filling}", seed)
        stream = rng_for(f"crawl-subscriptions-{nodes}-{attributes}", seed)
        self.rng = rng_for(f"crawl-walks-{nodes}-{view}-{apt}-{subscriptions}-{attributes}-{apt_filling}", seed)
        self.events = rng_for(f"crawl-events-{nodes}-{attributes}", seed)
        self.nodes, self.attributes, self.apt_filling = nodes, attributes, apt_filling
        self.views = R.random_views(nodes, view, layer)
        self.flood: R.FloodCounts | None = None          # the every-copy flood's counter, built when first needed
        self.apt = apt
        self.table = R.apt_samples(nodes, apt, layer) if apt_filling == "node-samples" else None
        self.known = R.apt_attributes(nodes, attributes, apt, layer) if apt_filling == "attribute-entries" else None
        self.chance = np.array([min(1.0, C.zipf_as_intended(i, MU, ALPHA)) for i in range(1, attributes + 1)])
        owners = stream.permutation(np.repeat(np.arange(nodes), PER_NODE))[:subscriptions]
        self.subs: list[tuple[int, dict[int, tuple[int, int]]]] = []
        topics = []
        for owner in owners:          # one subscription's draws after another's: the first n are the same for any n
            sub = {}
            for a in self._attributes(stream):
                width = int(stream.integers(int(0.6 * DOMAIN), DOMAIN + 1))
                lo = int(stream.integers(0, DOMAIN - width + 1))
                sub[int(a)] = (lo, lo + width - 1)
            self.subs.append((int(owner), sub))
            topics.append(int(stream.integers(0, TOPICS)))
        self.topic = np.array(topics, dtype=np.int64)
        self.members = np.zeros((attributes, nodes), dtype=bool)
        self.by_attribute: dict[int, list[int]] = {}
        for i, (owner, sub) in enumerate(self.subs):
            for a in sub:
                self.members[a, owner] = True
                self.by_attribute.setdefault(a, []).append(i)
        self.entries = {a: (R.entry_points(self.table, self.members[a]) if self.table is not None else
                            set(np.flatnonzero(self.members[a] | self.known[:, a]).tolist()))
                        for a in self.by_attribute}
        self.trees = {}
        for a, indices in self.by_attribute.items():
            space = C.Space(0, DOMAIN - 1, tuple(self.subs[i][1][a] for i in indices))
            self.trees[a] = (C.pieces(space), C.balanced_tree(len(C.pieces(space))))
        self.per_node = np.bincount([o for o, _ in self.subs], minlength=nodes)
        self.attribute_count = np.bincount([o for o, _ in self.subs], weights=[len(s) for _, s in self.subs],
                                           minlength=nodes)

    def event(self) -> tuple[int, dict[int, int]]:
        """A source and an event: each attribute drawn by the subscriptions' law, at least one (EVENTS)."""
        source = int(self.events.integers(self.nodes))
        return source, {int(a): int(self.events.integers(0, DOMAIN)) for a in self._attributes(self.events)}

    def _attributes(self, rng: np.random.Generator):
        """Which attributes a subscription (or an event drawn as one) has: each attribute i with
        the chance mu x i^-alpha, at least one."""
        chosen = np.flatnonzero(rng.random(self.attributes) < self.chance)
        return chosen if len(chosen) else [int(rng.integers(self.attributes))]

    def expected(self, event: dict[int, int]) -> list[int]:
        return [i for i, (_, sub) in enumerate(self.subs)
                if all(a in event and lo <= event[a] <= hi for a, (lo, hi) in sub.items())]

    def cbdlo(self, source: int, event: dict[int, int], budget: int) -> dict[str, Any]:
        """One event through CRAWL (a walk per attribute) and CDM (the tree route, the Node List,
        the counter): messages of each stage, hops, and the subscriptions that accept it."""
        stage_1 = stage_2 = delivered = hops_1 = hops_2 = found = 0
        slowest, routed_cost = -1, 0             # the hops the walk and the route make
        model, model_cost, model_stage_1 = -1, 0, 0     # sec. 5.4's model: H_stage2 the tree's height
        arrivals: dict[int, int] = {}
        walked = sorted(a for a in self.by_attribute if a in event)     # a walk per attribute of the event
        for a in walked:
            moves = R.walk(self.views, source, self.entries[a], K, budget, self.rng)
            forwards = sum(kind == "forward" for kind, _ in moves)
            stage_1 += R.stage_1_messages(source, moves)
            hops_1 += forwards
            if moves[-1][0] != "found":
                if forwards > slowest:
                    slowest, routed_cost = forwards, self.apt * forwards
                if forwards > model:
                    model, model_cost, model_stage_1 = forwards, self.apt * forwards, self.apt * forwards
                continue
            found += 1
            at = moves[-1][1]
            entry_subs = [i for i in self.by_attribute[a] if self.subs[i][0] == at]
            if not entry_subs:       # the APT named a member: the entry is that member
                named = ([int(u) for u in self.table[at] if self.members[a, u]] if self.table is not None else
                         np.flatnonzero(self.members[a]).tolist())
                at = named[int(self.rng.integers(len(named)))]
                entry_subs = [i for i in self.by_attribute[a] if self.subs[i][0] == at]
            pieces, tree = self.trees[a]
            lo, hi = self.subs[entry_subs[int(self.rng.integers(len(entry_subs)))]][1][a]
            mine = [j for j, (p_lo, p_hi) in enumerate(pieces) if lo <= p_lo and p_hi <= hi]
            start = mine[int(self.rng.integers(len(mine)))]
            target = next(j for j, (p_lo, p_hi) in enumerate(pieces) if p_lo <= event[a] <= p_hi)
            route = tree.distance(start, target)
            hops_2 += route
            stage_2 += route
            if forwards + route > slowest:
                slowest, routed_cost = forwards + route, self.apt * forwards + route
            height = tree.height()
            if forwards + height > model:
                model, model_cost, model_stage_1 = forwards + height, self.apt * forwards + height, self.apt * forwards
            for i in self.by_attribute[a]:
                s_lo, s_hi = self.subs[i][1][a]
                if s_lo <= event[a] <= s_hi:
                    delivered += 1
                    arrivals[i] = arrivals.get(i, 0) + 1
        accepted = [i for i, got in arrivals.items() if got == len(self.subs[i][1])]
        return {"messages": stage_1 + stage_2 + delivered, "stage_1": stage_1, "stage_2": stage_2,
                "accepted": len(accepted), "hops_1": hops_1, "hops_2": hops_2, "slowest": max(slowest, 0),
                "walks": len(walked), "found": found,
                # sec. 5.4's Cost(CBDLO) = |APT| x H_stage1 + 1 x H_stage2: summed over the attributes;
                # as printed, H that of the slowest attribute (the walks run in parallel) with H_stage2 the
                # tree's height (第二部分是树的高度); and, beside, with H_stage2 the route's hops
                "matching": self.apt * hops_1 + hops_2, "matching_slowest": model_cost,
                "matching_slowest_stage_1": model_stage_1, "matching_slowest_routed": routed_cost}

    def simple(self, source: int, hops: int, forwarding: str, expected: list[int]) -> dict[str, Any]:
        """Simple from `source`: its messages, the `expected` subscriptions it reached, and its
        matching cost (each node reached matches every attribute of every subscription it holds)."""
        if forwarding in ("flood", "flood-if-matched") and self.flood is None:     # every copy counted
            self.flood = R.FloodCounts(self.views)
        reached, messages = R.simple(self.views, source, hops, self.rng, forwarding, self.flood,
                                     matched={self.subs[i][0] for i in expected})
        matched = sum(1 for i in expected if self.subs[i][0] in reached)
        matching = float(sum(self.attribute_count[v] for v in reached))
        return {"messages": messages, "matched": matched, "matching": matching}

    def tera(self, source: int, budget: int, topic_apt: np.ndarray) -> dict[str, Any]:
        """One TERA event of a random topic; `topic_apt` is the nodes' APT of topics, filled as the
        workload's (a table of sampled nodes, or which topics' entries each node caches)."""
        topic = int(self.rng.integers(TOPICS))
        members = np.zeros(self.nodes, dtype=bool)
        members[[o for (o, _), t in zip(self.subs, self.topic) if t == topic]] = True
        if not members.any():
            return {"messages": 0, "walk": 0, "found": False}
        entries = (R.entry_points(topic_apt, members) if self.apt_filling == "node-samples" else
                   set(np.flatnonzero(members | topic_apt[:, topic]).tolist()))
        found, messages = R.tera(self.views, source, members, entries, K, budget, self.rng)
        return {"messages": messages, "walk": messages - (int(members.sum()) - 1 if found else 0), "found": found}


def effective(messages: float, matched: float, expected: float) -> float | None:
    """Sec. 5.3's effective cost, messages / (matched / expected); None where nothing matched."""
    return float(C.effective_cost(round(messages), round(matched), round(expected))) if matched and expected else None


# what a CBDLO event's messages are: the text counts "the total number of messages" for Simple, and of
# CBDLO names only its two stages as what subscriptions can change (sec. 5.3): both are counted
ACCOUNTING = {"routing": "stage 1 and stage 2 (the walks and the tree routes)",
              "with-deliveries": "and one message per subscription in each matching piece's Node List"}


def effective_point(nodes: int, view: int, apt: int, subscriptions: int, attributes: int, budget: int,
                    events: int, seed: int, apt_filling: str) -> dict[str, Any]:
    """One point of Figs. 5-6: per protocol, the events' messages, and what matched summed two ways
    (MATCH_UNITS): the interested subscriptions reached, and the events that reached at least one
    interested subscription; `expected` counts the same two ways; and CRAWL's stage-1 messages per
    event (`stage_1`: its walks)."""
    w = Workload(nodes, view, apt, subscriptions, attributes, seed, apt_filling)
    names = ("crawl-routing", "crawl-with-deliveries", *(f"simple-{f}" for f in R.SIMPLE_FORWARDING))
    sums = {name: {"messages": 0, "matched": 0, "matched_events": 0} for name in names}
    expected = expected_events = walks = found = stage_1 = 0
    for _ in range(events):
        source, event = w.event()
        wanted = w.expected(event)
        expected += len(wanted)
        expected_events += bool(wanted)
        got = w.cbdlo(source, event, budget)
        walks, found = walks + got["walks"], found + got["found"]
        sums["crawl-routing"]["messages"] += got["stage_1"] + got["stage_2"]
        stage_1 += got["stage_1"]
        sums["crawl-with-deliveries"]["messages"] += got["messages"]
        for name in ("crawl-routing", "crawl-with-deliveries"):
            sums[name]["matched"] += got["accepted"]
            sums[name]["matched_events"] += got["accepted"] > 0
        for forwarding in R.SIMPLE_FORWARDING:
            s = w.simple(source, budget, forwarding, wanted)
            sums[f"simple-{forwarding}"]["messages"] += s["messages"]
            sums[f"simple-{forwarding}"]["matched"] += s["matched"]
            sums[f"simple-{forwarding}"]["matched_events"] += s["matched"] > 0
    out: dict[str, Any] = {"expected": expected, "expected_events": expected_events,
                           "hit_rate": found / walks if walks else None, "stage_1": stage_1 / events}
    for name, s in sums.items():
        out[name] = {**s, "effective": effective(s["messages"], s["matched"], expected),
                     "effective_events": effective(s["messages"], s["matched_events"], expected_events)}
    return out


# what sec. 5.3's "matched / expected" counts: its worked example speaks of "the published messages
# that should match" (408) and "the number actually matched" (68), which the text allows to read per
# interested subscription reached or per event that reached at least one
MATCH_UNITS = {"subscriptions": "the interested subscriptions an event reached, over all the interested ones",
               "events": "the events that reached an interested subscription, over the events that had one"}


def messages_point(nodes: int, events: int, seed: int, apt_filling: str) -> dict[str, Any]:
    """One point of Fig. 7: messages per event of CBDLO (APT 100) and TERA (APT 50), one subscription
    per node on average, budget 10, view 10, the events' attributes drawn as `event_attributes` says."""
    w = Workload(nodes, 10, 100, nodes, ATTRIBUTES, seed, apt_filling)
    topic_table = (R.apt_samples(nodes, 50, w.rng) if apt_filling == "node-samples" else
                   R.apt_attributes(nodes, TOPICS, 50, w.rng))
    crawl, routing, stage_1, tera, tera_walk, found = [], [], [], [], [], 0
    for _ in range(events):
        source, event = w.event()
        got = w.cbdlo(source, event, 10)
        crawl.append(got["messages"])
        routing.append(got["stage_1"] + got["stage_2"])
        stage_1.append(got["stage_1"])
        t = w.tera(source, 10, topic_table)
        tera.append(t["messages"])
        tera_walk.append(t["walk"])
        found += t["found"]
    return {"cbdlo-routing": float(np.mean(routing)), "cbdlo-with-deliveries": float(np.mean(crawl)),
            "cbdlo-stage-1": float(np.mean(stage_1)),
            "tera": float(np.mean(tera)), "tera_walk": float(np.mean(tera_walk)), "tera_found": found / events}


def hit_rate_point(apt: int, apt_filling: str, size: int, walks: int, seed: int) -> float:
    """The share of CRAWL walks (budget 10, 3,000 nodes, view 10) that reach one topology, from random
    sources. `node-samples`: the topology has `size` members; `attribute-entries`: it has 10 members
    and there are `size` attributes, each node caching the entries of `apt` of them."""
    rng = rng_for(f"crawl-hit-rate-{apt}-{apt_filling}-{size}", seed)
    nodes = 3000
    views = R.random_views(nodes, 10, rng)
    members = np.zeros(nodes, dtype=bool)
    members[rng.choice(nodes, size=size if apt_filling == "node-samples" else 10, replace=False)] = True
    if apt_filling == "node-samples":
        entries = R.entry_points(R.apt_samples(nodes, apt, rng), members)
    else:
        entries = set(np.flatnonzero(members | (rng.random(nodes) < min(1.0, apt / size))).tolist())
    found = sum(R.walk(views, int(rng.integers(nodes)), entries, K, 10, rng)[-1][0] == "found" for _ in range(walks))
    return found / walks


def matching_point(subscriptions: int, attributes: int, events: int, seed: int, apt_filling: str) -> dict[str, Any]:
    """One point of Figs. 8-9 (3,000 nodes, view 20, APT 20, budget 30): the matching cost per event.
    CBDLO's as printed (|APT| x H_stage1 + H_stage2 of the slowest attribute, H_stage2 the tree's
    height; `cbdlo-slowest-routed`: the route's hops instead) and summed over the
    attributes, each x 1/8 as the paper's y axis; Simple's (flooding) x 0.1; CRAWL's stage-1
    messages per event (`stage_1`: its walks) and its first stage's matching cost as printed
    (`stage_1_matching`, unscaled); the hit rate per walk and per APT lookup. Events of 8.3
    attributes on average (EVENTS): sec. 5.4 divides CBDLO's cost by 8 'because the average
    number of attributes is 8', so that the axis shows the single forwarding
    the source starts, which needs the event's walks to number 8 or so."""
    w = Workload(3000, 20, 20, subscriptions, attributes, seed, apt_filling)
    slowest, summed, per_attribute, simple, stage_1, slowest_stage_1, routed = [], [], [], [], [], [], []
    hops_slowest, hops_summed = [], []
    walks = found = lookups = 0
    for _ in range(events):
        source, event = w.event()
        got = w.cbdlo(source, event, 30)
        slowest.append(got["matching_slowest"])
        routed.append(got["matching_slowest_routed"])
        summed.append(got["matching"])
        per_attribute.append(got["matching"] / max(1, got["walks"]))
        stage_1.append(got["stage_1"])
        slowest_stage_1.append(got["matching_slowest_stage_1"])
        hops_slowest.append(got["slowest"])
        hops_summed.append(got["hops_1"] + got["hops_2"])
        walks, found, lookups = walks + got["walks"], found + got["found"], lookups + got["hops_1"]
        simple.append(w.simple(source, 30, "flood-once", [])["matching"])   # once per node reached: either flood's
    return {"cbdlo-slowest": float(np.mean(slowest)) / 8, "cbdlo-slowest-routed": float(np.mean(routed)) / 8,
            "cbdlo-summed": float(np.mean(summed)) / 8,
            "cbdlo-per-attribute": float(np.mean(per_attribute)), "simple": 0.1 * float(np.mean(simple)),
            "hit_rate": found / walks if walks else None, "stage_1": float(np.mean(stage_1)),
            # sec. 5.4's first-stage matching cost as its cost model prints it, |APT| x H_stage1 of the
            # slowest attribute; and the APT's hit rate per lookup (every node a walk is forwarded to
            # looks in its APT; the source does not), beside the hit rate per walk
            "stage_1_matching": float(np.mean(slowest_stage_1)),
            "lookup_hit_rate": found / lookups if lookups else None, "walks": walks, "lookups": lookups,
            # an event's delay in hops: its attributes walked in parallel, the slowest walk and tree
            # route (sec. 5.4's H); one after another, the sum of them
            "hops_slowest": float(np.mean(hops_slowest)), "hops_summed": float(np.mean(hops_summed))}


def extend(measured: dict[str, dict[str, float]]) -> dict[str, Any]:
    """Fig. 7 beyond what is measured: CBDLO's routing messages fitted as a + b log2 N, its messages
    with deliveries and TERA's as c + d N (least squares over the measured points), then read at the
    paper's sizes. An extrapolation of this project's model, not a measurement."""
    n = [float(x) for x in measured]
    series = {name: [measured[x][name] for x in measured] for name in ("cbdlo-routing", "cbdlo-with-deliveries",
                                                                        "tera")}
    fits = {"cbdlo-routing": ("log2", least_squares_line([math.log2(x) for x in n], series["cbdlo-routing"])),
            "cbdlo-with-deliveries": ("linear", least_squares_line(n, series["cbdlo-with-deliveries"])),
            "tera": ("linear", least_squares_line(n, series["tera"]))}

    def at(name: str, x: float) -> float:
        form, (slope, intercept) = fits[name]
        return float(intercept + slope * (math.log2(x) if form == "log2" else x))
    return {"fits": {name: {"form": form, "intercept": float(c[1]), "slope": float(c[0])}
                     for name, (form, c) in fits.items()},
            "at": {str(x): {name: at(name, x) for name in fits} for x in PAPER_NODES}}


def least_squares_line(xs: list[float], ys: list[float]) -> tuple[float, float]:
    """(slope, intercept) of the least-squares line through the points, computed exactly over
    fractions and rounded once: numpy's polyfit (LAPACK) gave other last digits on another
    machine, and the committed cache must come out the same wherever it is recomputed."""
    x, y = [Fraction(v) for v in xs], [Fraction(v) for v in ys]
    mx, my = sum(x) / len(x), sum(y) / len(y)
    slope = sum((a - mx) * (b - my) for a, b in zip(x, y)) / sum((a - mx) ** 2 for a in x)
    return float(slope), float(my - slope * mx)


def fingerprint() -> str:
    from checks.docs import source_fingerprint

    return source_fingerprint(Path(__file__), "spec.crawl", "reference.crawl", "reference.generators")


HIT_RATE_APTS = (5, 10, 20, 50, 100)
HIT_RATE_SIZES = {"node-samples": (3, 10, 30, 100), "attribute-entries": (100, 300, 500, 1000, 3000)}


def crawl_figs(events: int = 200, seed: int = 0, out: Path | str | None = REPRODUCTION_JSON,
               reuse: bool = True) -> dict[str, Any]:
    key = {"fingerprint": fingerprint(), "events": events, "seed": seed}
    if reuse and out is not None and Path(out).exists():
        stored = json.loads(Path(out).read_text())
        if stored.get("key") == key:
            return stored
    by_filling: dict[str, Any] = {}
    for filling in R.APT_FILLING:
        fig_7 = {str(n): messages_point(n, events, seed, filling) for n in MEASURED_NODES}
        by_filling[filling] = {
            "fig_5": {str(s): effective_point(3000, 10, 100, s, ATTRIBUTES, 10, events, seed, filling)
                      for s in FIG_5_SUBSCRIPTIONS},
            "fig_6": {str(b): effective_point(3000, 10, 100, 2000, ATTRIBUTES, b, events, seed, filling)
                      for b in FIG_6_BUDGETS},
            "fig_7": {"measured": fig_7, "extended": extend(fig_7)},
            "hit_rate": {str(size): {str(apt): hit_rate_point(apt, filling, size, 10 * events, seed)
                                     for apt in HIT_RATE_APTS} for size in HIT_RATE_SIZES[filling]},
            "fig_8": {str(s): matching_point(s, ATTRIBUTES, events, seed, filling) for s in FIG_8_SUBSCRIPTIONS},
            "fig_9": {str(a): matching_point(2000, a, events, seed, filling) for a in FIG_9_ATTRIBUTES}}
    result = {"key": key, "choices": [list(c) for c in CHOICES], "accounting": ACCOUNTING, "match_units": MATCH_UNITS,
              "average_attributes": {str(a): average_attributes(a) for a in FIG_9_ATTRIBUTES},
              **by_filling}
    if out is not None:
        Path(out).parent.mkdir(parents=True, exist_ok=True)
        tmp = Path(out).with_suffix(".tmp")
        tmp.write_text(json.dumps(result, indent=1) + "\n")
        tmp.replace(out)
    return result


def draw_figure(rep: dict[str, Any], folder: Path | str) -> str:
    """Figs. 5-9, one row per way of filling an APT."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    fig, grid = plt.subplots(len(R.APT_FILLING), 5, figsize=(24, 4.4 * len(R.APT_FILLING)))
    colours = {"crawl-routing": "#4c72b0", "crawl-with-deliveries": "#8172b2", "simple-flood": "#c44e52",
               "simple-flood-once": "#937860", "simple-random-walk": "#dd8452", "simple-flood-if-matched": "#da8bc3"}
    for axes, filling in zip(grid, R.APT_FILLING):
        r = rep[filling]
        for ax, key, xlabel, title in ((axes[0], "fig_5", "subscriptions", "Fig. 5: effective cost"),
                                       (axes[1], "fig_6", "maximum hops", "Fig. 6: effective cost")):
            xs = [int(x) for x in r[key]]
            for name, colour in colours.items():
                pts = [(x, r[key][str(x)][name]["effective"]) for x in xs]
                pts = [(x, y) for x, y in pts if y is not None]
                ax.plot([p[0] for p in pts], [p[1] for p in pts], "o-", color=colour, label=name)
            ax.set_xlabel(xlabel)
            ax.set_yscale("log")
            ax.set_title(f"{title} ({filling})", fontsize=9)
            ax.grid(alpha=0.3)
            ax.legend(fontsize=7)
        m, ext = r["fig_7"]["measured"], r["fig_7"]["extended"]["at"]
        xs, xe = [int(x) for x in m], [int(x) for x in ext]
        for name, colour in (("cbdlo-routing", "#4c72b0"), ("cbdlo-with-deliveries", "#8172b2"), ("tera", "#55a868")):
            axes[2].plot(xs, [m[str(x)][name] for x in xs], "o-", color=colour, label=f"{name} (measured)")
            axes[2].plot(xe, [max(ext[str(x)][name], 1e-1) for x in xe], "x:", color=colour, label=f"{name} (fit)")
        axes[2].set_xscale("log")
        axes[2].set_yscale("log")
        axes[2].set_xlabel("nodes")
        axes[2].set_ylabel("messages per event")
        axes[2].set_title(f"Fig. 7: CBDLO and TERA ({filling})", fontsize=9)
        axes[2].grid(alpha=0.3)
        axes[2].legend(fontsize=6)
        for ax, key, xlabel, title in ((axes[3], "fig_8", "subscriptions", "Fig. 8: matching cost"),
                                       (axes[4], "fig_9", "attributes", "Fig. 9: matching cost")):
            xs = [int(x) for x in r[key]]
            for name, colour, label in (("cbdlo-slowest", "#4c72b0", "CBDLO as printed x 1/8"),
                                        ("cbdlo-summed", "#8172b2", "CBDLO summed x 1/8"),
                                        ("simple", "#c44e52", "Simple x 0.1")):
                ax.plot(xs, [r[key][str(x)][name] for x in xs], "o-", color=colour, label=label)
            ax.set_xlabel(xlabel)
            ax.set_yscale("log")
            ax.set_title(f"{title} ({filling})", fontsize=9)
            ax.grid(alpha=0.3)
            ax.legend(fontsize=7)
    figures.save(fig, folder / FIGURE, 90, tight=True)
    return str(folder / FIGURE)
