"""Estimates from sampled trials: a success rate with its Wilson score interval.

A leaf module (the standard library and attrs only): checks.verdict gives a Spark column's share
of instances on which a property holds with it, and checks.markov turns it into a verdict
(`judge_at_least`), so neither of them imports the other for it.
"""

from __future__ import annotations

import math
from numbers import Integral
from statistics import NormalDist

import attrs


@attrs.frozen
class Estimate:
    """A success rate with its Wilson score interval [low, high] at `confidence`."""

    estimate: float
    low: float
    high: float
    confidence: float
    successes: int
    trials: int

    @property
    def text(self) -> str:
        """e.g. "0.712 [0.703, 0.721] at 95%"; the bounds are rounded outwards, so the printed
        interval contains the computed one."""
        low = math.floor(self.low * 1000 + 1e-9) / 1000
        high = math.ceil(self.high * 1000 - 1e-9) / 1000
        return f"{self.estimate:.3f} [{low:.3f}, {high:.3f}] at {round(self.confidence * 100, 6):g}%"

    def __str__(self) -> str:
        return self.text


def estimate(successes: int, trials: int, confidence: float = 0.95) -> Estimate:
    """The Wilson score interval for `successes` out of `trials` independent trials."""
    for name, v in (("successes", successes), ("trials", trials)):
        if isinstance(v, bool) or not isinstance(v, Integral):
            raise ValueError(f"{name} must be an int, got {v!r}")
    if trials <= 0 or not 0 <= successes <= trials:
        raise ValueError(f"need 0 <= successes <= trials and trials > 0, got {successes} of {trials}")
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must lie strictly between 0 and 1, got {confidence}")
    n = trials
    p = successes / n
    z = NormalDist().inv_cdf(1 - (1 - confidence) / 2)
    z2 = z * z
    denom = 1 + z2 / n
    center = (p + z2 / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / denom
    low = 0.0 if successes == 0 else max(0.0, center - half)
    high = 1.0 if successes == n else min(1.0, center + half)
    return Estimate(estimate=p, low=low, high=high, confidence=confidence, successes=successes, trials=trials)
