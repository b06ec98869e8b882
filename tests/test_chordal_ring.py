"""The chordal ring's join: the spec's readings on the paper's own cases, each property against a
ring or join made to break it (negative controls), the reference held to the spec on every
reading, and bad input."""

import json

import attrs
import pytest
from hypothesis import example, given, settings, strategies as st

from reference import chordal_ring as R
from spec import chordal_ring as C

M32 = 2 ** 32


def ring_after(contacts, reading, bits=32):
    return C.run_joins(contacts, C.READINGS[reading], bits)[-1].after


# -- the identifier space (sec. 3.2) ----------------------------------------------------------

def test_identifier_space_as_printed():
    assert C.space(32) == M32 and C.second_id(32) == 2 ** 16 - 1 and C.second_id(4) == 3
    assert C.gap(65535, 0, 32) == M32 - 65535 and C.gap(3, 3, 4) == 0
    assert C.midpoint(65535, 0, 32) == 65535 + (M32 - 65535) // 2
    assert C.midpoint(14, 1, 4) == 15 and C.midpoint(12, 14, 4) == 13


def test_first_two_brokers_get_0_and_2_to_the_16_minus_1():
    for reading in C.READINGS.values():
        runs = C.run_joins([None, 0], reading)
        ring = runs[-1].after
        assert ring.ids() == [0, 65535]
        assert ring[0].pointers() == (1, 1, 0, 0) and ring[1].pointers() == (0, 0, 1, 1)
        assert [r.side for r in runs] == ["first", "second"]
        assert C.pointers_agree(ring) and C.ids_unique_in_ring_order(ring)


def test_corrected_join_splits_the_larger_gap_at_its_midpoint():
    ring = ring_after([None, 0, 0, 0, 1], "corrected")
    # broker 65535's left gap (65535) is the smaller: it takes the right one's midpoint
    assert ring.ids() == [0, 65535, 2147516415, 3221241855, 1073790975]
    assert [ring[h].id for h in C.order(ring)] == [0, 65535, 1073790975, 2147516415, 3221241855]
    assert C.pointers_agree(ring) and C.ids_unique_in_ring_order(ring)
    assert {h: ring[h].pointers() for h in range(5)} == C.correct_pointers(ring)


# -- the printed join's failures, each pinned on its smallest case ----------------------------

def test_printed_left_id_lands_on_the_right_of_y():
    # ring {0, 65535, 2147450880}: y = 0's left gap is below 2/3 of the space, so id[y] + gap/2
    # lies between 0 and 65535's right, not between y's Left and y
    runs = C.run_joins([None, 0, 0, 0], C.READINGS["printed-left-id"])
    assert runs[2].after.ids() == [0, 65535, 2147450880]        # above 2/3: still in the gap
    assert C.new_id_midway(runs[2]) is False                       # but not mid-way
    last = runs[3].after
    assert last.ids()[-1] == 1073758208 and runs[3].side == "left"
    assert C.pointers_agree(last) and not C.ids_unique_in_ring_order(last)


def test_printed_pointers_leave_leftleft_of_the_new_broker_unset():
    run = C.run_joins([None, 0, 0], C.READINGS["printed-pointers"])[-1]
    assert run.after[2].leftleft is None and run.after[0].rightright == 0
    assert not C.pointers_agree(run.after)
    assert "Leftleft of broker 2 unset" in C.EXPLAIN["pointers_agree"](run.after)
    # and what it writes: four brokers (the sentence's count), one fewer than the ring needs
    run5 = C.run_joins([None, 0, 0, 0, 0], C.READINGS["printed-pointers"])[-1]
    assert len(run5.written) == 4 and len(C.required_updates(run5)) == 5


def test_literal_join_through_the_second_broker_is_forwarded_for_ever():
    # ring {0, 65535}; contact 65535: its left gap is the smaller, and the printed right test
    # compares raw identifiers, 0 > 65536 false; its Rightright is itself
    run = C.run_joins([None, 0, 1], C.LITERAL)[-1]
    assert run.outcome == C.NEVER_ENDS and run.visited == (1,)
    assert not C.join_ends(run) and not C.every_join_inserts(run)
    refused = C.run_joins([None, 0, 1], C.READINGS["printed-space-test"])[-1]
    assert refused.outcome == C.REFUSED and not C.every_join_inserts(refused) and C.join_ends(refused)
    joined = C.run_joins([None, 0, 1], C.CORRECTED)[-1]
    assert joined.outcome == C.JOINED and joined.side == "right" and joined.after[2].id == 65535 + (M32 - 65535) // 2


def test_printed_space_test_gives_an_identifier_twice():
    runs = C.run_joins([None, 0, 0, 0, 0, 4, 5], C.READINGS["printed-space-test"], bits=4)
    assert runs[-1].after.ids() == [0, 3, 9, 12, 14, 13, 12]
    assert not C.ids_unique_in_ring_order(runs[-1].after) and not C.new_id_midway(runs[-1])
    assert C.EXPLAIN["ids_unique_in_ring_order"](runs[-1].after) == "Identifier 12 is held by two brokers."


def test_four_nodes_is_five_from_a_ring_of_four_on_every_reading():
    for name, reading in C.READINGS.items():
        runs = C.run_joins([None, 0, 0, 0, 0], reading)
        assert [len(C.required_updates(r)) for r in runs] == [1, 2, 3, 4, 5], name
        assert not C.join_updates_four_nodes(runs[-1]) and C.join_updates_four_nodes(runs[-2])


def test_corrected_join_fills_the_whole_space_then_refuses():
    ring = C.empty(4)
    for k in range(16):
        run = C.join_overlay(ring, None if k == 0 else k // 2, C.CORRECTED)
        assert run.outcome == C.JOINED, k
        ring = run.after
    assert sorted(ring.ids()) == list(range(16)) and C.pointers_agree(ring) and C.ids_unique_in_ring_order(ring)
    assert not C.free_gap_exists(ring)
    refused = C.join_overlay(ring, 5, C.CORRECTED)
    assert refused.outcome == C.REFUSED and refused.after is ring and C.every_join_inserts(refused)
    # a full ring's request visits every other broker: Rightright from 5 covers the odd handles'...
    assert len(refused.visited) == 8
    endless = C.join_overlay(ring, 5, C.READINGS["forwards-when-full"])
    assert endless.outcome == C.NEVER_ENDS and not C.join_ends(endless)


def test_modify_routing_table_backups_names_five_brokers():
    run = C.run_joins([None, 0, 0, 0, 0], C.CORRECTED)[-1]
    assert run.side == "left" and len(set(run.backups)) == 5 and run.new in run.backups


# -- negative controls: each property rejects a ring or join made to break it -----------------

def test_every_property_rejects_a_broken_subject():
    good = ring_after([None, 0, 0, 0, 0], "corrected")
    assert all(p.predicate(good) for p in C.RING_PROPERTIES)
    brokers = list(good.brokers)
    brokers[3] = attrs.evolve(brokers[3], rightright=brokers[3].right)
    assert not C.pointers_agree(attrs.evolve(good, brokers=tuple(brokers)))
    brokers = list(good.brokers)
    brokers[4] = attrs.evolve(brokers[4], id=brokers[0].id)
    assert not C.ids_unique_in_ring_order(attrs.evolve(good, brokers=tuple(brokers)))
    swapped = list(good.brokers)
    swapped[2], swapped[3] = attrs.evolve(swapped[2], id=swapped[3].id), attrs.evolve(swapped[3], id=swapped[2].id)
    assert C.pointers_agree(attrs.evolve(good, brokers=tuple(swapped)))
    assert not C.ids_unique_in_ring_order(attrs.evolve(good, brokers=tuple(swapped)))

    run = C.run_joins([None, 0, 0, 0], C.CORRECTED)[-1]
    assert C.new_id_midway(run)
    off = list(run.after.brokers)
    off[-1] = attrs.evolve(off[-1], id=off[-1].id + 5)
    assert not C.new_id_midway(attrs.evolve(run, after=attrs.evolve(run.after, brokers=tuple(off))))
    assert not C.join_ends(attrs.evolve(run, outcome=C.NEVER_ENDS))
    assert not C.every_join_inserts(attrs.evolve(run, outcome=C.REFUSED))
    assert not C.every_join_inserts(attrs.evolve(run, outcome=C.DANGLING))


def test_witnesses_tell_the_interesting_cases():
    runs = C.run_joins([None, 0, 0, 0, 0], C.CORRECTED)
    assert [C.joins_a_ring_of_four(r) for r in runs] == [False] * 4 + [True]
    assert [C.joins_by_request(r) for r in runs] == [False, False, True, True, True]
    assert not any(C.forwarded(r) for r in runs)
    assert C.forwarded(C.run_joins([None, 0, 1], C.READINGS["printed-space-test"])[-1])
    assert C.has_four_brokers(runs[-1].after) and not C.has_four_brokers(runs[2].after)


# -- the reference against the spec -----------------------------------------------------------

@settings(max_examples=150, deadline=None)
@given(st.sampled_from(sorted(C.READINGS)), st.sampled_from([2, 4, 6, 32]),
       st.lists(st.integers(0, 10 ** 6), max_size=24))
def test_reference_joins_as_the_spec(reading_name, bits, draws):
    reading = C.READINGS[reading_name]
    spec_ring = C.empty(bits)
    ref = R.Ring(reading_name, bits)
    for k, draw in enumerate([None] + draws):
        contact = None if k == 0 else draw % len(spec_ring)
        run = C.join_overlay(spec_ring, contact, reading)
        if run.outcome == C.JOINED:
            assert ref.join_through(contact) == run.after[run.new].id
        else:
            with pytest.raises(R.JoinFailed) as failed:
                ref.join_through(contact)
            assert failed.value.outcome == run.outcome
        spec_ring = run.after
        assert ref.ids == spec_ring.ids()
        for h, broker in enumerate(spec_ring.brokers):
            got = (ref.left[h], ref.right[h], ref.leftleft[h], ref.rightright[h])
            assert got == tuple(R.UNSET if p is None else p for p in broker.pointers())
        if run.outcome == C.JOINED and run.side in ("left", "right"):
            assert tuple(None if h == R.UNSET else h for h in ref.last_backups) == run.backups


def test_reference_public_surface():
    ring = R.Ring()
    assert [ring.join(None), ring.join(0), ring.join(65535)] == [0, 65535, 65535 + (M32 - 65535) // 2]
    assert ring.order() == [0, 65535, 2147516415]
    assert ring.pointers(65535) == (0, 2147516415, 2147516415, 0)
    assert len(ring) == 3
    assert R.joins([None, 0, 0], bits=4).order() == [0, 3, 9]


def test_reference_random_joins_are_seeded():
    a, b = R.Ring(), R.Ring()
    assert a.join_random(500, seed=7) == b.join_random(500, seed=7) == ["joined"] * 500
    assert a.ids == b.ids
    c = R.Ring()
    c.join_random(500, seed=8)
    assert a.ids != c.ids
    assert sorted(a.order()) == sorted(a.ids) and len(set(a.ids)) == 500
    full = R.Ring(bits=4)
    outcomes = full.join_random(20, seed=1)
    assert outcomes == ["joined"] * 16 + ["refused"] * 4 and sorted(full.ids) == list(range(16))


# -- bad input ---------------------------------------------------------------------------------

def test_bad_input_names_the_problem():
    with pytest.raises(ValueError, match="left_id must be one of"):
        C.Reading("x", left_id="above")
    with pytest.raises(ValueError, match="unknown chordal ring reading 'nope'"):
        C.reading_named("nope")
    with pytest.raises(TypeError, match="reading must be a spec.chordal_ring.Reading"):
        C.join_overlay(C.empty(4), None, "corrected")
    for bits in (0, 3, 66, "32", True):
        with pytest.raises(ValueError, match="bits must be an even integer"):
            C.empty(bits)
    with pytest.raises(C.UnknownBroker, match="first broker joins with no contact"):
        C.join_overlay(C.empty(4), 0, C.CORRECTED)
    with pytest.raises(C.UnknownBroker, match="no broker 2 to contact"):
        C.join_overlay(ring_after([None, 0], "corrected"), 2, C.CORRECTED)
    ring = R.Ring()
    with pytest.raises(R.UnknownBroker, match="first broker joins with no contact"):
        ring.join(5)
    ring.join(None)
    with pytest.raises(R.UnknownBroker, match="only the first broker"):
        ring.join(None)
    with pytest.raises(R.UnknownBroker, match="no broker has identifier 7"):
        ring.join(7)
    with pytest.raises(R.UnknownBroker, match="no broker has identifier"):
        ring.pointers([1])
    twice = R.Ring("printed-space-test", bits=4)
    for h in (None, 0, 0, 0, 0, 4, 5):
        twice.join_through(h)
    with pytest.raises(R.AmbiguousBroker, match="two brokers hold identifier 12"):
        twice.pointers(12)
    full = R.Ring(bits=4)
    full.join_random(16, seed=3)
    with pytest.raises(R.JoinFailed, match="no free identifier is left") as failed:
        full.join(0)
    assert failed.value.outcome == C.REFUSED
    with pytest.raises(ValueError, match="unknown chordal ring reading"):
        R.Ring("printed")


# -- Z3: the join by induction, the midpoint on 32-bit identifiers -------------------------------

def test_the_encoded_join_is_the_spec_join():
    from checks.algorithms.chordal_ring import proofs as P

    for name in ("corrected", "literal", "printed-pointers", "printed-left-id"):
        checked, mismatches = P.cross_check(C.READINGS[name], brokers=5, by="right")
        assert checked >= 13 and mismatches == 0, name
    assert P.cross_check(C.CORRECTED, brokers=5) == (14, 0)
    # in the identifiers' order the printed left identifier is not where the encoding puts it
    assert P.cross_check(C.READINGS["printed-left-id"], brokers=5)[1] > 0


def test_corrected_join_is_inductive_and_the_printed_one_breaks_in_two_steps(fresh_z3):
    from checks import induction as Z
    from checks.algorithms.chordal_ring import proofs as P
    from checks.verdict import Verdict

    proved = Z.prove_inductive(P.system(C.CORRECTED), confirm_steps=2, witness_steps=3)
    assert proved.verdict is Verdict.PROVED and "four brokers" in proved.witnesses
    assert all(v in ("sat", "unsat", "reached") for v in proved.queries.values())
    for name in ("literal", "printed-pointers"):
        system = P.system(C.READINGS[name])
        found = Z.prove_inductive(system, confirm_steps=2, witness_steps=3)
        assert found.verdict is Verdict.VIOLATED and found.kind == "trace", name
        assert found.cti.invariant == "leftleft and rightright are two steps" and Z.check_cti(system, found.cti)
        run = found.trace
        # which branch Z3's model takes varies with the solver's state: either breaks the pointers
        assert [step["action"] for step in run.steps] in (["second", "join_left"], ["second", "join_right"])
        for k, step in enumerate(run.steps):
            assert Z.step_holds(system, step["action"], run.states[k], run.states[k + 1], step["params"])
        assert not Z.holds(system, system.safety["pointers agree"], run.states[-1])


def test_midpoint_lemmas_on_32_bit_identifiers():
    from checks.algorithms.chordal_ring import proofs as P

    lemmas = P.midpoint_lemmas()
    assert [k for k, v in lemmas.items() if v != "proved"] == ["the printed left identifier is inside the gap"]
    low, high = (int(v) for v in lemmas["the printed left identifier is inside the gap"]
                 .removeprefix("fails at low = ").split(", high = "))
    assert C.gap(low, high, 32) >= 2
    printed = (high + C.gap(low, high, 32) // 2) % M32          # the spec's printed left id
    assert not 0 < C.gap(low, printed, 32) < C.gap(low, high, 32)
    assert P.prove_midpoint().verdict.value == "proved"


# -- node failure (sec. 3.4.1) -------------------------------------------------------------------

def twelve():
    return C.run_joins([None] + [0] * 11, C.CORRECTED)[-1].after


def test_chords_double_and_neighsets_count_each_link_once():
    assert C.chord_lengths(12) == (4, 8)
    assert C.chord_lengths(16) == (4, 8) and C.chord_lengths(40) == (4, 8, 16, 32)
    assert C.chord_lengths(4) == () and C.chord_lengths(100, "none") == ()
    ring = twelve()
    assert {len(v) for v in C.neighsets(ring).values()} == {6}          # 8 = -4 mod 12
    assert {len(v) for v in C.neighsets(ring, "none").values()} == {4}
    with pytest.raises(ValueError, match="chord rule must be one of"):
        C.chord_lengths(12, "random")


def test_one_failure_is_confirmed_and_only_a_splice_mends_the_ring():
    ring = twelve()
    b = 3
    a, c = ring[b].left, ring[b].right
    for name in ("literal", "corrected"):
        run = C.node_failure(ring, {b}, C.READINGS[name])
        (handled,) = run.handlings
        assert (handled.a, handled.c, handled.outcome) == (a, c, C.CONFIRMED)
        kinds = [m.kind for m in handled.messages]
        assert kinds[:3] == ["test-neighbour", "test-acknowledgement", "failed"]
        assert kinds[3:] == ["divide-neighbour"] * 4 and len(handled.messages) == 7
        assert [m.delivered for m in handled.messages[:3]] == [True, False, True]
    assert C.pointers_agree_after_failures(C.node_failure(ring, {b}, C.CORRECTED))
    stale = C.node_failure(ring, {b}, C.LITERAL)
    assert not C.pointers_agree_after_failures(stale) and stale.after[a].right == b
    both = C.node_failure(ring, {b}, C.READINGS["literal/both-tell"])
    assert len(both.handlings[0].messages) == 3 + 2 * 4
    assert all(p.predicate(both) for p in C.FAILURE_PROPERTIES
               if p.name not in ("pointers_agree_after_failures", "one_failure_keeps_the_ring"))


def test_two_failures_side_by_side_stall_the_handling():
    ring = twelve()
    b = 3
    c = ring[b].right
    run = C.node_failure(ring, {b, c}, C.CORRECTED)
    assert [h.outcome for h in run.handlings] == [C.STALLED, C.UNDETECTED]
    assert not C.close_failures_confirmed(run) and not C.pointers_agree_after_failures(run)
    assert C.node_failure_confirmed(run)          # the paper's sentence speaks of one failure
    assert "(test-neighbour from" in C.EXPLAIN["close_failures_confirmed"](run)
    apart = C.node_failure(ring, {b, ring[c].right}, C.CORRECTED)          # one live broker between
    assert C.close_failures_confirmed(apart) and C.pointers_agree_after_failures(apart)
    assert C.fails_two_brokers(apart) and C.handles_a_failure(apart)


def test_failure_properties_reject_broken_runs_and_bad_input():
    ring = twelve()
    run = C.node_failure(ring, {3}, C.CORRECTED)
    stalled = attrs.evolve(run, handlings=(attrs.evolve(run.handlings[0], outcome=C.STALLED),))
    assert not C.node_failure_confirmed(stalled) and not C.close_failures_confirmed(stalled)
    assert C.fails_one_broker(run) and not C.fails_one_broker(stalled)
    assert not C.failure_messages_within_degree(attrs.evolve(run, degrees=((3, 1),)))
    assert not C.pointers_agree_after_failures(attrs.evolve(run, after=ring))
    with pytest.raises(C.UnknownBroker, match="no broker 12 to fail"):
        C.node_failure(ring, {12}, C.CORRECTED)
    with pytest.raises(ValueError, match="at least one broker must stay up"):
        C.node_failure(ring, set(range(12)), C.CORRECTED)


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(sorted(C.READINGS)), st.integers(5, 20), st.sets(st.integers(0, 19), min_size=1, max_size=3),
       st.sampled_from(C.CHORD_RULES), st.integers(0, 10 ** 6))
def test_reference_fails_brokers_as_the_spec(reading_name, n, picks, rule, seed):
    reading = C.READINGS[reading_name]
    ref = R.Ring(reading_name)
    ref.join_random(n, seed)
    n = len(ref.ids)                                 # a printed join may fail to insert
    ring = C.Ring(32, tuple(C.Broker(ref.ids[h], *(None if p == R.UNSET else p for p in
                                                   (ref.left[h], ref.right[h], ref.leftleft[h], ref.rightright[h])))
                            for h in range(n)))
    if not C.pointers_agree(ring) or not C.ids_unique_in_ring_order(ring):
        return                                       # failure handling presumes a sound ring
    failed = {p % n for p in picks}
    if len(failed) >= n:
        return
    run = C.node_failure(ring, failed, reading, rule)
    got = ref.fail([ref.ids[h] for h in failed], rule)
    assert got == [(ring[h.failed].id, h.outcome, len(h.messages)) for h in run.handlings]
    for h in range(n):
        assert (ref.left[h], ref.right[h], ref.leftleft[h], ref.rightright[h]) == \
            tuple(R.UNSET if p is None else p for p in run.after[h].pointers())
    with pytest.raises(R.RingError, match="already failed"):
        ref.fail([ref.ids[min(failed)]])


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(["corrected", "literal", "no-splice", "literal/both-tell"]), st.integers(5, 16),
       st.sets(st.integers(0, 15), min_size=1, max_size=3), st.sampled_from(C.SHARING), st.integers(0, 10 ** 6))
@example("corrected", 8, {2, 7}, "next-neighbours", 3)    # broker 7 is 2's Leftleft: a failed backup holder
@example("literal", 8, {2, 7}, "new-broker", 3)
def test_reference_shares_a_failed_brokers_tasks_as_the_spec(reading_name, n, picks, option, seed):
    """sec. 3.2's three options in the reference (fail(..., sharing=)) against spec.share_tasks, on
    sound rings: who took each failed broker's tasks, by identifier, and their shares."""
    reading = C.READINGS[reading_name]
    ref = R.Ring("corrected")                   # failure handling presumes a sound ring
    ref.join_random(n, seed)
    ref.reading = reading                       # then the reading's handling, and its join for a new broker
    ring = C.Ring(32, tuple(C.Broker(ref.ids[h], ref.left[h], ref.right[h], ref.leftleft[h], ref.rightright[h])
                            for h in range(n)))
    failed = {p % n for p in picks}
    run = C.node_failure(ring, failed, reading)
    ref.fail([ring[h].id for h in failed], sharing=option)
    want = {}
    for t in C.share_tasks(run, option):
        after = t.joined.after if t.joined is not None else run.after
        want[ring[t.failed].id] = tuple((after[x].id, share) for x, share in t.shares)
    assert ref.tasks == want
    assert sum(share for shares in want.values() for _, share in shares) == \
        sum(1 for h in run.handlings if h.outcome == C.CONFIRMED)       # every confirmed broker's tasks, wholly
    with pytest.raises(R.RingError, match="unknown way of sharing a failed broker's tasks 'nobody'"):
        ref.fail([ring[min(set(range(n)) - failed)].id], sharing="nobody")


def test_reference_joins_after_failures_and_refuses_a_failed_contact():
    ring = R.Ring()
    ring.join_random(12, seed=1)
    assert [outcome for _, outcome, _ in ring.fail([ring.ids[3]])] == [C.CONFIRMED]
    new = ring.join(ring.ids[0])
    assert new in ring.order() and len(ring.order()) == 12
    with pytest.raises(R.RingError, match="has failed: a new broker pings live ones only"):
        ring.join(ring.ids[3])
    with pytest.raises(R.UnknownBroker, match="no broker has identifier 5"):
        ring.fail([5])
    with pytest.raises(R.RingError, match="at least one broker must stay up"):
        ring.fail([i for h, i in enumerate(ring.ids) if h != 3])


# -- link failure (sec. 3.4.2) -------------------------------------------------------------------

def test_a_ring_link_is_tested_through_the_neighbours_neighbour_and_a_chord_by_a_routed_query():
    ring = twelve()
    links = C.neighsets(ring)
    a = 0
    me = ring[a]
    run = C.link_failure(ring, a, me.right, C.LITERAL)
    assert run.kind == C.RING_LINK and run.path == (a, me.rightright, me.right)
    assert [m.kind for m in run.messages] == ["test-neighbour", "test-acknowledgement", "reply", "up"]
    assert C.link_failure(ring, a, me.rightright, C.LITERAL).path == (a, me.right, me.rightright)
    chords = sorted(links[a] - set(me.pointers()))
    assert chords
    for b in chords:
        chord = C.link_failure(ring, a, b, C.CORRECTED)
        assert chord.kind == C.CHORD and chord.path[0] == a and chord.path[-1] == b and len(chord.path) == 3
        assert C.link_failure_concluded(chord) and C.relays_a_chord_query(chord) and C.b_concludes_link_down(chord)
        assert [m.kind for m in chord.messages] == ["query", "query", "link-down", "link-down"]
        # printed, "unless it has not already sent a query similar to A": no link-down when B has not
        silent = C.link_failure(ring, a, b, C.LITERAL)
        assert silent.outcome == C.SILENCE and not C.link_failure_concluded(silent)
        assert [m.kind for m in silent.messages] == ["query", "query"] and C.b_concludes_link_down(silent)
        # the open choice: B, which detects the failure too, queries A after A's query has arrived
        later = C.link_failure(ring, a, b, C.READINGS["literal/b-always-queries"])
        assert later.outcome == C.LINK_DOWN and [m.kind for m in later.messages] == ["query"] * 4
        assert later.back[0] == b and later.back[-1] == a
        # B's own query sent first: printed, link-down too; repaired, none (A learns from B's query)
        for reading, kinds in ((C.LITERAL, ["query"] * 4 + ["link-down"] * 2), (C.CORRECTED, ["query"] * 4)):
            both = C.link_failure(ring, a, b, reading, b_queried=True)
            assert both.back[0] == b and both.back[-1] == a and both.outcome == C.LINK_DOWN
            assert [m.kind for m in both.messages] == kinds
    assert not C.link_failure_concluded(attrs.evolve(chord, outcome=C.LOOPS))
    assert not C.b_concludes_link_down(attrs.evolve(chord, path=chord.path[:-1]))
    assert C.link_failure_concluded(run) and C.b_concludes_link_down(run)      # a ring link: sec. 3.4.1's test
    with pytest.raises(ValueError, match="have no link between them"):
        C.link_failure(ring, a, next(h for h in range(12) if h not in links[a] and h != a), C.LITERAL)
    with pytest.raises(C.UnknownBroker, match="no broker 99"):
        C.link_failure(ring, a, 99, C.LITERAL)


def test_a_chord_failing_with_b_gets_a_the_new_route_of_bs_node_failure():
    ring = twelve()
    links = C.neighsets(ring)
    a = 0
    me = ring[a]
    chords = sorted(links[a] - set(me.pointers()))
    for name in ("literal", "corrected", "literal/b-always-queries"):
        for b in chords:
            run = C.link_failure(ring, a, b, C.READINGS[name], b_failed=True)
            assert run.kind == C.CHORD and run.b_failed and run.outcome == C.NEW_ROUTE
            assert run.path[0] == a and run.path[-1] == b
            assert [m.delivered for m in run.messages] == [True] * (len(run.path) - 2) + [False]   # lost at B
            (handled,) = run.failure.handlings
            assert handled.failed == b and handled.outcome == C.CONFIRMED
            assert (handled.a, handled.c) == (ring[b].left, ring[b].right)
            assert any(m.kind == "divide-neighbour" and m.to == a and m.delivered for m in handled.messages)
            assert C.waiting_a_gets_a_new_route(run) and C.a_waits_for_a_failed_b(run)
            # B failed: not the sentences of a B that is up
            assert C.link_failure_concluded(run) and C.b_concludes_link_down(run)
    b = chords[0]
    # B up, printed: A hears neither B's query nor link-down, and no one sends a new route
    silent = C.link_failure(ring, a, b, C.LITERAL)
    assert silent.outcome == C.SILENCE and not C.waiting_a_gets_a_new_route(silent)
    assert not C.a_waits_for_a_failed_b(silent)
    assert "is up, so no neighbour of a failed B" in C.EXPLAIN["waiting_a_gets_a_new_route"](silent)
    assert C.waiting_a_gets_a_new_route(C.link_failure(ring, a, b, C.READINGS["literal/b-always-queries"]))
    # negative control: a failed B whose divide-Neighbour never reached A
    lost = attrs.evolve(C.link_failure(ring, a, b, C.LITERAL, b_failed=True), outcome=C.SILENCE)
    assert not C.waiting_a_gets_a_new_route(lost)
    assert "no divide-Neighbour message reached broker 0" in C.EXPLAIN["waiting_a_gets_a_new_route"](lost)
    assert C.waiting_a_gets_a_new_route(C.link_failure(ring, a, me.right, C.LITERAL))     # a ring link
    with pytest.raises(ValueError, match="sec. 3.4.1's node failure"):
        C.link_failure(ring, a, me.right, C.LITERAL, b_failed=True)
    with pytest.raises(ValueError, match="exclude each other"):
        C.link_failure(ring, a, b, C.LITERAL, b_queried=True, b_failed=True)
    gone = C.node_failure(ring, {b}, C.CORRECTED).after
    with pytest.raises(ValueError, match=f"broker {b} has already failed"):
        C.link_failure(gone, a, b, C.LITERAL)


def test_each_way_of_sharing_a_failed_brokers_tasks_hands_them_to_live_brokers(monkeypatch):
    from fractions import Fraction

    ring = twelve()
    b = 3
    a = ring[b].left
    for name in ("literal", "corrected"):
        run = C.node_failure(ring, {b}, C.READINGS[name])
        (neighbour,) = C.share_tasks(run, "neighbour")
        assert neighbour.failed == b and neighbour.shares == ((a, Fraction(1)),)
        (shared,) = C.share_tasks(run, "next-neighbours")
        holders = sorted(C.backup_holders(ring, b, 4))
        assert shared.shares == tuple((h, Fraction(1, 4)) for h in holders)
        (new,) = C.share_tasks(run, "new-broker")
        assert new.joined.outcome == C.JOINED and new.joined.contact == a and new.shares == ((12, Fraction(1)),)
        assert C.tasks_taken_over(run) and C.tasks_taken_over_several(run) and C.b_neighbours_told(run)
    # two side by side: the second's handling stalls (its A failed), so no one takes its tasks
    two = C.node_failure(ring, {b, ring[b].right}, C.CORRECTED)
    assert C.tasks_taken_over(two) and not C.tasks_taken_over_several(two)       # several: not its claim
    assert "its failure was never confirmed" in C.EXPLAIN["tasks_taken_over_several"](two)
    assert all(not t.shares for t in C.share_tasks(two, "neighbour") if t.failed == ring[b].right)
    # negative controls: an unconfirmed failure, a taker that failed, a new broker that never joined
    one = C.node_failure(ring, {b}, C.CORRECTED)
    stalled = attrs.evolve(one, handlings=tuple(attrs.evolve(h, outcome=C.STALLED) for h in one.handlings))
    assert not C.tasks_taken_over(stalled)
    dead_a = attrs.evolve(one, after=attrs.evolve(one.after, failed=one.after.failed | {a}))
    assert not C.tasks_taken_over(dead_a)
    full = C.run_joins([None, 0, 0, 0], C.CORRECTED, bits=2)[-1].after           # every identifier taken
    (reused,) = C.share_tasks(C.node_failure(full, {1}, C.CORRECTED), "new-broker")
    assert reused.joined.after[reused.shares[0][0]].id == full[1].id             # the failed broker's identifier
    join = C.join_overlay
    monkeypatch.setattr(C, "join_overlay", lambda ring, contact, reading: attrs.evolve(
        join(ring, contact, reading), outcome=C.REFUSED))
    (refused,) = C.share_tasks(one, "new-broker")
    assert refused.joined.outcome == C.REFUSED and not refused.shares and not C.tasks_taken_over(one)
    assert "new broker's join through 2 ended: refused" in C.EXPLAIN["tasks_taken_over"](one)
    with pytest.raises(ValueError, match="unknown way of sharing"):
        C.share_tasks(one, "nobody")


def test_divide_neighbour_tells_every_other_live_neighbour_of_b():
    ring = twelve()
    b = 3
    for name in ("literal", "corrected", "literal/both-tell"):
        run = C.node_failure(ring, {b}, C.READINGS[name])
        assert C.b_neighbours_told(run)
    run = C.node_failure(ring, {b}, C.CORRECTED)
    (h,) = run.handlings
    dropped = attrs.evolve(h, messages=h.messages[:3])                         # no divide-Neighbour sent
    assert not C.b_neighbours_told(attrs.evolve(run, handlings=(dropped,)))
    assert "were told" in C.EXPLAIN["b_neighbours_told"](attrs.evolve(run, handlings=(dropped,)))
    several = C.node_failure(ring, {b, ring[b].right}, C.CORRECTED)
    assert C.b_neighbours_told(several)                                          # several: not its claim

def test_the_degree_4_ring_survives_any_three_failures_and_backups_any_four():
    import itertools

    ring = C.run_joins([None] + [0] * 7, C.CORRECTED)[-1].after          # 8 brokers
    for f in (1, 2, 3):
        for failed in itertools.combinations(range(8), f):
            run = C.node_failure(ring, failed, C.CORRECTED, "none")
            assert C.live_overlay_connected(run) and C.data_survives(run) and C.data_survives_several(run)
    cut = C.node_failure(ring, {0, 1, 3, 4}, C.CORRECTED, "none")
    assert not C.live_overlay_connected(cut) and C.fails_three_brokers(cut)
    assert C.live_overlay_connected(C.node_failure(ring, {0, 1, 3, 4}, C.CORRECTED, "doubling"))   # chords bridge it
    b = 2
    holders = C.backup_holders(ring, b, 4)
    assert holders == (ring[b].left, ring[b].right, ring[b].leftleft, ring[b].rightright)
    lost = C.node_failure(ring, {b, *holders}, C.CORRECTED)
    assert not C.data_survives_several(lost) and C.fails_a_broker_and_a_holder(lost)
    assert C.data_survives(lost)                   # the paper's sentence speaks of one failure
    assert "all failed" in C.EXPLAIN["data_survives_several"](lost)
    one = C.node_failure(ring, {b, ring[b].left}, C.CORRECTED, backups=1)
    assert not C.data_survives_several(one)
    alone = C.node_failure(ring, {b}, C.CORRECTED, backups=1)
    assert C.data_survives(alone) and C.fails_one_broker(alone)
    with pytest.raises(ValueError, match="backed up in 1 to 4 neighbours"):
        C.node_failure(ring, {b}, C.CORRECTED, backups=5)


def test_midway_is_judged_between_the_brokers_the_join_put_it_between():
    # the printed left identifier: ring {0, 3, 6} of 4-bit ids, broker 3 gets 5 but sits between 6 and 0
    run = C.run_joins([None, 0, 0, 0], C.READINGS["printed-left-id"], bits=4)[-1]
    me = run.after[run.new]
    assert me.id == 5 and (run.after[me.left].id, run.after[me.right].id) == (6, 0)
    assert not C.new_id_midway(run)
    # forwarded: the contacted broker is not among those that change (and five change from 4 on)
    forwarded = C.run_joins([None, 0, 1], C.READINGS["printed-space-test"])[-1]
    assert forwarded.outcome == C.REFUSED


# -- the declaration: replay, drawing, bad counterexample files ---------------------------------

def test_every_kind_of_counterexample_replays_and_is_drawn(tmp_path):
    from checks.algorithms import chordal_ring as D
    from checks.algorithms.chordal_ring import proofs as P

    lines = []
    docs = [D.joins_document("pointers_agree", "literal", "exhaustive", 32, [None, 0, 0]),
            D.joins_document("join_ends", "literal", "hypothesis", 32, [None, 0, 1]),
            D.failure_document("close_failures_confirmed", "corrected", "exhaustive", 8, [2, 3], "doubling"),
            D.link_document("link_failure_concluded", "corrected", "exhaustive", 12, 0, 4),
            D.link_document("b_concludes_link_down", "literal", "exhaustive", 12, 0, 4, True),
            D.link_document("link_failure_concluded", "literal", "exhaustive", 12, 0, 4),
            P.prove_join(C.LITERAL, "pointers_agree", by="right").document]
    for k, doc in enumerate(docs):
        replayed = D.replay(doc, lines.append)
        assert replayed.reproduced is (doc["property"] != "b_concludes_link_down" and doc["reading"] != "corrected"
                                       or doc["property"] == "close_failures_confirmed"), doc
        png = tmp_path / f"{k}.png"
        replayed.draw(str(png), "title")
        assert png.stat().st_size > 5000
    assert "join 2: through broker 1 (request at [1], side -): forwarded for ever" in lines
    assert any(line.startswith("close_failures_confirmed: VIOLATED") for line in lines)
    assert "broker 4 first sends broker 0 its own query: path 4 -> 2 -> 0" in lines
    assert any(line.startswith("link_failure_concluded: VIOLATED") and "B had sent no query" in line for line in lines)


@pytest.mark.parametrize("bad, message", [
    ({"reading": "nope"}, "unknown chordal ring reading"),
    ({"property": "nope"}, "unknown chordal ring property"),
    ({"contacts": [0, 0]}, "contacts must be a list: null for the first broker"),
    ({"contacts": [None, 1]}, "contacts must be a list"),
    ({"bits": 3}, "bits must be an even integer"),
    ({"kind": "teleport"}, "unknown kind of chordal ring counterexample"),
])
def test_a_malformed_counterexample_is_refused_naming_the_problem(bad, message):
    from checks.algorithms import chordal_ring as D

    doc = {**D.joins_document("pointers_agree", "literal", "exhaustive", 32, [None, 0, 0]), **bad}
    with pytest.raises(ValueError, match=message):
        D.replay(doc, lambda line: None)
    failure = {**D.failure_document("data_survives", "corrected", "exhaustive", 8, [2], "none"), "failed": [9]}
    with pytest.raises(ValueError, match="failed must name brokers 0..7"):
        D.replay(failure, lambda line: None)
    link = {**D.link_document("link_failure_concluded", "literal", "exhaustive", 12, 0, 4), "b_queried": "yes"}
    with pytest.raises(ValueError, match="b_queried must be true or false, not 'yes'"):
        D.replay(link, lambda line: None)


def test_a_contacted_broker_with_room_takes_the_request_itself_unless_printed():
    # ring {0, 65535}: broker 1 has 2^32 - 65535 free identifiers on its right
    printed = C.run_joins([None, 0, 1], C.LITERAL)[-1]
    assert not C.contacted_broker_with_room_inserts(printed)
    assert "had a free identifier beside it" in C.EXPLAIN["contacted_broker_with_room_inserts"](printed)
    assert C.contacted_broker_with_room_inserts(C.run_joins([None, 0, 1], C.CORRECTED)[-1])
    full = C.empty(2)
    for k in range(4):
        full = C.join_overlay(full, None if k == 0 else 0, C.CORRECTED).after
    refused = C.join_overlay(full, 1, C.CORRECTED)
    assert refused.outcome == C.REFUSED and C.contacted_broker_with_room_inserts(refused)   # no room: nothing claimed


def test_the_costs_against_n_are_the_degree_plus_one_and_a_two_hop_query(tmp_path):
    from checks.algorithms.chordal_ring import measure as M

    p = M.point(16, "doubling")
    # 16 brokers: links +-1, +-2, +-4 and 8 (one broker both ways): 7; a failure sends 7 + 1 messages
    assert p["degree"] == {"mean": 7, "max": 7} and p["node_failure_messages"] == {"mean": 8, "max": 8}
    assert p["chord_query_hops"]["max"] == 2 and p["chord_messages"]["max"] == 4 and p["failures"] == 16
    none = M.point(16, "none")
    assert none["node_failure_messages"]["max"] == 5 and none["chords"] == 0 and none["chord_query_hops"]["max"] is None
    # the committed reproduction, reused where the code that makes it is unchanged (its key holds the
    # code's fingerprint; recomputed in full otherwise), its largest row held to a fresh computation
    import shutil
    from pathlib import Path

    out = tmp_path / "costs.json"
    shutil.copy(Path(__file__).resolve().parents[1] / "reports" / "chordal_ring-reproduction.json", out)
    rep = M.costs(out=out)
    assert rep["key"]["fingerprint"] == M.fingerprint() and M.costs(out=out) == rep
    assert rep["doubling"]["1024"] == json.loads(json.dumps(M.point(1024, "doubling")))
    assert rep["doubling"]["1024"]["node_failure_messages"]["max"] == 20
    assert "| 1,024 | 10 | doubling | 19 / 19 | 20 / 20 | 2 / 2 | 4 / 4 |" in M.table(rep)


def test_three_failures_are_survived_for_every_size_and_four_are_not(monkeypatch):
    from checks.algorithms.chordal_ring import proofs
    from checks.verdict import Verdict

    outcome = proofs.prove_three_failures()
    assert outcome.verdict is Verdict.PROVED and outcome.cases == 4 and "1466 pairs" in outcome.detail
    four = proofs.connectivity_lemmas(failures=4)
    assert four["four failed brokers hold no two disjoint pairs of neighbours (n >= 5)"].startswith("fails at")
    # the spec's predicate, on a ring of 9: every three failures survived, the four that isolate a broker not
    ring = C.run_joins([None] + [0] * 8, C.CORRECTED)[-1].after
    order = C.in_id_order(ring)
    cut = C.node_failure(ring, {order[k] for k in (0, 1, 3, 4)}, C.CORRECTED, "none")
    assert not C.live_overlay_connected(cut) and C.survives_three_failures(cut)      # four: not its claim
    three = C.node_failure(ring, {order[k] for k in (0, 1, 3)}, C.CORRECTED, "none")
    assert C.survives_three_failures(three) and C.fails_three_brokers(three)
    # negative controls: links only one apart (a plain cycle) and two failures cut it; an encoding
    # that drops the links two apart is caught by the cross-check against the spec
    real = C.neighsets
    monkeypatch.setattr(C, "neighsets", lambda r, rule="doubling": {
        h: frozenset(x for x in links if abs(order.index(x) - order.index(h)) in (1, len(order) - 1))
        for h, links in real(r, rule).items()})
    assert not C.survives_three_failures(C.node_failure(ring, {order[0], order[3]}, C.CORRECTED, "none"))
    monkeypatch.setattr(C, "neighsets", real)
    monkeypatch.setattr(proofs, "adjacent", lambda n, x, y: proofs.z3.And(x != y, proofs.z3.Or(
        (y - x) % n == 1, (y - x) % n == n - 1)))
    with pytest.raises(ValueError, match="differ from the spec's on a ring of 5"):
        proofs.cross_check_links()


# -- the multigraph: express and secure events (sec. 3, 3.3, 3.5) ------------------------------

def ring_of(n):
    return C.run_joins([None] + [0] * (n - 1), C.CORRECTED)[-1].after


def test_express_and_secure_links_must_be_normal_links_and_weights_whole():
    ring = ring_of(8)                      # chords 4 apart: En has 20 links
    normal = C.Multigraph(ring).normal()
    assert len(normal) == 20 and C.ring_edges(ring) < normal and len(C.ring_edges(ring)) == 16
    order = C.in_id_order(ring)
    outside = C.link(order[0], order[3])           # three apart: no link at all
    assert outside not in normal
    with pytest.raises(ValueError, match="express link .* is not a normal link .*Eu is a subset of En"):
        C.Multigraph(ring, express=frozenset({outside}))
    with pytest.raises(ValueError, match="secure link"):
        C.Multigraph(ring, secure=frozenset({outside}))
    some = sorted(normal)[0]
    for bad in (0, 1.5, True):
        with pytest.raises(ValueError, match="a weight needs"):
            C.Multigraph(ring, weights=((some, bad),))
    graph = C.Multigraph(ring)
    with pytest.raises(ValueError, match="an event is normal, express, secure"):
        C.route_event(graph, 0, 1, "urgent", C.CORRECTED)
    with pytest.raises(C.UnknownBroker, match="no broker 8"):
        C.route_event(graph, 0, 8, C.EXPRESS, C.CORRECTED)


def test_an_express_event_keeps_to_express_links_or_has_no_path_and_the_ring_repair_delivers_it():
    ring = ring_of(5)
    order = C.in_id_order(ring)
    cut = order[4]                          # every link of this broker is normal only
    express = frozenset(l for l in C.Multigraph(ring).normal() if cut not in l)
    graph = C.Multigraph(ring, express, express)
    for kind in (C.EXPRESS, C.SECURE):
        stuck = C.route_event(graph, order[0], cut, kind, C.LITERAL)
        assert stuck.outcome == C.NO_PATH and stuck.path == ()
        assert C.event_on_its_links(stuck) and not C.special_event_delivered(stuck)
        assert C.routes_a_special_event(stuck)
        assert "No path of" in C.EXPLAIN["special_event_delivered"](stuck)
        mended = C.route_event(graph, order[0], cut, kind, C.CORRECTED)
        assert mended.outcome == C.DELIVERED and C.special_event_delivered(mended) and C.event_on_its_links(mended)
        assert all(C.link(x, y) in express | C.ring_edges(ring) for x, y in zip(mended.path, mended.path[1:]))
    normal = C.route_event(graph, order[0], cut, C.NORMAL, C.LITERAL)
    assert normal.outcome == C.DELIVERED and C.special_event_delivered(normal) and not C.routes_a_special_event(normal)


def test_the_event_claims_reject_planted_routes():
    ring = ring_of(6)
    order = C.in_id_order(ring)
    express = frozenset({C.link(order[0], order[1])})
    graph = C.Multigraph(ring, express, express)
    route = C.route_event(graph, order[0], order[1], C.EXPRESS, C.LITERAL)
    assert route.path == (order[0], order[1]) and C.event_on_its_links(route)
    off = attrs.evolve(route, path=(order[0], order[2], order[1]))      # a hop over a normal link
    assert not C.event_on_its_links(off)
    assert not C.event_on_its_links(attrs.evolve(route, path=(order[1], order[0])))      # the wrong way round
    gave_up = attrs.evolve(route, path=(), outcome=C.NO_PATH)          # "no path" where one exists
    assert not C.event_on_its_links(gave_up) and not C.special_event_delivered(gave_up)
    assert "went nowhere" in C.EXPLAIN["event_on_its_links"](gave_up)


@settings(max_examples=60, deadline=None)
@given(st.integers(5, 14), st.integers(0, 2 ** 40), st.lists(st.integers(1, 9), min_size=1, max_size=6),
       st.integers(0, 13), st.integers(0, 13), st.sampled_from(C.KINDS), st.sampled_from(["literal", "corrected"]))
def test_an_event_takes_a_least_weight_path_and_the_reference_the_same(n, bits, weights, s, t, kind, name):
    import networkx as nx

    ring = ring_of(n)
    normal = sorted(C.Multigraph(ring).normal())
    chosen = frozenset(l for k, l in enumerate(normal) if bits >> k & 1)
    w = tuple((l, weights[k % len(weights)]) for k, l in enumerate(normal))
    graph = C.Multigraph(ring, chosen, chosen, w)
    reading = C.READINGS[name]
    route = C.route_event(graph, s % n, t % n, kind, reading)
    g = nx.Graph()
    g.add_nodes_from(range(n))
    g.add_weighted_edges_from((a, b, dict(w)[(a, b)]) for a, b in graph.links(kind, reading))
    if nx.has_path(g, s % n, t % n):
        assert route.outcome == C.DELIVERED
        assert nx.path_weight(g, list(route.path), "weight") == nx.shortest_path_length(g, s % n, t % n, "weight")
    else:
        assert route.outcome == C.NO_PATH
    # the reference, by identifiers: the same path
    ids = ring.ids()
    ref = R.joins([None] + [ids[0]] * (n - 1), "corrected")     # the spec's ring, built the same way
    ref.reading = reading                                         # then routed under the reading
    as_ids = lambda links: {(min(ids[a], ids[b]), max(ids[a], ids[b])) for a, b in links}    # noqa: E731
    got = ref.route_event(ids[s % n], ids[t % n], kind, as_ids(chosen), as_ids(chosen),
                          {(min(ids[a], ids[b]), max(ids[a], ids[b])): x for (a, b), x in w})
    assert got == ([ids[h] for h in route.path] if route.path else None)
    assert ref.links() == as_ids(normal)


def test_the_reference_routes_by_identifier_and_refuses_bad_events():
    ring = R.joins([None, 0, 0, 0, 0], "corrected")
    ids = ring.order()
    assert ring.route_event(ids[0], ids[2]) == [ids[0], ids[2]]
    with pytest.raises(R.RingError, match="is not a normal link"):
        ring.route_event(ids[0], ids[2], "express", express=[(ids[0], 12345)])
    with pytest.raises(R.RingError, match="an event is normal, express or secure"):
        ring.route_event(ids[0], ids[2], "urgent")
    with pytest.raises(R.UnknownBroker):
        ring.route_event(ids[0], 7)
    ring.fail([ids[1]])
    with pytest.raises(R.RingError, match="has failed"):
        ring.route_event(ids[1], ids[2])
    assert ids[1] not in {x for l in ring.links() for x in l}


def test_an_event_counterexample_replays_and_draws(tmp_path):
    from checks.algorithms import chordal_ring as D

    doc = D.event_document("special_event_delivered", "literal", "exhaustive", 5,
                           [[0, 1], [0, 2]], [[0, 1], [0, 2]], 0, 3, C.EXPRESS)
    replayed = D.replay(doc, say=lambda line: None)
    assert replayed.reproduced
    replayed.draw(str(tmp_path / "e.png"), "event")
    assert (tmp_path / "e.png").stat().st_size > 1000
    assert not D.replay({**doc, "reading": "corrected"}, say=lambda line: None).reproduced
    for bad, message in (({"event": "urgent"}, "event must be one of"), ({"to": 9}, "to must name a broker"),
                         ({"express": [[0, 9]]}, "express must be a list of links"),
                         ({"weights": [[0, 1]]}, "weights must be a list"), ({"brokers": 4}, "from 5 to 4096")):
        with pytest.raises(ValueError, match=message):
            D.check_document({**doc, **bad})
    with pytest.raises(ValueError, match="is not a normal link"):
        D.replay({**doc, "brokers": 8, "express": [[0, 5]]}, say=lambda line: None)


# -- what an independent mutation sample showed the tests missed --------------------------------

def test_a_join_on_the_smaller_side_and_an_identifier_rounded_up_are_told_apart():
    run = C.run_joins([None, 0, 0, 0, 0], C.CORRECTED)[-1]
    assert run.outcome == C.JOINED and C.joins_the_roomier_side(run)
    other = "right" if run.side == "left" else "left"
    assert not C.joins_the_roomier_side(attrs.evolve(run, side=other))          # planted: the smaller side
    # a midpoint rounded up (an odd gap) is mid-way too; one a third of the way is not
    ring = C.run_joins([None, 0], C.CORRECTED, bits=4)[-1].after                  # ids 0 and 3: gaps 3 and 13
    joined = C.join_overlay(ring, 0, C.CORRECTED)
    b = joined.new
    low = joined.after[joined.after[b].left].id
    whole = C.gap(low, joined.after[joined.after[b].right].id, 4)
    assert whole % 2 == 1
    for offset, midway in ((whole // 2, True), ((whole + 1) // 2, True), ((whole + 1) // 3, False)):
        brokers = list(joined.after.brokers)
        brokers[b] = attrs.evolve(brokers[b], id=(low + offset) % 16)
        assert C.new_id_midway(attrs.evolve(joined, after=C.Ring(4, tuple(brokers)))) is midway


def test_a_broker_with_an_unset_ring_pointer_leaves_the_join_dangling_in_spec_and_reference():
    ring = C.run_joins([None, 0, 0], C.CORRECTED)[-1].after
    brokers = list(ring.brokers)
    brokers[1] = attrs.evolve(brokers[1], left=None)                             # Left unset, Right set
    broken = C.Ring(ring.bits, tuple(brokers))
    assert C.process_join_request(broken, 1, C.CORRECTED) == ("dangling", None)
    run = C.join_overlay(broken, 1, C.CORRECTED)
    assert run.outcome == C.DANGLING and run.after == broken and run.forwards == 0 and run.visited == (1,)
    assert not C.every_join_inserts(run)
    ref = R.joins([None, 0, 0])
    ref.left[1] = R.UNSET
    with pytest.raises(R.JoinFailed, match="unset ring pointer") as failed:
        ref.join(ref.ids[1])
    assert failed.value.outcome == C.DANGLING
    with pytest.raises(C.UnknownBroker, match=r"the ring has brokers 0\.\.2$"):
        C.join_overlay(ring, 3, C.CORRECTED)


def test_a_ring_link_is_tested_with_messages_that_all_arrive_and_a_link_to_no_broker_is_refused():
    ring = ring_of(8)
    a = 0
    run = C.link_failure(ring, a, ring[a].right, C.LITERAL)
    assert run.kind == C.RING_LINK and [m.kind for m in run.messages] == ["test-neighbour", "test-acknowledgement",
                                                                          "reply", "up"]
    assert all(m.delivered for m in run.messages)
    for bad in (8, -1):
        with pytest.raises(C.UnknownBroker, match=f"no broker {bad}"):
            C.link_failure(ring, a, bad, C.LITERAL)


def test_every_reading_field_takes_its_values_and_refuses_others():
    for field, values in (("left_id", ("printed", "midpoint")), ("link_down", ("printed", "unless-queried")),
                          ("special_links", ("printed", "ring")), ("b_queries", ("if-first", "always"))):
        for value in values:
            assert getattr(attrs.evolve(C.CORRECTED, name="x", **{field: value}), field) == value
        with pytest.raises(ValueError, match=f"{field} must be one of"):
            attrs.evolve(C.CORRECTED, name="x", **{field: value.upper()})


def test_the_reference_counts_forwards_and_refuses_failing_every_broker():
    ring = R.Ring("corrected", bits=4)
    assert ring.join_random(16, seed=3) == [C.JOINED] * 16 and ring.forwards > 0
    before = ring.forwards
    assert ring.join_random(1, seed=3) == [C.REFUSED] and ring.forwards > before      # full: round once, refused
    small = R.joins([None, 0, 0])
    with pytest.raises(R.RingError, match="^at least one broker must stay up$"):
        small.fail(small.order())


def test_what_the_reference_s_seeded_joins_0_to_19_make_is_pinned():
    """Ring.join_random: 40 joins in 64 identifiers through seeded random brokers; the forwards and
    the first identifiers in ring order (every join inserts under the corrected reading)."""
    got = []
    for seed in range(20):
        ring = R.Ring("corrected", bits=6)
        assert ring.join_random(40, seed) == [C.JOINED] * 40
        got.append((ring.forwards, ring.order()[:4]))
    assert got == [(5, [0, 7, 10, 11]), (19, [0, 1, 2, 3]), (47, [0, 3, 5, 7]), (33, [0, 3, 4, 5]), (5, [0, 1, 2, 3]),
                   (2, [0, 1, 3, 7]), (10, [0, 1, 2, 3]), (2, [0, 1, 3, 5]), (14, [0, 3, 4, 5]), (123, [0, 1, 2, 3]),
                   (23, [0, 1, 3, 5]), (32, [0, 1, 2, 3]), (5, [0, 3, 5, 7]), (9, [0, 1, 2, 3]), (34, [0, 1, 2, 3]),
                   (3, [0, 1, 3, 5]), (8, [0, 1, 2, 3]), (36, [0, 1, 3, 5]), (66, [0, 1, 2, 3]), (7, [0, 3, 5, 7])]


def test_random_joins_fill_the_space_exactly_under_the_corrected_join_and_not_as_printed():
    from checks.algorithms.chordal_ring import measure

    full = measure.filling("corrected", 4)
    assert full == {"joined": {"min": 16, "mean": 16, "max": 16}, "distinct_ids_min": 16,
                    "ends": {C.REFUSED: measure.FILL_ORDERS}}
    twice = measure.filling("printed-left-id", 4)
    assert twice["joined"]["max"] == 17 and twice["distinct_ids_min"] < 17 and not twice["ends"]
    assert measure.filling("forwards-when-full", 2)["ends"] == {C.NEVER_ENDS: measure.FILL_ORDERS}
    rep = {"filling": {"corrected": {str(b): (full if b == 4 else measure.filling("corrected", b))
                                     for b in measure.FILL_BITS}}}
    assert "| `corrected` | 4 / 4 / 4 (refused 200) | 16 / 16 / 16 (refused 200) |" in measure.filling_table(rep)


def test_the_third_degree_ring_is_as_printed_and_survives_two_failures_not_three():
    import networkx as nx

    links = C.third_degree_links(8, 3)
    assert links[0] == {1, 7, 5} and links[5] == {4, 6, 0} and {len(v) for v in links.values()} == {3}
    assert C.third_degree_links(6, 3)[0] == {1, 5, 3}
    g = nx.Graph([(a, b) for a, v in links.items() for b in v])
    assert nx.node_connectivity(g) == 3
    for bad_n, bad_c, message in ((7, 3, "even number of nodes"), (2, 1, "at least 4"), (8, 2, "odd integer"),
                                  (8, True, "odd integer")):
        with pytest.raises(ValueError, match=message):
            C.third_degree_links(bad_n, bad_c)
    from checks.algorithms.chordal_ring import measure

    row = measure.compared(8)
    assert row["third_degree"]["3"] == {"degree": 3, "connectivity": 3, "diameter": 3}
    assert row["degree_4"] == {"degree": 4, "connectivity": 4, "diameter": 2}


# -- joins after failures ------------------------------------------------------------------------

def churn_ops(draws):
    """Operations from hypothesis draws: a join through the k-th live broker, or a failure of the
    k-th live broker once 5 or more are live (leaving at least 4)."""
    return [("fail" if fail else "join", k) for fail, k in draws]


@settings(max_examples=80, deadline=None)
@given(st.sampled_from(["corrected", "literal", "no-splice", "printed-pointers", "literal/both-tell"]),
       st.lists(st.tuples(st.booleans(), st.integers(0, 50)), max_size=25))
def test_the_reference_joins_after_failures_as_the_spec_does(name, draws):
    reading = C.READINGS[name]
    ring, ref = C.join_overlay(C.empty(), None, reading).after, R.Ring(name)
    ref.join(None)
    for op, k in churn_ops(draws):
        live = ring.live()
        pick = live[k % len(live)]
        if op == "fail":
            if len(live) < 5:
                continue
            run = C.node_failure(ring, [pick], reading)
            got = ref.fail([ref.ids[pick]])
            assert [(ring[h.failed].id, h.outcome) for h in run.handlings] == [(i, o) for i, o, _ in got]
            assert [len(h.messages) for h in run.handlings] == [m for _, _, m in got]
            ring = run.after
            continue
        run = C.join_overlay(ring, pick, reading)
        try:
            new = ref.join_through(pick)
            assert run.outcome == C.JOINED and new == run.after[run.new].id
        except R.JoinFailed as failed:
            assert failed.outcome == run.outcome
            break
        ring = run.after
        for h in ring.live():
            want = tuple(None if p is None else ring[p].id for p in ring[h].pointers())
            assert tuple(ref._id(getattr(ref, f)[h]) for f in C.POINTERS) == want
    assert set(ref.failed) == set(ring.failed)
    assert [ring[h].id for h in C.order(ring)] == ref.order()


def test_a_single_failure_spliced_keeps_later_joins_right_and_the_printed_handling_does_not():
    ring = ring_of(6)
    for name, agree in (("corrected", True), ("no-splice", False)):
        reading = C.READINGS[name]
        after = C.node_failure(ring, [0], reading).after
        assert after.failed == {0} and 0 not in C.in_id_order(after) and len(after.live()) == 5
        run = C.join_overlay(after, after.live()[0], reading)
        assert run.outcome == C.JOINED and run.after.failed == {0}
        assert C.pointers_agree(run.after) is agree and C.ids_unique_in_ring_order(run.after) is agree
    with pytest.raises(C.UnknownBroker, match="has failed: a new broker pings live ones only"):
        C.join_overlay(C.node_failure(ring, [2], C.CORRECTED).after, 2, C.CORRECTED)
    with pytest.raises(ValueError, match="broker 2 has already failed"):
        C.node_failure(C.node_failure(ring, [2], C.CORRECTED).after, [2], C.CORRECTED)
    # the printed handling leaves Rightright naming the failed broker: a request sent there is lost
    # (a full space of 4 identifiers: broker 0 has no room and forwards to its Rightright, failed)
    full = C.run_joins([None, 0, 0, 0], C.CORRECTED, bits=2)[-1].after
    stale = C.node_failure(full, [full[0].rightright], C.READINGS["no-splice"]).after
    lost = C.join_overlay(stale, 0, C.READINGS["no-splice"])
    assert lost.outcome == C.LOST and lost.after == stale
    ref = R.joins([None, 0, 0, 0, 0, 0], "no-splice")
    ref.fail([0])
    with pytest.raises(R.RingError, match="has failed: a new broker pings live ones only"):
        ref.join(0)


def test_a_churn_counterexample_replays_and_draws(tmp_path):
    from checks.algorithms import chordal_ring as D

    doc = D.churn_document("pointers_agree", "no-splice", "exhaustive", 32,
                           [["join", None], ["join", 0], ["join", 0], ["join", 0], ["join", 0], ["fail", 0],
                            ["join", 1]])
    replayed = D.replay(doc, say=lambda line: None)
    assert replayed.reproduced
    replayed.draw(str(tmp_path / "c.png"), "churn")
    assert not D.replay({**doc, "reading": "corrected"}, say=lambda line: None).reproduced
    for bad in ([["join", 0]], [["join", None], ["leave", 1]], [["join", None], ["join", True]], []):
        with pytest.raises(ValueError, match="operations must be a list"):
            D.check_document({**doc, "operations": bad})
    with pytest.raises(ValueError, match="ends with a join"):
        D.replay({**doc, "operations": doc["operations"][:-1]}, say=lambda line: None)
    with pytest.raises(C.UnknownBroker, match="has failed"):
        D.replay({**doc, "operations": doc["operations"][:-1] + [["join", 0]]}, say=lambda line: None)


def test_what_a_second_mutation_sample_showed_missed():
    # the reference: an event whose kind has no link at its source; the links an event may take,
    # an unset pointer adding none; the dangling Rightright's message; both-tell's messages; the
    # second broker's pointers
    ring = R.joins([None, 0, 0, 0, 0, 0, 0, 0], "printed-special-links")
    ids = ring.order()
    assert ring.route_event(ids[0], ids[4], "express") is None and ring.links_for("express") == set()
    ring = R.joins([None, 0, 0, 0, 0, 0, 0, 0])
    assert ring.links_for("express") == {(min(ids[i], ids[(i + k) % 8]), max(ids[i], ids[(i + k) % 8]))
                                          for i in range(8) for k in (1, 2)}
    ring.leftleft[0] = R.UNSET                            # as the printed pointer lines can leave it
    assert all(ring.ids[0] not in pair or pair in ring.links() for pair in ring.links_for("secure"))
    assert len(ring.links_for("secure")) == 15
    assert R.joins([None, 0]).pointers(0) == (65535, 65535, 0, 0)
    full = R.Ring("corrected", bits=2)
    full.join_random(4, seed=0)
    full.rightright[0] = R.UNSET
    with pytest.raises(R.JoinFailed, match="sent along an unset Rightright pointer"):
        full.join(full.ids[0])
    split, both = R.joins([None, 0, 0, 0, 0, 0, 0, 0]), R.joins([None, 0, 0, 0, 0, 0, 0, 0])
    both.reading = C.READINGS["literal/both-tell"]            # the same ring, both A and C telling
    b = split.order()[3]
    (_, _, once), = split.fail([b])
    (_, _, twice), = both.fail([b])
    assert twice - 3 == 2 * (once - 3) > 0
    # the spec: a ring whose pointers agree broker by broker but make two rings; the second
    # join's brokers written; the roomier side judged on either side; a ring link's "up" from C
    two = C.Ring(32, (C.Broker(0, 1, 1, 0, 0), C.Broker(1, 0, 0, 1, 1), C.Broker(2, 3, 3, 2, 2), C.Broker(3, 2, 2, 3, 3)))
    assert not C.pointers_agree(two)
    assert C.EXPLAIN["pointers_agree"](two) == "Right does not go round every broker once."
    assert C.run_joins([None, 0], C.CORRECTED)[1].written == {0, 1}
    runs = C.run_joins([None, 0, 0, 1, 2, 0, 3], C.CORRECTED)
    for side in ("left", "right"):
        run = next(r for r in runs if r.side == side)
        assert C.joins_the_roomier_side(run)
        assert not C.joins_the_roomier_side(attrs.evolve(run, side="right" if side == "left" else "left"))
    eight = ring_of(8)
    link = C.link_failure(eight, 0, eight[0].right, C.LITERAL)
    c = eight[0].rightright
    assert [(m.sender, m.to) for m in link.messages] == [(0, c), (c, eight[0].right), (eight[0].right, c), (c, 0)]
    assert C.listed([(1, 2), (0, 3)]) == "are 0-3, 1-2" and C.listed([]) == "are none"
    assert C.listed([(0, k) for k in range(1, 15)], shown=2) == "are 0-1, 0-2 and 12 more"


def test_every_order_of_the_handlings_steps_gives_the_same_outcome_and_bad_schedules_are_refused():
    ring = ring_of(9)
    assert len(list(C.schedules([1, 3]))) == 6 and len(list(C.schedules([1, 3, 5]))) == 90
    assert all(sorted(s) == [1, 1, 3, 3] and s.index(1) < 3 for s in C.schedules([1, 3]))
    for failed in ([1, 3], [2, 4, 6], [0, 2, 3]):
        for name in ("corrected", "literal", "literal/both-tell"):
            runs = {(r.handlings, r.after) for r in (C.node_failure(ring, failed, C.READINGS[name], schedule=s)
                                                     for s in C.schedules(failed))}
            assert len(runs) == 1
    run = C.node_failure(ring, [1, 3], C.CORRECTED, schedule=(3, 1, 1, 3))
    assert run.schedule == (3, 1, 1, 3) and [h.outcome for h in run.handlings] == [C.CONFIRMED] * 2
    for bad in ((1, 3, 3), (1, 1, 3, 3, 3), (1, 1, 2, 2)):
        with pytest.raises(ValueError, match="a schedule names each failed broker twice"):
            C.node_failure(ring, [1, 3], C.CORRECTED, schedule=bad)
    from checks.algorithms import chordal_ring as D

    doc = D.failure_document("pointers_agree_after_failures", "literal", "exhaustive", 9, [1, 3], "doubling",
                             (3, 1, 1, 3))
    assert doc["schedule"] == [3, 1, 1, 3] and D.replay(doc, say=lambda line: None).reproduced
    assert "schedule" not in D.failure_document("x", "literal", "exhaustive", 9, [1, 3], "doubling", (1, 1, 3, 3))
    with pytest.raises(ValueError, match="schedule must name each failed broker twice"):
        D.check_document({**doc, "schedule": [1, 3]})


def test_one_failure_handled_as_printed_leaves_the_ring_broken_and_the_splice_mends_it():
    ring = ring_of(7)
    printed = C.node_failure(ring, [3], C.LITERAL)
    assert not C.one_failure_keeps_the_ring(printed) and C.fails_one_broker(printed)
    assert "do not agree" in C.EXPLAIN["one_failure_keeps_the_ring"](printed)
    spliced = C.node_failure(ring, [3], C.CORRECTED)
    assert C.one_failure_keeps_the_ring(spliced)
    two = C.node_failure(ring, [3, 4], C.LITERAL)
    assert C.one_failure_keeps_the_ring(two) and not C.pointers_agree_after_failures(two)   # several: not its claim


def test_what_a_third_mutation_sample_showed_missed():
    second = C.run_joins([None, 0], C.CORRECTED)[1]
    assert second.contact == 0 and second.side == "second"
    ring = ring_of(6)
    with pytest.raises(C.UnknownBroker, match=r"no broker 6; the ring has brokers 0\.\.5$"):
        C.link_failure(ring, 6, 0, C.LITERAL)
    run = C.node_failure(ring, [2], C.CORRECTED)
    (handled,) = run.handlings
    assert [(m.kind, m.sender, m.to) for m in handled.messages[:3]] == [
        ("test-neighbour", handled.a, handled.c), ("test-acknowledgement", handled.c, 2), ("failed", handled.c, handled.a)]
    assert set(C.third_degree_links(4, 1)[0]) == {1, 3} and set(C.third_degree_links(4, 3)[0]) == {1, 3}
    eight = ring_of(8)
    three_apart = C.link(C.in_id_order(eight)[0], C.in_id_order(eight)[3])
    with pytest.raises(ValueError, match=r"secure link .* \(sec\. 3\.3: Es is a subset of En\)"):
        C.Multigraph(eight, secure=frozenset({three_apart}))
    five = ring_of(5)
    o = C.in_id_order(five)
    direct = C.link(o[0], o[1])
    graph = C.Multigraph(five, weights=((direct, 3),))             # the direct link dear, the others 1 each
    assert len(C.route_event(graph, o[0], o[1], C.NORMAL, C.CORRECTED).path) == 3
    assert len(C.route_event(C.Multigraph(five, weights=((direct, 2),)), o[0], o[1], C.NORMAL, C.CORRECTED).path) == 2


def test_the_best_case_and_the_nine_tuple_are_computed_not_asserted(monkeypatch):
    from checks.algorithms.chordal_ring import inventory as I

    verdict, evidence = I.best_case()
    assert verdict == "holds" and "took 62 requests with no forward, writing 3 or 4 brokers' pointers" in evidence
    join = C.join_overlay
    monkeypatch.setattr(C, "join_overlay", lambda ring, contact, reading: attrs.evolve(
        join(ring, contact, reading), forwards=1))
    assert I.best_case()[0] == "violated"
    assert I.nine_tuple()[0] == "holds"
    monkeypatch.setattr(I, "BROKER_FIELDS", I.BROKER_FIELDS[:-1])
    assert I.nine_tuple()[0] == "violated"


def test_the_degree_3_ring_survives_any_two_failures_at_every_size(monkeypatch):
    from checks.algorithms.chordal_ring import proofs as P

    assert P.third_degree_lemma() == "proved"
    assert P.third_degree_lemma(lowest_c=1).startswith("fails at c = 1")     # negative control: degree 2
    assert P.cross_check_third_degree(range(6, 11, 2)) == 6 * 3 + 8 * 4 + 10 * 5
    real = P.chord_partner
    monkeypatch.setattr(P, "chord_partner", lambda n, c, v: real(n, c + 2, v))
    with pytest.raises(ValueError, match="the encoded chord differs from the spec's at n = 6, c = 1"):
        P.cross_check_third_degree(range(6, 11, 2))


# -- what an independent mutation sample (seed 4) showed untested ------------------------------

def test_failure_runs_keep_their_fields_and_name_their_errors(monkeypatch):
    ring = twelve()
    a = 0
    me = ring[a]
    chord = sorted(C.neighsets(ring)[a] - set(me.pointers()))[0]
    ring_link = C.link_failure(ring, a, me.right, C.LITERAL)
    assert (ring_link.a, ring_link.b, ring_link.rule) == (a, me.right, "doubling")
    failed = C.link_failure(ring, a, chord, C.LITERAL, b_failed=True)
    assert (failed.b, failed.rule) == (chord, "doubling")
    with pytest.raises(ValueError, match=f"brokers {a} and {chord} have no link between them"):
        C.link_failure(ring, a, chord, C.LITERAL, rule="none")                # no chords: no such link
    gone = C.node_failure(ring, {chord}, C.CORRECTED).after
    with pytest.raises(ValueError, match=r"a link failure is between live brokers \(b_failed fails B"):
        C.link_failure(gone, a, chord, C.LITERAL)
    # a query that stops on the way (here made to go round) keeps its path and says why
    monkeypatch.setattr(C, "_route", lambda ring, links, source, to, nearest: ((source, 4, source), C.LOOPS))
    looped = C.link_failure(ring, a, chord, C.LITERAL)
    assert (looped.path, looped.outcome) == ((a, 4, a), C.LOOPS) and not C.link_failure_concluded(looped)
    # B failed, and its node failure's divide-Neighbour does not reach A: A hears nothing at all
    monkeypatch.undo()
    handled = C.node_failure
    monkeypatch.setattr(C, "node_failure", lambda *args, **kw: attrs.evolve(
        handled(*args, **kw), handlings=tuple(attrs.evolve(h, messages=h.messages[:3])
                                               for h in handled(*args, **kw).handlings)))
    silent = C.link_failure(ring, a, chord, C.LITERAL, b_failed=True)
    assert silent.outcome == C.SILENCE and not C.waiting_a_gets_a_new_route(silent)


def test_divide_neighbour_counts_only_messages_delivered():
    ring = twelve()
    run = C.node_failure(ring, {3}, C.CORRECTED)
    (h,) = run.handlings
    assert C.EXPLAIN["tasks_taken_over"](run) == "Every failed broker's tasks were taken."
    lost = attrs.evolve(h, messages=tuple(attrs.evolve(m, delivered=False) if m.kind == "divide-neighbour" else m
                                          for m in h.messages))
    assert not C.b_neighbours_told(attrs.evolve(run, handlings=(lost,)))


def test_the_rings_bench_figures_take_keys_of_their_own(monkeypatch):
    from checks.algorithms.chordal_ring import bench

    for helper in ("reference_figures", "z3_figures", "exhaustive_figures"):
        monkeypatch.setattr(bench, helper, dict)
    assert sorted(bench.figures()) == ["chordal_ring_exhaustive", "chordal_ring_reference", "chordal_ring_z3"]


def test_the_reference_fails_links_as_the_spec_does_on_every_reading():
    from checks.algorithms.chordal_ring import LINK_READINGS

    for n in (8, 12):
        spec_ring = C.run_joins([None] + [0] * (n - 1), C.CORRECTED)[-1].after
        ids = spec_ring.ids()
        links = C.neighsets(spec_ring)
        for name in LINK_READINGS:
            reading = C.READINGS[name]
            for a in range(n):
                me = spec_ring[a]
                ring_links = me.pointers()
                for b in sorted(links[a]):
                    variants = ((False, False), (True, False), (False, True)) if b not in ring_links else ((False, False),)
                    for queried, failed in variants:
                        run = C.link_failure(spec_ring, a, b, reading, b_queried=queried, b_failed=failed)
                        ref = R.joins([None] + [0] * (n - 1), "corrected")
                        ref.reading = reading                              # built as the spec's, then failed under it
                        got = ref.fail_link(ids[a], ids[b], b_queried=queried, b_failed=failed)
                        assert got == (run.kind, run.outcome, [ids[h] for h in run.path]), (n, name, a, b, queried, failed)
    ref = R.joins([None] + [0] * 11, "literal")
    with pytest.raises(R.RingError, match="have no link between them"):
        ref.fail_link(0, next(i for i in ref.order() if i not in {x for l in ref.links() for x in l if 0 in l}))
    with pytest.raises(R.RingError, match="node failure"):
        ref.fail_link(0, ref.pointers(0)[1], b_failed=True)
    ref.fail([ref.pointers(0)[1]])
    with pytest.raises(R.RingError, match="has already failed"):
        ref.fail_link(0, ref.pointers(0)[1])


def test_explanations_and_messages_say_exactly_what_happened():
    """What a counterexample's explanation and a run's messages say, word for word and field for
    field (the mutation sample found tests that only looked for a phrase or a kind)."""
    printed = C.run_joins([None, 0, 0], C.READINGS["printed-pointers"])[-1]
    assert C.EXPLAIN["pointers_agree"](printed.after) == \
        "Rightright(broker 0) is broker 0, Right(Right) broker 2; Leftleft of broker 2 unset."
    left_id = C.run_joins([None, 0, 0, 0, 0], C.READINGS["printed-left-id"])[-1].after
    assert C.EXPLAIN["ids_unique_in_ring_order"](left_id) == (
        "Following Right: 0 -> 65535 -> 2147450880 -> 1073758208 -> 1610604544, not in increasing order round the ring.")
    ring = twelve()
    # three failures: under 'neighbour' broker 0's tasks are handed on, 2's and 3's are not (each listed)
    three = C.node_failure(ring, {0, 2, 3}, C.CORRECTED)
    assert [C.handed_on(t, three) for t in C.share_tasks(three, "neighbour")] == [True, False, False]
    said = C.EXPLAIN["tasks_taken_over_several"](three)
    assert said.count("under 'neighbour'") == 2 and "under 'neighbour' no live broker took broker 3's tasks" in said
    # a chord's failure: who sends what to whom, every message arriving
    chord = C.link_failure(ring, 0, 4, C.CORRECTED)          # the chord 0-4, the query relayed by 8
    assert [(m.kind, m.sender, m.to, m.delivered) for m in chord.messages] == [
        ("query", 0, 8, True), ("query", 8, 4, True), ("link-down", 4, 8, True), ("link-down", 8, 0, True)]
    both = C.link_failure(ring, 0, 4, C.LITERAL, b_queried=True)
    assert [(m.kind, m.sender, m.to) for m in both.messages][-2:] == [("link-down", 4, 8), ("link-down", 8, 0)]
    # the readings a part's checks keep: the key two and one more per other way of resolving its fields
    assert C.telling_apart(C.PART_FIELDS["failure"]) == ("literal", "corrected", "literal/both-tell")
    assert C.PART_READINGS["link"] == ("literal", "corrected", "literal/round-nearest", "literal/b-always-queries")
