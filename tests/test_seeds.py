"""What a seed generates is pinned: the committed million-instance reports, resumed runs and "the
same seed gives the same instance everywhere" rest on it. For every algorithm's Spark job, the
rows that seeds 0..19 give (size, every check and witness, every integer metric: a change to an
instance shows in them) and the shared generators' first draws are compared with stored values.

A deliberate change to a generator regenerates the pins with
    PUBSUB_PROOFS_REPIN=1 .venv/bin/python -m pytest tests/test_seeds.py
and the committed validation reports must then be rerun."""

import json
import os
from pathlib import Path

import numpy as np
import pytest

import tokenring
from checks import plugin
from reference import generators as G

PINS = Path(__file__).with_name("data") / "seed_pins.json"
SEEDS = np.arange(20)
JOBS = {**{name: a for name, a in plugin.algorithms().items() if a.spark is not None},
        "tokenring": tokenring.ALGORITHM}


def job_rows(name: str) -> dict:
    batch = JOBS[name].spark.job().evaluate(SEEDS)
    return {column: [int(v) for v in batch.column(column).to_pylist()] for column in batch.schema.names}


def generator_draws() -> dict:
    rng = G.rng_for("pin", 7)
    return {"rng_for": [int(v) for v in G.rng_for("pin", 7).integers(0, 2 ** 32, size=5)],
            "log_uniform_int": [G.log_uniform_int(rng, 1, 1000) for _ in range(5)],
            "distinct_uint32": [int(v) for v in G.distinct_uint32(G.rng_for("pin", 8), 5)],
            "dotted": G.dotted(np.array([0, 167772161, 4294967295], dtype=np.uint64))}


def current() -> dict:
    return {"generators": generator_draws(), **{name: job_rows(name) for name in sorted(JOBS)}}


def pinned() -> dict:
    if os.environ.get("PUBSUB_PROOFS_REPIN"):
        PINS.write_text(json.dumps(current(), indent=0, sort_keys=True) + "\n")
    return json.loads(PINS.read_text())


def test_the_shared_generators_give_the_pinned_draws():
    assert generator_draws() == pinned()["generators"]


@pytest.mark.parametrize("name", sorted(JOBS))
def test_each_jobs_seeds_give_the_pinned_instances(name):
    assert job_rows(name) == pinned()[name]
