"""The token ring's declaration: the fixture that shows the engines are generic.

Nothing outside tests/ names it: it comes in through PUBSUB_PROOFS_PLUGINS=tokenring (with tests/
on the path), and every method checks it: Z3 (the one-token invariant by induction, for every ring
size), exhaustive search (every run on rings of 2..4), the exact chance of a round trip (a Markov
chain), hypothesis and a Spark job. Each rejects the planted bug, `keeps-at-wrap`.
"""

from __future__ import annotations

from fractions import Fraction

import attrs

from checks import plugin
from checks.explorer import TransitionSystem
from tokenring import spec as T


@attrs.frozen
class Scope:
    ring_sizes: tuple[int, ...]      # exhaustive: every run on rings of these sizes
    passes: int                      # ... of at most this many passes
    examples: int                    # hypothesis examples per reading
    chance_ring: int                 # the ring whose round trip's chance is summed


SCOPES = {"default": Scope(ring_sizes=(2, 3, 4), passes=6, examples=60, chance_ring=4),
          "large": Scope(ring_sizes=(2, 3, 4, 5, 6), passes=10, examples=300, chance_ring=6)}
SAFETY_READINGS = ("correct", "keeps-at-wrap")


def ring_system(n: int, passes: int, reading: T.Reading) -> TransitionSystem:
    """States (passes done, tokens); a pass by any holder."""
    return TransitionSystem(
        lambda: [(0, T.initial(n))],
        lambda s: [i for i, held in enumerate(s[1]) if held] if s[0] < passes else [],
        lambda s, i: (s[0] + 1, T.pass_token(s[1], i, reading)))


def run_of(trace) -> T.Run:
    return T.Run(tuple(state[1] for _, state in trace))


def exploration(scope: Scope, reading: str) -> plugin.Exploration:
    r = T.READINGS[reading]
    # the invariant is judged on each state's run so far: a state's history is its trace, and a
    # one-state run suffices since every state of a trace is visited
    return plugin.Exploration(
        reading=reading, properties=("exactly_one_token",),
        scope=f"every run of <= {scope.passes} passes on rings of {', '.join(map(str, scope.ring_sizes))}",
        systems=lambda: [(n, ring_system(n, scope.passes, r)) for n in scope.ring_sizes],
        invariants=lambda n: {"exactly_one_token": lambda s: T.exactly_one_token(T.Run((s[1],)))},
        witnesses=lambda n: {"exactly_one_token": lambda s: s[1][0] and s[0] > 0},
        document=lambda prop, n, trace: {"algorithm": T.ALGORITHM, "property": prop, "reading": reading,
                                         "method": "exhaustive", "n": n,
                                         "passes": [action for action, _ in trace[1:]]},
        steps="passes")


def search(scope: Scope, reading: str) -> plugin.Search:
    from hypothesis import strategies as st

    r = T.READINGS[reading]

    def replayed(example):
        n, choices = example
        state, states, passes = T.initial(n), [T.initial(n)], []
        for c in choices:
            holders = [i for i, held in enumerate(state) if held]
            passes.append(holders[c % len(holders)])
            state = T.pass_token(state, passes[-1], r)
            states.append(state)
        return passes, T.Run(tuple(states))

    def judge(example):
        run = replayed(example)[1]
        return T.exactly_one_token(run), T.token_wrapped(run)

    return plugin.Search(
        property="exactly_one_token", reading=reading, scope=f"{scope.examples} random runs (shrunk)",
        strategy=lambda: st.tuples(st.integers(2, 8), st.lists(st.integers(0, 7), max_size=20)),
        judge=judge, examples=scope.examples,
        document=lambda ex: {"algorithm": T.ALGORITHM, "property": "exactly_one_token", "reading": reading,
                             "method": "hypothesis", "n": ex[0], "passes": replayed(ex)[0]},
        describe=lambda ex: f"{len(replayed(ex)[0])} passes on a ring of {ex[0]}")


def round_trip(scope: Scope, reading: str) -> plugin.Chance:
    """Each pass loses the token with the reading's `loss`; the chance that it is back at process
    0 after one round (n passes)."""
    r, n = T.READINGS[reading], scope.chance_ring
    return plugin.Chance(
        property="round_trip_likely", reading=reading, scope=f"a ring of {n}, loss {r.loss} per pass",
        chain=lambda: round_trip_chain(n, r),
        at_least=T.ROUND_TRIP_AT_LEAST,
        document=lambda p: {"algorithm": T.ALGORITHM, "property": "round_trip_likely", "reading": reading,
                            "method": "exhaustive", "n": n, "probability": str(p)})


def round_trip_chain(n: int, reading: T.Reading):
    """States: the passes the token has made, or "lost"."""
    from checks.markov import Chain

    return Chain(initial=lambda: [(Fraction(1), 0)],
                 transitions=lambda k: [] if k in (n, "lost") else [(1 - reading.loss, k + 1), (reading.loss, "lost")],
                 target=lambda k: k == n)


def proof(reading: str) -> plugin.Proof:
    from tokenring import proofs

    return plugin.Proof(property="exactly_one_token", reading=reading,
                        scope="rings of every size (an unbounded sort), by induction",
                        prove=lambda: proofs.prove(T.READINGS[reading]))


def checks(scope: Scope):
    for reading in SAFETY_READINGS:
        yield proof(reading)
    for reading in SAFETY_READINGS:
        yield exploration(scope, reading)
    for reading in SAFETY_READINGS:
        yield search(scope, reading)
    for reading in ("correct", "lossy"):
        yield round_trip(scope, reading)


def replay(doc: dict, say) -> plugin.Replayed:
    reading = T.READINGS.get(doc.get("reading"))
    if reading is None:
        raise ValueError(f"unknown token ring reading {doc.get('reading')!r}; known: {', '.join(T.READINGS)}")
    if doc.get("method") == "z3":
        return replay_run_from_init(doc, reading, say)
    if doc.get("property") == "round_trip_likely":
        p = Fraction(doc["probability"])
        say(f"a round of {doc['n']} passes, each losing the token with probability {reading.loss}: {p}")
        return plugin.Replayed(not T.round_trip_likely(p))
    state = T.initial(doc["n"])
    states = [state]
    for step, i in enumerate(doc["passes"], start=1):
        state = T.pass_token(state, i, reading)
        states.append(state)
        say(f"pass {step}: process {i} passes; holders {[k for k, held in enumerate(state) if held]}")
    holds = T.exactly_one_token(T.Run(tuple(states)))
    say(f"exactly_one_token: {'holds' if holds else 'VIOLATED'}")
    return plugin.Replayed(not holds, draw=lambda path, title: draw(states, path, title))


def replay_run_from_init(doc: dict, reading: T.Reading, say) -> plugin.Replayed:
    """A Z3 counterexample: each step of its run is checked against the encoded pass and the last
    state against the safety property, by Z3 on the concrete states."""
    from checks import induction as Z
    from tokenring import proofs

    system = proofs.system(reading)
    run = doc["trace"]
    for k, (state, step) in enumerate(zip(run["states"], [None] + run["steps"])):
        if step is not None and not Z.step_holds(system, step["action"], run["states"][k - 1], state, step["params"]):
            raise ValueError(f"step {k} ({step}) is not a pass of reading {reading.name!r}")
        say(f"state {k}: token at {[t[0] for t in state['relations']['token']]}")
    holds = Z.holds(system, system.safety["exactly one token"], run["states"][-1])
    say(f"exactly one token: {'holds' if holds else 'VIOLATED'}")
    return plugin.Replayed(not holds)


def draw(states, path: str, title: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(4, 1 + 0.3 * len(states)))
    ax.imshow([[int(h) for h in s] for s in states], cmap="Greens", aspect="auto")
    ax.set_xlabel("process")
    ax.set_ylabel("step")
    ax.set_title(title, fontsize=8)
    fig.savefig(path, dpi=80)
    plt.close(fig)


def docs(ctx) -> dict[str, str]:
    return {"tokenring-model": "A ring of processes passing one token; `keeps-at-wrap` is the planted bug."}


ALGORITHM = plugin.Algorithm(
    name=T.ALGORITHM, title="Token ring (test fixture)", spec="tokenring.spec",
    readings=plugin.Catalogue(T.READINGS, describe=lambda r: (
        "clears the sender's token on every pass" if r.clear_at_wrap else
        "keeps the sender's token when it wraps to process 0 (planted bug)") + f"; loss {r.loss}"),
    scopes=SCOPES, checks=checks, replay=replay,
    spark=plugin.SparkJob.of("tokenring.job", scope=lambda summary, job: f"{summary['cases']} random runs on rings of 2..7",
                             unit="runs", size="processes", instances={"default": 2000, "large": 20_000}),
    docs=docs, **plugin.beside(__name__))
