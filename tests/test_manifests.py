"""The manifests are a regression test of the models: every algorithm's fast checks run here and
must give the pinned verdicts and exact state and case counts, and every scope's declared checks
are exactly the pinned ones (a model change is caught by `make test`, not only by `make check`)."""

from pathlib import Path

import pytest

import tokenring
from checks import plugin, runner, smt

ROOT = Path(__file__).resolve().parents[1]

ALGORITHMS = {**plugin.algorithms(), tokenring.ALGORITHM.name: tokenring.ALGORITHM}


def declared_keys(algorithm: plugin.Algorithm, scope: str) -> set[tuple[str, str, str]]:
    keys = {k for check in algorithm.checks(algorithm.scope(scope)) for k in check.keys()}
    if algorithm.spark is not None:
        keys |= {(*reversed(column.split(":")), "spark") for column in algorithm.spark.job().check_columns()}
    return keys


@pytest.mark.parametrize("name", sorted(ALGORITHMS))
def test_every_declared_check_is_pinned_and_every_pinned_check_is_declared(name):
    algorithm = ALGORITHMS[name]
    manifest = runner.load_manifest(algorithm)
    assert "default" in manifest
    for scope in manifest:
        assert declared_keys(algorithm, scope) == runner.manifest_keys(algorithm, scope), scope
        for entry in manifest[scope].values():
            assert entry["runtime"] in runner.RUNTIME_CLASSES and entry["method"] in ("z3", "exhaustive",
                                                                                       "hypothesis", "spark")


@pytest.mark.long(50)
@pytest.mark.parametrize("name", sorted(ALGORITHMS))
def test_the_fast_checks_give_the_pinned_verdicts_and_counts(name, tmp_path):
    algorithm = ALGORITHMS[name]
    fast = runner.manifest_keys(algorithm, "default", runtime="fast")
    results, problems = runner.run([algorithm], report=tmp_path / "check.json", runtime="fast")
    assert problems == []
    assert {(r.property, r.reading, r.method) for r in results} >= fast
    # the published queries of its Z3 checks are the encodings' (a changed encoding without its
    # regenerated queries fails here; the medium ones are held by `make check` leaving git clean)
    if name in plugin.algorithms():
        for path in sorted((smt.query_folder(tmp_path / "check.json") / name).glob("*.smt2.xz")):
            committed = ROOT / "reports" / "smt" / name / path.name
            assert smt.same_queries(committed, path.read_bytes()), (
                f"{committed}: not the queries the encoding asks now; rerun `pubsub-proofs check {name} --methods z3`")


@pytest.mark.parametrize("name", sorted(plugin.algorithms()))
def test_the_claims_inventory_and_the_manifest_agree(name):
    """Every claim sentence of the paper is judged by pinned checks or says why none can, and every
    property the manifest pins judges some sentence of the paper."""
    algorithm = ALGORITHMS[name]
    assert algorithm.inventory is not None, f"{name} has no inventory.py listing its paper's claims"
    sentences = algorithm.inventory()
    pinned = {key[0] for key in runner.manifest_keys(algorithm, "default")}
    cited = {prop for claim in sentences for prop in claim.checked_by}
    questions = {p.name for p in algorithm.properties() if p.question}  # this project's, not the paper's
    assert cited <= pinned, f"sentences judged by properties no check pins: {sorted(cited - pinned)}"
    assert not cited & questions, f"paper sentences judged by this project's questions: {sorted(cited & questions)}"
    assert pinned <= cited | questions, f"pinned properties that judge no sentence of the paper: {sorted(pinned - cited)}"
    assert all(claim.reproduced or claim.why.strip() for claim in sentences if not claim.checked_by)
    assert len({(c.section, c.text) for c in sentences}) == len(sentences), "a sentence is listed twice"


def test_a_paper_claim_is_checked_or_says_why_not():
    with pytest.raises(ValueError, match="needs one of checked_by, why or reproduced"):
        plugin.Sentence("sec. 1", "it is fast")
    with pytest.raises(ValueError, match="needs one of checked_by, why or reproduced"):
        plugin.Sentence("sec. 1", "it is fast", checked_by=("p",), why="testbed")
