"""The token ring's Spark job: a random ring and a random run of passes per seed, judged by the
spec's properties (the sampler and judge of the fixture)."""

from __future__ import annotations

import attrs
import numpy as np
import pyarrow as pa

from reference.generators import rng_for
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
class TokenRingJob:
    algorithm: str = T.ALGORITHM
    readings: tuple[str, ...] = ("correct", "keeps-at-wrap")

    def check_columns(self) -> list[str]:
        return [f"{r}:{PROPERTY}" for r in self.readings]

    def witness_columns(self) -> list[str]:
        return [f"{r}:{PROPERTY}:witness" for r in self.readings]

    def metric_columns(self) -> list[str]:
        return ["passes"]

    def config(self) -> dict:
        return {"algorithm": self.algorithm, "readings": list(self.readings)}

    def evaluate(self, seeds: np.ndarray) -> pa.RecordBatch:
        rows: dict[str, list] = {"seed": [], "n": [], "passes": []}
        for c in self.check_columns() + self.witness_columns():
            rows[c] = []
        for seed in (int(s) for s in seeds):
            for r in self.readings:
                n, passes, run = random_run(seed, T.READINGS[r])
                rows[f"{r}:{PROPERTY}"].append(T.exactly_one_token(run))
                rows[f"{r}:{PROPERTY}:witness"].append(T.token_wrapped(run))
            rows["seed"].append(seed)
            rows["n"].append(n)
            rows["passes"].append(len(passes))
        from spark_validation.runner import arrow_schema

        return pa.RecordBatch.from_pydict(rows, schema=arrow_schema(self))

    def counterexample(self, column: str, seed: int) -> dict:
        reading, prop = column.split(":")
        n, passes, run = random_run(seed, T.READINGS[reading])
        # shortest failing prefix: the replay stops where the property first fails
        k = next(k for k in range(len(run.states)) if not T.exactly_one_token(T.Run(run.states[:k + 1])))
        return {"algorithm": T.ALGORITHM, "property": prop, "reading": reading, "method": "spark",
                "seed": seed, "n": n, "passes": passes[:k]}


def default_job() -> TokenRingJob:
    return TokenRingJob()


def from_config(config: dict) -> TokenRingJob:
    return TokenRingJob(readings=tuple(config["readings"]))
