"""The IRBR Spark job: the spec's predicates on random workloads replayed on the reference, the same
answer on Spark as in a plain loop for any partitioning, the verdicts exhaustive search found, and
shrunk counterexamples that replay on the spec."""

import functools

import numpy as np
import pytest

from checks.algorithms import irbr as C
from reference import irbr as R
from spark_validation.irbr import IrbrJob
from spark_validation.runner import evaluate_locally, summarize, validate

JOB = IrbrJob()


@functools.cache
def local_summary():
    return summarize(evaluate_locally(JOB, np.arange(1500)), JOB)


@pytest.mark.spark
def test_spark_agrees_with_the_single_process_loop_for_any_partitioning(spark, tmp_path):
    expected = summarize(evaluate_locally(JOB, np.arange(200)), JOB)
    for partitions, segment in ((1, 200), (3, 70)):
        info = validate(JOB, 200, tmp_path / f"p{partitions}", spark=spark, partitions=partitions, segment=segment)
        assert {k: info.summary[k] for k in expected} == expected


def test_the_verdicts_match_exhaustive_search_and_every_witness_is_reached():
    s = local_summary()
    violated = {c for c, o in s["checks"].items() if o["violations"]}
    assert violated == {"covering-ordered/stale/smallest/resubscribe-uncovered:"
                        "every_interested_subscriber_notified_exactly_once",
                        "covering-ordered/stale/smallest/resubscribe-uncovered:delegation_reaches_every_live_node_once",
                        "covering-ordered/repaired/smallest/remove-only:every_interested_subscriber_notified_exactly_once"}
    assert all(s["witnesses"].values())
    assert s["metrics"]["joins"]["sum"] and s["metrics"]["failures"]["sum"]


def test_workloads_are_a_pure_function_of_the_seed_and_stay_in_bounds():
    assert R.random_workload(99) == R.random_workload(99)
    sizes = []
    for seed in range(400):
        w = R.random_workload(seed)
        sizes.append(len(w.ids))
        assert w.k in (2, 4, 16) and len(set(w.ids)) == len(w.ids) and 2 <= len(w.ids) <= 3000
        assert all(len(x) == w.L for x in w.ids) and w.operations[-1][0] == "publish"
        assert 1 <= len(w.operations) <= 16  # 4..16 draws; a draw that finds nothing to do is skipped
    assert max(sizes) <= 64 < max(len(R.random_workload(s, large_every=1).ids) for s in range(20))


@pytest.mark.parametrize("column", ["covering-ordered/stale/smallest/resubscribe-uncovered:"
                                    "every_interested_subscriber_notified_exactly_once",
                                    "covering-ordered/repaired/smallest/remove-only:"
                                    "every_interested_subscriber_notified_exactly_once"])
def test_a_spark_counterexample_is_shrunk_and_replays_on_the_spec(column):
    s = local_summary()
    doc = C.ALGORITHM.spark.document(JOB, column, s["checks"][column]["first"]["seed"])
    assert doc["method"] == "spark" and doc["property"] == column.split(":")[1]
    lines = []
    assert C.ALGORITHM.replay(doc, lines.append).reproduced and "VIOLATED" in lines[-1]
    assert len(doc["operations"]) <= 4 and len(doc["live"]) <= 3


def test_bad_job_parameters_are_refused():
    with pytest.raises(ValueError, match="unknown IRBR reading"):
        IrbrJob(readings=("nosuch",))
    with pytest.raises(ValueError, match="at least 2"):
        IrbrJob(max_nodes=1)
    with pytest.raises(ValueError, match="at least 2"):
        R.random_workload(0, max_operations=1)
