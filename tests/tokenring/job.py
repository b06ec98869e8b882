"""The token ring's Spark job: a random ring and a random run of passes per seed, judged by the
spec's properties (the sampler and judge of the fixture)."""

from __future__ import annotations

import attrs
import numpy as np
import pyarrow as pa

from reference.generators import rng_for
from spark_validation.job import JudgedJob
from spec.registry import get
from tokenring import spec as T

PROPERTY = "exactly_one_token"


def random_run(seed: int, reading: T.Reading) -> tuple[int, list[int], T.Run]:
    """Ring size 2..7 and up to 3 n passes, each by a random holder."""
    rng = rng_for(T.ALGORITHM, seed)
    n = int(rng.integers(2, 8))
    state, passes, states = T.initial(n), [], [T.initial(n)]
    for _ in range(int(rng.integers(0, 3 * n + 1))):
        holders = [i for i, held in enumerate(state) if held]
        i = holders[int(rng.integers(0, len(holders)))]
        state = T.pass_token(state, i, reading)
        passes.append(i)
        states.append(state)
    return n, passes, T.Run(tuple(states))


@attrs.frozen
class TokenRingJob(JudgedJob):
    KNOWN = ("correct", "keeps-at-wrap")
    algorithm: str = T.ALGORITHM
    readings: tuple[str, ...] = ("correct", "keeps-at-wrap")

    def __attrs_post_init__(self) -> None:
        self.check_readings()

    def properties_of(self, reading: str) -> list:
        return [get(T.ALGORITHM, PROPERTY)]

    def metric_columns(self) -> list[str]:
        return ["passes"]

    def evaluate(self, seeds: np.ndarray) -> pa.RecordBatch:
        rows = self.new_rows()
        for seed in (int(s) for s in seeds):
            for r in self.readings:
                n, passes, run = random_run(seed, T.READINGS[r])
                self.record(rows, r, {PROPERTY: T.exactly_one_token(run)}, {PROPERTY: T.token_wrapped(run)})
            rows["seed"].append(seed)
            rows["n"].append(n)
            rows["passes"].append(len(passes))
        return self.batch(rows)

    def counterexample(self, column: str, seed: int) -> dict:
        reading, prop = self.property_of(column)
        prop = prop.name
        n, passes, run = random_run(seed, T.READINGS[reading])
        # shortest failing prefix: the replay stops where the property first fails
        k = next(k for k in range(len(run.states)) if not T.exactly_one_token(T.Run(run.states[:k + 1])))
        return {"algorithm": T.ALGORITHM, "property": prop, "reading": reading, "method": "spark",
                "seed": seed, "n": n, "passes": passes[:k]}


def default_job() -> TokenRingJob:
    return TokenRingJob()


from_config = TokenRingJob.from_config
