"""CRAWL and CDM (Zheng & Sun 2018): the spec's steps and claims, negative controls, the reference
held to the spec, exact chances cross-checked three ways (the reference's own solve,
checks.markov, Storm), and every committed counterexample replayed and drawn."""

from __future__ import annotations

import itertools
import json
import math
import random
from fractions import Fraction
from pathlib import Path

import attrs
import networkx as nx
import numpy as np
import pytest

from checks import cli, plugin
from checks.algorithms import crawl as D
from checks.algorithms.crawl import atlas as A
from checks.algorithms.crawl import drawing, proofs
from reference import crawl as R
from spec import crawl as C
from spec.registry import get

ROOT = Path(__file__).resolve().parents[1]
COMMITTED = sorted((ROOT / "reports" / "counterexamples" / "crawl").glob("*.json"))
PATH3 = C.Graph.of([(0, 1), (1, 2)], 3)
# the readings under which every walk ends: each restart halves the blocked walk's budget, rounding
# down, or exactly (up) with the Trace cleared or the restart begun as step 1 (to any neighbour), so
# that a walk restarted with one hop cannot block (the first budget halved, or a budget of 1 halved
# up to 1 with the Trace kept and step 2.2's forwarding, lets a walk go round for ever)
ENDS = {name: r.halving == "previous" and (r.rounding == "down" or r.trace_on_restart == "cleared"
                                           or r.restart == "step-1")
        for name, r in C.READINGS.items()}
# the smallest graph where the first-budget halving never lets a walk end, the Trace kept or
# cleared: 2 nodes, k = 2, budget 4 (budget 2 or 3 does it only with the Trace kept)
ENDING = C.WalkParameters(C.Graph.of([(0, 1)], 2), 0, frozenset(), 2, 4)


def prop(name):
    return get(C.ALGORITHM, name)


# ---------------------------------------------------------------- the walk, step by step

def test_step_1_and_2_follow_fig_2():
    p = C.WalkParameters(PATH3, 0, frozenset({2}), 2, 4)
    walk = C.replay_walk(p, C.DEFAULT, [("forward", 1), ("forward", 2), ("found", 2)])
    assert walk.receptions() == [0, 1, 2] and walk.found() and walk.messages() == 3
    assert [m.trace for m in walk.moves] == [(0,), (0, 1), (0, 1)]
    with pytest.raises(ValueError, match=r"move 2 \(forward 0\) is not a choice.*allowed: forward 2"):
        C.replay_walk(p, C.DEFAULT, [("forward", 1), ("forward", 0)])
    assert C.unfinished(walk) == []                                          # found: the walk has ended
    assert C.unfinished(C.replay_walk(p, C.DEFAULT, [("forward", 1)])) == [("forward", 2)]


def test_the_source_does_not_look_in_its_own_apt():
    p = C.WalkParameters(PATH3, 0, frozenset({0}), 2, 4)
    assert [m.kind for _, m, _ in C.successors(p, None, C.DEFAULT)] == ["forward"]


def test_recovery_halves_the_previous_or_the_first_budget():
    # Fig. 3 in small: 0 -> 1 -> 2 blocks at the path's end
    for reading, budgets in (("previous/kept", [4, 2, 1]), ("original/kept", [4, 2, 2])):
        p = C.WalkParameters(PATH3, 0, frozenset(), 2, 4)
        walk = C.replay_walk(p, C.READINGS[reading], [("forward", 1), ("forward", 2), ("restart", 2), ("restart", 2)])
        assert [m.budget for m in walk.moves if m.kind == "restart"] == budgets[1:3]
    ended = C.replay_walk(C.WalkParameters(PATH3, 0, frozenset(), 2, 4), C.DEFAULT,
                          [("forward", 1), ("forward", 2), ("restart", 2), ("restart", 2), ("blocked", 2)])
    assert ended.lasso is None and C.recovery_ends(ended)


def test_every_walk_probability_sums_to_one_and_previous_halving_always_ends():
    for graph in D.atlas_graphs(4):
        for reading in D.WALK_READINGS:
            p = C.WalkParameters(graph, 0, frozenset(), 2, 4)
            walks = list(C.walks(p, C.READINGS[reading], max_restarts=8))
            assert sum(pr for pr, _ in walks) == 1
            if ENDS[reading]:
                assert all(w.lasso is None and not w.cut for _, w in walks)


@pytest.mark.parametrize("bad, message", [
    (dict(k=0), "k >= 1"), (dict(budget=0), "budget"), (dict(budget=-3), "budget"),
    (dict(source=3), r"source 3 is not a node of 0\.\.2"),
    (dict(entries=frozenset({7})), "entries"), (dict(k=True), "k >= 1")])
def test_walk_parameters_refuse_bad_input(bad, message):
    fields = dict(graph=PATH3, source=0, entries=frozenset(), k=2, budget=4) | bad
    with pytest.raises(ValueError, match=message):
        C.WalkParameters(**fields)


def test_graphs_and_spaces_refuse_bad_input():
    with pytest.raises(ValueError, match="at least one node"):
        C.Graph.of([], 0)
    with pytest.raises(ValueError, match="distinct nodes"):
        C.Graph.of([(0, 0)], 2)
    with pytest.raises(ValueError, match="a <= b"):
        C.Space(5, 1, ())
    with pytest.raises(ValueError, match=r"\[3, 2\]"):
        C.Space(0, 5, ((3, 2),))
    with pytest.raises(ValueError, match="leaves the value space"):
        C.Space(0, 5, ((3, 9),))
    with pytest.raises(ValueError, match="unknown CRAWL reading"):
        C.reading("literal")
    with pytest.raises(ValueError, match="unknown halving"):
        C.Reading("x", halving="third")


# ---------------------------------------------------------------- claims and negative controls

def test_the_walk_claims_reject_planted_walks():
    p = C.WalkParameters(C.Graph.of([(0, 1), (1, 2), (0, 2)], 3), 0, frozenset(), 2, 4)
    back = C.Walk(p, C.DEFAULT, (C.Move("forward", 0, 1, (0,), 4), C.Move("forward", 1, 0, (0,), 4)))
    assert not C.forwarding_avoids_the_trace(back)          # forwarded into the Trace it was chosen with
    assert not C.walk_never_revisits_a_node(back) and not C.no_return_within_the_trace(back)
    assert not C.recovery_ends(C.Walk(p, C.DEFAULT, (), lasso=0))
    fine = C.replay_walk(p, C.DEFAULT, [("forward", 1), ("forward", 2)])
    assert all(C.evaluate(fine).values())


def test_the_upper_layer_claims_and_their_tight_cases():
    two = C.Space(0, 5, ((1, 1), (3, 3)))
    assert C.pieces(two) == [(0, 0), (1, 1), (2, 2), (3, 3), (4, 5)]
    assert not C.virtual_nodes_at_most_subscriptions_plus_2(two)
    assert C.virtual_nodes_at_most_twice_subscriptions_plus_1(two)
    assert prop("virtual_nodes_at_most_twice_subscriptions_plus_1").witness(two)
    assert C.pieces(C.Space(0, 5, ((0, 5),))) == [(0, 5)]
    assert [C.balanced_tree(n).height() for n in (1, 2, 3, 4, 7, 8, 1024)] == [0, 1, 1, 2, 2, 3, 10]
    assert C.tree_height_is_log2_n(C.balanced_tree(4)) and not C.tree_height_is_log2_n(C.balanced_tree(3))
    three = C.balanced_tree(3)
    assert C.Routing(three, 0, 2).hops() == 2 and not C.stage_two_cost_is_the_tree_height(C.Routing(three, 0, 2))
    assert max(C.Routing(C.balanced_tree(15), i, j).hops() for i in range(15) for j in range(15)) == 6


def test_cdm_acceptance_as_printed_and_repaired():
    sub, event = (("x", (0, 2)), ("y", (1, 1))), (("x", 1), ("y", 1))
    def accepts(reading, arrivals):
        return C.Matching(sub, event, arrivals, C.READINGS[reading]).accepts()
    assert not accepts("previous/kept", ("x", "y"))                 # 'exceeds': count 2 is not > 2
    assert accepts("every-arrival", ("x", "y", "x"))                 # only a duplicate pushes it past
    assert accepts("reaches", ("x", "y")) and not accepts("reaches", ("x", "x"))
    assert accepts("reaches/every-arrival", ("x", "x"))               # a false positive
    # the counter's choice is the text's own; every-arrival's walk rounds halves down, the repair
    assert C.READINGS["reaches"].origin == "repair" and "every-arrival" not in C.ORIGIN_OF_CHOICE
    assert C.READINGS["every-arrival"].origin == C.READINGS["previous/kept"].origin == "repair"
    assert {C.READINGS[r].origin for r in ("previous/kept/round-up", "previous/cleared/round-up")} == {"printed"}


def test_the_worked_example_is_exact():
    assert C.effective_cost(68_605, 68, 408) == 411_630
    with pytest.raises(ValueError):
        C.effective_cost(1, 0, 3)


def test_z3_finds_the_endless_restart_only_when_the_first_budget_is_halved():
    assert proofs.restarts_shrink(C.READINGS["previous/kept"]).verdict.value == "proved"
    found = proofs.restarts_shrink(C.READINGS["original/kept"])
    assert found.verdict.value == "violated" and found.document["moves"][-1][0] == "restart"
    assert drawing.replay(found.document, lambda s: None).reproduced


# ---------------------------------------------------------------- exact chances, three ways

def test_exact_chances_agree_between_the_reference_the_solver_and_storm():
    from checks.markov import reach_probability, storm_probability

    rng = random.Random(3)
    graphs = list(D.atlas_graphs(5))
    for graph in rng.sample(graphs, 8):
        g = nx.Graph(graph.edges())
        g.add_nodes_from(range(len(graph)))
        source, entry = 0, len(graph) - 1
        for reading in D.WALK_READINGS:
            r = C.READINGS[reading]
            p = C.WalkParameters(graph, source, frozenset({entry}), 2, 4)
            exact = reach_probability(D.chain(p, r)).probability
            assert R.success_probability(g, source, [entry], 2, 4, r) == exact
            assert abs(storm_probability(D.chain(p, r)) - float(exact)) < 1e-9


def test_exact_chances_agree_with_the_solver_where_walks_go_round_for_ever_or_no_entry_is_reachable():
    """Entries that no walk can reach, beside loops with no way out (the first budget halved), once
    made the reference's linear system singular; the printed halving is solved without one."""
    from checks.markov import reach_probability

    rng = random.Random(11)
    assert R.success_probability(nx.path_graph(2), 0, [], 2, 4, "original/kept") == 0
    for graph in rng.sample(list(D.atlas_graphs(5)), 12):
        g = nx.Graph(graph.edges())
        g.add_nodes_from(range(len(graph)))
        entries = rng.sample(range(len(graph)), rng.randint(0, 2))
        k, budget = rng.randint(1, 3), rng.randint(1, 6)
        for reading in D.WALK_READINGS:
            r = C.READINGS[reading]
            p = C.WalkParameters(graph, 0, frozenset(entries), k, budget)
            assert R.success_probability(g, 0, entries, k, budget, r) == reach_probability(D.chain(p, r)).probability


def test_the_blocks_of_a_system_are_its_strong_components_each_after_those_it_leads_to():
    """atlas._components (the block-by-block solve's order) against networkx on random directed
    graphs: the same strongly connected components, and no block before one it has an edge into
    (a block solved before the ones it leads to would read their values as 0)."""
    rng = random.Random(7)
    for _ in range(300):
        n = rng.randint(1, 30)
        edges = {a: {b: None for b in range(n) if rng.random() < rng.choice((0.03, 0.1, 0.3))} for a in range(n)}
        nodes = rng.sample(range(n), n)
        blocks = list(A._components(nodes, edges))
        graph = nx.DiGraph([(a, b) for a in edges for b in edges[a]])
        graph.add_nodes_from(range(n))
        assert sorted(map(sorted, blocks)) == sorted(map(sorted, nx.strongly_connected_components(graph)))
        position = {v: i for i, block in enumerate(blocks) for v in block}
        assert all(position[b] <= position[a] for a in edges for b in edges[a])


def test_the_fig_3_chance_is_pinned():
    # a path of six (Fig. 3's A..F) with an entry point hanging off B
    g = nx.path_graph(6)
    g.add_edge(1, 6)
    assert R.success_probability(g, 0, [6], 5, 10, "previous/kept") == Fraction(637, 1000)
    assert R.success_probability(g, 0, [6], 5, 10, "previous/cleared") == Fraction(2429, 3456)
    assert R.success_probability(g, 0, [6], 3, 4, "original/kept") == Fraction(1, 2)


def test_views_refreshed_at_every_hop_are_drawn_among_every_other_node():
    refreshed = C.READINGS["previous/kept/refreshed"]
    # an open choice, not the printed text (the reading's walk also rounds halves down, a repair)
    assert C.ORIGIN_OF_CHOICE[refreshed.views] == "open" and refreshed.origin == "repair"
    # on the path 0 - 1 - 2 with k = 1 and budget 2, an entry at 2: the snapshot reaches it through 1
    # only (1/2); a fresh view of node 0 (one node) may hold 2 itself (1/2 + 1/2 x 1/2)
    assert R.success_probability(nx.path_graph(3), 0, [2], 1, 2, "previous/kept") == Fraction(1, 2)
    assert R.success_probability(nx.path_graph(3), 0, [2], 1, 2, refreshed) == Fraction(3, 4)
    # at node 2 (a view of one) with the Trace (0, 2): the fresh view is node 0 (inside the Trace,
    # blocked: C(1, 1) / C(2, 1) = 1/2) or node 1
    p = C.WalkParameters(PATH3, 0, frozenset(), 3, 4)
    at_2 = C.WalkState(2, (0,), 1, 4)
    got = {(m.kind, m.to): pr for pr, m, _ in C.successors(p, at_2, refreshed)}
    assert got == {("forward", 1): Fraction(1, 2), ("restart", 0): Fraction(1, 4), ("restart", 2): Fraction(1, 4)}
    assert {(m.kind, m.to) for _, m, _ in C.successors(p, at_2, C.DEFAULT)} == {("forward", 1)}
    # a forward off the snapshot's links avoids the Trace under refreshed views, not under a snapshot
    walk = C.replay_walk(p, refreshed, [("forward", 2)])
    assert C.forwarding_avoids_the_trace(walk) and C.moves_within(PATH3, refreshed).views[0] == (1, 2)
    assert not C.forward_avoids_the_trace(walk.moves[0], PATH3)
    # the reference's overlay draws a fresh view among the live nodes only
    overlay = R.Overlay(12, 2, 1, seed=5, reading=refreshed)
    for v in (3, 7, 9):
        overlay.leave(v)
    overlay.subscribe(0, {"a": (0, 9)})
    out = overlay.publish(4, {"a": 5})
    assert not {to for _, to in out["walks"]["a"]} & {3, 7, 9}


def test_success_probability_refuses_bad_input():
    g = nx.path_graph(3)
    for args, message in (((nx.Graph(), 0, [1], 2, 4), "non-empty"), ((g, 9, [1], 2, 4), "start"),
                          ((g, 0, [9], 2, 4), "entries"), ((g, 0, [1], 0, 4), "k >= 1"),
                          ((g, 0, [1], 2, 0), "budget")):
        with pytest.raises(ValueError, match=message):
            R.success_probability(*args)


# ---------------------------------------------------------------- the reference held to the spec

@pytest.mark.parametrize("reading", D.WALK_READINGS)
def test_every_seeded_reference_walk_is_a_walk_the_spec_allows(reading):
    r = C.READINGS[reading]
    for seed in range(30):
        rng = np.random.default_rng(seed)
        graphs = list(D.atlas_graphs(6))
        graph = graphs[seed * 7 % len(graphs)]
        views = [list(v) for v in graph.views]
        entries = frozenset({len(graph) - 1}) if seed % 2 else frozenset()
        moves = R.walk(views, 0, entries, 1 + seed % 3, 2 + seed % 5, rng, r)
        walk = C.replay_walk(C.WalkParameters(graph, 0, entries, 1 + seed % 3, 2 + seed % 5), r, moves)
        assert walk.moves[-1].kind in ("found", "exhausted", "blocked")   # every seeded walk ended
        assert [(m.kind, m.to) for m in walk.moves] == moves


def test_what_a_fixed_seed_generates_is_pinned():
    overlay = R.Overlay(60, 4, 2, seed=7)
    assert overlay.views[0] == [9, 20, 34, 36, 40, 50, 53, 59]   # its own 4 and those that picked node 0
    for v in range(0, 60, 3):
        overlay.subscribe(v, {"x": (v % 10, v % 10 + 3), "y": (0, 5)})
    out = overlay.publish(1, {"x": 4, "y": 2})
    again = R.Overlay(60, 4, 2, seed=7)
    for v in range(0, 60, 3):
        again.subscribe(v, {"x": (v % 10, v % 10 + 3), "y": (0, 5)})
    assert again.publish(1, {"x": 4, "y": 2}) == out
    assert out["deliveries"] == []      # the printed rule ('exceeds') accepts nothing
    fixed = R.Overlay(60, 4, 2, seed=7, reading="reaches")
    for v in range(0, 60, 3):
        fixed.subscribe(v, {"x": (v % 10, v % 10 + 3), "y": (0, 5)})
    got = fixed.publish(1, {"x": 4, "y": 2})
    interested = {v for v in range(0, 60, 3) if v % 10 <= 4 <= v % 10 + 3}
    assert set(got["deliveries"]) <= interested


def test_publish_counts_each_stage_and_delivers_what_the_walks_and_trees_reach():
    """Seeded overlays of 40 nodes: stage 1 counts every message of every attribute's walk (a restart
    at the blocked node itself sends nothing), stage 2 adds up the tree routes of every attribute
    found, a walk that fails leaves the other attributes' walks to run, and under the repair
    'reaches' exactly the subscribers interested in both attributes get the event."""
    interested = [v for v in range(0, 40, 3) if v % 10 <= 4 <= v % 10 + 3]
    pinned = {0: (6, 4), 1: (8, 2), 2: (7, 0), 3: (8, 2), 4: (7, 4), 5: (5, 6), 6: (7, 0), 7: (5, 6)}
    for seed, messages in pinned.items():
        overlay = R.Overlay(40, 2, 1, seed=seed, k=3, budget=4, reading="reaches")
        for v in range(0, 40, 3):
            overlay.subscribe(v, {"a": (v % 10, v % 10 + 3), "b": (0, 5)})
        out = overlay.publish(1, {"a": 4, "b": 2})
        assert sorted(out["walks"]) == ["a", "b"]
        stage_1 = 0
        for moves in out["walks"].values():
            at = 1
            for kind, to in moves:
                stage_1 += kind in ("forward", "found") or (kind == "restart" and to != at)
                at = to
        assert (out["messages"]["stage_1"], out["messages"]["stage_2"]) == messages and stage_1 == messages[0]
        found = [a for a, moves in out["walks"].items() if moves[-1][0] == "found"]
        assert out["deliveries"] == (interested if found == ["a", "b"] else [])
        # an attribute no one subscribes to starts no walk and stops none of the others
        again = R.Overlay(40, 2, 1, seed=seed, k=3, budget=4, reading="reaches")
        for v in range(0, 40, 3):
            again.subscribe(v, {"a": (v % 10, v % 10 + 3), "b": (0, 5)})
        assert again.publish(1, {"A": 7, "a": 4, "b": 2}) == out
    # a walk with no entry point in reach blocks and restarts under the overlay's reading
    small = R.Overlay(5, 1, 0, seed=0, k=3, budget=4)
    small.subscribe(0, {"a": (0, 9)})
    assert small.publish(1, {"a": 4})["walks"]["a"] == [("forward", 3), ("forward", 2), ("restart", 3),
                                                        ("restart", 2), ("blocked", 2)]


def test_walks_mark_cut_walks_and_lassos_under_their_reading_and_reach_counts_the_budget_itself():
    first = C.READINGS["original/kept"]
    walks = [w for _, w in C.walks(C.WalkParameters(PATH3, 0, frozenset(), 2, 4), first, max_restarts=1)]
    assert all(w.reading == first for w in walks)
    cut = [w for w in walks if w.cut]
    assert cut and all(w.lasso is None and C.unfinished(w)[0][0] == "restart" for w in cut)
    lassos = [w for _, w in C.walks(C.WalkParameters(PATH3, 0, frozenset(), 2, 4), first) if w.lasso is not None]
    assert lassos and all(w.reading == first for w in lassos)
    # an entry point exactly the budget away is within reach; one hop further is not
    assert C.Delivery(C.WalkParameters(PATH3, 0, frozenset({2}), 2, 2), C.DEFAULT, Fraction(1)).entry_within_budget()
    assert not C.Delivery(C.WalkParameters(PATH3, 0, frozenset({2}), 2, 1), C.DEFAULT, Fraction(0)).entry_within_budget()


def test_overlay_refuses_bad_input():
    for kwargs, message in ((dict(nodes=1, view=1, apt=1), "at least 2"), (dict(nodes=5, view=5, apt=1), "view"),
                            (dict(nodes=5, view=2, apt=-1), "APT")):
        with pytest.raises(ValueError, match=message):
            R.Overlay(seed=0, **kwargs)
    with pytest.raises(ValueError, match="low end"):
        R.Overlay(5, 2, 1, seed=0).subscribe(0, {"x": (4, 1)})


# ---------------------------------------------------------------- every committed counterexample

def test_there_are_committed_counterexamples_of_every_kind():
    kinds = {json.loads(p.read_text())["kind"] for p in COMMITTED}
    assert kinds == {"walk", "delivery", "ending", "space", "tree", "routing", "matching", "rewalks"}


@pytest.mark.parametrize("path", COMMITTED, ids=[p.name for p in COMMITTED])
def test_every_committed_counterexample_replays_and_draws(path, tmp_path):
    doc = json.loads(path.read_text())
    replayed = drawing.replay(doc, lambda s: None)
    assert replayed.reproduced
    out = tmp_path / "cx.png"
    replayed.draw(str(out), path.stem)
    assert out.stat().st_size > 5_000


def test_an_edited_counterexample_is_refused_or_does_not_reproduce(tmp_path, capsys):
    walk = next(json.loads(p.read_text()) for p in COMMITTED if json.loads(p.read_text())["kind"] == "walk")
    for change, message in (({"moves": [["forward", 9]]}, "not a choice"), ({"k": 0}, "'k'"),
                            ({"edges": [[0, 0]]}, "distinct nodes"), ({"kind": "spiral"}, "unknown CRAWL")):
        bad = tmp_path / "bad.json"
        bad.write_text(json.dumps({**walk, **change}))
        assert cli.main(["replay", str(bad)]) == 2
        assert message in capsys.readouterr().err
    delivery = next(json.loads(p.read_text()) for p in COMMITTED if json.loads(p.read_text())["kind"] == "delivery")
    bad = tmp_path / "chance.json"
    bad.write_text(json.dumps({**delivery, "probability": "1/3"}))
    assert cli.main(["replay", str(bad)]) == 2
    assert "the walk's chain gives" in capsys.readouterr().err


def test_the_ending_chance_is_one_exactly_when_the_blocked_walks_budget_is_halved():
    from checks.markov import reach_probability, storm_probability

    for reading, expected in (("previous/kept", 1), ("previous/cleared", 1), ("original/kept", 0),
                              ("original/cleared", 0)):
        chain = D.ending_chain(ENDING, C.READINGS[reading])
        assert reach_probability(chain).probability == expected
        assert storm_probability(chain) == pytest.approx(expected, abs=1e-12)
        assert C.walk_ends_with_certainty(C.Ending(ENDING, C.READINGS[reading], Fraction(expected))) == (expected == 1)


# ---------------------------------------------------------------- the Spark job (single process)

def test_the_spark_jobs_walks_are_the_specs_and_a_failing_one_shrinks_to_its_own_nodes():
    from spark_validation.crawl import CrawlJob

    job = CrawlJob()
    batch = job.evaluate(np.arange(300)).to_pydict()
    # the printed halving ends every walk; the first budget halved does not; Step 2.2 always holds
    from spark_validation.crawl import READINGS as SPARK_READINGS

    assert set(SPARK_READINGS) == {r for r in C.WALK_READINGS
                                   if (C.READINGS[r].views, C.READINGS[r].rounding) == ("snapshot", "down")}
    for reading in SPARK_READINGS:
        assert all(batch[f"{reading}:forwarding_avoids_the_trace"])
        assert all(batch[f"{reading}:recovery_ends"]) == (C.READINGS[reading].halving == "previous")
    column = "original/kept:recovery_ends"
    seed = next(s for s, ok in zip(batch["seed"], batch[column]) if not ok)
    whole, shrunk = job.walk(job.instance(seed), "original/kept"), job.shrink(column, seed)
    assert shrunk.lasso is not None and len(shrunk.params.graph) == len(set(whole.receptions()))
    assert [m.kind for m in shrunk.moves] == [m.kind for m in whole.moves]
    doc = D.spark_document(job, column, seed)
    assert doc["method"] == "spark" and doc["seed"] == seed
    assert drawing.replay(doc, say=lambda line: None).reproduced
    with pytest.raises(ValueError, match="does not violate"):
        job.shrink("previous/kept:recovery_ends", seed)


def test_the_share_of_walks_that_reach_an_entry_agrees_with_the_exact_chances():
    """3,000 small instances of the Spark job (the even seeds below 6,000) in one process: the walks that reached an entry point among the
    instances solved exactly lie within the interval the exact chances give (and a walk that found
    entries twice as often would not)."""
    from checks.algorithms.crawl.docs import chance_against_estimate
    from spark_validation.crawl import CrawlJob
    from spark_validation.runner import evaluate_locally, summarize

    job = CrawlJob(readings=("previous/kept",), small_every=2)      # a small instance depends on its seed only
    metrics = summarize(evaluate_locally(job, np.arange(0, 6000, 2)), job)["metrics"]     # the small family
    compared = chance_against_estimate(metrics)
    assert compared["cases"] == metrics["exact_cases"]["sum"] > 400 and compared["inside"]
    doubled = {**metrics, "found_exact": {"sum": 2 * metrics["found_exact"]["sum"]}}
    assert not chance_against_estimate(doubled)["inside"]


def test_forwards_are_bounded_by_twice_the_first_budget_only_where_the_blocked_walks_budget_is_halved(tmp_path):
    bound = prop("forwards_at_most_twice_the_budget").predicate
    p = C.WalkParameters(PATH3, 0, frozenset(), 1, 1)
    planted = C.Walk(p, C.DEFAULT, (C.Move("forward", 0, 1, (0,), 1), C.Move("forward", 1, 2, (1,), 1)))
    assert not bound(planted)                                   # 2 forwards on a budget of 1: rejected
    longest = max((w for _, w in C.walks(C.WalkParameters(PATH3, 0, frozenset(), 2, 4), C.DEFAULT)),
                  key=lambda w: sum(m.kind == "forward" for m in w.moves))
    assert bound(longest) and C.restarted(longest)              # reached: a walk that restarted
    assert proofs.forwards_bounded(C.READINGS["previous/kept"]).verdict.value == "proved"
    refuted = proofs.forwards_bounded(C.READINGS["original/kept"])
    assert refuted.verdict.value == "violated" and refuted.document["property"] == "forwards_at_most_twice_the_budget"
    assert drawing.replay(refuted.document, say=lambda line: None).reproduced


# ---------------------------------------------------------------- Z3 on the upper layer

def test_the_pieces_encoding_counts_as_the_spec_does():
    rng = random.Random(3)
    for _ in range(60):
        n, high = rng.randint(1, 4), rng.randint(0, 8)
        ranges = [tuple(sorted((rng.randint(0, high), rng.randint(0, high)))) for _ in range(n)]
        assert proofs.pieces_model_agrees(n, ranges, 0, high), ranges
    assert not proofs.pieces_model_agrees(1, [(3, 1)], 0, 4)          # a range the space cannot hold


def test_z3_finds_the_least_space_beyond_n_plus_2_and_proves_the_tight_bound():
    printed = proofs.least_ranges_beyond_n_plus_2()
    assert printed.verdict.value == "violated" and printed.cases == 2
    doc = printed.document
    assert (doc["low"], doc["high"], doc["ranges"]) == (0, 4, [[1, 1], [3, 3]])
    space = C.Space(0, 4, ((1, 1), (3, 3)))
    assert not prop("virtual_nodes_at_most_subscriptions_plus_2").predicate(space)
    assert prop("virtual_nodes_at_most_twice_subscriptions_plus_1").predicate(space)
    assert drawing.replay(doc, say=lambda line: None).reproduced
    assert proofs.a_range_adds_two_cuts().verdict.value == "proved"
    assert proofs.height_step().verdict.value == "proved"
    # negative control: a bound one below the tight one is refuted at once, by one interior range
    below = proofs.least_ranges_beyond(lambda n: 2 * n, "2n", "virtual_nodes_at_most_twice_subscriptions_plus_1")
    assert below.verdict.value == "violated" and below.cases == 1 and below.document["ranges"] == [[1, 1]]
    bounded = D.upper_proof("virtual_nodes_at_most_twice_subscriptions_plus_1")
    assert bounded.unproved_step and "2n + 1" in bounded.unproved_step
    assert D.upper_proof("virtual_nodes_at_most_subscriptions_plus_2").unproved_step is None


def test_the_height_step_is_the_spec_trees_recursion():
    for n in range(2, 600):
        tree = C.balanced_tree(n)
        assert tree.height() == 1 + C.balanced_tree(n // 2).height()
        root = tree.parent.index(-1)
        assert root == n // 2                                     # the left part holds n // 2 nodes


# ---------------------------------------------------------------- sec. 5's baselines and reproduction

def test_simple_floods_every_copy_or_once_per_node_within_its_hop_limit_or_walks_one_neighbour_per_hop():
    path = [[1], [0, 2], [1, 3], [2, 4], [3]]                    # 0 - 1 - 2 - 3 - 4
    for forwarding in ("flood", "flood-once"):
        reached, messages = R.simple(path, 0, 3, forwarding=forwarding)
        assert reached == {0: 0, 1: 1, 2: 2, 3: 3} and messages == 3  # node 4 is 4 hops away: missed
    triangle = [[1, 2], [0, 2], [0, 1]]
    # every copy goes on: 0 sends 2, then each copy goes to the one neighbour it did not come from,
    # 2 copies at every hop
    assert R.simple(triangle, 0, 5) == ({0: 0, 1: 1, 2: 1}, 10)
    # dropping duplicates: 0 sends 2; 1 and 2 each send to the other (not back to 0), and stop
    assert R.simple(triangle, 0, 5, forwarding="flood-once") == ({0: 0, 1: 1, 2: 1}, 4)
    rng = np.random.default_rng(1)
    reached, messages = R.simple(path, 2, 4, rng, "random-walk")
    assert messages == 4 and set(reached) <= set(range(5)) and reached[2] == 0
    # only the nodes the data matches pass it on (the source sends it regardless): past 1, unmatched, nothing
    assert R.simple(path, 0, 3, forwarding="flood-if-matched", matched={2}) == ({0: 0, 1: 1}, 1)
    assert R.simple(path, 0, 3, forwarding="flood-if-matched", matched={1, 2}) == ({0: 0, 1: 1, 2: 2, 3: 3}, 3)
    # on the triangle every copy goes on while it is at 1 or 2; the two that reach 0 stop there
    assert R.simple(triangle, 0, 5, forwarding="flood-if-matched", matched={1, 2}) == ({0: 0, 1: 1, 2: 1}, 6)
    with pytest.raises(ValueError, match="flood, flood-once, random-walk, flood-if-matched"):
        R.simple(path, 0, 3, forwarding="gossip")
    with pytest.raises(ValueError, match="the nodes the data matches"):
        R.simple(path, 0, 3, forwarding="flood-if-matched")
    with pytest.raises(ValueError, match="hop limit"):
        R.simple(path, 0, -1)
    with pytest.raises(ValueError, match="random generator"):
        R.simple(path, 0, 3, forwarding="random-walk")


def copies_made_one_by_one(views, source, hops, forwarders=None):
    """The every-copy flood by making every copy: (node, the node it came from) per copy; with
    `forwarders`, only they pass a copy on (the source's first sends whatever it is)."""
    sent, copies = [], [(source, -1)]
    for hop in range(hops):
        copies = [(u, v) for v, came_from in copies for u in views[v] if u != came_from
                  and (hop == 0 or forwarders is None or v in forwarders)]
        sent.append(len(copies))
    return sent


@pytest.mark.parametrize("seed", range(12))
def test_the_every_copy_floods_copies_are_counted_as_making_them_one_by_one_would(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(1, 8))
    # views drawn at random, so one-way links and links both ways alike (no node twice in a view)
    views = [sorted(rng.choice(n, size=int(rng.integers(0, n + 1)), replace=False).tolist()) for _ in range(n)]
    counts = R.FloodCounts(views)
    for source in range(n):
        assert counts.copies(source, 6) == copies_made_one_by_one(views, source, 6)
        assert R.simple(views, source, 6)[1] == sum(copies_made_one_by_one(views, source, 6))
        assert R.simple(views, source, 6)[0] == R.simple(views, source, 6, forwarding="flood-once")[0]
        matched = {v for v in range(n) if rng.random() < 0.5}
        assert counts.copies(source, 6, matched) == copies_made_one_by_one(views, source, 6, matched)
        reached, sent = R.simple(views, source, 6, forwarding="flood-if-matched", matched=matched)
        assert sent == sum(copies_made_one_by_one(views, source, 6, matched))
        # the nodes a copy reaches, made one by one (with the hop it first came at)
        firsts, copies = {source: 0}, [(source, -1)]
        for hop in range(1, 7):
            copies = [(u, v) for v, came_from in copies for u in views[v] if u != came_from
                      and (hop == 1 or v in matched)]
            for u, _ in copies:
                firsts.setdefault(u, hop)
        assert reached == firsts
    assert counts.copies(0, 0) == []


def test_the_overlay_runs_simple_on_its_live_nodes_and_delivers_only_what_matches():
    overlay = R.Overlay(60, 4, 2, seed=7)
    for v in range(0, 60, 3):
        overlay.subscribe(v, {"x": (v % 10, v % 10 + 3)})
    got = overlay.simple(1, {"x": 4}, 10)
    assert got["deliveries"] == [v for v in range(0, 60, 3) if v % 10 <= 4 <= v % 10 + 3]
    overlay.leave(3)
    assert 3 not in overlay.simple(1, {"x": 4}, 10)["deliveries"]
    assert overlay.simple(1, {"x": 4}, 0) == {"deliveries": [], "messages": 0}


def test_apts_are_filled_as_each_reading_says_and_tera_broadcasts_to_its_topic():
    rng = np.random.default_rng(0)
    table = R.apt_samples(50, 7, rng)
    assert table.shape == (50, 7) and not (table == np.arange(50)[:, None]).any() and table.max() < 50
    known = R.apt_attributes(50, 30, 7, rng)
    assert known.shape == (50, 30) and (known.sum(axis=1) == 7).all()
    assert (R.apt_attributes(5, 3, 7, rng).sum(axis=1) == 3).all()           # an APT larger than the attributes
    members = np.zeros(50, dtype=bool)
    members[[4, 9]] = True
    entries = R.entry_points(table, members)
    assert {4, 9} <= entries and entries == {v for v in range(50) if v in (4, 9) or members[table[v]].any()}
    views = R.random_views(50, 3, np.random.default_rng(2))
    found, messages = R.tera(views, 0, members, entries, 4, 10, np.random.default_rng(3))
    moves = R.walk(views, 0, entries, 4, 10, np.random.default_rng(3))
    assert found == (moves[-1][0] == "found")
    assert messages == R.stage_1_messages(0, moves) + (1 if found else 0)     # two members: one more message


def test_the_reproduction_is_deterministic_and_its_points_are_sane():
    from checks.algorithms.crawl import reproduce as P

    args = (300, 5, 10, 200, 8, 6, 5, 0, "node-samples")
    first = P.effective_point(*args)
    assert first == P.effective_point(*args)
    assert first["simple-flood"]["matched"] <= first["expected"]
    assert first["crawl-routing"]["matched"] == first["crawl-with-deliveries"]["matched"] <= first["expected"]
    assert first["crawl-routing"]["messages"] < first["crawl-with-deliveries"]["messages"]
    assert 0 < first["stage_1"] * 5 <= first["crawl-routing"]["messages"]      # stage 1 is part of the routing
    other = P.effective_point(*args[:-1], "attribute-entries")
    assert other != first
    rates = [P.hit_rate_point(apt, "node-samples", 3, 100, 0) for apt in (5, 100)]
    assert rates[0] < rates[1]
    committed = json.loads(P.REPRODUCTION_JSON.read_text())
    # the workload's 500 attributes under mu 0.9, alpha 0.9: 8.3 a subscription (sec. 5.4's 8), and the APT of
    # 100 lets 90% to 95% of Fig. 5's walks reach their topology (sec. 5.3's 90%), as the choices say
    assert (P.ATTRIBUTES, P.MU, P.ALPHA) == (500, 0.9, 0.9)
    assert P.average_attributes(P.ATTRIBUTES) == pytest.approx(8.27, abs=0.01)
    rates = [v["hit_rate"] for v in committed["attribute-entries"]["fig_5"].values()]
    assert 0.9 <= min(rates) and max(rates) <= 0.96
    assert f"{min(rates):.0%} to {max(rates):.0%} of Fig. 5's walks hit" in dict(P.CHOICES)["attributes"]
    # the words read as numbers are named among the choices, with the values the judges use
    from checks.algorithms.crawl import inventory as I
    words = dict(P.CHOICES)["words read as numbers"]
    assert f"at least {I.GREATLY} times" in words and f"within {I.HARDLY} times" in words
    assert f"at most {I.FALLS:.0%} of the first" in words
    # the points of a figure are nested: n subscriptions are the first n of the larger point's, the events the same
    small, large = (P.Workload(300, 5, 10, n, 20, 0, "attribute-entries") for n in (50, 120))
    assert small.subs == large.subs[:50] and list(small.topic) == list(large.topic[:50]) and small.views == large.views
    assert [small.event() for _ in range(5)] == [large.event() for _ in range(5)]
    # at Fig. 8's APT of 20 walks do not all reach their topology: the hit rate has room to rise
    assert all(0.7 < v["hit_rate"] < 1 for f in R.APT_FILLING for v in committed[f]["fig_8"].values())


def test_fig_7_is_extended_by_the_exact_least_squares_line():
    """The fit is exact over fractions, rounded once (numpy's polyfit gave other last digits on
    another machine): points on a line give that line, others numpy's fit to 1e-12, and the
    committed extension is the line through the committed points."""
    from checks.algorithms.crawl import reproduce as P

    assert P.least_squares_line([1.0, 2.0, 4.0], [5.0, 7.0, 11.0]) == (2.0, 3.0)
    xs, ys = [100.0, 300.0, 1000.0, 3000.0], [5.0, 7.25, 9.5, 11.0]
    assert P.least_squares_line(xs, ys) == pytest.approx(tuple(np.polyfit(xs, ys, 1)), rel=1e-12)
    committed = json.loads(P.REPRODUCTION_JSON.read_text())
    fig_7 = committed["attribute-entries"]["fig_7"]
    assert P.extend(fig_7["measured"]) == fig_7["extended"]
    routing = fig_7["extended"]["fits"]["cbdlo-routing"]
    assert fig_7["extended"]["at"]["1000"]["cbdlo-routing"] == \
        routing["intercept"] + routing["slope"] * math.log2(1000)


def test_events_drawn_as_subscriptions_walk_only_their_attributes_and_match_only_subscriptions_they_cover():
    """Each event's attributes drawn by the subscriptions' law (at least one), a walk per attribute
    of the event only, and a subscription expected only when the event has every one of its
    attributes in range. The committed points are what the code gives."""
    from checks.algorithms.crawl import reproduce as P

    w = P.Workload(300, 10, 100, 300, P.ATTRIBUTES, 0, "attribute-entries")
    sizes = []
    for _ in range(200):
        source, event = w.event()
        assert event and set(event) <= set(range(P.ATTRIBUTES)) and all(0 <= v < P.DOMAIN for v in event.values())
        sizes.append(len(event))
        got = w.cbdlo(source, event, 10)
        assert got["walks"] == len(set(event) & set(w.by_attribute))
        for i in w.expected(event):
            assert set(w.subs[i][1]) <= set(event)
    assert 6 < sum(sizes) / len(sizes) < 11            # the law's 8.3 on average
    # a subscription with an attribute the event lacks is not expected, whatever its other ranges
    w.subs = [(0, {0: (0, P.DOMAIN - 1), 1: (0, P.DOMAIN - 1)})]
    assert w.expected({0: 5}) == [] and w.expected({0: 5, 1: 7}) == [0]
    committed = json.loads(P.REPRODUCTION_JSON.read_text())
    for filling in ("attribute-entries", "node-samples"):
        assert P.messages_point(300, committed["key"]["events"], committed["key"]["seed"], filling) == \
            committed[filling]["fig_7"]["measured"]["300"]


def test_reproduced_sentences_decide_over_every_reading_they_ran():
    from checks.algorithms.crawl import inventory as I

    assert I.decided({"a": True, "b": True}, ["x"])[0] == "holds"
    assert I.decided({"a": False, "b": False}, ["x"])[0] == "violated"
    assert I.decided({"a": True, "b": False}, ["x"])[0] == "ambiguous"
    # a printed reading decides; its repairs and alternatives are reported beside, not deciding
    assert I.decided_as_printed({"p": True, "r": False}, ["x"], lambda n: n == "p", "r")[0] == "holds"
    assert I.decided_as_printed({"p": False, "r": True}, ["x"], lambda n: n == "p", "r")[0] == "violated"
    assert I.decided_as_printed({"p, a": True, "p, b": False, "r": True}, ["x"], lambda n: n.startswith("p"),
                                "r")[0] == "ambiguous"
    assert I.printed_simple("attribute-entries, Simple by flood") and I.printed_simple("x, Simple by flood, an upkeep")
    # the printed flood either way it treats copies (the text leaves that open); the others are beside
    assert I.printed_simple("attribute-entries, Simple by flood-once")
    assert not I.printed_simple("attribute-entries, Simple by random-walk")
    assert not I.printed_simple("attribute-entries, Simple by flood-if-matched, counter reaches")
    # the APT filled by attributes (the table as its name describes it) decides; node-samples, this
    # project's alternative, is reported beside and never decides
    verdict, said = I.decided({"attribute-entries": True, "node-samples": False}, ["x"])
    assert verdict == "holds" and "beside it, node-samples, this project's alternative filling of the APT, not " \
        "deciding: node-samples: does not" in said
    assert I.decided({"attribute-entries": False, "node-samples": True}, ["x"])[0] == "violated"
    assert I.decided_as_printed({"attribute-entries, p": True, "node-samples, p": False}, ["x"],
                                lambda n: n.endswith("p"), "r")[0] == "holds"
    with pytest.raises(ValueError):
        I.decided({"node-samples": True}, ["x"])
    # sec. 4's counter as printed accepts nothing, so every effective-cost comparison fails as printed,
    # whatever the repaired counter shows beside it
    said = []
    named = I.with_printed_counter({"attribute-entries, Simple by flood": True}, said)
    assert named == {**{f"counter as printed (exceeds), Simple by {f}": False for f in I.FORWARDINGS},
                     "attribute-entries, Simple by flood, counter reaches": True}
    assert I.decided_as_printed(named, said, I.printed_counter, "r")[0] == "violated"
    assert not I.printed_counter("attribute-entries, Simple by flood, counter reaches")
    verdicts = {f.__name__: f()[0] for f in (I.fig_5_crawl, I.fig_5_simple, I.fig_6, I.hit_rate_rises,
                                             I.fig_7_growth, I.fig_7_small, I.fig_8, I.fig_9, I.simple_misses,
                                             I.worked_example_reach, I.apt_for_90, I.hit_rate_with_subscriptions,
                                             I.single_forwarding, I.crawl_lowers_cost, I.fig_6_against_fig_5,
                                             I.stage_one_and_attributes, I.axis_coefficients, I.stage_one_falls,
                                             I.simple_accuracy_saturates, I.simple_match_chance_rises,
                                             I.sampled_views, I.worked_example_messages, I.fig_8_heights)}
    # Simple as printed is sec. 5.3's flood (洪泛式), which leaves open whether a node passes on every copy
    # or only its first: both floods decide every Simple sentence, the random walk and the flood passed
    # on only where matched (alternatives) beside them. On the workload of 500 attributes, where the APT of 100 lets about 90% of walks reach their
    # topology: Fig. 5 violated as printed (the counter matches nothing; repaired it holds); Fig. 7's
    # growth: CBDLO's two stages grow slower than TERA, with its Node List deliveries faster, an open
    # choice (ambiguous); Fig. 7's small networks: violated; the worked example's 68,605 messages for 408
    # publications that should match fit neither flood, read as events or as matches (violated); Fig.
    # 8's 'the logarithm changes little' rests on the lost lower end (ambiguous); Fig. 8: from 250 subscriptions only 2.94 times
    # below Simple's, from 500 at least 6.08 times and falling 10% (ambiguous: the figure's lower end is
    # lost); Fig. 9: hardly changes over 250..500 and 500..1,000 attributes, not over 125..250 or the whole
    # (ambiguous: its range is lost); the hit rate rises with the subscriptions beyond the noise, per
    # walk and per lookup (holds); the first stage's printed cost falls 14% (holds); Simple's chance of
    # a match rises read over every event, not over the events with an interested one (ambiguous)
    assert verdicts == {"fig_5_crawl": "violated", "fig_5_simple": "violated", "fig_6": "violated",
                        "hit_rate_rises": "holds", "fig_7_growth": "ambiguous", "fig_7_small": "violated",
                        "fig_8": "ambiguous", "fig_9": "ambiguous", "simple_misses": "holds",
                        "worked_example_reach": "violated", "apt_for_90": "ambiguous",
                        "hit_rate_with_subscriptions": "holds", "single_forwarding": "violated",
                        "crawl_lowers_cost": "ambiguous", "fig_6_against_fig_5": "violated",
                        "stage_one_and_attributes": "holds", "axis_coefficients": "holds",
                        "stage_one_falls": "holds", "simple_accuracy_saturates": "holds",
                        "simple_match_chance_rises": "ambiguous", "sampled_views": "violated",
                        "worked_example_messages": "violated", "fig_8_heights": "ambiguous"}
    # the worked example read with its own 408 publications: as 408 events a flood of 10 hops sends at
    # least 2,999 an event, 1,223,592 in all; as 408 matches, 168 messages per expected match, where the
    # flood dropping duplicates sends 542,029 at the first point and the random walk 95 (beside)
    said = I.worked_example_messages()[1]
    assert ("attribute-entries, Simple by flood-once: 56,913 messages an event, 23,220,504 for 408 events; 542,029 per "
            "expected match (21 matches expected over 200 events)") in said
    assert "408 events at least 1,223,592" in said and "the paper's 168 messages per expected match" in said
    # the reading of 408 as events decides (no workload enters it); as matches, which rests on the workload, beside
    assert ("(as printed: attribute-entries, 408 read as events, Simple by flood: does not; attribute-entries, 408 read "
            "as events, Simple by flood-once: does not; beside it") in said
    assert "attribute-entries, 408 read as matches, Simple by flood-once: does not" in said.split("beside it")[1]
    # sec. 2's views drawn uniformly: a random graph with short paths, but no heavy tail (no power law)
    # and a random graph's clustering
    assert "degrees 12..31, mean 20.0 (the largest 1.6 times the mean: no heavy tail" in I.sampled_views()[1]
    # stage 1 grows with the attributes (Fig. 9's runs) and spreads 1.23 times over the subscriptions at
    # the APT of 100 (within the 1.5 of 'hardly')
    said = I.stage_one_and_attributes()[1]
    assert "attribute-entries: stage 1 32.3, 57.6, 95.3, 122.7, 142.9 messages per event over 125, 250" in said
    assert ("attribute-entries, APT 100: stage 1 39.9, 39.5, 38.6, 37.0, 34.6, 32.5 messages per event over 250, 500, "
            "1000, 2000, 4000, 8000 subscriptions (1.23 times from least to most)") in said
    assert "(at the printed APT of 100: attribute-entries, APT 100: shows it; beside it" in said
    # Fig. 8's x 0.1 for Simple is one forwarding of a view of 10, not of Fig. 8's 20
    assert "the flood's 1/20 on average, 2 times, not within 1.5" in I.single_forwarding()[1]
    # apart from the counter, at the printed APT of 100, CRAWL's effective cost is below the flood's, and they say so
    verdict, said = I.crawl_lowers_cost()
    # counting CRAWL's Node List deliveries too (as 'all the system's messages' would), CRAWL sends more
    # messages than the flood where the subscriptions are many: the repaired reading is ambiguous
    assert "with the counter repaired the effective-cost reading is ambiguous" in said
    # 'distribution cost' as the effective cost fails as printed (the counter matches nothing); as the
    # messages alone CRAWL's two stages are below the flood, with its deliveries not: ambiguous
    assert ("(as printed: counter as printed (exceeds), Simple by flood: does not; counter as printed (exceeds), Simple "
            "by flood-once: does not; attribute-entries, APT 100, CRAWL's two stages, messages alone, Simple by flood: "
            "shows it; attribute-entries, APT 100, CRAWL's two stages, messages alone, Simple by flood-once: shows it; "
            "attribute-entries, APT 100, CRAWL with its Node List deliveries, messages alone, Simple by flood: does "
            "not;") in said
    assert said.startswith(I.REPRODUCED + "with sec. 4's counter as printed (exceeds) no subscription accepts")
    assert ("attribute-entries, APT 100, CRAWL's two stages, per subscription: Simple by flood at least 33.1 times "
            "CRAWL over this project's points of Figs. 5-6 (least at Fig. 6's budget 2)") in said
    assert ("attribute-entries, APT 100, CRAWL with its Node List deliveries, messages alone (no match counted): "
            "Simple by flood at least 0.23 times CRAWL") in said
    # Fig. 5 as printed: the counter accepts nothing, so CRAWL's effective cost is unbounded; with the
    # repaired counter CRAWL is far below the flood and flat over the subscriptions (1.1 times)
    said = I.fig_5_crawl()[1]
    assert ("(as printed: counter as printed (exceeds), Simple by flood: does not; counter as printed (exceeds), Simple "
            "by flood-once: does not; beside it") in said
    assert "CRAWL's effective cost 15,103..17,145 over 250, 500, 1000, 2000, 4000, 8000 subscriptions (1.1 times" in said
    # counted as its two stages (Fig. 5's explanation) the repair holds; with its Node List deliveries
    # (all the system's messages) CRAWL's cost grows 23 times with the subscriptions: the repair is ambiguous
    assert ("attribute-entries, APT 100, CRAWL's two stages, per subscription, Simple by flood, counter reaches: shows "
            "it") in said
    assert ("attribute-entries, APT 100, CRAWL with its Node List deliveries, per subscription, Simple by flood, counter "
            "reaches: does not") in said
    assert "CRAWL's effective cost 86,280..1,965,228 over 250, 500, 1000, 2000, 4000, 8000 subscriptions (23 times" in said
    assert "with the counter repaired the effective-cost reading is ambiguous" in said
    assert "the walks reached their topology 0.904, 0.92, 0.923, 0.938, 0.948, 0.959 of the time" in said
    # sec. 5.4's rising hit rate at Fig. 8's printed parameters (APT 20, budget 30): per walk and per
    # APT lookup, each beyond the sampling noise
    said = I.hit_rate_with_subscriptions()[1]
    assert ("per walk: attribute-entries, Fig. 8's points (APT 20): 0.768, 0.818, 0.845, 0.868, 0.905 over 250, 500, "
            "1000, 2000, 3000 subscriptions (1,522 to 1,607 walks a point)") in said
    assert "per lookup: attribute-entries, Fig. 8's points (APT 20): 0.0488, 0.0584, 0.0667, 0.0789, 0.092" in said
    assert ("(attribute-entries, Fig. 8's points (APT 20), per walk: shows it; attribute-entries, Fig. 8's points "
            "(APT 20), per lookup: shows it; beside it") in said
    # beyond the noise: a dip within twice the standard error is no fall, one beyond it is
    assert I.rises_beyond_noise([0.5, 0.49, 0.6], [2000, 2000, 2000])
    assert not I.rises_beyond_noise([0.5, 0.4, 0.6], [2000, 2000, 2000])
    assert not I.rises_beyond_noise([0.5, 0.51], [100, 100])          # up, but within the noise
    # the first stage's matching cost as the cost model prints it (|APT| x the slowest attribute's
    # H_stage1) falls 14%; the stage-1 messages summed over the walks, beside, 31%
    said = I.stage_one_falls()[1]
    assert "attribute-entries, Fig. 8's points (APT 20): 568.2, 547.6, 535.6, 504.9, 489.5 over 250" in said
    assert ("(as printed: attribute-entries, Fig. 8's points (APT 20), |APT| x H_stage1 of the slowest attribute: "
            "shows it; beside it") in said
    assert "attribute-entries, Fig. 8's points (APT 20), stage-1 messages summed over the walks: shows it" in said
    # 'the APT cannot be below 100' depends on how many attributes there are, which the text does not
    # give; Figs. 5-6's own workload is calibrated to it, so it is not evidence
    said = I.apt_for_90()[1]
    assert "attribute-entries, 300: shows it" in said and "node-samples, 3: does not" in said
    assert "attribute-entries, 500: does not" in said and "500: 0.70, 0.88" in said
    assert "Figs. 5-6's workload is not evidence" in said
    assert "beside it, the alternatives random-walk (one random neighbour a hop) and flood-if-matched" in \
        I.fig_5_simple()[1]
    # Simple's random walk matches nothing at Fig. 5's fewest subscriptions: its effective cost is unbounded
    assert "attribute-entries, Simple by random-walk, per subscription: unbounded at 250 subscriptions, 244,750 at " \
        "8000" in I.fig_5_simple()[1]
    # the flood reaches every interested subscription at 10 hops, so its chance of a match is 1 at every
    # point of the events with one; of every event it rises, as more subscriptions make an event likelier
    # to interest one (the points' subscriptions nested, their events the same)
    said = I.simple_match_chance_rises()[1]
    assert ("attribute-entries, Simple by flood: 1, 1, 1, 1, 1, 1 of the events with an interested subscription "
            "matched") in said
    assert "attribute-entries, Simple by flood: 0.105, 0.13, 0.155, 0.43, 0.81, 0.945 of every event matched" in said
    assert ("(as printed: attribute-entries, of the events with an interested subscription, Simple by flood: does "
            "not; attribute-entries, of every event, Simple by flood: shows it; attribute-entries, of the events with an "
            "interested subscription, Simple by flood-once: does not") in said
    # the worked example's 68,605 messages for 408 expected matches: one event of the flood passing on every
    # copy sends 8.36e12, of the one dropping duplicates 56,913; per expected match neither fits (above)
    verdict, said = I.worked_example_messages()
    assert verdict == "violated" and ("attribute-entries, Simple by flood: 8.36e+12 messages an event, 3.41e+15 for 408 "
                                      "events; 7.96e+13 per expected match") in said
    assert "(attribute-entries, CBDLO's two stages: shows it; attribute-entries, CBDLO with its deliveries: does not" \
        in I.fig_7_growth()[1]
    assert ("attribute-entries: from 100 to 30,000 nodes CBDLO's messages per event grow 1.8 times (50 to 89), TERA's "
            "138 times") in I.fig_7_growth()[1]
    # the flood dropping duplicates stops growing once it has reached everyone; forwarding every copy it does not
    verdict, said = I.fig_6_simple_messages()
    assert verdict == "ambiguous" and ("(as printed: attribute-entries, Simple by flood: shows it; attribute-entries, "
                                       "Simple by flood-once: does not; beside it") in said
    # Fig. 6 against Fig. 5: per subscription CRAWL falls 13% over the budgets and rises 3.2% over the
    # subscriptions; per event it rises 9.1% over the budgets (repaired: ambiguous; as printed: violated)
    verdict, said = I.fig_6_against_fig_5()
    assert verdict == "violated" and ("attribute-entries, APT 100, CRAWL's two stages, per subscription: CRAWL falls "
                                      "by 13% over budgets 2, 4, 6, 8, 10, 15, 20, 30 (19,397 to 16,881) and rises by "
                                      "3.2% over") in said
    assert "attribute-entries, APT 100, CRAWL's two stages, per event: CRAWL rises by 9.1% over budgets" in said
    assert "with the counter repaired the effective-cost reading is ambiguous" in said
    assert [I.fall_said(f) for f in (0.0051, 0.92, 0.125, -0.59, 0)] == [
        "falls by 0.51%", "falls by 92%", "falls by 12%", "rises by 59%", "falls by 0%"]
    assert ("attribute-entries, APT 100, CRAWL's two stages, per subscription, Simple by flood, counter reaches: shows "
            "it") in said
    assert "attribute-entries, APT 100, CRAWL's two stages, per event, Simple by flood, counter reaches: does not" in said
    # Figs. 6-7 are judged on the protocols' own messages; the upkeep that would change them is named, beside
    assert "an upkeep of at least 51,203 messages per event (17 per node) counted too" in I.fig_6()[1]
    assert ("(as printed: attribute-entries, per subscription, Simple by flood: does not; attribute-entries, per "
            "subscription, Simple by flood-once: does not; attribute-entries, per event, Simple by flood: does not; "
            "attribute-entries, per event, Simple by flood-once: does not; beside it") in I.fig_6()[1]
    assert ("attribute-entries, per subscription, Simple by flood, an upkeep of 51,203 messages per event counted "
            "too: shows it") in I.fig_6()[1]
    # costs that may be unbounded (nothing matched): compared as such
    assert I.at_most(1.0, 0.9, 2) and not I.at_most(1.0, 0.9, math.inf) and not I.at_most(math.inf, 0.9, math.inf)
    assert not I.at_most(2, 0.5, 3)
    assert math.isnan(I.times(math.inf, math.inf)) and I.times(math.inf, 2) == math.inf and I.times(1, 4) == 0.25
    assert I.big(math.inf) == "unbounded" and I.big(9e12) == "9e+12" and I.big(1234.4) == "1,234"
    # Fig. 7's small networks: CBDLO's walks, one per attribute, against TERA's one walk
    small = I.fig_7_small()[1]
    assert "the same upkeep of at least 45 messages per event counted for both" in small
    assert ("(attribute-entries, CBDLO's two stages: does not; attribute-entries, CBDLO with its deliveries: does not; "
            "beside it, node-samples") in small
    assert "attribute-entries, at 100 nodes CBDLO sends 22.9 times TERA's messages per event (50 against 2.2" in small
    # sec. 3.1's parallel walks, in hops: the slowest attribute's against the sum over the attributes
    verdict, said = I.parallel_speeds_up()
    assert verdict == "holds" and ("attribute-entries, Fig. 9's points (125, 250, 500, 750, 1000 attributes): the "
                                   "slowest attribute's hops 17.6, 24.2, 28.2, 30.1, 30.3 against their sum 63.2") in said
    # its reason holds: TERA's broadcast and walk are a message or two, CBDLO's walks tens of messages; and
    # what they explain is a wide gap, which the evidence says
    verdict, said = I.fig_7_small_reason()
    assert verdict == "holds" and ("attribute-entries, at 100 nodes: TERA's broadcast 0.32 and walk 1.84 messages per "
                                   "event, CBDLO's walks 30.2, its two stages 22.9 times TERA's messages") in said
    assert "what they explain there is a wide gap" in said
    # Fig. 6's 'rather the messages themselves become the main cost': once the flood reaches every
    # interested subscription (budget 4) its messages go on multiplying and its reach does not
    verdict, said = I.simple_messages_dominate()
    assert verdict == "ambiguous" and ("attribute-entries, Simple by flood: its reach within 1% of its most from budget 4 "
                                   "(1); its messages from there over budgets 4, 6, 8, 10, 15, 20, 30 grow 3.32e+33 "
                                   "times, its reach 1 times") in said
    assert "(as printed: attribute-entries, Simple by flood: shows it; attribute-entries, Simple by flood-once: does not" \
        in said
    assert I.least_upkeep({"messages": 10, "effective": 40}, {"messages": 30, "effective": 30}, 1, "subscriptions") == 10
    assert I.least_upkeep({"messages": 10, "effective": 20}, {"messages": 9, "effective": 9}, 1, "subscriptions") == 0
    assert I.least_upkeep({"messages": 10, "effective": 10}, {"messages": 30, "effective": 30}, 1, "subscriptions") is None
    # Fig. 9's range of attributes is lost: over this project's 125..1,000 the cost grows 2.55 times, over
    # each doubling from 250 up it hardly changes
    said = I.fig_9()[1]
    assert "attribute-entries: the printed cost x 1/8 27.7, 48.2, 63.4, 70, 70.5 over 125, 250, 500, 750, 1000" in said
    assert ("(attribute-entries, 125..1000 attributes: does not; attribute-entries, 125..250 attributes: does not; "
            "attribute-entries, 250..500 attributes: shows it; attribute-entries, 500..1000 attributes: shows it; "
            "beside it") in said
    assert "attribute-entries, 125..1000 attributes: 2.55 times from least to most" in said
    # Fig. 8's lower end is lost: from 250 CBDLO is only 2.94 times below Simple, from 500 at least 6.08;
    # the printed cost takes H_stage2 as the tree's height (sec. 5.4), the route's hops beside
    said = I.fig_8()[1]
    assert "71.3, 68.7, 67.2, 63.4, 61.6, 59.1, 53.6 (with H_stage2 the route's hops instead of the tree's height, " \
        "70.7, 67.7, 65.9, 62.2, 60.9, 57.8, 52.6)" in said
    assert "2.94, 6.08, 12.4, 26.1, 40.4, 70, 123 times" in said
    assert ("attribute-entries, from 500 subscriptions: at least 6.08 times below Simple's, and falls by 10% from 500 "
            "to 3000 subscriptions") in said
    assert ("(attribute-entries, from 250 subscriptions: does not; attribute-entries, from 500 subscriptions: shows "
            "it; beside it") in said
    # sec. 5.2, over the range the sentence gives (0 < alpha, mu < 1), fails under both exponents; under
    # mu x i^-alpha attribute 1's chance is mu, so read at some point of the range (the experiments', not
    # given: 假定) it holds where mu > 1/2; both readings decide
    verdict, said = I.zipf_superscript()
    assert verdict == "ambiguous" and "at 36 of the 81 (mu, alpha) points, each with mu > 1/2" in said
    assert ("(mu x i^alpha, every mu and alpha of the range: does not; mu x i^alpha, some mu and alpha of the range "
            "(those of the experiments are not given): does not; mu x i^-alpha, every mu and alpha of the range: does "
            "not; mu x i^-alpha, some mu and alpha of the range (those of the experiments are not given): shows it)") \
        in said
    # sec. 5.3: stage 2 is the tree's height, which grows with the subscriptions (2.03 -> 5.08 levels)
    verdict, said = I.stage_two_and_subscriptions()
    assert verdict == "violated" and "attribute-entries: the trees' mean height 2.03 over 7.5 pieces at 250" in said
    # sec. 3.2: with the printed halving and the Trace kept a walk can go round for ever, handing the data back
    # and forth (unbounded); cleared, the Trace lowers the redundant messages in total, yet raises them where a
    # walk restarts into it; so the printed readings disagree (the repair, rounded down, is said beside them)
    verdict, said = I.trace_and_redundant_messages()
    assert verdict == "ambiguous" and "previous/kept/round-up: unbounded" in said
    assert "from 0, k = 2, budget 2: it never ends with chance 1" in said
    assert "previous/cleared/round-up: the Trace raises the expected redundant messages in 123 of 822" in said
    assert "lowers their total from 850.5 to 548.5" in said
    assert "previous/kept (rounded down, the repair): the Trace raises the expected redundant messages in 13 of 822" in said
    assert "from 0, k = 2, budget 2: 3/2 against 1" in said and "lowers their total from 850.5 to 354.6" in said
    # begun as step 1 (to any neighbour) the kept Trace's walks end, and the Trace lowers the total as cleared
    assert "previous/kept/round-up/step-1: the Trace raises the expected redundant messages in 120 of 822" in said
    assert "lowers their total from 850.5 to 554.1" in said
    # read in total it depends on the Trace on a restart; read case by case ('never higher') it fails under each
    assert ("(previous/kept/round-up, in total: does not; previous/kept/round-up, in every case: does not; "
            "previous/cleared/round-up, in total: shows it; previous/cleared/round-up, in every case: does not; "
            "previous/kept/round-up/step-1, in total: shows it; previous/kept/round-up/step-1, in every case: does "
            "not)") in said
    # sec. 3's 'to prevent the path blocking' word for word: every walk on Fig. 3's path blocks
    verdict, said = I.recovery_prevents_blocking()
    assert verdict == "violated" and "previous/kept/round-up: 573 of 573 walks from A" in said
    assert "previous/kept/round-up/step-1, word for word (no walk blocks): does not" in said
    # sec. 5.4: below 3,000 subscriptions the reproduction's trees grow 2.12 times (each of the 500
    # attributes' trees is small); by the text's formulas log2 (n + 2) grows 1.45 times from 250, 1.73
    # from 100: the figure's points are lost and '(<3000)' gives no lower end
    verdict, said = I.fig_8_heights()
    assert verdict == "ambiguous" and "4.32 over 30.9 at 3,000 (2.12 times from least to most)" in said
    assert "log2 252 = 8.0 to log2 3,002 = 11.6, 1.45 times" in said
    assert "from 100 subscriptions log2 (n + 2) grows 1.73 times and log2 (2n + 1) 1.64 times" in said


def test_a_lazy_layer_is_the_same_whichever_node_is_drawn_first_and_drops_the_nodes_that_left():
    a = R.LazyLayer(500, 10, seed=11, source=3, left=0.3, entry=0.2)
    b = R.LazyLayer(500, 10, seed=11, source=3, left=0.3, entry=0.2)
    order = [7, 3, 250, 499, 0]
    assert [a.views[v] for v in order] == [b.views[v] for v in reversed(order)][::-1]
    for v in order:
        view = a.views[v]
        assert view == sorted(view) and v not in view and len(view) <= 10
        assert all(a.alive(u) for u in view)
    gone = [v for v in range(500) if not a.alive(v)]
    assert 0.2 < len(gone) / 500 < 0.4 and a.alive(3)                     # the source never leaves
    assert all(not a.is_entry(v) for v in gone)
    assert 0.1 < sum(a.is_entry(v) for v in range(500)) / 500 < 0.3
    full = R.LazyLayer(500, 10, seed=11, source=3)
    assert all(len(full.views[v]) == 10 for v in range(20))                # nothing left: whole views
    assert R.LazyLayer(500, 10, seed=12, source=3).views[7] != full.views[7]
    with pytest.raises(ValueError, match="view"):
        R.LazyLayer(5, 5, seed=0, source=0)


def test_the_large_family_walks_at_sec_5s_sizes_replay_on_the_spec_under_every_reading():
    from spark_validation.crawl import CrawlJob

    job = CrawlJob()
    seeds = np.array([s for s in range(1, 250) if s % job.small_every])    # the large family
    batch = job.evaluate(seeds).to_pydict()
    assert all(batch["large"]) and all(100 <= n <= 3000 for n in batch["n"])
    assert all(5 <= b <= 30 for b in batch["budget"])
    assert 0 < sum(batch["found"]) < len(seeds)                             # some walks miss their topology
    assert sum(batch["found_large"]) == sum(batch["found"])
    inst = job.instance(int(seeds[0]))
    layer = inst.layer
    assert layer["view"] in (10, 20) and 20 <= layer["apt"] <= 100 and 0 <= layer["left"] <= 0.2
    walks = {r: job.walk(inst, r) for r in job.readings}
    # the same draws under every reading: the walks agree until one restarts
    assert len({tuple((m.kind, m.to) for m in w.moves) for w in walks.values() if not C.restarted(w)}) <= 1
    for w in walks.values():
        assert all(len(w.params.graph.views[v]) == 0 for v in range(len(w.params.graph))
                   if v not in set(w.receptions()))                        # only the views the walk read
    # make validate's count: a million walks at sec. 5's sizes, a quarter as many small ones
    total = plugin.algorithm(D.ALGORITHM.name).spark.instances["validate"]
    assert total - -(-total // job.small_every) == 1_000_000 and total // job.small_every == 250_000
    with pytest.raises(ValueError, match="small_every"):
        CrawlJob(small_every=0)
    with pytest.raises(ValueError, match="large family"):
        CrawlJob(large_views=(5000,))
    assert CrawlJob.from_config(job.config()) == job
    # a summary's stored config (JSON) equals the job's own, so a second run reuses its folder
    assert json.loads(json.dumps(job.config())) == job.config()


# ---------------------------------------------------------------- churn: stale APT entries and the re-walk (sec. 4)

def churned(reading: str, seed: int = 5) -> R.Overlay:
    """40 nodes, every APT caching the attribute's entry (APT 1, one attribute), two subscribers
    named by the APTs; then subscriber 0 leaves the topology (its node stays): the APT entries
    naming it are stale."""
    o = R.Overlay(40, 3, 1, seed=seed, k=3, budget=8, reading=reading)
    o.subscribe(0, {"a": (0, 5)})
    o.subscribe(20, {"a": (3, 9)})
    o.publish(7, {"a": 4})                              # fills the APTs
    o.unsubscribe(0)
    return o


def test_a_stale_apt_entry_starts_a_new_walk_from_the_node_it_names_with_the_budget_halved():
    seen = 0
    for source in range(1, 40):
        o = churned("previous/kept")
        stale = {v for v, e in o.apt_entries["a"].items() if e == 0}
        assert stale and 0 not in o.subscriptions
        out = o.publish(source, {"a": 4})
        chain = [{"from": source, "budget": 8, "moves": out["walks"]["a"]}, *out["rewalks"].get("a", [])]
        for before, after in zip(chain, chain[1:]):
            assert before["moves"][-1][0] == "found" and before["moves"][-1][1] in stale
            assert after["from"] == 0 and after["budget"] == before["budget"] // 2 >= 1
        seen += len(chain) > 1
        last = chain[-1]["moves"][-1]
        delivered = last[0] == "found" and last[1] not in stale
        assert out["deliveries"] == ([20] if delivered and o.reading.acceptance == "reaches" else [])
    assert seen >= 5                                     # the re-walk is reached, not vacuous


def test_halving_the_first_budget_keeps_every_re_walk_at_half_of_it_and_a_refresh_ends_staleness():
    for source in range(1, 40):
        out = churned("original/kept").publish(source, {"a": 4})
        assert all(r["budget"] == 4 for r in out["rewalks"].get("a", []))
    o = churned("previous/kept")
    o.refresh()
    for source in range(1, 40):
        out = o.publish(source, {"a": 4})
        assert "a" not in out["rewalks"] and all(e == 20 for e in o.apt_entries["a"].values())


def test_data_handed_to_a_node_that_left_is_lost_and_a_node_that_joins_has_a_fresh_view():
    lost = 0
    for source in range(1, 40):
        o = churned("reaches")
        o.subscribe(0, {"a": (0, 5)})
        o.leave(0)                                       # the node itself goes: its APT entries now name a dead node
        out = o.publish(source, {"a": 4})
        lost += out["lost"] == ["a"]
        assert 0 not in {v for moves in [out["walks"]["a"]] for _, v in moves}
    assert lost >= 5
    o = churned("previous/kept")
    o.leave(3)
    o.join(3)
    assert o.alive[3] and len(o.views[3]) == 3 and all(3 in o.views[u] for u in o.views[3])
    assert all((3 in o.views[u]) == (u in o.views[3]) for u in range(40))
    for bad in (-1, 40, "3", True):
        for action in (o.unsubscribe, o.leave, o.join):
            with pytest.raises(ValueError, match="not a node"):
                action(bad)


def test_the_overlay_runs_tera_on_the_same_lower_layer():
    overlay = R.Overlay(60, 4, 5, seed=7)
    topics = {v: v % 3 for v in range(0, 60, 2)}                 # 30 subscribers, 3 topics
    members = sorted(v for v, t in topics.items() if t == 1)
    got = overlay.tera(1, 1, topics)
    # found: every member gets it, one message per other member beside the walk's; else nothing
    assert got["deliveries"] in ([], members)
    if got["deliveries"]:
        assert got["messages"] >= len(members) - 1 + 1
    reached = sum(bool(R.Overlay(60, 4, 5, seed=s).tera(1, 1, topics)["deliveries"]) for s in range(20))
    assert 10 <= reached <= 20                                    # the walk finds the topic most of the time
    overlay.leave(members[0])
    got = overlay.tera(1, 1, topics)
    assert members[0] not in got["deliveries"]
    assert overlay.tera(1, "none", topics) == {"deliveries": [], "messages": 0}
    with pytest.raises(ValueError, match="not a node"):
        overlay.tera(1, 1, {99: 1})


def test_rewalks_follow_sec_4s_halving_and_end_only_where_the_walk_before_is_halved():
    chain = C.Rewalks(C.DEFAULT, (8, 4, 2, 1))
    assert prop("rewalks_end").predicate(chain) and prop("rewalks_end").witness(chain)
    first = C.READINGS["original/kept"]
    stuck = C.Rewalks(first, (2, 1, 1, 1), cut=True)
    assert not prop("rewalks_end").predicate(stuck) and stuck.describe() == "2 -> 1 (x 3), cut before the re-walks ended"
    assert not prop("rewalks_end").predicate(C.Rewalks(C.DEFAULT, (8, 4), cut=True))     # cut: not ended
    with pytest.raises(ValueError, match="re-walk 1 has budget 8, not 4"):
        C.Rewalks(C.DEFAULT, (8, 8))
    with pytest.raises(ValueError, match="budgets >= 1"):
        C.Rewalks(C.DEFAULT, ())
    # the reference's chains, scenario by scenario, follow the spec's rule (Rewalks checks each budget)
    scenario = {"nodes": 12, "view": 2, "seed": 3, "k": 2, "budget": 16, "subscribers": [0, 5, 9], "gone": 2,
                "source": 4}
    for reading in C.WALK_READINGS:
        chain = D.rewalks_of(scenario, C.READINGS[reading])
        assert chain.budgets[0] == 16 and chain.reading.name == reading
    doc = json.loads(next(p for p in COMMITTED if "rewalks_end" in p.name).read_text())
    assert doc["reading"].startswith("original/") and drawing.replay(doc, say=lambda line: None).reproduced
    for bad, message in (({**doc["scenario"], "gone": 9}, "does not fit"), ({**doc["scenario"], "subscribers": [0, 0]},
                                                                           "distinct nodes"),
                         ({**doc["scenario"], "seed": -1}, "seed")):
        with pytest.raises(ValueError, match=message):
            drawing.replay({**doc, "scenario": bad}, say=lambda line: None)


# ---------------------------------------------------------------- what a mutation sample showed untested

def test_small_facts_a_mutant_would_change():
    overlay = R.Overlay(10, 2, 1, seed=0)
    assert (overlay.k, overlay.budget) == (4, 10)                 # sec. 5's budget of 10, a Trace of 4
    assert C.effective_cost(10, 1, 1) == 10 and C.effective_cost(7, 2, 1) == Fraction(7, 2)
    for matched, expected in ((0, 5), (5, 0), (-1, 3)):
        with pytest.raises(ValueError, match="matched > 0 and expected > 0"):
            C.effective_cost(10, matched, expected)
    assert C.zipf_as_printed(4, 0.5, 0.5) == 1.0 and C.zipf_as_intended(4, 0.5, 0.5) == 0.25
    assert C.zipf_as_printed(9, 0.5, 0.5) == 1.5                  # mu x i^alpha, not mu x i x alpha
    with pytest.raises(ValueError, match=r"distinct nodes of 0\.\.4"):
        C.Graph.of([(0, 7)], 5)
    with pytest.raises(ValueError, match=r"entries \['9'\] are not nodes of 0\.\.2"):
        C.WalkParameters(PATH3, 0, frozenset({9}), 1, 1)
    with pytest.raises(ValueError, match="unknown acceptance 'sometimes'"):
        C.Reading("x", acceptance="sometimes")
    with pytest.raises(ValueError, match="unknown counting 'twice'"):
        C.Reading("x", counting="twice")


def test_every_walk_with_a_bound_on_restarts_still_sums_to_probability_one():
    path4 = C.Graph.of([(0, 1), (1, 2), (2, 3)], 4)
    for reading in ("original/kept", "previous/kept"):
        walks = list(C.walks(C.WalkParameters(path4, 1, frozenset(), 2, 4), C.READINGS[reading], max_restarts=1))
        first_cut = next(i for i, (_, w) in enumerate(walks) if w.cut)
        assert sum(p for p, _ in walks) == 1 and first_cut < len(walks) - 1     # walks go on after a cut one


def test_simples_random_walk_records_each_node_it_reaches_at_its_first_hop():
    star = [[1, 2, 3, 4, 5, 6], [0], [0], [0], [0], [0], [0]]
    rng = np.random.default_rng(4)
    reached, messages = R.simple(star, 0, 6, rng, "random-walk")
    assert messages == 6 and reached[0] == 0
    assert all(reached[v] % 2 == 1 for v in reached if v)          # a leaf is reached at an odd hop
    assert all(isinstance(h, int) and 0 <= h <= 6 for h in reached.values())


def test_more_small_facts_a_second_mutation_sample_showed_untested():
    # a restart that moves the data is a message, one at the blocked node itself is not
    assert R.stage_1_messages(0, [("forward", 1), ("restart", 0), ("forward", 2), ("found", 2)]) == 4
    assert R.stage_1_messages(0, [("forward", 1), ("restart", 1), ("blocked", 1)]) == 1
    assert C.Graph.of([(1, 0)], 2).views == ((1,), (0,))             # an edge may name its higher node first
    with pytest.raises(ValueError, match=r"a view holds 1\.\.4 other nodes"):
        R.LazyLayer(5, 5, seed=0, source=0)
    with pytest.raises(ValueError, match="at least 2 nodes"):
        R.Overlay(5.0, 2, 1, seed=0)
    # TERA's walk blocks and restarts under the reading it is given
    path = [[1], [0, 2], [1]]
    members = np.zeros(3, dtype=bool)
    for reading in ("previous/kept", "previous/cleared"):      # (halving the first budget restarts for ever here)
        r = C.READINGS[reading]
        found, messages = R.tera(path, 0, members, set(), 2, 4, np.random.default_rng(1), r)
        moves = R.walk(path, 0, set(), 2, 4, np.random.default_rng(1), r)
        assert not found and messages == R.stage_1_messages(0, moves) and any(k == "restart" for k, _ in moves)
    # a chain of re-walks cut by the bound names its attribute
    scenario = json.loads(next(p for p in COMMITTED if "original+kept-rewalks_end" in p.name).read_text())["scenario"]
    o = R.Overlay(scenario["nodes"], scenario["view"], 1, scenario["seed"], scenario["k"], scenario["budget"],
                  "original/kept")
    for v in scenario["subscribers"]:
        o.subscribe(v, {"a": (0, 9)})
    o.publish(scenario["source"], {"a": 5})
    for v in scenario["subscribers"][:scenario["gone"]]:
        o.unsubscribe(v)
    out = o.publish(scenario["source"], {"a": 5})
    assert out["cut"] == ["a"] and out["lost"] == ["a"] and len(out["rewalks"]["a"]) == R.MAX_REWALKS


# --------------------------------------------------------------------------------------------
# The atlas scope: every walk as the graph of its states (checks/algorithms/crawl/atlas.py)
# --------------------------------------------------------------------------------------------



def small_atlas(reading: C.Reading, budgets: tuple[int, ...]):
    """The declaration's own search of states (atlas_states) on every graph of up to 4 nodes."""
    scope = attrs.evolve(D.SCOPES["default"], atlas_nodes=4, atlas_ks=(1, 2, 3), atlas_budgets=budgets)
    return D.atlas_states(scope, reading)


def _same_search(graph: C.Graph, k: int, budget: int, r: C.Reading) -> None:
    fast, spec = A.explore(graph, k, budget, r), A.explore(graph, k, budget, r, A.spec_steps(graph, k, budget, r))
    assert (fast.states, fast.moves, fast.roots, fast.order, fast.round) == \
        (spec.states, spec.moves, spec.roots, spec.order, spec.round), (graph, k, budget, r.name)


def test_the_searchs_successors_are_the_specs_on_every_state():
    """atlas.Steps builds each state's choices itself (states and moves shared, chances counted
    once): on every graph of up to 4 nodes, every k and budget of the default scope and every walk
    reading; on every graph of 5 nodes at the scope's least and most k and two budgets; and on two
    graphs of 7 under the readings that differ most (views refreshed, the printed half, the original
    budget halved and the Trace cleared), the search finds the spec's states, choices, chances and
    order, one for one."""
    scope = D.SCOPES["default"]
    for graph in D.atlas_graphs(5):
        small = len(graph) <= 4
        for reading in D.WALK_READINGS:
            for k in scope.atlas_ks if small else (scope.atlas_ks[0], scope.atlas_ks[-1]):
                for budget in scope.atlas_budgets if small else (2, scope.atlas_budgets[-1]):
                    _same_search(graph, k, budget, C.READINGS[reading])
    sevens = [g for g in D.atlas_graphs(7) if len(g) == 7]
    for reading in ("previous/kept/refreshed", "previous/kept/round-up/step-1", "original/cleared/round-up"):
        for graph in (sevens[100], sevens[700]):
            _same_search(graph, 2, 5, C.READINGS[reading])


def test_a_states_successors_do_not_read_the_source():
    # atlas.explore shares one graph of states between the sources: only step 1 reads the source
    for graph in list(D.atlas_graphs(4))[::2]:
        for reading in D.WALK_READINGS:
            r = C.READINGS[reading]
            s = A.explore(graph, 2, 4, r)
            for state in s.states:
                got = {tuple(C.successors(s.params(v), state, r)) for v in range(len(graph))}
                assert len(got) == 1


@pytest.mark.parametrize("reading", D.WALK_READINGS)
def test_every_placements_chance_is_the_solved_chain_of_the_spec(reading):
    from checks.markov import reach_probability

    r = C.READINGS[reading]
    checked = 0
    rounds = 0
    for s in small_atlas(r, (1, 2, 3, 5)):
        big_l, dist = A.lookup_distributions(s)
        cut = A.rounds(s, big_l, dist)
        nodes = range(len(s.graph))
        for source in nodes:
            rounds += s.goes_round(source)
            got = dict(A.placement_chances(s, big_l, dist, source, cut))
            assert set(got) == {frozenset(e) for n in range(1, len(nodes)) for e in
                                itertools.combinations(set(nodes) - {source}, n)}
            for entries, chance in got.items():
                assert chance == reach_probability(D.chain(s.params(source, entries), r)).probability
                checked += 1
            ending = A.ending_chance(s, source, cut)
            assert ending == reach_probability(D.ending_chain(s.params(source), r)).probability
            # cut without the lookups (how walks end asks none), as ending_chances does: the same chance
            assert A.ending_chance(s, source, A.rounds(s) if s.round else None) == ending
            assert (ending == 1) == (not s.goes_round(source)) or not ENDS[reading]
    assert checked > 1000
    # the walks that can go round are solved over their feedback states (atlas.Rounds) under the
    # first-budget halving, and only there
    assert (rounds > 0) == (not ENDS[reading])


def test_the_feedback_solve_agrees_with_storm_and_a_mutant_would_change_it():
    from checks.markov import storm_probability

    r = C.READINGS["original/kept"]
    star = C.Graph.of([(0, 3), (1, 3), (2, 3)], 4)
    s = A.explore(star, 2, 3, r)
    big_l, dist = A.lookup_distributions(s)
    cut = A.rounds(s, big_l, dist)
    assert cut.feedback and s.goes_round(0)
    # a walk that can go round, yet ends with certainty: every cycle of its states has a way out
    assert A.ending_chance(s, 0, cut) == 1
    assert dict(A.placement_chances(s, big_l, dist, 0, cut))[frozenset({1})] == Fraction(3, 4)
    for source in range(4):
        ending = A.ending_chance(s, source, cut)
        assert abs(storm_probability(D.ending_chain(s.params(source), r)) - float(ending)) < 1e-9
        for entries, chance in A.placement_chances(s, big_l, dist, source, cut):
            assert abs(storm_probability(D.chain(s.params(source, entries), r)) - float(chance)) < 1e-9
    # 2 nodes, k = 2, budget 4: blocked at once, the walk restarts with the same budget for ever
    s = A.explore(ENDING.graph, 2, 4, r)
    big_l, dist = A.lookup_distributions(s)
    assert A.ending_chance(s, 0, A.rounds(s, big_l, dist)) == 0


@pytest.mark.parametrize("reading", D.WALK_READINGS)
def test_the_longest_walk_and_the_shortest_lasso_are_those_of_the_listed_walks(reading):
    r = C.READINGS[reading]
    lassos = 0
    for s in small_atlas(r, (2, 3, 4)):
        for source, walk in enumerate(A.longest_walks(s)):
            listed = [w for _, w in C.walks(s.params(source), r, max_restarts=8)]
            looped = [w for w in listed if w.lasso is not None]
            assert (walk.lasso is not None) == bool(looped) == s.goes_round(source)
            replayed = C.replay_walk(walk.params, r, [(m.kind, m.to) for m in walk.moves])
            assert replayed.moves == walk.moves and replayed.lasso == walk.lasso
            if looped:
                lassos += 1
                assert len(walk.moves) == min(len(w.moves) for w in looped)
            else:
                forwards = [sum(m.kind == "forward" for m in w.moves) for w in listed]
                assert sum(m.kind == "forward" for m in walk.moves) == max(forwards)
    assert (lassos > 0) == (not ENDS[reading])


def test_atlas_chances_a_mutant_would_change():
    star = C.Graph.of([(0, 1), (0, 2), (0, 3)], 4)
    s = A.explore(star, 1, 2, C.READINGS["previous/kept"])
    big_l, dist = A.lookup_distributions(s)
    chances = dict(A.placement_chances(s, big_l, dist, 1))
    # from a leaf: to the hub, then one of the three leaves (back to the source too: k = 1)
    assert chances[frozenset({0})] == 1
    assert chances[frozenset({2})] == Fraction(1, 3)
    assert chances[frozenset({2, 3})] == Fraction(2, 3)
    k4 = C.Graph.of([(u, v) for u in range(4) for v in range(u + 1, 4)], 4)
    s = A.explore(k4, 2, 3, C.READINGS["previous/kept"])
    big_l, dist = A.lookup_distributions(s)
    # 1/3 at once, else 1/2 at the second hop, else 1/2 at the third (the Trace is (1, 2)): 1/3 + 2/3 * 3/4
    assert dict(A.placement_chances(s, big_l, dist, 0))[frozenset({3})] == Fraction(5, 6)
    walk = next(iter(A.longest_walks(A.explore(C.Graph.of([(0, 1)], 2), 2, 2, C.READINGS["original/kept"]))))
    # blocked at 1, it restarts at 1 itself with budget 1, blocks again and restarts there for ever
    assert [(m.kind, m.to) for m in walk.moves] == [("forward", 1), ("restart", 1), ("restart", 1)]
    assert walk.lasso == 1


# ---------------------------------------------------------------- the Trace's properties on the states

# listing every walk of the first-budget halving grows fast with the budget (a walk restarts with
# half of the first budget every time): its cross-check stays on smaller graphs and budgets
TRACE_CROSS_CHECK = {"previous/kept": (4, (1, 2, 3, 4, 5)), "previous/cleared": (4, (1, 2, 3, 4, 5)),
                     "original/kept": (4, (1, 2)), "original/cleared": (4, (1, 2)),
                     "previous/kept/refreshed": (4, (1, 2, 3, 4)), "previous/kept/round-up": (4, (1, 2)),
                     "previous/cleared/round-up": (4, (1, 2, 3, 4)), "original/kept/round-up": (4, (1, 2)),
                     "previous/kept/round-up/step-1": (4, (1, 2, 3)),
                     "original/cleared/round-up": (4, (1, 2)), "previous/kept/round-up/held": (4, (1, 2)),
                     "previous/cleared/round-up/held": (4, (1, 2, 3)), "previous/kept/held": (4, (1, 2, 3, 4))}


@pytest.mark.parametrize("reading", D.WALK_READINGS)
def test_each_trace_monitor_is_the_spec_predicate_and_finds_the_shortest_breach(reading):
    # every walk listed (no bound on restarts: a walk that comes back to a state is a lasso)
    r = C.READINGS[reading]
    nodes, budgets = TRACE_CROSS_CHECK[reading]
    scope = attrs.evolve(D.SCOPES["default"], atlas_nodes=nodes, atlas_ks=(1, 2, 3), atlas_budgets=budgets)
    kept = broken = 0
    for s in D.atlas_states(scope, r):
        listed = {v: [w for _, w in C.walks(s.params(v), r)] for v in range(len(s.graph))}
        for name, monitor in A.MONITORS.items():
            predicate = prop(name).predicate
            found = A.breaches(s, monitor)
            for source, walks in listed.items():
                lengths = [A.breach_length(w, monitor) for w in walks]
                assert [n is None for n in lengths] == [predicate(w) for w in walks]
                first = found.first[source]
                if first is None:
                    assert all(n is None for n in lengths)
                    kept += 1
                    continue
                broken += 1
                assert not predicate(first)
                assert A.breach_length(first, monitor) == min(n for n in lengths if n is not None)
                replayed = C.replay_walk(first.params, r, [(m.kind, m.to) for m in first.moves])
                assert replayed.moves == first.moves and replayed.lasso == first.lasso
    assert kept > 50 and broken > 40


def test_the_trace_monitors_catch_what_a_mutant_would_miss():
    path = C.Graph.of([(0, 1)], 2)
    r = C.READINGS["original/kept"]
    # k = 1 on two nodes: 0 -> 1 -> 0 comes back at once (the Trace holds only the newest node)
    s = A.explore(path, 1, 2, r)
    revisits = A.breaches(s, A.MONITORS["walk_never_revisits_a_node"]).first[0]
    assert revisits.receptions()[:3] == [0, 1, 0]
    assert A.breaches(s, A.MONITORS["no_return_within_the_trace"]).first[0] is None   # k = 1: never within it
    # k = 2, budget 2: blocked at 1, the walk restarts at 0 (back within the Trace, a reception) or
    # at 1 itself (no reception), and at 1 it can restart for ever: the lasso breaks
    # walk_never_revisits_a_node with no node received twice
    s = A.explore(path, 2, 2, r)
    lasso = A.shortest_lasso(s, 0)
    assert lasso.receptions() == [0, 1] and not prop("walk_never_revisits_a_node").predicate(lasso)
    assert A.breach_length(lasso, A.MONITORS["walk_never_revisits_a_node"]) == 3
    assert A.breach_length(lasso, A.MONITORS["no_return_within_the_trace"]) is None
    first = A.breaches(s, A.MONITORS["no_return_within_the_trace"]).first[0]
    assert [(m.kind, m.to) for m in first.moves[:2]] == [("forward", 1), ("restart", 0)]
    assert all(b is None for b in A.breaches(s, A.MONITORS["forwarding_avoids_the_trace"]).first)


def test_each_trace_monitor_rejects_a_move_the_spec_forbids():
    graph = PATH3
    avoid = A.MONITORS["forwarding_avoids_the_trace"]
    assert avoid.step(None, C.Move("forward", 1, 0, (0, 1), 4), graph, 2) is A.VIOLATED       # into the Trace
    assert avoid.step(None, C.Move("forward", 0, 2, (0,), 4), graph, 2) is A.VIOLATED         # not a neighbour
    assert avoid.step(None, C.Move("forward", 1, 2, (0, 1), 4), graph, 2) is None
    window = A.MONITORS["no_return_within_the_trace"]
    assert window.step((0, 1), C.Move("restart", 1, 0, (0, 1), 2), graph, 2) is A.VIOLATED    # a restart moves the data
    assert window.step((0, 1), C.Move("restart", 1, 1, (0, 1), 2), graph, 2) == (0, 1)       # ... unless it stays
    assert window.step((0, 1), C.Move("forward", 1, 2, (0, 1), 2), graph, 2) == (1, 2)
    assert window.step((0, 1), C.Move("forward", 1, 0, (1,), 2), graph, 3) is A.VIOLATED


def test_a_monitor_that_breaks_only_by_going_round_flags_exactly_the_lassos():
    # round_breaks on its own: every source whose walk can go round, each with its shortest lasso
    looping = A.Monitor(lambda source, k: None, lambda memory, move, graph, k: memory, round_breaks=True)
    lassos = 0
    for reading in ("original/kept", "previous/kept"):
        for graph in list(D.atlas_graphs(4))[::3]:
            s = A.explore(graph, 2, 4, C.READINGS[reading])
            found = A.breaches(s, looping).first
            assert [w is not None for w in found] == [s.goes_round(v) for v in range(len(graph))]
            for v, w in enumerate(found):
                if w is not None:
                    assert w.moves == A.shortest_lasso(s, v).moves and w.lasso is not None
                    lassos += 1
    assert lassos > 5


def test_the_trace_enumeration_judges_every_source_and_pins_its_first_counterexamples():
    from checks.bench import run_checks

    scope = attrs.evolve(D.SCOPES["default"], atlas_nodes=4, atlas_ks=(1, 2), atlas_budgets=(1, 2, 3))
    sources = sum(len(g) for g in D.atlas_graphs(4)) * 2 * 3
    ran = run_checks(D.ALGORITHM, lambda c: getattr(c, "properties", ()) == D.TRACE_PROPERTIES, scope)
    assert [check.reading for check, _, _ in ran] == list(D.WALK_READINGS)
    for check, results, _ in ran:
        got = {x.property: x for x in results}
        assert got["forwarding_avoids_the_trace"].verdict.value == "holds"
        assert got["forwarding_avoids_the_trace"].detail.startswith(f"{sources} sources")
        assert got["walk_never_revisits_a_node"].verdict.value == "violated"
        assert got["walk_never_revisits_a_node"].detail.startswith(
            "3 moves on a graph of 2 nodes (k = 1, budget 2): receptions 0 -> 1 -> 0")
        back = got["no_return_within_the_trace"]
        if C.READINGS[check.reading].handover == "sent":    # the restart hands the data back to the Trace
            assert back.verdict.value == "violated" and "(k = 2, budget 2): receptions 0 -> 1 -> 0" in back.detail
    # the chosen node restarting from its copy: no restart sends the data back, yet it comes back
    # after the restart pushes a node out of the Trace (kept), or at once (cleared); rounded down,
    # the kept Trace's first such walk needs a budget of 4, beyond this scope
    held = {check.reading: {x.property: x for x in results}["no_return_within_the_trace"] for check, results, _ in ran
            if C.READINGS[check.reading].handover == "held"}
    assert {name: (x.verdict.value, x.detail.split(": receptions ")[-1] if x.verdict.value == "violated" else "")
            for name, x in held.items()} == {"previous/kept/round-up/held": ("violated", "0 -> 1 -> 2 -> 1"),
                                             "previous/cleared/round-up/held": ("violated", "0 -> 1 -> 1"),
                                             "previous/kept/held": ("holds", "")}


def test_z3_proves_the_re_walks_fall_only_where_each_halves_the_walk_before():
    import z3

    for name in ("previous/kept", "original/kept", "previous/kept/round-up"):
        r = C.READINGS[name]
        # the encoding is the spec's rule on concrete budgets
        for first in range(1, 40):
            for before in range(1, first + 1):
                encoded = z3.simplify(proofs.halved_budget(z3.IntVal(first), z3.IntVal(before), r)).as_long()
                assert encoded == C.rewalk_budget(first, before, r)
    assert proofs.rewalks_shrink(C.READINGS["previous/kept"]).verdict.value == "proved"
    # halving the first budget: 4 -> 2 -> 2 -> ... (a re-walk of budget 2 starts another of 2)
    assert proofs.rewalks_shrink(C.READINGS["original/kept"]).verdict.value == "violated"
    assert D.REWALK_PROOF_READINGS == ("previous/kept", "previous/cleared", "previous/kept/refreshed")
    # rounded up, a budget of 1 halves to 1: the lemma fails at b = 1
    assert proofs.rewalks_shrink(C.READINGS["previous/kept/round-up"]).verdict.value == "violated"
    assert proofs.restarts_shrink(C.READINGS["previous/kept/round-up"]).verdict.value == "violated"
    assert [C.halve(b, C.READINGS["previous/kept/round-up"]) for b in (1, 2, 5)] == [1, 1, 3]
    assert [C.halve(b, C.DEFAULT) for b in (1, 2, 5)] == [0, 1, 2]


def test_the_small_helpers_a_mutant_would_change():
    # the node named by a repeat's explanation is the one received twice, not the source
    p = C.WalkParameters(C.Graph.of([(0, 1), (1, 2), (0, 2)], 3), 0, frozenset(), 1, 4)
    walk = C.replay_walk(p, C.DEFAULT, [("forward", 1), ("forward", 2), ("forward", 1)])
    assert walk.receptions() == [0, 1, 2, 1]
    assert prop("walk_never_revisits_a_node").explain(walk) == "node 1 receives the data twice"
    # a target out of reach: None, after each node is met once
    assert C.Graph.of([(0, 1), (1, 2)], 4).distance(0, [3]) is None
    assert C.Graph.of([(0, 1), (1, 2)], 4).distance(0, [2, 3]) == 2
    # depths and heights of the balanced tree (root at depth 0, counted in edges)
    for n, height in ((1, 0), (2, 1), (3, 1), (4, 2), (7, 2), (8, 3)):
        tree = C.balanced_tree(n)
        assert tree.height() == height == max(tree.depth(i) for i in range(n))
        assert sorted(tree.depth(i) for i in range(n))[:3] == [0, 1, 1][:n]
        assert C.tree_height_is_floor_log2_n(tree)
    # node 0 is a leaf of every balanced tree of 2 or more: a tree rooted at 0, built by hand
    assert [C.Tree((-1, 0, 0, 1)).depth(i) for i in range(4)] == [0, 1, 1, 2]


def test_the_baselines_and_the_overlay_at_their_edges():
    rng = np.random.default_rng(0)
    # a random-walk Simple from a node with no neighbour stays put and sends nothing
    assert R.simple([[]], 0, 3, rng, "random-walk") == ({0: 0}, 0)
    # TERA from an isolated source: its walk restarts at the source itself (no message) and ends
    assert R.tera([[]], 0, np.zeros(1, dtype=bool), set(), 2, 2, rng) == (False, 0)
    # a point range (low end = high end) is a subscription like any other
    overlay = R.Overlay(10, 2, 1, seed=0)
    overlay.subscribe(3, {"x": (4, 4)})
    assert overlay.subscriptions[3] == {"x": (4, 4)}
    # a graph of one node is a lower layer (a walk from it blocks at once)
    assert len(C.Graph.of([], 1)) == 1


def test_more_edges_a_mutant_would_move():
    # an isolated source blocks at step 1: recovery restarts it at itself, then it ends blocked
    lone = C.WalkParameters(C.Graph.of([], 1), 0, frozenset(), 1, 2)
    [(chance, walk)] = list(C.walks(lone, C.DEFAULT))
    assert chance == 1 and [(m.kind, m.to) for m in walk.moves] == [("restart", 0), ("blocked", 0)]
    # step 2.1's hand-over is made at the node that found the entry
    p = C.WalkParameters(PATH3, 0, frozenset({2}), 2, 4)
    found = C.replay_walk(p, C.DEFAULT, [("forward", 1), ("forward", 2), ("found", 2)]).moves[-1]
    assert (found.kind, found.frm, found.to) == ("found", 2, 2)
    # a certain walk keeps the claim, an entry in reach missed with some chance breaks it
    reach = prop("walk_reaches_an_entry_whenever_one_is_in_reach").predicate
    near = C.WalkParameters(PATH3, 0, frozenset({1}), 1, 2)
    assert reach(C.Delivery(near, C.DEFAULT, Fraction(1)))
    assert not reach(C.Delivery(near, C.DEFAULT, Fraction(1, 2)))
    assert reach(C.Delivery(attrs.evolve(near, budget=1, entries=frozenset({2})), C.DEFAULT, Fraction(0)))
    # distances in a tree rooted at node 0, built by hand (a balanced tree never has 0 as a parent)
    assert C.Tree((-1, 0, 0, 1)).distance(3, 2) == 3
    # the overlay's own bad input
    with pytest.raises(ValueError):
        R.Overlay(10, True, 1, seed=0)
    assert R.Overlay(2, 1, 1, seed=0).n == 2
    with pytest.raises(ValueError, match="not a live node"):
        R.Overlay(10, 2, 1, seed=0).subscribe(10, {"x": (1, 2)})


def test_tera_is_pinned_where_a_walk_is_needed_and_a_rejoined_node_has_no_subscription():
    # APT 1 of 3 topics: a node caches a topic's entry with chance 1/3, so most walks take hops;
    # the walk's messages and the broadcast's (9 other members) per seed
    topics = {v: v % 3 for v in range(0, 60, 2)}
    assert [R.Overlay(60, 4, 1, seed=s).tera(1, 1, topics)["messages"] for s in range(8)] == \
        [19, 12, 11, 11, 16, 11, 11, 12]
    # a node that leaves takes its subscription with it: back, it gets nothing it has not asked for
    overlay = R.Overlay(30, 4, 5, seed=2, reading="reaches")
    overlay.subscribe(3, {"x": (0, 10)})
    assert overlay.publish(0, {"x": 5})["deliveries"] == [3]
    overlay.leave(3)
    overlay.join(3)
    assert overlay.publish(0, {"x": 5})["deliveries"] == [] and 3 not in overlay.subscriptions


# -- what an independent mutation sample (seed 4) showed untested ------------------------------

def test_replays_shortcut_keeps_only_the_named_move_under_fresh_views():
    refreshed = C.READINGS["previous/kept/refreshed"]
    p = C.WalkParameters(C.Graph.of([(0, 1), (1, 2), (2, 3), (3, 0)], 4), 0, frozenset(), 2, 4)
    (_, _, first), = C.successors(p, None, refreshed, ("forward", 1)) or [(None, None, None)]
    every = C.successors(p, first, refreshed)
    assert len([m for _, m, _ in every if m.kind == "forward"]) >= 2
    only = C.successors(p, first, refreshed, ("forward", 3))
    assert [m.to for _, m, _ in only if m.kind == "forward"] == [3]
    # a restarted walk forwards at once: the shortcut holds there too
    restarting = C.WalkState(1, (), 0, 4, "restarting")                   # neighbours 0 and 2 both open
    assert len([m for _, m, _ in C.successors(p, restarting, C.DEFAULT) if m.kind == "forward"]) == 2
    assert [m.to for _, m, _ in C.successors(p, restarting, C.DEFAULT, ("forward", 2))
            if m.kind == "forward"] == [2]


def test_a_restart_begun_as_step_1_sends_to_any_neighbour_and_ends_the_one_hop_chain():
    # 2 nodes, k = 2, budget 2: blocked at 1 with the Trace (0, 1), the walk restarts at a Trace node
    # with the exact half (1 hop). Step 2.2's forwarding blocks there again for ever; step 1's sends
    # to the other node, which has used up the hop and ends the walk
    p = C.WalkParameters(C.Graph.of([(0, 1)], 2), 0, frozenset(), 2, 2)
    step_1, step_2 = C.READINGS["previous/kept/round-up/step-1"], C.READINGS["previous/kept/round-up"]
    assert (step_1.restart, step_1.origin, step_2.restart) == ("step-1", "printed", "step-2.2")
    restarting = C.WalkState(0, (0, 1), 0, 1, "restarting")
    sent = [(pr, m) for pr, m, _ in C.successors(p, restarting, step_1)]
    assert [(pr, m.kind, m.to, m.trace, m.avoids_trace) for pr, m in sent] == [(1, "forward", 1, (1, 0), False)]
    assert [m.kind for _, m, _ in C.successors(p, restarting, step_2)] == ["restart", "restart"]
    assert all(w.lasso is None for _, w in C.walks(p, step_1))
    assert any(w.lasso is not None for _, w in C.walks(p, step_2))
    # that send goes into the Trace, and is step 1's: step 2.2's property judges it only as a link
    walk = C.replay_walk(p, step_1, [("forward", 1), ("restart", 0), ("forward", 1)])
    assert walk.moves[-1].to in walk.moves[-1].trace and C.forwarding_avoids_the_trace(walk)
    assert not C.forward_avoids_the_trace(attrs.evolve(walk.moves[-1], avoids_trace=True), p.graph)
    assert not C.no_return_within_the_trace(walk)
    # from the middle of a 3-node path to the entry at 0 (k = 2, budget 2): a walk that goes to 2 first
    # blocks there; step 2.2's restart can only go on to 0, step 1's may go back to 2 and use up the hop
    path = nx.path_graph(3)
    assert R.success_probability(path, 1, [0], 2, 2, step_1) == Fraction(5, 8)
    assert R.success_probability(path, 1, [0], 2, 2, step_2) == 1
    with pytest.raises(ValueError, match=r"unknown restart 'step-3'; known: step-2.2, step-1"):
        C.Reading("x", restart="step-3")


def test_a_restart_from_the_chosen_nodes_copy_sends_no_data_but_the_same_messages_and_chances():
    # edges 0-1 and 0-2, k = 2, budget 4: blocked at 1, the walk restarts at 0; blocked at 2, again at 0;
    # then 0 forwards to 1, which received the data within the last 2 receptions once the restarts
    # are not receptions (held): the restarts pushed 1 out of the Trace
    p = C.WalkParameters(C.Graph.of([(0, 1), (0, 2)], 3), 0, frozenset(), 2, 4)
    moves = [("forward", 1), ("restart", 0), ("forward", 2), ("restart", 0), ("forward", 1), ("exhausted", 1)]
    sent, held = C.READINGS["previous/kept"], C.READINGS["previous/kept/held"]
    assert (held.handover, held.origin, sent.handover, C.READINGS["previous/kept/round-up/held"].origin) == (
        "held", "repair", "sent", "printed")
    by = {r.handover: C.replay_walk(p, r, moves) for r in (sent, held)}
    assert [m.carries for m in by["held"].moves if m.kind == "restart"] == [False, False]
    assert [m.carries for m in by["sent"].moves if m.kind == "restart"] == [True, True]
    assert by["sent"].receptions() == [0, 1, 0, 2, 0, 1] and by["held"].receptions() == [0, 1, 2, 1]
    assert by["sent"].messages() == by["held"].messages() == 5        # a notice is a message as the data is
    assert not C.no_return_within_the_trace(by["held"]) and not C.no_return_within_the_trace(by["sent"])
    assert C._first_repeat(by["held"]) == 1 and C._first_repeat(by["sent"]) == 0
    # measured on the walk's path (the restarts pass node 0 again), node 1 is 4 nodes back: with k = 2 the
    # data does not come back in the short term; sent, the restart is a reception and both measures fail
    assert by["held"].passed() == [0, 1, 0, 2, 0, 1] and by["sent"].passed() == by["sent"].receptions()
    assert C.no_return_within_the_last_k_nodes_passed(by["held"])
    assert not C.no_return_within_the_last_k_nodes_passed(by["sent"])
    assert C._first_return_on_the_path(by["sent"]) == 0
    # with the Trace cleared the restarted node may forward back at once: 0 -> 1, restart at 0 (held), 0 -> 1
    cleared = C.replay_walk(C.WalkParameters(C.Graph.of([(0, 1)], 2), 0, frozenset(), 2, 2),
                            C.READINGS["previous/cleared/round-up/held"], [("forward", 1), ("restart", 0), ("forward", 1)])
    assert cleared.passed() == [0, 1, 0, 1] and not C.no_return_within_the_last_k_nodes_passed(cleared)
    # where the restart sends the data, the nodes passed are the receptions: the two measures agree on every walk
    for graph in list(D.atlas_graphs(4))[::3]:
        for reading in ("previous/kept", "previous/cleared/round-up", "previous/kept/round-up/step-1"):
            for _, w in C.walks(C.WalkParameters(graph, 0, frozenset(), 2, 4), C.READINGS[reading], max_restarts=3):
                assert w.passed() == w.receptions()
                assert C.no_return_within_the_last_k_nodes_passed(w) == C.no_return_within_the_trace(w)
    # a restart at the blocked node itself sends nothing under either
    stay = C.Move("restart", 1, 1, (0, 1), 2, carries=True)
    assert C.received(stay) is None and C.received(attrs.evolve(stay, to=0)) == 0
    assert C.received(attrs.evolve(stay, to=0, carries=False)) is None
    # the walk's states and chances are the same: only which node receives the data differs
    for graph in list(D.atlas_graphs(4))[::4]:
        for k, budget in ((2, 3), (3, 4)):
            a = A.explore(graph, k, budget, sent)
            b = A.explore(graph, k, budget, held)
            assert [(x.at, x.trace, x.hops, x.budget, x.ended) for x in a.states] == [
                (x.at, x.trace, x.hops, x.budget, x.ended) for x in b.states]
            g = nx.Graph(list(graph.edges()))
            entries = [len(graph) - 1]
            assert R.success_probability(g, 0, entries, k, budget, sent) == R.success_probability(
                g, 0, entries, k, budget, held)
    with pytest.raises(ValueError, match=r"unknown handover 'thrown'; known: sent, held"):
        C.Reading("x", handover="thrown")


def test_a_walk_that_cannot_block_never_restarts():
    assert C.Ending(ENDING, C.DEFAULT, Fraction(1)).can_restart()
    found = C.WalkParameters(PATH3, 0, frozenset({1}), 2, 4)               # its one neighbour is an entry point
    assert not C.Ending(found, C.DEFAULT, Fraction(1)).can_restart()
    wide = C.WalkParameters(C.Graph.of([(0, 1), (1, 2), (0, 2)], 3), 0, frozenset(), 1, 1)
    assert not C.Ending(wide, C.DEFAULT, Fraction(1)).can_restart()        # one hop, never blocked


def test_a_fresh_view_of_no_nodes_blocks_with_certainty_and_offers_no_forward():
    # a node whose view holds no one (an isolated source) draws an empty fresh view: blocked with chance
    # 1, every other node outside the Trace notwithstanding; no forward of chance 0 is offered
    p = C.WalkParameters(C.Graph.of([], 2), 0, frozenset(), 2, 2)
    choices = C.successors(p, None, C.READINGS["previous/kept/refreshed"])
    assert [(pr, m.kind, m.to) for pr, m, _ in choices] == [(1, "restart", 0)]


def test_the_piece_bounds_accept_what_they_bound_and_the_errors_name_the_problem():
    # one range in the middle cuts [0, 5] into 3 pieces: within n + 2 = 3 and 2n + 1 = 3, both tight
    one = C.Space(0, 5, ((1, 2),))
    assert len(C.pieces(one)) == 3
    assert C.virtual_nodes_at_most_subscriptions_plus_2(one) and C.virtual_nodes_at_most_twice_subscriptions_plus_1(one)
    two = C.Space(0, 5, ((1, 1), (3, 3)))                      # 5 pieces: past n + 2 = 4, at 2n + 1 = 5
    assert not C.virtual_nodes_at_most_subscriptions_plus_2(two)
    assert C.virtual_nodes_at_most_twice_subscriptions_plus_1(two)
    with pytest.raises(ValueError, match=r"^the effective cost needs matched > 0 and expected > 0$"):
        C.effective_cost(10, 0, 4)
    with pytest.raises(ValueError, match=r"^move 1 \(forward 5\) is not a choice of the walk here; allowed: "
                                         r"forward 1, forward 2$"):
        C.replay_walk(C.WalkParameters(C.Graph.of([(0, 1), (0, 2)], 3), 0, frozenset(), 2, 2), C.DEFAULT,
                      [("forward", 5)])


def test_bad_readings_and_parameters_are_named():
    with pytest.raises(ValueError, match=r"unknown trace_on_restart 'lost'; known: kept, cleared"):
        C.Reading("x", trace_on_restart="lost")
    for budget in (True, "3", 2.0):
        with pytest.raises(ValueError, match="the hop budget is a whole number >= 1"):
            C.WalkParameters(PATH3, 0, frozenset(), 2, budget)
    with pytest.raises(ValueError, match="k"):
        R.success_probability(nx.path_graph(3), 0, {2}, True, 4)


def test_an_apt_of_one_holds_one_other_node_and_a_rejoined_view_is_distinct():
    samples = R.apt_samples(5, 1, np.random.default_rng(0))
    assert samples.shape == (5, 1) and all(samples[v, 0] != v for v in range(5))
    assert R.apt_samples(5, 0, np.random.default_rng(0)).shape == (5, 0)
    overlay = R.Overlay(5, 4, 1, seed=3)
    overlay.leave(0)
    overlay.join(0)
    assert sorted(overlay.views[0]) == [1, 2, 3, 4]


def test_reference_gaps_the_mutation_sample_found(monkeypatch):
    """Three mutants of reference/crawl.py that no test noticed (seed 0's sample, 2026-11-29)."""
    # the acyclic solver gives the exact chance, and None only where a state comes back
    edges = {"a": [(Fraction(1, 2), "b"), (Fraction(1, 2), "c")], "b": "found", "c": "exhausted"}
    assert R._solve_acyclic("a", edges) == Fraction(1, 2)
    assert R._solve_acyclic("a", {"a": [(Fraction(1), "b")], "b": [(Fraction(1), "a")]}) is None
    # views refreshed at every hop: the first hop from an end of the path 0 - 1 - 2 can go straight
    # to 2 (a fresh view of one node among the others); with the view kept it goes to 1 every time
    path = [[1], [0, 2], [1]]
    firsts = {reading: {R.walk(path, 0, {2}, 2, 3, np.random.default_rng(seed), C.READINGS[reading])[0][1]
                        for seed in range(40)} for reading in ("previous/kept", "previous/kept/refreshed")}
    assert firsts == {"previous/kept": {1}, "previous/kept/refreshed": {1, 2}}
    # the overlay walks under its own reading
    seen = []
    overlay = R.Overlay(30, 3, 2, seed=5, reading="previous/cleared")
    overlay.subscribe(7, {"x": (0, 9)})
    real = R.walk
    monkeypatch.setattr(R, "walk", lambda *args, **kwargs: seen.append(
        args[6] if len(args) > 6 else kwargs.get("reading")) or real(*args, **kwargs))
    overlay.publish(1, {"x": 3})
    assert seen and all(r == C.READINGS["previous/cleared"] for r in seen)


def _nx(graph: C.Graph) -> nx.Graph:
    g = nx.Graph()
    g.add_nodes_from(range(len(graph)))
    g.add_edges_from(graph.edges())
    return g


def test_under_refreshed_views_the_graphs_of_one_degree_sequence_share_their_states_exactly():
    # the searched states of every atlas graph up to 5 nodes are a search of that graph (relabelled,
    # isomorphic), state for state, and where the graph is its run's first, of the atlas graph itself;
    # under a snapshot reading, which reads the edges, nothing is shared
    r = C.READINGS["previous/kept/refreshed"]
    ks, budgets = (1, 2, 3), (1, 2, 4)
    graphs = D.atlas_graphs(5)
    shared = list(D._searched_states(5, ks, budgets, r))
    assert len(shared) == len(graphs) * len(ks) * len(budgets)
    firsts = {D.degree_sequence(next(run)) for _, run in itertools.groupby(graphs, key=D.degree_sequence)}
    assert len(firsts) < len(graphs)        # some run has more than one graph
    relabelled = 0
    for atlas_graph, states in zip((g for g in graphs for _ in ks for _ in budgets), shared):
        assert nx.is_isomorphic(_nx(atlas_graph), _nx(states.graph))
        alone = A.explore(states.graph, states.k, states.budget, r)
        assert (alone.states, alone.moves, alone.roots, alone.order, alone.round) == \
               (states.states, states.moves, states.roots, states.order, states.round)
        relabelled += states.graph != atlas_graph
    assert relabelled
    snapshot = C.READINGS["previous/kept"]
    assert [s.graph for s in D._searched_states(4, (2,), (3,), snapshot)] == list(D.atlas_graphs(4))


def test_the_relabelling_gives_each_node_the_degree_of_its_label_and_refuses_other_sequences():
    # the large scope's 853 graphs of 7 nodes: 236 runs, each graph relabelled to its run's first's
    # degrees; on some runs of several graphs, their walks' states are the first's (k = 2, budget 3)
    r = C.READINGS["previous/kept/refreshed"]
    graphs = [g for g in D.atlas_graphs(7) if len(g) == 7]
    runs = [list(run) for _, run in itertools.groupby(graphs, key=D.degree_sequence)]
    assert (len(graphs), len(runs)) == (853, 236)
    compared = 0
    for i, run in enumerate(runs):
        first = run[0]
        for graph in run:
            same = D.same_degrees(graph, first)
            assert [len(v) for v in same.views] == [len(v) for v in first.views]
            assert nx.is_isomorphic(_nx(same), _nx(graph))
            if i % 40 == 0 and graph is not first:
                ours, theirs = A.explore(same, 2, 3, r), A.explore(first, 2, 3, r)
                assert (ours.states, ours.moves, ours.roots) == (theirs.states, theirs.moves, theirs.roots)
                compared += 1
        assert D.same_degrees(first, first) == first
    assert compared > 10
    path, star = C.Graph.of([(0, 1), (1, 2), (2, 3)], 4), C.Graph.of([(0, 1), (0, 2), (0, 3)], 4)
    with pytest.raises(ValueError, match="degree sequences differ"):
        D.same_degrees(path, star)


@pytest.mark.parametrize("enumeration", [D.ending_enumeration, D.trace_enumeration, D.ending_chances,
                                         D.delivery_enumeration])
def test_the_work_a_run_shares_gives_each_graph_the_cases_of_its_own(enumeration, monkeypatch):
    # under refreshed views the other graphs of a run take the walks, chances and breaches worked out
    # on the run's first graph (_PerSearch): every case, subject and count, is what working them out
    # again on that graph's own States gives
    scope = attrs.evolve(D.SCOPES["default"], atlas_nodes=5, atlas_ks=(1, 2), atlas_budgets=(1, 3))

    def listed():
        return [(case.subject, case.counts) for case in enumeration(scope, "previous/kept/refreshed").cases()]

    shared = listed()
    monkeypatch.setattr(D._PerSearch, "get", lambda self, states, work: work())
    assert shared == listed() and len(shared) > 100
    graphs = {case[0].params.graph for case in shared}
    assert len(graphs) == len(D.atlas_graphs(5)) and not graphs <= set(D.atlas_graphs(5))   # some relabelled
