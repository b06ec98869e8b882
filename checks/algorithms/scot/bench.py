"""SCOT's figures for reports/bench.json (checks.bench adds the Spark job's).

    scot_reference    Algorithm 1's tree, flooding's tree and one SNR routing on random SCOTs of
                      10^3, 10^4 and 10^5 brokers
    scot_z3           the time of the shortest-tree proofs
    scot_exhaustive   distinct states per second of the explorer (every delivery order) and cases
                      per second of the routing and DNR enumerations, at the default scope
    scot_spin         the side-by-side anchor: SPIN on the same subscription broadcasts (every
                      delivery order, promela.py), its states per second beside the explorer's
"""

from __future__ import annotations

import numpy as np

from checks import plugin
from checks.bench import run_checks, timed


def figures() -> dict:
    return {"scot_reference": scot_reference_figures(), "scot_z3": scot_z3_figures(),
            "scot_exhaustive": scot_exhaustive_figures(), "scot_spin": spin_figures()}


# the anchor's system: SBP over every delivery order, on every SCOT of trees up to 5 vertices x K_m,
# m <= 3 (97,099 states: the default scope's 1,071 are too few for a rate; SPIN's 128 MB hash table
# alone takes longer to set up than its search of them)
SPIN_TREES = (5, 3)


def spin_figures() -> dict:
    """SPIN and the explorer on one system, states per second side by side, with the default
    scope's state counts (promela.py says what a state is in each, and why SPIN's has one more)."""
    from checks.algorithms.scot import promela
    from checks.algorithms.scot.search import broadcast_system, small_scots
    from checks.explorer import explore
    from spec import scot as S

    missing = promela.available()
    if missing:
        return {"skipped": missing}
    out: dict = {"what_a_state_is": promela.WHAT_A_STATE_IS}
    for label, (vertices, m) in (("default scope", (3, 3)), ("rate", SPIN_TREES)):
        scots = list(small_scots(vertices, m))
        ours = explore(broadcast_system(scots, "sbp"), {}, {})
        judged = explore(broadcast_system(scots, "sbp"),
                         {p.name: (lambda s, p=p: p.predicate(S.BroadcastRun(scots[s.scot], s.broadcast)))
                          for p in S.SBP_PROPERTIES}, {})
        spin = promela.run(promela.model(scots, "sbp"))
        rate = {"explorer": ours.states / ours.seconds, "explorer_judging": judged.states / judged.seconds,
                "spin": spin["states"] / max(spin["seconds"], 1e-9)}
        out[label] = {"system": f"SBP, every SCOT of trees <= {vertices} vertices x K_m, m <= {m}, every host, "
                                "every delivery order",
                      "explorer": {"states": ours.states, "transitions": ours.transitions, "depth": ours.depth,
                                   "seconds": round(ours.seconds, 3)},
                      "explorer_judging_the_sbp_claims": {"states": judged.states, "seconds": round(judged.seconds, 3)},
                      "spin": {k: round(v, 3) if isinstance(v, float) else v for k, v in spin.items()}}
        if label == "rate":
            out[label]["states_per_second"] = {k: round(v) for k, v in rate.items()}
            out[label]["explorer_over_spin"] = round(rate["explorer"] / rate["spin"], 4)
    return out


def scot_z3_figures() -> dict:
    from checks.algorithms.scot import ALGORITHM

    return {f"{check.property}/{check.reading}": {"verdict": results[0].verdict.value, "seconds": round(seconds, 3)}
            for check, results, seconds in run_checks(
                ALGORITHM, lambda c: c.method == "z3" and c.property == "subscription_tree_is_shortest")}


def scot_exhaustive_figures() -> dict:
    """States per second of the SCOT explorer (every delivery order) and cases per second of the
    enumerations of notification routing (SNR, BID) and of DNR, at the default scope."""
    from checks.algorithms.scot import ALGORITHM

    kind = {name: ALGORITHM.readings[name].kind for name in ALGORITHM.readings.names()}
    out = {}
    for check, results, _ in run_checks(ALGORITHM, lambda c: isinstance(c, plugin.Exploration)):
        states, seconds = results[0].states, results[0].seconds
        out[f"explore/{check.reading}"] = {"states": states, "seconds": round(seconds, 3),
                                           "states_per_second": round(states / seconds, 0)}
    for name, wanted in (("routing", "router"), ("dnr", "dnr")):
        ran = run_checks(ALGORITHM, lambda c: isinstance(c, plugin.Enumeration) and kind[c.reading] == wanted)
        cases = sum(results[0].cases for _, results, _ in ran)
        seconds = sum(s for _, _, s in ran)
        out[name] = {"cases": cases, "seconds": round(seconds, 3), "cases_per_second": round(cases / seconds, 0)}
    return out


def scot_reference_figures() -> dict:
    """Algorithm 1's tree, flooding's tree and one SNR routing (20 subscriber brokers) on random
    SCOTs of 10^3, 10^4 and 10^5 brokers (a random labelled tree x K_10)."""
    import networkx as nx

    from reference import scot as RS

    out = {}
    for vertices in (100, 1000, 10_000):
        tree = nx.random_labeled_tree(vertices, seed=vertices)
        scot, build_secs = timed(lambda: RS.build(tree, 10))
        brokers = scot.brokers()
        rng = np.random.default_rng(vertices)
        hosts = [brokers[i] for i in rng.choice(len(brokers), size=20, replace=False)]
        trees, sbp_secs = timed(lambda: {h: RS.subscription_tree(scot, h) for h in hosts})
        _, flood_secs = timed(lambda: RS.flooding_tree(scot, hosts[0]))
        routing, snr_secs = timed(lambda: RS.snr(scot, brokers[0], hosts, trees))
        out[str(len(brokers))] = {"build_seconds": round(build_secs, 3),
                                  "sbp_tree_seconds_each": round(sbp_secs / len(hosts), 4),
                                  "flooding_tree_seconds": round(flood_secs, 4),
                                  "snr_seconds_20_subscribers": round(snr_secs, 4), "snr_messages": routing.messages}
    return out
