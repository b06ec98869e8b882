"""How often Python's cycle collector runs in a checker's processes.

The collector is woken after every 700 new objects, and every tenth and hundredth time it walks
older objects too. A search keeps hundreds of thousands of states alive, and at the defaults the
collector walked them again and again: IRBR's exhaustive searches spent 17% of their CPU on it,
CRAWL's search of the 7-node atlas more than half. The searches make few reference cycles, so
waking it after 100,000 objects costs little memory; verdicts, counts and reports are the same.
"""

from __future__ import annotations

import gc

THRESHOLDS = (100_000, 50, 100)


def collect_less() -> None:
    """Set the collector's thresholds (THRESHOLDS) for this process; the processes it forks
    inherit them. The CLI and the test suite call it first."""
    gc.set_threshold(*THRESHOLDS)
