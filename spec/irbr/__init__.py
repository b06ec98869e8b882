"""IRBR over Pastry: identifier-range based content routing, as an executable specification.

Paper: Wang Jin-Ling, Jin Bei-Hong, Li Jing, "Building Reliable Content-Based Routing Protocol
over Structured P2P Networks", Journal of Software 17(5):1107-1114, 2006
(../shared/seeds/001_c5512f168a17e74d.txt).

    sec. 2     identifiers of L digits in base k; Pastry routing tables RT^n by prefix (Table 1),
               one live "representative" per prefix range; the per-source spanning tree by
               delegation of identifier ranges ("source based forwarding")
    sec. 3.1   filters, covering (f1 covers f2 iff E_f1 contains E_f2), the filter table
               FT^n = {(prefix, filter)}
    sec. 3.2   publish: the event follows the publisher's delegation tree, pruned where no entry
               of the range matches (Fig. 2)
    sec. 3.3   subscribe: broadcast on the subscriber's delegation tree; with the covering
               optimization, only inside the smallest range around the subscriber that an entry
               covering the filter already stands for (Fig. 3)
    abstract   exactly-once delivery to every interested subscriber "as long as the message from
               publisher to subscriber is arrivable"
    sec. 3.4   unsubscribe, with a named design for its "special handling"
    sec. 3.5   (1) ordering by Lamport-like clocks, (2) the concurrency rule after an unsubscribe,
               (3) join and leave: each left open by the paper, each a named reading here

The package reads in the paper's order, a module each: routing.py (identifiers and Pastry routing,
sec. 2), filters.py (filters and covering, sec. 3.1, with its claim), readings.py (every rule the
paper leaves open, one `Reading` type, and `READINGS`, the catalogue of the readings this project
checks), then the two models, each with its state, its actions and the claims judged on its runs
(operations.py, flight.py); this module gathers their names, so that `spec.irbr.X` is every one:

  I.  Operations one at a time: a subscribe, unsubscribe, failure, join or leave completes before
      the next starts; routing tables are repaired after failures (what "arrivable" means here:
      every live node's table names a live representative for every range that still has a live
      node), stale, or stale with alternates. Its claims judge a `PublishRun`.
  II. Messages in flight: a script of concurrent operations whose messages are delivered in any
      order, with crashes at any moment, under the ordering, concurrency and forwarding reading. It
      reuses model I's state and handlers; its claims judge a `FlightRun`.

The readings this project chose as corrections are the defaults: covering-ordered (the literal
covering rule lets two equal filters count on each other), resubscribe-uncovered, copy-closest
joins, lamport, widen-then-withdraw and retry-alternate; each literal or weaker alternative stays
selectable, and docs/irbr.md gives the verdict of each. The Scribe baseline (sec. 4) is in
reference/irbr.py.

Filters are conjunctions of equality and range constraints on named attributes (integers or
strings); `covers` decides covering exactly (checks/algorithms/irbr cross-checks it with Z3). The
filter table keeps each entry's subscriber beside (prefix, filter), so that an unsubscribe can
remove exactly its own entries; the paper's FT is the projection on (prefix, filter).
"""

# Every name of the modules, as spec.irbr.<name> (the checks, the reference and the Spark job use
# these); the modules import one another directly, in the order above.
from spec.irbr.routing import (ALGORITHM, check_choice, choose_representative, common_prefix_length,
                               delegated_ranges, DIGITS, REPRESENTATIVES, routing_table, Space)
from spec.irbr.filters import (a_strict_cover, check_event, Constraint, CoveringQuestion, covers,
                               covers_decides_covering, deciding_events, Filter, make_filter, parse_filter)
from spec.irbr.readings import (CONCURRENCY, COVERING, FAILURES, FORWARDING, JOINS, ORDERINGS, ORIGIN_OF_CHOICE,
                                Reading, READINGS, TABLE_READINGS, UNSUBSCRIBE)
from spec.irbr.operations import (a_remote_subscriber_is_interested, broadcast, check_failures, checked_ids,
                                  counts_on, drop_subscribers, delegation_reaches_every_live_node_once,
                                  every_interested_subscriber_notified_exactly_once, fail, interested, join, leave,
                                  Network, network, no_node_receives_an_event_twice, operate, Publication, publish,
                                  PUBLISH_PROPERTIES, publish_run, publish_runs, PublishRun, record, relays_through_a_node,
                                  Spread, subscribe, subscribe_level, tables_for, unsubscribe, widen_covered, widen_uncovered,
                                  a_remote_subscriber_is_interested_after_changes, an_entry_names_another_range,
                                  CHANGED_AFTER_SUBSCRIBING, CHANGES, changes_after_subscribing_lose_no_event,
                                  every_entry_prefix_in_the_routing_table, INTERLEAVED, OPERATIONS_PROPERTIES,
                                  operations_run, OperationsRun, order_after, stray_entries, SUBSCRIBING,
                                  a_copy_is_sent, copies_into_ranges_without_interest, event_spread,
                                  no_copy_enters_a_range_without_interest)
from spec.irbr.flight import (a_node_crashed, a_steady_subscriber_is_remote_and_interested, can_purge, can_withdraw, crash,
                              deliver, Flight, FLIGHT_PROPERTIES, FlightRun, messages_arrived_out_of_order,
                              no_entry_outlives_its_subscriber, no_entry_outlives_its_subscription,
                              settled_network_delivers_exactly_once,
                              purge, start, steady_subscribers_notified_exactly_once, withdraw)

__all__ = ['ALGORITHM', 'check_choice', 'choose_representative', 'common_prefix_length', 'delegated_ranges',
           'DIGITS', 'REPRESENTATIVES', 'routing_table', 'Space', 'a_strict_cover', 'check_event', 'Constraint',
           'CoveringQuestion', 'covers', 'covers_decides_covering', 'deciding_events', 'Filter', 'make_filter',
           'parse_filter', 'CONCURRENCY', 'COVERING', 'FAILURES', 'FORWARDING', 'JOINS', 'ORDERINGS', 'ORIGIN_OF_CHOICE',
           'Reading', 'READINGS', 'TABLE_READINGS', 'UNSUBSCRIBE', 'a_remote_subscriber_is_interested',
           'broadcast', 'check_failures', 'checked_ids', 'counts_on', 'drop_subscribers', 'delegation_reaches_every_live_node_once',
           'every_interested_subscriber_notified_exactly_once', 'fail', 'interested', 'join', 'leave', 'Network',
           'network', 'no_node_receives_an_event_twice', 'operate', 'Publication', 'publish', 'PUBLISH_PROPERTIES',
           'publish_run', 'publish_runs', 'PublishRun', 'record', 'relays_through_a_node', 'Spread', 'subscribe',
           'subscribe_level', 'tables_for', 'unsubscribe', 'widen_covered', 'widen_uncovered',
           'a_remote_subscriber_is_interested_after_changes', 'an_entry_names_another_range', 'CHANGED_AFTER_SUBSCRIBING',
           'CHANGES', 'changes_after_subscribing_lose_no_event', 'every_entry_prefix_in_the_routing_table', 'INTERLEAVED',
           'OPERATIONS_PROPERTIES', 'operations_run', 'OperationsRun', 'order_after', 'stray_entries', 'SUBSCRIBING',
           'a_copy_is_sent', 'copies_into_ranges_without_interest', 'event_spread', 'no_copy_enters_a_range_without_interest', 'a_steady_subscriber_is_remote_and_interested',
           'a_node_crashed', 'can_purge', 'can_withdraw', 'crash', 'deliver', 'Flight', 'FLIGHT_PROPERTIES', 'FlightRun',
           'messages_arrived_out_of_order', 'no_entry_outlives_its_subscriber', 'no_entry_outlives_its_subscription',
           'settled_network_delivers_exactly_once', 'purge', 'start', 'steady_subscribers_notified_exactly_once',
           'withdraw']
