"""Runs resume: a validation interrupted after some segments keeps them, says so in one line,
and the same command then gives a summary identical to an uninterrupted run."""

import pytest

from spark_validation.runner import Interrupted, finished_segments, validate
from tokenring.job import TokenRingJob

pytestmark = pytest.mark.spark
JOB = TokenRingJob()


def aggregated(summary):
    return {k: summary[k] for k in ("cases", "checks", "witnesses", "metrics")}


def test_an_interrupted_validation_resumes_to_the_uninterrupted_result(spark, tmp_path):
    whole = validate(JOB, 900, tmp_path / "whole", spark=spark, segment=300)

    def stop_after_the_second_segment(done, total):
        if done >= 600:
            raise KeyboardInterrupt

    with pytest.raises(Interrupted, match="2 finished segment"):
        validate(JOB, 900, tmp_path / "cut", spark=spark, segment=300, progress=stop_after_the_second_segment)
    assert sorted(finished_segments(tmp_path / "cut", 900).items()) == [(0, 300), (300, 600)]
    resumed = validate(JOB, 900, tmp_path / "cut", spark=spark, segment=300)
    assert (resumed.segments_reused, resumed.segments_run) == (2, 1)
    assert aggregated(resumed.summary) == aggregated(whole.summary)


def test_segments_of_another_size_are_reused_and_the_summary_does_not_depend_on_them(spark, tmp_path):
    first = validate(JOB, 400, tmp_path, spark=spark, segment=150)     # 0-150, 150-300, 300-400
    longer = validate(JOB, 700, tmp_path, spark=spark, segment=250)    # reuses all three, then 400-650, 650-700
    assert (longer.segments_reused, longer.segments_run) == (3, 2)
    fresh = validate(JOB, 700, tmp_path / "fresh", spark=spark)       # adaptive segments
    assert aggregated(longer.summary) == aggregated(fresh.summary)
    assert first.summary["cases"] == 400
