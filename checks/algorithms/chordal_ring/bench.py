"""The chordal ring's figures for reports/bench.json, each key prefixed chordal_ring_ (LBDD's,
the first algorithm's, hold the bare names).

    reference    the reference's joins per second at 10^4, 10^5 and 10^6 brokers (each through a
                 broker drawn at random, seeded), corrected reading, with the forwards they took
    z3           the time of each Z3 check (the join's induction per reading, the identifiers')
    exhaustive   distinct states per second of the explorer over join sequences (corrected and
                 literal)
"""

from __future__ import annotations

from checks.bench import run_checks, timed

EXPLORED_READINGS = ("corrected", "literal")


def figures() -> dict:
    return {"chordal_ring_reference": reference_figures(), "chordal_ring_z3": z3_figures(),
            "chordal_ring_exhaustive": exhaustive_figures()}


def reference_figures() -> dict:
    from reference.chordal_ring import Ring

    out = {}
    for n in (10 ** 4, 10 ** 5, 10 ** 6):
        ring = Ring("corrected")
        outcomes, secs = timed(lambda: ring.join_random(n, seed=n))
        out[str(n)] = {"join_seconds": round(secs, 3), "joins_per_second": round(n / secs, 0),
                       "forwards": ring.forwards, "joined": outcomes.count("joined")}
    return out


def z3_figures() -> dict:
    from checks.algorithms.chordal_ring import ALGORITHM

    return {f"{check.property}/{check.reading}": {"verdict": results[0].verdict.value, "seconds": round(seconds, 3)}
            for check, results, seconds in run_checks(ALGORITHM, lambda c: c.method == "z3")}


def exhaustive_figures() -> dict:
    from checks import plugin
    from checks.algorithms.chordal_ring import ALGORITHM

    out = {}
    for check, results, _ in run_checks(ALGORITHM, lambda c: isinstance(c, plugin.Exploration)
                                        and c.reading in EXPLORED_READINGS):
        states, seconds = results[0].states, results[0].seconds
        out[check.reading] = {"states": states, "seconds": round(seconds, 3),
                              "states_per_second": round(states / seconds, 0)}
    return out
