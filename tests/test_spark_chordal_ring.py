"""The chordal ring's Spark job, in one process: what its seeds generate, the spec and the reference
held to each other on every sequence, its verdicts where exhaustive search knows the answer, its
shrunk counterexamples replayed, and bad configurations refused."""

import numpy as np
import pytest

from checks import plugin
from checks.algorithms import chordal_ring as D
from reference import chordal_ring as R
from spark_validation.chordal_ring import ChordalRingJob, checkpoint
from spark_validation.runner import evaluate_locally, summarize
from spec import chordal_ring as C

JOB = ChordalRingJob(max_joins=60)


def test_what_seeds_0_to_19_generate_is_pinned():
    job = ChordalRingJob()
    got = [(i.bits, len(i.draws) + 1, i.failures, i.chords, i.backups, i.b_queried,
            len(job.joins(i, "corrected")[-1].after)) for i in map(job.instance, range(20))]
    assert got == PINNED


PINNED = [
    (6, 399, 2, 'none', 1, True, 64), (32, 2, 2, 'doubling', 1, True, 2), (32, 43, 2, 'none', 4, False, 43),
    (32, 17, 1, 'doubling', 4, False, 17), (32, 318, 3, 'none', 3, True, 318), (32, 556, 1, 'doubling', 4, False, 556),
    (32, 10, 1, 'doubling', 2, False, 10), (32, 263, 3, 'doubling', 3, True, 263), (2, 162, 3, 'doubling', 4, True, 4),
    (32, 33, 1, 'doubling', 1, True, 33), (32, 445, 3, 'doubling', 4, False, 445), (32, 5, 2, 'none', 2, False, 5),
    (32, 13, 2, 'doubling', 4, True, 13), (32, 4, 1, 'doubling', 1, False, 4), (32, 869, 1, 'none', 4, True, 869),
    (32, 73, 2, 'doubling', 4, True, 73), (4, 24, 1, 'doubling', 4, True, 16), (32, 395, 2, 'doubling', 1, True, 395),
    (32, 129, 1, 'doubling', 2, True, 129), (32, 26, 1, 'doubling', 3, True, 26),
]


def test_the_same_seeds_give_the_same_table_in_any_batching():
    seeds = np.arange(40)
    whole = evaluate_locally(JOB, seeds, batch=40)
    assert whole.equals(evaluate_locally(JOB, seeds, batch=7))
    assert summarize(whole, JOB) == summarize(evaluate_locally(JOB, seeds[::-1].copy(), batch=13), JOB)


def test_the_verdicts_are_exhaustive_searchs_where_both_judge():
    """400 sequences: every claim exhaustive search finds violated under the corrected or the literal
    reading and this sampler reaches is violated here too, and the corrected join's claims hold."""
    summary = summarize(evaluate_locally(JOB, np.arange(400)), JOB)
    broken = {c for c, o in summary["checks"].items() if o["violations"]}
    for name in ("pointers_agree", "ids_unique_in_ring_order", "new_id_midway", "contacted_broker_with_room_inserts",
                 "join_ends", "every_join_inserts", "link_failure_concluded"):
        assert f"literal:{name}" in broken and f"corrected:{name}" not in broken
    for name in ("close_failures_confirmed", "pointers_agree_after_failures", "join_updates_four_nodes"):
        assert f"corrected:{name}" in broken
    for name in ("node_failure_confirmed", "failure_messages_within_degree", "data_survives", "b_concludes_link_down"):
        assert f"corrected:{name}" not in broken and summary["witnesses"][f"corrected:{name}:witness"]
    assert summary["metrics"]["refused"]["sum"] > 0          # small spaces fill
    assert summary["metrics"]["chord"]["sum"] > 0 and summary["metrics"]["confirmed"]["sum"] > 0


def test_a_reference_that_strays_from_the_spec_is_an_error_not_a_verdict(monkeypatch):
    real = R.Ring._join

    def off_by_one(self, y, side, new_id):
        return real(self, y, side, new_id + 1)

    monkeypatch.setattr(R.Ring, "_join", off_by_one)
    with pytest.raises(ValueError, match="the reference gave"):
        JOB.evaluate(np.arange(3))


@pytest.mark.parametrize("column, seed", [("literal:pointers_agree", 146), ("corrected:close_failures_confirmed", 11),
                                          ("literal:link_failure_concluded", 430),
                                          ("corrected:join_updates_four_nodes", 11),
                                          ("corrected:data_survives_several", 126)])
def test_a_failing_sequence_shrinks_to_a_document_that_replays(column, seed):
    job = ChordalRingJob()
    doc = D.ALGORITHM.spark.document(job, column, seed)
    assert doc["method"] == "spark" and doc["seed"] == seed and doc["reading"] == column.split(":")[0]
    replayed = D.replay(doc, say=lambda line: None)
    assert replayed.reproduced and replayed.draw is not None
    if doc["kind"] == "joins":      # one join fewer and the claim holds: the shrink kept only what it needs
        assert not D.replay({**doc, "contacts": doc["contacts"][:-1]}, say=lambda line: None).reproduced \
            if len(doc["contacts"]) > 1 else True
    if doc["kind"] == "failure":
        assert len(doc["failed"]) <= 2 and "contacts" in doc


def test_a_seed_that_holds_has_nothing_to_shrink():
    with pytest.raises(ValueError, match="nothing to shrink"):
        ChordalRingJob().counterexample("corrected:pointers_agree", 1)


def test_a_document_whose_contacts_do_not_make_its_ring_is_refused():
    doc = ChordalRingJob().counterexample("corrected:close_failures_confirmed", 11)
    with pytest.raises(ValueError, match="make a ring of 5 brokers, not the 6"):
        D.replay({**doc, "brokers": 6}, say=lambda line: None)
    with pytest.raises(ValueError, match="backups must be 1 to 4"):
        D.check_document({**doc, "backups": 7})
    with pytest.raises(ValueError, match="contacts must be a list"):
        D.check_document({**doc, "contacts": [None, 3]})


def test_the_whole_ring_claims_are_judged_densely_then_at_powers_of_two_and_the_last():
    assert [s for s in range(1, 300) if checkpoint(s, False, 64)] == list(range(1, 65)) + [128, 256]
    assert checkpoint(100, True, 64) and not checkpoint(100, False, 64)


def test_the_job_a_summary_names_is_the_job_that_made_it_and_bad_configurations_are_refused():
    declared = plugin.algorithm("chordal_ring").spark
    assert declared.job() == ChordalRingJob() and declared.from_config(JOB.config()) == JOB
    assert declared.instances["validate"] == 1_000_000
    for bad in ({"max_joins": 1}, {"small_every": 0}, {"dense": True}, {"max_failures": "3"}):
        with pytest.raises(ValueError):
            ChordalRingJob(**bad)
    with pytest.raises(ValueError, match="unknown CHORDAL_RING reading"):
        ChordalRingJob(readings=("literally",))

