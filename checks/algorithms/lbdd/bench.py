"""LBDD's figures for reports/bench.json (checks.bench adds the Spark job's).

    reference    the reference's tree build at 10^4, 10^5 and 10^6 subscribers (MD5 included)
    z3           the time of the partition proofs (corrected, literal, ceil-ratio) and of
                 one_way_dissemination
    exhaustive   distinct states per second of the explorer at the default scope, for the
                 corrected reading and for literal-path-update (failures and joins)
"""

from __future__ import annotations

from checks.bench import run_checks, timed

Z3_PARTITION_READINGS = ("corrected", "literal", "ceil-ratio")
EXPLORED_READINGS = ("corrected", "literal-path-update")


def figures() -> dict:
    return {"reference": reference_figures(), "z3": z3_figures(), "exhaustive": exhaustive_figures()}


def z3_figures() -> dict:
    from checks.algorithms.lbdd import ALGORITHM

    out = {}
    for check, results, seconds in run_checks(ALGORITHM, lambda c: c.method == "z3" and (
            (c.property == "schedule_partitions_targets" and c.reading in Z3_PARTITION_READINGS)
            or (c.property == "one_way_dissemination" and c.reading == "corrected"))):
        key = check.property if check.property == "one_way_dissemination" else f"{check.property}/{check.reading}"
        out[key] = {"verdict": results[0].verdict.value, "seconds": round(seconds, 3)}
    return dict(sorted(out.items(), key=lambda kv: kv[0] == "one_way_dissemination"))


def exhaustive_figures() -> dict:
    from checks import plugin
    from checks.algorithms.lbdd import ALGORITHM

    out = {}
    for check, results, _ in run_checks(ALGORITHM, lambda c: isinstance(c, plugin.Exploration)
                                        and c.reading in EXPLORED_READINGS):
        states, seconds = results[0].states, results[0].seconds
        out[check.reading] = {"states": states, "seconds": round(seconds, 3),
                              "states_per_second": round(states / seconds, 0)}
    return out


def reference_figures() -> dict:
    from reference import lbdd as R
    from reference.generators import distinct_uint32, dotted, rng_for

    out = {}
    for n in (10 ** 4, 10 ** 5, 10 ** 6):
        addresses = dotted(distinct_uint32(rng_for("bench", n), n + 1))
        tree, secs = timed(lambda: R.build(addresses[1:], addresses[0]))
        _, p2p = timed(lambda: R.point_to_point(n))
        out[str(n)] = {"build_seconds": round(secs, 3), "depth": R.depth(tree),
                       "publisher_copies": int(R.copies_sent(tree)[0]), "point_to_point_seconds": round(p2p, 4)}
    return out
