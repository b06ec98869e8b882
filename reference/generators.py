"""Seeded generators shared by every algorithm's random topologies.

A topology is a pure function of (algorithm salt, seed): numpy's PCG64 bit generator, seeded
through SeedSequence, gives the same stream on every platform and numpy release that keeps its
stream-compatibility promise, so seed 12345 is the same topology on a laptop and on a cluster.
"""

from __future__ import annotations

import socket
import zlib

import numpy as np


def rng_for(algorithm: str, seed: int) -> np.random.Generator:
    if seed < 0:
        raise ValueError(f"seeds are non-negative, not {seed}")
    return np.random.Generator(np.random.PCG64(np.random.SeedSequence([zlib.crc32(algorithm.encode()), seed])))


def log_uniform_int(rng: np.random.Generator, low: int, high: int) -> int:
    """An integer in [low, high] whose logarithm is uniform: small sizes are as common as large."""
    value = int(np.exp(rng.uniform(np.log(low), np.log(high + 1))))
    return min(max(value, low), high)


def distinct_uint32(rng: np.random.Generator, k: int) -> np.ndarray:
    """k distinct 32-bit values in generation order (an IPv4 address each)."""
    values = rng.integers(0, 2 ** 32, size=k, dtype=np.uint64)
    _, first = np.unique(values, return_index=True)
    while len(first) < k:  # rare collisions: keep the first of each, draw the rest again
        keep = values[np.sort(first)]
        values = np.concatenate([keep, rng.integers(0, 2 ** 32, size=k - len(keep), dtype=np.uint64)])
        _, first = np.unique(values, return_index=True)
    return values


def dotted(values: np.ndarray) -> list[str]:
    """32-bit values as dotted-quad IPv4 text."""
    packed = values.astype(">u4").tobytes()
    return [socket.inet_ntoa(packed[i:i + 4]) for i in range(0, len(packed), 4)]
