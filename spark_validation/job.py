"""What every Spark job shares: its columns, its configuration and its check of the readings asked for.

A job judges each random instance under each of its readings by the properties that reading is
held to (`properties_of(reading)`, the spec's own Property objects), one boolean column per property and
one per witness (spec.registry.Column spells them), plus integer metrics. Its configuration is
its attrs fields, so that a summary's `config` gives the same job back (`from_config`). The jobs
of the papers and of a plug-in (the test suite's token ring) derive from `JudgedJob`; the runner
(spark_validation.runner) only needs the `Job` protocol.
"""

from __future__ import annotations

import functools
from typing import Any, ClassVar, Iterable, Protocol

import attrs
import numpy as np
import pyarrow as pa

from spec.registry import Column, Property


class Job(Protocol):
    algorithm: str
    readings: tuple[str, ...]

    def check_columns(self) -> list[str]: ...          # boolean: True when the property holds
    def witness_columns(self) -> list[str]: ...        # boolean: True when the witness is seen
    def metric_columns(self) -> list[str]: ...         # int64 metrics of each instance
    def evaluate(self, seeds: np.ndarray) -> pa.RecordBatch: ...
    def config(self) -> dict[str, Any]: ...


def arrow_schema(job: Job) -> pa.Schema:
    return pa.schema([("seed", pa.int64()), ("n", pa.int64())]
                     + [(c, pa.bool_()) for c in job.check_columns() + job.witness_columns()]
                     + [(c, pa.int64()) for c in job.metric_columns()])


class JudgedJob:
    """The shared part of a job (an attrs class with `algorithm` and `readings` fields).

    A subclass sets KNOWN (the readings it can run, in order) and defines `properties_of(reading)`, the
    properties of that reading's instances, and `metric_columns()`; `reading_columns()` adds
    columns per reading (LBDD's `distinguished`). `properties_of(reading)` depends on the job's
    fields and the reading alone: a hashable job's column names are kept per (job, reading)."""

    KNOWN: ClassVar[tuple[str, ...]] = ()
    algorithm: str
    readings: tuple[str, ...]

    def properties_of(self, reading: str) -> list[Property]:
        raise NotImplementedError

    def metric_columns(self) -> list[str]:
        return []

    def reading_columns(self) -> list[str]:
        return []

    def check_readings(self) -> None:
        """A clear error for a reading this job cannot run (called from __attrs_post_init__)."""
        unknown = [r for r in self.readings if r not in self.KNOWN]
        if unknown:
            raise ValueError(f"unknown {self.algorithm.upper()} reading(s) {unknown}; known: {', '.join(self.KNOWN)}")
        if not self.readings:
            raise ValueError(f"no {self.algorithm.upper()} reading asked for; known: {', '.join(self.KNOWN)}")

    def columns(self) -> list[Column]:
        return [Column(r, p.name) for r in self.readings for p in self.properties_of(r)]

    def check_columns(self) -> list[str]:
        return [str(c) for c in self.columns()]

    def witness_columns(self) -> list[str]:
        """Per property its witness (where it has one), then the per-reading columns."""
        return [str(Column(r, p.name, witness=True)) for r in self.readings for p in self.properties_of(r)
                if p.witness] + self.reading_columns()

    def property_of(self, column: str) -> tuple[str, Property]:
        """The reading and the Property a check column judges."""
        c = Column.parse(column)
        found = [p for p in self.properties_of(c.reading) if p.name == c.property] if c.reading in self.readings else []
        if not found:
            raise ValueError(f"{column!r} is not a check column of this {self.algorithm} job")
        return c.reading, found[0]

    def new_rows(self) -> dict[str, list]:
        return {c: [] for c in ["seed", "n"] + self.check_columns() + self.witness_columns() + self.metric_columns()}

    def record(self, rows: dict[str, list], reading: str, verdicts: dict[str, bool], seen: dict[str, bool]) -> None:
        """One instance's verdicts (and witnesses) under `reading`, by property name."""
        try:
            hash(self)
        except TypeError:       # a plug-in's job that cannot be hashed (attrs.define, say) names them each time
            columns = _record_columns.__wrapped__(self, reading)
        else:
            columns = _record_columns(self, reading)
        for name, column, witness in columns:
            rows[column].append(bool(verdicts[name]))
            if witness is not None:
                rows[witness].append(bool(seen[name]))

    def batch(self, rows: dict[str, list]) -> pa.RecordBatch:
        return pa.RecordBatch.from_pydict(rows, schema=arrow_schema(self))

    def config(self) -> dict[str, Any]:
        """The fields that make this job, `algorithm` first (a summary's `config`)."""
        fields = attrs.asdict(self, recurse=False)
        # tuples as lists, as JSON gives them back: a stored summary's config then equals the job's
        return {"algorithm": self.algorithm,
                **{k: list(v) if isinstance(v, tuple) else v for k, v in fields.items() if k != "algorithm"}}

    @classmethod
    def from_config(cls, config: dict[str, Any]):
        """The job a summary's `config` was made with."""
        return cls(**{**{k: v for k, v in config.items() if k != "algorithm"}, "readings": tuple(config["readings"])})


@functools.lru_cache(maxsize=256)
def _record_columns(job: JudgedJob, reading: str) -> tuple[tuple[str, str, str | None], ...]:
    """(property, its column, its witness column or None) under `reading`: record() is called
    once per instance and reading, and naming the columns there was a tenth of LBDD's job."""
    return tuple((p.name, str(Column(reading, p.name)), str(Column(reading, p.name, witness=True)) if p.witness else None)
                 for p in job.properties_of(reading))


def judge(properties: Iterable[Property], run: Any) -> tuple[dict[str, bool], dict[str, bool]]:
    """Each property's predicate and witness on one run, by name."""
    props = list(properties)
    return ({p.name: bool(p.predicate(run)) for p in props},
            {p.name: bool(p.witness(run)) for p in props if p.witness})
