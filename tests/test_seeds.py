"""What a seed generates is pinned: the committed million-instance reports, resumed runs and "the
same seed gives the same instance everywhere" rest on it. For every algorithm's Spark job, the
rows that seeds 0..19 give (size, every check and witness, every integer metric: a change to an
instance shows in them) and the shared generators' first draws are compared with stored values.

Each algorithm's pins are its own file, tests/data/seed_pins/<algorithm>.json (a new algorithm's job
is pinned by being declared: its file is written the first time the test runs, and a missing file
fails the run until it is committed). A deliberate change to a generator regenerates the pins with
    PUBSUB_PROOFS_REPIN=1 .venv/bin/python -m pytest tests/test_seeds.py
and the committed validation reports must then be rerun."""

import json
import os
from pathlib import Path

import numpy as np
import pytest

import discovered
from reference import generators as G

PINS = Path(__file__).with_name("data") / "seed_pins"
SEEDS = np.arange(20)
JOBS = {name: a for name, a in discovered.algorithms().items() if a.spark is not None}
GENERATORS = "generators"


def job_rows(name: str) -> dict:
    batch = JOBS[name].spark.job().evaluate(SEEDS)
    return {column: [int(v) for v in batch.column(column).to_pylist()] for column in batch.schema.names}


def generator_draws() -> dict:
    rng = G.rng_for("pin", 7)
    return {"rng_for": [int(v) for v in G.rng_for("pin", 7).integers(0, 2 ** 32, size=5)],
            "log_uniform_int": [G.log_uniform_int(rng, 1, 1000) for _ in range(5)],
            "distinct_uint32": [int(v) for v in G.distinct_uint32(G.rng_for("pin", 8), 5)],
            "dotted": G.dotted(np.array([0, 167772161, 4294967295], dtype=np.uint64))}


def pinned(name: str, now: dict) -> dict:
    """The pins of `name` (an algorithm or the generators); written from `now` when repinning or
    when the file is missing, in which case the test fails so that the new file is looked at and
    committed."""
    path = PINS / f"{name}.json"
    if os.environ.get("PUBSUB_PROOFS_REPIN") or not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(now, indent=0, sort_keys=True) + "\n")
        if not os.environ.get("PUBSUB_PROOFS_REPIN"):
            pytest.fail(f"{path} was missing and has been written: look at it and commit it")
    return json.loads(path.read_text())


def test_the_shared_generators_give_the_pinned_draws():
    now = generator_draws()
    assert now == pinned(GENERATORS, now)


@pytest.mark.parametrize("name", sorted(JOBS))
def test_each_jobs_seeds_give_the_pinned_instances(name):
    now = job_rows(name)
    assert now == pinned(name, now)


def test_every_pin_file_belongs_to_a_discovered_job():
    assert sorted(p.stem for p in PINS.glob("*.json")) == sorted([GENERATORS, *JOBS])
