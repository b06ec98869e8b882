"""How often Python's cycle collector runs in a checker's processes.

The collector is woken after every 700 new objects, and every tenth and hundredth time it walks
older objects too. A search keeps hundreds of thousands of states alive, and at the defaults the
collector walked them again and again: IRBR's exhaustive searches spent 17% of their CPU on it,
CRAWL's search of the 7-node atlas more than half. The searches make few reference cycles, so
waking it after 100,000 objects costs little memory; verdicts, counts and reports are the same.
Spark's Python workers set it too, at each task (the chordal ring's in-process loop ran 12% faster
with it, SCOT's 6%). It lives in the lowest layer that runs searches, so that both the CLI (checks)
and the Spark jobs (spark_validation) can call it.
"""

from __future__ import annotations

import gc

THRESHOLDS = (100_000, 50, 100)


def collect_less() -> None:
    """Set the collector's thresholds (THRESHOLDS) for this process; the processes it forks
    inherit them. The CLI and the test suite call it first, a Spark task before its batches."""
    gc.set_threshold(*THRESHOLDS)
