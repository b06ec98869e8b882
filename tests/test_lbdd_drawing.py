"""The pictures of LBDD counterexamples (checks/algorithms/lbdd/drawing.py): every committed one
draws through its replay, the same bytes each time, and what the picture marks is what the spec
says is wrong: a schedule's red target indices are those Algorithm 2 gives no owner or several;
a tree's highlighted subscribers are those without exactly one parent, the events' nodes drawn
where they failed or joined, and the headline says the property's own explanation."""

import json
from pathlib import Path

import pytest

from checks.algorithms import lbdd as C
from checks.algorithms.lbdd import drawing as D
from spec import lbdd as L
from spec.registry import get

ROOT = Path(__file__).resolve().parents[1]
FILES = (sorted((ROOT / "reports" / "counterexamples" / "lbdd").glob("*.json"))
         + sorted((ROOT / "reports" / "validate" / "lbdd").glob("*.json")))
DOCS = {path: json.loads(path.read_text()) for path in FILES}
SCHEDULES = [p for p, doc in DOCS.items() if doc.get("kind") == "schedule"]
TREES = [p for p, doc in DOCS.items() if doc.get("kind") != "schedule"]
LARGEST = max(TREES, key=lambda p: (len(DOCS[p]["subscribers"]), p.name))


def name(path: Path) -> str:
    return f"{path.parent.parent.name}/{path.name}"


@pytest.fixture
def drawn(monkeypatch):
    """Every figure drawing.save writes, kept (after it is saved and closed) for reading back."""
    figures = []
    save = D.save

    def keep(fig, path):
        figures.append(fig)
        save(fig, path)

    monkeypatch.setattr(D, "save", keep)
    return figures


def draw(path: Path, png: Path):
    """Replay a committed counterexample and draw it as `pubsub-proofs replay --png` does."""
    doc = DOCS[path]
    replayed = C.replay(doc, say=lambda line: None)
    assert replayed.reproduced and replayed.draw is not None
    replayed.draw(str(png), f"{doc['algorithm']} {doc['reading']}: {doc['property']}")
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and png.stat().st_size > 5000


def by_gid(fig, prefix: str) -> dict[str, object]:
    return {a.get_gid(): a for ax in fig.axes for a in ax.get_children() if (a.get_gid() or "").startswith(prefix)}


def red(artist) -> bool:
    from matplotlib.colors import to_rgba

    return tuple(artist.get_facecolor()) == to_rgba(D.RED)


def blue(artist) -> bool:
    from matplotlib.colors import to_rgba

    return tuple(artist.get_facecolor()) == to_rgba(D.OWNED)


def headline(fig) -> str:
    return " ".join(t.get_text() for t in fig.texts)


def test_the_committed_counterexamples_include_schedules_and_large_trees():
    assert len(SCHEDULES) >= 8 and len(TREES) >= 100
    assert len(DOCS[LARGEST]["subscribers"]) >= 100


# --------------------------------------------------------------------------------------------
# Schedules: Algorithm 2's partition
# --------------------------------------------------------------------------------------------

@pytest.mark.parametrize("path", SCHEDULES, ids=name)
def test_a_schedule_marks_red_exactly_the_target_indices_without_one_owner(path, tmp_path, drawn):
    draw(path, tmp_path / "cx.png")
    [fig] = drawn
    doc = DOCS[path]
    s, t, reading = doc["S"], doc["T"], L.reading_named(doc["reading"])
    ranks = range(reading.rank_base, reading.rank_base + s)
    owners = {j: [r for r in ranks if j in L.owned_indices(r, s, t, reading)] for j in range(1, t + 1)}
    counts = by_gid(fig, "owners:")
    assert set(counts) == {f"owners:{j}" for j in range(1, t + 1)}
    assert {j for j in owners if red(counts[f"owners:{j}"])} == {j for j, rs in owners.items() if len(rs) != 1} != set()
    cells = by_gid(fig, "cell:")
    assert {(r, j) for r in ranks for j in owners if blue(cells[f"cell:{r}:{j}"])} == \
        {(r, j) for j, rs in owners.items() for r in rs}
    assert "violated" in fig.texts[0].get_text() and f"S = {s}" in fig.texts[0].get_text()
    assert "ratio" in headline(fig) and D.schedule_grid(s, t, reading).explanation() in headline(fig)


@pytest.mark.parametrize("reading", sorted(L.READINGS))
def test_the_schedule_grid_is_the_spec_partition_and_shows_its_bounds(reading):
    reading = L.READINGS[reading]
    for s in range(1, 7):
        for t in range(0, 14):
            grid = D.schedule_grid(s, t, reading)
            spec_owners = {j: 0 for j in range(1, t + 1)}
            for r in range(reading.rank_base, reading.rank_base + s):
                owned = L.owned_indices(r, s, t, reading)
                assert grid.owned[r] == tuple(owned)
                low, up = D.bounds(r, s, t, reading)   # the row label's interval, clipped, is the spec's
                assert range(max(low, 1), min(up, t) + 1) == owned
                for j in owned:
                    spec_owners[j] += 1
            assert set(grid.faulty) == {j for j, c in spec_owners.items() if c != 1}
            assert bool(grid.faulty) == (not L.schedule_partitions_targets(L.BucketSizes(s, t, reading)))
            assert (grid.explanation() == "") == (not grid.faulty)


def test_a_bigger_schedule_marks_a_whole_run_of_unowned_indices(drawn, tmp_path):
    grid = D.draw_schedule({"S": 7, "T": 40, "reading": "literal"}, str(tmp_path / "s.png"), "literal")
    [fig] = drawn
    assert grid.faulty == tuple(range(31, 41))   # integer ratio 5, ranks 0..6: rank 0 owns nothing
    assert {g for g, a in by_gid(fig, "owners:").items() if red(a)} == {f"owners:{j}" for j in range(31, 41)}
    assert "31..40" in headline(fig)


def test_a_target_index_with_several_owners_is_red_too(drawn, tmp_path):
    # no reading of Algorithm 2 makes two ranks share an index; a grid that does is drawn red there
    grid = D.ScheduleGrid(2, 3, L.CORRECTED, (1, 2), {1: (1, 2), 2: (2,)},
                          {1: (1,), 2: (1, 2), 3: ()})
    D.save(D.schedule_figure(grid, "overlap"), str(tmp_path / "o.png"))
    [fig] = drawn
    assert grid.faulty == (2, 3)
    assert {g for g, a in by_gid(fig, "owners:").items() if red(a)} == {"owners:2", "owners:3"}
    assert "index 2 is owned by several ranks" in grid.explanation() and "index 3 is owned by no rank" in \
        grid.explanation()


# --------------------------------------------------------------------------------------------
# Trees: the copy graph
# --------------------------------------------------------------------------------------------

def nodes_drawn(fig, picture, role: str) -> set[int]:
    """The nodes the scatter of `role` puts a point on."""
    at = {xy: v for v, xy in picture.positions.items()}
    scatter = by_gid(fig, f"nodes:{role}").get(f"nodes:{role}")
    return set() if scatter is None else {at[tuple(map(float, xy))] for xy in scatter.get_offsets()}


@pytest.mark.parametrize("path", TREES, ids=name)
def test_a_tree_highlights_exactly_the_subscribers_without_one_parent(path, tmp_path, drawn):
    draw(path, tmp_path / "cx.png")
    [fig] = drawn
    doc = DOCS[path]
    _, run = C.replay_tree(doc, say=lambda line: None)
    events, state = D.replay_events(doc)
    picture = D.tree_picture(run, doc["property"], events, state)
    counts = run.parent_counts
    wrong = {v for v in range(1, len(counts)) if counts[v] != 1}
    assert {v for v, why in picture.marked.items()
            if any(text == "no parent" or text.endswith(" parents") for _, text in why)} == wrong
    assert nodes_drawn(fig, picture, "no parent") == {v for v in wrong if counts[v] == 0}
    assert nodes_drawn(fig, picture, "several parents") == {v for v in wrong if counts[v] > 1}
    assert set().union(*(nodes_drawn(fig, picture, role) for role in D.ROLE_COLOURS)) == set(range(len(counts)))
    # every such node is named beside it, in bold
    labels = {t.get_text().split()[0]: t for ax in fig.axes for t in ax.texts if t.get_text()}
    for v in wrong:
        label = labels[run.addresses[v] if picture.small else f"#{v}"]
        assert label.get_fontweight() == "bold"
    # the headline: the property, violated, and the property's own explanation of this run
    assert doc["property"] in fig.texts[0].get_text() and "violated" in fig.texts[0].get_text()
    assert get("lbdd", doc["property"]).explain(run)[:40] in headline(fig)
    # the events: a failed node that is gone stands as a ghost, a joined one is ringed
    live = set(run.addresses)
    gone = {e.node.address for e in events if e.kind == "fail" and e.node.address not in live}
    joined = {run.addresses.index(e.node.address) for e in events if e.kind == "join" and e.node.address in live}
    ghosts = by_gid(fig, "failed").get("failed")
    assert (0 if ghosts is None else len(ghosts.get_offsets())) == len(gone)
    rings = by_gid(fig, "joined").get("joined")
    assert (set() if rings is None else {tuple(map(float, xy)) for xy in rings.get_offsets()}) == \
        {picture.positions[v] for v in joined}
    assert all(any(e.node.address in t.get_text() for t in fig.axes[0].texts) for e in events if e.node.address in gone)


def test_an_event_s_nodes_are_named_and_a_failed_node_s_lost_copies_drawn(drawn, tmp_path):
    view = L.abstract_view(0, [2, 4, 5])     # p sends to s1 (bucket 2), s1 to s2 and s3 (bucket 3)
    doc = C.view_document("buckets_at_most_log2_n", "reselect-path-update", "test", view,
                          events=[{"fail": "s1"}, {"join": {"address": "new", "digest": 1}}])
    replayed = C.replay(doc, say=lambda line: None)
    replayed.draw(str(tmp_path / "e.png"), "events")
    [fig] = drawn
    events, state = D.replay_events(doc)
    assert [(e.kind, e.node.address, e.bucket) for e in events] == [("fail", "s1", 2), ("join", "new", 1)]
    assert state.schedule("new").targets == ("s2", "s3")
    assert events[0].sent_to == ("s2", "s3")
    lost = [a for a in fig.axes[0].patches if a.get_gid() == "lost-copy"]
    assert len(lost) == 2
    texts = " ".join(t.get_text() for ax in fig.axes for t in ax.texts)
    assert "s1 failed (step 1)" in texts and "joined at step 2" in texts and "step 1: s1" in texts


def test_a_large_tree_gets_short_labels_and_the_marked_nodes_full_addresses_in_the_note(drawn, tmp_path):
    draw(LARGEST, tmp_path / "big.png")
    [fig] = drawn
    doc = DOCS[LARGEST]
    _, run = C.replay_tree(doc, say=lambda line: None)
    picture = D.tree_picture(run, doc["property"])
    assert not picture.small and len(run.addresses) > D.INDEXED_VIEW
    graph_texts = [t.get_text() for t in fig.axes[0].texts]
    unmarked = [a for v, a in enumerate(run.addresses) if v not in picture.marked]
    assert not any(a in text for text in graph_texts for a in unmarked[:50])   # no dotted address crammed in
    # no two nodes overlap: centres at least 0.2 in apart (a node is 0.12 in across)
    import numpy as np

    at = np.array(list(picture.positions.values()))
    apart = np.hypot(*(at[:, None, :] - at[None, :, :]).transpose(2, 0, 1))
    assert apart[~np.eye(len(at), dtype=bool)].min() >= 0.2
    # the marked nodes of small groups carry their full address in the note
    note = fig.axes[1].texts[0].get_text()
    groups = {}
    for v, why in picture.marked.items():
        for reason in why:
            groups.setdefault(reason, []).append(v)
    assert groups
    for nodes in groups.values():
        if len(nodes) <= 6:
            assert all(run.addresses[v] in note for v in nodes)
    assert f"n = {run.n} subscribers" in note


def test_a_bucket_out_of_the_claimed_range_is_shaded_and_its_node_named(drawn, tmp_path):
    path = next(p for p in TREES if DOCS[p]["property"] == "buckets_24_to_32_at_500")
    draw(path, tmp_path / "b.png")
    [fig] = drawn
    _, run = C.replay_tree(DOCS[path], say=lambda line: None)
    outside = {b for b in run.buckets[1:] if not 24 <= b <= 32}
    assert set(by_gid(fig, "named-bucket:")) == {f"named-bucket:{b}" for b in outside} != set()
    note = fig.axes[1].texts[0].get_text()
    assert all(run.addresses[v] in note for v in range(1, len(run.addresses)) if run.buckets[v] in outside)


def test_a_deepest_path_is_drawn_red(drawn, tmp_path):
    runs = {p: C.replay_tree(DOCS[p], say=lambda line: None)[1] for p in TREES
            if DOCS[p]["property"] == "depth_between_5_and_9"}
    path, run = next((p, run) for p, run in runs.items() if max(run.depths.values()) > 0)
    draw(path, tmp_path / "d.png")
    [fig] = drawn
    red_edges = [a for a in fig.axes[0].patches if a.get_gid() == "named-edge"]
    hops = D.deepest_path(run)
    assert len(red_edges) == max(run.depths.values()) == len(hops) - 1
    assert hops[0] == 0 and all((s, r) in run.edges for s, r in zip(hops, hops[1:]))


def test_copies_to_a_bucket_that_is_not_higher_are_drawn_red(drawn, tmp_path):
    run = L.Dissemination(("p", "a", "b"), (0, 2, 2), ((0, 1), (1, 2)))   # a -> b within bucket 2
    picture = D.draw_copy_graph(run, str(tmp_path / "o.png"), "one way", "one_way_dissemination")
    [fig] = drawn
    assert picture.named_edges == {(1, 2)} and 1 in picture.marked
    assert [a.get_gid() for a in fig.axes[0].patches].count("named-edge") == 1


def test_a_cycle_is_coloured(drawn, tmp_path):
    run = L.Dissemination(("p", "a", "b", "c"), (0, 1, 2, 3), ((0, 1), (2, 3), (3, 2)))
    picture = D.draw_copy_graph(run, str(tmp_path / "c.png"), "cycle", "no_cycle")
    [fig] = drawn
    assert D.cycle_nodes(run) == {2, 3} and all("on a cycle" in [t for _, t in picture.marked[v]] for v in (2, 3))
    assert nodes_drawn(fig, picture, "on a cycle") == {2, 3}


# --------------------------------------------------------------------------------------------
# The same bytes every time
# --------------------------------------------------------------------------------------------

@pytest.mark.parametrize("path", [LARGEST, SCHEDULES[0]], ids=name)
def test_a_picture_is_the_same_bytes_when_drawn_twice(path, tmp_path):
    draw(path, tmp_path / "one.png")
    draw(path, tmp_path / "two.png")
    assert (tmp_path / "one.png").read_bytes() == (tmp_path / "two.png").read_bytes()
