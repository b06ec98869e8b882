"""IRBR: every rule the paper leaves open (sec. 2 to 3.5), gathered as one `Reading` type, and
`READINGS`, the catalogue of the readings this project checks, each with the runs it is judged on."""

from __future__ import annotations

import attrs

from spec.irbr.routing import REPRESENTATIVES, check_choice


# --------------------------------------------------------------------------------------------
# Readings: every rule the paper leaves open, gathered before the actions that follow them
# --------------------------------------------------------------------------------------------
# Each rule is a tuple of named choices, the first this project's default. The first six are
# read by both models; ordering, concurrency and forwarding only by messages in flight (model II).

TABLE_READINGS = ("repaired", "stale", "stale-alternates")
# repaired: after failures every live node's table is rebuilt from the live nodes (Pastry's table
#   repair; what "arrivable" means here). stale: tables keep failed representatives, and a copy
#   sent to one is lost. stale-alternates: tables are not rebuilt, but a sender whose
#   representative has failed sends to another live node of the range at once (sec. 3.2: "a
#   message only needs to reach any node of the target range").

COVERING = ("covering-ordered", "covering", "no-covering")
# Sec. 3.3 lets a subscription go less far when an entry's filter covers it. covering (the text
# read literally): any other subscription whose filter covers f counts, an equal filter of another
# node or another of n's own included. Two equal filters can then each count on the other: after
# the filter covering both is withdrawn, neither is sent on (exhaustive search, 4 operations).
# covering-ordered (this project's correction): a filter that covers f and is covered by it (an
# equal one) counts only if its subscriber's identifier is smaller than n's, so "counts on" is a
# strict order and has no cycles.

UNSUBSCRIBE = ("resubscribe-uncovered", "widen-covered", "remove-only")
# Sec. 3.4 says an unsubscribed filter "may have covered" other nodes' filters, which then "need
# special handling", and that the unsubscribe's "message forwarding and optimizations are similar
# to those of subscribe" (消息转发的思路以及优化措施与 subscribe 操作类似), and no more.
# resubscribe-uncovered (the default, the printed text where it is silent on the details): every
# node that gets the unsubscribe drops the unsubscriber's entries for the filter and re-evaluates
# each of its own subscriptions; one that had been sent less far than the covering rule now
# allows is sent on to the ranges it had skipped (subscribe's forwarding with subscribe's
# covering optimization, applied again). widen-covered (this project's repair for the covering
# rule as printed): instead, each of its own subscriptions that the withdrawn filter covers is
# sent on to every range it had skipped, without the covering optimization the sentence names.
# They differ only where the covering rule lets two equal filters count on each other (sec. 3.3
# read literally): re-applied, neither is sent on. remove-only (no special handling, an
# ablation): every node drops the unsubscriber's entries, nothing else.

JOINS = ("copy-closest", "ask-subscribers")
# Sec. 3.5 (3): a joining node "initializes its filter table from other nodes' information", no
# more. Both designs first let Pastry's join put the node into every table (tables are rebuilt
# from the known identifiers: under the stale readings failed nodes stay known).
# copy-closest (this project's design, the closest to the sentence's words): n copies the filter table of the live node m
# sharing the longest prefix with it (where Pastry's join ends), each entry re-aimed at n's range
# toward its subscriber, m's own subscriptions included. ask-subscribers (a tighter design this
# project tried): n asks each subscriber named in m's table whether its subscription was sent as
# far as n (cpl(n, s) >= the level it was sent from) and records just those; a failed subscriber
# cannot answer, so its entry, on which another subscription may still count, is not copied, and
# exhaustive search finds the event that is lost for it (4 operations).

FAILURES = ("withdraw-failed", "keep-failed", "prune-unrouted")
# Sec. 3.5 (3): IRBR "provides mechanisms" so that a node leaving (退出) affects the propagation
# of messages as little as possible, and gives none (this project's leave, in operations.py, is a
# design for them). The paper keeps a failure (失败) apart: it takes the node's filter table with
# it, the introduction leaves it to the P2P layer's fault tolerance, and the text says nothing of
# the entries naming the failed node in other nodes' tables.
# keep-failed (the printed text: a failure is left to the P2P layer's fault tolerance, which
# repairs routing tables, not filter tables): those entries stay, and a later subscription may
# count on a failed subscriber's covering entry, so it goes less far than a live one needs: an
# independent review found the event this loses in five operations (one beyond the exhaustive
# bound of four then: tests/data/findings/). withdraw-failed (this project's repair): the failure
# is detected as the tables' repair detects it, and every live node treats the failed node's
# subscriptions as withdrawn: it drops their entries and, under resubscribe-uncovered, widens
# each of its own subscriptions that had counted on one (as after an unsubscribe; under
# widen-covered, each that one of the failed node's filters covers).
# prune-unrouted (a repair, after a seventh independent review: sec. 3.1's rule that "every other
# prefix should have a corresponding entry in the Pastry routing table", 应在 Pastry 路由表中有相应的项,
# kept as the routing tables are repaired): every live node drops the entries under a prefix its
# repaired routing table no longer has (a range the failure emptied); a failed subscriber's entries
# under a range that still has a live node stay, and are counted on as under keep-failed. The text
# gives no such pruning step (an eighth review: sec. 3.1 states the rule under its premise that a
# routing table's entries are fixed, and leaves failures to the P2P layer), so it repairs
# keep-failed where sec. 3.1's rule breaks, keeping that rule by construction; it still loses an
# event where a later subscription counts on a failed subscriber's entry (5 operations on
# (k=2, L=3)).

# Messages in flight (model II) add three rules the paper names but leaves open (sec. 3.5):

ORDERINGS = ("lamport", "arrival")
# Sec. 3.5 (1): an unsubscribe may overtake the subscribe it withdraws; IRBR uses "a mechanism
# like Lamport's clocks". lamport (this project's reading): every subscribe and unsubscribe
# carries its subscriber's clock (here its script position; subscriptions made beforehand: -1),
# every node keeps the latest clock it has seen per (subscriber, filter), a withdrawn one too,
# and drops a message older than that. arrival: messages take effect in the order they arrive.

CONCURRENCY = ("widen-then-withdraw", "withdraw-at-once", "widen-then-withdraw-settled")
# Sec. 3.5 (2): after an unsubscribe a node "monitors the messages arriving for a while and takes
# measures against inconsistency". withdraw-at-once: the unsubscribe removes entries as it
# spreads, and the widenings it triggers follow (the one-at-a-time operation's steps as
# messages). widen-then-withdraw (this project's design): an "uncover" notice spreads first;
# each receiver stops counting on the withdrawn entries and widens its own subscriptions, the
# entries staying in place for forwarding; once no notice nor widening is in flight (the
# acknowledgements, abstracted to that condition), the withdrawal itself spreads.
# widen-then-withdraw-settled (this project's repair for operations at different nodes, issue
# 10): as widen-then-withdraw, and a subscription counts on a covering entry only once that
# entry's subscription has settled (no subscribe or widening of it in flight, acknowledgements
# abstracted likewise); otherwise a subscription can count on a covering one still on its way
# while the entry it counted on before is withdrawn, and a steady subscriber misses an event.

FORWARDING = ("retry-alternate", "fire-and-forget")
# A message to a node that has crashed: fire-and-forget loses it. retry-alternate (this project's
# design, after sec. 3.2: "a message only needs to reach any node of the target range"): the
# sender sees the failure and re-sends the message to the smallest live node of the same range,
# if there is one. Handlers are atomic, so the crashed node had not passed the message on and
# the retry duplicates nothing.


# The choices that are not the printed text: sec. 3.3's covering rule ordered by subscriber is this
# project's repair, and so are sending covered subscriptions on without the covering optimization
# (sec. 3.4 names it), withdrawing a failed node's subscriptions (the text leaves failures to the
# P2P layer), pruning the entries a failure leaves without a routing-table entry (sec. 3.1's rule
# kept, a step the text does not give) and counting only on settled subscriptions (sec. 3.5 with
# operations at two nodes);
# no covering, tables never repaired (the paper relies on the P2P layer's repair), an
# unsubscribe without sec. 3.4's special handling and sec. 3.5 without its monitoring, clocks or
# retries take a rule of the paper out.
ORIGIN_OF_CHOICE = {"covering-ordered": "repair", "widen-covered": "repair", "withdraw-failed": "repair",
                    "prune-unrouted": "repair",
                    "widen-then-withdraw-settled": "repair",
                    "no-covering": "ablation", "stale": "ablation", "stale-alternates": "ablation",
                    "remove-only": "ablation",
                    "withdraw-at-once": "ablation", "arrival": "ablation", "fire-and-forget": "ablation"}


@attrs.frozen
class Reading:
    """One choice per rule above. Named covering/tables/representative/unsubscribe, then each of
    join, failure, ordering, concurrency and forwarding that is not its default, in that order;
    model I follows the first six fields, model II all nine."""

    covering: str = "covering-ordered"
    tables: str = "repaired"
    representative: str = "smallest"
    unsubscribe: str = "resubscribe-uncovered"
    join: str = "copy-closest"
    failure: str = "withdraw-failed"
    ordering: str = "lamport"
    concurrency: str = "widen-then-withdraw"
    forwarding: str = "retry-alternate"
    # Where the catalogue checks it, not part of what it is (left out of equality): the runs it is
    # judged on (the `subject` of the properties that judge it: "PublishRun" and "OperationsRun",
    # model I; "FlightRun", model II), whether the Spark job also replays the reference under it, and in one line what it is.
    runs: tuple[str, ...] = attrs.field(default=(), eq=False)
    spark: bool = attrs.field(default=False, eq=False)
    note: str = attrs.field(default="", eq=False)

    def __attrs_post_init__(self) -> None:
        for what, value, known in (("covering reading", self.covering, COVERING),
                                   ("table reading", self.tables, TABLE_READINGS),
                                   ("representative choice", self.representative, REPRESENTATIVES),
                                   ("unsubscribe handling", self.unsubscribe, UNSUBSCRIBE),
                                   ("join design", self.join, JOINS),
                                   ("failure handling", self.failure, FAILURES),
                                   ("ordering", self.ordering, ORDERINGS),
                                   ("concurrency rule", self.concurrency, CONCURRENCY),
                                   ("forwarding", self.forwarding, FORWARDING)):
            check_choice(what, value, known)

    @property
    def name(self) -> str:
        optional = [v for v, known in ((self.join, JOINS), (self.failure, FAILURES), (self.ordering, ORDERINGS),
                                       (self.concurrency, CONCURRENCY), (self.forwarding, FORWARDING))
                    if v != known[0]]
        return "/".join([self.covering, self.tables, self.representative, self.unsubscribe] + optional)

    def choices(self) -> tuple[str, ...]:
        """The choice made for each rule: the fields that make the reading (its equality)."""
        return tuple(getattr(self, f.name) for f in attrs.fields(Reading) if f.eq)

    @property
    def origin(self) -> str:
        """Where the reading stands to the printed text (checks.plugin.ORIGINS), from its choices
        (ORIGIN_OF_CHOICE): an ablation if it takes out one of the paper's rules, else a repair if it
        repairs a printed rule, else printed (the printed rules, and a choice where the text is
        silent: which member represents a range, the unsubscribe's special handling done with
        subscribe's forwarding and optimizations (resubscribe-uncovered), sec. 3.5's rules that
        the paper names but does not give)."""
        origins = {ORIGIN_OF_CHOICE.get(value, "printed") for value in self.choices()}
        return next((o for o in ("ablation", "repair") if o in origins), "printed")


# The catalogue: every reading this project checks, by name. Exhaustive search and hypothesis
# judge model I under each reading with "PublishRun", exhaustive search model I's tables and order
# of operations under each with "OperationsRun", exhaustive search model II under each with
# "FlightRun", and the Spark job replays the reference under each with spark=True.
READINGS: dict[str, Reading] = {r.name: r for r in (
    Reading(runs=("PublishRun", "FlightRun", "OperationsRun"), spark=True,
            note="this project's repairs covering-ordered and withdraw-failed; the printed repaired tables and "
            "resubscribe-uncovered; its choices copy-closest joins and, in flight, lamport, widen-then-withdraw, "
            "retry-alternate"),
    Reading("covering", failure="keep-failed", runs=("PublishRun",), spark=False,
            note="the printed text: sec. 3.3 read literally (any covering entry counts, an equal filter too), "
            "failures left to the P2P layer; sec. 3.4's special handling as resubscribe-uncovered (subscribe's "
            "forwarding and covering optimization)"),
    Reading("covering", unsubscribe="widen-covered", failure="keep-failed", runs=("PublishRun",), spark=False,
            note="the printed text but for sec. 3.4's special handling: widen-covered (this project's repair, "
            "without the covering optimization sec. 3.4 names), failures left to the P2P layer"),
    Reading("covering", unsubscribe="remove-only", failure="keep-failed", runs=("PublishRun",), spark=False,
            note="the printed text without sec. 3.4's special handling (an unsubscribe only removes entries), "
            "failures left to the P2P layer"),
    Reading("covering", runs=("PublishRun",), spark=True,
            note="sec. 3.3 read literally, sec. 3.4 as resubscribe-uncovered, with this project's failure repair "
            "(withdraw-failed)"),
    Reading("covering", unsubscribe="widen-covered", runs=("PublishRun",), spark=False,
            note="sec. 3.3 read literally, sec. 3.4 as widen-covered, with this project's failure repair "
            "(withdraw-failed)"),
    Reading("covering", unsubscribe="remove-only", runs=("PublishRun",), spark=False,
            note="sec. 3.3 read literally without sec. 3.4's special handling, with this project's failure repair "
            "(withdraw-failed)"),
    Reading("no-covering", runs=("PublishRun",), spark=True,
            note="no covering optimization: every subscription goes "
            "everywhere"),
    Reading(tables="stale-alternates", runs=("PublishRun",), spark=True,
            note="tables not repaired; a sender whose representative failed uses another live node of the range"),
    Reading(tables="stale", runs=("PublishRun", "OperationsRun"), spark=True,
            note="tables not repaired; a copy to a failed representative is lost (negative control)"),
    Reading(representative="largest", runs=("PublishRun",), spark=False,
            note="every table names the largest live node of a range"),
    Reading(representative="per-node", runs=("PublishRun",), spark=False,
            note="each node names its own member of a range, standing in for proximity"),
    Reading(unsubscribe="remove-only", runs=("PublishRun", "FlightRun"), spark=True,
            note="sec. 3.4 without its special handling: an unsubscribe only removes entries"),
    Reading("no-covering", unsubscribe="remove-only", runs=("PublishRun",), spark=False,
            note="remove-only where nothing counts on another entry"),
    Reading(failure="keep-failed", runs=("PublishRun", "FlightRun", "OperationsRun"), spark=True,
            note="failures as printed (left to the P2P layer): a failed subscriber's entries stay in other nodes' "
            "tables, and a later subscription may count on one (this project's default until an independent review)"),
    Reading(failure="prune-unrouted", runs=("PublishRun", "OperationsRun"), spark=False,
            note="the repair prune-unrouted of failures as printed, keeping sec. 3.1's rule: an entry under a prefix "
            "the repaired routing table no longer has is dropped; a failed subscriber's entries in a range that still "
            "has a live node stay"),
    Reading("covering", failure="prune-unrouted", runs=("PublishRun",), spark=False,
            note="the printed text but for failures, repaired to keep sec. 3.1's rule (prune-unrouted): sec. 3.3 read "
            "literally, sec. 3.4's special handling as resubscribe-uncovered"),
    Reading(join="ask-subscribers", runs=("PublishRun",), spark=False,
            note="a joining node copies only the entries whose subscribers say they reach it"),
    Reading(concurrency="withdraw-at-once", runs=("FlightRun",), spark=False,
            note="sec. 3.5 (2) without monitoring: an unsubscribe withdraws entries as it spreads"),
    Reading(ordering="arrival", runs=("FlightRun",), spark=False,
            note="sec. 3.5 (1) without clocks: messages take effect in the order they arrive"),
    Reading(forwarding="fire-and-forget", runs=("FlightRun",), spark=False,
            note="a message to a crashed node is lost"),
    Reading("no-covering", concurrency="withdraw-at-once", runs=("FlightRun",), spark=False,
            note="withdraw-at-once where no subscription waits on a widening"),
    Reading(concurrency="widen-then-withdraw-settled", runs=("FlightRun",), spark=False,
            note="widen-then-withdraw, counting only on covering subscriptions that have settled (the repair for "
            "operations at different nodes)"),
)}
