"""Seeded generators shared by every algorithm's random topologies.

A topology is a pure function of (algorithm salt, seed): numpy's PCG64 bit generator, seeded
through SeedSequence, gives the same stream on every platform and numpy release that keeps its
stream-compatibility promise, so seed 12345 is the same topology on a laptop and on a cluster.
"""

from __future__ import annotations

import socket
import zlib

import numpy as np


def _is_int(value) -> bool:
    """A Python or numpy integer; a bool is not one (True would pass for 1)."""
    return isinstance(value, (int, np.integer)) and not isinstance(value, bool)


def _check_rng(rng) -> np.random.Generator:
    if not isinstance(rng, np.random.Generator):
        raise TypeError(f"rng must be a numpy.random.Generator (see rng_for), not {rng!r}")
    return rng


def rng_for(algorithm: str, seed: int) -> np.random.Generator:
    if not isinstance(algorithm, str):
        raise TypeError(f"algorithm must be a str (the salt), not {algorithm!r}")
    if not _is_int(seed):
        raise TypeError(f"seed must be a non-negative integer, not {seed!r}")
    if seed < 0:
        raise ValueError(f"seeds are non-negative, not {seed}")
    return np.random.Generator(np.random.PCG64(np.random.SeedSequence([zlib.crc32(algorithm.encode()), seed])))


def log_uniform_int(rng: np.random.Generator, low: int, high: int) -> int:
    """An integer in [low, high] whose logarithm is uniform: small sizes are as common as large."""
    _check_rng(rng)
    if not (_is_int(low) and _is_int(high)):
        raise TypeError(f"low and high must be integers, not {low!r} and {high!r}")
    if not 1 <= low <= high:  # log(0) is -inf; low > high has no answer
        raise ValueError(f"log_uniform_int needs 1 <= low <= high, not low={low!r}, high={high!r}")
    value = int(np.exp(rng.uniform(np.log(low), np.log(high + 1))))
    return min(max(value, low), high)


def distinct_uint32(rng: np.random.Generator, k: int) -> np.ndarray:
    """k distinct 32-bit values in generation order (an IPv4 address each)."""
    _check_rng(rng)
    if not _is_int(k):
        raise TypeError(f"k must be an integer in 0..2**32, not {k!r}")
    if not 0 <= k <= 2 ** 32:  # more distinct values than 32 bits hold: the loop would never end
        raise ValueError(f"k must be an integer in 0..2**32, not {k!r}")
    values = rng.integers(0, 2 ** 32, size=k, dtype=np.uint64)
    _, first = np.unique(values, return_index=True)
    while len(first) < k:  # rare collisions: keep the first of each, draw the rest again
        keep = values[np.sort(first)]
        values = np.concatenate([keep, rng.integers(0, 2 ** 32, size=k - len(keep), dtype=np.uint64)])
        _, first = np.unique(values, return_index=True)
    return values


def dotted(values: np.ndarray) -> list[str]:
    """32-bit values as dotted-quad IPv4 text."""
    if isinstance(values, (str, bytes)):
        raise TypeError(f"values must be an array of integers, not {values!r}")
    values = np.asarray(values)
    if values.size and values.dtype.kind not in "iu":
        raise TypeError(f"values must be integers, not of dtype {values.dtype}")
    if values.size and (int(values.min()) < 0 or int(values.max()) >= 2 ** 32):  # astype would wrap them
        bad = int(values.min()) if values.min() < 0 else int(values.max())
        raise ValueError(f"values must lie in 0..2**32-1, not {bad}")
    packed = values.astype(">u4").tobytes()
    return [socket.inet_ntoa(packed[i:i + 4]) for i in range(0, len(packed), 4)]
